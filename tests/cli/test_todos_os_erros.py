"""Every error of a case at once on the command line (issue 37, item 9): in text, one line per
error; in JSON, the first as ``erro`` (the shape of one) and all of them in ``erros``."""

from __future__ import annotations

import json

from click.testing import CliRunner

from multas.principal import cli

CASO = {"regime": "anp.mora", "principal": "abc", "cor": 1}


def test_texto_uma_linha_por_erro_e_json_com_a_lista() -> None:
    r = CliRunner().invoke(cli, ["calcular", "-", "-f", "texto"], json.dumps(CASO))
    assert r.exit_code == 2
    linhas = r.stderr.splitlines()
    assert [linha.split("'")[1] for linha in linhas] == [
        "cor",
        "principal",
        "data_ciencia",
        "data_pagamento",
    ]
    r = CliRunner().invoke(cli, ["calcular", "-", "-f", "json"], json.dumps(CASO))
    corpo = json.loads(r.stdout)
    assert corpo["erro"]["campo"] == "cor" and corpo["erros"][0] == corpo["erro"]
    assert len(corpo["erros"]) == 4
    # one error alone keeps the shape of one
    um = {"regime": "anp.infracao", "inciso": 11}
    r = CliRunner().invoke(cli, ["calcular", "-", "-f", "json"], json.dumps(um))
    assert set(json.loads(r.stdout)) == {"erro"}


def test_json_lines_cada_erro_da_linha_diz_a_linha() -> None:
    """JSON Lines: every error of a bad line carries its line number, as a spreadsheet's row
    errors do (``linha``), not only the first."""
    entrada = "\n".join([json.dumps({"regime": "anp.infracao", "inciso": "I"}), json.dumps(CASO)])
    r = CliRunner().invoke(cli, ["calcular", "-", "--jsonl"], entrada)
    assert r.exit_code == 3, r.output
    ruim = json.loads(r.stdout.splitlines()[1])
    assert ruim["erro"]["linha"] == 2 and len(ruim["erros"]) == 4
    assert all(e["linha"] == 2 for e in ruim["erros"])
