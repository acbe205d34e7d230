"""No page scrolls sideways (issue 37, item 2): every page the server renders as HTML, with
data in its tables, is as wide as the window at 1280 px (a laptop) and at 390 px (a phone).
A wide table scrolls inside its own focusable region (``.rolagem``), and forms wrap. At
390 px axe-core also finds no serious or critical violation (the narrow layout's own).

One browser context per width for the whole module (signed in once, as an admin), one visit
per page and width: the pages are read, not changed (the few actions only fill a form and
show its result), so the visits do not depend on each other's order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.fixtures.navegador import (
    COTACOES,
    DISTRIBUIDORES,
    ENTRADA,
    ESPERA_MS,
    Navegador,
    entrar,
    servido,
)
from tests.utils import SENHA
from tests.utils.processos import PROCESSOS

pytestmark = [pytest.mark.navegador, pytest.mark.subprocesso]

CNPJ = "12.345.678/0001-95"
LARGURAS = (1280, 390)
ALTURA = 900


@dataclass
class Dados:
    base: str
    caso: int
    processo: int


def _calcular(pagina: Any, _: Path) -> None:
    from playwright.sync_api import expect

    pagina.get_by_role("button", name="Calcular").click()
    expect(pagina.locator("#valor-devido")).to_be_visible()


def _ano_calculado(pagina: Any, pasta: Path) -> None:
    from playwright.sync_api import expect

    (pasta / "distribuidores.csv").write_bytes(DISTRIBUIDORES)
    (pasta / "cotacoes.csv").write_bytes(COTACOES)
    pagina.get_by_label("Arquivo dos distribuidores").set_input_files(
        str(pasta / "distribuidores.csv")
    )
    pagina.get_by_label("Arquivo das cotações do CBIO").set_input_files(str(pasta / "cotacoes.csv"))
    pagina.get_by_label("Ano da meta").fill("2024")
    pagina.get_by_label("Data da notificação").fill("2025-03-03")
    pagina.get_by_role("button", name="Calcular").click()
    expect(pagina.locator("#tabela-ano")).to_be_visible()


def _exposicao(pagina: Any, _: Path) -> None:
    from playwright.sync_api import expect

    campos = {"ano_meta": "2025", "meta_cbios": "200.000", "cbios_aposentados": "150.000"}
    campos |= {"historico": "2024-01 85,10\n2024-02 90,05", "cenarios": "200"}
    for campo, valor in campos.items():
        pagina.locator(f"[name={campo}]").fill(valor)
    pagina.get_by_role("button", name="Simular").click()
    expect(pagina.locator("#resultado-exposicao")).to_be_visible()


#: every page that renders HTML (name → address, and what to do there): with their data, and
#: the states that add content (a result, a year's table)
PAGINAS: dict[str, tuple[str, Callable[[Any, Path], None] | None]] = {
    "inicio": ("/", None),
    "inicio-resultado": ("/?caso={caso}", _calcular),
    "casos": ("/casos", None),
    "casos-paginas": ("/casos?limite=1&deslocamento=1", None),
    "caso": ("/casos/{caso}", None),
    "auditoria": ("/auditoria", None),
    "auditoria-clientes": ("/auditoria/clientes", None),
    "lixeira": ("/lixeira", None),
    "guia-da-api": ("/guia-da-api", None),
    "calendario-privado": ("/calendario-privado", None),
    "usuarios": ("/usuarios", None),
    "processos": ("/processos", None),
    "processo": ("/processos/{processo}", None),
    "pendencias": ("/pendencias?data_referencia=2026-07-20", None),
    "listas": ("/listas?lista=balanco&data=2026-07-10", None),
    "carteira": ("/carteira", None),
    "distribuidor": (f"/carteira/distribuidor?cnpj={CNPJ}", None),
    "memoria-ano": (f"/carteira/distribuidor/memoria?cnpj={CNPJ}&ano=2025", None),
    "ano": ("/ano", None),
    "ano-resultado": ("/ano", _ano_calculado),
    "exposicao": ("/exposicao", None),
    "exposicao-resultado": ("/exposicao", _exposicao),
    "erro-404": ("/casos/999999", None),
}


@pytest.fixture(scope="module")
def dados(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Dados]:
    """The real server with an admin, a saved case, the work queue's processos (one of them
    on the balance list), a deleted case, and a distributor's two ledger years."""
    from fastapi.testclient import TestClient

    from multas.servicos.persistencia import Repositorio
    from multas.servicos.persistencia.acesso import Acesso
    from multas.servidor import criar_app

    pasta = tmp_path_factory.mktemp("largura")
    url = f"sqlite:///{pasta / 'multas.db'}"
    repo = Repositorio(url)
    token = Acesso(repo).criar("bia", "admin", SENHA, "teste")
    repo.fechar()
    app = criar_app(url)
    with TestClient(app, base_url="http://127.0.0.1") as c:
        admin = {"Authorization": f"Bearer {token}"}
        caso = c.post("/api/v1/casos", content=ENTRADA, headers=admin).json()["id"]
        excluido = c.post("/api/v1/casos", content=ENTRADA, headers=admin).json()["id"]
        assert c.delete(f"/api/v1/casos/{excluido}", headers=admin).status_code == 204
        ids = []
        for corpo in PROCESSOS.values():
            resposta = c.post("/api/v1/processos", json=corpo, headers=admin)
            assert resposta.status_code == 201, resposta.text
            ids.append(resposta.json()["processo_id"])
        for ano, aposentados in ((2024, 1000), (2025, 400)):
            corpo = {
                "cnpj": CNPJ,
                "nome": "Distribuidora Exemplo de Nome Bem Comprido Ltda.",
                "ano": ano,
                "meta_cbios": 1000,
                "cbios_aposentados": aposentados,
                "maior_media_mensal": "71.70",
            }
            assert c.post("/api/v1/carteira", json=corpo, headers=admin).status_code == 200
    with servido(app) as base:
        yield Dados(base, caso, ids[0])


@pytest.fixture(scope="module")
def paginas(navegador: Navegador, dados: Dados) -> Iterator[dict[int, Any]]:
    """One signed-in page per width, for the whole module; its JavaScript errors recorded."""
    contextos = []
    paginas: dict[int, Any] = {}
    try:
        for largura in LARGURAS:
            contexto = navegador.chromium.new_context(
                base_url=dados.base,
                locale="pt-BR",
                viewport={"width": largura, "height": ALTURA},
            )
            contextos.append(contexto)
            contexto.set_default_timeout(ESPERA_MS)
            pagina = contexto.new_page()
            pagina.erros = []
            pagina.on("pageerror", lambda erro, p=pagina: p.erros.append(str(erro)))
            entrar(pagina, "bia")
            paginas[largura] = pagina
        yield paginas
    finally:
        for contexto in contextos:
            contexto.close()


def _larguras(pagina: Any) -> dict[str, int]:
    return pagina.evaluate(
        """() => ({janela: window.innerWidth,
                   documento: document.documentElement.scrollWidth,
                   corpo: document.body.scrollWidth})"""
    )


def _largos(pagina: Any) -> list[str]:
    """The elements that end past the window's right edge (what to fix, in the message)."""
    return pagina.evaluate(
        """() => [...document.querySelectorAll('body *')]
            .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1
                         && !e.closest('.rolagem'))
            .slice(0, 8)
            .map(e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '')
                      + (e.className && typeof e.className === 'string'
                         ? '.' + e.className.trim().split(/\\s+/).join('.') : '')
                      + ' → ' + Math.round(e.getBoundingClientRect().right) + ' px')"""
    )


def _graves(pagina: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]

    violacoes = Axe().run(pagina, options={"resultTypes": ["violations"]}).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): "
        + "; ".join(" ".join(map(str, n["target"])) for n in v["nodes"][:5])
        for v in violacoes
        if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize("largura", LARGURAS)
def test_entrar_sem_rolagem_lateral(
    largura: int, navegador: Navegador, dados: Dados, abrir: Callable[..., Any]
) -> None:
    """The login page (logged out), the one page the signed-in contexts never show."""
    pagina = abrir(dados.base, viewport={"width": largura, "height": ALTURA})
    pagina.goto("/entrar")
    medidas = _larguras(pagina)
    assert max(medidas["documento"], medidas["corpo"]) <= medidas["janela"], _largos(pagina)


@pytest.mark.parametrize("largura", LARGURAS)
@pytest.mark.parametrize("nome", list(PAGINAS))
def test_sem_rolagem_lateral(
    nome: str, largura: int, paginas: dict[int, Any], dados: Dados, tmp_path: Path
) -> None:
    endereco, acao = PAGINAS[nome]
    pagina = paginas[largura]
    pagina.erros.clear()
    pagina.goto(endereco.format(caso=dados.caso, processo=dados.processo))
    if acao:
        acao(pagina, tmp_path)
    pagina.wait_for_load_state("load")  # no page loads more by itself (no htmx on load)
    medidas = _larguras(pagina)
    assert max(medidas["documento"], medidas["corpo"]) <= medidas["janela"], (
        f"{nome} a {largura} px: {medidas}; passam da janela: {_largos(pagina)}"
    )
    if largura < 600:
        graves = _graves(pagina)
        assert not graves, f"{nome} a {largura} px:\n" + "\n".join(graves)
    assert not pagina.erros, f"erros de JavaScript na página: {pagina.erros}"
