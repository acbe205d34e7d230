"""Decreto 2.953/1999 arts. 26–27 with Lei 9.784/1999 art. 66. Spec § 3.5."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from tests.conftest import calc, erro


def mora(principal: str, ciencia: str, pagamento: str, **outros: object) -> dict[str, object]:
    return calc(
        regime="anp.mora",
        principal=principal,
        data_ciencia=ciencia,
        data_pagamento=pagamento,
        **outros,
    )


def test_art26_pago_no_prazo_sem_acrescimos() -> None:
    r = mora("5000.00", "2025-06-02", "2025-07-02")
    assert (r["vencimento"], r["meses_atraso"], r["valor"]) == ("2025-07-02", 0, "5000.00")


def test_art26_vencimento_em_dia_sem_expediente_e_prorrogado() -> None:
    # 29/03/2024 (Sexta-feira Santa) + 30 = 28/04 (domingo) → 29/04
    r = mora("250000", "2024-03-29", "2024-07-01")
    assert (r["vencimento"], r["meses_atraso"]) == ("2024-04-29", 3)
    assert (r["juros_mora"], r["multa_mora"], r["valor"]) == ("7500.00", "15000.00", "272500.00")


def test_art26_paragrafo_unico_cada_encargo_arredondado() -> None:
    r = mora("1234567.89", "2023-01-01", "2023-03-01")
    assert (r["juros_mora"], r["multa_mora"], r["valor"]) == ("24691.36", "49382.72", "1308641.97")


def test_art26_paragrafo_unico_mes_ou_fracao() -> None:
    assert mora("1000", "2024-10-21", "2024-11-22")["meses_atraso"] == 1
    assert mora("1000", "2024-10-21", "2024-12-21")["meses_atraso"] == 1
    assert mora("1000", "2024-10-21", "2024-12-22")["meses_atraso"] == 2


def test_art26_multa_de_mora_simples_e_sem_limite() -> None:
    r = mora("1000", "2010-01-04", "2020-01-04")
    assert r["meses_atraso"] == 120
    assert r["multa_mora"] == "2400.00"  # 2% × 120, not capped at 20%


def test_art66_par1_calendario_expediente_e_feriados() -> None:
    r = mora("100000.00", "2025-02-02", "2025-03-06")
    assert (r["vencimento"], r["valor"]) == ("2025-03-06", "100000.00")
    assert r["alternativas"] == [
        {"interpretacao": {"calendario": "feriados"}, "valor": "103000.00"}
    ]
    r = mora("100000.00", "2025-02-02", "2025-03-06", interpretacao={"calendario": "feriados"})
    assert (r["vencimento"], r["valor"]) == ("2025-03-04", "103000.00")


def test_art27_aviso_de_divida_ativa_e_lei_10522() -> None:
    atrasado = mora("1000", "2024-01-02", "2024-06-01")
    assert any("Dívida Ativa" in a for a in atrasado["avisos"])
    em_dia = mora("1000", "2024-01-02", "2024-01-10")
    assert not any("Dívida Ativa" in a for a in em_dia["avisos"])
    assert any("37-A" in a for a in em_dia["avisos"])
    assert em_dia["interpretacao"] == {"calendario": "expediente", "encargos": "decreto"}


def test_principal_deve_ser_positivo_com_ate_duas_casas() -> None:
    assert (
        erro(
            regime="anp.mora", principal="0", data_ciencia="2024-01-01", data_pagamento="2024-02-01"
        ).campo
        == "principal"
    )
    assert (
        erro(
            regime="anp.mora",
            principal="1.005",
            data_ciencia="2024-01-01",
            data_pagamento="2024-02-01",
        ).campo
        == "principal"
    )
    assert (
        erro(
            regime="anp.mora",
            principal="-5",
            data_ciencia="2024-01-01",
            data_pagamento="2024-02-01",
        ).campo
        == "principal"
    )


def test_calendario_desconhecido_e_erro() -> None:
    e = erro(
        regime="anp.mora",
        principal="1",
        data_ciencia="2024-01-01",
        data_pagamento="2024-02-01",
        interpretacao={"calendario": "uteis"},
    )
    assert e.campo == "interpretacao.calendario"


# --- Lei 10.522/2002 art. 37-A with Lei 9.430/1996 art. 61 (interpretacao.encargos) ----------

LEI_10522 = {"encargos": "lei-10522"}
SELIC_2025 = {f"2025-{m:02d}": f"1.{m:02d}" for m in range(1, 13)}


def test_dias_atraso_e_saida_das_duas_leituras_e_zero_sem_atraso() -> None:
    # 02/06/2025 + 30 = 02/07/2025 (quarta-feira)
    assert mora("1000", "2025-06-02", "2025-07-02")["dias_atraso"] == 0
    assert mora("1000", "2025-06-02", "2025-07-03")["dias_atraso"] == 1
    assert mora("1000", "2025-06-02", "2025-06-10")["dias_atraso"] == 0  # paid early
    r = mora("1000", "2025-06-02", "2025-07-03", taxas_selic=SELIC_2025, interpretacao=LEI_10522)
    assert r["dias_atraso"] == 1


@pytest.mark.parametrize(
    ("pagamento", "dias", "multa"),
    [
        ("2025-06-03", 1, "33.00"),  # 0,33% × 1
        ("2025-08-01", 60, "1980.00"),  # 0,33% × 60 = 19,8%
        ("2025-08-02", 61, "2000.00"),  # 20,13% → capped at 20%
        ("2026-06-02", 365, "2000.00"),
    ],
)
def test_lei_9430_art61_multa_033_por_dia_limitada_a_20(
    pagamento: str, dias: int, multa: str
) -> None:
    # ciência 02/05/2025 + 30 = 01/06/2025 (domingo) → 02/06/2025
    selic = {f"{a}-{m:02d}": "1" for a in (2025, 2026) for m in range(1, 13)}
    r = mora("10000.00", "2025-05-02", pagamento, taxas_selic=selic, interpretacao=LEI_10522)
    assert (r["vencimento"], r["dias_atraso"], r["multa_mora"]) == ("2025-06-02", dias, multa)


@pytest.mark.parametrize(
    ("pagamento", "juros"),
    [
        ("2025-06-30", "0.00"),  # the vencimento's month: no interest
        ("2025-07-01", "100.00"),  # the next month: 1% only
        ("2025-08-01", "207.00"),  # July's Selic (1,07%) + 1%
        ("2025-09-15", "315.00"),  # 1,07% + 1,08% + 1%
    ],
)
def test_lei_9430_art61_par3_selic_dos_meses_entre_e_1_no_mes_do_pagamento(
    pagamento: str, juros: str
) -> None:
    r = mora("10000.00", "2025-05-02", pagamento, taxas_selic=SELIC_2025, interpretacao=LEI_10522)
    assert r["juros_mora"] == juros
    assert r["fundamento"] == "Lei nº 10.522/2002, art. 37-A; Lei nº 9.430/1996, art. 61"
    assert Decimal(r["valor"]) == Decimal("10000.00") + Decimal(juros) + Decimal(r["multa_mora"])


def test_lei_10522_sem_taxas_selic_e_erro_quando_escolhida() -> None:
    e = erro(
        regime="anp.mora",
        principal="1000",
        data_ciencia="2025-05-02",
        data_pagamento="2025-06-20",  # the same month: no rate is needed, the field still is
        interpretacao=LEI_10522,
    )
    assert e.campo == "taxas_selic"
    assert e.mensagem.startswith("campo obrigatório na leitura encargos = lei-10522")


def test_lei_10522_fica_fora_das_alternativas_quando_nao_se_pode_calcular() -> None:
    assert mora("1000", "2025-05-02", "2025-09-15")["alternativas"] == []  # no taxas_selic
    faltando = {"2025-07": "1.07"}  # August is needed and missing
    r = mora("1000", "2025-05-02", "2025-09-15", taxas_selic=faltando)
    assert r["alternativas"] == []
    r = mora("1000", "2025-05-02", "2025-09-15", taxas_selic=SELIC_2025)
    assert r["alternativas"] == [{"interpretacao": {"encargos": "lei-10522"}, "valor": "1231.50"}]


def test_lei_10522_mes_faltando_e_erro_que_nomeia_o_mes() -> None:
    e = erro(
        regime="anp.mora",
        principal="1000",
        data_ciencia="2025-05-02",
        data_pagamento="2025-09-15",
        taxas_selic={"2025-07": "1.07"},
        interpretacao=LEI_10522,
    )
    assert e.campo == "taxas_selic.2025-08"
    assert "2025-08" in e.mensagem


@pytest.mark.parametrize(
    ("taxas", "campo"),
    [
        ({}, "taxas_selic"),
        ({"2025-13": "1"}, "taxas_selic.2025-13"),
        ({"2025-7": "1"}, "taxas_selic.2025-7"),
        ({"2025-07": "-0.01"}, "taxas_selic.2025-07"),
        ({"2025-07": "abc"}, "taxas_selic.2025-07"),
        ({"2025-07": True}, "taxas_selic.2025-07"),
        ({"2025-07": None}, "taxas_selic.2025-07"),
        ([["2025-07", "1"]], "taxas_selic"),
    ],
)
def test_taxas_selic_cada_entrada_e_validada_mesmo_na_leitura_decreto(
    taxas: object, campo: str
) -> None:
    e = erro(
        regime="anp.mora",
        principal="1000",
        data_ciencia="2025-05-02",
        data_pagamento="2025-06-20",
        taxas_selic=taxas,
    )
    assert e.campo == campo


def test_taxa_zero_e_numero_json_sao_aceitos() -> None:
    r = mora(
        "1000.00",
        "2025-05-02",
        "2025-08-01",
        taxas_selic={"2025-07": Decimal("0"), "2030-01": 2},
        interpretacao=LEI_10522,
    )
    assert r["juros_mora"] == "10.00"


@pytest.mark.parametrize(
    ("ciencia", "aceito"),
    [
        ("2008-11-03", False),  # + 30 = 03/12/2008: before MP 449/2008 (DOU 04/12/2008)
        ("2008-11-04", True),  # + 30 = 04/12/2008
    ],
)
def test_art37A_existe_desde_04_12_2008(ciencia: str, aceito: bool) -> None:
    campos: dict[str, Any] = {
        "principal": "1000",
        "data_ciencia": ciencia,
        "data_pagamento": "2008-12-20",
        "taxas_selic": {"2008-12": "1"},
        "interpretacao": LEI_10522,
    }
    if aceito:
        assert calc(regime="anp.mora", **campos)["vencimento"] == "2008-12-04"
        return
    e = erro(regime="anp.mora", **campos)
    assert e.campo == "data_ciencia"
    assert e.mensagem.startswith("regime não vigente")
    # the other reading leaves it out of the alternativas instead
    decreto = calc(regime="anp.mora", **{**campos, "interpretacao": {"encargos": "decreto"}})
    assert decreto["alternativas"] == []


def test_aviso_do_art37A_na_leitura_decreto_e_dos_30_dias_da_lei_9847() -> None:
    sem = mora("1000", "2025-05-02", "2025-06-20")
    assert any("informe taxas_selic" in a for a in sem["avisos"])
    com = mora("1000", "2025-05-02", "2025-06-20", taxas_selic=SELIC_2025)
    assert any("veja essa leitura entre as alternativas" in a for a in com["avisos"])
    assert any("pela Lei nº 9.847/1999 (art. 4º, § 1º)" in a for a in sem["avisos"])
    antes = mora("1000", "2001-05-02", "2001-06-20")  # art. 37-A did not exist yet
    assert not any("37-A" in a for a in antes["avisos"])


@pytest.mark.parametrize(("pagamento", "aviso"), [("2025-06-02", False), ("2025-06-03", True)])
def test_art27_aviso_de_divida_ativa_so_depois_do_vencimento(pagamento: str, aviso: bool) -> None:
    r = mora("1000", "2025-05-02", pagamento)  # vencimento 02/06/2025
    assert any("Dívida Ativa" in a for a in r["avisos"]) is aviso
