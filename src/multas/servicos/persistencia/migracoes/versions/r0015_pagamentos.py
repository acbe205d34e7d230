"""Payments with amounts, and events that repeat (issue 35, items 2–3; spec § 6.2 v4): a
``pagamento`` may carry its ``valor`` and come more than once, and a second court suspension,
which § 6 always accepted, can now be stored too.

- ``processo_eventos.valor`` is added: nullable text, the amount of a ``pagamento`` as the
  contract writes it (``"1500.00"``); NULL for every other event and every event stored before.
- ``uq_processo_eventos_evento`` (each event once per processo) is dropped; the position stays
  unique (``uq_processo_eventos_posicao``), and § 6 decides which events may repeat.

**The audit chain:** a column that is NULL everywhere changes no record's state hash (a column
without a value is left out of it), and dropping a constraint changes no row: no record to
vouch for. On SQLite the table is rebuilt to drop the constraint; its ids, and the counter that
gives the next one, are kept.

Revision ID: r0015
Revises: r0014
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "r0015"
down_revision: str | None = "r0014"
branch_labels: str | None = None
depends_on: str | None = None

_TABELA = "processo_eventos"
_RESTRICAO = "uq_processo_eventos_evento"


def upgrade() -> None:
    conexao = op.get_bind()
    if conexao.dialect.name != "sqlite":
        op.drop_constraint(_RESTRICAO, _TABELA, type_="unique")
        op.add_column(_TABELA, sa.Column("valor", sa.String(32), nullable=True))
        return
    contador = conexao.exec_driver_sql(
        f"SELECT seq FROM sqlite_sequence WHERE name = '{_TABELA}'"
    ).scalar()
    with op.batch_alter_table(
        _TABELA, recreate="always", table_kwargs={"sqlite_autoincrement": True}
    ) as tabela:
        tabela.drop_constraint(_RESTRICAO, type_="unique")
        tabela.add_column(sa.Column("valor", sa.String(32), nullable=True))
    op.execute(f"DELETE FROM sqlite_sequence WHERE name = '{_TABELA}'")
    op.execute(
        sa.text("INSERT INTO sqlite_sequence (name, seq) VALUES (:tabela, :seq)").bindparams(
            tabela=_TABELA, seq=int(contador or 0)
        )
    )


def downgrade() -> None:
    raise NotImplementedError("a auditoria só cresce: esta migração não se desfaz")
