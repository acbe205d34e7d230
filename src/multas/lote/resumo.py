"""What ``multas lote`` says on the error output: its progress while it runs (the phases
``lendo``, ``calculando`` and ``gravando``, on the shared bar of :mod:`multas.saidas.progresso`)
and its summary at the end, in pt-BR, with the grammar of each count ("1 linha, 1 calculada";
"2 linhas, 2 calculadas") and without the engine's internals (how many rows the scalar engine
took, and why, is said with ``--exigir-kernel``, the option that is about it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from multas.nucleo.dinheiro import formatar_numero

#: the batch's phases, in the order its rows go through them
FASES = ("lendo", "calculando", "gravando")

Avancar = Callable[[int, int | None], None]


def contagem(quantas: int, singular: str, plural: str) -> str:
    """``1 linha``, ``2 linhas``, ``1.234 linhas`` (pt-BR thousands).

    >>> contagem(1, "linha", "linhas"), contagem(12345, "linha", "linhas")
    ('1 linha', '12.345 linhas')
    """
    return f"{formatar_numero(str(quantas))} {singular if quantas == 1 else plural}"


def dizer_resumo(resumo: Any, entrada: str, saida: str, em_partes: bool) -> None:
    """The summary: the rows, how the input was read (and what was left out of it), the
    warnings about the output."""
    por_segundo = int(resumo.linhas / resumo.segundos) if resumo.segundos else 0
    segundos = f"{resumo.segundos:.1f}".replace(".", ",")
    particoes = ""
    if em_partes:
        particoes = f" em {contagem(resumo.particoes, 'arquivo', 'arquivos')}"
    click.echo(
        f"multas lote: {contagem(resumo.linhas, 'linha', 'linhas')}{particoes}, "
        f"{contagem(resumo.sucessos, 'calculada', 'calculadas')}, "
        f"{formatar_numero(str(resumo.erros))} com erro, em {segundos} s "
        f"({formatar_numero(str(por_segundo))} linhas/s) → {saida}",
        err=True,
    )
    arquivo = "" if em_partes else f"{Path(entrada).name}: "  # a partition's are named
    for aviso in resumo.leitura:  # how the input was read, and what was left out of it
        click.echo(f"multas lote: {arquivo}{aviso}", err=True)
    avisar(resumo.avisos)


def dizer_motor(resumo: Any) -> None:
    """How many valid rows the scalar engine computed instead of the kernel, and why (each
    reason, the most frequent first)."""
    motivos = sorted(resumo.motivos.items(), key=lambda item: (-item[1], item[0]))
    validas = contagem(resumo.motor, "linha válida calculada", "linhas válidas calculadas")
    click.echo(
        f"multas lote: {validas} pelo motor escalar, não pelo kernel (o mesmo resultado, "
        "mais devagar):",
        err=True,
    )
    for motivo, linhas in motivos:
        click.echo(f"  {contagem(linhas, 'linha', 'linhas')}: {motivo}", err=True)


def avisar(avisos: dict[str, int]) -> None:
    """The summary's warnings about the output (money kept as text in XLSX), with counts."""
    for aviso, celulas in sorted(avisos.items()):
        click.echo(
            f"multas lote: aviso: {contagem(celulas, 'célula', 'células')}: {aviso}", err=True
        )


@contextmanager
def progresso(
    ativa: bool | None = None, em_partes: bool = False
) -> Iterator[tuple[Avancar | None, Mapping[str, Avancar] | None]]:
    """The batch's progress (:mod:`multas.saidas.progresso`): for one file, a line per phase
    (``lendo``, ``calculando``, ``gravando``); for a partitioned input, its rows. ``ativa`` is
    ``--progresso``: ``None`` on a terminal only; with it, lines of text on a file."""
    from multas.saidas.progresso import barra

    with barra(ativa) as aberta:
        if aberta is None:
            yield None, None
            return
        if em_partes:  # each file is read, computed and written by its own task: its rows
            yield aberta.etapa("linhas"), None
            return
        yield None, {fase: aberta.etapa(fase) for fase in FASES}
