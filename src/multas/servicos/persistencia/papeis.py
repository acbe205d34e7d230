"""Least privilege on PostgreSQL: the owner that migrates, the application that may only do
what the system does (issue 16).

- ``MULTAS_DATABASE_URL_DONO`` is the **owner**: it runs the migrations and owns every table.
- ``MULTAS_DATABASE_URL`` is the **application**: it may read every table, insert into the
  audit log but never alter it, insert records without choosing their ids (the sequences
  choose), delete, and alter only the tables whose records the system alters
  (:data:`multas.servicos.persistencia.registros.RECURSOS`). It cannot create roles, own a table, nor
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

from multas.nucleo.erros import EntradaInvalida
from multas.servicos.persistencia.modelos import RegistroAuditoria, TentativaLogin
from multas.servicos.persistencia.modelos_fila import (
    FilaItem,
    FilaMarca,
    FilaProcesso,
    FilaTexto,
)
from multas.servicos.persistencia.registros import RECURSOS

AUDITORIA = str(RegistroAuditoria.__tablename__)
#: tables of the service's own bookkeeping, outside the chain (the login throttle, the work
#: queue's index)
SERVICO = (
    str(TentativaLogin.__tablename__),
    str(FilaProcesso.__tablename__),
    str(FilaItem.__tablename__),
    str(FilaMarca.__tablename__),
    str(FilaTexto.__tablename__),
)


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
    """The sequence of the table's ``id`` (``None``: no such column, or not serial)."""
    tem_id = conexao.execute(
        text(
            "SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() "
            "AND table_name = :tabela AND column_name = 'id'"
        ),
        {"tabela": tabela},
    ).scalar()
    if tem_id is None:
        return None
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
        _executar(conexao, f"GRANT {identificador(str(dono))} TO current_user")
    _executar(conexao, f"SET ROLE {identificador(str(dono))}")
    try:
        yield
    finally:
        conexao.execute(text("RESET ROLE"))
        if not membro:
            _executar(conexao, f"REVOKE {identificador(str(dono))} FROM current_user")


def conceder(conexao: Connection, aplicacao: str) -> None:
    """The application role's rights, exactly (idempotent; run by the owner after migrating).

    Every table: SELECT; INSERT of every column but the id; DELETE. The tables whose records
    the system alters: UPDATE. The audit log: SELECT and INSERT only. The sequences: USAGE (to
    draw the next id), never UPDATE (no ``setval``). Nothing else: broader rights granted
    before (by default privileges, by older migrations) are revoked first."""
    papel = identificador(aplicacao)
    esquema = identificador(str(conexao.execute(text("SELECT current_schema()")).scalar_one()))
    _executar(conexao, f"GRANT USAGE ON SCHEMA {esquema} TO {papel}")
    _executar(
        conexao, f"ALTER DEFAULT PRIVILEGES IN SCHEMA {esquema} REVOKE ALL ON TABLES FROM {papel}"
    )
    _executar(
        conexao,
        f"ALTER DEFAULT PRIVILEGES IN SCHEMA {esquema} REVOKE ALL ON SEQUENCES FROM {papel}",
    )
    for tabela in RECURSOS:
        _conceder_tabela(conexao, tabela, papel)
    for tabela in SERVICO:  # counters outside the chain: every right on them
        alvo = identificador(tabela)
        _executar(conexao, f"GRANT SELECT, INSERT, UPDATE, DELETE ON {alvo} TO {papel}")
        sequencia = _sequencia(conexao, tabela)
        if sequencia is not None:
            _executar(conexao, f"GRANT USAGE ON SEQUENCE {sequencia} TO {papel}")
    with como_dono_da_auditoria(conexao):
        _conceder_tabela(conexao, AUDITORIA, papel)
    _executar(conexao, f"REVOKE ALL ON alembic_version FROM {papel}")
    _executar(conexao, f"GRANT SELECT ON alembic_version TO {papel}")


def _conceder_tabela(conexao: Connection, tabela: str, papel: str) -> None:
    alvo = identificador(tabela)
    _executar(conexao, f"REVOKE ALL ON {alvo} FROM {papel}")
    colunas = ", ".join(identificador(c) for c in _colunas_sem_id(tabela))
    _executar(conexao, f"GRANT SELECT, INSERT ({colunas}) ON {alvo} TO {papel}")
    if tabela != AUDITORIA:
        _executar(conexao, f"GRANT DELETE ON {alvo} TO {papel}")
    if tabela in RECURSOS and RECURSOS[tabela].mutavel:
        _executar(conexao, f"GRANT UPDATE ON {alvo} TO {papel}")
    elif tabela in RECURSOS and RECURSOS[tabela].lixeira:
        # a record never altered is still moved to the bin and back: that one column only
        _executar(conexao, f"GRANT UPDATE (excluido_em) ON {alvo} TO {papel}")
    sequencia = _sequencia(conexao, tabela)
    if sequencia is not None:
        _executar(conexao, f"REVOKE ALL ON SEQUENCE {sequencia} FROM {papel}")
        _executar(conexao, f"GRANT USAGE ON SEQUENCE {sequencia} TO {papel}")


#: predefined roles whose members can run programs or write files as the server's operating
#: system user: as good as a superuser (they can rewrite the data files, or log in as one)
PREDEFINIDOS_PERIGOSOS = ("pg_execute_server_program", "pg_write_server_files")


def riscos(conexao: Connection) -> list[str]:
    """Why the connection's role could alter or disable the audit log, or forge records the
    checks would miss (pt-BR); empty for a least-privilege application role. SQLite: none.

    Reported, each a way to rewrite (or drop, or shadow) the audit:

    - the role is a superuser, or may create roles (with CREATEROLE it grants itself the
      audit's owner);
    - it is a member, directly or through other roles, of a role that is either, or of a
      predefined role that acts as the server's operating system user
      (:data:`PREDEFINIDOS_PERIGOSOS`): it may ``SET ROLE`` to it;
    - it owns (or is a member of the owner of) the audit table, the schema (the schema's owner
      may drop any table in it; on PostgreSQL 15+ ``public`` belongs to ``pg_database_owner``,
      that is, to the database's owner) or the database (its owner may drop it, create schemas
      and set every session's ``search_path``);
    - it may create objects in the schema (functions and tables that the owner's migrations
      could run or pick up as the owner) or schemas in the database (a schema named after the
      role comes first in the default ``search_path``: an ``auditoria`` of its own there
      shadows the real one);
    - it has UPDATE, DELETE, TRUNCATE or TRIGGER on the audit table."""
    if conexao.dialect.name != "postgresql":
        return []

    def consulta(sql: str, **parametros: object) -> object:
        return conexao.execute(text(sql), parametros).scalar()

    papel = str(consulta("SELECT current_user"))
    atributos = conexao.execute(
        text("SELECT rolsuper, rolcreaterole FROM pg_roles WHERE rolname = current_user")
    ).one()
    motivos = []
    if atributos[0]:
        return [f"o papel '{papel}' é superusuário (SUPERUSER)"]  # a member of every role
    if atributos[1]:
        motivos.append(
            f"o papel '{papel}' pode criar papéis (CREATEROLE), e com isso tornar-se dono da "
            "auditoria"
        )
    poderosos = conexao.execute(
        text(
            "SELECT rolname, rolsuper, rolcreaterole FROM pg_roles "
            "WHERE (rolsuper OR rolcreaterole OR rolname = ANY(:predefinidos)) "
            "AND rolname <> current_user AND pg_has_role(current_user, oid, 'MEMBER') "
            "ORDER BY rolname"
        ),
        {"predefinidos": list(PREDEFINIDOS_PERIGOSOS)},
    ).all()
    for nome, superusuario, cria_papeis in poderosos:
        poder = (
            "é superusuário (SUPERUSER)"
            if superusuario
            else "pode criar papéis (CREATEROLE)"
            if cria_papeis
            else "age como o usuário do sistema operacional do servidor"
        )
        motivos.append(
            f"o papel '{papel}' é membro (direto ou por outros papéis) de '{nome}', que {poder}: "
            f"pode assumi-lo (REVOKE {identificador(nome)} FROM {identificador(papel)})"
        )
    esquema, dono_esquema, membro_esquema, cria_no_esquema = conexao.execute(
        text(
            "SELECT nspname, pg_get_userbyid(nspowner), pg_has_role(current_user, nspowner, "
            "'MEMBER'), has_schema_privilege(current_user, oid, 'CREATE') "
            "FROM pg_namespace WHERE nspname = current_schema()"
        )
    ).first() or (None, None, False, False)  # no schema of the search_path exists yet
    if membro_esquema:
        motivos.append(
            f"o papel '{papel}' é o dono do esquema '{esquema}', ou membro dele "
            f"('{dono_esquema}'), e pode apagar qualquer tabela dele, a auditoria inclusive "
            f"(ALTER SCHEMA {identificador(str(esquema))} OWNER TO outro papel)"
        )
    elif cria_no_esquema:
        motivos.append(
            f"o papel '{papel}' pode criar objetos no esquema '{esquema}' (CREATE), que as "
            "migrações do dono usariam como dono (REVOKE CREATE ON SCHEMA "
            f"{identificador(str(esquema))} FROM PUBLIC, {identificador(papel)})"
        )
    banco, dono_banco, membro_banco, cria_no_banco = conexao.execute(
        text(
            "SELECT datname, pg_get_userbyid(datdba), pg_has_role(current_user, datdba, "
            "'MEMBER'), has_database_privilege(current_user, oid, 'CREATE') "
            "FROM pg_database WHERE datname = current_database()"
        )
    ).one()
    if membro_banco:
        motivos.append(
            f"o papel '{papel}' é o dono do banco '{banco}', ou membro dele ('{dono_banco}'): "
            "pode apagá-lo, criar esquemas e mudar o search_path de todas as sessões (ALTER "
            f"DATABASE {identificador(str(banco))} OWNER TO outro papel)"
        )
    elif cria_no_banco:
        motivos.append(
            f"o papel '{papel}' pode criar esquemas no banco '{banco}' (CREATE): um esquema "
            f"'{papel}' vem antes dos outros no search_path padrão, e uma auditoria dele ali "
            f"esconderia a verdadeira (REVOKE CREATE ON DATABASE {identificador(str(banco))} "
            f"FROM PUBLIC, {identificador(papel)})"
        )
    dono = consulta(
        "SELECT tableowner FROM pg_tables WHERE tablename = :t AND schemaname = current_schema()",
        t=AUDITORIA,
    )
    if dono is not None:
        membro = consulta("SELECT pg_has_role(current_user, :d, 'MEMBER')", d=dono)
        if membro:
            motivos.append(
                f"o papel '{papel}' é o dono da tabela de auditoria, ou membro dele ('{dono}')"
            )
        for privilegio in ("UPDATE", "DELETE", "TRUNCATE", "TRIGGER"):
            pode = consulta(
                "SELECT has_table_privilege(current_user, :t, :p)", t=AUDITORIA, p=privilegio
            )
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


#: pg_roles' columns of the attributes ``preparar`` takes away, and their SQL names
ATRIBUTOS = {
    "rolsuper": "SUPERUSER",
    "rolcreaterole": "CREATEROLE",
    "rolcreatedb": "CREATEDB",
    "rolreplication": "REPLICATION",
}


def _verificador(conexao: Connection, nome: str, senha: str) -> str:
    """The SCRAM-SHA-256 verifier of ``senha`` for the role ``nome``, computed here (libpq's
    PQencryptPasswordConn, as psql's ``\\password``): the password itself never travels in a
    statement, which the server may log and shows in pg_stat_activity."""
    import psycopg

    bruta = conexao.connection.dbapi_connection
    if not isinstance(bruta, psycopg.Connection):
        raise EntradaInvalida(
            "banco", "a preparação precisa do driver psycopg 3 (postgresql+psycopg://)"
        )
    try:
        verificador = bruta.pgconn.encrypt_password(senha.encode(), nome.encode(), b"scram-sha-256")
    except psycopg.Error as erro:
        raise EntradaInvalida("banco", f"não foi possível cifrar a senha: {erro}") from None
    return verificador.decode("ascii")


def _executar(conexao: Connection, sql: str) -> None:
    """Run ``sql``, whose ':' are text (a verifier's, a role's name), not bind parameters."""
    conexao.execute(text(sql.replace(":", "\\:")))


def _papel(conexao: Connection, url: URL, proibidos: tuple[str, ...]) -> str:
    """Create the login role of ``url`` if it is missing, or update it; return its name.

    Its password (from the URL) is sent as a SCRAM verifier. An existing role is altered only
    in what must change: LOGIN and the password (what an administrator with CREATEROLE may
    do), and the attributes in ``proibidos`` (columns of :data:`ATRIBUTOS`) only if it has
    them (taking SUPERUSER away needs a superuser: the message says so)."""
    nome = url.username
    if not nome:
        raise EntradaInvalida("banco", f"a URL não diz o usuário: {url.render_as_string()}")
    papel = identificador(nome)
    senha = (
        f" PASSWORD {_literal(_verificador(conexao, nome, url.password))}" if url.password else ""
    )
    colunas = ", ".join(ATRIBUTOS)
    atual = (
        conexao.execute(text(f"SELECT {colunas} FROM pg_roles WHERE rolname = :n"), {"n": nome})
        .mappings()
        .first()
    )
    if atual is None:
        negados = " ".join(f"NO{ATRIBUTOS[c]}" for c in proibidos)
        _executar(conexao, f"CREATE ROLE {papel} LOGIN {negados}{senha}")
        return nome
    tirar = [ATRIBUTOS[c] for c in proibidos if atual[c]]
    if tirar:
        sql = f"ALTER ROLE {papel} " + " ".join(f"NO{a}" for a in tirar)
        try:
            _executar(conexao, sql)
        except DBAPIError as erro:
            raise EntradaInvalida(
                "banco",
                f"o papel '{nome}' já existe com {', '.join(tirar)}, que ele não pode ter, e "
                "o papel administrativo não pode tirar (o PostgreSQL diz: "
                f"{str(erro.orig).strip().splitlines()[0]}): rode de novo com um --admin "
                f"superusuário, ou tire à mão: {sql};",
            ) from None
    _executar(conexao, f"ALTER ROLE {papel} LOGIN{senha}")
    return nome


def preparar(admin: str, dono: str, aplicacao: str) -> list[str]:
    """``multas banco preparar``: with an administrative connection (``admin``, a superuser or
    a role with CREATEROLE), create the owner's and the application's login roles (their names
    and passwords from their URLs; the passwords sent as SCRAM verifiers), or update the ones
    that exist (the password; a dangerous attribute only if the role has it), let the owner
    create tables in the database's schema and the application use it; then the owner migrates
    and grants (:func:`conceder`), and the application role must have no :func:`riscos`. Can
    be run again. Returns what was done, in pt-BR."""
    from multas.servicos.persistencia.banco import normalizar_url

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
    from multas.servicos.persistencia.banco import normalizar_url
    from multas.servicos.persistencia.repositorio import Repositorio

    feito = []
    motor = create_engine(normalizar_url(admin))
    try:
        with motor.begin() as conexao:
            nome_dono = _papel(conexao, url_dono, ("rolsuper",))
            nome_app = _papel(conexao, url_app, tuple(ATRIBUTOS))
            esquema = identificador(
                str(conexao.execute(text("SELECT current_schema()")).scalar_one())
            )
            _executar(
                conexao, f"GRANT USAGE, CREATE ON SCHEMA {esquema} TO {identificador(nome_dono)}"
            )
            _executar(conexao, f"GRANT USAGE ON SCHEMA {esquema} TO {identificador(nome_app)}")
            _executar(conexao, f"REVOKE CREATE ON SCHEMA {esquema} FROM {identificador(nome_app)}")
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
