"""Tables out: the one CSV writer of every export (the ANP's lists, the work queue, the
processos file, the year's ``resultado.csv``, the distributor's ledger), its pt-BR notation,
and the neutralisation of cells a spreadsheet would run as a formula.

- **Plain** (the default): ``,`` between cells, a decimal point, dates ISO (``2025-12-31``).
- **pt-BR** (``--ptbr``, ``ptbr=true``): ``;`` between cells, an amount (a ``Decimal``) with
  thousands ``.`` and a decimal comma (``1.234,56``), dates ``dd/mm/aaaa``. Integers (ids,
  CBIO counts) are written as digits, without separators, in both modes, so that an importer
  reads them back as they were (a negative one, as any text starting with ``-``, gets the
  apostrophe below).
- **Formulas**: a text cell starting with ``=``, ``+``, ``-``, ``@``, a tab or CR gets an
  apostrophe in front (OWASP's CSV injection guidance), so that a name typed as
  ``=HYPERLINK(...)`` stays text; so does one starting with their full-width forms (``＝``,
  ``＋``, ``－``, ``＠``, which a spreadsheet under an East Asian input may take as the ASCII
  ones), or with any of these after leading blanks (spaces, tabs, line breaks: some
  spreadsheets trim them before reading a formula). :func:`e_formula` is the one test. The batch (``multas lote``) also leaves a text that is only a
  number (``-12.5``) as it is (:func:`neutralizar_formula`); the other exports neutralise every
  such text (:func:`celula_segura`). Only text cells are neutralised: an amount or a date the
  export itself writes is never a formula.
- **XLSX**: :func:`celula_xlsx_texto` makes a text starting with ``=`` a text cell (openpyxl
  would write it as a live formula), and marks every text :func:`e_formula` flags with the
  cell's "quote prefix" (Excel's own apostrophe, not part of the value), so that editing the
  cell does not turn it into a formula either.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import IO, Any

from multas.nucleo.arquivos import escapar_ooxml
from multas.nucleo.datas import formatar_data
from multas.nucleo.dinheiro import formatar_numero

#: OWASP's CSV injection guidance: a cell starting with one of these may run as a formula (with
#: the full-width forms of the four signs)
FORMULA = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")
#: the signs that start a formula, also after leading blanks
_SINAIS = "=+-@\uff1d\uff0b\uff0d\uff20"
#: the blanks before them: every character :meth:`str.isspace` (Python's ``\s``) calls blank,
#: written out so that the batch's RE2 check (ASCII ``\s``) tests the very same ones
BRANCOS = (
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005"
    "\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)


def _padrao(re2: bool) -> str:
    def classe(caracteres: str) -> str:
        return "".join(f"\\x{{{ord(c):x}}}" if re2 else f"\\u{ord(c):04x}" for c in caracteres)

    return f"^(?:[\\t\\r]|[{classe(BRANCOS)}]*[{classe(_SINAIS)}])"


#: :func:`e_formula` as a regular expression (RE2, the batch's vectorised check)
FORMULA_REGEX = _padrao(re2=True)
_FORMULA = re.compile(_padrao(re2=False))
#: a cell that is only a number (``-12.5``, ``+3``, ``-1.234,56``) cannot run as a formula
SO_NUMERO = r"^[+-]?[0-9][0-9.,]*$"


def e_formula(texto: str) -> bool:
    """Whether a spreadsheet could read ``texto`` as a formula: it starts with one of
    :data:`FORMULA`, or with one of the signs after leading blanks. The one test of every
    export (CSV, XLSX, the batch).

    >>> [e_formula(t) for t in ("=1", "\\uff1d1", " \\t+1", "\\n@x", "\\u3000\\uff0d1", "a=1")]
    [True, True, True, True, True, False]
    """
    return _FORMULA.match(texto) is not None


def neutralizar_formula(texto: str) -> str:
    """``'`` before a text that a spreadsheet would read as a formula; a text that is only a
    number keeps its sign (the batch's cells).

    >>> [neutralizar_formula(t) for t in ("=1+1", "@SUM(A1)", "-12.5", "+cmd|x", "nome")]
    ["'=1+1", "'@SUM(A1)", '-12.5', "'+cmd|x", 'nome']
    >>> neutralizar_formula("\\uff1dcmd()") == "'\\uff1dcmd()", neutralizar_formula("  =1+1")
    (True, "'  =1+1")
    """
    if e_formula(texto) and not re.match(SO_NUMERO, texto):
        return "'" + texto
    return texto


def celula_segura(valor: object) -> str:
    """A CSV cell that no spreadsheet runs as a formula (every text starting with
    :data:`FORMULA`, numbers too).

    >>> celula_segura("=1+1"), celula_segura("Posto"), celula_segura(None), celula_segura(7)
    ("'=1+1", 'Posto', '', '7')
    """
    if valor is None:
        return ""
    texto = str(valor)
    return "'" + texto if e_formula(texto) else texto


def celula_reversivel(valor: object) -> str:
    """:func:`celula_segura`, reversible: a text that already starts with an apostrophe gets one
    more, so that :func:`desfazer_celula` gives back exactly what was written (the processos
    file, which is exported to be imported again).

    >>> [celula_reversivel(t) for t in ("=1+1", "'Posto", "Posto", None)]
    ["'=1+1", "''Posto", 'Posto', '']
    """
    texto = celula_segura(valor)
    return "'" + texto if texto.startswith("'") and texto == str(valor) else texto


def desfazer_celula(texto: str) -> str:
    """The text :func:`celula_reversivel` was given: one apostrophe before a formula's first
    character (or before another apostrophe) is taken off; any other text is as it is.

    >>> [desfazer_celula(t) for t in ("'=1+1", "''Posto", "'Posto", "Posto")]
    ['=1+1', "'Posto", "'Posto", 'Posto']
    """
    if texto.startswith("'") and (e_formula(texto[1:]) or texto[1:].startswith("'")):
        return texto[1:]
    return texto


@dataclass(frozen=True, slots=True)
class Notacao:
    """How an export writes its cells: plain (``ptbr=False``) or pt-BR."""

    ptbr: bool = False

    @property
    def separador(self) -> str:
        return ";" if self.ptbr else ","

    def data(self, dia: date) -> str:
        """``2025-12-31``, or ``31/12/2025`` in pt-BR.

        >>> Notacao().data(date(2025, 12, 31)), Notacao(True).data(date(2025, 12, 31))
        ('2025-12-31', '31/12/2025')
        """
        return formatar_data(dia) if self.ptbr else dia.isoformat()

    def numero(self, valor: Decimal) -> str:
        """An amount as written: ``1234.56``, or ``1.234,56`` in pt-BR (exact, as given).

        >>> Notacao().numero(Decimal("-1234.5")), Notacao(True).numero(Decimal("-1234.50"))
        ('-1234.5', '-1.234,50')
        """
        texto = f"{valor:f}"
        return formatar_numero(texto) if self.ptbr else texto

    def texto(self, valor: object, neutralizar: Callable[[object], str] = celula_segura) -> str:
        """One cell: a date or a ``Decimal`` in the notation, a yes/no as ``sim``/``não``; any
        other value (a text, an integer) as ``neutralizar`` writes it; ``None`` is empty."""
        if isinstance(valor, bool):
            return "sim" if valor else "não"
        if isinstance(valor, date):
            return self.data(valor)
        if isinstance(valor, Decimal):
            return self.numero(valor)
        return neutralizar(valor)


def escrever_csv(
    destino: IO[str],
    cabecalho: Sequence[str],
    linhas: Iterable[Sequence[object]],
    notacao: Notacao = Notacao(),
    neutralizar: Callable[[object], str] = celula_segura,
    fim_de_linha: str = "\n",
) -> None:
    """Write a table as CSV: the header (neutralised too: it may name an input's columns), then
    every row, each cell by :meth:`Notacao.texto`. The one CSV writer of the exports."""
    # csv quotes a cell holding a character of its line terminator: with "\r\n", a cell with
    # a bare CR (a formula's first character too) is quoted, and read back whole; each row's
    # own terminator is then written as asked
    linha_csv = io.StringIO()
    escritor = csv.writer(linha_csv, delimiter=notacao.separador, lineterminator="\r\n")

    def gravar(celulas: list[str]) -> None:
        escritor.writerow(celulas)
        destino.write(linha_csv.getvalue()[:-2] + fim_de_linha)
        linha_csv.seek(0)
        linha_csv.truncate()

    gravar([neutralizar(c) for c in cabecalho])
    for linha in linhas:
        gravar([notacao.texto(v, neutralizar) for v in linha])


def csv_texto(
    cabecalho: Sequence[str],
    linhas: Iterable[Sequence[object]],
    notacao: Notacao = Notacao(),
    neutralizar: Callable[[object], str] = celula_segura,
) -> str:
    """:func:`escrever_csv` into a string."""
    saida = io.StringIO()
    escrever_csv(saida, cabecalho, linhas, notacao, neutralizar)
    return saida.getvalue()


def data_iso(valor: object) -> object:
    """A cell that holds an ISO date as text (a derived record's field) as a ``date``, so that
    the notation writes it; anything else as it is."""
    if isinstance(valor, str):
        try:
            return date.fromisoformat(valor)
        except ValueError:
            return valor
    return valor


#: XLSX: how a money cell and a date cell are shown (``R$ 1.234,56`` under a pt-BR locale;
#: "R$" quoted, as a spreadsheet's format code wants a literal text)
FORMATO_DINHEIRO = '"R$" #,##0.00'
#: a CBIO's price in a number cell: the 4 places it is shown with (dinheiro.CASAS_PRECO)
FORMATO_PRECO = '"R$" #,##0.0000'
FORMATO_DATA = "dd/mm/yyyy"
#: a spreadsheet keeps a number as a double, exact to 15 significant digits: from 10**13 reais
#: (10**15 centavos, 16 digits) a centavo could change, so such an amount stays a text cell
LIMITE_NUMERO_XLSX = 10**15


class NumeroExato(str):
    """The exact decimal text of an amount (``1234.56``), written as a number cell.

    openpyxl writes a ``Decimal`` through ``"%.16g"``, a float: 9938663793017.12 would be
    written 9938663793017.119. A number cell holding this text is written as it is."""


def celula_xlsx_texto(folha: Any, valor: object) -> object:
    """openpyxl writes a text starting with ``=`` as a live formula: a text :func:`e_formula`
    flags becomes a text cell of the write-only sheet ``folha``, with the quote prefix (Excel
    keeps it text when the cell is edited; the value itself is unchanged); a control character
    (a name with ``\x01``) is written ``_x0001_``, never a crash, and a literal ``_xHHHH_``
    ``_x005F_xHHHH_``, so that it reads back as itself (OOXML's escapes:
    :func:`multas.nucleo.arquivos.escapar_ooxml`, as the batch's own writer does); any other
    value is as it is.

    >>> celula_xlsx_texto(None, "Beta\x01"), celula_xlsx_texto(None, "_x0041_")
    ('Beta_x0001_', '_x005F_x0041_')
    """
    texto = isinstance(valor, str) and not isinstance(valor, NumeroExato)
    if texto:
        valor = escapar_ooxml(str(valor))
    if isinstance(valor, str) and not isinstance(valor, NumeroExato) and e_formula(valor):
        from openpyxl.cell import WriteOnlyCell

        celula = WriteOnlyCell(folha, value=valor)
        celula.data_type = "s"
        celula.quotePrefix = True
        return celula
    return valor


def celula_xlsx(folha: Any, valor: object, formato: str = FORMATO_DINHEIRO) -> object:
    """One typed XLSX cell of the write-only sheet ``folha``: an amount (``Decimal``) an exact
    number cell shown ``formato`` (text from 10**13 reais), a date a date cell shown
    :data:`FORMATO_DATA`, an integer a number, a text as :func:`celula_xlsx_texto`."""
    from openpyxl.cell import WriteOnlyCell

    if isinstance(valor, Decimal):
        centavos = valor.scaleb(2)
        if abs(centavos) >= LIMITE_NUMERO_XLSX:
            return f"{valor:f}"
        celula = WriteOnlyCell(folha, value=NumeroExato(f"{valor:.2f}"))
        celula.data_type = "n"  # its text is written as it is: exact
        celula.number_format = formato
        return celula
    if isinstance(valor, date):
        celula = WriteOnlyCell(folha, value=valor)
        celula.number_format = FORMATO_DATA
        return celula
    return celula_xlsx_texto(folha, valor)
