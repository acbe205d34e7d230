"""Every worked case of the spec (``casos/*.json``): each ``esperado`` field matches exactly, and
``alternativas`` matches as a set. The cases are copied into ``tests/casos_spec`` so a clean
clone has them; when ``../shared/spec/casos`` exists, those run too (and must be the same).
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest

from multas import calcular

AQUI = Path(__file__).parents[1] / "casos_spec"
COMPARTILHADOS = Path(__file__).resolve().parents[3] / "shared" / "spec" / "casos"


def _casos() -> list[Path]:
    arquivos = {p.name: p for p in sorted(AQUI.glob("*.json"))}
    if COMPARTILHADOS.is_dir():
        for p in sorted(COMPARTILHADOS.glob("*.json")):
            arquivos.setdefault(p.name, p)
    return list(arquivos.values())


@pytest.mark.parametrize("arquivo", _casos(), ids=lambda p: p.stem)
def test_caso_da_especificacao(arquivo: Path) -> None:
    caso = json.loads(arquivo.read_text(encoding="utf-8"), parse_float=Decimal)
    resultado = calcular(caso["entrada"])
    for campo, esperado in caso["esperado"].items():
        assert resultado[campo] == esperado, campo
    chave = lambda alt: json.dumps(alt, sort_keys=True)  # noqa: E731
    assert sorted(map(chave, resultado["alternativas"])) == sorted(map(chave, caso["alternativas"]))


def test_ha_casos_da_especificacao() -> None:
    assert len(_casos()) >= 39


#: worked cases that spec v4 (04/12/2026) changed, and the open issue that implements the change:
#: until then the local copy keeps the v3 case, which the engine reproduces; the issue that
#: implements it copies the new case and removes it from here
PENDENTES_V4: dict[str, str] = {}


@pytest.mark.skipif(not COMPARTILHADOS.is_dir(), reason="../shared não disponível")
def test_copia_local_igual_a_especificacao() -> None:
    for p in COMPARTILHADOS.glob("*.json"):
        local = AQUI / p.name
        assert local.exists(), f"copie {p.name} para tests/casos_spec"
        iguais = json.loads(local.read_text()) == json.loads(p.read_text())
        if p.name in PENDENTES_V4:
            # once the engine implements the change and the copy is updated, this list shrinks
            assert not iguais, f"{p.name} já é o da v4: tire-o de PENDENTES_V4"
        else:
            assert iguais, p.name
