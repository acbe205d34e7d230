"""Exact numbers, the single rounding policy and pt-BR formatting (spec § 1)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from multas.dinheiro import (
    arredondar,
    exibir,
    formatar_brl,
    formatar_percentual,
    normalizar_ptbr,
    para_decimal,
)
from multas.erros import EntradaInvalida


def test_json_number_and_string_are_parsed_exactly() -> None:
    # the spec's check: 1.83 − 1.82 is exactly 0.01
    assert para_decimal(Decimal("1.83"), "x") - para_decimal("1.82", "x") == Decimal("0.01")
    assert para_decimal(1.83, "x") - para_decimal(1.82, "x") == Decimal("0.01")


@pytest.mark.parametrize(
    ("entrada", "esperado"),
    [
        (Fraction(1, 200), "0.01"),  # 0.005 → half up
        (Fraction(-1, 200), "-0.01"),
        (Fraction(1, 300), "0.00"),
        (Decimal("12500000.0125"), "12500000.01"),
        (Decimal("15000000.025"), "15000000.03"),
        (Fraction(6627500, 12), "552291.67"),
        (7, "7.00"),
    ],
)
def test_arredondamento_unico_meio_para_cima(
    entrada: Fraction | Decimal | int, esperado: str
) -> None:
    assert str(arredondar(entrada)) == esperado


@pytest.mark.parametrize("texto", ["abc", "1,5", "1e5", "NaN", "", " ", "1.2.3"])
def test_texto_numerico_invalido_e_rejeitado(texto: str) -> None:
    with pytest.raises(EntradaInvalida) as info:
        para_decimal(texto, "principal")
    assert info.value.campo == "principal"


def test_booleano_nao_e_numero() -> None:
    with pytest.raises(EntradaInvalida):
        para_decimal(True, "valor")


def test_nan_e_infinito_sao_rejeitados() -> None:
    for valor in (Decimal("NaN"), Decimal("Infinity"), float("inf")):
        with pytest.raises(EntradaInvalida):
            para_decimal(valor, "valor")


def test_formatacao_brasileira() -> None:
    assert formatar_brl(Decimal("1234567.89")) == "R$ 1.234.567,89"
    assert formatar_brl("0") == "R$ 0,00"
    assert formatar_brl(Decimal("100000")) == "R$ 100.000,00"
    assert formatar_percentual(Fraction(1, 20)) == "5%"
    assert formatar_percentual(Fraction(33, 10000)) == "0,33%"


def test_notacao_ptbr() -> None:
    assert normalizar_ptbr("1.234,56") == "1234.56"
    assert normalizar_ptbr("71,70") == "71.70"
    assert normalizar_ptbr("71.70") == "71.70"


def test_exibir_valor_intermediario_sem_perder_exatidao() -> None:
    assert exibir(Fraction(1, 4)) == "0.25"
    assert exibir(Fraction(1, 3)) == "0.3333333333…"
    assert exibir(Fraction(12500000125, 1000)) == "12500000.125"
    assert exibir(5) == "5"


def test_arredondar_e_formatar_valores_enormes_sem_perder_digitos() -> None:
    from fractions import Fraction

    from multas.dinheiro import arredondar, formatar_brl, para_json

    enorme = arredondar(Fraction(10**40 + 1, 3))
    assert para_json(enorme) == "3" * 40 + ".67"  # (10^40 + 1) / 3
    assert formatar_brl(enorme).endswith("333.333,67")
    assert para_json(arredondar(Fraction(-1, 200))) == "-0.01"
    assert para_json(arredondar(Fraction(-1, 1000))) == "0.00"
