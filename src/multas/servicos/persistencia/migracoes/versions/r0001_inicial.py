"""Saved cases and the append-only audit log.

Revision ID: r0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from multas.servicos.persistencia.modelos import UTCDateTime

revision = "r0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None

_MENSAGEM = "auditoria: registro somente de inclusão (não se altera nem se exclui)"


def upgrade() -> None:
    op.create_table(
        "casos",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("regime", sa.String(64), nullable=False),
        sa.Column("entrada", sa.Text(), nullable=False),
        sa.Column("resultado", sa.Text(), nullable=False),
        sa.Column("valor", sa.String(32), nullable=True),
        sa.Column("versao_motor", sa.String(32), nullable=False),
        sa.Column("versao_legislacao", sa.String(64), nullable=False),
        sa.Column("usuario", sa.String(200), nullable=False),
        sa.Column("origem", sa.String(16), nullable=False),
        sa.Column("criado_em", UTCDateTime(), nullable=False),
    )
    op.create_index("ix_casos_regime", "casos", ["regime"])
    op.create_index("ix_casos_criado_em", "casos", ["criado_em"])
    op.create_table(
        "auditoria",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("momento", UTCDateTime(), nullable=False),
        sa.Column("usuario", sa.String(200), nullable=False),
        sa.Column("acao", sa.String(32), nullable=False),
        sa.Column("caso_id", sa.Integer(), nullable=True),
        sa.Column("regime", sa.String(64), nullable=True),
        sa.Column("detalhe", sa.Text(), nullable=True),
    )
    op.create_index("ix_auditoria_caso_id", "auditoria", ["caso_id"])
    _proibir_alteracao_da_auditoria()


def _proibir_alteracao_da_auditoria() -> None:
    """The database itself refuses UPDATE and DELETE on the audit log."""
    dialeto = op.get_bind().dialect.name
    if dialeto == "sqlite":
        for evento in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER auditoria_sem_{evento.lower()} BEFORE {evento} ON auditoria "
                f"BEGIN SELECT RAISE(ABORT, '{_MENSAGEM}'); END"
            )
    elif dialeto == "postgresql":
        op.execute(
            "CREATE FUNCTION auditoria_somente_inclusao() RETURNS trigger LANGUAGE plpgsql AS "
            f"$$ BEGIN RAISE EXCEPTION '{_MENSAGEM}'; END $$"
        )
        op.execute(
            "CREATE TRIGGER auditoria_somente_inclusao BEFORE UPDATE OR DELETE OR TRUNCATE "
            "ON auditoria FOR EACH STATEMENT EXECUTE FUNCTION auditoria_somente_inclusao()"
        )


def downgrade() -> None:
    dialeto = op.get_bind().dialect.name
    if dialeto == "postgresql":
        op.execute("DROP TRIGGER auditoria_somente_inclusao ON auditoria")
        op.execute("DROP FUNCTION auditoria_somente_inclusao()")
    op.drop_table("auditoria")
    op.drop_table("casos")
