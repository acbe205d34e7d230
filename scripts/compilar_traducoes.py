"""Compile the pt-BR gettext catalogue of the CLI (``.po`` → ``.mo``) with Babel.

``python scripts/compilar_traducoes.py``; ``tests/cli/test_cli.py`` checks the ``.mo`` is current.
"""

from __future__ import annotations

import io
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

PASTA = (
    Path(__file__).resolve().parents[1]
    / "src"
    / "multas"
    / "saidas"
    / "locale"
    / "pt_BR"
    / "LC_MESSAGES"
)


def compilar() -> bytes:
    with (PASTA / "multas.po").open("rb") as arquivo:
        catalogo = read_po(arquivo, locale="pt_BR")
    saida = io.BytesIO()
    write_mo(saida, catalogo)
    return saida.getvalue()


if __name__ == "__main__":
    (PASTA / "multas.mo").write_bytes(compilar())
    print(f"{PASTA / 'multas.mo'} atualizado")
