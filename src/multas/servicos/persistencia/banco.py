"""The database itself: its URL (``MULTAS_DATABASE_URL``, else SQLite in the user's data folder:
:mod:`multas.servicos.pasta_de_dados`),
the engine (SQLite's pragmas and write lock, PostgreSQL's tolerant date readers) and what the
migrations need (the last one shipped, a PRAGMA outside any transaction)."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, OperationalError

from multas.servicos.ambiente import urls_do_banco
from multas.servicos.pasta_de_dados import (
    BancoAntigoTrancado,
    banco_padrao,
    caminho_visivel,
    url_sqlite,
)
from multas.servicos.persistencia import registros
from multas.servicos.persistencia.registros import BancoInacessivel, validar_parametros


def url_padrao() -> str:
    """``MULTAS_DATABASE_URL`` if set, else SQLite in the user's data folder (while that has
    none, an old ``dados/multas.db`` of the current folder, where it is: :func:`banco_padrao`)."""
    return _url_ou_sqlite(urls_do_banco()[0])


def _url_ou_sqlite(url: str | None) -> str:
    if url:
        return url
    try:
        return url_sqlite(banco_padrao())
    except BancoAntigoTrancado as erro:  # a 'banco mover' copying it: said, nothing done
        raise BancoInacessivel(str(erro)) from None


def normalizar_url(url: str) -> str:
    """``postgresql://`` means psycopg 3 here (SQLAlchemy would otherwise look for psycopg2).

    >>> normalizar_url("postgresql://u:s@127.0.0.1/multas")
    'postgresql+psycopg://u:s@127.0.0.1/multas'
    >>> normalizar_url("sqlite:///dados/multas.db")
    'sqlite:///dados/multas.db'
    """
    for prefixo in ("postgresql://", "postgres://"):
        if url.startswith(prefixo):
            return "postgresql+psycopg://" + url[len(prefixo) :]
    return url


def criar_engine(url: str) -> Engine:
    """The engine of this URL (nothing connects yet); a URL that cannot be read (a port that
    is not a number, an unknown database, a driver not installed) is :class:`BancoInacessivel`,
    in pt-BR, without the URL (it may carry a password)."""
    url = normalizar_url(url)
    try:
        dados = make_url(url)
        if dados.get_backend_name() != "sqlite":
            engine = create_engine(url, pool_pre_ping=True)
            if dados.get_backend_name() == "postgresql":
                event.listen(engine, "connect", _leitores_tolerantes)
        else:
            _recusar_opcoes_ignoradas(dict(dados.query), dados.database)
            engine = _engine_sqlite(url, dados.database)
    except ImportError:
        raise BancoInacessivel(
            "o driver desse banco não está instalado; use sqlite:///caminho/multas.db ou "
            "postgresql+psycopg://usuario:senha@servidor:5432/banco"
        ) from None
    except (ArgumentError, ValueError):
        raise BancoInacessivel(
            "a URL do banco é inválida; use sqlite:///caminho/multas.db ou "
            "postgresql+psycopg://usuario:senha@servidor:5432/banco (a porta, se houver, é "
            "um número)"
        ) from None

    @event.listens_for(engine, "before_cursor_execute")
    def _rede(
        _conexao: Any, _cursor: Any, _sql: str, parametros: Any, _contexto: Any, _varios: bool
    ) -> None:
        # the last net: no NUL character nor 65-bit integer reaches the driver, whatever
        # path a text took (each field is also checked, with its name, before this)
        validar_parametros(parametros)

    return engine


#: what the SQLite driver takes from a ``sqlite:///`` URL's query itself (SQLAlchemy's list)
_OPCOES_DO_DRIVER = frozenset(
    ("uri", "timeout", "isolation_level", "detect_types", "check_same_thread", "cached_statements")
)


def _recusar_opcoes_ignoradas(consulta: dict[str, Any], banco: str | None) -> None:
    """A path starting with ``~`` (not expanded in a URL) is refused in pt-BR. A SQLite URL option (``?mode=ro``) reaches SQLite only with ``uri=true`` and the path
    written ``file:…``; otherwise SQLAlchemy ignores it (an English warning) or SQLite makes a
    file named ``multas.db?mode=ro``, writable: the user's read-only wish silently not kept.
    Refused in pt-BR instead, with the form that works."""
    if banco is not None and (banco == "~" or banco.startswith(("~/", "~\\"))):
        # a shell expands it, a URL does not: a folder named '~' in the current folder (one
        # database per folder again, the very doubt the data folder ends)
        raise BancoInacessivel(
            "o caminho da URL do SQLite começa com '~', que numa URL não é a sua pasta pessoal "
            "(seria uma pasta chamada '~' na pasta atual): escreva o caminho inteiro "
            "(sqlite:////home/voce/multas.db), ou use --banco ~/multas.db; uma pasta chamada "
            "'~' mesmo: sqlite:///./~/multas.db"
        )
    uri = str(consulta.get("uri", "")).lower() in ("true", "1", "yes", "on")
    opcoes = sorted(set(consulta) - _OPCOES_DO_DRIVER)
    if opcoes and not (uri and (banco or "").startswith("file:")):
        raise BancoInacessivel(
            f"a opção {', '.join(opcoes)} da URL do SQLite só vale com o caminho escrito "
            "como file: e uri=true (sqlite:///file:/caminho/multas.db?mode=ro&uri=true); "
            "sem isso ela seria ignorada"
        )


def _engine_sqlite(url: str, banco: str | None) -> Engine:
    if banco and banco != ":memory:" and not banco.startswith("file:"):
        _recusar_diario_orfao(Path(banco))
        try:
            Path(banco).parent.mkdir(parents=True, exist_ok=True)
        except OSError:
            raise BancoInacessivel(
                "não foi possível criar a pasta do arquivo do banco (SQLite): confira o caminho "
                "e a permissão de escrita"
            ) from None
    engine = create_engine(
        url, connect_args={"check_same_thread": False, "timeout": registros.ESPERA_ESCRITA}
    )

    @event.listens_for(engine, "connect")
    def _pragmas(conexao: Any, _registro: Any) -> None:
        conexao.isolation_level = None  # SQLAlchemy's "begin" below emits BEGIN itself
        # SQLite keeps any bytes in a text column: one that is not UTF-8 is read with the
        # replacement character (its record's hash then cannot match), not refused by the
        # driver for the whole query
        conexao.text_factory = _texto_tolerante
        cursor = conexao.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        if banco and banco != ":memory:":
            cursor.execute("PRAGMA journal_mode=WAL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _comecar(conexao: Connection) -> None:
        # a transaction that writes takes the write lock up front (BEGIN IMMEDIATE): a deferred
        # one that read first would fail, not wait, when another writer committed meanwhile
        escrita = conexao.get_execution_options().get("multas_escrita", False)
        conexao.exec_driver_sql("BEGIN IMMEDIATE" if escrita else "BEGIN")

    return engine


def _recusar_diario_orfao(arquivo: Path) -> None:
    """:class:`BancoInacessivel` when the SQLite file ``arquivo`` is new (missing or empty) but
    the WAL log of another database is beside it (``multas.db-wal``, left by a database deleted
    or moved without it): SQLite would read the new database with that log, silently, and it
    would become the other one. Every SQLite engine is made here, so every path that creates a
    database (a command, the server, a migration) goes through this check. The log is looked
    for where SQLite looks: beside the file a symbolic link leads to (even one that leads to
    no file yet), not beside the link."""
    real = Path(os.path.realpath(arquivo))
    diario = real.with_name(real.name + "-wal")
    try:
        novo = not arquivo.exists() or arquivo.stat().st_size == 0
        orfao = novo and diario.stat().st_size > 0
    except OSError:  # no log (or none that can be read: SQLite says why, later)
        return
    if not orfao:
        return
    memoria = real.with_name(real.name + "-shm")
    achados = caminho_visivel(diario) + (
        f" (e {caminho_visivel(memoria)})" if memoria.exists() else ""
    )
    raise BancoInacessivel(
        f"o banco {caminho_visivel(arquivo)} ainda não existe, mas ao lado dele está "
        f"{achados}, o diário de um banco que não está mais lá: o SQLite leria o banco novo "
        "com esse diário, e ele viraria o outro banco. Se o banco foi movido ou renomeado, "
        "ponha-o de volta ao lado do diário (ou use --banco com o caminho dele); senão, guarde "
        "o diário em outro lugar (ou apague-o) e rode de novo. Nenhum banco foi criado"
    )


@cache
def ultima_migracao() -> str:
    """The revision of the last migration shipped: the migrations are one chain, each file
    ``rNNNN_*.py`` declaring ``revision = "rNNNN"`` (a test checks this against Alembic's own
    head), so the highest file name is the head."""
    pasta = Path(__file__).resolve().parent / "migracoes" / "versions"
    return max(p.name[:5] for p in pasta.glob("r[0-9][0-9][0-9][0-9]_*.py"))


def _ocupado(erro: OperationalError) -> bool:
    """A lock waited for too long: SQLite's busy timeout, PostgreSQL's lock_timeout."""
    texto = str(erro.orig)
    return (
        "database is locked" in texto
        or "lock timeout" in texto
        or getattr(erro.orig, "sqlstate", None) == "55P03"
    )


def _texto_tolerante(bruto: bytes) -> str:
    return bruto.decode("utf-8", "replace")


def _leitores_tolerantes(conexao: Any, _registro: Any) -> None:
    """PostgreSQL keeps dates the system cannot read (past 9999, BC, ``infinity``): the
    driver would fail the whole query on one of them. Here it reads them as
    :class:`~multas.servicos.persistencia.modelos.Ilegivel`, so one bad row is named, not fatal."""
    from psycopg.types.datetime import DateLoader, TimestampLoader, TimestamptzLoader

    from multas.servicos.persistencia.modelos import Ilegivel

    for nome, base in (
        ("date", DateLoader),
        ("timestamp", TimestampLoader),
        ("timestamptz", TimestamptzLoader),
    ):

        class Tolerante(base):  # type: ignore[valid-type,misc]
            def load(self, dados: Any) -> Any:
                try:
                    return super().load(dados)
                except Exception:  # whatever the driver refuses to read
                    return Ilegivel.de(bytes(dados))

        conexao.adapters.register_loader(nome, Tolerante)


def _pragma_direto(conexao: Connection, pragma: str) -> None:
    """A PRAGMA on the driver's connection itself, outside any transaction."""
    bruta = conexao.connection.dbapi_connection
    assert bruta is not None
    cursor = bruta.cursor()
    try:
        cursor.execute(pragma)
    finally:
        cursor.close()
