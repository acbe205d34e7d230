"""The CNPJ as an identity: one normal form for search and keys, one display form, and a check
of its two check digits (issue 19, item 3).

Both forms are accepted: the numeric CNPJ and the alphanumeric one issued from July 2026 (IN RFB
nº 2.229/2024), 12 characters ``[0-9A-Z]`` followed by 2 check digits. The check digits follow
the same modulus-11 rule in both forms, each character worth its ASCII code minus 48 (``0``–``9``
are 0–9, ``A``–``Z`` are 17–42), so a numeric CNPJ is the special case with no letters.

No maintained library among the project's dependencies validates the alphanumeric form, so the
rule is written here and tested against the Receita's example (``12.ABC.345/01DE-35``).

A wrong check digit is something to flag in a view of a stored record, never an error: these
functions never raise on any text, and nothing here refuses a stored CNPJ. Two readers refuse:
:func:`ler_cnpj`, the CNPJ that *names a distributor* on its way in (a scope's client, a
ledger's year, a row of the RenovaBio year: issue 32), whose check digits must be right; and
:func:`ler_filtro`, a *filter* (``--cnpj``, ``?cnpj=`` of the listings, the work queue and the
calendar) whose shape is no CNPJ at all: wrong length or characters. A well-shaped filter with a
wrong check digit just searches.
"""

from __future__ import annotations

from multas.nucleo.erros import EntradaInvalida, mostrar_valor

#: the characters removed from anywhere in the text: the punctuation of ``XX.XXX.XXX/XXXX-XX``
_PONTUACAO = str.maketrans("", "", "./-")
#: upper case for ASCII letters only: ``str.upper`` would turn ``ſ`` into ``S`` or ``ﬁ`` into
#: ``FI``, making a CNPJ out of text that is not one
_MAIUSCULAS = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")

_CARACTERES_DA_BASE = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")

#: the weights of the first and the second check digit: 2 to 9 from the right, cycling
_PESOS_DV1 = (5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2)
_PESOS_DV2 = (6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2)


def normalizar(texto: str) -> str:
    """The CNPJ as a key: ``.``, ``/`` and ``-`` removed, whitespace at both ends removed, ASCII
    letters in upper case. Nothing else changes (a space inside stays, any other character
    stays).

    >>> normalizar(" 12.abc.345/01de-35 ")
    '12ABC34501DE35'
    >>> normalizar("11.222.333/0001-81")
    '11222333000181'
    >>> normalizar("não é CNPJ")
    'NãO é CNPJ'
    """
    return texto.translate(_PONTUACAO).strip().translate(_MAIUSCULAS)


def normalizar_como_no_banco(texto: str) -> str:
    """:func:`normalizar` as the database's filter computes it
    (:func:`multas.servicos.persistencia.cnpj_sql.normalizado`): only spaces are trimmed at both ends,
    not other whitespace. What a scope lets a user write must be what it lets them read back.

    >>> normalizar_como_no_banco(" 11.222.333/0001-81 "), normalizar_como_no_banco("1\\n")
    ('11222333000181', '1\\n')
    """
    return texto.translate(_PONTUACAO).strip(" ").translate(_MAIUSCULAS)


def formatar(normalizado: str) -> str:
    """The display form ``XX.XXX.XXX/XXXX-XX`` of a normalised CNPJ of 14 characters; any other
    text comes back unchanged.

    >>> formatar("12ABC34501DE35")
    '12.ABC.345/01DE-35'
    >>> formatar("11222333000181")
    '11.222.333/0001-81'
    >>> formatar("1122233300018")
    '1122233300018'
    """
    n = normalizado
    if len(n) != 14:
        return n
    return f"{n[:2]}.{n[2:5]}.{n[5:8]}/{n[8:12]}-{n[12:]}"


def _digito(base: str, pesos: tuple[int, ...]) -> str:
    """The check digit of ``base`` (characters of ``[0-9A-Z]``): modulus 11 of the weighted sum of
    each character's ASCII code minus 48; remainder 0 or 1 gives 0, any other ``11 − remainder``.
    """
    resto = sum((ord(c) - 48) * peso for c, peso in zip(base, pesos, strict=True)) % 11
    return "0" if resto < 2 else str(11 - resto)


def digitos_verificadores(base: str) -> str:
    """The two check digits of a base of 12 characters ``[0-9A-Z]`` (normalised); ``""`` for any
    other text.

    >>> digitos_verificadores("12ABC34501DE"), digitos_verificadores("112223330001")
    ('35', '81')
    >>> digitos_verificadores("12abc34501de")
    ''
    """
    if len(base) != 12 or not set(base) <= _CARACTERES_DA_BASE:
        return ""
    dv1 = _digito(base, _PESOS_DV1)
    return dv1 + _digito(base + dv1, _PESOS_DV2)


def digitos_validos(texto: str) -> bool:
    """Whether ``texto``, once normalised, is a CNPJ whose check digits are right: 14 characters,
    the first 12 of ``[0-9A-Z]``, the last 2 digits, as the modulus-11 rule gives them. The
    numeric and the alphanumeric form alike; never raises.

    >>> digitos_validos("12.ABC.345/01DE-35")  # the Receita's example
    True
    >>> digitos_validos("12.abc.345/01de-35")  # normalised first
    True
    >>> digitos_validos("11.222.333/0001-81"), digitos_validos("11.222.333/0001-80")
    (True, False)
    >>> digitos_validos("12.ABC.345/01DE-3A"), digitos_validos("1122233300018")
    (False, False)
    """
    n = normalizar(texto)
    return len(n) == 14 and digitos_verificadores(n[:12]) == n[12:]


#: what a stored-record view (the pages, the listings, the PDFs) says of a CNPJ whose check
#: digits are wrong: never an error, and never an aviso in a result (issue 19)
DIGITOS_ERRADOS = "dígitos verificadores não conferem"


def exibir(texto: str) -> tuple[str, bool]:
    """A stored CNPJ as a view shows it: formatted (when it normalises to 14 characters; else as
    normalised), and whether its check digits are right.

    >>> exibir("11222333000181"), exibir("12.abc.345/01de-36")
    (('11.222.333/0001-81', True), ('12.ABC.345/01DE-36', False))
    """
    normalizado = normalizar(texto)
    return formatar(normalizado), digitos_validos(normalizado)


def rotulo(texto: str) -> str:
    """:func:`exibir` as one line of text: the formatted CNPJ, flagged when its check digits are
    wrong.

    >>> rotulo("11.222.333/0001-80")
    '11.222.333/0001-80 (dígitos verificadores não conferem)'
    """
    formatado, valido = exibir(texto)
    return formatado if valido else f"{formatado} ({DIGITOS_ERRADOS})"


def forma_valida(texto: str) -> bool:
    """Whether ``texto``, once normalised, has a CNPJ's shape: 14 characters, the first 12 of
    ``[0-9A-Z]``, the last 2 digits (check digits not checked).

    >>> forma_valida("11.222.333/0001-80"), forma_valida("12.abc.345/01de-35")
    (True, True)
    >>> forma_valida("abc!"), forma_valida("1122233300018"), forma_valida("12ABC34501DE3A")
    (False, False, False)
    """
    n = normalizar(texto)
    return (
        len(n) == 14
        and set(n[:12]) <= _CARACTERES_DA_BASE
        and n[12:].isascii()
        and n[12:].isdigit()
    )


#: how a CNPJ is written, for the errors
_EXEMPLOS = "use 14 caracteres, como 11.222.333/0001-81 ou 12.ABC.345/01DE-35"


def ler_cnpj(texto: object, campo: str = "cnpj") -> str:
    """A CNPJ that names a distributor, as it comes in, normalised: a text of a CNPJ's shape
    (:func:`forma_valida`) whose check digits are right (:func:`digitos_validos`); anything
    else is an error naming ``campo`` and the reason, in pt-BR. Stored records are never read
    through it (a row stored before the rule keeps its CNPJ, flagged in the views).

    >>> ler_cnpj(" 12.abc.345/01de-35 ")
    '12ABC34501DE35'
    >>> ler_cnpj("11.222.333/0001-80")
    Traceback (most recent call last):
    ...
    multas.nucleo.erros.EntradaInvalida: cnpj: CNPJ inválido: '11.222.333/0001-80' (dígitos verificadores não conferem)
    >>> ler_cnpj("00.000.000/0000-00")
    Traceback (most recent call last):
    ...
    multas.nucleo.erros.EntradaInvalida: cnpj: CNPJ inválido: '00.000.000/0000-00' (um só algarismo repetido)
    >>> ler_cnpj("=1+1")
    Traceback (most recent call last):
    ...
    multas.nucleo.erros.EntradaInvalida: cnpj: CNPJ inválido: '=1+1' (use 14 caracteres, como 11.222.333/0001-81 ou 12.ABC.345/01DE-35)
    """
    if not isinstance(texto, str) or not forma_valida(texto):
        raise EntradaInvalida(campo, f"CNPJ inválido: {mostrar_valor(texto)} ({_EXEMPLOS})")
    if not digitos_validos(texto):
        raise EntradaInvalida(campo, f"CNPJ inválido: {mostrar_valor(texto)} ({DIGITOS_ERRADOS})")
    normalizado = normalizar(texto)
    if len(set(normalizado)) == 1:  # 00000000000000: its check digits compute, no one has it
        raise EntradaInvalida(
            campo, f"CNPJ inválido: {mostrar_valor(texto)} (um só algarismo repetido)"
        )
    return normalizado


def ler_filtro(texto: object, campo: str = "cnpj") -> str | None:
    """A CNPJ given as a *filter* (a command-line option, a query parameter), normalised: an
    empty one (or ``None``) is no filter; a text without a CNPJ's shape (:func:`forma_valida`)
    is an error naming ``campo``, in pt-BR (never an empty result that looks like "no such
    client"); a well-shaped one with wrong check digits is searched as it is.

    >>> ler_filtro(" 11.222.333/0001-80 "), ler_filtro(""), ler_filtro(None)
    ('11222333000180', None, None)
    >>> ler_filtro("abc!")
    Traceback (most recent call last):
    ...
    multas.nucleo.erros.EntradaInvalida: cnpj: CNPJ inválido: 'abc!' (use 14 caracteres, como 11.222.333/0001-81 ou 12.ABC.345/01DE-35)
    """
    if texto is None or (isinstance(texto, str) and not texto.strip()):
        return None
    if not isinstance(texto, str) or not forma_valida(texto):
        raise EntradaInvalida(campo, f"CNPJ inválido: {mostrar_valor(texto)} ({_EXEMPLOS})")
    return normalizar(texto)
