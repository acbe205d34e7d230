"""The new processo's form shows every error at once (issue 37, item 9): each beside its
field, all of them in the summary, nothing saved; ``POST /api/v1/processos`` lists every
field's error in ``erros``, the first (``erro``) being the one it always gave."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from multas.nucleo.ciclo.leitura import ler_processo
from multas.nucleo.erros import EntradaInvalida
from tests.utils import problema
from tests.utils.paginas import todos_os_erros


def _processo_anp(cliente: TestClient) -> int:
    criado = cliente.post(
        "/api/v1/processos",
        json={
            "tipo": "anp",
            "valor_multa": "10000.00",
            "eventos": [{"evento": "infracao", "data": "2024-01-10"}],
        },
    )
    return int(criado.json()["processo_id"])


def test_o_formulario_mostra_cada_erro_ao_lado_do_seu_campo(cliente: TestClient) -> None:
    r = cliente.post(
        "/processos",
        data={
            "tipo": "anp",
            "data": "31/02/2024",
            "dias_sem_expediente": "32/13/2024",
            "valor_multa": "muito",
            "caso_id": "abc",
        },
    )
    assert r.status_code == 422
    # in the order found, the first the one the form gave alone
    campos = ["dias_sem_expediente", "data", "valor_multa", "caso_id"]
    erros = todos_os_erros(r.text, "O processo não foi salvo: 4 erros", campos).ao_lado
    assert set(erros) == set(campos)
    assert all(m.startswith("Erro: ") for m in erros.values()), erros
    assert "caso salvo" in erros["caso_id"]
    # what was typed is kept, and nothing is saved
    assert 'value="muito"' in r.text and 'value="abc"' in r.text
    assert cliente.get("/api/v1/processos").json()["total"] == 0


def test_um_processo_bom_ainda_e_salvo(cliente: TestClient) -> None:
    r = cliente.post(
        "/processos", data={"tipo": "anp", "data": "10/01/2024"}, follow_redirects=False
    )
    assert r.status_code == 303


def test_a_api_da_todos_os_erros_de_campo_e_o_primeiro_de_sempre(cliente: TestClient) -> None:
    corpo = {
        "tipo": "anp",
        "cor": "azul",
        "dias_sem_expediente": ["2024-13-01"],
        "valor_multa": "x",
        "caso_id": "y",
        "eventos": [{"evento": "infracao", "data": "2024-01-10"}],
    }
    resposta = problema(cliente.post("/api/v1/processos", json=corpo), 422)
    campos = [e["campo"] for e in resposta["erros"]]
    assert campos[:2] == ["valor_multa", "caso_id"]
    assert {"cor", "dias_sem_expediente[0]"} <= set(campos)
    assert resposta["erro"]["campo"] == "valor_multa"
    assert campos.count("valor_multa") == 1  # read twice, told once


def test_ler_processo_da_todos_os_campos_antes_dos_eventos() -> None:
    dados = {"tipo": "anp", "cor": 1, "data_referencia": "ontem", "eventos": []}
    with pytest.raises(EntradaInvalida) as erro:
        ler_processo(dados)
    assert [e.campo for e in erro.value.todos()] == ["cor", "data_referencia", "eventos"]
    assert erro.value.campo == "cor"


def test_os_prazos_sem_salvar_tambem_dao_todos(cliente: TestClient) -> None:
    corpo = {"tipo": "anp", "cor": 1, "data_referencia": "ontem", "eventos": []}
    resposta = problema(cliente.post("/api/v1/prazos", json=corpo), 422)
    assert [e["campo"] for e in resposta["erros"]] == ["cor", "data_referencia", "eventos"]


def test_o_formulario_do_evento_mostra_cada_erro_ao_lado_do_seu_campo(
    cliente: TestClient,
) -> None:
    pid = _processo_anp(cliente)
    r = cliente.post(
        f"/processos/{pid}/eventos",
        data={"evento": "pagamento", "data": "31/02/2024", "valor": "-1"},
        files={"documento": ("falso.pdf", b"nada de pdf", "application/pdf")},
    )
    assert r.status_code == 422
    # the first is the one the form gave alone: the date, then the file, then the amount
    campos = ["data", "documento", "valor"]
    titulo = "O evento não foi registrado: 3 erros"
    erros = todos_os_erros(r.text, titulo, campos, prefixo="campo-evento-").ao_lado
    assert set(erros) == {f"evento-{c}" for c in campos}
    assert "falso.pdf" in erros["evento-documento"]
    assert len(cliente.get(f"/api/v1/processos/{pid}").json()["eventos"]) == 1  # nothing saved


def test_a_api_do_evento_da_todos_os_erros(cliente: TestClient) -> None:
    criado = cliente.post(
        "/api/v1/processos",
        json={"tipo": "anp", "eventos": [{"evento": "infracao", "data": "2024-01-10"}]},
    )
    pid = criado.json()["processo_id"]
    corpo = {"evento": "pagamento", "cor": 1, "data": "ontem", "valor": "x"}
    resposta = problema(cliente.post(f"/api/v1/processos/{pid}/eventos", json=corpo), 422)
    assert [e["campo"] for e in resposta["erros"]] == ["cor", "data", "valor"]
    assert resposta["erro"]["campo"] == "cor"


def test_o_formulario_do_parcelamento_mostra_todos_os_erros_do_plano(
    cliente: TestClient,
) -> None:
    """The plan's fields gave their errors one at a time (§ 8 of stop 53): each beside its
    field now, with the date's, nothing saved."""
    pid = _processo_anp(cliente)
    plano = {"parcelas": "0", "valor_consolidado": "-1", "parcelas_para_rescisao": "x"}
    r = cliente.post(
        f"/processos/{pid}/eventos", data={"evento": "parcelamento", "data": "01/03/2024", **plano}
    )
    assert r.status_code == 422
    campos = ["parcelas", "valor_consolidado", "parcelas_para_rescisao"]
    titulo = "O evento não foi registrado: 3 erros"
    erros = todos_os_erros(r.text, titulo, campos, prefixo="campo-evento-").ao_lado
    assert set(erros) == {f"evento-{c}" for c in campos}
    r = cliente.post(
        f"/processos/{pid}/eventos", data={"evento": "parcelamento", "data": "31/02/2024", **plano}
    )
    titulo = "O evento não foi registrado: 4 erros"
    todos_os_erros(r.text, titulo, ["data", *campos], prefixo="campo-evento-")
    assert len(cliente.get(f"/api/v1/processos/{pid}").json()["eventos"]) == 1  # nothing saved


def test_a_api_do_parcelamento_da_todos_os_erros_do_plano(cliente: TestClient) -> None:
    pid = _processo_anp(cliente)
    rota = f"/api/v1/processos/{pid}/eventos"
    corpo = {"evento": "parcelamento", "data": "2024-03-01"}
    resposta = problema(cliente.post(rota, json=corpo), 422)
    assert [e["campo"] for e in resposta["erros"]] == ["parcelas", "valor_consolidado"]
    corpo |= {"parcelas": 0, "valor_consolidado": "abc", "parcelas_para_rescisao": 0}
    resposta = problema(cliente.post(rota, json=corpo), 422)
    campos = ["parcelas", "valor_consolidado", "parcelas_para_rescisao"]
    assert [e["campo"] for e in resposta["erros"]] == campos
    assert resposta["erro"]["campo"] == "parcelas"  # the one a one-error reading gave
    # the rescisão above the count is judged once the count is read
    corpo |= {"parcelas": 3, "valor_consolidado": "100", "parcelas_para_rescisao": 5}
    resposta = problema(cliente.post(rota, json=corpo), 422)
    assert [e["campo"] for e in resposta["erros"]] == ["parcelas_para_rescisao"]


def test_ler_processo_da_todos_os_erros_do_plano_de_um_evento() -> None:
    dados = {
        "tipo": "anp",
        "eventos": [
            {"evento": "infracao", "data": "2024-01-10"},
            {"evento": "parcelamento", "data": "2024-03-01", "parcelas": "a"},
        ],
    }
    with pytest.raises(EntradaInvalida) as erro:
        ler_processo(dados)
    assert [e.campo for e in erro.value.todos()] == [
        "eventos[1].valor_consolidado",
        "eventos[1].parcelas",
    ]
