"""Reading the files a user imports, within bounds: one reader for ``multas lote`` and for the
ledger's import (``multas carteira importar``, ``POST /api/v1/carteira/importar`` and the
page's paste), so a hostile or broken file gets the same pt-BR error, and the same limits'
mechanism, wherever it comes in.

- **Limits** (:class:`Limites`), set per entry point: how much an XLSX may expand to once
  uncompressed, how many rows and cells a file may have (the blank ones a spreadsheet reader
  fills in included) and how long one cell may be. An XLSX is checked on its zip's directory
  *before* openpyxl reads a byte (and zipfile never yields more than a part declares; a part
  that holds more fails its CRC check); a DTD, which no spreadsheet uses and which would let
  XML entities expand past any declared size, is refused.
- **Where**: every error about a row says where it is with :class:`Local`, one convention for
  every importer: ``linha N`` counts the file's lines from 1, the header being line 1 (so the
  first data row is line 2; in an XLSX, the sheet's own row number; in JSON Lines, the file's
  line); ``item N`` is the position, from 1, in a JSON list. Then the column (``coluna``, in a
  table) or the field (``campo``, in JSON), by name.
- **Formats**: CSV records with their first line (Python's csv module, its field limit turned
  into a pt-BR error), JSON Lines lines (split on ``\\n`` only: ``\\r`` and U+2028 may stand
  inside a line), UTF-8 with the line of the first bad byte, and the first sheet of an XLSX in
  a stream (openpyxl, read-only), a corrupt one being a pt-BR error however far it is read.

``multas lote`` keeps its own fast path for CSV (Arrow) and Parquet; it uses these readers
for the rest, and to say why Arrow refused a CSV.
"""

from __future__ import annotations

import csv
import re
import threading
import zipfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from multas.nucleo.dinheiro import formatar_numero
from multas.nucleo.erros import EntradaInvalida, mostrar_valor

KIB, MIB, GIB = 1 << 10, 1 << 20, 1 << 30
#: the XLSX format's own maximum: a row number past it is a corrupt file
LINHAS_XLSX = 1_048_576
BOM = b"\xef\xbb\xbf"
NAO_UTF8 = "o arquivo não está em UTF-8 (salve-o como UTF-8)"
UTF16 = (
    "o arquivo está em UTF-16 (ou UTF-32), não em UTF-8 nem em Latin-1: salve-o como UTF-8 "
    '(no Excel, "CSV UTF-8")'
)
#: the BOMs of UTF-16 and UTF-32 (UTF-32's little-endian one starts as UTF-16's)
_BOMS_LARGOS = (b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff")
#: a ZIP's first bytes (an XLSX is one): a binary file named as text, not a UTF-16 text
_ZIP = b"PK\x03\x04"
NAO_TEXTO = (
    "o arquivo não é um texto (CSV ou JSON Lines): parece uma planilha XLSX ou um ZIP; envie-o "
    "com a extensão .xlsx, ou salve-o como CSV UTF-8"
)


@dataclass(frozen=True, slots=True)
class Limites:
    """How far an imported file may expand. Each entry point passes its own (the presets
    below): small on the server, larger on the command line, configurable in the batch."""

    #: bytes: an XLSX's parts together, uncompressed (as its zip's directory declares them)
    descompactado: int
    #: rows read, blank ones included (the header too); ``None``: no limit but the format's
    linhas: int | None
    #: cells read from a spreadsheet, counting the blank ones a reader fills in to align a row
    celulas: int | None
    #: characters of one cell (a CSV field, an XLSX cell, a JSON value); bytes of a JSON
    #: Lines line
    texto: int
    #: the limits can be changed on the command line (``--limite-<nome>``): messages say so
    ajustavel: bool = False


#: the server's imports (the API and the page): a ledger of up to 100 000 rows
SERVIDOR = Limites(descompactado=16 * MIB, linhas=100_000, celulas=2_000_000, texto=32 * KIB)
#: ``multas carteira importar``: the user's own file, on their own machine
LINHA_DE_COMANDO = Limites(
    descompactado=256 * MIB, linhas=1_000_000, celulas=20_000_000, texto=1 * MIB
)
#: ``multas lote`` (and ``multas exposicao``): millions of rows, read block by block, so no
#: row limit; the options ``--limite-descompactado``, ``--limite-celulas`` and
#: ``--limite-texto`` change the others
LOTE = Limites(
    descompactado=4 * GIB, linhas=None, celulas=100_000_000, texto=1 * MIB, ajustavel=True
)


def tamanho(n: int) -> str:
    """A size in pt-BR, in the largest binary unit it fills.

    >>> [tamanho(n) for n in (512, 32 * KIB, 16 * MIB, 3 * GIB // 2)]
    ['512 bytes', '32 KiB', '16 MiB', '1,5 GiB']
    """
    for unidade, base in (("GiB", GIB), ("MiB", MIB), ("KiB", KIB)):
        if n >= base:
            valor = f"{n / base:.1f}".removesuffix(".0").replace(".", ",")
            return f"{valor} {unidade}"
    return f"{n} bytes"


def _ajuste(limites: Limites, nome: str, unidade: str = "") -> str:
    """How to change a limit, when the entry point lets the user change it."""
    return f"; ajuste com --limite-{nome}{unidade}" if limites.ajustavel else ""


@dataclass(frozen=True, slots=True)
class Local:
    """Where a row is in an imported file, for its errors: ``linha 3`` (the header is line 1),
    ``item 2`` (a JSON list), with the file's name when the message has to say it.

    >>> Local(3).erro("campo obrigatório", "ano").mensagem
    'linha 3, coluna ano: campo obrigatório'
    >>> Local(2, "item", "campo", "c.json").erro("deve ser um objeto JSON").mensagem
    'c.json, item 2: deve ser um objeto JSON'
    """

    numero: int
    #: ``linha`` or ``item``
    unidade: str = "linha"
    #: what a key is called: ``coluna`` in a table, ``campo`` in JSON
    chave: str = "coluna"
    arquivo: str | None = None

    def __str__(self) -> str:
        onde = f"{self.unidade} {self.numero}"
        return f"{self.arquivo}, {onde}" if self.arquivo else onde

    def erro(self, motivo: str, campo: str | None = None) -> EntradaInvalida:
        """The error, naming the column (or field) as its ``campo`` and in its message."""
        onde = f"{self}, {self.chave} {campo}" if campo else str(self)
        erro = EntradaInvalida(campo, f"{onde}: {motivo}")
        erro.onde = {self.unidade: self.numero}  # the row, for a program (the API's erros)
        return erro

    def localizar(self, erro: EntradaInvalida) -> EntradaInvalida:
        """A row's error (``campo`` and ``mensagem``) said with where the row is."""
        return self.erro(erro.mensagem, erro.campo)


def diz_a_coluna(erro: EntradaInvalida) -> bool:
    """Whether the message already names the error's column or field (``linha 3, coluna
    ano: …``), so a display need not put ``ano:`` before it."""
    campo = erro.campo
    return bool(campo) and any(f", {c} {campo}:" in erro.mensagem for c in ("coluna", "campo"))


def no_arquivo(arquivo: str | None, motivo: str) -> EntradaInvalida:
    """An error about the whole file (``c.xlsx: motivo``, or the motive alone)."""
    return EntradaInvalida(None, f"{arquivo}: {motivo}" if arquivo else motivo)


def linhas_demais(limites: Limites, arquivo: str | None = None) -> EntradaInvalida:
    assert limites.linhas is not None
    return no_arquivo(
        arquivo,
        f"linhas demais (o limite é {formatar_numero(limites.linhas)}{_ajuste(limites, 'linhas')})",
    )


def celula_longa(limites: Limites, local: Local, campo: str | None) -> EntradaInvalida:
    """A cell (or a JSON value) past the limit."""
    oque = "valor" if local.chave == "campo" else "célula"
    return local.erro(
        f"{oque} com mais de {formatar_numero(limites.texto)} caracteres, o limite"
        f"{_ajuste(limites, 'texto')}",
        campo,
    )


def sem_repetidas(nomes: Iterable[str], arquivo: str | None = None) -> None:
    """A header names each column once."""
    vistos: set[str] = set()
    for nome in nomes:
        if nome in vistos:
            raise no_arquivo(
                arquivo, f"coluna repetida no cabeçalho: {mostrar_valor(nome)} (renomeie uma delas)"
            )
        vistos.add(nome)


def largura_errada(local: Local, celulas: int, colunas: int) -> EntradaInvalida:
    """A row with another number of cells than the header has columns."""
    return local.erro(
        f"{celulas} {'célula' if celulas == 1 else 'células'}, mas o cabeçalho tem "
        f"{colunas} {'coluna' if colunas == 1 else 'colunas'}"
    )


def letra_da_coluna(indice: int) -> str:
    """A column's letters, as a spreadsheet names it (0 is A, 26 is AA).

    >>> [letra_da_coluna(i) for i in (0, 25, 26, 16_383)]
    ['A', 'Z', 'AA', 'XFD']
    """
    letras = ""
    indice += 1
    while indice:
        indice, resto = divmod(indice - 1, 26)
        letras = chr(65 + resto) + letras
    return letras


# --- OOXML's text escapes -------------------------------------------------------------------

#: OOXML writes a character as ``_xHHHH_`` (its hex code); the readers decode it for the
#: codes up to ``00FF`` (the control characters XML cannot hold, and ``_x005F_``, the
#: underscore, that escapes a literal ``_xHHHH_``), as calamine does, left to right
_ESCAPE_LIDO = re.compile("_x(00[0-9A-Fa-f]{2})_")
#: the underscore that starts a literal ``_xHHHH_`` (any hex code: Excel decodes them all)
_LITERAL = re.compile("_(?=x[0-9A-Fa-f]{4}_)")
#: the characters XML cannot hold: written as ``_xHHHH_``
ILEGAIS_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def decodificar_ooxml(texto: str) -> str:
    r"""A cell's text as read from the sheet's XML: each ``_x00HH_`` is its character.

    >>> decodificar_ooxml("a_x0009_b"), decodificar_ooxml("_x005F_x0041_")
    ('a\tb', '_x0041_')
    """
    if "_x" not in texto:
        return texto
    return _ESCAPE_LIDO.sub(lambda m: chr(int(m.group(1), 16)), texto)


def escapar_ooxml(texto: str) -> str:
    r"""A text as a cell's XML holds it (before XML's own ``&amp;``…): a literal ``_xHHHH_``
    is written ``_x005F_xHHHH_`` (so it reads back as itself, not as a character), then a
    character XML cannot hold as ``_xHHHH_``. :func:`decodificar_ooxml` undoes it.

    >>> escapar_ooxml("_x0041_"), escapar_ooxml("Beta\x01")
    ('_x005F_x0041_', 'Beta_x0001_')
    """
    if "_x" in texto:
        texto = _LITERAL.sub("_x005F_", texto)
    if ILEGAIS_XML.search(texto):
        texto = ILEGAIS_XML.sub(lambda m: f"_x{ord(m.group()):04X}_", texto)
    return texto


class _FormulaSemValor:
    """The value of a formula cell saved without its result (see :data:`FORMULA_SEM_VALOR`)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "FORMULA_SEM_VALOR"

    def __str__(self) -> str:
        return ""  # as a header or a title: a cell with nothing to read, never this name


#: a formula cell saved with no computed value, or an empty one that is not a text (a workbook
#: written by a library, openpyxl's ``<v/>``, and never opened in a spreadsheet program): the
#: readers yield this, never an empty cell
FORMULA_SEM_VALOR = _FormulaSemValor()
MOTIVO_FORMULA_SEM_VALOR = (
    "fórmula sem o valor calculado (a planilha foi gravada por um programa que não calcula "
    "fórmulas: abra-a e salve-a no Excel ou no LibreOffice, ou digite o valor)"
)


def formula_sem_valor(valores: Sequence[Any], nomes: Sequence[str]) -> EntradaInvalida | None:
    """The error of a row with a formula cell saved without its value (the first one, named
    by its column's header, else its letter), or ``None``. The caller says where the row is."""
    for indice, valor in enumerate(valores):
        if valor is FORMULA_SEM_VALOR:
            nome = nomes[indice] if indice < len(nomes) and nomes[indice] else ""
            return EntradaInvalida(nome or letra_da_coluna(indice), MOTIVO_FORMULA_SEM_VALOR)
    return None


def sem_formula_sem_valor(linha: Mapping[str, Any]) -> None:
    """Refuse a row read as a dict (column → cell) with a formula cell saved without its
    value, naming the column."""
    for chave, valor in linha.items():
        if valor is FORMULA_SEM_VALOR:
            raise EntradaInvalida(chave, MOTIVO_FORMULA_SEM_VALOR)


# --- UTF-8 --------------------------------------------------------------------------------


def recusar_utf16(conteudo: bytes, arquivo: str | None = None) -> None:
    """Refuse a text in UTF-16 or UTF-32 (Excel's "Unicode text", some exports): read as
    UTF-8 or Latin-1 it would be a NUL between every letter, one odd header, a misleading count
    of rows. Told by its BOM or, without one, by NUL bytes in a quarter of its start (a text
    file has none).

    >>> recusar_utf16("cnpj,ano".encode("utf-16-le"))
    Traceback (most recent call last):
    ...
    multas.nucleo.erros.EntradaInvalida: o arquivo está em UTF-16 (ou UTF-32), não em UTF-8 nem em Latin-1: salve-o como UTF-8 (no Excel, "CSV UTF-8")
    >>> recusar_utf16("cnpj;preço".encode("latin-1"))
    >>> recusar_utf16(_ZIP + bytes(8))
    Traceback (most recent call last):
    ...
    multas.nucleo.erros.EntradaInvalida: o arquivo não é um texto (CSV ou JSON Lines): parece uma planilha XLSX ou um ZIP; envie-o com a extensão .xlsx, ou salve-o como CSV UTF-8
    """
    inicio = conteudo[:4096]
    if inicio.startswith(_ZIP):
        raise no_arquivo(arquivo, NAO_TEXTO)
    if inicio.startswith(_BOMS_LARGOS) or (inicio and inicio.count(0) * 4 >= len(inicio)):
        raise no_arquivo(arquivo, UTF16)


def decodificar(conteudo: bytes, arquivo: str | None = None) -> str:
    """The bytes as UTF-8 text (a BOM dropped); else an error with the first bad line (or
    :func:`recusar_utf16`'s)."""
    recusar_utf16(conteudo, arquivo)
    if conteudo.startswith(BOM):
        conteudo = conteudo[len(BOM) :]
    try:
        return conteudo.decode("utf-8")
    except UnicodeDecodeError as erro:
        linha = conteudo.count(b"\n", 0, erro.start) + 1
        raise Local(linha, arquivo=arquivo).erro(NAO_UTF8) from None


def primeira_linha_nao_utf8(binario: Iterable[bytes]) -> int | None:
    """The number of the first line of a file that is not UTF-8 (a BOM on line 1 is fine)."""
    for numero_linha, linha in enumerate(binario, 1):
        if numero_linha == 1 and linha.startswith(BOM):
            linha = linha[len(BOM) :]
        try:
            linha.decode("utf-8")
        except UnicodeDecodeError:
            return numero_linha
    return None


# --- CSV ----------------------------------------------------------------------------------

#: Python's csv module refuses a field past a process-wide limit (128 KiB by default) with an
#: English error. It is raised, never lowered, to a bound of its own (so it stays bounded) and
#: at least one past the caller's limit: the caller's limit is then checked on each field,
#: with its line and column, and the module's own error (a field past this bound, which only
#: a file bigger than it can have) is turned into the same pt-BR error with the line.
CAMPO_CSV = 64 * MIB
_TRAVA_CSV = threading.Lock()


def _limite_do_modulo_csv(texto: int) -> None:
    with _TRAVA_CSV:
        desejado = max(CAMPO_CSV, texto + 1)
        if csv.field_size_limit() < desejado:
            csv.field_size_limit(desejado)


def linhas_csv(
    texto: Iterable[str],
    delimitador: str,
    limites: Limites,
    arquivo: str | None = None,
) -> Iterator[tuple[int, list[str]]]:
    """A CSV's records, the header first, each with the line it starts on (1 for the header;
    a quoted cell may span several lines). Blank lines come as empty records. A cell longer
    than ``limites.texto``, more records than ``limites.linhas`` or a malformed quote is a
    pt-BR error with the line (and the column, by the header's name)."""
    _limite_do_modulo_csv(limites.texto)
    leitor = csv.reader(texto, delimiter=delimitador)
    nomes: list[str] = []
    lidas = 0
    while True:
        inicio = leitor.line_num + 1
        local = Local(inicio, arquivo=arquivo)
        try:
            celulas = next(leitor)
        except StopIteration:
            return
        except csv.Error as erro:
            if "field larger" in str(erro):
                raise celula_longa(limites, local, None) from None
            raise local.erro("CSV malformado (aspas?)") from None
        lidas += 1
        if limites.linhas is not None and lidas > limites.linhas:
            raise linhas_demais(limites, arquivo)
        for indice, celula in enumerate(celulas):
            if len(celula) > limites.texto:
                nome = nomes[indice].strip() if indice < len(nomes) else ""
                raise celula_longa(limites, local, nome or f"{indice + 1}")
        if not nomes:
            nomes = celulas
        yield inicio, celulas


# --- JSON Lines -----------------------------------------------------------------------------


def linhas_json(
    binario: IO[bytes], limites: Limites, arquivo: str | None = None
) -> Iterator[tuple[int, bytes]]:
    r"""A JSON Lines file's lines, numbered from 1, without their end. Lines end at ``\n``
    only (a ``\r`` before it goes too): ``str.splitlines`` would also cut at ``\r``, U+2028,
    U+0085 and others, which may stand inside one valid JSON line. A UTF-8 BOM at the start is
    dropped. A line longer than ``limites.texto`` bytes is an error (it is never read whole).

    >>> import io
    >>> list(linhas_json(io.BytesIO(b'{"a":\r1}\r\n{"b": "x\xe2\x80\xa8y"}\n'), LOTE))
    [(1, b'{"a":\r1}'), (2, b'{"b": "x\xe2\x80\xa8y"}')]
    """
    numero_linha = 0
    while True:
        bruta = binario.readline(limites.texto + len(BOM) + 2)
        if not bruta:
            return
        numero_linha += 1
        if numero_linha == 1 and bruta.startswith(BOM):
            bruta = bruta[len(BOM) :]
        bruta = bruta.removesuffix(b"\n").removesuffix(b"\r")
        if len(bruta) > limites.texto:
            motivo = (
                f"linha com mais de {formatar_numero(limites.texto)} bytes, o limite"
                f"{_ajuste(limites, 'texto')}"
            )
            raise Local(numero_linha, arquivo=arquivo).erro(motivo)
        if limites.linhas is not None and numero_linha > limites.linhas:
            raise linhas_demais(limites, arquivo)
        yield numero_linha, bruta


# --- XLSX -----------------------------------------------------------------------------------


class _ComDtd(Exception):
    pass


class _Raiz(Exception):
    pass


def _sem_dtd(parte: IO[bytes]) -> bool:
    """Whether an XML part starts its root element without a DTD (only the prolog is read; a
    part that is not XML is openpyxl's to refuse)."""
    from xml.parsers import expat

    leitor = expat.ParserCreate()

    def dtd(*_: object) -> None:
        raise _ComDtd

    def raiz(*_: object) -> None:
        raise _Raiz

    leitor.StartDoctypeDeclHandler = dtd
    leitor.EntityDeclHandler = dtd
    leitor.StartElementHandler = raiz
    try:
        while bloco := parte.read(64 * KIB):
            leitor.Parse(bloco, False)
        leitor.Parse(b"", True)
    except _ComDtd:
        return False
    except (_Raiz, expat.ExpatError):
        return True
    return True


def invalido_xlsx(arquivo: str | None) -> EntradaInvalida:
    return no_arquivo(arquivo, "não é uma planilha XLSX válida (arquivo vazio ou corrompido)")


def conferir_xlsx(fonte: IO[bytes] | Path, limites: Limites, arquivo: str | None = None) -> None:
    """Refuse an XLSX that would expand past ``limites.descompactado`` (its zip's directory
    says how much each part holds; zipfile then reads no more than that) or that has a DTD,
    before openpyxl reads it. A file object is left at its start."""
    try:
        with zipfile.ZipFile(fonte) as pacote:
            partes = pacote.infolist()
            total = sum(p.file_size for p in partes)
            if total > limites.descompactado:
                maior = max(partes, key=lambda p: p.file_size)
                raise no_arquivo(
                    arquivo,
                    f"o XLSX descompactado teria {tamanho(total)} ({maior.filename}: "
                    f"{tamanho(maior.file_size)}), mais que o limite de "
                    f"{tamanho(limites.descompactado)}"
                    f"{_ajuste(limites, 'descompactado', ', em MiB')}",
                )
            for parte in partes:
                with pacote.open(parte) as fluxo:
                    if not _sem_dtd(fluxo):
                        raise no_arquivo(
                            arquivo,
                            f"o XLSX tem uma DTD (<!DOCTYPE>) em {parte.filename}: nenhuma "
                            "planilha usa, e as entidades dela cresceriam sem limite",
                        )
    except EntradaInvalida:
        raise
    except Exception:  # zipfile's errors: not a zip, a bad part, a CRC that does not match
        raise invalido_xlsx(arquivo) from None
    finally:
        if not isinstance(fonte, Path):
            fonte.seek(0)


def _textos_compartilhados(livro: Any) -> list[str]:
    """The workbook's shared texts as the file holds them, OOXML's escapes decoded
    (:func:`decodificar_ooxml`): openpyxl's own list has had every ``x005F_`` dropped, which
    no decoding can undo (``_x005F_x005F_`` is ``_x005F_``)."""
    from openpyxl.cell.text import Text
    from openpyxl.packaging.manifest import Manifest
    from openpyxl.xml.constants import ARC_CONTENT_TYPES, SHARED_STRINGS, SHEET_MAIN_NS
    from openpyxl.xml.functions import fromstring, iterparse

    pacote = livro._archive
    parte = Manifest.from_tree(fromstring(pacote.read(ARC_CONTENT_TYPES))).find(SHARED_STRINGS)
    if parte is None:
        return []
    textos: list[str] = []
    marca = f"{{{SHEET_MAIN_NS}}}si"
    with pacote.open(parte.PartName[1:]) as fonte:
        for _, no in iterparse(fonte):
            if no.tag == marca:
                textos.append(decodificar_ooxml(Text.from_tree(no).content))
                no.clear()
    return textos


def _em_branco(valores: Sequence[Any]) -> bool:
    """Whether a row of falsy cells holds nothing (every cell ``None`` or ``""``, not ``0``),
    counted in C: a padded row may have thousands of cells.

    >>> _em_branco((None, "", None)), _em_branco((None, 0))
    (True, False)
    """
    vazias = valores.count(None)
    return vazias == len(valores) or vazias + valores.count("") == len(valores)


def _corrompido(arquivo: str | None, depois: int, erro: Exception) -> EntradaInvalida:
    if isinstance(erro, IndexError):
        motivo = "uma célula aponta para um texto compartilhado que não existe"
    elif isinstance(erro, SyntaxError):  # xml.etree's ParseError
        motivo = "o XML da planilha está incompleto ou malformado (arquivo truncado?)"
    else:
        motivo = "a planilha está corrompida"
    onde = f" depois da linha {depois}" if depois else ""
    return no_arquivo(arquivo, f"XLSX corrompido{onde}: {motivo}")


def tetos_xlsx(limites: Limites) -> tuple[int, float]:
    """The last row and the most cells a sheet may have within ``limites``: a reader compares
    each row with them (cheap) and calls :func:`conferir_linha_xlsx` only past one."""
    linhas = LINHAS_XLSX if limites.linhas is None else min(LINHAS_XLSX, limites.linhas)
    return linhas, float("inf") if limites.celulas is None else limites.celulas


def conferir_linha_xlsx(
    numero_linha: int, celulas: int, limites: Limites, arquivo: str | None
) -> None:
    """A sheet's row within the bounds, for both XLSX readers: its number within the format's
    maximum and ``limites.linhas``, and the cells read so far (``celulas``, the blank ones a
    reader fills in included) within ``limites.celulas``; else the error that says which."""
    if numero_linha > LINHAS_XLSX:
        raise no_arquivo(
            arquivo,
            f"XLSX corrompido: linha {formatar_numero(numero_linha)}, além do máximo do "
            f"formato ({formatar_numero(LINHAS_XLSX)})",
        )
    if limites.linhas is not None and numero_linha > limites.linhas:
        raise linhas_demais(limites, arquivo)
    if limites.celulas is not None and celulas > limites.celulas:
        raise no_arquivo(
            arquivo,
            f"a planilha passa de {formatar_numero(limites.celulas)} células, o limite (contam "
            f"as vazias até a última de cada linha){_ajuste(limites, 'celulas')}",
        )


class LeitorXlsx:
    """The first sheet of a workbook, read in a stream (openpyxl, read-only), within the
    limits: ``cabecalho`` is its first row that is not blank (``numero_cabecalho``, the sheet's
    row number); :meth:`linhas` yields the rows after it, each with its row number, a blank
    one as ``()``. A corrupt workbook, whenever it shows, is a pt-BR error; so is a cell or a
    sheet past the limits. Close it (or use it in a ``with``)."""

    def __init__(
        self, fonte: IO[bytes] | Path, limites: Limites, arquivo: str | None = None
    ) -> None:
        import openpyxl

        conferir_xlsx(fonte, limites, arquivo)
        self.limites, self.arquivo = limites, arquivo
        try:
            self.livro = openpyxl.load_workbook(fonte, read_only=True, data_only=True)
        except SyntaxError as erro:  # xml.etree's ParseError: a part cut or malformed
            raise _corrompido(arquivo, 0, erro) from None
        except Exception:  # zipfile and openpyxl errors: a file that is no workbook
            raise invalido_xlsx(arquivo) from None
        try:
            if not self.livro.worksheets:
                raise no_arquivo(arquivo, "o XLSX não tem nenhuma folha (planilha)")
            folha: Any = self.livro.worksheets[0]
            #: whether a formula cell saved without its value was read (:func:`_linhas`)
            self.formulas_sem_valor = False
            self._brutas = self._linhas(folha)
            self._lidas = 0
            self._celulas = 0
            self.nomes: list[str] = []
            for numero_linha, valores in self._todas():
                if valores:
                    self.numero_cabecalho, self.cabecalho = numero_linha, tuple(valores)
                    break
            else:
                raise no_arquivo(arquivo, "planilha vazia (falta o cabeçalho)")
            self.nomes = [str(v).strip() if v is not None else "" for v in self.cabecalho]
        except BaseException:
            self.fechar()
            raise

    def _nome(self, indice: int) -> str:
        if indice < len(self.nomes) and self.nomes[indice]:
            return self.nomes[indice]
        return letra_da_coluna(indice) if indice < 18_278 else str(indice + 1)

    def _linhas(self, folha: Any) -> Iterator[Sequence[Any]]:
        """The sheet's rows as openpyxl's ``iter_rows(values_only=True)`` reads them once its
        declared dimensions are dropped (they would pad every row, and add rows, up to them
        whatever the file holds): each row as wide as its last cell, a missing row empty.
        Unlike it, OOXML's escapes are decoded in every text (:func:`decodificar_ooxml`, as
        calamine does) and a formula cell saved without its value is
        :data:`FORMULA_SEM_VALOR`, not an empty cell."""
        from openpyxl.worksheet._reader import FORMULA_TAG, WorkSheetParser

        leitor = self
        livro: Any = self.livro

        class Celulas(WorkSheetParser):  # type: ignore[misc]
            def parse_cell(self, element: Any) -> dict[str, Any]:
                celula: dict[str, Any] = super().parse_cell(element)
                valor, tipo = celula["value"], element.get("t")
                # no value, or an empty one (openpyxl writes <v/>): only a text result
                # (t="str") may be empty
                if valor is None and tipo not in ("str", "inlineStr"):
                    if element.find(FORMULA_TAG) is not None:
                        celula["value"] = FORMULA_SEM_VALOR
                        leitor.formulas_sem_valor = True
                elif type(valor) is str and tipo != "s":  # the shared ones: decoded once
                    celula["value"] = decodificar_ooxml(valor)
                return celula

        with folha._get_source() as fonte:
            celulas = Celulas(
                fonte,
                _textos_compartilhados(livro),
                data_only=True,
                epoch=livro.epoch,
                date_formats=livro._date_formats,
                timedelta_formats=livro._timedelta_formats,
            )
            seguinte = 1
            for numero, linha in celulas.parse():
                for _ in range(seguinte, numero):  # rows the file leaves out
                    seguinte += 1
                    yield ()
                if seguinte <= numero:
                    seguinte += 1
                    yield folha._get_row(linha, 1, None, True)

    def _todas(self) -> Iterator[tuple[int, Sequence[Any]]]:
        limites = self.limites
        teto_linhas, teto_celulas = tetos_xlsx(limites)
        while True:
            try:
                valores = next(self._brutas)
            except StopIteration:
                return
            except Exception as erro:
                raise _corrompido(self.arquivo, self._lidas, erro) from None
            self._lidas += 1
            numero_linha = self._lidas
            self._celulas += len(valores)
            if numero_linha > teto_linhas or self._celulas > teto_celulas:
                conferir_linha_xlsx(numero_linha, self._celulas, limites, self.arquivo)
            # the blank cells a padded row is made of are skipped in C (filter), once
            cheias = [*filter(None, valores)]
            for valor in cheias:
                if isinstance(valor, str) and len(valor) > limites.texto:
                    local = Local(numero_linha, arquivo=self.arquivo)
                    raise celula_longa(limites, local, self._nome(valores.index(valor)))
            yield numero_linha, () if not cheias and _em_branco(valores) else valores

    def linhas(self) -> Iterator[tuple[int, Sequence[Any]]]:
        """The rows after the header (a blank one as ``()``), each with its row number."""
        return self._todas()

    def fechar(self) -> None:
        livro = getattr(self, "livro", None)
        if livro is not None:
            livro.close()

    def __enter__(self) -> LeitorXlsx:
        return self

    def __exit__(self, *_: object) -> None:
        self.fechar()
