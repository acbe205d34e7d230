"""The ``multas`` command: thin adapters around the engine (parse, call, render).

Heavy modules (Rich, holidays) are imported only by the commands that need them, so
``multas regimes`` starts fast.
"""

from __future__ import annotations

import gettext
import json
import os
import sys
from collections.abc import Iterator
from contextlib import redirect_stdout
from decimal import Decimal
from typing import Any


def _falar_portugues() -> None:
    """Click's own messages (usage, errors, help) in pt-BR, from the shipped gettext catalogue.

    Click translates through the stdlib's global gettext domain; some strings are translated
    when the commands are defined, so this runs before Click is imported.
    """
    gettext.bindtextdomain("multas", os.path.join(os.path.dirname(__file__), "locale"))
    gettext.textdomain("multas")
    os.environ["LANGUAGE"] = "pt_BR"  # the CLI speaks its users' language, whatever the locale


_falar_portugues()

import click  # noqa: E402

from multas.erros import EntradaInvalida  # noqa: E402

FORMATOS = ("json", "texto", "markdown", "html", "pdf")
RELATORIOS = ("html", "pdf")


def _rejeitar_constante(nome: str) -> Any:
    raise ValueError(f"valor não permitido em JSON: {nome}")


def _sem_repeticao(pares: list[tuple[str, Any]]) -> dict[str, Any]:
    objeto: dict[str, Any] = {}
    for chave, valor in pares:
        if chave in objeto:
            raise EntradaInvalida(chave, "campo repetido no JSON")
        objeto[chave] = valor
    return objeto


#: the json module's messages (English), as the user reads them
_ERROS_JSON = {
    "Expecting value": "esperava um valor",
    "Expecting property name enclosed in double quotes": "esperava o nome de um campo, entre aspas",
    "Expecting ':' delimiter": "esperava ':'",
    "Expecting ',' delimiter": "esperava ','",
    "Unterminated string starting at": "texto sem aspas de fechamento",
    "Invalid control character at": "caractere de controle no meio de um texto",
    "Invalid \\escape": "sequência de escape inválida",
    "Invalid \\uXXXX escape": "sequência \\uXXXX inválida",
    "Extra data": "há conteúdo depois do fim do JSON",
}


def _erro_json(mensagem: str) -> str:
    for ingles, portugues in _ERROS_JSON.items():
        if mensagem.startswith(ingles):
            return portugues
    return "formato inválido"


def _inteiro_json(texto: str) -> int:
    # Python refuses to read integers of more than 4300 digits, with an English message
    if len(texto.lstrip("-")) > 40:
        raise EntradaInvalida(None, f"número grande demais no JSON ({len(texto)} algarismos)")
    return int(texto)


def ler_json(texto: str) -> Any:
    """JSON with exact numbers: ``parse_float=Decimal`` (never a float), no NaN, no repeated key.

    >>> ler_json('{"consumo_mj_km": 1.83}')
    {'consumo_mj_km': Decimal('1.83')}
    >>> ler_json('{"regime": }')
    Traceback (most recent call last):
    multas.erros.EntradaInvalida: JSON inválido (linha 1, coluna 12): esperava um valor
    """
    try:
        return json.loads(
            texto,
            parse_float=Decimal,
            parse_int=_inteiro_json,
            parse_constant=_rejeitar_constante,
            object_pairs_hook=_sem_repeticao,
        )
    except json.JSONDecodeError as erro:
        raise EntradaInvalida(
            None,
            f"JSON inválido (linha {erro.lineno}, coluna {erro.colno}): {_erro_json(erro.msg)}",
        ) from None
    except RecursionError:
        raise EntradaInvalida(None, "JSON inválido: aninhamento profundo demais") from None
    except EntradaInvalida:
        raise  # a repeated key: the error names it
    except ValueError as erro:
        raise EntradaInvalida(None, f"JSON inválido: {erro}") from None


def despejar_json(objeto: Any, compacto: bool = False) -> str:
    if compacto:
        return json.dumps(objeto, ensure_ascii=False, separators=(",", ":"))
    return json.dumps(objeto, ensure_ascii=False, indent=2)


def _linhas(texto: str) -> Iterator[tuple[int, str]]:
    yield from enumerate(texto.splitlines(), 1)


@click.group(
    context_settings={"help_option_names": ["-h", "--help"]},
    options_metavar="[OPÇÕES]",
    subcommand_metavar="COMANDO [ARGUMENTOS]...",
)
@click.version_option(package_name="multas", message="multas %(version)s")
def cli() -> None:
    """multas: as multas da regulação de combustíveis e mobilidade, exatas e explicadas."""


@cli.command(options_metavar="[OPÇÕES]")
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
    with open(saida, "w", encoding="utf-8") as arquivo, redirect_stdout(arquivo):
        _calcular(texto, formato, eh_linhas)


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
    if caminho == "-":
        return sys.stdin.read()
    try:
        with open(caminho, encoding="utf-8") as arquivo:
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
        with open(saida, "wb") as arquivo:
            arquivo.write(conteudo)
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


@cli.command(options_metavar="[OPÇÕES]")
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


@cli.command(options_metavar="[OPÇÕES]")
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


@cli.command()
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Endereço em que o servidor escuta (o padrão aceita só conexões desta máquina).",
)
@click.option("--porta", default=8000, show_default=True, type=click.IntRange(1, 65535))
def servir(host: str, porta: int) -> None:
    """Inicia a API HTTP e a página web.

    Os casos salvos ficam em MULTAS_DATABASE_URL ou, sem ela, em dados/multas.db (SQLite).
    """
    import socket

    from multas.servidor import servir as iniciar

    try:  # a clear pt-BR message rather than uvicorn's English one
        familia = socket.AF_INET6 if ":" in host else socket.AF_INET
        with socket.socket(familia, socket.SOCK_STREAM) as teste:
            teste.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            teste.bind((host, porta))
    except OSError as erro:
        import errno

        motivo = {
            errno.EADDRINUSE: "a porta já está em uso (escolha outra com --porta)",
            errno.EACCES: "sem permissão para essa porta (use uma acima de 1024)",
            errno.EADDRNOTAVAIL: "esse endereço não existe nesta máquina",
        }.get(erro.errno or 0, "o sistema recusou o endereço")
        click.echo(f"Erro: não é possível escutar em {host}:{porta}: {motivo}.", err=True)
        sys.exit(1)
    endereco = f"[{host}]" if ":" in host else host
    click.echo(f"multas: página e API em http://{endereco}:{porta}/ (Ctrl+C para parar)", err=True)
    iniciar(host, porta)


def main() -> None:
    cli(prog_name="multas")
