"""The processos file on the API (issue 19, item 4): ``POST /api/v1/processos/importar`` (the
file is the body) and ``GET /api/v1/processos/exportar``, the format of
:mod:`multas.servicos.importar`. Included before :mod:`multas.servidor.api_ciclo`, so that
``/api/v1/processos/exportar`` is this route and not ``/api/v1/processos/{processo_id}``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from fastapi.routing import APIRoute
from starlette.routing import Match
from starlette.types import Scope

from multas.nucleo.arquivos import SERVIDOR
from multas.nucleo.json_exato import despejar_json
from multas.servicos.cargas import uma_por_vez
from multas.servicos.exportar_processos import exportar_processos
from multas.servicos.importar import importar_processos, ler_arquivo
from multas.servicos.relogio import hoje
from multas.servidor.erros import CONFLITO, ERROS_API
from multas.servidor.pedido import CicloDoApp, Corpo, Usuario, quem


class RotaExclusiva(APIRoute):
    """A route whose path is a literal word where another route has a parameter
    (``/api/v1/processos/importar`` beside ``/api/v1/processos/{processo_id}``): the path is its
    own for every method, so another method gets its 405 (``Allow`` naming its methods,
    :func:`multas.servidor.erros.metodos_permitidos`), never the other route's 422 about a
    processo numbered "importar"."""

    exclusiva = True

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        combinacao, filho = super().matches(scope)
        return (Match.FULL if combinacao == Match.PARTIAL else combinacao), filho


rotas = APIRouter(prefix="/api/v1", responses=ERROS_API, tags=["ciclo"], route_class=RotaExclusiva)


# as in multas.servidor.api_ciclo (a module of the same layer, which this one does not import)

#: the export's media types
TIPOS_EXPORTACAO = {"csv": "text/csv; charset=utf-8", "jsonl": "application/x-ndjson"}


@rotas.post(
    "/processos/importar",
    summary="Cria ou completa processos a partir de um arquivo CSV, XLSX ou JSON Lines (o corpo)",
    description="Uma linha por evento, com `referencia` (o nº do processo na ANP; `id` é o "
    "outro nome), `tipo`, `cnpj`, `nome`, `evento` e `data`, e, se houver, `valor_multa`, "
    "`calendario`, `dias_sem_expediente` e `caso_id` (veja docs/ciclo.md). A referência é a "
    "chave: cria o processo que não existe e acrescenta a um salvo os eventos que ele ainda não "
    "tem; uma linha igual a um evento salvo é pulada e contada. Tudo ou nada: uma linha com "
    "erro, ou em conflito com o que está salvo, não grava nenhuma, e o erro diz a linha. O "
    "arquivo pode ter até 16 MiB.",
    responses={409: CONFLITO[409]},
)
def importar(
    request: Request,
    ciclo_do_app: CicloDoApp,
    corpo: Corpo,
    formato: Literal["csv", "xlsx", "jsonl"] = "csv",
    ptbr: Annotated[bool, Query(description="CSV com ';' e números 1.234,56")] = False,
    usuario: Usuario = None,
) -> Response:
    with uma_por_vez():
        lida = ler_arquivo(corpo, f"processos.{formato}", ptbr, SERVIDOR)
        resumo = importar_processos(ciclo_do_app, lida, quem(request, usuario))
    return Response(despejar_json(resumo, compacto=True), media_type="application/json")


@rotas.get(
    "/processos/exportar",
    summary="Todos os processos salvos no formato da importação (uma linha por evento)",
    description="Exportar e importar de novo (num banco vazio) dá os mesmos processos, com os "
    "mesmos eventos e prazos. No CSV, uma célula que uma planilha leria como fórmula ganha um "
    "apóstrofo na frente, que a importação tira.",
    responses={
        200: {
            "description": "Os processos: CSV (formato=csv, o padrão) ou JSON Lines "
            "(formato=jsonl)",
            "content": {
                "text/csv": {"schema": {"type": "string"}},
                "application/x-ndjson": {"schema": {"type": "string"}},
            },
        },
        409: CONFLITO[409],
    },
)
def exportar(
    request: Request,
    ciclo_do_app: CicloDoApp,
    formato: Literal["csv", "jsonl"] = "csv",
    ptbr: Annotated[
        bool,
        Query(
            description="CSV em notação brasileira: ';', 1.234,56, datas dd/mm/aaaa (importe "
            "com ptbr=true)"
        ),
    ] = False,
) -> Response:
    nome = f"processos-{hoje().isoformat()}.{formato}"
    return Response(
        exportar_processos(ciclo_do_app, formato, ptbr),
        media_type=TIPOS_EXPORTACAO[formato],
        headers={"Content-Disposition": f'attachment; filename="{nome}"'},
    )
