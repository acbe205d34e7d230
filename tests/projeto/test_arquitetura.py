"""Three rings and thin adapters: the import-linter contracts of pyproject.toml hold, they
cover every module of the package, and they fail on an upward import or a loop, even one
hidden in a function. The core imports no database, no PDF, no terminal and no clock; no
module of the package is over 800 lines, and no ``__init__.py`` holds more than its
docstring and re-exports."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

RAIZ = Path(__file__).resolve().parents[2]
PACOTE = RAIZ / "src" / "multas"
#: what the core may never reach, directly or through another module
FORA_DO_NUCLEO = ("sqlalchemy", "reportlab", "click", "rich", "multas.servicos.relogio")


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


def _nomes(camadas: object) -> list[str]:
    return [
        nome.strip()
        for camada in camadas  # type: ignore[attr-defined]
        for nome in str(camada).replace(":", "|").split("|")
    ]


def _filhos(pasta: Path) -> set[str]:
    return {
        item.stem if item.suffix == ".py" else item.name
        for item in pasta.iterdir()
        if (item.suffix == ".py" and item.stem != "__init__")
        or (item.is_dir() and (item / "__init__.py").exists())
    }


@pytest.mark.parametrize(
    ("contrato", "pasta"),
    [
        ("aneis", PACOTE),
        ("nucleo-em-camadas", PACOTE / "nucleo"),
        ("servidor-em-camadas", PACOTE / "servidor"),
    ],
)
def test_todo_modulo_tem_sua_camada(contrato: str, pasta: Path) -> None:
    camadas = _contratos()[contrato]
    assert camadas["type"] == "layers" and camadas["exhaustive"] is True
    assert sorted(_nomes(camadas["layers"])) == sorted(_filhos(pasta))


def test_os_aneis_de_baixo_para_cima() -> None:
    """The rings, from the adapters down to the core."""
    camadas = [str(c).split("#")[0].strip() for c in _contratos()["aneis"]["layers"]]  # type: ignore[attr-defined]
    assert camadas[-3:] == ["servicos", "saidas", "nucleo"]
    assert "cli | servidor | lote" in camadas  # the adapters, independent of each other


def test_o_nucleo_nao_alcanca_banco_pdf_terminal_nem_relogio() -> None:
    """No chain of imports, even one inside a function, leads from the core to SQLAlchemy,
    ReportLab, Click, Rich or the clock."""
    import grimp

    grafo = grimp.build_graph("multas", include_external_packages=True)
    nucleo = sorted(m for m in grafo.modules if m.startswith("multas.nucleo"))
    assert len(nucleo) > 20
    for proibido in FORA_DO_NUCLEO:
        for modulo in nucleo:
            cadeia = grafo.find_shortest_chain(importer=modulo, imported=proibido)
            assert cadeia is None, f"{modulo} alcança {proibido}: {' -> '.join(cadeia or ())}"


def test_nenhum_modulo_passa_de_800_linhas() -> None:
    longos = {
        str(arquivo.relative_to(PACOTE)): n
        for arquivo in PACOTE.rglob("*.py")
        if (n := len(arquivo.read_text(encoding="utf-8").splitlines())) > 800
    }
    assert longos == {}


def test_init_so_tem_docstring_e_reexportacoes() -> None:
    """An ``__init__.py`` says what its folder is and re-exports; the code lives in modules
    (the package's root may also import on first use, by ``__getattr__``)."""
    com_codigo = []
    for arquivo in PACOTE.rglob("__init__.py"):
        arvore = ast.parse(arquivo.read_text(encoding="utf-8"))
        if "migracoes" not in arquivo.parts and not ast.get_docstring(arvore):
            com_codigo.append(f"{arquivo.relative_to(PACOTE)}: sem docstring")
        for no in arvore.body[1:] if ast.get_docstring(arvore) else arvore.body:
            permitido = isinstance(no, ast.Import | ast.ImportFrom | ast.If)  # TYPE_CHECKING
            permitido |= isinstance(no, ast.Assign) and any(
                isinstance(alvo, ast.Name) and alvo.id == "__all__" for alvo in no.targets
            )
            permitido |= (
                isinstance(no, ast.FunctionDef)
                and no.name == "__getattr__"
                and arquivo.parent == PACOTE
            )
            if not permitido:
                com_codigo.append(f"{arquivo.relative_to(PACOTE)}:{no.lineno}")
    assert com_codigo == []


def test_contratos_mantidos() -> None:
    r = _lint_imports(RAIZ / "src")
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.parametrize(
    ("arquivo", "importacao"),
    [
        ("lote/io.py", "import multas.cli"),  # an adapter importing another
        ("servidor/api.py", "import multas.lote.io"),
        ("nucleo/motor.py", "import multas.servidor"),  # the core importing an adapter
        ("nucleo/datas.py", "def _f():\n    import multas.nucleo.legislacao"),  # a core loop
        ("nucleo/regimes/comum.py", "import multas.servicos.relogio"),  # the core's clock
        ("saidas/exportar.py", "import multas.servicos.relogio"),  # the output reaching up
        ("servicos/ano.py", "import multas.cli"),  # a service importing an adapter
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
