"""Imports in parts (issue 32, item 1): a long ledger import writes in short transactions,
each holding the chain's lock for one part, and its rows stay invisible until one last step
applies it.

- ``cargas`` is created: one record per import in parts (its state, who, until when its
  process must renew it), a record of the chain like the others.
- ``carteira_anos`` gains ``carga_id`` (the import that wrote the row; NULL: written in one
  transaction) and ``substituida_por`` (the import that replaces it), both nullable: every
  year stored before has neither.
- The unique index ``uq_carteira_anos_cnpj_ano`` holds among the years written in one
  transaction that nothing replaces (``carga_id IS NULL AND substituida_por IS NULL``): an
  import's new year and the year it replaces are both stored until the import is applied. The
  application keeps one visible year per (CNPJ, year): every write of a year takes the chain's
  lock, reads the visible years, and refuses a distributor whose import is running.

**The audit chain**, as in r0009: a column that is NULL everywhere changes no record's state
hash; the migration checks that rather than assuming it, and vouches (``alterar``, user
``migração r0011``) for any year whose state changed.

Revision ID: r0011
Revises: r0010
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.orm import Session

from multas.servicos.persistencia import aval
from multas.servicos.persistencia.modelos import UTCDateTime
from multas.servicos.persistencia.registros import travar_cadeia

revision = "r0011"
down_revision: str | None = "r0010"
branch_labels: str | None = None
depends_on: str | None = None

QUEM = "migração r0011"
ACAO = "carteira_migrar"
_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
_UNICOS = sa.text("excluido_em IS NULL AND carga_id IS NULL AND substituida_por IS NULL")


def upgrade() -> None:
    conexao = op.get_bind()
    sessao = Session(bind=conexao)
    travar_cadeia(sessao)  # no writer between the check below and the rows that vouch
    antes = aval.estados_conferidos(
        sessao,
        "carteira_anos",
        aval.linhas(sessao, "carteira_anos"),
        "carteira_anos nº %s não confere com a auditoria antes da migração r0011: a migração "
        "não o abona (multas auditoria verificar continua a apontá-lo)",
    )
    op.create_table(
        "cargas",
        sa.Column("id", _ID, primary_key=True, autoincrement=True),
        sa.Column("tipo", sa.String(32), nullable=False),
        sa.Column("estado", sa.String(16), nullable=False),
        sa.Column("usuario", sa.String(200), nullable=False),
        sa.Column("linhas", sa.Integer(), nullable=False),
        sa.Column("criado_em", UTCDateTime(), nullable=False),
        sa.Column("validade", UTCDateTime(), nullable=False),
        sqlite_autoincrement=True,
    )
    op.create_index("ix_cargas_estado", "cargas", ["estado"])
    op.add_column("carteira_anos", sa.Column("carga_id", _ID, nullable=True))
    op.add_column("carteira_anos", sa.Column("substituida_por", _ID, nullable=True))
    op.create_index("ix_carteira_anos_carga_id", "carteira_anos", ["carga_id"])
    op.create_index("ix_carteira_anos_substituida_por", "carteira_anos", ["substituida_por"])
    op.drop_index("uq_carteira_anos_cnpj_ano", table_name="carteira_anos")
    op.create_index(
        "uq_carteira_anos_cnpj_ano",
        "carteira_anos",
        ["cnpj", "ano"],
        unique=True,
        sqlite_where=_UNICOS,
        postgresql_where=_UNICOS,
    )
    # none, as the new columns are NULL everywhere: checked, not assumed
    aval.abonar(
        sessao,
        "carteira_anos",
        antes,
        QUEM,
        ACAO,
        lambda linha: {"registro_id": int(linha["id"]), "coluna": "carga_id"},
    )


def downgrade() -> None:
    raise NotImplementedError("a auditoria só cresce: esta migração não se desfaz")
