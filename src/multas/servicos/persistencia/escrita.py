"""One write transaction of the one mechanism (:mod:`multas.servicos.persistencia.registros`):
:class:`Escrita` inserts, alters and deletes records (their texts checked first, a record that
does not match its history never changed) and, when the transaction ends, appends one audit row
per record touched, with its final state, to the chain."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Table, bindparam, delete, event, insert, select, update
from sqlalchemy.orm import Session

from multas.nucleo.ids import id_valido
from multas.servicos.persistencia import em_massa, escopo_sql
from multas.servicos.persistencia.integridade import (
    ADOTAR,
    ALTERAR,
    EXCLUIR,
    GENESE,
    INSERIR,
    OCULTAR,
    RESTAURAR,
    hash_registro,
)
from multas.servicos.persistencia.modelos import Base, CasoSalvo, RegistroAuditoria
from multas.servicos.persistencia.modelos_ciclo import ProcessoSalvo
from multas.servicos.persistencia.modelos_fila import apagar_indice
from multas.servicos.persistencia.registros import (
    LIMITE_TEXTO,
    RECURSOS,
    Linha,
    M,
    Recurso,
    RegistroAlterado,
    _id,
    _lotes,
    conferir,
    hashes_atuais,
    recurso_de,
    validar_texto,
    validar_textos,
    vivos,
)

#: rows per statement of a bulk insert or update (:meth:`Escrita.inserir_linhas`)
LOTE_ESCRITA = 1000


def _fatias(valores: Iterable[Mapping[str, Any]]) -> Iterator[list[Mapping[str, Any]]]:
    """The rows in slices of :data:`LOTE_ESCRITA`."""
    iterador = iter(valores)
    while lote := list(itertools.islice(iterador, LOTE_ESCRITA)):
        yield lote


@dataclass
class _Tocado:
    operacao: str
    acao: str
    detalhe: dict[str, Any] | None
    regime: str | None


class Escrita:
    """One write transaction (:meth:`multas.servicos.persistencia.Repositorio.escrita`): the chain's lock
    is held, ``momento`` was read inside it, and every record written through here gets its audit
    row, with its final state, when the transaction ends (:meth:`encerrar`)."""

    def __init__(self, sessao: Session, momento: datetime, usuario: str) -> None:
        self.sessao = sessao
        self.momento = momento
        self.usuario = usuario
        self._tocados: dict[tuple[str, int], _Tocado] = {}
        #: records checked against their history in this transaction (conferir_antes)
        self._conferidos: set[tuple[str, int]] = set()
        #: the chain's head as this transaction left it, and its rows not yet inserted
        self._cabeca: tuple[int, str] | None = None
        self._novos: list[dict[str, Any]] = []
        #: how many audit rows of each action this transaction appended (what the log says of
        #: a long hold of the lock)
        self.acoes: dict[str, int] = {}
        #: every record object the session flushed: each must have been written through here
        self._gravados: list[Base] = []
        event.listen(sessao, "before_flush", self._antes_de_gravar)

    def _antes_de_gravar(self, sessao: Session, _contexto: object, _instancias: object) -> None:
        for objeto in (*sessao.new, *sessao.dirty, *sessao.deleted):
            if isinstance(objeto, Base) and type(objeto).__tablename__ in RECURSOS:
                self._gravados.append(objeto)

    # the records -------------------------------------------------------------------------

    def inserir(
        self,
        linha: M,
        acao: str,
        detalhe: dict[str, Any] | None = None,
        regime: str | None = None,
    ) -> M:
        """Insert ``linha`` (its texts checked first); its id is known on return."""
        recurso = recurso_de(linha)
        validar_textos(recurso, linha)
        self.sessao.add(linha)
        self.sessao.flush()
        self._tocar(recurso, _id(linha), INSERIR, acao, detalhe, regime, linha)
        return linha

    def inserir_linhas(
        self,
        modelo: type[Base],
        valores: Iterable[Mapping[str, Any]],
        chave: Sequence[str],
        acao: str,
        detalhe: Callable[[Mapping[str, Any]], dict[str, Any] | None],
        regime: Callable[[Mapping[str, Any]], str | None] | None = None,
    ) -> list[int]:
        """Insert many rows of one table given as their columns' values, a slice at a time
        (its texts checked, then one statement), not one object each: a bulk import holds the
        lock, and memory, for as little as it can. ``chave``: columns whose values are unique
        among these rows (none: the ids come back in the rows' order,
        ``sort_by_parameter_order``); ``detalhe``: a row's audit detail; ``regime``: its
        audit row's regime. Returns their ids, in order. Each gets its own audit row."""
        recurso = recurso_de(modelo)
        tabela = recurso.colunas
        colunas = [tabela.c[c] for c in chave]
        ordem: list[int] = []
        for lote in _fatias(valores):
            for linha in lote:
                validar_textos(recurso, linha)
            escopo_sql.conferir_linhas(modelo, lote)
            if em_massa.em_postgresql(self.sessao):
                novos = em_massa.inserir(self.sessao, tabela, lote)
            elif chave:
                ids = {
                    tuple(valor): int(registro_id)
                    for registro_id, *valor in self.sessao.execute(
                        insert(tabela).returning(tabela.c.id, *colunas), lote
                    )
                }
                novos = [ids[tuple(linha[c] for c in chave)] for linha in lote]
            else:
                consulta = insert(tabela).returning(tabela.c.id, sort_by_parameter_order=True)
                novos = [int(i) for i in self.sessao.scalars(consulta, lote)]
            for linha, registro_id in zip(lote, novos, strict=True):
                quem = None if regime is None else regime(linha)
                self._tocar(recurso, registro_id, INSERIR, acao, detalhe(linha), quem, linha)
                ordem.append(registro_id)
        return ordem

    def alterar_linhas(
        self,
        modelo: type[Base],
        valores: Iterable[Mapping[str, Any]],
        acao: str,
        detalhe: Callable[[Mapping[str, Any]], dict[str, Any] | None],
    ) -> None:
        """Alter many rows of one table, each given as its ``id`` and the columns that change,
        a slice at a time (its texts checked, then one statement). Each record must have been
        checked against its history in this transaction (:meth:`conferir_antes`,
        :meth:`marcar_conferidos`): a change is never recorded on top of an edit made outside
        the system."""
        recurso = recurso_de(modelo)
        tabela = recurso.colunas
        for lote in _fatias(valores):
            for linha in lote:
                chave = (recurso.tabela, int(linha["id"]))
                if chave not in self._conferidos and chave not in self._tocados:
                    raise RuntimeError(f"{recurso.tabela} {linha['id']} alterado sem ser conferido")
                validar_textos(recurso, linha)
            self._conferir_escopo(recurso, lote)
            colunas = [c for c in lote[0] if c != "id"]
            self.sessao.execute(
                update(tabela)
                .where(tabela.c.id == bindparam("_id"))
                .values({c: bindparam(c) for c in colunas}),
                [{"_id": linha["id"], **{c: linha[c] for c in colunas}} for linha in lote],
            )
            for linha in lote:
                self._tocar(recurso, int(linha["id"]), ALTERAR, acao, detalhe(linha), None, linha)

    def excluir_linhas(
        self,
        modelo: type[Base],
        ids: Sequence[int],
        acao: str,
        detalhe: Callable[[Mapping[str, Any]], dict[str, Any] | None],
    ) -> int:
        """Erase many rows of one table without children or references (what an import in
        parts leaves behind: :mod:`multas.servicos.persistencia.cargas`), a slice at a time,
        each first checked against its history (:class:`RegistroAlterado`, and nothing is
        erased, for one that does not match). Returns how many were erased."""
        recurso = recurso_de(modelo)
        assert not recurso.filhos and not recurso.referencias
        tabela = recurso.colunas
        apagadas = 0
        for lote in _lotes(ids):
            linhas = self.sessao.execute(
                select(tabela).where(em_massa.entre(tabela.c.id, lote))
            ).mappings()
            problemas = conferir(self.sessao, recurso, linhas.all())
            if problemas:
                raise RegistroAlterado(next(iter(problemas.values())))
            for linha in self.sessao.execute(
                delete(tabela).where(em_massa.entre(tabela.c.id, lote)).returning(*tabela.columns)
            ).mappings():
                linha_ = dict(linha)
                self._tocar(
                    recurso, int(linha_["id"]), EXCLUIR, acao, detalhe(linha_), None, linha_
                )
                apagadas += 1
        return apagadas

    def _conferir_escopo(self, recurso: Recurso, lote: Sequence[Mapping[str, Any]]) -> None:
        """Under a client scope, each altered row as it will be stored (its columns now, with
        the changes) must be within it (:func:`escopo_sql.conferir_linhas`)."""
        if escopo_sql.atual() is None:
            return
        tabela = recurso.colunas
        atuais = {
            int(linha["id"]): dict(linha)
            for linha in self.sessao.execute(
                select(tabela).where(tabela.c.id.in_([int(v["id"]) for v in lote]))
            ).mappings()
        }
        escopo_sql.conferir_linhas(
            recurso.modelo, [{**atuais.get(int(v["id"]), {}), **v} for v in lote]
        )

    def marcar_conferidos(self, recurso: Recurso, ids: Iterable[int]) -> None:
        """These records were checked against their history by the caller, as they are now in
        this transaction (e.g. read here, identical to rows checked in a read just before, while
        their history cannot have moved: a row that matched it then matches it now)."""
        self._conferidos.update((recurso.tabela, int(i)) for i in ids)

    def alterar(
        self,
        linha: Base,
        acao: str,
        detalhe: dict[str, Any] | None = None,
        regime: str | None = None,
    ) -> None:
        """Write the changes made to ``linha`` (its texts checked first). The record as it is
        in the database must match its history (:meth:`conferir_antes`): a change is never
        recorded on top of a record altered outside the system, which would launder it."""
        recurso = recurso_de(linha)
        self.conferir_antes(recurso, _id(linha))
        validar_textos(recurso, linha)
        self.sessao.flush()
        self._tocar(recurso, _id(linha), ALTERAR, acao, detalhe, regime, linha)

    def travar(self, modelo: type[M], registro_id: int) -> M | None:
        """The row, read for changing or deleting it (``None``: there is none, or it is in the
        bin). The chain's lock, held since the
        transaction began, already serialises every writer; on PostgreSQL a record that may be
        altered is also locked itself (``SELECT ... FOR UPDATE``, which needs the UPDATE right
        that the application's role has only on those tables)."""
        if not id_valido(registro_id):
            return None
        consulta = (
            select(modelo)
            .where(modelo.id == registro_id)  # type: ignore[attr-defined]
            .where(vivos(modelo))  # one in the bin is not there to change
            .execution_options(populate_existing=True)
        )
        if self.sessao.get_bind().dialect.name == "postgresql" and recurso_de(modelo).mutavel:
            consulta = consulta.with_for_update()
        resultado: M | None = self.sessao.scalars(consulta).first()
        return resultado

    def excluir(
        self,
        modelo: type[Base],
        registro_id: int,
        acao: str,
        detalhe: dict[str, Any] | None = None,
        regime: str | None = None,
        definitivo: bool = False,
    ) -> dict[str, Any] | None:
        """Delete one record: the row as it was, or ``None`` when there is none (one statement
        finds and deletes it). A record of a table with a bin is moved to it (``excluido_em``
        set to this transaction's moment; one already there is not found); otherwise, or with
        ``definitivo`` (the purge), it is erased, its children first and the references to it
        cleared."""
        recurso = recurso_de(modelo)
        if not id_valido(registro_id):
            return None
        self.conferir_antes(recurso, registro_id)
        # the references to it are cleared (audited), also when it goes to the bin: a link to
        # a record no view shows would be a dangling one; restoring it does not relink
        self._soltar_referencias(recurso, registro_id, acao)
        if recurso.lixeira and not definitivo:
            return self._mover(recurso, registro_id, OCULTAR, acao, detalhe, regime)
        tabela = recurso.colunas
        for tabela_filha, coluna_pai, _ in recurso.filhos:
            filha = RECURSOS[tabela_filha].colunas
            ids = self.sessao.scalars(
                select(filha.c.id).where(filha.c[coluna_pai] == registro_id)
            ).all()
            for filho_id in ids:
                self.excluir(RECURSOS[tabela_filha].modelo, int(filho_id), acao)
        excluida = (
            self.sessao.execute(
                delete(tabela).where(tabela.c.id == registro_id).returning(*tabela.columns)
            )
            .mappings()
            .first()
        )
        if excluida is None:
            return None
        self._tocar(recurso, registro_id, EXCLUIR, acao, detalhe, regime, excluida)
        return dict(excluida)

    def _soltar_referencias(self, recurso: Recurso, registro_id: int, acao: str) -> None:
        for tabela_ref, coluna in recurso.referencias:
            ref = RECURSOS[tabela_ref]
            for ref_id in self.sessao.scalars(
                select(ref.colunas.c.id).where(ref.colunas.c[coluna] == registro_id)
            ).all():
                self.conferir_antes(ref, int(ref_id))
            alteradas = self.sessao.execute(
                update(ref.colunas)
                .where(ref.colunas.c[coluna] == registro_id)
                .values({coluna: None})
                .returning(ref.colunas.c.id)
            ).all()
            for (ref_id,) in alteradas:
                self._tocar(ref, int(ref_id), ALTERAR, acao, {coluna: None, "motivo": acao}, None)

    def restaurar(
        self, modelo: type[Base], registro_id: int, acao: str, detalhe: dict[str, Any] | None
    ) -> dict[str, Any] | None:
        """Bring a record back from the bin: the row as it was there, or ``None`` when the bin
        holds none with that id. A unique key another record took meanwhile makes the database
        refuse it (the caller names the conflict first)."""
        return self._mover(recurso_de(modelo), registro_id, RESTAURAR, acao, detalhe, None)

    def _mover(
        self,
        recurso: Recurso,
        registro_id: int,
        operacao: str,
        acao: str,
        detalhe: dict[str, Any] | None,
        regime: str | None,
    ) -> dict[str, Any] | None:
        self.conferir_antes(recurso, registro_id)
        tabela = recurso.colunas
        na_lixeira = tabela.c.excluido_em.is_not(None)
        movida = (
            self.sessao.execute(
                update(tabela)
                .where(tabela.c.id == registro_id)
                .where(na_lixeira if operacao == RESTAURAR else ~na_lixeira)
                .values(excluido_em=self.momento if operacao == OCULTAR else None)
                .returning(*tabela.columns)
            )
            .mappings()
            .first()
        )
        if movida is None:
            return None
        self._tocar(recurso, registro_id, operacao, acao, detalhe, regime, movida)
        return dict(movida)

    def conferir_antes(self, recurso: Recurso, registro_id: int) -> None:
        """Before a record is changed or deleted: as it is in the database (the pending
        changes of this session aside), it must match its history, children included; else
        :class:`RegistroAlterado`, and nothing is written. A record this transaction already
        wrote or checked is not read again."""
        chave = (recurso.tabela, registro_id)
        if chave in self._tocados or chave in self._conferidos:
            return
        with self.sessao.no_autoflush:
            linha = (
                self.sessao.execute(
                    select(recurso.colunas).where(recurso.colunas.c.id == registro_id)
                )
                .mappings()
                .first()
            )
            problema = (
                None if linha is None else conferir(self.sessao, recurso, [linha]).get(registro_id)
            )
        if problema is not None:
            raise RegistroAlterado(problema)
        self._conferidos.add(chave)

    def adotar(self, recurso: Recurso, linha: Linha) -> None:
        """A migration vouches for a record stored before the chain covered its table: one
        audit row, now, with its current state (``adotar``; only ever a record's first)."""
        registro_id = _id(linha)
        hash_ = hashes_atuais(self.sessao, recurso, [linha])[registro_id]
        self._acrescentar("adotar", None, None, recurso.tabela, registro_id, ADOTAR, hash_)
        self._gravar_auditoria()

    def regravar(
        self, recurso: Recurso, linha: Linha, acao: str, detalhe: dict[str, Any] | None = None
    ) -> None:
        """A migration changed how a record is stored, not what it says (a column renamed): one
        audit row (``alterar``, named ``acao``), now, with its new state. The migration calls
        it only for a record whose state before the change matched its history: vouching for
        one that did not would launder an edit made outside the system."""
        registro_id = _id(linha)
        hash_ = hashes_atuais(self.sessao, recurso, [linha])[registro_id]
        self._acrescentar(acao, detalhe, None, recurso.tabela, registro_id, ALTERAR, hash_)
        self._gravar_auditoria()

    def auditar(
        self,
        acao: str,
        detalhe: dict[str, Any] | None = None,
        regime: str | None = None,
    ) -> None:
        """An audit row about no one record (e.g. a refused login)."""
        self._acrescentar(acao, detalhe, regime, None, None, None, None)
        self._gravar_auditoria()

    def _tocar(
        self,
        recurso: Recurso,
        registro_id: int,
        operacao: str,
        acao: str,
        detalhe: dict[str, Any] | None,
        regime: str | None,
        linha: Linha | None = None,
    ) -> None:
        chave = (recurso.tabela, registro_id)
        anterior = self._tocados.get(chave)
        if anterior is None:
            self._tocados[chave] = _Tocado(operacao, acao, detalhe, regime)
        else:
            if operacao == EXCLUIR:
                # inserted and deleted in one transaction: nothing is left to record
                anterior.operacao = "nada" if anterior.operacao == INSERIR else EXCLUIR
            elif operacao in (OCULTAR, RESTAURAR) and anterior.operacao != INSERIR:
                # altered, then moved to (or from) the bin: one step, named by the move
                anterior.operacao, anterior.acao = operacao, acao
            # an insert then alterations stays one insert (of the final state)
            if detalhe is not None and anterior.detalhe is None:
                anterior.acao, anterior.detalhe = acao, detalhe
        if recurso.pai is not None and linha is not None:
            tabela_pai, coluna = recurso.pai
            valor = linha[coluna] if isinstance(linha, Mapping) else getattr(linha, coluna)
            if valor is not None and (tabela_pai, int(valor)) not in self._tocados:
                self._tocados[(tabela_pai, int(valor))] = _Tocado(ALTERAR, acao, None, regime)

    # the end: one audit row per record ------------------------------------------------------

    def encerrar(self) -> None:
        """Append the audit rows of every record touched, in the order they were first touched,
        each with its final state (read back table by table, a few queries however many
        records: an import of thousands of rows holds the lock for as little as it can)."""
        self.sessao.flush()
        event.remove(self.sessao, "before_flush", self._antes_de_gravar)
        for objeto in self._gravados:
            chave = (str(type(objeto).__tablename__), _id(objeto))
            if chave not in self._tocados:
                raise RuntimeError(
                    f"{chave[0]} {chave[1]} gravado fora de Escrita.inserir/alterar/excluir: "
                    "a auditoria não o registraria"
                )
        self._esquecer_da_fila()
        pendentes = [(chave, t) for chave, t in self._tocados.items() if t.operacao != "nada"]
        # a slice at a time: its records read back and hashed, its audit rows inserted, so
        # an import of 100,000 records never holds them all in memory at once
        for inicio in range(0, len(pendentes), LOTE_ESCRITA):
            fatia = pendentes[inicio : inicio + LOTE_ESCRITA]
            estados = self._estados(fatia)
            for chave, tocado in fatia:
                hash_ = estados.get(chave)
                if tocado.operacao != EXCLUIR and hash_ is None:
                    continue  # deleted after all (a parent deleted with its children)
                self._acrescentar(
                    tocado.acao,
                    tocado.detalhe,
                    tocado.regime,
                    chave[0],
                    chave[1],
                    tocado.operacao,
                    hash_,
                )
            self._gravar_auditoria()
        self._tocados.clear()

    def _esquecer_da_fila(self) -> None:
        """The work queue's index of every processo this transaction wrote (or whose events
        it wrote) is deleted with it: an index row never outlives the state it was derived
        from (:mod:`multas.servicos.persistencia.modelos_fila`)."""
        ids = [i for tabela, i in self._tocados if tabela == ProcessoSalvo.__tablename__]
        apagar_indice(self.sessao, ids)

    def _estados(
        self, pendentes: Sequence[tuple[tuple[str, int], _Tocado]]
    ) -> dict[tuple[str, int], str]:
        """The hash of the final state of each of these records that still exists (read
        back table by table: a few queries however many records)."""
        por_tabela: dict[str, list[int]] = {}
        for (tabela, registro_id), tocado in pendentes:
            if tocado.operacao != EXCLUIR:
                por_tabela.setdefault(tabela, []).append(registro_id)
        estados: dict[tuple[str, int], str] = {}
        for tabela, ids in por_tabela.items():
            recurso = RECURSOS[tabela]
            linhas = [
                linha
                for lote in _lotes(ids)
                for linha in self.sessao.execute(
                    select(recurso.colunas).where(em_massa.entre(recurso.colunas.c.id, lote))
                ).mappings()
            ]
            for registro_id, estado_ in hashes_atuais(self.sessao, recurso, linhas).items():
                estados[(tabela, registro_id)] = estado_
        return estados

    def _acrescentar(
        self,
        acao: str,
        detalhe: dict[str, Any] | None,
        regime: str | None,
        tabela: str | None,
        registro_id: int | None,
        operacao: str | None,
        hash_: str | None,
    ) -> None:
        """One more row of the chain (kept until :meth:`_gravar_auditoria`): the next
        position and the previous hash, known from the chain's head, read once under the
        lock."""
        if self._cabeca is None:
            a = RegistroAuditoria.__table__.c
            ultimo = self.sessao.execute(
                select(a.seq, a.hash).where(a.seq.is_not(None)).order_by(a.seq.desc()).limit(1)
            ).first()
            self._cabeca = (0, GENESE) if ultimo is None else (int(ultimo[0]), str(ultimo[1]))
        seq, anterior = self._cabeca[0] + 1, self._cabeca[1]
        texto = (
            None
            if detalhe is None
            else json.dumps(detalhe, ensure_ascii=False, default=str, sort_keys=True)
        )
        if texto is not None:
            validar_texto(texto, "detalhe", LIMITE_TEXTO)
        caso_id = registro_id if tabela == CasoSalvo.__tablename__ else None
        usuario = validar_texto(self.usuario, "usuario", 200)
        linha: dict[str, Any] = {
            "momento": self.momento,
            "usuario": usuario,
            "acao": acao,
            "caso_id": caso_id,
            "regime": regime,
            "detalhe": texto,
            "seq": seq,
            "hash_anterior": anterior,
            "tabela": tabela,
            "registro_id": registro_id,
            "operacao": operacao,
            "hash_estado": hash_,
        }
        novo = hash_registro(**linha)
        linha["hash"] = novo
        self.acoes[acao] = self.acoes.get(acao, 0) + 1
        self._novos.append(linha)
        self._cabeca = (seq, novo)

    def _gravar_auditoria(self) -> None:
        """Insert the rows of the chain kept so far, at once (:func:`em_massa.copiar`)."""
        if self._novos:
            tabela = RegistroAuditoria.__table__
            assert isinstance(tabela, Table)
            em_massa.copiar(self.sessao, tabela, self._novos)
            self._novos = []
