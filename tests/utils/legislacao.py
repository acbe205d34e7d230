"""The shipped legislation, as texts: its legal sources normalised (to find a quotation in
them), and modified copies (a fictitious decree, a fictitious ponto facultativo) to check that
a change in the law is a change in data. The modified legislation is built on first use, not
when this module is imported."""

from __future__ import annotations

import re
from functools import cache
from importlib import resources
from pathlib import Path

from multas.nucleo.legislacao import Legislacao, ler_textos

PARAMETROS = (
    Path(__file__).resolve().parents[2] / "src" / "multas" / "nucleo" / "legislacao" / "parametros"
)

# --- the legal sources ----------------------------------------------------------------------


def normalizar_espacos(texto: str) -> str:
    """Whitespace is not wording: runs of it become one space, and none before punctuation
    (the transcriptions keep a stray space where a link was: "de 2017 , será")."""
    return re.sub(r" ([,.;:])", r"\1", re.sub(r"\s+", " ", texto)).strip()


def fontes_normalizadas() -> str:
    """Every shipped legal text (multas/nucleo/legislacao/textos), whitespace normalised."""
    pasta = resources.files("multas.nucleo.legislacao") / "textos"
    return "\n".join(
        normalizar_espacos(item.read_text(encoding="utf-8"))
        for item in pasta.iterdir()
        if item.name.endswith(".txt")
    )


# --- a fictitious decree ----------------------------------------------------------------------

#: the date the fictitious decree takes effect
DATA = "2026-07-01"
NOVO_DECRETO = 'dispositivo = "Decreto fictício de teste, art. 1º"\nfonte = "teste"\n'


def nova_vigencia(texto: str, nome: str, valor: str) -> str:
    """End the open-ended version of ``nome`` the day before DATA and add one from DATA."""
    inicio = texto.index(f'["{nome}"]')
    fim = texto.find('\n["', inicio + 1)
    fim = len(texto) if fim < 0 else fim
    bloco = texto[inicio:fim]
    ultimo = bloco.rindex("inicio = ")
    linha = bloco.index("\n", ultimo) + 1
    bloco = bloco[:linha] + "fim = 2026-06-30\n" + bloco[linha:]
    bloco = bloco.rstrip("\n") + (
        f'\n\n[["{nome}".vigencias]]\ninicio = {DATA}\nvalor = {valor}\n{NOVO_DECRETO}\n'
    )
    return texto[:inicio] + bloco + texto[fim:]


# --- a fictitious calendar act (spec v3, § 1): an extra ponto facultativo on 15/07/2026 -------

PONTO = "2026-07-15"  # a quarta-feira


def textos_com_o_ponto_facultativo() -> dict[str, str]:
    """The shipped legislation's files, the calendar with the extra ponto facultativo."""
    textos = {p.name: p.read_text(encoding="utf-8") for p in PARAMETROS.glob("*.toml")}
    calendario = textos["calendario.toml"]
    linha = '  { data = 2026-06-05, nome = "ponto facultativo", tipo = "ponto_facultativo", '
    assert linha in calendario
    extra = (
        f'  {{ data = {PONTO}, nome = "Ponto facultativo fictício de teste", '
        'tipo = "ponto_facultativo", ato = "Portaria fictícia de teste" },\n'
    )
    inicio = calendario.index(linha)
    calendario = calendario[:inicio] + extra + calendario[inicio:]
    return {**textos, "calendario.toml": calendario}


@cache
def com_o_ponto_facultativo() -> Legislacao:
    """The legislation with the extra ponto facultativo (read once per process)."""
    return ler_textos(textos_com_o_ponto_facultativo())
