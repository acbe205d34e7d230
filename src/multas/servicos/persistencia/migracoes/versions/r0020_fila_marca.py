"""The work queue's mark and narrow rows (issue 36, item 4): the position of the audit chain
as of which every live processo was indexed on a day, so that the queue looks for stale
processos among those written since, not among all
(:class:`multas.servicos.persistencia.modelos_fila.FilaMarca`); and rows that a page walks in
order.

- ``fila_marcas`` is created, empty: until a queue (or ``multas reavaliar``) indexes every
  processo, the queue looks for stale processos among all, as before.
- ``fila_processos`` gets an index on (``referencia``, ``lei``): before marking, the queue
  asks whether a row of another day or legislation is there.
- ``fila_itens`` gets ``ordem`` (a deadline overdue or not, an action with a date or not: the
  queue's first sort key) and two indexes in the queue's two orders, so a page walks an
  index and stops after its rows, and indexes on ``cnpj`` and ``confiavel`` (a client's
  rows). The table is made again, and ``fila_processos`` emptied:
  the index is derived data, and the next queue (or ``multas reavaliar``) rebuilds it.
- ``fila_textos`` is created: each item's JSON, out of ``fila_itens`` (which keeps the
  item's place, ``n``), so that counting and ordering the queue walk narrow rows, and only a
  page's items are read whole.

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
    op.execute("DELETE FROM fila_processos")
    op.drop_table("fila_itens")
    op.create_table(
        "fila_itens",
        sa.Column("id", _ID, primary_key=True, autoincrement=True),
        sa.Column("processo_id", _ID, nullable=False),
        sa.Column("tipo", sa.String(8), nullable=False),
        sa.Column("ordem", sa.SmallInteger(), nullable=False),
        sa.Column("estado", sa.String(64), nullable=True),
        sa.Column("cnpj", sa.String(32), nullable=True),
        sa.Column("confiavel", sa.Boolean(), nullable=False),
        sa.Column("responsavel", sa.String(64), nullable=True),
        sa.Column("data", sa.Date(), nullable=True),
        sa.Column("nome", sa.String(64), nullable=True),
        sa.Column("desde", sa.Date(), nullable=True),
        sa.Column("situacao", sa.String(64), nullable=True),
        sa.Column("pendente", sa.Boolean(), nullable=False),
        sa.Column("n", sa.Integer(), nullable=False),
        sqlite_autoincrement=True,
    )
    op.create_table(
        "fila_textos",
        sa.Column("processo_id", _ID, primary_key=True, autoincrement=False),
        sa.Column("n", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("item", sa.Text(), nullable=False),
    )
    op.create_index("ix_fila_itens_processo_id", "fila_itens", ["processo_id"])
    op.create_index("ix_fila_itens_tipo_data", "fila_itens", ["tipo", "data"])
    op.create_index(
        "ix_fila_itens_prazos", "fila_itens", ["tipo", "ordem", "data", "processo_id", "nome", "id"]
    )
    op.create_index(
        "ix_fila_itens_acoes", "fila_itens", ["tipo", "ordem", "data", "desde", "processo_id", "id"]
    )
    op.create_index("ix_fila_itens_cnpj", "fila_itens", ["cnpj"])
    op.create_index("ix_fila_itens_confiavel", "fila_itens", ["confiavel"])


def downgrade() -> None:
    raise NotImplementedError("a auditoria só cresce: esta migração não se desfaz")
