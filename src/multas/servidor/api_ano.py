"""The RenovaBio year through the API (issue 19): ``POST /api/v1/ano`` gives every row's
result and the summary, ``POST /api/v1/ano/notificacoes`` the notices and the summary as a ZIP.
The body is read raw with the exact JSON reader; everything is computed by
:mod:`multas.servicos.ano`, as ``multas ano calcular`` does."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response

from multas.nucleo.contrato import JSON
from multas.nucleo.json_exato import despejar_json
from multas.servidor.erros import ERROS_API
from multas.servidor.pedido import Corpo
from multas.servidor.servico import ler_corpo

rotas = APIRouter(prefix="/api/v1", responses=ERROS_API, tags=["ano"])

_DESCRICAO = (
    'O corpo é `{"ano": 2024, "distribuidores": [...], "cotacoes": [...]}`, com '
    "`coluna_preco`, `interpretacao` e `data_notificacao` opcionais. Cada distribuidor é uma "
    "linha como a do arquivo de `multas ano calcular` (cnpj, nome, cbios_aposentados e uma de "
    "meta_publicada e meta_cbios, ...); as cotações, `{data, preco}` por dia ou "
    "`{mes, media}` por mês. Até 5.000 distribuidores e 16 MiB por pedido."
)


def _calcular(corpo: bytes, com_calculo: bool) -> tuple[Any, dict[str, Any]]:
    from multas.nucleo.legislacao import carregar
    from multas.servicos.ano import calcular_ano, ler_pedido

    pedido = ler_pedido(ler_corpo(corpo))
    resultado = calcular_ano(
        pedido.linhas,
        pedido.locais,
        JSON,
        pedido.ano,
        pedido.cotacoes,
        carregar(),
        pedido.interpretacao,
        com_calculo=com_calculo,
    )
    return pedido, resultado


@rotas.post(
    "/ano", summary="O ano do RenovaBio: a multa de cada distribuidor", description=_DESCRICAO
)
def ano(corpo: Corpo) -> Response:
    _, resultado = _calcular(corpo, com_calculo=False)
    return Response(
        despejar_json(
            {"linhas": resultado["linhas"], "resumo": resultado["resumo"]}, compacto=True
        ),
        media_type="application/json",
    )


@rotas.post(
    "/ano/notificacoes",
    summary="As notificações do ano em PDF (uma por distribuidor multado) e o resumo, num ZIP",
    description=_DESCRICAO,
)
def ano_notificacoes(corpo: Corpo) -> Response:
    from multas.nucleo.legislacao import carregar
    from multas.servicos.ano import zip_do_ano

    pedido, resultado = _calcular(corpo, com_calculo=True)
    return Response(
        zip_do_ano(resultado, pedido.ano, carregar(), pedido.data_notificacao),
        media_type="application/zip",
        headers={"Content-Disposition": f'attachment; filename="ano-{pedido.ano}.zip"'},
    )
