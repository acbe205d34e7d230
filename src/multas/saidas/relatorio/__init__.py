"""The report of a memória de cálculo, in HTML (Jinja2) and PDF (ReportLab): the case, the
result, each step with its citation, the legal text quoted, the versions of the engine and of
the legislation data, and the dates.

Used by ``multas calcular --formato html|pdf`` and by the server. Jinja2 and ReportLab are
imported only when a report is made, so the CLI's start-up does not pay for them.
"""

from __future__ import annotations

from multas.saidas.relatorio.relatorio import (
    Metadados,
    Relatorio,
    como_html,
    como_pdf,
    horario_brasilia,
    montar,
)

__all__ = [
    "Metadados",
    "Relatorio",
    "como_html",
    "como_pdf",
    "horario_brasilia",
    "montar",
]
