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
