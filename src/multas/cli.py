"""The ``multas`` command group and its calculation commands: a thin adapter around the
engine (parse, call, render). The batch (``multas lote``, ``multas exposicao``) and the server
(``multas servir``) are adapters of their own, joined to this group by :mod:`multas.principal`.

Heavy modules (Rich, holidays) are imported only by the commands that need them, so
``multas regimes`` starts fast.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from contextlib import redirect_stdout
from typing import Any

from multas.idioma import falar_portugues

falar_portugues()

import click  # noqa: E402

from multas.erros import EntradaInvalida  # noqa: E402
from multas.json_exato import despejar_json, ler_json  # noqa: E402

FORMATOS = ("json", "texto", "markdown", "html", "pdf")
RELATORIOS = ("html", "pdf")


def _linhas(texto: str) -> Iterator[tuple[int, str]]:
    r"""JSON Lines: lines end at ``\n`` only (and ``\r\n``). ``str.splitlines`` would also
    cut at ``\r``, U+2028, U+0085 and others, which may stand inside one valid JSON line.

    >>> list(_linhas('{"a":\r1}\r\n{"b": "x\u2028y"}\n'))
    [(1, '{"a":\r1}'), (2, '{"b": "x\u2028y"}')]
    """
    if texto.endswith("\n"):
        texto = texto[:-1]
    if not texto:
        return
    for numero, linha in enumerate(texto.split("\n"), 1):
        yield numero, linha.removesuffix("\r")


@click.command(options_metavar="[OPÇÕES]")
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
def calcular(entrada: str, formato: str, jsonl: bool, saida: str | None) -> None:
    """Calcula o caso em ENTRADA (arquivo JSON ou JSON Lines; '-' para a entrada padrão)."""
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


def _gravar_atomico(caminho: str, conteudo: bytes) -> None:
    """Write ``caminho`` whole or not at all: a temporary file beside it, fsync, rename."""
    import os
    import tempfile

    destino = os.path.abspath(caminho)
    pasta = os.path.dirname(destino)
    try:
        fd, temporario = tempfile.mkstemp(prefix=f".{os.path.basename(destino)}.", dir=pasta)
    except OSError as erro:
        raise click.UsageError(f"não foi possível gravar {caminho!r} ({erro.strerror})") from None
    try:
        with os.fdopen(fd, "wb") as arquivo:
            arquivo.write(conteudo)
            arquivo.flush()
            os.fsync(arquivo.fileno())
        os.chmod(temporario, 0o666 & ~_umask())
        os.replace(temporario, destino)
    except BaseException:
        if os.path.exists(temporario):
            os.unlink(temporario)
        raise


def _umask() -> int:
    import os

    atual = os.umask(0)
    os.umask(atual)
    return atual


def _calcular(texto: str, formato: str, eh_linhas: bool) -> None:
    if eh_linhas:
        sys.exit(_calcular_linhas(texto, formato))
    from multas.motor import calcular as calcular_caso

    try:
        resultado = calcular_caso(ler_json(texto))
    except EntradaInvalida as erro:
        _erro(erro, formato)
        sys.exit(2)
    _emitir(resultado, formato)


def _ler_texto(caminho: str) -> str:
    """The input as text; a UTF-8 BOM (what some editors write first) is dropped."""
    if caminho == "-":
        bruto = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else None
        if bruto is None:
            return sys.stdin.read().removeprefix("\ufeff")
        try:
            return bruto.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise click.UsageError("a entrada padrão não está em UTF-8") from None
    try:
        with open(caminho, encoding="utf-8-sig", newline="") as arquivo:
            return arquivo.read()
    except UnicodeDecodeError:
        raise click.UsageError(f"o arquivo {caminho!r} não está em UTF-8") from None
    except OSError as erro:
        raise click.UsageError(f"não foi possível ler {caminho!r} ({erro.strerror})") from None


def _calcular_relatorio(texto: str, formato: str, saida: str | None) -> int:
    """The report of one case (HTML or PDF); an input error goes to stderr, exit code 2."""
    from multas.motor import calcular as calcular_caso

    try:
        caso = ler_json(texto)
        resultado = calcular_caso(caso)
    except EntradaInvalida as erro:
        _erro(erro, formato)
        return 2
    from multas.relatorio import Metadados, como_html, como_pdf

    metadados = Metadados.agora()
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


@click.command(options_metavar="[OPÇÕES]")
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


@click.command(options_metavar="[OPÇÕES]")
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
