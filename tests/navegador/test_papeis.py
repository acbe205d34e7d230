"""Roles in the page, in a real browser (issue 20, item 3): a read-only user logs in through
the login page and sees no save, delete nor undo button, and no link to the audit log
(Playwright driving Debian's Chromium against the real server: tests/fixtures/navegador.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.fixtures.navegador import ENTRADA, entrar, servido
from tests.utils import SENHA

pytestmark = [pytest.mark.navegador, pytest.mark.subprocesso]


@pytest.fixture(scope="module")
def servidor(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int, int]]:
    """The real server with a read-only user, a saved case and a processo of two events."""

    from multas.servicos.persistencia import Repositorio
    from multas.servicos.persistencia.acesso import Acesso
    from multas.servidor import criar_app

    url = f"sqlite:///{tmp_path_factory.mktemp('papeis') / 'multas.db'}"
    repo = Repositorio(url)
    acesso = Acesso(repo)
    acesso.criar("ana", "leitura", SENHA, "teste")
    token = acesso.criar("bia", "admin", SENHA, "teste")
    repo.fechar()
    app = criar_app(url)
    from fastapi.testclient import TestClient

    with TestClient(app, base_url="http://127.0.0.1") as c:
        admin = {"Authorization": f"Bearer {token}"}
        caso = c.post("/api/v1/casos", content=ENTRADA, headers=admin).json()["id"]
        processo = c.post(
            "/api/v1/processos",
            json={
                "tipo": "anp",
                "eventos": [
                    {"evento": "infracao", "data": "2024-01-02"},
                    {"evento": "auto_infracao", "data": "2024-02-01"},
                ],
            },
            headers=admin,
        ).json()["processo_id"]
    with servido(app) as base:
        yield base, caso, processo


def test_leitura_nao_ve_botoes_de_salvar_nem_de_excluir(
    servidor: tuple[str, int, int], abrir: Callable[..., Any]
) -> None:
    from playwright.sync_api import expect

    base, caso, processo = servidor
    pagina = abrir(base)
    entrar(pagina, "ana")
    expect(pagina.locator("nav")).not_to_contain_text("Auditoria")

    # a result: the reports, never "Salvar caso"
    pagina.goto(f"/?caso={caso}")
    pagina.get_by_role("button", name="Calcular").click()
    expect(pagina.get_by_role("button", name="Baixar PDF")).to_be_visible()
    expect(pagina.get_by_role("button", name="Salvar caso")).to_have_count(0)

    pagina.goto(f"/casos/{caso}")
    expect(pagina.get_by_role("link", name="Baixar PDF")).to_be_visible()
    expect(pagina.get_by_role("button", name="Excluir caso")).to_have_count(0)

    pagina.goto(f"/processos/{processo}")
    expect(pagina.locator("#estado")).to_be_visible()
    for nome in (
        "Desfazer o último evento",
        "Registrar evento",
        "Salvar os dias sem expediente",
    ):
        expect(pagina.get_by_role("button", name=nome)).to_have_count(0)

    pagina.goto("/processos")
    expect(pagina.get_by_role("button", name="Salvar processo")).to_have_count(0)
    expect(pagina.get_by_role("button", name="Importar")).to_have_count(0)
    pagina.goto("/carteira")
    expect(pagina.get_by_role("button", name="Salvar o ano")).to_have_count(0)
    expect(pagina.get_by_role("button", name="Importar")).to_have_count(0)
