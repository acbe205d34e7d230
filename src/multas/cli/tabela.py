"""``multas calcular`` on a spreadsheet (issue 37, item 4): a CSV or XLSX file, one case per
row, read by the readers every importer uses (:func:`multas.nucleo.ciclo.planilha.
ler_planilha`: the header found, the encoding, separator and numbers detected), with the
batch's columns (the regime's flat fields; ``ano`` read as ``ano_meta``). Each row's memória
is written in the format asked for; a row in error says so with its line (every error of the
row: the first as ``erro``, all in ``erros`` when there are several), and the others go
on (exit code 3 if any failed, as JSON Lines; 2 when the file itself is refused:
:data:`~multas.nucleo.erros.SAIDA_LINHAS_COM_ERRO`, :data:`~multas.nucleo.erros.SAIDA_USO`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from multas.nucleo.erros import (
    SAIDA_LINHAS_COM_ERRO,
    SAIDA_USO,
    EntradaInvalida,
    ErrosDeEntrada,
)
from multas.nucleo.json_exato import despejar_json

#: a table's suffixes (anything else is JSON, as before); a file without one is sniffed
SUFIXOS = (".csv", ".xlsx")


def e_tabela(entrada: str) -> bool:
    """Whether ``entrada`` is a spreadsheet: by its suffix, else by its first bytes (an XLSX
    is a zip, ``PK``; a JSON starts with ``{`` or ``[``, a CSV with neither)."""
    caminho = Path(entrada)
    if caminho.suffix.lower() in SUFIXOS:
        return True
    if caminho.suffix.lower() in (".json", ".jsonl"):
        return False
    try:
        with open(caminho, "rb") as arquivo:
            inicio = arquivo.read(4096).lstrip(b"\xef\xbb\xbf \t\r\n")
    except OSError:
        return False
    return inicio.startswith(b"PK") or (
        bool(inicio) and inicio[:1] not in (b"{", b"[") and b"\n" in inicio
    )


def calcular_tabela(
    entrada: str,
    regime: str | None,
    formato: str,
    ptbr: bool,
    emitir: Callable[[dict[str, Any], str], None],
) -> int:
    """Each row of the spreadsheet computed and emitted; the exit code."""
    from multas.nucleo.arquivos import LINHA_DE_COMANDO, sem_formula_sem_valor
    from multas.nucleo.ciclo.planilha import Colunas, colunas_fora, ler_planilha
    from multas.nucleo.regimes import REGIMES
    from multas.servicos.calculo import calcular

    caminho = Path(entrada)
    try:
        if regime is None:
            raise EntradaInvalida(
                "--regime", "numa planilha, diga o regime das linhas (multas regimes)"
            )
        if regime not in REGIMES:
            raise EntradaInvalida("--regime", f"regime desconhecido: {regime}")
        campos = tuple(c.nome for c in REGIMES[regime].caso.campos() if c.plano)
        # ``ano`` (the ledger's and the year's name) is read as ``ano_meta`` in a row without
        # one, as ``multas lote`` reads it; a file with ``ano_meta`` itself is read as it is
        sinonimo = ("ano",) if "ano_meta" in campos and "ano" not in campos else ()
        conhecidas = (*campos, *sinonimo)
        lida = ler_planilha(
            caminho.read_bytes(),
            caminho.name,
            ptbr,
            LINHA_DE_COMANDO,
            colunas=Colunas(conhecidas, ("cnpj", *conhecidas)),
            formulas_por_linha=True,
        )
    except EntradaInvalida as erro:
        click.echo(despejar_json({"erro": {"campo": erro.campo, "mensagem": erro.mensagem}}))
        return SAIDA_USO
    # what was read past (a misspelled column, a title, a note) is said, never silent
    for aviso in (*lida.avisos, *colunas_fora(lida.desconhecidas)):
        click.echo(f"multas calcular: {caminho.name}: {aviso}", err=True)
    codigo = 0
    for linha, local in zip(lida.linhas, lida.locais, strict=True):
        if sinonimo and linha.get("ano_meta") in (None, ""):
            linha["ano_meta"] = linha.get("ano")
        caso = {k: v for k, v in linha.items() if k in campos and v not in (None, "")}
        try:
            sem_formula_sem_valor(caso)  # that row's error, naming the column
            resultado = calcular({"regime": regime, **caso}, lida.leitura)
        except EntradaInvalida as erro:
            codigo = SAIDA_LINHAS_COM_ERRO
            corpo = ErrosDeEntrada([local.localizar(um) for um in erro.todos()]).como_dict()
            if len(corpo["erros"]) == 1:  # one error keeps the shape of one
                del corpo["erros"]
            click.echo(despejar_json(corpo, compacto=formato == "json"))
            continue
        if formato == "json":
            click.echo(despejar_json(resultado, compacto=True))
        else:
            emitir(resultado, formato)
    return codigo
