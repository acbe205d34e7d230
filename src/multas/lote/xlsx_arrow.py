"""The batch's fastest XLSX reading: ``fastexcel`` (the same Rust calamine) loads the first
sheet straight into Arrow columns, and each column becomes its cells at once, with no
per-cell Python of calamine's rows (100 000 rows: about 0.5 s against 1.4 s).

It is taken only when it yields exactly the rows :class:`multas.lote.xlsx_leitura.LeitorCalamine`
would, else ``None`` sends the workbook to that reader (:func:`carregar_em_arrow`):

- only a workbook the zip's scan has bounded (``fastexcel`` allocates calamine's rectangle
  too) and whose sheet holds no error, boolean or ISO-date cell, and no ``_x`` anywhere in its
  texts (an OOXML escape is decoded by the other reader);
- the first row is the header, every cell of it a text naming a column once (``fastexcel``
  names a blank one ``__UNNAMED__n`` and renames a repeated one), and the table starts at A1
  and fills the rectangle the scan measured (so row numbers are the sheet's);
- every column holds one kind of cell (numbers, texts or dates, these at midnight:
  ``fastexcel``'s strict types refuse a mixed column) and no text is longer than the limit,
  the rows and cells within theirs.

The cells are those of the other reader (spec § 4 of the batch): an integral double up to
2**53 is an ``int``, beyond it a ``float``; a date is a ``datetime``; an empty text is ``None``;
a row ends at its last cell.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from multas.nucleo.arquivos import Limites, tetos_xlsx

#: the largest integer a double holds exactly
_EXATO = 2**53
#: a day in each unit of an Arrow timestamp
_DIA = {"s": 86_400, "ms": 86_400_000, "us": 86_400_000_000, "ns": 86_400_000_000_000}
#: a name ``fastexcel`` gives a blank header cell or a repeated one
_RENOMEADA = re.compile(r"^(?:__UNNAMED__\d+|(.*)_\d+)$")
#: a header cell that may have been a number or a date (``fastexcel`` names it with a text)
_NAO_TEXTO = re.compile(r"^\s*[-+]?(?:\d|\.\d|inf|nan)|^\d{4}-\d\d-\d\d", re.IGNORECASE)


def _cabecalho_de_textos(nomes: Sequence[str]) -> bool:
    """Whether these names are the header's cells as written: texts, none blank or repeated."""
    if not nomes or len(set(nomes)) != len(nomes):
        return False
    for nome in nomes:
        if _NAO_TEXTO.match(nome) or not nome.strip():
            return False
        achado = _RENOMEADA.match(nome)
        if achado and (achado.group(1) is None or achado.group(1) in nomes):
            return False
    return True


def _cheias(coluna: Any) -> Any:
    """Which cells of a column are not empty (an empty text is empty), as NumPy booleans."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    if pa.types.is_null(coluna.type):
        return np.zeros(len(coluna), bool)
    vazias = coluna.is_null()
    if pa.types.is_string(coluna.type) or pa.types.is_large_string(coluna.type):
        vazias = pc.or_(vazias, pc.fill_null(pc.equal(coluna, ""), True))
    return ~np.asarray(vazias, bool)


def _celulas(coluna: Any) -> list[Any] | None:
    """A column's cells as the other reader gives them, or ``None`` for a kind it leaves to it."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    tipo = coluna.type
    if pa.types.is_null(tipo):
        return [None] * len(coluna)
    if pa.types.is_string(tipo) or pa.types.is_large_string(tipo):
        return [v if v else None for v in coluna.to_pylist()]
    if pa.types.is_timestamp(tipo) and tipo.tz is None:
        # only whole days: a time of day is kept to calamine's rows, whose datetimes are
        # finer than fastexcel's milliseconds
        dias = pc.divide(coluna.cast(pa.int64()), _DIA.get(tipo.unit, 0) or 1)
        inteiros = pc.equal(pc.multiply(dias, _DIA.get(tipo.unit, 0)), coluna.cast(pa.int64()))
        if tipo.unit not in _DIA or not pc.all(pc.fill_null(inteiros, True)).as_py():
            return None
        return list(coluna.to_pylist())
    if not pa.types.is_float64(tipo):
        return None
    x = np.asarray(pc.fill_null(coluna, np.nan))
    nulos = np.asarray(coluna.is_null())
    with np.errstate(invalid="ignore"):
        inteiros = (x == np.floor(x)) & (np.abs(x) <= _EXATO)
    if (inteiros | nulos).all():
        valores: list[Any] = np.where(nulos, 0, x).astype(np.int64).tolist()
    else:
        valores = [int(v) if e else v for v, e in zip(x.tolist(), inteiros.tolist(), strict=True)]
    if nulos.any():
        for i in np.flatnonzero(nulos).tolist():
            valores[i] = None
    return valores


class LeitorArrow:
    """:class:`multas.lote.xlsx_leitura.LeitorCalamine`'s interface, on the columns
    :func:`carregar_em_arrow` read."""

    def __init__(self, nomes: list[str], colunas: list[list[Any]], cheias: Any) -> None:
        #: never: a workbook with such a cell goes to the streaming reader (the scan)
        self.formulas_sem_valor = False
        self.numero_cabecalho, self.cabecalho = 1, tuple(nomes)
        self.nomes = [nome.strip() for nome in nomes]
        self._colunas: list[list[Any]] | None = colunas
        #: the rows after the header by column (the first is row 2), for the batch's blocks
        #: (:func:`multas.lote.leitura._blocos_em_colunas`)
        self.colunas = colunas
        #: each row's cells that are not empty (NumPy, rows × columns)
        self.cheias = cheias

    def linhas(self) -> Iterator[tuple[int, Sequence[Any]]]:
        """The rows after the header (a blank one as ``()``), each with its row number."""
        colunas, self._colunas = self._colunas or [], None
        for numero, valores in enumerate(zip(*colunas, strict=True), start=2):
            if valores[-1] is None:
                fim = len(valores) - 1
                while fim and valores[fim - 1] is None:
                    fim -= 1
                valores = valores[:fim]
            yield numero, valores

    def fechar(self) -> None:
        self._colunas = None
        self.colunas = []


def carregar_em_arrow(
    caminho: Path | Any, folha: str, celulas: int, maior_texto: int, limites: Limites
) -> LeitorArrow | None:
    """The sheet named ``folha`` read by ``fastexcel`` when it is safe (see the module): the
    scan measured its rectangle (``celulas``) and its longest text (``maior_texto``)."""
    import fastexcel

    if maior_texto > limites.texto or not isinstance(caminho, Path):
        return None
    teto_linhas, teto_celulas = tetos_xlsx(limites)
    try:
        tabela = (
            fastexcel.read_excel(str(caminho))
            .load_sheet(folha, schema_sample_rows=None, dtype_coercion="strict")
            .to_arrow()
        )
    except Exception:  # a mixed column, or one it cannot read: the other reader
        return None
    nomes = list(tabela.column_names)
    linhas = tabela.num_rows + 1
    if (
        not _cabecalho_de_textos(nomes)
        or linhas * len(nomes) != celulas
        or linhas > teto_linhas
        or celulas > teto_celulas
    ):
        return None
    import numpy as np

    colunas = []
    for coluna in tabela.columns:
        valores = _celulas(coluna)
        if valores is None:
            return None
        colunas.append(valores)
    cheias = np.column_stack([_cheias(coluna) for coluna in tabela.columns])
    return LeitorArrow(nomes, colunas, cheias)
