"""Exact numbers, the single rounding policy and pt-BR formatting (spec § 1)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from multas.nucleo.dinheiro import (
    MAXIMO_ALGARISMOS,
    arredondar,
    casas_decimais,
    exibir,
    formatar_brl,
    formatar_numero,
    formatar_percentual,
    normalizar_ptbr,
    para_decimal,
)
from multas.nucleo.erros import EntradaInvalida


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

    from multas.nucleo.dinheiro import arredondar, formatar_brl, para_json

    enorme = arredondar(Fraction(10**40 + 1, 3))
    assert para_json(enorme) == "3" * 40 + ".67"  # (10^40 + 1) / 3
    assert formatar_brl(enorme).endswith("333.333,67")
    assert para_json(arredondar(Fraction(-1, 200))) == "-0.01"
    assert para_json(arredondar(Fraction(-1, 1000))) == "0.00"


# --- what a user reads: each message by equality, each bound on both sides ------------------


def _recusa(valor: object) -> tuple[str | None, str]:
    with pytest.raises(EntradaInvalida) as info:
        para_decimal(valor, "principal")
    return info.value.campo, info.value.mensagem


@pytest.mark.parametrize(
    ("valor", "mensagem"),
    [
        (True, "deve ser um número, não um booleano"),
        ([1], "deve ser um número"),
        (None, "deve ser um número"),
        (Decimal("NaN"), "deve ser um número finito"),
        (Decimal("-Infinity"), "deve ser um número finito"),
        ("1,5", "número inválido: '1,5' (use ponto como separador decimal, ex.: 1234.56)"),
    ],
)
def test_numero_recusado_com_campo_e_motivo(valor: object, mensagem: str) -> None:
    assert _recusa(valor) == ("principal", mensagem)


@pytest.mark.parametrize(
    "valor", ["999999999999999.99", "-999999999999999", Decimal("1E+14"), 10**15 - 1]
)
def test_quinze_algarismos_inteiros_sao_aceitos(valor: object) -> None:
    assert para_decimal(valor, "principal") == Decimal(str(valor))


@pytest.mark.parametrize(
    "valor", ["1000000000000000", "-1000000000000000.00", 10**15, Decimal("1E+15")]
)
def test_dezesseis_algarismos_inteiros_sao_recusados(valor: object) -> None:
    assert _recusa(valor) == (
        "principal",
        "número grande demais (no máximo 15 algarismos inteiros)",
    )


def test_cem_casas_decimais_sao_aceitas_cento_e_uma_nao() -> None:
    cem = "0." + "0" * 99 + "1"
    assert para_decimal(cem, "preco") == Decimal(cem)
    assert _recusa("0." + "0" * 100 + "1") == ("principal", "casas decimais demais (no máximo 100)")


def test_zero_nao_tem_sinal() -> None:
    assert str(arredondar(0)) == "0.00"
    assert str(arredondar(Fraction(-1, 201))) == "0.00"  # −0,004975 rounds to zero, unsigned
    assert exibir(0) == "0"
    assert exibir(Decimal("-0")) == "0"
    assert formatar_brl(arredondar(Fraction(-1, 1000))) == "R$ 0,00"


def test_exibir_negativos_e_denominadores_grandes() -> None:
    assert exibir(Fraction(-1, 4)) == "-0.25"
    assert exibir(Fraction(-7, 3), casas=2) == "-2.33…"
    assert exibir(-5) == "-5"
    # 2 × 5^30 and 5^30: terminating, written in full (30 places), never through a float
    assert exibir(Fraction(1, 2 * 5**30)) == "0." + str(2**29).rjust(30, "0")
    assert exibir(Fraction(1, 5**30)) == "0." + str(2**30).rjust(30, "0")
    assert exibir(Fraction(3, 2**40)) == "0." + str(3 * 5**40).rjust(40, "0")


def test_exibir_dizima_mantem_zeros_das_casas_truncadas() -> None:
    # 0,1000000000333…: the ten places shown end in zeros, which stay (they are digits)
    assert exibir(Fraction(1, 10) + Fraction(1, 3 * 10**10)) == "0.1000000000…"
    assert exibir(Fraction(100, 3), casas=0) == "33…"


@pytest.mark.parametrize(
    ("valor", "esperado"),
    [
        ("0", "0"),
        ("1234", "1.234"),
        ("-1234.5", "-1.234,5"),
        ("-0.25", "-0,25"),
        ("81003.3333…", "81.003,3333…"),
        ("12345…", "12.345…"),
        ("-1234567.0001…", "-1.234.567,0001…"),
    ],
)
def test_formatar_numero_ptbr(valor: str, esperado: str) -> None:
    assert formatar_numero(valor) == esperado


@pytest.mark.parametrize(
    ("valor", "casas"),
    [("5", 0), ("1E+3", 0), ("0", 0), ("1.0", 1), ("1.23", 2), ("1.230", 3), ("-0.001", 3)],
)
def test_casas_decimais_escritas(valor: str, casas: int) -> None:
    assert casas_decimais(Decimal(valor)) == casas


# --- prices for people, the exact fraction read back (issue 37, item 5) ---------------------


def test_preco_para_pessoas_com_quatro_casas_pela_politica_unica() -> None:
    from multas.nucleo.dinheiro import formatar_preco, preco_de_arquivo

    # the mean of January 2024's quotes: never the fraction, never a decimal point
    assert formatar_preco("2445833317/22000000") == "R$ 111,1742"
    assert formatar_preco(Fraction(2445833317, 22000000)) == "R$ 111,1742"
    assert formatar_preco(Fraction(1, 8)) == "R$ 0,1250"  # always 4 places
    assert formatar_preco(Fraction(11117424999, 10**8)) == "R$ 111,1742"  # below the tie...
    assert formatar_preco(Fraction(11117425, 10**5)) == "R$ 111,1743"  # ...the tie goes up
    assert formatar_preco(Decimal("1234.5")) == "R$ 1.234,5000"
    assert preco_de_arquivo("2445833317/22000000") == "111.1742"
    assert preco_de_arquivo(Decimal("71.7"), virgula=True) == "71,7000"


@settings(max_examples=300, deadline=None)
@given(
    st.integers(min_value=1, max_value=10**20),
    st.integers(min_value=1, max_value=10**20),
    st.booleans(),
)
def test_toda_fracao_que_o_multas_escreve_volta_como_entrada(
    numerador: int, denominador: int, ptbr: bool
) -> None:
    """Round trip: every exact price multas writes (``exato``: a decimal or ``p/q``) is read
    back, exactly, by the price parser of every input (JSON, a table, a pt-BR table), and its
    4-place form is the one rounding of the same value."""
    from multas.nucleo.contrato import JSON, Campo, Leitura, ler_valor
    from multas.nucleo.dinheiro import arredondar_preco, preco_de_arquivo
    from multas.nucleo.preco import exato

    valor = Fraction(numerador, denominador)
    assume(valor < 10**MAXIMO_ALGARISMOS)
    escrito = exato(valor)
    if ptbr:  # a pt-BR file writes a decimal comma (multas lote --ptbr: preco_exato)
        escrito = escrito.replace(".", ",")
    campo = Campo("maior_media_mensal", "preco", "", False, 0)
    leitura = Leitura(tabela=True, decimal_virgula=ptbr) if ptbr else JSON
    assert Fraction(ler_valor(escrito, campo, leitura)) == valor
    assert Decimal(preco_de_arquivo(valor)) == arredondar_preco(valor)


@pytest.mark.parametrize("texto", ["1.5/3", "1/0", "0/3", "1e3/2", "1/3.0", "١/٣", "1//3", "/3"])
def test_fracao_que_nao_e_de_inteiros_continua_recusada(texto: str) -> None:
    from multas.nucleo.contrato import Campo, ler_valor

    with pytest.raises(EntradaInvalida, match="maior_media_mensal"):
        ler_valor(texto, Campo("maior_media_mensal", "preco", "", False, 0))


def test_um_sinal_so_para_as_diferencas() -> None:
    from multas.nucleo.dinheiro import formatar_com_sinal, formatar_preco

    assert formatar_brl(Decimal("-212.08")) == "-R$ 212,08"  # the sign before R$, always
    assert formatar_com_sinal(Decimal("1111487.92")) == "+R$ 1.111.487,92"
    assert formatar_com_sinal("-212.08") == "-R$ 212,08"
    assert formatar_com_sinal(0) == "R$ 0,00"
    assert formatar_com_sinal(-500000, formatar_numero) == "-500.000"
    assert formatar_com_sinal("-93317/22000000", formatar_preco) == "-R$ 0,0042"


def test_percentual_com_duas_casas_no_maximo() -> None:
    """Issue 37 item 14: 6/7 was shown as 85,7142857142…%."""
    assert formatar_percentual(Fraction(6, 7)) == "85,71%"
    assert formatar_percentual(Fraction(3, 20)) == "15%"
    assert formatar_percentual(Fraction(1, 3)) == "33,33%"
