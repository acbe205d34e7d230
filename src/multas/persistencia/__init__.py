"""Saved cases and their audit log, with SQLAlchemy 2 and Alembic.

The default database is SQLite in ``dados/multas.db`` under the current directory (the
embedded default); ``MULTAS_DATABASE_URL`` points elsewhere, e.g. at PostgreSQL
(``postgresql+psycopg://usuario:senha@127.0.0.1/multas``). The schema is created and upgraded
by the Alembic migrations shipped in ``migracoes/``, run at start-up by :meth:`Repositorio.migrar`.

Only the server imports this package: SQLAlchemy stays off the CLI's start-up path.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, delete, event, func, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from multas.erros import EntradaInvalida
from multas.persistencia.integridade import (
    GENESE,
    Problema,
    Relatorio,
    colunas_caso,
    conferir_caso,
    hash_caso,
    hash_caso_criado,
    hash_registro,
    verificar_cadeia,
)
from multas.persistencia.modelos import CasoSalvo, Idempotencia, RegistroAuditoria
from multas.relogio import agora

VARIAVEL_URL = "MULTAS_DATABASE_URL"
VARIAVEL_URL_MIGRACAO = "MULTAS_DATABASE_URL_MIGRACAO"
USUARIO_PADRAO = "anônimo"
#: ids are signed 64-bit integers: anything past them names no record (and never reaches SQL)
MAIOR_ID = 2**63 - 1
LIMITE_CHAVE = 200
#: the PostgreSQL advisory lock that serialises appends to the audit chain
TRAVA_CADEIA = 0x6D756C746173  # "multas"


class CasoAlterado(Exception):
    """A saved case that no longer matches what was saved: it is not shown."""

    def __init__(self, problema: Problema) -> None:
        super().__init__(problema.mensagem)
        self.problema = problema


def id_valido(numero: int) -> bool:
    """Whether ``numero`` can be the id of a record (1 to 2^63 − 1).

    >>> id_valido(1), id_valido(2**63 - 1), id_valido(2**63), id_valido(0)
    (True, True, False, False)
    """
    return 1 <= numero <= MAIOR_ID


def url_padrao() -> str:
    """``MULTAS_DATABASE_URL`` if set, else SQLite in ``dados/multas.db`` under the cwd."""
    return os.environ.get(VARIAVEL_URL) or f"sqlite:///{Path.cwd() / 'dados' / 'multas.db'}"


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


@dataclass(frozen=True, slots=True)
class Caso:
    """A saved case, detached from the database."""

    id: int
    regime: str
    entrada: str
    resultado: str
    valor: str | None
    versao_motor: str
    versao_legislacao: str
    usuario: str
    origem: str
    criado_em: datetime
    hash_conteudo: str | None = None

    def resultado_dict(self) -> dict[str, Any]:
        dados: dict[str, Any] = json.loads(self.resultado)
        return dados


@dataclass(frozen=True, slots=True)
class Registro:
    """One line of the audit log."""

    id: int
    momento: datetime
    usuario: str
    acao: str
    caso_id: int | None
    regime: str | None
    detalhe: str | None


def _caso(linha: CasoSalvo) -> Caso:
    return Caso(
        id=linha.id,
        regime=linha.regime,
        entrada=linha.entrada,
        resultado=linha.resultado,
        valor=linha.valor,
        versao_motor=linha.versao_motor,
        versao_legislacao=linha.versao_legislacao,
        usuario=linha.usuario,
        origem=linha.origem,
        criado_em=linha.criado_em,
        hash_conteudo=linha.hash_conteudo,
    )


def _registro(linha: RegistroAuditoria) -> Registro:
    return Registro(
        id=linha.id,
        momento=linha.momento,
        usuario=linha.usuario,
        acao=linha.acao,
        caso_id=linha.caso_id,
        regime=linha.regime,
        detalhe=linha.detalhe,
    )


def criar_engine(url: str) -> Engine:
    url = normalizar_url(url)
    dados = make_url(url)
    if dados.get_backend_name() != "sqlite":
        return create_engine(url, pool_pre_ping=True)
    banco = dados.database
    if banco and banco != ":memory:" and not banco.startswith("file:"):
        Path(banco).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

    @event.listens_for(engine, "connect")
    def _pragmas(conexao: Any, _registro: Any) -> None:
        conexao.isolation_level = None  # SQLAlchemy's "begin" below emits BEGIN itself
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


class Repositorio:
    """Create, list, get and delete saved cases; every change appends to the audit log."""

    def __init__(self, url: str | None = None, url_migracao: str | None = None) -> None:
        """``url_migracao`` (or ``MULTAS_DATABASE_URL_MIGRACAO``): a role that migrates the
        schema, when the application's own role (``url``) should not own it (PostgreSQL:
        see migration r0002)."""
        self.url = normalizar_url(url or url_padrao())
        self.engine = criar_engine(self.url)
        migracao = url_migracao or (None if url else os.environ.get(VARIAVEL_URL_MIGRACAO))
        self.url_migracao = normalizar_url(migracao) if migracao else None
        self._migrado = False
        self._trava = threading.Lock()
        #: SQLite has one writer at a time: this process's writers queue here, in order,
        #: instead of in SQLite's busy handler (which sleeps, up to 100 ms a time)
        self._escrita = threading.Lock() if self.url.startswith("sqlite") else None

    def migrar(self) -> None:
        """Bring the schema to the latest migration (idempotent)."""
        with self._trava:
            if self._migrado:
                return
            from alembic import command
            from alembic.config import Config

            config = Config()
            config.set_main_option("script_location", "multas.persistencia:migracoes")
            config.attributes["papel_aplicacao"] = make_url(self.url).username
            engine = self.engine if self.url_migracao is None else criar_engine(self.url_migracao)
            try:
                with engine.begin() as conexao:
                    config.attributes["connection"] = conexao
                    command.upgrade(config, "head")
            finally:
                if engine is not self.engine:
                    engine.dispose()
            self._migrado = True

    @contextmanager
    def _sessao(self, escrita: bool = False) -> Iterator[Session]:
        self.migrar()
        if escrita and self._escrita is not None:
            with self._escrita, self._sessao_em(escrita) as sessao:
                yield sessao
            return
        with self._sessao_em(escrita) as sessao:
            yield sessao

    @contextmanager
    def _sessao_em(self, escrita: bool) -> Iterator[Session]:
        with self.engine.connect() as conexao:
            conexao.execution_options(multas_escrita=escrita)
            with Session(bind=conexao, expire_on_commit=False) as sessao, sessao.begin():
                yield sessao

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
        momento = agora()
        linha = CasoSalvo(
            regime=regime,
            entrada=entrada,
            resultado=json.dumps(resultado, ensure_ascii=False),
            valor=resultado.get("valor"),
            versao_motor=versao_motor,
            versao_legislacao=versao_legislacao,
            usuario=usuario,
            origem=origem,
            criado_em=momento,
        )
        linha.hash_conteudo = hash_caso(**colunas_caso(linha))
        with self._sessao(escrita=True) as sessao:
            sessao.add(linha)
            sessao.flush()
            if idempotencia is not None:
                chave, hash_corpo = idempotencia
                sessao.add(
                    Idempotencia(
                        usuario=usuario,
                        chave=chave,
                        hash_corpo=hash_corpo,
                        caso_id=linha.id,
                        criado_em=momento,
                    )
                )
                sessao.flush()
            self.acrescentar_auditoria(
                sessao,
                momento=momento,
                usuario=usuario,
                acao="criar",
                caso_id=linha.id,
                regime=regime,
                detalhe={
                    "valor": linha.valor,
                    "origem": origem,
                    "versao_motor": versao_motor,
                    "versao_legislacao": versao_legislacao,
                    "hash_caso": linha.hash_conteudo,
                },
            )
        return _caso(linha)

    def acrescentar_auditoria(
        self,
        sessao: Session,
        *,
        momento: datetime,
        usuario: str,
        acao: str,
        caso_id: int | None = None,
        regime: str | None = None,
        detalhe: dict[str, Any] | None = None,
    ) -> RegistroAuditoria:
        """Append one row to the audit chain, inside a write transaction (``_sessao(True)``):
        the next position, the previous row's hash and this row's. Every audit row must be
        written here, or ``multas auditoria verificar`` reports it."""
        if sessao.get_bind().dialect.name == "postgresql":
            # one appender at a time (the application's role cannot lock the table itself:
            # it may only insert into it); the unique seq would refuse a fork anyway
            sessao.execute(text("SELECT pg_advisory_xact_lock(:chave)"), {"chave": TRAVA_CADEIA})
        ultimo = sessao.execute(
            select(RegistroAuditoria.seq, RegistroAuditoria.hash)
            .where(RegistroAuditoria.seq.is_not(None))
            .order_by(RegistroAuditoria.seq.desc())
            .limit(1)
        ).first()
        seq, anterior = (1, GENESE) if ultimo is None else (int(ultimo[0] or 0) + 1, str(ultimo[1]))
        texto = None if detalhe is None else json.dumps(detalhe, ensure_ascii=False)
        registro = RegistroAuditoria(
            momento=momento,
            usuario=usuario,
            acao=acao,
            caso_id=caso_id,
            regime=regime,
            detalhe=texto,
            seq=seq,
            hash_anterior=anterior,
            hash=hash_registro(
                seq=seq,
                momento=momento,
                usuario=usuario,
                acao=acao,
                caso_id=caso_id,
                regime=regime,
                detalhe=texto,
                hash_anterior=anterior,
            ),
        )
        sessao.add(registro)
        sessao.flush()
        return registro

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
        with self._sessao() as sessao:
            registro = sessao.scalars(consulta).first()
            if registro is None:
                return None
            if registro.hash_corpo != hash_corpo:
                raise EntradaInvalida(
                    "Idempotency-Key",
                    "esta chave de idempotência já foi usada com outro corpo; "
                    "use uma chave nova para outro caso",
                )
            linha = sessao.get(CasoSalvo, registro.caso_id)
            if linha is None:
                raise EntradaInvalida("Idempotency-Key", "o caso salvo com esta chave foi excluído")
            return _caso(linha)

    def obter(self, caso_id: int) -> Caso | None:
        if not id_valido(caso_id):
            return None
        with self._sessao() as sessao:
            linha = sessao.get(CasoSalvo, caso_id)
            return None if linha is None else _caso(linha)

    def listar(
        self, limite: int = 50, deslocamento: int = 0, regime: str | None = None
    ) -> list[Caso]:
        """Newest first."""
        consulta = (
            select(CasoSalvo).order_by(CasoSalvo.id.desc()).limit(limite).offset(deslocamento)
        )
        if regime:
            consulta = consulta.where(CasoSalvo.regime == regime)
        with self._sessao() as sessao:
            return [_caso(linha) for linha in sessao.scalars(consulta)]

    def contar(self, regime: str | None = None) -> int:
        consulta = select(func.count()).select_from(CasoSalvo)
        if regime:
            consulta = consulta.where(CasoSalvo.regime == regime)
        with self._sessao() as sessao:
            return int(sessao.scalar(consulta) or 0)

    def excluir(self, caso_id: int, usuario: str = USUARIO_PADRAO) -> bool:
        """Delete a case; the audit log keeps its history and records the deletion.

        One statement deletes and tells what it deleted: of concurrent deletes of one case,
        exactly one finds it (and writes the audit row); the others get ``False``."""
        if not id_valido(caso_id):
            return False
        with self._sessao(escrita=True) as sessao:
            excluida = sessao.execute(
                delete(CasoSalvo)
                .where(CasoSalvo.id == caso_id)
                .returning(CasoSalvo.regime, CasoSalvo.valor)
            ).first()
            if excluida is None:
                return False
            regime, valor = excluida
            self.acrescentar_auditoria(
                sessao,
                momento=agora(),
                usuario=usuario,
                acao="excluir",
                caso_id=caso_id,
                regime=regime,
                detalhe={"valor": valor},
            )
        return True

    def conferir(self, caso: Caso) -> Problema | None:
        """Whether a saved case is exactly as it was saved (its hash, and the hash its
        creation record holds in the audit chain); the problem, in pt-BR, if not."""
        consulta = (
            select(RegistroAuditoria.detalhe)
            .where(RegistroAuditoria.caso_id == caso.id, RegistroAuditoria.acao == "criar")
            .order_by(RegistroAuditoria.id)
        )
        with self._sessao() as sessao:
            detalhes = list(sessao.scalars(consulta))
        criado = hash_caso_criado(detalhes[0]) if len(detalhes) == 1 else None
        return conferir_caso(caso, criado)

    def alterados(self, casos: list[Caso]) -> set[int]:
        """Of these cases (a listing's page), the ids of those that do not match their record:
        one query for their creation records."""
        if not casos:
            return set()
        consulta = select(RegistroAuditoria.caso_id, RegistroAuditoria.detalhe).where(
            RegistroAuditoria.acao == "criar",
            RegistroAuditoria.caso_id.in_([c.id for c in casos]),
        )
        with self._sessao() as sessao:
            criados: dict[int, list[str | None]] = {}
            for caso_id, detalhe in sessao.execute(consulta):
                if caso_id is not None:
                    criados.setdefault(int(caso_id), []).append(detalhe)
        return {
            caso.id
            for caso in casos
            if conferir_caso(
                caso,
                hash_caso_criado(criados[caso.id][0])
                if len(criados.get(caso.id, [])) == 1
                else None,
            )
            is not None
        }

    def obter_conferido(self, caso_id: int) -> Caso | None:
        """:meth:`obter`, refusing a case that does not match its record (CasoAlterado)."""
        caso = self.obter(caso_id)
        if caso is None:
            return None
        problema = self.conferir(caso)
        if problema is not None:
            raise CasoAlterado(problema)
        return caso

    def verificar(self, ancora: tuple[int, str] | None = None) -> Relatorio:
        """Walk the whole audit chain and every saved case (``multas auditoria verificar``)."""
        with self._sessao() as sessao:
            presentes = {
                int(s) for s in sessao.scalars(select(RegistroAuditoria.seq)) if s is not None
            }
            linhas = sessao.execute(
                select(RegistroAuditoria.__table__).order_by(RegistroAuditoria.id)
            ).mappings()
            total, cabeca, problemas, criados = verificar_cadeia(linhas, ancora, presentes)
            casos = 0
            for linha in sessao.execute(
                select(CasoSalvo.__table__).order_by(CasoSalvo.id)
            ).mappings():
                casos += 1
                problema = conferir_caso(linha, criados.pop(linha["id"], None))
                if problema is not None:
                    problemas.append(problema)
            problemas += [  # created, never deleted through the system, and gone
                Problema(
                    "ausente",
                    f"caso nº {caso_id} ausente: apagado fora do sistema (a auditoria registra "
                    "a criação e nenhuma exclusão)",
                    caso_id=caso_id,
                )
                for caso_id in sorted(criados)
            ]
            problemas += self._finais_apagados(sessao, cabeca)
        return Relatorio(total, casos, cabeca, problemas)

    def _finais_apagados(self, sessao: Session, cabeca: tuple[int, str] | None) -> list[Problema]:
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
        self, caso_id: int | None = None, limite: int = 200, recentes_primeiro: bool = False
    ) -> list[Registro]:
        """The audit log, oldest first (or newest first)."""
        ordem = RegistroAuditoria.id.desc() if recentes_primeiro else RegistroAuditoria.id
        consulta = select(RegistroAuditoria).order_by(ordem).limit(limite)
        if caso_id is not None and not id_valido(caso_id):
            return []
        if caso_id is not None:
            consulta = consulta.where(RegistroAuditoria.caso_id == caso_id)
        with self._sessao() as sessao:
            return [_registro(linha) for linha in sessao.scalars(consulta)]

    def fechar(self) -> None:
        self.engine.dispose()
