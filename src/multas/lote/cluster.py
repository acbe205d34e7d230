"""A Dask client for a run, and silence: Dask's English log lines and warnings never reach the
user's terminal.

The ``distributed``, ``tornado`` and ``bokeh`` loggers print to stderr by default (and
``distributed`` warns, e.g. ``UserWarning: Sending large graph``). While a run holds the
client, their records and every warning go to the ``multas.dask`` logger instead, which has
no output of its own (a ``NullHandler``): an application that configures logging sees them
there; the command line prints only its own pt-BR messages.
"""

from __future__ import annotations

import contextlib
import logging
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import import_module
from typing import Any, TextIO

from multas.nucleo.erros import EntradaInvalida

#: where Dask's records and warnings go during a run
REGISTRO = logging.getLogger("multas.dask")
REGISTRO.addHandler(logging.NullHandler())

_BARULHENTOS = ("distributed", "tornado", "bokeh", "asyncio")


@dataclass(frozen=True)
class Dask:
    """Where to run: a scheduler address (``tcp://host:8786``), or ``None`` for a local
    cluster of ``trabalhadores`` processes with one thread each."""

    endereco: str | None = None
    trabalhadores: int = 2


class _Repassar(logging.Handler):
    def emit(self, registro: logging.LogRecord) -> None:
        REGISTRO.handle(registro)


@contextlib.contextmanager
def silencio() -> Iterator[None]:
    """Dask's log records and Python warnings to :data:`REGISTRO`, for the duration."""
    repassar = _Repassar()
    antes = {}
    for nome in _BARULHENTOS:
        logger = logging.getLogger(nome)
        antes[nome] = (logger.handlers[:], logger.propagate)
        logger.handlers = [repassar]
        logger.propagate = False
    mostrar = warnings.showwarning

    def registrar(
        message: Warning | str,
        category: type[Warning],
        filename: str,
        lineno: int,
        file: TextIO | None = None,
        line: str | None = None,
    ) -> None:
        REGISTRO.warning("%s: %s (%s:%s)", category.__name__, message, filename, lineno)

    warnings.showwarning = registrar
    try:
        yield
    finally:
        warnings.showwarning = mostrar
        for nome, (manipuladores, propagar) in antes.items():
            logger = logging.getLogger(nome)
            logger.handlers = manipuladores
            logger.propagate = propagar


def importar_distributed() -> Any:
    """``distributed``, or a pt-BR error saying how to install it."""
    try:
        with silencio():
            return import_module("distributed")  # typed loosely upstream
    except ImportError:
        raise EntradaInvalida(
            "--dask", "o Dask não está instalado; instale com: pip install 'multas[dask]'"
        ) from None


@contextlib.contextmanager
def cliente(onde: Dask) -> Iterator[Any]:
    """A ``distributed.Client`` for the run (a local cluster when there is no address),
    closed at the end; Dask stays silent meanwhile (:func:`silencio`)."""
    distributed = importar_distributed()
    with silencio():
        cluster: Any = None
        if onde.endereco is None:
            cluster = distributed.LocalCluster(
                n_workers=onde.trabalhadores,
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",
                silence_logs=logging.CRITICAL + 1,
            )
            conectado = distributed.Client(cluster)
        else:
            try:
                conectado = distributed.Client(onde.endereco)
            except (OSError, TimeoutError, ValueError) as erro:
                raise EntradaInvalida(
                    "--dask",
                    f"não foi possível conectar ao agendador Dask em {onde.endereco} "
                    f"({_motivo(erro)})",
                ) from None
        try:
            yield conectado
        finally:
            with contextlib.suppress(Exception):
                conectado.close()
            if cluster is not None:
                with contextlib.suppress(Exception):
                    cluster.close()


def _motivo(erro: BaseException) -> str:
    if isinstance(erro, TimeoutError) or "Timed out" in str(erro):
        return "tempo esgotado"
    if isinstance(erro, ValueError):
        return "endereço inválido"
    return getattr(erro, "strerror", None) or "conexão recusada"


def nucleos_do_cluster(conectado: Any) -> int:
    nucleos: int = sum(conectado.nthreads().values())
    return max(1, nucleos)
