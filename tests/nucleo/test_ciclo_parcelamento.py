"""Spec § 6.2 v4: the schedule of a parcelamento (Lei nº 10.522/2002 art. 37-B), and
``multas parcelamento simular``."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from multas.nucleo.ciclo.parcelamento import simular
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.legislacao import carregar


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
