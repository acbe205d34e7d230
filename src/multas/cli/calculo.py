"""``multas calcular`` (one case, JSON Lines, or the report in HTML or PDF), and the
catalogue: ``multas regimes`` and ``multas calendario`` (``multas legislacao`` is
:mod:`multas.cli.legislacao`)."""

from __future__ import annotations

import io
import sys
from contextlib import redirect_stdout
from typing import Any

from multas.saidas.idioma import falar_portugues

falar_portugues()

import click  # noqa: E402

from multas.cli.comum import (  # noqa: E402
    _erro,
    _gravar_atomico,
    _ler_texto,
    _por_linha,
    legislacao_da_linha_de_comando,
)
from multas.nucleo.erros import AJUDA_CODIGOS_DE_SAIDA, EntradaInvalida  # noqa: E402
from multas.nucleo.json_exato import despejar_json, ler_json  # noqa: E402

FORMATOS = ("json", "texto", "markdown", "html", "pdf")
RELATORIOS = ("html", "pdf")


@click.command(options_metavar="[OPÇÕES]", epilog=AJUDA_CODIGOS_DE_SAIDA)
@click.argument(
    "entrada", type=click.Path(exists=True, dir_okay=False, allow_dash=True), default="-"
)
@click.option(
    "--formato",
    "-f",
    type=click.Choice(FORMATOS),
    default="json",
    show_default=True,
    help="json (o contrato), texto (memória legível), markdown, ou o relatório em html ou pdf.",
)
@click.option(
    "--jsonl", is_flag=True, help="Lê JSON Lines (um caso por linha); implícito em .jsonl."
)
@click.option(
    "--saida",
    "-o",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Grava o resultado neste arquivo em vez de mostrá-lo (use com --formato pdf).",
)
@click.option(
    "--regime",
    "-r",
    metavar="REGIME",
    help="CSV ou XLSX: o regime das linhas (multas regimes); uma coluna regime também serve.",
)
@click.option("--ptbr", is_flag=True, help="CSV com ';' e números 1.234,56.")
def calcular(
    entrada: str, formato: str, jsonl: bool, saida: str | None, regime: str | None, ptbr: bool
) -> None:
    """Calcula o caso em ENTRADA (arquivo JSON ou JSON Lines; '-' para a entrada padrão), ou
    cada linha de uma planilha CSV ou XLSX (um caso por linha, as colunas de multas lote, com
    --regime), com a memória de cada uma no formato pedido."""
    if entrada != "-":
        from multas.cli.tabela import e_tabela

        if e_tabela(entrada):
            from multas.cli.tabela import calcular_tabela

            if formato in RELATORIOS:
                raise click.UsageError(
                    f"--formato {formato} gera o relatório de um único caso; numa planilha, "
                    "use json, texto ou markdown (uma memória por linha)"
                )
            texto_tabela = io.StringIO()
            with redirect_stdout(texto_tabela):
                codigo = calcular_tabela(entrada, regime, formato, ptbr, _emitir)
            if saida is None:
                click.echo(texto_tabela.getvalue(), nl=False)
            else:
                _gravar_atomico(saida, texto_tabela.getvalue().encode("utf-8"))
            sys.exit(codigo)
    texto = _ler_texto(entrada)
    eh_linhas = jsonl or entrada.endswith(".jsonl")
    if formato in RELATORIOS:
        if eh_linhas:
            raise click.UsageError(
                f"--formato {formato} gera o relatório de um único caso; JSON Lines não é aceito"
            )
        if formato == "pdf" and saida is None and sys.stdout.isatty():
            raise click.UsageError("o PDF é binário: indique o arquivo com --saida memoria.pdf")
        sys.exit(_calcular_relatorio(texto, formato, saida))
    if saida is None:
        _calcular(texto, formato, eh_linhas)
        return
    # into memory first: a bad input leaves an existing --saida as it was, and the file is
    # replaced whole (fsync, then rename), never left half-written
    buffer = io.StringIO()
    codigo = 0
    try:
        with redirect_stdout(buffer):
            _calcular(texto, formato, eh_linhas)
    except SystemExit as fim:
        codigo = fim.code if isinstance(fim.code, int) else 1
    if codigo and not eh_linhas:  # one case, not computed: nothing to write
        click.echo(buffer.getvalue(), err=True, nl=False)
        sys.exit(codigo)
    _gravar_atomico(saida, buffer.getvalue().encode("utf-8"))
    sys.exit(codigo)


def _calcular(texto: str, formato: str, eh_linhas: bool) -> None:
    if eh_linhas:
        sys.exit(_calcular_linhas(texto, formato))
    from multas.servicos.calculo import calcular as calcular_caso

    try:
        resultado = calcular_caso(ler_json(texto), legislacao=legislacao_da_linha_de_comando())
    except EntradaInvalida as erro:
        _erro(erro, formato)
        sys.exit(2)
    _emitir(resultado, formato)


def _calcular_relatorio(texto: str, formato: str, saida: str | None) -> int:
    """The report of one case (HTML or PDF); an input error goes to stderr, exit code 2."""
    from multas.servicos.calculo import calcular as calcular_caso

    try:
        caso = ler_json(texto)
        resultado = calcular_caso(caso, legislacao=legislacao_da_linha_de_comando())
    except EntradaInvalida as erro:
        _erro(erro, formato)
        return 2
    from multas.saidas.relatorio import Metadados, como_html, como_pdf
    from multas.servicos.relogio import agora

    metadados = Metadados.calculado(agora())
    conteudo = (
        como_pdf(resultado, caso, metadados)
        if formato == "pdf"
        else como_html(resultado, caso, metadados).encode("utf-8")
    )
    if saida is not None:
        _gravar_atomico(saida, conteudo)
    else:
        sys.stdout.buffer.write(conteudo)
        sys.stdout.flush()
    return 0


def _calcular_linhas(texto: str, formato: str) -> int:
    """``multas calcular`` on JSON Lines (spec § 3)."""
    from multas.servicos.calculo import calcular as calcular_caso

    def emitir(resultado: dict[str, Any]) -> None:
        if formato == "json":
            click.echo(despejar_json(resultado, compacto=True))
        else:
            _emitir(resultado, formato)

    legislacao = (
        legislacao_da_linha_de_comando()
    )  # one for every line: the database read once, if ever
    return _por_linha(texto, lambda caso: calcular_caso(caso, legislacao=legislacao), emitir)


def _emitir(resultado: dict[str, Any], formato: str) -> None:
    if formato == "json":
        click.echo(despejar_json(resultado))
    elif formato == "markdown":
        from multas.saidas.memoria import como_markdown

        click.echo(como_markdown(resultado), nl=False)
    else:
        from multas.saidas.memoria import imprimir_texto

        imprimir_texto(resultado, sys.stdout)


@click.command(options_metavar="[OPÇÕES]")
@click.option(
    "--formato", "-f", type=click.Choice(("texto", "json")), default="texto", show_default=True
)
def regimes(formato: str) -> None:
    """Lista os regimes, seus campos e o que significam."""
    from multas.nucleo.catalogo import descrever_regimes, regimes_como_texto

    if formato == "json":
        click.echo(despejar_json(descrever_regimes()))
    else:
        click.echo(regimes_como_texto(), nl=False)


@click.command(options_metavar="[OPÇÕES]")
@click.argument("ano", metavar="AAAA")
@click.option(
    "--formato", "-f", type=click.Choice(("json", "texto")), default="json", show_default=True
)
def calendario(ano: str, formato: str) -> None:
    """Lista os dias sem expediente integral do calendário federal de um ano."""
    from multas.nucleo.catalogo import (
        calendario_como_texto,
        descrever_calendario,
        ler_ano_calendario,
    )

    try:
        numero = ler_ano_calendario(ano)
    except EntradaInvalida as erro:
        _erro(erro, formato)
        sys.exit(2)
    if formato == "json":
        click.echo(despejar_json(descrever_calendario(numero)))
    else:
        click.echo(calendario_como_texto(numero), nl=False)
