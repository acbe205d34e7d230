"""Spec § 6.3 v4, the year opens the autos: ``multas ano calcular --salvar`` opens, in the
same transaction as the ledger's years, one ``anp`` processo per fined distributor, with the
infração on the day after the deadline (or on it, ``data_infracao_meta = prazo``), the auto on
the notice's date, ``origem`` and its reference; one already opened is counted, not opened
again; the summary says each kind's count and why none was opened."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from multas.principal import cli
from multas.servicos.gestao import Ciclo
from multas.servicos.persistencia import Repositorio
from tests.utils import cnpj_valido

ALFA, BETA, GAMA = (cnpj_valido(raiz * 8) for raiz in "123")


def _ano(pasta: Path) -> tuple[Path, Path]:
    """A 2024 year of 3 distributors: Alfa and Beta fined, Gama met its target."""
    cotacoes = pasta / "mensais.csv"
    cotacoes.write_text("mes,media\n2024-01,80.5\n2024-02,90.25\n", encoding="utf-8")
    entrada = pasta / "d.csv"
    entrada.write_text(
        "cnpj,nome,meta_cbios,cbios_aposentados,meta_anterior_cumprida,id\n"
        f"{ALFA},Alfa,100000,60000,sim,48610.000001/2025-01\n"
        f"{BETA},Beta,50000,10000,sim,\n"
        f"{GAMA},Gama,100000,100000,sim,\n",
        encoding="utf-8",
    )
    return entrada, cotacoes


def _rodar(pasta: Path, banco: str, *extra: str) -> Any:
    entrada, cotacoes = _ano(pasta)
    return CliRunner().invoke(
        cli,
        [
            *("ano", "calcular", str(entrada), "--ano", "2024", "--cotacoes", str(cotacoes)),
            *("--saida", str(pasta / "s"), "--salvar", "--banco", banco, *extra),
        ],
    )


def _autos(banco: str) -> list[dict[str, Any]]:
    ciclo, dia = Ciclo(Repositorio(banco)), date(2025, 6, 2)  # judged on a fixed day
    return [ciclo.detalhe(p, dia) for p in ciclo.todos(dia) if p.armazenado.tipo == "anp"]


def test_o_ano_abre_um_processo_anp_por_multado_com_origem_e_referencia(
    tmp_path: Path,
) -> None:
    banco = f"sqlite:///{tmp_path / 'm.db'}"
    referencias = tmp_path / "refs.csv"
    referencias.write_text(f"cnpj,id\n{BETA},48610.000002/2025-02\n", encoding="utf-8")
    r = _rodar(
        tmp_path, banco, "--data-notificacao", "03/03/2025", "--referencias", str(referencias)
    )
    assert r.exit_code == 0, r.output
    assert (
        "Salvos na carteira: 3 anos; processos sancionadores (anp) abertos: 2, já existentes: 0; "
        "processos da lista de sanções abertos: 0 (a meta de 2024 venceu em 31/12/2024, antes de "
        "01/01/2025: sem lista de sanções (Parecer nº 00041/2025/PF-ANP))." in r.output
    )
    autos = {a["cnpj"]: a for a in _autos(banco)}
    assert set(autos) == {ALFA, BETA}
    alfa = autos[ALFA]
    assert alfa["id"] == "48610.000001/2025-01" and autos[BETA]["id"] == "48610.000002/2025-02"
    assert alfa["origem"] == {"regime": "renovabio.distribuidor", "ano_meta": 2024, "cnpj": ALFA}
    assert alfa["valor_multa"] is None and alfa["nome"] == "Alfa"
    assert [(e["evento"], e["data"]) for e in alfa["eventos"]] == [
        ("infracao", "2025-01-01"),
        ("auto_infracao", "2025-03-03"),
    ]
    resultado = alfa["resultado"]
    assert resultado["origem"] == alfa["origem"] and resultado["estado"] == "defesa"
    assert any("31/12/2024" in a and "01/01/2025" in a for a in resultado["avisos"])
    r = CliRunner().invoke(cli, ["processo", "mostrar", str(alfa["processo_id"]), "--banco", banco])
    assert f"Origem: renovabio.distribuidor, meta de 2024, CNPJ {ALFA}" in r.output, r.output
    # the summary file says it too, each auto with its notice
    resumo = json.loads((tmp_path / "s" / "resumo.json").read_text(encoding="utf-8"))
    anp = resumo["processos"]["anp"]
    assert (anp["ja_existentes"], anp["motivo"]) == (0, None)
    for aberto in anp["abertos"]:
        assert (tmp_path / "s" / aberto["notificacao"]).is_file()
    assert resumo["processos"]["lista"]["abertos"] == []
    assert "31/12/2024" in resumo["processos"]["lista"]["motivo"]
    # again, replacing the years: each distributor has its processo, none opened twice
    r = _rodar(tmp_path, banco, "--substituir")
    assert r.exit_code == 0, r.output
    assert "(anp) abertos: 0, já existentes: 2" in r.output
    assert len(_autos(banco)) == 2


def test_data_infracao_meta_prazo_poe_a_infracao_no_proprio_prazo(tmp_path: Path) -> None:
    banco = f"sqlite:///{tmp_path / 'm.db'}"
    r = _rodar(
        tmp_path, banco, "-i", "data_infracao_meta=prazo", "--data-notificacao", "2024-12-31"
    )
    assert r.exit_code == 0, r.output
    for auto in _autos(banco):
        assert [e["data"] for e in auto["eventos"]] == ["2024-12-31", "2024-12-31"]


def test_notificacao_antes_da_infracao_e_recusada_e_nada_e_salvo(tmp_path: Path) -> None:
    banco = f"sqlite:///{tmp_path / 'm.db'}"
    r = _rodar(tmp_path, banco, "--data-notificacao", "31/12/2024")
    assert r.exit_code == 2, r.output
    assert "--data-notificacao" in r.output and "01/01/2025" in r.output, r.output
    assert not (tmp_path / "s").exists()
    assert Ciclo(Repositorio(banco)).distribuidores() == []


def test_leitura_data_infracao_meta_so_no_ano_com_salvar(tmp_path: Path) -> None:
    banco = f"sqlite:///{tmp_path / 'm.db'}"
    r = _rodar(tmp_path, banco, "-i", "data_infracao_meta=ontem")
    assert r.exit_code == 2 and "dia_seguinte, prazo" in r.output, r.output
    entrada, cotacoes = _ano(tmp_path)
    r = CliRunner().invoke(
        cli,
        [
            *("ano", "calcular", str(entrada), "--ano", "2024", "--cotacoes", str(cotacoes)),
            *("--saida", str(tmp_path / "t"), "-i", "data_infracao_meta=prazo"),
        ],
    )
    assert r.exit_code == 2 and "só vale com --salvar" in r.output, r.output
