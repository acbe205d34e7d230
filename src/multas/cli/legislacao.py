"""``multas legislacao``: the dated history of every legal parameter, and the monthly Selic
(``multas legislacao selic``: the months the calculations use, each stretch with its source;
``multas legislacao selic atualizar ARQUIVO``: adds the months of the Banco Central's CSV)."""

from __future__ import annotations

import sys

from multas.saidas.idioma import falar_portugues

falar_portugues()

import click  # noqa: E402

from multas.cli.comum import _BANCO, _eco, _erro, _repositorio  # noqa: E402
from multas.nucleo.erros import EntradaInvalida  # noqa: E402
from multas.nucleo.json_exato import despejar_json  # noqa: E402

_FORMATO = click.option(
    "--formato", "-f", type=click.Choice(("texto", "json")), default="texto", show_default=True
)


@click.group(
    invoke_without_command=True,
    options_metavar="[OPÇÕES]",
    subcommand_metavar="[selic [atualizar ARQUIVO]]",
)
@_FORMATO
@click.option(
    "--parametro",
    "-p",
    default="",
    metavar="PREFIXO",
    help="Só os parâmetros cujo nome começa assim.",
)
@click.pass_context
def legislacao(contexto: click.Context, formato: str, parametro: str) -> None:
    """Mostra o histórico de cada parâmetro legal, com datas e fontes; 'multas legislacao
    selic' mostra a taxa Selic mensal e 'multas legislacao selic atualizar ARQUIVO' acrescenta
    os meses publicados pelo Banco Central."""
    if contexto.invoked_subcommand is not None:
        return
    from multas.nucleo.catalogo import descrever_legislacao, legislacao_como_texto

    if formato == "json":
        click.echo(despejar_json(descrever_legislacao(parametro)))
    else:
        click.echo(legislacao_como_texto(parametro), nl=False)


@legislacao.group(
    "selic",
    invoke_without_command=True,
    options_metavar="[OPÇÕES]",
    subcommand_metavar="[atualizar ARQUIVO]",
)
@_FORMATO
@_BANCO
@click.pass_context
def selic(contexto: click.Context, formato: str, banco: str | None) -> None:
    """A taxa Selic mensal (série 4390 do Banco Central, % ao mês) que os cálculos usam: a
    publicada com o projeto e os meses acrescentados ao banco, cada trecho com a sua fonte. O
    banco só é lido, e só se já existir."""
    if contexto.invoked_subcommand is not None:
        return
    from multas.nucleo.legislacao.selic import serie_enviada
    from multas.servicos.selic import como_texto, descrever, serie_do_banco

    serie = serie_do_banco(banco) or serie_enviada()
    if formato == "json":
        click.echo(despejar_json(descrever(serie)))
    else:
        _eco(como_texto(serie), nl=False)


@selic.command("atualizar", options_metavar="[OPÇÕES]")
@click.argument("arquivo", type=click.Path(dir_okay=False, allow_dash=True), metavar="ARQUIVO")
@_FORMATO
@_BANCO
def atualizar(arquivo: str, formato: str, banco: str | None) -> None:
    """Acrescenta ao banco os meses da Selic do ARQUIVO ('-' para a entrada padrão): o CSV da
    série 4390 do Banco Central ("data";"valor", um mês por linha, dd/mm/aaaa e vírgula
    decimal). Só os meses depois do último da série entram, contíguos; um mês que a série já
    tem com a mesma taxa é ignorado, com outra é recusado. Rodar de novo não acrescenta nada.
    Fica na auditoria, em nome de quem roda o comando."""
    from multas.servicos.ambiente import operador_local
    from multas.servicos.selic import LIMITE_BYTES
    from multas.servicos.selic import atualizar as fazer

    conteudo = _ler_bytes(arquivo, LIMITE_BYTES + 1)
    nome = "entrada padrão" if arquivo == "-" else arquivo
    try:
        resumo = fazer(_repositorio(banco), conteudo, nome, operador_local())
    except EntradaInvalida as erro:
        _erro(erro, formato)
        sys.exit(2)
    if formato == "json":
        click.echo(despejar_json(resumo.como_dict()))
    else:
        _eco(resumo.texto(), nl=False)


def _ler_bytes(caminho: str, limite: int) -> bytes:
    """At most ``limite`` bytes of the file (or of the standard input, ``-``)."""
    if caminho == "-":
        return sys.stdin.buffer.read(limite)
    try:
        with open(caminho, "rb") as arquivo:
            return arquivo.read(limite)
    except OSError as erro:
        raise click.UsageError(f"não foi possível ler {caminho!r} ({erro.strerror})") from None
