"""Text shown to a person outside a web page: the command line's text output and the calendar
(``.ics``). A stored name (or any text a user typed) may hold an ESC that a terminal runs as a
control sequence, a C1 control, a line or paragraph separator, or a bidi override that makes
the text read backwards: :func:`texto_visivel` writes each of them as a visible escape
(``\\x1b``, ``\\u202e``), the way ``repr`` does, and leaves every other character as it is.
The one helper of both outputs (the pages escape through Jinja; CSV and XLSX are data,
neutralised by :mod:`multas.saidas.exportacao`).
"""

from __future__ import annotations

import re

#: C0 controls but the line feed (the output's own line breaks), DEL, the C1 controls, the
#: line and paragraph separators, and the bidi marks, embeddings, overrides and isolates
_INVISIVEIS = re.compile(
    "[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]"
)


def _escapar(achado: re.Match[str]) -> str:
    codigo = ord(achado.group())
    return f"\\x{codigo:02x}" if codigo < 0x100 else f"\\u{codigo:04x}"


def texto_visivel(texto: str) -> str:
    """``texto`` with every control character, separator and bidi control written as a
    visible escape; line feeds and every other character kept.

    >>> texto_visivel("Posto\\x1b[2J\\u202eLIVE")
    'Posto\\\\x1b[2J\\\\u202eLIVE'
    >>> texto_visivel("Linha 1\\nSão João · 15/03/2025")
    'Linha 1\\nSão João · 15/03/2025'
    """
    return _INVISIVEIS.sub(_escapar, texto)
