"""The writers' queue of one process (issue 32, item 1): :class:`FilaDeEscrita` hands the turn
to write over in the order it was asked for.

A plain :class:`threading.Lock` is not fair: the thread that releases it and asks again at
once (an import writing part after part, its leftovers erased transaction after transaction)
usually takes it again before a waiting thread has even woken, and a login or another user's
save could wait for the whole import. Here a thread that asks again queues behind those already
waiting, so nobody waits for more than the writes queued before them.
"""

from __future__ import annotations

import threading
import time
from collections import deque


class FilaDeEscrita:
    """A lock taken in the order it was asked for (first come, first served), with a
    timeout."""

    def __init__(self) -> None:
        self._condicao = threading.Condition(threading.Lock())
        self._fila: deque[object] = deque()
        self._ocupada = False

    def acquire(self, timeout: float) -> bool:
        """Wait for the turn, at most ``timeout`` seconds: ``True`` once it is this thread's,
        ``False`` when the time ran out (the place in the queue is given up)."""
        fim = time.monotonic() + timeout
        vez = object()
        with self._condicao:
            self._fila.append(vez)
            while self._ocupada or self._fila[0] is not vez:
                resta = fim - time.monotonic()
                if resta <= 0:
                    self._fila.remove(vez)
                    self._condicao.notify_all()  # the next in line may be the first now
                    return False
                self._condicao.wait(resta)
            self._fila.popleft()
            self._ocupada = True
            return True

    def release(self) -> None:
        with self._condicao:
            self._ocupada = False
            self._condicao.notify_all()
