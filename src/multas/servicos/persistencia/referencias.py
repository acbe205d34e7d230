"""One processo per ANP reference (issue 19, item 4): the key a stored processo is found by
(its § 6 ``id``, :func:`chave_da_referencia`) and the one check of the rule
(:func:`processo_com_a_referencia`), used where a processo takes a reference."""

from __future__ import annotations

import json
import re

from sqlalchemy import select
from sqlalchemy.orm import Session

from multas.nucleo.erros import EntradaInvalida, mostrar_valor
from multas.servicos.persistencia import escopo_sql
from multas.servicos.persistencia.modelos_ciclo import ProcessoSalvo
from multas.servicos.persistencia.registros import vivos

#: the longest processo ``id`` (the ANP's process number is a few dozen characters)
LIMITE_ID = 200
_INTEIRO = re.compile(r"-?[1-9][0-9]*|0")


def chave_da_referencia(identificador: object) -> str | None:
    """The key a file import finds a stored processo by: its § 6 ``id`` (the ANP's process
    number, ``referencia`` in the file), a text as it is, an integer in decimal, so that ``123``
    and ``"123"`` are one key; ``None`` for a processo without one. Choice: a blank text (empty,
    or only spaces) is no reference, as the page's form and the import read an empty cell: it
    is stored and echoed as given, but never found, and never taken (one processo per
    reference, :func:`processo_com_a_referencia`).

    >>> chave_da_referencia(123), chave_da_referencia("48610.000123/2024-11")
    ('123', '48610.000123/2024-11')
    >>> chave_da_referencia(None) is None, chave_da_referencia(" ") is None
    (True, True)
    """
    if isinstance(identificador, bool) or identificador is None:
        return None
    if isinstance(identificador, str) and not identificador.strip():
        return None
    if isinstance(identificador, int | str):
        return str(identificador)
    return None


def processo_com_a_referencia(
    sessao: Session, identificador: object, exceto: int | None = None
) -> tuple[int, bool] | None:
    """The processo outside the bin that holds this § 6 ``id`` (its key,
    :func:`chave_da_referencia`: ``123`` and ``"123"`` are one), whoever's client it is, other
    than ``exceto``: (its number, whether the scope in force sees it); ``None`` if none does.
    One the reader sees comes first (a database written before the rule may hold two).

    The one check of the rule "one processo per ANP reference" (issue 19, item 4: the
    ``referencia`` is unique), used where a processo takes a reference: when it is created
    (:meth:`RepositorioCiclo._criar_processo_em`, by every entry point), by a file import
    (:meth:`RepositorioCiclo.importar_processos`, so that its error names the line) and when it
    comes back from the bin (:mod:`multas.servicos.persistencia.lixeira`). It is race-free because it
    runs inside a write, after the chain's lock that serialises every writer. Choice: the
    check is not limited by the client's scope (a reference is the ANP's, of one process), but
    it tells whether the reader may see the holder, so that an error names another client's
    processo by neither number nor CNPJ."""
    chave = chave_da_referencia(identificador)
    if chave is None:
        return None
    consulta = select(ProcessoSalvo.id).where(
        ProcessoSalvo.identificador.in_(_gravados(chave)), vivos(ProcessoSalvo)
    )
    if exceto is not None:
        consulta = consulta.where(ProcessoSalvo.id != exceto)
    consulta = consulta.order_by(ProcessoSalvo.id).limit(1)
    visto = sessao.scalar(consulta)
    if visto is not None:
        return int(visto), True
    with escopo_sql.limitado(None):
        oculto = sessao.scalar(consulta)
    return None if oculto is None else (int(oculto), False)


def referencia_em_uso(
    sessao: Session, identificador: object, exceto: int | None = None
) -> str | None:
    """What the user reads (pt-BR) when this ``id`` is taken (:func:`processo_com_a_referencia`):
    the holder's number only if the reader sees it; ``None`` if it is free."""
    achado = processo_com_a_referencia(sessao, identificador, exceto)
    if achado is None:
        return None
    numero, visivel = achado
    quem = f"o processo nº {numero}" if visivel else "outro processo"
    return (
        f"{quem} já tem a referência {mostrar_valor(chave_da_referencia(identificador))}: "
        "cada processo da ANP fica em um só processo salvo (acrescente os eventos a ele)"
    )


def recusar_referencia_em_uso(
    sessao: Session, identificador: object, campo: str = "id", exceto: int | None = None
) -> None:
    """:func:`referencia_em_uso` as the error naming ``campo``."""
    mensagem = referencia_em_uso(sessao, identificador, exceto)
    if mensagem is not None:
        raise EntradaInvalida(campo, mensagem)


def _gravados(chave: str) -> list[str]:
    """The stored forms (JSON text, as :meth:`RepositorioCiclo._criar_processo_em` writes
    them) of the identifiers with this key: the text, and the integer when it is one."""
    formas = [json.dumps(chave)]
    if _INTEIRO.fullmatch(chave):
        formas.append(chave)
    return formas
