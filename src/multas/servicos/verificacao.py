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
from multas.servicos.pendencias import CicloPendencias
from multas.servicos.persistencia import fila
from multas.servicos.persistencia.ancora import Ancora
from multas.servicos.persistencia.integridade import Problema, Relatorio
from multas.servicos.persistencia.modelos_fila import FilaItem, FilaProcesso
from multas.servicos.processos import ProcessoDerivado
from multas.servicos.relogio import hoje as hoje_em_brasilia

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
        lei = self._lei_do_indice(hoje)
        with self.repositorio.leitura() as sessao:
            ids = fila.vivos_em_ordem(sessao)
        problemas: list[Problema] = []
        for armazenados, versoes in self.repo.em_fatias(ids):
            derivados = [self.derivar_ou_erro(a, referencia=hoje) for a in armazenados]
            problemas += [
                Problema("inválido", d.erro, tabela="processos", id=d.armazenado.id)
                for d in derivados
                if d.erro is not None and d.armazenado.erro is None
            ]
            if lei is not None:
                problemas += self._indice_divergente(derivados, hoje, lei, versoes)
        return problemas

    def _indice_divergente(
        self, derivados: list[ProcessoDerivado], hoje: date, lei: str, lidas: dict[int, int]
    ) -> list[Problema]:
        """Of these processos (read at the versions ``lidas``), those whose index of today is
        not what § 6 derives of them. One written since it was read is not compared: its
        index went with the write."""
        ids = [d.armazenado.id for d in derivados]
        indice: dict[int, list[Linha]] = {}
        with self.repositorio.leitura() as sessao:  # the index and the versions, one snapshot
            agora = fila.versoes(sessao, ids)
            marcas = select(FilaProcesso.id).where(
                FilaProcesso.referencia == hoje,
                FilaProcesso.lei == lei,
                FilaProcesso.id.in_(ids),
            )
            for processo_id in sessao.scalars(marcas):
                indice[int(processo_id)] = []
            for linha in sessao.scalars(select(FilaItem).where(FilaItem.processo_id.in_(marcas))):
                indice[linha.processo_id].append(_linha(linha))
        return [
            Problema(
                "alterado",
                f"índice da fila do processo nº {d.armazenado.id} (tabela "
                f"{FilaItem.__tablename__}) alterado fora do sistema: não confere com o que o "
                "§ 6 deriva do processo hoje; 'multas reavaliar' o refaz",
                tabela=str(FilaItem.__tablename__),
                id=d.armazenado.id,
            )
            for d in derivados
            if d.armazenado.id in indice
            and agora.get(d.armazenado.id) == lidas.get(d.armazenado.id)
            and sorted(indice[d.armazenado.id], key=repr)
            != _comparavel(self._linhas_do_indice(d, hoje))
        ]


def _linha(linha: FilaItem) -> Linha:
    return (
        linha.tipo,
        linha.estado,
        linha.cnpj,
        linha.confiavel,
        linha.responsavel,
        linha.data,
        linha.situacao,
        linha.pendente,
        linha.nome,
        linha.desde,
        linha.item,
    )


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
                linha["nome"],
                linha["desde"],
                json.dumps(linha["item"], ensure_ascii=False),
            )
            for linha in linhas
        ),
        key=repr,
    )
