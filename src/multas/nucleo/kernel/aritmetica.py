"""Exact integer arithmetic on NumPy columns: rounding, overflow guards, months and business
days. The same definitions as :mod:`multas.nucleo.dinheiro` and :mod:`multas.nucleo.datas`, vectorised.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from multas.nucleo.calendario import Expediente
from multas.nucleo.kernel import renovabio
from multas.nucleo.kernel.colunas import Datas, Inteiros, Logicos
from multas.nucleo.kernel.renovabio import LIMITE, MESES


def arredondar_centavos(num: Inteiros, den: Inteiros) -> Inteiros:
    """``num / den`` reais → centavos, half up (``multas.nucleo.dinheiro.arredondar``), for
    ``num >= 0`` and ``0 < 201·den <= LIMITE``, without overflow: in one division when
    ``200·num + den`` fits, else with the integer part split off first.

    >>> arredondar_centavos(np.array([6627500]), np.array([12]))  # 552291.666… reais
    array([55229167])
    >>> arredondar_centavos(np.array([15000000025]), np.array([1000]))  # 15000000.025
    array([1500000003])
    """
    if num.size and int(num.max()) <= (LIMITE - int(den.max())) // 200:
        # the usual case, one division: floor((200·num + den) / (2·den)) is the same number
        return np.asarray((200 * num + den) // (2 * den), dtype=np.int64)
    inteiro, resto = np.divmod(num, den)
    return np.asarray(inteiro * 100 + (200 * resto + den) // (2 * den), dtype=np.int64)


def dividir_meio_acima(num: Inteiros, den: int | Inteiros) -> Inteiros:
    """``num / den`` rounded half up to an integer (``num >= 0``, ``0 < 2·den <= LIMITE``: the
    rounding doubles the remainder, below ``den``).

    >>> dividir_meio_acima(np.array([5, 6, 7]), 4)
    array([1, 2, 2])
    """
    inteiro, resto = np.divmod(num, den)
    return np.asarray(inteiro + (2 * resto >= den), dtype=np.int64)


def cabe(a: Inteiros, b: Inteiros | int) -> Logicos:
    """Rows where ``a * b <= LIMITE`` (``a, b >= 0``; ``b`` a column or one number):
    :func:`multas.nucleo.kernel.renovabio.cabe`, the column's bound first.

    >>> cabe(np.array([3, 2**40]), np.array([2**30, 2**30]))
    array([ True, False])
    """
    a = np.asarray(a, dtype=np.int64)
    return renovabio.cabe(a, np.broadcast_to(np.asarray(b, dtype=np.int64), a.shape))


def cabe_a_soma(a: Inteiros, b: Inteiros, c: Inteiros) -> Logicos:
    """Rows where ``a + b + c <= LIMITE`` (each in ``0..LIMITE``), without forming the sum.

    >>> cabe_a_soma(np.array([1, LIMITE - 2]), np.array([1, 1]), np.array([1, 2]))
    array([ True, False])
    """
    folga = LIMITE - a
    return np.asarray((b <= folga) & (c <= folga - b), dtype=np.bool_)


def _no_calendario(*datas: Datas) -> bool:
    base, _, meses, *_ = MESES
    return all(
        d.size == 0
        or (
            int(d.min().astype(np.int64)) >= base
            and int(d.max().astype(np.int64)) < base + len(meses)
        )
        for d in datas
    )


def somar_meses(inicio: Datas, meses: Inteiros) -> Datas:
    """``inicio`` + ``meses`` months, clamped to the end of the month
    (``multas.nucleo.datas.somar_meses``).

    >>> somar_meses(np.array(["2025-12-31"], "datetime64[D]"), np.array([2]))
    array(['2026-02-28'], dtype='datetime64[D]')
    """
    base, mes_base, mes_do_dia, dia_do_mes, primeiro, tamanho = MESES
    posicao = inicio.astype(np.int64) - base
    alvo = mes_do_dia[posicao] + meses - mes_base
    if alvo.size and (alvo.min() < 0 or alvo.max() >= len(primeiro)):
        return _somar_meses_datetime64(inicio, meses)
    resultado: Datas = (primeiro[alvo] + np.minimum(dia_do_mes[posicao], tamanho[alvo]) - 1).astype(
        "datetime64[D]"
    )
    return resultado


def _somar_meses_datetime64(inicio: Datas, meses: Inteiros) -> Datas:
    mes_inicio = inicio.astype("datetime64[M]")
    dia = (inicio - mes_inicio.astype("datetime64[D]")).astype(np.int64) + 1
    alvo = mes_inicio + meses
    primeiro = alvo.astype("datetime64[D]")
    dias_no_mes = ((alvo + 1).astype("datetime64[D]") - primeiro).astype(np.int64)
    resultado: Datas = primeiro + (np.minimum(dia, dias_no_mes) - 1)
    return resultado


def meses_ou_fracao(inicio: Datas, fim: Datas) -> Inteiros:
    """Months "ou fração" (``multas.nucleo.datas.meses_ou_fracao``): 0 if ``fim <= inicio``, else the
    smallest k ≥ 1 with ``inicio + k meses >= fim``.

    >>> meses_ou_fracao(np.array(["2025-12-31"] * 3, "datetime64[D]"),
    ...                 np.array(["2026-03-15", "2026-11-30", "2026-12-01"], "datetime64[D]"))
    array([ 3, 11, 12])
    """
    if _no_calendario(inicio, fim):
        base, _, mes_do_dia, _, _, _ = MESES
        meses = mes_do_dia[fim.astype(np.int64) - base] - mes_do_dia[inicio.astype(np.int64) - base]
    else:
        meses = (fim.astype("datetime64[M]") - inicio.astype("datetime64[M]")).astype(np.int64)
    meses = np.maximum(meses, 0)
    k = np.where(somar_meses(inicio, meses) >= fim, meses, meses + 1)
    return np.asarray(np.where(fim <= inicio, 0, np.maximum(k, 1)), dtype=np.int64)


def sem_termino(
    expediente: Expediente, ano_inicio: int, ano_fim: int
) -> npt.NDArray[np.datetime64]:
    """The weekdays of ``ano_inicio..ano_fim`` on which no deadline ends, as ``datetime64[D]``:
    the same calendar data and rule as ``multas.nucleo.calendario.Expediente.nao_termina``."""
    return np.array(expediente.fechados(ano_inicio, ano_fim), dtype="datetime64[D]")


def proximo_dia_util(dias: Datas, expediente: Expediente) -> Datas:
    """Each day, or the next business day when no deadline may end on it (Lei 9.784/1999
    art. 66 § 1º; ``multas.nucleo.datas.prazo_em_dias``)."""
    if dias.size == 0:
        return dias
    anos = dias.astype("datetime64[Y]").astype(np.int64) + 1970
    # one extra year: a 31/12 without expediente rolls into January
    lista = sem_termino(expediente, int(anos.min()), int(anos.max()) + 1)
    resultado: Datas = np.busday_offset(dias, 0, roll="forward", holidays=lista)
    return resultado
