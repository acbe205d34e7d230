"""The work queue's index in the database (issue 36, item 4;
:mod:`multas.servicos.persistencia.modelos_fila` says what it holds): which processos are
stale on a day, writing what was derived of them, and reading the items of the others with
the queue's filters in SQL. What an item is, and the filters' meaning, are
:mod:`multas.servicos.pendencias`' and :mod:`multas.nucleo.ciclo.pendencias`'.

Every query names :class:`ProcessoSalvo`, so the client's scope in force filters it
(:mod:`multas.servicos.persistencia.escopo_sql`) and a processo in the bin is in none.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from sqlalchemy import Table, and_, case, delete, false, func, insert, or_, select, true
from sqlalchemy.orm import Session

from multas.nucleo.ciclo.pendencias import CAMPOS_ACAO, CAMPOS_ITEM, Filtros
from multas.servicos.persistencia import em_massa, escopo_sql
from multas.servicos.persistencia.escrita import Escrita
from multas.servicos.persistencia.modelos import Base, MesSelic, RegistroAuditoria
from multas.servicos.persistencia.modelos_ciclo import ProcessoSalvo
from multas.servicos.persistencia.modelos_fila import (
    DO_TEXTO,
    FilaItem,
    FilaMarca,
    FilaProcesso,
    FilaTexto,
    apagar_indice,
)
from multas.servicos.persistencia.registros import _lotes, vivos

#: the kinds of item
PRAZO, ACAO, ERRO = "prazo", "acao", "erro"
#: a page walks the index in the queue's order when at least one row in this many of its
#: kind is kept by the filters (it then meets a page's worth soon), else sorts those kept
_ANDAR = 20


#: the keys each kind of item must have: a row without them was not written by the queue
_CAMPOS = {
    PRAZO: frozenset(CAMPOS_ITEM),
    ACAO: frozenset(CAMPOS_ACAO),
    ERRO: frozenset({"processo_id", "erro"}),
}


def _item(tipo: str, texto: str | None) -> dict[str, Any]:
    """An index row's item, read; :class:`ValueError` when it is not one the queue wrote
    (edited or deleted outside the system: no text, nested past the parser's depth, not an
    item): the caller derives the queue instead."""
    try:
        item = None if texto is None else json.loads(texto)
    except RecursionError:
        item = None
    if not isinstance(item, dict) or not _CAMPOS.get(tipo, frozenset({""})) <= item.keys():
        raise ValueError(f"item ilegível no índice da fila ({tipo})")
    return item


@dataclass
class Frescos:
    """The queue's items read from the index, filtered: the unreadable processos', the
    deadlines', the next actions', and how many deadlines the ``prescritos`` filter hid."""

    erros: list[dict[str, Any]] = field(default_factory=list)
    prazos: list[dict[str, Any]] = field(default_factory=list)
    acoes: list[dict[str, Any]] = field(default_factory=list)
    prescritos_ocultos: int = 0


def _em_dia(referencia: date, lei: str) -> Any:
    return and_(
        FilaProcesso.id == ProcessoSalvo.id,
        FilaProcesso.referencia == referencia,
        FilaProcesso.lei == lei,
    )


def desatualizados(
    sessao: Session, referencia: date, lei: str, limite: int | None = None
) -> list[int]:
    """The live processos (in the scope in force) with no index of ``referencia`` under
    ``lei``, in id order (the first ``limite``, when given). With the mark of that day and
    legislation (:class:`FilaMarca`), only among those written since it: the cost grows with
    the writes since the last whole queue, not with the processos stored."""
    consulta = (
        select(ProcessoSalvo.id)
        .outerjoin(FilaProcesso, _em_dia(referencia, lei))
        .where(vivos(ProcessoSalvo), FilaProcesso.id.is_(None))
        .order_by(ProcessoSalvo.id)
        .limit(limite)
    )
    desde = marca(sessao, referencia, lei)
    if desde is not None:
        consulta = consulta.where(ProcessoSalvo.id.in_(_escritos_depois(desde)))
    return [int(i) for i in sessao.scalars(consulta)]


def _escritos_depois(seq: int) -> Any:
    """The processos with an audit row after ``seq`` (written since)."""
    a = RegistroAuditoria.__table__.c
    return select(a.registro_id).where(a.tabela == str(ProcessoSalvo.__tablename__), a.seq > seq)


def orfaos(sessao: Session) -> list[int]:
    """The processos with index rows that are not live (in the bin, purged, or never stored):
    no write of the system leaves such rows (each write of a processo deletes its rows), so
    they were written outside it. In no client's scope only (another's processo would look
    gone)."""
    vivos_ = select(ProcessoSalvo.id).where(vivos(ProcessoSalvo))
    ids: set[int] = set()
    for coluna in (FilaProcesso.id, FilaItem.processo_id, FilaTexto.processo_id):
        ids.update(int(i) for i in sessao.scalars(select(coluna).where(coluna.not_in(vivos_))))
    return sorted(ids)


def apagar_orfaos(escrita: Escrita) -> int:
    """Delete the index rows of the processos that are not live (:func:`orfaos`): how many
    processos had them."""
    ids = orfaos(escrita.sessao)
    apagar_indice(escrita.sessao, ids)
    return len(ids)


def ultima_seq(sessao: Session) -> int:
    """The audit chain's last position (0: empty)."""
    return int(sessao.scalar(select(func.max(RegistroAuditoria.seq))) or 0)


def marca(sessao: Session, referencia: date, lei: str) -> int | None:
    """The audit seq as of which every live processo was indexed on ``referencia`` under
    ``lei`` (:class:`FilaMarca`), if the index says so."""
    consulta = select(func.max(FilaMarca.seq)).where(
        FilaMarca.referencia == referencia, FilaMarca.lei == lei
    )
    seq = sessao.scalar(consulta)
    return None if seq is None else int(seq)


def marcar(escrita: Escrita, referencia: date, lei: str, seq: int) -> bool:
    """Record that every live processo was indexed on ``referencia`` under ``lei`` as of the
    audit's ``seq``: the caller read, in one snapshot at ``seq`` and in no client's scope,
    every processo not indexed then, and indexed each (one written since it was read is
    written after ``seq``). Not when a row of another day or legislation is there now: a
    request of that other key indexed it after the caller's snapshot (a queue of yesterday
    finishing after midnight), and it would not be looked for (``False``)."""
    sessao, f = escrita.sessao, FilaProcesso
    outras = (
        f.referencia < referencia,
        f.referencia > referencia,
        and_(f.referencia == referencia, f.lei < lei),
        and_(f.referencia == referencia, f.lei > lei),
    )  # each a range of the index on (referencia, lei)
    sessao.execute(delete(FilaMarca))
    if any(sessao.scalar(select(f.id).where(o).limit(1)) is not None for o in outras):
        return False
    sessao.execute(insert(FilaMarca), [{"id": 1, "referencia": referencia, "lei": lei, "seq": seq}])
    return True


def selic_guardada(sessao: Session) -> list[tuple[str, str]]:
    """The Selic months this database stored, as stored (unchecked: only the index's key of
    the law, :func:`multas.servicos.pendencias.impressao`)."""
    consulta = select(MesSelic.mes, MesSelic.taxa).order_by(MesSelic.mes, MesSelic.id)
    return [(str(mes), str(taxa)) for mes, taxa in sessao.execute(consulta)]


def vivos_em_ordem(sessao: Session) -> list[int]:
    """Every live processo (in the scope in force), in id order."""
    consulta = select(ProcessoSalvo.id).where(vivos(ProcessoSalvo)).order_by(ProcessoSalvo.id)
    return [int(i) for i in sessao.scalars(consulta)]


def versoes(sessao: Session, ids: Sequence[int]) -> dict[int, int]:
    """Each processo's last position in the audit chain (its version: every write of it, or
    of its events, appends a row of it)."""
    a = RegistroAuditoria.__table__.c
    tabela = str(ProcessoSalvo.__tablename__)
    resultado: dict[int, int] = {}
    for lote in _lotes(ids):
        consulta = (
            select(a.registro_id, func.max(a.seq))
            .where(a.tabela == tabela, em_massa.entre(a.registro_id, lote))
            .group_by(a.registro_id)
        )
        resultado.update({int(i): int(seq or 0) for i, seq in sessao.execute(consulta)})
    return resultado


def gravar(
    escrita: Escrita,
    referencia: date,
    lei: str,
    itens: Mapping[int, Sequence[Mapping[str, Any]]],
    lidos: Mapping[int, int],
    estados: Mapping[int, str | None] | None = None,
) -> int:
    """Index each processo of ``itens`` (id → its rows' columns, ``item`` as a dict) on
    ``referencia`` under ``lei``, with its estado (``estados``; without it, its first row's:
    ``None``, cannot be read, for one without rows), unless it was written since it was read
    (its version now is not ``lidos``'): returns how many were indexed. In a write
    transaction, so no write of a processo falls between the check and the rows."""
    agora = versoes(escrita.sessao, list(itens))
    ids = [i for i in itens if i in lidos and agora.get(i) == lidos[i]]
    sessao = escrita.sessao
    # a row of another day or legislation replaced: the mark of that one no longer holds
    sessao.execute(
        delete(FilaMarca).where(or_(FilaMarca.referencia != referencia, FilaMarca.lei != lei))
    )
    for lote in _lotes(ids):
        apagar_indice(sessao, lote)
        marcas = [
            {"id": i, "referencia": referencia, "lei": lei, "estado": _estado(i, itens, estados)}
            for i in lote
        ]
        em_massa.copiar(sessao, _tabela(FilaProcesso), marcas)
        linhas = [
            {k: v for k, v in linha.items() if k != "item"}
            | {"processo_id": i, "n": n, "ordem": ordem_da_linha(linha)}
            for i in lote
            for n, linha in enumerate(itens[i])
        ]
        textos = [
            {"processo_id": i, "n": n, "item": json.dumps(linha["item"], ensure_ascii=False)}
            for i in lote
            for n, linha in enumerate(itens[i])
        ]
        em_massa.copiar(sessao, _tabela(FilaItem), linhas)
        em_massa.copiar(sessao, _tabela(FilaTexto), textos)
    return len(ids)


def _estado(
    i: int,
    itens: Mapping[int, Sequence[Mapping[str, Any]]],
    estados: Mapping[int, str | None] | None,
) -> str | None:
    if estados is not None:
        return estados.get(i)
    return next((linha.get("estado") for linha in itens[i]), None)


def processos_no_estado(
    sessao: Session,
    referencia: date,
    lei: str,
    estado: str,
    filtrar: Callable[[Any], Any],
    pagina: tuple[int, int],
    fora: Sequence[int] = (),
    casados: Sequence[int] = (),
) -> tuple[list[int], int]:
    """One page (``limite``, ``deslocamento``) of the ids of the live processos (in the scope
    in force) that the index of ``referencia`` under ``lei`` says are in ``estado`` or cannot
    be read (no estado filter hides those), newest first (the ``/processos`` list's order),
    and how many they are in all: the database filters, orders, cuts and counts.
    ``filtrar``: the list's other filters (tipo, CNPJ) on a query of :class:`ProcessoSalvo`.
    ``fora``: processos whose index is not read (stale: the caller derived them), and
    ``casados``: those of them the caller found in ``estado`` (or unreadable)."""
    p, f = ProcessoSalvo, FilaProcesso
    no_indice = and_(f.id.is_not(None), or_(f.estado == estado, f.estado.is_(None)))
    if fora:
        no_indice = and_(no_indice, ~em_massa.entre(p.id, fora))
    condicao = or_(no_indice, em_massa.entre(p.id, casados)) if casados else no_indice

    def consulta(*colunas: Any) -> Any:
        base = select(*colunas).select_from(p).outerjoin(f, _em_dia(referencia, lei))
        return filtrar(base.where(condicao))

    limite, deslocamento = pagina
    total = int(sessao.scalar(consulta(func.count())) or 0)
    pedido = consulta(p.id).order_by(p.id.desc()).offset(deslocamento).limit(limite)
    return [int(i) for i in sessao.scalars(pedido)], total


def _tabela(modelo: type[Base]) -> Table:
    tabela = modelo.__table__
    assert isinstance(tabela, Table)
    return tabela


def ordem_da_linha(linha: Mapping[str, Any]) -> int:
    """An index row's first sort key (:attr:`FilaItem.ordem`): the queue lists the overdue
    deadlines first, and the actions with a date before those without."""
    if linha["tipo"] == PRAZO:
        return 0 if linha["situacao"] == "vencido" else 1
    return 1 if linha["data"] is None else 0


def todos_os_prazos(sessao: Session, referencia: date, lei: str, cnpj: str | None) -> Frescos:
    """Every deadline of the processos indexed on ``referencia`` under ``lei`` (the
    calendar's), and the unreadable ones; of one client's (``cnpj``, in its normal form),
    when given; unordered."""
    f = FilaItem
    consulta = _com_texto(_indexados(referencia, lei, f.tipo, FilaTexto.item)).where(
        _do_cliente(cnpj), f.tipo.in_((PRAZO, ERRO))
    )
    frescos = Frescos()
    for tipo, texto in sessao.execute(consulta):
        (frescos.erros if tipo == ERRO else frescos.prazos).append(_item(tipo, texto))
    return frescos


@dataclass(frozen=True, slots=True)
class _Condicoes:
    """The queue's filters as SQL conditions on :class:`FilaItem`."""

    do_cliente: Any
    #: a deadline in the queue (a ``prescrito`` processo's too: counted when hidden)
    prazo: Any
    #: a deadline in the queue and shown
    prazo_mostrado: Any
    acao: Any


def _condicoes(filtros: Filtros) -> _Condicoes:
    """The meaning of :func:`multas.nucleo.ciclo.pendencias.na_fila`, with the processo's
    filters, in SQL."""
    f = FilaItem
    cnpj = filtros.cnpj_normalizado
    estado = true() if filtros.estado is None else f.estado == filtros.estado
    quem = true() if filtros.responsavel is None else f.responsavel == filtros.responsavel
    vencido = f.situacao == "vencido"
    na_janela = and_(
        f.data >= filtros.referencia,
        f.data <= filtros.ate,
        true() if filtros.todos else f.pendente == true(),
    )
    prazo = and_(
        f.tipo == PRAZO,
        estado,
        quem,
        or_(and_(vencido, true() if filtros.vencidos else false()), and_(~vencido, na_janela)),
    )
    mostrado = true() if filtros.prescritos else f.estado != "prescrito"
    return _Condicoes(
        do_cliente=_do_cliente(cnpj),
        prazo=prazo,
        prazo_mostrado=and_(prazo, mostrado),
        acao=and_(f.tipo == ACAO, estado, quem, mostrado),
    )


def _do_cliente(cnpj: str | None) -> Any:
    """An item of the client ``cnpj`` (in its normal form), or of a processo whose CNPJ is
    not trusted (no filter hides it)."""
    f = FilaItem
    return true() if cnpj is None else or_(f.confiavel == false(), f.cnpj == cnpj)


def _indexados(referencia: date, lei: str, *colunas: Any) -> Any:
    """A query of the items of the live processos (in the scope in force) indexed on
    ``referencia`` under ``lei``."""
    return (
        select(*colunas)
        .select_from(FilaItem)
        .join(ProcessoSalvo, ProcessoSalvo.id == FilaItem.processo_id)
        .join(FilaProcesso, _em_dia(referencia, lei))
        .where(vivos(ProcessoSalvo))
    )


def _com_texto(consulta: Any) -> Any:
    """``consulta`` of :class:`FilaItem` rows, each with its :class:`FilaTexto` (``NULL``
    when deleted outside the system: :func:`_item` refuses it, never drops the row)."""
    return consulta.outerjoin(FilaTexto, DO_TEXTO)


def ler(sessao: Session, referencia: date, lei: str, filtros: Filtros) -> Frescos:
    """The items of the processos indexed on ``referencia`` under ``lei`` that ``filtros``
    keep; unordered."""
    f = FilaItem
    c = _condicoes(filtros)
    consulta = _com_texto(_indexados(referencia, lei, f.tipo, f.estado, FilaTexto.item)).where(
        c.do_cliente, or_(f.tipo == ERRO, c.prazo, c.acao)
    )
    frescos = Frescos()
    for tipo, estado_, texto in sessao.execute(consulta):
        item = _item(tipo, texto)
        if tipo == ERRO:
            frescos.erros.append(item)
        elif tipo == ACAO:
            frescos.acoes.append(item)
        elif estado_ == "prescrito" and not filtros.prescritos:
            frescos.prescritos_ocultos += 1
        else:
            frescos.prazos.append(item)
    return frescos


@dataclass
class Pagina:
    """A page of the queue read from the index, in the queue's order: the unreadable
    processos first, then the deadlines (``prazos``: both, as the queue lists them), and the
    next actions, each list with its whole size."""

    prazos: list[dict[str, Any]]
    acoes: list[dict[str, Any]]
    total: int
    total_acoes: int
    prescritos_ocultos: int


def pagina(
    sessao: Session,
    referencia: date,
    lei: str,
    filtros: Filtros,
    limite: int,
    deslocamento: int,
    fora: Sequence[int] = (),
) -> Pagina:
    """One page (``limite`` items after ``deslocamento``) of the deadlines and of the next
    actions, ordered and counted by the database (the order of
    :func:`multas.nucleo.ciclo.pendencias.ordem` and :func:`~multas.nucleo.ciclo.pendencias.ordem_das_acoes`).
    Only when every processo is indexed: the caller's to know. Under the mark of this day and
    legislation, with no client's scope, the items are read alone: every row is then of this
    day and legislation (:func:`marcar` refuses while another's is there, and indexing under
    another takes the mark away) and of a live processo (a write, the bin's too, deletes its
    processo's rows), so neither join would keep out a row. ``fora``: processos whose rows are
    left out (those the caller derives)."""
    f = FilaItem
    c = _condicoes(filtros)
    so_itens = escopo_sql.atual() is None and marca(sessao, referencia, lei) is not None
    deixados = f.processo_id.not_in(fora) if fora else true()

    def indexados(*colunas: Any) -> Any:
        if so_itens:  # under the mark every row is of this day and law, of a live processo
            return select(*colunas).select_from(FilaItem).where(deixados)
        return _indexados(referencia, lei, *colunas).where(deixados)

    def itens(
        condicao: Any, ordem: Sequence[Any], de: int, quantos: int, achados: int, andar: bool
    ) -> list[Any]:
        """``quantos`` rows after ``de`` of the ``achados`` that ``condicao`` keeps: by walking
        the index in ``ordem`` (``andar``: they are many, and the walk meets a page soon), else
        by sorting them (``ordem``'s first key is then not the index's)."""
        if quantos <= 0 or de >= achados:
            return []
        if not andar:
            ordem = [ordem[0] + 0, *ordem[1:]]
        consulta = _com_texto(indexados(f.tipo, FilaTexto.item)).where(c.do_cliente, condicao)
        consulta = consulta.order_by(*ordem, f.id).offset(de).limit(quantos)
        return [_item(tipo, texto) for tipo, texto in sessao.execute(consulta)]

    def quantos(condicao: Any) -> Any:
        return func.coalesce(func.sum(case((and_(c.do_cliente, condicao), 1), else_=0)), 0)

    oculto = and_(c.prazo, f.estado == "prescrito") if not filtros.prescritos else false()
    contagens = [
        quantos(f.tipo == ERRO),
        quantos(c.prazo_mostrado),
        quantos(c.acao),
        quantos(oculto),
    ]
    if filtros.cnpj_normalizado is None:  # every row is read anyway: each kind counted too
        contagem = indexados(*contagens, quantos(f.tipo == PRAZO), quantos(f.tipo == ACAO))
        erros, prazos_, acoes, ocultos, de_prazo, de_acao = (
            int(n) for n in sessao.execute(contagem).one()
        )
        andar_prazos, andar_acoes = prazos_ * _ANDAR >= de_prazo, acoes * _ANDAR >= de_acao
    else:  # one client's rows, found by their indexes: few enough to sort
        contagem = indexados(*contagens).where(c.do_cliente)
        erros, prazos_, acoes, ocultos = (int(n) for n in sessao.execute(contagem).one())
        andar_prazos = andar_acoes = False
    primeiro = itens(f.tipo == ERRO, [f.processo_id], deslocamento, limite, erros, True)
    depois = max(0, deslocamento - erros)
    ordem_prazos = [f.ordem, f.data, f.processo_id, f.nome]  # ix_fila_itens_prazos
    prazos = itens(
        c.prazo_mostrado, ordem_prazos, depois, limite - len(primeiro), prazos_, andar_prazos
    )
    ordem_acoes = [f.ordem, f.data, f.desde, f.processo_id]  # ix_fila_itens_acoes
    return Pagina(
        prazos=primeiro + prazos,
        acoes=itens(c.acao, ordem_acoes, deslocamento, limite, acoes, andar_acoes),
        total=erros + prazos_,
        total_acoes=acoes,
        prescritos_ocultos=ocultos,
    )
