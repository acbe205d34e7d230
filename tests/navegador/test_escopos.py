"""Clients kept apart, in a real browser (issue 20, item 2): a user limited to one client logs
in and sees only that client's records, another client's page is the usual "not found", and
the private calendar feed is created, read without a login and revoked from its page
(Playwright driving Debian's Chromium against the real server: tests/fixtures/navegador.py)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from multas.nucleo.escopo import Escopo
from tests.fixtures.navegador import Navegador, entrar, servido
from tests.utils import SENHA

pytestmark = [pytest.mark.navegador, pytest.mark.subprocesso]

CNPJ_A = "11.222.333/0001-81"
NOME_A = "Distribuidora Alfa"
CNPJ_B = "12.ABC.345/01DE-35"
NOME_B = "Combustíveis Bravo"


def _caso(cnpj: str, nome: str) -> str:
    return json.dumps(
        {"regime": "anp.infracao", "inciso": "XI", "valor": "750000.00", "cnpj": cnpj, "nome": nome}
    )


def _processo(cnpj: str, nome: str) -> dict[str, Any]:
    eventos = [{"evento": "infracao", "data": "2024-01-02"}]
    return {"tipo": "anp", "eventos": eventos, "cnpj": cnpj, "nome": nome}


@pytest.fixture(scope="module")
def servidor(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[str, dict[str, int]]]:
    """The real server: an admin's records of clients A and B, and "ana", limited to A."""
    from fastapi.testclient import TestClient

    from multas.servicos.persistencia import Repositorio
    from multas.servicos.persistencia.acesso import Acesso
    from multas.servidor import criar_app

    url = f"sqlite:///{tmp_path_factory.mktemp('escopos') / 'multas.db'}"
    repo = Repositorio(url)
    acesso = Acesso(repo)
    acesso.criar("ana", "leitura", SENHA, "teste", Escopo.de([CNPJ_A]))
    token = acesso.criar("bia", "admin", SENHA, "teste")
    repo.fechar()
    app = criar_app(url)
    ids: dict[str, int] = {}
    with TestClient(app, base_url="http://127.0.0.1") as c:
        admin = {"Authorization": f"Bearer {token}"}
        for chave, cnpj, nome in (("a", CNPJ_A, NOME_A), ("b", CNPJ_B, NOME_B)):
            ids[f"caso_{chave}"] = c.post(
                "/api/v1/casos", content=_caso(cnpj, nome), headers=admin
            ).json()["id"]
            ids[f"processo_{chave}"] = c.post(
                "/api/v1/processos", json=_processo(cnpj, nome), headers=admin
            ).json()["processo_id"]
    with servido(app) as base:
        yield base, ids


def test_usuario_limitado_ve_so_o_seu_cliente_e_assina_o_calendario(
    servidor: tuple[str, dict[str, int]], abrir: Callable[..., Any], navegador: Navegador
) -> None:
    from playwright.sync_api import expect

    base, ids = servidor
    pagina = abrir(base)
    entrar(pagina, "ana")

    # the lists: A's records, never B's
    for caminho in ("/processos", "/casos", "/pendencias"):
        pagina.goto(caminho)
        expect(pagina.locator("main")).not_to_contain_text(NOME_B)
    pagina.goto("/processos")
    expect(pagina.locator("main")).to_contain_text(NOME_A)
    # B's pages: the usual "not found"
    resposta = pagina.goto(f"/processos/{ids['processo_b']}")
    assert resposta is not None and resposta.status == 404
    expect(pagina.locator("main")).not_to_contain_text(NOME_B)
    resposta = pagina.goto(f"/casos/{ids['caso_b']}")
    assert resposta is not None and resposta.status == 404
    # the audit of her clients, from the menu
    pagina.goto("/processos")
    pagina.get_by_role("link", name="Auditoria dos clientes").click()
    expect(pagina.get_by_role("heading", level=1)).to_contain_text("dos seus clientes")
    expect(pagina.locator("main")).to_contain_text(f"processo nº {ids['processo_a']}")
    expect(pagina.locator("main")).not_to_contain_text(f"processo nº {ids['processo_b']}")

    # the private calendar: created from the page, read without a login, revoked
    pagina.goto("/pendencias")
    pagina.get_by_role("link", name="Assinar o calendário (endereço privado)").click()
    pagina.get_by_role("button", name="Criar endereço").click()
    endereco = pagina.get_by_label("Endereço").input_value()
    assert endereco.startswith(base + "/api/v1/feed/cal_")
    # issue 37, item 12: the webcal:// link, and the copy button the script shows
    assinar = pagina.get_by_role("link", name="Assinar no aplicativo de calendário")
    assert assinar.get_attribute("href") == "webcal://" + endereco.partition("://")[2]
    pagina.context.grant_permissions(["clipboard-read", "clipboard-write"])
    pagina.get_by_role("button", name="Copiar o endereço").click()
    expect(pagina.locator("#feed-criado .copiado")).to_have_text("Endereço copiado.")
    assert pagina.evaluate("navigator.clipboard.readText()") == endereco
    anonimo = navegador.playwright.request.new_context()
    try:
        lido = anonimo.get(endereco)
        assert lido.status == 200 and lido.text().startswith("BEGIN:VCALENDAR")
        assert NOME_B not in lido.text()
        pagina.goto("/calendario-privado")
        expect(pagina.locator("#feed-ativo")).to_contain_text("criado em")
        pagina.get_by_role("button", name="Revogar o endereço").click()
        expect(pagina.locator("#aviso-feed")).to_contain_text("revogado")
        assert anonimo.get(endereco).status == 404
    finally:
        anonimo.dispose()
    # without JavaScript: no copy button, the read-only field (select and copy it) and the link
    sem_js = abrir(base, java_script_enabled=False)
    entrar(sem_js, "ana")
    sem_js.goto("/calendario-privado")
    sem_js.get_by_role("button", name="Criar endereço").click()
    expect(sem_js.get_by_label("Endereço")).to_have_attribute("readonly", "")
    expect(sem_js.get_by_role("button", name="Copiar o endereço")).to_be_hidden()
    expect(sem_js.get_by_role("link", name="Assinar no aplicativo de calendário")).to_be_visible()
