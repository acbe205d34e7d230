"""Input errors: every one names the field and says why, in pt-BR."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

#: how many characters of a value a message echoes (:func:`mostrar_valor`)
LIMITE_ECO = 40


def mostrar_valor(valor: object, limite: int = LIMITE_ECO) -> str:
    """A value the user gave, as a message echoes it: its ``repr`` (so control characters,
    line breaks and bidi overrides show escaped), cut after ``limite`` characters with ``…`` and
    the value's length, so that a 10 KB CNPJ or a 50,000-digit number is never echoed whole.
    The one helper of every message that quotes an input.

    >>> mostrar_valor("15/13/2025"), mostrar_valor(7), mostrar_valor(None)
    ("'15/13/2025'", '7', 'None')
    >>> mostrar_valor("9" * 50_000)
    "'9999999999999999999999999999999999999999…' (50000 caracteres)"
    >>> print(mostrar_valor("\x1f" * 30))
    '\\x1f\\x1f\\x1f\\x1f\\x1f\\x1f\\x1f\\x1f\\x1f\\x1f…' (30 caracteres)
    >>> mostrar_valor(10**50_000)
    'um número de cerca de 50001 dígitos'
    >>> mostrar_valor(Decimal("12.5")), mostrar_valor(Decimal("1e400"))
    ('12.5', '1E+400')
    """
    if isinstance(valor, int) and not isinstance(valor, bool) and valor.bit_length() > 1000:
        # str() of a huge int raises ValueError (sys.get_int_max_str_digits) and is quadratic
        return f"um número de cerca de {int(valor.bit_length() * 0.30103) + 1} dígitos"
    if isinstance(valor, str):
        if len(valor) <= limite and len(texto := repr(valor)) <= limite + 2:
            return texto
        # the longest prefix whose repr fits: an escaped character (``\U0001dab0``) counts
        # for what it shows, so a text of controls is cut as short as a plain one
        baixo, alto = 0, min(len(valor), limite)
        while baixo < alto:
            meio = (baixo + alto + 1) // 2
            if len(repr(valor[:meio])) <= limite + 2:
                baixo = meio
            else:
                alto = meio - 1
        cortado = repr(valor[:baixo])
        return f"{cortado[:-1]}…{cortado[-1]} ({len(valor)} caracteres)"
    # a number of the exact JSON reader: as the user wrote it, not as Python's repr
    texto = str(valor) if isinstance(valor, Decimal) else repr(valor)
    if len(texto) <= limite:
        return texto
    return f"{texto[:limite]}… ({len(texto)} caracteres)"


class EntradaInvalida(ValueError):
    """A case the engine refuses to compute.

    >>> EntradaInvalida("ano_meta", "campo obrigatório").como_dict()
    {'erro': {'campo': 'ano_meta', 'mensagem': 'campo obrigatório'}}
    """

    def __init__(self, campo: str | None, mensagem: str) -> None:
        super().__init__(f"{campo}: {mensagem}" if campo else mensagem)
        self.campo = campo
        self.mensagem = mensagem
        #: the refused case's own ``id`` (spec § 3 v4), echoed first when it was valid
        self.id: str | None = None

    def como_dict(self) -> dict[str, Any]:
        corpo: dict[str, Any] = {"erro": {"campo": self.campo, "mensagem": self.mensagem}}
        return corpo if self.id is None else {"id": self.id, **corpo}


class ConfiguracaoInvalida(ValueError):
    """A ``MULTAS_*`` setting (or a command-line option that overrides one) with an invalid
    value; the message names it, in pt-BR (:mod:`multas.servicos.configuracao`).

    >>> str(ConfiguracaoInvalida("MULTAS_SERVIR_PORTA", "deve ser um número inteiro: 'x'"))
    "MULTAS_SERVIR_PORTA: deve ser um número inteiro: 'x'"
    """

    def __init__(self, variavel: str, mensagem: str) -> None:
        super().__init__(f"{variavel}: {mensagem}")
        self.variavel = variavel
        self.mensagem = mensagem
