"""A stored processo keeps its readings (issue 34; spec § 3.7 point 3 v4): the
``prescricao_penal_anos`` and the readings of § 6.1 v4 besides ``calendario``
(``prazo_alegacoes``, ``atos_instrucao``, ``interrupcao_penal``), which it used to refuse.

- ``processos.leituras`` is added: nullable text, the JSON of the fields that differ from the
  defaults, ``{"interpretacao": {...}, "prescricao_penal_anos": N}``. Every processo stored
  before has only the defaults (it could not store others): NULL.

**The audit chain**, as in r0007: a column that is NULL everywhere changes no processo's state
hash; the migration checks that rather than assuming it, and vouches (``alterar``, user
``migração r0013``) for any processo whose state changed.

Revision ID: r0013
Revises: r0012
Create Date: 2026-12-05
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.orm import Session

from multas.servicos.persistencia import aval
from multas.servicos.persistencia.registros import travar_cadeia

revision = "r0013"
down_revision: str | None = "r0012"
branch_labels: str | None = None
depends_on: str | None = None

QUEM = "migração r0013"
ACAO = "processo_migrar"


def upgrade() -> None:
    conexao = op.get_bind()
    sessao = Session(bind=conexao)
    travar_cadeia(sessao)  # no writer between the check below and the rows that vouch
    antes = aval.estados_conferidos(
        sessao,
        "processos",
        aval.linhas(sessao, "processos"),
        "processo nº %s não confere com a auditoria antes da migração r0013: a migração não o "
        "abona (multas auditoria verificar continua a apontá-lo)",
    )
    op.add_column("processos", sa.Column("leituras", sa.Text(), nullable=True))
    # none, as the new column is NULL everywhere: checked, not assumed
    aval.abonar(
        sessao,
        "processos",
        antes,
        QUEM,
        ACAO,
        lambda linha: {"processo_id": int(linha["id"]), "coluna": "leituras"},
    )


def downgrade() -> None:
    raise NotImplementedError("a auditoria só cresce: esta migração não se desfaz")
