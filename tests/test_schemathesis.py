"""The API against its own OpenAPI document (issue 10): schemathesis generates requests for
every operation (valid ones, and ones that break the schema) and checks that none is a 5xx,
that each response (status, headers, content type, body) is the one documented, that invalid
input is refused and that ``Allow`` lists every method of a path.

Bounded: ``EXEMPLOS`` examples per operation and phase (a few seconds per operation).

One check is left out: ``positive_data_acceptance`` expects every schema-valid body to be
accepted, but the contract has rules a JSON schema cannot state (both revenue fields or
neither, a quitação after the deadline, a value within the inciso's range...), answered with
a pt-BR 422 as the spec says.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import positive_data_acceptance
from schemathesis.generation.case import Case

from multas.servidor import criar_app

EXEMPLOS = 30

_pasta = Path(tempfile.mkdtemp(prefix="multas-schemathesis-"))
app = criar_app(f"sqlite:///{_pasta / 'multas.db'}")
esquema = schemathesis.openapi.from_asgi("/openapi.json", app)
#: requests sent, per operation (reported by test_schemathesis_cobriu_cada_operacao)
CONTAGEM: dict[str, int] = {}


@esquema.parametrize()
@settings(
    max_examples=EXEMPLOS,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
    database=None,
)
def test_api_conforme_o_openapi(case: Case) -> None:
    nome = f"{case.method} {case.path}"
    CONTAGEM[nome] = CONTAGEM.get(nome, 0) + 1
    case.call_and_validate(excluded_checks=[positive_data_acceptance])


def test_schemathesis_cobriu_cada_operacao() -> None:
    """Runs after the generated tests (same module, defined later): every operation of the
    document was exercised."""
    documento = app.openapi()
    operacoes = {
        f"{metodo.upper()} {caminho}"
        for caminho, itens in documento["paths"].items()
        for metodo in itens
    }
    if not CONTAGEM:  # this test alone (-k): nothing to compare
        return
    assert operacoes <= set(CONTAGEM), operacoes - set(CONTAGEM)
    print(f"\nschemathesis: {sum(CONTAGEM.values())} requisições em {len(CONTAGEM)} operações")
    for nome, quantas in sorted(CONTAGEM.items()):
        print(f"  {quantas:5d}  {nome}")
