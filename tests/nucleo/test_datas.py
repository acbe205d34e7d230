"""Dates: "mês ou fração", business days from `holidays`, prazos (spec § 1, Lei 9.784 art. 66)."""

from __future__ import annotations

from datetime import date, timedelta

import holidays
import pytest
from hypothesis import given
from hypothesis import strategies as st

from multas.nucleo.calendario import Expediente
from multas.nucleo.datas import (
    dia_util,
    dias_uteis_depois,
    meses_completos,
    meses_ou_fracao,
    para_data,
    prazo_em_dias,
    somar_meses,
)
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.legislacao import carregar

EXPEDIENTE = Expediente(carregar().calendario, "expediente")
FERIADOS = Expediente(carregar().calendario, "feriados")


def test_somar_meses_a_partir_da_data_inicial_com_fim_de_mes() -> None:
    assert somar_meses(date(2025, 12, 31), 2) == date(2026, 2, 28)
    assert somar_meses(date(2025, 12, 31), 11) == date(2026, 11, 30)
    assert somar_meses(date(2024, 1, 31), 1) == date(2024, 2, 29)


@given(st.dates(), st.integers(-130_000, 130_000))
def test_somar_meses_e_o_da_dateutil(inicio: date, meses: int) -> None:
    """Months added as dateutil's ``relativedelta`` adds them (the day clamped to the month's
    end), a date past the calendar refused the same way."""
    from dateutil.relativedelta import relativedelta

    try:
        esperado: date | None = inicio + relativedelta(months=meses)
    except ValueError:
        esperado = None
    if esperado is None:
        with pytest.raises(ValueError):
            somar_meses(inicio, meses)
    else:
        assert somar_meses(inicio, meses) == esperado


@pytest.mark.parametrize(
    ("a", "b", "k"),
    [
        (date(2025, 12, 31), date(2025, 12, 31), 0),
        (date(2025, 12, 31), date(2025, 12, 1), 0),
        (date(2025, 12, 31), date(2026, 1, 1), 1),
        (date(2025, 12, 31), date(2026, 1, 31), 1),
        (date(2025, 12, 31), date(2026, 2, 1), 2),
        (date(2025, 12, 31), date(2026, 2, 28), 2),
        (date(2025, 12, 31), date(2026, 3, 1), 3),
        (date(2025, 12, 31), date(2026, 11, 30), 11),
        (date(2025, 12, 31), date(2026, 12, 1), 12),
        (date(2023, 1, 31), date(2023, 3, 1), 2),
    ],
)
def test_mes_ou_fracao(a: date, b: date, k: int) -> None:
    assert meses_ou_fracao(a, b) == k


@given(st.dates(date(2000, 1, 1), date(2090, 12, 31)), st.integers(0, 2000))
def test_mes_ou_fracao_e_o_menor_k(a: date, dias: int) -> None:
    b = a + timedelta(days=dias)
    k = meses_ou_fracao(a, b)
    if b <= a:
        assert k == 0
    else:
        assert k >= 1
        assert somar_meses(a, k) >= b
        assert k == 1 or somar_meses(a, k - 1) < b


def test_feriados_nacionais_sao_os_da_biblioteca_holidays() -> None:
    # v3: the pontos facultativos come from each year's portaria (multas.nucleo.calendario), no
    # longer from the library; the national holidays still match it, in both readings
    feriados = holidays.country_holidays("BR", categories=("public",), years=range(2019, 2031))
    for dia in feriados:
        if dia.weekday() < 5:
            assert not dia_util(dia, EXPEDIENTE), dia
            assert not dia_util(dia, FERIADOS), dia


@pytest.mark.parametrize(
    "dia",
    [
        date(2024, 3, 29),  # Sexta-feira Santa
        date(2024, 11, 20),  # Consciência Negra, desde 2024
        date(2025, 3, 3),  # Carnaval (segunda)
        date(2025, 3, 4),  # Carnaval (terça)
        date(2025, 6, 19),  # Corpus Christi
        date(2025, 6, 20),  # ponto facultativo da Portaria MGI nº 9.783/2024
        date(2025, 10, 27),  # Dia do Servidor Público de 2025, comemorado em 27/10
    ],
)
def test_dias_sem_expediente(dia: date) -> None:
    assert not dia_util(dia, EXPEDIENTE)


@pytest.mark.parametrize(
    "dia",
    [
        date(2025, 3, 5),  # Quarta-feira de Cinzas: ponto facultativo até as 14 horas
        date(2025, 10, 28),  # o Dia do Servidor de 2025 foi comemorado em 27/10
        date(2025, 12, 24),  # encerra às 13h: conta como dia útil (mas nenhum prazo termina)
        date(2025, 12, 31),
    ],
)
def test_dias_com_expediente_parcial_sao_uteis(dia: date) -> None:
    assert dia_util(dia, EXPEDIENTE)


def test_carnaval_e_ponto_facultativo_nao_feriado() -> None:
    assert dia_util(date(2025, 3, 4), FERIADOS)
    assert not dia_util(date(2024, 3, 29), FERIADOS)


def test_lei_9784_art66_exclui_o_comeco_inclui_o_vencimento_e_prorroga() -> None:
    nominal, vencimento, pulados = prazo_em_dias(date(2025, 2, 2), 30, EXPEDIENTE)
    assert nominal == date(2025, 3, 4)  # Carnaval
    assert vencimento == date(2025, 3, 5)  # Cinzas: há expediente a partir das 14h
    assert [d for d, _ in pulados] == [date(2025, 3, 4)]
    # a notice on a weekend still counts from that day
    assert prazo_em_dias(date(2025, 6, 1), 30, EXPEDIENTE)[0] == date(2025, 7, 1)


@pytest.mark.parametrize(
    "texto", ["2026-02-30", "2025-13-01", "31/12/2025", "2025-1-5", "20250105", ""]
)
def test_data_invalida(texto: str) -> None:
    with pytest.raises(EntradaInvalida) as info:
        para_data(texto, "data_ciencia")
    assert info.value.campo == "data_ciencia"


def test_meses_ou_fracao_ate_o_ultimo_dia_representavel() -> None:
    from datetime import date

    from multas.nucleo.datas import meses_ou_fracao

    # 03/03/1999 + k months passes 31/12/9999 only past year 9999: k is the last month
    assert meses_ou_fracao(date(1999, 3, 3), date(9999, 12, 31)) == (9999 - 1999) * 12 + 10


def test_meses_completos_de_um_dia_a_ele_mesmo_e_zero() -> None:
    assert meses_completos(date(2025, 3, 10), date(2025, 3, 10)) == 0
    assert meses_completos(date(2025, 3, 10), date(2025, 3, 9)) == 0
    assert meses_completos(date(2025, 3, 10), date(2025, 4, 10)) == 1


def test_dias_uteis_depois_um_dia_e_zero_recusado() -> None:
    # Monday 14/04/2025: one business day later is Tuesday 15/04, nothing skipped
    assert dias_uteis_depois(date(2025, 4, 14), 1, EXPEDIENTE) == (
        date(2025, 4, 15),
        [date(2025, 4, 15)],
        [],
    )
    with pytest.raises(ValueError, match=r"^dias_uteis deve ser ≥ 1$"):
        dias_uteis_depois(date(2025, 4, 14), 0, EXPEDIENTE)


def test_dias_uteis_depois_conta_24_12_mas_nao_termina_nele() -> None:
    """24/12/2025 closes early: it is counted, the count does not end on it, 25/12 is Natal,
    so the deadline is Friday 26/12 (Lei 9.784/1999 art. 66 § 1º); each skip says why."""
    dia, contados, pulados = dias_uteis_depois(date(2025, 12, 23), 1, EXPEDIENTE)
    assert (dia, contados) == (date(2025, 12, 26), [date(2025, 12, 24)])
    assert [d for d, _ in pulados] == [date(2025, 12, 24), date(2025, 12, 25)]
    assert pulados[1][1] == "Natal" and "Véspera de Natal" in pulados[0][1]


def test_dias_uteis_depois_segue_a_leitura_do_calendario() -> None:
    """Carnival Monday 03/03/2025 is a ponto facultativo: a business day under the
    ``feriados`` reading, not under ``expediente`` (Ash Wednesday 05/03 opens at 14h: counted)."""
    assert dias_uteis_depois(date(2025, 2, 28), 1, FERIADOS)[0] == date(2025, 3, 3)
    assert dias_uteis_depois(date(2025, 2, 28), 1, EXPEDIENTE)[0] == date(2025, 3, 5)
