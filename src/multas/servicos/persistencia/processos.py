"""Stored processos, with their events in order, and the links between an anp processo and
its list processo: :class:`RepositorioProcessos`, part of
:class:`~multas.servicos.persistencia.ciclo.RepositorioCiclo` (see :mod:`its module
<multas.servicos.persistencia.ciclo>` for the rules every change and read follows)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from datetime import date
from typing import Any, TypeVar

from sqlalchemy import func, select
from sqlalchemy.orm import Session, selectinload

from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.ids import id_valido
from multas.servicos.persistencia import cnpj_sql, em_massa, escopo_sql, fila, previas
from multas.servicos.persistencia.armazenados import (
    NovoProcesso,
    ProcessoArmazenado,
    _json,
    _processo,
    chave_da_origem,
    texto_da_origem,
    texto_das_leituras,
)
from multas.servicos.persistencia.escrita import Escrita
from multas.servicos.persistencia.modelos_ciclo import EventoSalvo, ProcessoSalvo
from multas.servicos.persistencia.processos_em_lote import (
    chaves_tomadas,
    criar_em_lote,
    detalhe_do_evento,
    referencias_livres,
)
from multas.servicos.persistencia.referencias import (
    LIMITE_ID,
    _gravados,
    chave_da_referencia,
    recusar_referencia_em_uso,
    referencia_em_uso,
)
from multas.servicos.persistencia.registros import (
    RECURSOS,
    RegistroAlterado,
    conferir,
    exigir_conferido,
    validar_texto,
    vivos,
)
from multas.servicos.persistencia.repositorio import USUARIO_PADRAO, Repositorio

T = TypeVar("T")

#: the audit action of what a file import writes (:meth:`RepositorioCiclo.importar_processos`)
ACAO_IMPORTAR = "processo_importar"
#: what a file import writes: the processos to create (:class:`NovoProcesso`), by stored
#: processo id the events to append, and
#: the links to make: an anp processo's key → (its list processo's key, what the caller
#: passes back to its check of the link, such as the row that asks for it)
Importacao = tuple[
    Sequence["NovoProcesso"],
    Mapping[int, Sequence[tuple[str, date, str | None]]],
    Mapping[str, tuple[str, Any]],
]


def _mensagens(problemas: dict[int, Any]) -> dict[int, str]:
    return {i: p.mensagem for i, p in problemas.items()}


class RepositorioProcessos:
    """The processos of :class:`~multas.servicos.persistencia.ciclo.RepositorioCiclo`."""

    repositorio: Repositorio

    def criar_processo(
        self, novo: NovoProcesso, usuario: str = USUARIO_PADRAO
    ) -> ProcessoArmazenado:
        """Store a processo already read and validated by the caller."""
        with self.repositorio.escrita(usuario) as escrita:
            return self._criar_processo_em(escrita, novo)

    def _criar_processo_em(
        self, escrita: Escrita, novo: NovoProcesso, acao: str = "processo_criar"
    ) -> ProcessoArmazenado:
        """:meth:`criar_processo` inside a transaction already open (``acao``: the audit's)."""
        tipo, identificador, eventos = novo.tipo, novo.identificador, novo.eventos
        if isinstance(identificador, str):  # stored as JSON: the text itself is checked here
            validar_texto(identificador, "id", LIMITE_ID)
        campo = "referencia" if acao == ACAO_IMPORTAR else "id"
        recusar_referencia_em_uso(escrita.sessao, identificador, campo)
        linha = escrita.inserir(
            ProcessoSalvo(
                tipo=tipo,
                identificador=None if identificador is None else json.dumps(identificador),
                cnpj=novo.cnpj,
                nome=novo.nome,
                calendario=novo.calendario,
                valor_multa=novo.valor_multa,
                dias_sem_expediente=novo.dias_sem_expediente,
                caso_id=novo.caso_id,
                origem=None if novo.origem is None else texto_da_origem(novo.origem),
                leituras=None if not novo.leituras else texto_das_leituras(novo.leituras),
                usuario=escrita.usuario,
                criado_em=escrita.momento,
                atualizado_em=escrita.momento,
            ),
            acao,
            {"tipo": tipo, "eventos": len(eventos)},
            regime=tipo,
        )
        valores = novo.valores or (None,) * len(eventos)
        planos = novo.planos or (None,) * len(eventos)
        for posicao, ((nome_evento, data), valor, plano) in enumerate(
            zip(eventos, valores, planos, strict=True)
        ):
            self._novo_evento(escrita, linha, posicao, nome_evento, data, acao, valor, plano)
        return self._recarregado(escrita.sessao, linha)

    @staticmethod
    def _novo_evento(
        escrita: Escrita,
        linha: ProcessoSalvo,
        posicao: int,
        evento: str,
        data: date,
        acao: str,
        valor: str | None = None,
        plano: str | None = None,
        documentos: str | None = None,
    ) -> None:
        detalhe = detalhe_do_evento(
            {
                "evento": evento,
                "data": data,
                "valor": valor,
                "plano": plano,
                "documentos": documentos,
            }
        )
        escrita.inserir(
            EventoSalvo(
                processo_id=linha.id,
                posicao=posicao,
                evento=evento,
                data=data,
                valor=valor,
                plano=plano,
                documentos=documentos,
                usuario=escrita.usuario,
                criado_em=escrita.momento,
            ),
            acao,
            detalhe,
        )

    @staticmethod
    def _recarregado(sessao: Session, linha: ProcessoSalvo) -> ProcessoArmazenado:
        sessao.flush()
        sessao.expire(linha, ["eventos"])  # read again on use: one query, as stored
        return _processo(linha)

    @staticmethod
    def _origens_em_uso(
        sessao: Session, procuradas: Iterable[tuple[str, str, int, str] | None]
    ) -> dict[tuple[str, str, int, str], ProcessoArmazenado]:
        """Of these ``origem`` keys (:func:`chave_da_origem`), those a processo outside the bin
        already has, whoever's client it is (a fine is opened once for every reader), each
        with that processo."""
        chaves = {c for c in procuradas if c is not None}
        if not chaves:
            return {}
        with escopo_sql.limitado(None):
            linhas = sessao.scalars(
                select(ProcessoSalvo)
                .where(ProcessoSalvo.origem.is_not(None), vivos(ProcessoSalvo))
                .options(selectinload(ProcessoSalvo.eventos))
            )
            return {
                c: _processo(linha)
                for linha in linhas
                if (c := chave_da_origem(linha.tipo, _json(linha.origem))) in chaves
            }

    def _consulta(self) -> Any:
        # a processo in the bin is in no view (issue 20, item 4)
        return (
            select(ProcessoSalvo)
            .where(vivos(ProcessoSalvo))
            .options(selectinload(ProcessoSalvo.eventos))
        )

    def obter_processo(self, processo_id: int) -> ProcessoArmazenado | None:
        """The stored processo (``RegistroAlterado`` when it does not match its history)."""
        if not id_valido(processo_id):
            return None
        with self.repositorio.leitura() as sessao:
            linha = sessao.scalars(self._consulta().where(ProcessoSalvo.id == processo_id)).first()
            if linha is None:
                return None
            exigir_conferido(sessao, RECURSOS["processos"], linha)
            return _processo(linha)

    def listar_processos(
        self,
        limite: int | None = 50,
        deslocamento: int = 0,
        tipo: str | None = None,
        cnpj: str | None = None,
    ) -> list[ProcessoArmazenado]:
        """Newest first; a processo that does not match its history is listed with its
        ``erro``."""
        consulta = self._consulta().order_by(ProcessoSalvo.id.desc()).offset(deslocamento)
        if limite is not None:
            consulta = consulta.limit(limite)
        consulta = self.filtros_da_lista(consulta, tipo, cnpj)
        with self.repositorio.leitura() as sessao:
            linhas = list(sessao.scalars(consulta))
            erros = _mensagens(conferir(sessao, RECURSOS["processos"], linhas))
            return [_processo(linha, erros.get(linha.id)) for linha in linhas]

    def em_fatias(
        self, ids: Sequence[int], fatia: int = 500
    ) -> Iterator[tuple[list[ProcessoArmazenado], dict[int, int]]]:
        """These processos (those still live, in the scope in force), a slice at a time, each
        slice read on one snapshot with each processo's version (:func:`fila.versoes`); one
        that does not match its history comes with its ``erro``."""
        for inicio in range(0, len(ids), fatia):
            lote = ids[inicio : inicio + fatia]
            with self.repositorio.leitura() as sessao:
                versoes = fila.versoes(sessao, lote)
                consulta = self._consulta().where(em_massa.entre(ProcessoSalvo.id, lote))
                linhas = list(sessao.scalars(consulta.order_by(ProcessoSalvo.id)))
                erros = _mensagens(conferir(sessao, RECURSOS["processos"], linhas))
                armazenados = [_processo(linha, erros.get(linha.id)) for linha in linhas]
            yield armazenados, versoes  # the connection back in the pool while it is used

    @staticmethod
    def filtros_da_lista(consulta: Any, tipo: str | None, cnpj: str | None) -> Any:
        """The list's filters on a query of processos: live, of ``tipo``, of ``cnpj``."""
        consulta = consulta.where(vivos(ProcessoSalvo))
        if tipo:
            consulta = consulta.where(ProcessoSalvo.tipo == validar_texto(tipo, "tipo", 64))
        if cnpj:
            # any spelling finds the processo: both sides in the normal form of
            # multas.nucleo.cnpj.normalizar (the stored CNPJ stays as it was given)
            consulta = consulta.where(
                cnpj_sql.igual(ProcessoSalvo.cnpj, validar_texto(cnpj, "cnpj", 64))
            )
        return consulta

    def contar_processos(self, tipo: str | None = None, cnpj: str | None = None) -> int:
        consulta = self.filtros_da_lista(
            select(func.count()).select_from(ProcessoSalvo), tipo, cnpj
        )
        with self.repositorio.leitura() as sessao:
            return int(sessao.scalar(consulta) or 0)

    def _travado(self, escrita: Escrita, processo_id: int) -> ProcessoSalvo | None:
        """The processo and its events, locked for a change, and checked: a change is never
        made on top of a record that does not match its history."""
        linha, _ = self._travado_com(escrita, processo_id, None)
        return linha

    def _travado_com(
        self, escrita: Escrita, processo_id: int, previa: previas.Previa | None
    ) -> tuple[ProcessoSalvo | None, bool]:
        """:meth:`_travado`, with the ``previa`` of work done before the lock
        (:meth:`_antes_da_trava`): the processo is checked again only if that work does not
        hold (:func:`previas.vale`). The processo, and whether the work holds."""
        linha = escrita.travar(ProcessoSalvo, processo_id)
        if linha is None:
            return None, False
        escrita.sessao.expire(linha, ["eventos"])  # read again on use: one query
        recurso = RECURSOS["processos"]
        if previa is not None and previas.vale(escrita.sessao, previa, recurso, linha):
            return linha, True
        exigir_conferido(escrita.sessao, recurso, linha)
        return linha, False

    def _antes_da_trava(
        self, processo_id: int, trabalho: Callable[[ProcessoArmazenado], T]
    ) -> tuple[previas.Previa | None, T | None] | None:
        """Read the processo on one snapshot and do ``trabalho`` on it (§ 6's validation of a
        change), before the write's lock (issue 36, item 2): under the lock the write checks
        the processo against its history and takes the result if nothing it relied on
        changed (:mod:`multas.servicos.persistencia.previas`). ``None``: no such processo (in
        the scope, out of the bin). A refusal of ``trabalho`` is not trusted yet (the processo
        may have been edited outside the system, and then the answer is that, not the
        refusal): ``(None, None)``, and the write checks and validates under the lock."""
        if not id_valido(processo_id):
            return None
        with self.repositorio.leitura() as sessao:
            seq = previas.ultima_posicao(sessao)
            linha = sessao.scalars(self._consulta().where(ProcessoSalvo.id == processo_id)).first()
            if linha is None:
                return None
            caso = [] if linha.caso_id is None else [("casos", int(linha.caso_id))]
            previa = previas.preparar(seq, RECURSOS["processos"], linha, caso)
            armazenado = _processo(linha)
        try:  # the connection back in the pool meanwhile
            return previa, trabalho(armazenado)
        except EntradaInvalida:
            return None, None

    @contextmanager
    def _mudanca(
        self, processo_id: int, usuario: str, trabalho: Callable[[ProcessoArmazenado], T]
    ) -> Iterator[tuple[Escrita, ProcessoSalvo, T | None] | None]:
        """A change of one processo: ``trabalho`` (its validation) done before the lock
        (:meth:`_antes_da_trava`), then the write, with the processo locked and checked, and
        the work's result (done again under the lock when what it relied on changed).
        ``None``: no such processo."""
        antes = self._antes_da_trava(processo_id, trabalho)
        if antes is None:
            yield None
            return
        previa, resultado = antes
        with self.repositorio.escrita(usuario) as escrita:
            linha, valeu = self._travado_com(escrita, processo_id, previa)
            if linha is None:
                yield None
                return
            if not valeu:
                resultado = trabalho(_processo(linha))
            yield escrita, linha, resultado

    def acrescentar_evento(
        self,
        processo_id: int,
        evento: str,
        data: date,
        validar: Callable[[ProcessoArmazenado, str, date], tuple[str | None, str | None] | None],
        usuario: str = USUARIO_PADRAO,
        documentos: str | None = None,
        guardar: Callable[[Escrita], None] | None = None,
    ) -> ProcessoArmazenado | None:
        """Append one event (with its ``valor``, a payment's) after ``validar`` accepts the
        whole new list; ``None`` when the processo does not exist. A refusal (the callback's
        exception) stores nothing. ``documentos``: its documents, as stored; ``guardar``
        writes their content in the same transaction (spec § 6.2 v4)."""

        def trabalho(atual: ProcessoArmazenado) -> tuple[str | None, str | None] | None:
            return validar(atual, evento, data)

        with self._mudanca(processo_id, usuario, trabalho) as mudanca:
            if mudanca is None:
                return None
            escrita, linha, validado = mudanca
            # what the event keeps besides its name and date: a payment's valor, a plan
            valor, plano = validado or (None, None)
            if guardar is not None:
                guardar(escrita)
            self._novo_evento(
                escrita,
                linha,
                len(linha.eventos),
                evento,
                data,
                "processo_evento",
                valor,
                plano,
                documentos,
            )
            linha.atualizado_em = escrita.momento
            escrita.alterar(linha, "processo_evento", None, regime=linha.tipo)
            return self._recarregado(escrita.sessao, linha)

    def importar_processos(
        self,
        chaves: Sequence[str],
        planejar: Callable[
            [Mapping[str, list[ProcessoArmazenado]], Callable[[str], str | None]], Importacao
        ],
        usuario: str = USUARIO_PADRAO,
        conferir_vinculo: Callable[
            [
                Any,
                ProcessoArmazenado,
                ProcessoArmazenado,
                ProcessoArmazenado | None,
                frozenset[int],
            ],
            None,
        ] = lambda *_: None,
    ) -> tuple[list[ProcessoArmazenado], list[ProcessoArmazenado], int]:
        """A file import, in one transaction: all of it or nothing. The stored processos whose
        ``id`` has one of ``chaves`` (:func:`chave_da_referencia`) are read, locked and checked
        against their history, as :meth:`acrescentar_evento` does, and given to ``planejar``
        (key → the stored processos with it; more than one is for the caller to refuse), with
        the rule of one processo per reference (:func:`referencia_em_uso`, for a key that no
        processo given holds: one the reader does not see may), which validates the whole file
        against them and returns what to write (:data:`Importacao`); its exception stores
        nothing. Then the new processos are created and the events
        appended after each one's last, audited as ``processo_importar``; last, each link is
        made (``processo_vincular``, as :meth:`vincular`) once ``conferir_vinculo`` accepts it
        (given what the plan gave with the link, the anp processo, the list processo, the
        anp processo already linked to that one, if any, and the linked processos the reader
        may not see, :meth:`_ocultos`; its exception stores nothing).
        Returns (created, appended to, links made)."""
        with self.repositorio.escrita(usuario) as escrita:
            linhas = self._pelas_chaves(escrita, chaves)
            existentes: dict[str, list[ProcessoArmazenado]] = {}
            for linha in linhas.values():
                armazenado = _processo(linha)
                chave = chave_da_referencia(armazenado.identificador)
                if chave is not None:
                    existentes.setdefault(chave, []).append(armazenado)
            # the file's references taken, looked up at once: a free one asks nothing more
            tomadas, do_arquivo = chaves_tomadas(escrita.sessao, chaves), frozenset(chaves)

            def em_uso(chave: str) -> str | None:
                if chave in do_arquivo and chave not in tomadas:
                    return None
                return referencia_em_uso(escrita.sessao, chave)

            novos, acrescimos, vinculos = planejar(existentes, em_uso)
            if referencias_livres(escrita, novos):  # issue 36, item 3: in slices
                criados = criar_em_lote(escrita, novos, ACAO_IMPORTAR)
            else:  # a reference taken: one by one, the error naming it
                criados = [self._criar_processo_em(escrita, n, ACAO_IMPORTAR) for n in novos]
            alterados = []
            for processo_id, eventos in acrescimos.items():
                linha = linhas[processo_id]
                for posicao, (evento, data, valor) in enumerate(eventos, start=len(linha.eventos)):
                    self._novo_evento(escrita, linha, posicao, evento, data, ACAO_IMPORTAR, valor)
                linha.atualizado_em = escrita.momento
                escrita.alterar(linha, ACAO_IMPORTAR, {"eventos": len(eventos)}, regime=linha.tipo)
                alterados.append(self._recarregado(escrita.sessao, linha))
            feitos = self._vincular_importados(
                escrita, [*linhas.values()], criados, vinculos, conferir_vinculo
            )
            return criados, alterados, feitos

    def _vincular_importados(
        self,
        escrita: Escrita,
        salvas: Sequence[ProcessoSalvo],
        criados: Sequence[ProcessoArmazenado],
        vinculos: Mapping[str, tuple[str, Any]],
        conferir: Callable[
            [
                Any,
                ProcessoArmazenado,
                ProcessoArmazenado,
                ProcessoArmazenado | None,
                frozenset[int],
            ],
            None,
        ],
    ) -> int:
        """The links of an import (see :meth:`importar_processos`); how many were made."""
        if not vinculos:
            return 0
        por_chave: dict[str, ProcessoSalvo] = {}
        novas = [escrita.sessao.get(ProcessoSalvo, p.id) for p in criados]
        for linha in [*salvas, *(n for n in novas if n is not None)]:
            chave = chave_da_referencia(_json(linha.identificador))
            if chave is not None:
                por_chave[chave] = linha
        feitos = 0
        for chave_anp, (chave_lista, origem) in vinculos.items():
            anp, lista = por_chave[chave_anp], por_chave[chave_lista]
            escrita.sessao.flush()
            encontrado = self._ocupante(escrita.sessao, lista.id, anp.id)
            ocultos = self._ocultos(escrita.sessao, (anp.lista_id, encontrado))
            ocupante = None
            if encontrado is not None:
                with escopo_sql.limitado(None):  # named only if the reader sees it (ocultos)
                    salvo = escrita.sessao.get(ProcessoSalvo, encontrado)
                ocupante = None if salvo is None else _processo(salvo)
            conferir(origem, _processo(anp), _processo(lista), ocupante, ocultos)
            if anp.lista_id == lista.id:
                continue
            anterior, anp.lista_id = anp.lista_id, lista.id
            anp.atualizado_em = escrita.momento
            escrita.alterar(
                anp,
                "processo_vincular",
                {"lista_id": lista.id, "anterior": anterior},
                regime=anp.tipo,
            )
            feitos += 1
        return feitos

    def _pelas_chaves(self, escrita: Escrita, chaves: Sequence[str]) -> dict[int, ProcessoSalvo]:
        """The stored processos with these keys, each locked and checked (:meth:`_travado`)."""
        formas = sorted({forma for chave in chaves for forma in _gravados(chave)})
        ids: set[int] = set()
        for inicio in range(0, len(formas), 500):
            ids.update(
                escrita.sessao.scalars(
                    select(ProcessoSalvo.id).where(
                        ProcessoSalvo.identificador.in_(formas[inicio : inicio + 500])
                    )
                )
            )
        return {i: linha for i, linha in self._travados(escrita, ids).items() if linha}

    def _travados(self, escrita: Escrita, ids: Iterable[int]) -> dict[int, ProcessoSalvo | None]:
        """Several processos locked (:meth:`_travado`) always in id order, so that two
        transactions that touch the same processos never wait for each other crosswise."""
        return {
            processo_id: self._travado(escrita, processo_id) for processo_id in sorted(set(ids))
        }

    def todos_os_processos(self) -> list[ProcessoArmazenado]:
        """Every stored processo, oldest first (the export), each checked against its
        history: ``RegistroAlterado`` for the first that does not match, so an export never
        writes out a record that cannot be trusted, nor leaves one out unsaid."""
        with self.repositorio.leitura() as sessao:
            linhas = list(sessao.scalars(self._consulta().order_by(ProcessoSalvo.id)))
            problemas = conferir(sessao, RECURSOS["processos"], linhas)
            if problemas:
                raise RegistroAlterado(problemas[min(problemas)])
            return [_processo(linha) for linha in linhas]

    def alterar_processo(
        self,
        processo_id: int,
        dias_sem_expediente: str | None,
        validar: Callable[[ProcessoArmazenado], None],
        usuario: str = USUARIO_PADRAO,
    ) -> ProcessoArmazenado | None:
        """Replace the processo's ``dias_sem_expediente`` (the stored form,
        :func:`texto_dos_dias`) after ``validar`` accepts the processo as it would become;
        ``None`` when the processo does not exist. A refusal stores nothing."""
        with self.repositorio.escrita(usuario) as escrita:
            linha = self._travado(escrita, processo_id)
            if linha is None:
                return None
            validar(replace(_processo(linha), dias_sem_expediente=_json(dias_sem_expediente)))
            linha.dias_sem_expediente = dias_sem_expediente
            linha.atualizado_em = escrita.momento
            escrita.alterar(
                linha,
                "processo_alterar",
                {"dias_sem_expediente": _json(dias_sem_expediente)},
                regime=linha.tipo,
            )
            return self._recarregado(escrita.sessao, linha)

    def remover_ultimo_evento(
        self,
        processo_id: int,
        usuario: str = USUARIO_PADRAO,
        validar: Callable[[ProcessoArmazenado], None] | None = None,
        esperado: str | None = None,
    ) -> ProcessoArmazenado | None:
        """Undo the last event (a correction); the first event stays. ``validar`` sees the
        processo as it would be, and may refuse it. ``esperado``: undo only if the last event
        is this one (a retried or concurrent undo then never removes a second event).
        ``None``: no processo."""

        def desfazer(atual: ProcessoArmazenado) -> bool:
            """Whether the last event goes (the first one stays); refused as a user would be."""
            ultimo = atual.eventos[-1]
            if esperado is not None and (ultimo.evento != esperado or len(atual.eventos) <= 1):
                raise EntradaInvalida(
                    "evento",
                    f"o último evento do processo é '{ultimo.evento}', não '{esperado}'"
                    if ultimo.evento != esperado
                    else "o primeiro evento de um processo não se desfaz",
                )
            if len(atual.eventos) <= 1:
                return False
            if validar is not None:
                validar(replace(atual, eventos=atual.eventos[:-1]))
            return True

        with self._mudanca(processo_id, usuario, desfazer) as mudanca:
            if mudanca is None:
                return None
            escrita, linha, desfaz = mudanca
            if not desfaz:
                return _processo(linha)
            ultimo = linha.eventos[-1]
            escrita.excluir(
                EventoSalvo,
                ultimo.id,
                "processo_remover_evento",
                {"evento": ultimo.evento, "data": ultimo.data.isoformat()},
            )
            escrita.sessao.expire(linha, ["eventos"])
            linha.atualizado_em = escrita.momento
            escrita.alterar(linha, "processo_remover_evento", regime=linha.tipo)
            return self._recarregado(escrita.sessao, linha)

    # --- linked processos (issue 19, item 5) ------------------------------------------------

    def vinculado(self, armazenado: ProcessoArmazenado) -> int | None:
        """The id of the processo linked to this one: an anp processo's ``lista_id``, or the
        anp processo that names this list processo. ``None`` too when the reader may not see
        it (another client's, for a user limited to some clients)."""
        with self.repositorio.leitura() as sessao:
            if armazenado.lista_id is not None:
                visivel = sessao.scalar(
                    select(ProcessoSalvo.id).where(
                        ProcessoSalvo.id == armazenado.lista_id, vivos(ProcessoSalvo)
                    )
                )
                return None if visivel is None else int(visivel)
            encontrado = sessao.scalar(
                select(ProcessoSalvo.id).where(
                    ProcessoSalvo.lista_id == armazenado.id, vivos(ProcessoSalvo)
                )
            )
            return None if encontrado is None else int(encontrado)

    @staticmethod
    def _ocupante(sessao: Session, lista_id: int, exceto: int) -> int | None:
        """The anp processo outside the bin linked to the list processo ``lista_id``, other
        than ``exceto``, whoever's client it is: the link is one to one for every reader (the
        database's unique ``lista_id``), so one the reader does not see still takes it."""
        with escopo_sql.limitado(None):
            encontrado = sessao.scalar(
                select(ProcessoSalvo.id).where(
                    ProcessoSalvo.lista_id == lista_id,
                    ProcessoSalvo.id != exceto,
                    vivos(ProcessoSalvo),
                )
            )
        return None if encontrado is None else int(encontrado)

    @staticmethod
    def _ocultos(sessao: Session, ids: Iterable[int | None]) -> frozenset[int]:
        """Of these processos (at the other end of a link), those the scope in force does not
        see (:mod:`~multas.servicos.persistencia.escopo_sql`: another client's, or one without
        a CNPJ, for a user limited to some clients): hidden for writes as for reads, such a
        link is neither undone, replaced nor named by that user's requests."""
        procurados = {i for i in ids if i is not None}
        if not procurados or escopo_sql.atual() is None:
            return frozenset()
        vistos = sessao.scalars(select(ProcessoSalvo.id).where(ProcessoSalvo.id.in_(procurados)))
        return frozenset(procurados - {int(i) for i in vistos})

    def vincular(
        self,
        processo_id: int,
        lista_id: int | None,
        validar: Callable[
            [ProcessoArmazenado, ProcessoArmazenado | None, int | None, frozenset[int]], None
        ],
        usuario: str = USUARIO_PADRAO,
    ) -> ProcessoArmazenado | None:
        """Link the processo to the list processo ``lista_id`` (``None``: undo its link), after
        ``validar`` accepts (the processo, the list processo or ``None`` when there is none
        or the reader does not see it, the id of the anp processo already linked to that list
        processo, if any, whoever's client it is, and the linked processos the reader may not
        see, :meth:`_ocultos`). Both are locked in id order and checked against their
        history; the change is audited (``processo_vincular`` or ``processo_desvincular``).
        Linking to the processo it is already linked to stores nothing; so does undoing a
        link to a processo the reader does not see, as undoing no link does: such a link is
        neither shown, undone, replaced nor named to that reader. ``None``: no processo
        ``processo_id``."""
        with self.repositorio.escrita(usuario) as escrita:
            ids = [processo_id] + ([lista_id] if lista_id is not None else [])
            travados = self._travados(escrita, ids)
            linha = travados[processo_id]
            if linha is None:
                return None
            lista = travados.get(lista_id) if lista_id is not None else None
            ocupante = None
            if lista_id is not None:
                ocupante = self._ocupante(escrita.sessao, lista_id, processo_id)
            ocultos = self._ocultos(escrita.sessao, (linha.lista_id, ocupante))
            validar(
                _processo(linha), None if lista is None else _processo(lista), ocupante, ocultos
            )
            if linha.lista_id == lista_id or (lista_id is None and linha.lista_id in ocultos):
                # linked so already; or a link the reader does not see, which a request to
                # undo leaves as it is, as if the processo had none
                return _processo(linha)
            anterior = linha.lista_id
            linha.lista_id = lista_id
            linha.atualizado_em = escrita.momento
            escrita.alterar(
                linha,
                "processo_vincular" if lista_id is not None else "processo_desvincular",
                {"lista_id": lista_id, "anterior": anterior},
                regime=linha.tipo,
            )
            return self._recarregado(escrita.sessao, linha)

    def acrescentar_em_par(
        self,
        processo_id: int,
        planejar: Callable[
            [ProcessoArmazenado, ProcessoArmazenado | None],
            Mapping[int, Sequence[tuple[str, date]]],
        ],
        acao: str,
        usuario: str = USUARIO_PADRAO,
    ) -> tuple[ProcessoArmazenado, ProcessoArmazenado | None] | None:
        """Events appended to a processo and to the one linked to it, in one transaction: all
        or nothing. Both are locked in id order and checked against their history, then given
        to ``planejar`` (the processo, the linked one or ``None``), which validates and returns
        the events to append to each (by id; an empty list appends nothing to that one); its
        exception stores nothing. Returns the two as stored after it; ``None``: no processo
        ``processo_id``."""
        with self.repositorio.escrita(usuario) as escrita:
            # writers are serialised by the chain's lock taken when the transaction began, so
            # the link read here is the one the locks below keep
            encontrada = (
                escrita.sessao.scalars(
                    select(ProcessoSalvo).where(
                        ProcessoSalvo.id == processo_id, vivos(ProcessoSalvo)
                    )
                ).first()
                if id_valido(processo_id)
                else None
            )
            if encontrada is None:
                return None
            par = encontrada.lista_id
            if par is None:
                outro = escrita.sessao.scalar(
                    select(ProcessoSalvo.id).where(
                        ProcessoSalvo.lista_id == processo_id, vivos(ProcessoSalvo)
                    )
                )
                par = None if outro is None else int(outro)
            travados = self._travados(escrita, [processo_id] + ([par] if par else []))
            linha, vinculada = travados[processo_id], travados.get(par) if par else None
            assert linha is not None
            acrescimos = planejar(
                _processo(linha), None if vinculada is None else _processo(vinculada)
            )
            linhas = {linha.id: linha} | ({vinculada.id: vinculada} if vinculada else {})
            for alvo_id in sorted(acrescimos):
                eventos = acrescimos[alvo_id]
                if not eventos:
                    continue
                alvo = linhas[alvo_id]
                for posicao, (evento, data) in enumerate(eventos, start=len(alvo.eventos)):
                    self._novo_evento(escrita, alvo, posicao, evento, data, acao)
                alvo.atualizado_em = escrita.momento
                escrita.alterar(alvo, acao, {"eventos": len(eventos)}, regime=alvo.tipo)
            recarregados = {i: self._recarregado(escrita.sessao, x) for i, x in linhas.items()}
            return recarregados[processo_id], (
                recarregados[vinculada.id] if vinculada is not None else None
            )

    def excluir_processo(self, processo_id: int, usuario: str = USUARIO_PADRAO) -> bool:
        """Of concurrent deletes of one processo, exactly one finds it."""
        with self.repositorio.escrita(usuario) as escrita:
            excluido = escrita.excluir(ProcessoSalvo, processo_id, "processo_excluir")
            return excluido is not None
