"""Issue 18 in a real browser (Playwright, Debian's Chromium, the real server): a processo's
``dias_sem_expediente`` given in the new processo's form (one click on the calendar's
conditional date, offered once the first event's date is typed) and changed on its page (typed
in the field, then cleared); each time the ``defesa`` deadline moves, or moves back.

17/04/2025 + 15 days = 02/05/2025 (sexta-feira), a conditional ponto facultativo: listed, the
deadline is 05/05/2025 (segunda-feira)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = [pytest.mark.navegador, pytest.mark.subprocesso]

SEXTA, SEGUNDA = "02/05/2025 (sexta-feira)", "05/05/2025 (segunda-feira)"


def test_dias_sem_expediente_do_processo_no_navegador(pagina: Any) -> None:
    from playwright.sync_api import expect

    pagina.goto("/processos")
    campo = pagina.locator("#campo-dias_sem_expediente")
    sugestoes = pagina.locator("#sugestoes-dias_sem_expediente")
    pagina.select_option("#campo-tipo", "anp")
    # the first event's date asks for its year's acts (htmx, the anp.mora form's route)
    pagina.fill("#campo-data", "2025-04-10")
    pagina.press("#campo-data", "Tab")  # a text field's change: when it is left
    expect(pagina.locator("#campo-data")).to_have_value("10/04/2025")
    expect(sugestoes.locator("legend")).to_have_text("Atos locais ou condicionais de 2025")
    caixa = pagina.get_by_label(SEXTA)
    expect(caixa).not_to_be_checked()
    caixa.check()
    expect(campo).to_have_value("02/05/2025")
    pagina.fill("#campo-usuario", "Ana")
    pagina.click("text=Salvar processo")
    expect(pagina.locator(".sucesso")).to_have_text("Processo salvo.")
    expect(pagina.locator(".estado-processo")).to_contain_text(
        "outros dias sem expediente: " + SEXTA
    )

    pagina.select_option("#campo-evento-evento", "auto_infracao")
    pagina.fill("#campo-evento-data", "2025-04-17")
    pagina.click("text=Registrar evento")
    defesa = pagina.locator("#prazo-defesa")
    expect(defesa).to_contain_text(SEGUNDA)
    # the stored list is in the page's form, its box checked
    expect(campo).to_have_value("02/05/2025")
    expect(pagina.get_by_label(SEXTA)).to_be_checked()

    # cleared on the page: the deadline is the Friday again
    campo.fill("")
    expect(pagina.get_by_label(SEXTA)).not_to_be_checked()  # typing keeps the box in step
    pagina.get_by_role("button", name="Salvar os dias sem expediente").click()
    expect(pagina.locator(".sucesso")).to_contain_text("Dias sem expediente salvos")
    expect(defesa).to_contain_text(SEXTA)
    expect(campo).to_have_value("")

    # typed in the field (ISO): it moves again
    campo.fill("2025-05-02")
    expect(pagina.get_by_label(SEXTA)).to_be_checked()
    pagina.get_by_role("button", name="Salvar os dias sem expediente").click()
    expect(defesa).to_contain_text(SEGUNDA)
    expect(campo).to_have_value("02/05/2025")

    # a bad date: the message beside the field, nothing stored
    campo.fill("31/02/2025")
    pagina.get_by_role("button", name="Salvar os dias sem expediente").click()
    expect(pagina.locator("#resumo-erro")).to_contain_text("data inexistente")
    expect(pagina.locator("#erro-dias_sem_expediente")).to_contain_text("data inexistente")
    expect(campo).to_have_value("31/02/2025")
    expect(defesa).to_contain_text(SEGUNDA)
