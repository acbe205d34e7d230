"""The enforcement lifecycle (issue 9): processos of dated events and the deadlines derived
from them (spec § 6), the distributor's ledger, the ANP's lists and the calendar.

Everything here is core: no adapter is imported. :func:`calcular_prazos` is the one function
every other part is built on.
"""

from __future__ import annotations

from multas.nucleo.ciclo.prazos import (
    Prazo,
    Processo,
    Situacao,
    analisar,
    calcular_prazos,
    ler_processo,
    situacao,
)
from multas.nucleo.eventos import TIPOS, Evento, Tipo

__all__ = [
    "TIPOS",
    "Evento",
    "Prazo",
    "Processo",
    "Situacao",
    "Tipo",
    "analisar",
    "calcular_prazos",
    "ler_processo",
    "situacao",
]
