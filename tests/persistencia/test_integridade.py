"""The tamper-evident record (issue 10): rows altered, deleted, reordered and forged directly in
the database, on SQLite and PostgreSQL, are each caught by ``multas auditoria verificar``, and
the page and the reports refuse a saved case that no longer matches."""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from multas.principal import cli
from multas.servicos.persistencia import Repositorio
from multas.servicos.persistencia.integridade import hash_caso, hash_registro
from multas.servidor import criar_app
from tests.utils.ataque import apagar_ultima_auditoria, sem_protecao
from tests.utils.casos import salvar

MORA = (
    '{"regime": "anp.mora", "principal": "250000.00", "data_ciencia": "2024-03-29",'
    ' "data_pagamento": "2024-07-01"}'
)


@pytest.fixture
def repositorio(database_url: str) -> Iterator[Repositorio]:
    repo = Repositorio(database_url)
    repo.migrar()
    yield repo
    repo.fechar()


def historia(repo: Repositorio) -> list[int]:
    """Five saves and a delete: six audit rows."""
    ids = [salvar(repo), salvar(repo, MORA, "bruno"), salvar(repo), salvar(repo), salvar(repo)]
    assert repo.excluir(ids[2], "carla")
    return ids


def primeiro_problema(repo: Repositorio, **kw: Any) -> Any:
    relatorio = repo.verificar(**kw)
    assert not relatorio.integro, "a alteração passou despercebida"
    return relatorio.problemas[0]


def test_registro_integro_se_verifica_e_da_a_ancora(repositorio: Repositorio) -> None:
    historia(repositorio)
    relatorio = repositorio.verificar()
    assert relatorio.integro, relatorio.problemas
    # the deleted case is in the bin: still a row, hidden from every view
    assert relatorio.registros == 6 and relatorio.casos == 5
    assert repositorio.contar() == 4
    assert relatorio.cabeca is not None and relatorio.cabeca[0] == 6
    assert repositorio.verificar(ancora=relatorio.cabeca).integro
    linhas = repositorio.auditoria()
    assert [r.acao for r in linhas] == ["criar"] * 5 + ["excluir"]


def test_auditoria_alterada_e_apontada(repositorio: Repositorio) -> None:
    historia(repositorio)
    alvo = repositorio.auditoria()[1].id
    with sem_protecao(repositorio) as c:
        c.execute(text("UPDATE auditoria SET usuario = 'mallory' WHERE id = :i"), {"i": alvo})
    problema = primeiro_problema(repositorio)
    assert problema.tipo == "alterado" and problema.registro_id == alvo
    assert f"id {alvo}" in problema.mensagem


def test_auditoria_apagada_no_meio_e_apontada(repositorio: Repositorio) -> None:
    historia(repositorio)
    alvo = repositorio.auditoria()[2]
    with sem_protecao(repositorio) as c:
        c.execute(text("DELETE FROM auditoria WHERE id = :i"), {"i": alvo.id})
    problema = primeiro_problema(repositorio)
    assert problema.tipo == "ausente"
    assert "nº 3" in problema.mensagem


def test_auditoria_apagada_no_fim_e_apontada(repositorio: Repositorio) -> None:
    ids = historia(repositorio)
    ancora = repositorio.verificar().cabeca
    # the "excluir" of case 3: case 3 is in the bin, and nothing in the chain says so
    apagar_ultima_auditoria(repositorio)
    problemas = repositorio.verificar().problemas
    nome = f"caso nº {ids[2]} "
    assert any(nome in p.mensagem and p.tipo == "alterado" for p in problemas), problemas
    problema = primeiro_problema(repositorio, ancora=ancora)
    assert problema.tipo in ("ausente", "alterado")


def test_auditoria_fora_de_ordem_e_apontada(repositorio: Repositorio) -> None:
    historia(repositorio)
    a, b = repositorio.auditoria()[1:3]
    with sem_protecao(repositorio) as c:  # swap two rows' contents, hashes and all
        colunas = "momento, usuario, acao, caso_id, regime, detalhe, seq, hash_anterior, hash"
        linhas = {
            r[0]: r[1:]
            for r in c.execute(text(f"SELECT id, {colunas} FROM auditoria")).all()
            if r[0] in (a.id, b.id)
        }
        c.execute(
            text("UPDATE auditoria SET seq = NULL WHERE id IN (:a, :b)"), {"a": a.id, "b": b.id}
        )
        for origem, destino in ((a.id, b.id), (b.id, a.id)):
            valores = dict(zip(colunas.split(", "), linhas[origem], strict=True))
            atribuicoes = ", ".join(f"{k} = :{k}" for k in valores)
            c.execute(
                text(f"UPDATE auditoria SET {atribuicoes} WHERE id = :id"),
                {**valores, "id": destino},
            )
    problema = primeiro_problema(repositorio)
    assert problema.tipo == "fora de ordem" and problema.registro_id == a.id


def test_auditoria_forjada_e_apontada(repositorio: Repositorio) -> None:
    historia(repositorio)
    with sem_protecao(repositorio) as c:  # a row slipped in, hashed but not chained
        c.execute(
            text(
                "INSERT INTO auditoria (momento, usuario, acao, caso_id, regime, detalhe, seq, "
                "hash_anterior, hash) VALUES ('2026-01-01 00:00:00+00:00', 'mallory', 'excluir', "
                "1, 'anp.infracao', NULL, 7, :h, :h)"
            ),
            {"h": "a" * 64},
        )
    problema = primeiro_problema(repositorio)
    assert problema.tipo in ("fora de ordem", "alterado")
    assert "mallory" not in problema.mensagem


def test_auditoria_forjada_com_hash_certo_mas_sem_o_caso_e_apontada(
    repositorio: Repositorio,
) -> None:
    """A forger who knows the algorithm appends a well-chained "excluir" of case 1, then
    deletes case 1: the chain is whole, the anchor written down earlier is not at that
    position any more... only if the anchor is later. Here the anchor is the head before the
    forgery, still present: so the forgery is caught by the case check instead."""
    ids = historia(repositorio)
    cabeca = repositorio.verificar().cabeca
    assert cabeca is not None
    with repositorio.engine.begin() as c:  # the cases table is the application's own
        c.execute(text("UPDATE casos SET valor = '1.00' WHERE id = :i"), {"i": ids[0]})
    problema = primeiro_problema(repositorio, ancora=cabeca)
    assert problema.tipo == "alterado" and problema.caso_id == ids[0]
    assert problema.tabela == "casos" and problema.id == ids[0]


def test_caso_forjado_sem_registro_e_apontado(repositorio: Repositorio) -> None:
    historia(repositorio)
    from datetime import UTC, datetime

    campos = {
        "regime": "anp.infracao",
        "entrada": "{}",
        "resultado": "{}",
        "valor": "1.00",
        "versao_motor": "0",
        "versao_legislacao": "0",
        "usuario": "mallory",
        "origem": "api",
        "criado_em": datetime(2026, 1, 1, tzinfo=UTC),
    }
    with repositorio.engine.begin() as c:
        c.execute(
            text(
                "INSERT INTO casos (regime, entrada, resultado, valor, versao_motor, "
                "versao_legislacao, usuario, origem, criado_em, hash_conteudo) VALUES "
                "(:regime, :entrada, :resultado, :valor, :versao_motor, :versao_legislacao, "
                ":usuario, :origem, :criado_em, :h)"
            ),
            {**campos, "criado_em": "2026-01-01 00:00:00+00:00", "h": hash_caso(**campos)},
        )
    problema = primeiro_problema(repositorio)
    assert problema.tipo == "forjado" and "criação" in problema.mensagem


@pytest.mark.parametrize("refazer_hash", [False, True])
def test_caso_com_valor_editado_nao_e_mostrado_nem_impresso(
    database_url: str, refazer_hash: bool
) -> None:
    """The attack's case: a saved valor edited to R$ 1,00 was shown and printed as R$ 1,00."""
    with TestClient(criar_app(database_url), raise_server_exceptions=False) as cliente:
        caso_id = cliente.post("/api/v1/casos", content=MORA).json()["id"]
        repositorio = cliente.app.state.servico.repositorio  # type: ignore[attr-defined]
        with repositorio.engine.begin() as c:
            c.execute(text("UPDATE casos SET valor = '1.00' WHERE id = :i"), {"i": caso_id})
            if refazer_hash:  # the forger also recomputes the case's own hash
                linha = c.execute(text("SELECT * FROM casos WHERE id = :i"), {"i": caso_id})
                dados = dict(linha.mappings().one())
                caso = repositorio.obter(caso_id)
                assert caso is not None
                novo = hash_caso(
                    **{
                        k: v
                        for k, v in dados.items()
                        if k not in ("id", "hash_conteudo", "excluido_em")
                    }
                    | {"criado_em": caso.criado_em}
                )
                c.execute(
                    text("UPDATE casos SET hash_conteudo = :h WHERE id = :i"),
                    {"h": novo, "i": caso_id},
                )
        for caminho in (
            f"/api/v1/casos/{caso_id}",
            f"/api/v1/casos/{caso_id}/relatorio?formato=pdf",
            f"/api/v1/casos/{caso_id}/relatorio?formato=html",
        ):
            resposta = cliente.get(caminho)
            assert resposta.status_code == 409, (caminho, resposta.status_code)
            assert "não confere" in resposta.json()["erro"]["mensagem"]
        for caminho in (
            f"/casos/{caso_id}",
            f"/casos/{caso_id}/relatorio.pdf",
            f"/?caso={caso_id}",
        ):
            resposta = cliente.get(caminho, headers={"Accept": "text/html"})
            assert resposta.status_code == 409, (caminho, resposta.status_code)
            assert "R$ 1,00" not in resposta.text and "não confere" in resposta.text


def test_comando_verificar_integro_e_nao_integro(database_url: str) -> None:
    repo = Repositorio(database_url)
    historia(repo)
    r = CliRunner().invoke(cli, ["auditoria", "verificar", "--banco", database_url])
    assert r.exit_code == 0, r.output
    assert "Íntegro: 6 registros" in r.stdout and "Cabeça da cadeia" in r.stdout
    ancora = r.stdout.rsplit(": ", 1)[1].strip()
    with sem_protecao(repo) as c:
        c.execute(text("UPDATE auditoria SET detalhe = '{}' WHERE seq = 2"))
    r = CliRunner().invoke(cli, ["auditoria", "verificar", "--banco", database_url])
    assert r.exit_code == 1
    assert "NÃO ÍNTEGRO" in r.stderr and "posição 2" in r.stderr
    r = CliRunner().invoke(
        cli, ["auditoria", "verificar", "--banco", database_url, "-f", "json", "--ancora", ancora]
    )
    assert r.exit_code == 1 and json.loads(r.stdout)["integro"] is False
    repo.fechar()


def test_hash_do_registro_cobre_cada_campo() -> None:
    from datetime import UTC, datetime

    base: dict[str, Any] = {
        "seq": 1,
        "momento": datetime(2026, 1, 1, tzinfo=UTC),
        "usuario": "ana",
        "acao": "criar",
        "caso_id": 1,
        "regime": "anp.infracao",
        "detalhe": "{}",
        "hash_anterior": "0" * 64,
    }
    original = hash_registro(**base)
    trocas = {
        "seq": 2,
        "momento": datetime(2026, 1, 1, 0, 0, 0, 1, tzinfo=UTC),
        "usuario": "Ana",
        "acao": "excluir",
        "caso_id": 2,
        "regime": "anp.mora",
        "detalhe": "{ }",
        "hash_anterior": "1" * 64,
    }
    for campo, valor in trocas.items():
        assert hash_registro(**(base | {campo: valor})) != original, campo


# --- PostgreSQL: the application's role may only insert into the audit table ------------------


@pytest.fixture
def papeis_separados(database_url: str) -> Iterator[tuple[str, str]]:
    """(migration URL, application URL): the test role migrates; a throwaway login role with
    no other right is the application."""
    if not database_url.startswith("postgresql"):
        pytest.skip("papéis só existem no PostgreSQL")
    nome = f"multas_app_{uuid.uuid4().hex[:8]}"
    senha = uuid.uuid4().hex
    admin = create_engine(database_url)
    with admin.begin() as c:
        c.execute(text(f"CREATE ROLE {nome} LOGIN PASSWORD '{senha}'"))
    url_app = make_url(database_url).set(username=nome, password=senha)
    try:
        yield database_url, url_app.render_as_string(hide_password=False)
    finally:
        with admin.begin() as c:  # the schema goes first (database_url drops it if left)
            esquema = c.execute(text("SELECT current_schema()")).scalar_one()
            c.execute(text(f"DROP SCHEMA {esquema} CASCADE"))
            c.execute(text(f"GRANT {nome} TO current_user"))
            c.execute(text(f"DROP OWNED BY {nome}"))
            c.execute(text(f"DROP ROLE {nome}"))
        admin.dispose()


def test_papel_da_aplicacao_so_insere_na_auditoria(papeis_separados: tuple[str, str]) -> None:
    migracao, aplicacao = papeis_separados
    repo = Repositorio(aplicacao, url_migracao=migracao)
    ids = historia(repo)  # the application works: saves, lists, deletes
    assert repo.obter(ids[0]) is not None and repo.verificar().integro
    for comando in (
        "UPDATE auditoria SET usuario = 'mallory'",
        "DELETE FROM auditoria",
        "TRUNCATE auditoria",
        "ALTER TABLE auditoria DISABLE TRIGGER auditoria_somente_inclusao",
        "DROP TABLE auditoria",
        "SET ROLE multas_dono",
    ):
        with pytest.raises(DBAPIError), repo.engine.begin() as c:
            c.execute(text(comando))
    dono = create_engine(migracao)
    with dono.connect() as c:
        assert (
            c.execute(
                text(
                    "SELECT tableowner FROM pg_tables WHERE tablename = 'auditoria' "
                    "AND schemaname = current_schema()"
                )
            ).scalar()
            == "multas_dono"
        )
    dono.dispose()
    assert repo.verificar().integro
    repo.fechar()


@pytest.mark.skipif(os.name != "posix", reason="POSIX")
def test_migracao_com_registros_antigos_os_encadeia(database_url: str) -> None:
    """A database saved before the chain existed: its rows are chained by the migration."""
    from alembic import command
    from alembic.config import Config

    repo = Repositorio(database_url)
    config = Config()
    config.set_main_option("script_location", "multas.servicos.persistencia:migracoes")
    with repo.engine.begin() as conexao:
        config.attributes["connection"] = conexao
        command.upgrade(config, "r0001")
    with repo.engine.begin() as c:
        c.execute(
            text(
                "INSERT INTO casos (regime, entrada, resultado, valor, versao_motor, "
                "versao_legislacao, usuario, origem, criado_em) VALUES ('anp.infracao', '{}', "
                "'{}', '1.00', '0', '0', 'ana', 'api', '2026-01-01 00:00:00.000001+00:00')"
            )
        )
        c.execute(
            text(
                "INSERT INTO auditoria (momento, usuario, acao, caso_id, regime, detalhe) VALUES "
                "('2026-01-01 00:00:00.000001+00:00', 'ana', 'criar', 1, 'anp.infracao', "
                '\'{"valor": "1.00"}\')'
            )
        )
    repo._migrado = False
    repo.migrar()
    assert repo.verificar().integro, repo.verificar().problemas
    salvar(repo)
    assert repo.verificar().integro
    repo.fechar()


def test_migracao_r0004_adota_cada_registro_e_mantem_o_caso_adulterado_apontado(
    database_url: str,
) -> None:
    """A database at r0003 (cases, a processo with events, a ledger year, a user with a token
    and a session, an idempotency key; a deleted processo nº 7 in the audit log) migrated to
    head: every record adopted into the chain, ids past every one ever used, and a case that no
    longer matched its first-format hash still pointed out (never laundered by the adoption)."""
    from alembic import command
    from alembic.config import Config

    from multas.servicos.gestao import Ciclo
    from multas.servicos.persistencia.integridade import GENESE

    repo = Repositorio(database_url)
    config = Config()
    config.set_main_option("script_location", "multas.servicos.persistencia:migracoes")
    with repo.engine.begin() as conexao:
        config.attributes["connection"] = conexao
        command.upgrade(config, "r0003")
    momento = "2026-01-01 00:00:00.000001+00:00"
    antes = {"seq": 0, "hash": GENESE}

    def auditar(c: Any, acao: str, caso_id: int | None, detalhe: dict[str, Any]) -> None:
        from datetime import UTC, datetime

        seq, texto = antes["seq"] + 1, json.dumps(detalhe)
        valores = {
            "momento": datetime(2026, 1, 1, 0, 0, 0, 1, tzinfo=UTC),
            "usuario": "ana",
            "acao": acao,
            "caso_id": caso_id,
            "regime": None,
            "detalhe": texto,
        }
        novo = hash_registro(seq=seq, hash_anterior=str(antes["hash"]), **valores)
        c.execute(
            text(
                "INSERT INTO auditoria (momento, usuario, acao, caso_id, regime, detalhe, seq, "
                "hash_anterior, hash) VALUES (:m, 'ana', :acao, :caso, NULL, :d, :seq, :ha, :h)"
            ),
            {
                "m": momento,
                "acao": acao,
                "caso": caso_id,
                "d": texto,
                "seq": seq,
                "ha": antes["hash"],
                "h": novo,
            },
        )
        antes.update(seq=seq, hash=novo)

    from datetime import UTC, datetime

    campos = {
        "regime": "anp.infracao",
        "entrada": "{}",
        "resultado": "{}",
        "valor": "1.00",
        "versao_motor": "0",
        "versao_legislacao": "0",
        "usuario": "ana",
        "origem": "api",
        "criado_em": datetime(2026, 1, 1, 0, 0, 0, 1, tzinfo=UTC),
    }
    with repo.engine.begin() as c:
        for caso_id in (1, 2):
            h = hash_caso(**campos)
            c.execute(
                text(
                    "INSERT INTO casos (id, regime, entrada, resultado, valor, versao_motor, "
                    "versao_legislacao, usuario, origem, criado_em, hash_conteudo) VALUES (:id, "
                    "'anp.infracao', '{}', '{}', '1.00', '0', '0', 'ana', 'api', :m, :h)"
                ),
                {"id": caso_id, "m": momento, "h": h},
            )
            auditar(c, "criar", caso_id, {"valor": "1.00", "hash_caso": h})
        c.execute(text("UPDATE casos SET valor = '9.99' WHERE id = 2"))  # tampered before
        c.execute(
            text(
                "INSERT INTO processos (id, tipo, identificador, cnpj, nome, calendario, "
                "principal, caso_id, usuario, criado_em, atualizado_em) VALUES (3, 'anp', NULL, "
                "NULL, NULL, 'expediente', '1000.00', 1, 'ana', :m, :m)"
            ),
            {"m": momento},
        )
        for posicao, (evento, dia) in enumerate(
            (("infracao", "2024-01-02"), ("auto_infracao", "2024-02-01"))
        ):
            c.execute(
                text(
                    "INSERT INTO processo_eventos (processo_id, posicao, evento, data, usuario, "
                    "criado_em) VALUES (3, :p, :e, :d, 'ana', :m)"
                ),
                {"p": posicao, "e": evento, "d": dia, "m": momento},
            )
        auditar(c, "processo_criar", None, {"processo_id": 3})
        auditar(c, "processo_excluir", None, {"processo_id": 7})  # a processo deleted before
        c.execute(
            text(
                "INSERT INTO carteira_anos (cnpj, ano, nome, entrada, usuario, criado_em, "
                "atualizado_em) VALUES ('1', 2024, NULL, :e, 'ana', :m, :m)"
            ),
            {
                "e": json.dumps(
                    {
                        "cnpj": "1",
                        "ano": 2024,
                        "meta_cbios": 10,
                        "cbios_aposentados": 10,
                        "meta_anterior_cumprida": True,
                    }
                ),
                "m": momento,
            },
        )
        c.execute(
            text(
                "INSERT INTO usuarios (nome, papel, hash_senha, ativo, criado_em) VALUES "
                "('ana', 'admin', NULL, true, :m)"
            ),
            {"m": momento},
        )
        auditar(c, "usuario_criar", None, {"nome": "ana", "papel": "admin"})
        c.execute(
            text(
                "INSERT INTO tokens (prefixo, usuario_id, hash, criado_em, revogado) VALUES "
                "('abc', 1, 'x', :m, false)"
            ),
            {"m": momento},
        )
        c.execute(
            text(
                "INSERT INTO sessoes (hash_id, usuario_id, criado_em, expira_em) VALUES "
                "(:h, 1, :m, :m)"
            ),
            {"h": "s" * 64, "m": momento},
        )
        c.execute(
            text(
                "INSERT INTO idempotencia (usuario, chave, hash_corpo, caso_id, criado_em) "
                "VALUES ('ana', 'k', :h, 1, :m)"
            ),
            {"h": "c" * 64, "m": momento},
        )
    repo._migrado = False
    repo.migrar()
    relatorio = repo.verificar()
    assert [(p.tabela, p.id) for p in relatorio.problemas] == [("casos", 2)], relatorio.problemas
    assert relatorio.tabelas == {
        "casos": 2,
        "idempotencia": 1,
        "processos": 1,
        "processo_eventos": 2,
        "carteira_anos": 1,
        "usuarios": 1,
        "tokens": 1,
        "sessoes": 1,
        "feeds": 0,
        "cargas": 0,
        "selic_meses": 0,
        "documentos": 0,
    }
    adotados = {
        (r.tabela, r.registro_id) for r in repo.auditoria(limite=100) if r.operacao == "adotar"
    }
    assert ("casos", 2) not in adotados and len(adotados) == 9
    ciclo = Ciclo(repo)
    novo = ciclo.criar(
        {"tipo": "anp", "eventos": [{"evento": "infracao", "data": "2024-01-02"}]}
    ).armazenado.id
    assert novo > 7  # past the deleted processo the audit log names (SQLite's counter too)
    ciclo.acrescentar(3, {"evento": "ciencia_primeira_instancia", "data": "2024-04-01"})
    assert [(p.tabela, p.id) for p in ciclo.verificar().problemas] == [("casos", 2)]
    repo.fechar()
