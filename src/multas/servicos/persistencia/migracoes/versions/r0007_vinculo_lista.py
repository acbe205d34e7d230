"""Linked processos (issue 19, item 5): an ``anp`` processo may name the ``renovabio.lista``
processo of the same distributor, so that the first-instance decision, entered once, feeds both.

- ``processos.lista_id`` is added: nullable, a reference to ``processos.id`` (``ON DELETE SET
  NULL``), unique (a list processo is linked to one anp processo at most). Every processo
  stored before has none (NULL).

**The audit chain.** A record's canonical state is its columns that hold a value
(:func:`multas.servicos.persistencia.registros.estado`): a new column that is NULL everywhere changes no
processo's state, so no hash changes and the chain needs no new row. The migration checks that
rather than assuming it, as r0006 does: it takes the chain's lock, hashes every processo whose
state matched its history before the change, hashes them again after it, and, should one have
changed, vouches for it with one ``alterar`` row (action ``processo_migrar``, user ``migração
r0007``). A processo that did not match its history before the upgrade (edited outside the
system) is not vouched for: ``multas auditoria verificar`` keeps reporting it.

Revision ID: r0007
Revises: r0006
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.orm import Session

from multas.servicos.persistencia import aval
from multas.servicos.persistencia.registros import travar_cadeia

revision = "r0007"
down_revision: str | None = "r0006"
branch_labels: str | None = None
depends_on: str | None = None

QUEM = "migração r0007"
ACAO = "processo_migrar"
_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    conexao = op.get_bind()
    sessao = Session(bind=conexao)
    travar_cadeia(sessao)  # no writer between the check below and the rows that vouch
    antes = aval.estados_conferidos(
        sessao,
        "processos",
        aval.linhas(sessao, "processos"),
        "processo nº %s não confere com a auditoria antes da migração r0007: a migração não o "
        "abona (multas auditoria verificar continua a apontá-lo)",
    )
    if conexao.dialect.name == "sqlite":
        # SQLite adds a column with a reference in place (ALTER TABLE ... ADD COLUMN ...
        # REFERENCES), which its default NULL allows; rebuilding the table is not needed
        op.execute(
            "ALTER TABLE processos ADD COLUMN lista_id INTEGER "
            "REFERENCES processos (id) ON DELETE SET NULL"
        )
    else:
        op.add_column("processos", sa.Column("lista_id", _ID, nullable=True))
        op.create_foreign_key(
            "fk_processos_lista_id",
            "processos",
            "processos",
            ["lista_id"],
            ["id"],
            ondelete="SET NULL",
        )
    op.create_index("uq_processos_lista_id", "processos", ["lista_id"], unique=True)
    # none, as the new column is NULL everywhere: checked, not assumed
    aval.abonar(
        sessao,
        "processos",
        antes,
        QUEM,
        ACAO,
        lambda linha: {"processo_id": int(linha["id"]), "coluna": "lista_id"},
    )


def downgrade() -> None:
    raise NotImplementedError("a auditoria só cresce: esta migração não se desfaz")
