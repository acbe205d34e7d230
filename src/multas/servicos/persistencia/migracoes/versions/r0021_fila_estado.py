"""Each indexed processo's estado (issue 37, item 13): the ``/processos`` list filters by
estado from the work queue's index instead of deriving every processo on each request
(:class:`multas.servicos.persistencia.modelos_fila.FilaProcesso`).

- ``fila_processos`` gets ``estado``, nullable: the processo's estado on the row's day (NULL:
  it cannot be read). A processo may have no item, so ``fila_itens.estado`` does not say it.
- The index is emptied (``fila_processos``, ``fila_itens``, ``fila_textos`` and the mark,
  ``fila_marcas``): a row written before would read as a processo that cannot be read. The
  index is derived data, and the next queue (or ``multas reavaliar``) rebuilds it.

**The audit chain:** derived data, outside the chain (as the rest of the queue's index).

Revision ID: r0021
Revises: r0020
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "r0021"
down_revision: str | None = "r0020"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    for tabela in ("fila_marcas", "fila_textos", "fila_itens", "fila_processos"):
        op.execute(f"DELETE FROM {tabela}")
    op.add_column("fila_processos", sa.Column("estado", sa.String(64), nullable=True))


def downgrade() -> None:
    raise NotImplementedError("a auditoria só cresce: esta migração não se desfaz")
