"""The page's date fields (issue 20, item 5), without JavaScript: the server reads dd/mm/aaaa,
ddmmaaaa and ISO in every form and filter, gives the core ISO, shows dd/mm/aaaa, and names an
invalid date next to its field; the JSON API stays ISO only."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from multas import calcular
from multas.saidas.apresentacao import apresentar
from multas.servidor.exemplos import EXEMPLOS
from multas.servidor.formulario import valores_do_caso
from tests.utils.paginas import erros_da_pagina

CNPJ = "12.345.678/0001-95"
#: one date in the three formats the page takes
FORMATOS = {"dd/mm/aaaa": "31/12/2025", "ddmmaaaa": "31122025", "ISO": "2025-12-31"}


def enviar(cliente: TestClient, url: str, dados: dict[str, str]) -> Any:
    return cliente.post(url, data=dados, follow_redirects=False)


def entrada(html: str, id_: str) -> str:
    achada = re.search(rf'<input [^>]*id="{re.escape(id_)}"[^>]*>', html)
    assert achada, id_
    return achada.group(0)


def valor(html: str, id_: str) -> str:
    achado = re.search(r'value="([^"]*)"', entrada(html, id_))
    assert achado, id_
    return achado.group(1)


@pytest.mark.parametrize("formato", FORMATOS)
def test_novo_processo_e_evento_em_cada_formato(cliente: TestClient, formato: str) -> None:
    criado = enviar(
        cliente, "/processos", {"tipo": "renovabio.lista", "data": FORMATOS[formato], "cnpj": CNPJ}
    )
    assert criado.status_code == 303, criado.text
    url = criado.headers["location"].split("?")[0]
    processo = cliente.get(f"/api/v1{url}").json()
    assert processo["eventos"][0]["data"] == "2025-12-31"  # ISO for the core and the API
    evento = {"dd/mm/aaaa": "6/2/2026", "ddmmaaaa": "06022026", "ISO": "2026-02-06"}[formato]
    resposta = enviar(
        cliente, f"{url}/eventos", {"evento": "decisao_primeira_instancia", "data": evento}
    )
    assert resposta.status_code == 303, resposta.text
    assert cliente.get(f"/api/v1{url}").json()["eventos"][1]["data"] == "2026-02-06"


@pytest.mark.parametrize(
    ("texto", "mensagem"),
    [("31022026", "data inexistente"), ("2026/02/06", "dd/mm/aaaa, ddmmaaaa ou aaaa-mm-dd"),
     ("", "informe a data")],
)  # fmt: skip
def test_data_invalida_no_evento_aparece_no_campo(
    cliente: TestClient, texto: str, mensagem: str
) -> None:
    criado = enviar(cliente, "/processos", {"tipo": "renovabio.lista", "data": "31/12/2025"})
    url = criado.headers["location"].split("?")[0]
    recusado = enviar(
        cliente, f"{url}/eventos", {"evento": "decisao_primeira_instancia", "data": texto}
    )
    assert recusado.status_code == 422
    campo = entrada(recusado.text, "campo-evento-data")
    assert 'aria-invalid="true"' in campo and "erro-evento-data" in campo
    assert valor(recusado.text, "campo-evento-data") == texto  # what was typed, kept
    erro = erros_da_pagina(recusado.text).ao_lado.get("evento-data", "")
    assert erro.startswith("Erro: ") and mensagem in erro
    assert len(cliente.get(f"/api/v1{url}").json()["eventos"]) == 1  # nothing stored


def test_novo_processo_com_data_invalida(cliente: TestClient) -> None:
    recusado = enviar(cliente, "/processos", {"tipo": "anp", "data": "30/02/2025"})
    assert recusado.status_code == 422
    assert 'aria-invalid="true"' in entrada(recusado.text, "campo-data")
    assert "data inexistente: &#39;30/02/2025&#39;" in recusado.text
    assert cliente.get("/api/v1/processos").json()["processos"] == []


def test_processo_mostra_a_data_como_dd_mm_aaaa_ao_voltar_com_erro(cliente: TestClient) -> None:
    """A valid date sent back with another field's error is shown dd/mm/aaaa."""
    recusado = enviar(cliente, "/processos", {"tipo": "desconhecido", "data": "2025-03-15"})
    assert recusado.status_code == 422
    assert valor(recusado.text, "campo-data") == "15/03/2025"
    campo = entrada(recusado.text, "campo-data")
    assert 'type="text"' in campo and 'inputmode="numeric"' in campo
    assert 'placeholder="dd/mm/aaaa"' in campo and "data-data" in campo
    assert 'hx-get="/formulario/dias-locais"' in campo  # the suggestions still follow it


@pytest.mark.parametrize("formato", FORMATOS)
def test_formulario_do_regime_em_cada_formato(cliente: TestClient, formato: str) -> None:
    caso = EXEMPLOS["anp.mora"]
    esperado = apresentar(calcular(caso)).valor
    valores = valores_do_caso(caso)
    for campo in ("data_ciencia", "data_pagamento"):
        ano, mes, dia = caso[campo].split("-")
        valores[campo] = {"dd/mm/aaaa": f"{dia}/{mes}/{ano}", "ddmmaaaa": f"{dia}{mes}{ano}",
                          "ISO": caso[campo]}[formato]  # fmt: skip
    resposta = cliente.post("/calcular", data=valores)
    assert resposta.status_code == 200, resposta.text[:500]
    assert f'<strong id="valor-devido">{esperado}</strong>' in resposta.text


def test_formulario_do_regime_mostra_dd_mm_aaaa_e_nomeia_a_data_invalida(
    cliente: TestClient,
) -> None:
    pagina = cliente.get("/", params={"regime": "anp.mora", "exemplo": "1"}).text
    assert valor(pagina, "campo-data_ciencia") == "29/03/2024"  # the example, pre-filled
    assert "dd/mm/aaaa" in pagina
    valores = {**valores_do_caso(EXEMPLOS["anp.mora"]), "data_pagamento": "31062024"}
    recusado = cliente.post("/calcular", data=valores)
    assert recusado.status_code == 422
    assert 'aria-invalid="true"' in entrada(recusado.text, "campo-data_pagamento")
    assert valor(recusado.text, "campo-data_pagamento") == "31062024"
    assert valor(recusado.text, "campo-data_ciencia") == "29/03/2024"
    assert "data inexistente: &#39;31062024&#39;" in recusado.text


def test_sugestoes_de_dias_locais_com_datas_brasileiras(cliente: TestClient) -> None:
    """htmx sends the date fields as typed (hx-get): every format finds the same years."""
    for ciencia, pagamento in [("31102020", "30/12/2022"), ("2020-10-31", "30122022")]:
        resposta = cliente.get(
            "/formulario/dias-locais",
            params={"regime": "anp.mora", "data_ciencia": ciencia, "data_pagamento": pagamento},
        )
        assert resposta.status_code == 200
        assert (
            'data-dia-sugerido="2020-11-30"' in resposta.text
            and 'data-dia-sugerido="2022-11-30"' in resposta.text
        )
    resposta = cliente.get(
        "/formulario/dias-locais", params={"formulario": "processo", "data": "15032021"}
    )
    assert resposta.status_code == 200 and "2021" in resposta.text


def test_lista_de_dias_sem_expediente_com_ddmmaaaa(cliente: TestClient) -> None:
    criado = enviar(
        cliente,
        "/processos",
        {"tipo": "anp", "data": "15/03/2025", "dias_sem_expediente": "02052025\n5/5/2025"},
    )
    assert criado.status_code == 303, criado.text
    url = criado.headers["location"].split("?")[0]
    processo = cliente.get(f"/api/v1{url}").json()
    assert processo["dias_sem_expediente"] == ["2025-05-02", "2025-05-05"]
    recusado = enviar(
        cliente, f"{url}/dias-sem-expediente", {"dias_sem_expediente": "02052025 31/04/2025"}
    )
    assert recusado.status_code == 422 and "data inexistente: &#39;31/04/2025&#39;" in recusado.text


@pytest.mark.parametrize("texto", ["18/03/2026", "18032026", "2026-03-18"])
def test_filtros_de_listas_e_pendencias(cliente: TestClient, texto: str) -> None:
    lista = cliente.get("/listas", params={"lista": "sancoes", "data": texto})
    assert lista.status_code == 200
    assert valor(lista.text, "filtro-data") == "18/03/2026"
    assert "data=2026-03-18" in lista.text  # the exports' links (API) stay ISO
    fila = cliente.get("/pendencias", params={"data_referencia": texto})
    assert fila.status_code == 200
    assert valor(fila.text, "filtro-data") == "18/03/2026"
    assert "data_referencia=2026-03-18" in fila.text


def test_filtros_com_data_invalida(cliente: TestClient) -> None:
    lista = cliente.get("/listas", params={"lista": "sancoes", "data": "18/13/2026"})
    assert lista.status_code == 422
    assert 'aria-invalid="true"' in entrada(lista.text, "filtro-data")
    assert valor(lista.text, "filtro-data") == "18/13/2026"
    assert "data inexistente" in lista.text
    fila = cliente.get("/pendencias", params={"data_referencia": "amanhã"})
    assert fila.status_code == 422
    assert 'aria-invalid="true"' in entrada(fila.text, "filtro-data")
    assert "dd/mm/aaaa, ddmmaaaa ou aaaa-mm-dd" in fila.text


def test_carteira_com_datas_brasileiras(cliente: TestClient) -> None:
    dados = {"cnpj": CNPJ, "ano": "2025", "meta_cbios": "1000", "cbios_aposentados": "400",
             "maior_media_mensal": "71,70", "data_quitacao": "15032026"}  # fmt: skip
    recusado = enviar(cliente, "/carteira", {**dados, "data_quitacao": "32032026"})
    assert recusado.status_code == 422 and "data inexistente" in recusado.text
    assert valor(recusado.text, "campo-data_quitacao") == "32032026"
    salvo = enviar(cliente, "/carteira", dados)
    assert salvo.status_code == 303, salvo.text
    carteira = cliente.get("/api/v1/carteira/distribuidor", params={"cnpj": CNPJ}).json()
    assert carteira["anos"][0]["data_quitacao"] == "2026-03-15"


def test_a_api_continua_so_iso(cliente: TestClient) -> None:
    """The JSON API and its query parameters keep the contract: ISO only."""
    r = cliente.post(
        "/api/v1/processos",
        json={"tipo": "renovabio.lista", "eventos": [{"evento": "prazo_nao_cumprido",
                                                       "data": "31/12/2025"}]},
    )  # fmt: skip
    assert r.status_code == 422
    assert cliente.get("/api/v1/listas/sancoes", params={"data": "18/03/2026"}).status_code == 422


def test_o_script_das_datas_e_servido_e_incluido(cliente: TestClient) -> None:
    assert '<script src="/static/datas.js" defer></script>' in cliente.get("/").text
    script = cliente.get("/static/datas.js")
    assert script.status_code == 200 and "setCustomValidity" in script.text
