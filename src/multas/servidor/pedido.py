"""What a route reads from its request, besides its own parameters: the app's
:class:`~multas.servidor.servico.Servico`, who is asking (the authenticated user, or the
declared name on an open server) and the page's form body.

A low-level module of the server (``[tool.importlinter]`` in pyproject.toml): it imports
only the service below it and the core, so every route, middleware and response helper can
use it.
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass, field
from email.message import Message
from email.utils import collapse_rfc2231_value
from typing import Annotated, Any
from urllib.parse import parse_qsl, unquote

from fastapi import Depends, Request

from multas.ciclo.gestao import Ciclo
from multas.erros import EntradaInvalida
from multas.persistencia import USUARIO_PADRAO
from multas.persistencia.acesso import Identidade
from multas.servidor.servico import Servico

#: where :class:`multas.servidor.acesso.Autenticacao` leaves the request's user
CHAVE_ESCOPO = "multas.identidade"
#: set on a request the open server (no authentication) let through: its one local user
CHAVE_ABERTO = "multas.aberto"
#: the name the page remembers for an open server's audit (never used once authenticated)
COOKIE_USUARIO = "multas_usuario"
LIMITE_USUARIO = 200


def servico(request: Request) -> Servico:
    """The app's service (``app.state.servico``)."""
    s: Servico = request.app.state.servico
    return s


def ciclo(request: Request) -> Ciclo:
    """Stored processos, lists, calendar and ledger, on the app's database."""
    return servico(request).ciclo


def identidade(request: Request) -> Identidade | None:
    """The authenticated user of this request (``None`` on an open server)."""
    valor = request.scope.get(CHAVE_ESCOPO)
    return valor if isinstance(valor, Identidade) else None


def nome_usuario(bruto: str | None) -> str:
    """Who: the ``X-Usuario`` header or the form field; "anônimo" when empty.

    HTTP headers arrive as Latin-1: UTF-8 bytes are decoded back, and percent-encoding is
    accepted too (``Jos%C3%A9``).

    >>> nome_usuario(None), nome_usuario("  Ana  "), nome_usuario("Jos%C3%A9")
    ('anônimo', 'Ana', 'José')
    >>> nome_usuario("JosÃ©")
    'José'
    """
    if not bruto:
        return USUARIO_PADRAO
    texto = bruto
    with contextlib.suppress(UnicodeEncodeError, UnicodeDecodeError):
        texto = texto.encode("latin-1").decode("utf-8")
    texto = " ".join(unquote(texto).split())[:LIMITE_USUARIO]
    return texto or USUARIO_PADRAO


def quem(request: Any, declarado: str | None) -> str:
    """The audit's "who": the authenticated user when there is one (never the ``X-Usuario``
    header nor a form's name, which anyone may write), else the declared name."""
    autenticado = identidade(request)
    return autenticado.nome if autenticado is not None else nome_usuario(declarado)


async def formulario_enviado(request: Request) -> dict[str, str]:
    """An ``application/x-www-form-urlencoded`` body (what the page's forms send)."""
    corpo = await request.body()
    try:
        texto = corpo.decode("utf-8")
    except UnicodeDecodeError:
        raise EntradaInvalida(None, "formulário com codificação inválida (use UTF-8)") from None
    return dict(parse_qsl(texto, keep_blank_values=True))


CamposEnviados = Annotated[dict[str, str], Depends(formulario_enviado)]


#: parts of one multipart form (the year's page sends under a dozen)
MAXIMO_PARTES = 50
_FRONTEIRA = re.compile(r'boundary=(?:"([^"]{1,200})"|([^;,\s]{1,200}))', re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class ArquivoEnviado:
    """A file sent by a form: its name as the browser gave it, and its bytes."""

    nome: str
    conteudo: bytes


@dataclass(frozen=True, slots=True)
class FormularioComArquivos:
    """A ``multipart/form-data`` body: the text fields and the files, each by its name."""

    campos: dict[str, str] = field(default_factory=dict)
    arquivos: dict[str, ArquivoEnviado] = field(default_factory=dict)


def ler_multipart(corpo: bytes, tipo: str) -> FormularioComArquivos:
    """A ``multipart/form-data`` body (RFC 7578), already within the route's size limit
    (:class:`multas.servidor.seguranca.LimiteCorpo`); anything else is a pt-BR input error.

    >>> corpo = (b'--x\\r\\nContent-Disposition: form-data; name="ano"\\r\\n\\r\\n2024\\r\\n'
    ...     b'--x\\r\\nContent-Disposition: form-data; name="f"; filename="a.csv"\\r\\n'
    ...     b'Content-Type: text/csv\\r\\n\\r\\na,b\\r\\n1,2\\r\\n\\r\\n--x--\\r\\n')
    >>> enviado = ler_multipart(corpo, "multipart/form-data; boundary=x")
    >>> enviado.campos, enviado.arquivos["f"]
    ({'ano': '2024'}, ArquivoEnviado(nome='a.csv', conteudo=b'a,b\\r\\n1,2\\r\\n'))
    """
    fronteira = _FRONTEIRA.search(tipo) if tipo.lower().startswith("multipart/form-data") else None
    if fronteira is None:
        raise EntradaInvalida(None, "envie o formulário da página (multipart/form-data)")
    delimitador = b"\r\n--" + (fronteira.group(1) or fronteira.group(2)).encode("latin-1")
    partes = (b"\r\n" + corpo).split(delimitador)
    if len(partes) < 3 or not partes[-1].startswith(b"--"):
        raise EntradaInvalida(None, "formulário incompleto ou corrompido: envie-o de novo")
    if len(partes) - 2 > MAXIMO_PARTES:
        raise EntradaInvalida(None, f"formulário com mais de {MAXIMO_PARTES} campos")
    enviado = FormularioComArquivos()
    for parte in partes[1:-1]:
        cabeca, separador, conteudo = parte.partition(b"\r\n\r\n")
        if not separador:
            raise EntradaInvalida(None, "formulário corrompido: parte sem cabeçalho")
        disposicao = Message()
        for linha in cabeca.decode("utf-8", "replace").split("\r\n"):
            nome_cabecalho, _, valor = linha.partition(":")
            if nome_cabecalho.strip().lower() == "content-disposition":
                disposicao["content-disposition"] = valor.strip()
        nome = disposicao.get_param("name", header="content-disposition")
        if not isinstance(nome, str) or not nome:
            raise EntradaInvalida(None, "formulário corrompido: parte sem nome")
        arquivo = disposicao.get_param("filename", header="content-disposition")
        if arquivo is not None:
            nome_arquivo = collapse_rfc2231_value(arquivo)
            enviado.arquivos[nome] = ArquivoEnviado(nome_arquivo[-200:], conteudo)
            continue
        try:
            enviado.campos[nome] = conteudo.decode("utf-8")
        except UnicodeDecodeError:
            raise EntradaInvalida(nome, "formulário com codificação inválida (use UTF-8)") from None
    return enviado


async def formulario_com_arquivos(request: Request) -> FormularioComArquivos:
    """The page's form that sends files (``enctype="multipart/form-data"``)."""
    return ler_multipart(await request.body(), request.headers.get("content-type", ""))


CamposEArquivos = Annotated[FormularioComArquivos, Depends(formulario_com_arquivos)]
