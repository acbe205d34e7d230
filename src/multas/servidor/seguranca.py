"""Browser-facing protections, as one small ASGI middleware (no per-request framework cost):

- a request that changes something (not GET/HEAD/OPTIONS) coming from another site is refused
  (``Sec-Fetch-Site: cross-site`` or an ``Origin`` that is not this server): a page elsewhere
  cannot make the user's browser save or delete cases here (CSRF);
- when the server listens on loopback, only loopback ``Host`` names are accepted, so a
  DNS-rebinding page cannot read the saved cases;
- responses say ``nosniff`` and may not be framed (clickjacking on the delete button).

API clients (curl, other systems) send neither header and are not affected.

:class:`LimiteCorpo` caps every request body while it streams in, at its route's limit (a pt-BR
413 naming it), and
:class:`ErroInesperado` turns any unexpected exception into a pt-BR 500 *inside* the app, so
it never reaches the server (uvicorn closes a keep-alive connection when one does).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from starlette.requests import Request
from starlette.routing import compile_path

from multas.nucleo.erros import mostrar_valor
from multas.servidor.resposta import PROBLEMA, corpo_erro, resposta_erro

Escopo = dict[str, Any]

SEGUROS = frozenset({"GET", "HEAD", "OPTIONS"})
HOSTS_LOOPBACK = ("127.0.0.1", "localhost", "::1")
CABECALHOS_EXTRAS = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
]


def _nome_do_host(valor: str) -> str:
    """``127.0.0.1:8000`` → ``127.0.0.1``; ``[::1]:8000`` → ``::1``."""
    return urlsplit(f"//{valor}").hostname or ""


class Seguranca:
    def __init__(self, app: Any, hosts_permitidos: Iterable[str] | None = None) -> None:
        self.app = app
        self.hosts = frozenset(hosts_permitidos) if hosts_permitidos is not None else None

    async def __call__(self, escopo: Escopo, receber: Any, enviar: Any) -> None:
        if escopo["type"] != "http":
            await self.app(escopo, receber, enviar)
            return
        cabecalhos = {k.decode("latin-1"): v.decode("latin-1") for k, v in escopo["headers"]}
        host = cabecalhos.get("host", "")
        if self.hosts is not None and _nome_do_host(host) not in self.hosts:
            await _recusar(
                escopo,
                enviar,
                400,
                f"endereço não aceito por este servidor: {mostrar_valor(host)}",
            )
            return
        repetido = _parametro_repetido(escopo.get("query_string", b""))
        if repetido is not None:
            await _recusar(
                escopo,
                enviar,
                422,
                "parâmetro repetido na consulta (informe-o uma vez)",
                repetido,
            )
            return
        if escopo["method"] not in SEGUROS and _de_outro_site(cabecalhos, host):
            await _recusar(
                escopo, enviar, 403, "pedido vindo de outro site recusado (proteção contra CSRF)"
            )
            return

        async def enviar_com_cabecalhos(mensagem: dict[str, Any]) -> None:
            if mensagem["type"] == "http.response.start":
                # a header the route set itself (a download's nosniff) is not sent twice
                dados = list(mensagem.get("headers", []))
                nomes = {nome.lower() for nome, _ in dados}
                extras = [(n, v) for n, v in CABECALHOS_EXTRAS if n not in nomes]
                mensagem["headers"] = [*dados, *extras]
            await enviar(mensagem)

        await self.app(escopo, receber, enviar_com_cabecalhos)


def _parametro_repetido(consulta: bytes) -> str | None:
    """A query key given twice (``?pagina=1&pagina=2``): every parameter here is one value,
    and which of the two the framework would take is not something to leave to chance."""
    vistos: set[str] = set()
    for chave, _ in parse_qsl(consulta.decode("latin-1"), keep_blank_values=True):
        if chave in vistos:
            return chave
        vistos.add(chave)
    return None


def _de_outro_site(cabecalhos: dict[str, str], host: str) -> bool:
    if cabecalhos.get("sec-fetch-site") == "cross-site":
        return True
    origem = cabecalhos.get("origin")
    if origem is None:
        return False
    return origem == "null" or urlsplit(origem).netloc != host


async def _recusar(
    escopo: Escopo, enviar: Any, status: int, mensagem: str, campo: str | None = None
) -> None:
    problema = corpo_erro(campo, mensagem, status=status, instancia=escopo.get("path"))
    corpo = json.dumps(problema, ensure_ascii=False)
    await enviar(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", PROBLEMA.encode()),
                (b"content-length", str(len(corpo.encode())).encode()),
                *CABECALHOS_EXTRAS,
            ],
        }
    )
    await enviar({"type": "http.response.body", "body": corpo.encode()})


def tamanho(n: int) -> str:
    """A size in pt-BR: ``16 MiB``, ``512 KiB``, ``100 bytes``.

    >>> tamanho(16 * 2**20), tamanho(1536 * 1024), tamanho(512 * 1024), tamanho(1000)
    ('16 MiB', '1536 KiB', '512 KiB', '1000 bytes')
    """
    if n % 2**20 == 0:
        return f"{n // 2**20} MiB"
    if n % 1024 == 0:
        return f"{n // 1024} KiB"
    return f"{n} bytes"


class CorpoGrandeDemais(Exception):
    """Raised from ``receive`` when a body passes its route's limit: the app answers 413."""

    def __init__(self, limite: int, metodo: str, caminho: str) -> None:
        super().__init__(limite)
        self.mensagem = f"corpo grande demais: o limite de {metodo} {caminho} é {tamanho(limite)}"


class LimiteCorpo:
    """At most ``limite`` bytes of body per request (``por_rota``: the routes, by their path as
    declared, that take another limit), counted as they arrive: a declared ``Content-Length``
    past it is answered 413 at once, before the route runs, and a streamed (chunked) body is
    refused as soon as it passes it (the error is raised inside the app, from ``receive``). The
    413 is pt-BR, in JSON or, for the page, in HTML. A streamed body that the route never reads
    is never read at all."""

    def __init__(
        self,
        app: Any,
        limite: int,
        por_rota: Mapping[str, int] | None = None,
        so_em_multipart: Iterable[str] = (),
    ) -> None:
        self.app = app
        self.limite = limite
        so = frozenset(so_em_multipart)
        self.por_rota = [
            (compile_path(rota)[0], n, rota in so) for rota, n in (por_rota or {}).items()
        ]

    def limite_de(self, caminho: str, multipart: bool = False) -> int:
        """The limit of a path's body: its route's, unless that one is for the files of a
        multipart body (``so_em_multipart``) and this body is not one."""
        for rota, n, so_multipart in self.por_rota:
            if rota.match(caminho):
                return n if multipart or not so_multipart else self.limite
        return self.limite

    async def __call__(self, escopo: Escopo, receber: Any, enviar: Any) -> None:
        if escopo["type"] != "http" or escopo["method"] in SEGUROS:
            await self.app(escopo, receber, enviar)
            return
        limite = self.limite_de(escopo["path"], _multipart(escopo))
        erro = CorpoGrandeDemais(limite, escopo["method"], escopo["path"])
        declarado = _content_length(escopo)
        if declarado is not None and declarado > limite:
            # refused before the route runs: even one that never reads its body answers 413
            resposta = resposta_erro(
                Request(escopo), 413, None, erro.mensagem, {"Connection": "close"}
            )
            await resposta(escopo, receber, enviar)
            return
        lidos = 0

        async def receber_limitado() -> dict[str, Any]:
            nonlocal lidos
            mensagem: dict[str, Any] = await receber()
            if mensagem["type"] == "http.request":
                lidos += len(mensagem.get("body", b""))
                if lidos > limite:
                    raise erro
            return mensagem

        await self.app(escopo, receber_limitado, enviar)


def _multipart(escopo: Escopo) -> bool:
    """Whether the request's body is declared ``multipart/form-data`` (a form with files), by
    its first ``Content-Type``: the one the route reads it by (Starlette's ``headers.get``), so
    a later header never lends the multipart's limit to a JSON body read whole."""
    tipo = next((valor for nome, valor in escopo["headers"] if nome == b"content-type"), b"")
    return tipo.lower().lstrip().startswith(b"multipart/form-data")


def _content_length(escopo: Escopo) -> int | None:
    for nome, valor in escopo["headers"]:
        if nome == b"content-length":
            try:
                return int(valor)
            except ValueError:
                return None
    return None


registro = logging.getLogger("multas.servidor")


class ErroInesperado:
    """Any exception the app's handlers did not answer becomes a pt-BR 500 here, and goes no
    further: Starlette's outermost middleware would answer it too, but then re-raise it, and
    uvicorn closes the connection (the client's next keep-alive request was reset)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, escopo: Escopo, receber: Any, enviar: Any) -> None:
        if escopo["type"] != "http":
            await self.app(escopo, receber, enviar)
            return
        iniciada = False

        async def enviar_observando(mensagem: dict[str, Any]) -> None:
            nonlocal iniciada
            if mensagem["type"] == "http.response.start":
                iniciada = True
            await enviar(mensagem)

        try:
            await self.app(escopo, receber, enviar_observando)
        except Exception:
            registro.exception("erro inesperado em %s %s", escopo["method"], escopo["path"])
            if iniciada:  # half a response already went out: nothing sensible to add
                return
            mensagem = "erro interno do servidor; o caso não foi processado. Tente de novo."
            resposta = resposta_erro(Request(escopo), 500, None, mensagem)
            await resposta(escopo, receber, enviar)
