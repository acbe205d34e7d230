"""The tables: saved cases and the append-only audit log.

A saved case keeps the input exactly as received and the full result as computed, with the
engine and legislation versions used, so reopening it shows exactly what was saved even after
the legislation files change. The audit table is only ever inserted into: no code path here
updates or deletes it, and the migration installs triggers that make the database refuse to.
"""

from __future__ import annotations

from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Date,
    DateTime,
    Index,
    Integer,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Ilegivel(str):
    """A stored value the database holds but the system cannot read (a date past 9999 or
    ``infinity`` on PostgreSQL, any text in a SQLite date column, bytes that are not UTF-8):
    what the driver would have failed on, kept as text so that one bad row never breaks a
    listing. It starts with a NUL character, which the system never stores, so its record's
    hash can never match one the system wrote: the record is reported as altered.

    >>> valor = Ilegivel.de("20000-01-01")
    >>> valor.isoformat(), valor.startswith(chr(0))
    ('ilegível (20000-01-01)', True)
    """

    @classmethod
    def de(cls, bruto: object) -> Ilegivel:
        texto = bruto.decode("utf-8", "replace") if isinstance(bruto, bytes) else str(bruto)
        return cls("\x00ilegível: " + texto.lstrip("\x00").removeprefix("ilegível: "))

    def isoformat(self, *_args: object, **_kw: object) -> str:
        return f"ilegível ({self.removeprefix(chr(0)).removeprefix('ilegível: ')})"

    def astimezone(self, *_args: object) -> Ilegivel:
        return self

    def strftime(self, *_args: object) -> str:
        return self.isoformat()


class _Tolerante:
    """A column type whose stored value, if the system cannot read it, comes back as
    :class:`Ilegivel` instead of failing the whole query."""

    def result_processor(self, dialect: Dialect, coltype: Any) -> Any:
        processar = super().result_processor(dialect, coltype)  # type: ignore[misc]
        if processar is None:
            return None

        def seguro(valor: Any) -> Any:
            if isinstance(valor, Ilegivel):
                return valor
            try:
                return processar(valor)
            except (ValueError, TypeError, OverflowError, AttributeError, AssertionError):
                return Ilegivel.de(valor)

        return seguro


class DataSegura(_Tolerante, TypeDecorator[date]):
    """A date (:class:`_Tolerante`)."""

    impl = Date
    cache_ok = True


class UTCDateTime(_Tolerante, TypeDecorator[datetime]):
    """A timestamp that is always timezone-aware UTC, also on SQLite (which stores no zone);
    one the system cannot read comes back as :class:`Ilegivel`."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("timestamp without a time zone")
        return value.astimezone(UTC)

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        assert isinstance(value, datetime)
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    pass


#: ids are 64-bit everywhere (the API accepts ids up to 2^63 - 1). On SQLite the column stays
#: INTEGER, the rowid alias, declared AUTOINCREMENT: a deleted id is never handed out again.
Id = BigInteger().with_variant(Integer(), "sqlite")


class CasoSalvo(Base):
    __tablename__ = "casos"
    __table_args__ = {"sqlite_autoincrement": True}  # noqa: RUF012

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    regime: Mapped[str] = mapped_column(String(64), index=True)
    #: the case as received: JSON text, numbers exactly as written
    entrada: Mapped[str] = mapped_column(Text)
    #: the result object of the contract, as computed then (JSON text)
    resultado: Mapped[str] = mapped_column(Text)
    #: the amount due (copy of resultado.valor, for listings); null where the spec says so
    valor: Mapped[str | None] = mapped_column(String(32))
    versao_motor: Mapped[str] = mapped_column(String(32))
    versao_legislacao: Mapped[str] = mapped_column(String(64))
    usuario: Mapped[str] = mapped_column(String(200))
    origem: Mapped[str] = mapped_column(String(16))
    criado_em: Mapped[datetime] = mapped_column(UTCDateTime(), index=True)
    #: SHA-256 of the above, first format (integridade.hash_caso): kept as it was saved; the
    #: audit chain's ``hash_estado`` is what vouches for the whole row now
    hash_conteudo: Mapped[str | None] = mapped_column(String(64))
    #: when the case was deleted (issue 20, item 4; migration r0009): hidden from every view,
    #: restorable by an admin until it is purged. NULL: not deleted (so a case keeps the state
    #: hash it had before r0009). The one column of a case that ever changes
    excluido_em: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)


class RegistroAuditoria(Base):
    """Who did what, when, to which record. Append-only; ``caso_id`` and ``registro_id`` are no
    foreign keys, so they outlive the record."""

    __tablename__ = "auditoria"
    __table_args__ = (
        Index("ix_auditoria_tabela_registro", "tabela", "registro_id"),
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    momento: Mapped[datetime] = mapped_column(UTCDateTime())
    usuario: Mapped[str] = mapped_column(String(200))
    acao: Mapped[str] = mapped_column(String(32))
    caso_id: Mapped[int | None] = mapped_column(Id, index=True)
    regime: Mapped[str | None] = mapped_column(String(64))
    detalhe: Mapped[str | None] = mapped_column(Text)
    #: the position in the hash chain: 1, 2, 3, ... with no gap (unique)
    seq: Mapped[int | None] = mapped_column(BigInteger, unique=True)
    #: the previous row's ``hash`` (64 zeros for the first)
    hash_anterior: Mapped[str | None] = mapped_column(String(64))
    #: SHA-256 of this row's content and of ``hash_anterior`` (integridade.hash_registro)
    hash: Mapped[str | None] = mapped_column(String(64))
    #: the stored record this row is about (multas.servicos.persistencia.registros), what happened to
    #: it, and the hash of its new canonical state (none once deleted)
    tabela: Mapped[str | None] = mapped_column(String(64))
    registro_id: Mapped[int | None] = mapped_column(BigInteger)
    operacao: Mapped[str | None] = mapped_column(String(16))
    hash_estado: Mapped[str | None] = mapped_column(String(64))


class Idempotencia(Base):
    """An ``Idempotency-Key`` already used to save a case: a retried save returns that case."""

    __tablename__ = "idempotencia"
    __table_args__ = (
        UniqueConstraint("usuario", "chave", name="uq_idempotencia_usuario_chave"),
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    usuario: Mapped[str] = mapped_column(String(200))
    chave: Mapped[str] = mapped_column(String(200))
    #: SHA-256 of the request body: the same key with another body is refused
    hash_corpo: Mapped[str] = mapped_column(String(64))
    caso_id: Mapped[int] = mapped_column(Id)
    criado_em: Mapped[datetime] = mapped_column(UTCDateTime())


class Usuario(Base):
    """Someone who may use the server when it requires authentication."""

    __tablename__ = "usuarios"
    __table_args__ = {"sqlite_autoincrement": True}  # noqa: RUF012

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    nome: Mapped[str] = mapped_column(String(200), unique=True)
    papel: Mapped[str] = mapped_column(String(16))  # leitura | analista | admin
    #: argon2 hash of the page's password (none: API tokens only)
    hash_senha: Mapped[str | None] = mapped_column(String(200))
    ativo: Mapped[bool] = mapped_column(Boolean)
    criado_em: Mapped[datetime] = mapped_column(UTCDateTime())
    #: the clients the user is limited to (issue 20, item 2), as the canonical JSON of
    #: :meth:`multas.nucleo.escopo.Escopo.json`; NULL: unlimited (and the state hash of a user
    #: stored before migration r0010 unchanged)
    clientes: Mapped[str | None] = mapped_column(Text, nullable=True)


class Token(Base):
    """An API token: ``mlt_<prefixo>.<segredo>``; only the secret's argon2 hash is kept."""

    __tablename__ = "tokens"
    __table_args__ = {"sqlite_autoincrement": True}  # noqa: RUF012

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    prefixo: Mapped[str] = mapped_column(String(16), unique=True)
    usuario_id: Mapped[int] = mapped_column(Id, index=True)
    hash: Mapped[str] = mapped_column(String(200))
    criado_em: Mapped[datetime] = mapped_column(UTCDateTime())
    revogado: Mapped[bool] = mapped_column(Boolean)


class FeedCalendario(Base):
    """A user's private calendar feed (issue 20, item 2): ``/api/v1/feed/<token>.ics``,
    read without a login and scoped like its user. Only the token's SHA-256 is kept (it has
    256 bits of entropy: a fast hash suffices, as for the page sessions); revoked, never
    deleted."""

    __tablename__ = "feeds"
    __table_args__ = {"sqlite_autoincrement": True}  # noqa: RUF012

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    hash_token: Mapped[str] = mapped_column(String(64), unique=True)
    usuario_id: Mapped[int] = mapped_column(Id, index=True)
    criado_em: Mapped[datetime] = mapped_column(UTCDateTime())
    revogado: Mapped[bool] = mapped_column(Boolean)


class Sessao(Base):
    """A page login: the SHA-256 of the cookie's random id, whose user, until when."""

    __tablename__ = "sessoes"
    __table_args__ = {"sqlite_autoincrement": True}  # noqa: RUF012

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    hash_id: Mapped[str] = mapped_column(String(64), unique=True)
    usuario_id: Mapped[int] = mapped_column(Id, index=True)
    criado_em: Mapped[datetime] = mapped_column(UTCDateTime())
    expira_em: Mapped[datetime] = mapped_column(UTCDateTime())


class TentativaLogin(Base):
    """Refused credentials of one key (a user name ``u:<nome>``, the logins of an address or
    IPv6 network ``ip:<endereço>``, its bearer tokens ``token:ip:<endereço>``): the moments
    of its failures within the sliding window, and the block they earned
    (:mod:`multas.servicos.persistencia.acesso`).

    Not a record a user relies on (so outside the hash chain): losing a row only lifts a
    block, and lifting one through the system (``multas usuarios desbloquear``) is audited.
    Shared by every worker process, so a name is blocked everywhere at once."""

    __tablename__ = "tentativas_login"
    __table_args__ = {"sqlite_autoincrement": True}  # noqa: RUF012

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    chave: Mapped[str] = mapped_column(String(300), unique=True)
    #: the failures within the window: JSON list of UTC ISO moments, oldest first
    momentos: Mapped[str] = mapped_column(Text)
    bloqueado_ate: Mapped[datetime | None] = mapped_column(UTCDateTime())
    #: how many blocks in a row: each one lasts twice the one before (up to a day)
    nivel: Mapped[int] = mapped_column(Integer)
    #: the last change (rows idle for a day, with no block in force, are purged)
    atualizado_em: Mapped[datetime] = mapped_column(UTCDateTime())


class MesSelic(Base):
    """A month of the monthly Selic (Banco Central series 4390, % a.m.) added by
    ``multas legislacao selic atualizar`` (issue 35; spec § 3.5 v4) after the months the
    project ships: public data, not a client's (outside the clients' scopes: every user reads
    it), written once and never altered (a stored month keeps its rate), each with its source."""

    __tablename__ = "selic_meses"
    __table_args__ = (
        UniqueConstraint("mes", name="uq_selic_meses_mes"),
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    #: ``AAAA-MM``, once
    mes: Mapped[str] = mapped_column(String(7))
    #: the month's rate in percent, as exact decimal text (``1.14`` is 1,14 %), never a float
    taxa: Mapped[str] = mapped_column(String(32))
    #: where it came from, as the memória names it: the file, its SHA-256, when and by whom
    fonte: Mapped[str] = mapped_column(String(1000))
    usuario: Mapped[str] = mapped_column(String(200))
    criado_em: Mapped[datetime] = mapped_column(UTCDateTime())
