"""`multas lote` XLSX output (issue 20): money is a number cell shown ``"R$" #,##0.00`` holding
the exact decimal, text from 10**13 reais with a warning; dates are date cells shown
dd/mm/yyyy; counts are integers; ``--xlsx-dinheiro-texto`` keeps the former output."""

from __future__ import annotations

import re
import zipfile
from datetime import date, datetime
from decimal import Decimal
from io import BytesIO
from pathlib import Path
from typing import Any

import openpyxl
import pyarrow as pa
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from multas.lote.io import (
    AVISO_DINHEIRO_TEXTO,
    FORMATO_DATA,
    FORMATO_DINHEIRO,
    LIMITE_NUMERO_XLSX,
    abrir_escritor,
    escrever,
)
from multas.lote.processar import Bloco, Config
from multas.principal import cli

#: anp.mora's outputs, in order: money, a date, two counts, money, money
SAIDAS = ("valor", "vencimento", "dias_atraso", "meses_atraso", "juros_mora", "multa_mora")


def _xlsx(centavos: list[int | None], **opcoes: Any) -> bytes:
    """The XLSX the batch writer makes for rows whose every amount is ``centavos[i]``."""
    cfg = Config("anp.mora", {}, **opcoes)
    assert cfg.saidas == SAIDAS
    n = len(centavos)
    dinheiro = pa.array(centavos, pa.int64())
    resultado = pa.table(
        {
            "valor": dinheiro,
            "vencimento": pa.array([date(2024, 2, 9)] * n, pa.date32()),
            "dias_atraso": pa.array([21] * n, pa.int64()),
            "meses_atraso": pa.array([1] * n, pa.int64()),
            "juros_mora": dinheiro,
            "multa_mora": dinheiro,
            "erro": pa.array([None] * n, pa.string()),
        }
    )
    bloco = Bloco(
        0, pa.table({"id": [str(i) for i in range(n)]}), [{"id": str(i)} for i in range(n)]
    )
    destino = BytesIO()
    escritor = abrir_escritor(destino, "xlsx", ["id"], cfg)
    escrever(escritor, bloco, resultado)
    escritor.fechar()
    return destino.getvalue()


def _celulas_xml(dados: bytes, coluna: str) -> list[tuple[str, str]]:
    """(attributes, <v> text) of a column's data cells, from the sheet's XML."""
    with zipfile.ZipFile(BytesIO(dados)) as z:
        xml = z.read("xl/worksheets/sheet1.xml").decode()
    return re.findall(rf'<c r="{coluna}(?!1")\d+"([^>]*)><v>([^<]*)</v></c>', xml)


def _folha(dados: bytes) -> Any:
    return openpyxl.load_workbook(BytesIO(dados)).worksheets[0]


def test_dinheiro_e_celula_numerica_exata() -> None:
    valores = [1, 123456789, 999999999999999, 0, -150, 993866379301712]
    dados = _xlsx([*valores, None])
    # the XML holds the decimal's own text: openpyxl would write 9938663793017.12 as
    # 9938663793017.119 (through a float)
    assert [v for _, v in _celulas_xml(dados, "B")] == [
        "0.01",
        "1234567.89",
        "9999999999999.99",
        "0.00",
        "-1.50",
        "9938663793017.12",
    ]
    # a number cell: no t attribute (a number is the default type, as Excel writes it)
    assert all("t=" not in atributos for atributos, _ in _celulas_xml(dados, "B"))
    folha = _folha(dados)
    for linha, c in enumerate(valores, start=2):
        for coluna in ("B", "F", "G"):  # valor, juros_mora, multa_mora
            celula = folha[f"{coluna}{linha}"]
            assert celula.data_type == "n"  # a SUM over the column computes
            assert celula.number_format == FORMATO_DINHEIRO
            assert Decimal(repr(celula.value)) == Decimal(c).scaleb(-2)
    assert folha["B8"].value is None  # a row with an error has no amount


def test_datas_e_contagens() -> None:
    folha = _folha(_xlsx([100]))
    vencimento = folha["C2"]
    assert vencimento.is_date and vencimento.number_format == FORMATO_DATA
    assert vencimento.value == datetime(2024, 2, 9)
    for coluna in ("D", "E"):  # dias_atraso, meses_atraso
        assert folha[f"{coluna}2"].data_type == "n"
        assert isinstance(folha[f"{coluna}2"].value, int)
        assert folha[f"{coluna}2"].number_format == "General"


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-(LIMITE_NUMERO_XLSX - 1), LIMITE_NUMERO_XLSX - 1), min_size=1))
def test_dinheiro_exato_propriedade(centavos: list[int]) -> None:
    dados = _xlsx(centavos)
    escritos = [v for _, v in _celulas_xml(dados, "B")]
    assert [Decimal(v) for v in escritos] == [Decimal(c).scaleb(-2) for c in centavos]
    assert escritos == [str(Decimal(c).scaleb(-2)) for c in centavos]
    lidos = [linha[0].value for linha in _folha(dados).iter_rows(min_row=2, min_col=2, max_col=2)]
    # at most 15 significant digits: the double read back is the same decimal
    assert [Decimal(repr(v)) for v in lidos] == [Decimal(c).scaleb(-2) for c in centavos]


def test_a_partir_de_10_13_reais_fica_texto() -> None:
    grandes = [LIMITE_NUMERO_XLSX, -LIMITE_NUMERO_XLSX - 7, 10**17 - 1]
    folha = _folha(_xlsx([LIMITE_NUMERO_XLSX - 1, *grandes]))
    assert folha["B2"].data_type == "n"
    assert [folha[f"B{i}"].value for i in (3, 4, 5)] == [
        "10000000000000.00",
        "-10000000000000.07",
        "999999999999999.99",
    ]
    assert all(folha[f"B{i}"].data_type == "s" for i in (3, 4, 5))
    folha_ptbr = _folha(_xlsx([LIMITE_NUMERO_XLSX], ptbr=True))
    assert folha_ptbr["B2"].value == "10000000000000,00"  # the text form, as before


def test_dinheiro_texto_e_a_forma_anterior() -> None:
    folha = _folha(_xlsx([123456789, None], xlsx_dinheiro_texto=True))
    assert folha["B2"].value == "1234567.89" and folha["B2"].data_type == "s"
    assert folha["C2"].number_format == "yyyy-mm-dd"  # openpyxl's default, as before
    assert folha["D2"].value == 21
    folha_ptbr = _folha(_xlsx([123456789], xlsx_dinheiro_texto=True, ptbr=True))
    assert folha_ptbr["B2"].value == "1234567,89"


def _lote_xlsx(tmp_path: Path, *opcoes: str) -> tuple[Any, Any]:
    livro = openpyxl.Workbook()
    folha = livro.active
    assert folha is not None
    folha.append(["id", "principal", "data_ciencia", "data_pagamento"])
    folha.append(["a", "6141792.45", "2024-01-10", "2024-06-01"])
    folha.append(["b", "12345678901234.56", "2024-01-10", "2024-03-01"])
    entrada, saida = tmp_path / "m.xlsx", tmp_path / "r.xlsx"
    livro.save(entrada)
    resultado = CliRunner().invoke(
        cli, ["lote", str(entrada), "-r", "anp.mora", "-o", str(saida), *opcoes]
    )
    return resultado, _folha(saida.read_bytes())


def test_lote_xlsx_aviso_no_resumo(tmp_path: Path) -> None:
    resultado, folha = _lote_xlsx(tmp_path)
    assert resultado.exit_code == 0, resultado.output
    assert f"multas lote: aviso: 1 célula: {AVISO_DINHEIRO_TEXTO}" in resultado.output
    assert folha["E2"].value == 6878807.55 and folha["E2"].number_format == FORMATO_DINHEIRO
    assert folha["E3"].value == "12716049268271.60"  # valor ≥ 10**13 reais: text
    assert folha["I3"].data_type == "n"  # its juros_mora is not
    assert folha["F2"].is_date and folha["F2"].number_format == FORMATO_DATA
    assert folha["H2"].value == 4


def test_lote_xlsx_dinheiro_texto(tmp_path: Path) -> None:
    resultado, folha = _lote_xlsx(tmp_path, "--xlsx-dinheiro-texto")
    assert resultado.exit_code == 0, resultado.output
    assert "aviso" not in resultado.output
    assert folha["E2"].value == "6878807.55" and folha["E3"].value == "12716049268271.60"
