"""Trust (issue 10): ids never reused, 64-bit ids, idempotent saves.

- SQLite: ``casos`` and ``auditoria`` are rebuilt with ``AUTOINCREMENT``, so a deleted id is
  never handed out again; the counter starts past every id the audit log has ever named.
- PostgreSQL: the ids become ``bigint`` (their sequences too) and each sequence is moved past
  every id the audit log names.
- ``idempotencia``: the ``Idempotency-Key`` of each save, so a retried save returns the case
  saved the first time.

Revision ID: r0002
Revises: r0001
Create Date: 2026-11-30
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from multas.persistencia.modelos import UTCDateTime

revision = "r0002"
down_revision: str | None = "r0001"
branch_labels: str | None = None
depends_on: str | None = None

_MENSAGEM = "auditoria: registro somente de inclusão (não se altera nem se exclui)"
_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    dialeto = op.get_bind().dialect.name
    if dialeto == "sqlite":
        _sqlite_autoincrement()
    elif dialeto == "postgresql":
        _postgresql_bigint()
    op.create_table(
        "idempotencia",
        sa.Column("id", _ID, primary_key=True, autoincrement=True),
        sa.Column("usuario", sa.String(200), nullable=False),
        sa.Column("chave", sa.String(200), nullable=False),
        sa.Column("hash_corpo", sa.String(64), nullable=False),
        sa.Column("caso_id", _ID, nullable=False),
        sa.Column("criado_em", UTCDateTime(), nullable=False),
        sa.UniqueConstraint("usuario", "chave", name="uq_idempotencia_usuario_chave"),
        sqlite_autoincrement=True,
    )


def _gatilhos_sqlite(criar: bool) -> None:
    for evento in ("UPDATE", "DELETE"):
        nome = f"auditoria_sem_{evento.lower()}"
        if criar:
            op.execute(
                f"CREATE TRIGGER {nome} BEFORE {evento} ON auditoria "
                f"BEGIN SELECT RAISE(ABORT, '{_MENSAGEM}'); END"
            )
        else:
            op.execute(f"DROP TRIGGER IF EXISTS {nome}")


def _sqlite_autoincrement() -> None:
    # the rebuild copies the rows into a new table: the guard triggers go with the old one
    _gatilhos_sqlite(criar=False)
    for tabela in ("casos", "auditoria"):
        with op.batch_alter_table(
            tabela, recreate="always", table_kwargs={"sqlite_autoincrement": True}
        ):
            pass
    _gatilhos_sqlite(criar=True)
    # the counters start past every id ever used, including deleted cases the audit names
    for tabela, maximo in (
        (
            "casos",
            "SELECT max(x) FROM (SELECT max(id) AS x FROM casos "
            "UNION ALL SELECT max(caso_id) FROM auditoria)",
        ),
        ("auditoria", "SELECT max(id) FROM auditoria"),
    ):
        op.execute(f"DELETE FROM sqlite_sequence WHERE name = '{tabela}'")
        op.execute(
            f"INSERT INTO sqlite_sequence (name, seq) SELECT '{tabela}', coalesce(({maximo}), 0)"
        )


def _postgresql_bigint() -> None:
    for tabela in ("casos", "auditoria"):
        op.execute(f"ALTER TABLE {tabela} ALTER COLUMN id TYPE bigint")
        op.execute(f"ALTER SEQUENCE {_sequencia(tabela)} AS bigint")
    op.execute("ALTER TABLE auditoria ALTER COLUMN caso_id TYPE bigint")
    op.execute(
        f"SELECT setval('{_sequencia('casos')}', greatest("
        f"(SELECT last_value FROM {_sequencia('casos')}), "
        "(SELECT coalesce(max(caso_id), 1) FROM auditoria)))"
    )


def _sequencia(tabela: str) -> str:
    nome = op.get_bind().execute(sa.text(f"SELECT pg_get_serial_sequence('{tabela}', 'id')"))
    return str(nome.scalar_one())


def downgrade() -> None:
    op.drop_table("idempotencia")
