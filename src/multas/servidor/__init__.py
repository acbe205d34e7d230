"""The service: the HTTP API (``/api/v1``), the pt-BR web page (``/``), saved cases and the
reports, on top of the engine; no rule is written here a second time.

The modules form layers, each importing only the ones below it (``[tool.importlinter]`` in
pyproject.toml keeps it so):

1. the commands: :mod:`~multas.servidor.comando` (``multas servir``) and
   :mod:`~multas.servidor.administracao` (``multas usuarios``, ``multas auditoria``);
2. the app factory and runner, :mod:`~multas.servidor.aplicacao`;
3. the routes: :mod:`~multas.servidor.api`, :mod:`~multas.servidor.api_ciclo`,
   :mod:`~multas.servidor.paginas`, :mod:`~multas.servidor.paginas_ciclo`,
   :mod:`~multas.servidor.paginas_acesso`;
4. the middleware and the exception handlers: :mod:`~multas.servidor.acesso`,
   :mod:`~multas.servidor.erros`, then :mod:`~multas.servidor.seguranca`;
5. the responses (:mod:`~multas.servidor.resposta`: pages, errors, reports), then what a
   request carries (:mod:`~multas.servidor.pedido`: the service, who is asking);
6. the service and the OpenAPI helpers (:mod:`~multas.servidor.servico`,
   :mod:`~multas.servidor.openapi`), then the form, the examples and the parameter types.

FastAPI, uvicorn, SQLAlchemy and Jinja2 are imported only when an app is built, never on the
CLI's start-up path.
"""

from __future__ import annotations

from multas.servidor.aplicacao import (
    DESCRICAO,
    LIMITE_PADRAO,
    SemAutenticacao,
    aquecer,
    criar_app,
    criar_app_para,
    eh_loopback,
    servir,
)

__all__ = [
    "DESCRICAO",
    "LIMITE_PADRAO",
    "SemAutenticacao",
    "aquecer",
    "criar_app",
    "criar_app_para",
    "eh_loopback",
    "servir",
]
