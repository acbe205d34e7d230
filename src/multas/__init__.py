"""multas: the exact, explained engine of Brazilian fuel and mobility fines.

>>> from multas import calcular
>>> calcular({"regime": "anp.infracao", "inciso": "IX"})["valor_maximo"]
'2000000.00'
"""

from typing import TYPE_CHECKING, Any

from multas.nucleo.erros import EntradaInvalida

if TYPE_CHECKING:
    from multas.nucleo.motor import calcular, calcular_resultado

__version__ = "0.1.0"
__all__ = ["EntradaInvalida", "__version__", "calcular", "calcular_resultado"]


def __getattr__(nome: str) -> Any:
    # the engine is imported on first use, so `multas regimes` starts without it
    if nome in ("calcular", "calcular_resultado"):
        from multas.nucleo import motor

        return getattr(motor, nome)
    raise AttributeError(nome)
