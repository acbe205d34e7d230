"""A stored processo keeps each event once (``uq_processo_eventos_evento``): a second court
suspension, which § 6 accepts, is refused with a pt-BR error naming the event, through the
library, the API and the import alike, never a database failure (a 500)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from multas.nucleo.erros import EntradaInvalida
from multas.servicos.gestao import Ciclo
from multas.servicos.persistencia import Repositorio
from multas.servidor import criar_app

EVENTOS = [
    {"evento": "infracao", "data": "2024-01-10"},
    {"evento": "auto_infracao", "data": "2024-02-01"},
    {"evento": "suspensao_judicial", "data": "2024-03-01"},
    {"evento": "fim_suspensao_judicial", "data": "2024-04-01"},
]
SEGUNDA = {"evento": "suspensao_judicial", "data": "2024-05-02"}
MENSAGEM = (
    "o evento “Suspensão do processo por ordem judicial” (suspensao_judicial) já está neste processo: um processo salvo ainda não guarda "
    "o mesmo evento duas vezes (uma segunda suspensão judicial)"
)


def test_criar_e_acrescentar_recusam_a_segunda_suspensao(tmp_path: Path) -> None:
    ciclo = Ciclo(Repositorio(f"sqlite:///{tmp_path / 'm.db'}"))
    with pytest.raises(EntradaInvalida) as erro:
        ciclo.criar({"tipo": "anp", "eventos": [*EVENTOS, SEGUNDA]})
    assert (erro.value.campo, erro.value.mensagem) == ("eventos[4].evento", MENSAGEM)
    derivado = ciclo.criar({"tipo": "anp", "eventos": EVENTOS})
    pid = derivado.armazenado.id
    with pytest.raises(EntradaInvalida) as erro:
        ciclo.acrescentar(pid, SEGUNDA)
    assert (erro.value.campo, erro.value.mensagem) == ("evento", MENSAGEM)
    assert len(ciclo.obter(pid).armazenado.eventos) == 4  # nothing stored


def test_pela_api_e_422_nunca_500(tmp_path: Path) -> None:
    with TestClient(
        criar_app(f"sqlite:///{tmp_path / 'm.db'}"), raise_server_exceptions=False
    ) as cliente:
        r = cliente.post("/api/v1/processos", json={"tipo": "anp", "eventos": [*EVENTOS, SEGUNDA]})
        assert r.status_code == 422 and r.json()["erro"]["mensagem"] == MENSAGEM
        r = cliente.post("/api/v1/processos", json={"tipo": "anp", "eventos": EVENTOS})
        assert r.status_code == 201, r.text
        pid = r.json()["processo_id"]
        r = cliente.post(f"/api/v1/processos/{pid}/eventos", json=SEGUNDA)
        assert r.status_code == 422 and r.json()["erro"]["campo"] == "evento"
