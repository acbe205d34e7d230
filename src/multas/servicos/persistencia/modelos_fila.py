"""The work queue's index (issue 36, item 4): what § 6 derived of each stored processo on one
day, kept so that the queue is read from indexed columns instead of deriving every processo
on every request.

- :class:`FilaProcesso`: one row per processo indexed, saying on which day (``referencia``)
  and under which legislation (``lei``: the parameter files' version and the last Selic
  month) its items were derived, and its estado then (``estado``). A processo without a row matching the queue's day and
  legislation is *stale*: the queue derives it, as it always did.
- :class:`FilaItem`: its items, with the columns the queue filters and orders on; and
  :class:`FilaTexto`, each item as the queue shows it (JSON), apart, so that counting and
  ordering walk narrow rows and only a page's items are read whole.
- :class:`FilaMarca`: at most one row, saying that on its day and legislation every live
  processo was indexed as of a position of the audit chain (``seq``): a processo not indexed
  since must have been written after it, so the queue looks for stale processos among those
  written since, not among all.

Derived data, not a record: outside the audit chain, as the login throttle is. Every write
of a processo (:class:`~multas.servicos.persistencia.escrita.Escrita`) deletes its rows in the
same transaction, so an index row never outlives the state it was derived from; ``multas
auditoria verificar`` derives every processo again and names an index row that differs.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from sqlalchemy import (
    BigInteger,
    Boolean,
    Index,
    Integer,
    SmallInteger,
    String,
    Text,
    and_,
    delete,
    text,
)
from sqlalchemy.orm import Mapped, Session, mapped_column

from multas.servicos.persistencia import em_massa
from multas.servicos.persistencia.modelos import Base, DataSegura, Id


class FilaProcesso(Base):
    """A processo indexed: the day and the legislation its items were derived on."""

    __tablename__ = "fila_processos"
    __table_args__ = (Index("ix_fila_processos_referencia_lei", "referencia", "lei"),)

    #: the processo's id
    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=False)
    referencia: Mapped[date] = mapped_column(DataSegura)
    #: :func:`multas.servicos.fila.impressao` of the legislation
    lei: Mapped[str] = mapped_column(String(64))
    #: the processo's estado on that day (NULL: it cannot be read), kept here because a
    #: processo may have no item: the ``/processos`` list's estado filter reads it
    estado: Mapped[str | None] = mapped_column(String(64))


class FilaItem(Base):
    """One item of the queue, as derived: a deadline (``prazo``), the next action (``acao``) or
    why the processo cannot be read (``erro``)."""

    __tablename__ = "fila_itens"
    __table_args__ = (
        Index("ix_fila_itens_tipo_data", "tipo", "data"),
        # the queue's two orders (:func:`multas.servicos.persistencia.fila.pagina`): a page
        # walks one and stops after its rows
        Index("ix_fila_itens_prazos", "tipo", "ordem", "data", "processo_id", "nome", "id"),
        Index("ix_fila_itens_acoes", "tipo", "ordem", "data", "desde", "processo_id", "id"),
        # a client's rows (the cnpj filter: its CNPJ, or one not trusted)
        Index("ix_fila_itens_cnpj", "cnpj"),
        Index("ix_fila_itens_confiavel", "confiavel"),
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    processo_id: Mapped[int] = mapped_column(Id, index=True)
    tipo: Mapped[str] = mapped_column(String(8))
    #: the queue's first sort key: a deadline overdue (0) or not (1), an action with a date
    #: (0) or without (1) (:func:`multas.servicos.persistencia.fila.ordem_da_linha`)
    ordem: Mapped[int] = mapped_column(SmallInteger)
    #: the processo's estado (NULL for an ``erro``)
    estado: Mapped[str | None] = mapped_column(String(64))
    #: the CNPJ in its normal form (:func:`multas.nucleo.cnpj.normalizar`), if any
    cnpj: Mapped[str | None] = mapped_column(String(32))
    #: whether the CNPJ may filter it (not of a processo that does not match its history)
    confiavel: Mapped[bool] = mapped_column(Boolean)
    #: a deadline's ``responsavel``, an action's ``quem``
    responsavel: Mapped[str | None] = mapped_column(String(64))
    #: a deadline's date, an action's ``ate``
    data: Mapped[date | None] = mapped_column(DataSegura)
    #: a deadline's name (the queue's order on one date and processo)
    nome: Mapped[str | None] = mapped_column(String(64))
    #: an action's ``desde``
    desde: Mapped[date | None] = mapped_column(DataSegura)
    situacao: Mapped[str | None] = mapped_column(String(64))
    pendente: Mapped[bool] = mapped_column(Boolean)
    #: the item's place among its processo's (its :class:`FilaTexto`)
    n: Mapped[int] = mapped_column(Integer)


class FilaTexto(Base):
    """One item of the queue as it shows it (JSON), apart from its row (:class:`FilaItem`,
    the same ``processo_id`` and ``n``)."""

    __tablename__ = "fila_textos"

    processo_id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=False)
    n: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    item: Mapped[str] = mapped_column(Text)


#: an item's row and its text (:class:`FilaItem` to :class:`FilaTexto`): the one join
DO_TEXTO = and_(FilaTexto.processo_id == FilaItem.processo_id, FilaTexto.n == FilaItem.n)


_APAGAR_PG = text(
    "WITH i AS (DELETE FROM fila_itens WHERE processo_id = ANY(:ids)),"
    " t AS (DELETE FROM fila_textos WHERE processo_id = ANY(:ids))"
    " DELETE FROM fila_processos WHERE id = ANY(:ids)"
)


def apagar_indice(sessao: Session, ids: Sequence[int]) -> None:
    """Delete these processos' index rows, of every table (the one way they go: a write of
    the processo, indexing it again, or rows written outside the system)."""
    ids = list(ids)
    postgresql = sessao.get_bind().dialect.name == "postgresql"
    for inicio in range(0, len(ids), 500):
        lote = ids[inicio : inicio + 500]
        if postgresql:  # one round trip, not three: each write of a processo does this
            sessao.execute(_APAGAR_PG, {"ids": lote})
            continue
        sessao.execute(delete(FilaProcesso).where(em_massa.entre(FilaProcesso.id, lote)))
        sessao.execute(delete(FilaItem).where(em_massa.entre(FilaItem.processo_id, lote)))
        sessao.execute(delete(FilaTexto).where(em_massa.entre(FilaTexto.processo_id, lote)))


class FilaMarca(Base):
    """Every live processo indexed on ``referencia`` under ``lei``, as of the audit chain's
    ``seq``: one not indexed since was written after it (each write of a processo appends its
    audit row and deletes its index rows in one transaction, and the writes are serialised by
    the chain's lock, so the seqs follow the commits). Written by a queue or ``reavaliar``
    that derived every stale processo of no client's scope, and indexed all of them; deleted
    by indexing under another day or legislation."""

    __tablename__ = "fila_marcas"

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=False)
    referencia: Mapped[date] = mapped_column(DataSegura)
    lei: Mapped[str] = mapped_column(String(64))
    seq: Mapped[int] = mapped_column(BigInteger)
