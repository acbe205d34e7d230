"""Work a write does before the chain's lock (issue 36, item 2): :class:`Previa`.

Every write holds the audit chain's lock from its first statement to its commit
(:meth:`Repositorio.escrita <multas.servicos.persistencia.repositorio.Repositorio.escrita>`), so
what it does there, every other writer waits for. A change to one record (an event appended to
a processo, the last one undone) used to read the record, check it against its history and
validate the change (§ 6 derives the whole processo) inside the lock. Now it reads the record
first, on one snapshot (:meth:`Repositorio.leitura
<multas.servicos.persistencia.repositorio.Repositorio.leitura>`), validates the change outside
any transaction, and keeps a :class:`Previa`: the chain's last position in that snapshot, and
the hash of the state it read of the record and of each of its children.

Under the lock, the write takes that work only if :func:`vale`:

- the record and its children, read again under the lock, are in exactly the state read (so
  the validation saw what is there);
- no audit row appended since that position is about any of them, nor about any other record
  the work depended on (a linked case): the chain lists every write of the system, and every
  write appends its rows under the lock, so none of them changed what the work read; and
- their histories, read under the lock (the rows that decide the check, with the states
  already hashed: the event rows are not read again), end in those states, intact: the check
  a write holding the lock from the start makes.

Otherwise the write checks and validates again under the lock, as before (and refuses a record
that does not match its history). Either way what is written, and the order of the chain, is
what a write holding the lock from the start would have written
(docs/seguranca.md#trabalho-antes-da-trava).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, func, inspect, or_, select
from sqlalchemy.orm import Session

from multas.servicos.persistencia.integridade import conferir_estado
from multas.servicos.persistencia.modelos import RegistroAuditoria
from multas.servicos.persistencia.registros import (
    RECURSOS,
    Recurso,
    estado,
    hash_estado,
    historias_de,
)

#: a record: (its table, its id)
Chave = tuple[str, int]


@dataclass(frozen=True)
class Previa:
    """What a write read on a snapshot before its lock."""

    #: the chain's last position in the snapshot (0: an empty chain)
    seq: int
    #: the record and each of its children: the hash of the state read
    estados: dict[Chave, str]
    #: other records the work read (a linked case): an audit row about one voids it
    dependencias: frozenset[Chave] = frozenset()


def ultima_posicao(sessao: Session) -> int:
    """The chain's last position as this transaction sees it: read first, on the snapshot
    of the reads that follow."""
    a = RegistroAuditoria.__table__.c
    return int(sessao.scalar(select(func.max(a.seq))) or 0)


def _filhos(recurso: Recurso, linha: Any) -> dict[str, list[Any]]:
    """Each child table's rows of ``linha`` (an ORM object with its children loaded), in the
    order the record's state lists them (:func:`registros.estado`)."""
    relacoes = {r.target.name: r.key for r in inspect(type(linha)).relationships}
    filhos: dict[str, list[Any]] = {}
    for tabela, _, ordem in recurso.filhos:

        def chave(filho: Any, coluna: str = ordem) -> tuple[Any, int]:
            return getattr(filho, coluna), int(filho.id)

        filhos[tabela] = sorted(getattr(linha, relacoes[tabela]), key=chave)
    return filhos


def estados(recurso: Recurso, linha: Any) -> dict[Chave, str]:
    """The hash of the state of ``linha`` (an ORM object with its children loaded) and of
    each of its children, as the chain's rows record them (:func:`registros.hash_estado`)."""
    filhos = _filhos(recurso, linha)
    resultado = {
        (recurso.tabela, int(linha.id)): hash_estado(
            recurso.tabela,
            estado(recurso, linha, {t: [f.id for f in fs] for t, fs in filhos.items()}),
        )
    }
    for tabela, linhas in filhos.items():
        filho = RECURSOS[tabela]
        assert not filho.filhos, "children of children are not read here"
        for f in linhas:
            resultado[(tabela, int(f.id))] = hash_estado(tabela, estado(filho, f, {}))
    return resultado


def preparar(seq: int, recurso: Recurso, linha: Any, dependencias: Iterable[Chave] = ()) -> Previa:
    """The :class:`Previa` of ``linha``, read (with its children) on the snapshot whose last
    position is ``seq``; checked against its history under the lock (:func:`vale`)."""
    return Previa(seq, estados(recurso, linha), frozenset(dependencias))


def vale(sessao: Session, previa: Previa, recurso: Recurso, linha: Any) -> bool:
    """Under the chain's lock: whether the work of ``previa`` holds for ``linha``, the record
    as read now (with its children loaded): the same states, no audit row since the snapshot
    about any of them or of its dependencies, and each of them matching its history."""
    if estados(recurso, linha) != previa.estados:
        return False
    a = RegistroAuditoria.__table__.c
    if previa.dependencias:  # an audit row about one since the snapshot voids the work
        por_tabela: dict[str, list[int]] = {}
        for t, i in previa.dependencias:
            por_tabela.setdefault(t, []).append(i)
        depois = sessao.scalar(
            select(a.seq)
            .where(
                a.seq > previa.seq,
                or_(
                    *(and_(a.tabela == t, a.registro_id.in_(ids)) for t, ids in por_tabela.items())
                ),
            )
            .limit(1)
        )
        if depois is not None:
            return False
    # the check itself, under the lock, of the record and its children at once: each history
    # ends in the state read, intact, and no row of it came after the snapshot (the states
    # already hashed: no child rows read again)
    lidos: dict[str, list[int]] = {}
    for t, i in previa.estados:
        lidos.setdefault(t, []).append(i)
    passados = historias_de(sessao, lidos)
    for (t, i), atual in previa.estados.items():
        passos = passados.get((t, i), [])
        if any(p.seq > previa.seq for p in passos):
            return False
        recurso_ = RECURSOS[t]
        if conferir_estado(recurso_.rotulo, t, i, atual, passos, recurso_.mutavel) is not None:
            return False
    return True
