"""Record ids: signed 64-bit integers, from 1 to 2^63 − 1, on SQLite and PostgreSQL alike.

One definition for every table, route and command: an id outside this range names no record
(a 404, or ``None``), and never reaches SQL. Kept apart from :mod:`multas.servicos.persistencia` so that
the command line can use it without importing SQLAlchemy.
"""

from __future__ import annotations

#: the largest id a record can have
MAIOR_ID = 2**63 - 1


def id_valido(numero: object) -> bool:
    """Whether ``numero`` can be the id of a record (an integer from 1 to 2^63 − 1).

    >>> id_valido(1), id_valido(2**63 - 1), id_valido(2**63), id_valido(0), id_valido(True)
    (True, True, False, False, False)
    """
    return isinstance(numero, int) and not isinstance(numero, bool) and 1 <= numero <= MAIOR_ID
