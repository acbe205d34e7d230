"""Spec § 6.2 v4: the schedule of a parcelamento (Lei nº 10.522/2002 art. 37-B), and
``multas parcelamento simular``."""

from __future__ import annotations

import contextlib
from datetime import date
from decimal import Decimal

import pytest

from multas.nucleo.ciclo.parcelamento import simular
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.legislacao import carregar
from tests.utils.processos import PLANO, evento


def test_doze_prestacoes_com_a_selic_de_cada_mes() -> None:
    """12.000,05 on 31/01/2024 in 12: 1.000,00 each, the last 1.000,05; due on the 31st, or the
    month's last day (29/02/2024). If paid on its due date, instalment 4 (30/04) bears the Selic
    of 02 and 03/2024 (0,80 + 0,83) + 1% = 2,63%; instalment 12 (31/12) that of 02 to 11/2024
    (8,48) + 1% = 9,48%; the first two, in the consolidation's month and the next, only 1%."""
    r = simular(Decimal("12000.05"), 12, date(2024, 1, 31), carregar()).como_dict()
    cronograma = r["cronograma"]
    assert [p["valor"] for p in cronograma] == ["1000.00"] * 11 + ["1000.05"]
    assert sum(Decimal(p["valor"]) for p in cronograma) == Decimal("12000.05")
    assert [p["vencimento"] for p in cronograma[:3]] == ["2024-01-31", "2024-02-29", "2024-03-31"]
    assert [p["taxa_juros"] for p in cronograma[:2]] == ["1", "1"]
    assert (cronograma[3]["taxa_juros"], cronograma[3]["juros"]) == ("2.63", "26.30")
    assert (cronograma[11]["taxa_juros"], cronograma[11]["valor_com_juros"]) == ("9.48", "1094.85")
    assert any("art. 37-B, § 1º" in a for a in r["avisos"])


def test_mes_sem_selic_deixa_os_juros_nulos_com_aviso() -> None:
    r = simular(Decimal("600"), 6, date(2025, 3, 10), carregar()).como_dict()
    assert [p["juros"] is None for p in r["cronograma"]] == [False, False, False, True, True, True]
    assert any("taxa Selic de 05/2025 não disponível" in a for a in r["avisos"])


@pytest.mark.parametrize(
    ("consolidado", "parcelas", "minimo", "mensagem"),
    [
        ("100", 61, None, "de 1 a 60 prestações mensais"),
        ("100", 0, None, "de 1 a 60 prestações mensais"),
        ("0.05", 6, None, "abaixo de um centavo"),
        ("1000", 12, "100", "no máximo 10 prestações"),
        ("50", 2, "100", "o débito é menor que uma prestação mínima"),
    ],
)
def test_recusas(consolidado: str, parcelas: int, minimo: str | None, mensagem: str) -> None:
    with pytest.raises(EntradaInvalida) as erro:
        simular(
            Decimal(consolidado),
            parcelas,
            date(2024, 1, 31),
            carregar(),
            None if minimo is None else Decimal(minimo),
        )
    assert erro.value.campo == "parcelas" and mensagem in erro.value.mensagem


def test_antes_do_art_37b_e_erro() -> None:
    with pytest.raises(EntradaInvalida) as erro:
        simular(Decimal("100"), 2, date(2008, 12, 3), carregar())
    assert erro.value.campo == "data" and "04/12/2008" in erro.value.mensagem


# --- the parcelamento event in a processo (spec § 6.2 v4) --------------------------------


@pytest.mark.parametrize(
    ("em", "saldo", "estado"),
    [
        # 10.000 − 3.000: the discount still to be had
        ("2024-06-12", "7000.00", "parcelado"),
        # after the first instalment: 7.210 − 600,83 = 6.609,17, and paying all today costs
        # 1% more on each (10 × 6,01 + 6,01) = 66,11
        ("2024-07-31", "6675.28", "parcelado"),
        # two paid: 6.008,34 left; on 15/09, the Selic of 08/2024 (0,87) + 1% = 1,87% on
        # each: 10 × 11,24 + 11,24 = 112,40
        ("2024-09-15", "6120.74", "parcelado"),
        # 30/09, 31/10 and 30/11 unpaid: rescinded on 01/12 (three past due, the default
        # count); the 6.008,34 is owed from that day with § 3.5's charges, none yet
        ("2024-12-01", "6008.34", "parcelamento_rescindido"),
        # 01/12/2024 → 15/01/2025: 2 months "ou fração": 2% = 120,17, 4% = 240,33
        ("2025-01-15", "6368.84", "parcelamento_rescindido"),
    ],
)
def test_saldo_com_pagamento_parcial_desconto_perdido_e_12_prestacoes(
    em: str, saldo: str, estado: str
) -> None:
    from multas.nucleo.ciclo.prazos import calcular_prazos

    r = calcular_prazos(
        {"tipo": "anp", "valor_multa": "10000.00", "eventos": PLANO, "data_referencia": em}
    )
    assert (r["devido"]["saldo"], r["estado"]) == (saldo, estado)
    if em >= "2024-07-31":
        parcelamento = r["devido"]["parcelamento"]
        assert [p["valor"] for p in parcelamento["prestacoes"]] == ["600.83"] * 11 + ["600.87"]
        situacoes = {
            p["prazo"]: p["situacao"] for p in r["prazos"] if p["prazo"].startswith("parcela_")
        }
        segunda = "cumprido" if em >= "2024-08-30" else "em_aberto"
        assert (situacoes["parcela_1"], situacoes["parcela_2"]) == ("cumprido", segunda)
        if estado == "parcelamento_rescindido":
            assert parcelamento["rescindido_em"] == "2024-12-01"
            assert situacoes["parcela_3"] == "encerrado"
            assert r["proxima_acao"]["quem"] == "procuradoria"
        else:
            assert r["proxima_acao"]["o_que"] == "pagar a prestação do parcelamento"
    assert any(
        a.startswith("Rescisão do parcelamento (leitura rescisao-parcelamento): 3")
        for a in r["avisos"]
    ) == (em >= "2024-07-31")


def test_parcelamento_recusas_e_avisos() -> None:
    from multas.nucleo.ciclo.prazos import calcular_prazos

    def erro(eventos: list[dict[str, object]], **extra: object) -> EntradaInvalida:
        with pytest.raises(EntradaInvalida) as e:
            calcular_prazos(
                {
                    "tipo": "anp",
                    "valor_multa": "10000.00",
                    "eventos": eventos,
                    "data_referencia": "2024-12-01",
                    **extra,
                }
            )
        return e.value

    sem_plano = [*PLANO[:6], evento("parcelamento", "2024-07-31")]
    assert erro(sem_plano).campo == "eventos[6].parcelas"
    assert (
        erro(
            [
                *PLANO[:6],
                evento("parcelamento", "2024-07-31", parcelas=61, valor_consolidado="7210"),
            ]
        ).campo
        == "eventos[6].parcelas"
    )
    assert (
        erro(
            [
                *PLANO[:6],
                evento(
                    "parcelamento",
                    "2024-07-31",
                    parcelas=2,
                    valor_consolidado="7210",
                    parcelas_para_rescisao=3,
                ),
            ]
        ).campo
        == "eventos[6].parcelas_para_rescisao"
    )
    assert erro(PLANO, valor_minimo_parcela="700").campo == "eventos[6].parcelas"
    assert (
        erro(
            [*PLANO[:3], evento("parcelamento", "2024-07-31", parcelas=2, valor_consolidado="7210")]
        ).campo
        == "eventos[3].evento"
    )  # not definitive
    assert (
        erro(
            [*PLANO[:7], evento("parcelamento", "2024-08-31", parcelas=2, valor_consolidado="1")]
        ).campo
        == "eventos[7].evento"
    )  # once
    # before the inscription: an aviso citing art. 37-B § 1º; a count given, and said
    r = calcular_prazos(
        {
            "tipo": "anp",
            "valor_multa": "10000.00",
            "eventos": [
                *PLANO[:5],
                evento(
                    "parcelamento",
                    "2024-07-31",
                    parcelas=12,
                    valor_consolidado="7000.00",
                    parcelas_para_rescisao=1,
                ),
            ],
            "data_referencia": "2024-08-02",
        }
    )
    assert any("art. 37-B, § 1º" in a and "sem inscrição" in a for a in r["avisos"])
    assert any("difere do valor devido" in a for a in r["avisos"])
    # one unpaid instalment past due is enough with parcelas_para_rescisao = 1
    assert (r["estado"], r["devido"]["parcelamento"]["rescindido_em"]) == (
        "parcelamento_rescindido",
        "2024-08-01",
    )


def test_as_prestacoes_sao_prazos_mesmo_sem_o_devido() -> None:
    """The schedule, its situações and the rescission need no Selic: past the series, and
    without valor_multa, the instalments are still deadlines; a payment a centavo short pays
    no instalment off; a plan on 31/12/9999 is no crash."""
    from multas.nucleo.ciclo.prazos import calcular_prazos

    vencimentos = [
        "2024-09-30",
        "2024-10-31",
        "2024-11-30",
        "2024-12-31",
        "2025-01-31",
        "2025-02-28",
        "2025-03-31",
        "2025-04-30",
        "2025-05-31",
    ]
    pagos = [*PLANO, *(evento("pagamento", dia, valor="650.00") for dia in vencimentos)]
    r = calcular_prazos(
        {
            "tipo": "anp",
            "valor_multa": "10000.00",
            "eventos": pagos,
            "data_referencia": "2025-06-15",
        }
    )
    assert "devido" not in r and r["estado"] == "parcelado"
    assert any(p["prazo"] == "parcela_12" for p in r["prazos"])
    assert r["proxima_acao"]["o_que"] == "pagar a prestação do parcelamento"
    sem_multa = [e for e in PLANO if e["evento"] != "pagamento"]
    r = calcular_prazos({"tipo": "anp", "eventos": sem_multa, "data_referencia": "2024-08-15"})
    assert (
        r["estado"] == "parcelado"
        and sum(p["prazo"].startswith("parcela_") for p in r["prazos"]) == 12
    )
    # 600,50 + 1% = 606,51: 606,50 leaves the first instalment unpaid
    curto = [
        *PLANO[:6],
        evento("parcelamento", "2024-07-31", parcelas=12, valor_consolidado="7206.00"),
        evento("pagamento", "2024-07-31", valor="606.50"),
    ]
    r = calcular_prazos(
        {
            "tipo": "anp",
            "valor_multa": "10000.00",
            "eventos": curto,
            "data_referencia": "2024-08-05",
        }
    )
    primeira = r["devido"]["parcelamento"]["prestacoes"][0]
    assert (primeira["saldo"], primeira["quitada_em"]) == ("0.01", None)
    fim = [
        evento("infracao", "9999-01-10"),
        evento("auto_infracao", "9999-02-01"),
        evento("ciencia_primeira_instancia", "9999-11-02"),
        evento("ciencia_decisao_definitiva", "9999-11-03"),
        evento("parcelamento", "9999-12-31", parcelas=1, valor_consolidado="10.00"),
        evento("pagamento", "9999-12-31", valor="1.00"),
    ]
    with contextlib.suppress(EntradaInvalida):  # a named input error is fine; a crash is not
        calcular_prazos(
            {"tipo": "anp", "valor_multa": "10.00", "eventos": fim, "data_referencia": "9999-12-31"}
        )


def _em(eventos: list[dict[str, object]], em: str, **extra: object) -> dict[str, object]:
    from multas.nucleo.ciclo.prazos import calcular_prazos

    processo = {"tipo": "anp", "valor_multa": "10000.00", "eventos": eventos, "data_referencia": em}
    return calcular_prazos(processo | extra)


def test_a_proxima_acao_do_plano_comeca_antes_do_vencimento_e_na_rescisao() -> None:
    # the third instalment (30/09) is next from the day after the second fell due
    acao = _em(PLANO, "2024-09-15")["proxima_acao"]
    assert (acao["quem"], acao["desde"], acao["ate"]) == ("autuado", "2024-09-01", "2024-09-30")
    acao = _em(PLANO, "2025-01-15")["proxima_acao"]
    assert (acao["quem"], acao["desde"]) == ("procuradoria", "2024-12-01")


def test_inscricao_com_o_parcelamento_em_vigor_nao_o_encerra() -> None:
    # the plan first (an aviso: art. 37-B § 1º), the inscription while it is in force
    depois = [*PLANO[:5], PLANO[6], PLANO[7], evento("inscricao_divida_ativa", "2024-08-15")]
    r = _em(depois, "2024-08-20", encargo_legal_percentual="20")
    assert r["estado"] == "parcelado" and r["proxima_acao"]["quem"] == "autuado"
    assert r["proxima_acao"]["desde"] <= r["proxima_acao"]["ate"] == "2024-08-31"
    assert r["devido"].get("encargo_legal") is None
    assert any("com o parcelamento em vigor" in a for a in r["avisos"])
    # unpaid, it is rescinded: the procuradoria acts from that day
    r = _em(depois, "2025-01-15", encargo_legal_percentual="20")
    assert r["estado"] == "parcelamento_rescindido"
    assert r["proxima_acao"]["desde"] == r["devido"]["parcelamento"]["rescindido_em"]
    # an inscription after the rescission: divida_ativa, with the encargo legal
    rescindido = [*depois[:-1], evento("inscricao_divida_ativa", "2025-01-10")]
    r = _em(rescindido, "2025-01-15", encargo_legal_percentual="20")
    assert r["estado"] == "divida_ativa" and r["devido"]["encargo_legal"] not in (None, "0.00")
