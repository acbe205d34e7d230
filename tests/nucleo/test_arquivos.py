"""The core's XLSX reading (issue 37, item 8): one check of a sheet's row and cell limits and
one column letter for both readers; OOXML's text escapes (``_xHHHH_``) read and written so a
text round-trips; a formula cell saved without its value is never read as an empty cell."""

from __future__ import annotations

import io
from typing import Any

import pytest

from multas.nucleo.arquivos import (
    FORMULA_SEM_VALOR,
    LOTE,
    LeitorXlsx,
    Limites,
    conferir_linha_xlsx,
    decodificar_ooxml,
    escapar_ooxml,
    formula_sem_valor,
    letra_da_coluna,
    tetos_xlsx,
)
from multas.nucleo.erros import EntradaInvalida
from tests.utils.planilhas import livro, xlsx

#: texts that hold OOXML's escape literally, or characters it escapes
TEXTOS = [
    "_x0041_",
    "_x005F_x0041_",
    "_x0041_x0042_",
    "_x004a_",
    "a_x000D_b",
    "_xD83D_x0041_",
    "_x4E2D_",
    "_x0041",
    "Beta\x01",
    "tab\tnova linha\n",
    "nada a escapar",
]


def test_letra_da_coluna() -> None:
    assert [letra_da_coluna(i) for i in (0, 1, 25, 26, 51, 52, 701, 702, 16_383)] == [
        "A",
        "B",
        "Z",
        "AA",
        "AZ",
        "BA",
        "ZZ",
        "AAA",
        "XFD",
    ]


def test_limites_da_linha_numa_so_conferencia() -> None:
    """The format's last row, the limit of rows and of cells: one check, one message each,
    for both XLSX readers."""
    limites = Limites(descompactado=1 << 20, linhas=10, celulas=100, texto=100, ajustavel=True)
    conferir_linha_xlsx(10, 100, limites, "c.xlsx")  # at the limits: fine
    with pytest.raises(EntradaInvalida, match=r"c\.xlsx: XLSX corrompido: linha 1\.048\.577"):
        conferir_linha_xlsx(1_048_577, 1, LOTE, "c.xlsx")
    with pytest.raises(EntradaInvalida, match="linhas demais"):
        conferir_linha_xlsx(11, 1, limites, "c.xlsx")
    with pytest.raises(EntradaInvalida, match=r"passa de 100 células.*--limite-celulas"):
        conferir_linha_xlsx(2, 101, limites, "c.xlsx")


@pytest.mark.parametrize("texto", TEXTOS)
def test_escape_ooxml_ida_e_volta(texto: str) -> None:
    escrito = escapar_ooxml(texto)
    assert decodificar_ooxml(escrito) == texto
    assert not any(ord(c) < 0x20 and c not in "\t\n\r" for c in escrito)


def test_escape_ooxml_le_como_o_excel() -> None:
    """``_x0041_`` in the file is ``A``; ``_x005F_`` is the underscore that escapes a
    literal one; a code past ``00FF`` is left as it is (as calamine reads it)."""
    assert decodificar_ooxml("_x0041_") == "A"
    assert decodificar_ooxml("_x005F_x0041_") == "_x0041_"
    assert decodificar_ooxml("_x0041__x0042_") == "AB"
    assert decodificar_ooxml("_xD83D_x0041_") == "_xD83DA"
    assert escapar_ooxml("_x0041_x0042_") == "_x005F_x0041_x005F_x0042_"


def _inline(ref: str, texto: str) -> str:
    return f'<c r="{ref}" t="inlineStr"><is><t>{texto}</t></is></c>'


def _linhas(dados: bytes) -> list[tuple[Any, ...]]:
    with LeitorXlsx(io.BytesIO(dados), LOTE, "c.xlsx") as leitor:
        return [tuple(leitor.cabecalho), *(tuple(v) for _, v in leitor.linhas())]


def test_leitor_xlsx_decodifica_os_escapes() -> None:
    """openpyxl kept ``_x0041_`` (inline) and dropped every ``x005F_`` of a shared text: the
    streaming reader now reads a cell's text as calamine, the batch's fast reader, does."""
    brutos = ["_x0041_", "_x005F_x0041_", "_x005F_x005F_", "a_x000D_b"]
    linhas = "".join(
        f'<row r="{i}">{_inline(f"A{i}", t)}<c r="B{i}" t="s"><v>{i - 1}</v></c>'
        f'<c r="C{i}" t="str"><f>1</f><v>{t}</v></c></row>'
        for i, t in enumerate(brutos, start=1)
    )
    lidas = _linhas(xlsx(linhas, brutos))
    esperado = ["A", "_x0041_", "_x005F_", "a\rb"]
    assert lidas == [(t, t, t) for t in esperado]


def test_leitor_xlsx_formula_sem_valor_nunca_e_vazia() -> None:
    """A formula cell with no value (openpyxl writes ``<v/>``; another library none) is
    :data:`FORMULA_SEM_VALOR`; a formula with its value is the value, one whose text result
    is empty is empty."""
    linhas = (
        '<row r="1"><c r="A1" t="inlineStr"><is><t>a</t></is></c></row>'
        '<row r="2"><c r="A2"><f>1+1</f><v>2</v></c><c r="B2"><f>1+1</f><v/></c>'
        '<c r="C2"><f>1+1</f></c><c r="D2" t="str"><f>""</f><v></v></c>'
        '<c r="E2"><f t="shared" si="0"/></c><c r="F2"><v>7</v></c></row>'
    )
    assert _linhas(xlsx(linhas, []))[1] == (
        2,
        FORMULA_SEM_VALOR,
        FORMULA_SEM_VALOR,
        None,
        FORMULA_SEM_VALOR,
        7,
    )


def test_erro_da_formula_sem_valor_nomeia_a_coluna() -> None:
    erro = formula_sem_valor([1, None, FORMULA_SEM_VALOR], ["ano", "", "meta_cbios"])
    assert erro is not None and erro.campo == "meta_cbios"
    assert "fórmula sem o valor calculado" in erro.mensagem
    sem_nome = formula_sem_valor([FORMULA_SEM_VALOR], [])
    assert sem_nome is not None and sem_nome.campo == "A"
    assert formula_sem_valor([1, "x"], ["a", "b"]) is None


def test_planilha_do_openpyxl_com_formula_nomeia_linha_e_coluna() -> None:
    """An importer (the ledger's, the quotes') refuses the file at the formula's cell, with
    its line and column, instead of reading it as empty."""
    from multas.nucleo.ciclo.planilha import ler_planilha

    linhas = [["cnpj", "ano", "meta_cbios"], ["11.222.333/0001-81", 2024, "=1000*2"]]
    with pytest.raises(EntradaInvalida) as erro:
        ler_planilha(livro(linhas, formulas=True), "carteira.xlsx")
    assert erro.value.campo == "meta_cbios"
    assert erro.value.mensagem.startswith("linha 2, coluna meta_cbios: fórmula sem o valor")


def test_tetos_da_linha() -> None:
    """The bounds a reader compares each row with before calling the check."""
    limites = Limites(descompactado=1 << 20, linhas=10, celulas=100, texto=100)
    assert tetos_xlsx(limites) == (10, 100)
    assert tetos_xlsx(LOTE) == (1_048_576, 100_000_000)
    assert tetos_xlsx(Limites(1, None, None, 1)) == (1_048_576, float("inf"))


def test_formula_sem_valor_no_cabecalho_nao_vira_nome() -> None:
    """A header cell that is a formula with no value names no column (never the marker)."""
    linhas = (
        '<row r="1"><c r="A1" t="inlineStr"><is><t>ano</t></is></c><c r="B1"><f>"x"</f></c>'
        '</row><row r="2"><c r="A2"><v>2024</v></c></row>'
    )
    with LeitorXlsx(io.BytesIO(xlsx(linhas, [])), LOTE, "c.xlsx") as leitor:
        assert leitor.nomes == ["ano", ""]
    assert str(FORMULA_SEM_VALOR) == ""
