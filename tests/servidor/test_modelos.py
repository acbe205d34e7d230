"""What every page template promises, read from the templates themselves."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import multas.servidor

MODELOS = sorted((Path(multas.servidor.__file__).parent / "templates").glob("*.html"))
MENSAGEM = re.compile(r'<p class="mensagem-erro"[^>]*>(.{0,40})', re.S)


@pytest.mark.parametrize("modelo", MODELOS, ids=lambda p: p.name)
def test_mensagem_ao_lado_do_campo_comeca_por_erro(modelo: Path) -> None:
    """A screen reader reads the message beside a field as "Erro: …" (a hidden prefix), as
    the shared field templates do: a message read without it is not told from a hint. The one
    static/datas.js puts there is checked in Chromium (tests/navegador/test_datas.py)."""
    for inicio in MENSAGEM.findall(modelo.read_text(encoding="utf-8")):
        assert inicio.startswith('<span class="vh">Erro: </span>'), (modelo.name, inicio)
