"""Date fields in a real browser whose language is not Brazilian (issue 20, item 5): a
Chromium context with ``locale="en-US"`` and New York's time zone (what a page sees of the
language, ``navigator.language`` and ``Intl``, is American; Chromium's ``--lang`` changes
nothing a headless page can see). Typing ``15032025`` gives 15/03/2025 in the field (never
03/12/2025), the server receives it and computes with 2025-03-15; an impossible date gets the
pt-BR message at the field and the form is not sent."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pytestmark = [pytest.mark.navegador, pytest.mark.subprocesso]


@pytest.fixture
def pagina_en(abrir: Callable[..., Any], servidor: str) -> Any:
    """A page in an American English context of the session's Chromium: the language, the
    dates' formatting and the time zone the page sees are New York's, not Brazil's."""
    pagina = abrir(servidor, locale="en-US", timezone_id="America/New_York")
    assert pagina.evaluate("navigator.language") == "en-US"
    assert pagina.evaluate("Intl.DateTimeFormat().resolvedOptions().locale") == "en-US"
    assert pagina.evaluate("new Date(2025, 2, 15).toLocaleDateString()") == "3/15/2025"
    return pagina


def test_ddmmaaaa_num_navegador_em_ingles(pagina_en: Any) -> None:
    from playwright.sync_api import expect

    pagina = pagina_en
    pagina.goto("/processos")
    campo = pagina.locator("#campo-data")
    expect(campo).to_have_attribute("type", "text")
    expect(campo).to_have_attribute("placeholder", "dd/mm/aaaa")
    pagina.select_option("#campo-tipo", "renovabio.lista")
    campo.click()
    campo.press_sequentially("15032025")
    campo.blur()
    expect(campo).to_have_value("15/03/2025")  # normalised at the field, day first
    expect(campo).not_to_have_attribute("aria-invalid", "true")
    pedidos: list[str] = []
    pagina.on(
        "request", lambda r: pedidos.append(r.post_data or "") if r.method == "POST" else None
    )
    pagina.click("text=Salvar processo")
    expect(pagina.locator("#estado")).to_have_text("inadimplente")
    assert any("data=15%2F03%2F2025" in corpo for corpo in pedidos), pedidos
    # the core got 2025-03-15: the processo's API and its reduction deadline (+ 11 meses)
    processo_id = pagina.url.split("/processos/")[1].split("?")[0]
    dados = pagina.request.get(f"/api/v1/processos/{processo_id}").json()
    assert dados["eventos"][0]["data"] == "2025-03-15"
    expect(pagina.locator("#prazo-limite_reducao")).to_contain_text("15/02/2026")

    # an impossible date: the pt-BR message at the field, and the form is not sent
    evento = pagina.locator("#campo-evento-data")
    evento.fill("31022026")
    evento.blur()
    expect(evento).to_have_attribute("aria-invalid", "true")
    mensagem = pagina.locator("#erro-data-campo-evento-data")
    # the hidden "Erro: " a screen reader reads first, as beside every field
    expect(mensagem).to_have_text("Erro: Data inexistente: dia 31, mês 2, ano 2026.")
    assert (
        evento.evaluate("c => c.validationMessage") == "Data inexistente: dia 31, mês 2, ano 2026."
    )
    assert "erro-data-campo-evento-data" in (evento.get_attribute("aria-describedby") or "")
    antes = len(pedidos)
    pagina.click("text=Registrar evento")
    expect(evento).to_be_focused()
    assert len(pedidos) == antes  # not sent
    evento.fill("x")
    evento.blur()
    expect(mensagem).to_have_text(
        "Erro: Data inválida: use dd/mm/aaaa, ddmmaaaa ou aaaa-mm-dd (ex.: 15/03/2025)."
    )
    # fixed: the message goes away, and ISO is still accepted (shown dd/mm/aaaa)
    evento.fill("2026-02-06")
    evento.blur()
    expect(evento).to_have_value("06/02/2026")
    expect(mensagem).to_have_count(0)
    expect(evento).not_to_have_attribute("aria-invalid", "true")
    pagina.select_option("#campo-evento-evento", "decisao_primeira_instancia")
    pagina.click("text=Registrar evento")
    expect(pagina.locator("#estado")).to_have_text("sancionado em primeira instância")
    dados = pagina.request.get(f"/api/v1/processos/{processo_id}").json()
    assert dados["eventos"][1]["data"] == "2026-02-06"


def test_formulario_do_regime_e_sugestoes_num_navegador_em_ingles(pagina_en: Any) -> None:
    """The regime form: ddmmaaaa typed, the htmx suggestions follow it, the result uses it."""
    from playwright.sync_api import expect

    pagina = pagina_en
    pagina.goto("/?regime=anp.mora")
    pagina.fill("input[name=principal]", "100.000,00")
    ciencia = pagina.locator("input[name=data_ciencia]")
    ciencia.fill("02042025")
    pagina.locator("input[name=data_pagamento]").fill("05052025")
    pagina.locator("input[name=data_pagamento]").blur()
    expect(ciencia).to_have_value("02/04/2025")
    expect(pagina.locator("input[name=data_pagamento]")).to_have_value("05/05/2025")
    sugestoes = pagina.locator("#sugestoes-dias_sem_expediente")
    expect(sugestoes.locator("legend")).to_have_text("Atos locais ou condicionais de 2025")
    pagina.get_by_role("button", name="Calcular").click()
    expect(pagina.locator("dl.ficha dt:text-is('Vencimento') + dd")).to_have_text("02/05/2025")
    expect(pagina.locator("#valor-devido")).to_have_text("R$ 103.000,00")
    # a suggested local date typed ddmmaaaa in the list of dates is recognised too
    campo = pagina.locator("textarea[name=dias_sem_expediente]")
    caixa = pagina.get_by_label("02/05/2025 (sexta-feira)")
    expect(caixa).not_to_be_checked()
    campo.press_sequentially("02052025")
    expect(caixa).to_be_checked()
    caixa.uncheck()
    expect(campo).to_have_value("")
