"""What a route reads from its request, besides its own parameters: the app's
:class:`~multas.servidor.servico.Servico`, who is asking (the authenticated user, or the
declared name on an open server) and the page's form body.

A low-level module of the server (``[tool.importlinter]`` in pyproject.toml): it imports
only the service below it and the core, so every route, middleware and response helper can
use it.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import Annotated, Any
from urllib.parse import parse_qsl, unquote

from fastapi import Depends, Header, Request
from starlette.exceptions import HTTPException

from multas.nucleo.ciclo.documentos import MAXIMO_BYTES, MAXIMO_POR_EVENTO
from multas.nucleo.erros import EntradaInvalida, mostrar_valor
from multas.servicos.gestao import Ciclo
from multas.servicos.persistencia import USUARIO_PADRAO
from multas.servicos.persistencia.acesso import Identidade
from multas.servidor.servico import LIMITE_CORPO, LIMITES_CORPO, Servico

#: where :class:`multas.servidor.acesso.Autenticacao` leaves the request's user
CHAVE_ESCOPO = "multas.nucleo.identidade"
#: set on a request the open server (no authentication) let through: its one local user
CHAVE_ABERTO = "multas.aberto"
#: what the request's user may reach (:class:`multas.servidor.permissoes.Alcance`), left by
#: :class:`multas.servidor.acesso.Autenticacao` for the pages' ``pode``
CHAVE_ALCANCE = "multas.alcance"
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


async def corpo_bruto(request: Request) -> bytes:
    """The request's body, as sent (within the route's limit: the middleware has counted it);
    each route reads it with the exact JSON reader (:func:`multas.servidor.servico.ler_corpo`)."""
    return await request.body()


async def _servico(request: Request) -> Servico:
    # async: FastAPI runs it on the event loop, with no thread hop (a plain function would go
    # to the thread pool)
    return servico(request)


async def _ciclo(request: Request) -> Ciclo:
    return ciclo(request)


#: a route's dependencies, typed once (as the full-stack FastAPI template's ``deps.py``): the
#: app's service, its processos' cycle, and the raw body
ServicoDoApp = Annotated[Servico, Depends(_servico)]
CicloDoApp = Annotated[Ciclo, Depends(_ciclo)]
Corpo = Annotated[bytes, Depends(corpo_bruto)]


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


async def formulario_com_arquivos(request: Request) -> FormularioComArquivos:
    """The page's form that sends files (``enctype="multipart/form-data"``), read by Starlette
    (python-multipart) within the route's body limit
    (:class:`multas.servidor.seguranca.LimiteCorpo`, which runs first): a field may be as
    large as the body (the result page carries the files back in hidden fields). A body that
    is not such a form, or a broken one, is a pt-BR input error."""
    if not request.headers.get("content-type", "").lower().startswith("multipart/form-data"):
        raise EntradaInvalida(None, "envie o formulário da página (multipart/form-data)")
    enviado = FormularioComArquivos()
    try:
        async with request.form(
            max_files=MAXIMO_PARTES,
            max_fields=MAXIMO_PARTES,
            max_part_size=max(LIMITE_CORPO, *LIMITES_CORPO.values()),
        ) as formulario:
            for nome, valor in formulario.multi_items():
                if isinstance(valor, str):
                    enviado.campos[nome] = valor
                else:
                    nome_arquivo = (valor.filename or "")[-200:]
                    enviado.arquivos[nome] = ArquivoEnviado(nome_arquivo, await valor.read())
    except HTTPException:  # Starlette's 400 for a broken multipart body
        raise EntradaInvalida(
            None, "formulário (multipart/form-data) incompleto ou corrompido: envie-o de novo"
        ) from None
    return enviado


CamposEArquivos = Annotated[FormularioComArquivos, Depends(formulario_com_arquivos)]


#: the part (the page's file field, the API's multipart part) of an event's files, repeatable
CAMPO_DOCUMENTO = "documento"


@dataclass(frozen=True, slots=True)
class EventoEnviado:
    """An event as a request sends it (spec § 6.2 v4): a body that is not a multipart form
    (``corpo``: the API's JSON, as sent; ``campos``: the page's urlencoded form), or a
    ``multipart/form-data`` one, with its text parts in ``campos`` and its files (each part
    :data:`CAMPO_DOCUMENTO`, in order) in ``arquivos``, as (name, bytes). ``erro``: the first
    refusal met while reading the form (a file too large, too many, a field twice...), kept
    with the fields read so that the page shows it in its form; the API raises it."""

    multipart: bool
    corpo: bytes = b""
    campos: dict[str, str] = field(default_factory=dict)
    arquivos: list[tuple[str, bytes]] = field(default_factory=list)
    erro: EntradaInvalida | None = None


def e_multipart(request: Request) -> bool:
    """Whether the request's body is a form with files (``multipart/form-data``)."""
    return (
        request.headers.get("content-type", "").lower().lstrip().startswith("multipart/form-data")
    )


def _grande_demais(nome: str, campo: str, tamanho: int | None) -> EntradaInvalida:
    limite = f"{MAXIMO_BYTES // 2**20} MiB"
    quanto = f"tem {tamanho} bytes" if tamanho is not None else f"passa de {limite}"
    return EntradaInvalida(
        campo, f"o documento {mostrar_valor(nome)} {quanto}: o limite é {limite} por documento"
    )


async def ler_documento_enviado(arquivo: Any, i: int) -> tuple[str, bytes]:
    """One file of the event (``documentos[i]``), read up to one byte past the limit: one
    whose size (counted as it arrived) already passes it is refused unread."""
    campo, nome = f"documentos[{i}]", str(arquivo.filename or "")[-1000:]
    if i >= MAXIMO_POR_EVENTO:
        raise EntradaInvalida(campo, f"no máximo {MAXIMO_POR_EVENTO} documentos por evento")
    if isinstance(arquivo.size, int) and arquivo.size > MAXIMO_BYTES:
        raise _grande_demais(nome, campo, arquivo.size)
    conteudo: bytes = await arquivo.read(MAXIMO_BYTES + 1)
    if len(conteudo) > MAXIMO_BYTES:
        raise _grande_demais(nome, campo, None)
    return nome, conteudo


async def _arquivo_do_evento(nome: str, valor: Any, i: int) -> tuple[str, bytes] | None:
    """A file part of the event as ``documentos[i]`` (``None``: a file field sent with no
    file chosen, no name and no bytes, as a browser sends it); a file in any other part, or
    a :data:`CAMPO_DOCUMENTO` part sent as text (no ``filename``: it would be lost), is
    refused."""
    if nome != CAMPO_DOCUMENTO:
        raise EntradaInvalida(
            nome, f"arquivo inesperado: os documentos vão no campo {CAMPO_DOCUMENTO}"
        )
    if isinstance(valor, str):
        if not valor:
            return None
        raise EntradaInvalida(
            f"documentos[{i}]",
            f"a parte {CAMPO_DOCUMENTO} veio como texto: envie o documento como arquivo "
            "(com filename)",
        )
    if not (valor.filename or valor.size):
        return None
    return await ler_documento_enviado(valor, i)


def _formulario_recusado(detalhe: str) -> EntradaInvalida:
    """Starlette's refusal of a multipart body (its English message, ``detalhe``), in pt-BR."""
    if "files" in detalhe:
        return EntradaInvalida(
            f"documentos[{MAXIMO_POR_EVENTO}]",
            f"no máximo {MAXIMO_POR_EVENTO} documentos por evento",
        )
    if "fields" in detalhe:
        return EntradaInvalida(None, f"campos demais no formulário: no máximo {MAXIMO_PARTES}")
    if "exceeded maximum size" in detalhe:
        return EntradaInvalida(
            None,
            f"um campo de texto do formulário passa de {LIMITE_CORPO // 2**20} MiB (os "
            f"arquivos vão nas partes {CAMPO_DOCUMENTO})",
        )
    return EntradaInvalida(
        None, "formulário (multipart/form-data) incompleto ou corrompido: envie-o de novo"
    )


async def _multipart_do_evento(request: Request) -> EventoEnviado:
    """A multipart event: its text parts (each once; a repeated one keeps its first value) and
    its :data:`CAMPO_DOCUMENTO` files (:func:`_arquivo_do_evento`). The first refusal is kept
    in ``erro`` and no file is read after it; every text part is still read."""
    campos: dict[str, str] = {}
    arquivos: list[tuple[str, bytes]] = []
    erro: EntradaInvalida | None = None
    try:
        async with request.form(
            max_files=MAXIMO_PARTES, max_fields=MAXIMO_PARTES, max_part_size=LIMITE_CORPO
        ) as formulario:
            for nome, valor in formulario.multi_items():
                if isinstance(valor, str) and nome != CAMPO_DOCUMENTO:
                    if nome in campos:
                        erro = erro or EntradaInvalida(
                            nome, "campo repetido no formulário: envie-o uma vez"
                        )
                    campos.setdefault(nome, valor)
                elif erro is None:
                    try:
                        arquivo = await _arquivo_do_evento(nome, valor, len(arquivos))
                    except EntradaInvalida as recusa:
                        erro = recusa
                    else:
                        arquivos.extend([arquivo] if arquivo is not None else [])
    except HTTPException as falha:  # Starlette's 400 for a broken or oversized multipart body
        erro = _formulario_recusado(str(falha.detail))
    return EventoEnviado(multipart=True, campos=campos, arquivos=arquivos, erro=erro)


async def evento_da_api(request: Request) -> EventoEnviado:
    """``POST /api/v1/processos/{id}/eventos``: the event as a JSON body (read raw, for the
    exact JSON reader), or a multipart form with the part ``evento`` (that JSON) and the
    files."""
    if e_multipart(request):
        enviado = await _multipart_do_evento(request)
        if enviado.erro is not None:
            raise enviado.erro
        return enviado
    return EventoEnviado(multipart=False, corpo=await request.body())


async def evento_da_pagina(request: Request) -> EventoEnviado:
    """The page's event form: multipart with its files (what the page sends), or urlencoded
    without any (a form sent by other means). A refusal met reading the files is left in
    ``erro``, for the page to show in its form with the fields as typed."""
    if e_multipart(request):
        return await _multipart_do_evento(request)
    return EventoEnviado(multipart=False, campos=await formulario_enviado(request))


EventoDaApi = Annotated[EventoEnviado, Depends(evento_da_api)]
EventoDaPagina = Annotated[EventoEnviado, Depends(evento_da_pagina)]


#: who does the operation, for the audit (the lifecycle's routes)
Usuario = Annotated[
    str | None,
    Header(
        alias="X-Usuario", description='Quem faz a operação, para a auditoria (padrão: "anônimo")'
    ),
]
