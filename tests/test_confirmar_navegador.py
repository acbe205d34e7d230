"""Issue 20, item 4 (the confirmation): deleting a saved case asks first, in a real browser.
With JavaScript the question comes in a dialog (Cancelar keeps the case, Esc too, "Sim"
deletes it); without JavaScript the form leads to a confirmation page, whose button deletes it
and whose "Cancelar" goes back. Nothing is deleted before the answer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.test_navegador import ARGUMENTOS, CHROMIUM, pagina, servidor  # noqa: F401

pytestmark = pytest.mark.relogio_real

CASO = {
    "regime": "renovabio.distribuidor",
    "ano_meta": 2025,
    "meta_cbios": 1000,
    "cbios_aposentados": 400,
    "maior_media_mensal": "71.70",
}


def _salvar(base: str) -> int:
    r = httpx.post(f"{base}/api/v1/casos", json=CASO, timeout=30)
    assert r.status_code in (200, 201), r.text
    return int(r.json()["id"])


def _existe(base: str, numero: int) -> bool:
    return httpx.get(f"{base}/api/v1/casos/{numero}", timeout=30).status_code == 200


def test_com_javascript_um_dialogo_pergunta(pagina: Any, servidor: str) -> None:  # noqa: F811
    from playwright.sync_api import expect

    numero = _salvar(servidor)
    pagina.goto(f"/casos/{numero}")
    dialogo = pagina.locator("#dialogo-excluir")
    expect(dialogo).to_be_hidden()

    pagina.get_by_role("button", name="Excluir caso").click()
    expect(dialogo).to_be_visible()
    expect(dialogo).to_contain_text(f"Excluir o caso nº {numero}?")
    expect(dialogo.get_by_role("button", name="Cancelar")).to_be_focused()
    dialogo.get_by_role("button", name="Cancelar").click()
    expect(dialogo).to_be_hidden()
    assert _existe(servidor, numero) and f"/casos/{numero}" in pagina.url

    pagina.get_by_role("button", name="Excluir caso").click()
    expect(dialogo).to_be_visible()
    pagina.keyboard.press("Escape")
    expect(dialogo).to_be_hidden()
    assert _existe(servidor, numero)

    pagina.get_by_role("button", name="Excluir caso").click()
    dialogo.get_by_role("button", name="Sim, excluir o caso").click()
    pagina.wait_for_url(f"**/casos?excluido={numero}")
    assert not _existe(servidor, numero)


def test_sem_javascript_uma_segunda_pagina_pergunta(servidor: str, tmp_path: Path) -> None:  # noqa: F811
    from playwright.sync_api import expect, sync_playwright

    numero = _salvar(servidor)
    with sync_playwright() as p:
        navegador = p.chromium.launch(executable_path=CHROMIUM, args=ARGUMENTOS, timeout=60_000)
        contexto = navegador.new_context(
            base_url=servidor, locale="pt-BR", java_script_enabled=False
        )
        contexto.set_default_timeout(20_000)
        pagina = contexto.new_page()
        pagina.goto(f"/casos/{numero}")
        pagina.get_by_role("button", name="Excluir caso").click()
        expect(pagina.locator("h1")).to_have_text("Confirmar a exclusão")
        expect(pagina.locator("#confirmar")).to_contain_text(f"Excluir o caso nº {numero}?")
        assert _existe(servidor, numero)  # asking deleted nothing

        pagina.get_by_role("link", name="Cancelar").click()
        expect(pagina.locator("h1")).to_contain_text(f"Caso nº {numero}")
        assert _existe(servidor, numero)

        pagina.get_by_role("button", name="Excluir caso").click()
        pagina.get_by_role("button", name="Sim, excluir o caso").click()
        expect(pagina).to_have_url(f"{servidor}/casos?excluido={numero}")
        assert not _existe(servidor, numero)
        navegador.close()
