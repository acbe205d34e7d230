"""The lifecycle's commands under hostile input: ``multas calendario`` refuses a malformed year
(whitespace included), ``multas prazos proximos`` and ``multas carteira mostrar`` name the bad
option in the project's {"erro": {"campo", "mensagem"}} (exit 2), and ``multas reavaliar``
lists nothing when saved cases (with ``dias_sem_expediente`` as a list or as a cell) give the
same result under the same rules."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from multas.principal import cli


def _mora(id_: str, dias: str) -> dict[str, str]:
    # 21/05/2025 + 30 = 20/06/2025 (ponto facultativo), 21-22 fim de semana → 23/06/2025
    return {
        "id": id_,
        "principal": "1000.00",
        "data_ciencia": "2025-05-21",
        "data_pagamento": "2025-06-25",
        "dias_sem_expediente": dias,
    }


# --- multas calendario ---------------------------------------------------------------------------


def test_calendario_cli_ano_com_espacos_e_recusado() -> None:
    """``multas calendario " 2025"`` exits 2 naming ``ano``, as the API refuses a year with
    whitespace around it. Was a defect: it printed 2025 (exit 0)."""
    r = CliRunner().invoke(cli, ["calendario", " 2025"])
    assert r.exit_code == 2, r.output
    assert json.loads(r.output)["erro"]["campo"] == "ano"


@pytest.mark.parametrize("ano", ["0000", "１２３４", "2025.0", str(10**30), "10000"])
def test_calendario_cli_recusa_ano_invalido(ano: str) -> None:
    """Exit 2 with {"erro": {"campo": "ano", ...}}."""
    r = CliRunner().invoke(cli, ["calendario", ano])
    assert r.exit_code == 2
    assert json.loads(r.output)["erro"]["campo"] == "ano"


# --- multas prazos proximos ----------------------------------------------------------------------


def test_cli_proximos_data_referencia_invalida_nomeia_o_campo(tmp_path: Path) -> None:
    """``multas prazos proximos --data-referencia 2025-02-30 -f json`` exits 2 with the
    project's {"erro": {"campo": "data_referencia" (or "--data-referencia"), ...}}. Was a
    defect: it exited 2 with click's usage text ("Erro: Valor inválido: data inexistente:
    '2025-02-30'"), which did not even name the option."""
    r = CliRunner().invoke(
        cli,
        [
            "prazos",
            "proximos",
            "--data-referencia",
            "2025-02-30",
            "--banco",
            f"sqlite:///{tmp_path / 'm.db'}",
            "-f",
            "json",
        ],
    )
    assert r.exit_code == 2
    assert "data-referencia" in r.output or "data_referencia" in r.output, r.output
    erro = json.loads(r.output)["erro"]
    assert erro["campo"] in ("data_referencia", "--data-referencia")


# --- multas carteira -------------------------------------------------------------------------------


def test_carteira_cli_distribuidor_em_importacao_e_um_erro_em_portugues(tmp_path: Path) -> None:
    """A save of a distributor whose import in parts is running exits 1 with the reason, never
    a traceback, and writes nothing."""
    from multas.servicos.gestao import Ciclo
    from multas.servicos.persistencia import Repositorio, cargas

    banco = f"sqlite:///{tmp_path / 'm.db'}"
    ano = {"cnpj": "11222333000181", "ano": 2024, "meta_cbios": 100, "cbios_aposentados": 80}
    repo = Repositorio(banco)
    with repo.escrita("ana") as escrita:
        carga_id = cargas.abrir(escrita, "carteira")
        linha = ("11222333000181", 2024, None, ano)
        Ciclo(repo).repo._salvar_anos_em(escrita, [linha], None, None, carga_id)
    repo.fechar()
    r = CliRunner().invoke(
        cli, ["carteira", "salvar", "-", "--banco", banco], input=json.dumps(ano)
    )
    assert r.exit_code == 1, r.output
    assert "Erro: os anos do CNPJ 11222333000181 estão sendo importados agora" in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)


def test_carteira_cli_opcao_invalida(tmp_path: Path) -> None:
    """``multas carteira mostrar -i preco_diferido=x`` exits 2 naming the reading."""
    banco = f"sqlite:///{tmp_path / 'm.db'}"
    ano = {"cnpj": "11.222.333/0001-81", "ano": 2024, "meta_cbios": 100, "cbios_aposentados": 80}
    salvo = CliRunner().invoke(
        cli, ["carteira", "salvar", "-", "--banco", banco], input=json.dumps(ano)
    )
    assert salvo.exit_code == 0, salvo.output
    r = CliRunner().invoke(
        cli,
        [
            "carteira",
            "mostrar",
            "11222333000181",
            "-i",
            "preco_diferido=x",
            "--banco",
            banco,
            "-f",
            "json",
        ],
    )
    assert r.exit_code == 2
    assert json.loads(r.output)["erro"]["campo"] == "interpretacao.preco_diferido"


# --- multas reavaliar -------------------------------------------------------------------------------


def test_reavaliar_nada_mudou(cliente: TestClient, tmp_path: Path) -> None:
    """Saved cases (with dias_sem_expediente as a list and as a cell string) give the same
    result under the same rules: nothing listed, in the three formats. (The cases are saved
    through the API, in the database the CLI then reads.)"""
    for caso in (
        _mora("", "") | {"dias_sem_expediente": ["2025-06-23"]},
        _mora("", "2025-06-23 2025-06-24"),
    ):
        caso = {k: v for k, v in caso.items() if k != "id"} | {"regime": "anp.mora"}
        assert cliente.post("/api/v1/casos", json=caso).status_code == 201
    banco = f"sqlite:///{tmp_path / 'm.db'}"
    r = CliRunner().invoke(cli, ["reavaliar", "--banco", banco, "-f", "json"])
    assert r.exit_code == 0 and json.loads(r.output) == {"itens": []}
    r = CliRunner().invoke(cli, ["reavaliar", "--banco", banco, "-f", "csv"])
    assert r.output == "registro,id,regime,campo,antes,depois,erro\n"
