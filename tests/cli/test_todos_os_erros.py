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
