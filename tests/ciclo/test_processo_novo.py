"""A new processo is read once, into a frozen value (:class:`NovoProcesso`), and that value
is what is stored: no second parse of the same input before it is written."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from multas.servicos import processos
from multas.servicos.gestao import Ciclo
from multas.servicos.persistencia import Repositorio
from multas.servicos.persistencia.ciclo import NovoProcesso

PROCESSO = {
    "tipo": "anp",
    "id": "AI-1",
    "cnpj": "11.222.333/0001-81",
    "valor_multa": "1000.00",
    "eventos": [
        {"evento": "infracao", "data": "2025-01-10"},
        {"evento": "auto_infracao", "data": "2025-01-20"},
    ],
}


def test_o_processo_novo_e_lido_uma_vez_e_guardado_como_foi_lido(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    leituras: list[Any] = []
    original = processos.ler_processo

    def contar(*args: Any, **kwargs: Any) -> Any:
        leituras.append(args[0])
        return original(*args, **kwargs)

    monkeypatch.setattr(processos, "ler_processo", contar)
    monkeypatch.setattr(processos, "analisar", lambda *a, **k: pytest.fail("lido de novo"))
    ciclo = Ciclo(Repositorio(f"sqlite:///{tmp_path / 'm.db'}"))
    novo = ciclo.preparar(PROCESSO)
    assert len(leituras) == 1
    assert isinstance(novo, NovoProcesso)
    with pytest.raises(dataclasses.FrozenInstanceError):
        novo.tipo = "renovabio.lista"  # type: ignore[misc]
    assert (novo.identificador, novo.valor_multa, novo.eventos[0][0]) == (
        "AI-1",
        "1000.00",
        "infracao",
    )
    armazenado = ciclo.repo.criar_processo(novo, usuario="teste")
    assert (armazenado.tipo, armazenado.identificador, armazenado.valor_multa) == (
        "anp",
        "AI-1",
        "1000.00",
    )
    assert [(e.evento, e.data) for e in armazenado.eventos] == list(novo.eventos)
