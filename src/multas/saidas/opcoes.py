"""The options of how an imported file is read, the same for every command that reads one
(``multas ano calcular``, ``multas carteira importar``, ``multas processo importar``, ``multas
lote``): each overrides what :mod:`multas.nucleo.dialeto` and :mod:`multas.nucleo.cabecalhos`
detect, file by file (docs/arquivos.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

if TYPE_CHECKING:
    from multas.nucleo.dialeto import Dialeto

F = TypeVar("F", bound=Callable[..., Any])


def opcoes_do_arquivo(sufixo: str = "", qual: str = "do arquivo") -> Callable[[F], F]:
    """The options of how one file is read, each overriding what is detected
    (:mod:`multas.nucleo.dialeto`, :mod:`multas.nucleo.cabecalhos`): ``--codificacao``,
    ``--separador``, ``--decimal`` and ``--coluna CAMPO=CABEÇALHO`` (repeatable), with
    ``sufixo`` (``-cotacoes``) when a command reads two files."""
    nome = sufixo.replace("-", "_")

    def aplicar(funcao: F) -> F:
        for opcao in reversed(
            (
                click.option(
                    f"--codificacao{sufixo}",
                    f"codificacao{nome}",
                    default=None,
                    metavar="utf-8|latin-1",
                    help=f"Codificação {qual} (padrão: detectada; UTF-8, senão Latin-1/CP1252).",
                ),
                click.option(
                    f"--separador{sufixo}",
                    f"separador{nome}",
                    default=None,
                    metavar="','|';'|tab",
                    help=f"Separador do CSV {qual} (padrão: detectado).",
                ),
                click.option(
                    f"--decimal{sufixo}",
                    f"decimal{nome}",
                    default=None,
                    metavar="ponto|virgula",
                    help=f"Números {qual}: 1234.56 (ponto) ou 1.234,56 (virgula) (padrão: "
                    "detectado).",
                ),
                click.option(
                    f"--coluna{sufixo}",
                    f"coluna{nome}",
                    multiple=True,
                    metavar="CAMPO=CABEÇALHO",
                    help=f"Lê a coluna CABEÇALHO {qual} como o campo CAMPO (repetível).",
                ),
            )
        ):
            funcao = opcao(funcao)
        return funcao

    return aplicar


def leitura_do_arquivo(opcoes: dict[str, Any], sufixo: str = "") -> tuple[Dialeto, dict[str, str]]:
    """The :class:`multas.nucleo.dialeto.Dialeto` and the ``--coluna`` mapping of the options
    of :func:`opcoes_do_arquivo` (an error names the option)."""
    from multas.nucleo.cabecalhos import ler_colunas
    from multas.nucleo.dialeto import ler_dialeto

    nome = sufixo.replace("-", "_")
    dialeto = ler_dialeto(
        opcoes.pop(f"codificacao{nome}"),
        opcoes.pop(f"separador{nome}"),
        opcoes.pop(f"decimal{nome}"),
        sufixo,
    )
    return dialeto, ler_colunas(opcoes.pop(f"coluna{nome}"), f"--coluna{sufixo}")
