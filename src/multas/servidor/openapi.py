"""The OpenAPI description of the bodies, built from the contract (``descrever_regimes()``).

The server parses the raw body itself (exact decimals, never a float): these schemas
document it and feed the interactive docs; they do not validate.
"""

from __future__ import annotations

from typing import Any

from multas.nucleo.catalogo import descrever_regimes
from multas.nucleo.contrato import MAXIMO_DATAS, TIPOS_DESCRICAO
from multas.nucleo.identidade import CAMPOS as IDENTIDADE
from multas.nucleo.regimes import REGIMES
from multas.nucleo.sinonimos import sinonimos_do_regime
from multas.servidor.esquemas import ESQUEMAS_DE_ERRO, esquema_do_campo
from multas.servidor.esquemas import NUMERO_EXATO as _NUMERO_EXATO
from multas.servidor.exemplos import EXEMPLOS


def _sinonimos(info: dict[str, Any]) -> dict[str, Any]:
    """A reading's aliases (spec § 3 v4: ``encargos = decreto``), said in its description."""
    sinonimos = info.get("sinonimos")
    if not sinonimos:
        return {}
    pares = ", ".join(f"{sinonimo} = {opcao}" for sinonimo, opcao in sinonimos.items())
    return {"description": f"aceito também: {pares}; o resultado escreve o nome da opção"}


def _com_sinonimos(regime: str, esquema: dict[str, Any]) -> dict[str, Any]:
    """A case's schema with each field's other name (``ano`` for ``ano_meta``: issue 37,
    item 4), accepted in its place: a required field is required under either name."""
    propriedades, obrigatorios = esquema["properties"], esquema["required"]
    alternativas = []
    for campo, sinonimo in sinonimos_do_regime(REGIMES[regime].caso).items():
        propriedades[sinonimo] = {
            **propriedades[campo],
            "description": f"O mesmo campo que {campo}, com o nome do ano e da carteira: "
            f"informe um só dos dois (ou o mesmo valor nos dois)",
        }
        if campo in obrigatorios:
            obrigatorios.remove(campo)
            alternativas.append({"anyOf": [{"required": [campo]}, {"required": [sinonimo]}]})
    if alternativas:
        esquema["allOf"] = alternativas
    return esquema


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
                propriedades[campo["nome"]] = {**esquema_do_campo(campo), "description": descricao}
            else:  # an optional field given as null is absent (the contract reads it so)
                propriedades[campo["nome"]] = {
                    "anyOf": [esquema_do_campo(campo), {"type": "null"}],
                    "description": f"{descricao}; null equivale a omitir o campo",
                }
        for nome, (limite, rotulo) in IDENTIDADE.items():  # who the case is about, echoed
            propriedades[nome] = {
                "anyOf": [
                    {"type": "string", "minLength": 1, "maxLength": limite},
                    {"type": "null"},
                ],
                "description": f"{rotulo}: devolvido no resultado como recebido",
            }
        if regime["interpretacao"]:
            propriedades["interpretacao"] = {
                "type": ["object", "null"],
                "additionalProperties": False,
                "description": "Leitura do texto legal, onde ele é ambíguo",
                "properties": {
                    chave: {
                        "type": "string",
                        "enum": [*info["opcoes"], *info.get("sinonimos", {})],
                        "default": info["padrao"],
                    }
                    | _sinonimos(info)
                    for chave, info in regime["interpretacao"].items()
                },
            }
        obrigatorios = ["regime", *[c["nome"] for c in regime["campos"] if c["obrigatorio"]]]
        esquema: dict[str, Any] = {
            "title": regime["regime"],
            "description": f"{regime['titulo']} ({regime['fundamento']})",
            "type": "object",
            "required": obrigatorios,
            "additionalProperties": False,
            "properties": propriedades,
        }
        esquemas[_nome_esquema(regime["regime"])] = _com_sinonimos(regime["regime"], esquema)
    return esquemas


ESQUEMAS_COMUNS: dict[str, Any] = {
    **ESQUEMAS_DE_ERRO,
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
        "description": "O resultado do contrato (veja docs/contrato.md), com os campos próprios do "
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
            "id": {"type": "string", "description": "o id do caso, se informado (primeiro campo)"},
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
            **{
                nome: {
                    "type": "string",
                    "description": f"{rotulo}, como o resultado do caso o devolve (ausente se o "
                    "caso não o informa)",
                }
                for nome, (_, rotulo) in IDENTIDADE.items()
                if nome
                != "id"  # a saved case's id is its number; the case's own id stays in resultado
            },
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


def esquemas_do_ciclo() -> dict[str, Any]:
    """The processo of spec § 6 and its output, built from the event tables."""
    from multas.nucleo.eventos import ESTADOS, ROTULOS_PRAZOS, SITUACOES, TIPOS
    from multas.servidor.openapi_penal import DESCRICAO_ESTADO, NAO_SALVOS, esquemas_penais

    eventos = sorted({nome for tipo in TIPOS.values() for nome in tipo.eventos})
    estados, (interrupcao_penal, prescricao_penal_anos) = list(ESTADOS), esquemas_penais()
    descricao_tipos = "; ".join(
        f"`{tipo.nome}` ({tipo.titulo}): eventos " + ", ".join(f"`{e}`" for e in tipo.eventos)
        for tipo in TIPOS.values()
    )
    processo: dict[str, Any] = {
        "title": "Processo",
        "description": "Um processo: eventos datados, em ordem de data (datas iguais mantêm "
        "a ordem dada); cada evento aparece no máximo uma vez. " + descricao_tipos,
        "type": "object",
        "required": ["tipo", "eventos"],
        "additionalProperties": False,
        "properties": {
            "tipo": {"type": "string", "enum": list(TIPOS)},
            "eventos": {
                "type": "array",
                "minItems": 1,
                "items": {
                    "type": "object",
                    "required": ["evento", "data"],
                    "additionalProperties": False,
                    "properties": {
                        "evento": {"type": "string", "enum": eventos},
                        "data": {"type": "string", "format": "date"},
                    },
                },
            },
            "interpretacao": {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "calendario": {
                        "type": "string",
                        "enum": ["expediente", "feriados"],
                        "default": "expediente",
                        "description": "dias sem expediente: feriados nacionais e pontos "
                        "facultativos federais (expediente) ou só os feriados (feriados)",
                    },
                    "prazo_alegacoes": {
                        "type": "string",
                        "enum": ["decreto", "lei-9784"],
                        "default": "decreto",
                        "description": "só anp: o prazo das alegações finais, o do Decreto nº "
                        "2.953/1999, art. 16 (decreto) ou o da Lei nº 9.784/1999, art. 44 "
                        "(lei-9784)",
                    },
                    "atos_instrucao": {
                        "type": "string",
                        "enum": ["intercorrente", "apuracao"],
                        "default": "intercorrente",
                        "description": "só anp: a intimação para alegações finais, as alegações "
                        "e a remessa reiniciam só a prescrição intercorrente (intercorrente) ou "
                        "também interrompem a prescrição (apuracao, Lei nº 9.873/1999, art. 2º, II)",
                    },
                    "interrupcao_penal": interrupcao_penal,
                },
            },
            "dias_sem_expediente": {
                "type": "array",
                "maxItems": MAXIMO_DATAS,
                "items": {"type": "string", "format": "date"},
                "description": "outros dias sem expediente na repartição",
            },
            "data_referencia": {
                "type": "string",
                "format": "date",
                "description": "a data em que a situação é julgada (padrão: hoje)",
            },
            "valor_multa": {
                **_NUMERO_EXATO,
                "description": "só anp: a multa fixada (dá valor_com_desconto com a renúncia)",
            },
            "id": {
                "oneOf": [{"type": "string"}, {"type": "integer"}],
                "description": "devolvido como recebido",
            },
            "referencia": {
                "oneOf": [{"type": "string"}, {"type": "integer"}],
                "description": "o número do processo na ANP: o mesmo campo que id (um dos dois), "
                "devolvido como id",
            },
            "cnpj": {"type": "string", "description": "devolvido como recebido"},
            "nome": {"type": "string", "description": "devolvido como recebido"},
            "origem": {
                "type": "object",
                "description": "a multa que abriu o processo (multas ano calcular --salvar)",
                "properties": {
                    c: {"type": "integer" if c == "ano_meta" else "string"}
                    for c in ("regime", "ano_meta", "cnpj")
                },
                "required": ["regime", "ano_meta", "cnpj"],
            },
            "prescricao_penal_anos": prescricao_penal_anos,
        },
    }
    propriedades = processo["properties"]
    # POST /api/v1/processos: a stored processo keeps all but data_referencia (it is judged on
    # the day it is read), and adds the fine's case
    salvo = {
        **processo,
        "title": "ProcessoSalvo",
        "description": "Um processo a salvar: o do § 6 sem data_referencia (um processo salvo "
        "é julgado na data da consulta), com a multa vinculada opcional. " + descricao_tipos,
        "properties": {
            **{k: v for k, v in propriedades.items() if k not in NAO_SALVOS},
            # a stored processo keeps only the calendar's reading (the others: POST /prazos)
            "interpretacao": {
                **propriedades["interpretacao"],
                "properties": {
                    "calendario": propriedades["interpretacao"]["properties"]["calendario"]
                },
            },
            "valor_multa": {
                **_NUMERO_EXATO,
                "description": "só anp: a multa fixada (os encargos de mora da multa vinculada; "
                "valor_com_desconto com a renúncia)",
            },
            "principal": {
                **_NUMERO_EXATO,
                "deprecated": True,
                "description": "nome antigo de valor_multa (ainda aceito; não junto com ele)",
            },
            "caso_id": {
                "type": "integer",
                "minimum": 1,
                "description": "o caso salvo da multa (renovabio.lista: o renovabio.distribuidor "
                "recalculado com a quitação; anp: a multa, sem valor_multa)",
            },
        },
    }
    alteracao = {
        "title": "AlteracaoProcesso",
        "description": "O que se altera num processo salvo (os eventos, um por vez).",
        "type": "object",
        "required": ["dias_sem_expediente"],
        "additionalProperties": False,
        "properties": {
            "dias_sem_expediente": {
                "anyOf": [{**propriedades["dias_sem_expediente"]}, {"type": "null"}],
                "description": "a nova lista de outros dias sem expediente na repartição "
                "(substitui a anterior; null ou [] para nenhum)",
            }
        },
    }
    vinculo = {
        "title": "Vinculo",
        "description": "O vínculo de um processo anp ao processo renovabio.lista do mesmo "
        "distribuidor.",
        "type": "object",
        "required": ["lista_id"],
        "additionalProperties": False,
        "properties": {
            "lista_id": {
                "anyOf": [
                    {"type": "integer", "minimum": 1, "maximum": 2**63 - 1},
                    {"type": "null"},
                ],
                "description": "o número do processo renovabio.lista (null desfaz o vínculo)",
            }
        },
    }
    data_ou_nulo = {"anyOf": [{"type": "string", "format": "date"}, {"type": "null"}]}
    decisao = {
        "title": "DecisaoPrimeiraInstancia",
        "description": "A decisão de primeira instância, registrada uma vez para os dois "
        "processos vinculados: ao menos uma das datas.",
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "data_decisao": {
                **data_ou_nulo,
                "description": "a data da própria decisão: decisao_primeira_instancia no "
                "processo renovabio.lista",
            },
            "data_ciencia": {
                **data_ou_nulo,
                "description": "a data da ciência da decisão: ciencia_primeira_instancia no "
                "processo anp",
            },
        },
    }
    resultado_decisao = {
        "title": "ResultadoDecisao",
        "type": "object",
        "required": ["processo_anp", "processo_lista", "eventos", "avisos", "processos"],
        "properties": {
            "processo_anp": {"type": "integer"},
            "processo_lista": {"type": "integer"},
            "eventos": {
                "type": "array",
                "description": "cada data informada: o processo, o evento e se foi acrescentado "
                "(false: já estava registrado na mesma data)",
                "items": {
                    "type": "object",
                    "required": [
                        "processo_id",
                        "tipo",
                        "evento",
                        "data",
                        "campo",
                        "acrescentado",
                    ],
                    "properties": {
                        "processo_id": {"type": "integer"},
                        "tipo": {"type": "string"},
                        "evento": {"type": "string"},
                        "data": {"type": "string", "format": "date"},
                        "campo": {"type": "string", "enum": ["data_decisao", "data_ciencia"]},
                        "acrescentado": {"type": "boolean"},
                    },
                },
            },
            "avisos": {
                "type": "array",
                "items": {"type": "string"},
                "description": "a data que faltou e o processo que não foi alterado",
            },
            "processos": {
                "type": "array",
                "description": "os dois processos como ficaram (anp, depois renovabio.lista)",
                "items": {"type": "object"},
            },
        },
    }
    return {
        "Processo": processo,
        "ProcessoSalvo": salvo,
        "AlteracaoProcesso": alteracao,
        "Vinculo": vinculo,
        "DecisaoPrimeiraInstancia": decisao,
        "ResultadoDecisao": resultado_decisao,
        "Prazo": {
            "type": "object",
            "required": ["prazo", "data", "fundamento", "contagem", "responsavel", "situacao"],
            "properties": {
                "prazo": {
                    "type": "string",
                    "enum": sorted(ROTULOS_PRAZOS),
                    "description": "; ".join(f"`{k}`: {v}" for k, v in ROTULOS_PRAZOS.items()),
                },
                "data": {"type": "string", "format": "date"},
                "fundamento": {"type": "string", "description": "o dispositivo exato"},
                "contagem": {"type": "string", "description": "como a data foi contada, em pt-BR"},
                "responsavel": {"type": "string", "enum": ["autuado", "anp"]},
                "situacao": {
                    "type": "string",
                    "enum": sorted(SITUACOES),
                    "description": "na data de referência",
                },
            },
        },
        **esquemas_da_fila(estados),
        "Prazos": {
            "type": "object",
            "required": ["tipo", "estado", "data_referencia", "proxima_acao", "prazos", "avisos"],
            "properties": {
                "data_referencia": {"type": "string", "format": "date"},
                "valor_com_desconto": {"type": "string", "pattern": r"^\d+\.\d{2}$"},
                "id": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
                "cnpj": {"type": "string"},
                "nome": {"type": "string"},
                "tipo": {"type": "string", "enum": list(TIPOS)},
                "estado": {"type": "string", "enum": estados, "description": DESCRICAO_ESTADO},
                "proxima_acao": {
                    "anyOf": [{"$ref": "#/components/schemas/ProximaAcao"}, {"type": "null"}],
                    "description": "quem age a seguir, o quê, desde e até quando (null: nada "
                    "resta a fazer)",
                },
                "prazos": {
                    "type": "array",
                    "description": "ordenados por data e, na mesma data, por nome",
                    "items": {"$ref": "#/components/schemas/Prazo"},
                },
                "avisos": {"type": "array", "items": {"type": "string"}},
            },
        },
    }


def esquema_da_acao() -> dict[str, Any]:
    """Spec § 6.1 v4: the next action of a processo (``proxima_acao``)."""
    from multas.nucleo.ciclo.pendencias import QUEM

    data = {"type": "string", "format": "date"}
    return {
        "type": "object",
        "required": ["quem", "o_que", "desde", "ate", "fundamento"],
        "properties": {
            "quem": {"type": "string", "enum": list(QUEM)},
            "o_que": {"type": "string", "description": "o que deve ser feito, em pt-BR"},
            "desde": data,
            "ate": {
                **_ou_nulo(data),
                "description": "o prazo que a limita, ou a prescrição que a ANP precisa vencer",
            },
            "fundamento": {"type": "string"},
        },
    }


def _ou_nulo(esquema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [esquema, {"type": "null"}]}


def esquemas_da_fila(estados: list[str]) -> dict[str, Any]:
    """``GET /api/v1/pendencias``: the work queue and its items (an unreadable processo's
    item has ``null`` where its deadline would be, and its ``erro``)."""
    from multas.nucleo.ciclo.pendencias import CAMPOS_ACAO, CAMPOS_ITEM, QUEM, RESPONSAVEIS
    from multas.nucleo.eventos import ROTULOS_PRAZOS, SITUACOES, TIPOS

    texto = {"type": "string"}
    inteiro = {"type": "integer", "minimum": 0}
    item = {
        "processo_id": {"type": "integer", "minimum": 1},
        "tipo": _ou_nulo({"type": "string", "enum": list(TIPOS)}),
        "id": {"anyOf": [texto, {"type": "integer"}, {"type": "null"}]},
        "cnpj": _ou_nulo(texto),
        "nome": _ou_nulo(texto),
        "estado": _ou_nulo({"type": "string", "enum": estados}),
        # spec § 6.2 v4: an instalment of a parcelamento is parcela_1, parcela_2, …
        "prazo": _ou_nulo(
            {
                "anyOf": [
                    {"type": "string", "enum": sorted(ROTULOS_PRAZOS)},
                    {"type": "string", "pattern": "^parcela_[1-9][0-9]*$"},
                ]
            }
        ),
        "rotulo": _ou_nulo(texto),
        "data": _ou_nulo({"type": "string", "format": "date"}),
        "situacao": _ou_nulo({"type": "string", "enum": sorted(SITUACOES)}),
        "responsavel": _ou_nulo({"type": "string", "enum": list(RESPONSAVEIS)}),
        "dias_de_atraso": _ou_nulo({**inteiro, "description": "0 se não está vencido"}),
        "dias_restantes": _ou_nulo({**inteiro, "description": "0 se está vencido"}),
        "fundamento": _ou_nulo(texto),
        "contagem": _ou_nulo(texto),
        "encerrado": _ou_nulo({"type": "boolean"}),
        "saldo": _ou_nulo(
            {
                **texto,
                "pattern": r"^\d+\.\d{2}$",
                "description": "o valor devido na data de referência (spec § 6.2), quando o "
                "processo tem valor_multa e decisão definitiva",
            }
        ),
        "erro": _ou_nulo({**texto, "description": "o processo não pôde ser lido: por quê"}),
    }
    acao = {
        **{chave: item[chave] for chave in ("processo_id", "tipo", "id", "cnpj", "nome", "estado")},
        **esquema_da_acao()["properties"],
        "dias_de_atraso": {**inteiro, "description": "dias depois de ate (0 se não passou)"},
        "saldo": item["saldo"],
    }
    return {
        "ProximaAcao": esquema_da_acao(),
        "AcaoPendente": {
            "type": "object",
            "required": list(CAMPOS_ACAO),
            "properties": acao,
        },
        "Pendencia": {
            "type": "object",
            "required": list(CAMPOS_ITEM),
            "properties": item,
        },
        "Pendencias": {
            "type": "object",
            "required": [
                "data_referencia",
                "hoje",
                "dias",
                "ate",
                "filtros",
                "acoes",
                "prazos",
                "prescritos_ocultos",
                "total",
                "total_acoes",
            ],
            "properties": {
                "acoes": {
                    "type": "array",
                    "description": "a próxima ação de cada processo, uma linha por processo: "
                    "por ate (sem prazo por último), depois desde, depois o processo: uma "
                    "página (o mesmo limite e deslocamento dos prazos)",
                    "items": {"$ref": "#/components/schemas/AcaoPendente"},
                },
                "data_referencia": {"type": "string", "format": "date"},
                "hoje": {
                    "type": "string",
                    "format": "date",
                    "description": "o nome antigo de data_referencia",
                },
                "dias": {"type": "integer", "minimum": 0, "maximum": 3660},
                "ate": {
                    "type": "string",
                    "format": "date",
                    "description": "o último dia da janela",
                },
                "filtros": {
                    "type": "object",
                    "properties": {
                        "responsavel": _ou_nulo({"type": "string", "enum": list(QUEM)}),
                        "cnpj": _ou_nulo(texto),
                        "estado": _ou_nulo({"type": "string", "enum": estados}),
                        "prescritos": {"type": "boolean"},
                        "vencidos": {"type": "boolean"},
                        "todos": {"type": "boolean"},
                    },
                },
                "prazos": {
                    "type": "array",
                    "description": "os processos que não puderam ser lidos; os vencidos (o mais "
                    "atrasado primeiro); os demais, por data: uma página (limite e "
                    "deslocamento)",
                    "items": {"$ref": "#/components/schemas/Pendencia"},
                },
                "total": {
                    "type": "integer",
                    "minimum": 0,
                    "description": "quantos itens a fila tem ao todo (todas as páginas)",
                },
                "total_acoes": {
                    "type": "integer",
                    "minimum": 0,
                    "description": "quantas próximas ações a fila tem ao todo (todas as páginas)",
                },
                "prescritos_ocultos": {
                    "type": "integer",
                    "minimum": 0,
                    "description": "quantos prazos de processos prescritos prescritos=false "
                    "deixou de fora",
                },
            },
        },
    }


EXEMPLOS_PROCESSOS: dict[str, dict[str, Any]] = {
    "anp": {
        "id": "48610.000123/2024-11",
        "tipo": "anp",
        "eventos": [
            {"evento": "infracao", "data": "2023-05-10"},
            {"evento": "auto_infracao", "data": "2023-06-01"},
            {"evento": "ciencia_primeira_instancia", "data": "2024-03-19"},
            {"evento": "recurso", "data": "2024-03-27"},
            {"evento": "ciencia_decisao_definitiva", "data": "2024-10-21"},
        ],
    },
    "renovabio.lista": {
        "cnpj": "12.345.678/0001-95",
        "nome": "Distribuidora Exemplo Ltda.",
        "tipo": "renovabio.lista",
        "eventos": [
            {"evento": "fim_prazo_meta", "data": "2025-12-31"},
            {"evento": "decisao_primeira_instancia", "data": "2026-02-06"},
            {"evento": "inclusao_lista", "data": "2026-02-09"},
            {"evento": "quitacao_meta", "data": "2026-02-10"},
            {"evento": "pedido_retirada", "data": "2026-02-12"},
        ],
    },
    "renovabio.balanco": {
        "tipo": "renovabio.balanco",
        "eventos": [
            {"evento": "inclusao_lista", "data": "2026-04-01"},
            {"evento": "comprovacao_adequacao", "data": "2026-04-14"},
        ],
        "interpretacao": {"calendario": "feriados"},
    },
}


def corpo_processo(esquema: str = "Processo") -> dict[str, Any]:
    """``requestBody`` of ``POST /api/v1/prazos`` (and, ``ProcessoSalvo``, of
    ``POST /api/v1/processos``)."""
    return {
        "requestBody": {
            "required": True,
            "description": "Um processo (veja docs/ciclo.md).",
            "content": {
                "application/json": {
                    "schema": {"$ref": f"#/components/schemas/{esquema}"},
                    "examples": {
                        nome: {"summary": nome, "value": processo}
                        for nome, processo in EXEMPLOS_PROCESSOS.items()
                    },
                }
            },
        }
    }


def corpo_json(esquema: str | dict[str, Any], exemplo: Any) -> dict[str, Any]:
    """``openapi_extra`` of a route whose body is one JSON object: the schema (a component's
    name, or the schema itself) and one example."""
    schema = {"$ref": f"#/components/schemas/{esquema}"} if isinstance(esquema, str) else esquema
    return {
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": schema, "example": exemplo}},
        }
    }


def corpo_caso() -> dict[str, Any]:
    """``requestBody`` of the endpoints that take one case."""
    return {
        "requestBody": {
            "required": True,
            "description": "Um caso do contrato (veja docs/contrato.md). Números podem ser números "
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
    if esquema == "Erro":  # every error is a problem (RFC 9457)
        tipo = "application/problem+json"
    conteudo: dict[str, Any] = {}
    if esquema:
        conteudo = {tipo: {"schema": {"$ref": f"#/components/schemas/{esquema}"}}}
    elif tipo != "application/json":
        conteudo = {tipo: {}}
    return (
        {"description": descricao, "content": conteudo} if conteudo else {"description": descricao}
    )


ERROS = {
    "422": resposta(
        "Entrada inválida: todos os erros de campo do pedido em `erros` (pt-BR, com o campo)",
        "Erro",
    ),
}


def completar(documento: dict[str, Any]) -> dict[str, Any]:
    """Add the contract's schemas to the generated document."""
    componentes = documento.setdefault("components", {}).setdefault("schemas", {})
    componentes.update(esquemas_dos_casos())
    componentes.update(ESQUEMAS_COMUNS)
    componentes.update(esquemas_do_ciclo())
    # FastAPI adds its own (English) validation error schemas; ours replace them
    for nome in ("HTTPValidationError", "ValidationError"):
        componentes.pop(nome, None)
    return documento
