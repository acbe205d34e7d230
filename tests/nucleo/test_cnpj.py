"""multas.nucleo.cnpj (issue 19, item 3): the CNPJ's normal and display forms and its check digits, in
the numeric and the alphanumeric form (IN RFB nº 2.229/2024), against the Receita's example, an
oracle written from the rule as the Receita states it, and hostile text."""

from __future__ import annotations

import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from multas.nucleo.cnpj import (
    digitos_validos,
    digitos_verificadores,
    formatar,
    ler_cnpj,
    normalizar,
)
from multas.nucleo.erros import EntradaInvalida

ALFABETO = string.digits + string.ascii_uppercase


def _dv_oraculo(caracteres: str) -> str:
    """One check digit as the Receita describes it: weights 2, 3, …, 9, 2, 3, … from the
    rightmost character leftwards; each character worth its ASCII code minus 48; the weighted sum
    modulus 11; remainder 0 or 1 gives 0, otherwise 11 minus the remainder."""
    soma = 0
    for i, c in enumerate(reversed(caracteres)):
        soma += (ord(c) - 48) * (2 + i % 8)
    resto = soma % 11
    return "0" if resto in (0, 1) else str(11 - resto)


def _valido_oraculo(cnpj: str) -> bool:
    if len(cnpj) != 14 or any(c not in ALFABETO for c in cnpj[:12]):
        return False
    dv1 = _dv_oraculo(cnpj[:12])
    return cnpj[12:] == dv1 + _dv_oraculo(cnpj[:12] + dv1)


bases = st.text(alphabet=ALFABETO, min_size=12, max_size=12)
validos = bases.map(lambda b: b + digitos_verificadores(b))


# --- examples ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "texto",
    [
        "12.ABC.345/01DE-35",  # the Receita's example (IN RFB nº 2.229/2024)
        "12ABC34501DE35",
        "12.abc.345/01de-35",
        "  12.ABC.345/01DE-35\n",
        "11.222.333/0001-81",
        "11222333000181",
        "00.000.000/0001-91",
        "33.000.167/0001-01",
    ],
)
def test_validos(texto: str) -> None:
    assert digitos_validos(texto)


@pytest.mark.parametrize(
    "texto",
    [
        "12.ABC.345/01DE-36",
        "12.ABC.345/01DE-53",
        "12.ABC.345/01DE-3A",  # check digits are digits
        "11.222.333/0001-80",
        "11.222.333/0001-18",
        "1122233300018",  # 13 characters
        "112223330001810",  # 15
        "11 222 333 0001 81",  # a space inside stays, so this is not 14 characters
        "11.222.333/0001-8١",  # an Arabic-Indic one is not the digit 1
        "١١.٢٢٢.٣٣٣/٠٠٠١-٨١",
        "11.222.333/0001-81\x00",
        "",
        "-./",
    ],
)
def test_invalidos(texto: str) -> None:
    assert not digitos_validos(texto)


def test_formas() -> None:
    assert normalizar(" 12.abc.345/01de-35 ") == "12ABC34501DE35"
    assert formatar(normalizar("12abc34501de35")) == "12.ABC.345/01DE-35"
    assert formatar("11222333000181") == "11.222.333/0001-81"
    assert formatar("ABC") == "ABC"
    assert digitos_verificadores("12ABC34501DE") == "35"
    assert digitos_verificadores("112223330001") == "81"


def test_maiusculas_so_do_ascii() -> None:
    # str.upper would make "ſ" an "S" and "ﬁ" an "FI": text that is not a CNPJ would become one
    assert normalizar("ſ") == "ſ"
    assert normalizar("ﬁ") == "ﬁ"
    assert normalizar("ı") == "ı"
    assert not digitos_validos("12.ABC.345/01DE-35".replace("A", "ª"))


def test_substituicao_que_o_modulo_11_nao_ve() -> None:
    # Two characters whose values differ by a multiple of 11 ("0" = 0 and "F" = 22) give the same
    # check digits: the rule itself cannot see this change, so no test can ask it to.
    assert digitos_validos("11.222.333/0001-81")
    assert digitos_validos("11.222.333/F001-81")
    # Remainders 0 and 1 both give the digit 0: at positions 0, 4 and 8, where the two weights add
    # up to 11, one change can move both remainders between 0 and 1 (see _detectada_sempre).
    assert digitos_validos("00.000.010/0090-00")
    assert digitos_validos("20.000.010/0090-00")
    assert digitos_validos("00.005.010/0047-00")
    assert digitos_validos("00.000.010/0047-00")


# --- properties --------------------------------------------------------------------------------


@given(st.text())
def test_normalizar_e_idempotente(texto: str) -> None:
    n = normalizar(texto)
    assert normalizar(n) == n
    assert not set(n) & set("./-")
    assert n == n.strip()
    assert not set(n) & set(string.ascii_lowercase)


@given(st.text())
def test_nunca_levanta_e_concorda_com_o_oraculo(texto: str) -> None:
    assert digitos_validos(texto) == _valido_oraculo(normalizar(texto))
    assert isinstance(formatar(normalizar(texto)), str)


@given(st.text(alphabet=ALFABETO + string.ascii_lowercase + "./- ", min_size=10, max_size=20))
def test_concorda_com_o_oraculo_perto_de_um_cnpj(texto: str) -> None:
    assert digitos_validos(texto) == _valido_oraculo(normalizar(texto))


@given(st.text())
def test_formatar_e_normalizar_vao_e_voltam(texto: str) -> None:
    n = normalizar(texto)
    if len(n) == 14:
        assert normalizar(formatar(n)) == n
        f = formatar(n)
        assert (f[2], f[6], f[10], f[15]) == (".", ".", "/", "-")
    else:
        assert formatar(n) == n


@given(st.text(alphabet=ALFABETO, min_size=14, max_size=14))
def test_formatar_e_normalizar_vao_e_voltam_num_cnpj(n: str) -> None:
    assert normalizar(formatar(n)) == n
    assert formatar(normalizar(formatar(n))) == formatar(n)
    assert normalizar(formatar(n).lower()) == n


@given(validos)
def test_valido_em_qualquer_forma(cnpj: str) -> None:
    assert _valido_oraculo(cnpj)
    assert digitos_validos(cnpj)
    assert digitos_validos(formatar(cnpj))
    assert digitos_validos(f" {formatar(cnpj).lower()}\t")


def _detectada_sempre(posicao: int, antes: str, depois: str) -> bool:
    """Whether replacing ``antes`` by ``depois`` (both of ``[0-9A-Z]``) at ``posicao`` of the
    base always changes the check digits, whatever the other characters.

    With d the difference of the two values, the first weighted sum moves by w1·d and the second
    by w2·d (mod 11), weights never 0 mod 11. If d ≡ 0 (mod 11), neither moves: never seen.
    Otherwise both remainders move, and a digit stays only when its remainder goes from 0 to 1 or
    back (both give 0): both stay only if w1·d ≡ ±1 and w2·d ≡ ∓1, so (w1 + w2)·d ≡ 0, i.e.
    w1 + w2 = 11 — positions 0 and 8 (5 and 6, with d ≡ ±2) and 4 (9 and 2, with d ≡ ±5)."""
    d = (ord(depois) - ord(antes)) % 11
    if d == 0:
        return False
    if posicao in (0, 8):
        return d not in (2, 9)
    if posicao == 4:
        return d not in (5, 6)
    return True


@given(validos)
def test_trocar_um_caractere(cnpj: str) -> None:
    """Every change of one character, tried exhaustively on each generated valid CNPJ: a check
    digit changed to anything else, or a base character changed outside [0-9A-Z], is always
    flagged ("a" is read as "A"); a base change within [0-9A-Z] is flagged whenever _detectada_sempre proves it, and
    never when the values differ by a multiple of 11."""
    outros = ALFABETO + "a.- \x00١ª"
    for posicao, original in enumerate(cnpj):
        for novo in outros:
            if novo == original:
                continue
            trocado = cnpj[:posicao] + novo + cnpj[posicao + 1 :]
            valido = digitos_validos(trocado)
            assert valido == _valido_oraculo(normalizar(trocado))
            efetivo = novo.upper() if novo == "a" else novo  # normalised to "A"
            if posicao >= 12 or efetivo not in ALFABETO:
                assert not valido, trocado
            elif efetivo == original:
                assert valido, trocado
            elif _detectada_sempre(posicao, original, efetivo):
                assert not valido, trocado
            elif (ord(efetivo) - ord(original)) % 11 == 0:
                assert valido, trocado


@given(validos, st.integers(0, 13), st.sampled_from(["١", "٣", "०", "１", "𝟏", "\x00", "\ud800"]))
def test_digitos_de_outras_escritas_nao_contam(cnpj: str, posicao: int, estranho: str) -> None:
    assert not digitos_validos(cnpj[:posicao] + estranho + cnpj[posicao + 1 :])


def test_texto_enorme() -> None:
    enorme = "12.ABC.345/01DE-35" * 200_000 + "\x00" + "١" * 100_000
    assert not digitos_validos(enorme)
    assert normalizar(enorme).startswith("12ABC34501DE35")
    assert formatar(normalizar(enorme)) == normalizar(enorme)
    assert digitos_validos("." * 1_000_000 + "12ABC34501DE35" + "-" * 1_000_000)


@pytest.mark.parametrize("texto", ["00000000000000", "00.000.000/0000-00"])
def test_um_so_algarismo_repetido_nao_e_cnpj(texto: str) -> None:
    """Its check digits compute, but no one has it (the Receita refuses 11111111111111 too,
    whose digits already fail)."""
    with pytest.raises(EntradaInvalida, match="um só algarismo repetido"):
        ler_cnpj(texto)
