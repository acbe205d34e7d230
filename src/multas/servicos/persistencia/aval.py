"""How a migration that changes stored records keeps the tamper-evident chain valid: the one
mechanism of r0006, r0007 and r0008 (and of any later migration that rewrites rows).

A record's state hash covers its columns (:func:`multas.servicos.persistencia.registros.estado`), so a
migration that renames, adds or rewrites a column may change it. Before the change,
:func:`estados_conferidos` keeps the state hash of each row that matches its history (one that
does not, edited outside the system, is reported and never vouched for). After it,
:func:`abonar` appends one ``alterar`` audit row, in the chain, for each vouched-for row whose
hash changed, naming the migration as the user. Rows are read from the table as the migration
sees it (reflected), never through the models, whose columns are the latest ones.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import Session

from multas.servicos.persistencia.escrita import Escrita
from multas.servicos.persistencia.papeis import como_dono_da_auditoria, identificador
from multas.servicos.persistencia.registros import (
    RECURSOS,
    conferir_proprios,
    hashes_atuais,
)
from multas.servicos.relogio import agora

registro = logging.getLogger("multas.servicos.persistencia")


def linhas(sessao: Session, tabela: str) -> list[sa.RowMapping]:
    """Every row of ``tabela`` as it is in the database now (the table reflected: the columns
    are the ones this revision sees), in id order."""
    refletida = sa.Table(tabela, sa.MetaData(), autoload_with=sessao.connection())
    return list(sessao.execute(sa.select(refletida).order_by(refletida.c.id)).mappings().all())


def estados_conferidos(
    sessao: Session, tabela: str, atuais: list[sa.RowMapping], aviso: str
) -> dict[int, str]:
    """Each row's state hash before the change, for those whose state is the one their history
    ends with; each other row is reported with ``aviso`` (pt-BR, ``%s`` for its id)."""
    recurso = RECURSOS[tabela]
    hashes = hashes_atuais(sessao, recurso, atuais)
    problemas = conferir_proprios(sessao, recurso, hashes)
    for registro_id in sorted(problemas):
        registro.warning(aviso, registro_id)
    return {i: h for i, h in hashes.items() if i not in problemas}


def poder_auditar(conexao: sa.Connection) -> None:
    """PostgreSQL: the migrating role appends the audit rows; it may read the chain and insert
    into it (as r0004 granted to the role that ran it), never alter it."""
    if conexao.dialect.name != "postgresql":
        return
    eu = identificador(str(conexao.execute(sa.text("SELECT current_user")).scalar_one()))
    with como_dono_da_auditoria(conexao):
        sequencia = conexao.execute(
            sa.text("SELECT pg_get_serial_sequence('auditoria', 'id')")
        ).scalar_one()
        conexao.execute(sa.text(f"GRANT SELECT, INSERT ON auditoria TO {eu}"))
        conexao.execute(sa.text(f"GRANT USAGE, SELECT ON SEQUENCE {sequencia} TO {eu}"))


def abonar(
    sessao: Session,
    tabela: str,
    antes: Mapping[int, str],
    quem: str,
    acao: str,
    detalhe: Callable[[sa.RowMapping], dict[str, Any]],
) -> int:
    """One ``alterar`` audit row (user ``quem``, action ``acao``, ``detalhe`` of the row) for
    each vouched-for row of ``tabela`` (``antes``: :func:`estados_conferidos`) whose state hash
    the change altered; how many."""
    recurso = RECURSOS[tabela]
    depois_linhas = [linha for linha in linhas(sessao, tabela) if int(linha["id"]) in antes]
    depois = hashes_atuais(sessao, recurso, depois_linhas)
    mudados = [
        linha for linha in depois_linhas if depois[int(linha["id"])] != antes[int(linha["id"])]
    ]
    if not mudados:
        return 0
    poder_auditar(sessao.connection())
    escrita = Escrita(sessao, agora(), quem)
    for linha in mudados:
        escrita.regravar(recurso, linha, acao, detalhe(linha))
    sessao.flush()
    return len(mudados)
