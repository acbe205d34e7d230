"""How many rows a batch input has, known before it is read, for the progress bar only
(:mod:`multas.saidas.progresso`): nothing else depends on it, and every failure is "unknown".

One function per format, all on local files: Parquet from its metadata (exact); CSV and JSON
Lines by counting the newlines in binary chunks (fast: one pass at disk speed, which also warms
the page cache for the real read); XLSX from the dimension its first sheet declares. A file on
another file system (``s3://``, ``memory://``…) has no count: it would be read twice.

The CSV count is approximate: a quoted field holding newlines, or a blank line (which the
reader skips), makes it too high; the bar then ends before 100 %. A count that is too low (a
wrong XLSX dimension, a file that grew) makes the bar drop its total when the rows pass it
(:class:`multas.saidas.progresso.Barra`), never crash nor show more than 100 %.
"""

from __future__ import annotations

import posixpath
import re
import zipfile
from collections.abc import Iterable
from pathlib import Path

from multas.lote.io import FORMATOS, Origem

#: the chunk read at a time when counting newlines
PEDACO = 1 << 20
#: an XLSX row takes at least this many bytes of sheet XML (``<row r="9"><c r="A9"><v>1</v>``
#: ``</c></row>`` is 36): a declared dimension past the sheet's size / this is not believed
BYTES_POR_LINHA_XLSX = 16
_DIMENSAO = re.compile(
    rb"<(?:\w+:)?dimension\s+ref=\"\$?[A-Za-z]*\$?(\d+)(?::\$?[A-Za-z]*\$?(\d+))?\""
)


def linhas_de_texto(caminho: Path) -> int:
    r"""The lines of a text file: its ``\n``, plus a last line without one (``\r\n`` counts
    once; a lone ``\r`` does not end a line)."""
    linhas = 0
    ultimo = b"\n"
    with open(caminho, "rb") as arquivo:
        while pedaco := arquivo.read(PEDACO):
            linhas += pedaco.count(b"\n")
            ultimo = pedaco[-1:]
    return linhas + (ultimo != b"\n")


def contar_csv(caminho: Path) -> int:
    """The CSV's rows after the header: approximate (see the module)."""
    return max(0, linhas_de_texto(caminho) - 1)


def contar_jsonl(caminho: Path) -> int:
    r"""The JSON Lines file's rows: one per line, blank ones included (each is a row, with its
    error), as :func:`multas.nucleo.arquivos.linhas_json` reads them."""
    return linhas_de_texto(caminho)


def contar_parquet(caminho: Path) -> int:
    """The Parquet file's rows, from its footer (exact)."""
    import pyarrow.parquet as pq

    return int(pq.read_metadata(caminho).num_rows)


def _primeira_folha(pacote: zipfile.ZipFile) -> str | None:
    """The path, in the package, of the workbook's first sheet (the one the batch reads)."""
    import xml.etree.ElementTree as ET

    def xml(nome: str) -> ET.Element | None:
        with pacote.open(nome) as parte:
            dados = parte.read(1 << 20)
        if b"<!DOCTYPE" in dados or len(dados) == 1 << 20:
            return None  # a DTD or a huge part: not worth believing
        return ET.fromstring(dados)

    livro = xml("xl/workbook.xml")
    relacoes = xml("xl/_rels/workbook.xml.rels")
    if livro is None or relacoes is None:
        return None
    alvos = {r.get("Id"): r.get("Target") for r in relacoes if r.tag.endswith("Relationship")}
    for folha in livro.iter():
        if not folha.tag.endswith("}sheet"):
            continue
        rid = next((v for k, v in folha.attrib.items() if k.endswith("}id")), None)
        alvo = alvos.get(rid)
        if alvo is None:
            return None
        if "chartsheets/" in alvo:  # a chart, not a worksheet: openpyxl skips it too
            continue
        return alvo.lstrip("/") if alvo.startswith("/") else posixpath.join("xl", alvo)
    return None


def contar_xlsx(caminho: Path) -> int | None:
    """The first sheet's rows after the header, as its ``<dimension>`` declares them; unknown
    when it has none, declares a single row, or more rows than its XML could hold (some
    writers declare ``A1:XFD1048576`` whatever the sheet has)."""
    with zipfile.ZipFile(caminho) as pacote:
        nome = _primeira_folha(pacote)
        if nome is None:
            return None
        info = pacote.getinfo(nome)
        with pacote.open(info) as folha:
            inicio = folha.read(1 << 16)  # the dimension comes before the sheet's data
    achada = _DIMENSAO.search(inicio)
    if achada is None or achada.group(2) is None:
        return None
    primeira, ultima = int(achada.group(1)), int(achada.group(2))
    linhas = ultima - primeira  # the header is the first row
    if linhas < 1 or linhas * BYTES_POR_LINHA_XLSX > info.file_size:
        return None
    return linhas


_POR_FORMATO = {
    "csv": contar_csv,
    "jsonl": contar_jsonl,
    "parquet": contar_parquet,
    "xlsx": contar_xlsx,
}


def contar_linhas(origem: Origem | str) -> int | None:
    """How many rows the input file ``origem`` has (see the module), or ``None`` when it is not
    on the local disk, its format is unknown or it cannot be counted (the reader then says why,
    in its own words)."""
    if isinstance(origem, str):  # a partition's address: a local path, or a URL
        if "://" in origem or "::" in origem:
            return None
        origem = Path(origem)
    if not isinstance(origem, Path):
        return None  # another file system: never read twice
    contar = _POR_FORMATO.get(FORMATOS.get(origem.suffix.lower(), ""))
    if contar is None:
        return None
    try:
        return contar(origem)
    except Exception:  # a count is a nicety: the reader reports the real error
        return None


def somar(contagens: Iterable[int | None]) -> int | None:
    """The total of several files' counts; unknown if any of them is."""
    total = 0
    for contagem in contagens:
        if contagem is None:
            return None
        total += contagem
    return total
