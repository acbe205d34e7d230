"""Columns of a batch → exact NumPy arrays, for the rows whose cells have a common shape.

Each parser accepts only an unambiguous subset of what the contract accepts (ASCII digits,
no sign, no spaces, a dot for decimals, ISO dates inside 1900–2199). A present cell outside
that subset is marked *not valid here*: the row then goes to the scalar engine, which either
computes it or names the field in a pt-BR error. So the fast path can never accept a cell the
contract rejects, nor read one differently.

Typed columns (Parquet/Arrow integers, ``decimal128``, ``date32``, booleans) are read straight
from their buffers; other columns are read as text.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    import pyarrow as pa

Inteiros = npt.NDArray[np.int64]
Logicos = npt.NDArray[np.bool_]
Datas = npt.NDArray[np.datetime64]

#: 10**k as int64, k = 0..18
POTENCIAS = np.array([10**k for k in range(19)], dtype=np.int64)
#: mantissas below this fit in int64 after any scaling the kernel does
_MAX_DIGITOS = 17
_NUMERO = r"^[0-9]{1,17}(\.[0-9]{1,17})?$"
# exactly multas.nucleo.dinheiro._PTBR_TEXTO, with ASCII digits (anything else is left to the scalar path)
_PTBR = r"^[+-]?[0-9]{1,3}(\.[0-9]{3})*(,[0-9]+)?$|^[+-]?[0-9]+(,[0-9]+)?$"
_DATA = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"
ANO_MIN, ANO_MAX = 1900, 2199
_DIA_MIN = int(np.datetime64(f"{ANO_MIN}-01-01", "D").astype(np.int64))
_DIA_MAX = int(np.datetime64(f"{ANO_MAX}-12-31", "D").astype(np.int64))
_VERDADEIROS = ["true", "1", "sim", "verdadeiro"]
_FALSOS = ["false", "0", "nao", "não", "falso"]


@dataclass(frozen=True)
class Numeros:
    """A numeric column: value = mantissa / 10**escala where ``valido``."""

    presente: Logicos
    valido: Logicos
    mantissa: Inteiros
    escala: Inteiros

    @property
    def fora(self) -> Logicos:
        """Present, but not in the fast shape: the row goes to the scalar engine."""
        return self.presente & ~self.valido


@dataclass(frozen=True)
class ColunaDatas:
    presente: Logicos
    valido: Logicos
    dias: Datas  # datetime64[D]; 1970-01-01 where not valid

    @property
    def fora(self) -> Logicos:
        return self.presente & ~self.valido


@dataclass(frozen=True)
class Booleanos:
    presente: Logicos
    valido: Logicos
    valor: Logicos

    @property
    def fora(self) -> Logicos:
        return self.presente & ~self.valido


@dataclass(frozen=True)
class ListaDatas:
    """A column of date lists (``dias_sem_expediente``): each row's set is one of
    ``conjuntos``, by index (``grupo``), so a rule runs once per distinct set."""

    presente: Logicos
    valido: Logicos
    grupo: Inteiros
    conjuntos: tuple[frozenset[date], ...]

    @property
    def fora(self) -> Logicos:
        return self.presente & ~self.valido


def presenca(coluna: pa.Array) -> Logicos:
    """Where the column has a value: its validity bitmap, unpacked (read from the buffer, so
    the batch never needs ``pyarrow.compute``, whose import costs more than a block)."""
    n = len(coluna)
    if coluna.null_count == 0:
        return np.ones(n, dtype=np.bool_)
    bitmap = coluna.buffers()[0]
    if bitmap is None:  # the null type: nothing is present
        return np.zeros(n, dtype=np.bool_)
    return _bits(bitmap, coluna.offset, n)


def _bits(buffer: pa.Buffer, inicio: int, n: int) -> Logicos:
    """``n`` bits of an Arrow bitmap (validity or boolean values) from bit ``inicio``."""
    bits = np.unpackbits(np.frombuffer(buffer, dtype=np.uint8), bitorder="little")
    return bits[inicio : inicio + n].astype(np.bool_)


def de_buffers(tipo: pa.DataType, valores: npt.NDArray[Any], nulos: Logicos | None) -> pa.Array:
    """A fixed-width Arrow column over ``valores`` (already in the type's layout: int64 for
    int64, int32 for date32, int64 pairs for decimal128), null where ``nulos``: the inverse of
    :func:`presenca`, built from buffers (``pa.array`` on NumPy imports ``numpy.ma``)."""
    import pyarrow as pa

    n = len(valores)
    ausentes = 0 if nulos is None else int(np.count_nonzero(nulos))
    validade = None
    if ausentes:
        assert nulos is not None
        validade = pa.py_buffer(np.packbits(~np.asarray(nulos, np.bool_), bitorder="little"))
    dados = pa.py_buffer(np.ascontiguousarray(valores))
    return pa.Array.from_buffers(tipo, n, [validade, dados], ausentes)


def inteiros(coluna: pa.Array) -> Inteiros:
    """An integer (or date32) column as int64, nulls as 0, read from its data buffer."""
    import pyarrow as pa

    tipo = coluna.type
    largura = 4 if pa.types.is_date32(tipo) else tipo.bit_width // 8
    sinal = "i" if pa.types.is_date32(tipo) or pa.types.is_signed_integer(tipo) else "u"
    dados = coluna.buffers()[1]
    n = len(coluna)
    if dados is None or n == 0:
        return np.zeros(n, dtype=np.int64)
    brutos = np.frombuffer(dados, dtype=np.dtype(f"{sinal}{largura}"))
    valores = brutos[coluna.offset : coluna.offset + n].astype(np.int64)
    if coluna.null_count:  # a null's slot holds whatever the writer left there
        valores[~presenca(coluna)] = 0
    return valores


def como_texto(coluna: pa.Array) -> pa.Array:
    """Any column as text, the way the scalar engine would read its cells."""
    import pyarrow as pa

    tipo = coluna.type
    if pa.types.is_string(tipo):
        return coluna
    if pa.types.is_large_string(tipo) or pa.types.is_string_view(tipo):
        return coluna.cast(pa.string())
    if pa.types.is_floating(tipo):
        # a float cell is read through its shortest representation, as multas.nucleo.dinheiro does
        return pa.array([None if v is None else repr(v) for v in coluna.to_pylist()], pa.string())
    try:
        return coluna.cast(pa.string())
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        # unreadable here: present cells get a marker no fast parser accepts
        return pa.array([None if v is None else "\x00" for v in coluna.to_pylist()], pa.string())


def normalizar_ptbr(texto: pa.Array) -> pa.Array:
    """``multas.nucleo.dinheiro.normalizar_ptbr``, vectorised: "1.234,56" → "1234.56"."""
    import pyarrow.compute as pc

    casa = pc.match_substring_regex(texto, _PTBR)
    trocado = pc.replace_substring(pc.replace_substring(texto, ".", ""), ",", ".")
    return pc.if_else(casa, trocado, texto)


def ler_numeros(coluna: pa.Array | None, n: int, ptbr: bool = False) -> Numeros:
    """A numeric column (counts, amounts, prices, quantities)."""
    import pyarrow as pa

    if coluna is None:
        falso = np.zeros(n, dtype=np.bool_)
        zero = np.zeros(n, dtype=np.int64)
        return Numeros(falso, falso.copy(), zero, zero.copy())
    tipo = coluna.type
    presente = presenca(coluna)
    if pa.types.is_integer(tipo) and not pa.types.is_uint64(tipo):
        valores = inteiros(coluna)
        valido = presente & (valores >= 0) & (valores < 10**_MAX_DIGITOS)
        return Numeros(presente, valido, _zero_fora(valores, valido), np.zeros(n, np.int64))
    if pa.types.is_decimal128(tipo) and tipo.precision <= 18 and tipo.scale >= 0:
        mantissa = _mantissas_decimal128(coluna)
        valido = presente & (mantissa >= 0) & (mantissa < 10**_MAX_DIGITOS)
        escala = np.full(n, tipo.scale, dtype=np.int64)
        return Numeros(presente, valido, _zero_fora(mantissa, valido), escala)
    return _numeros_de_texto(como_texto(coluna), presente, ptbr)


def _zero_fora(valores: Inteiros, valido: Logicos) -> Inteiros:
    """``valores`` where ``valido``, 0 elsewhere (no pass over the column when all are)."""
    if valido.all():
        return valores
    zerados: Inteiros = np.where(valido, valores, 0)
    return zerados


def _mantissas_decimal128(coluna: pa.Array) -> Inteiros:
    """The unscaled integers of a decimal128 column of precision ≤ 18 (they fit in the low
    64 bits, two's complement)."""
    buffer = coluna.buffers()[1]
    assert buffer is not None
    pares = np.frombuffer(buffer, dtype=np.int64)
    baixo = pares[0::2][coluna.offset : coluna.offset + len(coluna)]
    return np.ascontiguousarray(baixo, dtype=np.int64)  # a copy: later passes read it faster


def _numeros_de_texto(texto: pa.Array, presente: Logicos, ptbr: bool) -> Numeros:
    import pyarrow as pa
    import pyarrow.compute as pc

    if ptbr:
        texto = normalizar_ptbr(texto)
    forma = pc.fill_null(pc.match_substring_regex(texto, _NUMERO), False)
    limpo = pc.if_else(forma, texto, "0")
    comprimento = np.asarray(pc.binary_length(limpo).to_numpy(zero_copy_only=False), np.int64)
    ponto = np.asarray(pc.find_substring(limpo, ".").to_numpy(zero_copy_only=False), np.int64)
    tem_ponto = ponto >= 0
    valido = np.asarray(forma.to_numpy(zero_copy_only=False), dtype=np.bool_)
    valido &= comprimento - tem_ponto <= _MAX_DIGITOS
    digitos = pc.replace_substring(limpo, ".", "")
    digitos = pc.if_else(pa.array(valido), digitos, "0")
    mantissa = np.asarray(digitos.cast(pa.int64()).to_numpy(zero_copy_only=False), dtype=np.int64)
    escala = np.where(valido & tem_ponto, comprimento - ponto - 1, 0).astype(np.int64)
    return Numeros(presente, valido, mantissa, escala)


def ler_datas(coluna: pa.Array | None, n: int) -> ColunaDatas:
    """An ISO date column (or a date32 one); real dates between 1900 and 2199 only."""
    import pyarrow as pa

    if coluna is None:
        falso = np.zeros(n, dtype=np.bool_)
        return ColunaDatas(falso, falso.copy(), np.zeros(n, dtype="datetime64[D]"))
    presente = presenca(coluna)
    if pa.types.is_date32(coluna.type):
        numeros = inteiros(coluna)  # days since 1970-01-01
        valido = presente & (numeros >= _DIA_MIN) & (numeros <= _DIA_MAX)
        return ColunaDatas(presente, valido, np.where(valido, numeros, 0).astype("datetime64[D]"))
    import pyarrow.compute as pc

    texto = como_texto(coluna)
    forma = np.asarray(
        pc.fill_null(pc.match_substring_regex(texto, _DATA), False).to_numpy(zero_copy_only=False),
        dtype=np.bool_,
    )
    limpo = pc.if_else(pa.array(forma), texto, "1970-01-01")

    def parte(inicio: int, fim: int) -> Inteiros:
        pedaco = pc.utf8_slice_codeunits(limpo, inicio, fim)
        return np.asarray(pedaco.cast(pa.int64()).to_numpy(zero_copy_only=False), np.int64)

    ano, mes, dia = parte(0, 4), parte(5, 7), parte(8, 10)
    valido = forma & (ano >= ANO_MIN) & (ano <= ANO_MAX) & (mes >= 1) & (mes <= 12) & (dia >= 1)
    ano, mes, dia = np.where(valido, ano, 1970), np.where(valido, mes, 1), np.where(valido, dia, 1)
    inicio_mes = ((ano - 1970) * 12 + (mes - 1)).astype("datetime64[M]")
    primeiro = inicio_mes.astype("datetime64[D]")
    dias_no_mes = ((inicio_mes + 1).astype("datetime64[D]") - primeiro).astype(np.int64)
    valido &= dia <= dias_no_mes
    datas = np.where(valido, primeiro + (dia - 1), np.datetime64(0, "D"))
    return ColunaDatas(presente, valido, datas)


def ler_lista_datas(coluna: pa.Array | None, n: int) -> ListaDatas:
    """Date lists, one cell each (dates separated by spaces), parsed once per distinct cell
    by the contract's own reader; an invalid cell goes to the scalar engine for its error."""
    from multas.nucleo.contrato import ler_datas as ler_lista
    from multas.nucleo.erros import EntradaInvalida

    conjuntos: list[frozenset[date]] = [frozenset()]
    if coluna is None:
        falso = np.zeros(n, dtype=np.bool_)
        return ListaDatas(falso, falso.copy(), np.zeros(n, np.int64), tuple(conjuntos))
    presente = presenca(coluna)
    codificada = como_texto(coluna).dictionary_encode()
    indices = np.asarray(codificada.indices.fill_null(0).to_numpy(zero_copy_only=False), np.int64)
    grupo_do_valor = np.zeros(len(codificada.dictionary) + 1, np.int64)
    valido_do_valor = np.ones(len(codificada.dictionary) + 1, np.bool_)
    posicao: dict[frozenset[date], int] = {frozenset(): 0}
    for i, texto in enumerate(codificada.dictionary.to_pylist()):
        try:
            conjunto = ler_lista(texto, "dias_sem_expediente")
        except EntradaInvalida:
            valido_do_valor[i] = False
            continue
        if conjunto not in posicao:
            posicao[conjunto] = len(conjuntos)
            conjuntos.append(conjunto)
        grupo_do_valor[i] = posicao[conjunto]
    grupo = np.where(presente, grupo_do_valor[indices], 0)
    valido = presente & valido_do_valor[indices]
    return ListaDatas(presente, valido, np.where(valido, grupo, 0), tuple(conjuntos))


def ler_booleanos(coluna: pa.Array | None, n: int) -> Booleanos:
    """true/false, 1/0, sim/não (table cells), or a boolean column."""
    import pyarrow as pa

    if coluna is None:
        falso = np.zeros(n, dtype=np.bool_)
        return Booleanos(falso, falso.copy(), falso.copy())
    presente = presenca(coluna)
    if pa.types.is_boolean(coluna.type):
        dados = coluna.buffers()[1]
        valor = np.zeros(n, dtype=np.bool_)
        if dados is not None and n:
            valor = _bits(dados, coluna.offset, n) & presente
        return Booleanos(presente, presente.copy(), valor)
    import pyarrow.compute as pc

    texto = pc.utf8_lower(como_texto(coluna))

    def em(conjunto: list[str]) -> Logicos:
        resultado: Any = pc.is_in(texto, value_set=pa.array(conjunto))
        return np.asarray(resultado.fill_null(False).to_numpy(zero_copy_only=False), np.bool_)

    verdadeiro, falso = em(_VERDADEIROS), em(_FALSOS)
    return Booleanos(presente, presente & (verdadeiro | falso), verdadeiro)


def contigua(coluna: pa.Array | pa.ChunkedArray) -> pa.Array:
    """One array: a column of a single chunk is that chunk, not a copy of it."""
    import pyarrow as pa

    if isinstance(coluna, pa.ChunkedArray):
        return coluna.chunk(0) if coluna.num_chunks == 1 else coluna.combine_chunks()
    return coluna


def vazio_como_nulo(coluna: pa.Array | pa.ChunkedArray) -> pa.Array:
    """An empty cell means the field is absent (spec § 4)."""
    import pyarrow as pa

    coluna = contigua(coluna)
    if pa.types.is_string(coluna.type) or pa.types.is_large_string(coluna.type):
        import pyarrow.compute as pc

        vazio = pc.equal(coluna, "")
        if pc.any(vazio).as_py():
            return pc.if_else(vazio, pa.scalar(None, coluna.type), coluna)
    return coluna
