"""The OpenAPI description of the bodies, built from the contract (``descrever_regimes()``).

The server parses the raw body itself (exact decimals, never a float): these schemas
document it and feed the interactive docs; they do not validate.
"""

from __future__ import annotations

from typing import Any

from multas.catalogo import descrever_regimes
from multas.contrato import TIPOS_DESCRICAO
from multas.servidor.exemplos import EXEMPLOS

_NUMERO_EXATO: dict[str, Any] = {
    "oneOf": [
        {"type": "string", "pattern": r"^[+-]?\d+(\.\d+)?$"},
        {"type": "number"},
    ]
}

_TIPOS: dict[str, dict[str, Any]] = {
    "ano": {"type": "integer"},
    "contagem": {"type": "integer", "minimum": 0},
    "quantia": _NUMERO_EXATO,
    "quantia_positiva": _NUMERO_EXATO,
    "preco": _NUMERO_EXATO,
    "quantidade": _NUMERO_EXATO,
    "data": {"type": "string", "format": "date"},
    "booleano": {"type": "boolean"},
    "inciso": {
        "type": "string",
        "enum": [
            "I",
            "II",
            "III",
            "IV",
            "V",
            "VI",
            "VII",
            "VIII",
            "IX",
            "X",
            "XI",
            "XII",
            "XIII",
            "XIV",
        ],
    },
    "cotacoes_mensais": {
        "type": "object",
        "minProperties": 1,
        "additionalProperties": _NUMERO_EXATO,
    },
    "cotacoes_diarias": {
        "type": "array",
        "minItems": 1,
        "items": {
            "type": "object",
            "required": ["data", "preco"],
            "additionalProperties": False,
            "properties": {"data": {"type": "string", "format": "date"}, "preco": _NUMERO_EXATO},
        },
    },
}


def _nome_esquema(regime: str) -> str:
    return "Caso_" + regime.replace(".", "_")


def esquemas_dos_casos() -> dict[str, Any]:
    """One object schema per regime, named ``Caso_<regime>``."""
    esquemas: dict[str, Any] = {}
    for regime in descrever_regimes():
        propriedades: dict[str, Any] = {
            "regime": {"type": "string", "const": regime["regime"], "enum": [regime["regime"]]}
        }
        for campo in regime["campos"]:
            descricao = f"{campo['descricao']} ({TIPOS_DESCRICAO[campo['tipo']]})"
            if campo["obrigatorio"]:
                propriedades[campo["nome"]] = {**_TIPOS[campo["tipo"]], "description": descricao}
            else:  # an optional field given as null is absent (the contract reads it so)
                propriedades[campo["nome"]] = {
                    "anyOf": [_TIPOS[campo["tipo"]], {"type": "null"}],
                    "description": f"{descricao}; null equivale a omitir o campo",
                }
        if regime["interpretacao"]:
            propriedades["interpretacao"] = {
                "type": ["object", "null"],
                "additionalProperties": False,
                "description": "Leitura do texto legal, onde ele é ambíguo",
                "properties": {
                    chave: {
                        "type": "string",
                        "enum": info["opcoes"],
                        "default": info["padrao"],
                    }
                    for chave, info in regime["interpretacao"].items()
                },
            }
        esquemas[_nome_esquema(regime["regime"])] = {
            "title": regime["regime"],
            "description": f"{regime['titulo']} ({regime['fundamento']})",
            "type": "object",
            "required": ["regime", *[c["nome"] for c in regime["campos"] if c["obrigatorio"]]],
            "additionalProperties": False,
            "properties": propriedades,
        }
    return esquemas


ESQUEMAS_COMUNS: dict[str, Any] = {
    "Erro": {
        "type": "object",
        "required": ["erro"],
        "properties": {
            "erro": {
                "type": "object",
                "required": ["campo", "mensagem"],
                "properties": {
                    "campo": {"type": ["string", "null"], "description": "o campo com problema"},
                    "mensagem": {"type": "string", "description": "o que está errado, em pt-BR"},
                },
            }
        },
        "example": {"erro": {"campo": "meta_cbios", "mensagem": "campo obrigatório"}},
    },
    "Passo": {
        "type": "object",
        "required": ["descricao", "valor", "fundamento"],
        "properties": {
            "descricao": {"type": "string"},
            "valor": {"type": ["string", "null"]},
            "fundamento": {"type": "string", "description": "o dispositivo exato, com a redação"},
            "texto": {"type": ["string", "null"], "description": "o texto legal aplicado"},
            "tipo": {"type": "string"},
        },
    },
    "Resultado": {
        "type": "object",
        "description": "O resultado do contrato (especificação, § 3), com os campos próprios do "
        "regime (valor_minimo, vencimento, ...). Valores em reais são textos com duas casas.",
        "required": [
            "regime",
            "valor",
            "moeda",
            "fundamento",
            "vigencia",
            "passos",
            "avisos",
            "alternativas",
        ],
        "additionalProperties": True,
        "properties": {
            "regime": {"type": "string"},
            "valor": {"type": ["string", "null"], "example": "10625000.00"},
            "moeda": {"type": "string", "const": "BRL"},
            "fundamento": {"type": "string"},
            "vigencia": {
                "type": "object",
                "properties": {
                    "data_referencia": {"type": "string", "format": "date"},
                    "redacao": {"type": "string"},
                },
            },
            "interpretacao": {"type": "object", "additionalProperties": {"type": "string"}},
            "passos": {"type": "array", "items": {"$ref": "#/components/schemas/Passo"}},
            "avisos": {"type": "array", "items": {"type": "string"}},
            "alternativas": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "interpretacao": {
                            "type": "object",
                            "additionalProperties": {"type": "string"},
                        },
                        "valor": {"type": ["string", "null"]},
                    },
                },
            },
        },
    },
    "ResumoCaso": {
        "type": "object",
        "properties": {
            "id": {"type": "integer"},
            "regime": {"type": "string"},
            "valor": {"type": ["string", "null"]},
            "usuario": {"type": "string"},
            "origem": {"type": "string", "enum": ["api", "pagina"]},
            "criado_em": {"type": "string", "format": "date-time"},
            "versao_motor": {"type": "string"},
            "versao_legislacao": {"type": "string"},
            "integro": {
                "type": "boolean",
                "description": "na listagem: false se o caso não confere com o seu registro "
                "(alterado fora do sistema; o valor não é mostrado)",
            },
        },
    },
    "CasoSalvo": {
        "allOf": [
            {"$ref": "#/components/schemas/ResumoCaso"},
            {
                "type": "object",
                "properties": {
                    "entrada": {"type": "object", "description": "o caso, como recebido"},
                    "resultado": {"$ref": "#/components/schemas/Resultado"},
                },
            },
        ]
    },
}


def corpo_caso() -> dict[str, Any]:
    """``requestBody`` of the endpoints that take one case."""
    return {
        "requestBody": {
            "required": True,
            "description": "Um caso do contrato (especificação, § 3). Números podem ser números "
            "JSON ou textos; são lidos exatamente, nunca como float.",
            "content": {
                "application/json": {
                    "schema": {
                        "oneOf": [
                            {"$ref": f"#/components/schemas/{_nome_esquema(nome)}"}
                            for nome in EXEMPLOS
                        ],
                        "discriminator": {
                            "propertyName": "regime",
                            "mapping": {
                                nome: f"#/components/schemas/{_nome_esquema(nome)}"
                                for nome in EXEMPLOS
                            },
                        },
                    },
                    "examples": {
                        nome: {"summary": nome, "value": caso} for nome, caso in EXEMPLOS.items()
                    },
                }
            },
        }
    }


def resposta_relatorio() -> Any:
    """A report: PDF (``formato=pdf``) or HTML (``formato=html``)."""
    return {
        "description": "O relatório: PDF (formato=pdf) ou HTML (formato=html)",
        "content": {
            "application/pdf": {"schema": {"type": "string", "format": "binary"}},
            "text/html": {"schema": {"type": "string"}},
        },
    }


def resposta(descricao: str, esquema: str | None = None, tipo: str = "application/json") -> Any:
    conteudo: dict[str, Any] = {}
    if esquema:
        conteudo = {tipo: {"schema": {"$ref": f"#/components/schemas/{esquema}"}}}
    elif tipo != "application/json":
        conteudo = {tipo: {}}
    return (
        {"description": descricao, "content": conteudo} if conteudo else {"description": descricao}
    )


ERROS = {
    "422": resposta("Entrada inválida (mensagem em pt-BR, com o campo)", "Erro"),
}


def completar(documento: dict[str, Any]) -> dict[str, Any]:
    """Add the contract's schemas to the generated document."""
    componentes = documento.setdefault("components", {}).setdefault("schemas", {})
    componentes.update(esquemas_dos_casos())
    componentes.update(ESQUEMAS_COMUNS)
    # FastAPI adds its own (English) validation error schemas; ours replace them
    for nome in ("HTTPValidationError", "ValidationError"):
        componentes.pop(nome, None)
    return documento
