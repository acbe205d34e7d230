"""Many rows at once (issue 36, item 3): the audit chain's rows (``Escrita._gravar_auditoria``)
and the work queue's index (:func:`~multas.servicos.persistencia.fila.gravar`), an import's new
rows (:meth:`~multas.servicos.persistencia.escrita.Escrita.inserir_linhas`) and a slice of ids
in one statement (:func:`entre`).

On PostgreSQL the audit rows and the index go by ``COPY … FROM STDIN`` (:func:`copiar`):
streamed in one command, not as a statement of thousands of placeholders for the driver to
build and parse (a multi-row insert of 1,000 rows of 12 columns has 12,000 parameters, and
psycopg parses such a statement anew each time). ``COPY`` returns no ids, and the application's role may not choose
them (:mod:`~multas.servicos.persistencia.papeis`), so the rows whose ids are needed back (an
import's processos and events) go as one statement with one array per column (:func:`inserir`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import ColumnElement, Table, bindparam
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

#: a SQL type's length or precision (``(200)``, ``(14, 2)``)
_SEM_TAMANHO = re.compile(r"\s*\([^)]*\)")


def entre(coluna: Any, ids: Sequence[int]) -> ColumnElement[bool]:
    """``coluna IN (ids)`` with the ids written into the statement, each an ``int`` (so never
    anything but digits): a slice of 500 ids is one statement without parameters, which the
    driver sends as it is. As 500 parameters, psycopg would parse the statement anew each time
    (it keeps parsed statements of at most 50)."""
    return coluna.in_(  # type: ignore[no-any-return]
        bindparam("ids", [int(i) for i in ids], expanding=True, literal_execute=True, unique=True)
    )


def em_postgresql(sessao: Session) -> bool:
    """Whether this session's database is PostgreSQL (where :func:`inserir` inserts)."""
    return sessao.get_bind().dialect.name == "postgresql"


def inserir(sessao: Session, tabela: Table, linhas: Sequence[Mapping[str, Any]]) -> list[int]:
    """Insert ``linhas`` (each with the same columns, never ``id``) into ``tabela`` on
    PostgreSQL, in this session's transaction; their ids, in the rows' order. One
    ``INSERT … SELECT … FROM unnest(…) WITH ORDINALITY … ORDER BY`` with one binary array per
    column: psycopg parses the statement once and keeps it, and the values travel as binary.
    The table's sequence draws the ids in that order, so the ids returned, sorted, are the
    rows' ids in order (SQLAlchemy's ``insertmanyvalues`` relies on the same for
    ``sort_by_parameter_order``). Checked and bound as :func:`copiar` does."""
    if not linhas:
        return []
    conexao = sessao.connection()
    dialeto = conexao.dialect
    assert dialeto.name == "postgresql"
    import psycopg
    from psycopg import sql

    from multas.servicos.persistencia.registros import validar_parametros

    validar_parametros(linhas)
    colunas = list(linhas[0])
    ligar = [tabela.c[c].type._cached_bind_processor(dialeto) for c in colunas]
    nomes = sql.SQL(", ").join(map(sql.Identifier, colunas))
    # each array cast to its column's type without the length (``VARCHAR``, not
    # ``VARCHAR(200)``): an explicit cast cuts a text too long, and the insert's own
    # assignment to the column refuses it, as an insert of the values does
    arrays = sql.SQL(", ").join(
        sql.SQL("%b::{}[]").format(
            sql.SQL(_SEM_TAMANHO.sub("", tabela.c[c].type.compile(dialect=dialeto)))
        )
        for c in colunas
    )
    comando = sql.SQL(
        "INSERT INTO {} ({}) SELECT {} FROM unnest({}) WITH ORDINALITY AS _linhas ({}, _ordem) "
        "ORDER BY _ordem RETURNING id"
    ).format(sql.Identifier(tabela.name), nomes, nomes, arrays, nomes)
    valores = [
        [linha[c] if f is None else f(linha[c]) for linha in linhas]
        for c, f in zip(colunas, ligar, strict=True)
    ]
    bruta = conexao.connection.driver_connection
    assert isinstance(bruta, psycopg.Connection)
    try:
        with bruta.cursor() as cursor:
            cursor.execute(comando, valores)
            return sorted(int(i) for (i,) in cursor.fetchall())
    except psycopg.Error as erro:
        raise DBAPIError.instance(comando.as_string(bruta), None, erro, psycopg.Error) from erro


def copiar(sessao: Session, tabela: Table, linhas: Sequence[Mapping[str, Any]]) -> None:
    """Insert ``linhas`` (each with the same columns; an ``id`` only where the table's own is
    not a sequence's, as the index's processo id) into ``tabela``, in this session's
    transaction: by ``COPY … FROM STDIN`` on
    PostgreSQL, each value bound by its column's type as an insert binds it and checked first
    by the net under every statement (:func:`~multas.servicos.persistencia.registros.validar_parametros`);
    elsewhere, one executemany. A database error is SQLAlchemy's, as an insert's would be (a
    busy database is an ``OperationalError``)."""
    if not linhas:
        return
    conexao = sessao.connection()
    dialeto = conexao.dialect
    if dialeto.name != "postgresql":
        conexao.execute(tabela.insert(), [dict(linha) for linha in linhas])
        return
    import psycopg
    from psycopg import sql

    from multas.servicos.persistencia.registros import validar_parametros

    validar_parametros(linhas)
    colunas = list(linhas[0])
    ligar = [tabela.c[c].type._cached_bind_processor(dialeto) for c in colunas]
    comando = sql.SQL("COPY {} ({}) FROM STDIN").format(
        sql.Identifier(tabela.name), sql.SQL(", ").join(map(sql.Identifier, colunas))
    )
    bruta = conexao.connection.driver_connection
    assert isinstance(bruta, psycopg.Connection)
    try:
        with bruta.cursor() as cursor, cursor.copy(comando) as copia:
            for linha in linhas:
                copia.write_row(
                    [
                        valor if f is None else f(valor)
                        for f, valor in zip(ligar, (linha[c] for c in colunas), strict=True)
                    ]
                )
    except psycopg.Error as erro:
        raise DBAPIError.instance(comando.as_string(bruta), None, erro, psycopg.Error) from erro
