"""The work queue's mark (issue 36, item 4): the position of the audit chain as of which every
live processo was indexed on a day, so that the queue looks for stale processos among those
written since, not among all (:class:`multas.servicos.persistencia.modelos_fila.FilaMarca`).

- ``fila_marcas`` is created, empty: until a queue (or ``multas reavaliar``) indexes every
  processo, the queue looks for stale processos among all, as before.
- ``fila_processos`` gets an index on (``referencia``, ``lei``): before marking, the queue
  asks whether a row of another day or legislation is there.

**The audit chain:** derived data, outside the chain (as the rest of the queue's index).

Revision ID: r0020
Revises: r0019
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "r0020"
down_revision: str | None = "r0019"
branch_labels: str | None = None
depends_on: str | None = None

_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "fila_marcas",
        sa.Column("id", _ID, primary_key=True, autoincrement=False),
        sa.Column("referencia", sa.Date(), nullable=False),
        sa.Column("lei", sa.String(64), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
    )
    op.create_index("ix_fila_processos_referencia_lei", "fila_processos", ["referencia", "lei"])


def downgrade() -> None:
    raise NotImplementedError("a auditoria só cresce: esta migração não se desfaz")
