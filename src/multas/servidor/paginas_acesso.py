"""The login page (``/entrar``) and the way out (``/sair``): a user's name and password open a
session, kept in an ``HttpOnly``, ``Secure``, ``SameSite=Lax`` cookie; failed logins have
their own, stricter limit per address. The checks on every request are
:class:`multas.servidor.acesso.Autenticacao`'s."""

from __future__ import annotations

import math
from typing import Annotated
from urllib.parse import parse_qsl

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from multas.persistencia.acesso import Acesso
from multas.servidor.acesso import COOKIE_SESSAO, ConfiguracaoAcesso
from multas.servidor.resposta import render

rotas = APIRouter(include_in_schema=False)


def _acesso(request: Request) -> Acesso:
    valor: Acesso = request.app.state.acesso
    return valor


def _proximo(bruto: str | None) -> str:
    """Only a path of this site (no ``//host`` nor scheme): no open redirect."""
    if not bruto or not bruto.startswith("/") or bruto.startswith("//") or "\\" in bruto:
        return "/"
    return bruto


async def _formulario(request: Request) -> dict[str, str]:
    corpo = await request.body()
    return dict(parse_qsl(corpo.decode("utf-8", errors="replace"), keep_blank_values=True))


Formulario = Annotated[dict[str, str], Depends(_formulario)]


@rotas.get("/entrar", response_class=HTMLResponse)
def entrar(request: Request, proximo: str | None = None) -> HTMLResponse:
    return render(request, "entrar.html", proximo=_proximo(proximo), erro=None, nome="")


@rotas.post("/entrar")
def entrar_enviado(request: Request, dados: Formulario) -> Response:
    configuracao: ConfiguracaoAcesso = request.app.state.configuracao_acesso
    cliente = request.client.host if request.client else "?"
    proximo = _proximo(dados.get("proximo"))
    nome = dados.get("nome", "")
    quem = _acesso(request).por_senha(nome, dados.get("senha", ""))
    if quem is None:
        espera = configuracao.falhas.tirar(f"falha:{cliente}")
        mensagem = "usuário ou senha incorretos"
        status = 401
        if espera:
            mensagem = "tentativas demais; espere um pouco e tente de novo"
            status = 429
        resposta = render(
            request, "entrar.html", status=status, proximo=proximo, erro=mensagem, nome=nome
        )
        if espera:
            resposta.headers["Retry-After"] = str(max(1, math.ceil(espera)))
        return resposta
    sessao = _acesso(request).abrir_sessao(quem)
    resposta_ok = RedirectResponse(proximo, status_code=303)
    resposta_ok.set_cookie(
        COOKIE_SESSAO,
        sessao,
        max_age=12 * 3600,
        httponly=True,
        secure=True,
        samesite="lax",
        path="/",
    )
    return resposta_ok


@rotas.post("/sair")
def sair(request: Request) -> Response:
    sessao = request.cookies.get(COOKIE_SESSAO)
    if sessao:
        _acesso(request).fechar_sessao(sessao)
    resposta = RedirectResponse("/entrar", status_code=303)
    resposta.delete_cookie(COOKIE_SESSAO, path="/", secure=True, httponly=True, samesite="lax")
    return resposta
