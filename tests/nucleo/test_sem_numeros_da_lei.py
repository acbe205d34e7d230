"""No legal number in code or text (issue 17, item 3): every amount, rate, month count and
deadline a user reads is formatted from the parameter in force, so a change in the law is a
change in the parameter files only.

The forbidden forms are derived from the legislation itself: each numeric value of each
parameter, written as a user would read it (``30%``, ``1/12``, ``k/12``, ``30 dias``, ``11
meses``, ``R$ 100.000``), plus the statute's own words for them (``onze``, ``um doze avos``).
They are looked for in every string a user can read: the string literals of ``src/`` (not
docstrings, which are the developers' English) and the page templates. Verbatim quotations
of the law are exempt because they live elsewhere: the ``texto`` of a parameter and the
shipped legal texts."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from multas.nucleo.dinheiro import formatar_brl, formatar_percentual, por_mes
from multas.nucleo.legislacao import carregar

RAIZ = Path(__file__).resolve().parents[2]
PACOTE = RAIZ / "src" / "multas"
#: the statute's words for its numbers (the parameter files' ``texto`` quote them)
PALAVRAS = ("onze", "doze", "um doze avos", "cinco por cento", "trinta dias", "dez dias")


def _formas() -> dict[str, str]:
    """Each forbidden form → the parameter it comes from."""
    formas: dict[str, str] = {}
    for nome, parametro in carregar().parametros.items():
        for vigencia in parametro.vigencias:
            valor = vigencia.valor
            if isinstance(valor, bool) or not isinstance(valor, int | Fraction):
                continue
            if parametro.unidade == "fração":
                fracao = Fraction(valor)
                formas[formatar_percentual(fracao)] = nome
                if fracao.denominator not in (1, 2, 4, 5, 10, 20, 25, 50, 100, 10_000):
                    formas[str(fracao)] = nome
                    formas[por_mes(fracao)] = nome
            elif parametro.unidade in ("dias", "meses", "anos", "dias úteis"):
                formas[f"{valor} {parametro.unidade}"] = nome
            elif parametro.unidade == "BRL" and Fraction(valor) >= 1000:
                reais = formatar_brl(Decimal(int(valor)))
                formas[reais.removesuffix(",00")] = nome
    for palavra in PALAVRAS:
        formas[palavra] = "o texto da lei"
    return formas


FORMAS = _formas()
PADRAO = re.compile(
    "|".join(
        rf"(?<![\w,.]){re.escape(forma)}(?![\w]|[.,]\d)"
        for forma in sorted(FORMAS, key=len, reverse=True)
    ),
    re.IGNORECASE,
)


def _docstrings(arvore: ast.AST) -> set[int]:
    ids = set()
    for no in ast.walk(arvore):
        if isinstance(no, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            primeiro = no.body[0] if no.body else None
            if isinstance(primeiro, ast.Expr) and isinstance(primeiro.value, ast.Constant):
                ids.add(id(primeiro.value))
    return ids


def _textos() -> Iterator[tuple[str, str]]:
    """(where, text) of every string a user can read."""
    for arquivo in sorted(PACOTE.rglob("*.py")):
        arvore = ast.parse(arquivo.read_text(encoding="utf-8"))
        docstrings = _docstrings(arvore)
        for no in ast.walk(arvore):
            if (
                isinstance(no, ast.Constant)
                and isinstance(no.value, str)
                and id(no) not in docstrings
            ):
                yield f"{arquivo.relative_to(RAIZ)}:{no.lineno}", no.value
    for arquivo in sorted((PACOTE / "servidor" / "templates").rglob("*.html")):
        for numero, linha in enumerate(arquivo.read_text(encoding="utf-8").splitlines(), 1):
            yield f"{arquivo.relative_to(RAIZ)}:{numero}", linha


def test_as_formas_vem_da_legislacao() -> None:
    """The check would see the numbers the issue found written into the text."""
    for forma in ("1/12", "k/12", "30%", "15%", "30 dias", "11 meses", "5 anos", "R$ 100.000"):
        assert PADRAO.search(f"a redução de {forma} ao mês"), forma
    assert not PADRAO.search("(ex.: 31/12/2025, 1,05%, 2031)")


def test_nenhum_numero_da_lei_no_texto() -> None:
    achados = [
        f"{onde}: {m.group(0)!r} ({FORMAS.get(m.group(0).lower(), FORMAS.get(m.group(0), '?'))})"
        for onde, texto in _textos()
        for m in PADRAO.finditer(texto)
    ]
    assert not achados, "números da lei escritos no texto:\n" + "\n".join(achados)


@pytest.mark.parametrize("forma", ["1/12", "onze"])
def test_o_texto_da_lei_fica_nos_parametros(forma: str) -> None:
    """The quotations that do hold these words are the parameters' ``texto``: the only place."""
    textos = [v.texto or "" for p in carregar().parametros.values() for v in p.vigencias]
    assert any(forma in t for t in textos)
