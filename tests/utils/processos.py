"""Processos of the lifecycle: a linkable pair (an ``anp`` processo and the ``renovabio.lista``
processo of the same distributor), and a stored processo that the rules no longer accept."""

from __future__ import annotations

from datetime import date
from typing import Any

from multas.persistencia import Repositorio
from multas.persistencia.modelos_ciclo import EventoSalvo, ProcessoSalvo

CNPJ = "12.345.678/0001-95"


def anp(cnpj: str | None = CNPJ) -> dict[str, Any]:
    return {
        "tipo": "anp",
        "eventos": [
            {"evento": "infracao", "data": "2026-01-02"},
            {"evento": "auto_infracao", "data": "2026-01-12"},
        ],
    } | ({"cnpj": cnpj} if cnpj is not None else {})


def lista(cnpj: str | None = "12345678000195") -> dict[str, Any]:
    return {
        "tipo": "renovabio.lista",
        "eventos": [{"evento": "fim_prazo_meta", "data": "2025-12-31"}],
    } | ({"cnpj": cnpj} if cnpj is not None else {})


def invalidar(repo: Repositorio, processo_id: int) -> None:
    """What a later change of the rules does to a stored processo: the system itself stored
    it (the chain vouches for it), and § 6 now refuses its list (here: an event that § 6
    never accepts after these, written past the check)."""
    with repo.escrita("migração") as escrita:
        linha = escrita.travar(ProcessoSalvo, processo_id)
        assert linha is not None
        escrita.sessao.refresh(linha, ["eventos"])
        escrita.inserir(
            EventoSalvo(
                processo_id=processo_id,
                posicao=len(linha.eventos),
                evento="fim_prazo_meta_bis",
                data=date(2025, 1, 1),
                usuario="migração",
                criado_em=escrita.momento,
            ),
            "teste",
        )
