"""Issue 15, item 11 (the last part): the 16 MiB import limit could never be reached, because
the body limit (1 MiB, with a message about daily quotes) applied to every route first. The
limits are now per route, in one table (:data:`multas.servidor.servico.LIMITES_CORPO`),
enforced by the one middleware, and the 413 names the route's own limit.

Every POST/PUT/PATCH route of the app is walked (a new route is covered without touching this
file): a body exactly at its limit is read (any answer but 413 or a 500), one byte more is a
pt-BR 413, sent both with a ``Content-Length`` (refused before reading anything) and streamed
without one (refused as soon as the limit is passed)."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest

from multas.servidor import criar_app
from multas.servidor.servico import LIMITE_CORPO, LIMITES_CORPO, limite_do_corpo

PEDACO = 64 * 1024
COM_CORPO = {"POST", "PUT", "PATCH"}


def _rotas(rotas: list[Any]) -> Iterator[Any]:
    for rota in rotas:
        incluido = getattr(rota, "original_router", None)
        if incluido is not None:
            yield from _rotas(list(incluido.routes))
        elif getattr(rota, "methods", None):
            yield rota


def rotas_com_corpo() -> list[tuple[str, str]]:
    """(method, path as declared) of every route of the app that takes a body."""
    app = criar_app("sqlite://")
    return sorted(
        {(m, r.path) for r in _rotas(list(app.router.routes)) for m in r.methods & COM_CORPO}
    )


ROTAS = rotas_com_corpo()


def chamar(
    app: Any,
    metodo: str,
    caminho: str,
    tamanho: int,
    declarar: bool,
    tipo: bytes = b"text/csv",
    outros_tipos: tuple[bytes, ...] = (),
) -> tuple[Any, int]:
    """Call the ASGI app with a body of ``tamanho`` bytes, in 64 KiB chunks, with or without a
    ``Content-Length``, of content type ``tipo`` (``outros_tipos``: more ``Content-Type``
    headers after it); return the response and how many bytes the app read."""
    lidos = 0
    resposta: dict[str, Any] = {"status": None, "corpo": b"", "cabecalhos": {}}
    linha = b"x" * 63 + b"\n"
    pedaco = linha * (PEDACO // len(linha))

    async def receber() -> dict[str, Any]:
        nonlocal lidos
        if lidos >= tamanho:
            return {"type": "http.disconnect"}
        parte = pedaco[: min(PEDACO, tamanho - lidos)]
        lidos += len(parte)
        return {"type": "http.request", "body": parte, "more_body": lidos < tamanho}

    async def enviar(mensagem: dict[str, Any]) -> None:
        if mensagem["type"] == "http.response.start":
            resposta["status"] = mensagem["status"]
            resposta["cabecalhos"] = {k.decode(): v.decode() for k, v in mensagem["headers"]}
        elif mensagem["type"] == "http.response.body":
            resposta["corpo"] += mensagem.get("body", b"")

    cabecalhos = [(b"host", b"testserver"), (b"content-type", tipo)]
    cabecalhos += [(b"content-type", outro) for outro in outros_tipos]
    if declarar:
        cabecalhos.append((b"content-length", str(tamanho).encode()))
    escopo = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": metodo,
        "scheme": "http",
        "path": caminho,
        "raw_path": caminho.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": cabecalhos,
        "client": ("127.0.0.1", 1234),
        "server": ("testserver", 80),
        "state": {},
    }
    asyncio.run(app(escopo, receber, enviar))
    return resposta, lidos


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Any:
    return criar_app(f"sqlite:///{tmp_path_factory.mktemp('limites') / 'm.db'}")


def test_a_importacao_da_carteira_e_o_ano_aceitam_16_mib() -> None:
    assert {rota: n // 2**20 for rota, n in LIMITES_CORPO.items()} == {
        "/api/v1/carteira/importar": 16,
        "/carteira/importar": 16,
        "/api/v1/ano": 16,
        "/api/v1/ano/notificacoes": 16,
        "/ano": 16,
        "/api/v1/processos/importar": 16,
        "/processos/importar": 16,
        # an event's 20 documents of 20 MiB, and 1 MiB for the event and the multipart
        "/api/v1/processos/{processo_id}/eventos": 401,
        "/processos/{processo_id}/eventos": 401,
    }
    # no stale entry: each one is a route that takes a body
    assert set(LIMITES_CORPO) <= {rota for _, rota in ROTAS}


@pytest.mark.parametrize(
    "rota", ["/api/v1/processos/{processo_id}/eventos", "/processos/{processo_id}/eventos"]
)
def test_evento_com_documentos_tem_401_mib_so_em_multipart(app: Any, rota: str) -> None:
    """An event's files (spec § 6.2 v4) make its body large; the event itself, in JSON or a
    urlencoded form, keeps 1 MiB. A declared size past either limit is refused unread."""
    caminho = rota.replace("{processo_id}", "1")
    multipart = b"multipart/form-data; boundary=x"
    assert limite_do_corpo(rota, multipart=True) == 401 * 2**20
    for tipo, limite in ((multipart, 401 * 2**20), (b"application/json", LIMITE_CORPO)):
        resposta, lidos = chamar(app, "POST", caminho, limite + 1, True, tipo)
        assert resposta["status"] == 413 and lidos == 0, resposta
        mensagem = json.loads(resposta["corpo"])["erro"]["mensagem"]
        assert mensagem.endswith(f"é {limite // 2**20} MiB")
    # a JSON body past 1 MiB, streamed without a Content-Length: refused once past it
    resposta, lidos = chamar(app, "POST", caminho, LIMITE_CORPO + 1, False, b"application/json")
    assert resposta["status"] == 413 and lidos <= LIMITE_CORPO + PEDACO
    # a second Content-Type saying multipart does not lend its limit to the JSON (or
    # urlencoded) body the route reads by the first one, whole, into memory
    for tipo in (b"application/json", b"application/x-www-form-urlencoded"):
        resposta, lidos = chamar(app, "POST", caminho, 2 * LIMITE_CORPO, False, tipo, (multipart,))
        assert resposta["status"] == 413 and lidos <= LIMITE_CORPO + PEDACO, (tipo, resposta)


@pytest.mark.parametrize("declarar", [True, False], ids=["content-length", "em-pedacos"])
@pytest.mark.parametrize(("metodo", "rota"), ROTAS, ids=[f"{m} {r}" for m, r in ROTAS])
def test_corpo_no_limite_da_rota_e_lido_e_um_byte_a_mais_e_413(
    app: Any, metodo: str, rota: str, declarar: bool
) -> None:
    limite = limite_do_corpo(rota)  # a text/csv body: no multipart's larger limit
    caminho = re.sub(r"\{[^}]+\}", "1", rota)
    # exactly the limit: the route reads it (or ignores it) and answers whatever it makes of it
    resposta, lidos = chamar(app, metodo, caminho, limite, declarar)
    assert resposta["status"] not in (413, 500), (resposta["status"], resposta["corpo"][:300])
    le_o_corpo = lidos > 0
    # one byte more: 413, the route's limit named, nothing past the limit read
    resposta, lidos = chamar(app, metodo, caminho, limite + 1, declarar)
    if not declarar and not le_o_corpo:  # a route that never reads its body (/sair) ignores it
        assert lidos == 0 and resposta["status"] != 413
        return
    assert resposta["status"] == 413, resposta
    assert resposta["cabecalhos"]["connection"] == "close"
    mensagem = json.loads(resposta["corpo"])["erro"]["mensagem"]
    tamanho = f"{limite // 2**20} MiB"
    assert mensagem == f"corpo grande demais: o limite de {metodo} {caminho} é {tamanho}"
    assert "cotações" not in mensagem
    assert lidos == 0 if declarar else lidos <= limite + PEDACO


def test_413_da_pagina_em_html_nomeia_o_limite(app: Any) -> None:
    from fastapi.testclient import TestClient

    with TestClient(app) as cliente:
        r = cliente.post(
            "/carteira/importar",
            content=b"conteudo=" + b"x" * (16 * 2**20),
            headers={"Content-Type": "application/x-www-form-urlencoded", "Accept": "text/html"},
        )
    assert r.status_code == 413
    assert "<html" in r.text.lower() and "o limite de POST /carteira/importar é 16 MiB" in r.text


def test_importacao_de_1_5_mib_chega_ao_fim_pela_api_e_pela_pagina(app: Any) -> None:
    """The issue's case: a 1.5 MiB import got a 413 about daily quotes. One year of the
    ledger, padded to 1.5 MiB (whitespace in the JSON, blank lines in the pasted rows)."""
    from fastapi.testclient import TestClient

    ano = {"cnpj": "12.345.678/0001-95", "ano": 2025, "meta_cbios": 10, "cbios_aposentados": 20}
    enchimento = 3 * 2**19
    with TestClient(app) as cliente:
        corpo = (json.dumps([ano]) + " " * enchimento).encode()
        r = cliente.post("/api/v1/carteira/importar", params={"formato": "json"}, content=corpo)
        assert r.status_code == 200, r.text
        assert r.json() == {"anos": 1, "distribuidores": ["12.345.678/0001-95"]}
        colado = "cnpj\tano\tmeta_cbios\tcbios_aposentados\n11.111.111/0001-91\t2025\t10\t20\n"
        r = cliente.post(
            "/carteira/importar",
            # blank rows of 16 characters: past 1 MiB, within the rows a page import takes
            data={"conteudo": colado + (" " * 15 + "\n") * (enchimento // 16)},
            follow_redirects=False,
        )
        assert r.status_code == 303 and r.headers["location"] == "/carteira?importados=1"


def test_campo_de_csv_acima_de_128_kib_e_422(app: Any) -> None:
    """A field past the csv module's own limit (131 072 characters) was a 500; with 16 MiB
    imports it is easy to send. Now it is the importers' convention: the line, and the column
    as the field."""
    from fastapi.testclient import TestClient

    from tests.utils import erro_pt

    csv = "cnpj,nome,ano,meta_cbios,cbios_aposentados\n1,Dist" + " " * 200_000 + "X,2025,1,1\n"
    with TestClient(app, raise_server_exceptions=False) as cliente:
        r = cliente.post("/api/v1/carteira/importar", params={"formato": "csv"}, content=csv)
        mensagem = erro_pt(r, 422, "nome")
        assert mensagem.startswith("linha 2, coluna nome: célula com mais de")
        r = cliente.post("/carteira/importar", data={"conteudo": csv.replace(",", "\t")})
        assert r.status_code == 422 and "linha 2, coluna nome: célula com mais de" in r.text
