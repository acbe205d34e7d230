"""One core, thin adapters: the import-linter contracts of pyproject.toml hold, they cover every
module of the package, and they fail when an adapter imports another one."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

RAIZ = Path(__file__).resolve().parents[1]
ADAPTADORES = {"cli", "servidor", "lote"}
RAIZ_DE_COMPOSICAO = {"principal", "__main__"}


def _contratos() -> dict[str, dict[str, object]]:
    dados = tomllib.loads((RAIZ / "pyproject.toml").read_text(encoding="utf-8"))
    return {c["id"]: c for c in dados["tool"]["importlinter"]["contracts"]}


def _lint_imports(src: Path) -> subprocess.CompletedProcess[str]:
    lint = Path(sys.executable).with_name("lint-imports")
    ambiente = {**os.environ, "PYTHONPATH": str(src)}
    return subprocess.run(
        [str(lint), "--config", str(RAIZ / "pyproject.toml"), "--no-cache"],
        capture_output=True,
        text=True,
        cwd=src,
        env=ambiente,
        timeout=120,
    )


def test_todo_modulo_do_pacote_e_nucleo_ou_adaptador() -> None:
    nucleo = {
        str(m).removeprefix("multas.")
        for m in _contratos()["nucleo-sem-adaptadores"]["source_modules"]  # type: ignore[attr-defined]
    }
    modulos = {
        item.stem if item.suffix == ".py" else item.name
        for item in (RAIZ / "src" / "multas").iterdir()
        if (item.suffix == ".py" and item.stem != "__init__")
        or (item.is_dir() and (item / "__init__.py").exists())
    }
    sem_lugar = modulos - nucleo - ADAPTADORES - RAIZ_DE_COMPOSICAO
    assert not sem_lugar, f"módulos fora do contrato de importações: {sorted(sem_lugar)}"
    assert not nucleo & ADAPTADORES


def test_contratos_mantidos() -> None:
    r = _lint_imports(RAIZ / "src")
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.parametrize(
    ("arquivo", "importacao"),
    [
        ("lote/io.py", "import multas.cli"),  # an adapter importing another
        ("servidor/api.py", "import multas.lote.io"),
        ("motor.py", "import multas.servidor"),  # the core importing an adapter
    ],
)
def test_contrato_quebra_quando_um_adaptador_importa_outro(
    tmp_path: Path, arquivo: str, importacao: str
) -> None:
    copia = tmp_path / "src"
    shutil.copytree(
        RAIZ / "src" / "multas", copia / "multas", ignore=shutil.ignore_patterns("__pycache__")
    )
    alvo = copia / "multas" / arquivo
    alvo.write_text(alvo.read_text(encoding="utf-8") + f"\n{importacao}  # noqa\n")
    r = _lint_imports(copia)
    assert r.returncode != 0
    assert "BROKEN" in r.stdout
