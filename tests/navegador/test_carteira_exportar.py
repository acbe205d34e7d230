"""The ledger's exports and each year's memória in a real browser (Playwright, Debian's
Chromium, the real server): a year saved on the page, its number leading to its memória, and
the "Baixar a carteira" buttons downloading the CSV in pt-BR notation and the XLSX."""

from __future__ import annotations

import io
from typing import Any

import pytest

pytestmark = [pytest.mark.navegador, pytest.mark.subprocesso]

CNPJ = "12.345.678/0001-95"


def test_ano_leva_a_memoria_e_a_carteira_se_baixa(pagina: Any) -> None:
    import openpyxl
    from playwright.sync_api import expect

    pagina.goto("/carteira")
    pagina.fill("#campo-cnpj", CNPJ)
    pagina.fill("#campo-ano", "2023")
    pagina.fill("#campo-meta_cbios", "1000")
    pagina.fill("#campo-cbios_aposentados", "400")
    pagina.fill("#campo-maior_media_mensal", "71,70")
    pagina.click("text=Salvar o ano")
    expect(pagina.locator("#ano-2023")).to_contain_text("R$ 100.000,00")

    with pagina.expect_download() as baixado:
        pagina.click("#exportar-carteira >> text=CSV (Excel em português: ';' e vírgula)")
    linhas = baixado.value.path().read_text(encoding="utf-8").splitlines()
    assert linhas[0].startswith("CNPJ;Nome;Ano;Meta (CBIOs);")
    assert ";2023;1000;0;1000;400;40,00;600;0;600;100.000,00;31/03/2024;" in linhas[1]
    with pagina.expect_download() as baixado:
        pagina.click("#exportar-carteira >> text=XLSX")
    folha = openpyxl.load_workbook(io.BytesIO(baixado.value.path().read_bytes())).active
    assert folha is not None and folha["L2"].value == 100000

    pagina.click("#ano-2023 >> text=2023")
    expect(pagina.locator("h1")).to_contain_text("Memória do ano 2023")
    expect(pagina.locator("#valor-devido")).to_have_text("R$ 100.000,00")
    pagina.click("text=← Carteira de")
    expect(pagina.locator("#ano-2023")).to_be_visible()
