"""Stored processos (with their events, in order) and the distributor's ledger.

The repository knows nothing of spec § 6: appending an event takes a ``validar`` callback that
sees the processo with the new event and raises :class:`~multas.erros.EntradaInvalida` to refuse
it. The check and the write happen in one transaction, and the unique ``(processo_id,
posicao)`` makes a concurrent append fail and retry against the new list, so a refused event is
never stored and a stored list was always validated whole.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session, selectinload

from multas.persistencia import USUARIO_PADRAO, Repositorio
from multas.persistencia.modelos_ciclo import AnoCarteiraSalvo, EventoSalvo, ProcessoSalvo
from multas.relogio import agora

TENTATIVAS = 6


class Conflito(Exception):
    """The processo kept changing under concurrent writes; the caller may try again."""


@dataclass(frozen=True, slots=True)
class EventoArmazenado:
    evento: str
    data: date
    usuario: str
    criado_em: datetime


@dataclass(frozen=True, slots=True)
class ProcessoArmazenado:
    id: int
    tipo: str
    identificador: Any
    cnpj: str | None
    nome: str | None
    calendario: str
    principal: str | None
    caso_id: int | None
    usuario: str
    criado_em: datetime
    atualizado_em: datetime
    eventos: tuple[EventoArmazenado, ...]

    def como_processo(self, ate: date | None = None) -> dict[str, Any]:
        """The processo of spec § 6 (events up to ``ate``, when given)."""
        dados: dict[str, Any] = {}
        if self.identificador is not None:
            dados["id"] = self.identificador
        if self.cnpj is not None:
            dados["cnpj"] = self.cnpj
        if self.nome is not None:
            dados["nome"] = self.nome
        dados["tipo"] = self.tipo
        dados["eventos"] = [
            {"evento": e.evento, "data": e.data.isoformat()}
            for e in self.eventos
            if ate is None or e.data <= ate
        ]
        dados["interpretacao"] = {"calendario": self.calendario}
        return dados


@dataclass(frozen=True, slots=True)
class AnoArmazenado:
    cnpj: str
    ano: int
    nome: str | None
    entrada: dict[str, Any]
    usuario: str
    criado_em: datetime
    atualizado_em: datetime


def _processo(linha: ProcessoSalvo) -> ProcessoArmazenado:
    return ProcessoArmazenado(
        id=linha.id,
        tipo=linha.tipo,
        identificador=None if linha.identificador is None else json.loads(linha.identificador),
        cnpj=linha.cnpj,
        nome=linha.nome,
        calendario=linha.calendario,
        principal=linha.principal,
        caso_id=linha.caso_id,
        usuario=linha.usuario,
        criado_em=linha.criado_em,
        atualizado_em=linha.atualizado_em,
        eventos=tuple(
            EventoArmazenado(e.evento, e.data, e.usuario, e.criado_em) for e in linha.eventos
        ),
    )


def _ano(linha: AnoCarteiraSalvo) -> AnoArmazenado:
    return AnoArmazenado(
        cnpj=linha.cnpj,
        ano=linha.ano,
        nome=linha.nome,
        entrada=json.loads(linha.entrada),
        usuario=linha.usuario,
        criado_em=linha.criado_em,
        atualizado_em=linha.atualizado_em,
    )


class RepositorioCiclo:
    """Processos and the ledger, in the same database as the saved cases (and the same audit
    log: every change appends a line to it)."""

    def __init__(self, repositorio: Repositorio) -> None:
        self.repositorio = repositorio

    @contextmanager
    def _sessao(self, escrita: bool = False) -> Iterator[Session]:
        """The saved cases' sessions: a write takes the same lock and transaction mode, so the
        audit chain stays one chain (``Repositorio.acrescentar_auditoria``)."""
        with self.repositorio._sessao(escrita) as sessao:
            yield sessao

    def _auditar(self, sessao: Session, usuario: str, acao: str, detalhe: dict[str, Any]) -> None:
        self.repositorio.acrescentar_auditoria(
            sessao,
            momento=agora(),
            usuario=usuario,
            acao=acao,
            regime=acao.split("_")[0],
            detalhe=json.loads(json.dumps(detalhe, ensure_ascii=False, default=str)),
        )

    # --- processos ---------------------------------------------------------------------------

    def criar_processo(
        self,
        *,
        tipo: str,
        calendario: str,
        eventos: list[tuple[str, date]],
        identificador: Any = None,
        cnpj: str | None = None,
        nome: str | None = None,
        principal: str | None = None,
        caso_id: int | None = None,
        usuario: str = USUARIO_PADRAO,
    ) -> ProcessoArmazenado:
        """Store a processo already validated by the caller."""
        momento = agora()
        linha = ProcessoSalvo(
            tipo=tipo,
            identificador=None if identificador is None else json.dumps(identificador),
            cnpj=cnpj,
            nome=nome,
            calendario=calendario,
            principal=principal,
            caso_id=caso_id,
            usuario=usuario,
            criado_em=momento,
            atualizado_em=momento,
        )
        linha.eventos = [
            EventoSalvo(posicao=i, evento=n, data=d, usuario=usuario, criado_em=momento)
            for i, (n, d) in enumerate(eventos)
        ]
        with self._sessao(escrita=True) as sessao:
            sessao.add(linha)
            sessao.flush()
            self._auditar(
                sessao,
                usuario,
                "processo_criar",
                {"processo_id": linha.id, "tipo": tipo, "eventos": len(eventos)},
            )
            return _processo(linha)

    def obter_processo(self, processo_id: int) -> ProcessoArmazenado | None:
        with self._sessao() as sessao:
            linha = sessao.get(
                ProcessoSalvo, processo_id, options=[selectinload(ProcessoSalvo.eventos)]
            )
            return None if linha is None else _processo(linha)

    def listar_processos(
        self,
        limite: int | None = 50,
        deslocamento: int = 0,
        tipo: str | None = None,
        cnpj: str | None = None,
    ) -> list[ProcessoArmazenado]:
        """Newest first."""
        consulta = (
            select(ProcessoSalvo)
            .options(selectinload(ProcessoSalvo.eventos))
            .order_by(ProcessoSalvo.id.desc())
            .offset(deslocamento)
        )
        if limite is not None:
            consulta = consulta.limit(limite)
        if tipo:
            consulta = consulta.where(ProcessoSalvo.tipo == tipo)
        if cnpj:
            consulta = consulta.where(ProcessoSalvo.cnpj == cnpj)
        with self._sessao() as sessao:
            return [_processo(linha) for linha in sessao.scalars(consulta)]

    def contar_processos(self, tipo: str | None = None, cnpj: str | None = None) -> int:
        consulta = select(func.count()).select_from(ProcessoSalvo)
        if tipo:
            consulta = consulta.where(ProcessoSalvo.tipo == tipo)
        if cnpj:
            consulta = consulta.where(ProcessoSalvo.cnpj == cnpj)
        with self._sessao() as sessao:
            return int(sessao.scalar(consulta) or 0)

    def acrescentar_evento(
        self,
        processo_id: int,
        evento: str,
        data: date,
        validar: Callable[[ProcessoArmazenado, str, date], None],
        usuario: str = USUARIO_PADRAO,
    ) -> ProcessoArmazenado | None:
        """Append one event after ``validar`` accepts the whole new list; ``None`` when the
        processo does not exist. A refusal (the callback's exception) stores nothing."""
        for _ in range(TENTATIVAS):
            try:
                with self._sessao(escrita=True) as sessao:
                    consulta = select(ProcessoSalvo).where(ProcessoSalvo.id == processo_id)
                    if sessao.get_bind().dialect.name == "postgresql":
                        consulta = consulta.with_for_update()
                    linha = sessao.scalars(consulta).first()
                    if linha is None:
                        return None
                    sessao.refresh(linha, ["eventos"])
                    validar(_processo(linha), evento, data)
                    momento = agora()
                    sessao.add(
                        EventoSalvo(
                            processo_id=linha.id,
                            posicao=len(linha.eventos),
                            evento=evento,
                            data=data,
                            usuario=usuario,
                            criado_em=momento,
                        )
                    )
                    linha.atualizado_em = momento
                    sessao.flush()
                    self._auditar(
                        sessao,
                        usuario,
                        "processo_evento",
                        {"processo_id": linha.id, "evento": evento, "data": data.isoformat()},
                    )
                    sessao.refresh(linha, ["eventos"])
                    return _processo(linha)
            except (IntegrityError, OperationalError):
                continue  # another append won the race: validate against the new list
        raise Conflito(f"o processo {processo_id} mudou várias vezes durante a operação")

    def remover_ultimo_evento(
        self, processo_id: int, usuario: str = USUARIO_PADRAO
    ) -> ProcessoArmazenado | None:
        """Undo the last event (a correction); the first event stays. ``None``: no processo."""
        with self._sessao(escrita=True) as sessao:
            linha = sessao.get(
                ProcessoSalvo, processo_id, options=[selectinload(ProcessoSalvo.eventos)]
            )
            if linha is None:
                return None
            if len(linha.eventos) > 1:
                ultimo = linha.eventos[-1]
                sessao.execute(delete(EventoSalvo).where(EventoSalvo.id == ultimo.id))
                linha.atualizado_em = agora()
                self._auditar(
                    sessao,
                    usuario,
                    "processo_remover_evento",
                    {"processo_id": linha.id, "evento": ultimo.evento, "data": ultimo.data},
                )
                sessao.flush()
                sessao.expire(linha, ["eventos"])
            return _processo(linha)

    def excluir_processo(self, processo_id: int, usuario: str = USUARIO_PADRAO) -> bool:
        with self._sessao(escrita=True) as sessao:
            linha = sessao.get(ProcessoSalvo, processo_id)
            if linha is None:
                return False
            tipo = linha.tipo
            sessao.delete(linha)
            self._auditar(
                sessao, usuario, "processo_excluir", {"processo_id": processo_id, "tipo": tipo}
            )
        return True

    # --- the ledger ------------------------------------------------------------------------

    def salvar_ano(
        self,
        cnpj: str,
        ano: int,
        nome: str | None,
        entrada: dict[str, Any],
        usuario: str = USUARIO_PADRAO,
    ) -> AnoArmazenado:
        """Create or replace one year of a distributor's ledger."""
        momento = agora()
        texto = json.dumps(entrada, ensure_ascii=False)
        for _ in range(TENTATIVAS):
            try:
                with self._sessao(escrita=True) as sessao:
                    linha = sessao.scalars(
                        select(AnoCarteiraSalvo).where(
                            AnoCarteiraSalvo.cnpj == cnpj, AnoCarteiraSalvo.ano == ano
                        )
                    ).first()
                    acao = "carteira_alterar" if linha else "carteira_criar"
                    if linha is None:
                        linha = AnoCarteiraSalvo(
                            cnpj=cnpj, ano=ano, criado_em=momento, usuario=usuario, entrada=texto
                        )
                        sessao.add(linha)
                    linha.nome = nome
                    linha.entrada = texto
                    linha.usuario = usuario
                    linha.atualizado_em = momento
                    sessao.flush()
                    self._auditar(sessao, usuario, acao, {"cnpj": cnpj, "ano": ano})
                    return _ano(linha)
            except (IntegrityError, OperationalError):
                continue
        raise Conflito(f"a carteira {cnpj} mudou várias vezes durante a operação")

    def anos_carteira(self, cnpj: str) -> list[AnoArmazenado]:
        consulta = (
            select(AnoCarteiraSalvo)
            .where(AnoCarteiraSalvo.cnpj == cnpj)
            .order_by(AnoCarteiraSalvo.ano)
        )
        with self._sessao() as sessao:
            return [_ano(linha) for linha in sessao.scalars(consulta)]

    def distribuidores(self) -> list[tuple[str, str | None, int]]:
        """Each CNPJ of the ledger: (cnpj, the latest name, how many years)."""
        with self._sessao() as sessao:
            linhas = sessao.scalars(
                select(AnoCarteiraSalvo).order_by(AnoCarteiraSalvo.cnpj, AnoCarteiraSalvo.ano)
            ).all()
        resumo: dict[str, tuple[str | None, int]] = {}
        for linha in linhas:
            nome, n = resumo.get(linha.cnpj, (None, 0))
            resumo[linha.cnpj] = (linha.nome or nome, n + 1)
        return [(cnpj, nome, n) for cnpj, (nome, n) in resumo.items()]

    def excluir_ano(self, cnpj: str, ano: int, usuario: str = USUARIO_PADRAO) -> bool:
        with self._sessao(escrita=True) as sessao:
            linha = sessao.scalars(
                select(AnoCarteiraSalvo).where(
                    AnoCarteiraSalvo.cnpj == cnpj, AnoCarteiraSalvo.ano == ano
                )
            ).first()
            if linha is None:
                return False
            sessao.delete(linha)
            self._auditar(sessao, usuario, "carteira_excluir", {"cnpj": cnpj, "ano": ano})
        return True
