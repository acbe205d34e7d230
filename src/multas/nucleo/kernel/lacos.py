"""The RenovaBio rules of :mod:`multas.nucleo.kernel.renovabio` as one loop over the rows, compiled
by Numba (``njit``) on first use: one pass per block, no temporaries, about 3× the NumPy
execution of the same code (``bench/kernel_vs_openfisca.py``). Loading Numba costs about half a second per process, so the loop
serves large in-memory batches (the exposure simulation, the throughput benchmark);
``multas lote``, bound by reading and writing, runs the rules on NumPy columns.

Nothing of a rule is written here: the loop runs the functions of
:mod:`multas.nucleo.kernel.renovabio` themselves (their code objects), with the primitives replaced
by their scalar twins and the drivers that module generates, all from that module.
With ``numba=False`` (the adapters pass ``MULTAS_SEM_NUMBA``) the same loop runs uncompiled,
slowly.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import cache
from types import FunctionType
from typing import Any

from multas.nucleo.kernel import renovabio

_TRAVA = threading.Lock()


def compilado(nome: str, numba: bool = True) -> Callable[..., None]:
    """The loop ``nome`` (``distribuidor_linhas``, ``produtor_linhas``), compiled by Numba
    (cached on disk), or plain Python with ``numba=False``."""
    with _TRAVA:  # one compilation, even when two threads ask at once
        return _compilar(nome, numba)


@cache
def _espaco(usar_numba: bool) -> dict[str, Any]:
    """A namespace like the module's, with the scalar primitives, where every step and loop
    of the module is the module's own code (so a step calls the scalar versions)."""
    espaco = dict(vars(renovabio))
    numba: Any = None
    if usar_numba:
        from importlib import import_module

        numba = import_module("numba")

    def jit(funcao: Callable[..., Any]) -> Any:
        if numba is None:
            return funcao
        return numba.njit(cache=True, nogil=True, error_model="numpy", inline="always")(funcao)

    for nome, funcao in renovabio.ESCALARES.items():
        espaco[nome] = funcao if funcao in (max, min) else jit(funcao)
    for nome in renovabio.PASSOS:
        original = getattr(renovabio, nome)
        espaco[nome] = jit(FunctionType(original.__code__, espaco, nome))
    for nome, fonte in renovabio.LACOS.items():
        # compiled as the rules' file, so Numba's cache follows that file's changes
        exec(compile(fonte, renovabio.__file__, "exec"), espaco)
        espaco[nome] = jit(espaco[nome])
    return espaco


@cache
def _compilar(nome: str, numba: bool) -> Callable[..., None]:
    funcao: Callable[..., None] = _espaco(numba)[nome]
    return funcao


__all__ = ["compilado"]
