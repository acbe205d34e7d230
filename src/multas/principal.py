"""The ``multas`` console script: the composition root that joins the adapters' commands.

The calculation commands live in :mod:`multas.cli` (a module per command group), the batch's
in :mod:`multas.lote.comando` and the server's in :mod:`multas.servidor.comando`. The adapters
never import each other (``make lint`` checks it with import-linter); only this module knows
all of them. Each command's module is imported when that command runs, so ``multas regimes``
loads neither the batch nor the server.
"""

from __future__ import annotations

import sys
from importlib import import_module

from multas.inicio import processo_proprio, sem_coleta
from multas.nucleo.erros import AJUDA_CODIGOS_DE_SAIDA
from multas.saidas.idioma import falar_portugues

falar_portugues()

import click  # noqa: E402

#: command name → "module:attribute" of its Click command, imported on first use
COMANDOS = {
    "ano": "multas.cli.ano:ano",
    "auditoria": "multas.servidor.administracao:auditoria",
    "banco": "multas.servidor.administracao:banco",
    "calcular": "multas.cli.calculo:calcular",
    "calendario": "multas.cli.calculo:calendario",
    "carteira": "multas.cli.carteira:carteira",
    "exposicao": "multas.lote.comando:exposicao",
    "legislacao": "multas.cli.legislacao:legislacao",
    "listas": "multas.cli.listas:listas",
    "lixeira": "multas.servidor.administracao:lixeira",
    "lote": "multas.lote.comando:lote",
    "manutencao": "multas.servidor.administracao:manutencao",
    "parcelamento": "multas.cli.parcelamento:parcelamento",
    "pendencias": "multas.cli.prazos:pendencias",
    "prazos": "multas.cli.prazos:prazos",
    "processo": "multas.cli.processo:processo",
    "reavaliar": "multas.cli.reavaliar:reavaliar",
    "regimes": "multas.cli.calculo:regimes",
    "servir": "multas.servidor.comando:servir",
    "usuarios": "multas.servidor.administracao:usuarios",
}


class _GrupoPreguicoso(click.Group):
    """A group whose commands are imported only when used (or listed in the help)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMANDOS)

    def invoke(self, ctx: click.Context) -> object:
        """Every command: a stored record that no longer matches its history, a database
        busy past its wait, or one that cannot be used (its URL unreadable, the connection
        refused: ``multas servir``'s start-up checks too), or a worker process lost on another
        core, is a pt-BR error (exit 1), never a traceback."""
        try:
            return super().invoke(ctx)
        except Exception as erro:
            paralelo = sys.modules.get("multas.servicos.em_paralelo")
            if paralelo is not None and isinstance(erro, paralelo.FilhoPerdido):
                click.echo(f"Erro: {erro}", err=True)  # a worker on another core: said so
                ctx.exit(1)
            registros = sys.modules.get("multas.servicos.persistencia.registros")
            if registros is not None and isinstance(
                erro, registros.BancoOcupado | registros.DistribuidorEmImportacao
            ):
                click.echo(f"Erro: {erro}.", err=True)
                ctx.exit(1)
            falha = registros.falha_do_banco(erro) if registros is not None else None
            if falha is not None:
                click.echo(f"Erro: {falha}.", err=True)
                ctx.exit(1)
            if registros is None or not isinstance(erro, registros.RegistroAlterado):
                raise
            click.echo(
                f"Erro: {erro.problema.mensagem}. O registro não é mostrado nem alterado; "
                "verifique com 'multas auditoria verificar'.",
                err=True,
            )
            ctx.exit(1)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMANDOS:
            return None
        modulo, atributo = COMANDOS[cmd_name].split(":")
        with sem_coleta():
            comando: click.Command = getattr(import_module(modulo), atributo)
        return comando


@click.group(
    cls=_GrupoPreguicoso,
    context_settings={"help_option_names": ["-h", "--help"]},
    options_metavar="[OPÇÕES]",
    subcommand_metavar="COMANDO [ARGUMENTOS]...",
    epilog=AJUDA_CODIGOS_DE_SAIDA,
)
@click.version_option(package_name="multas", message="multas %(version)s")
def cli() -> None:
    """multas: as multas da regulação de combustíveis e mobilidade, exatas e explicadas."""


#: commands whose process ends as soon as they are done (:func:`main`)
SAIDA_IMEDIATA = frozenset({"lote", "exposicao"})


def main() -> None:
    """The console script. After ``lote`` and ``exposicao`` the process ends at once
    (``os._exit``, once stdout and stderr are flushed): by then the output is complete,
    renamed into place and on disk, and no connection or child process is left, so the
    interpreter's own tear-down (freeing every object and module: 15–30 ms with NumPy and
    Arrow loaded) would only delay the shell. Every other command ends the usual way.

    The process is the command's own, so what its imports leave alive is frozen out of the
    garbage collector (:mod:`multas.inicio`).

    A ``MULTAS_*`` variable with an invalid value (:mod:`multas.servicos.configuracao`) is reported in
    pt-BR, naming it, with exit code 2."""
    import sys

    from multas.nucleo.erros import ConfiguracaoInvalida

    processo_proprio()
    try:
        try:
            cli(prog_name="multas")
        except ConfiguracaoInvalida as erro:  # a bad MULTAS_* variable: pt-BR, no traceback
            click.echo(f"Erro: {erro}", err=True)
            sys.exit(2)
    except SystemExit as fim:
        comando = next((a for a in sys.argv[1:] if not a.startswith("-")), None)
        if comando not in SAIDA_IMEDIATA:
            raise
        _terminar(fim.code)


def _terminar(codigo: object) -> None:
    import contextlib
    import os
    import sys

    if codigo is None:
        codigo = 0
    elif not isinstance(codigo, int):  # sys.exit("message"): Python prints it and exits 1
        print(codigo, file=sys.stderr)
        codigo = 1
    for fluxo in (sys.stdout, sys.stderr):
        if fluxo is None:  # started with that descriptor closed (`>&-`)
            continue
        with contextlib.suppress(OSError, ValueError):  # a closed pipe: nothing more to say
            fluxo.flush()
    os._exit(codigo)
