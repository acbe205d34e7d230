"""The RenovaBio year's page (issue 19), in pt-BR: the distributors file and the quotes file
sent by a form, every distributor's fine and the year's summary shown, and the results CSV
and the notices ZIP to download. Everything is computed by :mod:`multas.servicos.ano`, read by
the readers of ``multas ano calcular`` (:func:`multas.nucleo.ciclo.planilha.ler_planilha`,
:func:`multas.nucleo.cotacoes.ler_serie`), with the server's file limits; nothing is stored.

The form works without JavaScript. The result page carries both files back (base64, in
hidden fields) in the form of its download buttons, so the CSV and the ZIP are computed again
from the same files, never kept on the server.
"""

from __future__ import annotations

import base64
import binascii
import io
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from multas.nucleo.arquivos import SERVIDOR, diz_a_coluna
from multas.nucleo.ciclo.planilha import FORMATOS, Colunas, Planilha
from multas.nucleo.cnpj import formatar, normalizar
from multas.nucleo.contrato import Leitura
from multas.nucleo.cotacoes import Serie
from multas.nucleo.datas import formatar_mes
from multas.nucleo.dinheiro import formatar_brl, formatar_numero, formatar_preco
from multas.nucleo.erros import EntradaInvalida, mostrar_valor
from multas.servidor.formulario import ler_colunas_do_formulario, no_campo_das_colunas
from multas.servidor.pedido import (
    ArquivoEnviado,
    CamposEArquivos,
    FormularioComArquivos,
    ServicoDoApp,
)
from multas.servidor.resposta import render

rotas = APIRouter(include_in_schema=False)

#: the form's files: (field, label)
ARQUIVOS = (
    ("distribuidores", "Arquivo dos distribuidores"),
    ("cotacoes", "Arquivo das cotações do CBIO"),
)
#: each file's ``--coluna`` (CAMPO=CABEÇALHO, one a line): file → field
COLUNAS = {campo: f"colunas_{campo}" for campo, _ in ARQUIVOS}
#: every field's label, for the error shown above the form
ROTULOS = dict(ARQUIVOS) | {
    "ano": "Ano da meta",
    "data_notificacao": "Data da notificação",
    "coluna_preco": "Coluna do preço diário",
    "colunas_distribuidores": "Colunas dos distribuidores",
    "colunas_cotacoes": "Colunas das cotações",
}
#: the form's text fields sent back as they were
CAMPOS_TEXTO = ("ano", "data_notificacao", "coluna_preco", "ptbr", *COLUNAS.values())
_TEXTO_DA_PAGINA = Leitura(tabela=True)


@dataclass(frozen=True, slots=True)
class PedidoDaPagina:
    """The page's form, read: the year, the rows, the quotes and the files as sent."""

    ano: int
    distribuidores: Planilha
    cotacoes: Serie
    data_notificacao: date | None
    arquivos: dict[str, ArquivoEnviado]
    #: how each file was read (the file's label, its name, what the reader said)
    leituras: list[tuple[str, str, list[str]]]


def _no_campo(campo: str, erro: EntradaInvalida) -> EntradaInvalida:
    """An error read from a file, as the form's field: its message keeps where in the file
    (``linha 3, coluna preco: …``), or names the column when it does not say it."""
    if erro.campo in (None, "arquivo", campo) or diz_a_coluna(erro):
        return EntradaInvalida(campo, erro.mensagem)
    return EntradaInvalida(campo, f"coluna {erro.campo}: {erro.mensagem}")


def _arquivo(enviado: FormularioComArquivos, campo: str) -> ArquivoEnviado:
    """The file of ``campo``: the one chosen, or the one the result page carries back."""
    arquivo = enviado.arquivos.get(campo)
    if arquivo is None or not (arquivo.nome or arquivo.conteudo):
        texto, nome = enviado.campos.get(f"{campo}_conteudo"), enviado.campos.get(f"{campo}_nome")
        if not texto or not nome:
            raise EntradaInvalida(campo, "escolha o arquivo")
        try:
            arquivo = ArquivoEnviado(nome, base64.b64decode(texto, validate=True))
        except (binascii.Error, ValueError):
            raise EntradaInvalida(
                campo, "arquivo reenviado corrompido: escolha-o de novo"
            ) from None
    if not arquivo.conteudo.strip():
        raise EntradaInvalida(campo, f"o arquivo {mostrar_valor(arquivo.nome)} está vazio")
    return arquivo


def _mapa(campos: dict[str, str], campo: str) -> dict[str, str]:
    """A file's "Colunas" field (``--coluna``'s pairs, one a line)."""
    return ler_colunas_do_formulario(campos.get(COLUNAS[campo], ""), COLUNAS[campo])


def _nome(arquivo: ArquivoEnviado, padrao: str) -> str:
    """The browser's name for the file: printable characters only, and not too long."""
    return "".join(c for c in arquivo.nome if c.isprintable())[:200] or padrao


def _no_arquivo(campo: str, erro: EntradaInvalida) -> EntradaInvalida:
    """A file's error as the form's field: a ``--coluna`` one as its "Colunas" field."""
    if erro.campo == "--coluna":
        return no_campo_das_colunas(erro, COLUNAS[campo])
    return _no_campo(campo, erro)


def _planilha(arquivo: ArquivoEnviado, campo: str, ptbr: bool, colunas: Colunas) -> Planilha:
    from multas.nucleo.ciclo.planilha import ler_planilha

    try:
        planilha = ler_planilha(arquivo.conteudo, arquivo.nome, ptbr, SERVIDOR, colunas=colunas)
    except EntradaInvalida as erro:
        raise _no_arquivo(campo, erro) from None
    if not planilha.linhas:
        raise EntradaInvalida(
            campo, f"o arquivo {mostrar_valor(arquivo.nome)} não tem nenhuma linha"
        )
    return planilha


def ler_pedido_da_pagina(enviado: FormularioComArquivos) -> PedidoDaPagina:
    """The form's fields and files, each checked by the reader ``multas ano calcular`` uses;
    an error names the form's field (a file's error says its line and column)."""
    from multas.nucleo.ciclo.planilha import ler_cotacoes
    from multas.nucleo.datas import data_digitada
    from multas.servicos.ano import (
        COLUNAS_ENTRADA,
        MAXIMO_DISTRIBUIDORES,
        coluna_faltante,
        ler_ano_da_meta,
        ler_data_notificacao,
    )

    campos = enviado.campos
    texto_ano = campos.get("ano", "").strip()
    if texto_ano and not (texto_ano.isascii() and texto_ano.isdigit()):
        raise EntradaInvalida(
            "ano", f"deve ser um ano, ex.: 2024 (veio {mostrar_valor(texto_ano[:20])})"
        )
    ano = ler_ano_da_meta(texto_ano or None, _TEXTO_DA_PAGINA)
    texto_data = campos.get("data_notificacao", "").strip()
    data = ler_data_notificacao(
        data_digitada(texto_data, "data_notificacao") if texto_data else None, _TEXTO_DA_PAGINA
    )
    coluna_preco = campos.get("coluna_preco", "").strip() or "preco"
    if len(coluna_preco) > 60:
        raise EntradaInvalida("coluna_preco", "deve ser o nome de uma coluna")
    ptbr = bool(campos.get("ptbr"))
    mapas = {campo: _mapa(campos, campo) for campo in COLUNAS}
    arquivos = {campo: _arquivo(enviado, campo) for campo, _ in ARQUIVOS}
    distribuidores = _planilha(
        arquivos["distribuidores"],
        "distribuidores",
        ptbr,
        Colunas(COLUNAS_ENTRADA, mapa=mapas["distribuidores"]),
    )
    if len(distribuidores.linhas) > MAXIMO_DISTRIBUIDORES:
        raise EntradaInvalida(
            "distribuidores",
            f"no máximo {MAXIMO_DISTRIBUIDORES} distribuidores por arquivo "
            f"(veio {len(distribuidores.linhas)})",
        )
    if (falta := coluna_faltante(distribuidores.linhas)) is not None:
        raise EntradaInvalida(
            "distribuidores",
            f"o arquivo não tem a coluna {falta} (é o arquivo dos distribuidores?)",
        )
    nome = _nome(arquivos["cotacoes"], "cotações.csv")
    try:
        serie, lidas = ler_cotacoes(
            arquivos["cotacoes"].conteudo,
            nome,
            ptbr,
            SERVIDOR,
            coluna_preco=coluna_preco,
            mapa=mapas["cotacoes"],
        )
    except EntradaInvalida as erro:
        raise _no_arquivo("cotacoes", erro) from None
    leituras = [
        (
            dict(ARQUIVOS)["distribuidores"],
            _nome(arquivos["distribuidores"], "distribuidores"),
            [*distribuidores.avisos, *_levadas(distribuidores, "levadas ao resultado (CSV)")],
        ),
        (dict(ARQUIVOS)["cotacoes"], nome, [*lidas.avisos, *_levadas(lidas, "fora da leitura")]),
    ]
    return PedidoDaPagina(ano, distribuidores, serie, data, arquivos, leituras)


def _levadas(planilha: Planilha, destino: str) -> list[str]:
    """What the page says of a file's columns that name no field."""
    if not planilha.desconhecidas:
        return []
    return [f"colunas {destino} como estão: {', '.join(planilha.desconhecidas)}"]


# --- what the page shows ----------------------------------------------------------------------


def _cnpj(bruto: object) -> str:
    return formatar(normalizar(bruto)) if isinstance(bruto, str) else ""


def _inteiro(valor: object) -> str:
    return formatar_numero(str(valor)) if isinstance(valor, int) else "—"


def _linhas_visiveis(resultado: dict[str, Any]) -> list[dict[str, Any]]:
    """Every output row, in the file's order, formatted for people (a row in error too)."""
    visiveis = []
    for numero, linha in enumerate(resultado["linhas"], start=1):
        erro = linha.get("erro") or ""
        visiveis.append(
            {
                "numero": numero,
                "local": str(resultado["locais"][numero - 1]),
                "cnpj": _cnpj(linha.get("cnpj")),
                "nome": linha.get("nome") if isinstance(linha.get("nome"), str) else "",
                "falta": _inteiro(linha.get("falta")),
                "diferido": _inteiro(linha.get("diferido")),
                "multado": _inteiro(linha.get("multado")),
                "valor": formatar_brl(linha["valor"]) if not erro else "—",
                "multa": not erro and linha.get("multado", 0) > 0,
                "erro": erro,
            }
        )
    return visiveis


def _resumo_visivel(resumo: dict[str, Any]) -> list[tuple[str, str, str]]:
    """The summary's rows: (id, label, value)."""
    return [
        ("ano", "Ano da meta", str(resumo["ano"])),
        ("distribuidores", "Distribuidores", _inteiro(resumo["distribuidores"])),
        ("cumpriram", "Cumpriram a meta", _inteiro(resumo["cumpriram"])),
        ("diferiram", "Diferiram parte da falta", _inteiro(resumo["diferiram"])),
        ("multados", "Multados", _inteiro(resumo["multados"])),
        ("com-erro", "Linhas com erro", _inteiro(resumo["com_erro"])),
        ("total-multas", "Total das multas", formatar_brl(Decimal(resumo["total_multas"]))),
        ("cbios-faltantes", "CBIOs faltantes", _inteiro(resumo["cbios_faltantes"])),
        ("cbios-diferidos", "CBIOs diferidos", _inteiro(resumo["cbios_diferidos"])),
        ("mes-do-preco", "Mês do preço (maior média mensal)", formatar_mes(resumo["mes_do_preco"])),
        # 4 places for people; the exact price is in resultado.csv (preco_exato) and the API
        ("preco", "Preço (maior média mensal)", formatar_preco(resumo["preco"])),
    ]


def _pagina(
    request: Request,
    valores: dict[str, str],
    status: int = 200,
    erro: EntradaInvalida | None = None,
    resultado: dict[str, Any] | None = None,
    pedido: PedidoDaPagina | None = None,
) -> HTMLResponse:
    reenvio = {}
    if pedido is not None:
        for campo, arquivo in pedido.arquivos.items():
            reenvio[f"{campo}_nome"] = arquivo.nome
            reenvio[f"{campo}_conteudo"] = base64.b64encode(arquivo.conteudo).decode("ascii")
    return render(
        request,
        "ano.html",
        status=status,
        valores=valores,
        erro=erro,
        rotulo_do_erro=ROTULOS.get(erro.campo or "", "") if erro else "",
        arquivos=ARQUIVOS,
        formatos=", ".join(FORMATOS),
        resumo=_resumo_visivel(resultado["resumo"]) if resultado else None,
        linhas=_linhas_visiveis(resultado) if resultado else None,
        leituras=pedido.leituras if pedido is not None else None,
        reenvio=reenvio,
    )


@rotas.get("/ano", response_class=HTMLResponse)
def ano(request: Request) -> HTMLResponse:
    return _pagina(request, {"coluna_preco": "preco"})


@rotas.post("/ano")
def calcular_ano_da_pagina(
    request: Request, servico_do_app: ServicoDoApp, enviado: CamposEArquivos
) -> Response:
    """The year from the form's files: the page (``formato`` absent), ``csv`` (the results)
    or ``zip`` (the summary and the notices). Bad input shows the form again with its error,
    the field named (HTTP 422)."""
    from multas.servicos.ano import calcular_ano, escrever_resultado_csv, zip_do_ano

    valores = {c: enviado.campos[c] for c in CAMPOS_TEXTO if c in enviado.campos}
    formato = enviado.campos.get("formato", "")
    legislacao = servico_do_app.legislacao
    try:
        pedido = ler_pedido_da_pagina(enviado)
        resultado = calcular_ano(
            pedido.distribuidores.linhas,
            pedido.distribuidores.locais,
            pedido.distribuidores.leitura,
            pedido.ano,
            pedido.cotacoes,
            legislacao,
            com_calculo=formato == "zip",
        )
        if formato == "zip":
            arquivo_zip = zip_do_ano(resultado, pedido.ano, legislacao, pedido.data_notificacao)
    except EntradaInvalida as erro:
        return _pagina(request, valores, status=422, erro=erro)
    if formato == "csv":
        saida = io.StringIO(newline="")
        escrever_resultado_csv(saida, pedido.distribuidores.linhas, resultado)
        return Response(
            saida.getvalue().encode("utf-8"),
            media_type="text/csv; charset=utf-8",
            headers={
                "Content-Disposition": f'attachment; filename="ano-{pedido.ano}-resultado.csv"'
            },
        )
    if formato == "zip":
        return Response(
            arquivo_zip,
            media_type="application/zip",
            headers={"Content-Disposition": f'attachment; filename="ano-{pedido.ano}.zip"'},
        )
    return _pagina(request, valores, resultado=resultado, pedido=pedido)
