"""Every route of the app, walked as an attacker would (issue 15), on SQLite and PostgreSQL:
ids at and past 2^63 in every path, a NUL character in every query parameter, the who-header
and the login form, and texts longer than their column. Never a 5xx: a pt-BR 4xx naming the
field. A route added later is walked too."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from starlette.routing import Route

from multas.servidor import criar_app
from multas.servidor.erros import rotas_planas
from tests.utils import gravacoes

IDS_RUINS = ["9223372036854775808", "18446744073709551616", "-1", "0", "1e3"]
PARAMETRO = re.compile(r"\{([^}:]+)(?::[^}]*)?\}")


@pytest.fixture
def cliente(database_url: str) -> Iterator[TestClient]:
    with TestClient(criar_app(database_url), raise_server_exceptions=False) as c:
        yield c


@pytest.fixture(scope="module")
def cliente_do_modulo(database_url_do_modulo: str) -> Iterator[TestClient]:
    """One app for the read-only refusal matrices below (each checks it wrote nothing)."""
    with TestClient(criar_app(database_url_do_modulo), raise_server_exceptions=False) as c:
        c.app.state.url_de_teste = database_url_do_modulo  # type: ignore[attr-defined]
        yield c


@pytest.fixture(scope="module")
def processo_do_modulo(cliente_do_modulo: TestClient) -> int:
    """A stored processo, the one thing the read-only matrices' database holds."""
    processo = {"tipo": "anp", "eventos": [{"evento": "infracao", "data": "2024-01-02"}]}
    criado = cliente_do_modulo.post("/api/v1/processos", json=processo)
    assert criado.status_code == 201, criado.text
    return int(criado.json()["processo_id"])


def _todas(cliente: TestClient) -> list[Route]:
    return [
        r
        for r in rotas_planas(list(cliente.app.router.routes))  # type: ignore[attr-defined]
        if isinstance(r, APIRoute | Route) and not r.path.startswith("/docs")
    ]


def _rotas(cliente: TestClient) -> list[tuple[str, str]]:
    return [
        (metodo, rota.path)
        for rota in _todas(cliente)
        for metodo in sorted(rota.methods or ())
        if metodo != "HEAD"
    ]


def _pedir(cliente: TestClient, metodo: str, caminho: str, **kw: object) -> int:
    resposta = cliente.request(metodo, caminho, **kw)  # type: ignore[arg-type]
    assert resposta.status_code < 500, (metodo, caminho, resposta.status_code, resposta.text)
    return resposta.status_code


def test_ids_fora_do_intervalo_em_toda_rota(cliente: TestClient) -> None:
    com_id = [(m, p) for m, p in _rotas(cliente) if PARAMETRO.search(p)]
    numericas = [(m, p) for m, p in com_id if "_id}" in p]
    assert numericas, "nenhuma rota com id encontrada"
    for metodo, caminho in numericas:
        for ruim in IDS_RUINS:
            concreto = PARAMETRO.sub(lambda _m, ruim=ruim: ruim, caminho)
            corpo = {"json": {}} if metodo in ("POST", "PUT", "PATCH") else {}
            status = _pedir(cliente, metodo, concreto, **corpo)
            assert status in (401, 403, 404, 405, 409, 422), (metodo, concreto, status)


def test_nulo_em_todo_parametro_de_consulta(cliente: TestClient) -> None:
    for metodo, caminho in _rotas(cliente):
        if metodo != "GET" or PARAMETRO.search(caminho):
            continue
        rota = next(r for r in _todas(cliente) if r.path == caminho)
        nomes = [p.alias for p in getattr(getattr(rota, "dependant", None), "query_params", [])]
        for nome in nomes or ["q"]:
            _pedir(cliente, "GET", f"{caminho}?{nome}=a%00b")
            _pedir(cliente, "GET", f"{caminho}?{nome}=" + "x" * 5000)


@pytest.mark.parametrize("valor", ["5%0A", "5%20", "%205", "%2B5", "5.0", "５"])
def test_inteiro_de_consulta_so_com_algarismos(cliente_do_modulo: TestClient, valor: str) -> None:
    """An integer query parameter is ASCII digits only (``servidor/parametros.py``): a
    trailing newline too is a 422 naming it, never read as the number."""
    resposta = cliente_do_modulo.get(f"/api/v1/processos?limite={valor}")
    assert resposta.status_code == 422, resposta.text
    assert "limite" in resposta.text


@pytest.mark.parametrize("valor", ["{id}%20", "%20{id}", "{id}%0A", "%2B{id}", "{id}.0"])
def test_id_no_caminho_so_com_algarismos(
    cliente_do_modulo: TestClient, processo_do_modulo: int, valor: str
) -> None:
    """A stored processo's id in the path, with a space, a newline or a sign around it: a 422
    on every route, the API's and the pages', never the processo read or changed."""
    cliente = cliente_do_modulo
    url = cliente.app.state.url_de_teste  # type: ignore[attr-defined]
    antes = gravacoes(url)
    concreto = valor.format(id=processo_do_modulo)
    rotas = [(m, c) for m, c in _rotas(cliente) if "{processo_id}" in c]
    assert len(rotas) > 8
    for metodo, caminho in rotas:
        corpo = {"json": {}} if metodo in ("POST", "PUT", "PATCH") else {}
        status = _pedir(cliente, metodo, caminho.replace("{processo_id}", concreto), **corpo)
        assert status == 422, (metodo, caminho, concreto, status)
    assert gravacoes(url) == antes, "uma recusa gravou algo"


def test_nulo_no_cabecalho_de_quem_e_no_formulario_de_entrada(cliente: TestClient) -> None:
    processo = {"tipo": "anp", "eventos": [{"evento": "infracao", "data": "2024-01-02"}]}
    resposta = cliente.post("/api/v1/processos", json=processo, headers={"X-Usuario": "a%00b"})
    assert resposta.status_code in (201, 422)
    if resposta.status_code == 201:  # the who was cleaned, never stored with a NUL
        assert "\x00" not in resposta.json()["usuario"]
    for dados in ({"nome": "a\x00b", "senha": "x"}, {"nome": "ana", "senha": "a\x00b"}):
        assert _pedir(cliente, "POST", "/entrar", data=dados) in (200, 303, 400, 401, 403, 422)


@pytest.mark.parametrize(
    ("rota", "corpo", "campo"),
    [
        (
            "/api/v1/processos",
            {
                "tipo": "anp",
                "cnpj": "1" * 33,
                "eventos": [{"evento": "infracao", "data": "2024-01-02"}],
            },
            "cnpj",
        ),
        (
            "/api/v1/processos",
            {
                "tipo": "anp",
                "nome": "n" * 201,
                "eventos": [{"evento": "infracao", "data": "2024-01-02"}],
            },
            "nome",
        ),
        (
            "/api/v1/processos",
            {
                "tipo": "anp",
                "nome": "a\x00b",
                "eventos": [{"evento": "infracao", "data": "2024-01-02"}],
            },
            "nome",
        ),
        (
            "/api/v1/carteira",
            {
                "cnpj": "1" * 33,
                "ano": 2024,
                "meta_cbios": 1,
                "cbios_aposentados": 1,
                "meta_anterior_cumprida": True,
            },
            "cnpj",
        ),
        (
            "/api/v1/carteira",
            {
                "cnpj": "1",
                "nome": "n" * 201,
                "ano": 2024,
                "meta_cbios": 1,
                "cbios_aposentados": 1,
                "meta_anterior_cumprida": True,
            },
            "nome",
        ),
    ],
)
def test_texto_longo_ou_com_nulo_e_422_nomeando_o_campo(
    cliente: TestClient, rota: str, corpo: dict[str, object], campo: str
) -> None:
    resposta = cliente.post(rota, json=corpo)
    assert resposta.status_code == 422, resposta.text
    assert resposta.json()["erro"]["campo"] == campo
