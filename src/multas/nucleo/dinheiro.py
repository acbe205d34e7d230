"""Exact numbers: parsing, the one rounding policy, and pt-BR formatting.

Every amount is computed as an exact ``Fraction`` (so ``/12`` and averages stay exact) and
rounded **once**, to the centavo, half up, by :func:`arredondar` (spec § 1). No float is ever
involved: JSON numbers reach us as ``Decimal`` (``json.loads(parse_float=Decimal)``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Context, Decimal
from fractions import Fraction
from typing import Any

from multas.nucleo.erros import EntradaInvalida, mostrar_valor

Numero = Fraction
CENTAVO = Decimal("0.01")
#: Bounds on every number read, far beyond any real case (10^15 reais is a quadrillion), so
#: that a JSON number such as 1e400 or 1e-999999 is an input error, not a 500 or a calculation
#: that never ends (exact arithmetic on a million-digit fraction).
MAXIMO_ALGARISMOS = 15
MAXIMO_CASAS = 100  # prices may have "any number" of places (spec § 1): a computed mean has many
#: enough digits for any product of bounded inputs (the default context has 28)
_EXATO = Context(prec=200, rounding=ROUND_HALF_UP)

#: What to do about a number that could not be read, by the notation being read: JSON and the
#: default tables take a decimal point; pt-BR tables (`multas lote --ptbr`) a decimal comma.
DICA_PONTO = "use ponto como separador decimal, ex.: 1234.56"
DICA_VIRGULA = "use vírgula como separador decimal, ex.: 1.234,56"

# re.ASCII: \d would take any Unicode digit ("١٠" read as 10)
_DECIMAL_TEXTO = re.compile(r"^[+-]?\d+(\.\d+)?$", re.ASCII)
_PTBR_TEXTO = re.compile(r"^[+-]?\d{1,3}(\.\d{3})*(,\d+)?$|^[+-]?\d+(,\d+)?$", re.ASCII)


def normalizar_ptbr(texto: str) -> str:
    """Turn pt-BR notation into the dot-decimal one.

    >>> normalizar_ptbr("1.234,56")
    '1234.56'
    >>> normalizar_ptbr("71,70")
    '71.70'
    """
    texto = texto.strip()
    if not _PTBR_TEXTO.match(texto):
        return texto  # left for the caller's strict parser to reject with a clear message
    return texto.replace(".", "").replace(",", ".")


def quantia_digitada(texto: str) -> str:
    """An amount as a person types it (the command line, the page): pt-BR notation when it
    has a decimal comma or thousands dots ("1.500,00", "1.500"), else as it is. Three digits
    after a dot are thousands: an amount never has them as centavos.

    >>> quantia_digitada("1.500"), quantia_digitada("1.500,5"), quantia_digitada("1500.50")
    ('1500', '1500.5', '1500.50')
    """
    texto = texto.strip()
    if "," in texto or re.fullmatch(r"\d{1,3}(\.\d{3})+", texto):
        return normalizar_ptbr(texto)
    return texto


def para_decimal(valor: object, campo: str, dica: str = DICA_PONTO) -> Decimal:
    """Parse a JSON number (``int`` or ``Decimal``) or a string, exactly.

    A ``float`` can only come from a library caller; it is read through its shortest
    representation (what a JSON text would have said), never through its binary value.
    ``dica`` ends the message for a string that is not a number: which separator to use.

    >>> para_decimal("1234.56", "principal")
    Decimal('1234.56')
    >>> para_decimal(1.83, "consumo_mj_km") - para_decimal(1.82, "meta_mj_km")
    Decimal('0.01')
    """
    if isinstance(valor, bool):
        raise EntradaInvalida(campo, "deve ser um número, não um booleano")
    if isinstance(valor, Decimal):
        resultado = valor
    elif isinstance(valor, int):
        resultado = Decimal(valor)
    elif isinstance(valor, float):
        resultado = Decimal(repr(valor))
    elif isinstance(valor, str):
        texto = valor.strip()
        if not _DECIMAL_TEXTO.match(texto):
            raise EntradaInvalida(
                campo,
                f"número inválido: {mostrar_valor(valor)} ({dica})",
            )
        resultado = Decimal(texto)
    else:
        raise EntradaInvalida(campo, "deve ser um número")
    if not resultado.is_finite():
        raise EntradaInvalida(campo, "deve ser um número finito")
    if resultado and resultado.adjusted() >= MAXIMO_ALGARISMOS:
        raise EntradaInvalida(
            campo, f"número grande demais (no máximo {MAXIMO_ALGARISMOS} algarismos inteiros)"
        )
    if casas_decimais(resultado) > MAXIMO_CASAS:
        raise EntradaInvalida(campo, f"casas decimais demais (no máximo {MAXIMO_CASAS})")
    return resultado


def casas_decimais(valor: Decimal) -> int:
    """Number of decimal places written (``Decimal('1.230')`` has 3)."""
    expoente = valor.as_tuple().exponent
    assert isinstance(expoente, int)
    return max(0, -expoente)


def arredondar(valor: Fraction | Decimal | int) -> Decimal:
    """THE rounding: to the centavo, half up (away from zero on a tie). Used once per amount.

    >>> arredondar(Fraction(6627500, 12))
    Decimal('552291.67')
    >>> arredondar(Decimal("15000000.025"))
    Decimal('15000000.03')
    """
    if isinstance(valor, int):
        numerador, denominador = valor, 1
    elif isinstance(valor, Fraction):
        numerador, denominador = valor.numerator, valor.denominator
    else:
        numerador, denominador = valor.as_integer_ratio()  # exact for a finite Decimal
    # half up on the absolute value: floor(|n|/d × 100 + 1/2), in integers
    centavos = (abs(numerador) * 200 + denominador) // (2 * denominador)
    sinal = "-" if numerador < 0 and centavos else ""
    # built from the digits, not by Decimal division: exact whatever the context's precision
    return Decimal(f"{sinal}{centavos // 100}.{centavos % 100:02d}")


#: the places a price is shown with (spec § 1: prices are read with 4 decimals)
CASAS_PRECO = 4


def arredondar_preco(valor: Fraction | Decimal | int) -> Decimal:
    """A price as people read it, to :data:`CASAS_PRECO` places, half up: for reading only
    (the fines use the exact price).

    >>> arredondar_preco(Fraction(50440805848, 10**9)), arredondar_preco(Fraction(1, 3))
    (Decimal('50.4408'), Decimal('0.3333'))
    """
    fracao = Fraction(valor)
    escala = 10**CASAS_PRECO
    unidades = (abs(fracao.numerator) * escala * 2 + fracao.denominator) // (2 * fracao.denominator)
    sinal = "-" if fracao < 0 and unidades else ""
    return Decimal(f"{sinal}{unidades // escala}.{unidades % escala:0{CASAS_PRECO}d}")


def para_json(valor: Decimal) -> str:
    """Money in JSON: a string with two decimals and a dot."""
    return f"{valor.quantize(CENTAVO, context=_EXATO):f}"


def formatar_brl(valor: Decimal | str) -> str:
    """Money for people: ``R$ 1.234.567,89``.

    >>> formatar_brl(Decimal("1234567.89")), formatar_brl("-212.08")
    ('R$ 1.234.567,89', '-R$ 212,08')
    """
    quantia = Decimal(valor).quantize(CENTAVO, context=_EXATO)
    return ("-" if quantia < 0 else "") + "R$ " + formatar_numero(quantia.copy_abs())


def formatar_com_sinal(
    valor: Fraction | Decimal | int | str, como: Callable[[Any], str] = formatar_brl
) -> str:
    """THE sign of a difference, for people: ``+`` before a gain, ``-`` before a loss (ASCII,
    so that a spreadsheet pasted into reads it), none on zero; ``como`` writes the number
    (money by default; :func:`formatar_numero` for counts, :func:`formatar_preco` for prices).
    A negative amount alone (not a difference) is :func:`formatar_brl`'s ``-R$ 212,08``.

    >>> formatar_com_sinal(Decimal("1111487.92")), formatar_com_sinal("-212.08")
    ('+R$ 1.111.487,92', '-R$ 212,08')
    >>> formatar_com_sinal(500000, formatar_numero), formatar_com_sinal(0)
    ('+500.000', 'R$ 0,00')
    """
    numero = _fracao(valor)
    if isinstance(valor, str):
        absoluto: Any = valor.strip().lstrip("+-")
    else:  # Decimal's abs() would round to the context's 28 digits
        absoluto = valor.copy_abs() if isinstance(valor, Decimal) else abs(valor)
    sinal = "+" if numero > 0 else "-" if numero < 0 else ""
    return sinal + como(absoluto)


def _fracao(valor: Fraction | Decimal | int | str) -> Fraction:
    """A number as written by multas (a decimal, or ``p/q``) or computed, as a Fraction."""
    return Fraction(valor.strip()) if isinstance(valor, str) else Fraction(valor)


def formatar_preco(valor: Fraction | Decimal | int | str) -> str:
    """THE price for people (a CBIO's price, a mean of quotes): always :data:`CASAS_PRECO`
    places, rounded by :func:`arredondar_preco` (spec § 3.1 v4). The exact value stays in the
    data (``p/q`` when it does not terminate): this is for reading only.

    >>> formatar_preco("2445833317/22000000"), formatar_preco("96.7"), formatar_preco(1000)
    ('R$ 111,1742', 'R$ 96,7000', 'R$ 1.000,0000')
    >>> formatar_preco(Decimal("123.456789")), formatar_preco(Fraction(-1, 3))
    ('R$ 123,4568', '-R$ 0,3333')
    """
    preco = arredondar_preco(_fracao(valor))
    return ("-" if preco < 0 else "") + "R$ " + formatar_numero(preco.copy_abs())


def preco_de_arquivo(valor: Fraction | Decimal | int | str, virgula: bool = False) -> str:
    """A price in a file's ``preco`` column, for a spreadsheet to compute with: always
    :data:`CASAS_PRECO` places, by :func:`arredondar_preco`, a dot (``virgula``: a comma, for
    the pt-BR files), no thousands. The exact value goes beside it, in ``preco_exato``.

    >>> preco_de_arquivo("2445833317/22000000"), preco_de_arquivo("71.7", virgula=True)
    ('111.1742', '71,7000')
    """
    texto = f"{arredondar_preco(_fracao(valor)):f}"
    return texto.replace(".", ",") if virgula else texto


def formatar_numero(valor: Decimal | str | int) -> str:
    """pt-BR digits: thousands with dots, decimals after a comma (``81,0033…`` kept as is).
    The one place a number gets its pt-BR separators (counts too).

    >>> formatar_numero(10000), formatar_numero(Decimal("-1234.5")), formatar_numero("81.0033…")
    ('10.000', '-1.234,5', '81,0033…')
    """
    texto = str(valor)
    sufixo = ""
    if texto.endswith("…"):
        texto, sufixo = texto[:-1], "…"
    sinal = "-" if texto.startswith("-") else ""
    texto = texto.lstrip("-")
    inteiro, _, decimais = texto.partition(".")
    grupos = f"{int(inteiro):,}".replace(",", ".")
    return sinal + grupos + ("," + decimais if decimais else "") + sufixo


def exibir(valor: Fraction | Decimal | int, casas: int = 10) -> str:
    """Show an exact intermediate value without rounding it away.

    A terminating decimal is written in full; otherwise ``casas`` places (truncated) and an
    ellipsis.

    >>> exibir(Fraction(1, 4))
    '0.25'
    >>> exibir(Fraction(243010, 3), casas=4)
    '81003.3333…'
    """
    fracao = Fraction(valor)
    resto, dois, cinco = fracao.denominator, 0, 0
    while resto % 2 == 0:
        resto, dois = resto // 2, dois + 1
    while resto % 5 == 0:
        resto, cinco = resto // 5, cinco + 1
    if resto == 1:
        escala, sufixo = max(dois, cinco), ""
    else:
        escala, sufixo = casas, "…"
    inteiro = int(abs(fracao) * 10**escala)  # exact when terminating, truncated otherwise
    sinal = "-" if fracao < 0 else ""
    texto = str(inteiro).rjust(escala + 1, "0")
    if escala:  # the smallest exact scale: a terminating decimal never ends in 0
        texto = texto[:-escala] + "." + texto[-escala:]
    return sinal + texto + sufixo


def por_mes(fracao: Fraction) -> str:
    """A reduction of ``fracao`` a month over k months, as a factor: ``k/12`` for 1/12,
    ``k × 2/25`` for 2/25.

    >>> por_mes(Fraction(1, 12)), por_mes(Fraction(2, 25))
    ('k/12', 'k × 2/25')
    """
    if fracao.numerator == 1:
        return f"k/{fracao.denominator}"
    return f"k × {fracao}"


def formatar_percentual(fracao: Fraction) -> str:
    """THE percentage for people: at most 2 places, by :func:`arredondar` (the one rounding),
    the zeros after the comma dropped.

    >>> formatar_percentual(Fraction(1, 20)), formatar_percentual(Fraction(33, 10000))
    ('5%', '0,33%')
    >>> formatar_percentual(Fraction(6, 7)), formatar_percentual(Fraction(3, 200))
    ('85,71%', '1,5%')
    """
    texto = f"{arredondar(fracao * 100):f}"
    return formatar_numero(texto.rstrip("0").rstrip(".") if "." in texto else texto) + "%"
