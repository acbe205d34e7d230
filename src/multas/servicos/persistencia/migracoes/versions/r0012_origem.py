"""The year opens the autos (issue 33, item 5; spec § 6.3 v4): an ``anp`` processo opened by
``multas ano calcular --salvar`` names the fine it was opened for.

- ``processos.origem`` is added: nullable text, the JSON ``{"regime", "ano_meta", "cnpj"}``
  (the distributor's ledger year and its notice). Every processo stored before has none (NULL).

**The audit chain**, as in r0007: a column that is NULL everywhere changes no processo's state
hash; the migration checks that rather than assuming it, and vouches (``alterar``, user
``migração r0012``) for any processo whose state changed.

Revision ID: r0012
Revises: r0011
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.orm import Session

from multas.servicos.persistencia import aval
from multas.servicos.persistencia.registros import travar_cadeia

revision = "r0012"
down_revision: str | None = "r0011"
branch_labels: str | None = None
depends_on: str | None = None

QUEM = "migração r0012"
ACAO = "processo_migrar"


def upgrade() -> None:
    conexao = op.get_bind()
    sessao = Session(bind=conexao)
    travar_cadeia(sessao)  # no writer between the check below and the rows that vouch
    antes = aval.estados_conferidos(
        sessao,
        "processos",
        aval.linhas(sessao, "processos"),
        "processo nº %s não confere com a auditoria antes da migração r0012: a migração não o "
        "abona (multas auditoria verificar continua a apontá-lo)",
    )
    op.add_column("processos", sa.Column("origem", sa.Text(), nullable=True))
    # none, as the new column is NULL everywhere: checked, not assumed
    aval.abonar(
        sessao,
        "processos",
        antes,
        QUEM,
        ACAO,
        lambda linha: {"processo_id": int(linha["id"]), "coluna": "origem"},
    )


def downgrade() -> None:
    raise NotImplementedError("a auditoria só cresce: esta migração não se desfaz")
