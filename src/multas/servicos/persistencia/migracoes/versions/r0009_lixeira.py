"""Safe deletes (issue 20, item 4): a deleted case, processo or ledger year is hidden, not
erased, and an admin may restore it until it is purged.

- ``casos``, ``processos`` and ``carteira_anos`` gain ``excluido_em`` (nullable): when the record
  was deleted. Every record stored before has none (NULL): none is deleted.
- The unique keys that a deleted record must not hold hold among the records not deleted:
  ``carteira_anos (cnpj, ano)`` and ``processos (lista_id)`` become partial unique indexes
  (``WHERE excluido_em IS NULL``), so a new ledger year may be created for a (CNPJ, year) whose
  record is in the bin. Restoring it then is refused, with the reason.
  SQLite cannot drop a table's ``UNIQUE`` constraint: ``carteira_anos`` is rebuilt, and its
  ``AUTOINCREMENT`` counter is carried over, so a purged id is never handed out again.

**The audit chain.** A new column that is NULL everywhere changes no record's state hash. As in
r0007, the migration checks that rather than assuming it: it hashes every record that matched
its history before the change, hashes it again after it, and vouches (``alterar``, user
``migração r0009``) for any whose state changed.

Revision ID: r0009
Revises: r0008
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.orm import Session

from multas.servicos.persistencia import aval
from multas.servicos.persistencia.modelos import UTCDateTime
from multas.servicos.persistencia.registros import travar_cadeia

revision = "r0009"
down_revision: str | None = "r0008"
branch_labels: str | None = None
depends_on: str | None = None

QUEM = "migração r0009"
ACAO = "lixeira_migrar"
TABELAS = ("casos", "processos", "carteira_anos")
_VIVOS = sa.text("excluido_em IS NULL")


def upgrade() -> None:
    conexao = op.get_bind()
    sessao = Session(bind=conexao)
    travar_cadeia(sessao)  # no writer between the check below and the rows that vouch
    antes = {
        tabela: aval.estados_conferidos(
            sessao,
            tabela,
            aval.linhas(sessao, tabela),
            f"{tabela} nº %s não confere com a auditoria antes da migração r0009: a migração "
            "não o abona (multas auditoria verificar continua a apontá-lo)",
        )
        for tabela in TABELAS
    }
    for tabela in TABELAS:
        op.add_column(tabela, sa.Column("excluido_em", UTCDateTime(), nullable=True))
    op.drop_index("uq_processos_lista_id", table_name="processos")
    op.create_index(
        "uq_processos_lista_id",
        "processos",
        ["lista_id"],
        unique=True,
        sqlite_where=_VIVOS,
        postgresql_where=_VIVOS,
    )
    if conexao.dialect.name == "sqlite":
        _sqlite_sem_restricao()
    else:
        op.drop_constraint("uq_carteira_anos_cnpj_ano", "carteira_anos", type_="unique")
    op.create_index(
        "uq_carteira_anos_cnpj_ano",
        "carteira_anos",
        ["cnpj", "ano"],
        unique=True,
        sqlite_where=_VIVOS,
        postgresql_where=_VIVOS,
    )
    for tabela in TABELAS:
        aval.abonar(
            sessao,
            tabela,
            antes[tabela],
            QUEM,
            ACAO,
            lambda linha: {"registro_id": int(linha["id"]), "coluna": "excluido_em"},
        )


def _sqlite_sem_restricao() -> None:
    """``carteira_anos`` rebuilt without its ``UNIQUE (cnpj, ano)``; the counter of ids is
    kept (dropping the old table drops its ``sqlite_sequence`` row)."""
    conexao = op.get_bind()
    contador = conexao.exec_driver_sql(
        "SELECT seq FROM sqlite_sequence WHERE name = 'carteira_anos'"
    ).scalar()
    with op.batch_alter_table(
        "carteira_anos", recreate="always", table_kwargs={"sqlite_autoincrement": True}
    ) as tabela:
        tabela.drop_constraint("uq_carteira_anos_cnpj_ano", type_="unique")
    op.execute("DELETE FROM sqlite_sequence WHERE name = 'carteira_anos'")
    op.execute(
        sa.text(
            "INSERT INTO sqlite_sequence (name, seq) VALUES ('carteira_anos', :seq)"
        ).bindparams(seq=int(contador or 0))
    )


def downgrade() -> None:
    raise NotImplementedError("a auditoria só cresce: esta migração não se desfaz")
