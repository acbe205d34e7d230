"""The memória's words for the steps of § 6.2's account that repeat with every payment
(:mod:`multas.nucleo.ciclo.devido`): formatted only when the memória is read, from the values
of the step's own moment."""

from __future__ import annotations

from datetime import date
from fractions import Fraction

from multas.nucleo.datas import formatar_data
from multas.nucleo.dinheiro import arredondar, formatar_brl, formatar_percentual
from multas.nucleo.rotulos import leitura


def texto_juros(de: date, ate: date, p: Fraction, j0: Fraction, j1: Fraction) -> str:
    return (
        f"Juros de mora {_periodo(de, ate, p)}: taxa acumulada desde o vencimento de "
        f"{_pct(j0)} a {_pct(j1)} (arredondados ao centavo)"
    )


def texto_multa(de: date, ate: date, p: Fraction, m0: Fraction, m1: Fraction) -> str:
    return (
        f"Multa de mora {_periodo(de, ate, p)}: de {_pct(m0)} a {_pct(m1)} (arredondada ao centavo)"
    )


def _periodo(de: date, ate: date, p: Fraction) -> str:
    return (
        f"de {formatar_data(de)} a {formatar_data(ate)}, sobre o principal em aberto de "
        f"{formatar_brl(arredondar(p))}"
    )


def texto_pagamento(
    dia: date,
    partes: tuple[Fraction, Fraction, Fraction, Fraction, Fraction | None, Fraction],
    imputacao: str,
) -> str:
    """A payment's step: (value, late fine, interest, principal, encargo legal or ``None``
    when none is owed, excess)."""
    valor, multa, juros, principal, legal, excedente = (
        None if v is None else formatar_brl(arredondar(v)) for v in partes
    )
    return (
        f"Pagamento de {formatar_data(dia)}: {valor}, imputado {multa} à multa de mora, "
        f"{juros} aos juros e {principal} ao principal"
        + (f" e {legal} ao encargo legal" if legal is not None else "")
        + (f"; excedente {excedente}" if partes[5] else "")
        + f" (leitura {leitura('imputacao', imputacao)}); em aberto depois dele"
    )


def _pct(fracao: Fraction) -> str:
    return formatar_percentual(fracao)
