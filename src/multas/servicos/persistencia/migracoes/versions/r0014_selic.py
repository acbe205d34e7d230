"""The months of the Selic a user adds (issue 35, item 1; spec § 3.5 v4): ``multas legislacao
selic atualizar ARQUIVO`` reads the Banco Central's CSV of series 4390 and stores each month
after the ones the project ships.

- ``selic_meses`` is created: one record per month (``mes`` ``AAAA-MM``, unique), its rate as
  exact decimal text, its source (the file, its SHA-256, when and by whom), a record of the
  chain like the others and never altered (``mutavel=False``).

**The audit chain:** a new, empty table: no record to vouch for.

Revision ID: r0014
Revises: r0013
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from multas.servicos.persistencia.modelos import UTCDateTime

revision = "r0014"
down_revision: str | None = "r0013"
branch_labels: str | None = None
depends_on: str | None = None

_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "selic_meses",
        sa.Column("id", _ID, primary_key=True, autoincrement=True),
        sa.Column("mes", sa.String(7), nullable=False),
        sa.Column("taxa", sa.String(32), nullable=False),
        sa.Column("fonte", sa.String(1000), nullable=False),
        sa.Column("usuario", sa.String(200), nullable=False),
        sa.Column("criado_em", UTCDateTime(), nullable=False),
        sa.UniqueConstraint("mes", name="uq_selic_meses_mes"),
        sqlite_autoincrement=True,
    )


def downgrade() -> None:
    raise NotImplementedError("a auditoria só cresce: esta migração não se desfaz")
