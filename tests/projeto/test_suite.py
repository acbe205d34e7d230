"""The suite's own rule (tests/utils/__init__.py): no test module imports another test module,
not even inside a function; what two of them share lives in tests/utils (helpers and data) or
tests/fixtures (fixtures). Importing a test module runs its module-level code a second time
and re-registers any fixture it imported, and the shared piece hides in a file named for
another subject."""

from __future__ import annotations

import ast
from pathlib import Path

TESTES = Path(__file__).resolve().parents[1]


def _e_modulo_de_teste(nome: str) -> bool:
    partes = nome.split(".")
    return partes[0] == "tests" and partes[-1].startswith("test_")


def importacoes_de_testes(codigo: str) -> list[str]:
    """The test modules a module's code imports (``tests.….test_…``), wherever it does."""
    achadas = []
    for no in ast.walk(ast.parse(codigo)):
        if isinstance(no, ast.Import):
            achadas += [a.name for a in no.names if _e_modulo_de_teste(a.name)]
        elif isinstance(no, ast.ImportFrom) and no.module and no.level == 0:
            if _e_modulo_de_teste(no.module):
                achadas.append(no.module)
            else:  # from tests.servidor import test_x
                nomes = (f"{no.module}.{a.name}" for a in no.names)
                achadas += [n for n in nomes if _e_modulo_de_teste(n)]
    return achadas


def test_o_detector_acha_cada_forma_de_importar_um_modulo_de_teste() -> None:
    codigo = (
        "import tests.lote.test_a\n"
        "from tests.lote.test_b import x\n"
        "from tests.lote import test_c\n"
        "def f():\n    from tests.nucleo.test_d import y\n"
        "from tests.utils.ano import enviar\n"
        "from multas.test_x import z\n"
    )
    assert importacoes_de_testes(codigo) == [
        "tests.lote.test_a",
        "tests.lote.test_b",
        "tests.lote.test_c",
        "tests.nucleo.test_d",
    ]


def test_nenhum_modulo_de_teste_importa_outro() -> None:
    violacoes = {
        str(arquivo.relative_to(TESTES)): achadas
        for arquivo in sorted(TESTES.rglob("*.py"))
        if (achadas := importacoes_de_testes(arquivo.read_text(encoding="utf-8")))
    }
    assert violacoes == {}
