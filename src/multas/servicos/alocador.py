"""The server's memory after a long import (issue 32, item 1): glibc's allocator keeps what a
freed object held, and gives each thread that allocates at once an arena of its own (up to 8
per core). A 100,000-row import frees a hundred megabytes when it ends, in whichever thread of
the server's pool ran it; kept in that arena, it made the resident memory grow import after
import (``bench/importacao_longa.py``). So the server limits the arenas when it starts
(:func:`limitar_arenas`) and hands the free memory back to the system after each file import
(:func:`devolver_memoria`). Elsewhere than glibc (macOS, musl) both do nothing."""

from __future__ import annotations

import ctypes
import sys
from functools import cache
from typing import Any

#: glibc's ``mallopt`` parameter for the most arenas (malloc.h)
M_ARENA_MAX = -8
#: arenas for the whole server: the import's thread and the requests' threads share them
ARENAS = 2


@cache
def _glibc() -> Any:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return None
    return libc if hasattr(libc, "malloc_trim") and hasattr(libc, "mallopt") else None


def limitar_arenas(arenas: int = ARENAS) -> bool:
    """At most ``arenas`` arenas from now on (threads started later share them); whether it
    was done."""
    libc = _glibc()
    return bool(libc is not None and libc.mallopt(M_ARENA_MAX, arenas))


def devolver_memoria() -> bool:
    """Hand the allocator's free memory back to the system; whether any was."""
    libc = _glibc()
    return bool(libc is not None and libc.malloc_trim(0))
