"""The lifecycle's tables (issue 9): stored processos with their events, and the distributor's
ledger (carteira), one row per CNPJ and year.

A processo's events are rows numbered by their position in the list; ``(processo_id, posicao)``
and ``(processo_id, evento)`` are unique, so two concurrent appends to the same processo cannot
both succeed: every stored list was validated whole by spec § 6 before it was written.
"""

from __future__ import annotations

import builtins
from datetime import date, datetime

from sqlalchemy import (
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship

from multas.servicos.persistencia.modelos import Base, DataSegura, Id, UTCDateTime

#: the unique indexes that hold among the records not deleted (issue 20, item 4): a deleted
#: record keeps its values, so that restoring it brings it back as it was, and a new one may
#: take them meanwhile (a restore that would break the index is refused, with the reason).
#: Migration r0009 creates them; :func:`declarar_indices_parciais` adds them to the metadata
#: only where the metadata is compared with a database (the migrations' environment). Declared
#: at import, their ``postgresql_where`` made SQLAlchemy load the PostgreSQL dialect in every
#: process, SQLite ones included: about a tenth of a lifecycle command's start-up (issue 19,
#: item 8; ``bench/inicio_ciclo.py``).
INDICES_PARCIAIS = {
    "uq_processos_lista_id": ("processos", ("lista_id",), "excluido_em IS NULL"),
    # a ledger year of an import in parts (issue 32, item 1; migration r0011) is outside it:
    # the import's new rows and the rows they replace live side by side until it is applied
    # (which of them a view shows is :func:`multas.servicos.persistencia.registros.vivos`)
    "uq_carteira_anos_cnpj_ano": (
        "carteira_anos",
        ("cnpj", "ano"),
        "excluido_em IS NULL AND carga_id IS NULL AND substituida_por IS NULL",
    ),
}


class ProcessoSalvo(Base):
    __tablename__ = "processos"
    __table_args__ = {"sqlite_autoincrement": True}  # noqa: RUF012

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    tipo: Mapped[str] = mapped_column(String(32), index=True)
    #: the processo's own "id" of spec § 6 (a text or an integer), as JSON text; indexed
    #: (migration r0018): every save and import looks a reference up (one per ANP process)
    identificador: Mapped[str | None] = mapped_column(Text, index=True)
    cnpj: Mapped[str | None] = mapped_column(String(32), index=True)
    nome: Mapped[str | None] = mapped_column(String(200))
    calendario: Mapped[str] = mapped_column(String(16))
    #: anp: the fine fixed by the decision (an amount, as text), spec § 6's ``valor_multa``
    #: (called ``principal`` before migration r0006)
    valor_multa: Mapped[str | None] = mapped_column(String(32))
    #: spec § 6's extra days without expediente, as a JSON list of ISO dates, sorted, each once
    #: (none: NULL, so a processo without them keeps the state hash it had before r0006)
    dias_sem_expediente: Mapped[str | None] = mapped_column(Text)
    #: the saved fine case this processo produced (renovabio.distribuidor, anp.infracao, ...)
    caso_id: Mapped[int | None] = mapped_column(
        Id, ForeignKey("casos.id", ondelete="SET NULL"), nullable=True
    )
    #: anp: the renovabio.lista processo of the same distributor linked to it (issue 19, item
    #: 5; migration r0007): the first-instance decision feeds both. Unique among the processos
    #: not deleted: a list processo is linked to one anp processo at most. None: no link (NULL,
    #: so a processo without one keeps the state hash it had before r0007)
    lista_id: Mapped[int | None] = mapped_column(
        Id, ForeignKey("processos.id", ondelete="SET NULL"), nullable=True
    )
    usuario: Mapped[str] = mapped_column(String(200))
    criado_em: Mapped[datetime] = mapped_column(UTCDateTime())
    atualizado_em: Mapped[datetime] = mapped_column(UTCDateTime())
    #: when it was deleted (issue 20, item 4; migration r0009); NULL: not deleted
    excluido_em: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    #: spec § 6.3 v4: the fine it was opened for, ``{"regime", "ano_meta", "cnpj"}`` as JSON
    #: text (migration r0012); NULL: none, so a processo without one keeps its state hash
    origem: Mapped[str | None] = mapped_column(Text, nullable=True)
    #: spec § 3.7 point 3 and § 6.1 v4: the fields that differ from the defaults,
    #: ``{"interpretacao": {...}, "prescricao_penal_anos": N}`` as JSON text (migration r0013);
    #: NULL: all defaults, so a processo stored before keeps its state hash
    leituras: Mapped[str | None] = mapped_column(Text, nullable=True)
    eventos: Mapped[list[EventoSalvo]] = relationship(
        back_populates="processo",
        order_by="EventoSalvo.posicao",
        cascade="all, delete-orphan",
        passive_deletes=True,
    )


class EventoSalvo(Base):
    __tablename__ = "processo_eventos"
    __table_args__ = (
        UniqueConstraint("processo_id", "posicao", name="uq_processo_eventos_posicao"),
        # an event may repeat (court suspensions; v4 payments): migration r0015 dropped the
        # constraint that kept each once
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    processo_id: Mapped[int] = mapped_column(
        Id, ForeignKey("processos.id", ondelete="CASCADE"), index=True
    )
    posicao: Mapped[int] = mapped_column(Integer)
    evento: Mapped[str] = mapped_column(String(64))
    data: Mapped[date] = mapped_column(DataSegura)
    #: spec § 6.2 v4: the amount of a ``pagamento`` (text, as the contract writes it);
    #: NULL for any other event (migration r0015)
    valor: Mapped[str | None] = mapped_column(String(32), nullable=True)
    #: spec § 6.2 v4: a ``parcelamento``'s plan, JSON text (migration r0016); NULL otherwise
    plano: Mapped[str | None] = mapped_column(Text, nullable=True)
    #: spec § 6.2 v4: the documents it carries, JSON text of ``[{"sha256", "nome", "tipo",
    #: "bytes"}]`` (migration r0017): each hash is in the event's audit record, and names the
    #: content in :class:`DocumentoSalvo`; NULL: none
    documentos: Mapped[str | None] = mapped_column(Text, nullable=True)
    usuario: Mapped[str] = mapped_column(String(200))
    criado_em: Mapped[datetime] = mapped_column(UTCDateTime())
    processo: Mapped[ProcessoSalvo] = relationship(back_populates="eventos")


class DocumentoSalvo(Base):
    """A document's content (spec § 6.2 v4), stored once under its SHA-256 whatever the number
    of events that carry it, and never altered nor deleted (an event undone, a processo
    purged: the audit chain still names the hash, so the content stays to be checked).
    Outside the clients' scopes: it is read only through an event of a processo in the
    reader's scope (:mod:`multas.servicos.documentos`)."""

    __tablename__ = "documentos"
    __table_args__ = (
        UniqueConstraint("sha256", name="uq_documentos_sha256"),
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    #: the SHA-256 of ``conteudo``, 64 lowercase hex digits: its name
    sha256: Mapped[str] = mapped_column(String(64))
    #: read from its first bytes: application/pdf, image/png or image/jpeg
    tipo: Mapped[str] = mapped_column(String(32))
    bytes: Mapped[int] = mapped_column(Integer)
    conteudo: Mapped[builtins.bytes] = mapped_column(LargeBinary)
    usuario: Mapped[str] = mapped_column(String(200))
    criado_em: Mapped[datetime] = mapped_column(UTCDateTime())


class AnoCarteiraSalvo(Base):
    __tablename__ = "carteira_anos"
    __table_args__ = {"sqlite_autoincrement": True}  # noqa: RUF012

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    cnpj: Mapped[str] = mapped_column(String(32), index=True)
    ano: Mapped[int] = mapped_column(Integer)
    nome: Mapped[str | None] = mapped_column(String(200))
    #: the year as entered (validated), JSON text: numbers as written
    entrada: Mapped[str] = mapped_column(Text)
    usuario: Mapped[str] = mapped_column(String(200))
    criado_em: Mapped[datetime] = mapped_column(UTCDateTime())
    atualizado_em: Mapped[datetime] = mapped_column(UTCDateTime())
    #: when it was deleted (issue 20, item 4; migration r0009); NULL: not deleted
    excluido_em: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    #: the import in parts that wrote it (issue 32, item 1; migration r0011): seen only once
    #: that import is applied; NULL: written in one transaction
    carga_id: Mapped[int | None] = mapped_column(Id, nullable=True, index=True)
    #: the import in parts that replaces it: hidden once that import is applied
    substituida_por: Mapped[int | None] = mapped_column(Id, nullable=True, index=True)


class Carga(Base):
    """An import written in parts (issue 32, item 1), each part its own short transaction:
    its rows stay invisible until the one step that sets ``estado`` to ``aplicada``. A
    ``pendente`` import whose ``validade`` passed was interrupted (its process died): the
    next write to its distributors undoes it (``desfeita``)."""

    __tablename__ = "cargas"
    __table_args__ = {"sqlite_autoincrement": True}  # noqa: RUF012

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    #: what it imports ("carteira")
    tipo: Mapped[str] = mapped_column(String(32))
    #: "pendente", "aplicada" or "desfeita"
    estado: Mapped[str] = mapped_column(String(16), index=True)
    usuario: Mapped[str] = mapped_column(String(200))
    #: how many rows it wrote so far
    linhas: Mapped[int] = mapped_column(Integer)
    criado_em: Mapped[datetime] = mapped_column(UTCDateTime())
    #: a pending import not renewed by then was interrupted
    validade: Mapped[datetime] = mapped_column(UTCDateTime())


def declarar_indices_parciais() -> None:
    """Adds :data:`INDICES_PARCIAIS` to the metadata (once), as migration r0009 created them."""
    for nome, (tabela, colunas, condicao) in INDICES_PARCIAIS.items():
        vivos = text(condicao)
        alvo = Base.metadata.tables[tabela]
        if any(indice.name == nome for indice in alvo.indexes):
            continue
        Index(
            nome,
            *(alvo.c[coluna] for coluna in colunas),
            unique=True,
            sqlite_where=vivos,
            postgresql_where=vivos,
        )
