"""Issue 19, item 5, on the page: a processo ``anp`` is linked to a ``renovabio.lista``
processo, and the first-instance decision is entered once for both, by forms on the processo's
page (without JavaScript: an error re-renders the page, HTTP 422, the message beside its
field, nothing stored). The roles are checked for every page route by
``tests/servidor/test_papeis_na_pagina.py``; the browser flow is ``tests/navegador/test_vinculos.py``."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

from fastapi.testclient import TestClient

from tests.utils.processos import anp, lista


def _criar(cliente: TestClient, processo: dict[str, Any]) -> int:
    r = cliente.post("/api/v1/processos", json=processo)
    assert r.status_code == 201, r.text
    return int(r.json()["processo_id"])


def _texto(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def _erro_do_campo(html: str, campo: str) -> str:
    """The message shown beside the field (inside its ``campo com-erro`` block)."""
    achado = re.search(
        rf'<div class="campo com-erro">\s*<label for="campo-{campo}">.*?'
        r'<p class="mensagem-erro"[^>]*><span class="vh">Erro: </span>(.*?)</p>',
        html,
        re.S,
    )
    assert achado, f"nenhum erro junto de {campo}"
    return unescape(achado[1])


def _vinculo(cliente: TestClient, processo_id: int) -> Any:
    return cliente.get(f"/api/v1/processos/{processo_id}").json()["vinculo"]


def test_vincular_pela_pagina_e_os_erros_junto_do_campo(cliente: TestClient) -> None:
    a = _criar(cliente, anp())
    b = _criar(cliente, lista())
    outra = _criar(cliente, lista(cnpj="99.999.999/0001-99"))
    pagina = cliente.get(f"/processos/{a}").text
    assert 'id="form-vinculo"' in pagina and f'<option value="{b}">' in pagina
    assert 'id="form-decisao"' not in pagina  # the decision needs the link first
    # a list processo's page offers no link form (only an anp processo links)
    assert 'id="form-vinculo"' not in cliente.get(f"/processos/{b}").text

    vazio = cliente.post(f"/processos/{a}/vinculo", data={"lista_id": ""})
    assert vazio.status_code == 422
    assert _erro_do_campo(vazio.text, "lista_id") == "escolha o processo renovabio.lista a vincular"
    outro_cnpj = cliente.post(f"/processos/{a}/vinculo", data={"lista_id": str(outra)})
    assert outro_cnpj.status_code == 422
    assert "difere do CNPJ" in _erro_do_campo(outro_cnpj.text, "lista_id")
    assert f'<option value="{outra}" selected>' in outro_cnpj.text  # what was sent, kept
    assert _vinculo(cliente, a) is None  # nothing stored

    feito = cliente.post(
        f"/processos/{a}/vinculo", data={"lista_id": str(b)}, follow_redirects=False
    )
    assert feito.status_code == 303 and feito.headers["location"] == f"/processos/{a}?vinculado=1"
    pagina = cliente.get(feito.headers["location"]).text
    assert "Processos vinculados" in pagina
    assert f'<a href="/processos/{b}">processo nº {b}</a>' in pagina
    assert 'id="form-desvincular"' in pagina and 'id="form-decisao"' in pagina
    # the other side shows the link back, and the decision form, and no link form
    pagina_lista = cliente.get(f"/processos/{b}").text
    assert f'<a href="/processos/{a}">processo nº {a}</a>' in pagina_lista
    assert 'id="form-decisao"' in pagina_lista and 'id="form-desvincular"' not in pagina_lista
    assert _vinculo(cliente, a) == {"processo_id": b, "tipo": "renovabio.lista"}

    # only the undo button's value undoes (found by the hostile review of 02/12/2026): with
    # desfazer=0 the request is a link to lista_id, here the same one, and the link stays
    mantido = cliente.post(
        f"/processos/{a}/vinculo",
        data={"desfazer": "0", "lista_id": str(b)},
        follow_redirects=False,
    )
    assert mantido.headers["location"] == f"/processos/{a}?vinculado=1"
    assert _vinculo(cliente, a) == {"processo_id": b, "tipo": "renovabio.lista"}

    desfeito = cliente.post(
        f"/processos/{a}/vinculo", data={"desfazer": "1"}, follow_redirects=False
    )
    assert desfeito.headers["location"] == f"/processos/{a}?desvinculado=1"
    assert _vinculo(cliente, a) is None
    assert "Vínculo desfeito." in cliente.get(desfeito.headers["location"]).text


def test_decisao_pela_pagina_vai_para_os_dois_com_os_avisos(cliente: TestClient) -> None:
    a = _criar(cliente, anp())
    b = _criar(cliente, lista())
    cliente.put(f"/api/v1/processos/{a}/vinculo", json={"lista_id": b})

    # a ciência before the decision: beside the ciência's field, nothing stored
    recusada = cliente.post(
        f"/processos/{b}/decisao",
        data={"data_decisao": "2026-02-06", "data_ciencia": "2026-02-01"},
    )
    assert recusada.status_code == 422
    assert "é anterior à decisão" in _erro_do_campo(recusada.text, "data_ciencia")
    assert 'value="06/02/2026"' in recusada.text  # the form keeps what was sent, dd/mm/aaaa
    eventos = cliente.get(f"/api/v1/processos/{b}").json()["eventos"]
    assert [e["evento"] for e in eventos] == ["fim_prazo_meta"]
    # nothing at all: an error beside the decision's date
    nada = cliente.post(f"/processos/{b}/decisao", data={"data_decisao": "", "data_ciencia": ""})
    assert nada.status_code == 422
    assert "informe a data da decisão" in _erro_do_campo(nada.text, "data_decisao")

    # only the decision's date: the list processo gets it, the core's aviso says what is missing
    so_decisao = cliente.post(f"/processos/{b}/decisao", data={"data_decisao": "2026-02-06"})
    assert so_decisao.status_code == 200
    texto = _texto(so_decisao.text)
    assert "Decisão de primeira instância registrada." in texto
    assert f"Processo nº {b} (renovabio.lista): decisao_primeira_instancia" in texto
    assert (
        f"A data da ciência da decisão (data_ciencia) não foi informada: o processo anp nº {a} "
        "não foi alterado" in texto
    )
    # the ciência later, from the anp processo's page: the anp processo gets it
    ciencia = cliente.post(
        f"/processos/{a}/decisao",
        data={"data_decisao": "2026-02-06", "data_ciencia": "2026-02-10"},
    )
    assert ciencia.status_code == 200
    texto = _texto(ciencia.text)
    assert f"Processo nº {a} (anp): ciencia_primeira_instancia" in texto
    assert (
        f"O processo nº {b} já tinha “Decisão de primeira instância” (decisao_primeira_instancia) em 06/02/2026"
        in texto
    )
    assert "não foi informada" not in texto
    anp_eventos = cliente.get(f"/api/v1/processos/{a}").json()["eventos"]
    assert anp_eventos[-1] == {**anp_eventos[-1], "evento": "ciencia_primeira_instancia"}
    # the same again appends nothing
    de_novo = cliente.post(
        f"/processos/{a}/decisao",
        data={"data_decisao": "2026-02-06", "data_ciencia": "2026-02-10"},
    )
    assert "Nada foi acrescentado" in _texto(de_novo.text)
    assert len(cliente.get(f"/api/v1/processos/{a}").json()["eventos"]) == len(anp_eventos)


def test_decisao_sem_vinculo_e_erro_na_pagina_nao_500(cliente: TestClient) -> None:
    a = _criar(cliente, anp())
    r = cliente.post(f"/processos/{a}/decisao", data={"data_ciencia": "2026-02-10"})
    assert r.status_code == 422
    assert "não está vinculado a outro processo" in _texto(r.text)
    r = cliente.post("/processos/999/vinculo", data={"lista_id": "1"})
    assert r.status_code == 404
