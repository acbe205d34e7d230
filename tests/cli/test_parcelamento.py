"""``multas parcelamento simular`` (spec § 6.2 v4): the schedule from a processo's balance or
from the amount given; bad input is exit 2 with the pt-BR error."""

from __future__ import annotations

import json

from click.testing import CliRunner

from multas.principal import cli
from tests.utils.processos import PLANO


def test_comando_simular_com_o_processo_ou_o_valor() -> None:
    processo = {
        "tipo": "anp",
        "valor_multa": "10000.00",
        "eventos": PLANO[:5],
    }
    # tests/nucleo/test_ciclo_devido.py: 7.630,00 owed on 01/10/2024 (3 months on 7.000)
    r = CliRunner().invoke(
        cli,
        ["parcelamento", "simular", "-", "-n", "10", "--data", "01/10/2024", "-f", "json"],
        json.dumps(processo),
    )
    assert r.exit_code == 0, r.output
    saida = json.loads(r.stdout)
    assert (saida["valor_consolidado"], saida["cronograma"][0]["valor"]) == ("7630.00", "763.00")
    r = CliRunner().invoke(
        cli,
        [
            "parcelamento",
            "simular",
            "-n",
            "2",
            "--valor-consolidado",
            "1.000,00",
            "--data",
            "2024-01-31",
        ],
    )
    assert r.exit_code == 0 and "R$ 1.000,00 consolidado em 31/01/2024" in r.stdout
    r = CliRunner().invoke(cli, ["parcelamento", "simular", "-n", "2", "-f", "json"])
    assert r.exit_code == 2 and json.loads(r.stdout)["erro"]["campo"] == "valor_consolidado"
    r = CliRunner().invoke(
        cli, ["parcelamento", "simular", "-n", "2", "--valor-consolidado", "-5", "-f", "json"]
    )
    assert r.exit_code == 2 and json.loads(r.stdout)["erro"]["campo"] == "valor_consolidado"


def test_simular_sobre_um_parcelamento_existente_avisa() -> None:
    processo = {"tipo": "anp", "valor_multa": "10000.00", "eventos": PLANO[:7]}
    assert any(e["evento"] == "parcelamento" for e in processo["eventos"])
    r = CliRunner().invoke(
        cli,
        ["parcelamento", "simular", "-", "-n", "6", "--data", "01/10/2024", "-f", "json"],
        json.dumps(processo),
    )
    assert r.exit_code == 0, r.output
    assert any("já tem um parcelamento" in a for a in json.loads(r.stdout)["avisos"])
