"""Least privilege on PostgreSQL: the owner that migrates, the application that may only do
what the system does (issue 16).

- ``MULTAS_DATABASE_URL_DONO`` is the **owner**: it runs the migrations and owns every table.
- ``MULTAS_DATABASE_URL`` is the **application**: it may read every table, insert into the
  audit log but never alter it, insert records without choosing their ids (the sequences
  choose), delete, and alter only the tables whose records the system alters
  (:data:`multas.persistencia.registros.RECURSOS`). It cannot create roles, own a table, nor
  become the owner: so it cannot alter or disable the audit, nor re-insert a deleted record
  under its old id.

:func:`conceder` gives exactly those rights, after every migration; :func:`riscos` says why a
role could rewrite history (the server refuses to start with such a role unless told
otherwise); :func:`preparar` creates both roles and their grants (``multas banco preparar``).
SQLite has no roles: nothing here applies to it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Connection, create_engine, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import DBAPIError

from multas.erros import EntradaInvalida
from multas.persistencia.modelos import RegistroAuditoria, TentativaLogin
from multas.persistencia.registros import RECURSOS

AUDITORIA = str(RegistroAuditoria.__tablename__)
#: tables of the service's own bookkeeping, outside the chain (the login throttle)
SERVICO = (str(TentativaLogin.__tablename__),)


def identificador(nome: str) -> str:
    """A quoted SQL identifier.

    >>> identificador('multas"app')
    '"multas""app"'
    """
    return '"' + nome.replace('"', '""') + '"'


def _literal(texto: str) -> str:
    return "'" + texto.replace("'", "''") + "'"


def _colunas_sem_id(tabela: str) -> list[str]:
    modelo = RECURSOS[tabela].colunas if tabela in RECURSOS else RegistroAuditoria.__table__
    return [c.name for c in modelo.columns if c.name != "id"]


def _sequencia(conexao: Connection, tabela: str) -> str | None:
    nome = conexao.execute(text(f"SELECT pg_get_serial_sequence('{tabela}', 'id')")).scalar()
    return None if nome is None else str(nome)


@contextmanager
def como_dono_da_auditoria(conexao: Connection) -> Iterator[None]:
    """Statements that need the audit table's owner (migration r0002 handed it to a role of
    its own, ``multas_dono``): a migrating role that is not it borrows it for the moment (a
    member, or one that may grant itself the membership), and gives it back."""
    if conexao.dialect.name != "postgresql":
        yield
        return
    dono = conexao.execute(
        text(
            "SELECT tableowner FROM pg_tables WHERE tablename = :t "
            "AND schemaname = current_schema()"
        ),
        {"t": AUDITORIA},
    ).scalar()
    eu = conexao.execute(text("SELECT current_user")).scalar()
    if dono is None or dono == eu:
        yield
        return
    membro = conexao.execute(
        text("SELECT pg_has_role(current_user, :d, 'MEMBER')"), {"d": dono}
    ).scalar()
    if not membro:
        conexao.execute(text(f"GRANT {identificador(str(dono))} TO current_user"))
    conexao.execute(text(f"SET ROLE {identificador(str(dono))}"))
    try:
        yield
    finally:
        conexao.execute(text("RESET ROLE"))
        if not membro:
            conexao.execute(text(f"REVOKE {identificador(str(dono))} FROM current_user"))


def conceder(conexao: Connection, aplicacao: str) -> None:
    """The application role's rights, exactly (idempotent; run by the owner after migrating).

    Every table: SELECT; INSERT of every column but the id; DELETE. The tables whose records
    the system alters: UPDATE. The audit log: SELECT and INSERT only. The sequences: USAGE (to
    draw the next id), never UPDATE (no ``setval``). Nothing else: broader rights granted
    before (by default privileges, by older migrations) are revoked first."""
    papel = identificador(aplicacao)
    esquema = identificador(str(conexao.execute(text("SELECT current_schema()")).scalar_one()))
    conexao.execute(text(f"GRANT USAGE ON SCHEMA {esquema} TO {papel}"))
    conexao.execute(
        text(f"ALTER DEFAULT PRIVILEGES IN SCHEMA {esquema} REVOKE ALL ON TABLES FROM {papel}")
    )
    conexao.execute(
        text(f"ALTER DEFAULT PRIVILEGES IN SCHEMA {esquema} REVOKE ALL ON SEQUENCES FROM {papel}")
    )
    for tabela in RECURSOS:
        _conceder_tabela(conexao, tabela, papel)
    for tabela in SERVICO:  # counters outside the chain: every right on them
        alvo = identificador(tabela)
        conexao.execute(text(f"GRANT SELECT, INSERT, UPDATE, DELETE ON {alvo} TO {papel}"))
        sequencia = _sequencia(conexao, tabela)
        if sequencia is not None:
            conexao.execute(text(f"GRANT USAGE ON SEQUENCE {sequencia} TO {papel}"))
    with como_dono_da_auditoria(conexao):
        _conceder_tabela(conexao, AUDITORIA, papel)
    conexao.execute(text(f"REVOKE ALL ON alembic_version FROM {papel}"))
    conexao.execute(text(f"GRANT SELECT ON alembic_version TO {papel}"))


def _conceder_tabela(conexao: Connection, tabela: str, papel: str) -> None:
    alvo = identificador(tabela)
    conexao.execute(text(f"REVOKE ALL ON {alvo} FROM {papel}"))
    colunas = ", ".join(identificador(c) for c in _colunas_sem_id(tabela))
    conexao.execute(text(f"GRANT SELECT, INSERT ({colunas}) ON {alvo} TO {papel}"))
    if tabela != AUDITORIA:
        conexao.execute(text(f"GRANT DELETE ON {alvo} TO {papel}"))
    if tabela in RECURSOS and RECURSOS[tabela].mutavel:
        conexao.execute(text(f"GRANT UPDATE ON {alvo} TO {papel}"))
    sequencia = _sequencia(conexao, tabela)
    if sequencia is not None:
        conexao.execute(text(f"REVOKE ALL ON SEQUENCE {sequencia} FROM {papel}"))
        conexao.execute(text(f"GRANT USAGE ON SEQUENCE {sequencia} TO {papel}"))


def riscos(conexao: Connection) -> list[str]:
    """Why the connection's role could alter or disable the audit log, or forge records the
    checks would miss (pt-BR); empty for a least-privilege application role. SQLite: none."""
    if conexao.dialect.name != "postgresql":
        return []
    papel = str(conexao.execute(text("SELECT current_user")).scalar_one())
    atributos = conexao.execute(
        text("SELECT rolsuper, rolcreaterole FROM pg_roles WHERE rolname = current_user")
    ).one()
    motivos = []
    if atributos[0]:
        motivos.append(f"o papel '{papel}' é superusuário (SUPERUSER)")
    if atributos[1]:
        motivos.append(
            f"o papel '{papel}' pode criar papéis (CREATEROLE), e com isso tornar-se dono da "
            "auditoria"
        )
    dono = conexao.execute(
        text(
            "SELECT tableowner FROM pg_tables WHERE tablename = :t "
            "AND schemaname = current_schema()"
        ),
        {"t": AUDITORIA},
    ).scalar()
    if dono is not None:
        membro = conexao.execute(
            text("SELECT pg_has_role(current_user, :d, 'MEMBER')"), {"d": dono}
        ).scalar()
        if membro:
            motivos.append(
                f"o papel '{papel}' é o dono da tabela de auditoria, ou membro dele ('{dono}')"
            )
        for privilegio in ("UPDATE", "DELETE", "TRUNCATE", "TRIGGER"):
            pode = conexao.execute(
                text("SELECT has_table_privilege(current_user, :t, :p)"),
                {"t": AUDITORIA, "p": privilegio},
            ).scalar()
            if pode and not membro:
                motivos.append(f"o papel '{papel}' tem {privilegio} na tabela de auditoria")
    return motivos


def correcao(papel: str) -> str:
    """The SQL that takes a role's dangerous rights away (for the refusal's message)."""
    p = identificador(papel)
    return (
        f"ALTER ROLE {p} NOSUPERUSER NOCREATEROLE; "
        f"REVOKE UPDATE, DELETE, TRUNCATE, TRIGGER ON {AUDITORIA} FROM {p};"
    )


def _papel(conexao: Connection, url: URL, atributos: str) -> str:
    """Create the login role of ``url`` if it is missing, with its password; return its name."""
    nome = url.username
    if not nome:
        raise EntradaInvalida("banco", f"a URL não diz o usuário: {url.render_as_string()}")
    existe = conexao.execute(
        text("SELECT 1 FROM pg_roles WHERE rolname = :n"), {"n": nome}
    ).scalar()
    senha = f" PASSWORD {_literal(url.password)}" if url.password else ""
    verbo = "ALTER" if existe else "CREATE"
    conexao.execute(text(f"{verbo} ROLE {identificador(nome)} LOGIN {atributos}{senha}"))
    return nome


def preparar(admin: str, dono: str, aplicacao: str) -> list[str]:
    """``multas banco preparar``: with an administrative connection (``admin``, a role that
    may create roles), create the owner's and the application's login roles (their names and
    passwords from their URLs), let the owner create tables in the database's schema and the
    application use it; then the owner migrates and grants (:func:`conceder`). Returns what
    was done, in pt-BR."""
    from multas.persistencia import normalizar_url

    url_dono, url_app = make_url(normalizar_url(dono)), make_url(normalizar_url(aplicacao))
    if url_dono.get_backend_name() != "postgresql" or url_app.get_backend_name() != "postgresql":
        raise EntradaInvalida("banco", "papéis só existem no PostgreSQL (o SQLite não os tem)")
    if url_dono.username == url_app.username:
        raise EntradaInvalida(
            "banco",
            "o dono (MULTAS_DATABASE_URL_DONO) e a aplicação (MULTAS_DATABASE_URL) precisam de "
            "papéis diferentes",
        )
    try:
        return _preparar(admin, dono, aplicacao, url_dono, url_app)
    except DBAPIError as erro:
        raise EntradaInvalida(
            "banco", f"o PostgreSQL recusou a preparação: {str(erro.orig).strip()}"
        ) from None


def _preparar(admin: str, dono: str, aplicacao: str, url_dono: URL, url_app: URL) -> list[str]:
    from multas.persistencia import Repositorio, normalizar_url

    feito = []
    motor = create_engine(normalizar_url(admin))
    try:
        with motor.begin() as conexao:
            nome_dono = _papel(conexao, url_dono, "NOSUPERUSER")
            nome_app = _papel(conexao, url_app, "NOSUPERUSER NOCREATEROLE NOCREATEDB NOREPLICATION")
            esquema = identificador(
                str(conexao.execute(text("SELECT current_schema()")).scalar_one())
            )
            conexao.execute(
                text(f"GRANT USAGE, CREATE ON SCHEMA {esquema} TO {identificador(nome_dono)}")
            )
            conexao.execute(text(f"GRANT USAGE ON SCHEMA {esquema} TO {identificador(nome_app)}"))
            conexao.execute(
                text(f"REVOKE CREATE ON SCHEMA {esquema} FROM {identificador(nome_app)}")
            )
        feito += [
            f"papel do dono '{nome_dono}': cria e altera as tabelas (roda as migrações)",
            f"papel da aplicação '{nome_app}': sem CREATEROLE, sem ser dono de nada",
        ]
    finally:
        motor.dispose()
    repositorio = Repositorio(aplicacao, url_migracao=dono)
    try:
        repositorio.migrar()
        with repositorio.engine.connect() as conexao:
            restantes = riscos(conexao)
    finally:
        repositorio.fechar()
    if restantes:
        raise EntradaInvalida(
            "banco", "o papel da aplicação ainda pode alterar a auditoria: " + "; ".join(restantes)
        )
    feito.append(
        "migrações aplicadas pelo dono; a aplicação lê tudo, insere sem escolher ids, exclui, "
        "altera só o que o sistema altera, e na auditoria só insere"
    )
    return feito
