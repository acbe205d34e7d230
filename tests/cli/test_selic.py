"""``multas legislacao selic atualizar ARQUIVO`` (issue 35, item 1; spec § 3.5 v4), in process:
a month past the shipped series fails ``multas calcular`` and ``multas lote`` until the
Banco Central's CSV adds it to the configured database; ``multas legislacao`` still works as
before, with and without its options."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from multas.principal import cli
from tests.utils.lote import escrever_csv, ler_csv

#: July 2025 is needed (vencimento 02/06/2025, payment in 08/2025), past the shipped 04/2025
MORA = {
    "regime": "anp.mora",
    "principal": "1000.00",
    "data_ciencia": "2025-05-02",
    "data_pagamento": "2025-08-01",
    "interpretacao": {"encargos": "lei-10522"},
}
BCB = '"data";"valor"\n"01/05/2025";"1,14"\n"01/06/2025";"1,10"\n"01/07/2025";"1,28"\n'


def _multas(*args: Any, env: dict[str, str], entrada: str | None = None) -> Any:
    return CliRunner().invoke(cli, [str(a) for a in args], input=entrada, env=env)


def test_atualizar_faz_o_calculo_e_o_lote_verem_o_mes(tmp_path: Path) -> None:
    banco = tmp_path / "dados" / "multas.db"
    env = {"MULTAS_DATABASE_URL": f"sqlite:///{banco}"}
    caso = json.dumps(MORA)
    # no database yet: the shipped series, and calcular creates none
    antes = _multas("calcular", "-", env=env, entrada=caso)
    assert antes.exit_code == 2
    assert json.loads(antes.stdout)["erro"] == {
        "campo": "taxas_selic.2025-07",
        "mensagem": "taxa Selic de 07/2025 não disponível (última: 04/2025): atualize com "
        "`multas legislacao selic atualizar`",
    }
    assert not banco.exists()
    arquivo = tmp_path / "bcdata.sgs.4390.csv"
    arquivo.write_text(BCB, encoding="latin-1")
    r = _multas("legislacao", "selic", "atualizar", arquivo, env=env)
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("3 meses acrescentados, de 05/2025 a 07/2025.")
    depois = _multas("calcular", "-", env=env, entrada=caso)
    assert depois.exit_code == 0, depois.output
    resultado = json.loads(depois.stdout)
    assert resultado["juros_mora"] == "22.80"  # (1,28% + 1%) × 1000
    julho = next(p for p in resultado["passos"] if p["descricao"].startswith("Selic de 07/2025"))
    assert "arquivo bcdata.sgs.4390.csv (SHA-256" in julho["fundamento"]
    # the batch reads the same months (in the parent, for every worker)
    entrada, saida = tmp_path / "m.csv", tmp_path / "r.csv"
    linha = {k: v for k, v in MORA.items() if k not in ("regime", "interpretacao")}
    escrever_csv(entrada, [{"id": "a", **linha}], ["id", *linha])
    lote = _multas(
        "lote", entrada, "-r", "anp.mora", "-o", saida, "-i", "encargos=lei-10522", env=env
    )
    assert lote.exit_code == 0, lote.output
    assert ler_csv(saida)[0]["juros_mora"] == "22.80"
    # again, from the standard input: nothing new, and it says so
    de_novo = _multas("legislacao", "selic", "atualizar", "-", "-f", "json", env=env, entrada=BCB)
    assert de_novo.exit_code == 0, de_novo.output
    assert json.loads(de_novo.stdout)["adicionados"] == 0
    # the listing: the ends and each stretch with its source
    lista = json.loads(_multas("legislacao", "selic", "-f", "json", env=env).stdout)
    assert (lista["primeiro"], lista["ultimo"], lista["meses"]) == ("2009-01", "2025-07", 199)
    assert [t["de"] for t in lista["trechos"]] == ["2009-01", "2025-05"]
    assert lista["taxas"]["2025-07"] == "1.28"


def test_arquivo_ruim_e_erro_que_nomeia_a_linha_sem_rastro(tmp_path: Path) -> None:
    env = {"MULTAS_DATABASE_URL": f"sqlite:///{tmp_path / 'm.db'}"}
    lacuna = '"data";"valor"\n"01/05/2025";"1,14"\n"01/07/2025";"1,28"\n'
    r = _multas("legislacao", "selic", "atualizar", "-", env=env, entrada=lacuna)
    assert r.exit_code == 2
    assert r.stderr == (
        "Erro no campo 'arquivo': entrada padrão, linha 3: meses não contíguos: depois de "
        "05/2025 vem 06/2025, não 07/2025\n"
    )
    assert r.exception is None or isinstance(r.exception, SystemExit)
    listado = _multas("legislacao", "selic", env=env)
    assert "De 01/2009 a 04/2025: 196 meses." in listado.stdout  # nothing was stored


def test_legislacao_sem_subcomando_continua_igual() -> None:
    r = _multas("legislacao", "-p", "anp.juros_mora", env={})
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("Legislação (versão dos dados ")
    assert "anp.juros_mora" in r.stdout and "renovabio" not in r.stdout
    dados = json.loads(_multas("legislacao", "--formato", "json", "-p", "anp.", env={}).stdout)
    assert dados["parametros"] and all(p["nome"].startswith("anp.") for p in dados["parametros"])
