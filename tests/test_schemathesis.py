"""The API against its own OpenAPI document (issue 10): schemathesis generates requests for
every operation (valid ones, and ones that break the schema) and checks that none is a 5xx,
that each response (status, headers, content type, body) is the one documented, that invalid
input is refused and that ``Allow`` lists every method of a path.

Bounded: ``EXEMPLOS`` examples per operation and phase (a few seconds per operation). It runs
against SQLite and against PostgreSQL (a schema of its own, dropped at the end), where texts,
integers and dates reach a stricter database: no 5xx on either.

One check is left out: ``positive_data_acceptance`` expects every schema-valid body to be
accepted, but the contract has rules a JSON schema cannot state (both revenue fields or
neither, a quitação after the deadline, a value within the inciso's range...), answered with
a pt-BR 422 as the spec says.
"""

from __future__ import annotations

import os
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import positive_data_acceptance
from schemathesis.generation.case import Case

from multas.persistencia import normalizar_url
from multas.servidor import criar_app
from tests.conftest import _postgres_local, _url_postgres_isolada, faltando

EXEMPLOS = 30

_pasta = Path(tempfile.mkdtemp(prefix="multas-schemathesis-"))
app = criar_app(f"sqlite:///{_pasta / 'multas.db'}")
esquema = schemathesis.openapi.from_asgi("/openapi.json", app)
#: requests sent, per operation (reported by test_schemathesis_cobriu_cada_operacao)
CONTAGEM: dict[str, int] = {}
CONFIGURACAO = settings(
    max_examples=EXEMPLOS,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
    database=None,
)


def _postgresql() -> tuple[str, str] | None:
    """(the base URL, a fresh schema of this module's own) on the test PostgreSQL, if any."""
    base = os.environ.get("MULTAS_TEST_POSTGRES_URL") or _postgres_local()
    if not base:
        return None
    from sqlalchemy import create_engine, text

    esquema_pg = f"schemathesis_{uuid.uuid4().hex[:12]}"
    admin = create_engine(normalizar_url(base))
    with admin.begin() as conexao:
        conexao.execute(text(f"CREATE SCHEMA {esquema_pg}"))
    admin.dispose()
    return normalizar_url(base), esquema_pg


_PG = _postgresql()
app_pg = criar_app(_url_postgres_isolada(*_PG)) if _PG else None
esquema_postgresql = schemathesis.openapi.from_asgi("/openapi.json", app_pg or app)


@pytest.fixture(scope="module", autouse=True)
def _apagar_esquema_postgresql() -> Iterator[None]:
    yield
    if _PG is not None:
        from sqlalchemy import create_engine, text

        assert app_pg is not None
        app_pg.state.servico.repositorio.fechar()
        admin = create_engine(_PG[0])
        with admin.begin() as conexao:
            conexao.execute(text(f"DROP SCHEMA IF EXISTS {_PG[1]} CASCADE"))
        admin.dispose()


@esquema.parametrize()
@CONFIGURACAO
def test_api_conforme_o_openapi(case: Case) -> None:
    nome = f"{case.method} {case.path}"
    CONTAGEM[nome] = CONTAGEM.get(nome, 0) + 1
    case.call_and_validate(excluded_checks=[positive_data_acceptance])


@esquema_postgresql.parametrize()
@CONFIGURACAO
def test_api_conforme_o_openapi_no_postgresql(case: Case) -> None:
    if app_pg is None:
        faltando("PostgreSQL", "defina MULTAS_TEST_POSTGRES_URL")
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
