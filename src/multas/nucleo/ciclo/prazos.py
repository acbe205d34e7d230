"""Spec § 6: a processo (a list of dated events) in, its estado and deadlines out.

``calcular_prazos`` is the one function the CLI (``multas prazos calcular``), the API
(``POST /api/v1/prazos``), the stored processes, the lists, the calendar and the page all
call. It is pure: the same processo always gives the same answer, whatever today is.

How each kind of deadline is counted (§ 6, "Counting"):

- *N days* (``recurso``, ``pagamento``): calendar days from the event, the first day excluded
  and the last included, moved to the next business day when the last day is not one
  (Lei 9.784/1999 art. 66; spec § 1) — :func:`multas.nucleo.datas.prazo_em_dias`;
- *N business days* (``retirada_lista``): the Nth business day after the event, its day
  excluded — :func:`multas.nucleo.datas.dias_uteis_depois`;
- *N months* (``limite_reducao``): the event + N months, clamped to the month's end, not
  moved — :func:`multas.nucleo.datas.somar_meses`;
- *N years* (``prescricao``, ``prescricao_cobranca``): the same day and month N years later,
  29/02 → 28/02, not moved — :func:`multas.nucleo.datas.somar_anos`.

The business-day calendar is ``interpretacao.calendario`` (spec § 1): ``expediente`` (the
default: public holidays and federal pontos facultativos) or ``feriados``.

Readings where § 6 is silent (also in ``docs/ciclo.md``):

- ``eventos[i]`` is 0-based, as every other list field of the contract (``cotacoes_diarias[0]``).
- A problem with an event's date (invalid, backwards, not later than a date or a deadline it
  must follow) names ``eventos[i].data``; every other problem with an event names
  ``eventos[i].evento`` (or the unknown key). The first problem in list order is reported.
- ``id`` may be a text or an integer, ``cnpj`` and ``nome`` texts; each is echoed exactly as
  given; ``null`` is the same as absent. The CNPJ is not checked: the processo may come from a
  system that stores it in any layout. ``origem`` (§ 6.3 v4) is ``{"regime", "ano_meta",
  "cnpj"}``, echoed as given; an ``anp`` processo opened for a RenovaBio target gets the avisos
  of :func:`_avisos_da_origem`.
- Among events on the same date as the latest interruption of the prescrição, the later one
  in the list is named as the interruption (the date, and so the deadline, is the same).
- A deadline that would fall after 31/12/9999 is an input error on the date it counts from.
- The avisos are exactly those of § 6, in the order of the events that raise them.

The parts, each in its module and all re-exported here: the data of a processo
(:mod:`multas.nucleo.ciclo.processo`), its reading and validation
(:mod:`multas.nucleo.ciclo.leitura`), the counting of each kind of deadline
(:mod:`multas.nucleo.ciclo.contagem`) and the deadlines of an ``anp`` processo
(:mod:`multas.nucleo.ciclo.anp`); here, the deadlines of the lists, the avisos and the one
function.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace
from datetime import date
from decimal import Decimal
from fractions import Fraction
from typing import Any

from multas.nucleo.ciclo.acao import proxima_acao
from multas.nucleo.ciclo.anp import _Anp
from multas.nucleo.ciclo.contagem import (
    Pausa,
    _dias_corridos,
    _fora_do_calendario,
    _ForaDoCalendario,
    _prazo_dias_uteis,
    fundamento,
    inicio_da_suspensao,
    suspensao_em_vigor,
    vigencia_em,
)
from multas.nucleo.ciclo.devido import devido
from multas.nucleo.ciclo.leitura import ler_processo
from multas.nucleo.ciclo.processo import (
    CALENDARIOS,
    CAMPOS_EVENTO,
    CAMPOS_PROCESSO,
    NAO_TRANSCRITO,
    EventoDatado,
    Prazo,
    Processo,
    Situacao,
)
from multas.nucleo.datas import data_com_dia_da_semana, formatar_data, somar_meses
from multas.nucleo.dinheiro import arredondar, formatar_percentual, por_mes
from multas.nucleo.eventos import CUMPRIDO_POR
from multas.nucleo.legislacao import Legislacao, carregar
from multas.nucleo.rotulos import evento_citado, leitura, prazo_citado

__all__ = [
    "CALENDARIOS",
    "CAMPOS_EVENTO",
    "CAMPOS_PROCESSO",
    "NAO_TRANSCRITO",
    "EventoDatado",
    "Pausa",
    "Prazo",
    "Processo",
    "Situacao",
    "analisar",
    "calcular_prazos",
    "fundamento",
    "ler_processo",
    "situacao",
    "suspensao_em_vigor",
    "vigencia_em",
]


# --- the deadlines of the lists ------------------------------------------------------------


def _prazos_das_listas(processo: Processo, legislacao: Legislacao) -> list[Prazo]:
    """The deadlines of a list's processo (an ``anp`` one has :class:`_Anp`), unsorted; each
    listed once the event it counts from exists."""
    if processo.tipo.nome == "renovabio.lista":
        return _prazos_lista(processo, legislacao)
    return _prazos_balanco(processo, legislacao)


def _prazos_lista(processo: Processo, legislacao: Legislacao) -> list[Prazo]:
    prazos: list[Prazo] = []
    fim_prazo = processo.eventos[0]
    # listed only when the reduction existed on fim_prazo_meta (from 01/01/2025)
    reducao = legislacao.parametro("ciclo.limite_reducao").em(fim_prazo.data)
    if reducao is not None:
        try:
            limite = somar_meses(fim_prazo.data, reducao.inteiro)
        except (OverflowError, ValueError):
            raise _ForaDoCalendario("limite_reducao", fim_prazo.nome) from None
        prazos.append(
            Prazo(
                "limite_reducao",
                limite,
                fundamento(reducao),
                f"{reducao.inteiro} meses a partir do fim do prazo de comprovação "
                f"({formatar_data(fim_prazo.data)}), contados da própria data e ajustados ao "
                f"fim do mês: {data_com_dia_da_semana(limite)}; quitada a meta até esse dia, a multa cai para "
                f"{_fator_da_reducao(legislacao, fim_prazo.data)}, k = meses ou fração desde o fim do prazo; não é prorrogado para dia útil, "
                "porque fecha a janela de meses da redução",
                fim_prazo.nome,
                reducao.texto,
            )
        )
    pedido = processo.evento("pedido_retirada")
    if pedido is not None:
        prazos.append(
            _prazo_dias_uteis(processo, legislacao, "ciclo.retirada_lista_sancoes", pedido)
        )
    return prazos


def _prazos_balanco(processo: Processo, legislacao: Legislacao) -> list[Prazo]:
    adequacao = processo.evento("comprovacao_adequacao")
    if adequacao is None:
        return []
    return [_prazo_dias_uteis(processo, legislacao, "ciclo.retirada_lista_balanco", adequacao)]


# --- the avisos -------------------------------------------------------------------------------

#: the late events of § 6: event → the deadline it is measured against
_ATRASOS = {
    "defesa": "defesa",
    "alegacoes_finais": "alegacoes_finais",
    "ciencia_primeira_instancia": "julgamento",
    "recurso": "recurso",
    "pagamento": "pagamento",
    "retirada_lista": "retirada_lista",
    "quitacao_meta": "limite_reducao",
}

_CONSEQUENCIAS = {
    "defesa": "a defesa foi apresentada fora do prazo",
    "alegacoes_finais": "as alegações finais foram apresentadas fora do prazo",
    "julgamento": "a ciência da decisão veio depois do prazo de julgamento da ANP",
    "recurso": "o recurso foi interposto fora do prazo",
    "pagamento": "a multa é devida com juros e multa de mora "
    "(Decreto nº 2.953/1999, art. 26, parágrafo único); veja o regime anp.mora",
    "pagamento_com_desconto": "o desconto foi perdido, porque a redução de {desconto} "
    "({dispositivo}) só vale no prazo do recurso, e a multa é devida integralmente",
    "retirada_lista": "a ANP retirou o nome da lista depois do prazo",
    "limite_reducao": "a quitação não reduz mais a multa (Decreto nº 9.888/2019, art. 6º-A, § 8º)",
}


def _fator_da_reducao(legislacao: Legislacao, dia: date) -> str:
    """``k/12``: the factor of the reduction in force on ``dia``."""
    return por_mes(vigencia_em(legislacao, "renovabio.distribuidor.reducao", dia).fracao)


def _aviso_art59(prazo: Prazo, legislacao: Legislacao) -> str:
    """The appeal's general deadline, its provision quoted when a shipped source shows it
    (Lei 9.784 art. 59 is transcribed: review 4, W6), else cited as not transcribed."""
    geral = vigencia_em(legislacao, "ciclo.recurso", prazo.data)
    inicio = (
        f"O prazo de recurso ({formatar_data(prazo.data)}) é o prazo geral de {geral.inteiro} "
        f"dias da {geral.dispositivo}"
    )
    if geral.texto is None:
        return (
            f"{inicio} ({NAO_TRANSCRITO}), aplicado quando não há prazo específico; confira se "
            "outra norma fixa prazo próprio."
        )
    return f"{inicio}: “{geral.texto}” Confira se outra norma fixa prazo próprio."


def _consequencia(nome_prazo: str, prazo: Prazo, legislacao: Legislacao) -> str:
    """What being late for a deadline means, its numbers from the parameter in force."""
    desconto = vigencia_em(legislacao, "ciclo.pagamento_com_desconto", prazo.data)
    return _CONSEQUENCIAS[nome_prazo].format(
        desconto=formatar_percentual(desconto.fracao), dispositivo=desconto.dispositivo
    )


def _avisos(processo: Processo, prazos: dict[str, Prazo], legislacao: Legislacao) -> list[str]:
    avisos: list[str] = []
    renunciado = processo.evento("renuncia_recurso") is not None
    for evento in processo.eventos:
        if evento.nome == "pagamento" and evento is not processo.quitacao:
            continue  # spec § 6.2 v4: a partial payment is late in ``devido``, not here
        if evento.nome == "ciencia_primeira_instancia" and "recurso" in prazos:
            avisos.append(_aviso_art59(prazos["recurso"], legislacao))
        nome_prazo = _ATRASOS.get(evento.nome)
        if processo.tipo.nome == "anp" and evento.nome == "pagamento" and renunciado:
            nome_prazo = "pagamento_com_desconto"
        if nome_prazo is None or nome_prazo not in prazos:
            continue
        prazo = prazos[nome_prazo]
        atraso = (evento.data - prazo.data).days
        if atraso > 0:
            aviso = (
                f"O evento {evento_citado(evento.nome)} ({formatar_data(evento.data)}) ocorreu "
                f"{_dias_corridos(atraso)} depois do prazo {prazo_citado(nome_prazo)} "
                f"({formatar_data(prazo.data)}): {_consequencia(nome_prazo, prazo, legislacao)}"
            )
            # § 6 pairs a waived appeal's payment with the discount only; one aviso still
            # says when the payment also came after the vencimento
            vencimento = prazos.get("pagamento")
            if (
                nome_prazo == "pagamento_com_desconto"
                and vencimento
                and evento.data > vencimento.data
            ):
                aviso += (
                    f"; foi também depois do vencimento ({formatar_data(vencimento.data)}), "
                    f"{_dias_corridos((evento.data - vencimento.data).days)} de atraso, com "
                    "juros e multa de mora"
                )
            avisos.append(aviso + ".")
    return avisos


# --- the one function ---------------------------------------------------------------------


def _situacao_do_prazo(
    prazo: Prazo, processo: Processo, referencia: date, lapsos: Collection[str]
) -> str:
    """Spec § 6 v3: the first of cumprido(_com_atraso), encerrado, suspenso, vencido,
    em_aberto on ``referencia``; a lapsed limitation deadline (``lapsos``) is vencido."""
    if prazo.nome in lapsos:
        return "vencido"
    cumpre = CUMPRIDO_POR.get(prazo.nome)
    # spec § 6.2 v4: a payment meets the payment deadlines only when it leaves a zero balance
    evento = (
        processo.quitacao if cumpre == "pagamento" else processo.evento(cumpre) if cumpre else None
    )
    if evento is not None:
        return "cumprido" if evento.data <= prazo.data else "cumprido_com_atraso"
    if prazo.nome == "recurso" and processo.evento("renuncia_recurso") is not None:
        return "encerrado"
    if prazo.nome == "prescricao_cobranca" and processo.quitacao is not None:
        return "encerrado"
    if prazo.nome in ("prescricao", "prescricao_intercorrente"):
        fechamentos = ("ciencia_decisao_definitiva", "renuncia_recurso", "pagamento")
        if any((e := processo.evento(n)) and e.data <= prazo.data for n in fechamentos):
            return "encerrado"
    # spec § 3.7 point 5 (reading vencido-antes-da-suspensao): only a deadline whose date is
    # on or after the start of the suspension in force is suspended; one that had lapsed
    # before the order stays vencido
    inicio = inicio_da_suspensao(processo, referencia)
    if inicio is not None and prazo.data >= inicio:
        return "suspenso"
    return "vencido" if referencia > prazo.data else "em_aberto"


def situacao(
    processo: Processo, legislacao: Legislacao | None = None, hoje: date | None = None
) -> Situacao:
    """Derive the estado, the deadlines and the avisos of a validated processo, judged on its
    ``data_referencia``, else on ``hoje``: the caller's today in Brasília (this module reads
    no clock, so the answer is the same whatever day it runs). A processo with neither date
    is the caller's defect, not the user's."""
    legislacao = legislacao or carregar()
    referencia = processo.data_referencia or hoje
    if referencia is None:
        raise ValueError("processo sem data_referencia: informe hoje, a data do relógio")
    extras: list[str] = []
    prescritos: dict[str, str] = {}
    cobranca_prescrita = None
    try:
        if processo.tipo.nome == "anp":
            anp = _Anp(processo, legislacao, referencia)
            prazos = anp.prazos()
            extras, prescritos = anp.avisos, anp.prescritos
            cobranca_prescrita = anp.cobranca_prescrita
        else:
            prazos = _prazos_das_listas(processo, legislacao)
    except _ForaDoCalendario as erro:
        raise _fora_do_calendario(processo, erro) from None
    lapsos = {*prescritos, *(("prescricao_cobranca",) if cobranca_prescrita else ())}
    prazos = [
        replace(p, situacao=_situacao_do_prazo(p, processo, referencia, lapsos)) for p in prazos
    ]
    prazos.sort(key=lambda p: (p.data, p.nome))
    avisos = _avisos(processo, {p.nome: p for p in prazos}, legislacao) + extras
    avisos += _avisos_da_origem(processo, legislacao, bool(prescritos))
    for nome, como in prescritos.items():
        avisos.append(
            f"Prazo {prazo_citado(nome)} prescrito: {como}; atos posteriores não a fazem renascer."
        )
    expediente = processo.expediente(legislacao)
    contados = [p.data for p in prazos if p.nome not in _PRESCRICOES and p.nome != "limite_reducao"]
    avisos += expediente.avisos(contados)
    a_pagar, avisos_do_devido, plano = devido(processo, legislacao, referencia)
    estado = _estado_dos_eventos(processo)
    if plano is not None:
        # spec § 6.2 v4: each instalment is a deadline (suspended as every deadline is, rule
        # 3); a rescinded plan sets its estado
        inicio = inicio_da_suspensao(processo, referencia)
        prestacoes = [
            replace(p, situacao="suspenso")
            if inicio is not None and p.data >= inicio and p.situacao in ("vencido", "em_aberto")
            else p
            for p in plano.prazos(referencia)
        ]
        prazos = sorted([*prazos, *prestacoes], key=lambda p: (p.data, p.nome))
        estado = _estado_do_plano(processo, estado, plano.rescindido_em, referencia)
    if suspensao_em_vigor(processo, referencia):
        estado = "suspenso"
    if cobranca_prescrita:
        # spec § 3.7 point 6 (cobranca-prescrita): it overrides divida_ativa (and, as
        # prescrito does, suspenso: a lapsed period does not revive)
        estado = "cobranca_prescrita"
    if prescritos:
        estado = "prescrito"
    desconto, aviso_desconto = _valor_com_desconto(processo, prazos, legislacao)
    if aviso_desconto:
        avisos.append(aviso_desconto)
    avisos += avisos_do_devido
    acao = proxima_acao(
        processo,
        estado,
        tuple(prazos),
        referencia,
        legislacao,
        None if plano is None else plano.rescindido_em,
    )
    return Situacao(
        processo, estado, tuple(prazos), tuple(avisos), referencia, desconto, acao, a_pagar
    )


def _estado_dos_eventos(processo: Processo) -> str:
    """The estado the last event sets (spec § 6); a ``pagamento`` that leaves a balance sets
    ``pago_parcialmente``, or keeps ``divida_ativa`` after the inscription (§ 6.2 v4)."""
    ultimo = processo.principais[-1]
    estado = processo.tipo.eventos[ultimo.nome].estado
    if ultimo.nome != "pagamento" or processo.quitacao is not None:
        return estado
    for anterior in ("parcelamento", "inscricao_divida_ativa"):  # the plan's estado stays
        if processo.evento(anterior) is not None:
            return processo.tipo.eventos[anterior].estado
    return "pago_parcialmente"


def _estado_do_plano(
    processo: Processo, estado: str, rescindido_em: date | None, referencia: date
) -> str:
    """Spec § 6.2 v4: ``parcelamento_rescindido`` from the day the rescission is reached; it
    overrides ``parcelado`` (and ``divida_ativa`` when the plan came after the inscription)
    until the balance is zero or a later inscription sets ``divida_ativa``. An inscription
    made while the plan was in force (before its rescission) leaves it in force: ``parcelado``
    (reading of this tool, docs/ciclo.md#parcelamento-no-processo)."""
    inscricao = processo.evento("inscricao_divida_ativa")
    depois_do_plano = inscricao is None or processo.indice("parcelamento") > processo.indice(
        "inscricao_divida_ativa"
    )
    if (
        estado == "divida_ativa"
        and inscricao is not None
        and not depois_do_plano
        and (rescindido_em is None or rescindido_em > inscricao.data)
    ):
        estado, depois_do_plano = "parcelado", True
    if rescindido_em is None or rescindido_em > referencia:
        return estado
    if estado == "parcelado" or (estado == "divida_ativa" and depois_do_plano):
        return "parcelamento_rescindido"
    return estado


def _valor_com_desconto(
    processo: Processo, prazos: list[Prazo], legislacao: Legislacao
) -> tuple[Decimal | None, str | None]:
    """Spec § 6 and § 3.7 W2: with the appeal waived, the discounted amount (``valor_multa``
    less the reduction of Lei nº 9.847/1999 art. 4º § 3º, rounded once) while the discount
    can still be had; once its deadline passed without it paid (the deadline ``vencido``, or
    the payment after it), no amount, and an aviso that the discount was lost (and, without a
    payment, that the full fine is due by the vencimento). A deadline ``suspenso`` keeps it:
    the court order's terms decide."""
    prazo = next((p for p in prazos if p.nome == "pagamento_com_desconto"), None)
    if prazo is None:
        return None, None
    renuncia = processo.evento("renuncia_recurso")
    assert renuncia is not None
    regra = vigencia_em(legislacao, "ciclo.pagamento_com_desconto", renuncia.data)
    if prazo.situacao == "vencido":
        vencimento = next(p for p in prazos if p.nome == "pagamento")
        no_prazo = [e for e in processo.pagamentos if e.data <= prazo.data]
        if processo.desconto == "proporcional" and no_prazo:
            return None, (
                f"Prazo {prazo_citado('pagamento_com_desconto')} ({formatar_data(prazo.data)}) "
                f"encerrado: a redução de {formatar_percentual(regra.fracao)} "
                f"({regra.dispositivo}) valeu só para os pagamentos feitos até ele (leitura "
                f"{leitura('desconto', 'proporcional')}). O restante da multa é devido "
                f"integralmente até o vencimento ({formatar_data(vencimento.data)}), e depois "
                "dele com juros e multa de mora."
            )
        return None, (
            f"Desconto perdido: o prazo {prazo_citado('pagamento_com_desconto')} "
            f"({formatar_data(prazo.data)}) passou sem o pagamento do valor com desconto; "
            f"a redução de {formatar_percentual(regra.fracao)} ({regra.dispositivo}) só vale "
            "no prazo do recurso. A multa é devida integralmente até o vencimento "
            f"({formatar_data(vencimento.data)}), e depois dele com juros e multa de mora."
        )
    if prazo.situacao == "cumprido_com_atraso" or processo.valor_multa is None:
        return None, None  # the late payment's aviso (_avisos) says the discount was lost
    return arredondar(Fraction(processo.valor_multa) * (1 - regra.fracao)), None


def _avisos_da_origem(
    processo: Processo, legislacao: Legislacao, prescrito: bool = False
) -> list[str]:
    """Spec § 6.3 v4: an ``anp`` processo opened for a distributor's RenovaBio target says
    both dates, the deadline (whose wording prices the fine, § 2) and the infração (which
    starts the limitation), § 6.2's reading of Lei 9.847 art. 4º for such a fine and, without
    ``prescricao_penal_anos``, that the penal period may apply (§ 3.7 point 3)."""
    origem = processo.identificacao.get("origem")
    if processo.tipo.nome != "anp" or not origem or not origem["regime"].startswith("renovabio."):
        return []
    avisos = []
    prazo = legislacao.prazo_comprovacao(origem["ano_meta"])
    if processo.prescricao_penal_anos is None:
        avisos.append(_aviso_penal(processo, legislacao, prazo[0] if prazo else None, prescrito))
    infracao = processo.eventos[0].data
    if origem["regime"] == "renovabio.distribuidor" and prazo is not None:
        vencida = prazo[0]
        if infracao == vencida:
            quando = "no próprio prazo (leitura data_infracao_meta = prazo)"
        elif (infracao - vencida).days == 1:
            quando = (
                "no dia seguinte ao prazo, quando o descumprimento se constata (Parecer nº "
                f"00041/2025/PF-ANP, {NAO_TRANSCRITO})"
            )
        else:
            quando = "na data informada"
        avisos.append(
            f"Meta de {origem['ano_meta']}: o prazo de comprovação venceu em "
            f"{formatar_data(vencida)} e a infração é de {formatar_data(infracao)}, {quando}; "
            "dela corre a prescrição (Lei nº 9.873/1999 art. 1º). A multa é calculada pela "
            f"redação em vigor no prazo ({formatar_data(vencida)}), não na data da infração."
        )
    avisos.append(
        "Aplicar a esta multa do RenovaBio (Lei nº 13.576/2017 art. 9º; Decreto nº 9.888/2019 "
        "art. 6º) o art. 4º da Lei nº 9.847/1999 (o prazo de pagamento contado da decisão "
        "definitiva, os encargos de mora e o desconto) é a leitura desta ferramenta: o art. 4º rege a pena "
        "de multa da Lei nº 9.847, e as fontes não dizem que rege esta."
    )
    return avisos


def _aviso_penal(
    processo: Processo, legislacao: Legislacao, vencida: date | None, prescrito: bool
) -> str:
    """Spec § 3.7 point 3 v4 (prescricao-penal): the fact of a RenovaBio target may also be
    the crime of Lei nº 9.605/1998 art. 68 (texto não transcrito), and then Lei nº 9.873/1999
    art. 1º § 2º sends the limitation to the penal period. The wording of Decreto nº 9.888/2019
    art. 6º caput in force at the target's deadline is said to name the crime only when its
    text does (2025: W1, a target due by 31/12/2024 gets the law alone); a prescrito processo
    is told that the claim may survive."""
    infracao = processo.eventos[0].data
    regra = vigencia_em(legislacao, "ciclo.prescricao_penal", infracao)
    anos = vigencia_em(legislacao, "ciclo.prescricao", infracao).inteiro
    periodos = legislacao.parametro("ciclo.prescricao_penal_anos").vigencias[-1]
    caput = legislacao.parametro("renovabio.distribuidor.redacao").em(vencida) if vencida else None
    aviso = (
        f"O fato pode constituir também o crime do art. 68 da Lei nº 9.605/1998 "
        f"({NAO_TRANSCRITO}); se constituir, a prescrição da ação punitiva rege-se pelo prazo "
        f'da lei penal ({regra.dispositivo}: "{regra.texto}"), e não pelos {anos} anos contados '
        "aqui. Se o fato é crime decide aquela lei, não o decreto"
    )
    if caput is not None and caput.texto and "Lei nº 9.605" in caput.texto:
        aviso += (
            f"; o {caput.dispositivo} ({caput.redacao}), aplicável a esta meta, apenas o nomeia"
        )
    opcoes = ", ".join(str(n) for n in periodos.valor)
    aviso += (
        f". Para contar o prazo penal, informe prescricao_penal_anos, um dos prazos do "
        f"{periodos.dispositivo} ({NAO_TRANSCRITO}): {opcoes} anos."
    )
    if prescrito:
        aviso += (
            " O processo está prescrito pelo prazo da ação punitiva contado aqui, mas a "
            "pretensão pode subsistir: se o fato for crime, o prazo penal pode não ter se "
            "consumado."
        )
    return aviso


_PRESCRICOES = frozenset({"prescricao", "prescricao_intercorrente", "prescricao_cobranca"})


def analisar(
    dados: object,
    legislacao: Legislacao | None = None,
    hoje: date | None = None,
    em: date | None = None,
) -> Situacao:
    """Validate a raw processo and derive its situation (spec § 6), on ``em`` when given
    (``--em``, ``?em=``, spec § 6.2 v4: it takes the place of ``data_referencia``)."""
    legislacao = legislacao or carregar()
    processo = ler_processo(dados, legislacao)
    if em is not None:
        processo = replace(processo, data_referencia=em)
    return situacao(processo, legislacao, hoje)


def calcular_prazos(
    dados: object,
    legislacao: Legislacao | None = None,
    hoje: date | None = None,
    em: date | None = None,
) -> dict[str, Any]:
    """Spec § 6: one processo (a JSON object) → ``{tipo, estado, prazos, avisos}``, with
    ``id``, ``cnpj`` and ``nome`` echoed when given.

    >>> r = calcular_prazos({"tipo": "renovabio.balanco", "eventos": [
    ...     {"evento": "inclusao_lista", "data": "2025-04-17"},
    ...     {"evento": "comprovacao_adequacao", "data": "2025-04-28"}],
    ...     "data_referencia": "2025-05-01"})
    >>> r["estado"], [(p["prazo"], p["data"], p["situacao"]) for p in r["prazos"]]
    ('adequacao_comprovada', [('retirada_lista', '2025-05-06', 'em_aberto')])
    """
    return analisar(dados, legislacao, hoje, em).como_dict()
