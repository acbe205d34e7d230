"""One long import at a time (issue 32, item 1): a file of up to 100,000 rows is parsed,
validated and written by one request, and two or three of them at once would multiply the
server's memory and make every other request wait for the write lock in turn. So a process
runs one import of a file at a time; another one sent meanwhile is refused at once, before its
file is even parsed, with :class:`CargaEmAndamento` (HTTP 429 with ``Retry-After``, never a 503
for others). Each worker process of the server has its own turn (``docs/seguranca.md``)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from multas.servicos.alocador import devolver_memoria

#: the turn: held by the import that runs
_VEZ = threading.Lock()
#: the seconds a refused import is told to wait before trying again
TENTAR_DE_NOVO_EM = 10


class CargaEmAndamento(Exception):
    """Another import of a file is running in this process; nothing was read or written."""

    def __init__(self) -> None:
        super().__init__(
            "outra importação de arquivo está em andamento neste servidor; nada foi lido nem "
            f"gravado: envie o arquivo de novo em {TENTAR_DE_NOVO_EM} segundos"
        )


@contextmanager
def uma_por_vez() -> Iterator[None]:
    """Run the block as this process's one import, or raise :class:`CargaEmAndamento` at once
    when another holds the turn."""
    if not _VEZ.acquire(blocking=False):
        raise CargaEmAndamento
    try:
        yield
    finally:
        _VEZ.release()
        devolver_memoria()  # what the file's rows held, back to the system
