"""A case given with ``ano`` (the ledger's name of ``ano_meta``: issue 37, item 4) shows its
year wherever its input is shown: the report's input table (HTML and PDF, ``multas calcular``
and the saved case's page) lists it as ``ano_meta``, as if given by that name."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from multas.principal import cli
from multas.saidas.apresentacao import apresentar_entrada

CASO: dict[str, Any] = {
    "regime": "renovabio.distribuidor",
    "ano": 2023,
    "meta_cbios": 250000,
    "cbios_aposentados": 100000,
    "maior_media_mensal": "130.10",
}


def test_entrada_mostra_ano_como_ano_meta() -> None:
    com_ano = apresentar_entrada(CASO)
    com_ano_meta = apresentar_entrada(
        {**{k: v for k, v in CASO.items() if k != "ano"}, "ano_meta": 2023}
    )
    assert com_ano == com_ano_meta
    assert [c.valor for c in com_ano if c.nome == "ano_meta"] == ["2023"]


def test_relatorio_html_do_calcular_traz_o_ano(tmp_path: Path) -> None:
    arquivo = tmp_path / "caso.json"
    arquivo.write_text(json.dumps(CASO), encoding="utf-8")
    r = CliRunner().invoke(cli, ["calcular", str(arquivo), "--formato", "html"])
    assert r.exit_code == 0, r.output
    assert "<code>ano_meta</code></td><td>2023</td>" in r.output
