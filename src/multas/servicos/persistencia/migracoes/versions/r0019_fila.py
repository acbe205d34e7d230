"""The work queue's index (issue 36, item 4): what § 6 derived of each processo on one day,
so that the queue reads indexed columns instead of deriving every processo on every request
(:mod:`multas.servicos.persistencia.modelos_fila`).

- ``fila_processos`` is created: one row per processo indexed (its day and legislation).
- ``fila_itens`` is created: its items, with the columns the queue filters and orders on.

Both start empty: the queue derives a processo with no row, as before, and indexes it.

**The audit chain:** derived data, outside the chain (as the login throttle): no record to
vouch for.

Revision ID: r0019
Revises: r0018
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "r0019"
down_revision: str | None = "r0018"
branch_labels: str | None = None
depends_on: str | None = None

_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "fila_processos",
        sa.Column("id", _ID, primary_key=True, autoincrement=False),
        sa.Column("referencia", sa.Date(), nullable=False),
        sa.Column("lei", sa.String(64), nullable=False),
    )
    op.create_table(
        "fila_itens",
        sa.Column("id", _ID, primary_key=True, autoincrement=True),
        sa.Column("processo_id", _ID, nullable=False),
        sa.Column("tipo", sa.String(8), nullable=False),
        sa.Column("estado", sa.String(64), nullable=True),
        sa.Column("cnpj", sa.String(32), nullable=True),
        sa.Column("confiavel", sa.Boolean(), nullable=False),
        sa.Column("responsavel", sa.String(64), nullable=True),
        sa.Column("data", sa.Date(), nullable=True),
        sa.Column("nome", sa.String(64), nullable=True),
        sa.Column("desde", sa.Date(), nullable=True),
        sa.Column("situacao", sa.String(64), nullable=True),
        sa.Column("pendente", sa.Boolean(), nullable=False),
        sa.Column("item", sa.Text(), nullable=False),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_fila_itens_processo_id", "fila_itens", ["processo_id"])
    op.create_index("ix_fila_itens_tipo_data", "fila_itens", ["tipo", "data"])


def downgrade() -> None:
    raise NotImplementedError("a auditoria só cresce: esta migração não se desfaz")
