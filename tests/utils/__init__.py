"""What tests share that is not a fixture: the factories and helpers every area uses (the
fixtures themselves are the plugins of :mod:`tests.fixtures`). No test module imports
another test module: what two of them need lives here."""

from __future__ import annotations

import os
import shutil
import socket
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from multas import calcular
from multas.nucleo.erros import EntradaInvalida

#: the ``multas`` console script of this environment (the command the CLI tests run)
MULTAS = shutil.which("multas", path=str(Path(sys.executable).parent)) or "multas"


def porta_livre() -> int:
    """A free TCP port on the loopback interface."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        porta: int = s.getsockname()[1]
        return porta


def cnpj_valido(raiz: int | str, filial: int = 1) -> str:
    """A formatted CNPJ whose check digits are right (the ledger and the year refuse any
    other): the 8-character root (a number, zero-padded, or ``[0-9A-Z]`` text) and the branch.

    >>> cnpj_valido(11222333), cnpj_valido("12ABC345", 1)
    ('11.222.333/0001-81', '12.ABC.345/0001-88')
    """
    from multas.nucleo.cnpj import digitos_verificadores, formatar

    base = (f"{raiz:08d}" if isinstance(raiz, int) else raiz) + f"{filial:04d}"
    return formatar(base + digitos_verificadores(base))


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


def postgres_local() -> str | None:
    try:
        import psycopg

        psycopg.connect(POSTGRES_LOCAL.replace("+psycopg", ""), connect_timeout=2).close()
    except Exception:
        return None
    return POSTGRES_LOCAL


def url_postgres() -> str | None:
    """The test PostgreSQL's URL (the owner's role), normalised, or None."""
    base = os.environ.get("MULTAS_TEST_POSTGRES_URL") or postgres_local()
    if not base:
        return None
    from multas.servicos.persistencia import normalizar_url

    return normalizar_url(base)


def url_postgres_isolada(base: str, esquema: str) -> str:
    from sqlalchemy.engine import make_url

    url = make_url(base).update_query_dict({"options": f"-csearch_path={esquema}"})
    return url.render_as_string(hide_password=False)


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


def textos_da_legislacao() -> dict[str, str]:
    """The shipped legislation files, as texts (to build a modified one in a test)."""
    from importlib import resources

    pasta = resources.files("multas.nucleo.legislacao") / "parametros"
    return {
        item.name: item.read_text(encoding="utf-8")
        for item in pasta.iterdir()
        if item.name.endswith(".toml")
    }


# --- a server with one user of each role (the ``ambiente`` fixture) -------------------------

SENHA = "senha-forte-1"


@dataclass
class Ambiente:
    url: str
    tokens: dict[str, str]
    cliente: Any


def com(amb: Ambiente, papel: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {amb.tokens[papel]}"} if papel else {}


# --- the pt-BR error body of the API -------------------------------------------------------

#: English words no pt-BR error message may carry (framework defaults leaking through)
INGLES = (
    "Not Found",
    "Method Not Allowed",
    "Expecting",
    "field required",
    "Input should",
    "Internal Server Error",
    "Traceback",
    "Unprocessable",
)


#: the members of every error body: RFC 9457's, ``erros`` (every field error) and ``erro`` (the
#: first, the body of earlier versions)
PROBLEMA = {"type", "title", "status", "detail", "instance", "erro", "erros"}


#: where an error of a file's row is (:attr:`multas.nucleo.erros.EntradaInvalida.onde`)
ONDE = {"linha", "item"}


def problema(resposta: Any, status: int) -> dict[str, Any]:
    """Check an error body's shape (``application/problem+json``, RFC 9457, with ``erros``
    and ``erro``, the first of them) and return it."""
    assert resposta.status_code == status, resposta.text
    assert resposta.headers["content-type"].startswith("application/problem+json")
    corpo: dict[str, Any] = resposta.json()
    assert set(corpo) - {"id"} == PROBLEMA, corpo
    assert corpo["status"] == status and corpo["type"] == f"/guia-da-api#erro-{status}"
    # an error of a row of a file says where it is too (linha, or item in a JSON list)
    assert set(corpo["erro"]) - ONDE == {"campo", "mensagem"}
    assert corpo["erros"] and corpo["erros"][0] == corpo["erro"]
    assert all(set(e) - ONDE == {"campo", "mensagem"} for e in corpo["erros"])
    return corpo


def erro_pt(resposta: Any, status: int, campo: str | None) -> str:
    """Check a pt-BR error body and return its (first) message."""
    corpo = problema(resposta, status)
    assert corpo["erro"]["campo"] == campo
    mensagem: str = corpo["erro"]["mensagem"]
    assert mensagem and not any(palavra in mensagem for palavra in INGLES), mensagem
    return mensagem


def gravacoes(database_url: str) -> int:
    """How many records the audit chain holds: every write of the app appends to it, so a
    refusal that wrote nothing leaves it as it was."""
    from sqlalchemy import create_engine

    motor = create_engine(database_url)
    try:
        with motor.connect() as conexao:
            return int(conexao.exec_driver_sql("SELECT count(*) FROM auditoria").scalar_one())
    finally:
        motor.dispose()
