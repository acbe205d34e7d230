"""The work queue's page in a real browser (Playwright, Debian's Chromium, the real server):
the overdue deadlines first, in red, with their days late; hiding the prescribed processos
through the form, which says how many it hid. The processos are those of
tests/ciclo/test_pendencias.py (tests/utils/processos.py), stored through the API; the module's server holds nothing else, so the queue has exactly their 9 deadlines."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.utils.processos import PROCESSOS

pytestmark = [pytest.mark.navegador, pytest.mark.subprocesso]

VERMELHO = "rgb(164, 0, 0)"  # #a40000, the stylesheet's overdue colour


def test_fila_no_navegador(pagina: Any) -> None:
    from playwright.sync_api import expect

    ids = {}
    for chave, dados in PROCESSOS.items():
        resposta = pagina.request.post(
            "/api/v1/processos",
            data=json.dumps(dados),
            headers={"Content-Type": "application/json"},
        )
        assert resposta.status == 201, resposta.text()
        ids[chave] = resposta.json()["processo_id"]

    pagina.goto("/pendencias?data_referencia=2026-07-20")
    expect(pagina.locator("h1")).to_have_text("Pendências")
    linhas = pagina.locator("#tabela-pendencias tbody tr")
    expect(linhas).to_have_count(9)
    # the most overdue first: B's defence, 16/06/2015
    expect(linhas.first).to_have_id(f"pendencia-{ids['B']}-defesa")
    pagamento = pagina.locator(f"#pendencia-{ids['A']}-pagamento")
    expect(pagamento).to_contain_text("VENCIDO há 17 dias")
    expect(pagamento.locator("td").first).to_have_css("color", VERMELHO)
    # the open ones are not red
    retirada = pagina.locator(f"#pendencia-{ids['D']}-retirada_lista")
    expect(retirada).to_contain_text("em aberto, faltam 1 dia")
    expect(retirada.locator("td").first).not_to_have_css("color", VERMELHO)

    # hide the prescribed processo through the form
    pagina.select_option("#filtro-prescritos", "0")
    pagina.click("#filtro-pendencias button[type=submit]")
    expect(linhas).to_have_count(5)
    expect(pagina.locator(f"#pendencia-{ids['B']}-defesa")).to_have_count(0)
    expect(pagina.locator("#prescritos-ocultos")).to_contain_text("4 prazos")
    expect(linhas.first).to_have_id(f"pendencia-{ids['A']}-pagamento_com_desconto")
    expect(pagina.locator("#filtro-data")).to_have_value("20/07/2026")  # dd/mm/aaaa (issue 20)
