"""Spec § 6 as properties (hypothesis): an oracle written from the spec's tables decides which
event lists are valid, and the engine must agree on every list, in any order; on the valid ones
the output keeps the legal invariants."""

from __future__ import annotations

import itertools
from datetime import date, timedelta
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from multas import calcular
from multas.ciclo import calcular_prazos
from multas.datas import meses_ou_fracao, prazo_em_dias
from multas.erros import EntradaInvalida
from multas.json_exato import despejar_json, ler_json

# --- the oracle: § 6's tables, written again here from the spec ------------------------------

# event → (required first?, events that must come before it, events excluding it, terminal?)
TABELAS: dict[str, dict[str, tuple[bool, tuple[str, ...], tuple[str, ...], bool]]] = {
    "anp": {
        "infracao": (True, (), (), False),
        "auto_infracao": (False, ("infracao",), (), False),
        "ciencia_primeira_instancia": (False, ("auto_infracao",), (), False),
        "recurso": (False, ("ciencia_primeira_instancia",), ("renuncia_recurso",), False),
        "renuncia_recurso": (False, ("ciencia_primeira_instancia",), ("recurso",), False),
        "ciencia_decisao_definitiva": (False, ("ciencia_primeira_instancia",), (), False),
        "pagamento": (False, ("ciencia_primeira_instancia",), (), True),
        "inscricao_divida_ativa": (False, ("ciencia_decisao_definitiva",), (), True),
    },
    "renovabio.lista": {
        "fim_prazo_meta": (True, (), (), False),
        "decisao_primeira_instancia": (False, ("fim_prazo_meta",), (), False),
        "inclusao_lista": (False, ("decisao_primeira_instancia",), (), False),
        "quitacao_meta": (False, ("fim_prazo_meta",), (), False),
        "pedido_retirada": (False, ("inclusao_lista", "quitacao_meta"), (), False),
        "retirada_lista": (False, ("pedido_retirada",), (), True),
    },
    "renovabio.balanco": {
        "inclusao_lista": (True, (), (), False),
        "comprovacao_adequacao": (False, ("inclusao_lista",), (), False),
        "retirada_lista": (False, ("comprovacao_adequacao",), (), True),
    },
}
ESTADOS = {
    "anp": {
        "infracao": "apuracao",
        "auto_infracao": "defesa",
        "ciencia_primeira_instancia": "decidido_primeira_instancia",
        "recurso": "em_recurso",
        "renuncia_recurso": "recurso_renunciado",
        "ciencia_decisao_definitiva": "aguardando_pagamento",
        "pagamento": "pago",
        "inscricao_divida_ativa": "divida_ativa",
    },
    "renovabio.lista": {
        "fim_prazo_meta": "inadimplente",
        "decisao_primeira_instancia": "sancionado",
        "inclusao_lista": "na_lista",
        "quitacao_meta": "meta_quitada",
        "pedido_retirada": "retirada_solicitada",
        "retirada_lista": "fora_da_lista",
    },
    "renovabio.balanco": {
        "inclusao_lista": "na_lista",
        "comprovacao_adequacao": "adequacao_comprovada",
        "retirada_lista": "fora_da_lista",
    },
}


def primeiro_erro(tipo: str, eventos: list[tuple[str, date]], calendario: str) -> int | None:
    """The index of the first event § 6 refuses, or None when the whole list is valid."""
    tabela = TABELAS[tipo]
    vistos: dict[str, date] = {}
    for i, (nome, dia) in enumerate(eventos):
        primeiro, antes, exclui, _ = tabela[nome]
        if nome in vistos:
            return i
        if i and dia < eventos[i - 1][1]:
            return i
        if any(tabela[n][3] for n in vistos):
            return i
        if (i == 0) != primeiro:
            return i
        if any(a not in vistos for a in antes) or any(x in vistos for x in exclui):
            return i
        if nome == "quitacao_meta" and dia <= vistos["fim_prazo_meta"]:
            return i
        if nome == "inscricao_divida_ativa":
            vencimento = prazo_em_dias(
                vistos["ciencia_decisao_definitiva"],
                30,
                calendario,  # type: ignore[arg-type]
            )[1]
            if dia <= vencimento:
                return i
        vistos[nome] = dia
    return None


# --- strategies ---------------------------------------------------------------------------

INICIO = date(2019, 1, 1)
#: events a uniform walk seldom reaches: preferred half of the time
RAROS = {"recurso", "renuncia_recurso", "ciencia_decisao_definitiva", "inscricao_divida_ativa"}


@st.composite
def listas_quaisquer(draw: st.DrawFn) -> tuple[str, list[tuple[str, date]], str]:
    """Any list of the tipo's event names (repeats allowed), dates in any order."""
    tipo = draw(st.sampled_from(sorted(TABELAS)))
    nomes = draw(st.lists(st.sampled_from(sorted(TABELAS[tipo])), min_size=1, max_size=9))
    dias = draw(st.lists(st.integers(0, 3000), min_size=len(nomes), max_size=len(nomes)))
    if draw(st.booleans()):
        dias.sort()
    calendario = draw(st.sampled_from(["expediente", "feriados"]))
    return (
        tipo,
        [(n, INICIO + timedelta(days=d)) for n, d in zip(nomes, dias, strict=True)],
        calendario,
    )


@st.composite
def processos_validos(draw: st.DrawFn) -> tuple[str, list[tuple[str, date]], str]:
    """A random walk through § 6: each step appends an event the oracle accepts."""
    tipo = draw(st.sampled_from(sorted(TABELAS)))
    calendario = draw(st.sampled_from(["expediente", "feriados"]))
    eventos: list[tuple[str, date]] = []
    dia = INICIO + timedelta(days=draw(st.integers(0, 4000)))
    for _ in range(draw(st.integers(1, 9))):
        dia = dia + timedelta(days=draw(st.sampled_from([0, 0, 1, 3, 10, 11, 31, 35, 45, 60, 400])))
        candidatos = [
            n
            for n in sorted(TABELAS[tipo])
            if primeiro_erro(tipo, [*eventos, (n, dia)], calendario) is None
        ]
        if not candidatos:
            break
        raros = [n for n in candidatos if n in RAROS]
        if raros and draw(st.booleans()):
            candidatos = raros
        eventos.append((draw(st.sampled_from(candidatos)), dia))
    return tipo, eventos, calendario


def processo(tipo: str, eventos: list[tuple[str, date]], calendario: str) -> dict[str, Any]:
    return {
        "tipo": tipo,
        "eventos": [{"evento": n, "data": d.isoformat()} for n, d in eventos],
        "interpretacao": {"calendario": calendario},
    }


def resultado_ou_erro(dados: dict[str, Any]) -> dict[str, Any] | EntradaInvalida:
    try:
        return calcular_prazos(dados)
    except EntradaInvalida as erro:
        return erro


# --- properties ---------------------------------------------------------------------------


@settings(max_examples=400, deadline=None)
@given(listas_quaisquer())
def test_motor_e_oracolo_concordam_em_qualquer_lista(
    caso: tuple[str, list[tuple[str, date]], str],
) -> None:
    tipo, eventos, calendario = caso
    esperado = primeiro_erro(tipo, eventos, calendario)
    saida = resultado_ou_erro(processo(tipo, eventos, calendario))
    if esperado is None:
        assert isinstance(saida, dict), saida
    else:
        assert isinstance(saida, EntradaInvalida)
        assert saida.campo is not None
        assert saida.campo.startswith(f"eventos[{esperado}].")
        assert eventos[esperado][0] in saida.mensagem  # names the event refused


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(processos_validos(), st.data(), st.integers(0, 45))
def test_motor_e_oracolo_concordam_ao_acrescentar_um_evento(
    caso: tuple[str, list[tuple[str, date]], str], dados: st.DataObject, dias: int
) -> None:
    """One more event, near the deadlines it must follow (Dívida Ativa, quitação)."""
    tipo, eventos, calendario = caso
    nome = dados.draw(st.sampled_from(sorted(TABELAS[tipo])))
    mais = [*eventos, (nome, eventos[-1][1] + timedelta(days=dias))]
    esperado = primeiro_erro(tipo, mais, calendario)
    saida = resultado_ou_erro(processo(tipo, mais, calendario))
    if esperado is None:
        assert isinstance(saida, dict), saida
    else:
        assert isinstance(saida, EntradaInvalida)
        assert saida.campo is not None and saida.campo.startswith(f"eventos[{esperado}].")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(processos_validos(), st.randoms(use_true_random=False))
def test_toda_permutacao_fora_de_ordem_e_recusada(
    caso: tuple[str, list[tuple[str, date]], str], aleatorio: Any
) -> None:
    tipo, eventos, calendario = caso
    permutada = list(eventos)
    aleatorio.shuffle(permutada)
    saida = resultado_ou_erro(processo(tipo, permutada, calendario))
    esperado = primeiro_erro(tipo, permutada, calendario)
    assert (esperado is None) == isinstance(saida, dict)
    fora_de_ordem = any(b[1] < a[1] for a, b in itertools.pairwise(permutada))
    if fora_de_ordem:
        assert isinstance(saida, EntradaInvalida)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(processos_validos())
def test_invariantes_da_saida(caso: tuple[str, list[tuple[str, date]], str]) -> None:
    tipo, eventos, calendario = caso
    r = calcular_prazos(processo(tipo, eventos, calendario))
    # the estado is the last event's
    assert r["estado"] == ESTADOS[tipo][eventos[-1][0]]
    # sorted by date, then by name; no deadline twice
    chaves = [(p["data"], p["prazo"]) for p in r["prazos"]]
    assert chaves == sorted(chaves)
    assert len({p["prazo"] for p in r["prazos"]}) == len(r["prazos"])
    # every deadline is after the first event, and each has its provision and counting
    for p in r["prazos"]:
        assert date.fromisoformat(p["data"]) > eventos[0][1]
        assert p["fundamento"].strip() and p["contagem"].strip()
    nomes = {n for n, _ in eventos}
    prazos = {p["prazo"]: date.fromisoformat(p["data"]) for p in r["prazos"]}
    if tipo == "anp":
        assert ("prescricao" in prazos) == ("ciencia_decisao_definitiva" not in nomes)
        assert ("prescricao_cobranca" in prazos) == ("ciencia_decisao_definitiva" in nomes)
        assert ("recurso" in prazos) == ("ciencia_primeira_instancia" in nomes)
        assert ("pagamento_com_desconto" in prazos) == ("renuncia_recurso" in nomes)
        if "pagamento_com_desconto" in prazos:
            assert prazos["pagamento_com_desconto"] == prazos["recurso"]
    # the output is plain JSON, and deterministic
    assert ler_json(despejar_json(r)) == r
    assert calcular_prazos(processo(tipo, eventos, calendario)) == r


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(processos_validos())
def test_um_prazo_listado_continua_listado_com_a_mesma_data(
    caso: tuple[str, list[tuple[str, date]], str],
) -> None:
    """Adding later events never moves or removes a deadline (prescricao aside: it moves with
    each interruption and gives way to prescricao_cobranca)."""
    tipo, eventos, calendario = caso
    anterior: dict[str, str] = {}
    for k in range(1, len(eventos) + 1):
        r = calcular_prazos(processo(tipo, eventos[:k], calendario))
        atual = {p["prazo"]: p["data"] for p in r["prazos"]}
        for nome, data in anterior.items():
            if nome != "prescricao":
                assert atual.get(nome) == data, (nome, eventos[:k])
        anterior = atual


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(processos_validos())
def test_so_feriados_nunca_vence_depois_do_expediente(
    caso: tuple[str, list[tuple[str, date]], str],
) -> None:
    """Fewer days without expediente can only bring a deadline forward, never push it."""
    tipo, eventos, _ = caso
    expediente = resultado_ou_erro(processo(tipo, eventos, "expediente"))
    so_feriados = resultado_ou_erro(processo(tipo, eventos, "feriados"))
    if not isinstance(expediente, dict) or not isinstance(so_feriados, dict):
        return  # a Dívida Ativa valid under one calendar only
    a = {p["prazo"]: p["data"] for p in expediente["prazos"]}
    b = {p["prazo"]: p["data"] for p in so_feriados["prazos"]}
    assert a.keys() == b.keys()
    for nome in a:
        assert b[nome] <= a[nome]


@settings(max_examples=200, deadline=None)
@given(
    st.dates(date(2009, 1, 1), date(2040, 12, 31)),
    st.sampled_from(["expediente", "feriados"]),
)
def test_vencimento_do_pagamento_e_o_do_anp_mora(ciencia: date, calendario: str) -> None:
    """The `pagamento` deadline is § 3.5's vencimento for the same ciência and calendar."""
    r = calcular_prazos(
        processo(
            "anp",
            [
                ("infracao", date(2008, 1, 2)),
                ("auto_infracao", date(2008, 2, 1)),
                ("ciencia_primeira_instancia", date(2008, 6, 2)),
                ("ciencia_decisao_definitiva", ciencia),
            ],
            calendario,
        )
    )
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
    """Any JSON value: a result or a pt-BR input error, never another exception."""
    for dados in (bruto, {"tipo": "anp", "eventos": bruto}, {"tipo": "anp", "eventos": [bruto]}):
        saida = resultado_ou_erro(dados)
        if isinstance(saida, EntradaInvalida):
            assert saida.mensagem


@settings(max_examples=300, deadline=None)
@given(
    st.dates(date(2000, 1, 1), date(2040, 12, 31)),
    st.integers(0, 45),
    st.sampled_from(["expediente", "feriados"]),
)
def test_divida_ativa_so_depois_do_vencimento(definitiva: date, dias: int, calendario: str) -> None:
    """ "After a deadline means on a later date": the day after the vencimento is the first
    day the Dívida Ativa is accepted."""
    inscricao = definitiva + timedelta(days=dias)
    eventos = [
        ("infracao", date(1999, 3, 1)),
        ("auto_infracao", date(1999, 4, 1)),
        ("ciencia_primeira_instancia", date(1999, 5, 3)),
        ("ciencia_decisao_definitiva", definitiva),
        ("inscricao_divida_ativa", inscricao),
    ]
    vencimento = prazo_em_dias(definitiva, 30, calendario)[1]  # type: ignore[arg-type]
    saida = resultado_ou_erro(processo("anp", eventos, calendario))
    if inscricao > vencimento:
        assert isinstance(saida, dict) and saida["estado"] == "divida_ativa"
    else:
        assert isinstance(saida, EntradaInvalida) and saida.campo == "eventos[4].data"


@settings(max_examples=300, deadline=None)
@given(st.dates(date(2018, 1, 1), date(2040, 12, 31)), st.integers(0, 400))
def test_quitacao_estritamente_depois_do_fim_do_prazo_e_aviso_so_apos_o_limite(
    fim: date, dias: int
) -> None:
    quitacao = fim + timedelta(days=dias)
    saida = resultado_ou_erro(
        processo(
            "renovabio.lista", [("fim_prazo_meta", fim), ("quitacao_meta", quitacao)], "expediente"
        )
    )
    if dias == 0:
        assert isinstance(saida, EntradaInvalida) and saida.campo == "eventos[1].data"
        return
    assert isinstance(saida, dict)
    prazos = {p["prazo"]: date.fromisoformat(p["data"]) for p in saida["prazos"]}
    if fim < date(2025, 1, 1):
        assert prazos == {} and saida["avisos"] == []
        return
    limite = prazos["limite_reducao"]
    # the last day on which the months "ou fração" from fim to quitação are still ≤ 11
    assert meses_ou_fracao(fim, limite) <= 11 < meses_ou_fracao(fim, limite + timedelta(days=1))
    assert (len(saida["avisos"]) == 1) == (quitacao > limite)
