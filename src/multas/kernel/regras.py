"""The rules of spec § 3.1, 3.2, 3.5 and 3.6 on columns, in exact integers.

Here: reading the columns, the contract's checks on the fast shapes, the law per date
segment, and the rules of anp.mora and mover.eficiencia as NumPy expressions; the RenovaBio
steps as NumPy expressions (:mod:`multas.kernel.vetorial`) or as one compiled loop per block
(:mod:`multas.kernel.lacos`, for large in-memory batches). Each rule mirrors its
scalar twin in :mod:`multas.regimes` step by step (the comments name the step); the
differential test (``tests/test_kernel_diferencial.py``) checks every branch against it, row
by row. Amounts are integers: centavos, or a numerator over a per-row
denominator where a fraction is still open (a price with decimals, the 1/12 reduction, a mean
revenue). Every product is bounded (see the comments) or guarded by :func:`cabe`; a row that
would not fit is left to the scalar engine (``ok`` false), as is any row the contract rejects.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from multas.contrato import Campo
from multas.kernel.aritmetica import (
    cabe,
    calendario,
    dividir_meio_acima,
    meses_ou_fracao,
    proximo_dia_util,
)
from multas.kernel.colunas import (
    POTENCIAS,
    Booleanos,
    ColunaDatas,
    Datas,
    Inteiros,
    Logicos,
    Numeros,
    ler_booleanos,
    ler_datas,
    ler_numeros,
)
from multas.kernel.lacos import LEITURAS, compilado, soma_maxima
from multas.kernel.leis import ForaDoKernel, centavos, exigir, fracao, segmentar
from multas.legislacao import Legislacao, Lei
from multas.regimes import REGIMES
from multas.relogio import hoje

if TYPE_CHECKING:
    import pyarrow as pa

#: prices and quantities with up to this many decimal places are the kernel's
ESCALA_MAX = 6
_MICRO = 10**ESCALA_MAX  # amounts in millionths of a real before the caps


@dataclass
class Entradas:
    """A batch's input fields, parsed; ``fora`` marks rows the kernel leaves to the engine."""

    n: int
    campos: dict[str, Numeros | ColunaDatas | Booleanos]
    fora: Logicos

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


@dataclass
class ResultadoKernel:
    """Per row: ``ok`` (computed here), ``valor`` in centavos and the regime's outputs
    (amounts in centavos, dates as ``datetime64[D]``, counts as ints)."""

    ok: Logicos
    valor: Inteiros
    saidas: dict[str, Inteiros | Datas] = field(default_factory=dict)


def ler_entradas(
    regime: str, colunas: Mapping[str, pa.Array | None], n: int, ptbr: bool = False
) -> Entradas:
    """Parse the flat input fields of ``regime`` from batch columns (absent column = absent
    field) and mark the rows whose cells are outside the fast shapes or the contract."""
    fora = np.zeros(n, dtype=np.bool_)
    campos: dict[str, Numeros | ColunaDatas | Booleanos] = {}
    for c in REGIMES[regime].caso.campos():
        if not c.plano:
            continue
        coluna = colunas.get(c.nome)
        lido = _ler_campo(c, coluna, n, ptbr)
        campos[c.nome] = lido
        fora |= lido.fora | (~lido.presente if c.obrigatorio else False)
        if isinstance(lido, Numeros):
            fora |= lido.presente & ~_forma_do_tipo(c, lido)
    return Entradas(n, campos, fora)


def _ler_campo(
    c: Campo, coluna: pa.Array | None, n: int, ptbr: bool
) -> Numeros | ColunaDatas | Booleanos:
    if c.tipo == "data":
        return ler_datas(coluna, n)
    if c.tipo == "booleano":
        return ler_booleanos(coluna, n)
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
    """The contract's per-type rules (multas.contrato.ler_valor), on the fast shapes."""
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
    datas: Datas = np.where(informada.presente, informada.dias, padrao)
    return datas


# --- shared steps -------------------------------------------------------------------------


def _validar_preco_e_faturamentos(e: Entradas) -> Logicos:
    """``CasoComPreco.validar``: in batch the price is maior_media_mensal, and the revenue
    pair comes both or neither."""
    a, b = e.numeros("faturamento_ano_meta"), e.numeros("faturamento_ano_anterior")
    return np.asarray(e.numeros("maior_media_mensal").presente & (a.presente == b.presente))


# --- § 3.1: renovabio.distribuidor ---------------------------------------------------------


def _params_distribuidor(lei: Lei) -> dict[str, int]:
    exigir(lei, "renovabio.distribuidor.redacao")
    lim_num, lim_den = fracao(lei, "renovabio.distribuidor.limite_faturamento")
    reducao = lei.get("renovabio.distribuidor.reducao")
    red_num, red_den = (reducao.fracao.numerator, reducao.fracao.denominator) if reducao else (0, 1)
    params = {
        "piso": centavos(lei["renovabio.distribuidor.piso"].fracao),
        "teto": centavos(lei["renovabio.distribuidor.teto"].fracao),
        "lim_num": lim_num,
        "lim_den": lim_den,
        "tem_reducao": int(reducao is not None),
        "red_num": red_num,
        "red_den": red_den,
        "red_meses": lei["renovabio.distribuidor.reducao_meses"].inteiro if reducao else 0,
    }
    params["soma_max"] = soma_maxima(params["teto"], lim_num, lim_den)
    # bounds the comments below rely on (a new law with larger numbers falls to the engine)
    teto_micro = params["teto"] * 10**4
    if (
        teto_micro * 200 * lim_den >= 2**61
        or teto_micro * max(red_num, 1) * 12 * 100 >= 2**61
        or 10**6 * 200 * lim_den * red_den * params["piso"] >= 2**61
    ):
        raise ForaDoKernel("parâmetros grandes demais para o kernel")
    return params


def prazos(legislacao: Legislacao, anos: Inteiros) -> tuple[Datas, Logicos]:
    """Art. 4º-A's table per row (``legislacao.prazo_comprovacao``), read once per year."""
    if anos.size == 0:
        return np.zeros(0, "datetime64[D]"), np.zeros(0, np.bool_)
    inicio, fim = int(anos.min()), int(anos.max())
    tabela = np.zeros(fim - inicio + 1, dtype="datetime64[D]")
    conhecido = np.zeros(fim - inicio + 1, dtype=np.bool_)
    for i, ano in enumerate(range(inicio, fim + 1)):
        linha = legislacao.prazo_comprovacao(ano)
        if linha is not None:
            tabela[i], conhecido[i] = linha[0], True
    posicao = anos - inicio
    return tabela[posicao], conhecido[posicao]


def _regra(nome: str, laco: bool) -> Callable[..., None]:
    """The compiled loop (``laco``) or the NumPy expressions: the same steps."""
    if laco:
        return compilado(f"{nome}_linhas")
    from multas.kernel import vetorial

    funcao: Callable[..., None] = getattr(vetorial, f"{nome}_colunas")
    return funcao


def distribuidor(
    e: Entradas,
    interpretacao: Mapping[str, str],
    legislacao: Legislacao,
    laco: bool = False,
) -> ResultadoKernel:
    """Decreto 9.888/2019 art. 6º and art. 6º-A § 8º (``multa_distribuidor``)."""
    ok = ~e.fora & _validar_preco_e_faturamentos(e)
    anos = np.where(ok, e.numeros("ano_meta").mantissa, 2025)
    # prazo: the table by target year; a given one always wins
    tabela, conhecido = prazos(legislacao, anos)
    informado = e.datas("prazo_comprovacao")
    prazo = _escolher_data(informado, tabela)
    ok &= informado.presente | conhecido
    # the law in force on the deadline, or on data_referencia
    data_lei = _escolher_data(e.datas("data_referencia"), prazo)
    seg = segmentar(
        legislacao,
        [
            "renovabio.distribuidor.redacao",
            "renovabio.distribuidor.piso",
            "renovabio.distribuidor.teto",
            "renovabio.distribuidor.limite_faturamento",
            "renovabio.distribuidor.reducao",
            "renovabio.distribuidor.reducao_meses",
        ],
        data_lei,
        _params_distribuidor,
    )
    ok &= seg.aceito
    quitacao = e.datas("data_quitacao")
    ok &= ~quitacao.presente | (quitacao.dias > prazo)

    # steps 1–7, row by row (multas.kernel.lacos), on exact integers
    fat_a, fat_b = e.numeros("faturamento_ano_meta"), e.numeros("faturamento_ano_anterior")
    valor = np.empty(e.n, dtype=np.int64)
    _regra("distribuidor", laco)(
        ok,
        e.numeros("meta_cbios").mantissa,
        e.numeros("cbios_aposentados").mantissa,
        em_micro(e.numeros("maior_media_mensal")),
        fat_a.presente,
        em_centavos(fat_a),
        em_centavos(fat_b),
        LEITURAS[interpretacao["faturamento"]],
        quitacao.presente,
        np.where(quitacao.presente, quitacao.dias, prazo).astype(np.int64),
        prazo.astype(np.int64),
        seg.indice,
        *(seg.tabela[k] for k in _PARAMS_DISTRIBUIDOR),
        calendario(),
        valor,
    )
    return ResultadoKernel(ok, valor, {"prazo_comprovacao": prazo})


_PARAMS_DISTRIBUIDOR = (
    "piso",
    "teto",
    "lim_num",
    "lim_den",
    "soma_max",
    "tem_reducao",
    "red_num",
    "red_den",
    "red_meses",
)


# --- § 3.2: renovabio.produtor -------------------------------------------------------------


def _params_produtor(lei: Lei) -> dict[str, int]:
    exigir(lei, "renovabio.produtor.redacao")
    lim_num, lim_den = fracao(lei, "renovabio.produtor.limite_faturamento")
    dobro_num, dobro_den = fracao(lei, "renovabio.produtor.dobro")
    params = {
        "piso": centavos(lei["renovabio.produtor.piso"].fracao),
        "teto": centavos(lei["renovabio.produtor.teto"].fracao),
        "lim_num": lim_num,
        "lim_den": lim_den,
        "dobro_num": dobro_num,
        "dobro_den": dobro_den,
    }
    params["soma_max"] = soma_maxima(params["teto"], lim_num, lim_den)
    teto_micro = params["teto"] * 10**4
    if teto_micro * max(dobro_num, dobro_den) * 200 * lim_den * dobro_den >= 2**61:
        raise ForaDoKernel("parâmetros grandes demais para o kernel")
    return params


def produtor(
    e: Entradas,
    interpretacao: Mapping[str, str],
    legislacao: Legislacao,
    laco: bool = False,
) -> ResultadoKernel:
    """Decreto 9.888/2019 art. 6º-B (``multa_produtor``)."""
    ok = ~e.fora & _validar_preco_e_faturamentos(e)
    anos = np.where(ok, e.numeros("ano").mantissa, 2025)
    data_lei = _escolher_data(e.datas("data_referencia"), _ano_em_datas(anos, 12, 31))
    seg = segmentar(
        legislacao,
        [
            "renovabio.produtor.redacao",
            "renovabio.produtor.piso",
            "renovabio.produtor.teto",
            "renovabio.produtor.dobro",
            "renovabio.produtor.limite_faturamento",
        ],
        data_lei,
        _params_produtor,
    )
    ok &= seg.aceito
    # steps 1–5, row by row (multas.kernel.lacos), on exact integers
    fat_a, fat_b = e.numeros("faturamento_ano_meta"), e.numeros("faturamento_ano_anterior")
    dobro = e.logicos("dados_primarios")
    valor = np.empty(e.n, dtype=np.int64)
    _regra("produtor", laco)(
        ok,
        e.numeros("cbios_nao_pagos").mantissa,
        em_micro(e.numeros("maior_media_mensal")),
        dobro.presente & dobro.valor,
        fat_a.presente,
        em_centavos(fat_a),
        em_centavos(fat_b),
        LEITURAS[interpretacao["faturamento"]],
        seg.indice,
        *(
            seg.tabela[k]
            for k in ("piso", "teto", "lim_num", "lim_den", "soma_max", "dobro_num", "dobro_den")
        ),
        valor,
    )
    return ResultadoKernel(ok, valor)


# --- § 3.5: anp.mora ------------------------------------------------------------------------


def _params_mora(lei: Lei) -> dict[str, int]:
    exigir(lei, "anp.redacao")
    juros_num, juros_den = fracao(lei, "anp.juros_mora")
    multa_num, multa_den = fracao(lei, "anp.multa_mora")
    return {
        "dias": lei["anp.prazo_pagamento"].inteiro,
        "juros_num": juros_num,
        "juros_den": juros_den,
        "multa_num": multa_num,
        "multa_den": multa_den,
    }


def mora(
    e: Entradas,
    interpretacao: Mapping[str, str],
    legislacao: Legislacao,
    laco: bool = False,
) -> ResultadoKernel:
    """Decreto 2.953/1999 arts. 26–27 (``multas.regimes.anp.mora``)."""
    ok = ~e.fora
    ciencia, pagamento = e.datas("data_ciencia"), e.datas("data_pagamento")
    data_lei = _escolher_data(e.datas("data_referencia"), ciencia.dias)
    seg = segmentar(
        legislacao,
        ["anp.redacao", "anp.prazo_pagamento", "anp.juros_mora", "anp.multa_mora"],
        data_lei,
        _params_mora,
    )
    ok &= seg.aceito
    # vencimento: N calendar days after the ciência, then the next business day (§ 1)
    nominal = ciencia.dias + np.where(ok, seg["dias"], 0).astype("timedelta64[D]")
    if ok.any():  # rows the engine takes get a date inside the span, for the holiday list
        nominal = np.where(ok, nominal, nominal[ok][0])
    vencimento = proximo_dia_util(nominal, interpretacao["calendario"])
    meses = meses_ou_fracao(vencimento, pagamento.dias)
    principal = em_centavos(e.numeros("principal"))
    # each charge rounded on its own (spec § 3.5): round(principal × rate × months)
    encargos = {}
    for nome in ("juros", "multa"):
        taxa_num, taxa_den = seg[f"{nome}_num"], seg[f"{nome}_den"]
        fator = meses * taxa_num  # months < 3600, rates small
        ok &= cabe(principal, 2 * fator + 1)
        encargos[nome] = dividir_meio_acima(principal * fator, taxa_den)
    valor = principal + encargos["juros"] + encargos["multa"]
    return ResultadoKernel(
        ok,
        valor,
        {
            "vencimento": vencimento,
            "meses_atraso": meses,
            "juros_mora": encargos["juros"],
            "multa_mora": encargos["multa"],
        },
    )


# --- § 3.6: mover.eficiencia ----------------------------------------------------------------

_CICLOS = (
    ("mover.tanque_roda", "meta_mj_km", "consumo_mj_km"),
    ("mover.poco_roda", "meta_gco2_km", "emissao_gco2_km"),
)
#: a cycle more units above its target than this goes to the engine
_UNIDADES_MAX = 10**9


def _params_mover(lei: Lei) -> dict[str, int]:
    exigir(lei, "mover.redacao")
    params: dict[str, int] = {}
    for prefixo, _, _ in _CICLOS:
        unidade_num, unidade_den = fracao(lei, f"{prefixo}.unidade")
        params[f"{prefixo}.un"], params[f"{prefixo}.ud"] = unidade_num, unidade_den
        for i in (1, 2, 3):
            params[f"{prefixo}.f{i}"] = centavos(lei[f"{prefixo}.faixa_{i}"].fracao)
        params[f"{prefixo}.d"] = centavos(lei[f"{prefixo}.adicional"].fracao)
        if params[f"{prefixo}.d"] * _UNIDADES_MAX * 2 >= 2**61 or unidade_den > 10**6:
            raise ForaDoKernel("parâmetros grandes demais para o kernel")
    return params


def _por_veiculo(
    n: Inteiros, leitura: str, faixas: tuple[Inteiros, Inteiros, Inteiros], d: Inteiros
) -> Inteiros:
    """Alíneas a–d for ``n`` ≥ 1 units above the target (``valor_por_veiculo``)."""
    f1, f2, f3 = faixas
    banda = np.where(n == 1, f1, np.where(n == 2, f2, f3))
    if leitura == "marginal":
        soma = np.where(n == 1, f1, np.where(n == 2, f1 + f2, f1 + f2 + f3))
        return np.asarray(soma + d * np.maximum(n - 3, 0), np.int64)
    if leitura == "literal":
        return np.asarray(np.where(n <= 3, banda, d * n), np.int64)
    return np.asarray(np.where(n <= 3, banda, d * (n - 3)), np.int64)  # excedente


def mover(
    e: Entradas,
    interpretacao: Mapping[str, str],
    legislacao: Legislacao,
    laco: bool = False,
) -> ResultadoKernel:
    """MP 1.205/2023 art. 6º (``multa_eficiencia``). Without data_referencia the law is
    today's, as in the engine."""
    ok = ~e.fora
    dia_de_hoje = np.full(e.n, np.datetime64(hoje(), "D"))
    data_lei = _escolher_data(e.datas("data_referencia"), dia_de_hoje)
    nomes = ["mover.redacao", "mover.maior_valor"] + [
        f"{p}.{s}"
        for p, _, _ in _CICLOS
        for s in ("unidade", "faixa_1", "faixa_2", "faixa_3", "adicional")
    ]
    seg = segmentar(legislacao, nomes, data_lei, _params_mover)
    ok &= seg.aceito
    por_ciclo: dict[str, Inteiros] = {}
    tem_algum = np.zeros(e.n, dtype=np.bool_)
    for prefixo, campo_meta, campo_alcancado in _CICLOS:
        meta, alcancado = e.numeros(campo_meta), e.numeros(campo_alcancado)
        ok &= meta.presente == alcancado.presente  # half a pair: the engine names the field
        tem_algum |= meta.presente
        # excess = achieved − target, both in millionths (< 10**17)
        excesso = em_micro(alcancado) - em_micro(meta)
        positivo = meta.presente & (excesso > 0)
        # n = ceil(excess / unit) = ceil(excess × ud / (10**6 × un))
        un, ud = seg[f"{prefixo}.un"], seg[f"{prefixo}.ud"]
        excesso = np.where(positivo, excesso, 0)
        ok &= cabe(excesso, ud)
        divisor = _MICRO * np.maximum(un, 1)
        n = -((-excesso * ud) // divisor)
        ok &= n <= _UNIDADES_MAX
        n = np.where(positivo & (n <= _UNIDADES_MAX), n, 1)
        faixas = (seg[f"{prefixo}.f1"], seg[f"{prefixo}.f2"], seg[f"{prefixo}.f3"])
        valor = _por_veiculo(n, interpretacao["faixa_superior"], faixas, seg[f"{prefixo}.d"])
        por_ciclo[prefixo] = np.where(positivo, valor, 0)
    ok &= tem_algum
    tanque, poco = por_ciclo["mover.tanque_roda"], por_ciclo["mover.poco_roda"]
    # sole paragraph: both cycles missed → only the larger fine, per vehicle
    por_veiculo = np.maximum(tanque, poco)
    veiculos = e.numeros("veiculos").mantissa
    ok &= cabe(por_veiculo, veiculos)
    return ResultadoKernel(
        ok,
        por_veiculo * veiculos,
        {
            "valor_por_veiculo": por_veiculo,
            "valor_tanque_roda": tanque * veiculos,
            "valor_poco_roda": poco * veiculos,
        },
    )


KERNELS = {
    "renovabio.distribuidor": distribuidor,
    "renovabio.produtor": produtor,
    "anp.mora": mora,
    "mover.eficiencia": mover,
}
