"""The command line speaks pt-BR: Click's own messages (usage, errors, help) come from the
shipped gettext catalogue. Every adapter that defines Click commands calls
:func:`falar_portugues` before defining them (some strings are translated at definition time).
"""

from __future__ import annotations

import gettext
import os


def falar_portugues() -> None:
    gettext.bindtextdomain("multas", os.path.join(os.path.dirname(__file__), "locale"))
    gettext.textdomain("multas")
    os.environ["LANGUAGE"] = "pt_BR"  # the CLI speaks its users' language, whatever the locale
