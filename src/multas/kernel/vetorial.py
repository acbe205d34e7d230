"""The RenovaBio steps of :mod:`multas.kernel.lacos` as NumPy expressions over whole columns:
same arguments, same exact integers, same result. A batch uses these while the compiled loops
load (Numba's import and cache load cost about half a second per process, more than these
expressions take on a couple of million rows), then the loops. The differential test runs
both against the scalar engine.
"""

from __future__ import annotations

import numpy as np

from multas.kernel.aritmetica import arredondar_centavos, cabe, meses_ou_fracao, somar_meses
from multas.kernel.colunas import Inteiros, Logicos
from multas.kernel.lacos import MICRO


def _valor_apurado(quantidade: Inteiros, preco_micro: Inteiros) -> tuple[Inteiros, Logicos]:
    """§ 1º: quantity × price (millionths); ``enorme`` beyond int64 (above any ceiling)."""
    cabem = cabe(quantidade, preco_micro, 2**63 - 1)
    if cabem.all():  # the usual case: every product fits
        return np.asarray(quantidade * preco_micro, np.int64), ~cabem
    apurado = np.where(cabem, quantidade * np.where(cabem, preco_micro, 0), 0)
    return np.asarray(apurado, np.int64), ~cabem


def _piso_e_teto(
    apurado: Inteiros, enorme: Logicos, piso: Inteiros, teto: Inteiros
) -> tuple[Inteiros, Logicos, Inteiros]:
    """§ 2º, decided on the valor apurado: (fine in millionths, piso case, ceiling)."""
    piso_micro, teto_micro = piso * 10_000, teto * 10_000
    caso_piso = ~enorme & (apurado < piso_micro)
    multa = np.where(
        caso_piso, piso_micro, np.where(enorme | (apurado > teto_micro), teto_micro, apurado)
    )
    return np.asarray(multa, np.int64), np.asarray(caso_piso, np.bool_), teto_micro


def _limite_faturamento(
    num: Inteiros,
    den: Inteiros,
    aplica: Logicos,
    fat_a: Inteiros,
    fat_b: Inteiros,
    leitura: int,
    soma_max: Inteiros,
    lim_num: Inteiros,
    lim_den: Inteiros,
) -> tuple[Inteiros, Inteiros]:
    """§ 3º where ``aplica``: min(fine, (S × lim_num) / (200 × lim_den)), S clipped."""
    if not aplica.any():  # no row with revenue (or all in the piso case)
        return num, den
    if leitura == 0:
        soma = fat_a + fat_b
    elif leitura == 1:
        soma = 2 * np.maximum(fat_a, fat_b)
    else:
        soma = 2 * np.minimum(fat_a, fat_b)
    soma = np.minimum(soma, soma_max)
    cap_num, cap_den = soma * lim_num, 200 * lim_den
    limitada = aplica & (num * cap_den > cap_num * den)
    return np.where(limitada, cap_num, num), np.where(limitada, cap_den, den)


def _piso_legal(
    num: Inteiros, den: Inteiros, aplica: Logicos, piso: Inteiros, piso_lei: int
) -> tuple[Inteiros, Inteiros]:
    """Spec § 3.1 step 5 under ``interpretacao.piso = lei``: a cap below the floor gives the
    floor (centavos → millionths)."""
    if not piso_lei or not aplica.any():
        return num, den
    abaixo = aplica & (num * 100 < piso * den)
    return np.where(abaixo, piso * 10_000, num), np.where(abaixo, MICRO, den)


def distribuidor_colunas(
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
    piso_s: Inteiros,
    teto_s: Inteiros,
    lim_num_s: Inteiros,
    lim_den_s: Inteiros,
    soma_max_s: Inteiros,
    tem_reducao_s: Inteiros,
    red_num_s: Inteiros,
    red_den_s: Inteiros,
    red_meses_s: Inteiros,
    calendario: object,
    valor: Inteiros,
) -> None:
    """``lacos.distribuidor_linhas``, on columns."""
    del calendario  # the loop's tables; here meses_ou_fracao reads them itself
    piso, teto = piso_s.take(seg), teto_s.take(seg)
    faltantes = np.maximum(meta - aposentados, 0)  # step 1
    apurado, enorme = _valor_apurado(faltantes, preco_micro)  # step 3
    num, caso_piso, _ = _piso_e_teto(apurado, enorme, piso, teto)  # step 4
    den = np.full(len(ok), MICRO, dtype=np.int64)
    aplica = tem_faturamento & ~caso_piso  # step 5, except in the piso case
    if aplica.any():
        num, den = _limite_faturamento(
            num,
            den,
            aplica,
            fat_a,
            fat_b,
            leitura,
            soma_max_s.take(seg),
            lim_num_s.take(seg),
            lim_den_s.take(seg),
        )
        num, den = _piso_legal(num, den, aplica, piso, piso_lei)
    # step 6: 1/12 a month, from 2025, "respeitado o limite inferior" (months counted only
    # on the rows with a quitação under a law that has the reduction)
    com_reducao = tem_quitacao & (tem_reducao_s.take(seg) == 1)
    candidatas = np.flatnonzero(ok & com_reducao)
    if candidatas.size:
        meses = np.zeros(len(ok), dtype=np.int64)
        meses[candidatas] = meses_ou_fracao(
            prazo[candidatas].astype("datetime64[D]"),
            quitacao[candidatas].astype("datetime64[D]"),
        )
        reduz = (
            com_reducao
            & (meses <= red_meses_s.take(seg))
            & (num * 100 >= piso * den)  # a fine already below the floor (by § 3º) stays
        )
        if completos == 1:  # interpretacao.meses_reducao = completos: whole months
            inicio = prazo[candidatas].astype("datetime64[D]")
            exato = somar_meses(inicio, meses[candidatas]) == quitacao[candidatas].astype(
                "datetime64[D]"
            )
            meses[candidatas] -= np.where(exato, 0, 1)
        num = num * np.where(reduz, meses * red_num_s.take(seg), 1)
        den = den * np.where(reduz, red_den_s.take(seg), 1)
        abaixo = reduz & (num * 100 < piso * den)
        resultado = np.where(abaixo, piso, arredondar_centavos(num, den))  # step 7
    else:  # no row reduced: nothing can fall below the floor here
        resultado = arredondar_centavos(num, den)  # step 7
    valor[:] = np.where(ok & (faltantes > 0), resultado, 0)


def produtor_colunas(
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
    piso_s: Inteiros,
    teto_s: Inteiros,
    lim_num_s: Inteiros,
    lim_den_s: Inteiros,
    soma_max_s: Inteiros,
    dobro_num_s: Inteiros,
    dobro_den_s: Inteiros,
    valor: Inteiros,
) -> None:
    """``lacos.produtor_linhas``, on columns."""
    base, enorme = _valor_apurado(nao_pagos, preco_micro)  # step 1
    multa, caso_piso, teto_micro = _piso_e_teto(base, enorme, piso_s[seg], teto_s[seg])
    dobro_num, dobro_den = dobro_num_s[seg], dobro_den_s[seg]  # step 3: double, to the ceiling
    acima = multa * dobro_num > teto_micro * dobro_den
    num = np.where(dados_primarios, np.where(acima, teto_micro, multa * dobro_num), multa)
    den = np.where(dados_primarios & ~acima, MICRO * dobro_den, MICRO)
    num, den = _limite_faturamento(  # step 4, except in the piso case
        num,
        den,
        tem_faturamento & ~caso_piso,
        fat_a,
        fat_b,
        leitura,
        soma_max_s[seg],
        lim_num_s[seg],
        lim_den_s[seg],
    )
    num, den = _piso_legal(num, den, tem_faturamento & ~caso_piso, piso_s[seg], piso_lei)
    valor[:] = np.where(ok & (nao_pagos > 0), arredondar_centavos(num, den), 0)  # step 5
