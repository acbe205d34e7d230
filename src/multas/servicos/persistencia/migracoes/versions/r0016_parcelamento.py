"""A parcelamento's plan on its event (issue 35, item 4; spec § 6.2 v4): the number of
instalments, the consolidated amount and, when given, the count that rescinds it.

- ``processo_eventos.plano`` is added: nullable text, the JSON of the plan of a
  ``parcelamento`` event (``{"parcelas", "valor_consolidado", "parcelas_para_rescisao"?}``);
  NULL for every other event and every event stored before.

**The audit chain:** a column that is NULL everywhere changes no record's state hash (a column
without a value is left out of it): no record to vouch for.

Revision ID: r0016
Revises: r0015
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "r0016"
down_revision: str | None = "r0015"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.add_column("processo_eventos", sa.Column("plano", sa.Text(), nullable=True))


def downgrade() -> None:
    raise NotImplementedError("a auditoria só cresce: esta migração não se desfaz")
