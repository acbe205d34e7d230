"""The worked examples (docs/exemplos.md, linked from the README) are the engine's own output
(regenerate with ``python scripts/exemplos_readme.py``); the README opens with the two set-up
commands and stays short."""

from __future__ import annotations

import importlib.util
from pathlib import Path

RAIZ = Path(__file__).resolve().parents[2]


def _gerador() -> object:
    spec = importlib.util.spec_from_file_location(
        "exemplos_readme", RAIZ / "scripts" / "exemplos_readme.py"
    )
    assert spec and spec.loader
    modulo = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(modulo)
    return modulo


def test_exemplos_batem_com_o_motor() -> None:
    gerador = _gerador()
    readme = (RAIZ / "docs" / "exemplos.md").read_text(encoding="utf-8")
    bloco = readme.split(gerador.INICIO)[1].split(gerador.FIM)[0]  # type: ignore[attr-defined]
    assert bloco.strip() == gerador.gerar().strip()  # type: ignore[attr-defined]


def test_readme_comeca_com_os_dois_comandos() -> None:
    inicio = (RAIZ / "README.md").read_text(encoding="utf-8")[:1500]
    assert "make run" in inicio and "make test" in inicio


def test_readme_tem_no_maximo_300_linhas() -> None:
    """Set-up, what it does, where to read more: the figures and the details live in docs/."""
    linhas = (RAIZ / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(linhas) <= 300, len(linhas)
    assert "docs/exemplos.md" in "\n".join(linhas)
