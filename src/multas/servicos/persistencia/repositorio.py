"""The repository: the one way every table is read and written (:meth:`Repositorio.leitura`,
:meth:`Repositorio.escrita`), the saved cases, the migrations run at start-up
(:meth:`Repositorio.migrar`) and the audit chain's verification."""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from sqlalchemy import Connection, func, inspect, or_, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.orm import Session

from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.ids import id_valido
from multas.servicos.ambiente import urls_do_banco
from multas.servicos.persistencia import registros
from multas.servicos.persistencia.ancora import Ancora
from multas.servicos.persistencia.banco import (
    _ocupado,
    _pragma_direto,
    _url_ou_sqlite,
    criar_engine,
    normalizar_url,
    ultima_migracao,
)
from multas.servicos.persistencia.casos import (
    Caso,
    Registro,
    _busca_por_cnpj,
    _caso,
    _filtros_casos,
    _registro,
)
from multas.servicos.persistencia.escrita import Escrita
from multas.servicos.persistencia.integridade import (
    ADOTAR,
    ALTERAR,
    EXCLUIR,
    INSERIR,
    OCULTAR,
    RESTAURAR,
    Problema,
    Relatorio,
    colunas_caso,
    conferir_estado,
    hash_caso,
    verificar_cadeia,
)
from multas.servicos.persistencia.modelos import CasoSalvo, Idempotencia, RegistroAuditoria
from multas.servicos.persistencia.registros import (
    RECURSOS,
    BancoOcupado,
    conferir,
    exigir_conferido,
    hashes_atuais,
    linhas_de,
    travar_cadeia,
    vivos,
)
from multas.servicos.persistencia.vez import FilaDeEscrita
from multas.servicos.relogio import agora

USUARIO_PADRAO = "anônimo"
LIMITE_CHAVE = 200


class Repositorio:
    """The database: saved cases here, and the one way every table is read and written
    (:meth:`leitura`, :meth:`escrita`, :mod:`multas.servicos.persistencia.registros`)."""

    #: called once, when a write first changes a record (a command names its database)
    ao_escrever: Callable[[], None] | None = None

    def __init__(self, url: str | None = None, url_migracao: str | None = None) -> None:
        """``url_migracao``: a role that migrates the schema, when the application's own role
        (``url``) should not own it (PostgreSQL: see migration r0002). Without ``url``, both
        come from the settings (``MULTAS_DATABASE_URL``, ``MULTAS_DATABASE_URL_DONO``)."""
        if not url:
            url, url_dono = urls_do_banco()  # without pydantic: see multas.servicos.ambiente
            url = _url_ou_sqlite(url)
            url_migracao = url_migracao or url_dono
        self.url = normalizar_url(url)
        self.engine = criar_engine(self.url)
        self.url_migracao = normalizar_url(url_migracao) if url_migracao else None
        self._migrado = False
        self._trava = threading.Lock()
        #: one writer at a time in this process: the others queue here, in order, without
        #: holding a connection (SQLite's busy handler sleeps up to 100 ms a time; on
        #: PostgreSQL, writers waiting on the chain's lock would each hold a pooled
        #: connection, and the pool would run dry for the readers). In order: a long import
        #: asking again between its parts queues behind those already waiting
        self._escrita = FilaDeEscrita()
        #: the write transaction of this thread, if any: a read made during a write (the
        #: linked fine checked before an event is stored) reads in it, with no connection of
        #: its own
        self._local = threading.local()

    def migrar(self) -> None:
        """Bring the schema to the latest migration (idempotent). A database already at the
        latest one is recognised by one query, without loading Alembic (a command that only
        reads starts faster: issue 19)."""
        with self._trava:
            if self._migrado:
                return
            if self._na_ultima_migracao():
                self._migrado = True
                return
            from alembic import command
            from alembic.config import Config

            config = Config()
            config.set_main_option("script_location", "multas.servicos.persistencia:migracoes")
            config.attributes["papel_aplicacao"] = make_url(self.url).username
            engine = self.engine if self.url_migracao is None else criar_engine(self.url_migracao)
            try:
                with engine.connect() as conexao:
                    sqlite = conexao.dialect.name == "sqlite"
                    if sqlite:
                        # tables are rebuilt (SQLite's way to alter them): with foreign keys
                        # on, dropping the old table would delete its children (SQLite's
                        # documented procedure). Set outside any transaction, to take effect.
                        _pragma_direto(conexao, "PRAGMA foreign_keys=OFF")
                    try:
                        with conexao.begin():
                            config.attributes["connection"] = conexao
                            command.upgrade(config, "head")
                            self._conceder(conexao)
                            if sqlite:
                                falhas = conexao.exec_driver_sql("PRAGMA foreign_key_check").all()
                                assert not falhas, f"chaves estrangeiras quebradas: {falhas}"
                    finally:
                        if sqlite:
                            _pragma_direto(conexao, "PRAGMA foreign_keys=ON")
            finally:
                if engine is not self.engine:
                    engine.dispose()
            self._migrado = True

    def _na_ultima_migracao(self) -> bool:
        """Whether the database's ``alembic_version`` is the last migration shipped
        (:func:`ultima_migracao`); a database without it, or unreadable, is not."""
        try:
            with self.engine.connect() as conexao:
                versoes = conexao.exec_driver_sql("SELECT version_num FROM alembic_version").all()
        except DBAPIError:
            return False
        return [tuple(v) for v in versoes] == [(ultima_migracao(),)]

    def _conceder(self, conexao: Connection) -> None:
        """The owner migrated for a separate application role: give it exactly its rights."""
        if self.url_migracao is None or conexao.dialect.name != "postgresql":
            return
        aplicacao = make_url(self.url).username
        if aplicacao and aplicacao != make_url(self.url_migracao).username:
            from multas.servicos.persistencia.papeis import conceder

            conceder(conexao, aplicacao)

    def riscos_do_papel(self) -> list[str]:
        """Why this repository's role could alter or disable the audit log (PostgreSQL), in
        pt-BR: empty for a least-privilege application role and on SQLite."""
        from multas.servicos.persistencia.papeis import riscos

        self.migrar()
        with self.engine.connect() as conexao:
            return riscos(conexao)

    @contextmanager
    def leitura(self) -> Iterator[Session]:
        """A read-only session: one transaction, on one snapshot (PostgreSQL: REPEATABLE READ;
        SQLite: a read transaction in WAL mode), so the several statements of a checked read
        or of a verification see the same database. Inside a write of this thread, the
        write's own session."""
        atual: Session | None = getattr(self._local, "sessao", None)
        if atual is not None:
            yield atual
            return
        self.migrar()
        with self._sessao_em(escrita=False) as sessao:
            yield sessao

    @contextmanager
    def escrita(
        self, usuario: str = USUARIO_PADRAO, espera: float | None = None
    ) -> Iterator[Escrita]:
        """The one way to write: the chain's lock first (waited for at most ``espera``
        seconds, :data:`registros.ESPERA_ESCRITA` by default, then :class:`BancoOcupado`),
        then the moment, then the caller's work, then one audit row per record touched, then
        the commit (all or nothing)."""
        if getattr(self._local, "sessao", None) is not None:
            raise RuntimeError("uma escrita dentro de outra: use a escrita em andamento")
        self.migrar()
        paciencia = registros.ESPERA_ESCRITA if espera is None else espera
        if not self._escrita.acquire(timeout=paciencia):
            raise BancoOcupado
        inicio, escrita = None, None
        try:
            with self._sessao_em(escrita=True, espera=espera) as sessao:
                try:
                    travar_cadeia(sessao, paciencia)
                except OperationalError as erro:
                    if _ocupado(erro):
                        raise BancoOcupado from None
                    raise
                inicio = time.monotonic()  # held from here: the wait before is not
                escrita = Escrita(sessao, agora(), usuario)
                self._local.sessao = sessao
                try:
                    yield escrita
                    escrita.encerrar()
                    if escrita.acoes and (avisar := self.__dict__.pop("ao_escrever", None)):
                        avisar()
                finally:
                    self._local.sessao = None
        finally:
            self._escrita.release()
            if inicio is not None:
                _avisar_se_longa(time.monotonic() - inicio, escrita)

    @contextmanager
    def escrita_fora_dos_registros(self) -> Iterator[Session]:
        """A write to a table outside the records (:data:`registros.FORA_DOS_REGISTROS`: the
        throttle's counts): no audit row and not the chain's lock, but the same patience as
        :meth:`escrita`: a lock waited for :data:`registros.ESPERA_ESCRITA` seconds raises
        :class:`BancoOcupado` (HTTP 503 with Retry-After), never a 500."""
        if getattr(self._local, "sessao", None) is not None:
            raise RuntimeError("uma escrita dentro de outra: use a escrita em andamento")
        self.migrar()
        # on SQLite every write takes the one file lock: this one queues with the others, in
        # order, rather than polling for the lock between a long import's parts
        sqlite = self.engine.dialect.name == "sqlite"
        if sqlite and not self._escrita.acquire(timeout=registros.ESPERA_ESCRITA):
            raise BancoOcupado
        try:
            with self._sessao_em(escrita=True) as sessao:
                if sessao.get_bind().dialect.name == "postgresql":
                    espera = int(registros.ESPERA_ESCRITA * 1000)
                    sessao.execute(text(f"SET LOCAL lock_timeout = '{espera}ms'"))
                else:
                    sessao.execute(text("SELECT 1"))  # BEGIN IMMEDIATE: the write lock, now
                yield sessao
        except OperationalError as erro:
            if _ocupado(erro):
                raise BancoOcupado from None
            raise
        finally:
            if sqlite:
                self._escrita.release()

    @contextmanager
    def _sessao_em(self, escrita: bool, espera: float | None = None) -> Iterator[Session]:
        """A session on one transaction; ``espera``: on SQLite, how long its BEGIN waits for
        another process's write lock (the connection's busy timeout, for this transaction
        only), instead of the connection's own (:data:`registros.ESPERA_ESCRITA`)."""
        with self.engine.connect() as conexao:
            conexao.execution_options(multas_escrita=escrita)
            if not escrita and conexao.dialect.name == "postgresql":
                conexao.execution_options(isolation_level="REPEATABLE READ")
            antes = None
            if espera is not None and conexao.dialect.name == "sqlite":
                antes = _paciencia(conexao, int(espera * 1000))
            try:
                with Session(bind=conexao, expire_on_commit=False) as sessao, sessao.begin():
                    yield sessao
            finally:
                if antes is not None:  # the pooled connection's own, back
                    _paciencia(conexao, antes)

    # --- saved cases ---------------------------------------------------------------------------

    def salvar(
        self,
        *,
        regime: str,
        entrada: str,
        resultado: dict[str, Any],
        versao_motor: str,
        versao_legislacao: str,
        usuario: str = USUARIO_PADRAO,
        origem: str = "api",
        idempotencia: tuple[str, str] | None = None,
    ) -> Caso:
        """Save a computed case and record who saved it, in one transaction.

        ``idempotencia`` is ``(key, hash of the body)``: a key already used by this user
        returns the case saved then (see :meth:`salvar_uma_vez`)."""
        with self.escrita(usuario) as escrita:
            linha = CasoSalvo(
                regime=regime,
                entrada=entrada,
                resultado=json.dumps(resultado, ensure_ascii=False),
                valor=resultado.get("valor"),
                versao_motor=versao_motor,
                versao_legislacao=versao_legislacao,
                usuario=usuario,
                origem=origem,
                criado_em=escrita.momento,
            )
            linha.hash_conteudo = hash_caso(**colunas_caso(linha))
            escrita.inserir(
                linha,
                "criar",
                {
                    "valor": linha.valor,
                    "origem": origem,
                    "versao_motor": versao_motor,
                    "versao_legislacao": versao_legislacao,
                },
                regime=regime,
            )
            if idempotencia is not None:
                chave, hash_corpo = idempotencia
                escrita.inserir(
                    Idempotencia(
                        usuario=usuario,
                        chave=chave,
                        hash_corpo=hash_corpo,
                        caso_id=linha.id,
                        criado_em=escrita.momento,
                    ),
                    "idempotencia",
                    {"caso_id": linha.id},
                )
        return _caso(linha)

    def salvar_uma_vez(
        self, chave: str, hash_corpo: str, usuario: str, **salvar: Any
    ) -> tuple[Caso, bool]:
        """Save once per ``(usuario, chave)``: ``(case, True)`` when the key was already used
        (the case saved then), ``(case, False)`` when it is saved now. The same key with
        another body is an input error. Two concurrent requests with one key save one case:
        the unique constraint makes the second one fail, and it then returns the first one's.
        """
        if not chave or len(chave) > LIMITE_CHAVE or not chave.isprintable():
            raise EntradaInvalida(
                "Idempotency-Key",
                f"chave de idempotência inválida (de 1 a {LIMITE_CHAVE} caracteres visíveis)",
            )
        for _ in range(2):
            anterior = self._pela_chave(usuario, chave, hash_corpo)
            if anterior is not None:
                return anterior, True
            try:
                caso = self.salvar(usuario=usuario, idempotencia=(chave, hash_corpo), **salvar)
            except IntegrityError:
                continue  # saved meanwhile by a concurrent request with the same key
            return caso, False
        raise EntradaInvalida("Idempotency-Key", "chave de idempotência em uso; tente de novo")

    def _pela_chave(self, usuario: str, chave: str, hash_corpo: str) -> Caso | None:
        consulta = select(Idempotencia).where(
            Idempotencia.usuario == usuario, Idempotencia.chave == chave
        )
        with self.leitura() as sessao:
            registro = sessao.scalars(consulta).first()
            if registro is None:
                return None
            exigir_conferido(sessao, RECURSOS["idempotencia"], registro)
            if registro.hash_corpo != hash_corpo:
                raise EntradaInvalida(
                    "Idempotency-Key",
                    "esta chave de idempotência já foi usada com outro corpo; "
                    "use uma chave nova para outro caso",
                )
            linha = sessao.get(CasoSalvo, registro.caso_id)
            if linha is None or linha.excluido_em is not None:
                raise EntradaInvalida("Idempotency-Key", "o caso salvo com esta chave foi excluído")
            exigir_conferido(sessao, RECURSOS["casos"], linha)
            return _caso(linha)

    def casos_visiveis(self, ids: Iterable[int]) -> set[int]:
        """Of these saved cases' ids, those the reader may see: not in the bin, and within the
        client scope in force (:mod:`multas.servicos.persistencia.escopo_sql` filters the
        query). A processo shows the id of its linked case only if it is one of them."""
        procurados = sorted({int(i) for i in ids if id_valido(i)})
        visiveis: set[int] = set()
        with self.leitura() as sessao:
            for inicio in range(0, len(procurados), registros.LOTE_IDS):
                lote = procurados[inicio : inicio + registros.LOTE_IDS]
                visiveis.update(
                    sessao.scalars(
                        select(CasoSalvo.id).where(CasoSalvo.id.in_(lote), vivos(CasoSalvo))
                    )
                )
        return visiveis

    def obter(self, caso_id: int) -> Caso | None:
        """A saved case, checked against its history: ``None`` when there is none,
        :class:`RegistroAlterado` when it does not match what was saved."""
        if not id_valido(caso_id):
            return None
        with self.leitura() as sessao:
            linha = sessao.get(CasoSalvo, caso_id)
            if linha is None or linha.excluido_em is not None:
                return None
            exigir_conferido(sessao, RECURSOS["casos"], linha)
            return _caso(linha)

    def listar(
        self,
        limite: int = 50,
        deslocamento: int = 0,
        regime: str | None = None,
        cnpj: str | None = None,
    ) -> list[Caso]:
        """Newest first, each checked against its history in the same transaction: a case
        that does not match is listed with its ``erro``. ``cnpj``: only the cases whose result
        names that CNPJ, in any spelling."""
        consulta = _filtros_casos(
            select(CasoSalvo).order_by(CasoSalvo.id.desc()).limit(limite).offset(deslocamento),
            regime,
            cnpj,
            self.engine.dialect.name,
        )
        with self.leitura() as sessao, _busca_por_cnpj(cnpj):
            linhas = list(sessao.scalars(consulta))
            problemas = conferir(sessao, RECURSOS["casos"], linhas)
            return [
                _caso(linha, problemas[linha.id].mensagem if linha.id in problemas else None)
                for linha in linhas
            ]

    def contar(self, regime: str | None = None, cnpj: str | None = None) -> int:
        consulta = _filtros_casos(
            select(func.count()).select_from(CasoSalvo), regime, cnpj, self.engine.dialect.name
        )
        with self.leitura() as sessao, _busca_por_cnpj(cnpj):
            return int(sessao.scalar(consulta) or 0)

    def excluir(self, caso_id: int, usuario: str = USUARIO_PADRAO) -> bool:
        """Delete a case: it goes to the bin (:mod:`multas.servicos.persistencia.lixeira`), and the
        audit log records it. Of concurrent deletes of one case, exactly one finds it; the
        others get ``False``."""
        with self.escrita(usuario) as escrita:
            linha = escrita.travar(CasoSalvo, caso_id)
            if linha is None:
                return False
            regime, valor = linha.regime, linha.valor
            excluida = escrita.excluir(
                CasoSalvo, caso_id, "excluir", {"valor": valor}, regime=regime
            )
        return excluida is not None

    def conferir(self, caso: Caso) -> Problema | None:
        """Whether a saved case is exactly as it was saved; the problem, in pt-BR, if not."""
        return self.alterados_com_motivo([caso]).get(caso.id)

    def alterados(self, casos: list[Caso]) -> set[int]:
        """Of these cases (a listing's page), the ids of those that do not match their record
        (as :meth:`listar` found them)."""
        return {caso.id for caso in casos if caso.erro is not None}

    def alterados_com_motivo(self, casos: list[Caso]) -> dict[int, Problema]:
        with self.leitura() as sessao:
            return conferir(sessao, RECURSOS["casos"], casos)

    # --- the audit ---------------------------------------------------------------------------------

    def ancorar(self) -> Ancora:
        """A checkpoint to keep outside the database (:mod:`multas.servicos.persistencia.ancora`): the
        chain's head and, for each table, its rows and the last audit row about it."""
        a = RegistroAuditoria.__table__.c
        with self.leitura() as sessao:
            cabeca = sessao.execute(
                select(a.seq, a.hash).where(a.seq.is_not(None)).order_by(a.seq.desc()).limit(1)
            ).first()
            tabelas: dict[str, tuple[int, tuple[int, str] | None]] = {}
            # a table a later migration creates (a database not yet upgraded) has no entry
            existentes = set(inspect(sessao.connection()).get_table_names())
            for recurso in RECURSOS.values():
                if recurso.tabela not in existentes:
                    continue
                linhas = int(sessao.scalar(select(func.count()).select_from(recurso.colunas)) or 0)
                ultima = sessao.execute(
                    select(a.seq, a.hash)
                    .where(a.tabela == recurso.tabela, a.seq.is_not(None))
                    .order_by(a.seq.desc())
                    .limit(1)
                ).first()
                tabelas[recurso.tabela] = (
                    linhas,
                    (int(ultima[0]), str(ultima[1])) if ultima else None,
                )
            momento = agora()
        return Ancora(momento, (int(cabeca[0]), str(cabeca[1])) if cabeca else None, tabelas)

    def verificar(self, ancora: tuple[int, str] | Ancora | None = None) -> Relatorio:
        """Walk the whole audit chain and every stored record of every table (``multas
        auditoria verificar``): each record's current state must be the one its history ends
        with. ``ancora``: a head written down before (``POSIÇÃO:HASH``) or an anchor of
        ``multas auditoria ancorar``, whose changes since are then named."""
        if isinstance(ancora, Ancora):
            relatorio = self.verificar(ancora.cabeca)
            problemas, desde = self._desde_a_ancora(ancora, relatorio)
            return replace(
                relatorio,
                problemas=[*relatorio.problemas, *problemas],
                desde_ancora=desde,
            )
        with self.leitura() as sessao:
            a = RegistroAuditoria.__table__
            presentes = {int(s) for s in sessao.scalars(select(a.c.seq)) if s is not None}
            linhas = sessao.execute(select(a).order_by(a.c.id)).mappings()
            cadeia = verificar_cadeia(linhas, ancora, presentes)
            problemas = list(cadeia.problemas)
            contagem: dict[str, int] = {}
            por_tabela: dict[str, list[int]] = {}
            for tabela, registro_id in sorted(cadeia.historias):
                por_tabela.setdefault(tabela, []).append(registro_id)
            for recurso in RECURSOS.values():
                contagem[recurso.tabela] = 0
                vistos: set[int] = set()
                lote: list[Any] = []
                for linha in linhas_de(sessao, recurso):
                    lote.append(linha)
                    if len(lote) == 1000:
                        problemas += self._conferir_lote(sessao, recurso, lote, cadeia, vistos)
                        lote = []
                problemas += self._conferir_lote(sessao, recurso, lote, cadeia, vistos)
                contagem[recurso.tabela] = len(vistos)
                for registro_id in por_tabela.get(recurso.tabela, []):
                    if registro_id in vistos:
                        continue
                    historia = cadeia.historias[(recurso.tabela, registro_id)]
                    problema = conferir_estado(
                        recurso.rotulo, recurso.tabela, registro_id, None, historia, recurso.mutavel
                    )
                    if problema is not None:
                        problemas.append(problema)
            problemas += [
                Problema(
                    "forjado",
                    f"registro de auditoria sobre uma tabela desconhecida: {tabela} nº {registro_id}",
                    historia[0].registro_id,
                    tabela=tabela,
                    id=registro_id,
                )
                for (tabela, registro_id), historia in sorted(cadeia.historias.items())
                if tabela not in RECURSOS
            ]
            problemas += [  # created before the chain covered every table, never adopted, gone
                Problema(
                    "ausente",
                    f"caso nº {caso_id} (tabela casos) ausente: apagado fora do sistema (a "
                    "auditoria registra a criação e nenhuma exclusão)",
                    caso_id=caso_id,
                    tabela="casos",
                    id=caso_id,
                )
                for caso_id in sorted(cadeia.legado)
                if ("casos", caso_id) not in cadeia.historias
                and sessao.get(CasoSalvo, caso_id) is None
            ]
            problemas += self._finais_apagados(sessao)
        return Relatorio(cadeia.total, contagem, cadeia.cabeca, problemas, cadeia.avisos)

    def _desde_a_ancora(
        self, ancora: Ancora, relatorio: Relatorio
    ) -> tuple[list[Problema], list[str]]:
        """What changed since an anchor: each table's records created, altered and deleted
        (pt-BR lines), and the problems: a table's last audit row at the anchor no longer
        there, or a row count the audit since then does not explain."""
        a = RegistroAuditoria.__table__.c
        depois = ancora.cabeca[0] if ancora.cabeca else 0
        problemas: list[Problema] = []
        desde: list[str] = []
        with self.leitura() as sessao:
            for tabela, (linhas, ultima) in sorted(ancora.tabelas.items()):
                if ultima is not None:
                    achada = sessao.execute(
                        select(a.tabela, a.hash).where(a.seq == ultima[0])
                    ).first()
                    if achada is None or tuple(achada) != (tabela, ultima[1]):
                        problemas.append(
                            Problema(
                                "alterado",
                                f"tabela {tabela}: o último registro de auditoria na âncora "
                                f"(posição {ultima[0]}) não é mais o mesmo: a auditoria foi "
                                "reescrita",
                                tabela=tabela,
                            )
                        )
                operacoes: dict[str, list[int]] = {}
                for operacao, registro_id in sessao.execute(
                    select(a.operacao, a.registro_id)
                    .where(a.tabela == tabela, a.seq > depois)
                    .order_by(a.seq)
                ):
                    operacoes.setdefault(str(operacao), []).append(int(registro_id))
                criados = len(operacoes.get(INSERIR, [])) + len(operacoes.get(ADOTAR, []))
                excluidos = operacoes.get(EXCLUIR, [])
                esperado = linhas + criados - len(excluidos)
                agora_ = relatorio.tabelas.get(tabela)
                if agora_ is not None and agora_ != esperado:
                    problemas.append(
                        Problema(
                            "ausente" if agora_ < esperado else "forjado",
                            f"tabela {tabela}: {agora_} registros agora, mas a âncora tinha "
                            f"{linhas} e a auditoria desde então explica {esperado}",
                            tabela=tabela,
                        )
                    )
                if operacoes:
                    desde.append(_mudancas(tabela, operacoes))
        return problemas, desde

    @staticmethod
    def _conferir_lote(
        sessao: Session, recurso: Any, lote: list[Any], cadeia: Any, vistos: set[int]
    ) -> list[Problema]:
        problemas = []
        for registro_id, atual in hashes_atuais(sessao, recurso, lote).items():
            vistos.add(registro_id)
            problema = conferir_estado(
                recurso.rotulo,
                recurso.tabela,
                registro_id,
                atual,
                cadeia.historias.get((recurso.tabela, registro_id), []),
                recurso.mutavel,
            )
            if problema is not None:
                problemas.append(problema)
        return problemas

    def _finais_apagados(self, sessao: Session) -> list[Problema]:
        """SQLite's AUTOINCREMENT counter remembers the last audit id ever used: rows missing
        past the last one left mean the end of the chain was cut."""
        if sessao.get_bind().dialect.name != "sqlite":
            return []
        contador = sessao.execute(
            text("SELECT seq FROM sqlite_sequence WHERE name = 'auditoria'")
        ).scalar()
        maior = sessao.execute(select(func.max(RegistroAuditoria.id))).scalar()
        if contador is not None and int(contador) > int(maior or 0):
            return [
                Problema(
                    "ausente",
                    f"registros finais da auditoria apagados: o último id usado foi {contador}, "
                    f"o último presente é {maior or 0}",
                )
            ]
        return []

    def auditoria(
        self,
        caso_id: int | None = None,
        limite: int = 200,
        recentes_primeiro: bool = False,
        tabela: str | None = None,
        registro_id: int | None = None,
        deslocamento: int = 0,
    ) -> list[Registro]:
        """The audit log, oldest first (or newest first); of one case, or one record;
        ``limite`` rows after ``deslocamento``."""
        a = RegistroAuditoria
        ordem = a.id.desc() if recentes_primeiro else a.id
        consulta = self._filtro_auditoria(select(a), caso_id, tabela, registro_id)
        if consulta is None:
            return []
        consulta = consulta.order_by(ordem).limit(limite).offset(deslocamento)
        with self.leitura() as sessao:
            return [_registro(linha) for linha in sessao.scalars(consulta)]

    def contar_auditoria(self, caso_id: int | None = None) -> int:
        """How many rows :meth:`auditoria` lists in all (of one case)."""
        consulta = self._filtro_auditoria(
            select(func.count()).select_from(RegistroAuditoria), caso_id, None, None
        )
        if consulta is None:
            return 0
        with self.leitura() as sessao:
            return int(sessao.scalar(consulta) or 0)

    @staticmethod
    def _filtro_auditoria(
        consulta: Any, caso_id: int | None, tabela: str | None, registro_id: int | None
    ) -> Any:
        """``consulta`` restricted to one case, table or record (``None``: an id no record
        can have)."""
        for numero in (caso_id, registro_id):
            if numero is not None and not id_valido(numero):
                return None
        if caso_id is not None:
            consulta = consulta.where(RegistroAuditoria.caso_id == caso_id)
        if tabela is not None:
            consulta = consulta.where(RegistroAuditoria.tabela == tabela)
        if registro_id is not None:
            consulta = consulta.where(RegistroAuditoria.registro_id == registro_id)
        return consulta

    def auditoria_dos_registros(
        self, limite: int = 200, recentes_primeiro: bool = False, deslocamento: int = 0
    ) -> list[Registro]:
        """The audit log of the records the asker may read now (issue 20, item 2): saved
        cases, processos, their events and ledger years, each still stored (not in the bin) and within the
        scope in force (:mod:`multas.servicos.persistencia.escopo_sql` filters each subquery); never
        the users, tokens and sessions. A limited user's view of the audit. ``limite`` rows
        after ``deslocamento``."""
        a = RegistroAuditoria
        ordem = a.id.desc() if recentes_primeiro else a.id
        consulta = select(a).where(self._registros_legiveis()).order_by(ordem)
        with self.leitura() as sessao:
            linhas = sessao.scalars(consulta.limit(limite).offset(deslocamento))
            return [_registro(linha) for linha in linhas]

    def contar_auditoria_dos_registros(self) -> int:
        """How many rows :meth:`auditoria_dos_registros` lists in all."""
        consulta = select(func.count()).select_from(RegistroAuditoria)
        with self.leitura() as sessao:
            return int(sessao.scalar(consulta.where(self._registros_legiveis())) or 0)

    @staticmethod
    def _registros_legiveis() -> Any:
        """The condition of an audit row about a record the asker may read now."""
        from multas.servicos.persistencia.modelos_ciclo import (
            AnoCarteiraSalvo,
            EventoSalvo,
            ProcessoSalvo,
        )

        a = RegistroAuditoria
        casos = select(CasoSalvo.id).where(vivos(CasoSalvo)).scalar_subquery()
        # an event has no bin of its own: it is out with its processo
        eventos = (
            select(EventoSalvo.id)
            .join(ProcessoSalvo, EventoSalvo.processo_id == ProcessoSalvo.id)
            .where(vivos(ProcessoSalvo))
        )
        condicoes = [
            (a.tabela == tabela) & a.registro_id.in_(ids.scalar_subquery())
            for tabela, ids in (
                ("casos", select(CasoSalvo.id).where(vivos(CasoSalvo))),
                ("processos", select(ProcessoSalvo.id).where(vivos(ProcessoSalvo))),
                ("processo_eventos", eventos),
                ("carteira_anos", select(AnoCarteiraSalvo.id).where(vivos(AnoCarteiraSalvo))),
            )
        ]
        # the rows about a case written before the chain named its table
        condicoes.append(a.tabela.is_(None) & a.caso_id.in_(casos))
        return or_(*condicoes)

    def fechar(self) -> None:
        self.engine.dispose()


def _mudancas(tabela: str, operacoes: dict[str, list[int]]) -> str:
    """One table's changes since an anchor, in pt-BR (the ids, up to ten of each)."""

    def ids(numeros: list[int]) -> str:
        mostrados = ", ".join(f"nº {n}" for n in numeros[:10])
        return mostrados + (f" e mais {len(numeros) - 10}" if len(numeros) > 10 else "")

    partes = [
        f"{len(numeros)} {nome} ({ids(numeros)})"
        for operacao, nome in (
            (INSERIR, "criado(s)"),
            (ADOTAR, "adotado(s) por migração"),
            (ALTERAR, "alterado(s)"),
            (OCULTAR, "movido(s) para a lixeira"),
            (RESTAURAR, "restaurado(s) da lixeira"),
            (EXCLUIR, "excluído(s) definitivamente"),
        )
        if (numeros := operacoes.get(operacao))
    ]
    return f"{tabela}: " + "; ".join(partes)


_log = logging.getLogger("multas.servicos.persistencia")


def _avisar_se_longa(segundos: float, escrita: Escrita | None) -> None:
    """Log a write that held the lock :data:`registros.AVISO_TRAVA` seconds or more, with
    what it wrote: every other write waited that long (``bench/carga.py`` reads these lines).
    Counted from the moment the lock was taken: the wait for it held nothing."""
    if segundos < registros.AVISO_TRAVA or escrita is None:
        return
    acoes = ", ".join(f"{a} {n}" for a, n in escrita.acoes.items())
    _log.warning(
        "uma gravação segurou a trava da cadeia por %.2f s (%s)", segundos, acoes or "nada"
    )


def _paciencia(conexao: Any, milissegundos: int) -> int:
    """Set SQLite's busy timeout of this pooled connection; returns the one it had. On the
    driver's connection: no statement through SQLAlchemy, which would begin the transaction
    (and wait for the lock) first."""
    bruta = conexao.connection.dbapi_connection
    antes = int(bruta.execute("PRAGMA busy_timeout").fetchone()[0])
    bruta.execute(f"PRAGMA busy_timeout = {int(milissegundos)}")
    return antes
