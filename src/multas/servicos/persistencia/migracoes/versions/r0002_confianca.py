"""Trust (issue 10): ids never reused, 64-bit ids, idempotent saves, the hash chain, and on
PostgreSQL an owner role for the audit log.

- SQLite: ``casos`` and ``auditoria`` are rebuilt with ``AUTOINCREMENT``, so a deleted id is
  never handed out again; the counter starts past every id the audit log has ever named.
- PostgreSQL: the ids become ``bigint`` (their sequences too), each sequence moved past every id
  the audit log names.
- ``casos.hash_conteudo``; ``auditoria.seq``, ``hash_anterior``, ``hash`` (see
  :mod:`multas.servicos.persistencia.integridade`). Rows saved before this migration are hashed now: the
  chain vouches for them from here on.
- ``idempotencia``: the ``Idempotency-Key`` of each save.
- PostgreSQL, when the migrating role may create roles: the role ``multas_dono`` (no login)
  becomes the owner of ``auditoria`` and of its guard function; the application's role keeps
  only ``SELECT`` and ``INSERT`` on it. So the application (or whoever steals its password)
  can neither change nor delete a row, nor disable the guard trigger (that needs the owner).
  The application's role is the migrating one, or the one named by the repository
  (``MULTAS_DATABASE_URL`` when migrations run with ``MULTAS_DATABASE_URL_DONO``).

Revision ID: r0002
Revises: r0001
Create Date: 2026-11-30
"""

from __future__ import annotations

import json
import logging

import sqlalchemy as sa
from alembic import context, op

from multas.servicos.persistencia.integridade import GENESE, colunas_caso, hash_caso, hash_registro
from multas.servicos.persistencia.modelos import UTCDateTime

revision = "r0002"
down_revision: str | None = "r0001"
branch_labels: str | None = None
depends_on: str | None = None

DONO = "multas_dono"
_MENSAGEM = "auditoria: registro somente de inclusão (não se altera nem se exclui)"
_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
registro = logging.getLogger("multas.servicos.persistencia")

_casos = sa.table(
    "casos",
    sa.column("id", sa.BigInteger()),
    sa.column("regime", sa.String()),
    sa.column("entrada", sa.Text()),
    sa.column("resultado", sa.Text()),
    sa.column("valor", sa.String()),
    sa.column("versao_motor", sa.String()),
    sa.column("versao_legislacao", sa.String()),
    sa.column("usuario", sa.String()),
    sa.column("origem", sa.String()),
    sa.column("criado_em", UTCDateTime()),
    sa.column("hash_conteudo", sa.String()),
)
_auditoria = sa.table(
    "auditoria",
    sa.column("id", sa.BigInteger()),
    sa.column("momento", UTCDateTime()),
    sa.column("usuario", sa.String()),
    sa.column("acao", sa.String()),
    sa.column("caso_id", sa.BigInteger()),
    sa.column("regime", sa.String()),
    sa.column("detalhe", sa.Text()),
    sa.column("seq", sa.BigInteger()),
    sa.column("hash_anterior", sa.String()),
    sa.column("hash", sa.String()),
)


def upgrade() -> None:
    dialeto = op.get_bind().dialect.name
    if dialeto == "sqlite":
        _gatilhos_sqlite(criar=False)
        _sqlite_reconstruir()
        _encadear()
        _gatilhos_sqlite(criar=True)
        _sqlite_contadores()
    else:
        if dialeto == "postgresql":
            _postgresql_bigint()
            op.execute("ALTER TABLE auditoria DISABLE TRIGGER auditoria_somente_inclusao")
        op.add_column("casos", sa.Column("hash_conteudo", sa.String(64), nullable=True))
        op.add_column("auditoria", sa.Column("seq", sa.BigInteger(), nullable=True))
        op.add_column("auditoria", sa.Column("hash_anterior", sa.String(64), nullable=True))
        op.add_column("auditoria", sa.Column("hash", sa.String(64), nullable=True))
        op.create_unique_constraint("uq_auditoria_seq", "auditoria", ["seq"])
        _encadear()
        if dialeto == "postgresql":
            op.execute("ALTER TABLE auditoria ENABLE TRIGGER auditoria_somente_inclusao")
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
    _tabelas_de_acesso()
    if dialeto == "postgresql":
        _postgresql_papeis()


def _tabelas_de_acesso() -> None:
    """Users, their API tokens and page sessions (multas.servicos.persistencia.acesso)."""
    op.create_table(
        "usuarios",
        sa.Column("id", _ID, primary_key=True, autoincrement=True),
        sa.Column("nome", sa.String(200), nullable=False, unique=True),
        sa.Column("papel", sa.String(16), nullable=False),
        sa.Column("hash_senha", sa.String(200), nullable=True),
        sa.Column("ativo", sa.Boolean(), nullable=False),
        sa.Column("criado_em", UTCDateTime(), nullable=False),
        sqlite_autoincrement=True,
    )
    op.create_table(
        "tokens",
        sa.Column("id", _ID, primary_key=True, autoincrement=True),
        sa.Column("prefixo", sa.String(16), nullable=False, unique=True),
        sa.Column("usuario_id", _ID, nullable=False, index=True),
        sa.Column("hash", sa.String(200), nullable=False),
        sa.Column("criado_em", UTCDateTime(), nullable=False),
        sa.Column("revogado", sa.Boolean(), nullable=False),
        sqlite_autoincrement=True,
    )
    op.create_table(
        "sessoes",
        sa.Column("id", _ID, primary_key=True, autoincrement=True),
        sa.Column("hash_id", sa.String(64), nullable=False, unique=True),
        sa.Column("usuario_id", _ID, nullable=False, index=True),
        sa.Column("criado_em", UTCDateTime(), nullable=False),
        sa.Column("expira_em", UTCDateTime(), nullable=False),
    )


# --- the hash chain over the rows that already exist -------------------------------------


def _encadear() -> None:
    conexao = op.get_bind()
    for linha in conexao.execute(sa.select(_casos).order_by(_casos.c.id)).mappings().all():
        campos = colunas_caso(linha)
        conexao.execute(
            _casos.update()
            .where(_casos.c.id == linha["id"])
            .values(hash_conteudo=hash_caso(**campos))
        )
    hashes = {
        linha.id: linha.hash_conteudo
        for linha in conexao.execute(sa.select(_casos.c.id, _casos.c.hash_conteudo))
    }
    anterior = GENESE
    consulta = sa.select(_auditoria).order_by(_auditoria.c.id)
    for seq, linha in enumerate(conexao.execute(consulta).mappings().all(), 1):
        detalhe = linha["detalhe"]
        if linha["acao"] == "criar" and linha["caso_id"] in hashes:
            dados = json.loads(detalhe or "{}")
            dados["hash_caso"] = hashes[linha["caso_id"]]
            detalhe = json.dumps(dados, ensure_ascii=False)
        atual = hash_registro(
            seq=seq,
            momento=linha["momento"],
            usuario=linha["usuario"],
            acao=linha["acao"],
            caso_id=linha["caso_id"],
            regime=linha["regime"],
            detalhe=detalhe,
            hash_anterior=anterior,
        )
        conexao.execute(
            _auditoria.update()
            .where(_auditoria.c.id == linha["id"])
            .values(seq=seq, detalhe=detalhe, hash_anterior=anterior, hash=atual)
        )
        anterior = atual


# --- SQLite ---------------------------------------------------------------------------------


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


def _sqlite_reconstruir() -> None:
    """Rebuild both tables with AUTOINCREMENT (SQLite cannot add it in place)."""
    opcoes = {"sqlite_autoincrement": True}
    with op.batch_alter_table("casos", recreate="always", table_kwargs=opcoes) as tabela:
        tabela.add_column(sa.Column("hash_conteudo", sa.String(64), nullable=True))
    with op.batch_alter_table("auditoria", recreate="always", table_kwargs=opcoes) as tabela:
        tabela.add_column(sa.Column("seq", sa.BigInteger(), nullable=True))
        tabela.add_column(sa.Column("hash_anterior", sa.String(64), nullable=True))
        tabela.add_column(sa.Column("hash", sa.String(64), nullable=True))
        tabela.create_unique_constraint("uq_auditoria_seq", ["seq"])


def _sqlite_contadores() -> None:
    """The counters start past every id ever used, including the deleted cases that the
    audit log names."""
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


# --- PostgreSQL -----------------------------------------------------------------------------


def _sequencia(tabela: str) -> str:
    nome = op.get_bind().execute(sa.text(f"SELECT pg_get_serial_sequence('{tabela}', 'id')"))
    return str(nome.scalar_one())


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


def _identificador(nome: str) -> str:
    return '"' + nome.replace('"', '""') + '"'


def _postgresql_papeis() -> None:
    conexao = op.get_bind()
    pode = conexao.execute(
        sa.text("SELECT rolsuper OR rolcreaterole FROM pg_roles WHERE rolname = current_user")
    ).scalar()
    atributos = context.config.attributes if context.config is not None else {}
    migrador = conexao.execute(sa.text("SELECT current_user")).scalar_one()
    aplicacao = atributos.get("papel_aplicacao") or migrador
    if not pode:
        if str(aplicacao) == migrador:
            # one role for everything: it owns the audit table, so it could disable the guard
            registro.warning(
                "auditoria: o papel que migra o banco não pode criar papéis (CREATEROLE); a "
                "tabela de auditoria continua dele, protegida só pelo gatilho. Veja o README, "
                "'Segurança e confiabilidade'."
            )
        # else the owner keeps the table and the application (another role, granted its
        # rights by papeis.conceder) cannot alter it: nothing to warn about ('banco preparar')
        return
    app = _identificador(str(aplicacao))
    op.execute(
        f"DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{DONO}') THEN "
        f"CREATE ROLE {DONO} NOLOGIN; END IF; END $$"
    )
    esquema = _identificador(conexao.execute(sa.text("SELECT current_schema()")).scalar_one())
    # to hand the table over, this role must belong to the owner for a moment
    op.execute(f"GRANT {DONO} TO current_user")
    op.execute(f"GRANT USAGE, CREATE ON SCHEMA {esquema} TO {DONO}")  # needed to own a table
    op.execute("ALTER TABLE auditoria OWNER TO " + DONO)  # its id sequence goes with it
    op.execute("ALTER FUNCTION auditoria_somente_inclusao() OWNER TO " + DONO)
    op.execute("REVOKE ALL ON auditoria FROM PUBLIC")
    op.execute(f"GRANT SELECT, INSERT ON auditoria TO {app}")
    op.execute(f"GRANT USAGE, SELECT ON SEQUENCE {_sequencia('auditoria')} TO {app}")
    if str(aplicacao) != conexao.execute(sa.text("SELECT current_user")).scalar_one():
        # a separate application role: what it needs of the other tables, now and later
        op.execute(f"GRANT USAGE ON SCHEMA {esquema} TO {app}")
        op.execute(f"GRANT SELECT, INSERT, DELETE ON casos, idempotencia TO {app}")
        op.execute(f"GRANT SELECT, INSERT, UPDATE, DELETE ON usuarios, tokens, sessoes TO {app}")
        op.execute(f"GRANT SELECT ON alembic_version TO {app}")
        op.execute(f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {esquema} TO {app}")
        op.execute(
            f"ALTER DEFAULT PRIVILEGES IN SCHEMA {esquema} "
            f"GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO {app}"
        )
        op.execute(
            f"ALTER DEFAULT PRIVILEGES IN SCHEMA {esquema} GRANT USAGE, SELECT ON SEQUENCES TO {app}"
        )
    op.execute(f"REVOKE {DONO} FROM current_user")


def downgrade() -> None:
    for tabela in ("sessoes", "tokens", "usuarios", "idempotencia"):
        op.drop_table(tabela)
