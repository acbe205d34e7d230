"""Documents on events (issue 35, item 5; spec § 6.2 v4): the proof behind an event (the AR of
a citação, the receipt of a payment, a court order), tied to it by its hash.

- ``processo_eventos.documentos`` is added: nullable text, the JSON of the event's documents
  (``[{"sha256", "nome", "tipo", "bytes"}]``); NULL for every event stored before.
- ``documentos`` is created: one record per content (``sha256``, unique), its type, size and
  bytes; a record of the chain like the others, never altered (``mutavel=False``).

**The audit chain:** a column that is NULL everywhere changes no record's state hash, and the
new table is empty: no record to vouch for.

Revision ID: r0017
Revises: r0016
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from multas.servicos.persistencia.modelos import UTCDateTime

revision = "r0017"
down_revision: str | None = "r0016"
branch_labels: str | None = None
depends_on: str | None = None

_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.add_column("processo_eventos", sa.Column("documentos", sa.Text(), nullable=True))
    op.create_table(
        "documentos",
        sa.Column("id", _ID, primary_key=True, autoincrement=True),
        sa.Column("sha256", sa.String(64), nullable=False),
        sa.Column("tipo", sa.String(32), nullable=False),
        sa.Column("bytes", sa.Integer(), nullable=False),
        sa.Column("conteudo", sa.LargeBinary(), nullable=False),
        sa.Column("usuario", sa.String(200), nullable=False),
        sa.Column("criado_em", UTCDateTime(), nullable=False),
        sa.UniqueConstraint("sha256", name="uq_documentos_sha256"),
        sqlite_autoincrement=True,
    )


def downgrade() -> None:
    raise NotImplementedError("a auditoria só cresce: esta migração não se desfaz")
