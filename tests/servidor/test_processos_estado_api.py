"""``GET /api/v1/processos?estado=…`` filters as the page ``/processos`` does (issue 37, item
13, found by a hostile review: the API ignored ``estado``): from the work queue's index, within
the user's clients, an unknown estado refused naming the parameter."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from multas.nucleo.escopo import Escopo
from multas.servicos.persistencia import Repositorio
from multas.servicos.persistencia.acesso import Acesso
from multas.servidor import criar_app
from tests.utils import SENHA, erro_pt
from tests.utils.processos import CNPJ_A, PROCESSOS


@pytest.fixture(scope="module")
def cena(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[TestClient, dict[str, str], dict[str, str]]]:
    """The work queue's five processos, saved by an admin; and a user limited to ``CNPJ_A``
    (the tests only read: one database for the module)."""
    url = f"sqlite:///{tmp_path_factory.mktemp('estado') / 'm.db'}"
    repo = Repositorio(url)
    acesso = Acesso(repo)
    admin = {"Authorization": f"Bearer {acesso.criar('bia', 'admin', SENHA, 'teste')}"}
    token = acesso.criar("léo de A", "leitura", SENHA, "teste", Escopo.de([CNPJ_A]))
    repo.fechar()
    with TestClient(criar_app(url), raise_server_exceptions=False) as c:
        for corpo in PROCESSOS.values():
            assert c.post("/api/v1/processos", json=corpo, headers=admin).status_code == 201
        yield c, admin, {"Authorization": f"Bearer {token}"}


def _estados(c: TestClient, cabecalhos: dict[str, str], **filtros: Any) -> dict[int, str]:
    r = c.get("/api/v1/processos", params=filtros, headers=cabecalhos)
    assert r.status_code == 200, r.text
    corpo = r.json()
    assert corpo["total"] == len(corpo["processos"])
    return {p["processo_id"]: p["estado"] for p in corpo["processos"]}


def test_api_filtra_pelo_estado_como_a_pagina(
    cena: tuple[TestClient, dict[str, str], dict[str, str]],
) -> None:
    c, admin, _ = cena
    todos = _estados(c, admin)
    assert len(set(todos.values())) > 1  # the filter has something to leave out
    for estado in set(todos.values()):
        assert _estados(c, admin, estado=estado) == {n: e for n, e in todos.items() if e == estado}
    assert _estados(c, admin, estado="") == todos  # an empty filter is no filter


def test_api_filtra_pelo_estado_so_nos_clientes_do_usuario(
    cena: tuple[TestClient, dict[str, str], dict[str, str]],
) -> None:
    c, admin, limitado = cena
    todos = _estados(c, admin)
    dele = _estados(c, limitado)
    assert dele and len(dele) < len(todos)
    for estado in set(todos.values()):
        assert _estados(c, limitado, estado=estado) == {
            n: e for n, e in dele.items() if e == estado
        }


def test_api_recusa_estado_desconhecido(
    cena: tuple[TestClient, dict[str, str], dict[str, str]],
) -> None:
    c, admin, _ = cena
    r = c.get("/api/v1/processos", params={"estado": "vencido"}, headers=admin)
    assert "estado desconhecido: 'vencido'" in erro_pt(r, 422, "estado")
