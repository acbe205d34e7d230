"""The RenovaBio rules (spec §§ 3.1 and 3.2) as one loop over the rows, in exact integers,
compiled by Numba (``njit``) on first use: one pass per block, no temporaries, about 2.5×
the NumPy expressions of :mod:`multas.kernel.vetorial` (same arguments, same results). Loading
Numba costs about half a second per process, so the loops serve large in-memory batches
(the exposure simulation, the throughput benchmark); ``multas lote``, bound by reading and
writing, uses the NumPy expressions. The loops are plain Python as well
(``MULTAS_SEM_NUMBA=1`` runs them uncompiled, slowly), and they read like the scalar rules in
:mod:`multas.regimes.renovabio`, step by step.

Units: an amount before the caps is in millionths of a real (``micro``); a fine is a fraction
``num / den`` of reais until the one rounding. The bounds that keep every product below
2**63 are checked per law segment (:mod:`multas.kernel.regras`) and per input (prices and
counts < 10**17 millionths); a product that could exceed them is detected, not wrapped.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import cache
from typing import Any

from multas.kernel.colunas import Inteiros, Logicos

MICRO = 1_000_000
_RAIZ_MAX = 3_037_000_499  # floor(sqrt(2**63 - 1)): below it, a product cannot overflow
_MAX = 2**63 - 1
LEITURAS = {"media": 0, "maior": 1, "menor": 2}
#: interpretacao.piso: 1 when the law's floor prevails over the 5% cap (spec § 3.1 step 5)
PISO_LEI = {"lei": 1, "decreto": 0}


def _valor_apurado(quantidade: int, preco_micro: int) -> tuple[int, bool]:
    """§ 1º: quantity × price (millionths); ``True`` when beyond int64 (above any ceiling)."""
    if quantidade < _RAIZ_MAX and preco_micro < _RAIZ_MAX:
        return quantidade * preco_micro, False
    if preco_micro > _MAX // quantidade:
        return 0, True
    return quantidade * preco_micro, False


def soma_maxima(teto: int, lim_num: int, lim_den: int) -> int:
    """The revenue sum S (centavos) past which the cap exceeds the ceiling and cannot bind."""
    return teto * 10_000 * 200 * lim_den // (lim_num * MICRO) + 1


def _limite_faturamento(
    num: int, den: int, a: int, b: int, leitura: int, soma_max: int, lim_num: int, lim_den: int
) -> tuple[int, int]:
    """§ 3º: min(fine, lim × reference revenue), reference = mean, larger or smaller of the two
    years (centavos a, b). The cap is (S × lim_num) / (200 × lim_den) reais, S clipped where
    the cap already exceeds the ceiling (so it can no longer bind) to keep products small."""
    if leitura == 0:
        soma = a + b
    elif leitura == 1:
        soma = 2 * max(a, b)
    else:
        soma = 2 * min(a, b)
    soma = min(soma, soma_max)
    cap_num, cap_den = soma * lim_num, 200 * lim_den
    if num * cap_den > cap_num * den:
        return cap_num, cap_den
    return num, den


def _meses_ou_fracao(
    inicio: int,
    fim: int,
    base: int,
    mes_base: int,
    mes_do_dia: Inteiros,
    dia_do_mes: Inteiros,
    primeiro: Inteiros,
    tamanho: Inteiros,
) -> int:
    """``multas.datas.meses_ou_fracao`` on day numbers, with the calendar tables of
    :func:`multas.kernel.aritmetica._calendario`."""
    if fim <= inicio:
        return 0
    mes_inicio = mes_do_dia[inicio - base]
    meses = max(mes_do_dia[fim - base] - mes_inicio, 0)
    alvo = mes_inicio + meses - mes_base
    somado = primeiro[alvo] + min(dia_do_mes[inicio - base], tamanho[alvo]) - 1
    k = meses if somado >= fim else meses + 1
    return int(max(k, 1))


def _meses_completos(
    inicio: int,
    fim: int,
    base: int,
    mes_base: int,
    mes_do_dia: Inteiros,
    dia_do_mes: Inteiros,
    primeiro: Inteiros,
    tamanho: Inteiros,
) -> int:
    """``multas.datas.meses_completos`` on day numbers (the largest k ≥ 0 with inicio + k
    months ≤ fim), with the same tables as :func:`_meses_ou_fracao`."""
    if fim <= inicio:
        return 0
    mes_inicio = mes_do_dia[inicio - base]
    meses = max(mes_do_dia[fim - base] - mes_inicio, 0)
    alvo = mes_inicio + meses - mes_base
    somado = primeiro[alvo] + min(dia_do_mes[inicio - base], tamanho[alvo]) - 1
    k = meses if somado <= fim else meses - 1
    return int(max(k, 0))


def _arredondar(num: int, den: int) -> int:
    """num/den reais → centavos, half up (``multas.dinheiro.arredondar``)."""
    inteiro = num // den
    resto = num - inteiro * den
    return int(inteiro * 100 + (200 * resto + den) // (2 * den))


def distribuidor_linhas(
    ok: Logicos,
    meta: Inteiros,
    aposentados: Inteiros,
    preco_micro: Inteiros,
    tem_faturamento: Logicos,
    fat_a: Inteiros,
    fat_b: Inteiros,
    leitura: int,
    piso_lei: int,
    completos: int,
    tem_quitacao: Logicos,
    quitacao: Inteiros,
    prazo: Inteiros,
    seg: Inteiros,
    piso: Inteiros,
    teto: Inteiros,
    lim_num: Inteiros,
    lim_den: Inteiros,
    soma_max: Inteiros,
    tem_reducao: Inteiros,
    red_num: Inteiros,
    red_den: Inteiros,
    red_meses: Inteiros,
    calendario: tuple[int, int, Inteiros, Inteiros, Inteiros, Inteiros],
    valor: Inteiros,
) -> None:
    """Decreto 9.888/2019 art. 6º and art. 6º-A § 8º (``multa_distribuidor``), per row."""
    base, mes_base, mes_do_dia, dia_do_mes, primeiro, tamanho = calendario
    for i in range(len(ok)):
        valor[i] = 0
        faltantes = meta[i] - aposentados[i]  # step 1
        if not ok[i] or faltantes <= 0:
            continue
        s = seg[i]
        piso_micro, teto_micro = piso[s] * 10_000, teto[s] * 10_000
        apurado, enorme = _valor_apurado(faltantes, preco_micro[i])  # step 3
        caso_piso = not enorme and apurado < piso_micro  # step 4, decided on the valor apurado
        if caso_piso:
            num = piso_micro
        elif enorme or apurado > teto_micro:
            num = teto_micro
        else:
            num = apurado
        den = MICRO
        if tem_faturamento[i] and not caso_piso:  # step 5, except in the piso case
            num, den = _limite_faturamento(
                num, den, fat_a[i], fat_b[i], leitura, soma_max[s], lim_num[s], lim_den[s]
            )
            if piso_lei == 1 and num * 100 < piso[s] * den:  # interpretacao.piso = lei
                num, den = piso_micro, MICRO
        if tem_quitacao[i] and tem_reducao[s] == 1:  # step 6, from 2025
            meses = _meses_ou_fracao(
                prazo[i], quitacao[i], base, mes_base, mes_do_dia, dia_do_mes, primeiro, tamanho
            )
            # "respeitado o limite inferior"; a fine already below it (by § 3º) stays
            if meses <= red_meses[s] and num * 100 >= piso[s] * den:
                if completos == 1:  # interpretacao.meses_reducao = completos
                    meses = _meses_completos(
                        prazo[i],
                        quitacao[i],
                        base,
                        mes_base,
                        mes_do_dia,
                        dia_do_mes,
                        primeiro,
                        tamanho,
                    )
                num, den = num * meses * red_num[s], den * red_den[s]
                if num * 100 < piso[s] * den:
                    valor[i] = piso[s]
                    continue
        valor[i] = _arredondar(num, den)  # step 7


def produtor_linhas(
    ok: Logicos,
    nao_pagos: Inteiros,
    preco_micro: Inteiros,
    dados_primarios: Logicos,
    tem_faturamento: Logicos,
    fat_a: Inteiros,
    fat_b: Inteiros,
    leitura: int,
    piso_lei: int,
    seg: Inteiros,
    piso: Inteiros,
    teto: Inteiros,
    lim_num: Inteiros,
    lim_den: Inteiros,
    soma_max: Inteiros,
    dobro_num: Inteiros,
    dobro_den: Inteiros,
    valor: Inteiros,
) -> None:
    """Decreto 9.888/2019 art. 6º-B (``multa_produtor``), per row."""
    for i in range(len(ok)):
        valor[i] = 0
        if not ok[i] or nao_pagos[i] == 0:  # step 1: nothing unpaid, no fine
            continue
        s = seg[i]
        piso_micro, teto_micro = piso[s] * 10_000, teto[s] * 10_000
        base, enorme = _valor_apurado(nao_pagos[i], preco_micro[i])
        caso_piso = not enorme and base < piso_micro  # step 2, decided on the base
        if caso_piso:
            num = piso_micro
        elif enorme or base > teto_micro:
            num = teto_micro
        else:
            num = base
        den = MICRO
        if dados_primarios[i]:  # step 3: in double, still at most the ceiling
            if num * dobro_num[s] > teto_micro * dobro_den[s]:
                num = teto_micro
            else:
                num, den = num * dobro_num[s], den * dobro_den[s]
        if tem_faturamento[i] and not caso_piso:  # step 4, except in the piso case
            num, den = _limite_faturamento(
                num, den, fat_a[i], fat_b[i], leitura, soma_max[s], lim_num[s], lim_den[s]
            )
            if piso_lei == 1 and num * 100 < piso[s] * den:  # interpretacao.piso = lei
                num, den = piso_micro, MICRO
        valor[i] = _arredondar(num, den)  # step 5


_TRAVA = threading.Lock()


def compilado(nome: str) -> Callable[..., None]:
    """The loop ``nome``, compiled by Numba (cached on disk), or plain Python without it."""
    with _TRAVA:  # one compilation, even when two threads ask at once
        return _compilar(nome)


@cache
def _compilar(nome: str) -> Callable[..., None]:
    funcao: Callable[..., None] = globals()[nome]
    if sem_numba():
        return funcao
    from importlib import import_module

    numba: Any = import_module("numba")
    # the helpers first: a compiled loop calls compiled helpers through these globals
    for auxiliar in (
        "_valor_apurado",
        "_limite_faturamento",
        "_meses_ou_fracao",
        "_meses_completos",
        "_arredondar",
    ):
        if not hasattr(globals()[auxiliar], "py_func"):
            globals()[auxiliar] = numba.njit(cache=True, nogil=True, error_model="numpy")(
                globals()[auxiliar]
            )
    compilada: Callable[..., None] = numba.njit(cache=True, nogil=True, error_model="numpy")(funcao)
    return compilada


@cache
def sem_numba() -> bool:
    """``MULTAS_SEM_NUMBA``, read once, when a loop is first needed (pydantic, like Numba, is
    loaded only then: ``multas lote`` uses the NumPy expressions and never pays for it)."""
    from multas.configuracao import carregar

    return carregar().sem_numba


__all__ = [
    "LEITURAS",
    "MICRO",
    "PISO_LEI",
    "compilado",
    "distribuidor_linhas",
    "produtor_linhas",
    "sem_numba",
]
