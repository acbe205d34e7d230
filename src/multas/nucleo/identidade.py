"""Who a case is about: the optional ``id`` (a free label, spec § 3 v4: the auto's number, a
CNPJ and year…), ``cnpj``, ``nome`` and ``referencia`` (the ANP's own process number) that any
case may carry (issue 19). They change no amount: the engine echoes
them, exactly as given, at the top level of the result, and the report shows them; the batch
keeps them as pass-through columns. A CNPJ is not checked here (a wrong check digit is flagged
only in stored-record views: :mod:`multas.nucleo.cnpj`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from multas.nucleo.erros import EntradaInvalida, levantar

#: the identity fields: name → (longest text accepted, label for people)
CAMPOS: dict[str, tuple[int, str]] = {
    "id": (200, "Identificador do caso"),
    "cnpj": (32, "CNPJ"),
    "nome": (200, "Nome"),
    "referencia": (100, "Referência (número do processo na ANP)"),
}


def ler_identidade(dados: Mapping[str, Any]) -> dict[str, str]:
    """The identity fields given in ``dados``, each a non-empty text within its length and
    without control characters, as given; an error names the field.

    >>> ler_identidade({"regime": "x", "cnpj": "11.222.333/0001-81"})
    {'cnpj': '11.222.333/0001-81'}
    """
    identidade: dict[str, str] = {}
    erros: list[EntradaInvalida] = []  # each field on its own: all their errors together
    for nome, (limite, _) in CAMPOS.items():
        valor = dados.get(nome)
        if valor is not None:
            try:
                identidade[nome] = _texto(valor, nome, limite)
            except EntradaInvalida as erro:
                erros.append(erro)
    levantar(erros)
    return identidade


def _texto(valor: object, nome: str, limite: int) -> str:
    if not isinstance(valor, str) or not valor.strip():
        raise EntradaInvalida(nome, "deve ser um texto não vazio")
    if len(valor) > limite:
        raise EntradaInvalida(nome, f"texto longo demais (máximo {limite} caracteres)")
    if any(ord(c) < 32 or 127 <= ord(c) < 160 for c in valor):
        raise EntradaInvalida(nome, "o texto tem um caractere de controle")
    return valor


def rotulos(identidade: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    """(label, value) rows for a report, in the fields' order; the CNPJ formatted, and flagged
    when its check digits are wrong (:func:`multas.nucleo.cnpj.rotulo`: a report is a view, the
    result keeps the CNPJ as given).

    >>> rotulos({"nome": "Distribuidora X", "cnpj": "11222333000180"})[0]
    ('CNPJ', '11.222.333/0001-80 (dígitos verificadores não conferem)')
    """
    from multas.nucleo.cnpj import rotulo

    return tuple(
        (CAMPOS[n][1], rotulo(identidade[n]) if n == "cnpj" else identidade[n])
        for n in CAMPOS
        if n in identidade
    )


def id_do_caso(dados: object) -> str | None:
    """The case's ``id`` when it is an object with a valid one (spec § 3 v4), else ``None``.

    >>> id_do_caso({"id": "AI-2024-0042"}), id_do_caso({"id": ""}), id_do_caso([])
    ('AI-2024-0042', None, None)
    """
    if not isinstance(dados, Mapping) or dados.get("id") is None:
        return None
    try:
        return ler_identidade({"id": dados["id"]}).get("id")
    except EntradaInvalida:
        return None
