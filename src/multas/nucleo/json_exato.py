"""The exact JSON codec every adapter reads and writes with (spec § 1): numbers become
``Decimal`` or ``int``, never a float; NaN, repeated keys and absurd integers are pt-BR input
errors, not a crash.
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from multas.nucleo.erros import EntradaInvalida

#: how many digits a JSON integer may have; Python refuses more than 4300, in English
MAXIMO_DIGITOS_JSON = 40


def _rejeitar_constante(nome: str) -> Any:
    raise ValueError(f"valor não permitido em JSON: {nome}")


def _sem_repeticao(pares: list[tuple[str, Any]]) -> dict[str, Any]:
    objeto: dict[str, Any] = {}
    for chave, valor in pares:
        if chave in objeto:
            raise EntradaInvalida(chave, "campo repetido no JSON")
        objeto[chave] = valor
    return objeto


#: the json module's messages (English), as the user reads them
_ERROS_JSON = {
    "Expecting value": "esperava um valor",
    "Expecting property name enclosed in double quotes": "esperava o nome de um campo, entre aspas",
    "Expecting ':' delimiter": "esperava ':'",
    "Expecting ',' delimiter": "esperava ','",
    "Unterminated string starting at": "texto sem aspas de fechamento",
    "Invalid control character at": "caractere de controle no meio de um texto",
    "Invalid \\escape": "sequência de escape inválida",
    "Invalid \\uXXXX escape": "sequência \\uXXXX inválida",
    "Extra data": "há conteúdo depois do fim do JSON",
}


def _erro_json(mensagem: str) -> str:
    for ingles, portugues in _ERROS_JSON.items():
        if mensagem.startswith(ingles):
            return portugues
    return "formato inválido"


def _inteiro_json(texto: str) -> int:
    if len(texto.lstrip("-")) > MAXIMO_DIGITOS_JSON:
        raise EntradaInvalida(None, f"número grande demais no JSON ({len(texto)} algarismos)")
    return int(texto)


def ler_json(texto: str) -> Any:
    """JSON with exact numbers: ``parse_float=Decimal`` (never a float), no NaN, no repeated key.

    >>> ler_json('{"consumo_mj_km": 1.83}')
    {'consumo_mj_km': Decimal('1.83')}
    >>> ler_json('{"regime": }')
    Traceback (most recent call last):
    multas.nucleo.erros.EntradaInvalida: JSON inválido (linha 1, coluna 12): esperava um valor
    """
    try:
        return json.loads(
            texto,
            parse_float=Decimal,
            parse_int=_inteiro_json,
            parse_constant=_rejeitar_constante,
            object_pairs_hook=_sem_repeticao,
        )
    except json.JSONDecodeError as erro:
        raise EntradaInvalida(
            None,
            f"JSON inválido (linha {erro.lineno}, coluna {erro.colno}): {_erro_json(erro.msg)}",
        ) from None
    except RecursionError:
        raise EntradaInvalida(None, "JSON inválido: aninhamento profundo demais") from None
    except EntradaInvalida:
        raise  # a repeated key: the error names it
    except ValueError as erro:
        raise EntradaInvalida(None, f"JSON inválido: {erro}") from None


def despejar_json(objeto: Any, compacto: bool = False) -> str:
    """The contract's JSON: UTF-8 text as is, indented unless ``compacto``."""
    if compacto:
        return json.dumps(objeto, ensure_ascii=False, separators=(",", ":"))
    return json.dumps(objeto, ensure_ascii=False, indent=2)
