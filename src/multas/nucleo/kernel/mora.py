"""§ 3.5, ``anp.mora`` on columns (:mod:`multas.nucleo.kernel.regras`): Decreto 2.953/1999
arts. 26–27, or Lei 10.522/2002 art. 37-A with Lei 9.430/1996 art. 61, in exact integers. Each
step mirrors :mod:`multas.nucleo.regimes.anp`; the ``maiores_produtos_mora_*`` functions bound
the products of the law's parameters per segment.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from decimal import Decimal

import numpy as np

from multas.nucleo.calendario import Expediente
from multas.nucleo.calendario import Leitura as Calendario
from multas.nucleo.contrato import MAXIMO_DATAS
from multas.nucleo.kernel.aritmetica import (
    cabe,
    cabe_a_soma,
    dividir_meio_acima,
    meses_ou_fracao,
    proximo_dia_util,
)
from multas.nucleo.kernel.colunas import (
    ANO_MAX,
    ANO_MIN,
    Datas,
    Inteiros,
    ListaDatas,
    Logicos,
)
from multas.nucleo.kernel.entradas import (
    Entradas,
    ResultadoKernel,
    _dentro_do_limite,
    _escolher_data,
    em_centavos,
)
from multas.nucleo.kernel.leis import Segmentos, exigir, fracao, segmentar
from multas.nucleo.kernel.renovabio import LIMITE
from multas.nucleo.legislacao import Legislacao, Lei
from multas.nucleo.legislacao.selic import indice, taxas_do_caso

#: the most months and days of delay a row of the kernel counts: more than any two of its
#: dates (ANO_MIN to ANO_MAX) lie apart, so only a law with a negative prazo reaches them (those
#: rows go to the engine). They bound the rates' products.
MESES_MAX = (ANO_MAX - ANO_MIN + 1) * 12
DIAS_MAX = (ANO_MAX - ANO_MIN + 1) * 366
#: Selic rates with up to this many decimal places (in percent) are the kernel's
ESCALA_SELIC = 8
#: a monthly Selic rate, in 10**-casas percent, below this (the engine takes the others): the
#: prefix sums of every month of four-digit years, 12 × 10**4 of them, stay below LIMITE
TAXA_SELIC_MAX = 10**12


def maiores_produtos_mora_decreto(
    juros_num: int, juros_den: int, multa_num: int, multa_den: int
) -> dict[str, int]:
    """The largest value each product of :func:`mora` under ``encargos = lei-9847`` reaches,
    by the parameter it grows with (rates ``num / den``).

    Each charge is ``principal × fator / den`` rounded half up, with ``fator = meses × num``
    and ``meses <= MESES_MAX`` (a row past it goes to the engine); ``principal × fator`` is
    guarded per row (``cabe``); the rounding doubles a remainder below ``den``
    (``dividir_meio_acima``). The total is guarded per row (``cabe_a_soma``).
    """
    return {
        "juros_mora": max(juros_num * MESES_MAX, 2 * juros_den),
        "multa_mora": max(multa_num * MESES_MAX, 2 * multa_den),
    }


def _params_mora(lei: Lei) -> dict[str, int]:
    exigir(lei, "anp.mora.redacao")
    # the special law's charges where it is in force (spec § 3.7 point 8), else the decree's
    lei_9847 = lei.get("anp.lei_9847.juros_mora") is not None
    juros_num, juros_den = fracao(lei, "anp.lei_9847.juros_mora" if lei_9847 else "anp.juros_mora")
    multa_num, multa_den = fracao(lei, "anp.lei_9847.multa_mora" if lei_9847 else "anp.multa_mora")
    # read under both readings (the prazo is the decree's): a segment refused here is the
    # engine's under lei-10522 too
    maiores = maiores_produtos_mora_decreto(juros_num, juros_den, multa_num, multa_den)
    _dentro_do_limite("anp.lei_9847" if lei_9847 else "anp", maiores)
    return {
        "dias": lei["anp.prazo_pagamento"].inteiro,
        "juros_num": juros_num,
        "juros_den": juros_den,
        "multa_num": multa_num,
        "multa_den": multa_den,
    }


def maiores_produtos_mora_lei_10522(
    dia_num: int, dia_den: int, lim_num: int, lim_den: int, selic_num: int, selic_den: int
) -> dict[str, int]:
    """The largest value each product of :func:`_encargos_lei_10522` reaches, by the
    parameter it grows with (rates ``num / den``; the Selic sum in 10**-casas percent,
    ``casas <= ESCALA_SELIC``).

    Multa: the comparison ``dia_num × dias × lim_den`` against ``lim_num × dia_den``, with
    ``dias <= DIAS_MAX`` (a row past it goes to the engine); the percentage is then
    ``lim_num / lim_den`` or ``dia_num × dias / dia_den``; ``principal × its numerator`` is
    guarded per row (``cabe``) and the rounding doubles a remainder below its denominator.
    Juros: ``J = soma × selic_den + selic_num × 100 × 10**casas`` over
    ``selic_den × 100 × 10**casas``; the second term of J's numerator is the segment's, and
    ``soma × selic_den`` is guarded per row to fit beside it; ``principal × J``'s numerator is
    guarded per row (past it, exact Python integers) and the rounding doubles a remainder below
    J's denominator. The total is guarded per row (``cabe_a_soma``).
    """
    escala = 100 * 10**ESCALA_SELIC
    return {
        "multa_mora_dia": max(dia_num * DIAS_MAX * lim_den, 2 * dia_den),
        "multa_mora_limite": max(lim_num * dia_den, 2 * lim_den),
        "juros_selic": max(selic_num * escala, 2 * selic_den * escala),
    }


def _params_lei_10522(lei: Lei) -> dict[str, int]:
    exigir(lei, "anp.encargos_lei_10522")
    dia_num, dia_den = fracao(lei, "anp.multa_mora_dia")
    lim_num, lim_den = fracao(lei, "anp.multa_mora_limite")
    selic_num, selic_den = fracao(lei, "anp.juros_selic")
    params = {
        "dia_num": dia_num,
        "dia_den": dia_den,
        "lim_num": lim_num,
        "lim_den": lim_den,
        "selic_num": selic_num,
        "selic_den": selic_den,
    }
    _dentro_do_limite("anp", maiores_produtos_mora_lei_10522(**params))
    return params


def escala_selic(taxas: Mapping[str, Decimal]) -> int | None:
    """The decimal places the kernel counts the rates in: the most any rate has (so the
    integers stay small), or ``None`` past ESCALA_SELIC (the engine then computes)."""
    casas = max((max(0, -int(t.as_tuple().exponent)) for t in taxas.values()), default=0)
    return casas if casas <= ESCALA_SELIC else None


def _selic_acumulada(
    taxas: Mapping[str, Decimal], mes_venc: Inteiros, mes_pag: Inteiros, casas: int
) -> tuple[Inteiros, Logicos]:
    """Per row, the sum of the monthly Selic (percent × 10**casas) of the months after the
    vencimento's and before the payment's, by prefix sums; and whether every month needed is
    in ``taxas`` (a row missing one goes to the engine, which names the month)."""
    n = mes_venc.size
    indices = {indice(m): taxa for m, taxa in taxas.items()}
    if n == 0 or not indices:
        return np.zeros(n, np.int64), np.zeros(n, np.bool_)
    primeiro, ultimo = min(indices), max(indices)
    tamanho = ultimo - primeiro + 1
    # prefix sums: position k holds the months before primeiro + k
    valores = np.zeros(tamanho + 1, np.int64)
    presentes = np.zeros(tamanho + 1, np.int64)
    escala = 10**casas
    for posicao, taxa in indices.items():
        escalada = taxa * escala
        if escalada != escalada.to_integral_value() or escalada >= TAXA_SELIC_MAX:
            return np.zeros(n, np.int64), np.zeros(n, np.bool_)
        valores[posicao - primeiro + 1] = int(escalada)
        presentes[posicao - primeiro + 1] = 1
    soma, contagem = np.cumsum(valores), np.cumsum(presentes)
    # the months needed: mes_venc < m < mes_pag, i.e. [desde, ate]
    desde, ate = mes_venc + 1, mes_pag - 1
    vazio = ate < desde
    dentro = (desde >= primeiro) & (ate <= ultimo)
    i = np.clip(desde - primeiro, 0, tamanho)
    j = np.clip(ate - primeiro + 1, 0, tamanho)
    total = np.where(vazio | ~dentro, 0, soma[j] - soma[i])
    completos = vazio | (dentro & (contagem[j] - contagem[i] == j - i))
    return np.asarray(total, np.int64), np.asarray(completos, np.bool_)


def _mes_indice(dias: Datas) -> Inteiros:
    meses = dias.astype("datetime64[M]").astype(np.int64)  # months since 1970-01
    return np.asarray(meses + 1970 * 12, np.int64)


def mora(
    e: Entradas,
    interpretacao: Mapping[str, str],
    legislacao: Legislacao,
    laco: bool = False,
    *,
    hoje: date | None,
    numba: bool = True,
) -> ResultadoKernel:
    """Decreto 2.953/1999 arts. 26–27, or Lei 10.522/2002 art. 37-A with Lei 9.430/1996
    art. 61 (``multas.nucleo.regimes.anp.mora``, both readings of ``interpretacao.encargos``)."""
    ok = ~e.fora
    ciencia, pagamento = e.datas("data_ciencia"), e.datas("data_pagamento")
    data_lei = _escolher_data(e.datas("data_referencia"), ciencia.dias)
    seg = segmentar(
        legislacao,
        [
            "anp.mora.redacao",
            "anp.prazo_pagamento",
            "anp.juros_mora",
            "anp.multa_mora",
            "anp.lei_9847.juros_mora",
            "anp.lei_9847.multa_mora",
        ],
        data_lei,
        _params_mora,
        ok,
    )
    ok &= seg.aceito
    # vencimento: N calendar days after the ciência, then the next business day (§ 1)
    nominal = ciencia.dias + np.where(ok, seg["dias"], 0).astype("timedelta64[D]")
    if ok.any():  # rows the engine takes get a date inside the span, for the holiday list
        nominal = np.where(ok, nominal, nominal[ok][0])
    vencimento, com_limite = _vencimentos(e, nominal, interpretacao, legislacao)
    ok &= com_limite
    meses = meses_ou_fracao(vencimento, pagamento.dias)
    dias = np.maximum((pagamento.dias - vencimento).astype(np.int64), 0)
    principal = em_centavos(e.numeros("principal"))
    # each charge rounded on its own (spec § 3.5): round(principal × rate)
    if interpretacao["encargos"] == "lei-10522":
        juros, multa, seg_10522 = _encargos_lei_10522(
            e, legislacao, vencimento, pagamento.dias, dias, principal, ok
        )
        ok &= juros >= 0
    else:
        seg_10522 = None
        encargos = {}
        ok &= meses <= MESES_MAX  # maiores_produtos_mora_decreto
        for nome in ("juros", "multa"):
            taxa_num, taxa_den = seg[f"{nome}_num"], seg[f"{nome}_den"]
            fator = np.minimum(meses, MESES_MAX) * taxa_num
            ok &= cabe(principal, fator)
            encargos[nome] = dividir_meio_acima(principal * np.where(ok, fator, 0), taxa_den)
        juros, multa = encargos["juros"], encargos["multa"]
    ok &= cabe_a_soma(principal, juros, multa)  # a larger total is the engine's
    valor = principal + juros + multa
    return ResultadoKernel(
        ok,
        valor,
        {
            "vencimento": vencimento,
            "dias_atraso": dias,
            "meses_atraso": meses,
            "juros_mora": juros,
            "multa_mora": multa,
        },
        segmentos=(seg,) if seg_10522 is None else (seg, seg_10522),
    )


def _vencimentos(
    e: Entradas, nominal: Datas, interpretacao: Mapping[str, str], legislacao: Legislacao
) -> tuple[Datas, Logicos]:
    """The next business day of each nominal end, on the federal calendar plus each row's
    ``dias_sem_expediente``: one pass per distinct set of extra dates (spec § 4). A row whose
    set, joined with the file's, passes the contract's limit is left to the scalar engine
    (which refuses it the same way)."""
    leitura: Calendario = "feriados" if interpretacao["calendario"] == "feriados" else "expediente"
    extras = e.campos.get("dias_sem_expediente")
    # --dias-sem-expediente: the same dates for every row, with each row's own
    todas = frozenset(date.fromisoformat(d) for d in e.constantes.get("dias_sem_expediente", ()))
    dentro = np.ones(len(nominal), np.bool_)
    if not isinstance(extras, ListaDatas) or len(extras.conjuntos) == 1:
        return proximo_dia_util(nominal, Expediente(legislacao.calendario, leitura, todas)), dentro
    vencimento = nominal.copy()
    for grupo, conjunto in enumerate(extras.conjuntos):
        linhas = extras.grupo == grupo
        if not linhas.any():
            continue
        juntas = conjunto | todas
        if len(juntas) > MAXIMO_DATAS:
            dentro &= ~linhas
            continue
        expediente = Expediente(legislacao.calendario, leitura, juntas)
        vencimento[linhas] = proximo_dia_util(nominal[linhas], expediente)
    return vencimento, dentro


def _encargos_lei_10522(
    e: Entradas,
    legislacao: Legislacao,
    vencimento: Datas,
    pagamento: Datas,
    dias: Inteiros,
    principal: Inteiros,
    ok: Logicos,
) -> tuple[Inteiros, Inteiros, Segmentos | None]:
    """Per row (juros, multa) in centavos; -1 where the row is the engine's: a month missing
    from the Selic (the legislation's series, overridden month by month by ``taxas_selic``,
    spec § 3.5 v4), art. 37-A not in force on the vencimento (or data_referencia), or a
    product that would not fit. Then the segments of art. 37-A's law (``None`` when no row
    is the kernel's)."""
    n = e.n
    fora = np.full(n, -1, np.int64)
    taxas = taxas_do_caso(legislacao.selic, e.constantes.get("taxas_selic"))
    casas = escala_selic(taxas)
    if casas is None or n == 0:
        return fora, fora, None
    data_lei = _escolher_data(e.datas("data_referencia"), vencimento)
    seg = segmentar(
        legislacao,
        [
            "anp.encargos_lei_10522",
            "anp.multa_mora_dia",
            "anp.multa_mora_limite",
            "anp.juros_selic",
        ],
        data_lei,
        _params_lei_10522,
        ok,
    )
    aceito = ok & seg.aceito
    # multa: principal × min(dia × dias, limite), one rounding (the products:
    # maiores_produtos_mora_lei_10522)
    dia_num, dia_den = seg["dia_num"], seg["dia_den"]
    lim_num, lim_den = seg["lim_num"], seg["lim_den"]
    aceito &= dias <= DIAS_MAX
    dias = np.minimum(dias, DIAS_MAX)
    limitada = dia_num * dias * lim_den > lim_num * dia_den
    pct_num = np.where(limitada, lim_num, dia_num * dias)
    pct_den = np.where(limitada, lim_den, dia_den)
    aceito &= cabe(principal, pct_num)
    multa = dividir_meio_acima(principal * np.where(aceito, pct_num, 0), pct_den)
    # juros: (Selic of the months in between + 1% in the month of payment), 0 in the same month
    mes_venc, mes_pag = _mes_indice(vencimento), _mes_indice(pagamento)
    soma, completos = _selic_acumulada(taxas, mes_venc, mes_pag, casas)
    depois = mes_pag > mes_venc
    aceito &= ~depois | completos
    escala = 10**casas
    # J = soma / (100 × escala) + selic_num / selic_den; juros = principal × J, with
    # J = (soma × selic_den + termo) / (selic_den × 100 × escala): termo is the segment's
    selic_num, selic_den = seg["selic_num"], seg["selic_den"]
    termo = selic_num * 100 * escala
    aceito &= ~depois | (soma <= (LIMITE - termo) // selic_den)
    j_num = np.where(depois & aceito, soma * selic_den + termo, 0)
    j_den = np.broadcast_to(selic_den * 100 * escala, (n,))
    divisor = np.gcd(j_num, j_den)
    j_num, j_den = j_num // divisor, j_den // divisor
    pequenos = cabe(principal, j_num)
    juros = dividir_meio_acima(principal * np.where(pequenos, j_num, 0), j_den)
    # a large fine over many months: the same rounding in Python integers (rare rows)
    for i in np.flatnonzero(aceito & ~pequenos).tolist():
        produto, den = int(principal[i]) * int(j_num[i]), int(j_den[i])
        exato = produto // den + (2 * (produto % den) >= den)
        if exato <= LIMITE:
            juros[i] = exato
        else:  # past any amount a batch writes: the engine reports it on the row
            aceito[i] = False
    return np.where(aceito, juros, -1), np.where(aceito, multa, -1), seg
