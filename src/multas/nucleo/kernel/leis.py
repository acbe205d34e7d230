"""The dated parameters, per row: each row's law date is placed in a *segment*, a span of dates
in which none of the parameters a rule reads changes, and the parameters are read once per
segment from :mod:`multas.nucleo.legislacao` (never hard-coded here).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from functools import lru_cache
from typing import Any

import numpy as np

from multas.nucleo.kernel.colunas import Datas, Inteiros, Logicos
from multas.nucleo.legislacao import Legislacao, Lei


class ForaDoKernel(Exception):
    """A segment whose law the kernel does not take (the scalar engine decides those rows):
    the legislation's ``parametro`` that the kernel refuses and why (``motivo``, pt-BR, read
    after the parameter's name: "difere de renovabio.distribuidor.piso")."""

    def __init__(self, parametro: str, motivo: str) -> None:
        super().__init__(f"{parametro} {motivo}")
        self.parametro = parametro
        self.motivo = motivo


#: the reason of a segment in which the regime (or a parameter it reads) is not in force
NAO_VIGENTE = "não está em vigor"


def centavos(lei: Lei, nome: str) -> int:
    """A legal amount in whole centavos (the kernel takes no other)."""
    em_centavos = lei[nome].fracao * 100
    if em_centavos.denominator != 1:
        raise ForaDoKernel(nome, "não é um valor em centavos inteiros")
    return int(em_centavos)


def _dia(dia: date) -> str:
    from multas.nucleo.datas import formatar_data  # the one pt-BR date (four-digit years)

    return formatar_data(dia)


@dataclass(frozen=True)
class Recusa:
    """A span of dates whose law the kernel does not take: the parameter, why, and the span
    (first and last day; ``None`` for an open end)."""

    parametro: str
    motivo: str
    inicio: date | None
    fim: date | None

    @property
    def periodo(self) -> str:
        if self.inicio is None:
            return "em qualquer data" if self.fim is None else f"até {_dia(self.fim)}"
        if self.fim is None:
            return f"de {_dia(self.inicio)} em diante"
        if self.inicio == self.fim:
            return f"de {_dia(self.inicio)}"
        return f"de {_dia(self.inicio)} a {_dia(self.fim)}"

    @property
    def texto(self) -> str:
        """The pt-BR reason: "o kernel não aceita a lei de 01/07/2026 em diante:
        renovabio.piso_legal difere de renovabio.distribuidor.piso"."""
        return f"o kernel não aceita a lei {self.periodo}: {self.parametro} {self.motivo}"


@dataclass(frozen=True)
class Segmentos:
    """Per row: the segment index and whether the kernel takes that segment; per segment,
    the parameters (``tabela``) and, for a segment the kernel does not take, why
    (``recusas``); ``seg["piso"]`` spreads one over the rows. ``recusadas``: the rows the
    caller had left to the kernel (``validas``) that the segment refuses."""

    indice: Inteiros
    aceito: Logicos
    tabela: dict[str, Inteiros]
    recusas: tuple[Recusa | None, ...] = ()
    recusadas: Logicos | None = None

    def por_segmento(self, nome: str) -> Inteiros:
        """The parameter ``nome`` of each segment. When the kernel takes no segment, no reader
        gave the names: ones, harmless values (every row is the engine's)."""
        valores = self.tabela.get(nome)
        return np.ones(len(self.recusas), np.int64) if valores is None else valores

    def __getitem__(self, nome: str) -> Inteiros:
        por_linha: Inteiros = self.por_segmento(nome)[self.indice]
        return por_linha

    def recusa(self, linha: int) -> Recusa | None:
        """Why the segment of ``linha`` refused it (``None``: it did not, or the row was not
        left to the kernel anyway)."""
        if self.recusadas is None or not self.recusadas[linha]:
            return None
        return self.recusas[int(self.indice[linha])]


def _recusa(erro: ForaDoKernel | KeyError, lei: Lei, nomes: tuple[str, ...]) -> Recusa:
    """The refusal of the segment of ``lei`` (its span is set by the caller)."""
    if isinstance(erro, ForaDoKernel):
        return Recusa(erro.parametro, erro.motivo, None, None)
    # a parameter the reader needed is not in force on that date
    ausente = next((n for n in nomes if n in lei.lidos and lei.get(n) is None), None)
    return Recusa(ausente or ", ".join(nomes), NAO_VIGENTE, None, None)


def _recusas(recusas: list[Recusa | None], ordem: list[date]) -> tuple[Recusa | None, ...]:
    """Each refusal with its span: segment 0 ends the day before ``ordem[0]``, segment k
    starts on ``ordem[k - 1]``; consecutive segments refused for the same reason share one
    span (the period a user reads)."""

    def chave(k: int) -> tuple[str, str] | None:
        recusa = recusas[k]
        return None if recusa is None else (recusa.parametro, recusa.motivo)

    com_datas: list[Recusa | None] = []
    for motivo, grupo in itertools.groupby(range(len(recusas)), key=chave):
        indices = list(grupo)
        if motivo is None:
            com_datas.extend([None] * len(indices))
            continue
        primeiro, ultimo = indices[0], indices[-1]
        inicio = ordem[primeiro - 1] if primeiro > 0 else None
        fim = ordem[ultimo] - timedelta(days=1) if ultimo < len(ordem) else None
        com_datas.extend([Recusa(*motivo, inicio, fim)] * len(indices))
    return tuple(com_datas)


@lru_cache(maxsize=64)
def _segmentos(
    legislacao: Legislacao, nomes: tuple[str, ...], ler: Callable[[Lei], dict[str, int]]
) -> tuple[Datas, Logicos, dict[str, Inteiros], tuple[Recusa | None, ...]]:
    """The segments' boundaries, which ones the kernel takes (and why not), and their
    parameters: the same for every block of a batch, so read from the legislation once (the
    arrays are frozen)."""
    fronteiras: set[date] = set()
    for nome in nomes:
        for vigencia in legislacao.parametro(nome).vigencias:
            fronteiras.add(vigencia.inicio)
            if vigencia.fim is not None:
                fronteiras.add(vigencia.fim + timedelta(days=1))
    ordem = sorted(fronteiras)
    representantes = [ordem[0] - timedelta(days=1), *ordem]
    lidos: list[dict[str, int] | None] = []
    recusas: list[Recusa | None] = []
    for dia in representantes:
        lei = Lei(legislacao, dia)  # its own record of what ``ler`` reads
        try:
            lidos.append(ler(lei))
            recusas.append(None)
        except (ForaDoKernel, KeyError) as erro:
            lidos.append(None)
            recusas.append(_recusa(erro, lei, nomes))
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
    return datas, aceito, tabela, _recusas(recusas, ordem)


def segmentar(
    legislacao: Legislacao,
    nomes: Sequence[str],
    datas: Datas,
    ler: Callable[[Lei], dict[str, int]],
    validas: Logicos | None = None,
) -> Segmentos:
    """Read ``ler(lei)`` once per segment of the parameters ``nomes`` and spread it over rows.

    ``ler`` returns integer parameters, or raises :class:`ForaDoKernel` (or ``KeyError``) when
    the kernel must not compute that segment, e.g. a regime not yet in force. ``validas``:
    the rows still the kernel's before this check (the others' dates may be placeholders), so
    the refusal is reported only on those.
    """
    ordem, aceito_seg, tabela, recusas = _segmentos(legislacao, tuple(nomes), ler)
    indice: Inteiros | None = None
    if datas.size:  # the usual block: every date in one segment (searchsorted is monotone)
        extremos = np.searchsorted(ordem, np.array([datas.min(), datas.max()]), side="right")
        if extremos[0] == extremos[1]:
            indice = np.full(len(datas), extremos[0], np.int64)
    if indice is None:
        indice = np.asarray(np.searchsorted(ordem, datas, side="right"), np.int64)
    # writable copies of the few per-segment values: the compiled loops (Numba) were compiled
    # and cached for writable arrays, and a read-only one would be compiled again
    proprias = {chave: valores.copy() for chave, valores in tabela.items()}
    aceito = aceito_seg[indice]
    recusadas = None if validas is None else validas & ~aceito
    return Segmentos(indice, aceito, proprias, recusas, recusadas)


def fracao(lei: Lei, nome: str) -> tuple[int, int]:
    """A fractional parameter as (numerator, denominator)."""
    valor = lei[nome].fracao
    return valor.numerator, valor.denominator


def exigir(lei: Lei, nome: str) -> Any:
    """The provision in force, or the segment is not the kernel's (the scalar engine then
    reports "regime não vigente" with the field it names)."""
    vigencia = lei.get(nome)
    if vigencia is None:
        raise ForaDoKernel(nome, NAO_VIGENTE)
    return vigencia
