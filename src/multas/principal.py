"""The ``multas`` console script: the composition root that joins the adapters' commands.

The calculation commands live in :mod:`multas.cli`, the batch's in :mod:`multas.lote.comando`
and the server's in :mod:`multas.servidor.comando`. The adapters never import each other
(``make lint`` checks it with import-linter); only this module knows all of them. Each
command's module is imported when that command runs, so ``multas regimes`` loads neither the
batch nor the server.
"""

from __future__ import annotations

from importlib import import_module

from multas.idioma import falar_portugues

falar_portugues()

import click  # noqa: E402

#: command name → "module:attribute" of its Click command, imported on first use
COMANDOS = {
    "auditoria": "multas.servidor.administracao:auditoria",
    "calcular": "multas.cli:calcular",
    "carteira": "multas.cli:carteira",
    "exposicao": "multas.lote.comando:exposicao",
    "legislacao": "multas.cli:legislacao",
    "listas": "multas.cli:listas",
    "lote": "multas.lote.comando:lote",
    "prazos": "multas.cli:prazos",
    "processo": "multas.cli:processo",
    "regimes": "multas.cli:regimes",
    "servir": "multas.servidor.comando:servir",
    "usuarios": "multas.servidor.administracao:usuarios",
}


class _GrupoPreguicoso(click.Group):
    """A group whose commands are imported only when used (or listed in the help)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMANDOS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMANDOS:
            return None
        modulo, atributo = COMANDOS[cmd_name].split(":")
        comando: click.Command = getattr(import_module(modulo), atributo)
        return comando


@click.group(
    cls=_GrupoPreguicoso,
    context_settings={"help_option_names": ["-h", "--help"]},
    options_metavar="[OPÇÕES]",
    subcommand_metavar="COMANDO [ARGUMENTOS]...",
)
@click.version_option(package_name="multas", message="multas %(version)s")
def cli() -> None:
    """multas: as multas da regulação de combustíveis e mobilidade, exatas e explicadas."""


def main() -> None:
    cli(prog_name="multas")
