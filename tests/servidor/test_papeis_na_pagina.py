"""Roles in the page (issue 20, item 3): a user sees only the actions their role allows, by the
one permission table (the template global ``pode``), and a refused page action is a pt-BR page
in the site's layout saying which action, the role it needs and the user's, never a bare error
page; the API keeps its JSON error.

The pages' actions (forms, buttons, links, htmx requests) are read from the pages each role
sees and matched to the app's routes; every page route of :data:`PERMISSOES` is a case of its
own, so a route added later is covered with no change here."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import unescape
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from multas.servicos.persistencia import Repositorio
from multas.servicos.persistencia.acesso import Acesso
from multas.servidor import criar_app
from multas.servidor.erros import rotas_planas
from multas.servidor.permissoes import (
    ACOES_DA_PAGINA,
    PAPEIS,
    PERMISSOES,
    Tabela,
    alcanca,
    rota_de_pagina,
)
from tests.utils import SENHA
from tests.utils.casos import ENTRADA

#: page routes no page links to, and why
SEM_LINK = {
    ("GET", "/prazos"): "o endereço antigo de /pendencias, para quem o guardou",
    # in the menu of a user limited to clients only (tests/navegador/test_escopos.py): the
    # admin has the whole audit, an unlimited user neither
    ("GET", "/auditoria/clientes"): "só no menu de um usuário limitado a clientes",
}
#: page routes offered only inside a form of another action (shown with it, hidden with it)
DENTRO_DE = {("GET", "/formulario/dias-locais"): ("POST", "/processos")}
#: every page route behind a role
ROTAS_DA_PAGINA = sorted(
    chave for chave, papel in PERMISSOES.items() if rota_de_pagina(chave[1]) and papel is not None
)
CALCULO = {"regime": "anp.infracao", "inciso": "XI", "valor": "750000,00"}
CNPJ = "11222333000181"

ACAO = re.compile(
    r"<(form|a|button|input|select)\b([^>]*)>", re.IGNORECASE
)  # the tags that lead somewhere
ATRIBUTO = re.compile(r'([\w-]+)="([^"]*)"')


@pytest.fixture(scope="module")
def servidor(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[TestClient, dict[str, str]]]:
    """An authenticated server on SQLite with one user of each role, a saved case, a processo
    with two events (linked to a list processo) and a year of the ledger (every page then shows all its actions)."""
    url = f"sqlite:///{tmp_path_factory.mktemp('papeis') / 'multas.db'}"
    repo = Repositorio(url)
    acesso = Acesso(repo)
    tokens = {p: acesso.criar(f"usuária {p}", p, SENHA, "teste") for p in PAPEIS}
    repo.fechar()
    app = criar_app(url, limite_por_segundo=0)
    with TestClient(app, base_url="https://testserver", raise_server_exceptions=False) as c:
        admin = {"Authorization": f"Bearer {tokens['admin']}"}
        caso = c.post("/api/v1/casos", content=ENTRADA, headers=admin).json()["id"]
        processo = c.post(
            "/api/v1/processos",
            json={
                "tipo": "anp",
                "eventos": [
                    {"evento": "infracao", "data": "2024-01-02"},
                    {"evento": "auto_infracao", "data": "2024-02-01"},
                ],
            },
            headers=admin,
        ).json()["processo_id"]
        # an event with a document: its page then links to the document's download
        r = c.post(
            f"/api/v1/processos/{processo}/eventos",
            data={"evento": '{"evento": "defesa", "data": "2024-02-10"}'},
            files={"documento": ("defesa.pdf", b"%PDF-1.4 defesa", "application/pdf")},
            headers=admin,
        )
        assert r.status_code == 201, r.text
        # linked to a list processo: its page then offers the link and the decision forms
        lista = c.post(
            "/api/v1/processos",
            json={
                "tipo": "renovabio.lista",
                "eventos": [{"evento": "fim_prazo_meta", "data": "2025-12-31"}],
            },
            headers=admin,
        ).json()["processo_id"]
        r = c.put(f"/api/v1/processos/{processo}/vinculo", json={"lista_id": lista}, headers=admin)
        assert r.status_code == 200, r.text
        r = c.post(
            "/api/v1/carteira",
            json={
                "cnpj": CNPJ,
                "ano": 2024,
                "meta_cbios": 10,
                "cbios_aposentados": 10,
                "meta_anterior_cumprida": True,
            },
            headers=admin,
        )
        assert r.status_code in (200, 201), r.text
        for token in tokens.values():  # a private calendar each: its page offers revoking it
            feed = c.post("/api/v1/feed", headers={"Authorization": f"Bearer {token}"})
            assert feed.status_code == 201, feed.text
        # a case in the bin: the bin's page then offers its restore button
        excluido = c.post("/api/v1/casos", content=ENTRADA, headers=admin).json()["id"]
        assert c.delete(f"/api/v1/casos/{excluido}", headers=admin).status_code == 204
        yield c, tokens | {"caso": str(caso), "processo": str(processo)}


def _acoes(html: str, tabela: Tabela) -> set[tuple[str, str]]:
    """The routes a page's forms, buttons, links and htmx requests lead to."""
    achadas: set[tuple[str, str]] = set()
    for _tag, atributos in ACAO.findall(html):
        a = {k.lower(): unescape(v) for k, v in ATRIBUTO.findall(atributos)}
        pedidos = []
        if _tag.lower() == "form" and "action" in a:
            pedidos.append((a.get("method", "get").upper(), a["action"]))
        if "href" in a:
            pedidos.append(("GET", a["href"]))
        if "formaction" in a:
            pedidos.append((a.get("formmethod", "post").upper(), a["formaction"]))
        pedidos += [(m.upper(), a[f"hx-{m}"]) for m in ("get", "post") if f"hx-{m}" in a]
        for metodo, destino in pedidos:
            caminho = destino.split("?", 1)[0].split("#", 1)[0]
            if not caminho.startswith("/") or caminho.startswith(("/static/", "//")):
                continue
            modelo = tabela.modelo(metodo, caminho)
            if modelo is not None:
                achadas.add((metodo, modelo))
    return achadas


def _visto(cliente: TestClient, valores: dict[str, str], papel: str) -> set[tuple[str, str]]:
    tabela = Tabela(rotas_planas(list(cliente.app.router.routes)))  # type: ignore[attr-defined]
    cab = {"Authorization": f"Bearer {valores[papel]}", "Accept": "text/html"}
    paginas = [
        "/",
        "/casos",
        f"/casos/{valores['caso']}",
        "/processos",
        f"/processos/{valores['processo']}",
        "/pendencias",
        "/listas",
        "/carteira",
        f"/carteira/distribuidor?cnpj={CNPJ}",
        "/ano",
        "/exposicao",
        "/auditoria",
        "/calendario-privado",
        "/usuarios",
        "/lixeira",
    ]
    visto: set[tuple[str, str]] = set()
    for pagina in paginas:
        r = cliente.get(pagina, headers=cab)
        if r.status_code == 403:  # a page the role may not open: refused, and not linked
            continue
        assert r.status_code == 200, (papel, pagina, r.status_code)
        visto |= _acoes(r.text, tabela)
    resultado = cliente.post("/calcular", data=CALCULO, headers=cab)
    assert resultado.status_code == 200, resultado.text[:300]
    return visto | _acoes(resultado.text, tabela)


@pytest.fixture(scope="module")
def vistos(servidor: tuple[TestClient, dict[str, str]]) -> dict[str, set[tuple[str, str]]]:
    cliente, valores = servidor
    return {papel: _visto(cliente, valores, papel) for papel in PAPEIS}


@pytest.mark.parametrize("rota", ROTAS_DA_PAGINA, ids=" ".join)
def test_cada_papel_ve_so_as_acoes_que_pode(
    rota: tuple[str, str], vistos: dict[str, set[tuple[str, str]]]
) -> None:
    if rota in SEM_LINK:
        assert all(rota not in v for v in vistos.values())
        return
    # the admin sees every action: a page route no page offers is a forgotten one
    assert rota in vistos["admin"], f"nenhuma página oferece {rota}: ponha-a em SEM_LINK"
    for papel in PAPEIS:
        pode = alcanca(papel, PERMISSOES[rota] or "leitura")
        if rota in DENTRO_DE:
            pode = pode and DENTRO_DE[rota] in vistos[papel]
        assert (rota in vistos[papel]) == pode, (papel, rota)


@pytest.mark.parametrize("rota", ROTAS_DA_PAGINA, ids=" ".join)
def test_cada_acao_restrita_da_pagina_tem_nome(rota: tuple[str, str]) -> None:
    if PERMISSOES[rota] != "leitura":
        assert ACOES_DA_PAGINA.get(rota), f"dê um nome em pt-BR a {rota} em ACOES_DA_PAGINA"


def test_post_forjado_de_leitura_recebe_a_pagina_que_explica(
    servidor: tuple[TestClient, dict[str, str]],
) -> None:
    cliente, valores = servidor
    caso = valores["caso"]
    leitura = {"Authorization": f"Bearer {valores['leitura']}"}
    # no Accept header (a crafted POST): a page route still answers the explained page
    r = cliente.post(f"/casos/{caso}/excluir", data={}, headers=leitura, follow_redirects=False)
    assert r.status_code == 403
    assert r.headers["content-type"].startswith("text/html")
    texto = unescape(re.sub(r"<[^>]+>", " ", r.text))
    texto = " ".join(texto.split())
    assert "Ação não permitida" in texto
    assert "Seu papel não permite excluir um caso" in texto
    assert "papel leitura (consultar e calcular sem salvar)" in texto
    assert "papel administrador" in texto
    assert "Erro 403" not in r.text
    assert 'href="/"' in r.text and "Casos salvos" in r.text  # the site's layout, a way back
    assert "usuária leitura" in texto  # who is signed in, as on every page
    assert 'href="/auditoria"' not in r.text  # the menu of this user's role
    # nothing deleted
    assert cliente.get(f"/api/v1/casos/{caso}", headers=leitura).status_code == 200

    # a stale form: the way back is the page it came from
    r = cliente.post(
        "/carteira",
        data={"cnpj": CNPJ},
        headers=leitura | {"Referer": "https://testserver/carteira?x=1", "Accept": "text/html"},
    )
    assert r.status_code == 403 and "salvar um ano da carteira" in r.text
    assert 'href="/carteira?x=1"' in r.text and "papel analista" in " ".join(r.text.split())
    # another site's page is never the way back
    r = cliente.post(
        "/carteira", data={}, headers=leitura | {"Referer": "https://malicioso.example/x"}
    )
    assert r.status_code == 403 and "malicioso" not in r.text

    # the analyst: what only an admin may do
    analista = {"Authorization": f"Bearer {valores['analista']}"}
    r = cliente.post(f"/processos/{valores['processo']}/desfazer", data={}, headers=analista)
    assert r.status_code == 403 and "desfazer o último evento do processo" in r.text


def test_a_api_guarda_o_seu_erro_em_json(servidor: tuple[TestClient, dict[str, str]]) -> None:
    cliente, valores = servidor
    leitura = {"Authorization": f"Bearer {valores['leitura']}", "Accept": "text/html"}
    r = cliente.post("/api/v1/casos", content=ENTRADA, headers=leitura)
    assert r.status_code == 403
    assert "'analista'" in r.json()["erro"]["mensagem"]


def test_servidor_aberto_mostra_tudo(tmp_path: Path) -> None:
    """No users (the open server on loopback): every action stays visible, as before."""
    app = criar_app(f"sqlite:///{tmp_path / 'multas.db'}")
    with TestClient(app, base_url="http://127.0.0.1") as c:
        caso = c.post("/api/v1/casos", content=ENTRADA).json()["id"]
        html = c.get(f"/casos/{caso}", headers={"Accept": "text/html"}).text
        for acao in ("Excluir caso", "Auditoria do caso", 'href="/auditoria"'):
            assert acao in html
        assert "Salvar caso" in c.post("/calcular", data=CALCULO).text
        processos = c.get("/processos").text
        assert 'id="form-processo"' in processos and 'action="/processos/importar"' in processos


def test_o_visitante_da_pagina_de_entrar_nao_ve_a_auditoria(
    servidor: tuple[TestClient, dict[str, str]],
) -> None:
    cliente, _ = servidor
    html = cliente.get("/entrar", headers={"Accept": "text/html"}).text
    assert 'href="/auditoria"' not in html and 'action="/entrar"' in html
