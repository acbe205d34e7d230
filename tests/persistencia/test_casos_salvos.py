"""Saved cases through the API, on SQLite and on PostgreSQL (the ``database_url`` fixture):
create, list, get, delete, the audit log, and reopening exactly what was saved even after the
legislation files change."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime, timedelta

import pytest
from fastapi.testclient import TestClient

from multas import __version__, calcular
from multas.nucleo.json_exato import ler_json
from multas.nucleo.legislacao import carregar, ler_textos
from multas.servicos.relogio import agora
from multas.servidor import criar_app
from tests.utils import textos_da_legislacao

#: numbers written as the client wrote them, trailing zeros included
MORA = (
    '{"regime": "anp.mora", "principal": 250000.00, "data_ciencia": "2024-03-29", '
    '"data_pagamento": "2024-07-01"}'
)
MORA_SIMPLES = (
    '{"regime": "anp.mora", "principal": "250000.00", "data_ciencia": "2024-03-29",'
    ' "data_pagamento": "2024-07-01"}'
)
MOVER = '{"regime":"mover.eficiencia","meta_mj_km":1.820,"consumo_mj_km":1.83,"veiculos":1}'


@pytest.fixture
def cliente(database_url: str) -> Iterator[TestClient]:
    with TestClient(criar_app(database_url), raise_server_exceptions=False) as c:
        yield c


def test_salvar_guarda_entrada_como_recebida_resultado_versoes_hora_e_quem(
    cliente: TestClient,
) -> None:
    antes = agora()
    resposta = cliente.post("/api/v1/casos", content=MOVER, headers={"X-Usuario": "Ana"})
    assert resposta.status_code == 201, resposta.text
    salvo = resposta.json()
    assert resposta.headers["location"] == f"/api/v1/casos/{salvo['id']}"
    assert salvo["regime"] == "mover.eficiencia" and salvo["valor"] == "50.00"
    assert salvo["resultado"] == calcular(ler_json(MOVER))
    assert salvo["versao_motor"] == __version__
    assert salvo["versao_legislacao"] == carregar().versao
    assert salvo["usuario"] == "Ana" and salvo["origem"] == "api"
    criado = datetime.fromisoformat(salvo["criado_em"])
    assert criado.utcoffset() == timedelta(0)
    assert antes - timedelta(seconds=1) <= criado <= agora() + timedelta(seconds=1)
    # the input is returned exactly as received: 1.820 keeps its zero
    bruto = cliente.get(f"/api/v1/casos/{salvo['id']}").text
    assert '"meta_mj_km":1.820' in bruto
    assert json.loads(bruto) == salvo


def test_listar_obter_excluir_e_auditoria(cliente: TestClient) -> None:
    ids = [
        cliente.post("/api/v1/casos", content=corpo, headers=cabecalhos).json()["id"]
        for corpo, cabecalhos in (
            (MORA, {"X-Usuario": "Ana"}),
            (MOVER, {}),
            (MORA_SIMPLES, {"X-Usuario": "Jos%C3%A9"}),
        )
    ]
    lista = cliente.get("/api/v1/casos").json()
    assert lista["total"] == 3
    assert [c["id"] for c in lista["casos"]] == ids[::-1]  # newest first
    assert [c["usuario"] for c in lista["casos"]] == ["José", "anônimo", "Ana"]
    so_mora = cliente.get("/api/v1/casos", params={"regime": "anp.mora"}).json()
    assert [c["id"] for c in so_mora["casos"]] == [ids[2], ids[0]]
    assert cliente.get(f"/api/v1/casos/{ids[0]}").json()["valor"] == "272500.00"

    assert (
        cliente.delete(f"/api/v1/casos/{ids[1]}", headers={"X-Usuario": "Carla"}).status_code == 204
    )
    assert cliente.get(f"/api/v1/casos/{ids[1]}").status_code == 404
    assert cliente.delete(f"/api/v1/casos/{ids[1]}").status_code == 404
    assert cliente.get("/api/v1/casos").json()["total"] == 2

    auditoria = cliente.get("/api/v1/auditoria").json()
    assert [(r["acao"], r["caso_id"], r["usuario"]) for r in auditoria] == [
        ("criar", ids[0], "Ana"),
        ("criar", ids[1], "anônimo"),
        ("criar", ids[2], "José"),
        ("excluir", ids[1], "Carla"),
    ]
    do_excluido = cliente.get("/api/v1/auditoria", params={"caso_id": ids[1]}).json()
    assert [r["acao"] for r in do_excluido] == ["criar", "excluir"]


def test_caso_invalido_nao_e_salvo(cliente: TestClient) -> None:
    resposta = cliente.post("/api/v1/casos", content='{"regime": "anp.mora", "principal": -1}')
    assert resposta.status_code == 422
    assert resposta.json()["erro"]["campo"] == "principal"
    assert cliente.post("/api/v1/casos", content=b"{").status_code == 422
    assert cliente.get("/api/v1/casos").json()["total"] == 0
    assert cliente.get("/api/v1/auditoria").json() == []


def _legislacao_com_juros_de_dois_por_cento() -> object:
    textos = textos_da_legislacao()
    antes = textos["anp.toml"]
    depois = antes.replace(
        '[["anp.lei_9847.juros_mora".vigencias]]\ninicio = 1999-10-27\nvalor = "0.01"',
        '[["anp.lei_9847.juros_mora".vigencias]]\ninicio = 1999-10-27\nvalor = "0.02"',
    )
    assert depois != antes
    return ler_textos({**textos, "anp.toml": depois})


def test_reabrir_mostra_o_resultado_salvo_mesmo_depois_de_a_legislacao_mudar(
    database_url: str,
) -> None:
    with TestClient(criar_app(database_url)) as antes:
        salvo = antes.post("/api/v1/casos", content=MORA_SIMPLES).json()
        pdf_antes = antes.get(f"/api/v1/casos/{salvo['id']}/relatorio", params={"formato": "html"})
    assert salvo["valor"] == "272500.00"

    nova = _legislacao_com_juros_de_dois_por_cento()
    with TestClient(criar_app(database_url, legislacao=nova)) as depois:  # type: ignore[arg-type]
        # the new law changes a new calculation...
        novo = depois.post("/api/v1/calcular", content=MORA_SIMPLES).json()
        assert novo["valor"] == "280000.00"  # juros 2% × 3 months = 15.000,00
        # ...but the saved case is shown exactly as it was saved, with its versions
        reaberto = depois.get(f"/api/v1/casos/{salvo['id']}").json()
        assert reaberto == salvo
        assert reaberto["versao_legislacao"] == carregar().versao
        assert reaberto["versao_legislacao"] != depois.get("/api/v1/versao").json()["legislacao"]
        html = depois.get(f"/api/v1/casos/{salvo['id']}/relatorio", params={"formato": "html"})
        assert "R$ 272.500,00" in html.text and "R$ 280.000,00" not in html.text
        assert (
            pdf_antes.text.split("Relatório gerado em")[0]
            == html.text.split("Relatório gerado em")[0]
        )
        pagina = depois.get(f"/casos/{salvo['id']}").text
        assert "R$ 272.500,00" in pagina and "mudaram desde que este caso foi salvo" in pagina
