"""Spec v3 § 6 in stored processos (issue 18): ``principal`` becomes ``valor_multa``, and a
processo keeps its ``dias_sem_expediente``.

- ``processos.principal`` is renamed ``valor_multa`` (the name § 6 v3 gives the fine fixed by
  the decision; the API and the command line still read ``principal`` as a deprecated alias).
- ``processos.dias_sem_expediente`` is added, nullable: the extra days without expediente, as
  a JSON list of ISO dates. Every processo stored before has none (NULL).

**The audit chain.** A record's canonical state is its columns that hold a value, by name
(:func:`multas.persistencia.registros.estado`): the rename changes the state of every processo
with a fine, so its hash no longer matches the last one its history records. Such a processo
gets one more audit row, in the chain: ``alterar``, action ``processo_migrar``, user
``migração r0006``, with its new state — but only if its state *before* the rename matched its
history. One that did not (edited outside the system before the upgrade) is not vouched for:
``multas auditoria verificar`` keeps reporting it. A processo without a fine, and the new empty
column, leave every other hash as it was (a column without a value is not part of the state).

Revision ID: r0006
Revises: r0005
Create Date: 2026-12-01
"""

from __future__ import annotations

import logging

import sqlalchemy as sa
from alembic import op
from sqlalchemy.orm import Session

from multas.persistencia.papeis import como_dono_da_auditoria, identificador
from multas.persistencia.registros import (
    RECURSOS,
    Escrita,
    conferir_proprios,
    hashes_atuais,
    travar_cadeia,
)
from multas.relogio import agora

revision = "r0006"
down_revision: str | None = "r0005"
branch_labels: str | None = None
depends_on: str | None = None

QUEM = "migração r0006"
ACAO = "processo_migrar"
registro = logging.getLogger("multas.persistencia")


def upgrade() -> None:
    conexao = op.get_bind()
    _poder_auditar(conexao)
    sessao = Session(bind=conexao)
    travar_cadeia(sessao)  # no writer between the check below and the rows that vouch
    antes = _estados_conferidos(sessao)
    op.execute("ALTER TABLE processos RENAME COLUMN principal TO valor_multa")
    op.add_column("processos", sa.Column("dias_sem_expediente", sa.Text(), nullable=True))
    _regravar(sessao, antes)


def _poder_auditar(conexao: sa.Connection) -> None:
    """PostgreSQL: the migrating role appends the rows below; it may read the chain and insert
    into it (as r0004 granted to the role that ran it), never alter it."""
    if conexao.dialect.name != "postgresql":
        return
    eu = identificador(str(conexao.execute(sa.text("SELECT current_user")).scalar_one()))
    with como_dono_da_auditoria(conexao):
        sequencia = conexao.execute(
            sa.text("SELECT pg_get_serial_sequence('auditoria', 'id')")
        ).scalar_one()
        op.execute(f"GRANT SELECT, INSERT ON auditoria TO {eu}")
        op.execute(f"GRANT USAGE, SELECT ON SEQUENCE {sequencia} TO {eu}")


def _linhas(sessao: Session) -> list[sa.RowMapping]:
    """Every processo as it is in the database now (the table reflected, not the model: the
    columns are the ones this revision sees)."""
    tabela = sa.Table("processos", sa.MetaData(), autoload_with=sessao.connection())
    return list(sessao.execute(sa.select(tabela).order_by(tabela.c.id)).mappings().all())


def _estados_conferidos(sessao: Session) -> dict[int, str]:
    """Each processo's state hash before the rename, for those whose state (its own row and
    the order of its events' ids) is the one its history ends with. An event edited outside the
    system is its own record: it keeps being reported, whatever happens here."""
    recurso = RECURSOS["processos"]
    atuais = hashes_atuais(sessao, recurso, _linhas(sessao))
    problemas = conferir_proprios(sessao, recurso, atuais)
    for registro_id in sorted(problemas):
        registro.warning(
            "processo nº %s não confere com a auditoria antes da migração r0006: a "
            "migração não o abona (multas auditoria verificar continua a apontá-lo)",
            registro_id,
        )
    conferidos = {i: atual for i, atual in atuais.items() if i not in problemas}
    return conferidos


def _regravar(sessao: Session, antes: dict[int, str]) -> None:
    """One ``alterar`` row for each vouched-for processo whose state hash the rename changed."""
    recurso = RECURSOS["processos"]
    escrita = Escrita(sessao, agora(), QUEM)
    linhas = _linhas(sessao)
    depois = hashes_atuais(sessao, recurso, linhas)
    for linha in linhas:
        registro_id = int(linha["id"])
        if registro_id not in antes or depois[registro_id] == antes[registro_id]:
            continue  # not vouched for; or without a fine, nothing of its state was renamed
        escrita.regravar(
            recurso,
            linha,
            ACAO,
            {"processo_id": registro_id, "coluna": {"principal": "valor_multa"}},
        )
    sessao.flush()


def downgrade() -> None:
    raise NotImplementedError("a auditoria só cresce: esta migração não se desfaz")
