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
from multas.nucleo.ciclo.conferir import celula_da_conferencia
from multas.nucleo.ciclo.planilha import FORMATOS, Colunas, Planilha
from multas.nucleo.cnpj import normalizar
from multas.nucleo.contrato import Leitura, ler_um_ano
from multas.nucleo.cotacoes import Serie
from multas.nucleo.datas import formatar_mes
from multas.nucleo.dinheiro import formatar_brl, formatar_numero, formatar_preco
from multas.nucleo.erros import Coleta, EntradaInvalida, ErrosDeEntrada, levantar, mostrar_valor
from multas.nucleo.legislacao import Legislacao
from multas.servidor.erros_na_pagina import erros_na_pagina
from multas.servidor.formulario import (
    FIGURAS_DA_NOTIFICACAO,
    ler_colunas_do_formulario,
    no_campo_das_colunas,
)
from multas.servidor.pedido import (
    ArquivoEnviado,
    CamposEArquivos,
    CicloDoApp,
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
    "notificacao": "Notificação",
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
    """The form's fields and files, each checked by the reader ``multas ano calcular`` uses,
    each on its own: every error at once, each naming the form's field (a file's error says
    its line and column), the first the one it always was."""
    from multas.nucleo.ciclo.planilha import ler_cotacoes
    from multas.nucleo.datas import data_digitada
    from multas.servicos.ano import ler_ano_da_meta, ler_data_notificacao

    campos = enviado.campos
    coleta = Coleta()  # each field on its own: every error of the submit at once
    ano: int | None = None
    with coleta.campo():
        texto_ano = campos.get("ano", "").strip()
        if texto_ano and not (texto_ano.isascii() and texto_ano.isdigit()):
            raise EntradaInvalida(
                "ano", f"deve ser um ano, ex.: 2024 (veio {mostrar_valor(texto_ano[:20])})"
            )
        ano = ler_ano_da_meta(texto_ano or None, _TEXTO_DA_PAGINA)
    data: date | None = None
    with coleta.campo():
        texto_data = campos.get("data_notificacao", "").strip()
        data = ler_data_notificacao(
            data_digitada(texto_data, "data_notificacao") if texto_data else None,
            _TEXTO_DA_PAGINA,
        )
    coluna_preco: str | None = campos.get("coluna_preco", "").strip() or "preco"
    with coleta.campo():
        if len(coluna_preco or "") > 60:
            coluna_preco = None
            raise EntradaInvalida("coluna_preco", "deve ser o nome de uma coluna")
    ptbr = bool(campos.get("ptbr"))
    mapas: dict[str, dict[str, str]] = {}
    for campo in COLUNAS:
        with coleta.campo():
            mapas[campo] = _mapa(campos, campo)
    arquivos: dict[str, ArquivoEnviado] = {}
    for campo, _ in ARQUIVOS:
        with coleta.campo():
            arquivos[campo] = _arquivo(enviado, campo)
    distribuidores: Planilha | None = None
    if "distribuidores" in arquivos and "distribuidores" in mapas:
        with coleta.campo():
            distribuidores = _distribuidores(arquivos, mapas, ptbr)
    serie: Serie | None = None
    lidas: Planilha | None = None
    nome = _nome(arquivos["cotacoes"], "cotações.csv") if "cotacoes" in arquivos else ""
    if "cotacoes" in arquivos and "cotacoes" in mapas and coluna_preco is not None:
        with coleta.campo():
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
    coleta.levantar()
    assert ano is not None and distribuidores is not None
    assert serie is not None and lidas is not None
    leituras = [
        (
            dict(ARQUIVOS)["distribuidores"],
            _nome(arquivos["distribuidores"], "distribuidores"),
            [*distribuidores.avisos, *_levadas(distribuidores, "levadas ao resultado (CSV)")],
        ),
        (dict(ARQUIVOS)["cotacoes"], nome, [*lidas.avisos, *_levadas(lidas, "fora da leitura")]),
    ]
    return PedidoDaPagina(ano, distribuidores, serie, data, arquivos, leituras)


def _distribuidores(
    arquivos: dict[str, ArquivoEnviado], mapas: dict[str, dict[str, str]], ptbr: bool
) -> Planilha:
    """The distributors' file, read and checked (at most so many rows, every needed column)."""
    from multas.servicos.ano import COLUNAS_ENTRADA, MAXIMO_DISTRIBUIDORES, coluna_faltante

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
    return distribuidores


def _levadas(planilha: Planilha, destino: str) -> list[str]:
    """What the page says of a file's columns that name no field."""
    if not planilha.desconhecidas:
        return []
    return [f"colunas {destino} como estão: {', '.join(planilha.desconhecidas)}"]


# --- what the page shows ----------------------------------------------------------------------


def _inteiro(valor: object) -> str:
    return formatar_numero(str(valor)) if isinstance(valor, int) else "—"


def _linhas_visiveis(resultado: dict[str, Any], so_multados: bool) -> list[dict[str, Any]]:
    """Every output row, in the file's order, formatted for people (a row in error too);
    ``so_multados``: only the fined ones. A fined row names its notice (the normalised CNPJ:
    the ZIP's file name); its CNPJ as given (the page's ``cnpj`` filter flags wrong digits)."""
    visiveis = []
    for numero, linha in enumerate(resultado["linhas"], start=1):
        erro = linha.get("erro") or ""
        multa = not erro and linha.get("multado", 0) > 0
        if so_multados and not multa:
            continue
        cnpj = linha.get("cnpj") if isinstance(linha.get("cnpj"), str) else ""
        visiveis.append(
            {
                "numero": numero,
                "local": str(resultado["locais"][numero - 1]),
                "cnpj": cnpj,
                "notificacao": normalizar(cnpj) if multa and Decimal(linha["valor"]) else "",
                "nome": linha.get("nome") if isinstance(linha.get("nome"), str) else "",
                "falta": _inteiro(linha.get("falta")),
                "diferido": _inteiro(linha.get("diferido")),
                "multado": _inteiro(linha.get("multado")),
                "valor": formatar_brl(linha["valor"]) if not erro else "—",
                "multa": multa,
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
    so_multados: bool = False,
) -> HTMLResponse:
    reenvio = {}
    if pedido is not None:
        for campo, arquivo in pedido.arquivos.items():
            reenvio[f"{campo}_nome"] = arquivo.nome
            reenvio[f"{campo}_conteudo"] = base64.b64encode(arquivo.conteudo).decode("ascii")
    # every error beside its field; the notice's (a CNPJ with none) in the summary only
    erros = erros_na_pagina(erro, ROTULOS, set(ROTULOS) - {"notificacao"})
    return render(
        request,
        "ano.html",
        status=status,
        valores=valores,
        erros=erros.por_campo,
        resumo_erros=erros.resumo,
        arquivos=ARQUIVOS,
        formatos=", ".join(FORMATOS),
        resumo=_resumo_visivel(resultado["resumo"]) if resultado else None,
        linhas=_linhas_visiveis(resultado, so_multados) if resultado else None,
        so_multados=so_multados,
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
    """The year from the form's files: the page (``formato`` absent; ``mostrar=multados``:
    only the fined rows), ``csv`` (the results; ``xlsx`` and ``csv-ptbr`` the same for
    spreadsheets), ``zip`` (the summary and the notices) or, with
    ``notificacao`` (a CNPJ), that distributor's notice (PDF). Bad input shows the form again
    with its error, the field named (HTTP 422)."""
    from multas.servicos.ano import calcular_ano, escrever_resultado_csv, zip_do_ano

    valores = {c: enviado.campos[c] for c in CAMPOS_TEXTO if c in enviado.campos}
    formato = enviado.campos.get("formato", "")
    notificacao = enviado.campos.get("notificacao", "").strip()
    if notificacao:
        formato = "pdf"
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
            com_calculo=formato in ("zip", "pdf"),
        )
        if formato == "zip":
            arquivo_zip = zip_do_ano(resultado, pedido.ano, legislacao, pedido.data_notificacao)
        if formato == "pdf":
            arquivo_pdf = _notificacao(resultado, pedido, legislacao, notificacao)
    except EntradaInvalida as erro:
        return _pagina(request, valores, status=422, erro=erro)
    if formato == "pdf":
        return Response(
            arquivo_pdf,
            media_type="application/pdf",
            headers={
                "Content-Disposition": "attachment; "
                f'filename="notificacao-{pedido.ano}-{normalizar(notificacao)}.pdf"'
            },
        )
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
    if formato in ("xlsx", "csv-ptbr"):
        return _resultado_para_planilha(
            formato, pedido.ano, pedido.distribuidores.linhas, resultado
        )
    if formato == "zip":
        return Response(
            arquivo_zip,
            media_type="application/zip",
            headers={"Content-Disposition": f'attachment; filename="ano-{pedido.ano}.zip"'},
        )
    so_multados = enviado.campos.get("mostrar") == "multados"
    return _pagina(request, valores, resultado=resultado, pedido=pedido, so_multados=so_multados)


def _resultado_para_planilha(
    formato: str, ano: int, entrada: Any, resultado: dict[str, Any]
) -> Response:
    """``resultado.xlsx`` or ``resultado-ptbr.csv`` of ``multas ano calcular``: the CSV's rows
    and columns, typed or in pt-BR notation."""
    from multas.servicos.ano_planilhas import escrever_resultado_ptbr, resultado_xlsx

    if formato == "xlsx":
        conteudo = resultado_xlsx(entrada, resultado)
        tipo = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        nome = f"ano-{ano}-resultado.xlsx"
    else:
        saida = io.StringIO(newline="")
        escrever_resultado_ptbr(saida, entrada, resultado)
        conteudo = saida.getvalue().encode("utf-8")
        tipo, nome = "text/csv; charset=utf-8", f"ano-{ano}-resultado-ptbr.csv"
    return Response(
        conteudo, media_type=tipo, headers={"Content-Disposition": f'attachment; filename="{nome}"'}
    )


def _notificacao(
    resultado: dict[str, Any], pedido: PedidoDaPagina, legislacao: Legislacao, cnpj: str
) -> bytes:
    """The notice of the distributor ``cnpj``, as the ZIP has it (its number too)."""
    from multas.servicos.ano import notificacoes

    nome = f"{normalizar(cnpj)}.pdf"
    for _, pdf in notificacoes(resultado, pedido.ano, legislacao, pedido.data_notificacao, so=nome):
        return pdf
    raise EntradaInvalida(
        "notificacao",
        f"nenhuma notificação para o CNPJ {mostrar_valor(cnpj)}: só um distribuidor multado "
        "neste ano tem uma",
    )


# --- the ANP's notice checked against a distributor's ledger (/carteira/distribuidor) --------

#: the form's file field: the notice as a file (what ``multas carteira conferir`` reads)
ARQUIVO_DA_NOTIFICACAO = "arquivo"
#: the notice form's labels, for the error summary
ROTULOS_DA_NOTIFICACAO = {campo: rotulo for campo, rotulo, _ in FIGURAS_DA_NOTIFICACAO} | {
    "ano": "Ano da meta",
    "cnpj": "CNPJ do distribuidor",
    ARQUIVO_DA_NOTIFICACAO: "Arquivo da notificação",
    "notificacao": "Números da notificação",
}
#: a figure typed in the form: "1.234,56" or "1234.56", empty is absent
_NOTIFICACAO_DIGITADA = Leitura(tabela=True, decimal_virgula=True)


def _notificacao_enviada(enviado: FormularioComArquivos) -> Any:
    """The notice the form sent: its file, when one was chosen, else the figures typed (never
    both: which would count is not guessed). Every error of it, at once."""
    from multas.nucleo.ciclo.conferir import ler_notificacao, ler_notificacao_arquivo

    arquivo = enviado.arquivos.get(ARQUIVO_DA_NOTIFICACAO)
    digitados = {
        campo: enviado.campos.get(campo, "")
        for campo, _, _ in FIGURAS_DA_NOTIFICACAO
        if enviado.campos.get(campo, "").strip()
    }
    if arquivo is not None and (arquivo.nome or arquivo.conteudo):
        if digitados:
            raise EntradaInvalida(
                ARQUIVO_DA_NOTIFICACAO,
                "envie o arquivo ou digite os números, não os dois (apague os números ou "
                "tire o arquivo)",
            )
        try:
            return ler_notificacao_arquivo(arquivo.conteudo, arquivo.nome, limites=SERVIDOR)
        except EntradaInvalida as erro:  # beside the file: each message says where in it
            levantar(
                [
                    EntradaInvalida(
                        ARQUIVO_DA_NOTIFICACAO,
                        f"{um.campo}: {um.mensagem}"
                        if um.campo not in (None, ARQUIVO_DA_NOTIFICACAO) and not diz_a_coluna(um)
                        else um.mensagem,
                    )
                    for um in erro.todos()
                ]
            )
    return ler_notificacao(digitados, _NOTIFICACAO_DIGITADA)


def _erros_da_notificacao(erro: EntradaInvalida) -> tuple[dict[str, str], list[dict[str, str]]]:
    """Every error beside its field (``erros``), and the summary's list (label, message)."""
    erros: dict[str, str] = {}
    resumo: list[dict[str, str]] = []
    for um in erro.todos():
        campo = um.campo if um.campo in ROTULOS_DA_NOTIFICACAO else "notificacao"
        assert campo is not None
        erros[campo] = f"{erros[campo]}; {um.mensagem}" if campo in erros else um.mensagem
        resumo.append(
            {"campo": campo, "rotulo": ROTULOS_DA_NOTIFICACAO[campo], "mensagem": um.mensagem}
        )
    return erros, resumo


def _fora_da_carteira(carteira: dict[str, Any], ano: int) -> EntradaInvalida | None:
    """The error beside the year when the distributor's ledger does not have it (the form
    comes back with what was typed, not a whole "not found" page)."""
    salvos = [int(a["ano"]) for a in carteira["anos"]]
    if ano in salvos:
        return None
    return EntradaInvalida(
        "ano",
        f"o ano {ano} não está na carteira deste distribuidor (anos salvos: "
        f"{', '.join(map(str, sorted(salvos)))}): escolha um deles, ou salve o ano na carteira "
        "antes de conferir",
    )


#: the longest CNPJ text a lookup takes (the API's ``cnpj`` query has the same bound)
MAXIMO_CNPJ = 64


@rotas.post("/carteira/conferir", response_class=HTMLResponse)
def conferir_notificacao_da_pagina(
    request: Request, ciclo_do_app: CicloDoApp, enviado: CamposEArquivos
) -> HTMLResponse:
    """The ANP's notice of one year against the distributor's ledger, from the form of
    ``/carteira/distribuidor`` (the figures typed, or the notice's file), as
    ``POST /api/v1/carteira/conferir`` does: the comparison table, figure by figure. Only a
    distributor of the user's clients (another is "not found"); nothing is stored. Bad input
    shows the form again, every error beside its field (HTTP 422)."""
    digitado = enviado.campos.get("cnpj", "")
    cnpj = digitado[:MAXIMO_CNPJ]  # what is shown back; a longer text is refused, not cut
    valores = {c: enviado.campos.get(c, "") for c in ("ano", *ROTULOS_DA_NOTIFICACAO)}
    erros: list[EntradaInvalida] = []
    try:  # 404 when absent or not one of the user's clients
        if len(digitado) > MAXIMO_CNPJ:  # as the API's query (max_length)
            raise EntradaInvalida(
                "cnpj", f"texto longo demais: {len(digitado)} caracteres (máximo {MAXIMO_CNPJ})"
            )
        carteira = ciclo_do_app.carteira(cnpj)
    except EntradaInvalida as erro:  # a text no CNPJ is (a NUL): beside its field, no ledger
        carteira = {"cnpj": cnpj.replace("\x00", ""), "nome": None, "anos": []}
        erros.extend(EntradaInvalida("cnpj", um.mensagem) for um in erro.todos())
    ano: int | None = None
    try:
        ano = ler_um_ano(enviado.campos.get("ano", ""), "ano", _NOTIFICACAO_DIGITADA)
    except EntradaInvalida as erro:
        erros.append(erro)
    try:
        notificacao = _notificacao_enviada(enviado)
    except EntradaInvalida as erro:
        erros.extend(erro.todos())
    if ano is not None and carteira["anos"] and (erro_do_ano := _fora_da_carteira(carteira, ano)):
        erros.append(erro_do_ano)
    conferencia = None
    if not erros and ano is not None:
        try:
            conferencia = ciclo_do_app.conferir(carteira["cnpj"], ano, notificacao)
        except EntradaInvalida as erro:
            erros.extend(erro.todos())
    por_campo, resumo = _erros_da_notificacao(ErrosDeEntrada(erros)) if erros else ({}, [])
    return render(
        request,
        "conferir.html",
        status=422 if erros else 200,
        c=carteira,
        valores=valores,
        erros_conferir=por_campo,
        resumo_conferir=resumo,
        conferencia=conferencia,
        figuras=FIGURAS_DA_NOTIFICACAO,
        celula=celula_da_conferencia,
        brl=lambda v: "—" if v is None else formatar_brl(Decimal(v)),
    )
