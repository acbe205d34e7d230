"""Issue 37, item 4: ``multas carteira salvar`` printed JSON while ``carteira mostrar`` printed
text: it now shows the ledger as ``mostrar`` does, and ``--formato json`` keeps the JSON."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from multas.principal import cli

ANO = {"cnpj": "11.222.333/0001-81", "ano": 2024, "meta_cbios": 100, "cbios_aposentados": 80}


def test_salvar_mostra_o_texto_de_mostrar(tmp_path: Path) -> None:
    banco = f"sqlite:///{tmp_path / 'm.db'}"
    salvo = CliRunner().invoke(
        cli, ["carteira", "salvar", "-", "--banco", banco], input=json.dumps(ANO)
    )
    assert salvo.exit_code == 0, salvo.output
    mostrado = CliRunner().invoke(cli, ["carteira", "mostrar", "11222333000181", "--banco", banco])
    assert salvo.stdout == mostrado.stdout
    assert salvo.stdout.startswith("Carteira de 11.222.333/0001-81")


def test_salvar_em_json(tmp_path: Path) -> None:
    banco = f"sqlite:///{tmp_path / 'm.db'}"
    salvo = CliRunner().invoke(
        cli, ["carteira", "salvar", "-", "--banco", banco, "-f", "json"], input=json.dumps(ANO)
    )
    assert salvo.exit_code == 0, salvo.output
    assert [a["ano"] for a in json.loads(salvo.stdout)["anos"]] == [2024]
