"""One mechanism for every table (issue 15): every stored record in the hash chain, and ids
that are never reused.

- ``auditoria`` gains ``tabela``, ``registro_id``, ``operacao`` and ``hash_estado``: each row
  written from now on names the record it is about and the hash of that record's new state
  (:mod:`multas.servicos.persistencia.registros`).
- SQLite: ``processos``, ``processo_eventos``, ``carteira_anos`` and ``sessoes`` are rebuilt with
  ``AUTOINCREMENT`` (a deleted id is never handed out again: the ``.ics`` UIDs stay with their
  processo); the counters start past every id already used, the deleted processos the audit log
  names included. PostgreSQL: their ids (and the columns that point at them) become ``bigint``.
- Every record stored before this migration is *adopted*: one audit row (``adotar``) with its
  current state, so the chain vouches for it from here on. A saved case that no longer matched
  its first-format hash is not adopted: ``multas auditoria verificar`` keeps reporting it.

Revision ID: r0004
Revises: r0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import json
import logging

import sqlalchemy as sa
from alembic import op
from sqlalchemy.orm import Session

from multas.servicos.persistencia.escrita import Escrita
from multas.servicos.persistencia.integridade import colunas_caso, hash_caso, hash_caso_criado
from multas.servicos.persistencia.papeis import como_dono_da_auditoria, identificador
from multas.servicos.persistencia.registros import RECURSOS, travar_cadeia
from multas.servicos.relogio import agora

revision = "r0004"
down_revision: str | None = "r0003"
branch_labels: str | None = None
depends_on: str | None = None

QUEM = "migração r0004"
_RECONSTRUIR = ("processos", "processo_eventos", "carteira_anos", "sessoes")
registro = logging.getLogger("multas.servicos.persistencia")


def upgrade() -> None:
    conexao = op.get_bind()
    dialeto = conexao.dialect.name
    eu = (
        conexao.execute(sa.text("SELECT current_user")).scalar()
        if dialeto == "postgresql"
        else None
    )
    # altering the audit table takes its owner (r0002 handed it to a role of its own)
    with como_dono_da_auditoria(conexao):
        # plain ADD COLUMN (also on SQLite: the append-only table is never rebuilt)
        op.add_column("auditoria", sa.Column("tabela", sa.String(64), nullable=True))
        op.add_column("auditoria", sa.Column("registro_id", sa.BigInteger(), nullable=True))
        op.add_column("auditoria", sa.Column("operacao", sa.String(16), nullable=True))
        op.add_column("auditoria", sa.Column("hash_estado", sa.String(64), nullable=True))
        op.create_index("ix_auditoria_tabela_registro", "auditoria", ["tabela", "registro_id"])
        if eu is not None:
            # the migrating role appends the adoption rows below: it may read the chain and
            # insert into it, as the application's role may; never alter it
            sequencia = conexao.execute(
                sa.text("SELECT pg_get_serial_sequence('auditoria', 'id')")
            ).scalar_one()
            op.execute(f"GRANT SELECT, INSERT ON auditoria TO {identificador(str(eu))}")
            op.execute(f"GRANT USAGE, SELECT ON SEQUENCE {sequencia} TO {identificador(str(eu))}")
    if dialeto == "sqlite":
        _sqlite_autoincrement()
    elif dialeto == "postgresql":
        _postgresql_bigint()
    _adotar(conexao)


def _sqlite_autoincrement() -> None:
    opcoes = {"sqlite_autoincrement": True}
    maiores: dict[str, str] = {
        "processos": "SELECT max(x) FROM (SELECT max(id) AS x FROM processos UNION ALL "
        "SELECT max(CAST(json_extract(detalhe, '$.processo_id') AS INTEGER)) FROM auditoria "
        "WHERE acao LIKE 'processo%' AND json_valid(detalhe))",
        "processo_eventos": "SELECT max(id) FROM processo_eventos",
        "carteira_anos": "SELECT max(id) FROM carteira_anos",
        "sessoes": "SELECT max(id) FROM sessoes",
    }
    for nome in _RECONSTRUIR:
        with op.batch_alter_table(nome, recreate="always", table_kwargs=opcoes):
            pass
        op.execute(f"DELETE FROM sqlite_sequence WHERE name = '{nome}'")
        op.execute(
            f"INSERT INTO sqlite_sequence (name, seq) SELECT '{nome}', "
            f"coalesce(({maiores[nome]}), 0)"
        )


def _postgresql_bigint() -> None:
    """Their ids become bigint, and each sequence starts past every id already used (the
    deleted processos the audit log names included), as on SQLite."""
    for tabela in ("processos", "processo_eventos", "carteira_anos"):
        op.execute(f"ALTER TABLE {tabela} ALTER COLUMN id TYPE bigint")
        sequencia = (
            op.get_bind()
            .execute(sa.text(f"SELECT pg_get_serial_sequence('{tabela}', 'id')"))
            .scalar_one()
        )
        op.execute(f"ALTER SEQUENCE {sequencia} AS bigint")
        nomeados = (
            "(SELECT max((detalhe::jsonb ->> 'processo_id')::bigint) FROM auditoria "
            "WHERE acao LIKE 'processo%' AND detalhe LIKE '{%' "
            "AND jsonb_typeof(detalhe::jsonb -> 'processo_id') = 'number')"
            if tabela == "processos"
            else "NULL"
        )
        usado = (
            op.get_bind()
            .execute(
                sa.text(
                    f"SELECT greatest((SELECT max(id) FROM {tabela}), {nomeados}, "
                    f"(SELECT CASE WHEN is_called THEN last_value END FROM {sequencia}))"
                )
            )
            .scalar()
        )
        if usado is not None:  # an empty, unused sequence is left to hand out 1 first
            op.execute(f"SELECT setval('{sequencia}', {int(usado)})")
    op.execute("ALTER TABLE processo_eventos ALTER COLUMN processo_id TYPE bigint")
    op.execute("ALTER TABLE processos ALTER COLUMN caso_id TYPE bigint")


def _casos_que_nao_conferem(conexao: sa.Connection) -> set[int]:
    """Cases whose first-format hash, or the one their creation record holds, no longer
    matches: the chain must not vouch for them."""
    casos = sa.Table("casos", sa.MetaData(), autoload_with=conexao)
    auditoria = sa.Table("auditoria", sa.MetaData(), autoload_with=conexao)
    criados: dict[int, list[str | None]] = {}
    for caso_id, detalhe in conexao.execute(
        sa.select(auditoria.c.caso_id, auditoria.c.detalhe).where(auditoria.c.acao == "criar")
    ):
        if caso_id is not None:
            criados.setdefault(int(caso_id), []).append(hash_caso_criado(detalhe))
    recusados = set()
    for linha in conexao.execute(sa.select(casos)).mappings():
        calculado = hash_caso(**colunas_caso(linha))
        registrados = criados.get(int(linha["id"]), [])
        if linha["hash_conteudo"] != calculado or registrados != [calculado]:
            recusados.add(int(linha["id"]))
    return recusados


def _usuarios_que_nao_conferem(conexao: sa.Connection) -> set[int]:
    """Users whose name and role are not the ones the chain recorded at their creation (the
    code before this migration never changed a role): a role raised in the database before the
    upgrade is never adopted."""
    usuarios = sa.Table("usuarios", sa.MetaData(), autoload_with=conexao)
    auditoria = sa.Table("auditoria", sa.MetaData(), autoload_with=conexao)
    criados: dict[str, list[str | None]] = {}
    for (detalhe,) in conexao.execute(
        sa.select(auditoria.c.detalhe).where(auditoria.c.acao == "usuario_criar")
    ):
        try:
            dados = json.loads(detalhe or "{}")
        except ValueError:
            continue
        if isinstance(dados, dict) and isinstance(dados.get("nome"), str):
            criados.setdefault(dados["nome"], []).append(dados.get("papel"))
    return {
        int(linha["id"])
        for linha in conexao.execute(sa.select(usuarios)).mappings()
        if criados.get(linha["nome"]) != [linha["papel"]]
    }


def _adotar(conexao: sa.Connection) -> None:
    recusados = {
        "casos": _casos_que_nao_conferem(conexao),
        "usuarios": _usuarios_que_nao_conferem(conexao),
    }
    for nome, ids in recusados.items():
        for registro_id in sorted(ids):
            registro.warning(
                "%s nº %s não confere com o registro da sua criação: não é adotado pela "
                "auditoria (multas auditoria verificar o aponta)",
                nome,
                registro_id,
            )
    sessao = Session(bind=conexao)
    travar_cadeia(sessao)
    escrita = Escrita(sessao, agora(), QUEM)
    existentes = set(sa.inspect(conexao).get_table_names())
    for recurso in RECURSOS.values():
        if recurso.tabela not in existentes:  # a table a later migration creates (r0010: feeds)
            continue
        tabela = sa.Table(recurso.tabela, sa.MetaData(), autoload_with=conexao)
        for linha in conexao.execute(sa.select(tabela).order_by(tabela.c.id)).mappings().all():
            if int(linha["id"]) in recusados.get(recurso.tabela, set()):
                continue
            escrita.adotar(recurso, linha)
    sessao.flush()


def downgrade() -> None:
    raise NotImplementedError("a auditoria só cresce: esta migração não se desfaz")
