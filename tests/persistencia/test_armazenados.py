"""A stored processo as § 6 reads it (:mod:`multas.servicos.persistencia.armazenados`)."""

from __future__ import annotations

import pytest

from multas.servicos.persistencia.armazenados import _json


@pytest.mark.parametrize(
    "texto",
    ["não é JSON", "[" * 100_000, '{"a":' * 100_000],
    ids=["texto", "lista-funda", "objeto-fundo"],
)
def test_uma_coluna_json_ilegivel_volta_como_texto(texto: str) -> None:
    """Text that is not JSON, or nested past the parser's depth (an edit outside the system),
    comes back as it is, for § 6 to refuse: never a RecursionError (a crash of reavaliar, a
    500)."""
    assert _json(texto) == texto


def test_uma_coluna_json_e_lida() -> None:
    assert _json('["2024-03-04"]') == ["2024-03-04"]
    assert _json(None) is None
