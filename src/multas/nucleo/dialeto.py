"""How a text table is written, detected per file (:func:`detectar_separador`,
:func:`detectar_decimal`, :func:`decodificar_texto`), or given per file by an option that
overrides the detection (:class:`Dialeto`):

- **encoding**: UTF-8 (a BOM dropped) when the bytes are UTF-8, else Latin-1 (read as CP1252,
  its superset that Windows and B3's site write);
- **separator**: the one (``;``, tab or ``,``) that splits the header row (the first row naming a
  key column) into a cell naming it, the most cells winning; without such a row, the one that
  splits the first line into the most cells (``,`` on a tie);
- **numbers**: ``1.234,56`` (decimal comma) when the cells hold a decimal comma and no decimal
  point, ``1234.56`` the other way round; when no cell says (integers only, or ``1.234``), the
  separator decides, as ``--ptbr`` always has: ``;`` and tab mean the decimal comma.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from multas.nucleo.arquivos import decodificar, recusar_utf16
from multas.nucleo.erros import EntradaInvalida, mostrar_valor

#: the encodings an option may name → how a summary says them
CODIFICACOES = {"utf-8": "UTF-8", "latin-1": "Latin-1 (CP1252)"}
#: the separators an option may name → the character
SEPARADORES = {",": ",", ";": ";", "tab": "\t"}
#: the number notations an option may name → decimal comma?
DECIMAIS = {"ponto": False, "virgula": True}


@dataclass(frozen=True, slots=True)
class Dialeto:
    """A file's encoding, separator and number notation; ``None``: detected."""

    codificacao: str | None = None
    separador: str | None = None
    decimal_virgula: bool | None = None

    def sobre(self, base: Dialeto) -> Dialeto:
        """This file's own options over ``base`` (``--ptbr``, for every file of a run)."""
        return replace(
            base,
            **{
                nome: valor
                for nome in ("codificacao", "separador", "decimal_virgula")
                if (valor := getattr(self, nome)) is not None
            },
        )


#: ``--ptbr``: ``;`` and ``1.234,56`` (the encoding still detected)
PTBR = Dialeto(separador=";", decimal_virgula=True)


def ler_dialeto(
    codificacao: str | None, separador: str | None, decimal: str | None, sufixo: str = ""
) -> Dialeto:
    """A file's options as typed (``--codificacao``, ``--separador``, ``--decimal``, each
    optional), or an error naming the option."""

    def escolha(texto: str | None, opcoes: dict[str, object], nome: str) -> object:
        if texto is None:
            return None
        chave = texto.strip().lower().replace("í", "i").replace("\\t", "tab")
        chave = {"latin1": "latin-1", "cp1252": "latin-1", "utf8": "utf-8", "\t": "tab"}.get(
            chave, chave
        )
        if chave not in opcoes:
            raise EntradaInvalida(
                f"--{nome}{sufixo}",
                f"opção inválida: {mostrar_valor(texto[:20])} (opções: "
                f"{', '.join(mostrar_valor(o) for o in opcoes)})",
            )
        return opcoes[chave]

    cod = escolha(codificacao, {c: c for c in CODIFICACOES}, "codificacao")
    sep = escolha(separador, dict(SEPARADORES), "separador")
    dec = escolha(decimal, dict(DECIMAIS), "decimal")
    assert cod is None or isinstance(cod, str)
    assert sep is None or isinstance(sep, str)
    assert dec is None or isinstance(dec, bool)
    return Dialeto(cod, sep, dec)


def decodificar_texto(
    conteudo: bytes, codificacao: str | None, arquivo: str | None = None
) -> tuple[str, str]:
    """The text and the encoding it was read in: UTF-8 when it is (or when asked: then bytes
    that are not UTF-8 are an error with their line), else Latin-1 (CP1252); UTF-16 or
    UTF-32 is refused, whatever was asked (:func:`multas.nucleo.arquivos.recusar_utf16`)."""
    recusar_utf16(conteudo, arquivo)
    if codificacao in (None, "utf-8"):
        try:
            return decodificar(conteudo, arquivo), "utf-8"
        except EntradaInvalida:
            if codificacao == "utf-8":
                raise
    try:
        return conteudo.decode("cp1252"), "latin-1"
    except UnicodeDecodeError:  # a byte CP1252 leaves undefined: Latin-1 reads every byte
        return conteudo.decode("latin-1"), "latin-1"


#: how far the separator is looked for: the header may follow some title rows
_LINHAS_AMOSTRA = 60


def detectar_separador(texto: str, nomeia_chave: Callable[[Sequence[str]], bool]) -> str:
    """The separator of a CSV text: the one that makes a line name a key column (the most
    cells winning), else the one that splits the first line into the most cells."""
    amostra = [linha for linha in texto[: 256 * 1024].splitlines() if linha.strip()]
    amostra = amostra[:_LINHAS_AMOSTRA]
    candidatos = (",", ";", "\t")

    def celulas(linha: str, separador: str) -> list[str]:
        try:
            return next(csv.reader([linha], delimiter=separador), [])
        except csv.Error:
            return linha.split(separador)

    for linha in amostra:
        achados = [(len(c), s) for s in candidatos if nomeia_chave(c := celulas(linha, s))]
        if achados:
            return max(achados, key=lambda a: a[0])[1]
    if not amostra:
        return ","
    return max(((len(celulas(amostra[0], s)), s) for s in candidatos), key=lambda a: a[0])[1]


_VIRGULA = re.compile(r"[+-]?(\d{1,3}(\.\d{3})+|\d+),\d+", re.ASCII)
_PONTO = re.compile(r"[+-]?\d+\.\d+", re.ASCII)
_MILHAR = re.compile(r"[+-]?\d{1,3}(\.\d{3})+", re.ASCII)
#: how many cells are looked at
_CELULAS_AMOSTRA = 20_000


def detectar_decimal(celulas: Iterable[object], separador: str | None) -> bool:
    """Whether the text cells write numbers with a decimal comma: ``1.234,56`` or ``71,70``
    and no ``1234.56``; ``1234.56`` and no comma says no; on a tie, the majority; with no
    evidence (integers, ``1.234``), ``;`` and tab say yes and ``,`` no.

    >>> detectar_decimal(["1.234,56", "12"], ","), detectar_decimal(["10.5"], ";")
    (True, False)
    >>> detectar_decimal(["1.234", "7"], ";"), detectar_decimal(["1.234"], ",")
    (True, False)
    """
    virgula = ponto = 0
    for vistas, celula in enumerate(celulas):
        if vistas >= _CELULAS_AMOSTRA:
            break
        if not isinstance(celula, str):
            continue
        texto = celula.strip()
        if _VIRGULA.fullmatch(texto):
            virgula += 1
        elif _PONTO.fullmatch(texto) and not _MILHAR.fullmatch(texto):
            ponto += 1
    if virgula or ponto:
        return virgula > ponto
    return separador is not None and separador != ","


def descrever(codificacao: str | None, separador: str | None, decimal_virgula: bool) -> str:
    """How a file was read, for a summary: ``Latin-1 (CP1252), separador ';', números
    1.234,56``."""
    partes = [CODIFICACOES[codificacao]] if codificacao else []
    if separador is not None:
        nome = "tab" if separador == "\t" else separador
        partes.append(f"separador {mostrar_valor(nome)}")
    partes.append("números 1.234,56" if decimal_virgula else "números 1234.56")
    return ", ".join(partes)
