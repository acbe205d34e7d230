"""The kernel's shared pieces (:mod:`multas.nucleo.kernel.regras`): a batch's input columns
parsed (:class:`Entradas`, :func:`ler_entradas`) with the contract's checks on the fast shapes,
the rules' result (:class:`ResultadoKernel`) and the steps every rule shares (amounts in
centavos or millionths, the law's date, the one declared limit on a segment's products).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from multas.nucleo.contrato import Campo
from multas.nucleo.kernel.colunas import (
    POTENCIAS,
    Booleanos,
    ColunaDatas,
    Datas,
    Inteiros,
    ListaDatas,
    Logicos,
    Numeros,
    ler_booleanos,
    ler_datas,
    ler_lista_datas,
    ler_numeros,
)
from multas.nucleo.kernel.leis import ForaDoKernel, Segmentos
from multas.nucleo.kernel.renovabio import LIMITE
from multas.nucleo.regimes import REGIMES

if TYPE_CHECKING:
    import pyarrow as pa

#: prices and quantities with up to this many decimal places are the kernel's
ESCALA_MAX = 6
_MICRO = 10**ESCALA_MAX  # amounts in millionths of a real before the caps


@dataclass
class Entradas:
    """A batch's input fields, parsed; ``fora`` marks rows the kernel leaves to the engine."""

    n: int
    campos: dict[str, Numeros | ColunaDatas | Booleanos | ListaDatas]
    fora: Logicos
    #: fields given once for the whole batch, not per row (``taxas_selic``: ``--selic``)
    constantes: Mapping[str, Any] = field(default_factory=dict)

    def numeros(self, nome: str) -> Numeros:
        coluna = self.campos[nome]
        assert isinstance(coluna, Numeros)
        return coluna

    def datas(self, nome: str) -> ColunaDatas:
        coluna = self.campos[nome]
        assert isinstance(coluna, ColunaDatas)
        return coluna

    def logicos(self, nome: str) -> Booleanos:
        coluna = self.campos[nome]
        assert isinstance(coluna, Booleanos)
        return coluna


#: why the kernel left a row to the scalar engine, besides the law (pt-BR, for the summary)
FORA_DAS_FORMAS = "células numa forma que o kernel não lê (casas decimais ou algarismos demais)"
FORA_DOS_LIMITES = "valores fora dos limites do kernel"


@dataclass
class ResultadoKernel:
    """Per row: ``ok`` (computed here), ``valor`` in centavos and the regime's outputs
    (amounts in centavos, dates as ``datetime64[D]``, counts as ints)."""

    ok: Logicos
    valor: Inteiros
    saidas: dict[str, Inteiros | Datas] = field(default_factory=dict)
    #: the segments of the law the rule read: a row one of them refused is reported with the
    #: parameter and the period (:meth:`motivos`)
    segmentos: tuple[Segmentos, ...] = ()
    #: the rows whose cells are outside the fast shapes (``Entradas.fora``)
    fora: Logicos | None = None

    def motivos(self, linhas: Iterable[int]) -> list[str]:
        """Why the kernel left each of ``linhas`` (rows not ``ok``) to the scalar engine, in
        pt-BR: the segment of the law that refused it, cells in a shape the kernel does not
        read, or values past its bounds (any other check a valid row can fail)."""
        textos = []
        for linha in linhas:
            recusa = next(
                (r for seg in self.segmentos if (r := seg.recusa(linha)) is not None), None
            )
            if recusa is not None:
                textos.append(recusa.texto)
            elif self.fora is not None and self.fora[linha]:
                textos.append(FORA_DAS_FORMAS)
            else:
                textos.append(FORA_DOS_LIMITES)
        return textos


def ler_entradas(
    regime: str,
    colunas: Mapping[str, pa.Array | None],
    n: int,
    ptbr: bool = False,
    constantes: Mapping[str, Any] | None = None,
) -> Entradas:
    """Parse the flat input fields of ``regime`` from batch columns (absent column = absent
    field) and mark the rows whose cells are outside the fast shapes or the contract.
    ``constantes``: fields given once for the whole batch (already validated)."""
    fora = np.zeros(n, dtype=np.bool_)
    campos: dict[str, Numeros | ColunaDatas | Booleanos | ListaDatas] = {}
    for c in REGIMES[regime].caso.campos():
        if not c.plano or c.tipo == "texto":  # free text (fonte_cotacoes) changes no value
            continue
        coluna = colunas.get(c.nome)
        lido = _ler_campo(c, coluna, n, ptbr)
        campos[c.nome] = lido
        fora |= lido.fora | (~lido.presente if c.obrigatorio else False)
        if isinstance(lido, Numeros):
            fora |= lido.presente & ~_forma_do_tipo(c, lido)
    return Entradas(n, campos, fora, dict(constantes or {}))


def _ler_campo(
    c: Campo, coluna: pa.Array | None, n: int, ptbr: bool
) -> Numeros | ColunaDatas | Booleanos | ListaDatas:
    if c.tipo == "data":
        return ler_datas(coluna, n)
    if c.tipo == "booleano":
        return ler_booleanos(coluna, n)
    if c.tipo == "datas":
        return ler_lista_datas(coluna, n)
    if c.tipo in ("ano", "contagem", "quantia", "quantia_positiva", "preco", "quantidade"):
        return ler_numeros(coluna, n, ptbr)
    raise AssertionError(c.tipo)  # inciso and quotes never reach the kernel


def _limite_mantissa(x: Numeros, digitos: int) -> Inteiros | int:
    """10**(digitos + escala) per row (one number for a typed column's single scale)."""
    unica = _escala_unica(x)
    if unica is not None:
        return int(10 ** min(digitos + unica, 18))
    limite: Inteiros = POTENCIAS[np.minimum(digitos + x.escala, 18)]
    return limite


def _forma_do_tipo(c: Campo, x: Numeros) -> Logicos:
    """The contract's per-type rules (multas.nucleo.contrato.ler_valor), on the fast shapes."""
    m, e = x.mantissa, x.escala
    if c.tipo == "ano":  # the contract takes 1900–9000; years past 2199 go to the engine
        return np.asarray((e == 0) & (m >= 1900) & (m <= 2199), np.bool_)
    # every number below 10**15 (the contract's bound: 15 integer digits at most)
    if c.tipo == "contagem":
        return np.asarray((e == 0) & (m >= c.minimo) & (m < 10**15), np.bool_)
    # amounts below 10**17 centavos; prices and quantities below 10**17 millionths
    if c.tipo == "quantia":
        return (e <= 2) & (m < _limite_mantissa(x, 15))
    if c.tipo == "quantia_positiva":
        return (e <= 2) & (m > 0) & (m < _limite_mantissa(x, 15))
    if c.tipo == "preco":
        return (e <= ESCALA_MAX) & (m > 0) & (m < _limite_mantissa(x, 11))
    if c.tipo == "quantidade":
        return (e <= ESCALA_MAX) & (m < _limite_mantissa(x, 11))
    raise AssertionError(c.tipo)


def _escala_unica(x: Numeros) -> int | None:
    if x.escala.size and x.escala[0] == x.escala.min() == x.escala.max():
        return int(x.escala[0])
    return None


def em_centavos(x: Numeros) -> Inteiros:
    """An amount (≤ 2 places, < 10**17 as a mantissa) in centavos."""
    unica = _escala_unica(x)
    if unica is not None:  # a typed column: one scale
        return np.asarray(x.mantissa * 10 ** max(2 - unica, 0), dtype=np.int64)
    return np.asarray(x.mantissa * POTENCIAS[np.clip(2 - x.escala, 0, 2)], dtype=np.int64)


def em_micro(x: Numeros) -> Inteiros:
    """A price or quantity (≤ 6 places, mantissa < 10**(11 + places)) in millionths, < 10**17."""
    unica = _escala_unica(x)
    if unica is not None:
        return np.asarray(x.mantissa * 10 ** (ESCALA_MAX - min(unica, ESCALA_MAX)), np.int64)
    return np.asarray(x.mantissa * POTENCIAS[ESCALA_MAX - np.minimum(x.escala, ESCALA_MAX)])


def _ano_em_datas(anos: Inteiros, mes: int, dia: int) -> Datas:
    anos = np.clip(anos, 1900, 2199)
    meses = ((anos - 1970) * 12 + (mes - 1)).astype("datetime64[M]")
    datas: Datas = meses.astype("datetime64[D]") + (dia - 1)
    return datas


def _escolher_data(informada: ColunaDatas, padrao: Datas) -> Datas:
    if not informada.presente.any():  # the usual column: absent
        return padrao
    datas: Datas = np.where(informada.presente, informada.dias, padrao)
    return datas


# --- shared steps -------------------------------------------------------------------------


def _validar_preco_e_faturamentos(e: Entradas) -> Logicos:
    """``CasoComPreco.validar``: in batch the price is maior_media_mensal, and the revenue
    pair comes both or neither."""
    a, b = e.numeros("faturamento_ano_meta"), e.numeros("faturamento_ano_anterior")
    return np.asarray(e.numeros("maior_media_mensal").presente & (a.presente == b.presente))


def _dentro_do_limite(regime: str, maiores: Mapping[str, int]) -> None:
    """A segment whose largest product (``maiores``: {parameter: its largest product}, from a
    rule's ``maiores_produtos_*``) passes the one declared limit goes to the scalar engine,
    naming the parameter it grows with."""
    for parametro, maior in maiores.items():
        if maior > LIMITE:
            raise ForaDoKernel(
                f"{regime}.{parametro}",
                "passa dos limites do kernel (um produto das regras além do maior int64)",
            )
