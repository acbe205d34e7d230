"""The session's migrated template (tests/fixtures/bancos.py): a database filled from it is
the same as one migrated for real — the same tables, columns, indexes, triggers, functions,
owners and grants, at the same revision — on SQLite and on PostgreSQL. If the template ever
drifted from the migrations, every test that uses a database would test the wrong schema."""

from __future__ import annotations

import re
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from multas.servicos.persistencia import Repositorio
from tests.fixtures.bancos import MODELOS
from tests.utils import url_postgres_isolada


@pytest.fixture
def sem_modelo() -> Iterator[None]:
    """Migrations for real while the block runs."""
    MODELOS.ativo = False
    try:
        yield
    finally:
        MODELOS.ativo = True


def _esquema_sqlite(url: str) -> list[tuple[Any, ...]]:
    motor = create_engine(url)
    with motor.connect() as conexao:
        linhas = conexao.exec_driver_sql(
            "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name"
        ).all()
        versao = conexao.exec_driver_sql("SELECT version_num FROM alembic_version").all()
        sequencias = conexao.exec_driver_sql("SELECT name, seq FROM sqlite_sequence").all()
    motor.dispose()
    # a real migration rebuilds tables (SQLite's way to alter them) writing their constraints
    # in no fixed order: each statement is compared as the set of its lines
    normais = [
        (
            tipo,
            nome,
            tabela,
            sorted(linha.strip().rstrip(",") for linha in (sql or "").splitlines()),
        )
        for tipo, nome, tabela, sql in linhas
    ]
    return [*normais, *(tuple(linha) for linha in [*versao, *sorted(sequencias)])]


def test_sqlite_do_modelo_igual_ao_migrado(tmp_path: Path, sem_modelo: None) -> None:
    real = f"sqlite:///{tmp_path / 'real.db'}"
    repo = Repositorio(real)
    repo.migrar()
    repo.fechar()
    MODELOS.ativo = True
    copiado = f"sqlite:///{tmp_path / 'copiado.db'}"
    repo = Repositorio(copiado)
    repo.migrar()
    repo.fechar()
    assert _esquema_sqlite(copiado) == _esquema_sqlite(real)
    assert len(_esquema_sqlite(real)) > 10


def _dump(base: str, esquema: str) -> str:
    url = make_url(base)
    saida = subprocess.run(
        [
            shutil.which("pg_dump") or "pg_dump",
            "--no-comments",
            "--inserts",
            f"--schema={esquema}",
            f"--host={url.host}",
            f"--port={url.port or 5432}",
            f"--username={url.username}",
            url.database or "",
        ],
        env={"PGPASSWORD": url.password or "", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    saida = re.sub(rf"\b{esquema}\b", "ESQUEMA", saida)
    return "\n".join(linha for linha in saida.splitlines() if not linha.startswith("\\"))


@pytest.mark.postgresql
def test_postgresql_do_modelo_igual_ao_migrado(sem_modelo: None) -> None:
    from tests.utils import faltando, url_postgres

    base = url_postgres()
    if base is None or not shutil.which("pg_dump"):
        faltando("PostgreSQL", "defina MULTAS_TEST_POSTGRES_URL (e instale pg_dump)")
        return
    esquemas = [f"teste_{uuid.uuid4().hex[:12]}" for _ in range(2)]
    admin = create_engine(base)
    try:
        with admin.begin() as conexao:
            for esquema in esquemas:
                conexao.execute(text(f"CREATE SCHEMA {esquema}"))
        for esquema, do_modelo in zip(esquemas, (False, True), strict=True):
            MODELOS.ativo = do_modelo
            repo = Repositorio(url_postgres_isolada(base, esquema))
            repo.migrar()
            repo.fechar()
        real, copiado = (_dump(base, esquema) for esquema in esquemas)
        assert copiado == real
        assert "auditoria_somente_inclusao" in real and "alembic_version" in real
    finally:
        with admin.begin() as conexao:
            for esquema in esquemas:
                conexao.execute(text(f"DROP SCHEMA IF EXISTS {esquema} CASCADE"))
        admin.dispose()
