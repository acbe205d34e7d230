"""The web page, in pt-BR, rendered on the server (Jinja2) and enhanced with htmx (vendored in
``static/``; nothing comes from a CDN). Every form also works without JavaScript.

The form is built from the contract and read with the pt-BR table reading; the result is the
engine's, formatted by :mod:`multas.saidas.apresentacao`. No rule lives here.
"""

from __future__ import annotations

import json
from typing import Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Query, Request
from fastapi import Path as Caminho
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from multas.nucleo.catalogo import descrever_regimes
from multas.nucleo.dinheiro import DICA_PONTO, DICA_VIRGULA
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.escopo import ForaDoEscopo
from multas.nucleo.json_exato import ler_json
from multas.saidas.apresentacao import apresentar, apresentar_entrada, brl_ou_traco
from multas.servicos.persistencia import MAIOR_ID, Caso
from multas.servicos.persistencia.lixeira import DIAS_NA_LIXEIRA
from multas.servicos.relogio import agora, hoje
from multas.servidor.erros import nao_encontrado
from multas.servidor.exemplos import EXEMPLOS
from multas.servidor.formulario import (
    FORMULARIO,
    FORMULARIO_PROCESSO,
    campo_do_erro,
    erro_no_formulario,
    erros_no_formulario,
    formulario,
    ler_formulario,
    sugestoes_de_dias,
    sugestoes_do_processo,
    valores_do_caso,
)
from multas.servidor.paginacao import PRIMEIRA, Lista, Pagina, paginacao
from multas.servidor.parametros import INTEIRO
from multas.servidor.pedido import (
    COOKIE_USUARIO,
    CamposEnviados,
    ServicoDoApp,
    identidade,
    quem,
    servico,
)
from multas.servidor.resposta import MENSAGENS_HTTP, relatorio, render
from multas.servidor.servico import Calculo, Servico

rotas = APIRouter(include_in_schema=False)

REGIME_PADRAO = "renovabio.distribuidor"
POR_PAGINA = 25
IdCaso = Annotated[int, INTEIRO, Caminho(ge=1, le=MAIOR_ID)]
IdOpcional = Annotated[int | None, INTEIRO, Query(ge=1, le=MAIOR_ID)]


def _htmx(request: Request) -> bool:
    return request.headers.get("hx-request") == "true"


def _regime_valido(regime: str | None) -> str:
    nomes = [r["regime"] for r in descrever_regimes()]
    return regime if regime is not None and regime in nomes else REGIME_PADRAO


_DICA_FORMULARIO = "(use algarismos, com vírgula ou ponto nos decimais: 1.234,56 ou 1234.56)"


def mensagem_do_formulario(mensagem: str) -> str:
    """The engine's hint names one separator; the form takes both (71,70 and 71.70)."""
    for dica in (DICA_PONTO, DICA_VIRGULA):
        mensagem = mensagem.replace(f"({dica})", _DICA_FORMULARIO)
    return mensagem


def erros_da_area(
    erro: EntradaInvalida | None, ordem: list[str], rotulos: dict[str, str]
) -> tuple[dict[str, str], list[dict[str, str | None]]]:
    """Every error of the submission: beside its input (``erros``, by the input's name; two
    errors of one input joined), and listed in the summary above the form in the form's
    order (``resumo``: the input it links to, or ``None`` for one the form has no input for,
    the label and the message). ``ordem``: the form's inputs, in order."""
    nomes = set(ordem)
    erros: dict[str, str] = {}
    resumo: list[dict[str, str | None]] = []
    for um in erro.todos() if erro is not None else ():
        campo = campo_do_erro(um.campo)
        mensagem = mensagem_do_formulario(um.mensagem)
        detalhe = f" ({um.campo})" if um.campo and um.campo != campo else ""
        if campo in nomes:
            assert campo is not None
            erros[campo] = f"{erros[campo]}; " if campo in erros else ""
            erros[campo] += mensagem + detalhe
            resumo.append({"campo": campo, "rotulo": rotulos.get(campo), "mensagem": mensagem})
        else:
            resumo.append({"campo": None, "rotulo": um.campo, "mensagem": mensagem})
    resumo.sort(key=lambda e: ordem.index(e["campo"]) if e["campo"] else len(ordem))
    return erros, resumo


def contexto_area(
    request: Request,
    valores: dict[str, str],
    erro: EntradaInvalida | None = None,
    calculo: Calculo | None = None,
) -> dict[str, Any]:
    regime = _regime_valido(valores.get("regime"))
    form = formulario(regime)
    rotulos = {c.nome: c.rotulo for c in [*form.campos, *form.leituras]} | {
        "regime": "Regime",
        "cnpj": "CNPJ",
    }
    ordem = ["regime", *(c.nome for c in form.campos), "cnpj", *(c.nome for c in form.leituras)]
    erros, resumo = erros_da_area(erro, ordem, rotulos)
    campo_erro = resumo[0]["campo"] if resumo else None
    quem_pede = identidade(request)
    escopo = quem_pede.escopo if quem_pede is not None else None
    calendario = servico(request).legislacao.calendario
    return {
        "regimes": descrever_regimes(),
        "regime": regime,
        "form": form,
        "valores": {**valores, "regime": regime},
        "erro": erro,
        "erros": erros,
        "resumo_erros": resumo,
        "erro_campo": campo_erro,
        "erro_rotulo": rotulos.get(campo_erro or "", "O caso"),
        "sugestoes": sugestoes_de_dias(form, valores, calendario, hoje()),
        "resultado": apresentar(calculo.resultado) if calculo else None,
        "caso_json": json.dumps(calculo.entrada, ensure_ascii=False) if calculo else "",
        "usuario": request.cookies.get(COOKIE_USUARIO, ""),
        "clientes": escopo.descricao() if escopo is not None else "",
    }


@rotas.get("/", response_class=HTMLResponse)
def inicio(
    request: Request,
    regime: str | None = None,
    caso: IdOpcional = None,
    exemplo: bool = False,
) -> HTMLResponse:
    valores: dict[str, str] = {"regime": _regime_valido(regime)}
    if caso is not None:
        salvo = _caso(request, caso)
        valores = valores_do_caso(ler_json(salvo.entrada))
    elif exemplo:
        valores = valores_do_caso(EXEMPLOS[valores["regime"]])
    else:
        valores.update({k: v for k, v in request.query_params.items() if k != "regime"})
    return render(request, "inicio.html", **contexto_area(request, valores))


@rotas.get("/formulario", response_class=HTMLResponse)
def campos(request: Request, regime: str | None = None, exemplo: bool = False) -> HTMLResponse:
    """The fields of one regime (htmx swaps them in when the regime changes)."""
    regime = _regime_valido(regime)
    valores = valores_do_caso(EXEMPLOS[regime]) if exemplo else {"regime": regime}
    return render(request, "_campos.html", **contexto_area(request, valores))


@rotas.get("/formulario/dias-locais", response_class=HTMLResponse)
def dias_locais(request: Request, servico_do_app: ServicoDoApp) -> Response:
    """The local and conditional dates offered under ``dias_sem_expediente`` for the years of
    the form's dates (htmx swaps them in when a date changes); none are applied. The form is a
    regime's, or, with ``formulario=processo``, the page's new processo (``/processos``)."""
    valores = dict(request.query_params)
    if valores.get("formulario") == FORMULARIO_PROCESSO:
        calendario = servico_do_app.legislacao.calendario
        sugestoes = sugestoes_do_processo(valores, calendario, hoje())
        return render(request, "_dias_locais.html", sugestoes=sugestoes)
    contexto = contexto_area(request, valores)
    if contexto["sugestoes"] is None:
        return Response(status_code=204)
    return render(request, "_dias_locais.html", **contexto)


def calculo_do_formulario(
    servico_do_app: Servico, dados: dict[str, str]
) -> tuple[Calculo | None, EntradaInvalida | None]:
    """The form's case computed, or every error of it at once: those of the fields the form
    reads itself (:func:`ler_formulario`) and the engine's of the others (a field in error is
    named once, by the form's reading)."""
    caso, erros = ler_formulario(dados)
    try:
        calculo = servico_do_app.calcular(caso, FORMULARIO)
    except EntradaInvalida as e:
        lidos = {campo_do_erro(x.campo) for x in erros}
        erros += [x for x in e.todos() if campo_do_erro(x.campo) not in lidos]
        erros[0].id = erros[0].id or e.id
        calculo = None
    if erros:
        return None, erros_no_formulario(erros, dados)
    return calculo, None


@rotas.post("/calcular", response_class=HTMLResponse)
def calcular(request: Request, servico_do_app: ServicoDoApp, dados: CamposEnviados) -> HTMLResponse:
    erro: EntradaInvalida | None = None
    calculo: Calculo | None = None
    try:
        calculo, erro = calculo_do_formulario(servico_do_app, dados)
    except EntradaInvalida as e:  # no regime: nothing else can be read
        erro = erro_no_formulario(e, dados)
    contexto = contexto_area(request, dados, erro, calculo)
    if _htmx(request):
        return render(request, "_area.html", status=422 if erro else 200, **contexto)
    return render(request, "inicio.html", status=422 if erro else 200, **contexto)


@rotas.post("/relatorio")
def relatorio_da_pagina(
    request: Request, servico_do_app: ServicoDoApp, dados: CamposEnviados
) -> Response:
    caso = ler_json(dados.get("caso") or "")
    calculo = servico_do_app.calcular(caso)
    formato = "html" if dados.get("formato") == "html" else "pdf"
    return relatorio(servico_do_app, calculo.resultado, caso, formato)


@rotas.post("/casos")
def salvar(request: Request, servico_do_app: ServicoDoApp, dados: CamposEnviados) -> Response:
    usuario = quem(request, dados.get("usuario"))
    texto = dados.get("caso") or ""
    try:
        caso, _ = servico_do_app.salvar(texto, usuario, origem="pagina")
    except (EntradaInvalida, ForaDoEscopo) as recusa:
        return _salvar_recusado(request, texto, recusa)
    resposta = RedirectResponse(f"/casos/{caso.id}?salvo=1", status_code=303)
    if dados.get("usuario", "").strip() and identidade(request) is None:
        resposta.set_cookie(COOKIE_USUARIO, usuario, max_age=365 * 86400, samesite="lax")
    return resposta


def _salvar_recusado(
    request: Request, texto: str, recusa: EntradaInvalida | ForaDoEscopo
) -> HTMLResponse:
    """A save refused (a CNPJ outside the user's clients, or none; a case that no longer
    computes): the calculation form again, filled with the case as sent, the reason beside
    its field (the CNPJ's for a scope refusal), so that nothing typed is lost."""
    try:
        caso = ler_json(texto)
    except EntradaInvalida:
        caso = None
    valores = valores_do_caso(caso) if isinstance(caso, dict) else {}
    if isinstance(recusa, ForaDoEscopo):
        quem_pede = identidade(request)
        clientes = quem_pede.escopo.descricao() if quem_pede and quem_pede.escopo else ""
        if recusa.cnpj:
            mensagem = f"{recusa.mensagem} (seus clientes: {clientes})"
        else:
            mensagem = f"informe o CNPJ de um dos seus clientes ({clientes}) para salvar o caso"
        erro = EntradaInvalida("cnpj", f"{mensagem}; depois calcule de novo e salve")
        status = 403
    else:
        erro, status = recusa, 422
    return render(request, "inicio.html", status=status, **contexto_area(request, valores, erro))


@rotas.get("/casos", response_class=HTMLResponse)
def historico(
    request: Request,
    servico_do_app: ServicoDoApp,
    pagina: Annotated[Pagina, paginacao(padrao=POR_PAGINA)],
    regime: str | None = None,
    cnpj: str | None = None,
    excluido: IdOpcional = None,
) -> HTMLResponse:
    repositorio = servico_do_app.repositorio
    from multas.nucleo.cnpj import ler_filtro

    regime, cnpj = regime or None, ler_filtro(cnpj, "cnpj")
    total = repositorio.contar(regime, cnpj)
    casos = repositorio.listar(pagina.limite, pagina.deslocamento, regime, cnpj)
    return render(
        request,
        "casos.html",
        casos=casos,
        alterados=repositorio.alterados(casos),
        total=total,
        nav=pagina.navegacao(request, total, len(casos), sem=("excluido",)),
        regime=regime,
        cnpj=cnpj or "",
        regimes=descrever_regimes(),
        excluido=excluido,
        dias_lixeira=DIAS_NA_LIXEIRA,
        formatar_valor=_valor_brl,
    )


def _valor_brl(valor: str | None) -> str:
    return brl_ou_traco(valor)


def _caso(request: Request, caso_id: IdCaso) -> Caso:
    caso = servico(request).repositorio.obter(caso_id)
    if caso is None:
        raise nao_encontrado(f"caso nº {caso_id} não encontrado (talvez tenha sido excluído)")
    return caso


@rotas.get("/casos/{caso_id}", response_class=HTMLResponse)
def caso_salvo(
    request: Request, servico_do_app: ServicoDoApp, caso_id: IdCaso, salvo: bool = False
) -> HTMLResponse:
    caso = _caso(request, caso_id)
    return render(
        request,
        "caso.html",
        caso=caso,
        salvo=salvo,
        entrada=apresentar_entrada(ler_json(caso.entrada), caso.resultado_dict()),
        resultado=apresentar(caso.resultado_dict()),
        legislacao_atual=servico_do_app.legislacao.versao,
        usuario=request.cookies.get(COOKIE_USUARIO, ""),
        confirmacao=_confirmacao_da_exclusao(caso),
    )


def _confirmacao_da_exclusao(caso: Caso, usuario: str | None = None) -> dict[str, Any]:
    """What deleting a saved case asks first (the page ``confirmar.html`` without JavaScript,
    the dialog of ``caso.html`` with it)."""
    from multas.saidas.relatorio import horario_brasilia

    titulo = next((r["titulo"] for r in descrever_regimes() if r["regime"] == caso.regime), "")
    valor = f", valor devido {_valor_brl(caso.valor)}" if caso.valor else ""
    return {
        "titulo": f"Excluir o caso nº {caso.id}?",
        "frases": [
            f"O caso nº {caso.id} ({titulo or caso.regime}{valor}), salvo em "
            f"{horario_brasilia(caso.criado_em)} por {caso.usuario}, deixa de aparecer nos "
            "casos salvos e não pode mais ser aberto.",
            f"Ele vai para a lixeira: um administrador pode restaurá-lo durante {DIAS_NA_LIXEIRA} "
            "dias; depois, é apagado de vez. A exclusão fica registrada na auditoria, com quem "
            "a fez.",
        ],
        "botao": "Sim, excluir o caso",
        "acao": f"/casos/{caso.id}/excluir",
        "voltar": f"/casos/{caso.id}",
        "ocultos": [("usuario", usuario)] if usuario else [],
    }


@rotas.post("/casos/{caso_id}/excluir")
def excluir(
    request: Request, servico_do_app: ServicoDoApp, caso_id: IdCaso, dados: CamposEnviados
) -> Response:
    """Delete a saved case, once confirmed (``confirmado=sim``: the confirmation page's form,
    or the dialog's); without it, nothing is deleted and the confirmation page is shown."""
    if dados.get("confirmado") != "sim":
        caso = _caso(request, caso_id)
        confirmacao = _confirmacao_da_exclusao(caso, (dados.get("usuario") or "").strip())
        return render(request, "confirmar.html", confirmacao=confirmacao)
    if not servico_do_app.repositorio.excluir(caso_id, quem(request, dados.get("usuario"))):
        raise nao_encontrado(f"caso nº {caso_id} não encontrado")
    return RedirectResponse(f"/casos?excluido={caso_id}", status_code=303)


@rotas.get("/casos/{caso_id}/relatorio.{formato}")
def relatorio_salvo(
    request: Request, servico_do_app: ServicoDoApp, caso_id: IdCaso, formato: str
) -> Response:
    if formato not in ("pdf", "html"):
        raise nao_encontrado(f"formato de relatório desconhecido: {formato} (use pdf ou html)")
    caso = _caso(request, caso_id)
    return relatorio(servico_do_app, caso.resultado_dict(), ler_json(caso.entrada), formato, caso)


@rotas.get("/auditoria", response_class=HTMLResponse)
def auditoria(
    request: Request, servico_do_app: ServicoDoApp, pagina: Lista, caso_id: IdCaso | None = None
) -> HTMLResponse:
    repositorio = servico_do_app.repositorio
    registros = repositorio.auditoria(
        caso_id, pagina.limite, recentes_primeiro=True, deslocamento=pagina.deslocamento
    )
    total = repositorio.contar_auditoria(caso_id)
    nav = pagina.navegacao(request, total, len(registros))
    return render(request, "auditoria.html", registros=registros, caso_id=caso_id, nav=nav)


@rotas.get("/auditoria/clientes", response_class=HTMLResponse)
def auditoria_dos_clientes(
    request: Request, servico_do_app: ServicoDoApp, pagina: Lista
) -> HTMLResponse:
    """The audit of the records this user may read (a user limited to clients: theirs)."""
    repositorio = servico_do_app.repositorio
    registros = repositorio.auditoria_dos_registros(
        pagina.limite, recentes_primeiro=True, deslocamento=pagina.deslocamento
    )
    nav = pagina.navegacao(request, repositorio.contar_auditoria_dos_registros(), len(registros))
    return render(
        request, "auditoria.html", registros=registros, caso_id=None, dos_clientes=True, nav=nav
    )


@rotas.get("/lixeira", response_class=HTMLResponse)
def lixeira(request: Request, pagina: Lista, restaurado: str | None = None) -> HTMLResponse:
    """The bin: what was deleted, until when it may be restored, and a button for each."""
    return _lixeira(request, pagina, restaurado=(restaurado or "")[:300])


def _lixeira(
    request: Request, pagina: Pagina, status: int = 200, **contexto: object
) -> HTMLResponse:
    from multas.servicos.persistencia import lixeira as bin_

    repositorio = servico(request).repositorio
    itens = bin_.listar(repositorio, pagina.limite, pagina.deslocamento)
    nav = pagina.navegacao(
        request, bin_.contar(repositorio), len(itens), sem=("restaurado",), caminho="/lixeira"
    )
    return render(
        request,
        "lixeira.html",
        status=status,
        itens=itens,
        nav=nav,
        dias=DIAS_NA_LIXEIRA,
        agora=agora(),
        **contexto,
    )


@rotas.post("/lixeira/{tipo}/{registro_id}/restaurar")
def restaurar(
    request: Request,
    servico_do_app: ServicoDoApp,
    tipo: str,
    registro_id: IdCaso,
    dados: CamposEnviados,
) -> Response:
    """Restore one record; a refusal (its period over, a key taken meanwhile) is shown on the
    bin's page, beside the list, with the reason."""
    from multas.servicos.persistencia import lixeira as bin_

    try:
        item = bin_.restaurar(
            servico_do_app.repositorio, tipo, registro_id, quem(request, dados.get("usuario"))
        )
    except EntradaInvalida as erro:
        return _lixeira(request, PRIMEIRA, status=409, erro=erro.mensagem)
    return RedirectResponse(
        f"/lixeira?{urlencode({'restaurado': item.descricao})}", status_code=303
    )


_METODOS = ("get", "post", "put", "patch", "delete")


@rotas.get("/guia-da-api", response_class=HTMLResponse)
def guia_da_api(request: Request) -> HTMLResponse:
    """The API guide in pt-BR, linked from the interactive consoles (/docs, /redoc): how to
    authenticate, the errors, and every route with its summary, read from the app's own
    OpenAPI document (so it never lists a route that does not exist)."""
    documento = request.app.openapi()
    rotas_api = [
        {"metodo": metodo.upper(), "caminho": caminho, "resumo": operacao.get("summary", "")}
        for caminho, operacoes in documento["paths"].items()
        for metodo, operacao in operacoes.items()
        if metodo in _METODOS
    ]
    tipos = sorted(MENSAGENS_HTTP.items())
    return render(request, "guia_api.html", rotas_api=rotas_api, tipos_de_erro=tipos)
