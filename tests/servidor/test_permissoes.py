"""Who may do what (issue 16, items 1 and 2): one permission table, walked here against every
route of the app with every role, on SQLite and PostgreSQL; the "who" of the audit is the
authenticated user, never a header or a form field; users created while the server runs take
effect at once; a login blocked by the throttle is refused before any password is checked."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from multas.servicos.persistencia import Repositorio
from multas.servicos.persistencia.acesso import FALHAS_POR_NOME, Acesso
from multas.servidor import criar_app
from multas.servidor.erros import rotas_planas
from multas.servidor.permissoes import PAPEIS, PERMISSOES, alcanca
from tests.utils import SENHA, Ambiente, com
from tests.utils.casos import ENTRADA

PARAMETRO = re.compile(r"\{([^}]+)\}")


def _rotas(cliente: TestClient) -> set[tuple[str, str]]:
    return {
        ("GET" if m == "HEAD" else m, r.path)
        for r in rotas_planas(list(cliente.app.router.routes))  # type: ignore[attr-defined]
        for m in r.methods
        if not r.path.startswith(("/static", "/docs-static"))
    }


def test_a_tabela_tem_cada_rota_do_app_e_so_elas(ambiente: Ambiente) -> None:
    assert _rotas(ambiente.cliente) == set(PERMISSOES)


def _concreto(caminho: str, valores: dict[str, str]) -> str:
    return PARAMETRO.sub(lambda m: valores[m.group(1)], caminho)


def _preparar(amb: Ambiente) -> dict[str, str]:
    """A case and a processo to point the routes with ids at."""
    caso = amb.cliente.post("/api/v1/casos", content=ENTRADA, headers=com(amb, "admin"))
    processo = amb.cliente.post(
        "/api/v1/processos",
        json={"tipo": "anp", "eventos": [{"evento": "infracao", "data": "2024-01-02"}]},
        headers=com(amb, "admin"),
    )
    return {
        "caso_id": str(caso.json()["id"]),
        "processo_id": str(processo.json()["processo_id"]),
        "qual": "sancoes",
        "formato": "html",
        "tipo": "caso",
        "registro_id": str(caso.json()["id"]),
        "ano": "2025",
        "token": "cal_inventado",
        "sha256": "0" * 64,
    }


def test_cada_rota_com_cada_papel_segue_a_tabela(ambiente: Ambiente) -> None:
    valores = _preparar(ambiente)
    # the deleting routes last (an admin's delete would leave the others a 404)
    rotas = sorted(PERMISSOES.items(), key=lambda item: item[0][0] in ("DELETE",))
    for (metodo, caminho), minimo in rotas:
        concreto = _concreto(caminho, valores)
        corpo: dict[str, Any] = {"json": {}} if metodo == "POST" else {}
        sem = ambiente.cliente.request(metodo, concreto, follow_redirects=False, **corpo)
        if minimo is None:  # public (POST /entrar's 401 is a wrong password, not a gate)
            assert sem.status_code != 403 and "autenticação necessária" not in sem.text
            continue
        assert sem.status_code in (401, 303), (metodo, caminho, sem.status_code)
        for papel in PAPEIS:
            r = ambiente.cliente.request(
                metodo, concreto, headers=com(ambiente, papel), follow_redirects=False, **corpo
            )
            if alcanca(papel, minimo):
                assert r.status_code not in (401, 403), (metodo, caminho, papel, r.text[:200])
            else:
                assert r.status_code == 403, (metodo, caminho, papel, r.status_code)
                if r.headers.get("content-type", "").startswith(
                    ("application/json", "application/problem+json")
                ):
                    assert minimo in r.json()["erro"]["mensagem"]


def test_leitura_calcula_sem_salvar_e_nao_salva(ambiente: Ambiente) -> None:
    c = ambiente.cliente
    assert (
        c.post("/api/v1/calcular", content=ENTRADA, headers=com(ambiente, "leitura")).status_code
        == 200
    )
    assert (
        c.post("/api/v1/casos", content=ENTRADA, headers=com(ambiente, "leitura")).status_code
        == 403
    )
    pagina = c.post(
        "/calcular",
        data={"regime": "anp.infracao", "inciso": "XI", "valor": "750000,00"},
        headers=com(ambiente, "leitura"),
    )
    assert pagina.status_code == 200


def test_analista_nao_desfaz_evento_pela_pagina(ambiente: Ambiente) -> None:
    """The defect: an analista undid an event through the page, which only an admin may do
    through the API."""
    valores = _preparar(ambiente)
    pid = valores["processo_id"]
    c = ambiente.cliente
    c.post(
        f"/api/v1/processos/{pid}/eventos",
        json={"evento": "auto_infracao", "data": "2024-02-01"},
        headers=com(ambiente, "analista"),
    )
    r = c.post(
        f"/processos/{pid}/desfazer",
        data={"evento": "auto_infracao"},
        headers=com(ambiente, "analista"),
        follow_redirects=False,
    )
    assert r.status_code == 403
    eventos = c.get(f"/api/v1/processos/{pid}", headers=com(ambiente, "leitura")).json()["eventos"]
    assert [e["evento"] for e in eventos] == ["infracao", "auto_infracao"]


def test_quem_e_o_usuario_autenticado_nunca_o_cabecalho_nem_o_formulario(
    ambiente: Ambiente,
) -> None:
    c = ambiente.cliente
    cabecalhos = com(ambiente, "analista") | {"X-Usuario": "mallory"}
    r = c.post(
        "/api/v1/processos",
        json={"tipo": "anp", "eventos": [{"evento": "infracao", "data": "2024-01-02"}]},
        headers=cabecalhos,
    )
    pid = r.json()["processo_id"]
    c.post(
        f"/processos/{pid}/eventos",
        data={"evento": "auto_infracao", "data": "2024-02-01", "usuario": "mallory"},
        headers=com(ambiente, "analista"),
    )
    c.post(
        "/api/v1/carteira",
        json={
            "cnpj": "1",
            "ano": 2024,
            "meta_cbios": 1,
            "cbios_aposentados": 1,
            "meta_anterior_cumprida": True,
        },
        headers=cabecalhos,
    )
    auditoria = c.get("/api/v1/auditoria?limite=1000", headers=com(ambiente, "admin")).json()
    quem = {r["usuario"] for r in auditoria if r["acao"] != "usuario_criar"}
    assert "mallory" not in quem and "usuária analista" in quem


def test_usuario_criado_com_o_servidor_no_ar_vale_na_hora(database_url: str) -> None:
    with TestClient(criar_app(database_url), raise_server_exceptions=False) as c:
        assert c.get("/api/v1/casos").status_code == 200  # open: no user yet
        token = Acesso(Repositorio(database_url)).criar("ana", "leitura", None, "admin")
        assert c.get("/api/v1/casos").status_code == 401  # at once, no restart
        assert (
            c.get("/api/v1/casos", headers={"Authorization": f"Bearer {token}"}).status_code == 200
        )


def test_login_bloqueado_recusa_antes_de_conferir_a_senha(
    ambiente: Ambiente, monkeypatch: pytest.MonkeyPatch
) -> None:
    from multas.servicos.persistencia import acesso as modulo

    conferidas: list[str] = []
    original = modulo._confere

    def contar(hash_: str, segredo: str) -> bool:
        conferidas.append(segredo)
        return original(hash_, segredo)

    monkeypatch.setattr(modulo, "_confere", contar)
    entrar = lambda senha: ambiente.cliente.post(  # noqa: E731
        "/entrar", data={"nome": "usuária admin", "senha": senha}, follow_redirects=False
    )
    codigos = [entrar("errada").status_code for _ in range(FALHAS_POR_NOME)]
    assert codigos == [401] * FALHAS_POR_NOME
    antes = len(conferidas)
    certo = entrar(SENHA)  # the right password, while blocked
    assert certo.status_code == 429 and "bloqueado" in certo.text
    assert int(certo.headers["retry-after"]) > 0
    assert len(conferidas) == antes  # refused before argon2
