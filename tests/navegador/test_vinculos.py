"""Linked processos in a real browser (Playwright, Debian's Chromium, the real server): an anp
processo linked on its page to the distributor's list processo (a refused link first, with the
message beside the field), then the first-instance decision entered once, its aviso shown, and
the ciência later from the other processo's page."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = [pytest.mark.navegador, pytest.mark.subprocesso]

CNPJ = "12.345.678/0001-95"


def test_vincular_e_registrar_a_decisao_no_navegador(pagina: Any) -> None:
    from playwright.sync_api import expect

    def criar(tipo: str, data: str, cnpj: str) -> str:
        pagina.goto("/processos")
        pagina.select_option("#campo-tipo", tipo)
        pagina.fill("#campo-data", data)
        pagina.fill("#campo-cnpj", cnpj)
        pagina.click("text=Salvar processo")
        expect(pagina.locator("h1")).to_contain_text("Processo nº")
        return str(pagina.url.split("/processos/")[1].split("?")[0])

    lista = criar("renovabio.lista", "2025-12-31", CNPJ)
    outra = criar("renovabio.lista", "2025-12-31", "99.999.999/0001-99")
    anp = criar("anp", "2026-01-02", CNPJ)
    pagina.select_option("#campo-evento-evento", "auto_infracao")
    pagina.fill("#campo-evento-data", "2026-01-12")
    pagina.click("text=Registrar evento")
    expect(pagina.locator(".linha-do-tempo")).to_contain_text("auto_infracao")

    # another distributor's list processo: refused beside the field, nothing linked
    pagina.select_option("#campo-lista_id", outra)
    pagina.click("text=Vincular")
    expect(pagina.locator("#campo-lista_id")).to_have_attribute("aria-invalid", "true")
    expect(pagina.locator("#erro-lista_id")).to_contain_text("difere do CNPJ")
    expect(pagina.locator("#processo-vinculado")).to_have_count(0)

    pagina.select_option("#campo-lista_id", lista)
    pagina.click("text=Vincular")
    expect(pagina.locator("[role=status]").first).to_contain_text("Processos vinculados")
    expect(pagina.locator("#processo-vinculado a")).to_have_text(f"processo nº {lista}")

    # the decision's date only: the list processo gets it, the aviso names what is missing
    pagina.fill("#campo-data_decisao", "2026-02-06")
    pagina.click("text=Registrar a decisão nos dois processos")
    expect(pagina.locator("#resultado-decisao")).to_contain_text("decisao_primeira_instancia")
    expect(pagina.locator("#avisos-decisao")).to_contain_text(
        "A data da ciência da decisão (data_ciencia) não foi informada"
    )

    # from the list processo's page, by its link: a ciência before the decision is refused
    pagina.click(f"#resultado-decisao a[href='/processos/{lista}']")
    expect(pagina.locator("#estado")).to_have_text("sancionado em primeira instância")
    expect(pagina.locator("#processo-vinculado a")).to_have_text(f"processo nº {anp}")
    pagina.fill("#campo-data_ciencia", "2026-02-01")
    pagina.click("text=Registrar a decisão nos dois processos")
    expect(pagina.locator("#erro-data_ciencia")).to_contain_text("seria anterior à decisão")
    pagina.fill("#campo-data_ciencia", "2026-02-10")
    pagina.click("text=Registrar a decisão nos dois processos")
    expect(pagina.locator("#resultado-decisao")).to_contain_text("ciencia_primeira_instancia")
    expect(pagina.locator("#avisos-decisao")).to_have_count(0)
    pagina.click(f"#processo-vinculado a[href='/processos/{anp}']")
    expect(pagina.locator(".linha-do-tempo")).to_contain_text("ciencia_primeira_instancia")
