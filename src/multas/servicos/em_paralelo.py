"""Work that each item does on its own, on every core (issue 36, item 5): the year's notices,
one PDF each.

:func:`em_paralelo` maps a function over a list in worker processes started by ``fork``, so the
function and the list reach them by inheritance (a Jinja environment, a letterhead template,
the models of the notices: nothing is pickled on the way in) and only an index goes out and the
result's bytes come back. The results come in the list's order, so the output is the same,
byte for byte, as on one core (the PDFs are ReportLab's *invariant* documents: no date nor id
of the run inside). Only the command line asks for more than one process: a server's threads
and ``fork`` do not mix, so the server renders on its own thread.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Generator, Sequence
from typing import Any

#: what the workers run, set just before they are forked (inherited, never pickled)
_TAREFA: tuple[Callable[[Any], bytes], Sequence[Any]] | None = None


def nucleos() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _um(indice: int) -> bytes:
    assert _TAREFA is not None
    fazer, itens = _TAREFA
    return fazer(itens[indice])


def em_paralelo(
    fazer: Callable[[Any], bytes], itens: Sequence[Any], processos: int = 1
) -> Generator[bytes, None, None]:
    """``fazer`` of each item, in order: in ``processos`` forked workers when there are at
    least two items for each (fewer are not worth a worker's start), else here."""
    global _TAREFA
    if processos <= 1 or len(itens) < 2 * processos or not hasattr(os, "fork"):
        yield from map(fazer, itens)
        return
    _TAREFA = (fazer, itens)
    try:
        with multiprocessing.get_context("fork").Pool(processos) as pool:
            lote = max(1, min(16, len(itens) // (processos * 8)))
            yield from pool.imap(_um, range(len(itens)), chunksize=lote)
    finally:
        _TAREFA = None
