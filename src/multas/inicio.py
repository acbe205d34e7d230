"""The start-up of a command: its modules are imported with the cyclic garbage collector paused,
then set aside from it (issue 19, item 8: a lifecycle command within 1.5× of
``python -c "import sqlalchemy.orm"``; ``bench/inicio_ciclo.py`` measures it).

Importing the lifecycle's modules (SQLAlchemy, the declarative tables, the rules, the calendar)
allocates hundreds of thousands of objects that live as long as the process, and almost no
garbage. The collector would walk them all, again and again, while they are imported, and once
more when the interpreter ends. So :func:`sem_coleta`:

- pauses the collector while the import runs, and restores it as it was;
- then, in the console script's own process (:func:`processo_proprio`, called by
  :func:`multas.principal.main`), if the block imported a module, freezes what exists
  (:func:`gc.freeze`): those objects are never walked again, in the command or at its exit.
  Objects made afterwards (the database's connections, a request's, a batch's) are collected as
  usual, so a long command (``multas lote``, ``multas servir``) does not grow. A process that
  only calls the commands (a test's ``CliRunner``, a script importing :mod:`multas.cli`) never
  freezes: what it holds at that moment (garbage from before included, such as a pool of
  connections waiting for the collector) is its own business.

Measured on 2 cores (``bench/inicio_ciclo.py``, medians of interleaved runs): a lifecycle command
went from about 1.6× to about 1.05× of the SQLAlchemy import; the bench also prints the ratio to
that import with the same freeze, the like-for-like comparison.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator
from contextlib import contextmanager

#: whether :func:`sem_coleta` freezes (set once, by the console script)
_congelar = False


def processo_proprio() -> None:
    """The process is the ``multas`` command's own (:func:`multas.principal.main`): from now
    on, what a command's import leaves alive is frozen out of the collector."""
    global _congelar
    _congelar = True


@contextmanager
def sem_coleta() -> Iterator[None]:
    """Runs the block (an import) with the cyclic garbage collector paused, if it was on; if the
    block imported a module, in the command's own process, the objects alive at its end are
    frozen out of the collector."""
    ligado = gc.isenabled()
    modulos = len(sys.modules)
    gc.disable()
    try:
        yield
    finally:
        if _congelar and len(sys.modules) != modulos:
            gc.freeze()
        if ligado:
            gc.enable()
