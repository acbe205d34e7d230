"""A case computed on today's date: the engine (:mod:`multas.nucleo.motor`, which reads no
clock) given the clock's date in Brasília (:mod:`multas.servicos.relogio`). This is the
library's ``multas.calcular`` and what the command line computes a case with.

>>> calcular({"regime": "anp.infracao", "inciso": "IX", "norma": "decreto-2953"})["valor_maximo"]
'2000000.00'
"""

from __future__ import annotations

from typing import Any

from multas.nucleo import motor
from multas.nucleo.contrato import JSON, Leitura
from multas.nucleo.legislacao import Legislacao
from multas.nucleo.memoria import Resultado
from multas.servicos.relogio import hoje


def calcular_resultado(
    dados: object, leitura: Leitura = JSON, legislacao: Legislacao | None = None
) -> Resultado:
    """:func:`multas.nucleo.motor.calcular_resultado` on today's date in Brasília."""
    return motor.calcular_resultado(dados, leitura, legislacao, hoje=hoje())


def calcular(
    dados: object, leitura: Leitura = JSON, legislacao: Legislacao | None = None
) -> dict[str, Any]:
    """:func:`multas.nucleo.motor.calcular` on today's date in Brasília."""
    return motor.calcular(dados, leitura, legislacao, hoje=hoje())
