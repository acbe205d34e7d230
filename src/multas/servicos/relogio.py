"""The clock: the only place that reads the wall clock.

Rules that have no date of their own (spec § 3.3, § 3.4; ``mover.eficiencia``) apply the law
in force *today*, and reports and the audit trail record *now*. Both come from here, so a test
can fix the date (``time-machine``) and the suite passes on any day. Every other read of the
wall clock is a lint error (ruff's ``TID251``, pyproject.toml).

"Today" is the date in Brasília: a case computed at 22:00 on 31/12 in São Paulo is a case of
31/12, whatever the server's time zone.
"""

from __future__ import annotations

from datetime import UTC, date, datetime

from multas.nucleo.datas import fuso_brasilia

__all__ = ["agora", "fuso_brasilia", "hoje"]


def agora() -> datetime:
    """The current instant, in UTC (what is stored)."""
    return datetime.now(UTC)


def hoje() -> date:
    """Today's date in Brasília (what a rule without a date of its own applies).

    >>> hoje() == agora().astimezone(fuso_brasilia()).date()
    True
    """
    return agora().astimezone(fuso_brasilia()).date()
