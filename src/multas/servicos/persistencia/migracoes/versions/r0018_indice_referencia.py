"""The reference's index (issue 36, item 3): every processo saved or imported looks its ANP
reference up (one processo per reference, :mod:`multas.servicos.persistencia.referencias`), and
without an index each lookup read every processo: an import of N processos cost N², 4.4 s of
an import of 2,000 on SQLite.

- ``ix_processos_identificador`` is created on ``processos.identificador``.

**The audit chain:** an index changes no row: no record to vouch for.

Revision ID: r0018
Revises: r0017
Create Date: 2026-12-05
"""

from __future__ import annotations

from alembic import op

revision = "r0018"
down_revision: str | None = "r0017"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_index("ix_processos_identificador", "processos", ["identificador"])


def downgrade() -> None:
    raise NotImplementedError("a auditoria só cresce: esta migração não se desfaz")
