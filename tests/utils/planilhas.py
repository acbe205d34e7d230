"""Workbooks for the tests: one written by hand, part by part (``xlsx``: the hostile files
of the readers' tests, the sheet's XML as given), and one of plain rows written by openpyxl
(``livro``); and the rows a reader gives (``linhas_lidas``)."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Sequence
from typing import Any

#: the header of the hand-written workbooks: the shared strings 0 to 4
CABECALHO = ["cnpj", "ano", "meta_cbios", "cbios_aposentados", "nome"]

NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PACOTE = "http://schemas.openxmlformats.org/package/2006/relationships"
TIPOS = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" '
    'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" ContentType="application/'
    'vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/'
    'vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
    '<Override PartName="/xl/sharedStrings.xml" ContentType="application/'
    'vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>'
)
RELACOES = (
    f'<Relationships xmlns="{PACOTE}"><Relationship Id="rId1" Type="{REL}/officeDocument" '
    'Target="xl/workbook.xml"/></Relationships>'
)
RELACOES_LIVRO = (
    f'<Relationships xmlns="{PACOTE}">'
    f'<Relationship Id="rId1" Type="{REL}/worksheet" Target="worksheets/sheet1.xml"/>'
    f'<Relationship Id="rId2" Type="{REL}/sharedStrings" Target="sharedStrings.xml"/>'
    "</Relationships>"
)


def coluna(indice: int) -> str:
    letras = ""
    while indice:
        indice, resto = divmod(indice - 1, 26)
        letras = chr(65 + resto) + letras
    return letras


def celula_texto(ref: str, indice: int) -> str:
    return f'<c r="{ref}" t="s"><v>{indice}</v></c>'


def linha_xml(numero: int, celulas: list[str]) -> str:
    return f'<row r="{numero}">{"".join(celulas)}</row>'


def xlsx(
    linhas: str | bytes,
    textos: Sequence[str] | bytes = (),
    *,
    com_folha: bool = True,
    declarados: dict[str, int] | None = None,
) -> bytes:
    """A minimal workbook written by hand: ``linhas`` is the sheetData's XML, ``textos`` the
    shared strings (or the whole sharedStrings part); ``declarados`` overrides the sizes the
    zip's central directory declares."""
    if isinstance(linhas, str):
        folha: bytes = (
            f'<worksheet xmlns="{NS}"><sheetData>{linhas}</sheetData></worksheet>'.encode()
        )
    else:
        folha = linhas
    if isinstance(textos, bytes):
        compartilhados = textos
    else:
        itens = "".join(f"<si><t>{t}</t></si>" for t in textos)
        compartilhados = f'<sst xmlns="{NS}">{itens}</sst>'.encode()
    folhas = '<sheet name="f" sheetId="1" r:id="rId1"/>' if com_folha else ""
    livro = f'<workbook xmlns="{NS}" xmlns:r="{REL}"><sheets>{folhas}</sheets></workbook>'
    saida = io.BytesIO()
    with zipfile.ZipFile(saida, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", TIPOS)
        z.writestr("_rels/.rels", RELACOES)
        z.writestr("xl/workbook.xml", livro)
        z.writestr("xl/_rels/workbook.xml.rels", RELACOES_LIVRO)
        z.writestr("xl/worksheets/sheet1.xml", folha)
        z.writestr("xl/sharedStrings.xml", compartilhados)
        for info in z.filelist:  # written into the central directory on close
            if declarados and info.filename in declarados:
                info.file_size = declarados[info.filename]
    return saida.getvalue()


def cabecalho_xml() -> str:
    return linha_xml(1, [celula_texto(f"{coluna(i + 1)}1", i) for i in range(len(CABECALHO))])


def livro(linhas: list[list[Any]], *, formulas: bool = False) -> bytes:
    """A workbook of these rows, written by openpyxl. A text starting with ``=`` is a text
    cell, unless ``formulas``: then it is a formula saved without its value (as a library
    writes it, never opened in a spreadsheet program)."""
    import openpyxl

    planilha = openpyxl.Workbook()
    folha = planilha.active
    assert folha is not None
    for linha in linhas:
        folha.append(linha)
    for linha_de_celulas in () if formulas else folha.iter_rows():
        for celula in linha_de_celulas:
            if isinstance(celula.value, str) and celula.value.startswith("="):
                celula.data_type = "s"
    saida = io.BytesIO()
    planilha.save(saida)
    return saida.getvalue()


def linhas_lidas(leitor: Any) -> list[tuple[int, tuple[Any, ...]]]:
    """Every row a reader gives (its number and values), the reader closed after."""
    try:
        return [(n, tuple(v)) for n, v in leitor.linhas()]
    finally:
        leitor.fechar()
