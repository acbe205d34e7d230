"""The batch reads typed columns straight from their Arrow buffers (validity bitmap, data
buffer, offset) instead of through ``pyarrow.compute``: the same answers as pyarrow's own
kernels, on slices (an offset that is not a multiple of 8) and with nulls anywhere."""

from __future__ import annotations

import subprocess
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
from hypothesis import given
from hypothesis import strategies as st

from multas.nucleo.kernel.colunas import de_buffers, inteiros, ler_booleanos, ler_datas, presenca

TIPOS = [pa.int8(), pa.int16(), pa.int32(), pa.int64(), pa.uint8(), pa.uint16(), pa.uint32()]


@st.composite
def colunas_fatiadas(draw: st.DrawFn) -> pa.Array:
    tipo = draw(st.sampled_from([*TIPOS, pa.date32(), pa.bool_()]))
    valor: st.SearchStrategy[Any]
    if tipo == pa.bool_():
        valor = st.booleans()
    elif tipo == pa.date32():
        valor = st.integers(-(2**31), 2**31 - 1)
    else:
        info = np.iinfo(tipo.to_pandas_dtype())
        valor = st.integers(int(info.min), int(info.max))
    valores = draw(st.lists(st.none() | valor, max_size=40))
    coluna = pa.array(valores, pa.int32() if tipo == pa.date32() else tipo)
    if tipo == pa.date32():
        coluna = coluna.cast(pa.date32())
    inicio = draw(st.integers(0, len(valores)))
    return coluna.slice(inicio, draw(st.integers(0, len(valores) - inicio)))


@given(colunas_fatiadas())
def test_presenca_e_inteiros_como_o_pyarrow(coluna: pa.Array) -> None:
    esperado = np.asarray(pc.is_valid(coluna).to_numpy(zero_copy_only=False), np.bool_)
    assert presenca(coluna).tolist() == esperado.tolist()
    if pa.types.is_boolean(coluna.type):
        lidos = ler_booleanos(coluna, len(coluna))
        assert lidos.valor.tolist() == [bool(v) for v in coluna.fill_null(False).to_pylist()]
        return
    como_int = coluna.cast(pa.int32()) if pa.types.is_date32(coluna.type) else coluna
    assert inteiros(coluna).tolist() == como_int.fill_null(0).cast(pa.int64()).to_pylist()


def test_ler_datas_de_uma_fatia_com_nulos() -> None:
    coluna = pa.array([None, 19000, 0, None, 20000, -25567], pa.int32()).cast(pa.date32())
    lidas = ler_datas(coluna.slice(1), 5)
    assert lidas.presente.tolist() == [True, True, False, True, True]
    assert [str(d) for d in lidas.dias] == [
        "2022-01-08",
        "1970-01-01",
        "1970-01-01",
        "2024-10-04",
        "1900-01-01",
    ]


@given(st.lists(st.none() | st.integers(-(2**63), 2**63 - 1), max_size=40))
def test_de_buffers_inverte_presenca(valores: list[int | None]) -> None:
    nulos = np.array([v is None for v in valores], dtype=np.bool_)
    brutos = np.array([0 if v is None else v for v in valores], dtype=np.int64)
    coluna = de_buffers(pa.int64(), brutos, nulos)
    coluna.validate(full=True)
    assert coluna.to_pylist() == valores
    assert presenca(coluna).tolist() == (~nulos).tolist()


def test_lote_de_parquet_nao_importa_pyarrow_compute(tmp_path: Path) -> None:
    """Importing ``pyarrow.compute`` costs about 30 ms, more than computing a 256k-row block:
    a Parquet batch through the kernel never needs it (nor ``numpy.ma``, nor the process
    pool of the scalar engine)."""
    decimais = pa.array([Decimal("70.5"), Decimal("1"), Decimal("2")], pa.decimal128(18, 4))
    faturamentos = pa.array([None, Decimal("1000000000"), None], pa.decimal128(18, 2))
    pq.write_table(
        pa.table(
            {
                "ano_meta": pa.array([2024, 2025, 2025], pa.int64()),
                "meta_cbios": pa.array([1000, 2000, 3000], pa.int64()),
                "cbios_aposentados": pa.array([10, 0, 3000], pa.int64()),
                "maior_media_mensal": decimais,
                "faturamento_ano_meta": faturamentos,
                "faturamento_ano_anterior": faturamentos,
                "data_quitacao": pa.array([None, 20600, None], pa.int32()).cast(pa.date32()),
            }
        ),
        tmp_path / "e.parquet",
    )
    codigo = """
import sys
from pathlib import Path
from multas.lote.executor import executar
from multas.lote.processar import Config
pasta = Path(sys.argv[1])
executar(pasta / "e.parquet", pasta / "s.parquet", Config("renovabio.distribuidor", {}))
print(sorted(m for m in ("pyarrow.compute", "numpy.ma", "concurrent.futures.process")
             if m in sys.modules))
"""
    saida = subprocess.run(
        [sys.executable, "-c", codigo, str(tmp_path)], capture_output=True, text=True, check=True
    )
    assert saida.stdout.strip() == "[]"
    resultado = pq.read_table(tmp_path / "s.parquet")
    assert resultado.column("erro").to_pylist() == [None, None, None]
    assert resultado.column("valor").null_count == 0


#: (num, den) in the function's domain: the result fits in int64 centavos, and 200·den too
#: (the kernel's denominators stay far below: see multas.nucleo.kernel.regras)
_FRACOES = st.integers(1, (2**63 - 1) // 201).flatmap(
    lambda d: st.tuples(st.integers(0, min(2**62, d * 2**55)), st.just(d))
)


@given(st.lists(_FRACOES, min_size=1, max_size=20))
def test_arredondar_centavos_meio_acima_nos_dois_caminhos(pares: list[tuple[int, int]]) -> None:
    """One division when ``200·num`` fits, the integer part split off when it does not: both
    give ``num / den`` reais in centavos rounded half up, exactly."""
    from fractions import Fraction

    from multas.nucleo.kernel.aritmetica import arredondar_centavos

    num = np.array([n for n, _ in pares], dtype=np.int64)
    den = np.array([d for _, d in pares], dtype=np.int64)
    esperado = [int(Fraction(100 * n, d) + Fraction(1, 2)) for n, d in pares]
    assert arredondar_centavos(num, den).tolist() == esperado
    pequenos = num // 1000  # the one-division path
    esperado = [
        int(Fraction(100 * int(n), int(d)) + Fraction(1, 2))
        for n, d in zip(pequenos, den, strict=True)
    ]
    assert arredondar_centavos(pequenos, den).tolist() == esperado
