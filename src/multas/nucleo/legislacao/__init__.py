"""Dated legal parameters: loaded from the TOML files in ``parametros/``, validated at start-up.

Every value carries its start date (and end date, where one exists), its exact provision,
the wording applied, the quoted text and its source. Rules read them through :class:`Lei`,
the law in force on one date; code never hard-codes a legal value.
"""

from __future__ import annotations

from multas.nucleo.legislacao.carga import (
    ARQUIVO_CALENDARIO,
    MAXIMO_ARQUIVO,
    MAXIMO_PASTA,
    carregar,
    ler_pasta,
    ler_textos,
)
from multas.nucleo.legislacao.modelo import (
    Fonte,
    Legislacao,
    LegislacaoInvalida,
    Lei,
    Parametro,
    PrazoComprovacao,
    Vigencia,
)

__all__ = [
    "ARQUIVO_CALENDARIO",
    "MAXIMO_ARQUIVO",
    "MAXIMO_PASTA",
    "Fonte",
    "Legislacao",
    "LegislacaoInvalida",
    "Lei",
    "Parametro",
    "PrazoComprovacao",
    "Vigencia",
    "carregar",
    "ler_pasta",
    "ler_textos",
]
