"""A distributor's ledger looked up by a CNPJ with a control character, or of no CNPJ's shape,
answered 404 "não encontrado" (echoing the character) while every route that filters by a CNPJ
answers 422 naming ``cnpj`` (§ 8 of stop 53). They agree now: the same 422 field error; a
well-shaped CNPJ not in the ledger is still a 404, and one that is there is found."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.utils import problema

CNPJ = "11222333000181"
ROTAS = [
    ("GET", "/api/v1/carteira/distribuidor?cnpj="),
    ("GET", "/api/v1/carteira/distribuidor/exportar?cnpj="),
    ("DELETE", "/api/v1/carteira/distribuidor?ano=2024&cnpj="),
]


@pytest.mark.parametrize("cnpj", ["%01", "%1b%5B31m", "%E2%80%AE", f"{CNPJ}%7f", "abc"])
def test_um_cnpj_sem_forma_e_o_erro_do_campo_como_no_filtro(cliente: TestClient, cnpj: str) -> None:
    filtro = problema(cliente.get(f"/api/v1/processos?cnpj={cnpj}"), 422)["erro"]
    assert filtro["campo"] == "cnpj" and filtro["mensagem"].startswith("CNPJ inválido")
    for metodo, rota in ROTAS:
        erro = problema(cliente.request(metodo, rota + cnpj), 422)["erro"]
        assert erro == filtro, rota
    assert cliente.get(f"/carteira/distribuidor?cnpj={cnpj}").status_code == 422


def test_sem_cnpj_e_campo_obrigatorio(cliente: TestClient) -> None:
    for metodo, rota in ROTAS:
        erro = problema(cliente.request(metodo, rota + "%20"), 422)["erro"]
        assert erro == {"campo": "cnpj", "mensagem": "campo obrigatório: o CNPJ do distribuidor"}


def test_um_cnpj_bem_formado_fora_da_carteira_e_404_e_o_de_dentro_e_achado(
    cliente: TestClient,
) -> None:
    for metodo, rota in ROTAS:
        assert cliente.request(metodo, rota + "99999999000191").status_code == 404
    ano = {"cnpj": CNPJ, "ano": 2024, "meta_cbios": 100, "cbios_aposentados": 80}
    assert cliente.post("/api/v1/carteira", json=ano).status_code == 200
    achada = cliente.get("/api/v1/carteira/distribuidor?cnpj=11.222.333/0001-81")
    assert achada.status_code == 200 and achada.json()["anos"][0]["ano"] == 2024
