"""No page scrolls sideways (issue 37, item 2): every page the server renders as HTML, with
data in its tables, is as wide as the window at 1280 px (a laptop) and at 390 px (a phone).
A wide table scrolls inside its own focusable region (``.rolagem``), and forms wrap. At
390 px axe-core also finds no serious or critical violation (the narrow layout's own).

One browser context per width for the whole module, signed in as the admin (the server, its
records and the session are tests/fixtures/navegacao.py's, shared with the accessibility
module), one visit per page and width: the pages are read, not changed (the few actions only
fill a form and show its result), so the visits do not depend on each other's order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.fixtures.navegador import ESPERA_MS, Navegador
from tests.utils.navegacao import Servidor, ano_calculado, calcular, exposicao
from tests.utils.processos import CNPJ

pytestmark = [pytest.mark.navegador, pytest.mark.subprocesso]

LARGURAS = (1280, 390)
ALTURA = 900


#: every page that renders HTML (name → address, and what to do there): with their data, and
#: the states that add content (a result, a year's table)
PAGINAS: dict[str, tuple[str, Callable[[Any, Path], None] | None]] = {
    "inicio": ("/", None),
    "inicio-resultado": ("/?caso={caso}", calcular),
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
    "ano-resultado": ("/ano", ano_calculado),
    "exposicao": ("/exposicao", None),
    "exposicao-resultado": ("/exposicao", exposicao),
    "erro-404": ("/casos/999999", None),
}


@pytest.fixture(scope="module")
def paginas(
    navegador: Navegador, servidor_com_dados: Servidor, sessoes: dict[str, Any]
) -> Iterator[dict[int, Any]]:
    """One page per width, signed in as the admin (the module's session), for the whole
    module; its JavaScript errors recorded."""
    contextos = []
    paginas: dict[int, Any] = {}
    try:
        for largura in LARGURAS:
            contexto = navegador.chromium.new_context(
                base_url=servidor_com_dados.base,
                locale="pt-BR",
                viewport={"width": largura, "height": ALTURA},
                storage_state=sessoes["admin"],
            )
            contextos.append(contexto)
            contexto.set_default_timeout(ESPERA_MS)
            pagina = contexto.new_page()
            pagina.erros = []
            pagina.on("pageerror", lambda erro, p=pagina: p.erros.append(str(erro)))
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
    largura: int, servidor_com_dados: Servidor, abrir: Callable[..., Any]
) -> None:
    """The login page (logged out), the one page the signed-in contexts never show."""
    pagina = abrir(servidor_com_dados.base, viewport={"width": largura, "height": ALTURA})
    pagina.goto("/entrar")
    medidas = _larguras(pagina)
    assert max(medidas["documento"], medidas["corpo"]) <= medidas["janela"], _largos(pagina)


@pytest.mark.parametrize("largura", LARGURAS)
@pytest.mark.parametrize("nome", list(PAGINAS))
def test_sem_rolagem_lateral(
    nome: str, largura: int, paginas: dict[int, Any], servidor_com_dados: Servidor, tmp_path: Path
) -> None:
    endereco, acao = PAGINAS[nome]
    pagina = paginas[largura]
    pagina.erros.clear()
    dados = servidor_com_dados
    pagina.goto(endereco.format(caso=dados.caso, processo=dados.processos[0]))
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
