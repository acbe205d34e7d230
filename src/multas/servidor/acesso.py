"""Access control, as one ASGI middleware (the login page, ``/entrar`` and ``/sair``, is
:mod:`multas.servidor.paginas_acesso`).

- **Open** (the default on loopback with no user configured): one local user, as before;
  the audit's "who" is the ``X-Usuario`` header or the form's name.
- **Authenticated** (any user configured, or any address other than loopback, where
  ``multas servir`` refuses to start without one): every request but the login page and the
  static files needs a bearer token (API) or a login session (page). The audit's "who" is
  then the authenticated user, never ``X-Usuario`` nor a form field.
- **Roles**: the one permission table, :mod:`multas.servidor.permissoes` (every route; one
  it does not know is an admin's). Missing credentials: 401; a lower role: 403, saying why.
- **Rate limiting** (:class:`Balde`): per user when authenticated, per address otherwise.
  Too many: 429 with ``Retry-After``.
- **argon2 checks** (a password at the login, a token's secret when not remembered) cost
  ~0.1 s and 64 MiB each by design: at most one per core runs at once in a process, for
  passwords (:data:`VERIFICACOES`) and for tokens (:data:`VERIFICACOES_TOKEN`) apart, so a
  flood of one never keeps the other out. A request waits for a slot without holding a
  thread (:func:`vaga`), and past :data:`ESPERA_VERIFICACAO` is refused with a 429. A token
  whose secret is wrong counts as a failure of its address's tokens (the throttle of
  :mod:`multas.servicos.persistencia.acesso`, on a key and a threshold of their own): it
  never counts toward, nor is refused by, the lock of the address's page logins.
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from urllib.parse import quote

from fastapi.responses import RedirectResponse, Response
from starlette.requests import Request as Pedido

from multas.nucleo.escopo import Escopo as EscopoDeClientes
from multas.servicos.persistencia import BancoOcupado
from multas.servicos.persistencia.acesso import (
    FALHAS_TOKEN_POR_ENDERECO,
    Acesso,
    Identidade,
    chave_endereco,
    chave_token,
)
from multas.servicos.persistencia.escopo_sql import limitado
from multas.servicos.relogio import agora
from multas.servidor.pedido import CHAVE_ABERTO, CHAVE_ALCANCE, CHAVE_ESCOPO
from multas.servidor.permissoes import (
    ACOES_DA_PAGINA,
    PODE,
    Alcance,
    Tabela,
    alcanca,
    rota_de_pagina,
)
from multas.servidor.resposta import pagina_recusada, quer_html, resposta_erro

Escopo = dict[str, Any]
COOKIE_SESSAO = "multas_sessao"
PUBLICOS = ("/static/", "/docs-static/", "/documentacao/")
PAGINAS_PUBLICAS = ("/entrar", "/sair")

#: argon2 checks running at once in this process (per worker: each worker has its own slots)
VERIFICACOES = threading.BoundedSemaphore(os.cpu_count() or 1)
VERIFICACOES_TOKEN = threading.BoundedSemaphore(os.cpu_count() or 1)
#: seconds a request waits for a slot before it is refused (429)
ESPERA_VERIFICACAO = 10.0


@asynccontextmanager
async def vaga(semaforo: threading.BoundedSemaphore) -> AsyncIterator[bool]:
    """Wait for one of the semaphore's slots without holding a thread (a waiting request must
    not hold the thread pool the other requests need); yields whether it got one within
    :data:`ESPERA_VERIFICACAO`."""
    import anyio

    fim, pausa = time.monotonic() + ESPERA_VERIFICACAO, 0.005
    tomada = semaforo.acquire(blocking=False)
    while not tomada and time.monotonic() < fim:
        await anyio.sleep(pausa)
        pausa = min(2 * pausa, 0.05)
        tomada = semaforo.acquire(blocking=False)
    try:
        yield tomada
    finally:
        if tomada:
            semaforo.release()


def segundos_ate(fim: datetime) -> str:
    """A ``Retry-After`` value: whole seconds until ``fim``, at least 1."""
    return str(max(1, math.ceil((fim - agora()).total_seconds())))


@dataclass(frozen=True)
class Recusa:
    status: int
    mensagem: str
    cabecalhos: dict[str, str] | None = None


class Balde:
    """A token bucket per key: ``por_segundo`` sustained, bursts of ``rajada``.

    ``relogio`` is the monotonic clock it refills by (a test stops it, so the count of
    requests allowed never depends on how fast the machine answers them)."""

    relogio: Callable[[], float] = staticmethod(time.monotonic)

    def __init__(self, por_segundo: float, rajada: float) -> None:
        self.por_segundo, self.rajada = por_segundo, rajada
        self._baldes: dict[str, tuple[float, float]] = {}
        self._trava = threading.Lock()

    def tirar(self, chave: str) -> float:
        """0 if allowed now (one token taken), else the seconds to wait."""
        agora = self.relogio()
        with self._trava:
            fichas, quando = self._baldes.get(chave, (self.rajada, agora))
            fichas = min(self.rajada, fichas + (agora - quando) * self.por_segundo)
            if fichas >= 1:
                self._baldes[chave] = (fichas - 1, agora)
                if len(self._baldes) > 100_000:  # old keys: forget the full ones
                    self._baldes = {k: v for k, v in self._baldes.items() if v[0] < self.rajada - 1}
                return 0.0
            self._baldes[chave] = (fichas, agora)
            return (1 - fichas) / self.por_segundo


@dataclass(frozen=True)
class ConfiguracaoAcesso:
    #: authentication required from the start (any address but loopback); otherwise it is
    #: required as soon as a user exists, checked on every request until then
    exigir: bool
    limite: Balde | None


class Autenticacao:
    """Identify, authorise and rate-limit each request (see the module's docstring)."""

    def __init__(
        self,
        app: Any,
        acesso: Acesso,
        configuracao: ConfiguracaoAcesso,
        rotas: Callable[[], Iterable[Any]],
    ) -> None:
        self.app, self.acesso, self.cfg = app, acesso, configuracao
        self._rotas = rotas
        self._tabela: Tabela | None = None
        #: once a user exists, authentication is required for good (users are never deleted)
        self._com_usuarios = configuracao.exigir

    @property
    def tabela(self) -> Tabela:
        """The permission table against the app's routes (read when the first request comes:
        every router is included by then)."""
        if self._tabela is None:
            self._tabela = Tabela(self._rotas())
        return self._tabela

    async def exigindo(self) -> bool:
        """Whether requests must authenticate now: users created while the server runs take
        effect at once, with no restart."""
        if not self._com_usuarios:
            from starlette.concurrency import run_in_threadpool

            self._com_usuarios = await run_in_threadpool(self.acesso.ha_usuarios)
        return self._com_usuarios

    async def __call__(self, escopo: Escopo, receber: Any, enviar: Any) -> None:
        if escopo["type"] != "http":
            await self.app(escopo, receber, enviar)
            return
        metodo, caminho = escopo["method"], escopo["path"]
        necessario = self.tabela.papel_necessario(metodo, caminho)
        quem: Identidade | None = None
        endereco = str((escopo.get("client") or ("?", 0))[0])
        # what the pages may show this user (a public page: as the server is now)
        escopo[CHAVE_ALCANCE] = Alcance(self.tabela, None, not self._com_usuarios)
        if necessario is not None and not await self.exigindo():
            escopo[CHAVE_ABERTO] = True
            escopo[CHAVE_ALCANCE] = Alcance(self.tabela, None, True)
        elif necessario is not None:
            escopo[CHAVE_ALCANCE] = Alcance(self.tabela, None, False)
            cabecalhos = _cabecalhos(escopo)
            try:
                quem, recusa = await self._identificar(cabecalhos, endereco)
            except BancoOcupado as ocupado:
                recusa = Recusa(503, str(ocupado), {"Retry-After": "5"})
            if recusa is not None or quem is None:
                recusa = recusa or Recusa(401, _SEM_CREDENCIAL)
                if recusa.status == 401:  # refused credentials count against the address
                    recusa = self._limitar(chave_endereco(endereco)) or recusa
                await _negar(
                    escopo, receber, enviar, recusa.status, recusa.mensagem, recusa.cabecalhos
                )
                return
            escopo[CHAVE_ESCOPO] = quem
            escopo[CHAVE_ALCANCE] = Alcance(self.tabela, quem.papel, False)
            if not alcanca(quem.papel, necessario):
                await self._recusar(escopo, receber, enviar, quem, necessario)
                return
        recusa = self._limitar(f"u:{quem.nome}" if quem else chave_endereco(endereco))
        if recusa is not None:
            await _negar(escopo, receber, enviar, recusa.status, recusa.mensagem, recusa.cabecalhos)
            return
        clientes = quem.escopo if quem is not None else None
        if clientes is not None and not _cnpj_da_consulta_permitido(escopo, clientes):
            # a search, list or calendar of another client's CNPJ: as if it did not exist
            await _negar(escopo, receber, enviar, 404, "nenhum registro com esse CNPJ")
            return
        with limitado(clientes):  # every read and write of this request, in the database
            await self.app(escopo, receber, enviar)

    async def _recusar(
        self, escopo: Escopo, receber: Any, enviar: Any, quem: Identidade, necessario: str
    ) -> None:
        """A role below the route's: a page route answers the page that says which action, the
        role it needs and the user's (never a bare error page, whatever the request accepts);
        the API its pt-BR JSON error."""
        metodo, caminho = escopo["method"], escopo["path"]
        if not rota_de_pagina(caminho):
            mensagem = (
                f"acesso negado: o papel '{quem.papel}' ({PODE[quem.papel]}) não permite "
                f"esta operação, que requer o papel '{necessario}'"
            )
            await _negar(escopo, receber, enviar, 403, mensagem)
            return
        metodo = "GET" if metodo == "HEAD" else metodo
        modelo = self.tabela.modelo(metodo, caminho) or caminho
        acao = ACOES_DA_PAGINA.get((metodo, modelo), f"{metodo} {caminho}")
        resposta = pagina_recusada(Pedido(escopo, receber), acao, quem.papel, necessario)
        await resposta(escopo, receber, enviar)

    def _limitar(self, chave: str) -> Recusa | None:
        """The request limit (:class:`Balde`) of a user, or of an address (an IPv6 client by
        its /64, as the login throttle counts it): a 429 once spent."""
        if self.cfg.limite is None:
            return None
        espera = self.cfg.limite.tirar(chave)
        if not espera:
            return None
        return Recusa(
            429,
            "requisições demais; tente de novo em instantes",
            {"Retry-After": str(max(1, math.ceil(espera)))},
        )

    async def _identificar(
        self, cabecalhos: dict[str, str], endereco: str
    ) -> tuple[Identidade | None, Recusa | None]:
        from starlette.concurrency import run_in_threadpool

        autorizacao = cabecalhos.get("authorization")
        if autorizacao is not None:
            tipo, _, token = autorizacao.partition(" ")
            if tipo.lower() != "bearer" or not token.strip():
                return None, Recusa(401, "use o cabeçalho Authorization: Bearer <token>")
            return await self._por_token(token.strip(), endereco)
        sessao = _cookie(cabecalhos.get("cookie", ""), COOKIE_SESSAO)
        if sessao:
            quem = await run_in_threadpool(self.acesso.por_sessao, sessao)
            return (quem, None) if quem else (None, Recusa(401, "sessão expirada; entre de novo"))
        return None, None

    async def _por_token(
        self, token: str, endereco: str
    ) -> tuple[Identidade | None, Recusa | None]:
        """A bearer token: read (a database lookup), then, unless its secret was checked
        moments ago, checked in an argon2 slot unless its address's tokens are blocked; a
        wrong secret counts against its address's tokens (never its logins)."""
        from starlette.concurrency import run_in_threadpool

        invalido = Recusa(401, "token inválido, revogado ou de usuário inativo")
        lido = await run_in_threadpool(self.acesso.ler_token, token)
        if lido is None:
            return None, invalido
        if lido.lembrado:
            return lido.identidade, None
        limite = (chave_token(endereco), FALHAS_TOKEN_POR_ENDERECO)
        # reads only, until a secret proves wrong: a right token never waits for a writer
        bloqueio = await run_in_threadpool(self.acesso.bloqueado_ate, limite[0])
        if bloqueio is None:
            async with vaga(VERIFICACOES_TOKEN) as tomada:
                if not tomada:
                    return None, Recusa(
                        429,
                        "o servidor está ocupado conferindo credenciais; tente de novo",
                        {"Retry-After": "5"},
                    )
                # again once in the slot: the failures counted while this one waited
                bloqueio = await run_in_threadpool(self.acesso.bloqueado_ate, limite[0])
                if bloqueio is None:
                    valido = await run_in_threadpool(self.acesso.confirmar_token, lido)
        if bloqueio is not None:
            return None, Recusa(
                429,
                "tokens errados demais deste endereço: tente de novo mais tarde (um "
                "administrador pode desbloquear com 'multas usuarios desbloquear --endereco "
                f"{chave_endereco(endereco).removeprefix('ip:')}')",
                {"Retry-After": segundos_ate(bloqueio)},
            )
        if not valido:
            await run_in_threadpool(self.acesso.registrar_falha, limite)
            return None, invalido
        return lido.identidade, None


_SEM_CREDENCIAL = (
    "autenticação necessária: envie Authorization: Bearer <token> (crie um com "
    "'multas usuarios criar') ou entre pela página /entrar"
)


def credencial_vigente(request: Pedido, acesso: Acesso) -> Callable[[], bool]:
    """Whether the credential this request was let in with (its bearer token or page
    session) is still in force, asked again when called: inside the write that depends on it
    (:meth:`Acesso.criar_feed`), a new password, role or clients that committed meanwhile has
    revoked it."""
    autorizacao = request.headers.get("authorization")
    if autorizacao is not None:
        token = autorizacao.partition(" ")[2].strip()
        return lambda: acesso.ler_token(token) is not None
    sessao = _cookie(request.headers.get("cookie", ""), COOKIE_SESSAO)
    return lambda: sessao is not None and acesso.por_sessao(sessao) is not None


def _cnpj_da_consulta_permitido(escopo: Escopo, clientes: EscopoDeClientes) -> bool:
    """Whether the ``cnpj`` of the query string, if any, is one of the user's clients."""
    from urllib.parse import parse_qsl

    consulta = escopo.get("query_string", b"").decode("latin-1")
    for chave, valor in parse_qsl(consulta, keep_blank_values=True):
        if chave == "cnpj" and valor.strip() and not clientes.permite(valor):
            return False
    return True


def _cabecalhos(escopo: Escopo) -> dict[str, str]:
    return {k.decode("latin-1"): v.decode("latin-1") for k, v in escopo["headers"]}


def _cookie(texto: str, nome: str) -> str | None:
    from http.cookies import CookieError, SimpleCookie

    biscoito: SimpleCookie = SimpleCookie()
    try:
        biscoito.load(texto)
    except CookieError:
        return None
    valor = biscoito.get(nome)
    return valor.value if valor is not None else None


async def _negar(
    escopo: Escopo,
    receber: Any,
    enviar: Any,
    status: int,
    mensagem: str,
    extras: dict[str, str] | None = None,
) -> None:
    pedido = Pedido(escopo, receber)
    cabecalhos = dict(extras or {})
    if status == 401:
        cabecalhos["WWW-Authenticate"] = 'Bearer realm="multas"'
        if quer_html(pedido) and escopo["method"] in ("GET", "HEAD"):
            destino = escopo["path"] + (
                "?" + escopo["query_string"].decode("latin-1") if escopo["query_string"] else ""
            )
            resposta: Response = RedirectResponse(
                f"/entrar?proximo={quote(destino, safe='')}", status_code=303
            )
            await resposta(escopo, receber, enviar)
            return
    resposta = resposta_erro(pedido, status, None, mensagem, cabecalhos)
    await resposta(escopo, receber, enviar)


def configurar(exigir: bool, limite_por_segundo: float | None) -> ConfiguracaoAcesso:
    """``limite_por_segundo``: requests per user or address (``None`` or 0: no limit)."""
    limite = None
    if limite_por_segundo:
        limite = Balde(limite_por_segundo, max(10.0, 2 * limite_por_segundo))
    return ConfiguracaoAcesso(exigir=exigir, limite=limite)
