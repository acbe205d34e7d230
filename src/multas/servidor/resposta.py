"""The responses every part of the server builds: a pt-BR page (:func:`render`), an error as
``application/problem+json`` (RFC 9457, with ``erros`` and ``erro``) or, for a browser, as a
page (:func:`resposta_erro`), and a case's report in PDF or HTML (:func:`relatorio`).

A low-level module of the server (``[tool.importlinter]`` in pyproject.toml): the routes, the
exception handlers and the middleware all answer through it, and it imports none of them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any
from urllib.parse import urlsplit

from fastapi import Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup, escape

from multas import __version__
from multas.nucleo.cnpj import DIGITOS_ERRADOS
from multas.nucleo.cnpj import exibir as exibir_cnpj
from multas.nucleo.datas import data_digitada, formatar_data
from multas.nucleo.dinheiro import formatar_numero
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.rotulos import rotulo_acao, rotulo_campo, rotulo_evento
from multas.saidas.relatorio import como_html, como_pdf, horario_brasilia
from multas.servicos.persistencia import Caso
from multas.servidor.pedido import CHAVE_ABERTO, CHAVE_ALCANCE, identidade, servico
from multas.servidor.permissoes import PODE, ROTULOS, Alcance
from multas.servidor.servico import Servico


@cache
def ambiente() -> Environment:
    env = Environment(
        loader=PackageLoader("multas.servidor", "templates"),
        autoescape=select_autoescape(["html"]),
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["brasilia"] = horario_brasilia
    env.filters["cnpj"] = cnpj_com_selo
    env.filters["numero"] = formatar_numero
    env.filters["data_br"] = data_no_campo
    env.filters["rotulo_acao"] = rotulo_acao
    env.filters["rotulo_evento"] = rotulo_evento
    env.filters["rotulo_campo"] = rotulo_campo
    return env


def data_no_campo(valor: object) -> str:
    """A date field's value as the page shows it (the filter ``data_br``): a valid date, ISO
    or as typed, is dd/mm/aaaa; anything else (an invalid text sent back with its error) stays
    as it was typed.

    >>> data_no_campo("2025-03-15"), data_no_campo("15032025"), data_no_campo("31/02/2025")
    ('15/03/2025', '15/03/2025', '31/02/2025')
    """
    if valor is None:
        return ""
    try:
        return formatar_data(data_digitada(valor, ""))
    except EntradaInvalida:
        return str(valor)


def cnpj_com_selo(texto: str | None) -> Markup:
    """A stored CNPJ on a page (the filter ``cnpj``): formatted, with a badge when its check
    digits are wrong (never an error: the record keeps it as given); ``—`` when absent."""
    if not texto:
        return Markup("—")
    formatado, valido = exibir_cnpj(texto)
    if valido:
        return escape(formatado)
    return escape(formatado) + Markup(' <span class="selo-cnpj" title="{0}">⚠ {0}</span>').format(
        DIGITOS_ERRADOS
    )


def render(request: Request, modelo: str, status: int = 200, **contexto: Any) -> HTMLResponse:
    """The page ``modelo`` (``templates/``), with what every page shows: the versions, the
    path and who is signed in."""
    contexto.setdefault("versao_motor", __version__)
    contexto.setdefault("versao_legislacao", servico(request).legislacao.versao)
    contexto.setdefault("caminho", request.url.path)
    quem = identidade(request)
    contexto.setdefault("identidade", quem)
    # started with --papel-inseguro: its admins (and the open server's one local user) are
    # told, on every page; never a visitor of a public page nor another role
    riscos = getattr(request.app.state, "papel_inseguro", None)
    aberto = bool(request.scope.get(CHAVE_ABERTO))
    administra = aberto or (quem is not None and quem.papel == "admin")
    contexto.setdefault("papel_inseguro", riscos if administra else None)
    contexto.setdefault("pode", pode(request))
    contexto.setdefault("documentacao", getattr(request.app.state, "documentacao", None))
    html = ambiente().get_template(modelo).render(**contexto)
    return HTMLResponse(html, status_code=status)


def _sempre(metodo: str, caminho: str) -> bool:
    return True


def pode(request: Request) -> Callable[[str, str], bool]:
    """The template global ``pode(metodo, caminho)``: whether this request's user may do that,
    by the one permission table (:class:`multas.servidor.permissoes.Alcance`, left by the
    access middleware). A page shows only the forms, buttons and links it allows; a page
    answered before the middleware (a refused cross-site form) shows everything, as the open
    server does."""
    alcance = request.scope.get(CHAVE_ALCANCE)
    return alcance.pode if isinstance(alcance, Alcance) else _sempre


def voltar(request: Request) -> str:
    """Where the refusal's page links back: the page the user came from, when it is one of
    this site's (the ``Referer``), else the start page."""
    anterior = urlsplit(request.headers.get("referer", ""))
    mesmo_site = anterior.netloc == request.headers.get("host", "") and anterior.scheme in (
        "http",
        "https",
    )
    if mesmo_site and anterior.path.startswith("/") and not anterior.path.startswith("//"):
        return anterior.path + (f"?{anterior.query}" if anterior.query else "")
    return "/"


def pagina_recusada(request: Request, acao: str, papel: str, necessario: str) -> HTMLResponse:
    """A page action the user's role does not allow (a 403): which action, the role it needs
    and the user's, and a way back, in the site's layout."""
    return render(
        request,
        "recusado.html",
        status=403,
        acao=acao,
        papel=ROTULOS[papel],
        papel_pode=PODE[papel],
        necessario=ROTULOS[necessario],
        necessario_pode=PODE[necessario],
        voltar=voltar(request),
    )


def pagina_de_erro(
    request: Request, status: int, mensagem: str, cabecalhos: dict[str, str] | None
) -> HTMLResponse:
    resposta = render(request, "erro.html", status=status, status_http=status, mensagem=mensagem)
    if cabecalhos:
        resposta.headers.update(cabecalhos)
    return resposta


#: an error's media type (RFC 9457)
PROBLEMA = "application/problem+json"

#: each HTTP status as an error's title says it, in pt-BR (RFC 9457 allows it localised)
MENSAGENS_HTTP = {
    400: "requisição inválida",
    401: "autenticação necessária",
    403: "acesso negado",
    404: "não encontrado",
    405: "método não permitido",
    406: "formato de resposta não disponível",
    409: "conflito com o registro salvo ou com uma alteração simultânea",
    413: "corpo grande demais",
    415: "tipo de conteúdo não aceito",
    422: "entrada inválida",
    429: "requisições demais; tente de novo em instantes",
    500: "erro interno do servidor",
    503: "serviço indisponível",
}

#: a field error: (field path or ``None`` for the whole request, pt-BR reason) and, for a row
#: of a file, where it is (``{"linha": 3}``, :attr:`multas.nucleo.erros.EntradaInvalida.onde`)
ErroDeCampo = tuple[str | None, str] | tuple[str | None, str, Mapping[str, int]]


def tipo_do_problema(status: int) -> str:
    """The problem's ``type`` (RFC 9457): one per status, each explained in the API guide
    (``/guia-da-api#erro-422``), a relative URI reference resolved against the request's."""
    return f"/guia-da-api#erro-{status}"


#: the size of an error's body, whatever the request (a case of 90,000 unknown fields, a field
#: name of 900 KB, a path of 60 KB): the field errors listed, the fields named in ``detail``,
#: and the characters of a name or path echoed back
MAXIMO_ERROS = 100
MAXIMO_CAMPOS_NO_DETALHE = 10
MAXIMO_ECO = 200


def _curto(texto: str | None) -> str | None:
    """A field's name or a path as echoed back: at most :data:`MAXIMO_ECO` characters."""
    if texto is None or len(texto) <= MAXIMO_ECO:
        return texto
    return texto[:MAXIMO_ECO] + "…"


def _onde(erro: ErroDeCampo) -> Mapping[str, int]:
    return erro[2] if len(erro) == 3 else {}


def _detalhe(erros: Sequence[ErroDeCampo]) -> str:
    """The problem's ``detail``: the one error, or how many and which fields (the first
    :data:`MAXIMO_CAMPOS_NO_DETALHE`)."""
    if len(erros) == 1:
        campo, mensagem = erros[0][0], erros[0][1]
        return f"{_curto(campo)}: {mensagem}" if campo else mensagem
    nomes = [_curto(erro[0]) or "(o pedido)" for erro in erros[:MAXIMO_CAMPOS_NO_DETALHE]]
    if len(erros) > MAXIMO_CAMPOS_NO_DETALHE:
        nomes.append(f"e mais {len(erros) - MAXIMO_CAMPOS_NO_DETALHE}")
    return f"{len(erros)} erros na entrada, em: {', '.join(nomes)}"


def corpo_erro(
    campo: str | None,
    mensagem: str,
    id_caso: str | None = None,
    *,
    status: int = 422,
    erros: Sequence[ErroDeCampo] = (),
    instancia: str | None = None,
) -> dict[str, Any]:
    """The error's body, ``application/problem+json`` (RFC 9457): ``type``, ``title``,
    ``status``, ``detail`` and ``instance`` (the path asked), with every field error of the
    request in ``erros`` (``{"campo", "mensagem"}`` each, in the order found) and the first
    as ``erro`` (the body of earlier versions, kept for one version); at most
    :data:`MAXIMO_ERROS` of them, with ``erros_omitidos`` counting the rest. ``id_caso``: the
    refused case's own ``id``, first (spec § 3 v4).

    >>> corpo_erro("ano", "campo obrigatório", instancia="/api/v1/calcular")["detail"]
    'ano: campo obrigatório'
    """
    lista = list(erros) or [(campo, mensagem)]
    corpo: dict[str, Any] = {} if id_caso is None else {"id": id_caso}
    corpo |= {
        "type": tipo_do_problema(status),
        "title": MENSAGENS_HTTP.get(status, f"erro HTTP {status}"),
        "status": status,
        "detail": _detalhe(lista),
    }
    if instancia:
        corpo["instance"] = _curto(instancia)
    # a row of a file says where it is too (``linha``: 3), for a program to read
    corpo["erro"] = {"campo": _curto(campo), "mensagem": mensagem, **_onde(lista[0])}
    corpo["erros"] = [
        {"campo": _curto(e[0]), "mensagem": e[1], **_onde(e)} for e in lista[:MAXIMO_ERROS]
    ]
    if len(lista) > MAXIMO_ERROS:  # the count of the others, not each (the body stays small)
        corpo["erros_omitidos"] = len(lista) - MAXIMO_ERROS
    return corpo


def quer_html(request: Request) -> bool:
    """A browser asking for a page (never the API nor the OpenAPI document)."""
    if request.url.path.startswith("/api/") or request.url.path == "/openapi.json":
        return False
    return "text/html" in request.headers.get("accept", "")


def resposta_erro(
    request: Request,
    status: int,
    campo: str | None,
    mensagem: str,
    cabecalhos: dict[str, str] | None = None,
    id_caso: str | None = None,
    erros: Sequence[ErroDeCampo] = (),
) -> Response:
    """An error in pt-BR: a page for a browser, a problem (:func:`corpo_erro`) otherwise
    (with the case's ``id`` first when the refused case carried a valid one)."""
    if quer_html(request):
        return pagina_de_erro(request, status, mensagem, cabecalhos)
    corpo = corpo_erro(
        campo, mensagem, id_caso, status=status, erros=erros, instancia=request.url.path
    )
    return JSONResponse(corpo, status_code=status, headers=cabecalhos, media_type=PROBLEMA)


def relatorio(
    servico_: Servico,
    resultado: dict[str, Any],
    entrada: Any,
    formato: str,
    caso: Caso | None = None,
) -> Response:
    """A case's report: HTML to read and print, or a PDF to download."""
    metadados = servico_.metadados(caso)
    nome = f"memoria-caso-{caso.id}" if caso else f"memoria-{resultado['regime']}"
    if formato == "html":
        return HTMLResponse(como_html(resultado, entrada, metadados))
    return Response(
        como_pdf(resultado, entrada, metadados),
        media_type="application/pdf",
        headers={"Content-Disposition": f'attachment; filename="{nome}.pdf"'},
    )


def documento_para_baixar(request: Request, processo_id: int, sha256: str) -> Response:
    """A document of a processo's event (spec § 6.2 v4), for the API and the page alike: read
    within the scope in force and checked against its hash
    (:func:`multas.servicos.documentos.ler`; not found: a 404, changed outside the system: the
    409 of a changed record, never served), sent as a download of its stored type, under its
    stored name (percent-encoded, RFC 6266/5987), never sniffed nor cached."""
    import re
    from urllib.parse import quote

    from multas.nucleo.ids import id_valido
    from multas.servicos.documentos import DocumentoNaoEncontrado, ler
    from multas.servicos.gestao import NaoEncontrado

    # the same answer for a processo out of the caller's scope: nothing is told of it
    nao_encontrado = NaoEncontrado(
        "documento não encontrado: nenhum evento deste processo tem esse documento"
    )
    if not id_valido(processo_id):
        raise nao_encontrado
    try:
        documento, conteudo = ler(servico(request).repositorio, processo_id, sha256)
    except DocumentoNaoEncontrado:
        raise nao_encontrado from None
    simples = re.sub(r"[^A-Za-z0-9._ -]", "_", documento.nome)[:200] or "documento"
    return Response(
        conteudo,
        media_type=documento.tipo,
        headers={
            "Content-Disposition": (
                f"attachment; filename=\"{simples}\"; filename*=UTF-8''"
                f"{quote(documento.nome, safe='')}"
            ),
            "X-Content-Type-Options": "nosniff",
            "Cache-Control": "private, no-store",
        },
    )
