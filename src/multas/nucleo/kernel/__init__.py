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

from collections.abc import Mapping
from datetime import date
from typing import TYPE_CHECKING, Any

from multas.nucleo.kernel.regras import KERNELS, Entradas, ResultadoKernel, ler_entradas
from multas.nucleo.legislacao import Legislacao, carregar

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["KERNELS", "Entradas", "ResultadoKernel", "calcular_colunas", "ler_entradas"]


def calcular_colunas(
    regime: str,
    colunas: Mapping[str, pa.Array | None],
    n: int,
    interpretacao: Mapping[str, str] | None = None,
    legislacao: Legislacao | None = None,
    ptbr: bool = False,
    laco: bool = False,
    constantes: Mapping[str, Any] | None = None,
    *,
    hoje: date | None,
    numba: bool = True,
) -> ResultadoKernel:
    """Parse the columns and apply ``regime``'s rule; ``interpretacao`` must be complete
    (validated, defaults filled in: ``multas.nucleo.motor.ler_interpretacao``). ``laco``: the
    RenovaBio rules as the loop compiled by Numba (plain Python with ``numba=False``: the
    adapters pass ``MULTAS_SEM_NUMBA``) instead of NumPy expressions.
    ``constantes``: fields given once for the whole batch (``taxas_selic``), validated.
    ``hoje``: the caller's date in Brasília, the law of a row with no date of its own (the
    core reads no clock); ``None`` leaves such rows to the engine."""
    from multas.nucleo.regimes import REGIMES

    leitura = REGIMES[regime].interpretacao_padrao() | dict(interpretacao or {})
    entradas = ler_entradas(regime, colunas, n, ptbr, constantes)
    resultado = KERNELS[regime](
        entradas, leitura, legislacao or carregar(), laco, hoje=hoje, numba=numba
    )
    resultado.fora = entradas.fora  # for the reasons of the rows it leaves (motivos)
    return resultado
