"""The kernel's entry point: :func:`calcular_colunas` parses a batch's columns and applies a
regime's rule on them (:mod:`~multas.nucleo.kernel.regras`).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import TYPE_CHECKING, Any

from multas.nucleo.kernel.regras import KERNELS, ResultadoKernel, ler_entradas
from multas.nucleo.legislacao import Legislacao, carregar

if TYPE_CHECKING:
    import pyarrow as pa


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
