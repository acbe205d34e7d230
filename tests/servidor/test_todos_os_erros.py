"""Every error at once (issue 37, item 9): the API answers ``application/problem+json``
(RFC 9457) with every field error of the request in ``erros`` and the first in ``erro`` (the
body of earlier versions), and the calculation page shows every error beside its field."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.utils import problema
from tests.utils.paginas import todos_os_erros


def test_api_devolve_todos_os_erros_de_campo_do_caso(cliente: TestClient) -> None:
    caso = {
        "id": "AI-9",
        "regime": "anp.mora",
        "cor": "azul",
        "nome": "",
        "principal": "abc",
        "data_ciencia": "2024-02-31",
        "interpretacao": {"nada": "x"},
    }
    r = cliente.post("/api/v1/calcular", json=caso)
    corpo = problema(r, 422)
    assert next(iter(corpo)) == "id" and corpo["id"] == "AI-9"
    assert corpo["title"] == "entrada inválida" and corpo["instance"] == "/api/v1/calcular"
    campos = [e["campo"] for e in corpo["erros"]]
    assert campos == [
        "cor",
        "nome",
        "interpretacao.nada",
        "principal",
        "data_ciencia",
        "data_pagamento",
    ]
    # the first is the one a single-error client always read
    assert corpo["erro"] == {
        "campo": "cor",
        "mensagem": "campo desconhecido para o regime anp.mora",
    }
    assert corpo["detail"].startswith("6 erros na entrada")


def test_regras_entre_campos_so_depois_que_todos_sao_legiveis(cliente: TestClient) -> None:
    caso = {
        "regime": "renovabio.distribuidor",
        "ano_meta": 2024,
        "meta_cbios": 10,
        "cbios_aposentados": 0,
        "maior_media_mensal": "70",
        "faturamento_ano_meta": "1000.00",
    }
    corpo = problema(cliente.post("/api/v1/calcular", json=caso), 422)
    assert [e["campo"] for e in corpo["erros"]] == ["faturamento_ano_anterior"]


def test_parametros_de_consulta_todos_de_uma_vez(cliente: TestClient) -> None:
    corpo = problema(cliente.get("/api/v1/casos?limite=0&deslocamento=x"), 422)
    assert {e["campo"] for e in corpo["erros"]} == {"limite", "deslocamento"}


def test_recusa_sem_campo_tambem_e_um_problema(cliente: TestClient) -> None:
    corpo = problema(cliente.get("/api/v1/nao-existe"), 404)
    assert corpo["erros"] == [corpo["erro"]] and corpo["erro"]["campo"] is None


def test_pagina_mostra_cada_erro_ao_lado_do_seu_campo(cliente: TestClient) -> None:
    formulario = {
        "regime": "anp.mora",
        "principal": "abc",
        "data_ciencia": "31/02/2024",
        "data_pagamento": "",
        "cnpj": "123",
    }
    r = cliente.post("/calcular", data=formulario)
    assert r.status_code == 422
    # in the form's order, each linking to its field
    campos = ["principal", "data_ciencia", "data_pagamento", "cnpj"]
    erros = todos_os_erros(r.text, "O caso não pôde ser calculado: 4 erros", campos).ao_lado
    assert list(erros) == campos
    assert all(m.startswith("Erro: ") for m in erros.values()), erros
    assert "número inválido" in erros["principal"]
    assert "data inexistente" in erros["data_ciencia"]
    assert erros["data_pagamento"] == "Erro: campo obrigatório"
    assert "CNPJ inválido" in erros["cnpj"]
    # and what was typed is kept
    assert 'value="abc"' in r.text and 'value="31/02/2024"' in r.text


def test_o_corpo_do_erro_tem_tamanho_limitado() -> None:
    """90,000 unknown fields, a 900 KB field name, a 60 KB path: the body stays small."""
    from multas.servidor.resposta import MAXIMO_ECO, MAXIMO_ERROS, corpo_erro

    muitos = [(f"campo_{n}", "campo desconhecido") for n in range(90_000)]
    corpo = corpo_erro("campo_0", "campo desconhecido", erros=muitos, instancia="/x" * 30_000)
    assert len(corpo["erros"]) == MAXIMO_ERROS and corpo["erros_omitidos"] == 90_000 - 100
    assert len(corpo["detail"]) < 500 and "e mais 89990" in corpo["detail"]
    assert len(corpo["instance"]) <= MAXIMO_ECO + 1
    longo = corpo_erro("x" * 900_000, "campo desconhecido")
    assert len(str(longo)) < 2_000
