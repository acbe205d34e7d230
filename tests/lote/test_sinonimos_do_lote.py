"""Issue 37, item 4: the year's column is ``ano`` in the ledger and in ``multas ano``, but
``ano_meta`` in the batch: the batch reads a column ``ano`` as ``ano_meta`` (unless the file
has both, or ``--coluna`` says otherwise)."""

from __future__ import annotations

import csv
from pathlib import Path

from click.testing import CliRunner

from multas.principal import cli


def _lote(tmp_path: Path, cabecalho: list[str], linha: list[str], *opcoes: str) -> tuple[int, str]:
    entrada, saida = tmp_path / "e.csv", tmp_path / "r.csv"
    with open(entrada, "w", newline="", encoding="utf-8") as arquivo:
        csv.writer(arquivo).writerows([cabecalho, linha])
    r = CliRunner().invoke(
        cli, ["lote", str(entrada), "-r", "renovabio.distribuidor", "-o", str(saida), *opcoes]
    )
    with open(saida, encoding="utf-8") as arquivo:
        lida = next(csv.DictReader(arquivo))
    return r.exit_code, lida["valor"] or lida["erro"]


def test_ano_e_ano_meta(tmp_path: Path) -> None:
    cabecalho = ["cnpj", "Ano", "meta_cbios", "cbios_aposentados", "maior_media_mensal"]
    linha = ["11.222.333/0001-81", "2023", "250000", "100000", "130.10"]
    codigo, valor = _lote(tmp_path, cabecalho, linha)
    assert (codigo, valor) == (0, "19515000.00")


def test_com_ano_e_ano_meta_vale_ano_meta(tmp_path: Path) -> None:
    cabecalho = ["cnpj", "ano", "ano_meta", "meta_cbios", "cbios_aposentados"]
    cabecalho.append("maior_media_mensal")
    linha = ["11.222.333/0001-81", "1999", "2023", "250000", "100000", "130.10"]
    codigo, valor = _lote(tmp_path, cabecalho, linha)
    assert (codigo, valor) == (0, "19515000.00")
