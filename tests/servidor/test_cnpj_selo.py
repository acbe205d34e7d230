"""A stored CNPJ whose check digits are wrong (a processo's, or a ledger year stored before
the ledger checked them: issue 32) is flagged in every stored-record view (the
pages, the listings, the reports), never refused and never changed: the JSON keeps it as
given (issue 19, item 3)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from multas.nucleo.cnpj import DIGITOS_ERRADOS
from multas.principal import cli
from multas.servicos.gestao import Ciclo
from multas.servicos.persistencia import Repositorio
from multas.servidor import criar_app

ERRADO = "11.222.333/0001-80"  # right: -81
CERTO = "12.ABC.345/01DE-35"  # the Receita's alphanumeric example


@pytest.fixture
def banco(tmp_path: Path) -> Iterator[str]:
    url = f"sqlite:///{tmp_path / 'multas.db'}"
    repositorio = Repositorio(url)
    ciclo = Ciclo(repositorio)
    for cnpj, nome in ((ERRADO, None), (CERTO, None)):
        ciclo.criar(
            {
                "tipo": "renovabio.lista",
                "cnpj": cnpj,
                "nome": nome,
                "eventos": [
                    {"evento": "fim_prazo_meta", "data": "2025-12-31"},
                    {"evento": "decisao_primeira_instancia", "data": "2026-02-06"},
                    {"evento": "inclusao_lista", "data": "2026-02-09"},
                ],
            }
        )
        ano = {"cnpj": cnpj, "ano": 2024, "meta_cbios": 100, "cbios_aposentados": 90}
        if cnpj == CERTO:
            ciclo.salvar_ano(ano)
        else:  # the ledger refuses it now (issue 32): a year stored before that rule
            ciclo.repo.salvar_anos([(cnpj, 2024, None, ano)])
    repositorio.engine.dispose()
    yield url


@pytest.fixture
def cliente(banco: str) -> Iterator[TestClient]:
    with TestClient(criar_app(banco), raise_server_exceptions=False) as c:
        yield c


@pytest.mark.parametrize(
    "url",
    [
        "/processos",
        "/processos/1",
        "/carteira",
        "/carteira/distribuidor?cnpj=11.222.333%2F0001-80",
        "/listas?lista=sancoes&data=2026-03-01",
        "/pendencias?data_referencia=2026-11-01&dias=60",
    ],
)
def test_cada_pagina_de_registros_marca_o_cnpj_com_digitos_errados(
    cliente: TestClient, url: str
) -> None:
    pagina = cliente.get(url)
    assert pagina.status_code == 200, pagina.text[:500]
    assert ERRADO in pagina.text
    assert f'<span class="selo-cnpj" title="{DIGITOS_ERRADOS}">' in pagina.text


def test_um_cnpj_certo_nao_tem_selo(cliente: TestClient) -> None:
    pagina = cliente.get("/processos/2").text
    assert CERTO in pagina and "selo-cnpj" not in pagina


def test_o_json_guarda_o_cnpj_como_foi_dado(cliente: TestClient) -> None:
    processo = cliente.get("/api/v1/processos/1").json()
    assert processo["cnpj"] == ERRADO
    assert DIGITOS_ERRADOS not in json.dumps(processo, ensure_ascii=False)
    assert not any(DIGITOS_ERRADOS in str(a) for a in processo.get("avisos", []))


def test_as_listagens_da_linha_de_comando_marcam_o_cnpj(banco: str) -> None:
    runner = CliRunner()
    listagem = runner.invoke(cli, ["processo", "listar", "--banco", banco])
    assert listagem.exit_code == 0, listagem.output
    linhas = listagem.output.splitlines()
    assert any(ERRADO in linha and DIGITOS_ERRADOS in linha for linha in linhas)
    assert any(CERTO in linha and DIGITOS_ERRADOS not in linha for linha in linhas)
    carteira = runner.invoke(cli, ["carteira", "mostrar", ERRADO, "--banco", banco])
    assert carteira.exit_code == 0, carteira.output
    assert f"CNPJ {ERRADO} ({DIGITOS_ERRADOS})" in carteira.output.splitlines()[0]
    fila = runner.invoke(
        cli, ["pendencias", "--data-referencia", "2026-11-01", "--dias", "60", "--banco", banco]
    )
    assert fila.exit_code == 0, fila.output
    assert f"{ERRADO} ({DIGITOS_ERRADOS})" in fila.output


def test_o_relatorio_de_um_caso_marca_o_cnpj() -> None:
    from multas.nucleo.identidade import rotulos

    assert dict(rotulos({"cnpj": ERRADO}))["CNPJ"] == f"{ERRADO} ({DIGITOS_ERRADOS})"
    assert dict(rotulos({"cnpj": "12abc34501de35"}))["CNPJ"] == CERTO


def test_a_lista_de_casos_mostra_quem_e_com_o_selo(cliente: TestClient) -> None:
    from multas.servidor.exemplos import EXEMPLOS

    caso = {
        **EXEMPLOS["anp.mora"],
        "cnpj": ERRADO,
        "nome": "Posto Exemplo",
        "referencia": "48610.1/2025",
    }
    salvo = cliente.post("/api/v1/casos", json=caso)
    assert salvo.status_code == 201, salvo.text
    assert salvo.json()["cnpj"] == ERRADO  # as given, no flag in a result
    listagem = cliente.get("/api/v1/casos").json()["casos"][0]
    assert (listagem["cnpj"], listagem["nome"], listagem["referencia"]) == (
        ERRADO,
        "Posto Exemplo",
        "48610.1/2025",
    )
    pagina = cliente.get("/casos").text
    assert "Posto Exemplo" in pagina and "48610.1/2025" in pagina
    assert f'{ERRADO} <span class="selo-cnpj"' in pagina
    sem_cnpj = cliente.post("/api/v1/casos", json=EXEMPLOS["anp.mora"])
    assert sem_cnpj.status_code == 201
    achados = cliente.get("/api/v1/casos", params={"cnpj": "11222333000180"}).json()
    assert achados["total"] == 1 and [c["id"] for c in achados["casos"]] == [salvo.json()["id"]]
    filtrada = cliente.get("/casos", params={"cnpj": "11222333000180"}).text
    assert "1 caso salvo" in filtrada and "Posto Exemplo" in filtrada
