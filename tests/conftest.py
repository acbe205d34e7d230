from __future__ import annotations

from typing import Any

import pytest

from multas import calcular
from multas.erros import EntradaInvalida


def calc(**entrada: Any) -> dict[str, Any]:
    """Compute one case given as keyword arguments."""
    return calcular(entrada)


def erro(**entrada: Any) -> EntradaInvalida:
    """The input error a case raises (the test fails if it computes)."""
    with pytest.raises(EntradaInvalida) as info:
        calcular(entrada)
    return info.value
