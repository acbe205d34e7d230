"""Reading the ledger from a file: CSV (``,``; or ``;`` with pt-BR numbers), XLSX (the first
sheet), JSON (a list of objects) or JSON Lines. Every cell becomes the text (or JSON value) the
contract parses: an XLSX number stored as a float is written with ``repr`` (its shortest exact
form, as ``multas lote`` does), never computed with.
"""

from __future__ import annotations

import csv
import io
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from multas.erros import EntradaInvalida

#: more rows than any ledger needs: a bigger file is refused, not read into memory
MAXIMO_LINHAS = 100_000
FORMATOS = (".csv", ".xlsx", ".json", ".jsonl")


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


def ler_planilha(conteudo: bytes, nome_arquivo: str, ptbr: bool = False) -> list[dict[str, Any]]:
    """The rows of the file, each a dict of its header's columns (empty rows skipped)."""
    extensao = nome_arquivo[nome_arquivo.rfind(".") :].lower() if "." in nome_arquivo else ""
    if extensao not in FORMATOS:
        raise EntradaInvalida(
            "arquivo", f"formato não aceito: {nome_arquivo!r} (aceitos: {', '.join(FORMATOS)})"
        )
    if extensao == ".xlsx":
        return _xlsx(conteudo)
    try:
        texto = conteudo.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise EntradaInvalida("arquivo", "o arquivo deve estar em UTF-8") from None
    if extensao == ".csv":
        return _csv(texto, ";" if ptbr else ",")
    from multas.json_exato import ler_json

    if extensao == ".json":
        dados = ler_json(texto)
        if not isinstance(dados, list):
            raise EntradaInvalida("arquivo", "o JSON deve ser uma lista de anos da carteira")
        return _limitar(dados)
    linhas = []
    for numero, linha in enumerate(texto.splitlines(), 1):
        if linha.strip():
            try:
                linhas.append(ler_json(linha))
            except EntradaInvalida as erro:
                raise EntradaInvalida("arquivo", f"linha {numero}: {erro.mensagem}") from None
    return _limitar(linhas)


def _limitar(linhas: list[Any]) -> list[Any]:
    if len(linhas) > MAXIMO_LINHAS:
        raise EntradaInvalida("arquivo", f"linhas demais (máximo {MAXIMO_LINHAS})")
    return linhas


def _csv(texto: str, delimitador: str) -> list[dict[str, Any]]:
    leitor = csv.reader(io.StringIO(texto, newline=""), delimiter=delimitador)
    try:
        return _linhas_csv(leitor)
    except csv.Error as erro:  # a field past the csv module's limit (128 KiB), in English
        problema = "CSV malformado"
        if "field limit" in str(erro):
            problema = f"um campo passa de {csv.field_size_limit()} caracteres"
        raise EntradaInvalida("arquivo", f"linha {leitor.line_num}: {problema}") from None


def _linhas_csv(leitor: Any) -> list[dict[str, Any]]:
    cabecalho = next(leitor, None)
    if not cabecalho:
        raise EntradaInvalida("arquivo", "arquivo CSV vazio (falta o cabeçalho)")
    nomes = [c.strip() for c in cabecalho]
    linhas: list[dict[str, Any]] = []
    for valores in leitor:
        if not any(v.strip() for v in valores):
            continue
        if len(valores) > len(nomes):
            raise EntradaInvalida(
                "arquivo", f"linha {leitor.line_num}: mais colunas que o cabeçalho"
            )
        linhas.append(dict(zip(nomes, valores, strict=False)))
        _limitar(linhas)
    return linhas


def _xlsx(conteudo: bytes) -> list[dict[str, Any]]:
    import zipfile

    import openpyxl

    try:
        livro = openpyxl.load_workbook(io.BytesIO(conteudo), read_only=True, data_only=True)
    except (zipfile.BadZipFile, KeyError, OSError, ValueError):
        raise EntradaInvalida("arquivo", "planilha XLSX inválida") from None
    try:
        linhas_brutas = livro.worksheets[0].iter_rows(values_only=True)
        cabecalho = next(linhas_brutas, None)
        if not cabecalho:
            raise EntradaInvalida("arquivo", "planilha vazia (falta o cabeçalho)")
        nomes = [
            str(v).strip() if v is not None else f"coluna_{i + 1}" for i, v in enumerate(cabecalho)
        ]
        linhas: list[dict[str, Any]] = []
        for valores in linhas_brutas:
            if all(v is None or v == "" for v in valores):
                continue
            linha = {
                nome: _celula(valor)
                for nome, valor in zip(nomes, valores, strict=False)
                if valor is not None and not nome.startswith("coluna_")
            }
            linhas.append(linha)
            _limitar(linhas)
        return linhas
    finally:
        livro.close()


def ler_colado(texto: str) -> tuple[list[dict[str, Any]], bool]:
    r"""Rows pasted from a spreadsheet (tab-separated) or a CSV (``;`` means pt-BR numbers,
    ``,`` the JSON notation). Returns the rows and whether the numbers are pt-BR.

    >>> ler_colado("cnpj\tano\n1\t2025")
    ([{'cnpj': '1', 'ano': '2025'}], True)
    """
    primeira = texto.lstrip("\ufeff").split("\n", 1)[0]
    if "\t" in primeira:
        return _csv(texto.lstrip("\ufeff"), "\t"), True
    if ";" in primeira:
        return _csv(texto.lstrip("\ufeff"), ";"), True
    return _csv(texto.lstrip("\ufeff"), ","), False
