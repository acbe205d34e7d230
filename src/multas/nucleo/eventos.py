"""The three kinds of processo of spec § 6, their events and the order rules, as data.

Each event says which events must come before it (``depois_de``: "after E" in § 6 means later
in the list and on or after E's date; since the dates of a processo never go backwards, an
event earlier in the list is always on or before it), which event excludes it, whether
nothing may follow it, and the dates it must be strictly later than. The same tables drive
the validation (:mod:`multas.nucleo.ciclo.prazos`), the forms for the next event on the page and the
documentation.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Evento:
    nome: str
    #: what the event is, in pt-BR
    rotulo: str
    #: the estado after it (§ 6: "estado is set by the last event")
    estado: str
    #: the estado, in pt-BR
    estado_rotulo: str
    #: required and first
    primeiro: bool = False
    #: events that must come before it in the list
    depois_de: tuple[str, ...] = ()
    #: events it cannot coexist with ("one of them at most")
    exclui: tuple[str, ...] = ()
    #: nothing may come after it
    terminal: bool = False
    #: events whose date it must be strictly later than
    data_posterior_a: tuple[str, ...] = ()
    #: deadlines whose date it must be strictly later than ("after a deadline")
    depois_do_prazo: tuple[str, ...] = ()
    #: at least one of these events must come before it
    depois_de_algum: tuple[str, ...] = ()
    #: it cannot come once any of these is in the list ("before E")
    antes_de: tuple[str, ...] = ()
    #: its date is on or after the first version of this parameter (the provision that
    #: created what the event records)
    desde: str | None = None
    #: a court suspension or its end: repeatable, alternating, never sets the estado
    suspensao: bool = False
    #: it may come more than once (spec § 6.2 v4: ``pagamento``)
    repete: bool = False
    #: the events that may still follow a ``terminal`` one (v4: ``pagamento`` after the
    #: Dívida Ativa inscription)
    seguem: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Tipo:
    nome: str
    titulo: str
    fundamento: str
    eventos: dict[str, Evento]

    @property
    def primeiro(self) -> Evento:
        return next(e for e in self.eventos.values() if e.primeiro)


#: the court suspension events of every tipo (spec § 6 v3)
SUSPENSOES = (
    Evento(
        "suspensao_judicial",
        "suspensão do processo por ordem judicial",
        "suspenso",
        "suspenso por ordem judicial",
        suspensao=True,
    ),
    Evento(
        "fim_suspensao_judicial",
        "fim da suspensão judicial",
        "suspenso",
        "suspenso por ordem judicial",
        suspensao=True,
    ),
)


def _tabela(*eventos: Evento) -> dict[str, Evento]:
    return {e.nome: e for e in (*eventos, *SUSPENSOES)}


ANP = Tipo(
    nome="anp",
    titulo="Processo sancionador da ANP",
    fundamento="Decreto nº 2.953/1999; Lei nº 9.847/1999; Lei nº 9.784/1999",
    eventos=_tabela(
        Evento("infracao", "infração", "apuracao", "em apuração", primeiro=True),
        Evento(
            "auto_infracao",
            "ciência do auto de infração (citação)",
            "defesa",
            "em defesa",
            depois_de=("infracao",),
        ),
        Evento(
            "defesa",
            "defesa escrita",
            "em_julgamento",
            "em julgamento",
            depois_de=("auto_infracao",),
            antes_de=("ciencia_primeira_instancia",),
        ),
        Evento(
            "intimacao_alegacoes_finais",
            "intimação para alegações finais",
            "alegacoes_finais",
            "em alegações finais",
            depois_de=("auto_infracao",),
            antes_de=("ciencia_primeira_instancia",),
        ),
        Evento(
            "alegacoes_finais",
            "alegações finais",
            "em_julgamento",
            "em julgamento",
            depois_de=("intimacao_alegacoes_finais",),
            antes_de=("ciencia_primeira_instancia",),
        ),
        Evento(
            "remessa_julgamento",
            "remessa do processo à autoridade julgadora",
            "em_julgamento",
            "em julgamento",
            depois_de=("auto_infracao",),
            antes_de=("ciencia_primeira_instancia",),
        ),
        Evento(
            "ciencia_primeira_instancia",
            "ciência da decisão de primeira instância",
            "decidido_primeira_instancia",
            "decidido em primeira instância",
            depois_de=("auto_infracao",),
        ),
        Evento(
            "recurso",
            "recurso",
            "em_recurso",
            "em recurso",
            depois_de=("ciencia_primeira_instancia",),
            exclui=("renuncia_recurso",),
            antes_de=("ciencia_decisao_definitiva",),
        ),
        Evento(
            "renuncia_recurso",
            "renúncia expressa ao recurso",
            "recurso_renunciado",
            "recurso renunciado",
            depois_de=("ciencia_primeira_instancia",),
            exclui=("recurso",),
            antes_de=("ciencia_decisao_definitiva",),
        ),
        Evento(
            "ciencia_decisao_definitiva",
            "ciência da decisão definitiva",
            "aguardando_pagamento",
            "aguardando pagamento",
            depois_de=("ciencia_primeira_instancia",),
        ),
        Evento(
            "pagamento",
            "pagamento",
            "pago",
            "pago",
            depois_de=("ciencia_primeira_instancia",),
            # spec § 6.2 v4: nothing after the payment that leaves a zero balance
            # (Processo.quitado_em), and payments may repeat
            repete=True,
        ),
        Evento(
            "inscricao_divida_ativa",
            "inscrição em Dívida Ativa",
            "divida_ativa",
            "inscrito em Dívida Ativa",
            depois_de_algum=("ciencia_decisao_definitiva", "renuncia_recurso"),
            depois_do_prazo=("pagamento",),
            terminal=True,
            seguem=("pagamento", "parcelamento"),
        ),
        # spec § 6.2 v4: once the decision is definitive, before a zero balance, before or
        # after the inscription (the one inscription may also come after it)
        Evento(
            "parcelamento",
            "parcelamento (Lei nº 10.522/2002, art. 37-B)",
            "parcelado",
            "parcelado",
            depois_de_algum=("ciencia_decisao_definitiva", "renuncia_recurso"),
        ),
    ),
)

LISTA = Tipo(
    nome="renovabio.lista",
    titulo="Lista de sanções do RenovaBio (Decreto nº 9.888/2019, art. 6º-A)",
    fundamento="Decreto nº 9.888/2019, art. 6º-A (incluído pelo Decreto nº 12.437/2025)",
    eventos=_tabela(
        Evento(
            "fim_prazo_meta",
            "fim do prazo de comprovação da meta (art. 4º-A), não cumprido",
            "inadimplente",
            "inadimplente",
            primeiro=True,
            desde="ciclo.lista_sancoes_metas",
        ),
        Evento(
            "decisao_primeira_instancia",
            "decisão de primeira instância",
            "sancionado",
            "sancionado em primeira instância",
            depois_de=("fim_prazo_meta",),
        ),
        Evento(
            "inclusao_lista",
            "inclusão na lista de sanções",
            "na_lista",
            "na lista de sanções",
            depois_de=("decisao_primeira_instancia",),
            desde="ciclo.lista_sancoes",
        ),
        Evento(
            "quitacao_meta",
            "quitação da meta",
            "meta_quitada",
            "meta quitada",
            depois_de=("fim_prazo_meta",),
            data_posterior_a=("fim_prazo_meta",),
        ),
        Evento(
            "pedido_retirada",
            "pedido de retirada da lista",
            "retirada_solicitada",
            "retirada solicitada",
            depois_de=("inclusao_lista", "quitacao_meta"),
        ),
        Evento(
            "retirada_lista",
            "retirada da lista",
            "fora_da_lista",
            "fora da lista",
            depois_de=("pedido_retirada",),
            terminal=True,
        ),
    ),
)

BALANCO = Tipo(
    nome="renovabio.balanco",
    titulo="Lista de balanço de biodiesel inconsistente (Decreto nº 9.888/2019, art. 9º-A)",
    fundamento="Decreto nº 9.888/2019, art. 9º-A (incluído pelo Decreto nº 12.437/2025)",
    eventos=_tabela(
        Evento(
            "inclusao_lista",
            "inclusão na lista de balanço inconsistente",
            "na_lista",
            "na lista",
            primeiro=True,
            desde="ciclo.lista_balanco",
        ),
        Evento(
            "comprovacao_adequacao",
            "comprovação da adequação do balanço",
            "adequacao_comprovada",
            "adequação comprovada",
            depois_de=("inclusao_lista",),
        ),
        Evento(
            "retirada_lista",
            "retirada da lista",
            "fora_da_lista",
            "fora da lista",
            depois_de=("comprovacao_adequacao",),
            terminal=True,
        ),
    ),
)

TIPOS: dict[str, Tipo] = {t.nome: t for t in (ANP, LISTA, BALANCO)}

#: the estados no event sets, which § 6's rules derive and which override the tables (``suspenso``
#: is the suspension events' own), in pt-BR: ``prescrito`` (spec § 6 v3) and
#: ``cobranca_prescrita`` (spec § 3.7 point 6 v4)
ESTADOS_DERIVADOS: dict[str, str] = {
    "pago_parcialmente": "pago parcialmente",
    "parcelamento_rescindido": "parcelamento rescindido",
    "prescrito": "prescrito",
    "cobranca_prescrita": "cobrança prescrita",
}
#: every estado a processo may be in: the tables' and the derived ones, sorted
ESTADOS: tuple[str, ...] = tuple(
    sorted(
        {e.estado for tipo in TIPOS.values() for e in tipo.eventos.values()}
        | set(ESTADOS_DERIVADOS)
    )
)

#: each deadline, in pt-BR
ROTULOS_PRAZOS: dict[str, str] = {
    "defesa": "Defesa escrita",
    "alegacoes_finais": "Alegações finais",
    "julgamento": "Julgamento em primeira instância pela ANP",
    "prescricao": "Prescrição da ação punitiva",
    "prescricao_intercorrente": "Prescrição do processo paralisado (intercorrente)",
    "prescricao_cobranca": "Prescrição da cobrança",
    "recurso": "Recurso",
    "pagamento_com_desconto": "Pagamento com redução (renúncia ao recurso)",
    "pagamento": "Pagamento (vencimento)",
    "limite_reducao": "Último dia em que a quitação reduz a multa",
    "retirada_lista": "Retirada da lista pela ANP",
}

#: who must act by each deadline (spec § 6 v3, ``responsavel``): the fined party, or the ANP
#: (the limitation periods run against it)
RESPONSAVEIS: dict[str, str] = {
    "defesa": "autuado",
    "alegacoes_finais": "autuado",
    "julgamento": "anp",
    "prescricao": "anp",
    "prescricao_intercorrente": "anp",
    "prescricao_cobranca": "anp",
    "recurso": "autuado",
    "pagamento_com_desconto": "autuado",
    "pagamento": "autuado",
    "limite_reducao": "autuado",
    "retirada_lista": "anp",
}

#: spec § 6.2 v4: each instalment of a parcelamento is a deadline, ``parcela_1`` …, the
#: autuado's
PREFIXO_PARCELA = "parcela_"


def rotulo_do_prazo(nome: str) -> str:
    """A deadline's pt-BR label (an instalment's, by its number).

    >>> rotulo_do_prazo("parcela_3"), rotulo_do_prazo("recurso")
    ('Prestação 3 do parcelamento', 'Recurso')
    """
    if nome.startswith(PREFIXO_PARCELA):
        return f"Prestação {nome.removeprefix(PREFIXO_PARCELA)} do parcelamento"
    return ROTULOS_PRAZOS[nome]


def responsavel_do_prazo(nome: str) -> str:
    return "autuado" if nome.startswith(PREFIXO_PARCELA) else RESPONSAVEIS[nome]


#: the event that meets each deadline (``cumprido`` / ``cumprido_com_atraso``)
CUMPRIDO_POR: dict[str, str] = {
    "defesa": "defesa",
    "alegacoes_finais": "alegacoes_finais",
    "julgamento": "ciencia_primeira_instancia",
    "recurso": "recurso",
    "pagamento_com_desconto": "pagamento",
    "pagamento": "pagamento",
    "limite_reducao": "quitacao_meta",
    "retirada_lista": "retirada_lista",
}

#: the situações of a deadline (spec § 6 v3), in pt-BR
SITUACOES: dict[str, str] = {
    "cumprido": "cumprido",
    "cumprido_com_atraso": "cumprido com atraso",
    "encerrado": "encerrado",
    "suspenso": "suspenso",
    "vencido": "vencido",
    "em_aberto": "em aberto",
}
#: the situações in which a deadline still asks something of someone
PENDENTES = frozenset({"vencido", "em_aberto", "suspenso"})
