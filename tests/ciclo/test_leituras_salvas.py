"""A stored processo keeps its readings and the penal period (migration r0013; spec § 3.7
point 3 and § 6.1 v4): saved, it is judged as the same processo given to ``prazos
calcular``, after each new event too, and it shows what it keeps in ``leituras``."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from multas.nucleo.ciclo.prazos import ler_processo, situacao
from multas.nucleo.legislacao import carregar
from multas.servicos.gestao import Ciclo
from multas.servicos.persistencia import Repositorio
from multas.servidor import criar_app

DIA = date(2034, 6, 1)
PROCESSO: dict[str, Any] = {
    "tipo": "anp",
    "prescricao_penal_anos": 8,
    "interpretacao": {"interrupcao_penal": "nenhuma", "prazo_alegacoes": "lei-9784"},
    "eventos": [
        {"evento": "infracao", "data": "2024-01-10"},
        {"evento": "auto_infracao", "data": "2024-02-01"},
    ],
}


def _sem_salvar(dados: dict[str, Any]) -> dict[str, Any]:
    legislacao = carregar()
    return situacao(ler_processo(dados, legislacao), legislacao, DIA).como_dict()


def test_salvo_guarda_as_leituras_e_o_prazo_penal(tmp_path: Path) -> None:
    ciclo = Ciclo(Repositorio(f"sqlite:///{tmp_path / 'm.db'}"))
    pid = ciclo.criar(PROCESSO).armazenado.id
    detalhe = ciclo.detalhe(ciclo.obter(pid, DIA), DIA)
    assert detalhe["leituras"] == {
        "interpretacao": {"interrupcao_penal": "nenhuma", "prazo_alegacoes": "lei-9784"},
        "prescricao_penal_anos": 8,
    }
    esperado = _sem_salvar(PROCESSO)
    # the penal period, uninterrupted: 8 years from the infraction, the auto notwithstanding
    (prescricao,) = [p for p in esperado["prazos"] if p["prazo"] == "prescricao"]
    assert prescricao["data"] == "2032-01-10"
    assert detalhe["resultado"]["prazos"] == esperado["prazos"]
    # a new event keeps them
    defesa = {"evento": "defesa", "data": "2024-02-15"}
    ciclo.acrescentar(pid, defesa)
    depois = ciclo.detalhe(ciclo.obter(pid, DIA), DIA)
    assert depois["leituras"] == detalhe["leituras"]
    com_defesa = {**PROCESSO, "eventos": [*PROCESSO["eventos"], defesa]}
    assert depois["resultado"]["prazos"] == _sem_salvar(com_defesa)["prazos"]
    # the defaults are not stored: a processo without them keeps NULL (its old state hash)
    outro = ciclo.criar({**PROCESSO, "prescricao_penal_anos": None, "interpretacao": None})
    assert outro.armazenado.leituras is None


def test_pela_api_volta_em_leituras(tmp_path: Path) -> None:
    with TestClient(criar_app(f"sqlite:///{tmp_path / 'm.db'}")) as cliente:
        r = cliente.post("/api/v1/processos", json=PROCESSO)
        assert r.status_code == 201, r.text
        assert r.json()["leituras"]["prescricao_penal_anos"] == 8
        r = cliente.post("/api/v1/processos", json={**PROCESSO, "prescricao_penal_anos": 7})
        assert r.status_code == 422 and r.json()["erro"]["campo"] == "prescricao_penal_anos"
