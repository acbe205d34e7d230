from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from multas import calcular
from multas.erros import EntradaInvalida

# Hypothesis: no per-example deadline. On a shared 2-core machine a slow example is load, not
# a defect; the properties, not the timings, are what these tests check.
settings.register_profile("multas", deadline=None)
settings.load_profile("multas")


# --- the clock -------------------------------------------------------------------------
# No test may depend on today's date. `make test` runs the suite a second and a third time
# with `--hoje 2031-07-15` and `--hoje 2028-02-29`: the whole session then lives on that
# date (time-machine moves datetime, date.today and time.time; the clock keeps ticking).


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--hoje",
        metavar="AAAA-MM-DD",
        default=None,
        help="roda a sessão inteira como se hoje fosse esta data (12:00 em Brasília)",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "relogio_real: precisa do relógio real (subprocessos, navegador)"
    )
    hoje = config.getoption("--hoje")
    if hoje:
        import datetime as dt

        import time_machine

        from multas.relogio import fuso_brasilia

        dia = dt.date.fromisoformat(hoje)
        destino = dt.datetime(dia.year, dia.month, dia.day, 12, tzinfo=fuso_brasilia())
        viagem = time_machine.travel(destino, tick=True)
        viagem.start()
        config.add_cleanup(viagem.stop)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On a faked date, tests that run other processes (which keep the real clock) are left out."""
    if not config.getoption("--hoje"):
        return
    fora = [item for item in items if item.get_closest_marker("relogio_real")]
    if fora:
        config.hook.pytest_deselected(items=fora)
        items[:] = [item for item in items if not item.get_closest_marker("relogio_real")]


def calc(**entrada: Any) -> dict[str, Any]:
    """Compute one case given as keyword arguments."""
    return calcular(entrada)


def erro(**entrada: Any) -> EntradaInvalida:
    """The input error a case raises (the test fails if it computes)."""
    with pytest.raises(EntradaInvalida) as info:
        calcular(entrada)
    return info.value


# --- services the server's tests need: PostgreSQL and Chromium -----------------------------
# Locally, a test whose service is missing is skipped with the reason; under CI (CI=true) it
# fails instead, so CI can never pass by silently skipping them. `.ci/run` installs and starts
# both (scripts/servicos_teste.sh) and exports MULTAS_TEST_POSTGRES_URL.


def faltando(o_que: str, como: str) -> None:
    """Skip locally, fail in CI."""
    mensagem = f"{o_que} indisponível: {como}"
    if os.environ.get("CI") == "true":
        pytest.fail(f"{mensagem} (obrigatório em CI)")
    pytest.skip(mensagem)


#: what scripts/servicos_teste.sh creates; used when MULTAS_TEST_POSTGRES_URL is not set
POSTGRES_LOCAL = "postgresql+psycopg://multas:multas@127.0.0.1:5432/multas_teste"


def _postgres_local() -> str | None:
    try:
        import psycopg

        psycopg.connect(POSTGRES_LOCAL.replace("+psycopg", ""), connect_timeout=2).close()
    except Exception:
        return None
    return POSTGRES_LOCAL


def _url_postgres_isolada(base: str, esquema: str) -> str:
    from sqlalchemy.engine import make_url

    url = make_url(base).update_query_dict({"options": f"-csearch_path={esquema}"})
    return url.render_as_string(hide_password=False)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database: SQLite in tmp_path, or a fresh schema in the test PostgreSQL."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'multas.db'}"
        return
    base = os.environ.get("MULTAS_TEST_POSTGRES_URL") or _postgres_local()
    if not base:
        faltando(
            "PostgreSQL",
            'defina MULTAS_TEST_POSTGRES_URL (eval "$(sudo bash scripts/servicos_teste.sh)")',
        )
        return
    from sqlalchemy import create_engine, text

    from multas.persistencia import normalizar_url

    base = normalizar_url(base)
    esquema = f"teste_{uuid.uuid4().hex[:12]}"
    admin = create_engine(base)
    try:
        with admin.begin() as conexao:
            conexao.execute(text(f"CREATE SCHEMA {esquema}"))
        yield _url_postgres_isolada(base, esquema)
    finally:
        with admin.begin() as conexao:
            conexao.execute(text(f"DROP SCHEMA IF EXISTS {esquema} CASCADE"))
        admin.dispose()


@pytest.fixture
def repo(database_url: str) -> Iterator[Any]:
    """A migrated repository on each database of ``database_url``."""
    from multas.persistencia import Repositorio

    r = Repositorio(database_url)
    r.migrar()
    yield r
    r.fechar()


#: the application's role of the test PostgreSQL (scripts/servicos_teste.sh creates it; made
#: here too if missing): no CREATEROLE, owns nothing; the migrations grant it its rights
PAPEL_APLICACAO = "multas_app_teste"


def url_aplicacao(database_url: str) -> str:
    """The same database and schema as ``database_url`` (the owner's), as the least-privilege
    application role: what ``multas servir`` runs with on PostgreSQL (two roles, issue 16)."""
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    dada = os.environ.get("MULTAS_TEST_POSTGRES_URL_APP")
    papel, senha = PAPEL_APLICACAO, PAPEL_APLICACAO
    if dada:
        papel, senha = make_url(dada).username or papel, make_url(dada).password or senha
    motor = create_engine(database_url)
    with motor.begin() as conexao:
        existe = conexao.execute(
            text("SELECT 1 FROM pg_roles WHERE rolname = :p"), {"p": papel}
        ).scalar()
        if not existe:
            conexao.execute(text(f"CREATE ROLE {papel} LOGIN PASSWORD '{senha}'"))
    motor.dispose()
    url = make_url(database_url).set(username=papel, password=senha)
    return url.render_as_string(hide_password=False)


# --- the server's app -------------------------------------------------------------------


def textos_da_legislacao() -> dict[str, str]:
    """The shipped legislation files, as texts (to build a modified one in a test)."""
    from importlib import resources

    pasta = resources.files("multas.legislacao") / "parametros"
    return {
        item.name: item.read_text(encoding="utf-8")
        for item in pasta.iterdir()
        if item.name.endswith(".toml")
    }


# --- a server with one user of each role (tests/test_acesso.py, tests/test_permissoes.py) ---

SENHA = "senha-forte-1"


@dataclass
class Ambiente:
    url: str
    tokens: dict[str, str]
    cliente: Any


@pytest.fixture
def ambiente(database_url: str) -> Iterator[Ambiente]:
    """A server app on ``database_url`` with one user of each role (names "usuária <papel>",
    password :data:`SENHA`) and their API tokens."""
    from fastapi.testclient import TestClient

    from multas.persistencia import Repositorio
    from multas.persistencia.acesso import Acesso
    from multas.servidor import criar_app

    repo = Repositorio(database_url)
    acesso = Acesso(repo)
    tokens = {
        papel: acesso.criar(f"usuária {papel}", papel, SENHA, "teste")
        for papel in ("leitura", "analista", "admin")
    }
    repo.fechar()
    app = criar_app(database_url, limite_por_segundo=0)
    with TestClient(app, base_url="https://testserver", raise_server_exceptions=False) as c:
        yield Ambiente(database_url, tokens, c)


def com(amb: Ambiente, papel: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {amb.tokens[papel]}"} if papel else {}


@pytest.fixture
def acesso(database_url: str) -> Iterator[Any]:
    """The users, tokens and login throttle (:class:`multas.persistencia.acesso.Acesso`) of a
    migrated database, on SQLite and PostgreSQL."""
    from multas.persistencia import Repositorio
    from multas.persistencia.acesso import Acesso

    repo = Repositorio(database_url)
    repo.migrar()
    yield Acesso(repo)
    repo.fechar()
