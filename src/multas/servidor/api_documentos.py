"""A stored processo's events with their documents (spec § 6.2 v4, issue 35 item 5), in the
API: ``POST /api/v1/processos/{id}/eventos`` takes the event as a JSON body, or as a
``multipart/form-data`` body whose part ``evento`` is that JSON and whose parts ``documento``
(repeatable) are its files; ``GET /api/v1/processos/{id}/documentos/{sha256}`` downloads one.

The files are checked by :func:`multas.servicos.documentos.anexos` (PDF, PNG or JPEG by their
first bytes, at most 20 MiB each and 20 per event; an error names ``documentos[i]``) and stored
with the event by :meth:`multas.servicos.gestao.Ciclo.acrescentar`, all or nothing.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from fastapi.responses import Response

from multas.nucleo.ciclo.documentos import MAXIMO_BYTES, MAXIMO_POR_EVENTO, TIPOS
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.ids import id_valido
from multas.nucleo.json_exato import despejar_json
from multas.servicos.documentos import anexos
from multas.servicos.gestao import NaoEncontrado
from multas.servicos.relogio import hoje
from multas.servidor.erros import ERROS_API
from multas.servidor.openapi import resposta
from multas.servidor.parametros import IdNoCaminho
from multas.servidor.pedido import (
    CAMPO_DOCUMENTO,
    CicloDoApp,
    EventoDaApi,
    EventoEnviado,
    Usuario,
    quem,
)
from multas.servidor.resposta import documento_para_baixar
from multas.servidor.servico import ler_corpo

rotas = APIRouter(prefix="/api/v1", responses=ERROS_API, tags=["ciclo"])

Sha256 = Annotated[
    str,
    Path(
        pattern="^[0-9a-f]{64}$",
        description="o SHA-256 do conteúdo do documento (64 dígitos hexadecimais minúsculos), "
        "como o evento o registra em `documentos`",
    ),
]

#: the event's JSON object, as both bodies carry it
_EVENTO: dict[str, Any] = {
    "type": "object",
    "required": ["evento", "data"],
    "properties": {
        "evento": {"type": "string"},
        "data": {"type": "string", "format": "date"},
    },
}
_EXEMPLO = {"evento": "quitacao_meta", "data": "2026-03-10"}
#: the ``requestBody`` of the event: JSON, or multipart with the files
CORPO_DO_EVENTO: dict[str, Any] = {
    "requestBody": {
        "required": True,
        "content": {
            "application/json": {
                "schema": _EVENTO | {"additionalProperties": False},
                "example": _EXEMPLO,
            },
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "required": ["evento"],
                    "additionalProperties": False,
                    "properties": {
                        "evento": _EVENTO
                        | {"description": "o evento: o mesmo objeto JSON do corpo em JSON"},
                        CAMPO_DOCUMENTO: {
                            "type": "array",
                            "maxItems": MAXIMO_POR_EVENTO,
                            "items": {"type": "string", "format": "binary"},
                            "description": "os documentos do evento (a parte se repete, um "
                            f"arquivo em cada): PDF, PNG ou JPEG, até {MAXIMO_BYTES // 2**20} "
                            f"MiB cada, até {MAXIMO_POR_EVENTO}",
                        },
                    },
                },
                "encoding": {"evento": {"contentType": "application/json"}},
            },
        },
    }
}


def _evento(enviado: EventoEnviado) -> tuple[object, list[Any]]:
    """The event's JSON and its files: the body, or the multipart's parts."""
    if not enviado.multipart:
        return ler_corpo(enviado.corpo), []
    for nome in enviado.campos:
        if nome != "evento":
            raise EntradaInvalida(
                nome,
                f"parte desconhecida: envie só evento (o JSON) e {CAMPO_DOCUMENTO} (os arquivos)",
            )
    if "evento" not in enviado.campos:
        raise EntradaInvalida("evento", "campo obrigatório: a parte evento, com o evento em JSON")
    return ler_corpo(enviado.campos["evento"].encode("utf-8")), anexos(enviado.arquivos)


@rotas.post(
    "/processos/{processo_id}/eventos",
    status_code=201,
    summary="Acrescenta um evento, com os seus documentos; um evento que o § 6 recusa não é "
    "gravado (422)",
    description="O corpo é o evento em JSON, ou um formulário `multipart/form-data` com a parte "
    "`evento` (o mesmo JSON) e uma parte `documento` por arquivo (PDF, PNG ou JPEG, lidos pelo "
    f"conteúdo; até {MAXIMO_BYTES // 2**20} MiB cada e {MAXIMO_POR_EVENTO} por evento; um erro "
    "nomeia `documentos[i]`). Os documentos vão para `documentos` do evento (sha256, nome, tipo, "
    "bytes) e se baixam em `GET /api/v1/processos/{processo_id}/documentos/{sha256}`. O corpo "
    "em JSON tem até 1 MiB; o formulário com os arquivos, até 401 MiB.",
    openapi_extra=CORPO_DO_EVENTO,
)
def acrescentar_evento(
    request: Request,
    c: CicloDoApp,
    processo_id: IdNoCaminho,
    enviado: EventoDaApi,
    usuario: Usuario = None,
) -> Response:
    if not id_valido(processo_id):
        raise NaoEncontrado(f"processo {processo_id} não encontrado")
    dados, lista = _evento(enviado)
    derivado = c.acrescentar(processo_id, dados, quem(request, usuario), lista)
    return Response(
        despejar_json(c.detalhe(derivado, hoje()), compacto=True),
        status_code=201,
        media_type="application/json",
    )


@rotas.get(
    "/processos/{processo_id}/documentos/{sha256}",
    summary="Baixa um documento de um evento do processo",
    description="O conteúdo como foi enviado, com o seu tipo (PDF, PNG ou JPEG) e o seu nome. "
    "Um processo fora do alcance do usuário, ou um documento que nenhum evento dele tem, é 404; "
    "um conteúdo alterado ou apagado fora do sistema nunca é servido (409).",
    responses={
        200: {
            "description": "O documento",
            "content": {tipo: {"schema": {"type": "string", "format": "binary"}} for tipo in TIPOS},
        },
        409: resposta(
            "O documento não confere com o hash registrado no evento (alterado fora do sistema) "
            "ou sumiu do armazenamento: não é servido",
            "Erro",
        ),
    },
)
def baixar_documento(request: Request, processo_id: IdNoCaminho, sha256: Sha256) -> Response:
    return documento_para_baixar(request, processo_id, sha256)
