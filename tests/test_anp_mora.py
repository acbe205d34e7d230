"""Decreto 2.953/1999 arts. 26–27 with Lei 9.784/1999 art. 66. Spec § 3.5."""

from __future__ import annotations

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
