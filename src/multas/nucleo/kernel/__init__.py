"""The exact vectorised kernel: the rules of four regimes on whole columns, in integers.

>>> import pyarrow as pa
>>> r = calcular_colunas("renovabio.distribuidor", {
...     "ano_meta": pa.array(["2025", "2024"]), "meta_cbios": pa.array(["1000000", "2000000"]),
...     "cbios_aposentados": pa.array(["400000", "0"]),
...     "maior_media_mensal": pa.array(["71.70", "99.99"])}, 2, hoje=None)
>>> r.ok.tolist(), r.valor.tolist()
([True, True], [4302000000, 5000000000])

A row the kernel does not take (``ok`` false: an input error, an unusual date, a number too
large for int64) is for the scalar engine, :func:`multas.nucleo.motor.calcular`;
``ResultadoKernel.motivos`` says why in pt-BR (for a law it does not take: the parameter and
the period).
"""

from __future__ import annotations

from multas.nucleo.kernel.calculo import calcular_colunas
from multas.nucleo.kernel.regras import KERNELS, Entradas, ResultadoKernel, ler_entradas

__all__ = ["KERNELS", "Entradas", "ResultadoKernel", "calcular_colunas", "ler_entradas"]
