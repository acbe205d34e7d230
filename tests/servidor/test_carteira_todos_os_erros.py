"""The ledger's year form shows every error at once (issue 37, item 9): each beside its field,
all of them in the summary, nothing saved; the core's :func:`ler_ano` keeps every field's
error, the first being the one it always gave."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from multas.nucleo.ciclo.carteira_entrada import erros_do_ano, ler_ano
from multas.nucleo.contrato import Leitura
from multas.nucleo.erros import EntradaInvalida

CNPJ = "11.222.333/0001-81"


def test_ler_ano_da_todos_os_erros_e_o_primeiro_de_sempre() -> None:
    dados = {"cnpj": CNPJ, "ano": "dois mil", "meta_cbios": "x", "cbios_aposentados": "-5"}
    erros = erros_do_ano(dados, Leitura(tabela=True))
    assert [e.campo for e in erros] == ["ano", "meta_cbios", "cbios_aposentados"]
    with pytest.raises(EntradaInvalida) as primeiro:
        ler_ano(dados, Leitura(tabela=True))
    assert primeiro.value.campo == "ano"
    assert erros_do_ano({"cnpj": CNPJ, "ano": 2025, "meta_cbios": 1, "cbios_aposentados": 1}) == ()


def test_o_formulario_do_ano_mostra_cada_erro_ao_lado_do_seu_campo(cliente: TestClient) -> None:
    r = cliente.post(
        "/carteira",
        data={
            "cnpj": CNPJ,
            "ano": "dois mil",
            "meta_cbios": "muitos",
            "cbios_aposentados": "400",
            "data_quitacao": "31/02/2025",
            "diferir": "sim",
        },
    )
    assert r.status_code == 422
    resumo = re.search(r'id="resumo-erro".*?</div>', r.text, re.S)
    assert resumo and "3 erros" in resumo[0]
    for campo in ("ano", "meta_cbios", "data_quitacao"):
        assert f'id="erro-{campo}"' in r.text, campo
        assert re.search(rf'id="campo-{campo}"[^>]*aria-invalid="true"', r.text), campo
    assert 'id="erro-cbios_aposentados"' not in r.text
    # nothing saved
    assert cliente.get("/api/v1/carteira/distribuidor", params={"cnpj": CNPJ}).status_code == 404


def test_um_ano_bom_ainda_e_salvo(cliente: TestClient) -> None:
    dados = {"cnpj": CNPJ, "ano": "2025", "meta_cbios": "1000", "cbios_aposentados": "400"}
    r = cliente.post("/carteira", data=dados | {"data_quitacao": "30/03/2026"})
    assert r.status_code == 200 and "resumo-erro" not in r.text, r.text[:500]
