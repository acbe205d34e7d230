"""One core, thin adapters: the import-linter contracts of pyproject.toml hold, they cover every
module of the package, and they fail when an adapter imports another one. Inside the server,
the modules form layers with no import loop: the layers contract names every module, and it
fails when a lower layer imports a higher one, even inside a function."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

RAIZ = Path(__file__).resolve().parents[2]
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


def test_todo_modulo_do_servidor_tem_sua_camada() -> None:
    camadas = _contratos()["servidor-em-camadas"]
    assert camadas["type"] == "layers" and camadas["containers"] == ["multas.servidor"]
    assert camadas["exhaustive"] is True  # lint-imports itself refuses a module left out
    nomes = [
        nome.strip()
        for camada in camadas["layers"]  # type: ignore[attr-defined]
        for nome in str(camada).replace(":", "|").split("|")
    ]
    modulos = {
        item.stem
        for item in (RAIZ / "src" / "multas" / "servidor").glob("*.py")
        if item.stem != "__init__"
    }
    assert sorted(nomes) == sorted(modulos)


def test_contratos_mantidos() -> None:
    r = _lint_imports(RAIZ / "src")
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.parametrize(
    ("arquivo", "importacao"),
    [
        ("lote/io.py", "import multas.cli"),  # an adapter importing another
        ("servidor/api.py", "import multas.lote.io"),
        ("motor.py", "import multas.servidor"),  # the core importing an adapter
        # inside the server, a lower layer importing a higher one: the loops that were
        ("servidor/resposta.py", "import multas.servidor.paginas"),
        ("servidor/pedido.py", "import multas.servidor.acesso"),
        ("servidor/seguranca.py", "import multas.servidor.erros"),
        ("servidor/servico.py", "import multas.servidor.pedido"),
        ("servidor/paginas.py", "import multas.servidor.api"),  # two routers
        # hidden in a function, as the loops were held together before
        ("servidor/erros.py", "def _f():\n    import multas.servidor.paginas"),
    ],
)
def test_contrato_quebra_quando_uma_importacao_o_viola(
    tmp_path: Path, arquivo: str, importacao: str
) -> None:
    copia = _copia(tmp_path)
    alvo = copia / "multas" / arquivo
    alvo.write_text(alvo.read_text(encoding="utf-8") + f"\n{importacao}  # noqa\n")
    r = _lint_imports(copia)
    assert r.returncode != 0
    assert "BROKEN" in r.stdout


def test_contrato_quebra_com_um_modulo_do_servidor_fora_das_camadas(tmp_path: Path) -> None:
    copia = _copia(tmp_path)
    (copia / "multas" / "servidor" / "novo.py").write_text('"""Not in any layer."""\n')
    r = _lint_imports(copia)
    assert r.returncode != 0
    assert "novo" in r.stdout


def _copia(tmp_path: Path) -> Path:
    copia = tmp_path / "src"
    shutil.copytree(
        RAIZ / "src" / "multas", copia / "multas", ignore=shutil.ignore_patterns("__pycache__")
    )
    return copia


@pytest.mark.parametrize(
    "argumentos", [["regimes"], ["calcular", "exemplos/renovabio-distribuidor.json"], ["--help"]]
)
def test_comandos_sem_banco_nem_servidor_nao_carregam_pydantic(argumentos: list[str]) -> None:
    """The settings (pydantic, ~0.25 s) load only on the paths that need one: the server, the
    database, the compiled loops; the CLI's start-up stays as it was."""
    codigo = f"""
import sys
from click.testing import CliRunner
from multas.principal import cli
r = CliRunner().invoke(cli, {argumentos!r})
assert r.exit_code == 0, r.output
print(sorted(m for m in ("pydantic", "pydantic_settings", "multas.servicos.configuracao", "sqlalchemy")
             if m in sys.modules))
"""
    ambiente = {**os.environ, "PYTHONPATH": str(RAIZ / "src")}
    saida = subprocess.run(
        [sys.executable, "-c", codigo],
        capture_output=True,
        text=True,
        cwd=RAIZ,
        env=ambiente,
        timeout=120,
    )
    assert saida.returncode == 0, saida.stderr
    assert saida.stdout.strip() == "[]"
