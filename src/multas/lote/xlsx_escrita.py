"""The batch's XLSX output, written in a stream: the sheet's XML is made row by row as text
and deflated into the package as it comes (constant memory), about ten times faster than
openpyxl's write-only workbook (which builds an object per cell).

The cells are the ones openpyxl wrote (the tests read them back with openpyxl): texts inline
(``t="inlineStr"``), numbers as their own text (an exact amount's ``1234.56`` as it is) with
no ``t`` (a number is the default type: Excel writes them so, and the sheet is smaller),
dates and date-times as serial numbers shown by a format, booleans ``t="b"``; a text that a
spreadsheet would take for a formula is a text cell with the quote prefix, unless the run
trusts its cells (then a text starting with ``=`` is a formula, as openpyxl wrote it).
"""

from __future__ import annotations

import zipfile
from collections.abc import Sequence
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from itertools import repeat
from pathlib import Path
from typing import IO, Any

from multas.nucleo.arquivos import escapar_ooxml, letra_da_coluna
from multas.saidas.exportacao import _FORMULA, NumeroExato, e_formula

_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PKG = "http://schemas.openxmlformats.org/package/2006"
_XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'

#: the styles every sheet has: index → (number format, quote prefix)
FORMATO_DATA_HORA = "yyyy-mm-dd h:mm:ss"  # openpyxl's for a datetime
FORMATO_SO_DATA = "yyyy-mm-dd"  # openpyxl's for a date
FORMATO_HORA = "h:mm:ss"
_EPOCA = datetime(1899, 12, 30)
#: a text written otherwise than as it is: a character XML cannot hold, or OOXML's escape
#: ``_xHHHH_`` (a literal one is written ``_x005F_xHHHH_``), in RE2 (Arrow)
_A_ESCAPAR_RE2 = "[\\x00-\\x08\\x0b\\x0c\\x0e-\\x1f\\x{fffe}\\x{ffff}]|_x[0-9A-Fa-f]{4}_"


class NumerosExatos:
    """A column of exact number texts (``1234.56``) kept in Arrow, a null being an empty
    cell: written as number cells with no Python object made per cell (an amount's text goes
    from the kernel's centavos to the sheet's XML in Arrow)."""

    __slots__ = ("textos",)

    def __init__(self, textos: Any) -> None:
        self.textos = textos

    def __len__(self) -> int:
        return len(self.textos)


def coluna_das_linhas(linhas: Sequence[dict[str, Any] | None], nome: str) -> list[Any]:
    """The values of ``nome`` in rows read as dicts (``None`` for a row that is not one)."""
    if None in linhas:
        return [None if linha is None else linha.get(nome) for linha in linhas]
    return list(map(dict.get, linhas, repeat(nome)))  # type: ignore[arg-type]


def _bytes(textos: Any) -> bytes:
    """The UTF-8 bytes of an Arrow text array's values, one after the other (no copy of
    each value: the array's data buffer between its first and last offsets)."""
    import numpy as np

    _, offsets, dados = textos.buffers()
    if dados is None or not len(textos):
        return b""
    limites = np.frombuffer(offsets, np.int32)[textos.offset : textos.offset + len(textos) + 1]
    return bytes(memoryview(dados)[int(limites[0]) : int(limites[-1])])


def _escapar(texto: str) -> str:
    """A text as XML holds it, after OOXML's escapes (a literal ``_xHHHH_`` and the characters
    XML cannot hold: :func:`~multas.nucleo.arquivos.escapar_ooxml`)."""
    texto = escapar_ooxml(texto)
    return texto.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _serial(valor: date | datetime) -> str:
    if isinstance(valor, datetime):
        valor = valor.replace(tzinfo=None)
        dias = (valor - _EPOCA) / timedelta(days=1)
        return repr(int(dias)) if dias == int(dias) else repr(dias)
    return str((valor - _EPOCA.date()).days)


class PlanilhaEmFluxo:
    """One sheet written in a stream into ``destino``; ``formatos`` are the number formats
    the caller's cells use (their style index is their place in the list, plus one)."""

    def __init__(
        self, destino: Path | IO[bytes], nome: str, formatos: Sequence[str], formulas: bool
    ) -> None:
        self.nome = nome
        self.formatos = [*formatos, FORMATO_DATA_HORA, FORMATO_SO_DATA, FORMATO_HORA]
        self.estilo = {f: i + 1 for i, f in enumerate(self.formatos)}
        self.aspas = len(self.formatos) + 1  # the quote-prefix style, after the formats
        self.formulas = formulas
        self.pacote = zipfile.ZipFile(destino, "w", zipfile.ZIP_DEFLATED, compresslevel=1)
        self.folha = self.pacote.open("xl/worksheets/sheet1.xml", "w", force_zip64=True)
        self.folha.write(f'{_XML}<worksheet xmlns="{_NS}"><sheetData>'.encode())

    def celula(self, ref: str, valor: Any, estilo: int = 0) -> str:
        """One cell's XML (``""`` for an empty one); ``estilo`` for a number or date."""
        tipo = type(valor)
        s = f' s="{estilo}"' if estilo else ""
        if valor is None:
            return ""
        if tipo is NumeroExato:
            return f'<c r="{ref}"{s}><v>{valor}</v></c>'
        if tipo is str or isinstance(valor, str):
            return self._texto(ref, valor, self.formulas)
        if tipo is bool:
            return f'<c r="{ref}" t="b"><v>{int(valor)}</v></c>'
        if tipo is int or tipo is Decimal:
            return f'<c r="{ref}"{s}><v>{valor}</v></c>'
        if tipo is float:
            if valor != valor or valor in (float("inf"), float("-inf")):
                return f'<c r="{ref}" t="e"><v>#NUM!</v></c>'
            return f'<c r="{ref}"{s}><v>{valor!r}</v></c>'
        if isinstance(valor, datetime):
            e = estilo or self.estilo[FORMATO_DATA_HORA]
            return f'<c r="{ref}" s="{e}"><v>{_serial(valor)}</v></c>'
        if isinstance(valor, date):
            e = estilo or self.estilo[FORMATO_SO_DATA]
            return f'<c r="{ref}" s="{e}"><v>{_serial(valor)}</v></c>'
        if isinstance(valor, time):
            fracao = (valor.hour * 3600 + valor.minute * 60 + valor.second) / 86400
            return f'<c r="{ref}" s="{self.estilo[FORMATO_HORA]}"><v>{fracao!r}</v></c>'
        if isinstance(valor, timedelta):
            return f'<c r="{ref}"><v>{valor / timedelta(days=1)!r}</v></c>'
        return self.celula(ref, str(valor), estilo)

    def _texto(self, ref: str, valor: str, formulas: bool) -> str:
        """A text cell (``formulas``: one starting with ``=`` is written as a formula)."""
        if valor == "":
            return ""
        if formulas and valor.startswith("="):
            return f'<c r="{ref}"><f>{_escapar(valor[1:])}</f></c>'
        texto = _escapar(valor)
        if not formulas and e_formula(valor):
            return f'<c r="{ref}" s="{self.aspas}" t="inlineStr"><is><t>{texto}</t></is></c>'
        return f'<c r="{ref}" t="inlineStr"><is><t xml:space="preserve">{texto}</t></is></c>'

    def cabecalho_xml(self, nomes: Sequence[str]) -> bytes:
        """The header row (row 1): each column's name a text cell, one that looks like a
        formula with the quote prefix, even when the run trusts its cells (that is about the
        values; a name is never written live)."""
        celulas = "".join(
            self._texto(f"{letra_da_coluna(j)}1", nome, False) for j, nome in enumerate(nomes)
        )
        return f'<row r="1">{celulas}</row>'.encode()

    def linhas_xml(
        self, linhas: Sequence[Sequence[Any]], estilos: dict[int, int], primeira: int
    ) -> bytes:
        """The XML of rows ``primeira``, ``primeira + 1``… (1 is the first), each a sequence
        of cell values (``estilos``: column → style of the numbers and dates in it)."""
        largura = max((len(v) for v in linhas), default=0)
        colunas = [[v[j] if j < len(v) else None for v in linhas] for j in range(largura)]
        return self.colunas_xml(colunas, estilos, primeira)

    def colunas_xml(
        self,
        colunas: Sequence[Sequence[Any] | NumerosExatos],
        estilos: dict[int, int],
        primeira: int,
    ) -> bytes:
        """The same rows given by column (each column as long as the others). Pure: blocks
        of rows may be made on several threads at once. Each column is made by the way its
        values are typed (integers, numbers, texts… at once, in Arrow); a mixed one cell by
        cell; the rows are joined in Arrow too."""
        import pyarrow as pa
        import pyarrow.compute as pc

        if not colunas:
            return b""
        numeros = range(primeira, primeira + len(colunas[0]))
        linhas = pa.array(numeros, pa.int64()).cast(pa.string())
        feitas = [
            self._coluna(letra_da_coluna(j), coluna, estilos.get(j, 0), numeros, linhas)
            for j, coluna in enumerate(colunas)
        ]
        xml = pc.binary_join_element_wise('<row r="', linhas, '">', *feitas, "</row>", "")
        if xml.null_count:  # a column that is not text: never, but not silently
            raise ValueError("célula sem XML")
        return _bytes(xml)

    def _alguma_formula(self, textos: Sequence[str | None]) -> bool:
        """Whether a text of the column is written otherwise than as a plain text cell."""
        if self.formulas:
            return any(t.startswith("=") for t in textos if t)
        casar = _FORMULA.match
        return any(casar(t) for t in textos if t)

    def _coluna(
        self,
        letras: str,
        valores: Sequence[Any] | NumerosExatos,
        estilo: int,
        numeros: range,
        linhas: Any,
    ) -> Any:
        import pyarrow as pa
        import pyarrow.compute as pc

        s = f' s="{estilo}"' if estilo else ""
        if isinstance(valores, NumerosExatos):
            celulas = pc.binary_join_element_wise(
                f'<c r="{letras}', linhas, f'"{s}><v>', valores.textos, "</v></c>", ""
            )
            return pc.fill_null(celulas, "")
        tipos = set(map(type, valores))
        tipos.discard(type(None))
        if not tipos:  # an empty column (the erro of a block without errors)
            return pc.fill_null(pa.nulls(len(valores), pa.string()), "")
        textos = None
        if tipos == {int}:
            textos = pa.array(valores, pa.int64()).cast(pa.string())
        elif tipos and tipos <= {int, float}:
            try:  # an integer a double does not hold exactly is refused: cell by cell
                duplos = pa.array(valores, pa.float64())
            except (pa.ArrowInvalid, OverflowError):
                duplos = None
            if duplos is not None and pc.all(pc.is_finite(duplos)).as_py() is not False:
                textos = duplos.cast(pa.string())  # the shortest text of the same double
        elif tipos == {NumeroExato}:
            textos = pa.array(valores, pa.string())
        if textos is not None:
            celulas = pc.binary_join_element_wise(
                f'<c r="{letras}', linhas, f'"{s}><v>', textos, "</v></c>", ""
            )
            return pc.fill_null(celulas, "")
        if tipos == {str} and not self._alguma_formula(valores):
            texto = pa.array(valores, pa.string())
            if not pc.any(pc.match_substring_regex(texto, _A_ESCAPAR_RE2)).as_py():
                for de, para in (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;")):
                    texto = pc.replace_substring(texto, de, para)
                texto = pc.if_else(pc.equal(texto, ""), pa.scalar(None, pa.string()), texto)
                celulas = pc.binary_join_element_wise(
                    f'<c r="{letras}',
                    linhas,
                    '" t="inlineStr"><is><t xml:space="preserve">',
                    texto,
                    "</t></is></c>",
                    "",
                )
                return pc.fill_null(celulas, "")
        if tipos and all(issubclass(t, date) for t in tipos):
            # dates repeat (a deadline, a year's end): each distinct one is made once
            unicos = {v: self.celula("\x00", v, estilo) for v in set(valores) if v is not None}
            return pa.array(
                [
                    "" if v is None else unicos[v].replace("\x00", f"{letras}{n}", 1)
                    for n, v in zip(numeros, valores, strict=True)
                ],
                pa.string(),
            )
        celula = self.celula
        return pa.array(
            [
                "" if v is None else celula(f"{letras}{n}", v, estilo)
                for n, v in zip(numeros, valores, strict=True)
            ],
            pa.string(),
        )

    def gravar(self, xml: bytes) -> None:
        self.folha.write(xml)

    def fechar(self) -> None:
        self.folha.write(b"</sheetData></worksheet>")
        self.folha.close()
        formatos = "".join(
            f'<numFmt numFmtId="{164 + i}" formatCode="{_escapar(f).replace(chr(34), "&quot;")}"/>'
            for i, f in enumerate(self.formatos)
        )
        xfs = "".join(
            f'<xf numFmtId="{164 + i}" fontId="0" fillId="0" borderId="0" xfId="0" '
            'applyNumberFormat="1"/>'
            for i in range(len(self.formatos))
        )
        estilos = (
            f'{_XML}<styleSheet xmlns="{_NS}">'
            f'<numFmts count="{len(self.formatos)}">{formatos}</numFmts>'
            '<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>'
            '<fills count="2"><fill><patternFill patternType="none"/></fill>'
            '<fill><patternFill patternType="gray125"/></fill></fills>'
            '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border>'
            "</borders>"
            '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/>'
            "</cellStyleXfs>"
            f'<cellXfs count="{len(self.formatos) + 2}">'
            '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'
            f"{xfs}"
            '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0" quotePrefix="1"/>'
            "</cellXfs>"
            '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/>'
            "</cellStyles></styleSheet>"
        )
        partes = {
            "[Content_Types].xml": (
                f'{_XML}<Types xmlns="{_PKG}/content-types">'
                '<Default Extension="rels" '
                'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
                '<Default Extension="xml" ContentType="application/xml"/>'
                '<Override PartName="/xl/workbook.xml" ContentType="application/'
                'vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
                '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/'
                'vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
                '<Override PartName="/xl/styles.xml" ContentType="application/'
                'vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>'
                "</Types>"
            ),
            "_rels/.rels": (
                f'{_XML}<Relationships xmlns="{_PKG}/relationships">'
                f'<Relationship Id="rId1" Type="{_REL}/officeDocument" '
                'Target="xl/workbook.xml"/></Relationships>'
            ),
            "xl/workbook.xml": (
                f'{_XML}<workbook xmlns="{_NS}" xmlns:r="{_REL}"><sheets>'
                f'<sheet name="{_escapar(self.nome)}" sheetId="1" r:id="rId1"/>'
                "</sheets></workbook>"
            ),
            "xl/_rels/workbook.xml.rels": (
                f'{_XML}<Relationships xmlns="{_PKG}/relationships">'
                f'<Relationship Id="rId1" Type="{_REL}/worksheet" '
                'Target="worksheets/sheet1.xml"/>'
                f'<Relationship Id="rId2" Type="{_REL}/styles" Target="styles.xml"/>'
                "</Relationships>"
            ),
            "xl/styles.xml": estilos,
        }
        for nome, texto in partes.items():
            self.pacote.writestr(nome, texto)
        self.pacote.close()
