"""Clients kept apart (issue 20, item 2): a user may be limited to some clients.

- ``usuarios.clientes`` is added: nullable text, the canonical JSON of the user's scope
  (:meth:`multas.nucleo.escopo.Escopo.json`: ``[{"cnpj": "11222333000181"}, {"raiz": "12ABC345"}]``).
  Every user stored before is unlimited (NULL).
- ``feeds`` is created: each user's private calendar feed (``/api/v1/feed/<token>.ics``), only
  the SHA-256 of its token kept; a record of the chain like the tokens (created and revoked
  through the audit).

**The audit chain**, as in r0007: a record's canonical state is its columns that hold a value,
so a new column that is NULL everywhere changes no user's state. The migration checks that
rather than assuming it: it takes the chain's lock, hashes every user whose state matched its
history before the change, hashes them again after it, and, should one have changed, vouches
for it with one ``alterar`` row (action ``usuario_migrar``, user ``migração r0010``). A user
that did not match its history before the upgrade (edited outside the system) is not vouched
for, and cannot sign in (:mod:`multas.servicos.persistencia.acesso`).

Revision ID: r0010
Revises: r0009
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.orm import Session

from multas.servicos.persistencia import aval
from multas.servicos.persistencia.modelos import UTCDateTime
from multas.servicos.persistencia.registros import travar_cadeia

revision = "r0010"
down_revision: str | None = "r0009"
branch_labels: str | None = None
depends_on: str | None = None

QUEM = "migração r0010"
ACAO = "usuario_migrar"
_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    conexao = op.get_bind()
    sessao = Session(bind=conexao)
    travar_cadeia(sessao)  # no writer between the check below and the rows that vouch
    antes = aval.estados_conferidos(
        sessao,
        "usuarios",
        aval.linhas(sessao, "usuarios"),
        "usuário nº %s não confere com a auditoria antes da migração r0010: a migração não o "
        "abona (multas auditoria verificar continua a apontá-lo)",
    )
    op.add_column("usuarios", sa.Column("clientes", sa.Text(), nullable=True))
    op.create_table(
        "feeds",
        sa.Column("id", _ID, primary_key=True, autoincrement=True),
        sa.Column("hash_token", sa.String(64), nullable=False, unique=True),
        sa.Column("usuario_id", _ID, nullable=False, index=True),
        sa.Column("criado_em", UTCDateTime(), nullable=False),
        sa.Column("revogado", sa.Boolean(), nullable=False),
        sqlite_autoincrement=True,
    )
    # none, as the new column is NULL everywhere: checked, not assumed
    aval.abonar(
        sessao,
        "usuarios",
        antes,
        QUEM,
        ACAO,
        lambda linha: {"usuario_id": int(linha["id"]), "coluna": "clientes"},
    )


def downgrade() -> None:
    raise NotImplementedError("a auditoria só cresce: esta migração não se desfaz")
