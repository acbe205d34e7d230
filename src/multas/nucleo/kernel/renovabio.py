"""The RenovaBio rules of spec §§ 3.1 and 3.2 for the batch, written once.

Each rule is one function over two typed records of *values*: the rows' fields and their law
segment's parameters. The values are whole columns when NumPy runs it, or one row's integers
when the loop of :mod:`multas.nucleo.kernel.lacos` runs it, compiled by Numba. The loop runs this very
code: it gives it the scalar twins of the six primitives (``onde``, ``maximo``, ``minimo``,
``nao``, ``algum``, ``cabe``: :data:`ESCALARES`) and a driver generated from the records'
fields (:data:`LACOS`), nothing else. So each step has one writing, which the comments tie to
its scalar twin in :mod:`multas.nucleo.regimes.renovabio`; the differential test runs both
executions against that engine, row by row. (Everything the compiled loop runs is in this
file: Numba's disk cache is invalidated by this file's changes only.)

Written branch-free: every step is computed and ``onde`` chooses. ``algum`` skips a step that
no row needs (NumPy: no row of the column; the loop: not this row). A value a row does not
choose may be meaningless (even wrapped past int64), and is never used.

Units: prices in millionths of a real (``micro``), so the valor apurado is in millionths; a
fine is then a fraction ``num / den`` of reais (``den`` starts as :data:`MICRO`) until the one
rounding, to centavos. The legal amounts come in centavos, per law segment, in a typed record
(:class:`ParametrosDistribuidor`, :class:`ParametrosProdutor`): never written here.

**The bounds.** One limit is declared, :data:`LIMITE` (int64's largest value). The inputs
are bounded by the contract's fast shapes (:data:`ENTRADA_MAX`); the valor apurado is the one
product of two inputs, and ``cabe`` guards it (beyond the limit it is above any ceiling).
Every other product is a product of a bounded value and the law's parameters:
:func:`maiores_produtos_distribuidor` and :func:`maiores_produtos_produtor` follow each step
and give the largest value each product can reach for a segment's parameters, and
:func:`multas.nucleo.kernel.regras` refuses a segment (naming the parameters) whose largest product
passes :data:`LIMITE`. The proof is those two functions, step by step, beside the rules.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from multas.nucleo.kernel.colunas import Inteiros, Logicos

#: the one declared bound: no intermediate value of a rule may pass it (int64's largest)
LIMITE = 2**63 - 1
#: the contract's fast shapes keep every count, price (in millionths) and revenue (in
#: centavos) below this (:func:`multas.nucleo.kernel.entradas._forma_do_tipo`)
ENTRADA_MAX = 10**17
MICRO = 1_000_000  # millionths of a real
CENTAVO = MICRO // 100  # millionths of a real in a centavo
#: interpretacao.faturamento: the reference revenue of § 3º
LEITURAS = {"media": 0, "maior": 1, "menor": 2}
#: interpretacao.piso: 1 when the law's floor prevails over the 5% cap (spec § 3.1 step 5)
PISO_LEI = {"lei": 1, "decreto": 0}

#: one row's value (the loop) or a whole column (NumPy)
Valor = Any


# --- the primitives (NumPy); multas.nucleo.kernel.lacos gives the loop their scalar twins -----------

onde = np.where
maximo = np.maximum
minimo = np.minimum
nao = np.logical_not
algum = np.any


def cabe(a: Inteiros, b: Inteiros) -> Logicos:
    """Where ``a * b <= LIMITE`` (``a, b >= 0``): the column's bound first, so the usual case
    costs two reductions."""
    if a.size == 0 or int(a.max()) * int(b.max()) <= LIMITE:
        return np.ones(a.shape, dtype=np.bool_)
    return np.asarray(a <= LIMITE // np.maximum(b, 1), dtype=np.bool_)


# --- the records ------------------------------------------------------------------------------


class Leituras(NamedTuple):
    """The readings a rule takes, as integers (the same for every row of a batch)."""

    faturamento: int  # LEITURAS
    piso_lei: int  # PISO_LEI
    meses_completos: int  # interpretacao.meses_reducao = completos


class LinhasDistribuidor(NamedTuple):
    """A distributor batch, per row (dates as day numbers since 1970-01-01)."""

    ok: Logicos
    meta: Inteiros
    aposentados: Inteiros
    diferivel: Logicos  # meta_anterior_cumprida, and diferir not false
    preco_micro: Inteiros
    tem_faturamento: Logicos
    fat_a: Inteiros  # centavos
    fat_b: Inteiros  # centavos
    tem_quitacao: Logicos
    quitacao: Inteiros  # the deadline where there is none
    prazo: Inteiros


class ParametrosDistribuidor(NamedTuple):
    """``renovabio.distribuidor.*`` per law segment (:mod:`multas.nucleo.kernel.leis`), integers."""

    piso: Inteiros  # centavos
    teto: Inteiros  # centavos
    lim_num: Inteiros  # limite_faturamento = lim_num / lim_den
    lim_den: Inteiros
    soma_max: Inteiros  # :func:`soma_maxima`
    tem_reducao: Inteiros  # 1 where the reduction is in force
    red_num: Inteiros  # reducao = red_num / red_den a month
    red_den: Inteiros
    red_meses: Inteiros  # reducao_meses
    dif_num: Inteiros  # ciclo.diferimento = dif_num / dif_den (0 / 1 where not in force)
    dif_den: Inteiros


class LinhasProdutor(NamedTuple):
    ok: Logicos
    nao_pagos: Inteiros
    preco_micro: Inteiros
    dados_primarios: Logicos
    tem_faturamento: Logicos
    fat_a: Inteiros
    fat_b: Inteiros


class ParametrosProdutor(NamedTuple):
    """``renovabio.produtor.*`` per law segment, integers."""

    piso: Inteiros
    teto: Inteiros
    lim_num: Inteiros
    lim_den: Inteiros
    soma_max: Inteiros
    dobro_num: Inteiros  # dobro = dobro_num / dobro_den
    dobro_den: Inteiros


#: the month tables: (the first day, the first month, each day's month, each day's day of
#: month, each month's first day, each month's length); days and months counted from 1970
Tabelas = tuple[int, int, Inteiros, Inteiros, Inteiros, Inteiros]


def _tabelas_de_meses() -> Tabelas:
    """Lookup tables for every day of 1899-12 to 2201-01: its month (months since 1970-01)
    and day of month; and for every month its first day and its length. Two gathers replace
    the slow datetime64 unit conversions. Read-only: the compiled loop holds them as
    constants."""
    inicio, fim = np.datetime64("1899-12-01", "D"), np.datetime64("2201-02-01", "D")
    dias = np.arange(inicio, fim)
    meses = dias.astype("datetime64[M]")
    dia_do_mes = (dias - meses.astype("datetime64[D]")).astype(np.int64) + 1
    lista_meses = np.arange(meses[0], meses[-1] + 2)
    primeiro = lista_meses.astype("datetime64[D]").astype(np.int64)
    colunas = (meses.astype(np.int64), dia_do_mes, primeiro[:-1].copy(), np.diff(primeiro))
    for coluna in colunas:
        coluna.flags.writeable = False
    return (int(inicio.astype(np.int64)), int(lista_meses[0].astype(np.int64)), *colunas)


#: built once, here: the rules read them as module constants, so the compiled loop holds them
#: as constants of its own code (an array passed to a step costs a reference count per row)
#: and Numba's cache of this file holds the tables this file builds
MESES: Tabelas = _tabelas_de_meses()
_BASE, _MES_BASE, _MES_DO_DIA, _DIA_DO_MES, _PRIMEIRO, _TAMANHO = MESES


# --- the steps --------------------------------------------------------------------------------


def _valor_apurado(quantidade: Valor, preco_micro: Valor) -> tuple[Valor, Valor]:
    """§ 1º: quantity × price (millionths); ``enorme`` where beyond :data:`LIMITE` (above any
    ceiling, which :func:`maiores_produtos_distribuidor` keeps below it)."""
    enorme = nao(cabe(quantidade, preco_micro))
    return quantidade * onde(enorme, 0, preco_micro), enorme


def _piso_e_teto(apurado: Valor, enorme: Valor, piso: Valor, teto: Valor) -> tuple[Valor, Valor]:
    """§ 2º, decided on the valor apurado: (the fine in millionths, the piso case)."""
    piso_micro, teto_micro = piso * CENTAVO, teto * CENTAVO
    caso_piso = nao(enorme) & (apurado < piso_micro)
    multa = onde(caso_piso, piso_micro, onde(enorme | (apurado > teto_micro), teto_micro, apurado))
    return multa, caso_piso


def _limite_faturamento(
    num: Valor,
    den: Valor,
    aplica: Valor,
    a: Valor,
    b: Valor,
    leitura: int,
    soma_max: Valor,
    lim_num: Valor,
    lim_den: Valor,
) -> tuple[Valor, Valor]:
    """§ 3º where ``aplica``: min(fine, lim × reference revenue), the reference being the mean,
    the larger or the smaller of the two years (centavos a, b). As a fraction of reais the cap
    is (S × lim_num) / (200 × lim_den): 2 for the two years of S, 100 centavos a real. S is
    clipped where the cap already exceeds the ceiling (so it cannot bind): products stay
    small."""
    if leitura == 0:
        soma = a + b
    elif leitura == 1:
        soma = 2 * maximo(a, b)
    else:
        soma = 2 * minimo(a, b)
    soma = minimo(soma, soma_max)
    cap_num, cap_den = soma * lim_num, 200 * lim_den
    limitada = aplica & (num * cap_den > cap_num * den)
    return onde(limitada, cap_num, num), onde(limitada, cap_den, den)


def _piso_da_lei(
    num: Valor, den: Valor, aplica: Valor, piso: Valor, piso_lei: int
) -> tuple[Valor, Valor]:
    """Spec § 3.1 step 5 under ``interpretacao.piso = lei``: a cap below the floor gives the
    floor (``num / den`` reais against ``piso`` centavos)."""
    if piso_lei != 1:
        return num, den
    abaixo = aplica & (num * 100 < piso * den)
    return onde(abaixo, piso * CENTAVO, num), onde(abaixo, MICRO, den)


def _limite_e_piso(
    num: Valor, den: Valor, aplica: Valor, x: Any, p: Any, leitura: Leituras
) -> tuple[Valor, Valor]:
    """§ 3º, then the law's floor (:func:`_piso_da_lei`): the same in both rules, on their
    records' revenue fields and parameters."""
    num, den = _limite_faturamento(
        num,
        den,
        aplica,
        x.fat_a,
        x.fat_b,
        leitura.faturamento,
        p.soma_max,
        p.lim_num,
        p.lim_den,
    )
    return _piso_da_lei(num, den, aplica, p.piso, leitura.piso_lei)


def _meses(inicio: Valor, fim: Valor) -> tuple[Valor, Valor]:
    """``multas.nucleo.datas.meses_ou_fracao`` and ``multas.nucleo.datas.meses_completos`` of day numbers,
    with one lookup in the month tables (:data:`MESES`): (the smallest k ≥ 1 with inicio + k
    months ≥ fim, the largest k ≥ 0 with inicio + k months ≤ fim), both 0 when
    ``fim <= inicio``."""
    base, mes_base, mes_do_dia, dia_do_mes = _BASE, _MES_BASE, _MES_DO_DIA, _DIA_DO_MES
    primeiro, tamanho = _PRIMEIRO, _TAMANHO
    mes_inicio = mes_do_dia[inicio - base]
    meses = maximo(mes_do_dia[fim - base] - mes_inicio, 0)
    alvo = mes_inicio + meses - mes_base
    somado = primeiro[alvo] + minimo(dia_do_mes[inicio - base], tamanho[alvo]) - 1  # + meses
    antes = fim <= inicio
    fracao = onde(antes, 0, maximo(onde(somado >= fim, meses, meses + 1), 1))
    completos = onde(antes, 0, maximo(onde(somado <= fim, meses, meses - 1), 0))
    return fracao, completos


def _arredondar(num: Valor, den: Valor) -> Valor:
    """``num / den`` reais → centavos, half up (``multas.nucleo.dinheiro.arredondar``)."""
    inteiro = num // den
    resto = num - inteiro * den
    return inteiro * 100 + (200 * resto + den) // (2 * den)


# --- the rules --------------------------------------------------------------------------------


def distribuidor(x: LinhasDistribuidor, p: ParametrosDistribuidor, leitura: Leituras) -> Valor:
    """Decreto 9.888/2019 art. 6º and art. 6º-A § 8º (``multa_distribuidor``): the fine in
    centavos, of one row or of every row (``x`` and ``p`` hold values, or columns)."""
    piso = p.piso
    faltantes = maximo(x.meta - x.aposentados, 0)  # step 1
    # the deferral (regimes.renovabio.cbios_diferidos): a shortfall within the fraction of the
    # target, the previous year met, is all deferred; the rest is fined as a whole
    diferida = x.diferivel & (faltantes * p.dif_den <= p.dif_num * x.meta)
    faltantes = onde(diferida, 0, faltantes)
    if nao(algum(faltantes > 0)):  # no shortfall, no fine (the loop: this row's)
        return faltantes * 0
    apurado, enorme = _valor_apurado(faltantes, x.preco_micro)  # step 3
    num, caso_piso = _piso_e_teto(apurado, enorme, piso, p.teto)  # step 4
    den: Valor = MICRO
    aplica = x.tem_faturamento & nao(caso_piso)  # step 5, except in the piso case
    if algum(aplica):
        num, den = _limite_e_piso(num, den, aplica, x, p, leitura)
    # step 6: the reduction a month, where in force, "respeitado o limite inferior"; a fine
    # already below the floor (by § 3º) stays
    com_reducao = x.tem_quitacao & (p.tem_reducao == 1)
    if algum(com_reducao):
        fracao, completos = _meses(x.prazo, x.quitacao)
        reduz = com_reducao & (fracao <= p.red_meses) & (num * 100 >= piso * den)
        meses = completos if leitura.meses_completos == 1 else fracao
        num = num * onde(reduz, meses * p.red_num, 1)
        den = den * onde(reduz, p.red_den, 1)
        abaixo = reduz & (num * 100 < piso * den)  # then the floor itself
        num, den = onde(abaixo, piso * CENTAVO, num), onde(abaixo, MICRO, den)
    num = onde(x.ok & (faltantes > 0), num, 0)  # no shortfall, no fine
    return _arredondar(num, den)  # step 7


def produtor(x: LinhasProdutor, p: ParametrosProdutor, leitura: Leituras) -> Valor:
    """Decreto 9.888/2019 art. 6º-B (``multa_produtor``): the fine in centavos, of one row or
    of every row."""
    piso, teto_micro = p.piso, p.teto * CENTAVO
    base, enorme = _valor_apurado(x.nao_pagos, x.preco_micro)  # step 1
    num, caso_piso = _piso_e_teto(base, enorme, piso, p.teto)  # step 2, on the base
    dobro_num, dobro_den = p.dobro_num, p.dobro_den  # step 3: double, to the ceiling
    dobro = x.dados_primarios
    acima = num * dobro_num > teto_micro * dobro_den
    num = onde(dobro, onde(acima, teto_micro, num * dobro_num), num)
    den = onde(dobro & nao(acima), MICRO * dobro_den, MICRO)
    aplica = x.tem_faturamento & nao(caso_piso)  # step 4, except in the piso case
    if algum(aplica):
        num, den = _limite_e_piso(num, den, aplica, x, p, leitura)
    num = onde(x.ok & (x.nao_pagos > 0), num, 0)  # nothing unpaid, no fine
    return _arredondar(num, den)  # step 5


#: what the loop compiles, helpers first (a compiled function calls compiled helpers)
PASSOS = (
    "_valor_apurado",
    "_piso_e_teto",
    "_limite_faturamento",
    "_piso_da_lei",
    "_limite_e_piso",
    "_meses",
    "_arredondar",
    "distribuidor",
    "produtor",
)


# --- the loop: the scalar twins of the primitives, and a driver generated per rule ---------


def _onde_escalar(condicao: bool, a: int, b: int) -> int:
    return a if condicao else b


def _nao_escalar(valor: bool) -> bool:
    return not valor


def _algum_escalar(valor: bool) -> bool:
    return valor


_RAIZ = 3_037_000_499  # floor(sqrt(LIMITE)): two factors below it cannot pass LIMITE


def _cabe_escalar(a: int, b: int) -> bool:
    """``a * b <= LIMITE`` (``a, b >= 0``), without forming the product."""
    if a < _RAIZ and b < _RAIZ:  # the usual case: no division
        return True
    return b == 0 or a <= LIMITE // b


#: the primitives of the loop (:mod:`multas.nucleo.kernel.lacos`): the same names, on one row's values
ESCALARES: dict[str, Any] = {
    "onde": _onde_escalar,
    "maximo": max,
    "minimo": min,
    "nao": _nao_escalar,
    "algum": _algum_escalar,
    "cabe": _cabe_escalar,
}


def _fonte_do_laco(regra: str, linhas: type, parametros: type, extras: tuple[str, ...]) -> str:
    """The source of ``<regra>_linhas(x, p, seg, *extras, valor)``: for each row, the rule on
    that row's values (a record of each row's fields, generated from the records' fields, and
    its segment's parameters); 0 for a row not ``ok``. Generated, so no field is listed twice."""
    valores_x = ", ".join(f"x.{campo}[i]" for campo in linhas._fields)  # type: ignore[attr-defined]
    valores_p = ", ".join(f"p.{campo}[s]" for campo in parametros._fields)  # type: ignore[attr-defined]
    argumentos = "".join(f"{nome}, " for nome in extras)
    return (
        f"def {regra}_linhas(x, p, seg, {argumentos}valor):\n"
        "    for i in range(len(valor)):\n"
        "        if not x.ok[i]:\n"
        "            valor[i] = 0\n"
        "            continue\n"
        "        s = seg[i]\n"
        f"        linha = {linhas.__name__}({valores_x})\n"
        f"        segmento = {parametros.__name__}({valores_p})\n"
        f"        valor[i] = {regra}(linha, segmento, {argumentos})\n"
    )


#: the loops, by name: their source (:func:`_fonte_do_laco`)
LACOS = {
    "distribuidor_linhas": _fonte_do_laco(
        "distribuidor", LinhasDistribuidor, ParametrosDistribuidor, ("leitura",)
    ),
    "produtor_linhas": _fonte_do_laco("produtor", LinhasProdutor, ParametrosProdutor, ("leitura",)),
}


# --- the bounds -------------------------------------------------------------------------------


def soma_maxima(teto: int, lim_num: int, lim_den: int) -> int:
    """The revenue sum S (centavos) past which the cap, (S × lim_num) / (200 × lim_den) reais,
    exceeds the ceiling (``teto`` centavos) and so cannot bind."""
    return teto * CENTAVO * 200 * lim_den // (lim_num * MICRO) + 1


def _faturamento(
    num: int, den: int, piso: int, soma_max: int, lim_num: int, lim_den: int
) -> tuple[list[int], int, int]:
    """The products of :func:`_limite_faturamento` for a fine of at most ``num`` over at most
    ``den``: (products, the largest num and den after it and :func:`_piso_da_lei`)."""
    cap_num, cap_den = soma_max * lim_num, 200 * lim_den
    produtos = [
        2 * ENTRADA_MAX,  # the sum of the two revenues, before the clip
        num * cap_den,
        cap_num * den,
    ]
    return produtos, max(num, cap_num, piso * CENTAVO), max(den, cap_den, MICRO)


def maiores_produtos_distribuidor(
    piso: int,
    teto: int,
    lim_num: int,
    lim_den: int,
    soma_max: int,
    red_num: int,
    red_den: int,
    red_meses: int,
    dif_num: int,
    dif_den: int,
) -> dict[str, int]:
    """The largest value each product of :func:`distribuidor` reaches, by the parameters it
    grows with, for one segment's parameters (centavos and integers; no reduction: 0, 1, 0;
    no deferral: 0, 1).

    Step 1: the deferral compares faltantes × dif_den with dif_num × meta, both inputs below
    :data:`ENTRADA_MAX`. Step 3: the valor apurado is guarded by ``cabe``. Step 4: the floor and the ceiling in
    millionths, so the fine is at most max(piso, teto) × CENTAVO over MICRO. Step 5: the two
    cross products of the comparison with the cap and, with the law's floor, num × 100 and
    piso × den. Step 6 (only where the months are at most red_meses): num × months × red_num
    and den × red_den, then the floor's comparison again. Step 7: 200 × (den − 1) + den and
    num × 100 (``_arredondar``).
    """
    num, den = max(piso, teto) * CENTAVO, MICRO  # step 4
    faturamento, num, den = _faturamento(num, den, piso, soma_max, lim_num, lim_den)  # step 5
    num_red, den_red = num * max(red_meses * red_num, 1), den * max(red_den, 1)  # step 6
    return {
        "piso": piso * CENTAVO,
        "teto": max(teto * CENTAVO, num * 100, piso * den),  # the floors' comparisons
        "limite_faturamento": max(faturamento),
        "reducao": max(num_red * 100, piso * den_red, 201 * den_red),
        "diferimento": ENTRADA_MAX * max(dif_num, dif_den),
    }


def maiores_produtos_produtor(
    piso: int,
    teto: int,
    lim_num: int,
    lim_den: int,
    soma_max: int,
    dobro_num: int,
    dobro_den: int,
) -> dict[str, int]:
    """The largest value each product of :func:`produtor` reaches, as in
    :func:`maiores_produtos_distribuidor`. Step 3 adds the doubling: num × dobro_num and
    teto × dobro_den in the comparison, then a fine of at most teto × dobro_den (where it was
    not above the ceiling) over MICRO × dobro_den."""
    num = max(piso, teto) * CENTAVO  # step 2
    dobro = [num * dobro_num, teto * CENTAVO * dobro_den]  # step 3
    num, den = max(num, teto * CENTAVO * dobro_den), MICRO * dobro_den
    faturamento, num, den = _faturamento(num, den, piso, soma_max, lim_num, lim_den)  # step 4
    return {
        "piso": piso * CENTAVO,
        "dobro": max(dobro),
        "limite_faturamento": max(faturamento),
        "teto": max(num * 100, piso * den, 201 * den),  # the law's floor; step 5
    }
