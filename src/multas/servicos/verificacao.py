"""``multas auditoria verificar`` for the lifecycle: the chain and every record, every stored
processo against § 6 as the rules stand today, the work queue's index against what § 6
derives, the ledger's colliding years and the events' documents."""

from __future__ import annotations

import json
import pickle
from dataclasses import dataclass, replace
from datetime import date
from functools import partial
from typing import Any

from sqlalchemy import select

from multas.servicos.documentos import problemas as problemas_dos_documentos
from multas.servicos.em_paralelo import em_paralelo
from multas.servicos.pendencias import CicloPendencias, estado_do_indice
from multas.servicos.persistencia import escopo_sql, fila
from multas.servicos.persistencia.ancora import Ancora
from multas.servicos.persistencia.armazenados import ProcessoArmazenado
from multas.servicos.persistencia.integridade import Problema, Relatorio
from multas.servicos.persistencia.modelos_fila import (
    DO_TEXTO,
    FilaItem,
    FilaProcesso,
    FilaTexto,
)
from multas.servicos.relogio import hoje as hoje_em_brasilia

#: an index row as compared: every column but its id, the item as stored
Linha = tuple[Any, ...]
#: how many processos are read, derived (on every core) and checked at a time
_FATIA = 2000


class CicloVerificacao(CicloPendencias):
    """What ``multas auditoria verificar`` checks beyond the chain."""

    def verificar(
        self, ancora: tuple[int, str] | Ancora | None = None, processos: int = 1
    ) -> Relatorio:
        """``multas auditoria verificar``: the chain and every stored record
        (:meth:`Repositorio.verificar`), every stored processo against § 6 as the rules
        stand today and its queue index of today (:meth:`invalidos`, derived in
        ``processos`` forked workers: the command line's cores), and every ledger year whose
        CNPJ is not its key, left as it was by migration r0008 because it collides with
        another (never merged: named here until the user resolves it,
        :meth:`RepositorioCiclo.colisoes`), and every event's documents
        (:func:`multas.servicos.documentos.problemas`)."""
        relatorio = self.repositorio.verificar(ancora)
        return replace(
            relatorio,
            problemas=[
                *relatorio.problemas,
                *self.invalidos(processos),
                *self.repo.colisoes(),
                *problemas_dos_documentos(self.repositorio),
            ],
        )

    def invalidos(self, processos: int = 1) -> list[Problema]:
        """The stored processos that § 6 refuses (a listing shows them with their ``erro``),
        and those whose queue index of today is not what § 6 derives of them (edited outside
        the system: the queue would show what it says). A slice of processos at a time, each
        with its index: never all in memory; each slice derived in ``processos`` forked
        workers, which read no database (the legislation and its Selic are read here
        first)."""
        hoje = hoje_em_brasilia()
        lei = self._lei_do_indice(hoje)
        with self.repositorio.leitura() as sessao:
            ids = fila.vivos_em_ordem(sessao)
        fixo = self._com_a_selic_lida() if processos > 1 else None
        problemas: list[Problema] = []
        for armazenados, versoes in self.repo.em_fatias(ids, _FATIA):
            if fixo is None:
                ciclo = self.de_uma_vez()
                conferidos = [_conferir(ciclo, hoje, a) for a in armazenados]
            else:
                fazer = partial(_conferir_em_bytes, fixo, hoje)
                conferidos = [pickle.loads(b) for b in em_paralelo(fazer, armazenados, processos)]
            problemas += [c.invalido for c in conferidos if c.invalido is not None]
            if lei is not None:
                problemas += self._indice_divergente(conferidos, hoje, lei, versoes)
        if escopo_sql.atual() is None:
            with self.repositorio.leitura() as sessao:
                orfaos = fila.orfaos(sessao)
            problemas += [
                Problema(
                    "alterado",
                    f"índice da fila com itens do processo nº {i}, que não está ativo (na "
                    "lixeira, apagado ou nunca salvo): gravados fora do sistema; 'multas "
                    "reavaliar' os apaga",
                    tabela=str(FilaItem.__tablename__),
                    id=i,
                )
                for i in orfaos
            ]
        return problemas

    def _indice_divergente(
        self, conferidos: list[_Conferido], hoje: date, lei: str, lidas: dict[int, int]
    ) -> list[Problema]:
        """Of these processos (read at the versions ``lidas``), those whose index of today is
        not what § 6 derives of them. One written since it was read is not compared: its
        index went with the write."""
        ids = [c.id for c in conferidos]
        indice: dict[int, list[Linha]] = {}
        estados: dict[int, str | None] = {}
        with self.repositorio.leitura() as sessao:  # the index and the versions, one snapshot
            agora = fila.versoes(sessao, ids)
            desde = fila.marca(sessao, hoje, lei)
            do_dia = (
                FilaProcesso.referencia == hoje,
                FilaProcesso.lei == lei,
                FilaProcesso.id.in_(ids),
            )
            marcas = select(FilaProcesso.id).where(*do_dia)
            for processo_id, estado in sessao.execute(
                select(FilaProcesso.id, FilaProcesso.estado).where(*do_dia)
            ):
                indice[int(processo_id)] = []
                estados[int(processo_id)] = estado
            linhas = (
                select(FilaItem, FilaTexto.item)
                .outerjoin(FilaTexto, DO_TEXTO)
                .where(FilaItem.processo_id.in_(marcas))
            )
            for linha, item in sessao.execute(linhas):
                indice[linha.processo_id].append(_linha(linha, item))
        alterados = [
            c.id
            for c in conferidos
            if c.id in indice
            and agora.get(c.id) == lidas.get(c.id)
            and sorted(indice[c.id], key=repr) != c.indice
        ]
        # the processo's own row: its estado (the /processos list's estado filter reads it)
        outro_estado = [
            c.id
            for c in conferidos
            if c.id in estados and agora.get(c.id) == lidas.get(c.id) and estados[c.id] != c.estado
        ]
        # under the mark, a processo not written since it has its rows (else the queue,
        # looking only among those written since, would not show it)
        apagados = [
            c.id
            for c in conferidos
            if desde is not None
            and c.id not in indice
            and agora.get(c.id) == lidas.get(c.id)
            and agora.get(c.id, 0) <= desde
        ]
        return [
            Problema(
                "alterado",
                f"índice da fila do processo nº {i} (tabela {tabela}) alterado fora do sistema: "
                "não confere com o que o § 6 deriva do processo hoje; 'multas reavaliar' o "
                "refaz",
                tabela=str(tabela),
                id=i,
            )
            for ids_, tabela in (
                (alterados, FilaItem.__tablename__),
                (apagados, FilaProcesso.__tablename__),
                (outro_estado, FilaProcesso.__tablename__),
            )
            for i in ids_
        ]


@dataclass(frozen=True, slots=True)
class _Conferido:
    """What verifying derived of one processo: its problem with § 6, if any, and its index
    rows as the index would hold them today."""

    id: int
    invalido: Problema | None
    indice: list[Linha]
    #: its estado as the index would hold it (``None``: it cannot be read)
    estado: str | None


def _conferir(ciclo: CicloPendencias, hoje: date, armazenado: ProcessoArmazenado) -> _Conferido:
    derivado = ciclo.derivar_ou_erro(armazenado, referencia=hoje)
    invalido = None
    if derivado.erro is not None and armazenado.erro is None:
        invalido = Problema("inválido", derivado.erro, tabela="processos", id=armazenado.id)
    linhas = _comparavel(ciclo._linhas_do_indice(derivado, hoje))
    return _Conferido(armazenado.id, invalido, linhas, estado_do_indice(derivado))


def _conferir_em_bytes(ciclo: CicloPendencias, hoje: date, armazenado: ProcessoArmazenado) -> bytes:
    """:func:`_conferir` in a worker: its result, pickled (what :func:`em_paralelo` carries)."""
    return pickle.dumps(_conferir(ciclo, hoje, armazenado))


def _linha(linha: FilaItem, item: str | None) -> Linha:
    return (
        linha.tipo,
        linha.ordem,
        linha.estado,
        linha.cnpj,
        linha.confiavel,
        linha.responsavel,
        linha.data,
        linha.situacao,
        linha.pendente,
        linha.nome,
        linha.desde,
        item,
    )


def _comparavel(linhas: list[dict[str, Any]]) -> list[Linha]:
    """What the index would hold of a processo derived now (:func:`_indice`'s form)."""
    return sorted(
        (
            (
                linha["tipo"],
                fila.ordem_da_linha(linha),
                linha["estado"],
                linha["cnpj"],
                linha["confiavel"],
                linha["responsavel"],
                linha["data"],
                linha["situacao"],
                linha["pendente"],
                linha["nome"],
                linha["desde"],
                json.dumps(linha["item"], ensure_ascii=False),
            )
            for linha in linhas
        ),
        key=repr,
    )
