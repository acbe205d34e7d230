"""The page in a real browser: Playwright driving Debian's headless Chromium against the real
server (the fixtures of tests/fixtures/navegador.py: one Chromium per session, a fresh context
per test, one server per module on SQLite). It fills the RenovaBio distributor form, submits
it, checks the value and the steps shown, saves the case, reopens it from the history, and
downloads the PDF.

Playwright never downloads a browser here: it launches /usr/bin/chromium (Debian's package,
installed by scripts/servicos_teste.sh). Without it the test is skipped locally and fails in CI.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

# Chromium and the server are other processes and threads, on the real clock: left out of the
# runs on a faked date
pytestmark = [pytest.mark.navegador, pytest.mark.subprocesso]


def test_renovabio_calcular_salvar_e_reabrir_no_navegador(pagina: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    pagina.goto("/")
    expect(pagina.locator("h1")).to_have_text("Calcular uma multa")
    pagina.select_option("select[name=regime]", "renovabio.distribuidor")
    # choosing a regime reloads its fields (htmx): fill them only once that swap has landed
    pagina.wait_for_load_state("networkidle")
    pagina.get_by_label("Ano da meta individual").fill("2025")
    pagina.fill("input[name=meta_cbios]", "1.000.000")
    pagina.fill("input[name=cbios_aposentados]", "400000")
    pagina.fill("input[name=maior_media_mensal]", "71,70")
    pagina.fill("input[name=faturamento_ano_meta]", "900.000.000,00")
    pagina.fill("input[name=faturamento_ano_anterior]", "800000000.00")
    pagina.fill("input[name=data_quitacao]", "2026-03-15")

    # first a mistake: the inline message names the field, and the focus goes to it
    pagina.fill("input[name=cbios_aposentados]", "quatrocentos mil")
    pagina.press("input[name=cbios_aposentados]", "Enter")  # keyboard submit
    expect(pagina.locator("#resumo-erro")).to_be_focused()
    expect(pagina.locator("#erro-cbios_aposentados")).to_contain_text("número inválido")
    pagina.locator("#resumo-erro a").click()
    expect(pagina.locator("input[name=cbios_aposentados]")).to_be_focused()
    pagina.keyboard.press("Control+A")
    pagina.keyboard.type("400000")
    pagina.keyboard.press("Enter")

    # the result: the fine in R$, the steps with their citations, the other readings
    expect(pagina.locator("#valor-devido")).to_have_text("R$ 10.625.000,00")
    expect(pagina.locator("#titulo-resultado")).to_be_focused()
    passos = pagina.locator("ol.passos > li")
    expect(passos).to_have_count(12)
    expect(passos.nth(4)).to_contain_text("CBIOs não adquiridos × maior média mensal")
    expect(passos.nth(4)).to_contain_text("R$ 43.020.000,00")
    expect(passos.nth(10)).to_contain_text("Decreto nº 9.888/2019, art. 6º-A, § 8º")
    expect(pagina.locator(".grade-leituras")).to_contain_text("R$ 10.755.000,00")
    legal = passos.nth(9).locator("details")
    legal.locator("summary").click()
    expect(legal.locator("blockquote")).to_contain_text("à razão de 1/12 (um doze avos) ao mês")

    # the PDF of this result
    with pagina.expect_download() as baixado:
        pagina.get_by_role("button", name="Baixar PDF").click()
    destino = tmp_path / "memoria.pdf"
    baixado.value.save_as(destino)
    assert destino.read_bytes().startswith(b"%PDF-")

    # save, find it in the history, reopen it: the same value and steps
    pagina.get_by_label("Seu nome").fill("Ana Souza")
    pagina.get_by_role("button", name="Salvar caso").click()
    expect(pagina.locator(".nota.sucesso")).to_have_text("Caso salvo.")
    numero = pagina.url.split("/casos/")[1].split("?")[0]
    expect(pagina.locator("#valor-devido")).to_have_text("R$ 10.625.000,00")

    pagina.get_by_role("link", name="Casos salvos").click()
    linha = pagina.locator("table.historico tbody tr").first
    expect(linha).to_contain_text("R$ 10.625.000,00")
    expect(linha).to_contain_text("Ana Souza")
    linha.get_by_role("link", name=f"Abrir o caso nº {numero}").click()
    expect(pagina.locator("h1")).to_contain_text(f"Caso nº {numero}")
    expect(pagina.locator("#valor-devido")).to_have_text("R$ 10.625.000,00")
    expect(pagina.locator("ol.passos > li")).to_have_count(12)

    # and back into the form, with its values in pt-BR notation
    pagina.get_by_role("link", name="Abrir no formulário").click()
    expect(pagina.locator("input[name=maior_media_mensal]")).to_have_value("71,70")
    pagina.get_by_role("button", name="Calcular").click()
    expect(pagina.locator("#valor-devido")).to_have_text("R$ 10.625.000,00")


def test_trocar_de_regime_troca_os_campos(pagina: Any) -> None:
    from playwright.sync_api import expect

    pagina.goto("/")
    pagina.select_option("select[name=regime]", "anp.mora")
    expect(pagina.locator("input[name=principal]")).to_be_visible()
    expect(pagina.locator("input[name=meta_cbios]")).to_have_count(0)
    pagina.get_by_role("link", name="Preencher com um exemplo").click()
    expect(pagina.locator("input[name=principal]")).to_have_value("250000,00")
    pagina.get_by_role("button", name="Calcular").click()
    expect(pagina.locator("#valor-devido")).to_have_text("R$ 272.500,00")
    expect(pagina.locator(".avisos")).to_contain_text("Dívida Ativa")


def test_um_clique_acrescenta_a_data_local_e_move_o_vencimento(pagina: Any) -> None:
    """Spec v3 § 1: the local and conditional dates are offered under dias_sem_expediente,
    never applied; one click adds the date, and the deadline moves."""
    from playwright.sync_api import expect

    pagina.goto("/?regime=anp.mora")
    pagina.fill("input[name=principal]", "100.000,00")
    campo = pagina.locator("textarea[name=dias_sem_expediente]")
    sugestoes = pagina.locator("#sugestoes-dias_sem_expediente")
    # the dates' change asks for the years' acts (htmx): 2025's conditional ponto facultativo
    pagina.fill("input[name=data_ciencia]", "2025-04-02")
    pagina.fill("input[name=data_pagamento]", "2025-05-05")
    expect(sugestoes.locator("legend")).to_have_text("Atos locais ou condicionais de 2025")
    caixa = pagina.get_by_label("02/05/2025 (sexta-feira)")
    expect(caixa).not_to_be_checked()
    expect(campo).to_have_value("")
    vencimento = pagina.locator("dl.ficha dt:text-is('Vencimento') + dd")

    pagina.get_by_role("button", name="Calcular").click()
    expect(vencimento).to_have_text("02/05/2025")  # offered, not applied
    expect(pagina.locator("#valor-devido")).to_have_text("R$ 103.000,00")

    caixa = pagina.get_by_label("02/05/2025 (sexta-feira)")
    caixa.check()
    expect(campo).to_have_value("02/05/2025")
    pagina.get_by_role("button", name="Calcular").click()
    expect(vencimento).to_have_text("05/05/2025")
    expect(pagina.locator("#valor-devido")).to_have_text("R$ 100.000,00")

    # still chosen after the result; unchecking takes the date out (typed in either notation)
    caixa = pagina.get_by_label("02/05/2025 (sexta-feira)")
    expect(caixa).to_be_checked()
    campo.fill("2025-05-02\n23/06/2025")
    caixa.uncheck()
    expect(campo).to_have_value("23/06/2025")
    campo.fill("")
    campo.type("2025-05-02")  # typing it checks the box
    expect(caixa).to_be_checked()
