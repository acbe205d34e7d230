"""Browser-facing protections, as one small ASGI middleware (no per-request framework cost):

- a request that changes something (not GET/HEAD/OPTIONS) coming from another site is refused
  (``Sec-Fetch-Site: cross-site`` or an ``Origin`` that is not this server): a page elsewhere
  cannot make the user's browser save or delete cases here (CSRF);
- when the server listens on loopback, only loopback ``Host`` names are accepted, so a
  DNS-rebinding page cannot read the saved cases;
- responses say ``nosniff`` and may not be framed (clickjacking on the delete button).

API clients (curl, other systems) send neither header and are not affected.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit

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
            await _recusar(enviar, 400, f"endereço não aceito por este servidor: {host!r}")
            return
        if escopo["method"] not in SEGUROS and _de_outro_site(cabecalhos, host):
            await _recusar(
                enviar, 403, "pedido vindo de outro site recusado (proteção contra CSRF)"
            )
            return

        async def enviar_com_cabecalhos(mensagem: dict[str, Any]) -> None:
            if mensagem["type"] == "http.response.start":
                mensagem["headers"] = [*mensagem.get("headers", []), *CABECALHOS_EXTRAS]
            await enviar(mensagem)

        await self.app(escopo, receber, enviar_com_cabecalhos)


def _de_outro_site(cabecalhos: dict[str, str], host: str) -> bool:
    if cabecalhos.get("sec-fetch-site") == "cross-site":
        return True
    origem = cabecalhos.get("origin")
    if origem is None:
        return False
    return origem == "null" or urlsplit(origem).netloc != host


async def _recusar(enviar: Any, status: int, mensagem: str) -> None:
    corpo = json.dumps({"erro": {"campo": None, "mensagem": mensagem}}, ensure_ascii=False)
    await enviar(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(corpo.encode())).encode()),
                *CABECALHOS_EXTRAS,
            ],
        }
    )
    await enviar({"type": "http.response.body", "body": corpo.encode()})
