"""Every error of a form's submit on its page (issue 37, item 9): each beside its field and all
of them in the summary above the form, in the order found, the first the one a one-error
reading gave (:class:`~multas.nucleo.erros.ErrosDeEntrada`). The page forms of ``/ano``,
``/exposicao`` and ``/processos`` show their errors through it."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field

from multas.nucleo.erros import EntradaInvalida


@dataclass(frozen=True, slots=True)
class ErrosNaPagina:
    """``por_campo``: each field's message, shown beside it (two errors of one field joined by
    "; "); ``resumo``: the summary's items, in the order found, each ``campo`` (set only when
    the form has that field, for the item's link), ``nome`` (the field's name as the error
    gave it), ``rotulo`` (its label, else empty) and ``mensagem``."""

    por_campo: dict[str, str] = field(default_factory=dict)
    resumo: list[dict[str, str]] = field(default_factory=list)


def erros_na_pagina(
    erro: EntradaInvalida | None,
    rotulos: Mapping[str, str],
    nomes: Collection[str] | None = None,
    campo_de: Callable[[str], str] | None = None,
) -> ErrosNaPagina:
    """Every error ``erro`` carries, placed on the form whose fields are ``nomes`` (default:
    those of ``rotulos``); an error of another field (or of none) is in the summary only.
    ``campo_de``: the form's field of an error's ``campo``, when it is named otherwise (a
    document's ``documentos[2]`` is the file field); the summary keeps the error's own name.

    >>> from multas.nucleo.erros import ErrosDeEntrada
    >>> e = ErrosDeEntrada([EntradaInvalida("ano", "x"), EntradaInvalida("ano", "y"),
    ...                     EntradaInvalida(None, "z")])
    >>> lido = erros_na_pagina(e, {"ano": "Ano da meta"})
    >>> lido.por_campo, [(i["campo"], i["rotulo"]) for i in lido.resumo]
    ({'ano': 'x; y'}, [('ano', 'Ano da meta'), ('ano', 'Ano da meta'), ('', '')])
    """
    lido = ErrosNaPagina()
    campos = rotulos if nomes is None else nomes
    for um in erro.todos() if erro is not None else ():
        nome = um.campo or ""
        campo = campo_de(nome) if campo_de is not None and nome else nome
        no_formulario = campo in campos
        if no_formulario:
            anterior = lido.por_campo.get(campo)
            lido.por_campo[campo] = f"{anterior}; {um.mensagem}" if anterior else um.mensagem
        lido.resumo.append(
            {
                "campo": campo if no_formulario else "",
                "nome": nome,
                "rotulo": rotulos.get(campo, ""),
                "mensagem": um.mensagem,
            }
        )
    return lido
