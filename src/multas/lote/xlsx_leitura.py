"""The batch's fast XLSX reader: Rust's calamine (``python-calamine``) reads the first sheet
whole, about ten times faster than openpyxl's stream (100 000 rows: 0.5 s against 4.8 s).

calamine holds the sheet in memory as a rectangle from its first used cell to its last, and
clones a shared text into every cell that uses it; a 2 KB file with one cell at XFD1048576
makes it ask for 512 GiB and abort the process. So it is only given a workbook once a scan of
the zip (every part read through :mod:`zipfile`, which checks each size and CRC) has bounded
what it will hold: the rectangle and the shared texts' copies within :data:`CELULAS_RAPIDAS`
cells and :data:`BYTES_RAPIDOS` bytes, every cell tag in the plain form whose position the scan
reads (``<c r="B7"``). Any other workbook (larger, unusual, or that calamine cannot read) is
read by the streaming reader (:class:`multas.nucleo.arquivos.LeitorXlsx`), which also gives
the precise pt-BR error of a broken one. Both yield the same rows (spec § 4 of the batch):

- an integer-valued number is an ``int`` (calamine reads every number as a double; openpyxl
  reads ``<v>2024</v>`` as ``2024``): only up to 2**53, past which a double is no longer
  exact; a larger one stays a ``float`` and is written with ``repr``, as openpyxl does with
  the ``1.2345678901234567E+19`` that a spreadsheet program writes;
- a date cell is a ``datetime`` (midnight for a whole day), as openpyxl reads it;
- an empty cell is ``None``; a row ends at its last cell; rows and columns are numbered from
  the sheet's first, as in the workbook;
- a text's OOXML escapes (``_x0041_``) are decoded as calamine decodes them
  (:func:`multas.nucleo.arquivos.decodificar_ooxml`); a formula cell saved without its value
  (calamine reads it as empty) sends the workbook to the streaming reader, which yields it as
  :data:`~multas.nucleo.arquivos.FORMULA_SEM_VALOR`.

``multas lote`` starts this reading while it loads its modules (:func:`adiantar`).
"""

from __future__ import annotations

import re
import threading
import zipfile
from collections.abc import Iterator, Sequence
from datetime import date, datetime
from itertools import pairwise
from pathlib import Path
from typing import IO, Any, NamedTuple

from multas.lote.xlsx_arrow import LeitorArrow, carregar_em_arrow
from multas.nucleo.arquivos import (
    LeitorXlsx,
    Limites,
    Local,
    celula_longa,
    conferir_linha_xlsx,
    conferir_xlsx,
    letra_da_coluna,
    no_arquivo,
    tetos_xlsx,
)

#: the most cells calamine's rectangle may hold for the fast reader (about 32 bytes each)
#: a cell of a shared text (its ``t`` attribute, quoted either way, spaces allowed)
_TIPO_COMPARTILHADO = re.compile(rb"""\st\s*=\s*["']s["']""")
#: a cell the Arrow reading leaves to calamine's rows: an error, a boolean, an ISO date
#: (any attribute of such a value: its ``t``, ``t = 'e'`` too)
_TIPO_SEM_ARROW = re.compile(rb"""=\s*["'][ebd]["']""")
CELULAS_RAPIDAS = 16_000_000
#: the most bytes of text its cells may hold, shared texts counted once per cell using them
BYTES_RAPIDOS = 512 * 2**20
#: the largest integer a double holds exactly
_EXATO = 2**53
#: whether the Arrow reading (:mod:`multas.lote.xlsx_arrow`) is tried; off, calamine's rows
_ARROW = True

_SI = re.compile(rb"<si[\s>]")
#: an element with a prefix that calamine reads as a cell or a row (``<x:c r=…``)
_PREFIXADO = re.compile(rb":(?:c[\s/>]|row[\s/>])")
#: what may follow an element's name in its tag: XML's white space, ``>`` or ``/``
_FIM_DO_NOME = list(b" \t\n\r>/")
#: a formula cell with no value: its ``<f>`` element, then none or an empty ``<v>``, then the
#: cell's end (calamine reads it as an empty cell). An empty text result (``t="str"``) is
#: matched too: the streaming reader, which reads the cell's type, tells them apart
_FORMULA_SEM_VALOR = re.compile(
    rb"(?:</f\s*>|<f(?:\s[^>]*)?/>)\s*(?:<v\s*/>|<v\s*>\s*</v\s*>)?\s*</c\s*>"
)


class _Varredura(NamedTuple):
    #: the cells of the rectangle calamine would hold
    celulas: int
    #: the longest run of bytes between two tags (no text of the sheet is longer)
    maior: int
    #: how many cell tags the sheet has
    tags: int
    #: whether it has a formula (an ``<f`` tag)
    formulas: bool


def _retangulo(folha: bytes) -> _Varredura | None:
    """What calamine would hold for this sheet (:class:`_Varredura`: its rectangle, rows ×
    columns up to the farthest cell reference; the longest text; the cell tags; whether it
    has a formula), or ``None`` when a cell tag is not in the plain form ``<c r="B7"`` (its
    position would need the XML parsed) or an element has a prefix. A cell tag is ``<c``
    then XML's white space, ``>`` or ``/``. Vectorised over the bytes: every ``<`` found at
    once (one pass of NumPy), then only the cell tags read."""
    import numpy as np

    if _PREFIXADO.search(folha):  # "x:c " "x:row": an element with a prefix
        return None
    a = np.frombuffer(folha + b"\0" * 20, np.uint8)
    lt = np.flatnonzero(a[: len(folha)] == ord("<"))
    maior = int(np.diff(lt).max()) if len(lt) > 1 else len(folha)
    efes = lt[a[lt + 1] == ord("f")]
    formulas = bool(np.isin(a[efes + 2], _FIM_DO_NOME).any())
    lt = lt[a[lt + 1] == ord("c")]
    seguinte = a[lt + 2]
    tags = lt[np.isin(seguinte, _FIM_DO_NOME)]
    refs = tags
    for k, letra in enumerate(b' r="', start=2):
        refs = refs[a[refs + k] == letra]
    if len(refs) != len(tags):
        return None
    if not len(refs):
        return _Varredura(0, maior, 0, formulas)
    # the reference after each tag: at most 3 letters, 7 digits (1 048 576) and the quote
    m = a[refs[:, None] + 6 + np.arange(12)]
    letras = (m >= ord("A")) & (m <= ord("Z"))
    quantas = np.argmin(letras, axis=1)  # the letters before the first other byte
    aspas = m == ord('"')
    fim = np.argmax(aspas, axis=1)  # where the quote is
    if (
        not aspas[np.arange(len(refs)), fim].all()
        or quantas.min() < 1
        or quantas.max() > 3
        or (fim <= quantas).any()
    ):
        return None
    posicao = np.arange(12)
    entre = (posicao >= quantas[:, None]) & (posicao < fim[:, None])
    if not (((m >= ord("0")) & (m <= ord("9"))) | ~entre).all():
        return None  # something other than digits between the letters and the quote
    c = m[:, :3].astype(np.int64) - 64
    coluna = np.where(quantas == 1, c[:, 0], np.where(quantas == 2, c[:, 0] * 26 + c[:, 1], 0))
    coluna = np.where(quantas == 3, (c[:, 0] * 26 + c[:, 1]) * 26 + c[:, 2], coluna)
    digitos = fim - quantas
    longas = np.flatnonzero(digitos == digitos.max())  # the largest rows have the most digits
    n = int(digitos.max())
    numeros = m[longas[:, None], quantas[longas][:, None] + np.arange(n)].astype(np.int64) - 48
    linha = numeros @ (10 ** np.arange(n - 1, -1, -1, dtype=np.int64))
    return _Varredura(int(linha.max()) * int(coluna.max()), maior, len(refs), formulas)


def _sem_arrow(folha: bytes) -> bool:
    """Whether the sheet may have a cell the Arrow reading leaves to calamine's rows (an
    error, a boolean, an ISO date): any attribute whose value is ``e``, ``b`` or ``d`` (a
    cell's type among them; the regex starts with ``=``, which the search finds fast)."""
    return _TIPO_SEM_ARROW.search(folha) is not None


def _maior_texto(compartilhados: bytes) -> int:
    """The longest shared text, in bytes of XML (an upper bound of its characters)."""
    inicios = [m.start() for m in _SI.finditer(compartilhados)]
    if not inicios:
        return 0
    inicios.append(len(compartilhados))
    return max(b - a for a, b in pairwise(inicios))


def cabe_no_rapido(fonte: IO[bytes] | Path) -> int | None:
    """Whether calamine may read this workbook within the bounds (see the module): the
    longest text a cell may hold, or ``None`` when it may not. Every
    part is read once through zipfile, so a part larger than declared or with a wrong CRC
    fails here, not in calamine. A file object is left at its start."""
    varrida = _varrer(fonte)
    return None if varrida is None else varrida.maior_texto


class _Medida(NamedTuple):
    """What the scan allows: the longest text a cell may hold; calamine's rectangle; whether
    the Arrow reading may be tried (:mod:`multas.lote.xlsx_arrow`: no ``_x`` in a text, no
    error, boolean or ISO-date cell)."""

    maior_texto: int
    celulas: int
    arrow: bool


def _varrer(fonte: IO[bytes] | Path) -> _Medida | None:
    """:func:`cabe_no_rapido`, with the rectangle and whether Arrow may read the sheet."""
    from multas.lote.contagem import _primeira_folha

    try:
        with zipfile.ZipFile(fonte) as pacote:
            nome = _primeira_folha(pacote)
            if nome is None:
                return None
            folha = b""
            compartilhados = b""
            for parte in pacote.infolist():
                if parte.filename == nome:
                    if parte.file_size > BYTES_RAPIDOS:
                        return None
                    folha = pacote.read(parte)
                elif parte.filename == "xl/sharedStrings.xml":
                    if parte.file_size > BYTES_RAPIDOS:
                        return None
                    compartilhados = pacote.read(parte)
                else:
                    with pacote.open(parte) as fluxo:
                        while fluxo.read(1 << 20):
                            pass
    except Exception:
        return None
    finally:
        if not isinstance(fonte, Path):
            fonte.seek(0)
    varrida = _retangulo(folha)
    if varrida is None or varrida.celulas > CELULAS_RAPIDAS:
        return None
    if varrida.formulas and _FORMULA_SEM_VALOR.search(folha):
        return None  # the streaming reader names the cell (calamine reads it as empty)
    if b":si" in compartilhados:  # a prefixed shared text: its lengths are not read here
        return None
    compartilhado = _maior_texto(compartilhados)
    # every shared-text cell, however its attribute is quoted or spaced (t='s', t = "s");
    # counted only when the cells of the sheet, all of them shared texts, could pass the bound
    if (
        varrida.tags * compartilhado > BYTES_RAPIDOS
        and len(_TIPO_COMPARTILHADO.findall(folha)) * compartilhado > BYTES_RAPIDOS
    ):
        return None
    arrow = b"_x" not in folha and b"_x" not in compartilhados and not _sem_arrow(folha)
    return _Medida(max(varrida.maior, compartilhado), varrida.celulas, arrow)


def _valor(valor: Any) -> Any:
    """A calamine cell as openpyxl reads it (see the module)."""
    tipo = type(valor)
    if tipo is float:
        if valor.is_integer() and -_EXATO <= valor <= _EXATO:
            return int(valor)
        return valor
    if tipo is str:
        return valor if valor else None
    if tipo is date:
        return datetime(valor.year, valor.month, valor.day)
    return valor


def _indice_da_folha(livro: Any) -> int:
    """The index of the workbook's first worksheet (a chart sheet is skipped)."""
    from python_calamine import SheetTypeEnum

    return next(
        i for i, folha in enumerate(livro.sheets_metadata) if folha.typ == SheetTypeEnum.WorkSheet
    )


def _nome_da_folha(caminho: Path) -> str:
    """The name of the workbook's first worksheet."""
    from python_calamine import CalamineWorkbook

    livro = CalamineWorkbook.from_path(str(caminho))
    try:
        return str(livro.sheets_metadata[_indice_da_folha(livro)].name)
    finally:
        livro.close()


def _folha_calamine(fonte: IO[bytes] | Path) -> Any:
    """The workbook's first sheet, loaded whole by calamine."""
    from python_calamine import CalamineWorkbook

    livro = (
        CalamineWorkbook.from_path(str(fonte))
        if isinstance(fonte, Path)
        else CalamineWorkbook.from_filelike(fonte)
    )
    try:
        return livro.get_sheet_by_index(_indice_da_folha(livro))
    finally:
        livro.close()


class LeitorCalamine:
    """:class:`multas.nucleo.arquivos.LeitorXlsx`'s interface and limits, on calamine
    (``folha``: the sheet already loaded by :func:`_folha_calamine`)."""

    def __init__(
        self,
        fonte: IO[bytes] | Path,
        limites: Limites,
        arquivo: str | None,
        maior_texto: int | None = None,
        folha: Any = None,
    ) -> None:
        self.limites, self.arquivo = limites, arquivo
        #: whether a cell may be longer than the limit (else no cell is measured)
        self._medir = maior_texto is None or maior_texto > limites.texto
        if folha is None:
            folha = _folha_calamine(fonte)
        inicio = folha.start or (0, 0)
        # iter_rows starts at the sheet's first row, but at its first used column
        self._recuo = (None,) * inicio[1]
        self._brutas = folha.iter_rows()
        self._celulas = 0
        #: never: a workbook with such a cell goes to the streaming reader (the scan)
        self.formulas_sem_valor = False
        self.nomes: list[str] = []
        self._todas_as_linhas = self._todas()
        for numero_linha, valores in self._todas_as_linhas:
            if valores:
                self.numero_cabecalho, self.cabecalho = numero_linha, tuple(valores)
                break
        else:
            raise no_arquivo(arquivo, "planilha vazia (falta o cabeçalho)")
        self.nomes = [str(v).strip() if v is not None else "" for v in self.cabecalho]

    def _todas(self) -> Iterator[tuple[int, Sequence[Any]]]:
        limites, recuo = self.limites, self._recuo
        teto_linhas, teto_celulas = tetos_xlsx(limites)
        for numero_linha, brutos in enumerate(self._brutas, start=1):
            valores = [
                (int(v) if v.is_integer() and -_EXATO <= v <= _EXATO else v)
                if type(v) is float
                else (v or None)
                if type(v) is str
                else _valor(v)
                for v in brutos
            ]
            if recuo:
                valores[:0] = recuo
            while valores and valores[-1] is None:
                valores.pop()
            self._celulas += len(valores)
            if numero_linha > teto_linhas or self._celulas > teto_celulas:
                conferir_linha_xlsx(numero_linha, self._celulas, limites, self.arquivo)
            for i, valor in enumerate(valores if self._medir else ()):
                if type(valor) is str and len(valor) > limites.texto:
                    local = Local(numero_linha, arquivo=self.arquivo)
                    raise celula_longa(limites, local, self._nome(i))
            yield numero_linha, tuple(valores)

    def _nome(self, indice: int) -> str:
        if indice < len(self.nomes) and self.nomes[indice]:
            return self.nomes[indice]
        return letra_da_coluna(indice)

    def linhas(self) -> Iterator[tuple[int, Sequence[Any]]]:
        """The rows after the header (a blank one as ``()``), each with its row number."""
        return self._todas_as_linhas

    def fechar(self) -> None:
        self._brutas = iter(())


#: a workbook whose reading started early (:func:`adiantar`): its path → the limits it is
#: read with, the thread reading it and what it found
_ADIANTADAS: dict[Path, tuple[Limites, threading.Thread, list[tuple[bool, Any]]]] = {}
_TRAVA = threading.Lock()


def _carregar(
    fonte: IO[bytes] | Path, limites: Limites, arquivo: str | None
) -> tuple[int, Any] | None:
    """The limits checked (:func:`~multas.nucleo.arquivos.conferir_xlsx`), then, when the
    scan allows, the sheet loaded by calamine with the longest text a cell may hold; ``None``
    for the streaming reader."""
    conferir_xlsx(fonte, limites, arquivo)
    medida = _varrer(fonte)
    if medida is None:
        return None
    maior_texto = medida.maior_texto
    try:
        if medida.arrow and isinstance(fonte, Path) and _ARROW:
            lida = carregar_em_arrow(
                fonte, _nome_da_folha(fonte), medida.celulas, maior_texto, limites
            )
            if lida is not None:
                return maior_texto, lida
        return maior_texto, _folha_calamine(fonte)
    except Exception:  # one calamine cannot read: the streaming reader says why
        if not isinstance(fonte, Path):
            fonte.seek(0)
        return None


def adiantar(caminho: Path, limites: Limites) -> None:
    """Start reading this workbook now, in a thread: ``multas lote`` calls it before loading
    its other modules, so the zip's scan and calamine run while the interpreter imports
    pyarrow (zlib, NumPy and, in part, calamine release the GIL). :func:`abrir_planilha` takes what it found (an error, raised
    there as it would have been). Only a local file; nothing changes in what is read."""

    def ler() -> None:
        try:
            achado.append((True, _carregar(caminho, limites, caminho.name)))
        except BaseException as erro:
            achado.append((False, erro))

    achado: list[tuple[bool, Any]] = []
    linha = threading.Thread(target=ler, name="multas-xlsx-adiantado", daemon=True)
    with _TRAVA:
        _ADIANTADAS[caminho] = (limites, linha, achado)
    linha.start()


def _adiantada(fonte: IO[bytes] | Path, limites: Limites) -> tuple[bool, Any]:
    """What :func:`adiantar` found for this workbook (once): ``(True, loaded)`` or
    ``(False, None)`` when it was not read early (or with other limits)."""
    if not isinstance(fonte, Path):
        return False, None
    with _TRAVA:
        item = _ADIANTADAS.pop(fonte, None)
    if item is None or item[0] != limites:
        return False, None
    item[1].join()
    ok, valor = item[2][0]
    if not ok:
        raise valor
    return True, valor


def abrir_planilha(
    fonte: IO[bytes] | Path, limites: Limites, arquivo: str | None
) -> LeitorXlsx | LeitorCalamine | LeitorArrow:
    """The first sheet, read by calamine when the scan allows (see the module), else by the
    streaming reader; the limits are checked first, as before."""
    adiantada, carregada = _adiantada(fonte, limites)
    if not adiantada:
        carregada = _carregar(fonte, limites, arquivo)
    if carregada is not None:
        maior_texto, folha = carregada
        if isinstance(folha, LeitorArrow):
            return folha
        try:
            return LeitorCalamine(fonte, limites, arquivo, maior_texto, folha)
        except Exception as erro:
            from multas.nucleo.erros import EntradaInvalida

            if isinstance(erro, EntradaInvalida):
                raise
            if not isinstance(fonte, Path):
                fonte.seek(0)
    return LeitorXlsx(fonte, limites, arquivo)
