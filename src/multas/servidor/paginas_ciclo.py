"""The lifecycle's pages (issue 9), in pt-BR: the processos and each one's timeline, deadlines
(with citations and counting) and the form for its next event; the work queue; the ANP's
lists; the distributor's ledger. Every form works without JavaScript (POST, then a redirect,
or the page again with the error beside its field and HTTP 422). No rule lives here: it is all
:class:`multas.servicos.gestao.Ciclo`.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Annotated, Any
from urllib.parse import quote, urlencode

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from multas.nucleo.ciclo.pendencias import DIAS_MAXIMO, DIAS_PADRAO, ESTADOS, Filtros, ler_filtros
from multas.nucleo.contrato import ANO_MAXIMO, ANO_MINIMO, Leitura
from multas.nucleo.datas import formatar_data
from multas.nucleo.erros import EntradaInvalida, levantar, mostrar_valor
from multas.nucleo.eventos import RESPONSAVEIS, ROTULOS_PRAZOS, SITUACOES, TIPOS
from multas.nucleo.ids import id_valido
from multas.saidas.apresentacao import apresentar, brl_ou_traco
from multas.saidas.exportar import situacao_do_ano
from multas.saidas.texto import (
    acao_texto,
    data_por_extenso,
    rotulo_estado,
    situacao_da_pendencia,
)
from multas.servicos.cargas import uma_por_vez
from multas.servicos.gestao import LISTAS, NaoEncontrado
from multas.servicos.relogio import hoje
from multas.servidor.erros_na_pagina import erros_na_pagina
from multas.servidor.formulario import (
    DICAS,
    FIGURAS_DA_NOTIFICACAO,
    data_do_formulario,
    datas_do_campo,
    ler_colunas_do_formulario,
    no_campo_das_colunas,
    sugerir_dias,
    sugestoes_do_processo,
)
from multas.servidor.formulario_processo import (
    DIAS,
    ROTULOS_EVENTO,
    ROTULOS_PROCESSO,
    campo_do_evento,
    com_os_outros_erros,
    corpo_do_evento,
    ler_novo_processo,
    no_formulario,
)
from multas.servidor.formulario_processo import erro_dos_dias as _erro_dos_dias
from multas.servidor.paginacao import PRIMEIRA, Lista, Pagina
from multas.servidor.parametros import INTEIRO, IdNoCaminho
from multas.servidor.pedido import (
    COOKIE_USUARIO,
    CamposEnviados,
    CicloDoApp,
    EventoDaPagina,
    ciclo,
    nome_usuario,
    quem,
)
from multas.servidor.resposta import documento_para_baixar, render

rotas = APIRouter(include_in_schema=False)

#: the form's fields for a year of the ledger, in order: (name, label, hint)
CAMPOS_CARTEIRA = (
    ("cnpj", "CNPJ", "com os dígitos verificadores, ex.: 12.345.678/0001-95"),
    ("nome", "Nome do distribuidor", "opcional"),
    ("ano", "Ano da meta", "ex.: 2025"),
    (
        "meta_cbios",
        "Meta própria do ano (CBIOs)",
        "sem a falta do ano anterior, que a carteira soma do ano salvo antes; não a meta total "
        "publicada no Despacho (meta_publicada), que já a inclui",
    ),
    ("cbios_aposentados", "CBIOs aposentados", "para comprovar a meta do ano"),
    ("maior_media_mensal", "Maior média mensal do CBIO no ano", "para a multa; ex.: 71,70"),
    ("faturamento_ano_meta", "Faturamento do ano da meta", "opcional, junto com o seguinte"),
    ("faturamento_ano_anterior", "Faturamento do ano anterior", "opcional"),
    ("data_quitacao", "Data da quitação da falta", "opcional, dd/mm/aaaa"),
    (
        "prazo_comprovacao",
        "Prazo de comprovação",
        "opcional, dd/mm/aaaa; padrão: o da tabela por ano",
    ),
)
CAIXAS_CARTEIRA = (
    ("diferir", "Usar o diferimento quando cabível", True),
    ("segundo_ano_atuacao", "É o segundo ano de atuação do distribuidor", False),
)


def _usuario(request: Request, dados: dict[str, str] | None = None) -> str:
    """Who, for the audit: the authenticated user; on an open server, the form's name or the
    one the page remembers."""
    return quem(request, (dados or {}).get("usuario") or request.cookies.get(COOKIE_USUARIO))


#: the ledger form's date fields (typed dd/mm/aaaa, ddmmaaaa or ISO; ISO for the core)
DATAS_CARTEIRA = ("data_quitacao", "prazo_comprovacao")


def _data(texto: str | None) -> tuple[date, EntradaInvalida | None]:
    """A page's date filter (dd/mm/aaaa, ddmmaaaa or ISO): none is today; an invalid one is
    today too, with the error the page shows next to the field."""
    from multas.nucleo.datas import data_digitada

    if not texto:
        return hoje(), None
    try:
        return data_digitada(texto, "data"), None
    except EntradaInvalida as erro:
        return hoje(), erro


#: each estado in words, for the filters (named by the first tipo that has it)
ROTULOS_ESTADOS = {
    e: next((r for t in TIPOS if (r := rotulo_estado(t, e)) != e), e.replace("_", " "))
    for e in ESTADOS
}


def _contexto_comum() -> dict[str, Any]:
    return {
        "tipos": TIPOS,
        "rotulos_prazos": ROTULOS_PRAZOS,
        "responsaveis": RESPONSAVEIS,
        "situacoes": SITUACOES,
        "data_por_extenso": data_por_extenso,
        "rotulo_estado": rotulo_estado,
        "rotulos_estados": ROTULOS_ESTADOS,
        "situacao_da_pendencia": situacao_da_pendencia,
        "acao_texto": acao_texto,
        "brl": brl_ou_traco,
        "quote": quote,
        "dica_datas": DICAS["datas"],
        "tamanho_arquivo": tamanho_arquivo,
    }


def tamanho_arquivo(n: int) -> str:
    """A file's size in pt-BR, with one decimal (integers only).

    >>> tamanho_arquivo(900), tamanho_arquivo(1536), tamanho_arquivo(20 * 2**20)
    ('900 bytes', '1,5 KiB', '20,0 MiB')
    """
    if n < 1024:
        return f"{n} bytes"
    unidade, base = ("KiB", 1024) if n < 2**20 else ("MiB", 2**20)
    decimos = n * 10 // base
    return f"{decimos // 10},{decimos % 10} {unidade}"


# --- processos --------------------------------------------------------------------------------


@rotas.get("/processos", response_class=HTMLResponse)
def processos(
    request: Request,
    pagina: Lista,
    tipo: str | None = None,
    cnpj: str | None = None,
    estado: str | None = None,
    criados: Annotated[int | None, INTEIRO, Query(ge=0, le=10**9)] = None,
    acrescentados: Annotated[int | None, INTEIRO, Query(ge=0, le=10**9)] = None,
    iguais: Annotated[int | None, INTEIRO, Query(ge=0, le=10**9)] = None,
    vinculos: Annotated[int | None, INTEIRO, Query(ge=0, le=10**9)] = None,
) -> HTMLResponse:
    importacao = None
    if criados is not None:
        importacao = {
            "aviso": f"Importação feita: {criados} processo(s) criado(s), {acrescentados or 0} "
            f"evento(s) acrescentado(s) a processos salvos, {iguais or 0} linha(s) iguais a "
            f"eventos já salvos (puladas), {vinculos or 0} vínculo(s) novo(s)."
        }
    from multas.nucleo.cnpj import ler_filtro

    ler_filtro(cnpj, "cnpj")  # a text without a CNPJ's shape: 422 naming cnpj
    estado = ler_filtros(hoje(), estado=estado).estado  # an unknown one: 422 naming estado
    return _pagina_processos(
        request,
        {},
        None,
        pagina,
        tipo=tipo or None,
        cnpj=cnpj or None,
        importacao=importacao,
        estado=estado,
    )


#: the import's one-time notice (not carried to the list's other pages)
_AVISO_IMPORTACAO = ("criados", "acrescentados", "iguais", "vinculos")


def _pagina_processos(
    request: Request,
    valores: dict[str, str],
    erro: EntradaInvalida | None,
    pagina: Pagina = PRIMEIRA,
    status: int = 200,
    tipo: str | None = None,
    cnpj: str | None = None,
    importacao: dict[str, Any] | None = None,
    estado: str | None = None,
) -> HTMLResponse:
    """``importacao``: the import form's ``conteudo`` and ``erro``, or its ``aviso``.
    ``estado``: only the processos in that estado today, and those that cannot be read, which
    no filter hides (read from the work queue's index: only the page's are derived)."""
    c = ciclo(request)
    tipo = tipo if tipo in TIPOS else None
    if estado is None:
        derivados = c.listar(pagina.limite, pagina.deslocamento, tipo, cnpj)
        total = c.repo.contar_processos(tipo, cnpj)
    else:
        limites = (pagina.limite, pagina.deslocamento)
        derivados, total = c.listar_no_estado(estado, limites, tipo, cnpj)
    resumos = [c.resumo(d) for d in derivados]
    erros = erros_na_pagina(erro, ROTULOS_PROCESSO)
    return render(
        request,
        "processos.html",
        status=status,
        processos=resumos,
        nav=pagina.navegacao(
            request, total, len(resumos), sem=_AVISO_IMPORTACAO, caminho="/processos"
        ),
        tipo=tipo,
        cnpj=cnpj or "",
        estado=estado or "",
        estados=ESTADOS,
        valores=valores,
        erro=erro,
        erros=erros.por_campo,
        resumo_erros=erros.resumo,
        sugestoes=sugestoes_do_processo(valores, c.legislacao.calendario, hoje()),
        usuario=request.cookies.get(COOKIE_USUARIO, ""),
        importacao=importacao or {},
        **_contexto_comum(),
    )


@rotas.post("/processos")
def criar_processo(request: Request, ciclo_do_app: CicloDoApp, dados: CamposEnviados) -> Response:
    """Create a processo with its first event (the others are added on its page); a refused
    one shows every field's error at once, each beside its field."""
    corpo, erros = ler_novo_processo(dados)
    try:
        if erros:  # with every other field's error too; nothing is stored
            com_os_outros_erros(erros, ciclo_do_app.preparar, corpo)
        derivado = ciclo_do_app.criar(corpo, _usuario(request, dados))
    except EntradaInvalida as erro:
        return _pagina_processos(request, dados, no_formulario(erro), status=422)
    return RedirectResponse(f"/processos/{derivado.armazenado.id}?criado=1", status_code=303)


@rotas.post("/processos/importar")
def importar_processos(
    request: Request, ciclo_do_app: CicloDoApp, dados: CamposEnviados
) -> Response:
    """Rows pasted from a spreadsheet (or a CSV), in the processos file's format: created or
    appended by referencia, all or nothing (:mod:`multas.servicos.importar`)."""
    from multas.nucleo.arquivos import SERVIDOR
    from multas.nucleo.ciclo.planilha import ler_colado
    from multas.servicos.importar import colunas_do_arquivo
    from multas.servicos.importar import importar_processos as importar

    conteudo, colunas = dados.get("conteudo", ""), dados.get("colunas", "")
    try:
        with uma_por_vez():
            mapa = ler_colunas_do_formulario(colunas, "colunas")
            lido = ler_colado(conteudo, SERVIDOR, colunas_do_arquivo(mapa))
            resumo = importar(ciclo_do_app, lido, _usuario(request, dados))
    except EntradaInvalida as erro:
        erro = no_campo_das_colunas(erro, "colunas")
        importacao = {"conteudo": conteudo, "colunas": colunas, "erro": erro}
        return _pagina_processos(request, {}, None, status=422, importacao=importacao)
    return RedirectResponse(
        f"/processos?criados={resumo['processos_criados']}"
        f"&acrescentados={resumo['eventos_acrescentados']}"
        f"&iguais={resumo['linhas_iguais_puladas']}"
        f"&vinculos={resumo['vinculos_criados']}",
        status_code=303,
    )


def _existe(processo_id: int) -> None:
    if not id_valido(processo_id):
        raise NaoEncontrado(f"processo {processo_id} não encontrado")


def _pagina_processo(
    request: Request,
    processo_id: IdNoCaminho,
    valores: dict[str, str] | None = None,
    erro: EntradaInvalida | None = None,
    status: int = 200,
    aviso: str | None = None,
    erro_dias: EntradaInvalida | None = None,
    erro_vinculo: EntradaInvalida | None = None,
    erro_decisao: EntradaInvalida | None = None,
    decisao: dict[str, Any] | None = None,
) -> HTMLResponse:
    """The processo's page; ``erro`` is the event form's, ``erro_dias`` the list of dates',
    ``erro_vinculo`` the link's and ``erro_decisao`` the first-instance decision's (each shown
    beside its own form, with what was sent in ``valores``); ``decisao``: what the decision
    just entered did (its events and avisos, :meth:`Ciclo.registrar_decisao`)."""
    c = ciclo(request)
    _existe(processo_id)
    derivado = c.obter(processo_id)
    dia = hoje()
    detalhe = c.detalhe(derivado, dia)
    # overdue first (spec § 6 v3: a missed deadline stays, shown first, with its delay)
    linhas = sorted(
        (
            z | {"atraso": (dia - date.fromisoformat(z["data"])).days}
            for z in (detalhe["resultado"] or {}).get("prazos", [])
        ),
        key=lambda z: z["situacao"] != "vencido",
    )
    valores = valores or {}
    evento = erros_na_pagina(erro, ROTULOS_EVENTO, campo_de=campo_do_evento)
    guardados = "\n".join(formatar_data(date.fromisoformat(d)) for d in detalhe[DIAS])
    texto_dias = valores.get(DIAS, "") if erro_dias else guardados
    # the local and conditional dates of the years the processo's events and deadlines fall in
    datas = [e["data"] for e in detalhe["eventos"]] + [z["data"] for z in linhas]
    listas = []
    if detalhe["tipo"] == "anp" and detalhe.get("vinculo") is None:
        from multas.saidas.texto import quem_e

        listas = [
            {
                "processo_id": a.id,
                "quem": quem_e({"nome": a.nome, "cnpj": a.cnpj, "id": a.identificador}),
            }
            for a in c.repo.listar_processos(200, 0, "renovabio.lista", None)
            if a.erro is None
        ]
    return render(
        request,
        "processo.html",
        status=status,
        p=detalhe,
        tipo=TIPOS.get(detalhe["tipo"]),
        linhas=linhas,
        valores=valores,
        erro=erro,
        erros_evento=evento.por_campo,
        resumo_evento=evento.resumo,
        erro_dias=erro_dias,
        texto_dias=texto_dias,
        sugestoes=sugerir_dias(
            DIAS, datas, texto_dias, c.legislacao.calendario, dia, de_que="processo"
        ),
        aviso=aviso,
        erro_vinculo=erro_vinculo,
        erro_decisao=erro_decisao,
        decisao=decisao,
        listas=listas,
        usuario=request.cookies.get(COOKIE_USUARIO, ""),
        **_contexto_comum(),
    )


@rotas.get("/processos/{processo_id}", response_class=HTMLResponse)
def processo(
    request: Request,
    processo_id: IdNoCaminho,
    criado: bool = False,
    evento: str | None = None,
    alterado: bool = False,
    vinculado: bool = False,
    desvinculado: bool = False,
) -> HTMLResponse:
    aviso = None
    if criado:
        aviso = "Processo salvo."
    elif evento:
        aviso = f"Evento {evento} registrado."
    elif alterado:
        aviso = "Dias sem expediente salvos; os prazos foram contados de novo com eles."
    elif vinculado:
        aviso = "Processos vinculados: a decisão de primeira instância, registrada aqui, vai para os dois."
    elif desvinculado:
        aviso = "Vínculo desfeito."
    return _pagina_processo(request, processo_id, aviso=aviso)


@rotas.post("/processos/{processo_id}/eventos")
def acrescentar_evento(
    request: Request, ciclo_do_app: CicloDoApp, processo_id: IdNoCaminho, enviado: EventoDaPagina
) -> Response:
    """The event form: its fields, and its files as the event's documents (spec § 6.2 v4;
    refused by :func:`multas.servicos.documentos.anexos`, beside the file field)."""
    from multas.servicos.documentos import anexos
    from multas.servicos.evento_novo import ler_evento_novo

    dados = enviado.campos
    corpo = corpo_do_evento(dados)
    # each field on its own (a file refused as the form was read too): every error at once
    erros = [] if enviado.erro is None else [enviado.erro]
    try:
        corpo["data"] = data_do_formulario(dados.get("data", ""), "data")
    except EntradaInvalida as erro:
        erros.append(erro)
    lista = []
    if enviado.erro is None:
        try:
            lista = anexos(enviado.arquivos)
        except EntradaInvalida as erro:
            erros.append(erro)
    try:
        if erros:  # with the event's other fields' errors too; nothing is stored
            com_os_outros_erros(erros, ler_evento_novo, corpo)
        ciclo_do_app.acrescentar(processo_id, corpo, _usuario(request, dados), lista)
    except EntradaInvalida as erro:
        return _pagina_processo(request, processo_id, dados, erro, status=422)
    return _lembrar_usuario(
        RedirectResponse(
            f"/processos/{processo_id}?evento={quote(str(corpo['evento']))}", status_code=303
        ),
        dados,
    )


@rotas.get("/processos/{processo_id}/documentos/{sha256}")
def baixar_documento(
    request: Request,
    processo_id: IdNoCaminho,
    sha256: Annotated[str, Path(pattern="^[0-9a-f]{64}$")],
) -> Response:
    """A document of one of the processo's events, as the API's download (the same scope)."""
    return documento_para_baixar(request, processo_id, sha256)


def _lembrar_usuario(resposta: Response, dados: Mapping[str, str]) -> Response:
    """The name a form gave for the audit, remembered by the page (a cookie) for its next
    forms (on an open server; a signed-in user is always recorded by their login)."""
    if dados.get("usuario", "").strip():
        resposta.set_cookie(
            COOKIE_USUARIO, nome_usuario(dados["usuario"]), max_age=365 * 86400, samesite="lax"
        )
    return resposta


@rotas.post("/processos/{processo_id}/desfazer")
def desfazer(
    request: Request, ciclo_do_app: CicloDoApp, processo_id: IdNoCaminho, dados: CamposEnviados
) -> Response:
    """Undo the event the page showed as the last one (its form says which): a form sent
    twice, or by two people at once, never undoes a second event."""
    evento = dados.get("evento", "")
    if not evento:
        raise EntradaInvalida("evento", "formulário sem o evento a desfazer: recarregue a página")
    ciclo_do_app.remover_ultimo_evento(processo_id, _usuario(request, dados), esperado=evento)
    return RedirectResponse(f"/processos/{processo_id}", status_code=303)


@rotas.post("/processos/{processo_id}/dias-sem-expediente")
def alterar_dias(
    request: Request, ciclo_do_app: CicloDoApp, processo_id: IdNoCaminho, dados: CamposEnviados
) -> Response:
    """Replace the processo's ``dias_sem_expediente`` with the form's list (empty: none), by
    the same change as ``PATCH /api/v1/processos/{id}`` (:meth:`Ciclo.alterar`: validated
    whole, in one transaction, audited)."""
    _existe(processo_id)
    if DIAS not in dados:
        raise EntradaInvalida(DIAS, "formulário sem a lista de datas: recarregue a página")
    try:
        dias = datas_do_campo(dados[DIAS], DIAS)
        ciclo_do_app.alterar(processo_id, {DIAS: dias}, _usuario(request, dados))
    except EntradaInvalida as erro:
        return _pagina_processo(
            request, processo_id, dados, status=422, erro_dias=_erro_dos_dias(erro, todo=True)
        )
    return RedirectResponse(f"/processos/{processo_id}?alterado=1", status_code=303)


@rotas.post("/processos/{processo_id}/vinculo")
def vincular(
    request: Request, ciclo_do_app: CicloDoApp, processo_id: IdNoCaminho, dados: CamposEnviados
) -> Response:
    """Link the anp processo to a ``renovabio.lista`` processo (``lista_id``), or undo its
    link (``desfazer``): :meth:`Ciclo.vincular`, the API's ``PUT .../vinculo``."""
    _existe(processo_id)
    desfazer = dados.get("desfazer") == "1"  # the undo button's value; nothing else undoes
    texto = dados.get("lista_id", "").strip()
    lista_id: object = None
    if not desfazer:
        if not texto:
            erro = EntradaInvalida("lista_id", "escolha o processo renovabio.lista a vincular")
            return _pagina_processo(request, processo_id, dados, status=422, erro_vinculo=erro)
        lista_id = int(texto) if texto.isascii() and texto.isdigit() and len(texto) < 20 else texto
    try:
        ciclo_do_app.vincular(processo_id, {"lista_id": lista_id}, _usuario(request, dados))
    except EntradaInvalida as erro:
        return _pagina_processo(request, processo_id, dados, status=422, erro_vinculo=erro)
    feito = "desvinculado" if desfazer else "vinculado"
    return RedirectResponse(f"/processos/{processo_id}?{feito}=1", status_code=303)


@rotas.post("/processos/{processo_id}/decisao", response_class=HTMLResponse)
def registrar_decisao(
    request: Request, ciclo_do_app: CicloDoApp, processo_id: IdNoCaminho, dados: CamposEnviados
) -> HTMLResponse:
    """The first-instance decision for the linked pair (:meth:`Ciclo.registrar_decisao`, the
    API's ``POST .../decisao``). The page answers with what was done and the core's avisos
    (not a redirect, which would lose them): sending it again appends nothing, since an event
    already stored on the same date is not appended twice."""
    from multas.nucleo.datas import data_digitada
    from multas.servicos.vinculos import CAMPOS_DECISAO

    _existe(processo_id)
    corpo: dict[str, str | None] = {}
    try:
        for campo in CAMPOS_DECISAO:  # typed dd/mm/aaaa, ddmmaaaa or ISO; the core reads ISO
            texto = dados.get(campo, "").strip()
            corpo[campo] = data_digitada(texto, campo).isoformat() if texto else None
        resultado = ciclo_do_app.registrar_decisao(processo_id, corpo, _usuario(request, dados))
    except EntradaInvalida as erro:
        return _pagina_processo(request, processo_id, dados, status=422, erro_decisao=erro)
    acrescentados = [e for e in resultado["eventos"] if e["acrescentado"]]
    aviso = (
        "Decisão de primeira instância registrada."
        if acrescentados
        else "Nada foi acrescentado: os processos já tinham essas datas."
    )
    return _pagina_processo(request, processo_id, aviso=aviso, decisao=resultado)


# --- the work queue, the lists ----------------------------------------------------------------


#: a yes/no query parameter of the page (its select sends 1 or 0)
_SIM_NAO = {"1": True, "sim": True, "true": True, "0": False, "não": False, "false": False}


def _filtros_da_pagina(consulta: Mapping[str, str]) -> Filtros:
    """The work queue's filters from the page's query: the same checks as the API and the
    command line (:func:`multas.nucleo.ciclo.pendencias.ler_filtros`); ``data`` and ``hoje`` are the
    old names of ``data_referencia``."""
    from multas.nucleo.datas import data_digitada

    texto_data = next(
        (consulta[n] for n in ("data_referencia", "data", "hoje") if consulta.get(n)), None
    )
    dia = data_digitada(texto_data, "data_referencia") if texto_data else hoje()
    texto_dias = consulta.get("dias") or str(DIAS_PADRAO)
    if not texto_dias.isascii() or not texto_dias.isdigit() or len(texto_dias) > 5:
        raise EntradaInvalida("dias", f"deve ser um número inteiro de 0 a {DIAS_MAXIMO}")
    lidos = {}
    for nome in ("prescritos", "vencidos"):
        texto = consulta.get(nome) or "1"
        if texto not in _SIM_NAO:
            raise EntradaInvalida(nome, f"valor inválido: {mostrar_valor(texto)} (use 1 ou 0)")
        lidos[nome] = _SIM_NAO[texto]
    return ler_filtros(
        dia,
        int(texto_dias),
        consulta.get("responsavel"),
        consulta.get("cnpj"),
        consulta.get("estado"),
        prescritos=lidos["prescritos"],
        vencidos=lidos["vencidos"],
    )


@rotas.get("/pendencias", response_class=HTMLResponse)
@rotas.get("/prazos", response_class=HTMLResponse)
def pendencias(request: Request, ciclo_do_app: CicloDoApp, pagina: Lista) -> HTMLResponse:
    """The work queue (``/prazos``, its former page, is the same): overdue first, in red, with
    the days late, a page of it at a time (the CSV link downloads it whole). A bad filter
    shows the form again with its error (HTTP 422)."""
    consulta = dict(request.query_params)
    try:
        filtros = _filtros_da_pagina(consulta)
    except EntradaInvalida as erro:
        return render(
            request,
            "pendencias.html",
            status=422,
            fila=None,
            erro=erro,
            valores=consulta,
            estados=ESTADOS,
            **_contexto_comum(),
        )
    fila = ciclo_do_app.pendencias(filtros)
    prazos = fila["prazos"]
    fila = fila | {"prazos": pagina.fatia(prazos)}
    parametros = {
        "data_referencia": fila["data_referencia"],
        "dias": str(filtros.dias),
        **{k: v for k, v in fila["filtros"].items() if isinstance(v, str)},
        "prescritos": "1" if filtros.prescritos else "0",
        "vencidos": "1" if filtros.vencidos else "0",
    }
    return render(
        request,
        "pendencias.html",
        fila=fila,
        nav=pagina.navegacao(request, len(prazos), len(fila["prazos"])),
        erro=None,
        valores=parametros,
        consulta_csv=urlencode({**parametros, "formato": "csv"}),
        estados=ESTADOS,
        **_contexto_comum(),
    )


@rotas.get("/listas", response_class=HTMLResponse)
def listas(
    request: Request,
    ciclo_do_app: CicloDoApp,
    pagina: Lista,
    lista: str = "sancoes",
    data: str | None = None,
) -> HTMLResponse:
    qual = lista if lista in LISTAS else "sancoes"
    dia, erro = _data(data)
    conteudo = ciclo_do_app.lista(qual, dia)
    itens = conteudo["itens"]
    conteudo = conteudo | {"itens": pagina.fatia(itens)}
    return render(
        request,
        "listas.html",
        status=422 if erro else 200,
        lista=conteudo,
        nav=pagina.navegacao(request, len(itens), len(conteudo["itens"])),
        qual=qual,
        listas=LISTAS,
        dia=dia.isoformat(),
        digitada=data if erro else dia.isoformat(),
        erro=erro,
        **_contexto_comum(),
    )


# --- the ledger ----------------------------------------------------------------------------


def _ultimo_ano(c: Any, cnpj: str) -> dict[str, Any] | None:
    """The distributor's latest ledger year as its own page computes it, with its status in
    words (None: a ledger that cannot be computed, which its own page explains)."""
    try:
        anos = c.carteira(cnpj)["anos"]
    except (EntradaInvalida, NaoEncontrado):
        return None
    return anos[-1] | {"situacao": situacao_do_ano(anos[-1])} if anos else None


def _pagina_carteira(
    request: Request,
    pagina: Pagina,
    valores: dict[str, str] | None = None,
    erro: EntradaInvalida | None = None,
    status: int = 200,
    aviso: str | None = None,
    importacao: dict[str, Any] | None = None,
) -> HTMLResponse:
    """The ledger's page; ``valores`` and ``erro`` are the year form's, ``importacao`` the
    paste form's (``conteudo`` and ``erro``): each error beside its own form, and the other
    form as it was (a refused paste leaves the year form's boxes at their defaults)."""
    c = ciclo(request)
    distribuidores = [
        d | {"ultimo": None if d.get("erro") else _ultimo_ano(c, d["cnpj"])}
        for d in c.distribuidores(pagina.limite, pagina.deslocamento)
    ]
    total = c.repo.contar_distribuidores()
    return render(
        request,
        "carteira.html",
        status=status,
        distribuidores=distribuidores,
        nav=pagina.navegacao(
            request, total, len(distribuidores), sem=("importados",), caminho="/carteira"
        ),
        campos=CAMPOS_CARTEIRA,
        datas=DATAS_CARTEIRA,
        caixas=CAIXAS_CARTEIRA,
        valores=valores or {},
        erro=erro,
        aviso=aviso,
        importacao=importacao or {},
        usuario=request.cookies.get(COOKIE_USUARIO, ""),
        **_contexto_comum(),
    )


@rotas.get("/carteira", response_class=HTMLResponse)
def carteira(request: Request, pagina: Lista, importados: int | None = None) -> HTMLResponse:
    aviso = f"{importados} ano(s) importado(s)." if importados is not None else None
    return _pagina_carteira(request, pagina, aviso=aviso)


@rotas.post("/carteira")
def salvar_ano(request: Request, ciclo_do_app: CicloDoApp, dados: CamposEnviados) -> Response:
    corpo: dict[str, Any] = {
        nome: dados[nome].strip() for nome, _, _ in CAMPOS_CARTEIRA if dados.get(nome, "").strip()
    }
    for nome, _, _ in CAIXAS_CARTEIRA:
        corpo[nome] = "sim" if dados.get(nome) else "não"
    from multas.nucleo.ciclo.carteira_entrada import erros_do_ano

    leitura, erros = Leitura(tabela=True, decimal_virgula=True), []
    for nome in DATAS_CARTEIRA:
        try:
            corpo[nome] = data_do_formulario(corpo[nome], nome) if nome in corpo else None
        except EntradaInvalida as erro:
            erros.append(erro)
            corpo.pop(nome)
    try:
        if erros:  # with every other field's error too, all shown at once
            levantar([*erros, *erros_do_ano({k: v for k, v in corpo.items() if v}, leitura)])
        corpo = {k: v for k, v in corpo.items() if v is not None}
        resultado = ciclo_do_app.salvar_ano(corpo, _usuario(request, dados), leitura)
    except EntradaInvalida as erro:
        return _pagina_carteira(request, PRIMEIRA, dados, erro, status=422)
    return RedirectResponse(
        f"/carteira/distribuidor?cnpj={quote(resultado['cnpj'])}", status_code=303
    )


@rotas.post("/carteira/importar")
def importar(request: Request, ciclo_do_app: CicloDoApp, dados: CamposEnviados) -> Response:
    """Rows pasted from a spreadsheet (or a CSV): all or nothing."""
    from multas.nucleo.arquivos import SERVIDOR
    from multas.nucleo.ciclo.planilha import colunas_da_carteira, ler_colado

    conteudo, colunas = dados.get("conteudo", ""), dados.get("colunas", "")
    try:
        with uma_por_vez():
            mapa = ler_colunas_do_formulario(colunas, "colunas")
            colado = ler_colado(conteudo, SERVIDOR, colunas_da_carteira(mapa))
            resumo = ciclo_do_app.importar_planilha(colado, _usuario(request, dados))
    except EntradaInvalida as erro:
        erro = no_campo_das_colunas(erro, "colunas")
        importacao = {"conteudo": conteudo, "colunas": colunas, "erro": erro}
        return _pagina_carteira(request, PRIMEIRA, status=422, importacao=importacao)
    return _lembrar_usuario(
        RedirectResponse(f"/carteira?importados={resumo['anos']}", status_code=303), dados
    )


@rotas.get("/carteira/distribuidor", response_class=HTMLResponse)
def distribuidor(request: Request, c: CicloDoApp, cnpj: str) -> HTMLResponse:
    dados = c.carteira(cnpj)
    processos = [c.resumo(d) for d in c.listar(limite=None, cnpj=cnpj)]
    return render(
        request,
        "distribuidor.html",
        c=dados,
        processos=processos,
        figuras=FIGURAS_DA_NOTIFICACAO,
        **_contexto_comum(),
    )


@rotas.get("/carteira/distribuidor/memoria", response_class=HTMLResponse)
def memoria_do_ano(
    request: Request,
    ciclo_do_app: CicloDoApp,
    cnpj: Annotated[str, Query(max_length=64)],
    ano: Annotated[int, INTEIRO, Query(ge=ANO_MINIMO, le=ANO_MAXIMO)],
) -> HTMLResponse:
    """One ledger year's memória: the fine's calculation step by step, as a case's page shows
    it (``_resultado.html``); a year without a fine says why."""
    dados, linha = ciclo_do_app.ano_da_carteira(cnpj, ano)
    calculo = linha.get("calculo")
    resultado = apresentar(calculo["resultado"]) if calculo else None
    return render(request, "memoria_ano.html", c=dados, a=linha, r=resultado, **_contexto_comum())
