"""Issue 18: the processo pages give and change a stored processo's ``dias_sem_expediente``,
without JavaScript. The new processo's form has the field (the anp.mora form's list of dates,
one per line, dd/mm/aaaa or ISO) with the calendar's local and conditional dates offered under
it (``GET /formulario/dias-locais?formulario=processo``); a stored processo's page has a form
that replaces the list through :meth:`multas.servicos.gestao.Ciclo.alterar`, the change ``PATCH
/api/v1/processos/{id}`` makes (validated whole, audited), and shows the deadlines counted
again. Hostile input is the page again (422) with a pt-BR error naming the field and nothing
stored; the change needs an analista, like PATCH, and a cross-site form is refused (CSRF).
The browser's side is in test_processo_dias_navegador.py.

02/04/2025 + 30 days = 02/05/2025 (sexta-feira), a conditional ponto facultativo of the
calendar (offered, not applied): listed, the ``pagamento`` deadline (and the linked fine's
vencimento) moves to 05/05/2025 (segunda-feira). 17/04/2025 + 15 days: the ``defesa`` deadline,
the same Friday."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import date, timedelta
from html import unescape
from typing import Any

import pytest
from fastapi.testclient import TestClient

from multas.servidor import criar_app
from tests.utils import Ambiente, com
from tests.utils.paginas import caixas

SEXTA, SEGUNDA = "02/05/2025 (sexta-feira)", "05/05/2025 (segunda-feira)"
ANP_PAGAMENTO = {
    "tipo": "anp",
    "valor_multa": "100000.00",
    "eventos": [
        {"evento": "infracao", "data": "2024-01-02"},
        {"evento": "auto_infracao", "data": "2024-02-01"},
        {"evento": "ciencia_primeira_instancia", "data": "2024-09-02"},
        {"evento": "ciencia_decisao_definitiva", "data": "2025-04-02"},
    ],
}


@pytest.fixture
def cliente_banco(database_url: str) -> Iterator[TestClient]:
    """The same, on SQLite and PostgreSQL."""
    with TestClient(criar_app(database_url), raise_server_exceptions=False) as c:
        yield c


def enviar(cliente: TestClient, url: str, dados: dict[str, str], **kw: Any) -> Any:
    return cliente.post(url, data=dados, follow_redirects=False, **kw)


def prazo(html: str, nome: str) -> str:
    """The date shown in a deadline's row of the processo's page."""
    casamento = re.search(
        rf'<tr id="prazo-{nome}".*?<time datetime="[^"]+">([^<]+)</time>', html, re.S
    )
    assert casamento, f"a página não mostra o prazo {nome}"
    return casamento.group(1)


def campo(html: str) -> str:
    """What the page's dias_sem_expediente field holds."""
    casamento = re.search(
        r'<textarea id="campo-dias_sem_expediente" name="dias_sem_expediente"[^>]*>(.*?)</textarea>',
        html,
        re.S,
    )
    assert casamento, "a página não tem o campo dias_sem_expediente"
    return unescape(casamento.group(1))


def dias_salvos(cliente: TestClient, pid: int) -> list[str]:
    resposta = cliente.get(f"/api/v1/processos/{pid}")
    assert resposta.status_code == 200, resposta.text
    dias: list[str] = resposta.json()["dias_sem_expediente"]
    return dias


def criar_pela_api(cliente: TestClient, dias: list[str] | None = None, **kw: Any) -> int:
    corpo = ANP_PAGAMENTO | ({"dias_sem_expediente": dias} if dias is not None else {})
    resposta = cliente.post("/api/v1/processos", json=corpo, **kw)
    assert resposta.status_code == 201, resposta.text
    pid: int = resposta.json()["processo_id"]
    return pid


# --- the new processo's form -------------------------------------------------------------------


def test_o_formulario_do_processo_novo_tem_o_campo_e_as_sugestoes(cliente: TestClient) -> None:
    pagina = cliente.get("/processos").text
    assert campo(pagina) == ""
    assert 'id="sugestoes-dias_sem_expediente"' in pagina
    # the first event's date asks for its year's acts, through the anp.mora form's route
    entrada = re.search(r'<input id="campo-data"[^>]*>', pagina)
    assert entrada, "a página não tem a data do primeiro evento"
    for atributo in (
        'hx-get="/formulario/dias-locais"',
        """hx-vals='{"formulario": "processo"}'""",
        'hx-include="closest form"',
        'hx-target="#sugestoes-dias_sem_expediente"',
    ):
        assert atributo in entrada.group(0), atributo
    fragmento = cliente.get(
        "/formulario/dias-locais",
        params={"formulario": "processo", "tipo": "anp", "data": "2025-04-10"},
    )
    assert fragmento.status_code == 200
    assert "Atos locais ou condicionais de 2025<" in fragmento.text
    lidas = caixas(fragmento.text)
    assert set(lidas.caixas) == {"2025-05-02"} and "checked" not in lidas.caixas["2025-05-02"]
    assert lidas.caixas["2025-05-02"]["data-campo"] == "campo-dias_sem_expediente"
    # a date already in the field comes back chosen; another year, its acts
    escolhida = cliente.get(
        "/formulario/dias-locais",
        params={
            "formulario": "processo",
            "data": "2025-04-10",
            "dias_sem_expediente": "2025-05-02",
        },
    )
    assert "checked" in caixas(escolhida.text).caixas["2025-05-02"]
    outro = cliente.get(
        "/formulario/dias-locais", params={"formulario": "processo", "data": "2020-10-31"}
    )
    assert set(caixas(outro.text).caixas) == {"2020-11-30"}
    assert (
        "Preencha as datas do processo"
        in cliente.get(
            "/formulario/dias-locais", params={"formulario": "processo", "data": ""}
        ).text
    )
    # the regime form's answer is unchanged
    assert (
        cliente.get("/formulario/dias-locais", params={"regime": "anp.infracao"}).status_code == 204
    )


def test_processo_novo_com_dias_pela_pagina_move_o_prazo(cliente: TestClient) -> None:
    criado = enviar(
        cliente,
        "/processos",
        {
            "tipo": "anp",
            "data": "2025-04-10",
            # one per line, either notation, repeats once, other separators too
            "dias_sem_expediente": "02/05/2025\r\n2025-05-02; 23/06/2025\r\n",
            "usuario": "Ana",
        },
    )
    assert criado.status_code == 303, criado.text
    url = criado.headers["location"].split("?")[0]
    pid = int(url.rsplit("/", 1)[1])
    assert dias_salvos(cliente, pid) == ["2025-05-02", "2025-06-23"]
    sem = enviar(
        cliente, "/processos", {"tipo": "anp", "data": "2025-04-10", "dias_sem_expediente": ""}
    )
    assert sem.status_code == 303
    url_sem = sem.headers["location"].split("?")[0]
    assert dias_salvos(cliente, int(url_sem.rsplit("/", 1)[1])) == []
    for endereco in (url, url_sem):
        evento = enviar(
            cliente, f"{endereco}/eventos", {"evento": "auto_infracao", "data": "2025-04-17"}
        )
        assert evento.status_code == 303, evento.text
    pagina = cliente.get(url).text
    assert prazo(pagina, "defesa") == SEGUNDA
    assert campo(pagina) == "02/05/2025\n23/06/2025"  # the stored list, to change
    assert "checked" in caixas(pagina).caixas["2025-05-02"]
    assert prazo(cliente.get(url_sem).text, "defesa") == SEXTA


# --- changing a stored processo's list ---------------------------------------------------------


def test_alterar_os_dias_pela_pagina_conta_os_prazos_de_novo(cliente_banco: TestClient) -> None:
    cliente = cliente_banco
    pid = criar_pela_api(cliente)
    url = f"/processos/{pid}"
    pagina = cliente.get(url).text
    assert prazo(pagina, "pagamento") == SEXTA
    assert "Vencimento: 02/05/2025" in pagina  # the linked fine
    assert campo(pagina) == ""
    form = re.search(r'<form method="post" action="([^"]+)" id="form-dias">', pagina)
    assert form and form.group(1) == f"/processos/{pid}/dias-sem-expediente"
    assert "Atos locais ou condicionais de 2024 a 2030" in pagina  # the events' and deadlines'
    assert "checked" not in caixas(pagina).caixas["2025-05-02"]

    alterado = enviar(
        cliente, form.group(1), {"dias_sem_expediente": "02/05/2025", "usuario": "bia"}
    )
    assert alterado.status_code == 303, alterado.text
    assert alterado.headers["location"] == f"/processos/{pid}?alterado=1"
    pagina = cliente.get(alterado.headers["location"]).text
    assert "Dias sem expediente salvos" in pagina
    assert prazo(pagina, "pagamento") == SEGUNDA
    assert "Vencimento: 05/05/2025" in pagina
    assert campo(pagina) == "02/05/2025" and "checked" in caixas(pagina).caixas["2025-05-02"]
    assert dias_salvos(cliente, pid) == ["2025-05-02"]
    # the change PATCH makes: one audited change, by who sent the form
    repo = cliente.app.state.servico.repositorio  # type: ignore[attr-defined]
    registro = repo.auditoria(tabela="processos", registro_id=pid)[-1]
    assert (registro.acao, registro.usuario) == ("processo_alterar", "bia")
    # the same as PATCH gives for the same list
    gemeo = criar_pela_api(cliente)
    patch = cliente.patch(
        f"/api/v1/processos/{gemeo}", json={"dias_sem_expediente": ["2025-05-02"]}
    )
    pelo_patch = {z["prazo"]: z["data"] for z in patch.json()["resultado"]["prazos"]}
    lido = cliente.get(f"/api/v1/processos/{pid}").json()
    assert {z["prazo"]: z["data"] for z in lido["resultado"]["prazos"]} == pelo_patch
    assert pelo_patch["pagamento"] == "2025-05-05"

    # an empty list clears it: the deadline is the Friday again
    limpo = enviar(cliente, form.group(1), {"dias_sem_expediente": " \r\n", "usuario": "bia"})
    assert limpo.status_code == 303
    pagina = cliente.get(url).text
    assert prazo(pagina, "pagamento") == SEXTA and campo(pagina) == ""
    assert dias_salvos(cliente, pid) == []
    assert repo.verificar().integro, repo.verificar().problemas


# --- hostile input ----------------------------------------------------------------------------

MUITAS = "\n".join((date(2025, 1, 1) + timedelta(days=i)).strftime("%d/%m/%Y") for i in range(367))
HOSTIS = [
    pytest.param("31/02/2025", "data inexistente", id="inexistente"),
    pytest.param("02/05/2025\n2025-13-01", "dias_sem_expediente[1]", id="mes-13-na-segunda"),
    pytest.param("abc", "data inválida", id="texto"),
    pytest.param("=1+1", "data inválida", id="formula"),
    pytest.param("31/12/10000", "data inválida", id="ano-10000"),
    pytest.param("0000-01-01", "ano fora do intervalo aceito", id="ano-zero"),
    pytest.param("99999-01-01", "data inválida", id="ano-99999"),
    pytest.param("２０２５-05-02", "data inválida", id="algarismos-largos"),
    pytest.param("2025-05-02\x00", "data inválida", id="nulo"),
    pytest.param(MUITAS, "no máximo 366 datas", id="367-datas"),
    pytest.param("</textarea><script>alert(1)</script>", "data inválida", id="marcacao"),
]


def _erro_no_campo(html: str, titulo: str, mensagem: str) -> None:
    assert titulo in html
    assert '<a href="#campo-dias_sem_expediente">dias_sem_expediente</a>:' in html
    beside = re.search(
        r'<p class="mensagem-erro" id="erro-dias_sem_expediente">(.*?)</p>', html, re.S
    )
    assert beside and mensagem in unescape(beside.group(1)), html[:3000]
    assert "<script>alert" not in html


@pytest.mark.parametrize(("texto", "mensagem"), HOSTIS)
def test_dias_hostis_na_pagina_sao_recusados_nomeando_o_campo(
    cliente: TestClient, texto: str, mensagem: str
) -> None:
    novo = enviar(
        cliente, "/processos", {"tipo": "anp", "data": "2025-04-10", "dias_sem_expediente": texto}
    )
    assert novo.status_code == 422, novo.text[:500]
    _erro_no_campo(novo.text, "O processo não foi salvo", mensagem)
    assert campo(novo.text) == texto  # what was typed, to correct
    assert cliente.get("/api/v1/processos").json()["total"] == 0

    pid = criar_pela_api(cliente, ["2025-05-02"])
    alterar = enviar(
        cliente, f"/processos/{pid}/dias-sem-expediente", {"dias_sem_expediente": texto}
    )
    assert alterar.status_code == 422, alterar.text[:500]
    _erro_no_campo(alterar.text, "Os dias sem expediente não foram alterados", mensagem)
    assert dias_salvos(cliente, pid) == ["2025-05-02"]  # nothing stored
    assert prazo(alterar.text, "pagamento") == SEGUNDA  # the page shows what is stored


def test_formulario_sem_o_campo_processo_inexistente_e_prazo_alem_de_9999(
    cliente: TestClient,
) -> None:
    pid = criar_pela_api(cliente, ["2025-05-02"])
    sem_campo = enviar(cliente, f"/processos/{pid}/dias-sem-expediente", {"usuario": "x"})
    assert sem_campo.status_code == 422 and "recarregue a página" in sem_campo.text
    assert dias_salvos(cliente, pid) == ["2025-05-02"]  # never read as "clear the list"
    for ruim in ("999999", "9223372036854775808", "0"):
        r = enviar(cliente, f"/processos/{ruim}/dias-sem-expediente", {"dias_sem_expediente": ""})
        assert r.status_code == 404 and "não encontrado" in r.text
    # a list that would push a deadline past 31/12/9999: refused as the list's, nothing stored
    balanco = cliente.post(
        "/api/v1/processos",
        json={
            "tipo": "renovabio.balanco",
            "eventos": [
                {"evento": "inclusao_lista", "data": "9999-12-01"},
                {"evento": "comprovacao_adequacao", "data": "9999-12-20"},
            ],
        },
    ).json()["processo_id"]
    dias = "\n".join(f"{d}/12/9999" for d in range(21, 32))
    r = enviar(cliente, f"/processos/{balanco}/dias-sem-expediente", {"dias_sem_expediente": dias})
    assert r.status_code == 422
    _erro_no_campo(r.text, "Os dias sem expediente não foram alterados", "31/12/9999")
    assert dias_salvos(cliente, balanco) == []


# --- who may, and from where -------------------------------------------------------------------


def test_alterar_pela_pagina_precisa_de_analista_e_do_proprio_site(ambiente: Ambiente) -> None:
    cliente = ambiente.cliente
    pid = criar_pela_api(cliente, headers=com(ambiente, "admin"))
    url = f"/processos/{pid}/dias-sem-expediente"
    dados = {"dias_sem_expediente": "02/05/2025", "usuario": "quem o formulário diz"}
    assert enviar(cliente, url, dados).status_code in (401, 303)  # no session nor token
    assert enviar(cliente, url, dados, headers=com(ambiente, "leitura")).status_code == 403
    novo = {"tipo": "anp", "data": "2025-04-10", "dias_sem_expediente": "02/05/2025"}
    assert enviar(cliente, "/processos", novo, headers=com(ambiente, "leitura")).status_code == 403
    # a form from another site is refused even with the analista's credentials (CSRF)
    for cabecalho in ({"Origin": "https://malicioso.example"}, {"Sec-Fetch-Site": "cross-site"}):
        r = enviar(cliente, url, dados, headers=com(ambiente, "analista") | cabecalho)
        assert r.status_code == 403 and "outro site" in r.text
        r = enviar(cliente, "/processos", novo, headers=com(ambiente, "analista") | cabecalho)
        assert r.status_code == 403
    assert dias_salvos_com(ambiente, pid) == []
    assert cliente.get("/api/v1/processos", headers=com(ambiente, "admin")).json()["total"] == 1
    # the analista may; the audit names the authenticated user, never the form's name
    r = enviar(
        cliente, url, dados, headers=com(ambiente, "analista") | {"Origin": "https://testserver"}
    )
    assert r.status_code == 303, r.text
    assert dias_salvos_com(ambiente, pid) == ["2025-05-02"]
    repo = cliente.app.state.servico.repositorio  # type: ignore[attr-defined]
    assert repo.auditoria(tabela="processos", registro_id=pid)[-1].usuario == "usuária analista"


def dias_salvos_com(ambiente: Ambiente, pid: int) -> list[str]:
    resposta = ambiente.cliente.get(f"/api/v1/processos/{pid}", headers=com(ambiente, "leitura"))
    dias: list[str] = resposta.json()["dias_sem_expediente"]
    return dias
