"""The memória of every worked case equals its reviewed golden file (tests/memorias): each step
with its value and provision, the avisos, the law applied. Regenerate with
``python scripts/memorias.py`` and review the diff; see that script's docstring."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

RAIZ = Path(__file__).resolve().parents[2]


def _gerador() -> Any:
    spec = importlib.util.spec_from_file_location("memorias", RAIZ / "scripts" / "memorias.py")
    assert spec and spec.loader
    modulo = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(modulo)
    return modulo


GERADOR = _gerador()
CASOS = GERADOR.casos()


def test_ha_uma_memoria_para_cada_caso() -> None:
    arquivos = {p.stem for p in (RAIZ / "tests" / "memorias").glob("*.json")}
    assert arquivos == set(CASOS)


@pytest.mark.parametrize("nome", sorted(CASOS))
def test_memoria_igual_a_revisada(nome: str) -> None:
    golden = (RAIZ / "tests" / "memorias" / f"{nome}.json").read_text(encoding="utf-8")
    assert GERADOR.texto(GERADOR.memoria(CASOS[nome])) == golden
