"""The end of a limitation period that does not run on paused days (spec § 6 v3: court
suspensions, and the 180 days of the Dívida Ativa inscription): ``_fim_com_pausas`` against a
day-by-day count, for any pauses, overlapping, adjacent, before or after the start."""

from __future__ import annotations

from datetime import date, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from multas.nucleo.ciclo.contagem import _fim_com_pausas

INICIO = date(2020, 1, 10)


def _contado_dia_a_dia(inicio: date, nominal: date, pausas: list[tuple[date, date]]) -> date:
    """The least F with as many unpaused days in (inicio, F] as days from inicio to nominal
    (a pause is [início, fim))."""
    faltam, dia = (nominal - inicio).days, inicio
    while faltam > 0:
        dia += timedelta(days=1)
        if not any(a <= dia < b for a, b in pausas):
            faltam -= 1
    return dia


pausas = st.lists(
    st.tuples(st.integers(-40, 400), st.integers(0, 120)).map(
        lambda t: (INICIO + timedelta(days=t[0]), INICIO + timedelta(days=t[0] + t[1]))
    ),
    max_size=5,
)


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 300), pausas)
def test_fim_com_pausas_e_a_contagem_dia_a_dia(dias: int, lista: list[tuple[date, date]]) -> None:
    nominal = INICIO + timedelta(days=dias)
    assert _fim_com_pausas(INICIO, nominal, lista) == _contado_dia_a_dia(INICIO, nominal, lista)


def test_fim_com_pausas_exemplos_contados_a_mao() -> None:
    d = date.fromisoformat
    # 10 days from 10/01; paused 12/01 to 15/01 (4 days: 12, 13, 14, 15): ends 24/01
    assert _fim_com_pausas(
        d("2020-01-10"), d("2020-01-20"), [(d("2020-01-12"), d("2020-01-16"))]
    ) == d("2020-01-24")
    # the same pause given twice, and one inside it: still 4 days
    dupla = [
        (d("2020-01-12"), d("2020-01-16")),
        (d("2020-01-13"), d("2020-01-15")),
        (d("2020-01-12"), d("2020-01-16")),
    ]
    assert _fim_com_pausas(d("2020-01-10"), d("2020-01-20"), dupla) == d("2020-01-24")
    # a pause before the start, and one that starts on the start day, count only after it
    assert _fim_com_pausas(
        d("2020-01-10"), d("2020-01-20"), [(d("2020-01-01"), d("2020-01-11"))]
    ) == d("2020-01-20")
    # a pause after the end does not move it; one starting the day after the end does not either
    assert _fim_com_pausas(
        d("2020-01-10"), d("2020-01-20"), [(d("2020-01-21"), d("2020-02-01"))]
    ) == d("2020-01-20")
    # an open-ended pause (the inscription until it ends): past 31/12/9999 is 31/12/9999
    assert (
        _fim_com_pausas(d("2020-01-10"), d("2020-01-20"), [(d("2020-01-15"), date.max)]) == date.max
    )
