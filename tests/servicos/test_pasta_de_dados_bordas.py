"""The database's folder at its edges (issue 37, item 3, second review): a password SQLAlchemy
takes with '#', '/' or '?' in it never reaches the terminal, and a ``banco mover``
interrupted (Ctrl+C) after renaming the old file puts it back."""

from __future__ import annotations

import pytest

from multas.servicos.pasta_de_dados import descrever_banco


@pytest.mark.parametrize(
    "url",
    [
        "postgresql+psycopg://app:se#gredo@db:5432/multas",
        "postgresql+psycopg://app:se/gredo@db:5432/multas",
        "postgresql+psycopg://app:se?gredo@db:5432/multas?sslmode=require",
        "postgresql://db/multas?sslpassword=segredo",
    ],
)
def test_a_senha_com_cerquilha_barra_ou_interrogacao_nunca_e_mostrada(url: str) -> None:
    """SQLAlchemy reads these passwords whole (and connects with them); a URL parser ended
    the server's name at the '#', '/' or '?', saw no password, and the whole URL, password
    and all, was printed by every command ("Banco: ...")."""
    from sqlalchemy.engine import make_url

    assert "gredo" in str(make_url(url).password) or "sslpassword" in url
    descrito = descrever_banco(url)
    assert "gredo" not in descrito and "***" in descrito
    assert descrito.startswith(("postgresql+psycopg://app:***@db", "postgresql://db/multas"))
