"""The app factory (:func:`criar_app`) and its runner (:func:`servir`): the top of the server's
layers (``[tool.importlinter]`` in pyproject.toml), the one module that joins the routes, the
middleware and the exception handlers.

``multas servir`` reads the settings (:mod:`multas.servicos.configuracao`) once, applies its options,
builds the app with :func:`criar_app_para` and runs it with uvicorn. FastAPI, uvicorn,
SQLAlchemy and Jinja2 are imported inside the functions below, never at import time: ``multas
usuarios`` and ``multas auditoria`` import this package without paying for them.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from multas import __version__
from multas.nucleo.legislacao import Legislacao

if TYPE_CHECKING:
    from fastapi import FastAPI
    from fastapi.responses import HTMLResponse

    from multas.servicos.configuracao import Configuracao

DESCRICAO = """
Motor **exato e explicável** das multas da regulação brasileira de combustíveis e mobilidade.

- `POST /api/v1/calcular`: o corpo e o resultado são o contrato do caso (veja docs/contrato.md).
  Números são lidos exatamente (nunca como float): `1.83 − 1.82` é `0.01`.
- Entrada inválida recebe HTTP 422 em `application/problem+json` (RFC 9457), em português, com
  todos os erros de campo do pedido em `erros` e o primeiro em `erro` (`{"campo", "mensagem"}`,
  o corpo das versões anteriores, mantido por uma versão).
- Casos salvos (`/api/v1/casos`) guardam a entrada como recebida, o resultado, as versões do
  motor e da legislação e a hora; a auditoria, encadeada por hashes, registra quem fez o quê.
  `Idempotency-Key` em `POST /api/v1/casos`: repetir o pedido não salva de novo.
- Autenticação (quando há usuários cadastrados, ou fora do endereço local):
  `Authorization: Bearer <token>` (`multas usuarios criar`); papéis `leitura`, `analista`
  (calcula e salva) e `admin` (exclui, auditoria). Sem autenticação, quem salva é o cabeçalho
  `X-Usuario`.
"""


#: requests per second per user (or address) when authentication is on; 0 turns it off
LIMITE_PADRAO = 50.0


#: the documentation site ``make docs`` builds (``site/`` of the project), served at
#: ``/documentacao/`` when it exists (an installed package without the project has none)
SITE_DA_DOCUMENTACAO = Path(__file__).resolve().parents[3] / "site"


def criar_app(
    database_url: str | None = None,
    *,
    url_dono: str | None = None,
    legislacao: Legislacao | None = None,
    hosts_permitidos: list[str] | None = None,
    exigir_autenticacao: bool | None = None,
    limite_por_segundo: float | None = None,
) -> FastAPI:
    """The app. ``database_url`` defaults to ``MULTAS_DATABASE_URL`` or the user's SQLite;
    ``url_dono``, the role that migrates it, to ``MULTAS_DATABASE_URL_DONO`` (with no
    ``database_url``) or that same URL; ``legislacao`` (for tests) replaces the shipped
    legislation files; ``hosts_permitidos`` limits the accepted ``Host`` names (``servir``
    sets the loopback ones on loopback).

    ``exigir_autenticacao``: ``None`` requires it when any user is configured
    (``multas usuarios criar``); ``limite_por_segundo``: requests per user or address
    (:mod:`multas.servidor.acesso`)."""
    # imported here, not at the top, only to keep them off the start-up of the commands that
    # import this package and never build an app (multas usuarios, multas auditoria)
    from fastapi import FastAPI
    from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
    from fastapi.openapi.utils import get_openapi
    from fastapi.staticfiles import StaticFiles

    from multas.servicos.persistencia import Repositorio
    from multas.servicos.persistencia.acesso import Acesso
    from multas.servidor import (
        api,
        api_ano,
        api_ciclo,
        api_documentos,
        api_processos,
        erros,
        openapi,
        paginas,
        paginas_acesso,
        paginas_ano,
        paginas_ciclo,
        paginas_exposicao,
    )
    from multas.servidor.acesso import Autenticacao, configurar
    from multas.servidor.erros import rotas_planas
    from multas.servidor.seguranca import ErroInesperado, LimiteCorpo, Seguranca
    from multas.servidor.servico import (
        LIMITE_CORPO,
        LIMITES_CORPO,
        SO_EM_MULTIPART,
        Servico,
    )

    repositorio = Repositorio(database_url, url_dono)
    repositorio.migrar()
    acesso = Acesso(repositorio)
    if exigir_autenticacao is None:
        exigir_autenticacao = acesso.ha_usuarios()
    if limite_por_segundo is None and exigir_autenticacao:
        limite_por_segundo = LIMITE_PADRAO
    configuracao_acesso = configurar(exigir_autenticacao, limite_por_segundo)

    @asynccontextmanager
    async def ciclo(_app: FastAPI) -> AsyncIterator[None]:
        yield
        repositorio.fechar()

    app = FastAPI(
        title="multas",
        version=__version__,
        description=DESCRICAO,
        docs_url=None,
        redoc_url=None,
        openapi_url="/openapi.json",
        lifespan=ciclo,
    )
    app.state.servico = Servico(repositorio, legislacao)
    app.state.acesso = acesso
    app.state.configuracao_acesso = configuracao_acesso
    # the last added runs first: hosts and CSRF, the catch-all of unexpected errors (around
    # everything below it), who and how often, and the body's limit
    app.add_middleware(
        LimiteCorpo, limite=LIMITE_CORPO, por_rota=LIMITES_CORPO, so_em_multipart=SO_EM_MULTIPART
    )
    app.add_middleware(
        Autenticacao,
        acesso=acesso,
        configuracao=configuracao_acesso,
        rotas=lambda: rotas_planas(list(app.router.routes)),
    )
    app.add_middleware(ErroInesperado)
    app.add_middleware(Seguranca, hosts_permitidos=hosts_permitidos)
    erros.instalar(app)
    app.include_router(api.rotas)
    # before api_ciclo: /api/v1/processos/exportar is not /api/v1/processos/{processo_id}
    app.include_router(api_processos.rotas)
    app.include_router(api_ciclo.rotas)
    app.include_router(api_documentos.rotas)
    app.include_router(api_ano.rotas)
    app.include_router(paginas.rotas)
    app.include_router(paginas_ciclo.rotas)
    app.include_router(paginas_ano.rotas)
    app.include_router(paginas_exposicao.rotas)
    app.include_router(paginas_acesso.rotas)

    # the interactive docs' assets come from the fastapi-offline package: no CDN at run time
    estaticos_docs = resources.files("fastapi_offline") / "static"
    app.mount("/docs-static", StaticFiles(directory=str(estaticos_docs)), name="docs-static")
    app.mount("/static", StaticFiles(packages=[("multas.servidor", "static")]), name="static")
    # the documentation site, when built (make docs): the pages link their subjects to it
    app.state.documentacao = None
    if (SITE_DA_DOCUMENTACAO / "index.html").is_file():
        documentos = StaticFiles(directory=str(SITE_DA_DOCUMENTACAO), html=True)
        app.mount("/documentacao", documentos, name="documentacao")
        app.state.documentacao = "/documentacao/"

    @app.get("/docs", include_in_schema=False)
    def documentacao() -> HTMLResponse:
        return console_em_portugues(
            get_swagger_ui_html(
                openapi_url="/openapi.json",
                title="multas · API",
                swagger_js_url="/docs-static/swagger-ui-bundle.js",
                swagger_css_url="/docs-static/swagger-ui.css",
                swagger_favicon_url="/static/favicon.svg",
                swagger_ui_parameters={"validatorUrl": None, "defaultModelsExpandDepth": 0},
            )
        )

    @app.get("/redoc", include_in_schema=False)
    def redoc() -> HTMLResponse:
        return console_em_portugues(
            get_redoc_html(
                openapi_url="/openapi.json",
                title="multas · API",
                redoc_js_url="/docs-static/redoc.standalone.js",
                redoc_favicon_url="/static/favicon.svg",
                with_google_fonts=False,
            )
        )

    def documento_openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            documento = get_openapi(
                title=app.title,
                version=app.version,
                description=app.description,
                routes=app.routes,
            )
            app.openapi_schema = openapi.completar(documento)
        return app.openapi_schema

    app.openapi = documento_openapi  # type: ignore[method-assign]
    return app


#: above the API consoles (Swagger UI, ReDoc): the way back to the page and to the pt-BR guide
BARRA_DO_CONSOLE = (
    '<header class="multas-barra"><nav aria-label="Documentação da API">'
    '<a href="/">multas</a>'
    '<a href="/guia-da-api">Guia da API (pt-BR)</a>'
    '<a href="/docs">Console (Swagger UI)</a>'
    '<a href="/redoc">Referência (ReDoc)</a>'
    "</nav></header>"
)
#: the bar's style, and Swagger UI's colours darkened where they fail WCAG AA contrast (the
#: methods' badges, the document's address and version): axe-core checks them
#: (tests/navegador/test_acessibilidade.py)
ESTILO_DO_CONSOLE = """<style>
.multas-barra { font: 16px/1.5 system-ui, sans-serif; background: #0b4f8a; padding: .6rem 1rem; }
.multas-barra nav { display: flex; gap: 1.25rem; flex-wrap: wrap; }
.multas-barra a { color: #fff; }
.swagger-ui .opblock.opblock-get .opblock-summary-method { background: #1d64b0; }
.swagger-ui .opblock.opblock-post .opblock-summary-method { background: #17804b; }
.swagger-ui .opblock.opblock-put .opblock-summary-method { background: #9a5200; }
.swagger-ui .opblock.opblock-patch .opblock-summary-method { background: #0b7a63; }
.swagger-ui .opblock.opblock-delete .opblock-summary-method { background: #c0221f; }
.swagger-ui .info .url { color: #1d64b0; }
.swagger-ui .info .title small { background: #4f5664; }
.swagger-ui .info .title small.version-stamp { background: #3d6b00; }
</style>"""


def console_em_portugues(resposta: HTMLResponse) -> HTMLResponse:
    """An API console as FastAPI renders it, with ``lang="pt-BR"`` and the bar above (links
    to the page and to the guide). Fails loudly, never silently, if the markup changes."""
    from fastapi.responses import HTMLResponse  # start-up only: see criar_app

    html = bytes(resposta.body).decode("utf-8")
    html, trocas_html = re.subn(r"<html\b[^>]*>", '<html lang="pt-BR">', html, count=1)
    html, trocas_head = re.subn(r"</head>", ESTILO_DO_CONSOLE + "</head>", html, count=1)
    html, trocas_body = re.subn(
        r"<body\b[^>]*>", lambda m: m.group(0) + BARRA_DO_CONSOLE, html, count=1
    )
    if not (trocas_html and trocas_head and trocas_body):
        raise RuntimeError("o HTML do console da API mudou: sem <html>, </head> ou <body>")
    html = html.replace(
        "ReDoc requires Javascript to function. Please enable it to browse the documentation.",
        "A referência (ReDoc) precisa de JavaScript: ative-o para ler a documentação.",
    )
    return HTMLResponse(html, status_code=resposta.status_code)


def aquecer() -> None:
    """Load every rule, the legislation and the calendar now, not on the first request."""
    # start-up only: see criar_app
    from multas.nucleo.motor import calcular
    from multas.servicos.relogio import hoje
    from multas.servidor.exemplos import EXEMPLOS

    for caso in EXEMPLOS.values():
        calcular(caso, hoje=hoje())


class SemAutenticacao(Exception):
    """``servir`` on an address other than loopback with no user configured."""


def eh_loopback(host: str) -> bool:
    from multas.servidor.seguranca import HOSTS_LOOPBACK  # start-up only: see criar_app

    return host in HOSTS_LOOPBACK or host.startswith("127.")


class PapelInseguro(Exception):
    """The application's database role could alter or disable the audit (PostgreSQL)."""

    def __init__(self, papel: str, riscos: list[str]) -> None:
        super().__init__("; ".join(riscos))
        self.papel = papel
        self.riscos = riscos


def criar_app_para(
    host: str,
    database_url: str | None = None,
    limite_por_segundo: float | None = None,
    url_dono: str | None = None,
    aceitar_papel_inseguro: bool = False,
) -> FastAPI:
    """The app ``multas servir`` runs on ``host``: on loopback, open unless users exist; on
    any other address, authenticated, and refused (:class:`SemAutenticacao`) with no user.
    Refused (:class:`PapelInseguro`) when its database role could rewrite the audit, unless
    ``aceitar_papel_inseguro`` (then every page tells its admins)."""
    # start-up only: see criar_app
    from sqlalchemy.engine import make_url

    from multas.servicos.persistencia import Repositorio
    from multas.servicos.persistencia.acesso import Acesso
    from multas.servidor.seguranca import HOSTS_LOOPBACK

    loopback = eh_loopback(host)
    repositorio = Repositorio(database_url, url_dono)
    try:
        riscos = repositorio.riscos_do_papel()
        if riscos and not aceitar_papel_inseguro:
            raise PapelInseguro(make_url(repositorio.url).username or "?", riscos)
        if not loopback and not Acesso(repositorio).ha_usuarios():
            raise SemAutenticacao(host)
    finally:
        repositorio.fechar()
    app = criar_app(
        database_url,
        url_dono=url_dono,
        hosts_permitidos=[*HOSTS_LOOPBACK, host] if loopback else None,
        exigir_autenticacao=None if loopback else True,
        limite_por_segundo=limite_por_segundo,
    )
    app.state.papel_inseguro = riscos or None
    return app


def app_configurado(configuracao: Configuracao) -> FastAPI:
    """The app of :func:`criar_app_para` with these settings (:mod:`multas.servicos.configuracao`),
    in a process whose allocator shares a few arenas among its threads (each worker builds its
    own app here: :mod:`multas.servicos.alocador`)."""
    from multas.servicos.alocador import limitar_arenas

    limitar_arenas()
    return criar_app_para(
        configuracao.servir_host,
        configuracao.database_url,
        configuracao.limite_requisicoes,
        configuracao.database_url_dono,
        configuracao.aceitar_papel_inseguro,
    )


def opcoes_uvicorn(configuracao: Configuracao) -> dict[str, Any]:
    """TLS and the proxy headers, as uvicorn takes them. ``X-Forwarded-*`` count only from
    the trusted proxies (uvicorn, by default, would trust them from 127.0.0.1: a client on
    this machine would choose its own address, and so its own login limit)."""
    proxies = configuracao.proxies_confiaveis
    return {
        "ssl_certfile": configuracao.tls_certificado,
        "ssl_keyfile": configuracao.tls_chave,
        "proxy_headers": proxies is not None,
        "forwarded_allow_ips": proxies or "",
    }


#: uvicorn's own log lines are English, and its warnings are about clients, not the server
#: (a scanner's or a TLS client's "Invalid HTTP request received.", an unsupported upgrade):
#: only its errors reach the terminal, beside the pt-BR lines of `multas servir`
NIVEL_UVICORN = "error"


def servir(configuracao: Configuracao, app: FastAPI | None = None) -> None:
    """Run the server (uvicorn) with these settings until interrupted (``app``: one already
    built from them)."""
    import gc  # start-up only: see criar_app

    import uvicorn

    host, porta = configuracao.servir_host, configuracao.servir_porta
    if configuracao.servir_trabalhadores > 1:
        # each worker process builds its own app (the factory below) from the same settings:
        # these, the command's options applied, exported as the variables it reads
        import os

        from multas.servicos.configuracao import OBSOLETAS

        for antiga in OBSOLETAS:  # its value is exported under the current name
            os.environ.pop(antiga, None)
        os.environ.update(configuracao.ambiente())
        if app is None:
            app_configurado(configuracao)  # migrate and check, once
        uvicorn.run(
            "multas.servidor.aplicacao:app_do_trabalhador",
            factory=True,
            host=host,
            port=porta,
            workers=configuracao.servir_trabalhadores,
            log_level=NIVEL_UVICORN,
            access_log=False,
            **opcoes_uvicorn(configuracao),
        )
        return
    if app is None:
        app = app_configurado(configuracao)
    aquecer()
    # everything loaded so far lives as long as the process: keep it out of the collector's
    # way, so each request's garbage (the engine's exact fractions) is collected cheaply
    gc.collect()
    gc.freeze()
    # uvicorn's own start-up lines are English: `multas servir` prints its pt-BR one instead
    uvicorn.run(
        app,
        host=host,
        port=porta,
        log_level=NIVEL_UVICORN,
        access_log=False,
        **opcoes_uvicorn(configuracao),
    )


def app_do_trabalhador() -> FastAPI:
    """The app of one ``multas servir --trabalhadores N`` worker process: it reads the settings
    once, at its start, as the parent exported them."""
    from multas.servicos.configuracao import carregar  # start-up only: see criar_app

    app = app_configurado(carregar())
    aquecer()
    return app
