"""Migration r0006 (issue 18, spec v3 § 6): ``processos.principal`` becomes ``valor_multa`` and
``dias_sem_expediente`` is added, on SQLite and PostgreSQL.

A database at r0005 gets processos written as the code of that revision wrote them: the rows
by raw SQL, and the audit rows with the state hashes that code computed (every column holding a
value, by name: ``principal`` among them), in the chain. Upgraded to head, ``multas auditoria
verificar`` is clean but for what was edited outside the system before the upgrade (never
vouched for by the migration), each processo reads back with ``valor_multa``, the migration's
own audit rows are named, and an edit made after the upgrade is caught."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

import pytest
from sqlalchemy import text

from multas import calcular
from multas.principal import cli
from multas.servicos.gestao import Ciclo
from multas.servicos.persistencia import Repositorio
from multas.servicos.persistencia.registros import RegistroAlterado
from tests.utils.migracoes import ANP, CodigoR0005, ate_r0005


@pytest.fixture
def migrado(database_url: str) -> Any:
    """A database at r0005 with four processos, upgraded to head: (repo, ids, the anchor
    taken before the upgrade)."""
    repo = Repositorio(database_url)
    ate_r0005(repo)
    with repo.engine.begin() as c:
        antigo = CodigoR0005(c)
        com_multa = antigo.criar("anp", "250000.00", ANP)
        antigo.acrescentar(com_multa, 3, "ciencia_decisao_definitiva", "2024-03-29")
        sem_multa = antigo.criar("renovabio.lista", None, [("fim_prazo_meta", "2025-12-31")])
        adulterado = antigo.criar("anp", "1000.00", ANP)
        com_evento_adulterado = antigo.criar("anp", "5000.00", ANP)
        evento_adulterado = antigo.acrescentar(com_evento_adulterado, 3, "recurso", "2023-09-05")
    repo._migrado = True  # an anchor of the chain as r0005 left it (no upgrade yet)
    ancora = repo.ancorar()
    # edited in the database before the upgrade: a fine lowered, an event's date moved
    with repo.engine.begin() as c:
        c.execute(text(f"UPDATE processos SET principal = '1.00' WHERE id = {adulterado}"))
        c.execute(
            text(f"UPDATE processo_eventos SET data = '2023-09-04' WHERE id = {evento_adulterado}")
        )
    repo._migrado = False
    repo.migrar()
    ids = {
        "com_multa": com_multa,
        "sem_multa": sem_multa,
        "adulterado": adulterado,
        "com_evento_adulterado": com_evento_adulterado,
        "evento_adulterado": evento_adulterado,
    }
    yield repo, ids, ancora
    repo.fechar()


def test_depois_da_migracao_a_auditoria_confere_e_o_processo_le_valor_multa(migrado: Any) -> None:
    repo, ids, _ = migrado
    relatorio = repo.verificar()
    # only what was edited outside the system before the upgrade: the migration vouched for
    # neither the processo whose fine was lowered nor the event moved (its processo's own
    # state, the ids of its events, still matched: vouched for, but never shown)
    assert {(p.tabela, p.id) for p in relatorio.problemas} == {
        ("processos", ids["adulterado"]),
        ("processo_eventos", ids["evento_adulterado"]),
    }, relatorio.problemas
    ciclo = Ciclo(repo)
    derivado = ciclo.obter(ids["com_multa"])
    detalhe = ciclo.detalhe(derivado, date(2024, 5, 15))
    assert detalhe["valor_multa"] == "250000.00" and "principal" not in detalhe
    assert detalhe["dias_sem_expediente"] == []
    esperado = calcular(
        {
            "regime": "anp.mora",
            "principal": "250000.00",
            "data_ciencia": "2024-03-29",
            "data_pagamento": "2024-05-15",
        }
    )
    assert detalhe["multa"]["resultado"]["valor"] == esperado["valor"]
    assert ciclo.obter(ids["sem_multa"]).armazenado.valor_multa is None
    for recusado in ("adulterado", "com_evento_adulterado"):
        with pytest.raises(RegistroAlterado):
            ciclo.obter(ids[recusado])
    # the command line says the same (exit 1, the two records named)
    from click.testing import CliRunner

    saida = CliRunner().invoke(
        cli, ["auditoria", "verificar", "--banco", repo.url, "--formato", "json"]
    )
    assert saida.exit_code == 1, saida.output
    nomeados = {(p["tabela"], p["id"]) for p in json.loads(saida.output)["problemas"]}
    assert nomeados == {
        ("processos", ids["adulterado"]),
        ("processo_eventos", ids["evento_adulterado"]),
    }


def test_a_migracao_deixa_na_cadeia_uma_alteracao_por_processo_com_multa(migrado: Any) -> None:
    repo, ids, ancora = migrado
    migracoes = [r for r in repo.auditoria(tabela="processos") if r.acao == "processo_migrar"]
    # the processo without a fine keeps its hash (nothing of its state was renamed); the one
    # edited before the upgrade is not vouched for
    assert [(r.registro_id, r.operacao, r.usuario) for r in migracoes] == [
        (ids["com_multa"], "alterar", "migração r0006"),
        (ids["com_evento_adulterado"], "alterar", "migração r0006"),
    ]
    assert json.loads(migracoes[0].detalhe or "") == {
        "processo_id": ids["com_multa"],
        "coluna": {"principal": "valor_multa"},
    }
    # an anchor taken before the upgrade names what the migration did
    depois = repo.verificar(ancora)
    assert any(linha.startswith("processos: 2 alterado(s)") for linha in depois.desde_ancora), (
        depois.desde_ancora
    )


def test_adulteracao_depois_da_migracao_e_apontada(migrado: Any) -> None:
    repo, ids, _ = migrado
    ciclo = Ciclo(repo)
    pid = ids["com_multa"]
    # the system's own writes after the upgrade keep the chain whole
    ciclo.acrescentar(pid, {"evento": "pagamento", "data": "2024-07-01"})
    ciclo.alterar(pid, {"dias_sem_expediente": ["2024-04-29"]})
    nomeados = {(p.tabela, p.id) for p in repo.verificar().problemas}
    assert ("processos", pid) not in nomeados
    for coluna, valor in (("valor_multa", "'1.00'"), ("dias_sem_expediente", "NULL")):
        with repo.engine.begin() as c:
            antes = c.execute(text(f"SELECT {coluna} FROM processos WHERE id = {pid}")).scalar()
            c.execute(text(f"UPDATE processos SET {coluna} = {valor} WHERE id = {pid}"))
        assert ("processos", pid) in {(p.tabela, p.id) for p in repo.verificar().problemas}
        with pytest.raises(RegistroAlterado):
            ciclo.obter(pid)
        with repo.engine.begin() as c:
            c.execute(text(f"UPDATE processos SET {coluna} = :v WHERE id = {pid}"), {"v": antes})
        assert ("processos", pid) not in {(p.tabela, p.id) for p in repo.verificar().problemas}
