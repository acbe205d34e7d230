"""The HTTP API, ``/api/v1``: the body and the result of ``/calcular`` are exactly the
case-file contract (spec § 3). Bodies are read raw and parsed with exact decimals
(:func:`multas.nucleo.json_exato.ler_json`), never through pydantic, which would make floats of them.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Header, Query, Request
from fastapi import Path as Caminho
from fastapi.responses import JSONResponse, Response

from multas import __version__
from multas.nucleo.catalogo import (
    descrever_calendario,
    descrever_legislacao,
    descrever_regimes,
    ler_ano_calendario,
)
from multas.nucleo.motor import calcular_resultado
from multas.servicos.persistencia import MAIOR_ID, Caso
from multas.servicos.relogio import hoje
from multas.servidor.erros import CONFLITO, ERROS_API, nao_encontrado
from multas.servidor.openapi import corpo_caso, corpo_processo, resposta, resposta_relatorio
from multas.servidor.paginacao import TOTAL_NO_CABECALHO, Lista, Pagina, paginacao
from multas.servidor.parametros import DATA, INTEIRO
from multas.servidor.pedido import Corpo, ServicoDoApp, quem, servico
from multas.servidor.resposta import relatorio
from multas.servidor.servico import caso_json, ler_corpo, resumo_json, texto_do_corpo

rotas = APIRouter(prefix="/api/v1", responses=ERROS_API)

Usuario = Annotated[
    str | None,
    Header(
        alias="X-Usuario",
        description='Quem faz a operação, para a auditoria (padrão: "anônimo"); com '
        "autenticação, ignorado: vale o usuário do token",
    ),
]
IdCaso = Annotated[int, INTEIRO, Caminho(ge=1, le=MAIOR_ID, description="o número do caso salvo")]
ChaveIdempotencia = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        max_length=200,
        description="Uma chave única por caso (ex.: um UUID): repetir o pedido com a mesma "
        "chave e o mesmo corpo devolve o caso já salvo, sem salvar de novo.",
    ),
]
Formato = Annotated[
    Literal["pdf", "html"], Query(description="pdf (para baixar) ou html (para ver e imprimir)")
]


def _json(texto: str, status: int = 200, cabecalhos: dict[str, str] | None = None) -> Response:
    return Response(texto, status_code=status, media_type="application/json", headers=cabecalhos)


@rotas.post(
    "/calcular",
    summary="Calcula um caso",
    description="O corpo é um caso do contrato; a resposta, o resultado com a memória de cálculo.",
    openapi_extra=corpo_caso(),
    responses={200: resposta("O resultado, com a memória de cálculo", "Resultado")},
    tags=["cálculo"],
)
async def calcular(request: Request) -> Response:
    # the hot path: the body is read here (no dependency to solve), and the case, CPU-bound
    # and sub-millisecond, is computed on the event loop, with no thread hop
    corpo = await request.body()
    resultado = calcular_resultado(
        ler_corpo(corpo), legislacao=servico(request).legislacao, hoje=hoje()
    )
    return JSONResponse(resultado.como_dict())


@rotas.post(
    "/prazos",
    summary="Deriva o estado e os prazos de um processo (veja docs/ciclo.md)",
    description="O corpo é um processo: `{tipo, eventos: [{evento, data}], interpretacao?, id?, "
    "cnpj?, nome?}`. A resposta traz o estado e cada prazo com o dispositivo (`fundamento`) e "
    "como a data foi contada (`contagem`), ordenados por data e nome.",
    openapi_extra=corpo_processo(),
    responses={200: resposta("O estado, os prazos e os avisos do processo", "Prazos")},
    tags=["ciclo"],
)
async def prazos(
    request: Request,
    servico_do_app: ServicoDoApp,
    em: Annotated[
        date | None,
        DATA,
        Query(
            description="Julgar nesta data, no lugar de data_referencia: o valor devido nesse dia"
        ),
    ] = None,
) -> Response:
    from multas.nucleo.ciclo import calcular_prazos

    corpo = await request.body()
    return JSONResponse(
        calcular_prazos(ler_corpo(corpo), servico_do_app.legislacao, hoje=hoje(), em=em)
    )


@rotas.get("/regimes", summary="Os regimes, seus campos e leituras", tags=["referência"])
def regimes() -> list[dict[str, Any]]:
    return descrever_regimes()


@rotas.get(
    "/legislacao",
    summary="O histórico datado de cada parâmetro legal, com fontes",
    tags=["referência"],
)
def legislacao(
    parametro: Annotated[str, Query(description="só os parâmetros cujo nome começa assim")] = "",
) -> dict[str, Any]:
    return descrever_legislacao(parametro)


@rotas.get(
    "/calendario/{ano}",
    summary="Os dias sem expediente integral do calendário federal de um ano",
    tags=["referência"],
)
def calendario(ano: str, request: Request, servico_do_app: ServicoDoApp) -> dict[str, Any]:
    return descrever_calendario(ler_ano_calendario(ano), servico_do_app.legislacao)


@rotas.get("/versao", summary="Versões do motor e dos dados da legislação", tags=["referência"])
def versao(request: Request, servico_do_app: ServicoDoApp) -> dict[str, str]:
    return {"motor": __version__, "legislacao": servico_do_app.legislacao.versao}


@rotas.post(
    "/relatorio",
    summary="Relatório (PDF ou HTML) da memória de cálculo de um caso",
    openapi_extra=corpo_caso(),
    responses={200: resposta_relatorio()},
    tags=["cálculo"],
)
def relatorio_do_caso(
    request: Request, servico_do_app: ServicoDoApp, corpo: Corpo, formato: Formato = "pdf"
) -> Response:
    dados = ler_corpo(corpo)
    calculo = servico_do_app.calcular(dados)
    return relatorio(servico_do_app, calculo.resultado, dados, formato)


@rotas.post(
    "/casos",
    status_code=201,
    summary="Calcula e salva um caso",
    description="Guarda o caso como recebido, o resultado, as versões do motor e da "
    "legislação e a hora (UTC); a auditoria registra quem salvou.",
    openapi_extra=corpo_caso(),
    responses={201: resposta("O caso salvo", "CasoSalvo")},
    tags=["casos salvos"],
)
def criar_caso(
    request: Request,
    servico_do_app: ServicoDoApp,
    corpo: Corpo,
    usuario: Usuario = None,
    chave: ChaveIdempotencia = None,
) -> Response:
    texto = texto_do_corpo(corpo)
    caso, repetido = servico_do_app.salvar(texto, quem(request, usuario), "api", chave)
    cabecalhos = {"Location": f"/api/v1/casos/{caso.id}"}
    if repetido:
        cabecalhos["Idempotent-Replayed"] = "true"
    return _json(caso_json(caso), 201, cabecalhos)


@rotas.get(
    "/casos",
    summary="Lista os casos salvos, do mais novo ao mais antigo",
    tags=["casos salvos"],
    responses=TOTAL_NO_CABECALHO,
)
def listar_casos(
    request: Request,
    response: Response,
    servico_do_app: ServicoDoApp,
    pagina: Lista,
    regime: Annotated[str | None, Query(description="só os deste regime")] = None,
    cnpj: Annotated[
        str | None,
        Query(
            description="só os casos deste CNPJ, em qualquer grafia (11.222.333/0001-81 ou "
            "11222333000181)"
        ),
    ] = None,
) -> dict[str, Any]:
    from multas.nucleo.cnpj import ler_filtro

    repositorio = servico_do_app.repositorio
    cnpj = ler_filtro(cnpj, "cnpj")  # a text without a CNPJ's shape: 422 naming cnpj
    casos = repositorio.listar(pagina.limite, pagina.deslocamento, regime, cnpj)
    alterados = repositorio.alterados(casos)
    total = repositorio.contar(regime, cnpj)
    corpo: dict[str, Any] = {
        "total": total,
        "casos": [
            # a case that does not match its record: listed, flagged, its amount not shown
            resumo_json(c)
            | ({"valor": None, "integro": False} if c.id in alterados else {"integro": True})
            for c in casos
        ],
    }
    response.headers.update(pagina.cabecalhos(total))
    return corpo


def _caso(request: Request, caso_id: IdCaso) -> Caso:
    caso = servico(request).repositorio.obter(caso_id)
    if caso is None:
        raise nao_encontrado(f"caso {caso_id} não encontrado")
    return caso


@rotas.get(
    "/casos/{caso_id}",
    summary="Um caso salvo, exatamente como foi salvo",
    responses={200: resposta("O caso salvo", "CasoSalvo"), **CONFLITO},
    tags=["casos salvos"],
)
def obter_caso(request: Request, caso_id: IdCaso) -> Response:
    return _json(caso_json(_caso(request, caso_id)))


@rotas.delete(
    "/casos/{caso_id}",
    status_code=204,
    summary="Exclui um caso salvo: vai para a lixeira (a auditoria guarda quem excluiu)",
    tags=["casos salvos"],
)
def excluir_caso(
    request: Request, servico_do_app: ServicoDoApp, caso_id: IdCaso, usuario: Usuario = None
) -> Response:
    if not servico_do_app.repositorio.excluir(caso_id, quem(request, usuario)):
        raise nao_encontrado(f"caso {caso_id} não encontrado")
    return Response(status_code=204)


TipoLixeira = Annotated[
    Literal["caso", "processo", "carteira"],
    Caminho(description="caso, processo ou carteira (um ano da carteira)"),
]
IdLixeira = Annotated[
    int, INTEIRO, Caminho(ge=1, le=MAIOR_ID, description="o número do registro na lixeira")
]


@rotas.get(
    "/lixeira",
    summary="O que está na lixeira: casos, processos e anos da carteira excluídos (admin), "
    "o excluído mais recentemente primeiro",
    tags=["lixeira"],
    responses=TOTAL_NO_CABECALHO,
)
def listar_lixeira(request: Request, servico_do_app: ServicoDoApp, pagina: Lista) -> Response:
    from multas.nucleo.json_exato import despejar_json
    from multas.servicos.persistencia import lixeira

    repositorio = servico_do_app.repositorio
    total = lixeira.contar(repositorio)
    itens = lixeira.listar(repositorio, pagina.limite, pagina.deslocamento)
    corpo = {
        "dias_na_lixeira": lixeira.DIAS_NA_LIXEIRA,
        "total": total,
        "itens": [i.como_dict() for i in itens],
    }
    return _json(despejar_json(corpo), cabecalhos=pagina.cabecalhos(total))


@rotas.post(
    "/lixeira/{tipo}/{registro_id}/restaurar",
    summary="Restaura um registro da lixeira, dentro do prazo e sem conflito (admin)",
    tags=["lixeira"],
)
def restaurar_da_lixeira(
    request: Request,
    servico_do_app: ServicoDoApp,
    tipo: TipoLixeira,
    registro_id: IdLixeira,
    usuario: Usuario = None,
) -> Response:
    from multas.nucleo.json_exato import despejar_json
    from multas.servicos.persistencia import lixeira

    item = lixeira.restaurar(servico_do_app.repositorio, tipo, registro_id, quem(request, usuario))
    return _json(despejar_json(item.como_dict()))


@rotas.get(
    "/casos/{caso_id}/relatorio",
    summary="Relatório (PDF ou HTML) de um caso salvo, com o resultado salvo",
    responses={200: resposta_relatorio(), **CONFLITO},
    tags=["casos salvos"],
)
def relatorio_salvo(
    request: Request, servico_do_app: ServicoDoApp, caso_id: IdCaso, formato: Formato = "pdf"
) -> Response:
    from multas.nucleo.json_exato import ler_json

    caso = _caso(request, caso_id)
    return relatorio(servico_do_app, caso.resultado_dict(), ler_json(caso.entrada), formato, caso)


#: the audit's pages: 200 rows unless asked, at most 1000 (as before the others had pages)
PaginaDaAuditoria = Annotated[Pagina, paginacao(padrao=200, maximo=1000)]


@rotas.get(
    "/auditoria",
    summary="O registro de auditoria (somente inclusão), do mais antigo ao mais novo",
    tags=["casos salvos"],
    responses=TOTAL_NO_CABECALHO,
)
def auditoria(
    request: Request,
    response: Response,
    servico_do_app: ServicoDoApp,
    pagina: PaginaDaAuditoria,
    caso_id: Annotated[
        int | None, INTEIRO, Query(ge=1, le=MAIOR_ID, description="só os registros deste caso")
    ] = None,
) -> list[dict[str, Any]]:
    repositorio = servico_do_app.repositorio
    response.headers.update(pagina.cabecalhos(repositorio.contar_auditoria(caso_id)))
    registros = repositorio.auditoria(caso_id, pagina.limite, deslocamento=pagina.deslocamento)
    return [
        {
            "id": r.id,
            "momento": r.momento.isoformat(),
            "usuario": r.usuario,
            "acao": r.acao,
            "caso_id": r.caso_id,
            "regime": r.regime,
            "detalhe": r.detalhe,
            "tabela": r.tabela,
            "registro_id": r.registro_id,
            "operacao": r.operacao,
        }
        for r in registros
    ]


@rotas.get(
    "/auditoria/clientes",
    summary="O registro de auditoria dos registros que o usuário pode ler (o de um usuário "
    "limitado a clientes: só os desses clientes)",
    tags=["casos salvos"],
    responses=TOTAL_NO_CABECALHO,
)
def auditoria_dos_clientes(
    request: Request,
    response: Response,
    servico_do_app: ServicoDoApp,
    pagina: PaginaDaAuditoria,
) -> list[dict[str, Any]]:
    repositorio = servico_do_app.repositorio
    response.headers.update(pagina.cabecalhos(repositorio.contar_auditoria_dos_registros()))
    registros = repositorio.auditoria_dos_registros(pagina.limite, deslocamento=pagina.deslocamento)
    return [
        {
            "id": r.id,
            "momento": r.momento.isoformat(),
            "usuario": r.usuario,
            "acao": r.acao,
            "caso_id": r.caso_id,
            "regime": r.regime,
            "tabela": r.tabela,
            "registro_id": r.registro_id,
            "operacao": r.operacao,
        }
        for r in registros
    ]
