"""The ledger's readings through the API (``GET /api/v1/carteira/distribuidor``) under hostile
options: a bad reading, however long, is a 422 naming ``interpretacao.<reading>`` and listing
the options; a reading sent under that name applies, and is never silently ignored."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.utils import erro_pt

#: the distributor of these tests (the ledger takes only a CNPJ with the right check digits)
CNPJ = "11222333000181"


def _carteira(cliente: TestClient) -> None:
    r = cliente.post(
        "/api/v1/carteira",
        json={
            "cnpj": CNPJ,
            "ano": 2024,
            "meta_cbios": 100,
            "cbios_aposentados": 80,
            "maior_media_mensal": "100",
        },
    )
    assert r.status_code == 200, r.text


@pytest.mark.parametrize(
    ("consulta", "campo"),
    [
        ("preco_diferido=x", "interpretacao.preco_diferido"),
        ("preco_diferido=", "interpretacao.preco_diferido"),
        ("preco_diferido=%00", "interpretacao.preco_diferido"),
        ("diferimento_excedente=PARCIAL", "interpretacao.diferimento_excedente"),
        ("diferimento_excedente=%20parcial", "interpretacao.diferimento_excedente"),
    ],
)
def test_carteira_api_opcao_invalida(cliente: TestClient, consulta: str, campo: str) -> None:
    """A bad reading is a 422 naming interpretacao.X and listing the options."""
    _carteira(cliente)
    mensagem = erro_pt(
        cliente.get(f"/api/v1/carteira/distribuidor?cnpj={CNPJ}&{consulta}"), 422, campo
    )
    assert "opções" in mensagem


@pytest.mark.parametrize("chave", ["preco_diferido", "diferimento_excedente"])
def test_carteira_api_opcao_longa_nomeia_interpretacao(cliente: TestClient, chave: str) -> None:
    """An option longer than 32 characters (``?preco_diferido=aaaa…`` ×33) gets what every
    other bad option gets: a 422 naming ``interpretacao.preco_diferido`` and the list of
    options. Was a defect: the framework's ``max_length`` caught it first, a 422 naming
    ``preco_diferido`` with "valor inválido"."""
    _carteira(cliente)
    mensagem = erro_pt(
        cliente.get(f"/api/v1/carteira/distribuidor?cnpj={CNPJ}&{chave}={'a' * 33}"),
        422,
        f"interpretacao.{chave}",
    )
    assert "opções" in mensagem


def test_carteira_api_leitura_com_o_nome_do_erro_nao_e_ignorada(cliente: TestClient) -> None:
    """Was a defect: the 422 of a bad reading names ``interpretacao.preco_diferido``, and a
    user who sent exactly that got the default reading, silently. That name is now accepted
    as well (the reading applies); an unknown reading under it is a 422 naming it."""
    _carteira(cliente)
    r = cliente.get(
        f"/api/v1/carteira/distribuidor?cnpj={CNPJ}&interpretacao.preco_diferido=ano_diferimento"
    )
    assert r.status_code == 200, r.text
    assert r.json()["interpretacao"]["preco_diferido"] == "ano_diferimento"
    r = cliente.get(f"/api/v1/carteira/distribuidor?cnpj={CNPJ}&interpretacao.preco=x")
    assert r.status_code == 422 and r.json()["erro"]["campo"] == "interpretacao.preco"
    r = cliente.get(
        f"/api/v1/carteira/distribuidor?cnpj={CNPJ}&preco_diferido=ano_seguinte"
        "&interpretacao.preco_diferido=ano_diferimento"
    )
    assert r.status_code == 422


@pytest.mark.parametrize("ano", ["1899", "9001", "99999"])
def test_ano_fora_do_limite_e_422_do_campo(cliente: TestClient, ano: str) -> None:
    """The ledger's routes read ``ano`` with the contract's one bound (1900 to 9000), as the
    command line's ``--ano`` and the year's API do: outside it, a 422 naming ``ano``."""
    erro_pt(cliente.delete(f"/api/v1/carteira/distribuidor?cnpj={CNPJ}&ano={ano}"), 422, "ano")
    erro_pt(
        cliente.post(f"/api/v1/carteira/conferir?cnpj={CNPJ}&ano={ano}", content=b"{}"), 422, "ano"
    )
