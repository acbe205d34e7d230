"""Reading the ledger from a file: CSV (``,``; or ``;`` with pt-BR numbers), XLSX (the first
sheet), JSON (a list of objects) or JSON Lines, or rows pasted from a spreadsheet. Every cell
becomes the text (or JSON value) the contract parses: an XLSX number stored as a float is
written with ``repr`` (its shortest exact form, as ``multas lote`` does), never computed with.

The files are read by :mod:`multas.nucleo.arquivos`, the readers ``multas lote`` uses, within the
entry point's limits (:data:`multas.nucleo.arquivos.SERVIDOR` unless the caller passes others); each
row keeps where it was (:class:`multas.nucleo.arquivos.Local`), so its errors say ``linha 3, coluna
ano`` (the header is line 1), ``linha 2, campo ano`` (JSON Lines) or ``item 2, campo ano``.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from itertools import chain
from typing import Any

from multas.nucleo.arquivos import (
    NAO_UTF8,
    SERVIDOR,
    LeitorXlsx,
    Limites,
    Local,
    celula_longa,
    decodificar,
    largura_errada,
    linhas_csv,
    linhas_demais,
    linhas_json,
    sem_repetidas,
)
from multas.nucleo.contrato import JSON, Leitura
from multas.nucleo.erros import EntradaInvalida, mostrar_valor

FORMATOS = (".csv", ".xlsx", ".json", ".jsonl")


@dataclass(frozen=True, slots=True)
class Planilha:
    """The rows read from a file (each a dict of its header's columns, or a JSON value),
    where each one was, and how their values are read."""

    linhas: list[Any]
    locais: list[Local]
    leitura: Leitura


def _celula(valor: object) -> object:
    if isinstance(valor, bool):
        return valor
    if isinstance(valor, float):
        return repr(valor)
    if isinstance(valor, int | Decimal):
        return str(valor)
    if isinstance(valor, datetime):
        return valor.date().isoformat()
    if isinstance(valor, date):
        return valor.isoformat()
    return valor


def ler_planilha(
    conteudo: bytes, nome_arquivo: str, ptbr: bool = False, limites: Limites = SERVIDOR
) -> Planilha:
    """The rows of the file (blank ones skipped); an error about the file itself names the
    field ``arquivo``, one about a cell its column."""
    extensao = nome_arquivo[nome_arquivo.rfind(".") :].lower() if "." in nome_arquivo else ""
    if extensao not in FORMATOS:
        raise EntradaInvalida(
            "arquivo",
            f"formato não aceito: {mostrar_valor(nome_arquivo)} (aceitos: {', '.join(FORMATOS)})",
        )
    try:
        if extensao == ".xlsx":
            return _xlsx(conteudo, limites, Leitura(tabela=True, decimal_virgula=ptbr))
        if extensao == ".jsonl":
            return _jsonl(conteudo, limites)
        texto = decodificar(conteudo)
        if extensao == ".csv":
            leitura = Leitura(tabela=True, decimal_virgula=ptbr)
            return _csv(texto, ";" if ptbr else ",", limites, leitura)
        return _json(texto, limites)
    except EntradaInvalida as erro:
        if erro.campo is None:
            raise EntradaInvalida("arquivo", erro.mensagem) from None
        raise


def ler_colado(texto: str, limites: Limites = SERVIDOR) -> Planilha:
    r"""Rows pasted from a spreadsheet (tab-separated) or a CSV (``;`` means pt-BR numbers,
    ``,`` the JSON notation).

    >>> colado = ler_colado("cnpj\tano\n1\t2025")
    >>> colado.linhas, str(colado.locais[0]), colado.leitura.decimal_virgula
    ([{'cnpj': '1', 'ano': '2025'}], 'linha 2', True)
    """
    texto = texto.removeprefix("\ufeff")
    primeira = texto.split("\n", 1)[0]
    delimitador = "\t" if "\t" in primeira else ";" if ";" in primeira else ","
    leitura = Leitura(tabela=True, decimal_virgula=delimitador != ",")
    try:
        return _csv(texto, delimitador, limites, leitura)
    except EntradaInvalida as erro:
        if erro.campo is None:
            raise EntradaInvalida("conteudo", erro.mensagem) from None
        raise


def _tabela(
    registros: Iterable[tuple[int, list[Any]]], leitura: Leitura, vazio: str, largura: bool
) -> Planilha:
    """Rows of a table: the first row that is not blank is the header. Cells under a column
    without a name are left out; past the header's columns, a cell that is not blank is an
    error when ``largura`` (CSV: a misplaced delimiter) and left out otherwise (a note beside
    a spreadsheet's table)."""

    def em_branco(valores: list[Any]) -> bool:
        return all(v is None or (isinstance(v, str) and not v.strip()) for v in valores)

    nomes: list[str] | None = None
    linhas: list[Any] = []
    locais: list[Local] = []
    for numero, valores in registros:
        if em_branco(valores):
            continue
        if nomes is None:
            nomes = [str(v).strip() if v is not None else "" for v in valores]
            sem_repetidas([n for n in nomes if n])
            continue
        local = Local(numero)
        if largura and len(valores) > len(nomes) and not em_branco(valores[len(nomes) :]):
            raise largura_errada(local, len(valores), len(nomes))
        linhas.append(
            {
                nome: _celula(valor)
                for nome, valor in zip(nomes, valores, strict=False)
                if nome and valor is not None
            }
        )
        locais.append(local)
    if nomes is None:
        raise EntradaInvalida(None, vazio)
    return Planilha(linhas, locais, leitura)


def _csv(texto: str, delimitador: str, limites: Limites, leitura: Leitura) -> Planilha:
    registros = linhas_csv(io.StringIO(texto, newline=""), delimitador, limites)
    return _tabela(registros, leitura, "arquivo CSV vazio (falta o cabeçalho)", largura=True)


def _xlsx(conteudo: bytes, limites: Limites, leitura: Leitura) -> Planilha:
    with LeitorXlsx(io.BytesIO(conteudo), limites) as leitor:
        # only the named columns are read: a row padded to thousands of cells costs no more
        nomeadas = [i for i, v in enumerate(leitor.cabecalho) if v is not None and str(v).strip()]

        def nomeados(valores: Sequence[Any]) -> list[Any]:
            return [valores[i] if i < len(valores) else None for i in nomeadas]

        registros = chain(
            [(leitor.numero_cabecalho, nomeados(leitor.cabecalho))],
            ((numero, nomeados(valores)) for numero, valores in leitor.linhas()),
        )
        return _tabela(registros, leitura, "planilha vazia (falta o cabeçalho)", largura=False)


def _conferir_textos(valor: Any, local: Local, limites: Limites) -> None:
    """A JSON row's text values within the cell limit."""
    if isinstance(valor, dict):
        for chave, item in valor.items():
            if isinstance(item, str) and len(item) > limites.texto:
                raise celula_longa(limites, local, str(chave))


def _json(texto: str, limites: Limites) -> Planilha:
    from multas.nucleo.json_exato import ler_json

    dados = ler_json(texto)
    if not isinstance(dados, list):
        raise EntradaInvalida(None, "o JSON deve ser uma lista de anos da carteira")
    if limites.linhas is not None and len(dados) > limites.linhas:
        raise linhas_demais(limites)
    locais = [Local(i, "item", "campo") for i in range(1, len(dados) + 1)]
    for item, local in zip(dados, locais, strict=True):
        _conferir_textos(item, local, limites)
    return Planilha(dados, locais, JSON)


def _jsonl(conteudo: bytes, limites: Limites) -> Planilha:
    from multas.nucleo.json_exato import ler_json

    linhas: list[Any] = []
    locais: list[Local] = []
    for numero, bruta in linhas_json(io.BytesIO(conteudo), limites):
        local = Local(numero, chave="campo")
        try:
            texto = bruta.decode("utf-8")
        except UnicodeDecodeError:
            raise local.erro(NAO_UTF8) from None
        if not texto.strip():
            continue
        try:
            valor = ler_json(texto)
        except EntradaInvalida as erro:
            raise local.localizar(erro) from None
        _conferir_textos(valor, local, limites)
        linhas.append(valor)
        locais.append(local)
    return Planilha(linhas, locais, JSON)
