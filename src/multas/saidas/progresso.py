"""The progress bar of the long commands (``multas lote``, ``multas ano calcular``): one
mechanism, Rich's, on the error output, and only when it is a terminal (or when asked), so the
standard output and the files written never carry it.

A run goes in stages (the batch: its rows; the year: its distributors, then its notices), each
with its total when known. Code that reports progress takes an :data:`Avancar` (``feitas``,
``total``) and knows nothing of the bar: a test gives it a list's ``append``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console

#: progress so far: (done, total); ``total`` ``None`` while it is not known
Avancar = Callable[[int, int | None], None]


class Barra:
    """A bar with one line per stage (:meth:`etapa`): with its total, the count, the percentage
    and the time left; without, the count alone (``2804678/?``)."""

    def __init__(self, progresso: Any) -> None:
        self._progresso = progresso

    def etapa(self, rotulo: str, total: int | None = None) -> Avancar:
        """A new stage named ``rotulo`` (pt-BR) and the function that moves it on.

        A total may be an estimate (the batch counts a CSV's newlines): once the work passes
        it, the stage drops it for good and shows the count alone, never more than 100 %."""
        tarefa = self._progresso.add_task(rotulo, total=total)
        ultrapassado = False

        def avancar(feitas: int, total: int | None = None) -> None:
            nonlocal ultrapassado
            if total is not None and feitas > total and not ultrapassado:
                ultrapassado = True
                # Rich's update cannot unset a total: the task itself, before it finishes
                for tarefa_rich in self._progresso.tasks:
                    if tarefa_rich.id == tarefa:
                        tarefa_rich.total, tarefa_rich.finished_time = None, None
            self._progresso.update(tarefa, completed=feitas, total=None if ultrapassado else total)

        return avancar


@contextmanager
def barra(ativa: bool | None = None, console: Console | None = None) -> Iterator[Barra | None]:
    """A :class:`Barra` on stderr while the block runs, or ``None`` (nothing is printed).

    ``ativa``: ``None`` draws it only when stderr is a terminal; ``True``, always; ``False``,
    never (a closed stderr, ``None`` in Python, is not a terminal). ``console``: where to draw
    it (tests), instead of stderr."""
    if ativa is None:
        ativa = sys.stderr is not None and sys.stderr.isatty()
    if not ativa:
        yield None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TaskProgressColumn(),  # the percentage; nothing without a total
        _faltam(),
        TimeElapsedColumn(),
        console=console or Console(stderr=True),
        transient=True,
    ) as progresso:
        yield Barra(progresso)


def _faltam() -> Any:
    """Rich's time left, said in pt-BR ("faltam 0:01:23"); nothing without a total."""
    from rich.progress import Task, TimeRemainingColumn
    from rich.text import Text

    class Faltam(TimeRemainingColumn):
        def render(self, task: Task) -> Text:
            restante = super().render(task)
            if task.total is None or not restante.plain:
                return restante
            return Text(f"faltam {restante.plain}", style=restante.style)

    return Faltam()
