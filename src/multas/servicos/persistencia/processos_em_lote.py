"""Many new processos in one write (issue 36, item 3): what a file import creates, written as
multi-row inserts (:meth:`~multas.servicos.persistencia.escrita.Escrita.inserir_linhas`: one
statement per slice of processos, one per slice of events) instead of one object and one flush
each, and returned as stored without reading them back. The rows, their audit records and the
checks are those of :meth:`RepositorioProcessos._criar_processo_em` (each text checked, the
scope checked, one processo per reference: every key looked up in one query per slice; a key
taken falls back to the one-by-one path, whose error names the line)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from types import SimpleNamespace
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from multas.servicos.persistencia.armazenados import (
    NovoProcesso,
    ProcessoArmazenado,
    _json,
    _processo,
    texto_da_origem,
    texto_das_leituras,
)
from multas.servicos.persistencia.escrita import Escrita
from multas.servicos.persistencia.modelos_ciclo import EventoSalvo, ProcessoSalvo
from multas.servicos.persistencia.referencias import (
    LIMITE_ID,
    _gravados,
    chave_da_referencia,
)
from multas.servicos.persistencia.registros import LOTE_IDS, validar_texto, vivos


def chaves_tomadas(sessao: Session, chaves: Iterable[str]) -> frozenset[str]:
    """Of these reference keys (:func:`chave_da_referencia`), those a processo outside the bin
    holds, whoever's client it is (a reference is the ANP's): one query per slice of keys."""
    formas = [f for c in set(chaves) for f in _gravados(c)]
    tomadas: set[str] = set()
    from multas.servicos.persistencia import escopo_sql

    with escopo_sql.limitado(None):
        for inicio in range(0, len(formas), LOTE_IDS):
            consulta = select(ProcessoSalvo.identificador).where(
                ProcessoSalvo.identificador.in_(formas[inicio : inicio + LOTE_IDS]),
                vivos(ProcessoSalvo),
            )
            for (texto,) in sessao.execute(consulta):
                chave = chave_da_referencia(_json(texto))
                if chave is not None:
                    tomadas.add(chave)
    return frozenset(tomadas)


def referencias_livres(escrita: Escrita, novos: Sequence[NovoProcesso]) -> bool:
    """Whether every reference of ``novos`` is free and none repeats among them: then
    :func:`criar_em_lote` may write them."""
    dadas = [c for n in novos if (c := chave_da_referencia(n.identificador)) is not None]
    return len(set(dadas)) == len(dadas) and not chaves_tomadas(escrita.sessao, dadas)


def criar_em_lote(
    escrita: Escrita, novos: Sequence[NovoProcesso], acao: str
) -> list[ProcessoArmazenado]:
    """Write ``novos`` (their references free: :func:`referencias_livres`) with their events,
    each audited as ``acao``; the processos as stored, in order."""
    momento, usuario = escrita.momento, escrita.usuario
    linhas: list[dict[str, Any]] = []
    for novo in novos:
        if isinstance(novo.identificador, str):  # stored as JSON: the text itself is checked
            validar_texto(novo.identificador, "id", LIMITE_ID)
        linhas.append(
            {
                "tipo": novo.tipo,
                "identificador": None
                if novo.identificador is None
                else json.dumps(novo.identificador),
                "cnpj": novo.cnpj,
                "nome": novo.nome,
                "calendario": novo.calendario,
                "valor_multa": novo.valor_multa,
                "dias_sem_expediente": novo.dias_sem_expediente,
                "caso_id": novo.caso_id,
                "origem": None if novo.origem is None else texto_da_origem(novo.origem),
                "leituras": None if not novo.leituras else texto_das_leituras(novo.leituras),
                "usuario": usuario,
                "criado_em": momento,
                "atualizado_em": momento,
            }
        )
    contagem = {id(linha): len(novo.eventos) for linha, novo in zip(linhas, novos, strict=True)}
    ids = escrita.inserir_linhas(
        ProcessoSalvo,
        linhas,
        (),
        acao,
        lambda linha: {"tipo": linha["tipo"], "eventos": contagem[id(linha)]},
        regime=lambda linha: str(linha["tipo"]),
    )
    eventos: list[dict[str, Any]] = []
    for processo_id, novo in zip(ids, novos, strict=True):
        valores = novo.valores or (None,) * len(novo.eventos)
        planos = novo.planos or (None,) * len(novo.eventos)
        for posicao, ((nome, data), valor, plano) in enumerate(
            zip(novo.eventos, valores, planos, strict=True)
        ):
            eventos.append(
                {
                    "processo_id": processo_id,
                    "posicao": posicao,
                    "evento": nome,
                    "data": data,
                    "valor": valor,
                    "plano": plano,
                    "usuario": usuario,
                    "criado_em": momento,
                }
            )
    escrita.inserir_linhas(
        EventoSalvo, eventos, ("processo_id", "posicao"), acao, detalhe_do_evento
    )
    # as stored, read as a stored row is read (:func:`_processo`), without reading it back
    criados, posicao = [], 0
    for processo_id, linha, novo in zip(ids, linhas, novos, strict=True):
        proprios = eventos[posicao : posicao + len(novo.eventos)]
        posicao += len(novo.eventos)
        criados.append(
            _processo(
                SimpleNamespace(
                    **linha,
                    id=processo_id,
                    lista_id=None,
                    eventos=[SimpleNamespace(**e, documentos=None) for e in proprios],
                )
            )
        )
    return criados


def detalhe_do_evento(linha: Any) -> dict[str, Any]:
    """An event's audit detail (its row's values): its name and date, and its ``valor``,
    ``plano`` and ``documentos`` when it has them."""
    detalhe = {"evento": linha["evento"], "data": linha["data"].isoformat()}
    for coluna in ("valor", "plano", "documentos"):
        if linha.get(coluna) is not None:
            detalhe[coluna] = linha[coluna]
    return detalhe
