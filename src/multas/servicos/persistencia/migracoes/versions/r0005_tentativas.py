"""Refused credentials, per user name, token and address, shared by every worker (issue 16):
the throttle that blocks a name after 10 failures in 15 minutes (a sliding window).

Revision ID: r0005
Revises: r0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from multas.servicos.persistencia.modelos import UTCDateTime

revision = "r0005"
down_revision: str | None = "r0004"
branch_labels: str | None = None
depends_on: str | None = None

_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "tentativas_login",
        sa.Column("id", _ID, primary_key=True, autoincrement=True),
        sa.Column("chave", sa.String(300), nullable=False, unique=True),
        sa.Column("momentos", sa.Text(), nullable=False),
        sa.Column("bloqueado_ate", UTCDateTime(), nullable=True),
        sa.Column("nivel", sa.Integer(), nullable=False),
        sa.Column("atualizado_em", UTCDateTime(), nullable=False),
        sqlite_autoincrement=True,
    )


def downgrade() -> None:
    op.drop_table("tentativas_login")
