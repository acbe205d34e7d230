"""Issue 20, item 4 (the confirmation): deleting a saved case asks first, in a real browser.
With JavaScript the question comes in a dialog (Cancelar keeps the case, Esc too, "Sim"
deletes it); without JavaScript the form leads to a confirmation page, whose button deletes it
and whose "Cancelar" goes back. Nothing is deleted before the answer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest

pytestmark = [pytest.mark.navegador, pytest.mark.subprocesso]

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


def test_com_javascript_um_dialogo_pergunta(pagina: Any, servidor: str) -> None:
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


def test_sem_javascript_uma_segunda_pagina_pergunta(
    abrir: Callable[..., Any], servidor: str
) -> None:
    from playwright.sync_api import expect

    numero = _salvar(servidor)
    pagina = abrir(servidor, java_script_enabled=False)
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


def test_o_caso_excluido_vai_para_a_lixeira_e_volta(pagina: Any, servidor: str) -> None:
    """Issue 20, item 4 (the bin): the deleted case is listed in the bin with the date until
    which it may be restored; "Restaurar" brings it back, as it was."""
    from playwright.sync_api import expect

    numero = _salvar(servidor)
    antes = httpx.get(f"{servidor}/api/v1/casos/{numero}", timeout=30).json()
    pagina.goto(f"/casos/{numero}")
    pagina.get_by_role("button", name="Excluir caso").click()
    pagina.locator("#dialogo-excluir").get_by_role("button", name="Sim, excluir o caso").click()
    pagina.wait_for_url(f"**/casos?excluido={numero}")
    expect(pagina.get_by_role("status")).to_contain_text("está na lixeira")
    assert not _existe(servidor, numero)

    pagina.get_by_role("link", name="Lixeira").click()
    linha = pagina.get_by_role("row").filter(has_text=f"caso nº {numero},")
    expect(linha).to_contain_text("renovabio.distribuidor")
    linha.get_by_role("button", name="Restaurar").click()
    expect(pagina.get_by_role("status")).to_contain_text(f"Restaurado: caso nº {numero}")
    expect(pagina.get_by_role("row").filter(has_text=f"caso nº {numero},")).to_have_count(0)
    assert httpx.get(f"{servidor}/api/v1/casos/{numero}", timeout=30).json() == antes


def test_restaurar_um_ano_salvo_de_novo_e_recusado_com_o_motivo(
    pagina: Any,
    servidor: str,
) -> None:
    from playwright.sync_api import expect

    ano = {"cnpj": "12.ABC.345/01DE-35", "ano": 2023, "meta_cbios": 10, "cbios_aposentados": 4}
    assert httpx.post(f"{servidor}/api/v1/carteira", json=ano, timeout=30).status_code == 200
    parametros: dict[str, str | int] = {"cnpj": "12ABC34501DE35", "ano": 2023}
    r = httpx.delete(f"{servidor}/api/v1/carteira/distribuidor", params=parametros, timeout=30)
    assert r.status_code == 204, r.text
    novo = ano | {"cbios_aposentados": 9}
    assert httpx.post(f"{servidor}/api/v1/carteira", json=novo, timeout=30).status_code == 200

    pagina.goto("/lixeira")
    linha = pagina.get_by_role("row").filter(has_text="ano 2023 da carteira")
    linha.get_by_role("button", name="Restaurar").click()
    alerta = pagina.get_by_role("alert")
    expect(alerta).to_contain_text("Não foi restaurado")
    expect(alerta).to_contain_text("12.ABC.345/01DE-35 foi salvo de novo")
    # the year saved meanwhile is the one the ledger shows
    carteira = httpx.get(
        f"{servidor}/api/v1/carteira/distribuidor", params={"cnpj": "12ABC34501DE35"}, timeout=30
    ).json()
    assert [a["cbios_aposentados"] for a in carteira["anos"]] == [9]
