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
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Any, TypeVar

C = TypeVar("C")

#: what the workers run, set just before they are forked (inherited, never pickled)
_TAREFA: tuple[Callable[[Any], bytes], Sequence[Any]] | None = None
#: what the workers of :func:`em_lotes` run, set just before they are forked
_FAZER: Callable[[Any], bytes] | None = None


def nucleos() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def _um(indice: int) -> tuple[bool, Any]:
    assert _TAREFA is not None
    fazer, itens = _TAREFA
    return _protegido(fazer, itens[indice])


def _uns(indices: range) -> list[tuple[bool, Any]]:
    return [_um(i) for i in indices]


def em_paralelo(
    fazer: Callable[[Any], bytes], itens: Sequence[Any], processos: int = 1
) -> Generator[bytes, None, None]:
    """``fazer`` of each item, in order: in ``processos`` forked workers when there are at
    least two items for each (fewer are not worth a worker's start), else here. A worker
    that dies or fails is :class:`FilhoPerdido` (never a hang); Ctrl-C is the parent's."""
    global _TAREFA
    if processos <= 1 or len(itens) < 2 * processos or not hasattr(os, "fork"):
        yield from map(fazer, itens)
        return
    _TAREFA = (fazer, itens)
    try:
        with _trabalhadores(processos) as executor:
            lote = max(1, min(16, len(itens) // (processos * 8)))
            # submit, not ``executor.map``: on an error, map's iterator cancels the futures
            # left here while the pool's own thread may be failing them (CPython 3.11's
            # ``terminate_broken`` then raises InvalidStateError in that thread)
            futuros = [
                executor.submit(_uns, range(i, min(i + lote, len(itens))))
                for i in range(0, len(itens), lote)
            ]
            for futuro in futuros:
                for certo, valor in futuro.result():
                    yield _colhido(certo, valor)
    finally:
        _TAREFA = None


class FilhoPerdido(RuntimeError):
    """A worker of :func:`em_lotes` died (a signal, the OOM killer) or failed: its traceback,
    as text (the exception itself may not survive a pickle)."""


def _protegido(fazer: Callable[[Any], bytes], item: Any) -> tuple[bool, Any]:
    """``fazer(item)`` in a worker: ``(True, its bytes)``, or ``(False, the traceback)``."""
    try:
        return True, fazer(item)
    except Exception:  # any exception, as text: its pickle may not come back
        import traceback

        return False, traceback.format_exc()


def _colhido(certo: bool, valor: Any) -> bytes:
    if not certo:
        raise FilhoPerdido(f"um processo filho falhou:\n{valor}")
    assert isinstance(valor, bytes)
    return valor


def _do_lote(item: Any) -> tuple[bool, Any]:
    assert _FAZER is not None
    return _protegido(_FAZER, item)


def _sem_ctrl_c() -> None:
    """Ctrl-C is the parent's: it terminates the workers (a worker that took it could die
    holding the pool's queue lock)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def em_lotes(
    fazer: Callable[[Any], bytes], lotes: Iterable[tuple[Sequence[Any], C]], processos: int
) -> Generator[tuple[list[bytes], C], None, None]:
    """``fazer`` of each item of each lot, in ``processos`` forked workers started once, a lot
    at a time, in order, each with the value that came with it. While the workers do one lot,
    the next is read (``lotes`` runs here) and the caller handles the one before: reading,
    the work and what comes after overlap. Unlike :func:`em_paralelo`, the items are pickled
    on the way in (they are read after the fork); ``fazer`` is inherited. Without ``fork``,
    or on one core, here. A worker that dies or fails is :class:`FilhoPerdido`."""
    global _FAZER
    if processos <= 1 or not hasattr(os, "fork"):
        for itens, junto in lotes:
            yield [fazer(i) for i in itens], junto
        return

    def colher(futuros: list[Any]) -> list[bytes]:
        return [_colhido(certo, valor) for futuro in futuros for certo, valor in futuro.result()]

    _FAZER = fazer
    try:
        with _trabalhadores(processos) as executor:
            anterior = None
            for itens, junto in lotes:
                lote = max(1, min(16, len(itens) // (processos * 8)))
                futuros = [
                    executor.submit(_varios, itens[i : i + lote])
                    for i in range(0, len(itens), lote)
                ]
                if anterior is not None:
                    yield colher(anterior[0]), anterior[1]
                anterior = (futuros, junto)
            if anterior is not None:
                yield colher(anterior[0]), anterior[1]
    finally:
        _FAZER = None


@contextmanager
def _trabalhadores(processos: int) -> Iterator[ProcessPoolExecutor]:
    """``processos`` forked workers that ignore Ctrl-C. Whatever ends the work early (an
    error, Ctrl-C, the caller stopping) terminates them, never waits for them; a worker that
    died (a signal, the OOM killer) is :class:`FilhoPerdido`."""
    executor = ProcessPoolExecutor(
        processos, mp_context=multiprocessing.get_context("fork"), initializer=_sem_ctrl_c
    )
    try:
        yield executor
    except BaseException as erro:
        for filho in list((getattr(executor, "_processes", None) or {}).values()):
            filho.terminate()
        executor.shutdown(wait=False, cancel_futures=True)
        if isinstance(erro, BrokenProcessPool):  # on submitting or on collecting
            raise FilhoPerdido("um processo filho morreu (sinal, memória?)") from erro
        raise
    executor.shutdown(wait=True)


def _varios(itens: Sequence[Any]) -> list[tuple[bool, Any]]:
    return [_do_lote(i) for i in itens]
