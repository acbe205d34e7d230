"""Input errors: every one names the field and says why, in pt-BR."""

from __future__ import annotations

from typing import Any


class EntradaInvalida(ValueError):
    """A case the engine refuses to compute.

    >>> EntradaInvalida("ano_meta", "campo obrigatório").como_dict()
    {'erro': {'campo': 'ano_meta', 'mensagem': 'campo obrigatório'}}
    """

    def __init__(self, campo: str | None, mensagem: str) -> None:
        super().__init__(f"{campo}: {mensagem}" if campo else mensagem)
        self.campo = campo
        self.mensagem = mensagem

    def como_dict(self) -> dict[str, dict[str, Any]]:
        return {"erro": {"campo": self.campo, "mensagem": self.mensagem}}


class ConfiguracaoInvalida(ValueError):
    """A ``MULTAS_*`` setting (or a command-line option that overrides one) with an invalid
    value; the message names it, in pt-BR (:mod:`multas.configuracao`).

    >>> str(ConfiguracaoInvalida("MULTAS_SERVIR_PORTA", "deve ser um número inteiro: 'x'"))
    "MULTAS_SERVIR_PORTA: deve ser um número inteiro: 'x'"
    """

    def __init__(self, variavel: str, mensagem: str) -> None:
        super().__init__(f"{variavel}: {mensagem}")
        self.variavel = variavel
        self.mensagem = mensagem
