"""Issue 19, item 1, in a real browser (Playwright, Debian's Chromium, the real server): the
year's page reached from the navigation, both files chosen, the form sent; the summary and the
fined row's value shown as the core computes them, and the results CSV downloaded through the
button (the files carried back by the page, nothing stored)."""

from __future__ import annotations

import csv
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from multas.nucleo.arquivos import SERVIDOR
from multas.nucleo.ciclo.planilha import ler_planilha
from multas.nucleo.cotacoes import ler_serie
from multas.nucleo.dinheiro import formatar_brl, formatar_preco
from multas.nucleo.legislacao import carregar
from multas.servicos.ano import calcular_ano
from tests.fixtures.navegador import COTACOES, DISTRIBUIDORES

pytestmark = [pytest.mark.navegador, pytest.mark.subprocesso]


def esperado() -> dict[str, Any]:
    """The core's year on the same files, read as ``multas ano calcular`` reads them."""
    lida = ler_planilha(DISTRIBUIDORES, "d.csv", False, SERVIDOR)
    cotacoes = ler_planilha(COTACOES, "c.csv", False, SERVIDOR)
    serie = ler_serie(cotacoes.linhas, cotacoes.locais, cotacoes.leitura)
    resultado = calcular_ano(
        lida.linhas, lida.locais, lida.leitura, 2024, serie, carregar(), com_calculo=True
    )
    return {"lida": lida, **resultado}


def test_o_ano_no_navegador(pagina: Any, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    distribuidores = tmp_path / "distribuidores.csv"
    distribuidores.write_bytes(DISTRIBUIDORES)
    cotacoes = tmp_path / "cbio-b3-2024.csv"
    cotacoes.write_bytes(COTACOES)
    certo = esperado()

    pagina.goto("/")
    pagina.get_by_role("navigation").get_by_role("link", name="Ano").click()
    expect(pagina.locator("h1")).to_have_text("O ano do RenovaBio")
    pagina.get_by_label("Arquivo dos distribuidores").set_input_files(str(distribuidores))
    pagina.get_by_label("Arquivo das cotações do CBIO").set_input_files(str(cotacoes))
    pagina.get_by_label("Ano da meta").fill("2024")
    pagina.get_by_label("Data da notificação").fill("2025-03-03")
    pagina.get_by_role("button", name="Calcular").click()

    resumo = certo["resumo"]
    expect(pagina.locator("#resumo-total-multas")).to_have_text(
        formatar_brl(Decimal(resumo["total_multas"]))
    )
    expect(pagina.locator("#resumo-multados")).to_have_text(str(resumo["multados"]))
    expect(pagina.locator("#resumo-preco")).to_have_text(formatar_preco(resumo["preco"]))
    expect(pagina.locator("#tabela-ano tbody tr")).to_have_count(len(certo["linhas"]))
    gama = certo["linhas"][2]
    assert gama["multado"] > 0
    expect(pagina.locator("#ano-linha-3")).to_contain_text(formatar_brl(gama["valor"]))
    expect(pagina.locator("#ano-linha-4")).to_contain_text(certo["linhas"][3]["erro"])

    with pagina.expect_download() as baixado:
        pagina.get_by_role("button", name="Baixar o resultado (CSV)").click()
    assert baixado.value.suggested_filename == "ano-2024-resultado.csv"
    destino = tmp_path / "resultado.csv"
    baixado.value.save_as(destino)
    with destino.open(encoding="utf-8", newline="") as arquivo:
        linhas = list(csv.DictReader(arquivo))
    assert [linha["cnpj"] for linha in linhas] == [linha["cnpj"] for linha in certo["linhas"]]
    assert linhas[2]["nome"] == "Gama Petróleo"
    assert linhas[2]["valor"] == gama["valor"]
    assert linhas[3]["erro"] == certo["linhas"][3]["erro"]
