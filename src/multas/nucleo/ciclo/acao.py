"""Spec § 6.1 v4: the next action of a processo: who must act (``quem``), what
(``o_que``, pt-BR, from ``rotulos.toml``), since when (``desde``) and by when (``ate``), and
on what basis (``fundamento``); ``None`` when nothing remains.

Readings where § 6.1 is silent (also in ``docs/ciclo.md``):

- ``desde`` is the date of the event that set the estado; of the court suspension in force
  (``suspenso``); the day after the first limitation date that lapsed (``prescrito``); the day
  after a lapsed deadline when the action passed on from it.
- ``ate``, when the action has no deadline of its own, is the running limitation date the
  actor must beat: the first of ``prescricao_intercorrente``, ``prescricao`` and
  ``prescricao_cobranca`` still pending (§ 6.1); ``null`` when none is. The Procuradoria's
  collection (``divida_ativa``) is bound the same way, by ``prescricao_cobranca``.
- ``fundamento`` is the provision of the deadline ``ate`` names; where the action has its own
  provision (encaminhar para Dívida Ativa, art. 27; arquivar, Lei nº 9.873/1999 art. 1º § 1º;
  the lists' acts with no deadline), that provision, from the parameters.
- ``cobranca_prescrita`` (spec § 3.7 point 6) has no action: § 6.1 gives it ``null``, as
  ``pago``. ``pago_parcialmente`` (§ 6.2) asks the autuado for the balance by the vencimento;
  ``parcelado``, for the next instalment not paid, by its due date; ``parcelamento_rescindido``
  passes to the Procuradoria, as ``divida_ativa``.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date, timedelta

from multas.nucleo.ciclo.contagem import fundamento, vigencia_em
from multas.nucleo.ciclo.processo import Prazo, Processo, ProximaAcao
from multas.nucleo.eventos import PREFIXO_PARCELA
from multas.nucleo.legislacao import Legislacao
from multas.nucleo.rotulos import fundamento_de_acao, o_que

#: the limitation dates an action without a deadline of its own must beat, in order (§ 6.1)
_LIMITES = ("prescricao_intercorrente", "prescricao", "prescricao_cobranca")
#: the events after which ``em_julgamento`` asks only for the judgement (§ 6.1)
_PARA_JULGAR = ("alegacoes_finais", "remessa_julgamento")


#: (tipo, estado) → (quem, action, its own deadline or None, the provision of an action with
#: no deadline of its own, as a parameter's name, or None)
_ACOES: dict[tuple[str, str], tuple[str, str, str | None, str | None]] = {
    ("anp", "apuracao"): ("anp", "lavrar_auto", None, None),
    ("anp", "defesa"): ("autuado", "apresentar_defesa", "defesa", None),
    ("anp", "alegacoes_finais"): ("autuado", "apresentar_alegacoes", "alegacoes_finais", None),
    ("anp", "decidido_primeira_instancia"): ("autuado", "recorrer", "recurso", None),
    ("anp", "em_recurso"): ("anp", "julgar_recurso", None, None),
    ("anp", "recurso_renunciado"): (
        "autuado",
        "pagar_com_desconto",
        "pagamento_com_desconto",
        None,
    ),
    ("anp", "aguardando_pagamento"): ("autuado", "pagar", "pagamento", None),
    ("anp", "pago_parcialmente"): ("autuado", "pagar_saldo", "pagamento", None),
    ("anp", "parcelamento_rescindido"): ("procuradoria", "cobrar", None, None),
    ("anp", "divida_ativa"): ("procuradoria", "cobrar", None, None),
    ("anp", "prescrito"): ("anp", "arquivar", None, "ciclo.prescricao_intercorrente"),
    ("renovabio.lista", "inadimplente"): (
        "anp",
        "decidir_primeira_instancia",
        None,
        "ciclo.lista_sancoes",
    ),
    ("renovabio.lista", "sancionado"): ("anp", "incluir_lista", None, "ciclo.lista_sancoes"),
    ("renovabio.lista", "na_lista"): (
        "autuado",
        "quitar_e_pedir",
        None,
        "ciclo.retirada_lista_sancoes",
    ),
    ("renovabio.lista", "meta_quitada"): (
        "autuado",
        "pedir_retirada",
        None,
        "ciclo.retirada_lista_sancoes",
    ),
    ("renovabio.lista", "retirada_solicitada"): ("anp", "retirar_lista", "retirada_lista", None),
    ("renovabio.balanco", "na_lista"): (
        "autuado",
        "comprovar_adequacao",
        None,
        "ciclo.retirada_lista_balanco",
    ),
    ("renovabio.balanco", "adequacao_comprovada"): (
        "anp",
        "retirar_lista",
        "retirada_lista",
        None,
    ),
}

#: a party's lapsed deadline → the ANP's action that follows it (§ 6.1), its own deadline or
#: None (then the running limitation date), and its own provision or None
_PASSA_A_ANP: dict[str, tuple[str, str | None, str | None]] = {
    "defesa": ("instruir_e_julgar", None, None),
    "alegacoes_finais": ("julgar", "julgamento", None),
    "recurso": ("notificar_definitiva", None, None),
    "pagamento": ("encaminhar_divida_ativa", None, "anp.divida_ativa"),
}


def _dia_seguinte(dia: date) -> date:
    """The day after ``dia`` (31/12/9999 stays: no later date exists)."""
    return dia if dia == date.max else dia + timedelta(days=1)


def _provisao(legislacao: Legislacao, parametro: str, dia: date) -> str:
    return fundamento(vigencia_em(legislacao, parametro, dia))


def _limite(prazos: Mapping[str, Prazo]) -> Prazo | None:
    """The running limitation date: the first of :data:`_LIMITES` still pending."""
    for nome in _LIMITES:
        prazo = prazos.get(nome)
        if prazo is not None and prazo.situacao in ("em_aberto", "suspenso"):
            return prazo
    return None


def _acao(
    quem: str,
    texto: str,
    desde: date,
    prazo: Prazo | None,
    provisao: str | None,
    legislacao: Legislacao,
    reserva: str,
) -> ProximaAcao:
    """``reserva``: the basis when neither a provision nor a deadline gives one (the tipo's
    laws)."""
    if provisao is not None:
        base = _provisao(legislacao, provisao, desde)
    elif prazo is not None:
        base = prazo.fundamento
    else:
        base = reserva
    return ProximaAcao(
        quem,
        texto,
        desde,
        prazo.data if prazo else None,
        base,
        prazo.nome if prazo else None,
    )


def proxima_acao(
    processo: Processo,
    estado: str,
    prazos: tuple[Prazo, ...],
    referencia: date,
    legislacao: Legislacao,
    rescindido_em: date | None = None,
) -> ProximaAcao | None:
    """Spec § 6.1 v4: the next action of a processo in ``estado`` with its ``prazos`` (their
    ``situacao`` judged on ``referencia``); ``None`` when nothing remains. ``rescindido_em``:
    the day a plan was rescinded (spec § 6.2 v4), from which the procuradoria acts."""
    por_nome = {p.nome: p for p in prazos}
    ultimo = processo.principais[-1]
    reserva = processo.tipo.fundamento
    if estado == "suspenso":
        suspensao = [
            e for e in processo.eventos if e.nome == "suspensao_judicial" and e.data <= referencia
        ]
        desde = suspensao[-1].data if suspensao else ultimo.data
        return ProximaAcao(
            "judiciario", o_que("aguardar_judicial"), desde, None, fundamento_de_acao("suspensao")
        )
    if estado == "prescrito":
        lapsos = [p.data for p in prazos if p.nome in _LIMITES and p.situacao == "vencido"]
        desde = _dia_seguinte(min(lapsos)) if lapsos else ultimo.data
        return _acao(
            "anp",
            o_que("arquivar"),
            desde,
            None,
            "ciclo.prescricao_intercorrente",
            legislacao,
            reserva,
        )
    tipo = processo.tipo.nome
    if tipo == "anp" and estado == "em_julgamento":
        if any(processo.evento(n) for n in _PARA_JULGAR):
            return _acao(
                "anp",
                o_que("julgar"),
                ultimo.data,
                por_nome.get("julgamento"),
                None,
                legislacao,
                reserva,
            )
        return _acao(
            "anp",
            o_que("instruir_e_julgar"),
            ultimo.data,
            _limite(por_nome),
            None,
            legislacao,
            reserva,
        )
    if tipo == "anp" and estado == "parcelado":
        # spec § 6.2 v4: the next instalment not paid, the autuado's
        prestacao = next(
            (p for p in prazos if p.nome.startswith(PREFIXO_PARCELA) and p.pendente), None
        )
        if prestacao is not None:
            # from the day after the instalment before it fell due (the plan's day, for the
            # first): never after the day it is due
            anteriores = [
                p.data
                for p in prazos
                if p.nome.startswith(PREFIXO_PARCELA) and p.data < prestacao.data
            ]
            plano = next(e for e in reversed(processo.eventos) if e.nome == "parcelamento")
            desde = _dia_seguinte(max(anteriores)) if anteriores else plano.data
            return _acao(
                "autuado",
                o_que("pagar_prestacao"),
                min(desde, prestacao.data),
                prestacao,
                None,
                legislacao,
                reserva,
            )
    regra = _ACOES.get((tipo, estado))
    if regra is None:
        return None
    quem, acao, nome_prazo, provisao = regra
    prazo = por_nome.get(nome_prazo) if nome_prazo else None
    desde = ultimo.data
    if estado == "parcelamento_rescindido" and rescindido_em is not None:
        desde = rescindido_em
    if nome_prazo is None and provisao is None:
        prazo = _limite(por_nome)
    if prazo is not None and prazo.nome == "pagamento_com_desconto" and prazo.situacao == "vencido":
        # the discount's deadline passed: the full fine, by the vencimento
        desde = _dia_seguinte(prazo.data)
        prazo = por_nome.get("pagamento")
        acao = "pagar_multa"
    if prazo is not None and prazo.responsavel == "autuado" and prazo.situacao == "vencido":
        return _passa_a_anp(prazo, por_nome, legislacao, reserva)
    return _acao(quem, o_que(acao), desde, prazo, provisao, legislacao, reserva)


def _passa_a_anp(
    vencido: Prazo, prazos: Mapping[str, Prazo], legislacao: Legislacao, reserva: str
) -> ProximaAcao:
    """A party's lapsed deadline hands the action to the ANP (§ 6.1), from the day after."""
    acao, nome_prazo, provisao = _PASSA_A_ANP[vencido.nome]
    prazo = prazos.get(nome_prazo) if nome_prazo else _limite(prazos)
    desde = _dia_seguinte(vencido.data)
    return _acao("anp", o_que(acao, vencido.nome), desde, prazo, provisao, legislacao, reserva)
