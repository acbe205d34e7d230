"""Stored processos (SQLite and PostgreSQL): events added one at a time, a refused event stores
nothing (also under concurrent writes), the lists as of a date, the calendar, the linked fines
and the ledger."""

from __future__ import annotations

import threading
from datetime import date
from typing import Any

import pytest

from multas import calcular
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.json_exato import despejar_json
from multas.servicos.gestao import Ciclo, NaoEncontrado

CNPJ = "12.345.678/0001-95"


def lista(**extra: Any) -> dict[str, Any]:
    return {
        "tipo": "renovabio.lista",
        "cnpj": CNPJ,
        "nome": "Distribuidora Exemplo",
        "eventos": [{"evento": "fim_prazo_meta", "data": "2025-12-31"}],
        **extra,
    }


def anp(*eventos: tuple[str, str], **extra: Any) -> dict[str, Any]:
    return {"tipo": "anp", "eventos": [{"evento": e, "data": d} for e, d in eventos], **extra}


def _estado(ciclo: Ciclo, processo_id: int) -> tuple[Any, ...]:
    armazenado = ciclo.obter(processo_id).armazenado
    return armazenado.eventos, armazenado.atualizado_em, len(ciclo.repositorio.auditoria())


def test_distribuidor_que_perde_a_meta_quita_e_sai_da_lista(ciclo: Ciclo) -> None:
    """The issue's walk: the target missed, the sanctions list, the quitação within 3 months
    (reduced fine), the removal asked and done on the 5th business day."""
    processo = ciclo.criar(lista())
    pid = processo.armazenado.id
    assert processo.resultado["estado"] == "inadimplente"
    # 31/12/2025 + 11 meses = 30/11/2026
    assert processo.resultado["prazos"][0]["data"] == "2026-11-30"
    passos = [
        ("decisao_primeira_instancia", "2026-02-06", "sancionado"),
        ("inclusao_lista", "2026-02-09", "na_lista"),
        ("quitacao_meta", "2026-03-10", "meta_quitada"),  # 31/12 → 10/03: 3 meses ou fração
        ("pedido_retirada", "2026-03-12", "retirada_solicitada"),
    ]
    for evento, data, estado in passos:
        assert (
            ciclo.acrescentar(pid, {"evento": evento, "data": data}).resultado["estado"] == estado
        )
    derivado = ciclo.obter(pid)
    prazos = {p["prazo"]: p["data"] for p in derivado.resultado["prazos"]}
    # pedido 12/03/2026 (quinta): 13 sexta (1º); 14-15; 16 (2º), 17 (3º), 18 (4º), 19 (5º)
    assert prazos["retirada_lista"] == "2026-03-19"
    # as of 18/03 the distributor is still on the sanctions list, with its removal deadline
    em_18 = ciclo.lista("sancoes", date(2026, 3, 18))
    assert [(i["cnpj"], i["prazo_retirada"]) for i in em_18["itens"]] == [(CNPJ, "2026-03-19")]
    assert em_18["fundamento"] == (
        "Decreto nº 9.888/2019, art. 6º-A, § 4º (incluído pelo Decreto nº 12.437/2025)"
    )
    final = ciclo.acrescentar(pid, {"evento": "retirada_lista", "data": "2026-03-19"})
    assert final.resultado["estado"] == "fora_da_lista" and final.resultado["avisos"] == []
    assert ciclo.lista("sancoes", date(2026, 3, 19))["itens"] == []
    assert len(ciclo.lista("sancoes", date(2026, 3, 18))["itens"]) == 1  # history kept
    assert ciclo.lista("sancoes", date(2026, 2, 8))["itens"] == []  # before the inclusion
    # the referral list (art. 6º § 4º) from the day after the missed deadline, quitação or not
    assert ciclo.lista("encaminhamento", date(2025, 12, 31))["itens"] == []
    encaminhados = ciclo.lista("encaminhamento", date(2026, 6, 1))["itens"]
    assert [(i["fim_prazo_meta"], i["quitacao_meta"]) for i in encaminhados] == [
        ("2025-12-31", "2026-03-10")
    ]


def test_evento_recusado_nao_grava_nada(ciclo: Ciclo) -> None:
    pid = ciclo.criar(lista()).armazenado.id
    antes = _estado(ciclo, pid)
    with pytest.raises(EntradaInvalida) as info:
        ciclo.acrescentar(pid, {"evento": "pedido_retirada", "data": "2026-01-10"})
    assert info.value.campo == "evento"  # the form's field, not eventos[1].evento
    assert "inclusao_lista" in info.value.mensagem
    with pytest.raises(EntradaInvalida) as info:
        ciclo.acrescentar(pid, {"evento": "quitacao_meta", "data": "2025-12-31"})
    assert info.value.campo == "data"
    with pytest.raises(EntradaInvalida) as info:
        ciclo.acrescentar(pid, {"evento": "quitacao_meta", "data": "2025-12-30"})
    assert info.value.campo == "data" and "fora de ordem" in info.value.mensagem
    for ruim, campo in [
        ({"evento": "quitacao_meta"}, "data"),
        ({"data": "2026-01-02"}, "evento"),
        ({"evento": "quitacao_meta", "data": "2026-02-30"}, "data"),
        ({"evento": "quitacao_meta", "data": "2026-01-02", "obs": "x"}, "obs"),
        ({"evento": "infracao", "data": "2026-01-02"}, "evento"),
        ({"evento": ["x"], "data": "2026-01-02"}, "evento"),
    ]:
        with pytest.raises(EntradaInvalida) as info:
            ciclo.acrescentar(pid, ruim)
        assert info.value.campo == campo, ruim
    assert _estado(ciclo, pid) == antes
    with pytest.raises(NaoEncontrado):
        ciclo.acrescentar(pid + 1000, {"evento": "quitacao_meta", "data": "2026-01-02"})


def test_eventos_concorrentes_contraditorios_so_um_fica(ciclo: Ciclo) -> None:
    """recurso and renuncia_recurso sent at once: exactly one is stored, the other refused."""
    for _ in range(4):
        pid = ciclo.criar(
            anp(
                ("infracao", "2024-01-02"),
                ("auto_infracao", "2024-02-01"),
                ("ciencia_primeira_instancia", "2024-04-01"),
            )
        ).armazenado.id
        barreira = threading.Barrier(2)
        saidas: list[str] = []

        def enviar(
            evento: str,
            pid: int = pid,
            barreira: threading.Barrier = barreira,
            saidas: list[str] = saidas,
        ) -> None:
            barreira.wait()
            try:
                ciclo.acrescentar(pid, {"evento": evento, "data": "2024-04-05"})
                saidas.append("ok")
            except EntradaInvalida:
                saidas.append("recusado")

        linhas = [
            threading.Thread(target=enviar, args=(e,)) for e in ("recurso", "renuncia_recurso")
        ]
        for linha in linhas:
            linha.start()
        for linha in linhas:
            linha.join()
        assert sorted(saidas) == ["ok", "recusado"]
        eventos = [e.evento for e in ciclo.obter(pid).armazenado.eventos]
        assert len(eventos) == 4 and eventos[-1] in ("recurso", "renuncia_recurso")


def test_eventos_possiveis_sao_os_que_o_paragrafo_6_aceita(ciclo: Ciclo) -> None:
    derivado = ciclo.criar(lista())
    nomes = [n for n, _ in ciclo.eventos_possiveis(derivado.armazenado)]
    assert nomes == ["decisao_primeira_instancia", "quitacao_meta", "suspensao_judicial"]
    pid = ciclo.criar(
        anp(
            ("infracao", "2024-01-02"),
            ("auto_infracao", "2024-02-01"),
            ("ciencia_primeira_instancia", "2024-04-01"),
            ("ciencia_decisao_definitiva", "2024-05-02"),
        )
    ).armazenado.id
    nomes = [n for n, _ in ciclo.eventos_possiveis(ciclo.obter(pid).armazenado)]
    # v3: recurso / renúncia only before the definitive decision; a court suspension any time;
    # v4: the parcelamento once the decision is definitive
    assert nomes == ["pagamento", "inscricao_divida_ativa", "parcelamento", "suspensao_judicial"]
    ciclo.acrescentar(pid, {"evento": "pagamento", "data": "2024-05-10"})
    # nothing after the payment but a court suspension (which ignores "nothing after it")
    assert [n for n, _ in ciclo.eventos_possiveis(ciclo.obter(pid).armazenado)] == [
        "suspensao_judicial"
    ]


def test_remover_o_ultimo_evento_e_excluir(ciclo: Ciclo) -> None:
    pid = ciclo.criar(lista()).armazenado.id
    ciclo.acrescentar(pid, {"evento": "quitacao_meta", "data": "2026-01-05"})
    assert ciclo.remover_ultimo_evento(pid).resultado["estado"] == "inadimplente"
    assert ciclo.remover_ultimo_evento(pid).resultado["estado"] == "inadimplente"  # first stays
    ciclo.excluir(pid)
    with pytest.raises(NaoEncontrado):
        ciclo.obter(pid)
    # one audit row per record touched, each naming its table and what happened to it
    acoes = [(r.acao, r.tabela, r.operacao) for r in ciclo.repositorio.auditoria()]
    assert acoes == [
        ("processo_criar", "processos", "inserir"),
        ("processo_criar", "processo_eventos", "inserir"),
        ("processo_evento", "processo_eventos", "inserir"),
        ("processo_evento", "processos", "alterar"),
        ("processo_remover_evento", "processo_eventos", "excluir"),
        ("processo_remover_evento", "processos", "alterar"),
        # to the bin: the processo is hidden, its events stay with it (issue 20, item 4)
        ("processo_excluir", "processos", "ocultar"),
    ]
    assert ciclo.repositorio.verificar().integro


def test_processo_pago_com_atraso_tem_encargos_ate_o_dia(ciclo: Ciclo) -> None:
    """The issue's walk: paid late, the charges to the day (anp.mora on the principal)."""
    derivado = ciclo.criar(
        anp(
            ("infracao", "2023-01-02"),
            ("auto_infracao", "2023-02-01"),
            ("ciencia_primeira_instancia", "2023-09-01"),
            ("ciencia_decisao_definitiva", "2024-03-29"),
            valor_multa="250000.00",
        )
    )
    pid = derivado.armazenado.id
    # before payment, updated to the date asked: vencimento 29/04/2024 (28/04 domingo)
    antes = ciclo.multa_vinculada(derivado, date(2024, 5, 15))
    assert antes is not None and antes["resultado"]["vencimento"] == "2024-04-29"
    assert antes["resultado"]["valor"] == "257500.00"  # 1 mês: 250 000 × (1 + 1% + 2%)
    pago = ciclo.acrescentar(pid, {"evento": "pagamento", "data": "2024-07-01"})
    assert "63 dias corridos" in pago.resultado["avisos"][-1]
    mora = ciclo.multa_vinculada(pago, date(2030, 1, 1))  # the payment date wins
    assert mora is not None
    esperado = calcular(
        {
            "regime": "anp.mora",
            "principal": "250000.00",
            "data_ciencia": "2024-03-29",
            "data_pagamento": "2024-07-01",
        }
    )
    # 29/04 → 01/07/2024: 3 meses ou fração; 250 000 × (1 + 3% + 6%) = 272 500
    assert mora["resultado"]["valor"] == esperado["valor"] == "272500.00"


def test_processo_que_vai_para_a_divida_ativa(ciclo: Ciclo) -> None:
    pid = ciclo.criar(
        anp(
            ("infracao", "2023-01-02"),
            ("auto_infracao", "2023-02-01"),
            ("ciencia_primeira_instancia", "2023-09-01"),
            ("recurso", "2023-09-05"),
            # 21/10/2024 + 30 = 20/11/2024, Consciência Negra → 21/11/2024 (quinta)
            ("ciencia_decisao_definitiva", "2024-10-21"),
            principal="10000.00",
        )
    ).armazenado.id
    antes = _estado(ciclo, pid)
    with pytest.raises(EntradaInvalida) as info:  # on the vencimento: not after it
        ciclo.acrescentar(pid, {"evento": "inscricao_divida_ativa", "data": "2024-11-21"})
    assert info.value.campo == "data"
    assert _estado(ciclo, pid) == antes
    ciclo.acrescentar(pid, {"evento": "inscricao_divida_ativa", "data": "2024-11-22"})
    # judged on a fixed day: years later the collection limitation lapses (cobranca_prescrita)
    assert ciclo.obter(pid, date(2025, 1, 5)).resultado["estado"] == "divida_ativa"
    with pytest.raises(EntradaInvalida):
        ciclo.acrescentar(pid, {"evento": "recurso", "data": "2025-01-10"})
    # spec § 6.2 v4: the inscribed debt is still paid, and nothing follows the payment
    ciclo.acrescentar(pid, {"evento": "pagamento", "data": "2025-01-10"})
    assert ciclo.obter(pid, date(2025, 1, 15)).resultado["estado"] == "pago"
    with pytest.raises(EntradaInvalida):
        ciclo.acrescentar(pid, {"evento": "pagamento", "data": "2025-01-11"})


def test_multa_do_distribuidor_reduzida_pela_quitacao(ciclo: Ciclo) -> None:
    entrada = {
        "regime": "renovabio.distribuidor",
        "ano_meta": 2025,
        "meta_cbios": 1000000,
        "cbios_aposentados": 400000,
        "maior_media_mensal": "71.70",
        "faturamento_ano_meta": "900000000.00",
        "faturamento_ano_anterior": "800000000.00",
    }
    caso = ciclo.repositorio.salvar(
        regime="renovabio.distribuidor",
        entrada=despejar_json(entrada),
        resultado=calcular(entrada),
        versao_motor="teste",
        versao_legislacao="teste",
    )
    derivado = ciclo.criar(lista(caso_id=caso.id))
    sem_quitacao = ciclo.multa_vinculada(derivado, date(2026, 1, 5))
    assert sem_quitacao is not None
    assert sem_quitacao["resultado"]["valor"] == "42500000.00"  # 5% of the mean revenue
    pid = derivado.armazenado.id
    quitado = ciclo.acrescentar(pid, {"evento": "quitacao_meta", "data": "2026-03-15"})
    reduzida = ciclo.multa_vinculada(quitado, date(2026, 4, 1))
    assert reduzida is not None
    assert reduzida["resultado"]["valor"] == "10625000.00"  # × 3/12
    assert reduzida["avisos"] == []
    with pytest.raises(EntradaInvalida) as info:
        ciclo.criar(lista(caso_id=999_999))
    assert info.value.campo == "caso_id"


def test_informacoes_encaminhamento_e_comprovacoes_parciais(ciclo: Ciclo) -> None:
    ciclo.salvar_ano(
        {
            "cnpj": CNPJ,
            "ano": 2026,
            "meta_cbios": 10,
            "cbios_aposentados": 10,
            "segundo_ano_atuacao": True,
        }
    )
    derivado = ciclo.criar(lista())
    no_dia = ciclo.informacoes(derivado, date(2025, 12, 31))
    assert [i["informacao"] for i in no_dia] == ["comprovacao_parcial", "comprovacao_parcial"]
    depois = ciclo.informacoes(derivado, date(2026, 1, 1))
    assert depois[0]["informacao"] == "encaminhamento"
    assert depois[0]["fundamento"] == (
        "Decreto nº 9.888/2019, art. 6º, § 4º (incluído pelo Decreto nº 12.437/2025)"
    )
    assert [i["data"] for i in depois[1:]] == ["2026-06-30", "2026-12-31"]


def test_proximos_prazos_com_hoje_injetado(ciclo: Ciclo) -> None:
    a = ciclo.criar(lista()).armazenado.id  # limite_reducao 30/11/2026
    b = ciclo.criar(
        anp(
            ("infracao", "2026-01-05"),
            ("auto_infracao", "2026-02-02"),
            # 06/11/2026 (sexta) + 10 = 16/11/2026 (segunda)
            ("ciencia_primeira_instancia", "2026-11-06"),
        )
    ).armazenado.id
    itens = ciclo.proximos(date(2026, 11, 10), 30)
    # first the overdue defence (02/02/2026 + 15 = 17/02, Carnaval → 18/02/2026), then by date
    assert [(i["processo_id"], i["prazo"], i["data"], i["situacao"]) for i in itens] == [
        (b, "defesa", "2026-02-18", "vencido"),
        (b, "recurso", "2026-11-16", "em_aberto"),
        (a, "limite_reducao", "2026-11-30", "em_aberto"),
    ]
    assert itens[1]["fundamento"] == "Lei nº 9.784/1999, art. 59 (data não conferida)"
    # a met deadline leaves the calendar (but stays in § 6's output)
    ciclo.acrescentar(b, {"evento": "recurso", "data": "2026-11-12"})
    assert [i["prazo"] for i in ciclo.proximos(date(2026, 11, 10), 30)] == [
        "defesa",
        "limite_reducao",
    ]
    todos = ciclo.proximos(date(2026, 11, 10), 30, incluir_encerrados=True)
    assert [(i["prazo"], i["encerrado"]) for i in todos] == [
        ("defesa", False),
        ("recurso", True),
        ("limite_reducao", False),
    ]
    # a missed deadline never disappears: on 01/12/2026 the quitação window is overdue too
    assert [(i["prazo"], i["dias_de_atraso"]) for i in ciclo.proximos(date(2026, 12, 1), 30)] == [
        ("defesa", 286),
        ("limite_reducao", 1),
    ]
    assert ciclo.proximos(date(2026, 12, 1), 30, incluir_vencidos=False) == []


def test_lista_de_balanco_e_lista_antes_do_decreto(ciclo: Ciclo) -> None:
    ciclo.criar(
        {
            "tipo": "renovabio.balanco",
            "cnpj": CNPJ,
            "eventos": [
                {"evento": "inclusao_lista", "data": "2025-05-05"},
                {"evento": "comprovacao_adequacao", "data": "2025-06-02"},
            ],
        }
    )
    maio = ciclo.lista("balanco", date(2025, 5, 20))
    assert [(i["cnpj"], i["prazo_retirada"]) for i in maio["itens"]] == [(CNPJ, None)]
    junho = ciclo.lista("balanco", date(2025, 6, 3))
    # 02/06/2025 (segunda): 03, 04, 05, 06, 09 → 09/06/2025
    assert junho["itens"][0]["prazo_retirada"] == "2025-06-09"
    antes = ciclo.lista("encaminhamento", date(2025, 4, 16))
    assert antes["itens"] == [] and "ainda não existia" in antes["avisos"][0]
    with pytest.raises(EntradaInvalida):
        ciclo.lista("outra", date(2025, 6, 3))


def test_carteira_salva_ano_a_ano_e_importa_tudo_ou_nada(ciclo: Ciclo) -> None:
    ciclo.salvar_ano({"cnpj": CNPJ, "ano": 2024, "meta_cbios": 1000, "cbios_aposentados": 600})
    r = ciclo.salvar_ano(
        {
            "cnpj": CNPJ,
            "nome": "Distribuidora Exemplo",
            "ano": 2025,
            "meta_cbios": 1000,
            "cbios_aposentados": 1400,
        }
    )
    assert [(a["ano"], a["meta_total"], a["deficit"]) for a in r["anos"]] == [
        (2024, 1000, 400),
        (2025, 1400, 0),  # 1 000 + the 400 carried
    ]
    # listed by its key, the normalised CNPJ (issue 19, item 3)
    assert ciclo.distribuidores() == [
        {"cnpj": "12345678000195", "nome": "Distribuidora Exemplo", "anos": 2}
    ]
    # replacing a year recomputes the chain
    r = ciclo.salvar_ano({"cnpj": CNPJ, "ano": 2024, "meta_cbios": 1000, "cbios_aposentados": 1000})
    assert r["anos"][1]["meta_total"] == 1000
    antes = ciclo.carteira(CNPJ)
    with pytest.raises(EntradaInvalida) as info:
        ciclo.importar(
            [
                {"cnpj": CNPJ, "ano": "2026", "meta_cbios": "10", "cbios_aposentados": "10"},
                {
                    "cnpj": "22.333.444/0001-81",
                    "ano": "2026",
                    "meta_cbios": "x",
                    "cbios_aposentados": "1",
                },
            ]
        )
    assert info.value.campo == "meta_cbios"
    assert info.value.mensagem.startswith("item 2, campo meta_cbios: ")
    assert ciclo.carteira(CNPJ) == antes  # nothing stored
    ciclo.excluir_ano(CNPJ, 2025)
    assert [a["ano"] for a in ciclo.carteira(CNPJ)["anos"]] == [2024]
    with pytest.raises(NaoEncontrado):
        ciclo.carteira("00.000.000/0000-00")


def test_comprovacoes_parciais_so_depois_de_17_04_2025(ciclo: Ciclo) -> None:
    """Spec v3: the art. 4º-A partial checks exist from Decreto 12.437/2025 (17/04/2025): in a
    second year of 2024 there were none; in 2025 both dates (30/06 and 31/12) are after it."""
    for ano in (2024, 2025):
        ciclo.salvar_ano(
            {
                "cnpj": CNPJ,
                "ano": ano,
                "meta_cbios": 10,
                "cbios_aposentados": 10,
                "segundo_ano_atuacao": True,
            }
        )
    derivado = ciclo.criar(lista())
    datas = [
        i["data"]
        for i in ciclo.informacoes(derivado, date(2025, 12, 31))
        if i["informacao"] == "comprovacao_parcial"
    ]
    assert datas == ["2025-06-30", "2025-12-31"]
