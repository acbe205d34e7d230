"""The rules of spec § 3.1, 3.2, 3.5 and 3.6 on columns, in exact integers.

Here: reading the columns, the contract's checks on the fast shapes, the law per date
segment, and the rules of anp.mora and mover.eficiencia as NumPy expressions; the RenovaBio
rules are written once in :mod:`multas.nucleo.kernel.renovabio`, run on NumPy columns or as one
compiled loop per block (:mod:`multas.nucleo.kernel.lacos`, for large in-memory batches). Each rule
mirrors its
scalar twin in :mod:`multas.nucleo.regimes` step by step (the comments name the step); the
differential test (``tests/nucleo/test_kernel_diferencial.py``) checks every branch against it, row
by row. Amounts are integers: centavos, or a numerator over a per-row
denominator where a fraction is still open (a price with decimals, the monthly reduction, a
mean revenue). Every product stays within the one declared limit, ``renovabio.LIMITE``: a
product of a row's values is guarded per row by :func:`cabe` (a row that would not fit is left
to the scalar engine, ``ok`` false, as is any row the contract rejects); a product of the law's
parameters is bounded per segment by the ``maiores_produtos_*`` functions, which follow each
rule step by step, and :func:`_dentro_do_limite` refuses a segment past the limit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from multas.nucleo.calendario import Expediente
from multas.nucleo.calendario import Leitura as Calendario
from multas.nucleo.contrato import MAXIMO_DATAS, Campo
from multas.nucleo.kernel import renovabio
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
from multas.nucleo.kernel.lacos import compilado
from multas.nucleo.kernel.leis import ForaDoKernel, Segmentos, centavos, exigir, fracao, segmentar
from multas.nucleo.kernel.renovabio import LIMITE
from multas.nucleo.legislacao import Legislacao, Lei
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
        if not c.plano:
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


# --- § 3.1: renovabio.distribuidor ---------------------------------------------------------


def _um_so_piso(lei: Lei, piso: str) -> None:
    """The kernel applies one floor both as the decree's § 2º I and as the law's floor of spec
    § 3.1 step 5; a law in which the two differ goes to the scalar engine, which keeps them
    apart."""
    if lei["renovabio.piso_legal"].fracao != lei[piso].fracao:
        raise ForaDoKernel("renovabio.piso_legal", f"difere de {piso}")


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


def _params_distribuidor(lei: Lei) -> dict[str, int]:
    exigir(lei, "renovabio.distribuidor.redacao")
    _um_so_piso(lei, "renovabio.distribuidor.piso")
    lim_num, lim_den = fracao(lei, "renovabio.distribuidor.limite_faturamento")
    reducao = lei.get("renovabio.distribuidor.reducao")
    red_num, red_den = (reducao.fracao.numerator, reducao.fracao.denominator) if reducao else (0, 1)
    params = {
        "piso": centavos(lei, "renovabio.distribuidor.piso"),
        "teto": centavos(lei, "renovabio.distribuidor.teto"),
        "lim_num": lim_num,
        "lim_den": lim_den,
        "tem_reducao": int(reducao is not None),
        "red_num": red_num,
        "red_den": red_den,
        "red_meses": lei["renovabio.distribuidor.reducao_meses"].inteiro if reducao else 0,
    }
    diferimento = lei.get("ciclo.diferimento")
    params["dif_num"], params["dif_den"] = (
        (diferimento.fracao.numerator, diferimento.fracao.denominator) if diferimento else (0, 1)
    )
    params["soma_max"] = renovabio.soma_maxima(params["teto"], lim_num, lim_den)
    maiores = renovabio.maiores_produtos_distribuidor(
        **{k: v for k, v in params.items() if k != "tem_reducao"}
    )
    _dentro_do_limite("ciclo", {"diferimento": maiores.pop("diferimento")})
    _dentro_do_limite("renovabio.distribuidor", maiores)
    return params


def prazos(legislacao: Legislacao, anos: Inteiros) -> tuple[Datas, Logicos]:
    """Art. 4º-A's table per row (``legislacao.prazo_comprovacao``), read once per year."""
    if anos.size == 0:
        return np.zeros(0, "datetime64[D]"), np.zeros(0, np.bool_)
    inicio, fim = int(anos.min()), int(anos.max())
    tabela, conhecido = _tabela_de_prazos(legislacao, inicio, fim)
    posicao = anos - inicio
    return tabela.take(posicao), conhecido.take(posicao)


@lru_cache(maxsize=64)
def _tabela_de_prazos(legislacao: Legislacao, inicio: int, fim: int) -> tuple[Datas, Logicos]:
    """Each year's deadline from ``inicio`` to ``fim`` (the same for every block: read once)."""
    tabela = np.zeros(fim - inicio + 1, dtype="datetime64[D]")
    conhecido = np.zeros(fim - inicio + 1, dtype=np.bool_)
    for i, ano in enumerate(range(inicio, fim + 1)):
        linha = legislacao.prazo_comprovacao(ano)
        if linha is not None:
            tabela[i], conhecido[i] = linha[0], True
    tabela.flags.writeable = conhecido.flags.writeable = False
    return tabela, conhecido


def _leituras(interpretacao: Mapping[str, str]) -> renovabio.Leituras:
    return renovabio.Leituras(
        renovabio.LEITURAS[interpretacao["faturamento"]],
        renovabio.PISO_LEI[interpretacao["piso"]],
        int(interpretacao.get("meses_reducao") == "completos"),
    )


def _aplicar(
    nome: str, laco: bool, numba: bool, x: Any, p: Any, seg: Inteiros, *resto: Any
) -> Inteiros:
    """The rule ``nome`` of :mod:`multas.nucleo.kernel.renovabio` on every row: as the loop
    (``laco``; compiled unless ``numba`` is false), or on NumPy columns. The same code either
    way."""
    if laco:
        valor = np.empty(len(seg), dtype=np.int64)
        compilado(f"{nome}_linhas", numba)(x, p, seg, *resto, valor)
        return valor
    regra: Callable[..., Inteiros] = getattr(renovabio, nome)
    por_linha = type(p)(*(coluna.take(seg) for coluna in p))  # each row's segment's values
    return np.asarray(regra(x, por_linha, *resto), dtype=np.int64)


def distribuidor(
    e: Entradas,
    interpretacao: Mapping[str, str],
    legislacao: Legislacao,
    laco: bool = False,
    *,
    hoje: date | None,
    numba: bool = True,
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
            "renovabio.piso_legal",
            "renovabio.distribuidor.teto",
            "renovabio.distribuidor.limite_faturamento",
            "renovabio.distribuidor.reducao",
            "renovabio.distribuidor.reducao_meses",
            "ciclo.diferimento",
        ],
        data_lei,
        _params_distribuidor,
        ok,
    )
    ok &= seg.aceito
    quitacao = e.datas("data_quitacao")
    ok &= ~quitacao.presente | (quitacao.dias > prazo)
    # day numbers (views, no copies); every date here is in the calendar tables (1900–2199, or
    # 1970 for a cell the engine will refuse), as NumPy reads them on every row
    dias_prazo = prazo.view(np.int64)
    fat_a, fat_b = e.numeros("faturamento_ano_meta"), e.numeros("faturamento_ano_anterior")
    cumprida, diferir = e.logicos("meta_anterior_cumprida"), e.logicos("diferir")
    x = renovabio.LinhasDistribuidor(
        ok=ok,
        meta=e.numeros("meta_cbios").mantissa,
        aposentados=e.numeros("cbios_aposentados").mantissa,
        diferivel=cumprida.presente & cumprida.valor & ~(diferir.presente & ~diferir.valor),
        preco_micro=em_micro(e.numeros("maior_media_mensal")),
        tem_faturamento=fat_a.presente,
        fat_a=em_centavos(fat_a),
        fat_b=em_centavos(fat_b),
        tem_quitacao=quitacao.presente,
        quitacao=np.where(quitacao.presente, quitacao.dias.view(np.int64), dias_prazo),
        prazo=dias_prazo,
    )
    p = renovabio.ParametrosDistribuidor(
        *(seg.por_segmento(k) for k in renovabio.ParametrosDistribuidor._fields)
    )
    valor = _aplicar("distribuidor", laco, numba, x, p, seg.indice, _leituras(interpretacao))
    return ResultadoKernel(ok, valor, {"prazo_comprovacao": prazo}, segmentos=(seg,))


# --- § 3.2: renovabio.produtor -------------------------------------------------------------


def _params_produtor(lei: Lei) -> dict[str, int]:
    exigir(lei, "renovabio.produtor.redacao")
    _um_so_piso(lei, "renovabio.produtor.piso")
    lim_num, lim_den = fracao(lei, "renovabio.produtor.limite_faturamento")
    dobro_num, dobro_den = fracao(lei, "renovabio.produtor.dobro")
    params = {
        "piso": centavos(lei, "renovabio.produtor.piso"),
        "teto": centavos(lei, "renovabio.produtor.teto"),
        "lim_num": lim_num,
        "lim_den": lim_den,
        "dobro_num": dobro_num,
        "dobro_den": dobro_den,
    }
    params["soma_max"] = renovabio.soma_maxima(params["teto"], lim_num, lim_den)
    _dentro_do_limite("renovabio.produtor", renovabio.maiores_produtos_produtor(**params))
    return params


def produtor(
    e: Entradas,
    interpretacao: Mapping[str, str],
    legislacao: Legislacao,
    laco: bool = False,
    *,
    hoje: date | None,
    numba: bool = True,
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
            "renovabio.piso_legal",
            "renovabio.produtor.teto",
            "renovabio.produtor.dobro",
            "renovabio.produtor.limite_faturamento",
        ],
        data_lei,
        _params_produtor,
        ok,
    )
    ok &= seg.aceito
    fat_a, fat_b = e.numeros("faturamento_ano_meta"), e.numeros("faturamento_ano_anterior")
    dobro = e.logicos("dados_primarios")
    x = renovabio.LinhasProdutor(
        ok=ok,
        nao_pagos=e.numeros("cbios_nao_pagos").mantissa,
        preco_micro=em_micro(e.numeros("maior_media_mensal")),
        dados_primarios=dobro.presente & dobro.valor,
        tem_faturamento=fat_a.presente,
        fat_a=em_centavos(fat_a),
        fat_b=em_centavos(fat_b),
    )
    p = renovabio.ParametrosProdutor(
        *(seg.por_segmento(k) for k in renovabio.ParametrosProdutor._fields)
    )
    valor = _aplicar("produtor", laco, numba, x, p, seg.indice, _leituras(interpretacao))
    return ResultadoKernel(ok, valor, segmentos=(seg,))


# --- § 3.5: anp.mora ------------------------------------------------------------------------


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
    """The largest value each product of :func:`mora` under ``encargos = decreto`` reaches,
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
    exigir(lei, "anp.redacao")
    juros_num, juros_den = fracao(lei, "anp.juros_mora")
    multa_num, multa_den = fracao(lei, "anp.multa_mora")
    # read under both readings (the prazo is the decree's): a segment refused here is the
    # engine's under lei-10522 too
    maiores = maiores_produtos_mora_decreto(juros_num, juros_den, multa_num, multa_den)
    _dentro_do_limite("anp", maiores)
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
    indices = {int(m[:4]) * 12 + int(m[5:]) - 1: taxa for m, taxa in taxas.items()}
    if n == 0 or not indices:
        return np.zeros(n, np.int64), np.zeros(n, np.bool_)
    primeiro, ultimo = min(indices), max(indices)
    tamanho = ultimo - primeiro + 1
    # prefix sums: position k holds the months before primeiro + k
    valores = np.zeros(tamanho + 1, np.int64)
    presentes = np.zeros(tamanho + 1, np.int64)
    escala = 10**casas
    for indice, taxa in indices.items():
        escalada = taxa * escala
        if escalada != escalada.to_integral_value() or escalada >= TAXA_SELIC_MAX:
            return np.zeros(n, np.int64), np.zeros(n, np.bool_)
        valores[indice - primeiro + 1] = int(escalada)
        presentes[indice - primeiro + 1] = 1
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
        ["anp.redacao", "anp.prazo_pagamento", "anp.juros_mora", "anp.multa_mora"],
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
    """Per row (juros, multa) in centavos; -1 where the row is the engine's: no taxas_selic,
    a month missing, art. 37-A not in force on the vencimento (or data_referencia), or a
    product that would not fit. Then the segments of art. 37-A's law (``None`` without
    taxas_selic)."""
    n = e.n
    fora = np.full(n, -1, np.int64)
    taxas = e.constantes.get("taxas_selic")
    casas = None if taxas is None else escala_selic(taxas)
    if taxas is None or casas is None or n == 0:
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


# --- § 3.6: mover.eficiencia ----------------------------------------------------------------

_CICLOS = (
    ("mover.tanque_roda", "meta_mj_km", "consumo_mj_km"),
    ("mover.poco_roda", "meta_gco2_km", "emissao_gco2_km"),
)
#: a cycle more units above its target than this goes to the engine (it bounds the products
#: of alínea d: :func:`maiores_produtos_mover`)
_UNIDADES_MAX = 10**9


def maiores_produtos_mover(un: int, ud: int, f1: int, f2: int, f3: int, d: int) -> dict[str, int]:
    """The largest value each product of :func:`mover` reaches in one cycle, by the parameter
    it grows with (the unit ``un / ud``, the bands and the additional amount in centavos).

    ``n = ceil(excesso × ud / (MICRO × un))``: ``excesso × ud`` is guarded per row (``cabe``),
    ``MICRO × un`` is the segment's; a row with ``n > _UNIDADES_MAX`` goes to the engine.
    Alíneas a–d (``_por_veiculo``): a band, or the marginal sums ``f1 + f2`` and
    ``f1 + f2 + f3`` then ``+ d × (n − 3)``; or ``d × n`` (literal), ``d × (n − 3)``
    (excedente): at most ``f1 + f2 + f3 + d × _UNIDADES_MAX``. The per-vehicle value
    × veiculos is guarded per row.
    """
    return {
        "unidade": max(_MICRO * un, ud),
        "faixa_1": f1,
        "faixa_2": f1 + f2,
        "faixa_3": f1 + f2 + f3,
        "adicional": f1 + f2 + f3 + d * _UNIDADES_MAX,
    }


def _params_mover(lei: Lei) -> dict[str, int]:
    exigir(lei, "mover.redacao")
    params: dict[str, int] = {}
    for prefixo, _, _ in _CICLOS:
        un, ud = fracao(lei, f"{prefixo}.unidade")
        f1, f2, f3 = (centavos(lei, f"{prefixo}.faixa_{i}") for i in (1, 2, 3))
        d = centavos(lei, f"{prefixo}.adicional")
        _dentro_do_limite(prefixo, maiores_produtos_mover(un, ud, f1, f2, f3, d))
        por_nome = {"un": un, "ud": ud, "f1": f1, "f2": f2, "f3": f3, "d": d}
        params |= {f"{prefixo}.{nome}": valor for nome, valor in por_nome.items()}
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
    *,
    hoje: date | None,
    numba: bool = True,
) -> ResultadoKernel:
    """MP 1.205/2023 art. 6º (``multa_eficiencia``). Without data_referencia the law is
    ``hoje``'s (the caller's clock), as in the engine; with no ``hoje``, such a row is left to
    the engine."""
    ok = ~e.fora
    referencia = e.datas("data_referencia")
    if hoje is None:
        ok &= referencia.presente
        hoje = date.min  # never read: those rows are not ok
    dia_de_hoje = np.full(e.n, np.datetime64(hoje, "D"))
    data_lei = _escolher_data(referencia, dia_de_hoje)
    nomes = ["mover.redacao", "mover.maior_valor"] + [
        f"{p}.{s}"
        for p, _, _ in _CICLOS
        for s in ("unidade", "faixa_1", "faixa_2", "faixa_3", "adicional")
    ]
    seg = segmentar(legislacao, nomes, data_lei, _params_mover, ok)
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
        # n = ceil(excess / unit) = ceil(excess × ud / (MICRO × un))
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
        segmentos=(seg,),
    )


KERNELS = {
    "renovabio.distribuidor": distribuidor,
    "renovabio.produtor": produtor,
    "anp.mora": mora,
    "mover.eficiencia": mover,
}
