"""The progress bar of the long commands (``multas lote``, ``multas ano calcular``): one
mechanism, Rich's, on the error output, and only when it is a terminal (or when asked), so the
standard output and the files written never carry it. Asked for (``--progresso``) where the
error output is a file or a pipe, it is a line of text now and then (:class:`Linhas`) instead
of a bar, which only a terminal can redraw.

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
    and the time left; without, the count alone (``2804678/?``); and the rate."""

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


#: the text form writes a stage's line at most this often (seconds), and at its end
INTERVALO_DAS_LINHAS = 1.0


class Linhas:
    """:class:`Barra`'s interface as lines of text, for an error output that is not a terminal
    (a file, a pipe): each stage's count, its percentage when the total is known and its rate,
    at most every :data:`INTERVALO_DAS_LINHAS` seconds and once more at its end, e.g.
    ``lendo: 40.000 de 100.000 (40%), 20.000/s``. Stages may move from several threads."""

    def __init__(self, escrever: Callable[[str], None], relogio: Callable[[], float]) -> None:
        import threading

        self._escrever, self._relogio = escrever, relogio
        self._trava = threading.Lock()
        self._pendentes: dict[str, tuple[int, int | None]] = {}
        self._inicios: dict[str, float] = {}
        self._ditas: dict[str, int] = {}  # each stage's count in its last line

    def etapa(self, rotulo: str, total: int | None = None) -> Avancar:
        inicio = self._relogio()
        ultima = [-INTERVALO_DAS_LINHAS]
        self._pendentes[rotulo] = (0, total)
        self._inicios[rotulo] = inicio

        def avancar(feitas: int, total_agora: int | None = None) -> None:
            agora = self._relogio()
            fim = total_agora is not None and feitas >= total_agora
            with self._trava:
                self._pendentes[rotulo] = (feitas, total_agora)
                if fim or agora - inicio - ultima[0] >= INTERVALO_DAS_LINHAS:
                    ultima[0] = agora - inicio
                    self._linha(rotulo, feitas, total_agora, agora - inicio)
                    if fim:
                        del self._pendentes[rotulo]

        return avancar

    def _linha(self, rotulo: str, feitas: int, total: int | None, segundos: float) -> None:
        from multas.nucleo.dinheiro import formatar_numero

        self._ditas[rotulo] = feitas
        texto = f"{rotulo}: {formatar_numero(str(feitas))}"
        if total is not None and feitas <= total:
            percentual = int(100 * feitas / total) if total else 100
            texto += f" de {formatar_numero(str(total))} ({percentual}%)"
        if segundos > 0 and feitas:
            texto += f", {formatar_numero(str(int(feitas / segundos)))}/s"
        self._escrever(texto)

    def fechar(self) -> None:
        """The last line of each stage that did not reach its total (a count without one)."""
        with self._trava:
            for rotulo, (feitas, total) in list(self._pendentes.items()):
                if self._ditas.get(rotulo) == feitas:
                    continue
                self._linha(rotulo, feitas, total, self._relogio() - self._inicios[rotulo])
            self._pendentes.clear()


@contextmanager
def barra(
    ativa: bool | None = None, console: Console | None = None
) -> Iterator[Barra | Linhas | None]:
    """A :class:`Barra` on stderr while the block runs, or ``None`` (nothing is printed).

    ``ativa``: ``None`` draws it only when stderr is a terminal; ``True``, always, as lines of
    text (:class:`Linhas`) where it is not a terminal; ``False``, never (a closed stderr,
    ``None`` in Python, is not a terminal). ``console``: where to draw it (tests), instead of
    stderr."""
    terminal = (
        console.is_terminal
        if console is not None
        else sys.stderr is not None and sys.stderr.isatty()
    )
    if ativa is None:
        ativa = terminal
    if not ativa or (console is None and sys.stderr is None):
        yield None
        return
    if not terminal:
        import time

        def escrever(texto: str) -> None:
            if console is not None:
                console.file.write(texto + "\n")
            else:
                print(texto, file=sys.stderr, flush=True)

        linhas = Linhas(escrever, time.monotonic)
        try:
            yield linhas
        finally:
            linhas.fechar()
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
        _taxa(),
        _faltam(),
        TimeElapsedColumn(),
        console=console or Console(stderr=True),
        transient=True,
    ) as progresso:
        yield Barra(progresso)


def _taxa() -> Any:
    """How many a second, in pt-BR ("12.345/s"); nothing before the first."""
    from rich.progress import ProgressColumn, Task
    from rich.text import Text

    from multas.nucleo.dinheiro import formatar_numero

    class Taxa(ProgressColumn):
        def render(self, task: Task) -> Text:
            if not task.speed:
                return Text("")
            return Text(f"{formatar_numero(str(int(task.speed)))}/s", style="progress.data.speed")

    return Taxa()


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
