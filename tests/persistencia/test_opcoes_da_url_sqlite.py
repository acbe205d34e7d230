"""A ``sqlite:///`` URL's options (issue 37, item 3, second review): ``?mode=ro`` without
``uri=true`` and a ``file:`` path was ignored (SQLAlchemy's English warning) or made a new,
writable file named ``multas.db?mode=ro``; now it is a pt-BR refusal with the form that works."""

from __future__ import annotations

from pathlib import Path

import pytest

from multas.servicos.persistencia import criar_engine
from multas.servicos.persistencia.registros import BancoInacessivel


@pytest.mark.parametrize("consulta", ["?mode=ro", "?mode=ro&uri=true", "?cache=shared&uri=1"])
def test_uma_opcao_do_sqlite_que_seria_ignorada_e_recusada(tmp_path: Path, consulta: str) -> None:
    with pytest.raises(BancoInacessivel, match="só vale com o caminho escrito como file:"):
        criar_engine(f"sqlite:///{tmp_path}/multas.db{consulta}").dispose()
    assert list(tmp_path.iterdir()) == []


def test_a_forma_que_o_sqlite_le_vale(tmp_path: Path) -> None:
    arquivo = tmp_path / "multas.db"
    import sqlite3

    sqlite3.connect(arquivo).close()
    for url in (
        f"sqlite:///file:{arquivo}?mode=ro&uri=true",
        f"sqlite:///{arquivo}?timeout=3",
        f"sqlite:///{arquivo}",
    ):
        criar_engine(url).dispose()


def test_o_til_numa_url_nao_vira_uma_pasta_chamada_til(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``MULTAS_DATABASE_URL=sqlite:///~/multas.db`` (a shell expands '~', a URL does not)
    made a folder named '~' in the current folder, with a database in it: one per folder
    again. Refused, saying how to write it; a folder really named '~' is ``./~``."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(BancoInacessivel, match="começa com '~'"):
        criar_engine("sqlite:///~/multas.db").dispose()
    assert list(tmp_path.iterdir()) == []
    criar_engine("sqlite:///./~/multas.db").dispose()
