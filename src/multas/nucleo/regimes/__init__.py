"""The catalogue of regimes: each one's input contract, readings, outputs and rule.

Rules are referenced by name and imported on first use, so listing the regimes (``multas
regimes``, the API's ``/regimes``) does not load the rules, the memória or the legislation.
"""

from __future__ import annotations

from multas.nucleo.regimes.catalogo import DISTRIBUIDOR, REGIMES, RENOVABIO, Regime

__all__ = ["DISTRIBUIDOR", "REGIMES", "RENOVABIO", "Regime"]
