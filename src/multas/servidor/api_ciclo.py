"""The lifecycle's API (issue 9): stored processos and their events, the work queue (the
next deadlines) and the iCalendar export, the ANP's lists, and the distributor's ledger.
Bodies are read raw with the exact JSON reader (:func:`multas.servidor.servico.ler_corpo`);
everything is derived by :class:`multas.servicos.gestao.Ciclo`, through spec § 6.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from multas.nucleo.ciclo.pendencias import ESTADOS, ler_filtros
from multas.nucleo.contrato import ANO_MAXIMO, ANO_MINIMO
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.ids import id_valido
from multas.nucleo.json_exato import despejar_json
from multas.saidas.exportar import calendario_ics, lista_csv, lista_pdf, pendencias_csv
from multas.saidas.texto import pendencias_texto
from multas.servicos.cargas import uma_por_vez
from multas.servicos.gestao import Ciclo, ProcessoDerivado
from multas.servicos.persistencia.acesso import Acesso
from multas.servicos.persistencia.escopo_sql import limitado
from multas.servicos.relogio import agora, hoje
from multas.servidor.acesso import credencial_vigente
from multas.servidor.erros import ERROS_API, ErroHttp, nao_encontrado
from multas.servidor.openapi import corpo_json, corpo_processo, resposta
from multas.servidor.paginacao import TOTAL_NO_CABECALHO, Lista
from multas.servidor.parametros import DATA, INTEIRO, IdNoCaminho
from multas.servidor.pedido import CicloDoApp, Corpo, Usuario, ciclo, identidade, quem
from multas.servidor.servico import ler_corpo

rotas = APIRouter(prefix="/api/v1", responses=ERROS_API, tags=["ciclo"])

Hoje = Annotated[
    date | None,
    DATA,
    Query(
        alias="hoje",
        description="Nome antigo de data_referencia (padrão: hoje, em Brasília)",
    ),
]
DataReferencia = Annotated[
    date | None,
    DATA,
    Query(
        alias="data_referencia",
        description="A data em que a situação é julgada (padrão: hoje, em Brasília)",
    ),
]
Em = Annotated[
    date | None,
    DATA,
    Query(
        alias="em",
        description="A data do valor devido: o mesmo que data_referencia (spec § 6.2)",
    ),
]


def _json(objeto: Any, status: int = 200, cabecalhos: dict[str, str] | None = None) -> Response:
    return Response(
        despejar_json(objeto, compacto=True),
        status_code=status,
        media_type="application/json",
        headers=cabecalhos,
    )


def _alterar(
    request: Request,
    processo_id: int,
    corpo: bytes,
    usuario: str | None,
    operacao: Callable[[Ciclo, int, object, str], ProcessoDerivado],
    status: int = 200,
) -> Response:
    """A change to one stored processo (``operacao``: :meth:`Ciclo.alterar` or
    :meth:`Ciclo.vincular`; :meth:`Ciclo.acrescentar`, with its documents, is
    :mod:`multas.servidor.api_documentos`), answered with its detail."""
    c = ciclo(request)
    derivado = operacao(c, _id_valido(processo_id), ler_corpo(corpo), quem(request, usuario))
    return _json(c.detalhe(derivado, hoje()), status)


def _id_valido(processo_id: int) -> int:
    if not id_valido(processo_id):
        from multas.servicos.gestao import NaoEncontrado

        raise NaoEncontrado(f"processo {processo_id} não encontrado")
    return processo_id


@rotas.post(
    "/processos",
    status_code=201,
    summary="Salva um processo (veja docs/ciclo.md) e devolve seus prazos",
    description="O corpo é um processo do § 6 (com `dias_sem_expediente`, que o processo "
    "guarda, e sem `data_referencia`), com `valor_multa` (anp: a multa fixada, para os encargos "
    "de mora; `principal`, o nome antigo, ainda é aceito) e `caso_id` (o caso salvo da multa) "
    "opcionais.",
    openapi_extra=corpo_processo("ProcessoSalvo"),
)
def criar_processo(
    request: Request, c: CicloDoApp, corpo: Corpo, usuario: Usuario = None
) -> Response:
    derivado = c.criar(ler_corpo(corpo), quem(request, usuario))
    return _json(
        c.detalhe(derivado, hoje()),
        201,
        {"Location": f"/api/v1/processos/{derivado.armazenado.id}"},
    )


@rotas.get(
    "/processos",
    summary="Lista os processos salvos, do mais novo ao mais antigo",
    responses=TOTAL_NO_CABECALHO,
)
def listar_processos(
    request: Request,
    c: CicloDoApp,
    pagina: Lista,
    tipo: Annotated[str | None, Query(description="só deste tipo")] = None,
    cnpj: Annotated[str | None, Query(description="só deste CNPJ")] = None,
    estado: Annotated[
        str | None,
        Query(
            max_length=64,
            description="só os processos neste estado hoje (e os que não podem ser lidos, que "
            "nenhum filtro esconde): " + ", ".join(ESTADOS),
        ),
    ] = None,
) -> Response:
    from multas.nucleo.cnpj import ler_filtro

    cnpj = ler_filtro(cnpj, "cnpj")  # a text without a CNPJ's shape: 422 naming cnpj
    estado = ler_filtros(hoje(), estado=estado).estado  # an unknown one: 422 naming estado
    if estado is None:
        total = c.repo.contar_processos(tipo, cnpj)
        processos = c.listar(pagina.limite, pagina.deslocamento, tipo, cnpj)
    else:  # as the page: from the work queue's index, only the page's processos derived
        limites = (pagina.limite, pagina.deslocamento)
        processos, total = c.listar_no_estado(estado, limites, tipo, cnpj)
    return _json(
        {"total": total, "processos": [c.resumo(d) for d in processos]},
        cabecalhos=pagina.cabecalhos(total),
    )


@rotas.get(
    "/processos/{processo_id}",
    summary="Um processo salvo: eventos, estado, prazos, informações e a multa vinculada",
)
def obter_processo(
    request: Request,
    c: CicloDoApp,
    processo_id: IdNoCaminho,
    data_referencia: DataReferencia = None,
    data_base: Hoje = None,
    em: Em = None,
) -> Response:
    dia = em or data_referencia or data_base or hoje()
    derivado = c.obter(_id_valido(processo_id), dia)
    return _json(c.detalhe(derivado, dia))


@rotas.patch(
    "/processos/{processo_id}",
    summary="Altera os dias sem expediente de um processo salvo; recusado (422) se o § 6 "
    "recusar o processo alterado",
    description='O corpo é `{"dias_sem_expediente": [...]}`: a nova lista substitui a '
    "anterior (`null` ou `[]`: nenhum dia). Os prazos são derivados de novo com ela.",
    openapi_extra=corpo_json(
        "AlteracaoProcesso", {"dias_sem_expediente": ["2025-02-17", "2025-02-18"]}
    ),
)
def alterar_processo(
    request: Request, processo_id: IdNoCaminho, corpo: Corpo, usuario: Usuario = None
) -> Response:
    return _alterar(request, processo_id, corpo, usuario, Ciclo.alterar)


@rotas.put(
    "/processos/{processo_id}/vinculo",
    summary="Vincula o processo anp ao processo renovabio.lista do mesmo distribuidor "
    "(lista_id null desfaz o vínculo)",
    description="Só um processo `anp` se vincula, e só a um processo `renovabio.lista`; os "
    "CNPJs, quando os dois têm, são comparados normalizados e devem ser iguais; nenhum dos dois "
    "pode estar vinculado a outro. Vincular de novo ao mesmo não grava nada. O vínculo entra na "
    "auditoria. Depois dele, `POST /api/v1/processos/{processo_id}/decisao` registra a decisão "
    "de primeira instância nos dois. Veja docs/ciclo.md.",
    openapi_extra=corpo_json("Vinculo", {"lista_id": 2}),
)
def vincular_processo(
    request: Request, processo_id: IdNoCaminho, corpo: Corpo, usuario: Usuario = None
) -> Response:
    return _alterar(request, processo_id, corpo, usuario, Ciclo.vincular)


@rotas.post(
    "/processos/{processo_id}/decisao",
    summary="Registra a decisão de primeira instância nos dois processos vinculados (o id é "
    "qualquer um deles)",
    description="A ciência (`data_ciencia`) vai para o processo `anp`, como "
    "`ciencia_primeira_instancia`; a data da decisão (`data_decisao`), para o processo "
    "`renovabio.lista`, como `decisao_primeira_instancia`. Com só uma das datas, o outro "
    "processo não é alterado, e um aviso diz isso. Os dois processos são travados em ordem de "
    "número e alterados numa transação só: tudo ou nada. Um evento já registrado na mesma data "
    "não é acrescentado de novo. Veja docs/ciclo.md.",
    openapi_extra=corpo_json(
        "DecisaoPrimeiraInstancia", {"data_decisao": "2026-02-06", "data_ciencia": "2026-02-10"}
    ),
    responses={200: resposta("O que foi registrado em cada processo", "ResultadoDecisao")},
)
def registrar_decisao(
    request: Request,
    c: CicloDoApp,
    processo_id: IdNoCaminho,
    corpo: Corpo,
    usuario: Usuario = None,
) -> Response:
    resultado = c.registrar_decisao(
        _id_valido(processo_id), ler_corpo(corpo), quem(request, usuario)
    )
    return _json(resultado)


@rotas.delete(
    "/processos/{processo_id}/eventos/ultimo",
    summary="Remove o último evento (uma correção; o primeiro evento fica)",
)
def desfazer_evento(
    request: Request,
    c: CicloDoApp,
    processo_id: IdNoCaminho,
    usuario: Usuario = None,
    evento: Annotated[
        str | None,
        Query(
            max_length=64,
            description="desfazer só se o último evento for este (um pedido repetido, ou dois "
            "ao mesmo tempo, nunca desfazem um segundo evento)",
        ),
    ] = None,
) -> Response:
    derivado = c.remover_ultimo_evento(
        _id_valido(processo_id), quem(request, usuario), esperado=evento
    )
    return _json(c.detalhe(derivado, hoje()))


@rotas.delete(
    "/processos/{processo_id}",
    status_code=204,
    summary="Exclui um processo: vai para a lixeira (a auditoria guarda quem excluiu)",
)
def excluir_processo(
    request: Request, ciclo_do_app: CicloDoApp, processo_id: IdNoCaminho, usuario: Usuario = None
) -> Response:
    ciclo_do_app.excluir(_id_valido(processo_id), quem(request, usuario))
    return Response(status_code=204)


@rotas.get(
    "/pendencias",
    summary="A fila de trabalho: a próxima ação de cada processo salvo e os prazos vencidos e "
    "os que vencem nos próximos N dias, com quem deve agir",
    description="`acoes`: uma linha por processo, a sua próxima ação (quem, o quê, desde, até; "
    "a mais urgente primeiro: por `ate`, sem prazo por último, depois `desde`); `responsavel` "
    "filtra por quem age (anp, autuado, procuradoria, judiciario); a ação da ANP vencida tem "
    "os seus `dias_de_atraso`. `prazos`: o prazo vencido vem primeiro (o mais atrasado antes), depois os demais por "
    "data; um processo que não pôde ser lido vem antes de todos, com o seu `erro`. Os prazos "
    "de um processo prescrito aparecem, com o estado, salvo com `prescritos=false` "
    "(`prescritos_ocultos` diz quantos ficaram de fora). Em JSON, uma página da fila "
    "(limite e deslocamento valem para os prazos e para as ações; `total` e o cabeçalho "
    "X-Total-Count dizem quantos prazos ela tem ao todo, `total_acoes` quantas ações); CSV e "
    "texto são a fila inteira, para baixar. `GET /api/v1/prazos/proximos` é o "
    "mesmo. Veja docs/ciclo.md.",
    responses={
        200: {
            "description": "A fila: JSON (o padrão), CSV (formato=csv) ou texto (formato=texto)",
            "headers": TOTAL_NO_CABECALHO[200]["headers"],
            "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/Pendencias"}},
                "text/csv": {"schema": {"type": "string"}},
                "text/plain": {"schema": {"type": "string"}},
            },
        }
    },
)
@rotas.get(
    "/prazos/proximos",
    summary="O mesmo que GET /api/v1/pendencias (o nome antigo da fila de trabalho)",
    responses={
        200: {
            "description": "A fila: JSON (o padrão), CSV (formato=csv) ou texto (formato=texto)",
            "headers": TOTAL_NO_CABECALHO[200]["headers"],
            "content": {
                "application/json": {"schema": {"$ref": "#/components/schemas/Pendencias"}},
                "text/csv": {"schema": {"type": "string"}},
                "text/plain": {"schema": {"type": "string"}},
            },
        }
    },
)
def pendencias(
    request: Request,
    ciclo_do_app: CicloDoApp,
    pagina: Lista,
    data_referencia: DataReferencia = None,
    data_base: Hoje = None,
    dias: Annotated[
        int,
        INTEIRO,
        Query(ge=0, le=3660, description="os prazos em aberto que vencem até N dias depois"),
    ] = 30,
    responsavel: Annotated[
        Literal["anp", "autuado", "procuradoria", "judiciario"] | None,
        Query(description="só os prazos em que este age e as próximas ações que são dele"),
    ] = None,
    cnpj: Annotated[
        str | None, Query(max_length=64, description="só os processos deste CNPJ")
    ] = None,
    estado: Annotated[
        str | None,
        Query(max_length=64, description="só os processos neste estado: " + ", ".join(ESTADOS)),
    ] = None,
    prescritos: Annotated[
        bool, Query(description="incluir os prazos dos processos prescritos (padrão: sim)")
    ] = True,
    vencidos: Annotated[
        bool, Query(description="incluir os prazos vencidos (padrão: sim, primeiro)")
    ] = True,
    todos: Annotated[bool, Query(description="incluir os prazos já cumpridos")] = False,
    formato: Literal["json", "csv", "texto"] = "json",
    ptbr: Annotated[
        bool, Query(description="CSV em notação brasileira: ';', 1.234,56, datas dd/mm/aaaa")
    ] = False,
) -> Response:
    dia = data_referencia or data_base or hoje()
    filtros = ler_filtros(dia, dias, responsavel, cnpj, estado, prescritos, vencidos, todos)
    if formato == "json":
        # a page, cut by the database when every processo is indexed (docs/ciclo.md)
        fila = ciclo_do_app.pendencias(filtros, (pagina.limite, pagina.deslocamento))
        return _json(fila, cabecalhos=pagina.cabecalhos(fila["total"]))
    fila = ciclo_do_app.pendencias(filtros)
    if formato == "csv":
        return Response(
            pendencias_csv(fila, ptbr),
            media_type="text/csv; charset=utf-8",
            headers={
                "Content-Disposition": f'attachment; filename="pendencias-{dia.isoformat()}.csv"'
            },
        )
    return Response(pendencias_texto(fila), media_type="text/plain; charset=utf-8")


def _ics(prazos: list[dict[str, Any]], arquivo: str) -> Response:
    return Response(
        calendario_ics(prazos, agora()),
        media_type="text/calendar; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{arquivo}"'},
    )


@rotas.get(
    "/prazos/calendario.ics",
    summary="Os prazos dos processos salvos em iCalendar (um evento por prazo): todos, ou os "
    "de um CNPJ",
    responses={200: resposta("O calendário", tipo="text/calendar")},
)
def calendario(
    request: Request,
    ciclo_do_app: CicloDoApp,
    cnpj: Annotated[
        str | None, Query(max_length=64, description="só os processos deste CNPJ")
    ] = None,
) -> Response:
    prazos = ciclo_do_app.todos_os_prazos(cnpj=cnpj)  # checked there (cnpj.ler_filtro)
    return _ics(prazos, "multas-prazos.ics")


def _acesso(request: Request) -> Acesso:
    valor: Acesso = request.app.state.acesso
    return valor


def _usuario_do_feed(request: Request) -> str:
    autenticado = identidade(request)
    if autenticado is None:
        raise EntradaInvalida(
            None,
            "o calendário privado é de um usuário: este servidor está aberto, sem usuários "
            "(use /api/v1/prazos/calendario.ics)",
        )
    return autenticado.nome


@rotas.get(
    "/feed/{token}.ics",
    summary="O calendário privado de um usuário (sem login: o endereço é o segredo), com os "
    "prazos dos processos que ele pode ver",
    responses={200: resposta("O calendário", tipo="text/calendar")},
)
def feed(request: Request, ciclo_do_app: CicloDoApp, token: str) -> Response:
    dono = _acesso(request).por_feed(token)
    if dono is None:
        raise nao_encontrado("calendário privado desconhecido ou revogado")
    with limitado(dono.escopo):  # the feed sees what its user sees, now
        prazos = ciclo_do_app.todos_os_prazos(cnpj=None)
    return _ics(prazos, "multas-prazos.ics")


@rotas.post(
    "/feed",
    status_code=201,
    summary="Cria o calendário privado do usuário (um endereço .ics secreto; o anterior deixa "
    "de valer)",
)
def criar_feed(request: Request) -> dict[str, str]:
    acesso = _acesso(request)
    token = acesso.criar_feed(_usuario_do_feed(request), credencial_vigente(request, acesso))
    if token is None:
        raise ErroHttp(401, "a credencial deste pedido deixou de valer; entre de novo")
    caminho = f"/api/v1/feed/{token}.ics"
    return {"url": str(request.base_url).rstrip("/") + caminho, "caminho": caminho}


@rotas.delete(
    "/feed",
    status_code=204,
    summary="Revoga o calendário privado do usuário (o endereço deixa de valer na hora)",
)
def revogar_feed(request: Request) -> Response:
    if not _acesso(request).revogar_feed(_usuario_do_feed(request)):
        raise nao_encontrado("este usuário não tem calendário privado")
    return Response(status_code=204)


@rotas.get(
    "/processos/{processo_id}/calendario.ics",
    summary="Os prazos de um processo salvo em iCalendar (um evento por prazo)",
    responses={200: resposta("O calendário do processo", tipo="text/calendar")},
)
def calendario_do_processo(
    request: Request, ciclo_do_app: CicloDoApp, processo_id: IdNoCaminho
) -> Response:
    numero = _id_valido(processo_id)
    prazos = ciclo_do_app.todos_os_prazos(processo_id=numero)
    return _ics(prazos, f"multas-processo-{numero}.ics")


@rotas.get(
    "/listas/{qual}",
    summary="Uma lista da ANP numa data: sancoes (art. 6º-A), balanco (art. 9º-A) ou "
    "encaminhamento (art. 6º, § 4º)",
    description="Em JSON, uma página dos itens (limite e deslocamento; `total` e o cabeçalho "
    "X-Total-Count dizem quantos a lista tem ao todo); CSV e PDF são a lista inteira.",
    responses={
        200: {
            "description": "A lista: JSON (o padrão), CSV (formato=csv) ou PDF (formato=pdf)",
            "headers": TOTAL_NO_CABECALHO[200]["headers"],
            "content": {
                "application/json": {"schema": {"type": "object"}},
                "text/csv": {"schema": {"type": "string"}},
                "application/pdf": {"schema": {"type": "string", "format": "binary"}},
            },
        }
    },
)
def lista(
    request: Request,
    ciclo_do_app: CicloDoApp,
    pagina: Lista,
    qual: Literal["sancoes", "balanco", "encaminhamento"],
    data: Annotated[
        date | None, DATA, Query(description="a lista nesta data (padrão: hoje)")
    ] = None,
    formato: Literal["json", "csv", "pdf"] = "json",
    ptbr: Annotated[
        bool, Query(description="CSV em notação brasileira: ';', 1.234,56, datas dd/mm/aaaa")
    ] = False,
) -> Response:
    conteudo = ciclo_do_app.lista(qual, data or hoje())
    nome = f"lista-{qual}-{conteudo['data']}"
    if formato == "csv":
        return Response(
            lista_csv(conteudo, ptbr),
            media_type="text/csv; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="{nome}.csv"'},
        )
    if formato == "pdf":
        return Response(
            lista_pdf(conteudo, agora()),
            media_type="application/pdf",
            headers={"Content-Disposition": f'attachment; filename="{nome}.pdf"'},
        )
    # derived from the list processos, not stored: no query can bound it, only the answer is
    total = len(conteudo["itens"])
    pedaco = conteudo | {"itens": pagina.fatia(conteudo["itens"]), "total": total}
    return _json(pedaco, cabecalhos=pagina.cabecalhos(total))


@rotas.get(
    "/carteira",
    summary="Os distribuidores da carteira, pelo CNPJ",
    description="Uma página da lista de distribuidores (limite e deslocamento contam "
    "distribuidores, não anos); o total no cabeçalho X-Total-Count.",
    responses=TOTAL_NO_CABECALHO,
)
def distribuidores(request: Request, ciclo_do_app: CicloDoApp, pagina: Lista) -> Response:
    total = ciclo_do_app.repo.contar_distribuidores()
    lista = ciclo_do_app.distribuidores(pagina.limite, pagina.deslocamento)
    return _json(lista, cabecalhos=pagina.cabecalhos(total))


@rotas.post(
    "/carteira",
    summary="Salva (ou substitui) um ano da carteira de um distribuidor",
    description="Campos: cnpj, ano, meta_cbios (ou meta_publicada, a meta com a falta do ano "
    "anterior, e falta_anterior), cbios_aposentados (ou aposentadorias, uma lista de "
    '{"data", "quantidade", "referencia_b3"}) (obrigatórios); nome, '
    "maior_media_mensal, faturamento_ano_meta e faturamento_ano_anterior, data_quitacao, "
    "prazo_comprovacao, diferir, segundo_ano_atuacao, meta_anterior_cumprida.",
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {
                    "example": {
                        "cnpj": "12.345.678/0001-95",
                        "nome": "Distribuidora Exemplo",
                        "ano": 2025,
                        "meta_cbios": 1000000,
                        "cbios_aposentados": 400000,
                        "maior_media_mensal": "71.70",
                    }
                }
            },
        }
    },
)
def salvar_ano(
    request: Request, ciclo_do_app: CicloDoApp, corpo: Corpo, usuario: Usuario = None
) -> Response:
    return _json(ciclo_do_app.salvar_ano(ler_corpo(corpo), quem(request, usuario)))


PrecoDiferido = Annotated[str | None, Query(description="ano_seguinte (padrão) ou ano_diferimento")]
DiferimentoExcedente = Annotated[str | None, Query(description="nenhum (padrão) ou parcial")]


def _leituras_da_consulta(
    request: Request, preco_diferido: str | None, diferimento_excedente: str | None
) -> dict[str, str]:
    """The ledger's readings from the query, also under the name an error gives them
    (``interpretacao.CHAVE``)."""
    leituras: dict[str, str] = {}
    for chave, valor in (
        ("preco_diferido", preco_diferido),
        ("diferimento_excedente", diferimento_excedente),
    ):
        pontuado = request.query_params.get(f"interpretacao.{chave}")
        if valor is not None and pontuado is not None and valor != pontuado:
            raise EntradaInvalida(
                f"interpretacao.{chave}", "informada duas vezes, com valores diferentes"
            )
        if (valor if valor is not None else pontuado) is not None:
            leituras[chave] = valor if valor is not None else str(pontuado)
    for nome in request.query_params:
        if (
            nome.startswith("interpretacao.")
            and nome.removeprefix("interpretacao.") not in leituras
        ):
            leituras[nome.removeprefix("interpretacao.")] = request.query_params[nome]
    return leituras


@rotas.get("/carteira/distribuidor", summary="A carteira de um distribuidor, ano a ano")
def carteira(
    request: Request,
    ciclo_do_app: CicloDoApp,
    cnpj: Annotated[str, Query(max_length=64)],
    preco_diferido: PrecoDiferido = None,
    diferimento_excedente: DiferimentoExcedente = None,
) -> Response:
    leituras = _leituras_da_consulta(request, preco_diferido, diferimento_excedente)
    return _json(ciclo_do_app.carteira(cnpj, leituras or None))


#: the ledger's export formats and their media types
TIPOS_CARTEIRA = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "pdf": "application/pdf",
}


@rotas.get(
    "/carteira/distribuidor/exportar",
    summary="A carteira de um distribuidor, ano a ano, em CSV, XLSX ou PDF",
    description="O que GET /api/v1/carteira/distribuidor mostra, para baixar: cada ano com "
    "meta, CBIOs, falta, diferimento, multa, prazo, quitação e situação. formato=csv (o "
    "padrão; com ptbr=true, ';', números 1.234,56 e datas dd/mm/aaaa), xlsx (a multa como "
    "número com formato R$, datas como datas) ou pdf.",
    responses={
        200: {
            "description": "A carteira no formato pedido",
            "content": {
                tipo: {"schema": {"type": "string", "format": "binary"}}
                for tipo in TIPOS_CARTEIRA.values()
            },
        }
    },
)
def exportar_carteira(
    request: Request,
    ciclo_do_app: CicloDoApp,
    cnpj: Annotated[str, Query(max_length=64)],
    formato: Literal["csv", "xlsx", "pdf"] = "csv",
    ptbr: Annotated[bool, Query(description="CSV em notação brasileira")] = False,
    preco_diferido: PrecoDiferido = None,
    diferimento_excedente: DiferimentoExcedente = None,
) -> Response:
    from multas.saidas.exportar import carteira_csv, carteira_pdf, carteira_xlsx

    leituras = _leituras_da_consulta(request, preco_diferido, diferimento_excedente)
    dados = ciclo_do_app.carteira(cnpj, leituras or None)
    conteudo: bytes | str
    if formato == "xlsx":
        conteudo = carteira_xlsx(dados)
    elif formato == "pdf":
        conteudo = carteira_pdf(dados, agora())
    else:
        conteudo = carteira_csv(dados, ptbr)
    nome = "carteira-" + "".join(c for c in dados["cnpj"] if c.isalnum())
    return Response(
        conteudo,
        media_type=TIPOS_CARTEIRA[formato],
        headers={"Content-Disposition": f'attachment; filename="{nome}.{formato}"'},
    )


@rotas.delete("/carteira/distribuidor", status_code=204, summary="Exclui um ano da carteira")
def excluir_ano(
    request: Request,
    ciclo_do_app: CicloDoApp,
    cnpj: Annotated[str, Query(max_length=64)],
    ano: Annotated[int, INTEIRO, Query(ge=ANO_MINIMO, le=ANO_MAXIMO)],
    usuario: Usuario = None,
) -> Response:
    ciclo_do_app.excluir_ano(cnpj, ano, quem(request, usuario))
    return Response(status_code=204)


@rotas.post(
    "/carteira/conferir",
    summary="Confere a notificação da ANP de um ano com a carteira do distribuidor",
    description="O corpo são os números da notificação (ao menos um): meta_publicada, "
    "falta_anterior, cbios_aposentados, preco e valor_multa (e, se quiser, cnpj e ano, "
    "conferidos com os pedidos). Para cada número: o da ANP, o do distribuidor, se diferem e "
    "quanto a diferença vale em reais (a multa do ano recalculada só com aquele número trocado "
    "pelo da ANP, menos a multa do distribuidor; na multa, a diferença simples). Calcula, não "
    "grava nada.",
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {
                "application/json": {
                    "example": {
                        "meta_publicada": 1100000,
                        "falta_anterior": 100000,
                        "cbios_aposentados": 900000,
                        "preco": "71.70",
                        "valor_multa": "14340000.00",
                    }
                }
            },
        }
    },
)
def conferir(
    request: Request,
    ciclo_do_app: CicloDoApp,
    corpo: Corpo,
    cnpj: Annotated[str, Query(max_length=64)],
    ano: Annotated[int, INTEIRO, Query(ge=ANO_MINIMO, le=ANO_MAXIMO)],
    preco_diferido: Annotated[
        str | None, Query(description="ano_seguinte (padrão) ou ano_diferimento")
    ] = None,
    diferimento_excedente: Annotated[
        str | None, Query(description="nenhum (padrão) ou parcial")
    ] = None,
) -> Response:
    leituras = {
        chave: valor
        for chave, valor in (
            ("preco_diferido", preco_diferido),
            ("diferimento_excedente", diferimento_excedente),
        )
        if valor is not None
    }
    from multas.nucleo.ciclo.conferir import ler_notificacao

    notificacao = ler_notificacao(ler_corpo(corpo))
    return _json(ciclo_do_app.conferir(cnpj, ano, notificacao, leituras or None))


@rotas.post(
    "/carteira/importar",
    summary="Importa anos da carteira de um arquivo CSV, XLSX, JSON ou JSON Lines (o corpo)",
    description="Tudo ou nada: uma linha com erro não grava nenhuma. O arquivo pode ter até "
    "16 MiB.",
)
def importar(
    request: Request,
    ciclo_do_app: CicloDoApp,
    corpo: Corpo,
    formato: Literal["csv", "xlsx", "json", "jsonl"] = "csv",
    ptbr: Annotated[bool, Query(description="CSV com ';' e números 1.234,56")] = False,
    usuario: Usuario = None,
) -> Response:
    from multas.nucleo.arquivos import SERVIDOR
    from multas.nucleo.ciclo.planilha import colunas_da_carteira, ler_planilha

    with uma_por_vez():
        lida = ler_planilha(
            corpo, f"carteira.{formato}", ptbr, SERVIDOR, colunas=colunas_da_carteira()
        )
        resumo = ciclo_do_app.importar_planilha(lida, quem(request, usuario))
    return _json(resumo)
