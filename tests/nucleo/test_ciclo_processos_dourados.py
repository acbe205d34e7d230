"""The § 6 output of each scenario processo equals its reviewed golden file
(tests/processos): the processo as read and stored (defaults written out), every deadline with
its date, counting, provision, responsavel and situacao, the estado and the avisos. Regenerate
with ``python scripts/processos.py`` and review the diff; see that script's docstring."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import pytest

RAIZ = Path(__file__).resolve().parents[2]


def _gerador() -> Any:
    spec = importlib.util.spec_from_file_location("processos", RAIZ / "scripts" / "processos.py")
    assert spec and spec.loader
    modulo = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(modulo)
    return modulo


GERADOR = _gerador()
ENTRADAS = GERADOR.entradas()


def test_ha_um_arquivo_para_cada_cenario() -> None:
    arquivos = {p.stem for p in (RAIZ / "tests" / "processos").glob("*.json")} - {"entradas"}
    assert arquivos == set(ENTRADAS)


@pytest.mark.parametrize("nome", sorted(ENTRADAS))
def test_saida_igual_a_revisada(nome: str) -> None:
    golden = (RAIZ / "tests" / "processos" / f"{nome}.json").read_text(encoding="utf-8")
    assert GERADOR.texto(GERADOR.saida(ENTRADAS[nome])) == golden
