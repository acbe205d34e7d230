"""Spec § 6 (v3) as properties (hypothesis): an oracle written from the spec's tables and rules
decides which event lists are valid and what each valid one gives (estado, deadlines, their
dates, responsavel and situacao on ``data_referencia``); the engine must agree on every list,
in any order, and keep the legal invariants. Every processo carries an explicit
``data_referencia``: no property depends on today's date."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from multas import calcular
from multas.nucleo.calendario import Expediente
from multas.nucleo.ciclo import calcular_prazos
from multas.nucleo.datas import Calendario, dias_uteis_depois, meses_ou_fracao, prazo_em_dias
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.json_exato import despejar_json, ler_json
from multas.nucleo.legislacao import carregar

# --- the oracle: § 6's tables, written again here from the spec ------------------------------

SUSPENSAO = "suspensao_judicial"
FIM_SUSPENSAO = "fim_suspensao_judicial"
#: the court suspension events, in every tipo: after the first event, alternating, starting
#: with the suspension; they set no estado and "nothing after it" ignores them
SUSPENSOES = (SUSPENSAO, FIM_SUSPENSAO)


@dataclass(frozen=True)
class Regra:
    """One row of a § 6 table."""

    estado: str
    #: required, first
    primeiro: bool = False
    #: events that must come before it ("after E")
    depois_de: tuple[str, ...] = ()
    #: at least one of these must come before it
    depois_de_algum: tuple[str, ...] = ()
    #: events it cannot follow ("one of them at most", "before E")
    nao_depois_de: tuple[str, ...] = ()
    #: nothing (but a suspension) after it
    terminal: bool = False
    #: its date is on or after this one (v3: the 2025 lists)
    desde: date | None = None
    #: the events that may still follow a terminal one (v4: a payment after the inscription)
    seguem: tuple[str, ...] = ()


LISTA_DE_SANCOES = date(2025, 4, 17)  # Decreto 12.437/2025
METAS_DE_2025 = date(2025, 1, 1)  # targets due after 31/12/2024

TABELAS: dict[str, dict[str, Regra]] = {
    "anp": {
        "infracao": Regra("apuracao", primeiro=True),
        "auto_infracao": Regra("defesa", depois_de=("infracao",)),
        "defesa": Regra(
            "em_julgamento",
            depois_de=("auto_infracao",),
            nao_depois_de=("ciencia_primeira_instancia",),
        ),
        "ciencia_primeira_instancia": Regra(
            "decidido_primeira_instancia", depois_de=("auto_infracao",)
        ),
        "recurso": Regra(
            "em_recurso",
            depois_de=("ciencia_primeira_instancia",),
            nao_depois_de=("renuncia_recurso", "ciencia_decisao_definitiva"),
        ),
        "renuncia_recurso": Regra(
            "recurso_renunciado",
            depois_de=("ciencia_primeira_instancia",),
            nao_depois_de=("recurso", "ciencia_decisao_definitiva"),
        ),
        "ciencia_decisao_definitiva": Regra(
            "aguardando_pagamento", depois_de=("ciencia_primeira_instancia",)
        ),
        "pagamento": Regra("pago", depois_de=("ciencia_primeira_instancia",), terminal=True),
        "inscricao_divida_ativa": Regra(
            "divida_ativa",
            depois_de_algum=("ciencia_decisao_definitiva", "renuncia_recurso"),
            terminal=True,
            seguem=("pagamento",),
        ),
    },
    "renovabio.lista": {
        "fim_prazo_meta": Regra("inadimplente", primeiro=True, desde=METAS_DE_2025),
        "decisao_primeira_instancia": Regra("sancionado", depois_de=("fim_prazo_meta",)),
        "inclusao_lista": Regra(
            "na_lista", depois_de=("decisao_primeira_instancia",), desde=LISTA_DE_SANCOES
        ),
        "quitacao_meta": Regra("meta_quitada", depois_de=("fim_prazo_meta",)),
        "pedido_retirada": Regra(
            "retirada_solicitada", depois_de=("inclusao_lista", "quitacao_meta")
        ),
        "retirada_lista": Regra("fora_da_lista", depois_de=("pedido_retirada",), terminal=True),
    },
    "renovabio.balanco": {
        "inclusao_lista": Regra("na_lista", primeiro=True, desde=LISTA_DE_SANCOES),
        "comprovacao_adequacao": Regra("adequacao_comprovada", depois_de=("inclusao_lista",)),
        "retirada_lista": Regra(
            "fora_da_lista", depois_de=("comprovacao_adequacao",), terminal=True
        ),
    },
}
#: every event name each tipo accepts
NOMES: dict[str, list[str]] = {t: sorted([*TABELAS[t], *SUSPENSOES]) for t in TABELAS}
CALENDARIOS: tuple[Calendario, ...] = ("expediente", "feriados")

Eventos = list[tuple[str, date]]


@dataclass(frozen=True)
class Caso:
    tipo: str
    eventos: Eventos
    calendario: Calendario
    referencia: date
    valor_multa: Decimal | None = field(default=None)

    def com(self, eventos: Eventos) -> Caso:
        return replace(self, eventos=eventos)


def vencimento_do_pagamento(vistos: dict[str, date], calendario: Calendario) -> date:
    """30 days from ciencia_decisao_definitiva, or, without it, from renuncia_recurso."""
    origem = vistos.get("ciencia_decisao_definitiva", vistos.get("renuncia_recurso"))
    assert origem is not None
    return prazo_em_dias(origem, 30, Expediente(carregar().calendario, calendario))[1]


DEFINITIVA = "ciencia_decisao_definitiva"


def primeiro_erro(tipo: str, eventos: Eventos, calendario: Calendario) -> int | None:
    """The index of the first event § 6 refuses, or None when the whole list is valid."""
    tabela = TABELAS[tipo]
    vistos: dict[str, date] = {}
    suspenso = False
    for i, (nome, dia) in enumerate(eventos):
        if i and dia < eventos[i - 1][1]:
            return i
        if nome in SUSPENSOES:
            # after the first event; alternating, starting with suspensao_judicial
            if i == 0 or suspenso != (nome == FIM_SUSPENSAO):
                return i
            suspenso = not suspenso
            continue
        regra = tabela[nome]
        # a payment without valor settles, so it is terminal (v4: one with valor may repeat)
        if nome in vistos or any(
            tabela[n].terminal and nome not in tabela[n].seguem for n in vistos
        ):
            return i
        if (i == 0) != regra.primeiro:
            return i
        if any(a not in vistos for a in regra.depois_de):
            return i
        if regra.depois_de_algum and not any(a in vistos for a in regra.depois_de_algum):
            return i
        if any(x in vistos for x in regra.nao_depois_de):
            return i
        if regra.desde is not None and dia < regra.desde:
            return i
        if nome == "quitacao_meta" and dia <= vistos["fim_prazo_meta"]:
            return i
        if nome == "inscricao_divida_ativa" and dia <= vencimento_do_pagamento(vistos, calendario):
            return i
        vistos[nome] = dia
    return None


# --- the oracle: § 6's deadlines and situações (v3) ------------------------------------------

UM_DIA = timedelta(days=1)
#: who must act by each deadline
RESPONSAVEL = {
    "defesa": "autuado",
    "recurso": "autuado",
    "pagamento_com_desconto": "autuado",
    "pagamento": "autuado",
    "limite_reducao": "autuado",
    "retirada_lista": "anp",
    "prescricao": "anp",
    "prescricao_intercorrente": "anp",
    "prescricao_cobranca": "anp",
}
#: the event that meets each deadline
CUMPRIDO_POR = {
    "defesa": "defesa",
    "recurso": "recurso",
    "pagamento_com_desconto": "pagamento",
    "pagamento": "pagamento",
    "limite_reducao": "quitacao_meta",
    "retirada_lista": "retirada_lista",
}
#: the deadlines whose date never moves once listed (the limitation periods move with
#: interruptions and court suspensions; `pagamento` moves when ciencia_decisao_definitiva
#: follows renuncia_recurso)
FIXOS = ("defesa", "recurso", "pagamento_com_desconto", "limite_reducao", "retirada_lista")
PRESCRICOES = ("prescricao", "prescricao_intercorrente", "prescricao_cobranca")


def mais_anos(dia: date, anos: int) -> date:
    """The same day and month; 29/02 without a 29/02 is 01/03 (Lei 810/1949 art. 3º)."""
    try:
        return dia.replace(year=dia.year + anos)
    except ValueError:
        return date(dia.year + anos, 3, 1)


def mais_meses(dia: date, meses: int) -> date:
    """A + N months, clamped to the month's end (§ 1)."""
    ano, mes = divmod(dia.month - 1 + meses, 12)
    ano += dia.year
    mes += 1
    for d in range(dia.day, 0, -1):
        try:
            return date(ano, mes, d)
        except ValueError:
            continue
    raise AssertionError(dia)


def em_vigor(eventos: Eventos, dia: date) -> date | None:
    """The start of the court suspension in force on `dia` (the last suspension event on or
    before it is suspensao_judicial), else None."""
    ultimo = [(n, d) for n, d in eventos if n in SUSPENSOES and d <= dia]
    return ultimo[-1][1] if ultimo and ultimo[-1][0] == SUSPENSAO else None


def intervalos_suspensos(eventos: Eventos, referencia: date) -> list[tuple[date, date]]:
    """The court suspensions as [start, end): the end's day excluded; an open one lasts up to
    data_referencia, included."""
    intervalos: list[tuple[date, date]] = []
    aberta: date | None = None
    for nome, dia in eventos:
        if nome == SUSPENSAO:
            aberta = dia
        elif nome == FIM_SUSPENSAO:
            assert aberta is not None
            intervalos.append((aberta, dia))
            aberta = None
    if aberta is not None:
        intervalos.append((aberta, max(aberta, referencia + UM_DIA)))
    return intervalos


def dias_pausados(pausas: list[tuple[date, date]], inicio: date, fim: date) -> int:
    """The days d with inicio < d <= fim in the union of `pausas` (a day paused twice counts
    once)."""
    total = 0
    cursor = inicio + UM_DIA
    for a, b in sorted(pausas):
        de, ate = max(a, cursor), min(b, fim + UM_DIA)
        if de < ate:
            total += (ate - de).days
            cursor = ate
    return total


def prescricao_em(inicio: date, anos: int, pausas: list[tuple[date, date]]) -> date:
    """The nominal end plus the paused days after the start, up to the extended date."""
    nominal = mais_anos(inicio, anos)
    fim = nominal
    while (novo := nominal + timedelta(days=dias_pausados(pausas, inicio, fim))) != fim:
        fim = novo
    return fim


@dataclass
class Esperado:
    estado: str
    #: deadline → (date, responsavel, situacao)
    prazos: dict[str, tuple[str, str, str]]
    valor_com_desconto: str | None


def esperado(caso: Caso) -> Esperado:
    """What § 6 v3 says a valid processo gives."""
    tipo, eventos, ref = caso.tipo, caso.eventos, caso.referencia
    cal = Expediente(carregar().calendario, caso.calendario)
    principais = [(n, d) for n, d in eventos if n not in SUSPENSOES]
    ev = dict(principais)
    pausas = intervalos_suspensos(eventos, ref)
    datas: dict[str, date] = {}
    prescritos: set[str] = set()
    encerrados: set[str] = set()
    if tipo == "anp":
        if "auto_infracao" in ev:
            datas["defesa"] = prazo_em_dias(ev["auto_infracao"], 15, cal)[1]
        if "ciencia_primeira_instancia" in ev:
            datas["recurso"] = prazo_em_dias(ev["ciencia_primeira_instancia"], 10, cal)[1]
        if "renuncia_recurso" in ev:
            datas["pagamento_com_desconto"] = datas["recurso"]
            encerrados.add("recurso")
        if "ciencia_decisao_definitiva" in ev or "renuncia_recurso" in ev:
            datas["pagamento"] = vencimento_do_pagamento(ev, caso.calendario)
            pausas_cobranca = list(pausas)
            if "inscricao_divida_ativa" in ev:
                inscricao = ev["inscricao_divida_ativa"]
                pausas_cobranca.append((inscricao, inscricao + timedelta(days=180)))
            datas["prescricao_cobranca"] = prescricao_em(datas["pagamento"], 5, pausas_cobranca)
            if "pagamento" in ev:
                encerrados.add("prescricao_cobranca")
        # prescricao (Lei 9.873/1999 arts. 1º and 2º): no revival
        r = prescricao_em(ev["infracao"], 5, pausas)
        parou = False
        for interrupcao in ("auto_infracao", "ciencia_primeira_instancia"):
            if interrupcao in ev:
                if ev[interrupcao] > r:
                    parou = True
                    break
                r = prescricao_em(ev[interrupcao], 5, pausas)
        definitivas = [ev[n] for n in ("ciencia_decisao_definitiva", "renuncia_recurso") if n in ev]
        if parou or not definitivas or min(definitivas) > r:
            datas["prescricao"] = r
        fins = [*definitivas, *([ev["pagamento"]] if "pagamento" in ev else [])]
        if parou or (fins and min(fins) > r) or (not fins and ref > r):
            prescritos.add("prescricao")
        # prescricao_intercorrente: the first stall, else the current wait
        for i, (nome, dia) in enumerate(principais):
            if nome not in ("auto_infracao", "defesa", "recurso"):
                continue
            limite = prescricao_em(dia, 3, pausas)
            if i + 1 == len(principais):
                datas["prescricao_intercorrente"] = limite
                if ref > limite:
                    prescritos.add("prescricao_intercorrente")
            elif principais[i + 1][1] > limite:
                datas["prescricao_intercorrente"] = limite
                prescritos.add("prescricao_intercorrente")
                break
        fechamentos = [
            ev[n]
            for n in ("ciencia_decisao_definitiva", "renuncia_recurso", "pagamento")
            if n in ev
        ]
        for nome in ("prescricao", "prescricao_intercorrente"):
            if nome in datas and any(f <= datas[nome] for f in fechamentos):
                encerrados.add(nome)
    elif tipo == "renovabio.lista":
        datas["limite_reducao"] = mais_meses(ev["fim_prazo_meta"], 11)
        if "pedido_retirada" in ev:
            datas["retirada_lista"] = dias_uteis_depois(ev["pedido_retirada"], 5, cal)[0]
    else:
        if "comprovacao_adequacao" in ev:
            datas["retirada_lista"] = dias_uteis_depois(ev["comprovacao_adequacao"], 5, cal)[0]

    # v4 § 3.7 point 6: the collection limitation lapsed with the debt unpaid
    cobranca_prescrita = (
        "prescricao_cobranca" in datas
        and "pagamento" not in ev
        and ref > datas["prescricao_cobranca"]
    )
    suspenso = em_vigor(eventos, ref)
    prazos: dict[str, tuple[str, str, str]] = {}
    for nome, dia in datas.items():
        cumpre = CUMPRIDO_POR.get(nome)
        if nome in prescritos or (nome == "prescricao_cobranca" and cobranca_prescrita):
            situacao = "vencido"
        elif cumpre is not None and cumpre in ev:
            situacao = "cumprido" if ev[cumpre] <= dia else "cumprido_com_atraso"
        elif nome in encerrados:
            situacao = "encerrado"
        elif suspenso is not None and dia >= suspenso:  # v4 § 3.7 point 5
            situacao = "suspenso"
        elif ref > dia:
            situacao = "vencido"
        else:
            situacao = "em_aberto"
        prazos[nome] = (dia.isoformat(), RESPONSAVEL[nome], situacao)

    estado = TABELAS[tipo][principais[-1][0]].estado
    if suspenso is not None:
        estado = "suspenso"
    if cobranca_prescrita:
        estado = "cobranca_prescrita"
    if prescritos:
        estado = "prescrito"
    desconto = None
    # v4 W2: no discounted amount once its deadline passed without the payment
    perdido = "pagamento_com_desconto" in prazos and prazos["pagamento_com_desconto"][2] in (
        "vencido",
        "cumprido_com_atraso",
    )
    if caso.valor_multa is not None and "renuncia_recurso" in ev and not perdido:
        desconto = str((caso.valor_multa * Decimal("0.7")).quantize(Decimal("0.01"), ROUND_HALF_UP))
    return Esperado(estado, prazos, desconto)


# --- strategies ---------------------------------------------------------------------------

#: where a walk through each tipo may start (the 2025 lists cannot start earlier)
INICIOS = {
    "anp": date(2019, 1, 1),
    "renovabio.lista": METAS_DE_2025,
    "renovabio.balanco": LISTA_DE_SANCOES,
}
#: events a uniform walk seldom reaches: preferred half of the time
RAROS = {
    "defesa",
    "recurso",
    "renuncia_recurso",
    "ciencia_decisao_definitiva",
    "inscricao_divida_ativa",
    "inclusao_lista",
}
#: the steps between events: the short deadlines, and the 3 and 5 years of the limitation periods
PASSOS = [0, 0, 1, 3, 10, 11, 15, 16, 31, 35, 45, 60, 400, 1095, 1100, 1826, 1830]
#: § 6 v3: valor_multa is an amount above zero (as the stored processo's principal)
valores = st.decimals(Decimal("0.01"), Decimal("99999999.99"), places=2)


@st.composite
def referencias(draw: st.DrawFn, eventos: Eventos) -> date:
    """Before, among or after the events."""
    return eventos[-1][1] + timedelta(days=draw(st.integers(-2500, 2500)))


@st.composite
def listas_quaisquer(draw: st.DrawFn) -> Caso:
    """Any list of the tipo's event names (repeats allowed), dates in any order, around the
    2025 thresholds."""
    tipo = draw(st.sampled_from(sorted(TABELAS)))
    nomes = draw(st.lists(st.sampled_from(NOMES[tipo]), min_size=1, max_size=9))
    dias = draw(st.lists(st.integers(0, 3000), min_size=len(nomes), max_size=len(nomes)))
    if draw(st.booleans()):
        dias.sort()
    inicio = date(2018, 1, 1) if tipo == "anp" else date(2024, 9, 1)
    eventos = [(n, inicio + timedelta(days=d)) for n, d in zip(nomes, dias, strict=True)]
    calendario = draw(st.sampled_from(CALENDARIOS))
    return Caso(tipo, eventos, calendario, draw(referencias(eventos)))


@st.composite
def processos_validos(draw: st.DrawFn, tipo: str | None = None) -> Caso:
    """A random walk through § 6: each step appends an event the oracle accepts (a court
    suspension or its end about one step in four)."""
    tipo = tipo or draw(
        st.sampled_from(["anp", "anp", "anp", "renovabio.lista", "renovabio.balanco"])
    )
    calendario = draw(st.sampled_from(CALENDARIOS))
    eventos: Eventos = []
    dia = INICIOS[tipo] + timedelta(days=draw(st.integers(0, 3000)))
    for passo in range(draw(st.integers(1, 11))):
        if passo:
            dia = dia + timedelta(days=draw(st.sampled_from(PASSOS)))
        candidatos = [
            n for n in NOMES[tipo] if primeiro_erro(tipo, [*eventos, (n, dia)], calendario) is None
        ]
        suspensoes = [n for n in candidatos if n in SUSPENSOES]
        principais = [n for n in candidatos if n not in SUSPENSOES]
        if suspensoes and (not principais or draw(st.integers(0, 3)) == 0):
            candidatos = suspensoes
        elif principais:
            raros = [n for n in principais if n in RAROS]
            candidatos = raros if raros and bool(draw(st.booleans())) else principais
        else:
            break
        eventos.append((draw(st.sampled_from(candidatos)), dia))
    assert eventos
    valor = draw(st.none() | valores) if tipo == "anp" else None
    return Caso(tipo, eventos, calendario, draw(referencias(eventos)), valor)


def processo(caso: Caso, eventos: Eventos | None = None) -> dict[str, Any]:
    dados: dict[str, Any] = {
        "tipo": caso.tipo,
        "eventos": [{"evento": n, "data": d.isoformat()} for n, d in (eventos or caso.eventos)],
        "interpretacao": {"calendario": caso.calendario},
        "data_referencia": caso.referencia.isoformat(),
    }
    if caso.valor_multa is not None:
        dados["valor_multa"] = str(caso.valor_multa)
    return dados


def resultado_ou_erro(dados: object) -> dict[str, Any] | EntradaInvalida:
    try:
        return calcular_prazos(dados)
    except EntradaInvalida as erro:
        return erro


def conferir_com_o_oracolo(caso: Caso, r: dict[str, Any]) -> None:
    e = esperado(caso)
    obtido = {p["prazo"]: (p["data"], p["responsavel"], p["situacao"]) for p in r["prazos"]}
    contexto = (processo(caso), r)
    assert r["data_referencia"] == caso.referencia.isoformat(), contexto
    assert obtido == e.prazos, contexto
    assert r["estado"] == e.estado, contexto
    assert r.get("valor_com_desconto") == e.valor_com_desconto, contexto


# --- properties ---------------------------------------------------------------------------


@settings(max_examples=400, deadline=None)
@given(listas_quaisquer())
def test_motor_e_oracolo_concordam_em_qualquer_lista(caso: Caso) -> None:
    esperado_ = primeiro_erro(caso.tipo, caso.eventos, caso.calendario)
    saida = resultado_ou_erro(processo(caso))
    if esperado_ is None:
        assert isinstance(saida, dict), saida
    else:
        assert isinstance(saida, EntradaInvalida), (esperado_, processo(caso))
        assert saida.campo is not None
        assert saida.campo.startswith(f"eventos[{esperado_}]."), (saida, processo(caso))
        assert caso.eventos[esperado_][0] in saida.mensagem  # names the event refused


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(processos_validos(), st.data(), st.integers(0, 45))
def test_motor_e_oracolo_concordam_ao_acrescentar_um_evento(
    caso: Caso, dados: st.DataObject, dias: int
) -> None:
    """One more event, near the deadlines it must follow (Dívida Ativa, quitação), or a
    suspension."""
    nome = dados.draw(st.sampled_from(NOMES[caso.tipo]))
    mais = caso.com([*caso.eventos, (nome, caso.eventos[-1][1] + timedelta(days=dias))])
    esperado_ = primeiro_erro(mais.tipo, mais.eventos, mais.calendario)
    saida = resultado_ou_erro(processo(mais))
    if esperado_ is None:
        assert isinstance(saida, dict), saida
    else:
        assert isinstance(saida, EntradaInvalida), (esperado_, processo(mais))
        assert saida.campo is not None and saida.campo.startswith(f"eventos[{esperado_}].")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(processos_validos(), st.randoms(use_true_random=False))
def test_toda_permutacao_fora_de_ordem_e_recusada(caso: Caso, aleatorio: Any) -> None:
    permutada = list(caso.eventos)
    aleatorio.shuffle(permutada)
    saida = resultado_ou_erro(processo(caso, permutada))
    esperado_ = primeiro_erro(caso.tipo, permutada, caso.calendario)
    assert (esperado_ is None) == isinstance(saida, dict)
    fora_de_ordem = any(b[1] < a[1] for a, b in itertools.pairwise(permutada))
    if fora_de_ordem:
        assert isinstance(saida, EntradaInvalida)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(processos_validos())
def test_saida_e_a_do_oracolo(caso: Caso) -> None:
    """estado, every deadline with its date, responsavel and situacao, and the discounted
    amount, as § 6 v3 says; plus the output's own invariants."""
    r = calcular_prazos(processo(caso))
    conferir_com_o_oracolo(caso, r)
    # sorted by date, then by name; no deadline twice
    chaves = [(p["data"], p["prazo"]) for p in r["prazos"]]
    assert chaves == sorted(chaves)
    assert len({p["prazo"] for p in r["prazos"]}) == len(r["prazos"])
    # every deadline is after the first event, and each has its provision and counting
    for p in r["prazos"]:
        assert date.fromisoformat(p["data"]) > caso.eventos[0][1]
        assert p["fundamento"].strip() and p["contagem"].strip()
    # the output is plain JSON, and deterministic
    assert ler_json(despejar_json(r)) == r
    assert calcular_prazos(processo(caso)) == r


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(processos_validos(), st.data(), st.sampled_from([-1, 0, 1]))
def test_situacao_na_vespera_no_dia_e_no_dia_seguinte_de_um_prazo(
    caso: Caso, dados: st.DataObject, deslocamento: int
) -> None:
    """data_referencia on a deadline's date, or a day before or after it: the deadline's own
    day is still open, the next is vencido (unless met, closed, suspended or prescribed)."""
    prazos = esperado(caso).prazos
    dia = (
        date.fromisoformat(prazos[dados.draw(st.sampled_from(sorted(prazos)))][0])
        if prazos
        else caso.referencia
    )
    outro = replace(caso, referencia=dia + timedelta(days=deslocamento))
    conferir_com_o_oracolo(outro, calcular_prazos(processo(outro)))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(processos_validos(), st.data())
def test_situacao_nos_dias_da_suspensao(caso: Caso, dados: st.DataObject) -> None:
    """data_referencia on the day a suspension starts or ends, or the day before or after."""
    dias = sorted({d for n, d in caso.eventos if n in SUSPENSOES})
    if not dias:
        return
    dia = dados.draw(st.sampled_from(dias)) + timedelta(
        days=dados.draw(st.sampled_from([-1, 0, 1]))
    )
    outro = replace(caso, referencia=dia)
    conferir_com_o_oracolo(outro, calcular_prazos(processo(outro)))


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(processos_validos())
def test_um_prazo_listado_continua_listado_com_a_mesma_data(caso: Caso) -> None:
    """Adding later events never moves or removes a deadline of the parties or of the lists
    (§ 6: "it stays listed after it is met or missed"). Not the limitation periods (they move
    with each interruption and each court suspension, and prescricao gives way to the
    definitive decision, prescricao_intercorrente's current wait with the next event);
    `pagamento` moves once, when ciencia_decisao_definitiva follows
    renuncia_recurso."""
    anterior: dict[str, str] = {}
    for k in range(1, len(caso.eventos) + 1):
        r = calcular_prazos(processo(caso, caso.eventos[:k]))
        atual = {p["prazo"]: p["data"] for p in r["prazos"]}
        for nome, data in anterior.items():
            if nome in FIXOS or (
                nome == "pagamento" and caso.eventos[k - 1][0] != "ciencia_decisao_definitiva"
            ):
                assert atual.get(nome) == data, (nome, caso.eventos[:k])
            elif nome == "prescricao_cobranca":
                assert nome in atual, (nome, caso.eventos[:k])  # listed for good
        anterior = atual


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(processos_validos())
def test_so_feriados_nunca_vence_depois_do_expediente(caso: Caso) -> None:
    """Fewer days without expediente can only bring a deadline forward, never push it; the
    limitation periods of the punitive action do not depend on the calendar at all."""
    expediente = resultado_ou_erro(processo(replace(caso, calendario="expediente")))
    so_feriados = resultado_ou_erro(processo(replace(caso, calendario="feriados")))
    if not isinstance(expediente, dict) or not isinstance(so_feriados, dict):
        return  # a Dívida Ativa valid under one calendar only
    a = {p["prazo"]: p["data"] for p in expediente["prazos"]}
    b = {p["prazo"]: p["data"] for p in so_feriados["prazos"]}
    assert a.keys() == b.keys()
    for nome in a:
        if nome in ("prescricao", "prescricao_intercorrente"):
            assert b[nome] == a[nome]
        elif nome != "prescricao_cobranca":  # 5 years from a date, plus paused days
            assert b[nome] <= a[nome]


@settings(max_examples=200, deadline=None)
@given(st.dates(date(2009, 1, 1), date(2040, 12, 31)), st.sampled_from(CALENDARIOS))
def test_vencimento_do_pagamento_e_o_do_anp_mora(ciencia: date, calendario: Calendario) -> None:
    """The `pagamento` deadline is § 3.5's vencimento for the same ciência and calendar."""
    eventos = [
        ("infracao", date(2008, 1, 2)),
        ("auto_infracao", date(2008, 2, 1)),
        ("ciencia_primeira_instancia", date(2008, 6, 2)),
        ("ciencia_decisao_definitiva", ciencia),
    ]
    r = calcular_prazos(processo(Caso("anp", eventos, calendario, ciencia)))
    mora = calcular(
        {
            "regime": "anp.mora",
            "principal": "1000.00",
            "data_ciencia": ciencia.isoformat(),
            "data_pagamento": ciencia.isoformat(),
            "interpretacao": {"calendario": calendario},
        }
    )
    pagamento = next(p for p in r["prazos"] if p["prazo"] == "pagamento")
    assert pagamento["data"] == mora["vencimento"]


@settings(max_examples=300, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=12),
        lambda filhos: (
            st.lists(filhos, max_size=4) | st.dictionaries(st.text(max_size=8), filhos, max_size=4)
        ),
        max_leaves=20,
    )
)
def test_entrada_hostil_nunca_derruba(bruto: Any) -> None:
    """Any JSON value: a result or a pt-BR input error, never another exception (with an
    explicit data_referencia wherever the value is an object)."""
    ref = "2030-06-15"
    for dados in (
        {"data_referencia": ref, **bruto} if isinstance(bruto, dict) else bruto,
        {"tipo": "anp", "eventos": bruto, "data_referencia": ref},
        {"tipo": "anp", "eventos": [bruto], "data_referencia": ref},
    ):
        saida = resultado_ou_erro(dados)
        if isinstance(saida, EntradaInvalida):
            assert saida.mensagem


@settings(max_examples=300, deadline=None)
@given(
    st.dates(date(2000, 1, 1), date(2040, 12, 31)),
    st.integers(0, 45),
    st.sampled_from(CALENDARIOS),
    st.booleans(),
)
def test_divida_ativa_so_depois_do_vencimento(
    definitiva: date, dias: int, calendario: Calendario, renuncia: bool
) -> None:
    """ "After a deadline means on a later date": the day after the vencimento (30 days from
    the definitive decision: its ciência or, without it, the waiver of the appeal) is the first
    day the Dívida Ativa is accepted."""
    inscricao = definitiva + timedelta(days=dias)
    primeira = definitiva - timedelta(days=5)
    eventos = [
        ("infracao", primeira - timedelta(days=400)),
        ("auto_infracao", primeira - timedelta(days=300)),
        ("ciencia_primeira_instancia", primeira),
        ("renuncia_recurso" if renuncia else "ciencia_decisao_definitiva", definitiva),
        ("inscricao_divida_ativa", inscricao),
    ]
    vencimento = prazo_em_dias(definitiva, 30, Expediente(carregar().calendario, calendario))[1]
    saida = resultado_ou_erro(processo(Caso("anp", eventos, calendario, inscricao)))
    if inscricao > vencimento:
        assert isinstance(saida, dict) and saida["estado"] == "divida_ativa"
    else:
        assert isinstance(saida, EntradaInvalida) and saida.campo == "eventos[4].data"


@settings(max_examples=300, deadline=None)
@given(st.dates(date(2024, 1, 1), date(2040, 12, 31)), st.integers(0, 400))
def test_quitacao_estritamente_depois_do_fim_do_prazo_e_aviso_so_apos_o_limite(
    fim: date, dias: int
) -> None:
    quitacao = fim + timedelta(days=dias)
    caso = Caso(
        "renovabio.lista",
        [("fim_prazo_meta", fim), ("quitacao_meta", quitacao)],
        "expediente",
        quitacao,
    )
    saida = resultado_ou_erro(processo(caso))
    if fim < METAS_DE_2025:  # v3: the list applies to targets due from 01/01/2025
        assert isinstance(saida, EntradaInvalida) and saida.campo == "eventos[0].data"
        return
    if dias == 0:
        assert isinstance(saida, EntradaInvalida) and saida.campo == "eventos[1].data"
        return
    assert isinstance(saida, dict)
    prazos = {p["prazo"]: date.fromisoformat(p["data"]) for p in saida["prazos"]}
    assert prazos.keys() == {"limite_reducao"}
    limite = prazos["limite_reducao"]
    # the last day on which the months "ou fração" from fim to quitação are still ≤ 11
    assert meses_ou_fracao(fim, limite) <= 11 < meses_ou_fracao(fim, limite + timedelta(days=1))
    assert (len(saida["avisos"]) == 1) == (quitacao > limite), saida["avisos"]
    situacao = saida["prazos"][0]["situacao"]
    assert situacao == ("cumprido" if quitacao <= limite else "cumprido_com_atraso")


@settings(max_examples=200, deadline=None)
@given(
    st.dates(date(2024, 10, 1), date(2025, 7, 31)),
    st.integers(0, 200),
    st.integers(0, 200),
)
def test_as_listas_so_existem_desde_2025(fim: date, ate_decisao: int, ate_inclusao: int) -> None:
    """v3: the sanctions list is for targets due from 01/01/2025 and its inclusion is from
    17/04/2025; the balance list's inclusion too; an earlier date is an input error on that
    event."""
    decisao = fim + timedelta(days=ate_decisao)
    inclusao = decisao + timedelta(days=ate_inclusao)
    lista = Caso(
        "renovabio.lista",
        [
            ("fim_prazo_meta", fim),
            ("decisao_primeira_instancia", decisao),
            ("inclusao_lista", inclusao),
        ],
        "expediente",
        inclusao,
    )
    saida = resultado_ou_erro(processo(lista))
    if fim < METAS_DE_2025:
        assert isinstance(saida, EntradaInvalida) and saida.campo == "eventos[0].data"
    elif inclusao < LISTA_DE_SANCOES:
        assert isinstance(saida, EntradaInvalida) and saida.campo == "eventos[2].data"
    else:
        assert isinstance(saida, dict) and saida["estado"] == "na_lista"
    balanco = Caso("renovabio.balanco", [("inclusao_lista", inclusao)], "expediente", inclusao)
    saida = resultado_ou_erro(processo(balanco))
    if inclusao < LISTA_DE_SANCOES:
        assert isinstance(saida, EntradaInvalida) and saida.campo == "eventos[0].data"
    else:
        assert isinstance(saida, dict) and saida["estado"] == "na_lista"


@settings(max_examples=20, deadline=None)
@given(
    st.sampled_from(["recurso", "renuncia_recurso"]),
    st.integers(0, 30),
    st.sampled_from(CALENDARIOS),
)
def test_recurso_e_renuncia_so_antes_da_decisao_definitiva(
    nome: str, dias: int, calendario: Calendario
) -> None:
    """§ 6, table `anp`: `recurso` / `renuncia_recurso` — "one of them at most, after
    ciencia_primeira_instancia and before ciencia_decisao_definitiva". Once the definitive
    decision is in the list, neither may come (as `defesa` once ciencia_primeira_instancia is).

    Minimal processo the engine accepts (estado "em_recurso") instead of refusing eventos[4]:
    {"tipo": "anp", "data_referencia": "2019-06-01", "eventos": [
     {"evento": "infracao", "data": "2019-01-01"},
     {"evento": "auto_infracao", "data": "2019-01-10"},
     {"evento": "ciencia_primeira_instancia", "data": "2019-02-01"},
     {"evento": "ciencia_decisao_definitiva", "data": "2019-03-01"},
     {"evento": "recurso", "data": "2019-04-01"}]}"""
    definitiva = date(2019, 3, 1)
    eventos = [
        ("infracao", date(2019, 1, 1)),
        ("auto_infracao", date(2019, 1, 10)),
        ("ciencia_primeira_instancia", date(2019, 2, 1)),
        (DEFINITIVA, definitiva),
        (nome, definitiva + timedelta(days=dias)),
    ]
    assert primeiro_erro("anp", eventos, calendario) == 4
    saida = resultado_ou_erro(processo(Caso("anp", eventos, calendario, date(2019, 6, 1))))
    assert isinstance(saida, EntradaInvalida), saida
    assert saida.campo is not None and saida.campo.startswith("eventos[4].")
    assert nome in saida.mensagem


@settings(max_examples=100, deadline=None)
@given(
    st.sampled_from([2020, 2024, 2028, 2032]),
    st.integers(0, 2000),
    st.sampled_from(CALENDARIOS),
)
def test_prescricao_de_29_de_fevereiro_e_01_de_marco(
    bissexto: int, depois: int, calendario: Calendario
) -> None:
    """N years from 29/02 end on 01/03 when the year has no 29/02 (Lei 810/1949 art. 3º), not
    moved to a business day; an auto de infração after that date interrupts nothing (no
    revival): the process is prescrito whatever comes after."""
    infracao = date(bissexto, 2, 29)
    auto = infracao + timedelta(days=depois)
    caso = Caso(
        "anp",
        [("infracao", infracao), ("auto_infracao", auto)],
        calendario,
        auto + timedelta(days=1),
    )
    r = calcular_prazos(processo(caso))
    conferir_com_o_oracolo(caso, r)
    prazos = {p["prazo"]: p for p in r["prazos"]}
    if auto > date(bissexto + 5, 3, 1):
        assert r["estado"] == "prescrito"
        assert prazos["prescricao"]["data"] == date(bissexto + 5, 3, 1).isoformat()
        assert prazos["prescricao"]["situacao"] == "vencido"
    else:
        assert prazos["prescricao"]["data"] == mais_anos(auto, 5).isoformat()
