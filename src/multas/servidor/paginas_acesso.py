"""The login page (``/entrar``) and the way out (``/sair``): a user's name and password open a
session, kept in an ``HttpOnly``, ``Secure``, ``SameSite=Lax`` cookie. Refused logins are
counted per user name and per address (:mod:`multas.servicos.persistencia.acesso`); a blocked one is
refused before any password is checked. The checks on every request are
:class:`multas.servidor.acesso.Autenticacao`'s."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated
from urllib.parse import parse_qsl, quote

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from multas.saidas.relatorio import horario_brasilia
from multas.servicos.persistencia.acesso import (
    FALHAS_POR_ENDERECO,
    FALHAS_POR_NOME,
    Acesso,
    chave_endereco,
    chave_nome,
)
from multas.servidor.acesso import (
    COOKIE_SESSAO,
    VERIFICACOES,
    credencial_vigente,
    segundos_ate,
    vaga,
)
from multas.servidor.pedido import identidade
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


def _sem_https(request: Request) -> bool:
    """Plain HTTP off loopback: the session cookie is ``Secure``, so the browser will not
    keep it, and logging in cannot work (the page says why and what to do)."""
    from multas.servidor.seguranca import HOSTS_LOOPBACK

    host = request.url.hostname or ""
    return request.url.scheme == "http" and not (host in HOSTS_LOOPBACK or host.startswith("127."))


def _pagina(request: Request, status: int = 200, **contexto: object) -> HTMLResponse:
    return render(request, "entrar.html", status=status, sem_https=_sem_https(request), **contexto)


@rotas.get("/entrar", response_class=HTMLResponse)
def entrar(request: Request, proximo: str | None = None) -> HTMLResponse:
    return _pagina(request, proximo=_proximo(proximo), erro=None, nome="")


@rotas.post("/entrar")
async def entrar_enviado(request: Request, dados: Formulario) -> Response:
    """A login. The attempt is counted for its user name and its address *before* the
    password is checked, and one that would pass a limit is refused unchecked (the right
    password included); the check waits for an argon2 slot without holding a thread, and the
    session opens only if the user did not change meanwhile."""
    acesso = _acesso(request)
    endereco = request.client.host if request.client else "?"
    proximo = _proximo(dados.get("proximo"))
    nome = dados.get("nome", "")
    por_nome, por_endereco = chave_nome(nome), chave_endereco(endereco)
    limites = ((por_nome, FALHAS_POR_NOME), (por_endereco, FALHAS_POR_ENDERECO))

    def recusar(status: int, mensagem: str, ate: datetime | None = None) -> HTMLResponse:
        resposta = _pagina(request, status, proximo=proximo, erro=mensagem, nome=nome)
        if ate is not None:
            resposta.headers["Retry-After"] = segundos_ate(ate)
        return resposta

    recusada = await run_in_threadpool(acesso.tentar, *limites)
    if recusada is not None:
        if recusada.endereco is not None:
            quem_esta = f"deste endereço ({recusada.endereco})"
            comando = f"multas usuarios desbloquear --endereco {recusada.endereco}"
        else:
            quem_esta = "deste usuário"
            comando = f"multas usuarios desbloquear {' '.join(nome.split())}"
        return recusar(
            429,
            f"tentativas erradas demais {quem_esta}: entrar está bloqueado até "
            f"{horario_brasilia(recusada.ate)} (um administrador pode desbloquear com "
            f"'{comando}')",
            recusada.ate,
        )
    async with vaga(VERIFICACOES) as tomada:
        if tomada:
            quem = await run_in_threadpool(acesso.por_senha, nome, dados.get("senha", ""))
    if not tomada:
        await run_in_threadpool(acesso.devolver, por_nome, por_endereco)
        resposta = recusar(429, "o servidor está ocupado conferindo senhas; tente de novo")
        resposta.headers["Retry-After"] = "5"
        return resposta
    if quem is None:
        bloqueio = await run_in_threadpool(acesso.falhou, *limites)
        if bloqueio is not None:  # this failure set the block off: said, still a 401
            return recusar(
                401,
                f"usuário ou senha incorretos; tentativas erradas demais: entrar está bloqueado "
                f"até {horario_brasilia(bloqueio)}",
                bloqueio,
            )
        return recusar(401, "usuário ou senha incorretos")
    await run_in_threadpool(acesso.registrar_sucesso, por_nome, por_endereco)
    sessao = await run_in_threadpool(acesso.abrir_sessao, quem)
    if sessao is None:
        return recusar(
            401, "o usuário mudou (senha, papel ou acesso) durante a entrada; entre de novo"
        )
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


# --- the private calendar feed (issue 20, item 2) ---------------------------------------------


def _dono_do_feed(request: Request) -> str | None:
    autenticado = identidade(request)
    return autenticado.nome if autenticado is not None else None


def _pagina_feed(request: Request, url: str | None = None, aviso: str | None = None) -> Response:
    nome = _dono_do_feed(request)
    criado = _acesso(request).tem_feed(nome) if nome is not None else None
    escopo = identidade(request)
    clientes = escopo.escopo.descricao() if escopo is not None and escopo.escopo else None
    return render(
        request,
        "calendario_privado.html",
        nome=nome,
        criado=horario_brasilia(criado) if criado is not None else None,
        url=url,
        webcal=_webcal(url) if url else None,
        lembretes=_lembretes(),
        aviso=aviso,
        clientes=clientes,
    )


@rotas.get("/calendario-privado", response_class=HTMLResponse)
def calendario_privado(request: Request) -> Response:
    """The user's private calendar feed: whether one is in force, to create or revoke it."""
    return _pagina_feed(request)


@rotas.post("/calendario-privado", response_class=HTMLResponse)
def calendario_privado_criar(request: Request) -> Response:
    """A new feed; its address is shown this once (only its hash is kept)."""
    nome = _dono_do_feed(request)
    if nome is None:
        return _pagina_feed(request)
    acesso = _acesso(request)
    token = acesso.criar_feed(nome, credencial_vigente(request, acesso))
    if token is None:  # the session ended meanwhile (a new password, role or clients)
        return RedirectResponse("/entrar", status_code=303)
    url = str(request.base_url).rstrip("/") + f"/api/v1/feed/{token}.ics"
    return _pagina_feed(request, url=url)


def _webcal(url: str) -> str | None:
    """The feed's address for a calendar application, ``webcal://``, only when the server
    itself is http on loopback (``make run``): the address is http already, on this machine.
    Never for https (or http on another host): some applications fetch ``webcal://`` over
    plain http, which would send the feed's secret in the clear.

    >>> _webcal("http://127.0.0.1:8000/api/v1/feed/cal_x.ics")
    'webcal://127.0.0.1:8000/api/v1/feed/cal_x.ics'
    >>> _webcal("https://multas.exemplo/api/v1/feed/cal_x.ics") is None
    True
    >>> _webcal("http://multas.exemplo/api/v1/feed/cal_x.ics") is None
    True
    >>> _webcal("http://127.exemplo.com/api/v1/feed/cal_x.ics") is None
    True
    """
    from urllib.parse import urlsplit

    from multas.servidor.seguranca import HOSTS_LOOPBACK

    partes = urlsplit(url)
    host = partes.hostname or ""
    local = host in HOSTS_LOOPBACK or _ip_de_loopback(host)
    return f"webcal://{url.partition('://')[2]}" if partes.scheme == "http" and local else None


def _ip_de_loopback(host: str) -> bool:
    """Whether ``host`` is a loopback IP address (``127.0.0.2``), never a name that starts
    like one (``127.exemplo.com``).

    >>> _ip_de_loopback("127.0.0.2"), _ip_de_loopback("127.exemplo.com")
    (True, False)
    """
    import ipaddress

    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _lembretes() -> str:
    """The reminders of the calendar, in words ("7 dias e 1 dia antes, às 9h")."""
    from multas.saidas.exportar import HORA_DO_LEMBRETE, LEMBRETES_DIAS

    partes = [f"{d} dia{'s' if d != 1 else ''}" for d in LEMBRETES_DIAS]
    dias = " e ".join([", ".join(partes[:-1]), partes[-1]] if len(partes) > 1 else partes)
    return f"{dias} antes, às {HORA_DO_LEMBRETE}h"


@rotas.post("/calendario-privado/revogar", response_class=HTMLResponse)
def calendario_privado_revogar(request: Request) -> Response:
    nome = _dono_do_feed(request)
    if nome is None:
        return _pagina_feed(request)
    havia = _acesso(request).revogar_feed(nome)
    aviso = "Calendário privado revogado: o endereço deixou de valer." if havia else None
    return _pagina_feed(request, aviso=aviso or "Você não tinha calendário privado.")


# --- the users' clients, for the admin (issue 20, item 2) -------------------------------------


def _lista(texto: str) -> list[str]:
    """The CNPJs or roots typed in a box: one per line, or separated by commas or ``;``."""
    return [
        parte.strip()
        for parte in texto.replace(";", "\n").replace(",", "\n").split("\n")
        if parte.strip()
    ]


def _pagina_usuarios(
    request: Request, status: int = 200, erro: str | None = None, salvo: str | None = None
) -> Response:
    acesso = _acesso(request)
    escopos = acesso.escopos()
    usuarios = [
        {
            "nome": nome,
            "papel": papel,
            "ativo": ativo,
            "erro": problema,
            "escopo": escopos.get(nome),
        }
        for nome, papel, ativo, _criado, problema in acesso.listar()
    ]
    return render(
        request, "usuarios.html", status=status, usuarios=usuarios, erro=erro, salvo=salvo
    )


@rotas.get("/usuarios", response_class=HTMLResponse)
def usuarios(request: Request, salvo: str | None = None) -> Response:
    """The users, their roles and the clients each is limited to (the admin's)."""
    return _pagina_usuarios(request, salvo=salvo)


@rotas.post("/usuarios/clientes", response_class=HTMLResponse)
def usuarios_clientes(request: Request, dados: Formulario) -> Response:
    """Limit a user to the clients typed (both boxes empty: every client); audited as the
    admin, and the user's sessions and tokens end."""
    from multas.nucleo.erros import EntradaInvalida
    from multas.nucleo.escopo import Escopo

    nome = dados.get("nome", "")
    autenticado = identidade(request)
    por = autenticado.nome if autenticado is not None else "anônimo"
    try:
        escopo = Escopo.de(_lista(dados.get("cnpjs", "")), _lista(dados.get("raizes", "")))
        _acesso(request).definir_clientes(nome, escopo, por)
    except EntradaInvalida as erro:
        return _pagina_usuarios(request, 422, erro=f"{nome}: {erro.mensagem}")
    return RedirectResponse(f"/usuarios?salvo={quote(nome)}", status_code=303)
