"""The JSON schema of each type of the case-file contract (:mod:`multas.nucleo.contrato`), for
the OpenAPI document: they document the body, they do not validate it.
"""

from __future__ import annotations

from typing import Any

from multas.nucleo.contrato import AGENTES, MAXIMO_DATAS, MAXIMO_INFRACOES, MAXIMO_TEXTO

NUMERO_EXATO: dict[str, Any] = {
    "oneOf": [
        {"type": "string", "pattern": r"^[+-]?\d+(\.\d+)?$"},
        {"type": "number"},
    ]
}

#: a price: an exact number, or the fraction "p/q" multas writes (spec § 3.1 v4)
_PRECO: dict[str, Any] = {
    "oneOf": [*NUMERO_EXATO["oneOf"], {"type": "string", "pattern": r"^\d+/\d+$"}]
}

TIPOS: dict[str, dict[str, Any]] = {
    "ano": {"type": "integer"},
    "contagem": {"type": "integer", "minimum": 0},
    "quantia": NUMERO_EXATO,
    "quantia_positiva": NUMERO_EXATO,
    "preco": _PRECO,
    "quantidade": NUMERO_EXATO,
    "data": {"type": "string", "format": "date"},
    "booleano": {"type": "boolean"},
    # any roman numeral up to XXXIX: which incisos exist is the regime's data (spec § 3.4 v4)
    "inciso": {"type": "string", "pattern": "^(?=[IVXivx])[Xx]{0,3}([Ii][XxVv]|[Vv]?[Ii]{0,3})$"},
    "cotacoes_mensais": {
        "type": "object",
        "minProperties": 1,
        "additionalProperties": _PRECO,
    },
    "cotacoes_diarias": {
        "type": "array",
        "minItems": 1,
        "items": {
            "type": "object",
            "required": ["data"],
            "anyOf": [{"required": ["preco"]}, {"required": ["quantidade", "valor_financeiro"]}],
            "dependentRequired": {
                "quantidade": ["valor_financeiro"],
                "valor_financeiro": ["quantidade"],
            },
            "additionalProperties": False,
            "properties": {
                "data": {"type": "string", "format": "date"},
                "preco": _PRECO,
                "quantidade": {"type": "integer", "minimum": 1},
                "valor_financeiro": NUMERO_EXATO,
            },
        },
    },
    "taxas_mensais": {
        "type": "object",
        "minProperties": 1,
        "propertyNames": {"pattern": "^[0-9]{4}-(0[1-9]|1[0-2])$"},
        "additionalProperties": NUMERO_EXATO,
    },
    "datas": {
        "type": "array",
        "maxItems": MAXIMO_DATAS,
        "items": {"type": "string", "format": "date"},
    },
    "texto": {"type": "string", "minLength": 1, "maxLength": MAXIMO_TEXTO},
    "opcao": {"type": "string"},
    "agente": {"type": "string", "enum": list(AGENTES)},
}
TIPOS["infracoes"] = {
    "type": "array",
    "minItems": 1,
    "maxItems": MAXIMO_INFRACOES,
    "items": {
        "type": "object",
        "required": ["inciso"],
        "additionalProperties": False,
        "properties": {
            "inciso": TIPOS["inciso"],
            "valor": {"anyOf": [NUMERO_EXATO, {"type": "null"}]},
        },
    },
}


def esquema_do_campo(campo: dict[str, Any]) -> dict[str, Any]:
    """A contract field's schema (``descrever_regimes()``'s field): by its type, an ``opcao``
    field's options listed."""
    if campo["tipo"] == "opcao":
        return {"type": "string", "enum": list(campo["opcoes"])}
    return TIPOS[campo["tipo"]]


#: an error's body (``application/problem+json``, RFC 9457: :func:`multas.servidor.resposta.corpo_erro`)
#: and its field errors, for the OpenAPI document
ESQUEMAS_DE_ERRO: dict[str, Any] = {
    "Erro": {
        "type": "object",
        "description": "Um erro, em application/problem+json (RFC 9457), em pt-BR. Uma entrada "
        "inválida traz todos os erros de campo do pedido em `erros` (cada campo do caso é lido "
        "por si; as regras entre campos, depois que todos são legíveis); `erro` é o primeiro, "
        "como nas versões anteriores, mantido por uma versão.",
        "required": ["type", "title", "status", "detail", "erro", "erros"],
        "properties": {
            "id": {
                "type": "string",
                "description": "o id do caso recusado, quando ele trazia um válido (primeiro campo)",
            },
            "type": {
                "type": "string",
                "description": "o tipo do problema: um por status, explicado no guia da API "
                "(/guia-da-api#erro-422)",
            },
            "title": {"type": "string", "description": "o status, em pt-BR"},
            "status": {"type": "integer", "description": "o status HTTP"},
            "detail": {"type": "string", "description": "o erro, ou quantos e em que campos"},
            "instance": {"type": "string", "description": "o caminho pedido"},
            "erro": {"$ref": "#/components/schemas/ErroDeCampo"},
            "erros": {
                "type": "array",
                "minItems": 1,
                "items": {"$ref": "#/components/schemas/ErroDeCampo"},
                "description": "todos os erros de campo do pedido, na ordem encontrada (até "
                "100: os outros são contados em `erros_omitidos`)",
            },
            "erros_omitidos": {
                "type": "integer",
                "minimum": 1,
                "description": "quantos erros de campo além dos 100 listados (só quando há)",
            },
        },
        "example": {
            "type": "/guia-da-api#erro-422",
            "title": "entrada inválida",
            "status": 422,
            "detail": "2 erros na entrada, em: meta_cbios, maior_media_mensal",
            "instance": "/api/v1/calcular",
            "erro": {"campo": "meta_cbios", "mensagem": "campo obrigatório"},
            "erros": [
                {"campo": "meta_cbios", "mensagem": "campo obrigatório"},
                {"campo": "maior_media_mensal", "mensagem": "o preço deve ser maior que zero"},
            ],
        },
    },
    "ErroDeCampo": {
        "type": "object",
        "required": ["campo", "mensagem"],
        "properties": {
            "campo": {
                "type": ["string", "null"],
                "description": "o caminho do campo com problema (cotacoes_diarias[2].data), ou "
                "null quando o problema é o pedido inteiro",
            },
            "mensagem": {"type": "string", "description": "o que está errado, em pt-BR"},
            "linha": {
                "type": "integer",
                "minimum": 1,
                "description": "num arquivo importado (CSV, XLSX, JSON Lines), a linha do erro "
                "(o cabeçalho é a linha 1); só em erros de uma linha do arquivo",
            },
            "item": {
                "type": "integer",
                "minimum": 1,
                "description": "num arquivo JSON (uma lista), a posição do item do erro, a "
                "partir de 1",
            },
        },
    },
}
