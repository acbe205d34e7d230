"""Spec v4 § 6 and § 3.7: the suspension's aviso names the paused days (W10); a deadline that
lapsed before the court order stays vencido (point 5, vencido-antes-da-suspensao); a lapsed
collection limitation makes the estado cobranca_prescrita (point 6, cobranca-prescrita).
Dates counted by hand beside each assertion."""

from __future__ import annotations

from typing import Any

from multas.nucleo.ciclo import analisar, calcular_prazos
from multas.saidas.texto import rotulo_estado


def anp(*eventos: tuple[str, str], **extra: Any) -> dict[str, Any]:
    return {"tipo": "anp", "eventos": [{"evento": e, "data": d} for e, d in eventos], **extra}


def prazos(r: dict[str, Any]) -> dict[str, tuple[str, str]]:
    return {p["prazo"]: (p["data"], p["situacao"]) for p in r["prazos"]}


def aviso_da_suspensao(r: dict[str, Any]) -> str:
    return next(a for a in r["avisos"] if a.startswith("Suspensão judicial"))


# --- W10: the paused days, named -------------------------------------------------------------


def test_aviso_da_suspensao_encerrada_nomeia_os_dias() -> None:
    # 10/01/2022 (included) to 10/03/2022 (excluded): 21 + 28 + 9 = 59 days, the last 09/03
    r = calcular_prazos(
        anp(
            ("infracao", "2021-02-01"),
            ("auto_infracao", "2021-03-01"),
            ("suspensao_judicial", "2022-01-10"),
            ("fim_suspensao_judicial", "2022-03-10"),
            data_referencia="2022-06-01",
        )
    )
    aviso = aviso_da_suspensao(r)
    assert "de 10/01/2022 a 09/03/2022 (59 dias corridos;" in aviso
    assert "o dia do fim da suspensão, 10/03/2022, já corre" in aviso
    assert "seus termos, que decidem" in aviso


def test_aviso_de_duas_suspensoes_e_da_aberta() -> None:
    # 01/03 to 31/03/2021 (31 days), then from 01/06/2021, open on 10/06/2021: 10 days
    r = calcular_prazos(
        anp(
            ("infracao", "2021-01-04"),
            ("suspensao_judicial", "2021-03-01"),
            ("fim_suspensao_judicial", "2021-04-01"),
            ("suspensao_judicial", "2021-06-01"),
            data_referencia="2021-06-10",
        )
    )
    aviso = aviso_da_suspensao(r)
    assert "de 01/03/2021 a 31/03/2021 (31 dias corridos;" in aviso
    assert (
        "de 01/06/2021 até a data de referência, 10/06/2021, com a suspensão ainda em vigor "
        "(10 dias corridos até essa data)"
    ) in aviso
    # 04/01/2026 + 31 + 10 = 14/02/2026
    assert prazos(r)["prescricao"] == ("2026-02-14", "suspenso")


# --- point 5: vencido-antes-da-suspensao -----------------------------------------------------


def test_prazo_vencido_antes_da_ordem_continua_vencido() -> None:
    # defesa: 01/03/2021 + 15 = 16/03/2021 (terça), lapsed before the order of 01/04/2021;
    # the prescrição runs on and is suspended
    r = calcular_prazos(
        anp(
            ("infracao", "2021-02-01"),
            ("auto_infracao", "2021-03-01"),
            ("suspensao_judicial", "2021-04-01"),
            data_referencia="2021-04-05",
        )
    )
    assert r["estado"] == "suspenso"
    assert prazos(r)["defesa"] == ("2021-03-16", "vencido")
    assert prazos(r)["prescricao"][1] == "suspenso"


def test_prazo_que_vence_no_dia_da_ordem_fica_suspenso() -> None:
    # the order on the deadline's own day (16/03/2021): on or after the start, suspended
    r = calcular_prazos(
        anp(
            ("infracao", "2021-02-01"),
            ("auto_infracao", "2021-03-01"),
            ("suspensao_judicial", "2021-03-16"),
            data_referencia="2021-04-05",
        )
    )
    assert prazos(r)["defesa"] == ("2021-03-16", "suspenso")


def test_acao_segue_a_suspensao_mesmo_com_prazo_vencido() -> None:
    situacao = analisar(
        anp(
            ("infracao", "2021-02-01"),
            ("auto_infracao", "2021-03-01"),
            ("suspensao_judicial", "2021-04-01"),
            data_referencia="2021-04-05",
        )
    )
    assert situacao.proxima_acao is not None and situacao.proxima_acao.quem == "judiciario"


# --- point 6: cobranca-prescrita ---------------------------------------------------------------

#: vencimento 02/06/2020 + 30 = 02/07/2020 (quinta); prescricao_cobranca 02/07/2025
DEFINITIVA = (
    ("infracao", "2019-01-10"),
    ("auto_infracao", "2019-02-01"),
    ("ciencia_primeira_instancia", "2019-09-02"),
    ("recurso", "2019-09-05"),
    ("ciencia_decisao_definitiva", "2020-06-02"),
)


def test_cobranca_prescrita_prevalece_sobre_a_divida_ativa() -> None:
    # inscription 01/08/2020 pauses 180 days (01/08/2020 to 27/01/2021): 02/07/2025 + 180 =
    # 29/12/2025
    eventos = (*DEFINITIVA, ("inscricao_divida_ativa", "2020-08-01"))
    no_dia = calcular_prazos(anp(*eventos, data_referencia="2025-12-29"))
    assert no_dia["estado"] == "divida_ativa"
    assert prazos(no_dia)["prescricao_cobranca"] == ("2025-12-29", "em_aberto")
    r = calcular_prazos(anp(*eventos, data_referencia="2025-12-30"))
    assert r["estado"] == "cobranca_prescrita"
    assert prazos(r)["prescricao_cobranca"] == ("2025-12-29", "vencido")
    assert r["proxima_acao"] is None
    aviso = next(a for a in r["avisos"] if a.startswith("Prescrição da cobrança consumada"))
    assert "em 29/12/2025" in aviso
    assert "(Lei nº 9.873/1999, art. 1º-A)" in aviso
    assert "art. 2º-A da mesma lei (texto não transcrito)" in aviso


def test_cobranca_prescrita_sem_inscricao_e_paga_nao() -> None:
    r = calcular_prazos(anp(*DEFINITIVA, data_referencia="2025-07-03"))
    assert r["estado"] == "cobranca_prescrita"
    assert analisar(anp(*DEFINITIVA, data_referencia="2025-07-03")).estado_rotulo == (
        "cobrança prescrita"
    )
    pago = calcular_prazos(
        anp(*DEFINITIVA, ("pagamento", "2020-07-01"), data_referencia="2025-07-03")
    )
    assert pago["estado"] == "pago"
    assert prazos(pago)["prescricao_cobranca"] == ("2025-07-02", "encerrado")


def test_cobranca_prescrita_antes_da_suspensao_prevalece() -> None:
    # lapsed on 02/07/2025; a court order of 01/08/2025 does not revive it
    r = calcular_prazos(
        anp(*DEFINITIVA, ("suspensao_judicial", "2025-08-01"), data_referencia="2025-08-10")
    )
    assert r["estado"] == "cobranca_prescrita"
    assert prazos(r)["prescricao_cobranca"] == ("2025-07-02", "vencido")


def test_estado_novo_nas_listas_de_estados() -> None:
    from multas.nucleo.ciclo.pendencias import ESTADOS as DA_FILA
    from multas.nucleo.eventos import ESTADOS
    from multas.servidor.openapi import esquemas_do_ciclo

    assert "cobranca_prescrita" in ESTADOS and "cobranca_prescrita" in DA_FILA
    assert rotulo_estado("anp", "cobranca_prescrita") == "cobrança prescrita"
    assert "cobranca_prescrita" in str(esquemas_do_ciclo())
