"""Linked processos (issue 19, item 5): an ``anp`` processo may name the ``renovabio.lista``
processo of the same distributor, so that the first-instance decision, entered once, feeds both.

- ``processos.lista_id`` is added: nullable, a reference to ``processos.id`` (``ON DELETE SET
  NULL``), unique (a list processo is linked to one anp processo at most). Every processo
  stored before has none (NULL).

**The audit chain.** A record's canonical state is its columns that hold a value
(:func:`multas.persistencia.registros.estado`): a new column that is NULL everywhere changes no
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

import logging

import sqlalchemy as sa
from alembic import op
from sqlalchemy.orm import Session

from multas.persistencia.papeis import como_dono_da_auditoria, identificador
from multas.persistencia.registros import (
    RECURSOS,
    Escrita,
    conferir_proprios,
    hashes_atuais,
    travar_cadeia,
)
from multas.relogio import agora

revision = "r0007"
down_revision: str | None = "r0006"
branch_labels: str | None = None
depends_on: str | None = None

QUEM = "migração r0007"
ACAO = "processo_migrar"
_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
registro = logging.getLogger("multas.persistencia")


def upgrade() -> None:
    conexao = op.get_bind()
    sessao = Session(bind=conexao)
    travar_cadeia(sessao)  # no writer between the check below and the rows that vouch
    antes = _estados_conferidos(sessao)
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
    _regravar(sessao, antes)


def _poder_auditar(conexao: sa.Connection) -> None:
    """PostgreSQL: the migrating role appends the rows below; it may read the chain and insert
    into it (as r0004 granted to the role that ran it), never alter it."""
    if conexao.dialect.name != "postgresql":
        return
    eu = identificador(str(conexao.execute(sa.text("SELECT current_user")).scalar_one()))
    with como_dono_da_auditoria(conexao):
        sequencia = conexao.execute(
            sa.text("SELECT pg_get_serial_sequence('auditoria', 'id')")
        ).scalar_one()
        op.execute(f"GRANT SELECT, INSERT ON auditoria TO {eu}")
        op.execute(f"GRANT USAGE, SELECT ON SEQUENCE {sequencia} TO {eu}")


def _linhas(sessao: Session) -> list[sa.RowMapping]:
    """Every processo as it is in the database now (the table reflected, not the model: the
    columns are the ones this revision sees)."""
    tabela = sa.Table("processos", sa.MetaData(), autoload_with=sessao.connection())
    return list(sessao.execute(sa.select(tabela).order_by(tabela.c.id)).mappings().all())


def _estados_conferidos(sessao: Session) -> dict[int, str]:
    """Each processo's state hash before the change, for those whose state is the one its
    history ends with."""
    recurso = RECURSOS["processos"]
    atuais = hashes_atuais(sessao, recurso, _linhas(sessao))
    problemas = conferir_proprios(sessao, recurso, atuais)
    for registro_id in sorted(problemas):
        registro.warning(
            "processo nº %s não confere com a auditoria antes da migração r0007: a "
            "migração não o abona (multas auditoria verificar continua a apontá-lo)",
            registro_id,
        )
    return {i: atual for i, atual in atuais.items() if i not in problemas}


def _regravar(sessao: Session, antes: dict[int, str]) -> None:
    """One ``alterar`` row for each vouched-for processo whose state hash the change altered
    (none, as the new column is NULL everywhere; checked, not assumed)."""
    recurso = RECURSOS["processos"]
    linhas = _linhas(sessao)
    depois = hashes_atuais(sessao, recurso, linhas)
    mudados = [
        linha
        for linha in linhas
        if int(linha["id"]) in antes and depois[int(linha["id"])] != antes[int(linha["id"])]
    ]
    if not mudados:
        return
    _poder_auditar(sessao.connection())
    escrita = Escrita(sessao, agora(), QUEM)
    for linha in mudados:
        escrita.regravar(
            recurso, linha, ACAO, {"processo_id": int(linha["id"]), "coluna": "lista_id"}
        )
    sessao.flush()


def downgrade() -> None:
    raise NotImplementedError("a auditoria só cresce: esta migração não se desfaz")
