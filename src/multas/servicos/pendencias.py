"""The work queue and the calendar (``multas pendencias``, ``multas prazos proximos``, the
iCalendar export): the deadlines of every stored processo, filtered as
:mod:`multas.nucleo.ciclo.pendencias` says."""

from __future__ import annotations

import hashlib
import logging
import pickle
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import date
from functools import cache, partial
from pathlib import Path
from typing import Any, Self, TypeVar

from sqlalchemy.exc import SQLAlchemyError

from multas.nucleo.ciclo.pendencias import (
    Filtros,
    com_todos_os_campos,
    na_fila,
    ordem,
    ordem_das_acoes,
)
from multas.nucleo.ciclo.prazos import Prazo
from multas.nucleo.cnpj import ler_filtro
from multas.nucleo.cnpj import normalizar as normalizar_cnpj
from multas.nucleo.dinheiro import para_json
from multas.nucleo.eventos import rotulo_do_prazo
from multas.servicos.em_paralelo import em_lotes
from multas.servicos.persistencia import BancoOcupado, RegistroAlterado, escopo_sql, fila
from multas.servicos.persistencia.armazenados import ProcessoArmazenado
from multas.servicos.processos import CicloProcessos, ProcessoDerivado
from multas.servicos.relogio import hoje as hoje_em_brasilia

_log = logging.getLogger(__name__)
#: how long indexing waits for the writes before it (seconds): a reader is not kept waiting
#: for what only spares the next one work
_ESPERA = 1.0
#: ... and a page of the queue, for the few processos it derived: under a flood of writes the
#: lock is seldom free, and the page is not kept waiting for it (the next page derives them)
_ESPERA_DA_PAGINA = 0.05
#: how many processos are read, derived on every core and indexed at a time
_FATIA_PARALELA = 2000
#: how many processos' index rows one write holds the chain's lock for (as em_fatias reads)
_FATIA_DO_INDICE = 500
#: a page is read from the index, with the processos not indexed derived beside it, while
#: they are at most this many (those written since the last queue); more, and the whole queue
#: is derived and indexed (the day's first)
_DERIVADOS_NA_PAGINA = 500
#: ... and while the page ends within this many items: a deeper one (``deslocamento`` up to
#: 2^63 - 1) would read as many index items, so it is cut from the whole queue, as before
_FIM_DA_PAGINA_JUNTADA = 5000
T = TypeVar("T")


def _na_fila(item: dict[str, Any]) -> tuple[Any, ...]:
    """The order of :func:`_ordenar` over ``prazos`` with the unreadable ones in it: those
    first, by processo; then the deadlines by :func:`ordem`."""
    if item.get("erro") is not None:
        return (0, item["processo_id"])
    return (1, *ordem(item))


def _ordenar(fila_: fila.Frescos) -> None:
    """The queue's order: the unreadable by processo, the deadlines by :func:`ordem`, the
    actions by :func:`ordem_das_acoes`."""
    fila_.prazos.sort(key=ordem)
    fila_.acoes.sort(key=ordem_das_acoes)
    fila_.erros.sort(key=lambda item: item["processo_id"])


def _resposta(
    filtros: Filtros, prazos: list[dict[str, Any]], acoes: list[dict[str, Any]], ocultos: int
) -> dict[str, Any]:
    return {
        "data_referencia": filtros.referencia.isoformat(),
        "hoje": filtros.referencia.isoformat(),
        "dias": filtros.dias,
        "ate": filtros.ate.isoformat(),
        "filtros": filtros.como_dict(),
        "acoes": acoes,
        "prazos": prazos,
        "prescritos_ocultos": ocultos,
    }


#: what an index row edited outside the system raises when read (its JSON, its keys, its
#: values' types): the queue is then derived whole, as without an index
INDICE_ILEGIVEL = (ValueError, KeyError, TypeError, AttributeError)


def _ilegivel(erro: Exception) -> None:
    _log.warning(
        "fila: o índice não pôde ser lido (%s); a fila foi derivada inteira. "
        "'multas auditoria verificar' aponta o item alterado; 'multas reavaliar' o refaz",
        type(erro).__name__,
    )


@cache
def _codigo() -> str:
    """The hash of the program as installed (its code and its shipped data: the rules, the
    calendar, the Selic series), read once: another version may derive otherwise."""
    pacote = Path(__file__).resolve().parent.parent
    resumo = hashlib.sha256()
    for arquivo in sorted(pacote.rglob("*")):
        if arquivo.is_file() and "__pycache__" not in arquivo.parts:
            resumo.update(str(arquivo.relative_to(pacote)).encode() + b"\0")
            resumo.update(arquivo.read_bytes() + b"\0")
    return resumo.hexdigest()


def impressao(versao: str, selic: list[tuple[str, str]]) -> str:
    """The index's key of the law its items were derived under: the program (its code and
    shipped data, :func:`_codigo`), the legislation's version and the Selic months this
    database stored, as stored (a month changed outside the system changes it too)."""
    partes = [_codigo(), versao, *(f"{mes}={taxa}" for mes, taxa in selic)]
    return hashlib.sha256("\n".join(partes).encode()).hexdigest()


class CicloPendencias(CicloProcessos):
    """The deadlines across the stored processos: the work queue and the calendar."""

    def pendencias(
        self, filtros: Filtros, pagina: tuple[int, int] | None = None, processos: int = 1
    ) -> dict[str, Any]:
        """The work queue, judged on ``filtros.referencia``: every overdue deadline
        (``vencido``, whatever its date) and every pending one due from the reference date to
        ``filtros.ate``, across all stored processos, filtered (:mod:`multas.nucleo.ciclo.pendencias`
        says how). A processo that cannot be read comes first, with its ``erro``; then the
        overdue deadlines, the most days late first; then the others by date. Beside them,
        ``acoes``: the next action of each processo (spec § 6.1 v4). The one function
        behind ``multas pendencias``, ``multas prazos proximos``, ``GET /api/v1/pendencias``,
        ``GET /api/v1/prazos/proximos`` and the pages ``/pendencias`` and ``/prazos``.

        On today's date, with the database's own legislation, the processos already indexed
        are read from the index (:mod:`multas.servicos.persistencia.fila`) and only the others
        are derived, and indexed in turn.

        ``pagina`` (``limite``, ``deslocamento``): only that page of ``prazos`` and of
        ``acoes``, with ``total`` and ``total_acoes`` (each list's whole size); when every
        processo is indexed, the database orders, counts and cuts them.

        ``processos``: on the command line, the day's first queue derives and indexes the
        processos not indexed on every core first (:meth:`_indexar_em_paralelo`)."""
        lei = self._lei_do_indice(filtros.referencia)
        fila_: fila.Frescos | None = None
        if lei is not None:
            try:
                if processos > 1:
                    self._indexar_em_paralelo(filtros.referencia, lei, processos)
                if pagina is not None:
                    do_indice = self._pagina_do_indice(filtros, lei, *pagina)
                    if do_indice is not None:
                        return do_indice
                fila_ = self._pela_fila(filtros, lei)
            except INDICE_ILEGIVEL as erro:
                _ilegivel(erro)
        if fila_ is None:
            fila_ = fila.Frescos()
            for derivado in self.todos(filtros.referencia):
                self._acumular(derivado, filtros, fila_)
            _ordenar(fila_)
        prazos = fila_.erros + fila_.prazos
        if pagina is None:
            return _resposta(filtros, prazos, fila_.acoes, fila_.prescritos_ocultos)
        limite, deslocamento = pagina
        return _resposta(
            filtros,
            prazos[deslocamento : deslocamento + limite],
            fila_.acoes[deslocamento : deslocamento + limite],
            fila_.prescritos_ocultos,
        ) | {"total": len(prazos), "total_acoes": len(fila_.acoes)}

    def _lei_do_indice(self, referencia: date) -> str | None:
        """The index's key of the law in force (:func:`impressao`), when the index serves
        ``referencia``: today, with the database's own legislation; else ``None``."""
        if self._legislacao is not None or referencia != hoje_em_brasilia():
            return None
        with self.repositorio.leitura() as sessao:
            selic = fila.selic_guardada(sessao)
        return impressao(self.legislacao.versao, selic)

    def _pagina_do_indice(
        self, filtros: Filtros, lei: str, limite: int, deslocamento: int
    ) -> dict[str, Any] | None:
        """A page of the queue from the index, when at most :data:`_DERIVADOS_NA_PAGINA`
        processos are not indexed and, if any, the page ends within
        :data:`_FIM_DA_PAGINA_JUNTADA` items (``None`` otherwise: the caller derives the others,
        and indexes them, once). Those few (written since they were indexed) are derived and
        indexed, and their items merged with the index's first ``deslocamento + limite``: the
        index's items leave theirs out, so the page is the whole queue's slice, in its order,
        without reading the whole index."""
        referencia = filtros.referencia
        # one snapshot: the processos not indexed, then the page (a processo written in
        # between would be in neither)
        with self.repositorio.leitura() as sessao:
            velhos = fila.desatualizados(sessao, referencia, lei, _DERIVADOS_NA_PAGINA + 1)
            fundo = deslocamento + limite > _FIM_DA_PAGINA_JUNTADA
            if len(velhos) > _DERIVADOS_NA_PAGINA or (velhos and fundo):
                return None
            seq = fila.ultima_seq(sessao)
            p = fila.pagina(
                sessao,
                referencia,
                lei,
                filtros,
                deslocamento + limite if velhos else limite,
                0 if velhos else deslocamento,
                fora=velhos,
            )
        prazos = [com_todos_os_campos(i) for i in p.prazos]  # an erro's, stored short
        if not velhos:
            return _resposta(filtros, prazos, p.acoes, p.prescritos_ocultos) | {
                "total": p.total,
                "total_acoes": p.total_acoes,
            }
        frescos = fila.Frescos()
        # indexed too (and the mark moved on), if the lock is free at once
        for derivado in self._em_fatias(velhos, referencia, lei, seq, _ESPERA_DA_PAGINA):
            self._acumular(derivado, filtros, frescos)
        prazos = sorted([*prazos, *frescos.erros, *frescos.prazos], key=_na_fila)
        acoes = sorted([*p.acoes, *frescos.acoes], key=ordem_das_acoes)
        fim = deslocamento + limite
        ocultos = p.prescritos_ocultos + frescos.prescritos_ocultos
        return _resposta(filtros, prazos[deslocamento:fim], acoes[deslocamento:fim], ocultos) | {
            "total": p.total + len(frescos.erros) + len(frescos.prazos),
            "total_acoes": p.total_acoes + len(frescos.acoes),
        }

    def _pela_fila(self, filtros: Filtros, lei: str) -> fila.Frescos:
        """The queue from the index: on one snapshot, the processos not indexed and the
        items of the others; then the former derived and indexed."""
        referencia = filtros.referencia
        with self.repositorio.leitura() as sessao:
            seq = fila.ultima_seq(sessao)
            marcado = fila.marca(sessao, referencia, lei) is not None
            velhos = fila.desatualizados(sessao, referencia, lei)
            fila_ = fila.ler(sessao, referencia, lei, filtros)
        fila_.erros = [com_todos_os_campos(erro) for erro in fila_.erros]
        # the mark moved on when there is something to move it past (else no write at all)
        seq_ = seq if velhos or not marcado else None
        for derivado in self._em_fatias(velhos, referencia, lei, seq_):
            self._acumular(derivado, filtros, fila_)
        _ordenar(fila_)
        return fila_

    def listar_no_estado(
        self,
        estado: str,
        pagina: tuple[int, int],
        tipo: str | None = None,
        cnpj: str | None = None,
    ) -> tuple[list[ProcessoDerivado], int]:
        """One page (``limite``, ``deslocamento``) of the stored processos in ``estado`` today,
        and those that cannot be read (no estado filter hides them), of ``tipo`` and ``cnpj``
        when given, newest first, as :meth:`listar`; and how many they are in all (issue 37,
        item 13). Read from the queue's index: the processos not indexed today are derived
        (and indexed) first, as the queue does; then the database selects, counts and cuts
        the page, and only its processos are derived. Without the index (another day or
        legislation), every processo of the other filters is derived."""
        referencia = hoje_em_brasilia()
        lei = self._lei_do_indice(referencia)
        if lei is None:
            return self._no_estado_derivando(estado, pagina, tipo, cnpj, referencia)
        filtrar = partial(self.repo.filtros_da_lista, tipo=tipo, cnpj=cnpj)
        derivados: dict[int, ProcessoDerivado] = {}
        todos_indexados = False
        # until a snapshot finds no stale processo but those derived (a few tries: one
        # written after the last is left out of this page, as one written since the queue's)
        for _tentativa in range(3):
            with self.repositorio.leitura() as sessao:
                seq = fila.ultima_seq(sessao)
                velhos = fila.desatualizados(sessao, referencia, lei, _DERIVADOS_NA_PAGINA + 1)
                novos = [i for i in velhos if i not in derivados]
                casados = [i for i, d in derivados.items() if estado_do_indice(d) in (estado, None)]
                ids, total = fila.processos_no_estado(
                    sessao, referencia, lei, estado, filtrar, pagina, list(derivados), casados
                )
            if not novos:
                break
            if len(velhos) > _DERIVADOS_NA_PAGINA:
                if todos_indexados:  # the database refused the index: derived whole
                    return self._no_estado_derivando(estado, pagina, tipo, cnpj, referencia)
                # the day's first: every stale processo derived and indexed, as the queue's
                self._indexar_velhos(referencia, lei)
                todos_indexados = True
                continue
            espera = _ESPERA_DA_PAGINA  # indexed too, if the lock is free at once
            for derivado in self._em_fatias(novos, referencia, lei, seq, espera):
                derivados[derivado.armazenado.id] = derivado
        return self._os_da_pagina(ids, derivados, referencia), total

    def _no_estado_derivando(
        self, estado: str, pagina: tuple[int, int], tipo: str | None, cnpj: str | None, hoje: date
    ) -> tuple[list[ProcessoDerivado], int]:
        """:meth:`listar_no_estado` without the index: every processo of the other filters
        derived."""
        todos = self.listar(None, 0, tipo, cnpj, hoje)
        casam = [d for d in todos if estado_do_indice(d) in (estado, None)]
        limite, deslocamento = pagina
        return casam[deslocamento : deslocamento + limite], len(casam)

    def _indexar_velhos(self, referencia: date, lei: str) -> None:
        """Every processo not indexed on ``referencia`` derived and indexed (the mark moved
        on), as the day's first queue does."""
        with self.repositorio.leitura() as sessao:
            seq = fila.ultima_seq(sessao)
            velhos = fila.desatualizados(sessao, referencia, lei)
        for _ in self._reduzidos(velhos, referencia, lei, seq, _nada, 1):
            pass

    def _os_da_pagina(
        self, ids: list[int], derivados: dict[int, ProcessoDerivado], referencia: date
    ) -> list[ProcessoDerivado]:
        """These processos derived on ``referencia`` (those in ``derivados`` already are), in
        the order of ``ids``; one gone meanwhile (to the bin) is left out."""
        ciclo = self.de_uma_vez()
        faltam = [i for i in ids if i not in derivados]
        for armazenados, _ in self.repo.em_fatias(faltam):
            for armazenado in armazenados:
                derivados[armazenado.id] = ciclo.derivar_ou_erro(armazenado, referencia=referencia)
        return [derivados[i] for i in ids if i in derivados]

    def derivados(self, referencia: date) -> Iterator[ProcessoDerivado]:
        """Every stored processo derived on ``referencia`` (``multas reavaliar``), a slice at
        a time, never all in memory; indexed for the work queue when ``referencia`` is today
        and the legislation is the database's own (and then, first, the index rows of
        processos that are not live, written outside the system, are deleted)."""
        lei, seq, ids = self._todos_a_indexar(referencia)
        return self._em_fatias(ids, referencia, lei, seq)

    def _todos_a_indexar(self, referencia: date) -> tuple[str | None, int, list[int]]:
        """For a pass over every processo: the index's key of the law (``None``: nothing is
        indexed), the audit's position and every live processo's id, in one snapshot; the
        orphan index rows deleted first."""
        lei = self._lei_do_indice(referencia)
        if lei is not None and escopo_sql.atual() is None:
            with self.repositorio.escrita() as escrita:  # rows written outside the system
                fila.apagar_orfaos(escrita)
        with self.repositorio.leitura() as sessao:
            seq = fila.ultima_seq(sessao)
            ids = fila.vivos_em_ordem(sessao)
        return lei, seq, ids

    def reduzidos(
        self, referencia: date, reduzir: Callable[[ProcessoDerivado], T], processos: int = 1
    ) -> Iterator[T]:
        """:meth:`derivados`, each processo reduced to ``reduzir`` of it, in ``processos``
        forked workers (the command line's cores; issue 36, item 4): each derives its
        processos and builds their index rows, and only those and the reductions come back
        (a derived processo is heavy to send). The workers read no database: the legislation
        and its Selic are read here first (:meth:`_com_a_selic_lida`). The index is written
        here, a slice at a time, as :meth:`derivados` writes it; the reductions come in the
        processos' order."""
        lei, seq, ids = self._todos_a_indexar(referencia)
        return self._reduzidos(ids, referencia, lei, seq, reduzir, processos)

    def _reduzidos(
        self,
        ids: list[int],
        referencia: date,
        lei: str | None,
        seq: int | None,
        reduzir: Callable[[ProcessoDerivado], T],
        processos: int,
        espera: float = _ESPERA,
    ) -> Iterator[T]:
        """:meth:`reduzidos` of these processos (``seq`` and ``espera``: as :meth:`_em_fatias`
        says)."""
        fixo = self._com_a_selic_lida() if processos > 1 and len(ids) >= 2 * processos else None
        for feitos, versoes in self._reduzir_fatias(ids, referencia, lei, reduzir, fixo, processos):
            # written as one core writes them (500 a transaction): the chain's lock is held
            # no longer on every core
            for inicio in range(0, len(feitos), _FATIA_DO_INDICE):
                parte = {i: indice for i, indice, _ in feitos[inicio : inicio + _FATIA_DO_INDICE]}
                if lei is not None and not self._gravar_indice(
                    {i: indice.linhas for i, indice in parte.items() if indice is not None},
                    referencia,
                    lei,
                    versoes,
                    espera,
                    {i: indice.estado for i, indice in parte.items() if indice is not None},
                ):
                    lei = None
            yield from (reducao for _, _, reducao in feitos)
        if lei is not None and seq is not None and escopo_sql.atual() is None:
            self._marcar(referencia, lei, seq, espera)

    def _indexar_em_paralelo(self, referencia: date, lei: str, processos: int) -> None:
        """The day's first queue on the command line: the processos not indexed, when they
        are many, derived and indexed on every core first (:meth:`_reduzidos`); the queue is
        then read from the index. Any left over (the database busy, a processo written
        meanwhile) the queue derives as usual."""
        with self.repositorio.leitura() as sessao:
            seq = fila.ultima_seq(sessao)
            velhos = fila.desatualizados(sessao, referencia, lei)
        if len(velhos) < _FATIA_PARALELA:
            return  # few: the queue derives them here, as fast
        # some to index: the mark moves on, as in _pela_fila
        for _ in self._reduzidos(velhos, referencia, lei, seq, _nada, processos):
            pass

    def _reduzir_fatias(
        self,
        ids: list[int],
        referencia: date,
        lei: str | None,
        reduzir: Callable[[ProcessoDerivado], T],
        fixo: Self | None,
        processos: int,
    ) -> Iterator[tuple[list[tuple[int, Indice | None, T]], dict[int, int]]]:
        """:func:`_reduzir` of these processos, a slice at a time, with each slice's versions:
        here (``fixo`` is ``None``), or in ``processos`` workers deriving one slice while the
        next is read and the one before indexed (:func:`em_lotes`)."""
        indexar = lei is not None
        if fixo is None:
            for armazenados, versoes in self.repo.em_fatias(ids):
                ciclo = self.de_uma_vez()
                yield (
                    [_reduzir(ciclo, referencia, indexar, reduzir, a) for a in armazenados],
                    versoes,
                )
            return
        fazer = partial(_reduzir_em_bytes, fixo, referencia, indexar, reduzir)
        fatias = self.repo.em_fatias(ids, _FATIA_PARALELA)
        for feitos, versoes in em_lotes(fazer, fatias, processos):
            yield [pickle.loads(b) for b in feitos], versoes

    def _com_a_selic_lida(self) -> Self | None:
        """This cycle with its legislation and Selic read now, so that a forked worker derives
        without the database; ``None`` when the Selic cannot be read (a month edited outside
        the system: the chain's check names it), and then the processos are derived here."""
        legislacao = self.legislacao
        try:
            legislacao.selic  # noqa: B018 - read now, inherited by the workers
        except RegistroAlterado:
            return None
        return type(self)(self.repositorio, legislacao)

    def _em_fatias(
        self,
        ids: list[int],
        referencia: date,
        lei: str | None,
        seq: int | None = None,
        espera: float = _ESPERA,
    ) -> Iterator[ProcessoDerivado]:
        """These processos derived on ``referencia``, a slice at a time; indexed under
        ``lei``, when given, until the database refuses a slice (busy: the rest is left for
        the next queue, not waited for slice by slice). ``seq``: the audit's position in the
        snapshot where ``ids`` were found to be every processo not indexed; once each is
        indexed (in no client's scope), the index's mark says so (:func:`fila.marcar`).
        ``espera``: how long each write waits for the chain's lock (seconds)."""
        return self._reduzidos(ids, referencia, lei, seq, _o_proprio, 1, espera)

    def _marcar(self, referencia: date, lei: str, seq: int, espera: float = _ESPERA) -> None:
        """:func:`fila.marcar`, when the database takes it at once (else the next queue looks
        among every processo again, as without a mark)."""
        try:
            with self.repositorio.escrita(espera=espera) as escrita:
                fila.marcar(escrita, referencia, lei, seq)
        except (BancoOcupado, SQLAlchemyError) as erro:
            _log.warning("fila: a marca do índice não foi gravada (%s)", type(erro).__name__)

    def _acumular(self, derivado: ProcessoDerivado, filtros: Filtros, fila_: fila.Frescos) -> None:
        """One derived processo's items that ``filtros`` keep."""
        referencia, cnpj = filtros.referencia, filtros.cnpj_normalizado
        armazenado = derivado.armazenado
        # a record that does not match its history: its CNPJ is not trusted, so no filter
        # hides it
        confiavel = armazenado.erro is None
        if cnpj is not None and confiavel and normalizar_cnpj(armazenado.cnpj or "") != cnpj:
            return
        if derivado.erro is not None:
            fila_.erros.append(com_todos_os_campos(self._item_erro(derivado)))
            return
        situacao = derivado.valido
        if filtros.estado is not None and situacao.estado != filtros.estado:
            return
        acao = situacao.proxima_acao
        oculto = situacao.estado == "prescrito" and not filtros.prescritos
        if acao is not None and not oculto and filtros.responsavel in (None, acao.quem):
            fila_.acoes.append(self._item_acao(derivado, referencia))
        for prazo in situacao.prazos:
            if not na_fila(prazo, filtros):
                continue
            if oculto:
                fila_.prescritos_ocultos += 1
                continue
            fila_.prazos.append(self._item_prazo(derivado, prazo, referencia))

    def _gravar_indice(
        self,
        itens: dict[int, list[dict[str, Any]]],
        referencia: date,
        lei: str,
        versoes: dict[int, int],
        espera: float = _ESPERA,
        estados: dict[int, str | None] | None = None,
    ) -> bool:
        """Index these processos' rows on ``referencia``, with their estados (``estados``):
        each, unless it was written meanwhile (``versoes``), the chain's lock waited for at
        most ``espera`` seconds. The index only spares work: when the database is busy (or refuses the
        rows), nothing is indexed (``False``), and the next queue derives them again."""
        try:
            with self.repositorio.escrita(espera=espera) as escrita:
                fila.gravar(escrita, referencia, lei, itens, versoes, estados=estados)
        except (BancoOcupado, SQLAlchemyError) as erro:
            _log.warning(
                "fila: %d processos ficam sem índice (%s)", len(itens), type(erro).__name__
            )
            return False
        return True

    def _linhas_do_indice(self, derivado: ProcessoDerivado, hoje: date) -> list[dict[str, Any]]:
        """The index rows of one derived processo: all its items, whatever the filters
        (:mod:`multas.servicos.persistencia.modelos_fila`)."""
        armazenado = derivado.armazenado
        confiavel = armazenado.erro is None
        cnpj = normalizar_cnpj(armazenado.cnpj or "") if confiavel else None
        comum = {"cnpj": cnpj, "confiavel": confiavel, "situacao": None, "pendente": False}
        comum |= {"nome": None, "desde": None}
        if derivado.erro is not None:
            item = self._item_erro(derivado)
            return [
                comum
                | {"tipo": fila.ERRO, "estado": None, "responsavel": None, "data": None}
                | {"item": item}
            ]
        situacao = derivado.valido
        linhas = [
            comum
            | {
                "tipo": fila.PRAZO,
                "estado": situacao.estado,
                "responsavel": prazo.responsavel,
                "data": prazo.data,
                "situacao": prazo.situacao,
                "pendente": prazo.pendente,
                "nome": prazo.nome,
                "item": self._item_prazo(derivado, prazo, hoje),
            }
            for prazo in situacao.prazos
        ]
        acao = situacao.proxima_acao
        if acao is not None:
            linhas.append(
                comum
                | {
                    "tipo": fila.ACAO,
                    "estado": situacao.estado,
                    "responsavel": acao.quem,
                    "data": acao.ate,
                    "desde": acao.desde,
                    "item": self._item_acao(derivado, hoje),
                }
            )
        return linhas

    def _item_acao(self, derivado: ProcessoDerivado, hoje: date) -> dict[str, Any]:
        """One line of the next actions (spec § 6.1 v4): the processo and its
        ``proxima_acao``, with the days past its ``ate``."""
        armazenado = derivado.armazenado
        acao = derivado.valido.proxima_acao
        assert acao is not None
        return {
            "processo_id": armazenado.id,
            "tipo": armazenado.tipo,
            "id": armazenado.identificador,
            "cnpj": armazenado.cnpj,
            "nome": armazenado.nome,
            "estado": derivado.valido.estado,
            **acao.como_dict(),
            "dias_de_atraso": acao.dias_de_atraso(hoje),
            "saldo": _saldo(derivado),
        }

    def proximos(
        self,
        hoje: date,
        dias: int,
        incluir_encerrados: bool = False,
        incluir_vencidos: bool = True,
    ) -> list[dict[str, Any]]:
        """The items of :meth:`pendencias` with no filter but these (its former name)."""
        filtros = Filtros(hoje, dias, vencidos=incluir_vencidos, todos=incluir_encerrados)
        itens: list[dict[str, Any]] = self.pendencias(filtros)["prazos"]
        return itens

    def _item_prazo(self, derivado: ProcessoDerivado, prazo: Prazo, hoje: date) -> dict[str, Any]:
        armazenado = derivado.armazenado
        vencido = prazo.situacao == "vencido"
        return com_todos_os_campos(
            {
                "processo_id": armazenado.id,
                "tipo": armazenado.tipo,
                "id": armazenado.identificador,
                "cnpj": armazenado.cnpj,
                "nome": armazenado.nome,
                "estado": derivado.valido.estado,
                "prazo": prazo.nome,
                "rotulo": rotulo_do_prazo(prazo.nome),
                "responsavel": prazo.responsavel,
                "data": prazo.data.isoformat(),
                "fundamento": prazo.fundamento,
                "contagem": prazo.contagem,
                "situacao": prazo.situacao,
                "encerrado": not prazo.pendente,
                "dias_de_atraso": (hoje - prazo.data).days if vencido else 0,
                "dias_restantes": 0 if vencido else max(0, (prazo.data - hoje).days),
                "saldo": _saldo(derivado),
            }
        )

    def todos_os_prazos(
        self, hoje: date | None = None, cnpj: str | None = None, processo_id: int | None = None
    ) -> list[dict[str, Any]]:
        """Every deadline of the stored processos (for the iCalendar export), judged on
        ``hoje``: all of them, one client's (``cnpj``, compared in its normal form, as the work
        queue does: a processo that does not match its history is never hidden by it), or one
        processo's (``processo_id``). A processo that cannot be read comes first, with its
        ``erro``. Today, the indexed processos' come from the queue's index."""
        referencia = hoje or hoje_em_brasilia()
        normal = ler_filtro(cnpj, "cnpj")
        if processo_id is not None:
            return self._prazos_de([self.obter(processo_id, referencia)], referencia, normal)
        lei = self._lei_do_indice(referencia)
        if lei is not None:
            try:
                with self.repositorio.leitura() as sessao:
                    velhos = fila.desatualizados(sessao, referencia, lei)
                    frescos = fila.todos_os_prazos(sessao, referencia, lei, normal)
                derivados = self._em_fatias(velhos, referencia, lei)
                return self._prazos_de(derivados, referencia, normal, frescos)
            except INDICE_ILEGIVEL as erro:
                _ilegivel(erro)
        return self._prazos_de(self.todos(referencia), referencia, normal)

    def _prazos_de(
        self,
        derivados: Iterable[ProcessoDerivado],
        referencia: date,
        normal: str | None,
        lidos: fila.Frescos | None = None,
    ) -> list[dict[str, Any]]:
        """The calendar's items of these processos (of a client's, ``normal``), after those
        read from the index (``lidos``), in order."""
        erros = [] if lidos is None else list(lidos.erros)
        itens = [] if lidos is None else list(lidos.prazos)
        for derivado in derivados:
            armazenado = derivado.armazenado
            if (
                normal is not None
                and armazenado.erro is None
                and normalizar_cnpj(armazenado.cnpj or "") != normal
            ):
                continue
            if derivado.erro is not None:
                erros.append(self._item_erro(derivado))
                continue
            for prazo in derivado.valido.prazos:
                itens.append(self._item_prazo(derivado, prazo, referencia))
        itens.sort(key=lambda i: (i["data"], i["processo_id"], i["prazo"]))
        erros.sort(key=lambda item: item["processo_id"])
        return erros + itens


def _nada(_: ProcessoDerivado) -> None:
    """A reduction to nothing: what is kept is the index."""


def _o_proprio(derivado: ProcessoDerivado) -> ProcessoDerivado:
    """The reduction that keeps the whole derived processo (:meth:`CicloPendencias._em_fatias`)."""
    return derivado


@dataclass(frozen=True, slots=True)
class Indice:
    """What the queue's index holds of one derived processo: its estado (``None``: it cannot
    be read) and its rows (:meth:`CicloPendencias._linhas_do_indice`)."""

    estado: str | None
    linhas: list[dict[str, Any]]


def estado_do_indice(derivado: ProcessoDerivado) -> str | None:
    """A derived processo's estado as the index keeps it: ``None`` when it cannot be read."""
    return None if derivado.erro is not None else derivado.valido.estado


def _reduzir(
    ciclo: CicloPendencias,
    referencia: date,
    indexar: bool,
    reduzir: Callable[[ProcessoDerivado], T],
    armazenado: ProcessoArmazenado,
) -> tuple[int, Indice | None, T]:
    """One processo of :meth:`CicloPendencias.reduzidos`: its id, its index (when indexing)
    and its reduction."""
    derivado = ciclo.derivar_ou_erro(armazenado, referencia=referencia)
    indice = None
    if indexar:
        linhas = ciclo._linhas_do_indice(derivado, referencia)
        indice = Indice(estado_do_indice(derivado), linhas)
    return armazenado.id, indice, reduzir(derivado)


def _reduzir_em_bytes(
    ciclo: CicloPendencias,
    referencia: date,
    indexar: bool,
    reduzir: Callable[[ProcessoDerivado], Any],
    armazenado: ProcessoArmazenado,
) -> bytes:
    """:func:`_reduzir` in a worker: its result, pickled (what :func:`em_paralelo` carries)."""
    return pickle.dumps(_reduzir(ciclo, referencia, indexar, reduzir, armazenado))


def _saldo(derivado: ProcessoDerivado) -> str | None:
    """Spec § 6.2 v4: the balance the processo owes on the queue's date, as JSON money, or
    ``None`` when it has no ``devido`` (no fine fixed, no definitive decision)."""
    devido = derivado.valido.devido
    return None if devido is None else para_json(devido.saldo)
