"""Least privilege on PostgreSQL (issue 16, item 5): ``multas banco preparar`` creates the owner
and the application roles; the application role works, and cannot alter or disable the audit,
re-insert a deleted record under its old id, or move a sequence; the checks say why a role is
unsafe. (PostgreSQL only: SQLite has no roles.)"""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest
from click.testing import CliRunner
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from multas.ciclo.gestao import Ciclo
from multas.persistencia import Repositorio
from multas.persistencia.papeis import riscos
from multas.principal import cli
from tests.test_persistencia import salvar


@pytest.fixture
def papeis(database_url: str) -> Iterator[tuple[str, str, str]]:
    """(admin, owner, application) URLs on the test schema; the two roles are made by
    ``multas banco preparar`` and dropped at the end."""
    if not database_url.startswith("postgresql"):
        pytest.skip("papéis só existem no PostgreSQL")
    sufixo = uuid.uuid4().hex[:8]
    base = make_url(database_url)
    dono = base.set(username=f"multas_dono_{sufixo}", password=uuid.uuid4().hex)
    app = base.set(username=f"multas_app_{sufixo}", password=uuid.uuid4().hex)
    urls = [u.render_as_string(hide_password=False) for u in (dono, app)]
    try:
        r = CliRunner().invoke(
            cli,
            [
                "banco",
                "preparar",
                "--admin",
                database_url,
                "--banco-dono",
                urls[0],
                "--banco",
                urls[1],
            ],
        )
        assert r.exit_code == 0, r.output
        assert "Pronto" in r.stdout
        yield database_url, urls[0], urls[1]
    finally:
        admin = create_engine(database_url)
        with admin.begin() as c:
            esquema = c.execute(text("SELECT current_schema()")).scalar_one()
            c.execute(text(f"DROP SCHEMA IF EXISTS {esquema} CASCADE"))
            for papel in (dono.username, app.username):
                existe = c.execute(
                    text("SELECT 1 FROM pg_roles WHERE rolname = :n"), {"n": papel}
                ).scalar()
                if existe:
                    c.execute(text(f"GRANT {papel} TO current_user"))
                    c.execute(text(f"DROP OWNED BY {papel}"))
                    c.execute(text(f"DROP ROLE {papel}"))
        admin.dispose()


def test_papel_da_aplicacao_trabalha_e_nao_pode_reescrever_a_historia(
    papeis: tuple[str, str, str],
) -> None:
    _admin, dono, app = papeis
    repo = Repositorio(app, url_migracao=dono)
    ciclo = Ciclo(repo)
    ids = [salvar(repo) for _ in range(3)]  # saves, reads, deletes: everything it must do
    assert repo.excluir(ids[2], "ana") and repo.obter(ids[0]) is not None
    pid = ciclo.criar(
        {"tipo": "anp", "eventos": [{"evento": "infracao", "data": "2024-01-02"}]}
    ).armazenado.id
    ciclo.acrescentar(pid, {"evento": "auto_infracao", "data": "2024-02-01"})
    ciclo.remover_ultimo_evento(pid)
    ciclo.salvar_ano(
        {
            "cnpj": "1",
            "ano": 2024,
            "meta_cbios": 1,
            "cbios_aposentados": 1,
            "meta_anterior_cumprida": True,
        }
    )
    ciclo.excluir(pid)
    from multas.persistencia.acesso import Acesso

    Acesso(repo).criar("ana", "admin", "senha-bem-longa", "teste")
    Acesso(repo).desativar("ana", "teste")
    assert repo.verificar().integro
    with repo.engine.connect() as c:
        assert riscos(c) == []
    proibidos = [
        "UPDATE auditoria SET usuario = 'mallory'",
        "DELETE FROM auditoria",
        "TRUNCATE auditoria",
        "ALTER TABLE auditoria DISABLE TRIGGER ALL",
        "DROP TABLE auditoria",
        # the deleted case back under its own number, with another value
        f"INSERT INTO casos (id, regime, entrada, resultado, valor, versao_motor, "
        f"versao_legislacao, usuario, origem, criado_em) VALUES ({ids[2]}, 'anp.infracao', "
        "'{}', '{}', '1.00', '0', '0', 'mallory', 'api', now())",
        "SELECT setval(pg_get_serial_sequence('casos', 'id'), 1)",
        "UPDATE casos SET valor = '1.00'",
        "CREATE ROLE mallory",
    ]
    papel_dono = make_url(dono).username
    proibidos.append(f"GRANT {papel_dono} TO current_user")
    for comando in proibidos:
        with pytest.raises(DBAPIError), repo.engine.begin() as c:
            c.execute(text(comando))
    assert repo.verificar().integro
    repo.fechar()


def test_papel_que_pode_alterar_a_auditoria_e_apontado(papeis: tuple[str, str, str]) -> None:
    admin, dono, app = papeis
    for url, arriscado in ((admin, True), (dono, True), (app, False)):
        motor = create_engine(url)
        with motor.connect() as c:
            assert bool(riscos(c)) is arriscado, url
        motor.dispose()


def test_preparar_recusa_papeis_iguais_ou_sqlite(tmp_path: object) -> None:
    r = CliRunner().invoke(
        cli,
        [
            "banco",
            "preparar",
            "--admin",
            "sqlite:///x.db",
            "--banco-dono",
            "sqlite:///x.db",
            "--banco",
            "sqlite:///x.db",
        ],
    )
    assert r.exit_code == 2 and "PostgreSQL" in r.stderr
