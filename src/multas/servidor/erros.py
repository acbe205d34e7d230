"""Every error in pt-BR, as ``application/problem+json`` (RFC 9457) with every field error
in ``erros`` and the first in ``erro`` (or a pt-BR page for a browser): bad input is 422,
unknown routes 404, wrong methods 405, and anything unexpected a 500 without a stack trace or
an English framework message. The responses themselves are built
by :func:`multas.servidor.resposta.resposta_erro`."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.exceptions import HTTPException

from multas.nucleo.erros import EntradaInvalida, mostrar_valor
from multas.nucleo.escopo import ForaDoEscopo
from multas.servicos.cargas import TENTAR_DE_NOVO_EM, CargaEmAndamento
from multas.servicos.gestao import NaoEncontrado
from multas.servicos.persistencia import BancoOcupado, DistribuidorEmImportacao, RegistroAlterado
from multas.servidor.resposta import MENSAGENS_HTTP, PROBLEMA, ErroDeCampo, resposta_erro
from multas.servidor.seguranca import CorpoGrandeDemais

registro = logging.getLogger("multas.servidor")


def _mensagem_validacao(erro: dict[str, Any]) -> str:
    tipo = str(erro.get("type", ""))
    entrada = erro.get("input")
    if tipo == "fora_do_intervalo":  # an integer of more digits than any id (parametros.py)
        return f"valor fora do intervalo aceito: {mostrar_valor(entrada)}"
    if "int" in tipo:
        return f"deve ser um número inteiro: {mostrar_valor(entrada)}"
    if "date" in tipo:
        return f"data inválida (use AAAA-MM-DD): {mostrar_valor(entrada)}"
    if "missing" in tipo:
        return "campo obrigatório"
    if "enum" in tipo or "literal" in tipo:
        return f"opção inválida: {mostrar_valor(entrada)}"
    if "greater" in tipo or "less" in tipo:
        return f"valor fora do intervalo aceito: {mostrar_valor(entrada)}"
    return f"valor inválido: {mostrar_valor(entrada)}"


def _erro_de_validacao(erro: dict[str, Any]) -> ErroDeCampo:
    """One of FastAPI's validation errors (a parameter) as (its name, the pt-BR reason)."""
    local = [
        str(p)
        for p in erro.get("loc", ())
        if p not in ("query", "path", "body", "header", "cookie")
    ]
    return ".".join(local) or None, _mensagem_validacao(erro)


def instalar(app: FastAPI) -> None:
    @app.exception_handler(EntradaInvalida)
    async def _entrada_invalida(request: Request, erro: Exception) -> Response:
        assert isinstance(erro, EntradaInvalida)
        todos: list[ErroDeCampo] = [(e.campo, e.mensagem, e.onde) for e in erro.todos()]
        return resposta_erro(request, 422, erro.campo, erro.mensagem, id_caso=erro.id, erros=todos)

    @app.exception_handler(RequestValidationError)
    async def _validacao(request: Request, erro: Exception) -> Response:
        assert isinstance(erro, RequestValidationError)
        todos = [_erro_de_validacao(dict(e)) for e in erro.errors()] or [
            (None, _mensagem_validacao({}))
        ]
        return resposta_erro(request, 422, todos[0][0], todos[0][1], erros=todos)

    @app.exception_handler(NaoEncontrado)
    async def _nao_encontrado(request: Request, erro: Exception) -> Response:
        return resposta_erro(request, 404, None, str(erro))

    @app.exception_handler(ErroHttp)
    async def _nosso(request: Request, erro: Exception) -> Response:
        assert isinstance(erro, ErroHttp)
        return resposta_erro(request, erro.status, None, erro.mensagem)

    @app.exception_handler(HTTPException)
    async def _http(request: Request, erro: Exception) -> Response:
        """The framework's own (routing): their English ``detail`` is never shown."""
        assert isinstance(erro, HTTPException)
        status = erro.status_code
        cabecalhos = dict(erro.headers) if erro.headers else None
        if status == 404:
            mensagem = f"não encontrado: {request.url.path}"
        elif status == 405:
            # Starlette names the methods of the first route whose path matched; FastAPI has
            # one route per method, so the Allow header lists them all
            permitidos = metodos_permitidos(request)
            cabecalhos = {k: v for k, v in (cabecalhos or {}).items() if k.lower() != "allow"}
            cabecalhos["Allow"] = permitidos
            mensagem = f"método {request.method} não permitido em {request.url.path}"
            if permitidos:
                mensagem += f" (aceitos: {permitidos})"
        else:
            mensagem = MENSAGENS_HTTP.get(status, f"erro HTTP {status}")
        return resposta_erro(request, status, None, mensagem, cabecalhos)

    @app.exception_handler(BancoOcupado)
    async def _ocupado(request: Request, erro: Exception) -> Response:
        return resposta_erro(request, 503, None, str(erro), {"Retry-After": "5"})

    @app.exception_handler(CargaEmAndamento)
    async def _carga(request: Request, erro: Exception) -> Response:
        espera = {"Retry-After": str(TENTAR_DE_NOVO_EM)}
        return resposta_erro(request, 429, None, str(erro), espera)

    @app.exception_handler(DistribuidorEmImportacao)
    async def _em_importacao(request: Request, erro: Exception) -> Response:
        espera = {"Retry-After": str(TENTAR_DE_NOVO_EM)}
        return resposta_erro(request, 409, None, str(erro), espera)

    @app.exception_handler(RegistroAlterado)
    async def _alterado(request: Request, erro: Exception) -> Response:
        assert isinstance(erro, RegistroAlterado)
        registro.error("registro salvo não confere: %s", erro.problema.mensagem)
        mensagem = (
            f"{erro.problema.mensagem}. O registro não será mostrado nem alterado; verifique "
            "com 'multas auditoria verificar'."
        )
        return resposta_erro(request, 409, None, mensagem)

    @app.exception_handler(ForaDoEscopo)
    async def _fora_do_escopo(request: Request, erro: Exception) -> Response:
        assert isinstance(erro, ForaDoEscopo)
        return resposta_erro(request, 403, "cnpj", erro.mensagem)

    @app.exception_handler(CorpoGrandeDemais)
    async def _grande_demais(request: Request, erro: Exception) -> Response:
        assert isinstance(erro, CorpoGrandeDemais)
        return resposta_erro(request, 413, None, erro.mensagem, {"Connection": "close"})

    # anything else unexpected: multas.servidor.seguranca.ErroInesperado answers a pt-BR 500


def rotas_planas(rotas: list[Any]) -> list[Any]:
    """Every endpoint route, also inside included routers (FastAPI may wrap them)."""
    planas: list[Any] = []
    for rota in rotas:
        incluido = getattr(rota, "original_router", None)
        if incluido is not None:
            planas += rotas_planas(list(incluido.routes))
        elif hasattr(rota, "path_regex") and getattr(rota, "methods", None):
            planas.append(rota)
    return planas


def metodos_permitidos(request: Request) -> str:
    """Every method some route of this path accepts (``Allow``); a route that owns its path
    for every method (``exclusiva``: a literal word where another route has a parameter) alone
    says."""
    metodos: set[str] = set()
    rotas = [
        r
        for r in rotas_planas(list(request.app.router.routes))
        if r.path_regex.match(request.url.path)
    ]
    for rota in rotas:
        if getattr(rota, "exclusiva", False):
            return ", ".join(sorted(rota.methods))
        metodos |= set(rota.methods)
    return ", ".join(sorted(metodos))


class ErroHttp(Exception):
    """An HTTP error of ours, with its pt-BR message."""

    def __init__(self, status: int, mensagem: str) -> None:
        super().__init__(mensagem)
        self.status = status
        self.mensagem = mensagem


def nao_encontrado(mensagem: str) -> ErroHttp:
    return ErroHttp(404, mensagem)


CONFLITO: dict[int | str, dict[str, Any]] = {
    409: {
        "description": "O caso salvo não confere com o seu registro (alterado fora do sistema)",
        "content": {PROBLEMA: {"schema": {"$ref": "#/components/schemas/Erro"}}},
    }
}


def _erro(descricao: str) -> dict[str, Any]:
    return {
        "description": descricao,
        "content": {PROBLEMA: {"schema": {"$ref": "#/components/schemas/Erro"}}},
    }


ERROS_API: dict[int | str, dict[str, Any]] = {
    401: _erro("Autenticação necessária (servidor com usuários ou fora do endereço local)"),
    403: _erro("O papel do usuário não permite a operação, ou pedido de outro site (CSRF)"),
    413: _erro(
        "Corpo grande demais (o limite é 1 MiB; 16 MiB nas importações; 401 MiB num evento "
        "com documentos, em multipart/form-data)"
    ),
    429: _erro("Requisições demais: tente de novo depois do Retry-After"),
    422: {
        "description": "Entrada inválida: todos os erros de campo do pedido em `erros` (pt-BR, "
        "com o campo; `erro` é o primeiro)",
        "content": {PROBLEMA: {"schema": {"$ref": "#/components/schemas/Erro"}}},
    },
    404: {
        "description": "Não encontrado",
        "content": {PROBLEMA: {"schema": {"$ref": "#/components/schemas/Erro"}}},
    },
}
