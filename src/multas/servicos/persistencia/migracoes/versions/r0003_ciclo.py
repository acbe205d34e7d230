"""The lifecycle: stored processos and their events, and the distributor's ledger (issue 9).

Revision ID: r0003
Revises: r0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from multas.servicos.persistencia.modelos import UTCDateTime

revision = "r0003"
down_revision: str | None = "r0002"
branch_labels: str | None = None
depends_on: str | None = None


def upgrade() -> None:
    op.create_table(
        "processos",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("tipo", sa.String(32), nullable=False),
        sa.Column("identificador", sa.Text(), nullable=True),
        sa.Column("cnpj", sa.String(32), nullable=True),
        sa.Column("nome", sa.String(200), nullable=True),
        sa.Column("calendario", sa.String(16), nullable=False),
        sa.Column("principal", sa.String(32), nullable=True),
        sa.Column(
            "caso_id",
            sa.Integer(),
            sa.ForeignKey("casos.id", ondelete="SET NULL", name="fk_processos_caso_id"),
            nullable=True,
        ),
        sa.Column("usuario", sa.String(200), nullable=False),
        sa.Column("criado_em", UTCDateTime(), nullable=False),
        sa.Column("atualizado_em", UTCDateTime(), nullable=False),
    )
    op.create_index("ix_processos_tipo", "processos", ["tipo"])
    op.create_index("ix_processos_cnpj", "processos", ["cnpj"])
    op.create_table(
        "processo_eventos",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "processo_id",
            sa.Integer(),
            sa.ForeignKey("processos.id", ondelete="CASCADE", name="fk_processo_eventos_processo"),
            nullable=False,
        ),
        sa.Column("posicao", sa.Integer(), nullable=False),
        sa.Column("evento", sa.String(64), nullable=False),
        sa.Column("data", sa.Date(), nullable=False),
        sa.Column("usuario", sa.String(200), nullable=False),
        sa.Column("criado_em", UTCDateTime(), nullable=False),
        sa.UniqueConstraint("processo_id", "posicao", name="uq_processo_eventos_posicao"),
        sa.UniqueConstraint("processo_id", "evento", name="uq_processo_eventos_evento"),
    )
    op.create_index("ix_processo_eventos_processo_id", "processo_eventos", ["processo_id"])
    op.create_table(
        "carteira_anos",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("cnpj", sa.String(32), nullable=False),
        sa.Column("ano", sa.Integer(), nullable=False),
        sa.Column("nome", sa.String(200), nullable=True),
        sa.Column("entrada", sa.Text(), nullable=False),
        sa.Column("usuario", sa.String(200), nullable=False),
        sa.Column("criado_em", UTCDateTime(), nullable=False),
        sa.Column("atualizado_em", UTCDateTime(), nullable=False),
        sa.UniqueConstraint("cnpj", "ano", name="uq_carteira_anos_cnpj_ano"),
    )
    op.create_index("ix_carteira_anos_cnpj", "carteira_anos", ["cnpj"])


def downgrade() -> None:
    op.drop_table("carteira_anos")
    op.drop_table("processo_eventos")
    op.drop_table("processos")
