"""The dated parameters, per row: each row's law date is placed in a *segment*, a span of dates
in which none of the parameters a rule reads changes, and the parameters are read once per
segment from :mod:`multas.legislacao` (never hard-coded here).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from fractions import Fraction
from functools import lru_cache
from typing import Any

import numpy as np

from multas.kernel.colunas import Datas, Inteiros, Logicos
from multas.legislacao import Legislacao, Lei


class ForaDoKernel(Exception):
    """A segment whose law the kernel does not take (the scalar engine decides those rows)."""


def centavos(valor: Fraction) -> int:
    """A legal amount in whole centavos (the kernel takes no other)."""
    em_centavos = valor * 100
    if em_centavos.denominator != 1:
        raise ForaDoKernel(f"valor legal fora de centavos: {valor}")
    return int(em_centavos)


@dataclass(frozen=True)
class Segmentos:
    """Per row: the segment index and whether the kernel takes that segment; per segment,
    the parameters (``tabela``); ``seg["piso"]`` spreads one over the rows."""

    indice: Inteiros
    aceito: Logicos
    tabela: dict[str, Inteiros]

    def __getitem__(self, nome: str) -> Inteiros:
        por_linha: Inteiros = self.tabela[nome][self.indice]
        return por_linha


@lru_cache(maxsize=64)
def _segmentos(
    legislacao: Legislacao, nomes: tuple[str, ...], ler: Callable[[Lei], dict[str, int]]
) -> tuple[Datas, Logicos, dict[str, Inteiros]]:
    """The segments' boundaries, which ones the kernel takes, and their parameters: the same
    for every block of a batch, so read from the legislation once (the arrays are frozen)."""
    fronteiras: set[date] = set()
    for nome in nomes:
        for vigencia in legislacao.parametro(nome).vigencias:
            fronteiras.add(vigencia.inicio)
            if vigencia.fim is not None:
                fronteiras.add(vigencia.fim + timedelta(days=1))
    ordem = sorted(fronteiras)
    representantes = [ordem[0] - timedelta(days=1), *ordem]
    lidos: list[dict[str, int] | None] = []
    for dia in representantes:
        lei = Lei(legislacao, dia)  # its own record of what ``ler`` reads
        try:
            lidos.append(ler(lei))
        except (ForaDoKernel, KeyError):
            lidos.append(None)
        fora = set(lei.lidos) - set(nomes)
        if fora:  # a parameter that changes inside a segment would be read on the wrong date
            raise AssertionError(f"{ler.__name__} lê {sorted(fora)}, fora dos segmentos")
    # rows of a segment the kernel does not take get some other segment's (harmless) values
    padrao = next((p for p in lidos if p is not None), {})
    datas = np.array(ordem, dtype="datetime64[D]")
    aceito = np.array([p is not None for p in lidos], dtype=np.bool_)
    tabela = {
        chave: np.array([(p or padrao)[chave] for p in lidos], dtype=np.int64) for chave in padrao
    }
    for congelado in (datas, aceito, *tabela.values()):
        congelado.flags.writeable = False
    return datas, aceito, tabela


def segmentar(
    legislacao: Legislacao,
    nomes: Sequence[str],
    datas: Datas,
    ler: Callable[[Lei], dict[str, int]],
) -> Segmentos:
    """Read ``ler(lei)`` once per segment of the parameters ``nomes`` and spread it over rows.

    ``ler`` returns integer parameters, or raises :class:`ForaDoKernel` (or ``KeyError``) when
    the kernel must not compute that segment, e.g. a regime not yet in force.
    """
    ordem, aceito_seg, tabela = _segmentos(legislacao, tuple(nomes), ler)
    indice = np.searchsorted(ordem, datas, side="right")
    # writable copies of the few per-segment values: the compiled loops (Numba) were compiled
    # and cached for writable arrays, and a read-only one would be compiled again
    proprias = {chave: valores.copy() for chave, valores in tabela.items()}
    return Segmentos(np.asarray(indice, np.int64), aceito_seg[indice], proprias)


def fracao(lei: Lei, nome: str) -> tuple[int, int]:
    """A fractional parameter as (numerator, denominator)."""
    valor = lei[nome].fracao
    return valor.numerator, valor.denominator


def exigir(lei: Lei, nome: str) -> Any:
    """The provision in force, or the segment is not the kernel's (the scalar engine then
    reports "regime não vigente" with the field it names)."""
    vigencia = lei.get(nome)
    if vigencia is None:
        raise ForaDoKernel(nome)
    return vigencia
