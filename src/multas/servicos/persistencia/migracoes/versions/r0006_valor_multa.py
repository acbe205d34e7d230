"""Spec v3 § 6 in stored processos (issue 18): ``principal`` becomes ``valor_multa``, and a
processo keeps its ``dias_sem_expediente``.

- ``processos.principal`` is renamed ``valor_multa`` (the name § 6 v3 gives the fine fixed by
  the decision; the API and the command line still read ``principal`` as a deprecated alias).
- ``processos.dias_sem_expediente`` is added, nullable: the extra days without expediente, as
  a JSON list of ISO dates. Every processo stored before has none (NULL).

**The audit chain.** A record's canonical state is its columns that hold a value, by name
(:func:`multas.servicos.persistencia.registros.estado`): the rename changes the state of every processo
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

import sqlalchemy as sa
from alembic import op
from sqlalchemy.orm import Session

from multas.servicos.persistencia import aval
from multas.servicos.persistencia.registros import travar_cadeia

revision = "r0006"
down_revision: str | None = "r0005"
branch_labels: str | None = None
depends_on: str | None = None

QUEM = "migração r0006"
ACAO = "processo_migrar"


def upgrade() -> None:
    conexao = op.get_bind()
    sessao = Session(bind=conexao)
    travar_cadeia(sessao)  # no writer between the check below and the rows that vouch
    antes = aval.estados_conferidos(
        sessao,
        "processos",
        aval.linhas(sessao, "processos"),
        "processo nº %s não confere com a auditoria antes da migração r0006: a migração não o "
        "abona (multas auditoria verificar continua a apontá-lo)",
    )
    op.execute("ALTER TABLE processos RENAME COLUMN principal TO valor_multa")
    op.add_column("processos", sa.Column("dias_sem_expediente", sa.Text(), nullable=True))
    # a processo without a fine keeps its hash: nothing of its state was renamed
    aval.abonar(
        sessao,
        "processos",
        antes,
        QUEM,
        ACAO,
        lambda linha: {"processo_id": int(linha["id"]), "coluna": {"principal": "valor_multa"}},
    )


def downgrade() -> None:
    raise NotImplementedError("a auditoria só cresce: esta migração não se desfaz")
