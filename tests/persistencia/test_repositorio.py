"""Saved cases and the audit log, on SQLite and on PostgreSQL (the ``database_url`` fixture)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from multas import __version__, calcular
from multas.nucleo.legislacao import carregar
from multas.servicos.persistencia import Repositorio
from multas.servicos.relogio import agora
from tests.utils.casos import ENTRADA, salvar


@pytest.fixture
def repositorio(database_url: str) -> Iterator[Repositorio]:
    repo = Repositorio(database_url)
    repo.migrar()
    yield repo
    repo.fechar()


def test_caso_salvo_guarda_entrada_exata_resultado_versoes_e_hora_utc(
    repositorio: Repositorio,
) -> None:
    antes = agora()
    caso_id = salvar(repositorio)
    caso = repositorio.obter(caso_id)
    assert caso is not None
    assert caso.entrada == ENTRADA  # as received: 750000.00 stays written as it was
    assert caso.regime == "anp.infracao"
    assert caso.valor == "750000.00"
    assert caso.resultado_dict() == calcular(
        {"regime": "anp.infracao", "inciso": "XI", "valor": "750000.00"}
    )
    assert caso.versao_motor == __version__
    assert caso.versao_legislacao == carregar().versao
    assert caso.usuario == "ana"
    assert caso.criado_em.tzinfo is not None
    assert caso.criado_em.utcoffset() == timedelta(0)
    assert antes - timedelta(seconds=1) <= caso.criado_em <= agora() + timedelta(seconds=1)


def test_listar_do_mais_novo_ao_mais_antigo_com_filtro_e_limite(repositorio: Repositorio) -> None:
    primeiro = salvar(repositorio)
    segundo = salvar(
        repositorio,
        '{"regime": "anp.mora", "principal": "250000.00", "data_ciencia": "2024-03-29",'
        ' "data_pagamento": "2024-07-01"}',
    )
    terceiro = salvar(repositorio)
    assert [c.id for c in repositorio.listar()] == [terceiro, segundo, primeiro]
    assert [c.id for c in repositorio.listar(regime="anp.mora")] == [segundo]
    assert [c.id for c in repositorio.listar(limite=1, deslocamento=1)] == [segundo]
    assert repositorio.contar() == 3
    assert repositorio.contar(regime="anp.infracao") == 2


def test_excluir_apaga_o_caso_e_acrescenta_um_registro_de_auditoria(
    repositorio: Repositorio,
) -> None:
    mantido = salvar(repositorio, usuario="ana")
    excluido = salvar(repositorio, usuario="bruno")
    assert repositorio.excluir(excluido, usuario="carla") is True
    assert repositorio.obter(excluido) is None
    assert repositorio.obter(mantido) is not None
    assert repositorio.excluir(excluido, usuario="carla") is False  # already gone: no new row

    registros = repositorio.auditoria()
    assert [(r.acao, r.caso_id, r.usuario) for r in registros] == [
        ("criar", mantido, "ana"),
        ("criar", excluido, "bruno"),
        ("excluir", excluido, "carla"),
    ]
    assert [r.acao for r in repositorio.auditoria(caso_id=excluido)] == ["criar", "excluir"]
    assert json.loads(registros[1].detalhe or "{}")["valor"] == "750000.00"
    assert all(r.momento.utcoffset() == timedelta(0) for r in registros)


@pytest.mark.parametrize(
    "comando", ["UPDATE auditoria SET usuario = 'outro'", "DELETE FROM auditoria"]
)
def test_o_banco_recusa_alterar_ou_apagar_a_auditoria(
    repositorio: Repositorio, comando: str
) -> None:
    salvar(repositorio)
    # SQLite: the guard trigger; PostgreSQL: the table belongs to another role (migration
    # r0002), and the trigger stays as a second guard
    recusa = "somente de inclusão|permission denied"
    with pytest.raises(DBAPIError, match=recusa), repositorio.engine.begin() as c:
        c.execute(text(comando))
    assert [r.usuario for r in repositorio.auditoria()] == ["ana"]


def test_migrar_de_novo_nao_perde_nada(database_url: str) -> None:
    primeiro = Repositorio(database_url)
    caso_id = salvar(primeiro)
    primeiro.fechar()
    segundo = Repositorio(database_url)
    segundo.migrar()  # a second start-up: the schema is already at head
    caso = segundo.obter(caso_id)
    segundo.fechar()
    assert caso is not None and caso.valor == "750000.00"


def test_url_padrao_sqlite_na_pasta_do_usuario_ou_a_da_variavel(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from multas.servicos.persistencia import url_padrao

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("MULTAS_DATABASE_URL", raising=False)
    assert url_padrao() == f"sqlite:///{tmp_path / 'xdg' / 'multas' / 'multas.db'}"
    monkeypatch.setenv("MULTAS_DATABASE_URL", "postgresql://u:s@127.0.0.1/multas")
    assert url_padrao() == "postgresql://u:s@127.0.0.1/multas"
    assert Repositorio().url == "postgresql+psycopg://u:s@127.0.0.1/multas"  # psycopg 3


def test_o_servidor_usa_o_banco_de_multas_database_url(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fastapi.testclient import TestClient

    from multas.servidor import criar_app

    monkeypatch.setenv("MULTAS_DATABASE_URL", database_url)
    with TestClient(criar_app()) as cliente:
        cliente.post("/api/v1/casos", content=ENTRADA)
    repositorio = Repositorio(database_url)
    assert [c.entrada for c in repositorio.listar()] == [ENTRADA]
    repositorio.fechar()
