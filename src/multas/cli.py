"""The ``multas`` command: thin adapters around the engine (parse, call, render).

Heavy modules (Rich, holidays) are imported only by the commands that need them, so
``multas regimes`` starts fast.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from decimal import Decimal
from pathlib import Path
from typing import Any, NoReturn, TextIO

import click

from multas.erros import EntradaInvalida

FORMATOS = ("json", "texto", "markdown")


def _rejeitar_constante(nome: str) -> Any:
    raise ValueError(f"valor não permitido em JSON: {nome}")


def _sem_repeticao(pares: list[tuple[str, Any]]) -> dict[str, Any]:
    objeto: dict[str, Any] = {}
    for chave, valor in pares:
        if chave in objeto:
            raise EntradaInvalida(chave, "campo repetido no JSON")
        objeto[chave] = valor
    return objeto


def ler_json(texto: str) -> Any:
    """JSON with exact numbers: ``parse_float=Decimal`` (never a float), no NaN, no repeated key."""
    try:
        return json.loads(
            texto,
            parse_float=Decimal,
            parse_constant=_rejeitar_constante,
            object_pairs_hook=_sem_repeticao,
        )
    except json.JSONDecodeError as erro:
        raise EntradaInvalida(
            None, f"JSON inválido (linha {erro.lineno}, coluna {erro.colno}): {erro.msg}"
        ) from None
    except ValueError as erro:
        raise EntradaInvalida(None, f"JSON inválido: {erro}") from None


def despejar_json(objeto: Any, compacto: bool = False) -> str:
    if compacto:
        return json.dumps(objeto, ensure_ascii=False, separators=(",", ":"))
    return json.dumps(objeto, ensure_ascii=False, indent=2)


def _linhas(texto: str) -> Iterator[tuple[int, str]]:
    yield from enumerate(texto.splitlines(), 1)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="multas", message="multas %(version)s")
def cli() -> None:
    """multas: as multas da regulação de combustíveis e mobilidade, exatas e explicadas."""


@cli.command()
@click.argument("entrada", type=click.File("r", encoding="utf-8"), default="-")
@click.option(
    "--formato",
    "-f",
    type=click.Choice(FORMATOS),
    default="json",
    show_default=True,
    help="json (o contrato), texto (memória legível) ou markdown.",
)
@click.option(
    "--jsonl", is_flag=True, help="Lê JSON Lines (um caso por linha); implícito em .jsonl."
)
def calcular(entrada: TextIO, formato: str, jsonl: bool) -> None:
    """Calcula o caso em ENTRADA (arquivo JSON ou JSON Lines; '-' para a entrada padrão)."""
    texto = entrada.read()
    if jsonl or entrada.name.endswith(".jsonl"):
        sys.exit(_calcular_linhas(texto, formato))
    from multas.motor import calcular as calcular_caso

    try:
        resultado = calcular_caso(ler_json(texto))
    except EntradaInvalida as erro:
        _erro(erro, formato)
        sys.exit(2)
    _emitir(resultado, formato)


def _calcular_linhas(texto: str, formato: str) -> int:
    """JSON Lines: one output line per input line, in order; a bad line gets its own error."""
    from multas.motor import calcular as calcular_caso

    falhas = 0
    for numero, linha in _linhas(texto):
        try:
            if not linha.strip():
                raise EntradaInvalida(None, "linha vazia")
            resultado = calcular_caso(ler_json(linha))
        except EntradaInvalida as erro:
            falhas += 1
            corpo = erro.como_dict()
            corpo["erro"]["linha"] = numero
            click.echo(despejar_json(corpo, compacto=True))
            continue
        if formato == "json":
            click.echo(despejar_json(resultado, compacto=True))
        else:
            _emitir(resultado, formato)
    return 2 if falhas else 0


def _emitir(resultado: dict[str, Any], formato: str) -> None:
    if formato == "json":
        click.echo(despejar_json(resultado))
    elif formato == "markdown":
        from multas.memoria import como_markdown

        click.echo(como_markdown(resultado), nl=False)
    else:
        from multas.memoria import imprimir_texto

        imprimir_texto(resultado, sys.stdout)


def _erro(erro: EntradaInvalida, formato: str) -> None:
    if formato == "json":
        click.echo(despejar_json(erro.como_dict()))
    else:
        onde = f" no campo '{erro.campo}'" if erro.campo else ""
        click.echo(f"Erro{onde}: {erro.mensagem}", err=True)


@cli.command()
@click.option(
    "--formato", "-f", type=click.Choice(("texto", "json")), default="texto", show_default=True
)
def regimes(formato: str) -> None:
    """Lista os regimes, seus campos e o que significam."""
    from multas.catalogo import descrever_regimes, regimes_como_texto

    if formato == "json":
        click.echo(despejar_json(descrever_regimes()))
    else:
        click.echo(regimes_como_texto(), nl=False)


@cli.command()
@click.option(
    "--formato", "-f", type=click.Choice(("texto", "json")), default="texto", show_default=True
)
@click.option("--parametro", "-p", default="", help="Só os parâmetros cujo nome começa assim.")
def legislacao(formato: str, parametro: str) -> None:
    """Mostra o histórico de cada parâmetro legal, com datas e fontes."""
    from multas.catalogo import descrever_legislacao, legislacao_como_texto

    if formato == "json":
        click.echo(despejar_json(descrever_legislacao(parametro)))
    else:
        click.echo(legislacao_como_texto(parametro), nl=False)


def _interpretacao_da_linha(regime_nome: str, pares: tuple[str, ...]) -> dict[str, str]:
    """``--interpretacao chave=opção`` (repeatable), validated against the regime."""
    from multas.motor import ler_interpretacao, regime_de

    regime = regime_de(regime_nome)
    escolhas: dict[str, str] = {}
    for par in pares:
        chave, igual, opcao = par.partition("=")
        if not igual or not chave.strip() or not opcao.strip():
            raise EntradaInvalida(
                "interpretacao", f"use chave=opção, ex.: faturamento=menor ({par!r})"
            )
        escolhas[chave.strip()] = opcao.strip()
    return ler_interpretacao(regime, escolhas)


def _falhar_uso(erro: EntradaInvalida) -> NoReturn:
    onde = f" no campo '{erro.campo}'" if erro.campo else ""
    click.echo(f"Erro{onde}: {erro.mensagem}", err=True)
    sys.exit(2)


@cli.command()
@click.argument("entrada", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--regime", "-r", required=True, help="O regime de todas as linhas (multas regimes).")
@click.option(
    "--saida",
    "-o",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="Arquivo de saída, no formato da entrada (.csv, .xlsx, .parquet, .jsonl).",
)
@click.option(
    "--interpretacao",
    "-i",
    multiple=True,
    metavar="CHAVE=OPÇÃO",
    help="Leitura para todo o lote, ex.: faturamento=menor (repetível).",
)
@click.option(
    "--ptbr",
    "--csv-ptbr",
    "ptbr",
    is_flag=True,
    help="Notação brasileira: CSV com ';', números 1.234,56 na entrada e 1234,56 na saída.",
)
@click.option(
    "--executor",
    type=click.Choice(("local", "dask")),
    default="local",
    show_default=True,
    help="dask: um cluster Dask local (ou o de --dask).",
)
@click.option(
    "--dask", "endereco_dask", metavar="ENDERECO", help="Agendador Dask, ex.: tcp://10.0.0.5:8786."
)
@click.option(
    "--trabalhadores",
    type=click.IntRange(1),
    default=2,
    show_default=True,
    help="Processos do cluster Dask local.",
)
@click.option(
    "--linhas-por-bloco",
    type=click.IntRange(1),
    default=65_536,
    show_default=True,
    help="Linhas lidas e processadas de cada vez (memória limitada).",
)
def lote(
    entrada: Path,
    regime: str,
    saida: Path,
    interpretacao: tuple[str, ...],
    ptbr: bool,
    executor: str,
    endereco_dask: str | None,
    trabalhadores: int,
    linhas_por_bloco: int,
) -> None:
    """Calcula cada linha de ENTRADA (CSV, XLSX, Parquet ou JSON Lines) e grava SAIDA.

    A saída tem todas as colunas da entrada, depois valor e as saídas do regime, depois erro
    (vazio quando a linha foi calculada), na ordem da entrada. Código de saída: 0 se todas as
    linhas foram calculadas; 2 se alguma teve erro (o arquivo é gravado mesmo assim) ou se os
    argumentos não servem.
    """
    from multas.lote.executor import Dask, executar
    from multas.lote.processar import Config

    try:
        cfg = Config(regime, _interpretacao_da_linha(regime, interpretacao), ptbr)
    except EntradaInvalida as erro:
        _falhar_uso(erro)
    onde = None
    if endereco_dask or executor == "dask":
        onde = Dask(endereco_dask, trabalhadores)
    with _progresso() as avancar:
        try:
            resumo = executar(
                entrada,
                saida,
                cfg,
                linhas_por_bloco=linhas_por_bloco,
                dask=onde,
                ao_avancar=avancar,
            )
        except EntradaInvalida as erro:
            _falhar_uso(erro)
    from multas.dinheiro import formatar_numero

    por_segundo = int(resumo.linhas / resumo.segundos) if resumo.segundos else 0
    segundos = f"{resumo.segundos:.1f}".replace(".", ",")
    click.echo(
        f"multas lote: {formatar_numero(str(resumo.linhas))} linhas, "
        f"{formatar_numero(str(resumo.sucessos))} calculadas, "
        f"{formatar_numero(str(resumo.erros))} com erro, em {segundos} s "
        f"({formatar_numero(str(por_segundo))} linhas/s) → {saida}",
        err=True,
    )
    sys.exit(2 if resumo.erros else 0)


@contextmanager
def _progresso() -> Iterator[Callable[[int, int | None], None] | None]:
    """A progress bar on stderr when it is a terminal (Rich); nothing otherwise."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(
        TextColumn("linhas"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as barra:
        tarefa = barra.add_task("lote", total=None)

        def avancar(feitas: int, total: int | None) -> None:
            barra.update(tarefa, completed=feitas, total=total)

        yield avancar


def main() -> None:
    cli(prog_name="multas")
