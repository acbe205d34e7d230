"""The lifecycle's pages, without JavaScript: create a processo, add its events through the form
(a refused one re-renders with the error beside its field, HTTP 422, nothing stored), the
timeline and the deadlines with citations, the next deadlines, the lists and the ledger."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

CNPJ = "12.345.678/0001-95"


def enviar(cliente: TestClient, url: str, dados: dict[str, str]) -> Any:
    return cliente.post(url, data=dados, follow_redirects=False)


def test_processo_pela_pagina_do_inicio_ao_fim(cliente: TestClient) -> None:
    assert "Novo processo" in cliente.get("/processos").text
    criado = enviar(
        cliente,
        "/processos",
        {
            "tipo": "renovabio.lista",
            "data": "2025-12-31",
            "cnpj": CNPJ,
            "nome": "Distribuidora Exemplo",
            "usuario": "Ana",
        },
    )
    assert criado.status_code == 303
    url = criado.headers["location"].split("?")[0]
    pagina = cliente.get(url).text
    assert "Processo salvo." not in pagina  # only after the redirect with ?criado=1
    pagina = cliente.get(criado.headers["location"]).text
    assert "Processo salvo." in pagina
    assert "inadimplente" in pagina
    assert "30/11/2026 (segunda-feira)" in pagina  # 31/12/2025 + 11 meses
    assert "Decreto nº 9.888/2019, art. 6º-A, § 8º" in pagina
    # the form offers only what the order accepts
    assert 'value="decisao_primeira_instancia"' in pagina and 'value="quitacao_meta"' in pagina
    assert 'value="pedido_retirada"' not in pagina
    # a refused event: the page again, 422, the message beside the field, nothing stored
    recusado = enviar(cliente, f"{url}/eventos", {"evento": "quitacao_meta", "data": "2025-12-31"})
    assert recusado.status_code == 422
    assert "O evento não foi registrado" in recusado.text and "com-erro" in recusado.text
    assert "deve ser posterior" in recusado.text
    assert "meta_quitada" not in cliente.get(url).text
    for evento, data in [
        ("decisao_primeira_instancia", "2026-02-06"),
        ("inclusao_lista", "2026-02-09"),
        ("quitacao_meta", "2026-03-10"),
        ("pedido_retirada", "2026-03-12"),
    ]:
        resposta = enviar(cliente, f"{url}/eventos", {"evento": evento, "data": data})
        assert resposta.status_code == 303, resposta.text
    pagina = cliente.get(url).text
    assert "retirada solicitada" in pagina
    # 12/03/2026 (quinta) + 5 dias úteis: 13, 16, 17, 18, 19 → 19/03/2026
    assert 'id="prazo-retirada_lista"' in pagina and "19/03/2026 (quinta-feira)" in pagina
    assert "Decreto nº 9.888/2019, art. 6º-A, § 7º" in pagina
    # the lists and the next deadlines
    lista = cliente.get("/listas", params={"lista": "sancoes", "data": "2026-03-18"}).text
    assert CNPJ in lista and "a ANP retira até 19/03/2026" in lista
    proximos = cliente.get("/prazos", params={"data": "2026-03-13", "dias": "10"}).text
    assert "19/03/2026 (quinta-feira)" in proximos and "Retirada da lista pela ANP" in proximos
    # undo the last event (the form names it), once: the same form sent again undoes nothing
    assert enviar(cliente, f"{url}/desfazer", {}).status_code == 422
    assert enviar(cliente, f"{url}/desfazer", {"evento": "pedido_retirada"}).status_code == 303
    assert "retirada solicitada" not in cliente.get(url).text
    assert enviar(cliente, f"{url}/desfazer", {"evento": "pedido_retirada"}).status_code == 422


def test_criar_processo_com_erro_mostra_o_campo(cliente: TestClient) -> None:
    resposta = enviar(cliente, "/processos", {"tipo": "anp", "data": "2025-02-30"})
    assert resposta.status_code == 422
    assert "O processo não foi salvo" in resposta.text and "inexistente" in resposta.text
    resposta = enviar(
        cliente, "/processos", {"tipo": "anp", "data": "2025-02-03", "valor_multa": "1,001"}
    )
    assert resposta.status_code == 422 and "duas casas" in resposta.text
    assert cliente.get("/api/v1/processos").json()["total"] == 0


def test_processo_inexistente_e_pagina_de_erro_em_portugues(cliente: TestClient) -> None:
    resposta = cliente.get("/processos/12345", headers={"Accept": "text/html"})
    assert resposta.status_code == 404 and "processo 12345 não encontrado" in resposta.text


def test_carteira_pela_pagina(cliente: TestClient) -> None:
    assert "Registrar um ano" in cliente.get("/carteira").text
    for dados in (
        {"cnpj": CNPJ, "nome": "Distribuidora Exemplo", "ano": "2025", "meta_cbios": "1000",
         "cbios_aposentados": "400", "maior_media_mensal": "71,70", "diferir": "sim"},
        {"cnpj": CNPJ, "ano": "2026", "meta_cbios": "1000", "cbios_aposentados": "1600",
         "segundo_ano_atuacao": "sim"},
    ):  # fmt: skip
        resposta = enviar(cliente, "/carteira", dados)
        assert resposta.status_code == 303, resposta.text
    pagina = cliente.get(resposta.headers["location"]).text
    assert "Distribuidora Exemplo" in pagina
    assert 'id="ano-2026"' in pagina and "1.600" in pagina  # 1 000 + the 600 carried
    assert "R$ 100.000,00" in pagina  # 600 × 71,70 = 43 020 < floor
    assert "Resolução ANP nº 791/2019, art. 10, § 1º" in pagina
    assert "30/06/2026" in pagina and "31/12/2026" in pagina  # the partial checks (information)
    ruim = enviar(cliente, "/carteira", {"cnpj": CNPJ, "ano": "2027", "meta_cbios": "dez"})
    assert ruim.status_code == 422 and "O ano não foi salvo" in ruim.text


def test_navegacao_tem_as_paginas_do_ciclo(cliente: TestClient) -> None:
    inicio = cliente.get("/").text
    for caminho in ("/processos", "/pendencias", "/listas", "/carteira", "/ano"):
        assert f'href="{caminho}"' in inicio
        assert cliente.get(caminho).status_code == 200
    # the work queue's former page answers too (the same page)
    assert cliente.get("/prazos").status_code == 200


def test_carteira_importada_colando_da_planilha(cliente: TestClient) -> None:
    colado = (
        "cnpj\tnome\tano\tmeta_cbios\tcbios_aposentados\tmaior_media_mensal\n"
        f"{CNPJ}\tDistribuidora Exemplo\t2025\t1000\t400\t71,70\n"
        f"{CNPJ}\tDistribuidora Exemplo\t2026\t1000\t1600\t\n"
    )
    resposta = enviar(cliente, "/carteira/importar", {"conteudo": colado})
    assert resposta.status_code == 303 and resposta.headers["location"] == "/carteira?importados=2"
    assert "2 ano(s) importado(s)." in cliente.get(resposta.headers["location"]).text
    carteira = cliente.get("/api/v1/carteira/distribuidor", params={"cnpj": CNPJ}).json()
    assert [a["meta_total"] for a in carteira["anos"]] == [1000, 1600]
    ruim = enviar(cliente, "/carteira/importar", {"conteudo": "cnpj;ano\n1;dois mil"})
    assert ruim.status_code == 422 and "Nada foi importado" in ruim.text
