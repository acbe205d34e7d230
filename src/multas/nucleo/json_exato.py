"""The exact JSON codec every adapter reads and writes with (spec § 1): numbers become
``Decimal`` or ``int``, never a float; NaN, repeated keys and absurd integers are pt-BR input
errors, not a crash.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal
from typing import Any

from multas.nucleo.erros import EntradaInvalida, mostrar_valor
from multas.nucleo.identidade import id_do_caso

#: how many digits a JSON integer may have; Python refuses more than 4300, in English
MAXIMO_DIGITOS_JSON = 40


def _rejeitar_constante(nome: str) -> Any:
    raise ValueError(f"valor não permitido em JSON: {nome}")


class _ComRepeticao(dict[str, Any]):
    """An object in which a key was repeated (its later value kept): the reader names it by
    its path once the whole text is read."""

    repetida: str = ""


def _sem_repeticao(pares: list[tuple[str, Any]]) -> dict[str, Any]:
    objeto: dict[str, Any] = {}
    repetida: str | None = None
    for chave, valor in pares:
        if chave in objeto and repetida is None:
            repetida = chave
        objeto[chave] = valor
    if repetida is None:
        return objeto
    marcado = _ComRepeticao(objeto)
    marcado.repetida = repetida
    return marcado


def _caminho(valor: Any, alvo: _ComRepeticao, caminho: str = "") -> str | None:
    """The path (``interpretacao.faixa``, ``infracoes[1].inciso``) of ``alvo``'s repeated key
    inside ``valor``; ``None`` if ``alvo`` is not in it."""
    if valor is alvo:
        return f"{caminho}.{alvo.repetida}" if caminho else alvo.repetida
    if isinstance(valor, dict):
        filhos: Any = ((f"{caminho}.{k}" if caminho else k, v) for k, v in valor.items())
    elif isinstance(valor, list):
        filhos = ((f"{caminho}[{i}]", v) for i, v in enumerate(valor))
    else:
        return None
    for onde, filho in filhos:
        if (achado := _caminho(filho, alvo, onde)) is not None:
            return achado
    return None


#: a ``\\uD800``-``\\uDFFF`` escape: the only way a surrogate gets into valid UTF-8 JSON text
_ESCAPE_SUBSTITUTO = re.compile(r"\\u[dD][89a-fA-F]")
_SUBSTITUTO = re.compile("[\ud800-\udfff]")
#: what a lone surrogate is, for the user
SUBSTITUTO_ISOLADO = "metade de um caractere Unicode (um substituto isolado)"


def _recusar_substitutos(valor: Any) -> None:
    """A lone surrogate (``"\\ud800"``, half of an escaped pair) in any key or text, named by
    its path: no UTF-8 text can hold it, so the answer that echoes it (an error naming the
    field, a result echoing the CNPJ) could not be written (it was a 500)."""
    pilha: list[tuple[str, Any]] = [("", valor)]
    while pilha:
        caminho, atual = pilha.pop()
        if isinstance(atual, str):
            if _SUBSTITUTO.search(atual):
                raise EntradaInvalida(caminho or None, f"o texto contém {SUBSTITUTO_ISOLADO}")
        elif isinstance(atual, dict):
            for chave, filho in atual.items():
                if _SUBSTITUTO.search(chave):
                    raise EntradaInvalida(
                        caminho or None,
                        f"o nome de campo {mostrar_valor(chave)} contém {SUBSTITUTO_ISOLADO}",
                    )
                pilha.append((f"{caminho}.{chave}" if caminho else chave, filho))
        elif isinstance(atual, list):
            pilha.extend((f"{caminho}[{i}]", filho) for i, filho in enumerate(atual))


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
    """JSON with exact numbers: ``parse_float=Decimal`` (never a float), no NaN, no repeated key
    (named by its path, the case's ``id`` kept), no lone surrogate (named by its path).

    >>> ler_json('{"consumo_mj_km": 1.83}')
    {'consumo_mj_km': Decimal('1.83')}
    >>> ler_json('{"regime": }')
    Traceback (most recent call last):
    multas.nucleo.erros.EntradaInvalida: JSON inválido (linha 1, coluna 12): esperava um valor
    """
    repetidos: list[_ComRepeticao] = []  # in the order the parser closed them: inner first

    def objeto(pares: list[tuple[str, Any]]) -> dict[str, Any]:
        lido = _sem_repeticao(pares)
        if isinstance(lido, _ComRepeticao):
            repetidos.append(lido)
        return lido

    try:
        valor = json.loads(
            texto,
            parse_float=Decimal,
            parse_int=_inteiro_json,
            parse_constant=_rejeitar_constante,
            object_pairs_hook=objeto,
        )
    except json.JSONDecodeError as erro:
        raise EntradaInvalida(
            None,
            f"JSON inválido (linha {erro.lineno}, coluna {erro.colno}): {_erro_json(erro.msg)}",
        ) from None
    except RecursionError:
        raise EntradaInvalida(None, "JSON inválido: aninhamento profundo demais") from None
    except ValueError as erro:
        if isinstance(erro, EntradaInvalida):
            raise  # an absurd integer: the error says so
        raise EntradaInvalida(None, f"JSON inválido: {erro}") from None
    if _ESCAPE_SUBSTITUTO.search(texto):  # a valid pair passes; only a lone half is refused
        _recusar_substitutos(valor)
    if repetidos:
        try:
            caminho = _caminho(valor, repetidos[0])
        except RecursionError:  # nested about as deep as the parser allows: named by its key
            caminho = repetidos[0].repetida
        erro_repeticao = EntradaInvalida(caminho, "campo repetido no JSON")
        erro_repeticao.id = id_do_caso(valor)  # the case's own id, when valid (spec § 3 v4)
        raise erro_repeticao
    return valor


def despejar_json(objeto: Any, compacto: bool = False) -> str:
    """The contract's JSON: UTF-8 text as is, indented unless ``compacto``."""
    if compacto:
        return json.dumps(objeto, ensure_ascii=False, separators=(",", ":"))
    return json.dumps(objeto, ensure_ascii=False, indent=2)
