"""Least privilege on PostgreSQL (issue 16, item 5): ``multas banco preparar`` creates the owner
and the application roles; the application role works, and cannot alter or disable the audit,
re-insert a deleted record under its old id, or move a sequence; the checks say why a role is
unsafe. (PostgreSQL only: SQLite has no roles.)"""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from multas.principal import cli
from multas.servicos.gestao import Ciclo
from multas.servicos.persistencia import Repositorio
from multas.servicos.persistencia.papeis import riscos
from tests.utils.casos import salvar


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
            "cnpj": "11.222.333/0001-81",
            "ano": 2024,
            "meta_cbios": 1,
            "cbios_aposentados": 1,
            "meta_anterior_cumprida": True,
        }
    )
    ciclo.excluir(pid)
    from multas.servicos.persistencia.acesso import Acesso

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
