"""Issue 37, item 10: the calculation form's booleans. A box sends a hidden "não" before it, so
an unticked ``diferir`` means false (not the default, true); a fresh form ticks it, so the
untouched form still means the default. ``meta_anterior_cumprida``, which the core reads apart
when absent, is a choice with "não informado". Labels say sim/não, never JSON's true/false.
The ledger's form names ``meta_cbios`` as the own target, not the published one."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from multas import calcular
from multas.nucleo.dinheiro import formatar_brl

#: a distributor 10% short whose previous target was met: deferred unless diferir is false
CASO = {
    "regime": "renovabio.distribuidor",
    "ano_meta": "2024",
    "meta_cbios": "1000",
    "cbios_aposentados": "900",
    "maior_media_mensal": "100,00",
    "meta_anterior_cumprida": "sim",
}


def _valor(cliente: TestClient, dados: dict[str, Any]) -> str:
    r = cliente.post("/calcular", data=dados)
    assert r.status_code == 200, r.text[:500]
    achado = re.search(r'<strong id="valor-devido">(.*?)</strong>', r.text)
    assert achado, r.text[:500]
    return achado[1]


def _esperado(**extra: Any) -> str:
    caso = {
        "regime": "renovabio.distribuidor",
        "ano_meta": 2024,
        "meta_cbios": 1000,
        "cbios_aposentados": 900,
        "maior_media_mensal": "100.00",
        "meta_anterior_cumprida": True,
    }
    return formatar_brl(calcular(caso | extra)["valor"])


def _caixa(pagina: str, nome: str) -> str:
    """The hidden field and the box of ``nome``, as the form renders them."""
    achado = re.search(
        rf'<input type="hidden" name="{nome}" value="não">\s*<input type="checkbox" '
        rf'id="campo-{nome}" name="{nome}"[^>]*>',
        pagina,
    )
    assert achado, f"{nome}: sem o campo oculto antes da caixa"
    return achado[0]


def test_diferir_desmarcado_e_falso(cliente: TestClient) -> None:
    """What the browser sends: unticked, only the hidden "não"; ticked, "não" then "sim"."""
    sem_diferir, diferindo = _esperado(diferir=False), _esperado(diferir=True)
    assert sem_diferir != diferindo  # the case tells them apart
    assert _valor(cliente, CASO | {"diferir": "não"}) == sem_diferir
    assert _valor(cliente, CASO | {"diferir": ["não", "sim"]}) == diferindo
    # the page sent back keeps the box as it was
    r = cliente.post("/calcular", data=CASO | {"diferir": "não"})
    assert " checked" not in _caixa(r.text, "diferir")
    r = cliente.post("/calcular", data=CASO | {"diferir": ["não", "sim"]})
    assert " checked" in _caixa(r.text, "diferir")


def test_formulario_novo_marca_o_padrao(cliente: TestClient) -> None:
    """A fresh form ticks ``diferir`` (the core's default) and leaves the others unticked."""
    pagina = cliente.get("/", params={"regime": "renovabio.distribuidor"}).text
    assert " checked" in _caixa(pagina, "diferir")
    assert _esperado() == _esperado(diferir=True)  # absent is true: the ticked box agrees
    produtor = cliente.get("/", params={"regime": "renovabio.produtor"}).text
    assert " checked" not in _caixa(produtor, "dados_primarios")


def test_meta_anterior_cumprida_tem_tres_estados(cliente: TestClient) -> None:
    pagina = cliente.get("/", params={"regime": "renovabio.distribuidor"}).text
    escolha = re.search(
        r'<select id="campo-meta_anterior_cumprida" name="meta_anterior_cumprida"[^>]*>(.*?)'
        r"</select>",
        pagina,
        re.S,
    )
    assert escolha
    opcoes = re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', escolha[1])
    assert opcoes == [("", "não informado"), ("sim", "sim"), ("não", "não")]
    # não informado is absent: the same as a case without the field
    sem = {k: v for k, v in CASO.items() if k != "meta_anterior_cumprida"}
    caso = {
        "regime": "renovabio.distribuidor",
        "ano_meta": 2024,
        "meta_cbios": 1000,
        "cbios_aposentados": 900,
        "maior_media_mensal": "100.00",
    }
    assert _valor(cliente, sem | {"meta_anterior_cumprida": ""}) == formatar_brl(
        calcular(caso)["valor"]
    )
    assert _valor(cliente, CASO | {"meta_anterior_cumprida": "não"}) == formatar_brl(
        calcular(caso | {"meta_anterior_cumprida": False})["valor"]
    )


@pytest.mark.parametrize("regime", ["renovabio.distribuidor", "renovabio.produtor"])
def test_rotulos_dizem_sim_e_nao(cliente: TestClient, regime: str) -> None:
    pagina = cliente.get("/", params={"regime": regime}).text
    rotulos = " ".join(re.findall(r"<label[^>]*>(.*?)</label>", pagina, re.S))
    assert not re.search(r"\b(true|false)\b", rotulos), rotulos
    if regime == "renovabio.distribuidor":
        assert "padrão: sim" in rotulos and "Se sim, a falta" in rotulos
    else:
        assert "Padrão: não" in rotulos


def test_meta_da_carteira_e_a_propria(cliente: TestClient) -> None:
    """``meta_cbios`` is the year's own target; the published one (``meta_publicada``)
    already has the previous shortfall (docs/ano.md, docs/arquivos.md)."""
    pagina = cliente.get("/carteira").text
    assert "publicada" not in re.search(r'<label for="campo-meta_cbios">(.*?)</label>', pagina)[1]
    assert "Meta própria do ano (CBIOs)" in pagina
    assert "Meta individual publicada" not in pagina
