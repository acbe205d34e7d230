"""Spec § 6.1 v4: the next action of every processo, the ANP's own deadlines of Decreto nº
2.953/1999 arts. 16 and 17 (alegações finais, julgamento) and the readings ``prazo_alegacoes``
and ``atos_instrucao``. Every date is counted by hand beside it."""

from __future__ import annotations

from typing import Any

import pytest

from multas.nucleo.ciclo import calcular_prazos
from multas.nucleo.erros import EntradaInvalida

#: citação 03/02/2025 (segunda); defesa 10/02/2025
INICIO = (("infracao", "2025-01-10"), ("auto_infracao", "2025-02-03"), ("defesa", "2025-02-10"))
#: intimação para alegações finais 02/06/2025 (segunda)
INTIMACAO = ("intimacao_alegacoes_finais", "2025-06-02")


def anp(*eventos: tuple[str, str], referencia: str, **extra: Any) -> dict[str, Any]:
    return {
        "tipo": "anp",
        "eventos": [{"evento": e, "data": d} for e, d in eventos],
        "data_referencia": referencia,
        **extra,
    }


def prazos(r: dict[str, Any]) -> dict[str, tuple[str, str]]:
    return {p["prazo"]: (p["data"], p["situacao"]) for p in r["prazos"]}


def acao(r: dict[str, Any]) -> tuple[str, str, str, str | None] | None:
    a = r["proxima_acao"]
    return None if a is None else (a["quem"], a["o_que"], a["desde"], a["ate"])


# --- the new events and their deadlines ----------------------------------------------------


def test_alegacoes_finais_em_5_dias_e_julgamento_em_30_do_fim_delas() -> None:
    r = calcular_prazos(anp(*INICIO, INTIMACAO, referencia="2025-06-05"))
    assert r["estado"] == "alegacoes_finais"
    # 02/06 + 5 = 07/06 (sábado) → 09/06/2025 (segunda); 09/06 + 30 = 09/07/2025 (quarta)
    assert prazos(r)["alegacoes_finais"] == ("2025-06-09", "em_aberto")
    assert prazos(r)["julgamento"] == ("2025-07-09", "em_aberto")
    alegacoes = next(p for p in r["prazos"] if p["prazo"] == "alegacoes_finais")
    assert alegacoes["fundamento"] == "Decreto nº 2.953/1999, art. 16, caput"
    assert alegacoes["responsavel"] == "autuado"
    assert (
        "leitura adotada: Prazo das alegações finais: o do Decreto nº 2.953/1999"
        in (alegacoes["contagem"])
    )
    julgamento = next(p for p in r["prazos"] if p["prazo"] == "julgamento")
    assert julgamento["responsavel"] == "anp"
    assert julgamento["fundamento"] == (
        "Decreto nº 2.953/1999, art. 17, parágrafo único; "
        "Decreto nº 2.953/1999, art. 16, parágrafo único"
    )
    avisos = " ".join(r["avisos"])
    assert "a data em que ela recebeu o processo decide" in avisos
    assert (
        "Lei nº 9.784/1999, art. 49 (data não conferida; texto não transcrito), que também admite prorrogação"
        in (avisos)
    )
    # the other reading (10 days: 12/06/2025, quinta) gives another date
    assert "terminaria em 12/06/2025, não em 09/06/2025" in avisos
    # both rest on Decreto 2.953 and count from a date after 17/04/2025: the 2025 note
    for nome in ("“Alegações finais”", "“Julgamento em primeira instância pela ANP”"):
        assert any(nome in a and "Decreto nº 12.437/2025" in a for a in r["avisos"]), nome
    # the intimação moves the process: the 3 years restart from it, the 5 do not (default)
    assert prazos(r)["prescricao_intercorrente"] == ("2028-06-02", "em_aberto")
    assert prazos(r)["prescricao"] == ("2030-02-03", "em_aberto")


def test_julgamento_conta_da_remessa_e_e_cumprido_pela_ciencia() -> None:
    eventos = (
        *INICIO,
        INTIMACAO,
        ("alegacoes_finais", "2025-06-06"),
        ("remessa_julgamento", "2025-06-12"),
    )
    r = calcular_prazos(anp(*eventos, referencia="2025-06-20"))
    assert r["estado"] == "em_julgamento"
    # 12/06 + 30 = 12/07 (sábado) → 14/07/2025 (segunda)
    assert prazos(r)["julgamento"] == ("2025-07-14", "em_aberto")
    assert prazos(r)["alegacoes_finais"] == ("2025-06-09", "cumprido")
    assert not any("decide; registre-a" in a for a in r["avisos"])
    assert acao(r) == ("anp", "julgar", "2025-06-12", "2025-07-14")
    decidido = calcular_prazos(
        anp(*eventos, ("ciencia_primeira_instancia", "2025-07-18"), referencia="2025-07-18")
    )
    assert prazos(decidido)["julgamento"] == ("2025-07-14", "cumprido_com_atraso")
    assert any("a ciência pode ser posterior a ela" in a for a in decidido["avisos"])
    assert any(
        "(ciencia_primeira_instancia) (18/07/2025) ocorreu 4 dias corridos depois do prazo" in a
        for a in decidido["avisos"]
    )


def test_ordem_dos_novos_eventos() -> None:
    with pytest.raises(EntradaInvalida) as sem_intimacao:
        calcular_prazos(anp(*INICIO, ("alegacoes_finais", "2025-06-06"), referencia="2025-06-06"))
    assert sem_intimacao.value.campo == "eventos[3].evento"
    assert "deve vir depois de “Intimação para alegações finais”" in sem_intimacao.value.mensagem
    for nome in ("intimacao_alegacoes_finais", "remessa_julgamento"):
        with pytest.raises(EntradaInvalida) as depois:
            calcular_prazos(
                anp(
                    *INICIO,
                    ("ciencia_primeira_instancia", "2025-06-02"),
                    (nome, "2025-06-03"),
                    referencia="2025-06-03",
                )
            )
        assert depois.value.campo == "eventos[4].evento"
        assert "deve vir antes de “Ciência da decisão de primeira instância”" in (
            depois.value.mensagem
        )
    with pytest.raises(EntradaInvalida) as sem_auto:
        calcular_prazos(anp(("infracao", "2025-01-10"), INTIMACAO, referencia="2025-06-03"))
    assert "deve vir depois de “Ciência do auto de infração (citação)”" in sem_auto.value.mensagem


# --- the two readings ----------------------------------------------------------------------


def test_prazo_alegacoes_lei_9784() -> None:
    r = calcular_prazos(
        anp(
            *INICIO,
            INTIMACAO,
            referencia="2025-06-05",
            interpretacao={"prazo_alegacoes": "lei-9784"},
        )
    )
    # 02/06 + 10 = 12/06/2025 (quinta); 12/06 + 30 = 12/07 (sábado) → 14/07/2025
    assert prazos(r)["alegacoes_finais"] == ("2025-06-12", "em_aberto")
    assert prazos(r)["julgamento"] == ("2025-07-14", "em_aberto")
    alegacoes = next(p for p in r["prazos"] if p["prazo"] == "alegacoes_finais")
    assert (
        alegacoes["fundamento"]
        == "Lei nº 9.784/1999, art. 44 (data não conferida; texto não transcrito)"
    )
    assert "o da lei geral do processo administrativo" in alegacoes["contagem"]
    assert any("terminaria em 09/06/2025, não em 12/06/2025" in a for a in r["avisos"])
    with pytest.raises(EntradaInvalida) as invalida:
        calcular_prazos(
            anp(*INICIO, referencia="2025-06-05", interpretacao={"prazo_alegacoes": "x"})
        )
    assert invalida.value.campo == "interpretacao.prazo_alegacoes"


def test_atos_instrucao_apuracao_interrompem_a_prescricao() -> None:
    eventos = (*INICIO, INTIMACAO, ("remessa_julgamento", "2025-06-12"))
    padrao = calcular_prazos(anp(*eventos, referencia="2025-06-20"))
    apuracao = calcular_prazos(
        anp(*eventos, referencia="2025-06-20", interpretacao={"atos_instrucao": "apuracao"})
    )
    # intercorrente: 3 years from the last act, 12/06/2028, under both readings
    assert prazos(padrao)["prescricao_intercorrente"][0] == "2028-06-12"
    assert prazos(apuracao)["prescricao_intercorrente"][0] == "2028-06-12"
    # prescrição: from the citação (03/02/2030) by default; from the remessa (12/06/2030)
    assert prazos(padrao)["prescricao"][0] == "2030-02-03"
    assert prazos(apuracao)["prescricao"][0] == "2030-06-12"
    prescricao = next(p for p in apuracao["prazos"] if p["prazo"] == "prescricao")
    assert prescricao["fundamento"].endswith("Lei nº 9.873/1999, art. 2º, II (data não conferida)")
    assert "também interrompem a prescrição da ação punitiva" in prescricao["contagem"]
    anterior = next(p for p in padrao["prazos"] if p["prazo"] == "prescricao")
    assert (
        "reiniciam só a prescrição intercorrente (leitura da especificação)"
        in (anterior["contagem"])
    )


# --- the next action -----------------------------------------------------------------------

CITACAO = (("infracao", "2025-01-10"), ("auto_infracao", "2025-02-03"))
DECIDIDO = (*INICIO, ("ciencia_primeira_instancia", "2025-08-01"))


@pytest.mark.parametrize(
    ("eventos", "referencia", "esperado"),
    [
        # prescrição 10/01/2030
        ((("infracao", "2025-01-10"),), "2025-01-20",
         ("anp", "lavrar o auto de infração", "2025-01-10", "2030-01-10")),
        # defesa: 03/02 + 15 = 18/02/2025 (terça)
        (CITACAO, "2025-02-18", ("autuado", "apresentar defesa", "2025-02-03", "2025-02-18")),
        # the day after, the ANP's: instruir e julgar before the intercorrente (03/02/2028)
        (CITACAO, "2025-02-19",
         ("anp", "prazo de defesa encerrado: instruir e julgar", "2025-02-19", "2028-02-03")),
        (INICIO, "2025-03-01", ("anp", "instruir e julgar", "2025-02-10", "2028-02-10")),
        ((*INICIO, INTIMACAO), "2025-06-09",
         ("autuado", "apresentar alegações finais", "2025-06-02", "2025-06-09")),
        ((*INICIO, INTIMACAO), "2025-06-10",
         ("anp", "prazo de alegações finais encerrado: julgar", "2025-06-10", "2025-07-09")),
        ((*INICIO, INTIMACAO, ("alegacoes_finais", "2025-06-06")), "2025-06-10",
         ("anp", "julgar", "2025-06-06", "2025-07-09")),
        # recurso: 01/08 + 10 = 11/08/2025 (segunda)
        (DECIDIDO, "2025-08-11",
         ("autuado", "recorrer ou renunciar ao recurso", "2025-08-01", "2025-08-11")),
        # prescrição restarted by the decision: 01/08/2030
        (DECIDIDO, "2025-08-12", ("anp", "prazo de recurso encerrado: notificar a decisão "
                                  "definitiva", "2025-08-12", "2030-08-01")),
        ((*DECIDIDO, ("recurso", "2025-08-05")), "2025-09-01",
         ("anp", "julgar o recurso", "2025-08-05", "2028-08-05")),
        # renúncia 04/08: desconto até 11/08; pagamento 04/08 + 30 = 03/09/2025 (quarta)
        ((*DECIDIDO, ("renuncia_recurso", "2025-08-04")), "2025-08-11",
         ("autuado", "pagar com desconto", "2025-08-04", "2025-08-11")),
        ((*DECIDIDO, ("renuncia_recurso", "2025-08-04")), "2025-08-12",
         ("autuado", "pagar a multa", "2025-08-12", "2025-09-03")),
        # the vencimento lapsed: the ANP sends it to the Dívida Ativa before 03/09/2030
        ((*DECIDIDO, ("renuncia_recurso", "2025-08-04")), "2025-09-04",
         ("anp", "prazo de pagamento encerrado: encaminhar para inscrição em Dívida Ativa",
          "2025-09-04", "2030-09-03")),
        # definitiva 01/09: pagamento 01/10/2025 (quarta); cobrança: 01/10/2030 + the 180
        # days the inscription pauses it = 30/03/2031
        ((*DECIDIDO, ("recurso", "2025-08-05"), ("ciencia_decisao_definitiva", "2025-09-01")),
         "2025-09-10", ("autuado", "pagar", "2025-09-01", "2025-10-01")),
        ((*DECIDIDO, ("recurso", "2025-08-05"), ("ciencia_decisao_definitiva", "2025-09-01"),
          ("inscricao_divida_ativa", "2025-10-10")), "2025-11-01",
         ("procuradoria", "cobrar judicialmente", "2025-10-10", "2031-03-30")),
        ((*DECIDIDO, ("renuncia_recurso", "2025-08-04"), ("pagamento", "2025-08-08")),
         "2025-09-01", None),
        ((*CITACAO, ("suspensao_judicial", "2025-02-10")), "2025-03-01",
         ("judiciario", "aguardar a decisão judicial", "2025-02-10", None)),
        # stalled from the citação: intercorrente 03/02/2028, lapsed
        (CITACAO, "2028-02-04", ("anp", "arquivar os autos", "2028-02-04", None)),
    ],
)  # fmt: skip
def test_proxima_acao_anp(
    eventos: tuple[tuple[str, str], ...],
    referencia: str,
    esperado: tuple[str, str, str, str | None] | None,
) -> None:
    assert acao(calcular_prazos(anp(*eventos, referencia=referencia))) == esperado


def test_o_prazo_da_parte_encerrado_continua_vencido() -> None:
    r = calcular_prazos(anp(*CITACAO, referencia="2025-02-19"))
    assert prazos(r)["defesa"] == ("2025-02-18", "vencido")
    assert (
        r["proxima_acao"]["fundamento"] == "Lei nº 9.873/1999, art. 1º, § 1º (data não conferida)"
    )
    pagamento = calcular_prazos(
        anp(*DECIDIDO, ("renuncia_recurso", "2025-08-04"), referencia="2025-09-04")
    )
    assert pagamento["proxima_acao"]["fundamento"].startswith("Decreto nº 2.953/1999, art. 27")
    assert prazos(pagamento)["pagamento"] == ("2025-09-03", "vencido")


@pytest.mark.parametrize(
    ("tipo", "eventos", "esperado"),
    [
        ("renovabio.lista", [("fim_prazo_meta", "2025-12-31")],
         ("anp", "decidir em primeira instância", "2025-12-31", None)),
        ("renovabio.lista", [("fim_prazo_meta", "2025-12-31"),
                             ("decisao_primeira_instancia", "2026-02-06")],
         ("anp", "incluir na lista", "2026-02-06", None)),
        ("renovabio.lista", [("fim_prazo_meta", "2025-12-31"),
                             ("decisao_primeira_instancia", "2026-02-06"),
                             ("inclusao_lista", "2026-02-09")],
         ("autuado", "quitar a meta e pedir a retirada", "2026-02-09", None)),
        ("renovabio.lista", [("fim_prazo_meta", "2025-12-31"), ("quitacao_meta", "2026-02-10")],
         ("autuado", "pedir a retirada", "2026-02-10", None)),
        # pedido 12/02/2026 (quinta): 13; 16-17 Carnaval; 18 (quarta de cinzas, expediente
        # a partir das 14h: não termina prazo), 19, 20, 23 → 5º dia útil 23/02/2026
        ("renovabio.lista", [("fim_prazo_meta", "2025-12-31"),
                             ("decisao_primeira_instancia", "2026-02-06"),
                             ("inclusao_lista", "2026-02-09"), ("quitacao_meta", "2026-02-10"),
                             ("pedido_retirada", "2026-02-12")],
         ("anp", "retirar da lista", "2026-02-12", "2026-02-23")),
        ("renovabio.balanco", [("inclusao_lista", "2026-04-01")],
         ("autuado", "comprovar a adequação", "2026-04-01", None)),
        ("renovabio.balanco", [("inclusao_lista", "2026-04-01"),
                               ("comprovacao_adequacao", "2026-04-14"),
                               ("retirada_lista", "2026-04-20")], None),
    ],
)  # fmt: skip
def test_proxima_acao_das_listas(
    tipo: str, eventos: list[tuple[str, str]], esperado: tuple[str, ...] | None
) -> None:
    r = calcular_prazos(
        {
            "tipo": tipo,
            "eventos": [{"evento": e, "data": d} for e, d in eventos],
            "data_referencia": eventos[-1][1],
        }
    )
    assert acao(r) == esperado
