"""Hostile names in the outputs people read (the hostile review of 02/12/2026): the text of
``multas listas`` shows dates dd/mm/aaaa and the names as stored (the formula apostrophe is the
CSV's only); an ESC, a C1 control, a line separator or a bidi override in a name never reaches
the terminal nor the calendar (.ics) raw (:func:`multas.nucleo.visivel.texto_visivel`, one helper)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from multas.nucleo.visivel import texto_visivel
from multas.principal import cli
from multas.servicos.gestao import Ciclo
from multas.servicos.persistencia import Repositorio

#: each a character a terminal or a calendar would act on, or that reorders the text
CONTROLES = ["\x1b", "\x07", "\x08", "\r", "\x7f", "\x9b", "\x85", "\u2028",
             "\u2029", "\u202e", "\u2066", "\u200f", "\u061c"]  # fmt: skip
NOME = "=Posto \x1b[2J\x1b]0;pwned\x07 \u202eLIVE\u2028fim\x9b31m"
CNPJ = "11.222.333/0001-81"


@pytest.fixture
def banco(tmp_path: Path) -> Iterator[str]:
    url = f"sqlite:///{tmp_path / 'm.db'}"
    repo = Repositorio(url)
    repo.migrar()
    Ciclo(repo).criar(
        {
            "tipo": "renovabio.lista",
            "id": "L-\x1b1",
            "cnpj": CNPJ,
            "nome": NOME,
            "eventos": [
                {"evento": "fim_prazo_meta", "data": "2025-12-31"},
                {"evento": "decisao_primeira_instancia", "data": "2026-02-06"},
                {"evento": "inclusao_lista", "data": "2026-02-09"},
            ],
        }
    )
    repo.fechar()
    yield url


def _crus(texto: str) -> list[str]:
    return [c for c in CONTROLES if c in texto]


def test_listas_em_texto_datas_br_e_nome_sem_apostrofo(banco: str) -> None:
    r = CliRunner().invoke(cli, ["listas", "sancoes", "--data", "01/03/2026", "--banco", banco])
    assert r.exit_code == 0, r.output
    assert "em 01/03/2026" in r.output and "2026-03-01" not in r.output
    assert "Incluído em: 09/02/2026" in r.output and "2026-02-09" not in r.output
    assert "Prazo da meta não cumprido: 31/12/2025" in r.output
    assert "Nome: =Posto " in r.output and "'=Posto" not in r.output
    # the CSV keeps its apostrophe
    r = CliRunner().invoke(cli, ["listas", "sancoes", "--data", "01/03/2026", "-f", "csv",
                                 "--banco", banco])  # fmt: skip
    assert "'=Posto" in r.output


@pytest.mark.parametrize(
    "argumentos",
    [
        ["listas", "sancoes", "--data", "01/03/2026"],
        ["processo", "listar"],
        ["processo", "mostrar", "1"],
        ["pendencias", "--data-referencia", "01/03/2026", "--todos"],
    ],
)
def test_texto_no_terminal_sem_controles(banco: str, argumentos: list[str]) -> None:
    r = CliRunner().invoke(cli, [*argumentos, "--banco", banco])
    assert r.exit_code == 0, r.output
    assert not _crus(r.output), (_crus(r.output), r.output)
    if argumentos[0] != "pendencias":
        assert "\\x1b[2J" in r.output and "\\u202eLIVE" in r.output  # shown, escaped


def test_calendario_ics_sem_controles(banco: str, tmp_path: Path) -> None:
    saida = tmp_path / "p.ics"
    r = CliRunner().invoke(cli, ["prazos", "ics", "-o", str(saida), "--banco", banco])
    assert r.exit_code == 0, r.output
    ics = saida.read_text(encoding="utf-8")
    assert "SUMMARY" in ics and not _crus(ics), _crus(ics)
    assert "\\\\x1b[2J" in ics or "\\x1b[2J" in ics  # the name is there, escaped

    from icalendar import Calendar

    resumos = [str(e["summary"]) for e in Calendar.from_ical(ics).walk("VEVENT")]
    assert resumos and all("\\x1b[2J" in r and "\x1b" not in r for r in resumos)


def test_erro_no_terminal_sem_controles(banco: str) -> None:
    r = CliRunner().invoke(
        cli, ["processo", "evento", "1", "nao\x1b[2Jexiste", "01/03/2026", "--banco", banco]
    )
    assert r.exit_code == 2
    assert "\x1b" not in r.output


@given(st.text())
def test_texto_visivel_nunca_deixa_controle_e_guarda_o_resto(texto: str) -> None:
    visivel = texto_visivel(texto)
    assert not _crus(visivel)
    assert all((ord(c) >= 0x20 or c == "\n") and not 0x7F <= ord(c) <= 0x9F for c in visivel)
    if not _crus(texto) and all(c.isprintable() or c in "\n " for c in texto):
        assert visivel == texto
