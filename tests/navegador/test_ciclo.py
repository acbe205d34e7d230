"""The lifecycle in a real browser (Playwright, Debian's Chromium, the real server): a
distributor's processo created on the page, its events added one by one through the form (one
refused, with the message beside the field), the removal deadline on the 5th business day, the
sanctions list and the ledger."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = [pytest.mark.navegador, pytest.mark.subprocesso]

CNPJ = "12.345.678/0001-95"


def test_processo_da_lista_de_sancoes_no_navegador(pagina: Any) -> None:
    from playwright.sync_api import expect

    pagina.goto("/processos")
    expect(pagina.locator("h1")).to_have_text("Processos")
    pagina.select_option("#campo-tipo", "renovabio.lista")
    pagina.fill("#campo-data", "2025-12-31")
    pagina.fill("#campo-cnpj", CNPJ)
    pagina.fill("#campo-nome", "Distribuidora Exemplo")
    pagina.fill("#campo-usuario", "Ana")
    pagina.click("text=Salvar processo")
    expect(pagina.locator("#estado")).to_have_text("inadimplente")
    # 31/12/2025 + 11 meses = 30/11/2026
    expect(pagina.locator("#prazo-limite_reducao")).to_contain_text("30/11/2026 (segunda-feira)")

    def registrar(evento: str, data: str) -> None:
        pagina.select_option("#campo-evento-evento", evento)
        pagina.fill("#campo-evento-data", data)
        pagina.click("text=Registrar evento")

    registrar("decisao_primeira_instancia", "2026-02-06")
    expect(pagina.locator("#estado")).to_have_text("sancionado em primeira instância")
    # a date before the last event: refused, nothing stored, the message beside the date
    registrar("inclusao_lista", "2026-02-01")
    expect(pagina.locator("#resumo-erro")).to_contain_text("data fora de ordem")
    expect(pagina.locator("#estado")).to_have_text("sancionado em primeira instância")
    registrar("inclusao_lista", "2026-02-09")
    registrar("quitacao_meta", "2026-03-10")
    registrar("pedido_retirada", "2026-03-12")
    expect(pagina.locator("#estado")).to_have_text("retirada solicitada")
    # 12/03/2026 (quinta): 13 (1º); 14-15 fim de semana; 16, 17, 18, 19 (5º)
    prazo = pagina.locator("#prazo-retirada_lista")
    expect(prazo).to_contain_text("19/03/2026 (quinta-feira)")
    expect(prazo).to_contain_text("Decreto nº 9.888/2019, art. 6º-A, § 7º")
    prazo.locator("summary").click()
    expect(prazo.locator("blockquote")).to_contain_text("16/03/2026")

    pagina.goto("/listas?lista=sancoes&data=2026-03-18")
    expect(pagina.locator("#tabela-lista")).to_contain_text(CNPJ)
    expect(pagina.locator("#tabela-lista")).to_contain_text("a ANP retira até 19/03/2026")

    pagina.goto("/processos")
    pagina.click("#conteudo table a")
    registrar("retirada_lista", "2026-03-19")
    expect(pagina.locator("#estado")).to_have_text("fora da lista")
    expect(pagina.locator("#titulo-proximo + p, #titulo-proximo ~ p.vazio")).to_contain_text(
        "encerrado"
    )

    pagina.goto("/carteira")
    pagina.fill("#campo-cnpj", CNPJ)
    pagina.fill("#campo-ano", "2025")
    pagina.fill("#campo-meta_cbios", "1000")
    pagina.fill("#campo-cbios_aposentados", "400")
    pagina.fill("#campo-maior_media_mensal", "71,70")
    pagina.click("text=Salvar o ano")
    expect(pagina.locator("#ano-2025")).to_contain_text("R$ 100.000,00")  # 600 × 71,70 < floor
    expect(pagina.locator("h2", has_text="Processos deste CNPJ")).to_be_visible()


def test_colagem_da_carteira_com_erro_no_navegador(pagina: Any) -> None:
    """A refused paste: the error beside the paste box (line and column of the spreadsheet),
    the rows kept in it, the year form untouched (its deferral box still ticked)."""
    from playwright.sync_api import expect

    pagina.goto("/carteira")
    expect(pagina.locator("#campo-diferir")).to_be_checked()
    pagina.fill(
        "#campo-conteudo",
        "cnpj\tano\tmeta_cbios\tcbios_aposentados\n"
        f"{CNPJ}\t2025\t1000\t400\n{CNPJ}\t2026\t1000\tmuitos\n",
    )
    pagina.fill("#campo-importar-usuario", "Bia")
    pagina.click("#form-importar button[type=submit]")
    erro = pagina.locator("#form-importar #erro-conteudo")
    expect(erro).to_contain_text("linha 3, coluna cbios_aposentados: número inválido")
    expect(pagina.locator("#campo-conteudo")).to_have_attribute("aria-invalid", "true")
    expect(pagina.locator("#campo-conteudo")).to_have_value(
        "cnpj\tano\tmeta_cbios\tcbios_aposentados\n"
        f"{CNPJ}\t2025\t1000\t400\n{CNPJ}\t2026\t1000\tmuitos\n"
    )
    # the message sits right above the box, in the paste form: not on the year form
    caixa, mensagem = pagina.locator("#campo-conteudo").bounding_box(), erro.bounding_box()
    assert mensagem["y"] < caixa["y"] < mensagem["y"] + mensagem["height"] + 80
    expect(pagina.locator("#form-carteira .com-erro")).to_have_count(0)
    expect(pagina.locator("#campo-diferir")).to_be_checked()
    # corrected, it imports, and the ledger shows the years
    pagina.fill(
        "#campo-conteudo",
        f"cnpj\tano\tmeta_cbios\tcbios_aposentados\n{CNPJ}\t2025\t1000\t400\n",
    )
    pagina.click("#form-importar button[type=submit]")
    expect(pagina.locator("[role=status]")).to_contain_text("1 ano(s) importado(s).")
