"""Issue 37 in a real browser, at 1280 and 390 px: a user limited to one client sees every
error of the calculation form at once (each beside its field), saves a case of her client
from the page (the form's CNPJ field), and checks the ANP's notice from the distributor's
page (Playwright driving Debian's Chromium against the real server)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from multas.nucleo.escopo import Escopo
from tests.fixtures.navegador import entrar, servido
from tests.utils import SENHA

pytestmark = [pytest.mark.navegador, pytest.mark.subprocesso]

CNPJ_A = "11.222.333/0001-81"


@pytest.fixture(scope="module")
def servidor(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real server: "ana", an analyst limited to client A, and A's ledger year 2024."""
    from fastapi.testclient import TestClient

    from multas.servicos.persistencia import Repositorio
    from multas.servicos.persistencia.acesso import Acesso
    from multas.servidor import criar_app

    url = f"sqlite:///{tmp_path_factory.mktemp('limitado') / 'multas.db'}"
    repo = Repositorio(url)
    acesso = Acesso(repo)
    acesso.criar("ana", "analista", SENHA, "teste", Escopo.de([CNPJ_A]))
    token = acesso.criar("bia", "admin", SENHA, "teste")
    repo.fechar()
    app = criar_app(url)
    ano = {
        "cnpj": CNPJ_A,
        "nome": "Distribuidora Alfa",
        "ano": 2024,
        "meta_cbios": 1000,
        "cbios_aposentados": 400,
        "meta_anterior_cumprida": True,
        "maior_media_mensal": "70.00",
    }
    with TestClient(app, base_url="http://127.0.0.1") as c:
        r = c.post("/api/v1/carteira", json=ano, headers={"Authorization": f"Bearer {token}"})
        assert r.status_code in (200, 201), r.text
    with servido(app) as base:
        yield base


@pytest.mark.parametrize("largura", [1280, 390])
def test_todos_os_erros_salvar_do_cliente_e_conferir_a_notificacao(
    servidor: str, abrir: Callable[..., Any], largura: int
) -> None:
    from playwright.sync_api import expect

    pagina = abrir(servidor, viewport={"width": largura, "height": 900})
    entrar(pagina, "ana")

    # every error at once, each beside its field
    pagina.goto("/?regime=anp.mora")
    # (an impossible date is caught in the browser before sending: not one of these)
    pagina.fill("input[name=principal]", "abc")
    pagina.fill("input[name=data_ciencia]", "29/03/2024")
    pagina.fill("input[name=cnpj]", "123")
    pagina.get_by_role("button", name="Calcular").click()
    expect(pagina.locator("#resumo-erro")).to_contain_text("3 erros")
    for campo in ("principal", "data_pagamento", "cnpj"):
        expect(pagina.locator(f"#erro-{campo}")).to_be_visible()
    expect(pagina.locator("#erro-cnpj")).to_contain_text("CNPJ inválido")

    # fixed, with her client's CNPJ: computed and saved from the page
    pagina.fill("input[name=principal]", "100,00")
    pagina.fill("input[name=data_pagamento]", "01/07/2024")
    pagina.fill("input[name=cnpj]", "11222333000181")
    pagina.get_by_role("button", name="Calcular").click()
    expect(pagina.locator("#valor-devido")).to_be_visible()
    pagina.get_by_role("button", name="Salvar caso").click()
    expect(pagina).to_have_url(re.compile(r"/casos/\d+\?salvo=1$"))
    expect(pagina.locator("main")).to_contain_text(CNPJ_A)

    # the ANP's notice checked from the distributor's page
    pagina.goto(f"/carteira/distribuidor?cnpj={CNPJ_A}")
    pagina.get_by_label("Meta publicada").fill("1.200")
    pagina.get_by_label("Valor da multa").fill("42.000,00")
    pagina.get_by_role("button", name="Conferir a notificação").click()
    tabela = pagina.locator("#tabela-conferencia")
    expect(tabela).to_be_visible()
    expect(pagina.locator("#conferir-item-meta_publicada")).to_contain_text("+200")
    expect(pagina.locator("#conferir-item-valor_multa")).to_contain_text("R$ 42.000,00")
