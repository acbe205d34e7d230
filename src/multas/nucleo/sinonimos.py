"""Other names a case's field is read by (issue 37, item 4).

``ano`` is what the ledger, the year (``multas ano``) and their files call the target year;
a case of a regime with ``ano_meta`` and no ``ano`` of its own (``renovabio.distribuidor``)
reads it as ``ano_meta``, wherever a case is read: ``multas calcular`` (JSON, JSON Lines, a
table), the API, the library and the batch's columns. ``renovabio.produtor``'s ``ano`` is its
own field and is never renamed. A case that gives both names with the same year is read once;
with different years it is refused, and the error names both. The result and a saved case's
canonical input write the contract's name (``ano_meta``).

>>> ler_sinonimos({"ano": 2024, "meta_cbios": 1}, {"ano_meta": "ano"})
({'meta_cbios': 1, 'ano_meta': 2024}, {'ano_meta': 'ano'}, [])
>>> _, _, erros = ler_sinonimos({"ano": 2024, "ano_meta": 2023}, {"ano_meta": "ano"})
>>> print(erros[0])
ano: ano (2024) e ano_meta (2023) são o mesmo campo, o ano da meta, com valores diferentes: informe um só dos dois
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from multas.nucleo.contrato import JSON, Campo, Caso, Leitura, ler_valor
from multas.nucleo.erros import EntradaInvalida, mostrar_valor

#: another name → the contract's field it names, where the regime has that field and not one
#: of the other name (normalised header or JSON key)
SINONIMOS: dict[str, str] = {"ano": "ano_meta"}

#: what each synonym's field is, for the message that refuses two different values
_O_QUE = {"ano_meta": "o ano da meta"}

#: each regime's synonyms (field → the other name), computed once per regime
_DO_REGIME: dict[type[Caso], dict[str, str]] = {}


def sinonimos_do_regime(classe: type[Caso]) -> dict[str, str]:
    """The synonyms that apply to a regime's case: field → the other name.

    >>> from multas.nucleo.contrato import CasoDistribuidor, CasoProdutor
    >>> sinonimos_do_regime(CasoDistribuidor), sinonimos_do_regime(CasoProdutor)
    ({'ano_meta': 'ano'}, {})
    """
    proprios = _DO_REGIME.get(classe)
    if proprios is None:
        nomes = {c.nome for c in classe.campos()}
        proprios = _DO_REGIME[classe] = {
            campo: sinonimo
            for sinonimo, campo in SINONIMOS.items()
            if campo in nomes and sinonimo not in nomes
        }
    return proprios


def ler_sinonimos(
    dados: Mapping[str, Any],
    sinonimos: Mapping[str, str],
    campos: Mapping[str, Campo] | None = None,
    leitura: Leitura = JSON,
) -> tuple[Mapping[str, Any], dict[str, str], list[EntradaInvalida]]:
    """``dados`` with each synonym given (``sinonimos``: field → other name) read as its
    field; the fields so read (field → the name given), for an error to name what the user
    wrote; and the errors. Both names given: equal values (as the field reads them, by
    ``campos``) are the field once; different ones are an error naming both. ``dados``
    itself is returned, not copied, when it uses no synonym (the batch's hot path)."""
    copia: dict[str, Any] | None = None
    trocados: dict[str, str] = {}
    erros: list[EntradaInvalida] = []
    for campo, sinonimo in sinonimos.items():
        if sinonimo not in dados:
            continue
        if copia is None:
            copia = dict(dados)
        bruto = copia.pop(sinonimo)
        if bruto is None:
            continue  # null is absent, as for any field
        proprio = copia.get(campo)
        if proprio is None:
            copia[campo] = bruto
            trocados[campo] = sinonimo
            continue
        try:
            diferem = _diferem(bruto, proprio, (campos or {}).get(campo), sinonimo, leitura)
        except EntradaInvalida as erro:
            erros.append(erro)
            continue
        if diferem:
            o_que = _O_QUE.get(campo, "o mesmo dado")
            erros.append(
                EntradaInvalida(
                    sinonimo,
                    f"{sinonimo} ({mostrar_valor(bruto)}) e {campo} ({mostrar_valor(proprio)}) "
                    f"são o mesmo campo, {o_que}, com valores diferentes: informe um só dos dois",
                )
            )
    return (dados if copia is None else copia), trocados, erros


def _diferem(
    bruto: object, proprio: object, campo: Campo | None, sinonimo: str, leitura: Leitura
) -> bool:
    """Whether two values of one field differ, as the field reads them; the synonym's own
    unreadable value is an error naming it (the field's is named when the field is read)."""
    if campo is None:
        return bruto != proprio
    apelido = Campo(sinonimo, campo.tipo, campo.descricao, False, campo.minimo)
    lido = ler_valor(bruto, apelido, leitura)
    try:
        return bool(lido != ler_valor(proprio, campo, leitura))
    except EntradaInvalida:
        return False  # the field's own error is raised where the case reads it


def com_nomes_do_contrato(dados: Mapping[str, Any], classe: type[Caso]) -> Mapping[str, Any]:
    """A case as it was given (a saved case's input), with each synonym under its field's
    name, for whoever shows it or reopens it in a form; where both names were given (the
    engine accepted the case, so they agree), the field's own. ``dados`` itself when it uses
    no synonym.

    >>> from multas.nucleo.contrato import CasoDistribuidor
    >>> com_nomes_do_contrato({"regime": "renovabio.distribuidor", "ano": 2024}, CasoDistribuidor)
    {'regime': 'renovabio.distribuidor', 'ano_meta': 2024}
    """
    sinonimos = sinonimos_do_regime(classe)
    if not sinonimos or not any(nome in dados for nome in sinonimos.values()):
        return dados
    lido, _, _ = ler_sinonimos(dados, sinonimos)
    return lido
