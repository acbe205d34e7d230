"""``multas auditoria verificar`` for the lifecycle: the chain and every record, every stored
processo against § 6 as the rules stand today, the work queue's index against what § 6
derives, the ledger's colliding years and the events' documents."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import date
from typing import Any

from sqlalchemy import select

from multas.servicos.documentos import problemas as problemas_dos_documentos
from multas.servicos.pendencias import CicloPendencias, impressao
from multas.servicos.persistencia import fila
from multas.servicos.persistencia.ancora import Ancora
from multas.servicos.persistencia.integridade import Problema, Relatorio
from multas.servicos.persistencia.modelos_fila import FilaItem, FilaProcesso
from multas.servicos.processos import ProcessoDerivado
from multas.servicos.relogio import hoje as hoje_em_brasilia

#: how many processos are checked against their index at a time
_FATIA = 500
#: an index row as compared: every column but its id, the item as stored
Linha = tuple[Any, ...]


class CicloVerificacao(CicloPendencias):
    """What ``multas auditoria verificar`` checks beyond the chain."""

    def verificar(self, ancora: tuple[int, str] | Ancora | None = None) -> Relatorio:
        """``multas auditoria verificar``: the chain and every stored record
        (:meth:`Repositorio.verificar`), every stored processo against § 6 as the rules
        stand today and its queue index of today (:meth:`invalidos`), and every ledger year
        whose CNPJ is not its key, left as it was by migration r0008 because it collides with
        another (never merged: named here until the user resolves it,
        :meth:`RepositorioCiclo.colisoes`), and every event's documents
        (:func:`multas.servicos.documentos.problemas`)."""
        relatorio = self.repositorio.verificar(ancora)
        return replace(
            relatorio,
            problemas=[
                *relatorio.problemas,
                *self.invalidos(),
                *self.repo.colisoes(),
                *problemas_dos_documentos(self.repositorio),
            ],
        )

    def invalidos(self) -> list[Problema]:
        """The stored processos that § 6 refuses (a listing shows them with their ``erro``),
        and those whose queue index of today is not what § 6 derives of them (edited outside
        the system: the queue would show what it says). A slice of processos at a time, each
        with its index: never all in memory."""
        hoje = hoje_em_brasilia()
        with self.repositorio.leitura() as sessao:
            ids = fila.vivos_em_ordem(sessao)
        problemas: list[Problema] = []
        fatia: list[ProcessoDerivado] = []
        for derivado in self._em_fatias(ids, hoje, None):  # None: verifying writes nothing
            armazenado = derivado.armazenado
            if derivado.erro is not None and armazenado.erro is None:
                problemas.append(
                    Problema("inválido", derivado.erro, tabela="processos", id=armazenado.id)
                )
            fatia.append(derivado)
            if len(fatia) == _FATIA:
                problemas += self._indice_divergente(fatia, hoje)
                fatia = []
        return problemas + self._indice_divergente(fatia, hoje)

    def _indice_divergente(self, derivados: list[ProcessoDerivado], hoje: date) -> list[Problema]:
        """Of these processos, those whose index of today is not what § 6 derives of them.
        One written since its index was read is not an edit: its index changed with it, so
        each one that differs is read again."""
        ids = [d.armazenado.id for d in derivados]
        indice = self._indice(hoje, ids)
        divergentes = [
            d.armazenado.id
            for d in derivados
            if (guardado := indice.get(d.armazenado.id)) is not None
            and guardado != _comparavel(self._linhas_do_indice(d, hoje))
        ]
        agora = self._indice(hoje, divergentes) if divergentes else {}
        return [
            Problema(
                "alterado",
                f"índice da fila do processo nº {processo_id} (tabela "
                f"{FilaItem.__tablename__}) alterado fora do sistema: não confere com o que o "
                "§ 6 deriva do processo hoje; 'multas reavaliar' o refaz",
                tabela=str(FilaItem.__tablename__),
                id=processo_id,
            )
            for processo_id in divergentes
            if agora.get(processo_id) == indice[processo_id]
        ]

    def _indice(self, hoje: date, ids: list[int]) -> dict[int, list[Linha]]:
        """The index of ``hoje`` of these processos under the legislation in force:
        processo → its rows, comparable (none with another legislation: there is no index
        to check)."""
        if self._legislacao is not None or not ids:
            return {}
        lei = impressao(self.legislacao)
        indice: dict[int, list[Linha]] = {}
        with self.repositorio.leitura() as sessao:
            marcas = select(FilaProcesso.id).where(
                FilaProcesso.referencia == hoje,
                FilaProcesso.lei == lei,
                FilaProcesso.id.in_(ids),
            )
            for processo_id in sessao.scalars(marcas):
                indice[int(processo_id)] = []
            itens = select(FilaItem).where(FilaItem.processo_id.in_(marcas))
            for linha in sessao.scalars(itens):
                indice[linha.processo_id].append(
                    (
                        linha.tipo,
                        linha.estado,
                        linha.cnpj,
                        linha.confiavel,
                        linha.responsavel,
                        linha.data,
                        linha.situacao,
                        linha.pendente,
                        linha.item,
                    )
                )
        return {i: sorted(linhas, key=repr) for i, linhas in indice.items()}


def _comparavel(linhas: list[dict[str, Any]]) -> list[Linha]:
    """What the index would hold of a processo derived now (:func:`_indice`'s form)."""
    return sorted(
        (
            (
                linha["tipo"],
                linha["estado"],
                linha["cnpj"],
                linha["confiavel"],
                linha["responsavel"],
                linha["data"],
                linha["situacao"],
                linha["pendente"],
                json.dumps(linha["item"], ensure_ascii=False),
            )
            for linha in linhas
        ),
        key=repr,
    )
