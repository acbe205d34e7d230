"""A user limited to some clients saves a case from the calculation page (issue 37, item 1):
the form has a CNPJ field (read as every client's CNPJ is: shape and check digits, the error
beside the field), the case carries it, and "Salvar caso" saves it; a CNPJ outside the user's
clients, or none, is refused with the form filled again as it was sent."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from html import unescape
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from multas.nucleo.escopo import Escopo
from multas.servicos.persistencia import Repositorio
from multas.servicos.persistencia.acesso import Acesso
from multas.servidor import criar_app
from tests.utils import SENHA

CNPJ_A = "11.222.333/0001-81"
CNPJ_B = "12.ABC.345/01DE-35"
FORM = {"regime": "anp.infracao", "inciso": "XI", "valor": "750.000,00"}


@pytest.fixture
def limitada(tmp_path: Path) -> Iterator[tuple[TestClient, dict[str, str]]]:
    url = f"sqlite:///{tmp_path / 'm.db'}"
    repo = Repositorio(url)
    token = Acesso(repo).criar("ana de A", "analista", SENHA, "teste", Escopo.de([CNPJ_A]))
    repo.fechar()
    with TestClient(criar_app(url), raise_server_exceptions=False) as c:
        yield c, {"Authorization": f"Bearer {token}", "Accept": "text/html"}


def _caso_json(html: str) -> str:
    achado = re.search(r'name="caso" value="([^"]*)"', html)
    assert achado, html[:2000]
    return unescape(achado[1])


def _valor_do_campo(html: str, nome: str) -> str:
    achado = re.search(rf'<input[^>]*name="{re.escape(nome)}"[^>]*value="([^"]*)"', html)
    assert achado, nome
    return unescape(achado[1])


def test_usuario_limitado_salva_caso_do_seu_cliente_pela_pagina(
    limitada: tuple[TestClient, dict[str, str]],
) -> None:
    c, cab = limitada
    pagina = c.get("/", headers=cab).text
    assert 'name="cnpj"' in pagina and "obrigatório para salvar" in pagina
    calculado = c.post("/calcular", data={**FORM, "cnpj": "11222333000181"}, headers=cab)
    assert calculado.status_code == 200, calculado.text[:2000]
    caso = _caso_json(calculado.text)
    assert json.loads(caso)["cnpj"] == CNPJ_A
    salvo = c.post("/casos", data={"caso": caso}, headers=cab, follow_redirects=False)
    assert salvo.status_code == 303, salvo.text[:2000]
    aberto = c.get(salvo.headers["location"], headers=cab)
    assert aberto.status_code == 200 and CNPJ_A in aberto.text


def test_cnpj_fora_dos_clientes_e_recusado_com_o_formulario_mantido(
    limitada: tuple[TestClient, dict[str, str]],
) -> None:
    c, cab = limitada
    caso = json.dumps(
        {"regime": "anp.infracao", "inciso": "XI", "valor": "750000.00", "cnpj": CNPJ_B}
    )
    r = c.post("/casos", data={"caso": caso}, headers=cab, follow_redirects=False)
    assert r.status_code == 403
    assert 'id="erro-cnpj"' in r.text and "não é de um cliente deste usuário" in r.text
    assert _valor_do_campo(r.text, "cnpj") == CNPJ_B
    assert _valor_do_campo(r.text, "valor") == "750000,00"
    assert "11.222.333/0001-81" in r.text  # the user's clients, named
    # without a CNPJ: the same form, asking for one
    sem = json.dumps({"regime": "anp.infracao", "inciso": "XI", "valor": "750000.00"})
    r = c.post("/casos", data={"caso": sem}, headers=cab, follow_redirects=False)
    assert r.status_code == 403 and 'id="erro-cnpj"' in r.text
    assert "informe o CNPJ de um dos seus clientes" in r.text
    assert _valor_do_campo(r.text, "valor") == "750000,00"


def test_cnpj_invalido_no_formulario_aparece_ao_lado_do_campo(
    limitada: tuple[TestClient, dict[str, str]],
) -> None:
    c, cab = limitada
    r = c.post("/calcular", data={**FORM, "cnpj": "11.222.333/0001-80"}, headers=cab)
    assert r.status_code == 422
    erro = re.search(r'id="erro-cnpj">(.*?)</p>', r.text)
    assert erro and "dígitos verificadores" in unescape(erro[1])
    assert _valor_do_campo(r.text, "cnpj") == "11.222.333/0001-80"
