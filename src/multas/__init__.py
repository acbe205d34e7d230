"""multas: the exact, explained engine of Brazilian fuel and mobility fines.

>>> from multas import calcular
>>> calcular({"regime": "anp.infracao", "inciso": "IX", "norma": "decreto-2953"})["valor_maximo"]
'2000000.00'
"""

from typing import TYPE_CHECKING, Any

from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.versao import VERSAO as __version__

if TYPE_CHECKING:
    from multas.servicos.calculo import calcular, calcular_resultado

__all__ = ["EntradaInvalida", "__version__", "calcular", "calcular_resultado"]


def __getattr__(nome: str) -> Any:
    # the engine is imported on first use, so `multas regimes` starts without it; the
    # library computes on today's date in Brasília (the core itself reads no clock)
    if nome in ("calcular", "calcular_resultado"):
        from multas.servicos import calculo

        return getattr(calculo, nome)
    raise AttributeError(nome)
