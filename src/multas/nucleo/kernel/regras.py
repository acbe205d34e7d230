"""The rules of spec § 3.1, 3.2, 3.5 and 3.6 on columns, in exact integers.

Here: the law per date segment for the RenovaBio rules, their drivers, and :data:`KERNELS`.
Reading the columns and the contract's checks on the fast shapes are in
:mod:`multas.nucleo.kernel.entradas`; the rules of anp.mora and mover.eficiencia, as NumPy
expressions, in :mod:`multas.nucleo.kernel.mora` and :mod:`multas.nucleo.kernel.mover` (all
re-exported here). The RenovaBio rules are written once in
:mod:`multas.nucleo.kernel.renovabio`, run on NumPy columns or as one compiled loop per block
(:mod:`multas.nucleo.kernel.lacos`, for large in-memory batches). Each rule mirrors its
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

from collections.abc import Callable, Mapping
from datetime import date
from functools import lru_cache
from typing import Any

import numpy as np

from multas.nucleo.kernel import renovabio
from multas.nucleo.kernel.colunas import Datas, Inteiros, Logicos
from multas.nucleo.kernel.entradas import (
    ESCALA_MAX,
    FORA_DAS_FORMAS,
    FORA_DOS_LIMITES,
    Entradas,
    ResultadoKernel,
    _ano_em_datas,
    _dentro_do_limite,
    _escolher_data,
    _validar_preco_e_faturamentos,
    em_centavos,
    em_micro,
    ler_entradas,
)
from multas.nucleo.kernel.lacos import compilado
from multas.nucleo.kernel.leis import ForaDoKernel, centavos, exigir, fracao, segmentar
from multas.nucleo.kernel.mora import (
    DIAS_MAX,
    ESCALA_SELIC,
    MESES_MAX,
    TAXA_SELIC_MAX,
    escala_selic,
    maiores_produtos_mora_decreto,
    maiores_produtos_mora_lei_10522,
    mora,
)
from multas.nucleo.kernel.mover import maiores_produtos_mover, mover
from multas.nucleo.kernel.renovabio import LIMITE
from multas.nucleo.legislacao import Legislacao, Lei

# each rule's reader of the law, here with the others (tests/nucleo/test_kernel_uma_regra.py)
from multas.nucleo.kernel.mora import _params_lei_10522, _params_mora  # noqa: F401  # isort: skip
from multas.nucleo.kernel.mover import _params_mover  # noqa: F401  # isort: skip

__all__ = [
    "DIAS_MAX",
    "ESCALA_MAX",
    "ESCALA_SELIC",
    "FORA_DAS_FORMAS",
    "FORA_DOS_LIMITES",
    "KERNELS",
    "LIMITE",
    "MESES_MAX",
    "TAXA_SELIC_MAX",
    "Entradas",
    "ResultadoKernel",
    "distribuidor",
    "em_centavos",
    "em_micro",
    "escala_selic",
    "ler_entradas",
    "maiores_produtos_mora_decreto",
    "maiores_produtos_mora_lei_10522",
    "maiores_produtos_mover",
    "mora",
    "mover",
    "prazos",
    "produtor",
]


# --- § 3.1: renovabio.distribuidor ---------------------------------------------------------


def _um_so_piso(lei: Lei, piso: str) -> None:
    """The kernel applies one floor both as the decree's § 2º I and as the law's floor of spec
    § 3.1 step 5; a law in which the two differ goes to the scalar engine, which keeps them
    apart."""
    if lei["renovabio.piso_legal"].fracao != lei[piso].fracao:
        raise ForaDoKernel("renovabio.piso_legal", f"difere de {piso}")


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
    # spec § 3.1 v4: a falta_anterior above the target is an error (left to the engine); a year
    # whose target is only the carried shortfall (falta_anterior = meta_cbios > 0) is not fined
    # under meta_herdada = nao_multa: as if met (the engine's zero); else it changes no value
    meta = e.numeros("meta_cbios").mantissa
    aposentados = e.numeros("cbios_aposentados").mantissa
    cbios_falta = np.maximum(meta - aposentados, 0)  # the output "falta", before any rule
    falta = e.numeros("falta_anterior")
    ok &= ~falta.presente | (falta.mantissa <= meta)
    if interpretacao.get("meta_herdada", "nao_multa") == "nao_multa":
        herdada = falta.presente & (falta.mantissa > 0) & (falta.mantissa >= meta)
        aposentados = np.where(herdada, np.maximum(aposentados, meta), aposentados)
    # day numbers (views, no copies); every date here is in the calendar tables (1900–2199, or
    # 1970 for a cell the engine will refuse), as NumPy reads them on every row
    dias_prazo = prazo.view(np.int64)
    fat_a, fat_b = e.numeros("faturamento_ano_meta"), e.numeros("faturamento_ano_anterior")
    cumprida, diferir = e.logicos("meta_anterior_cumprida"), e.logicos("diferir")
    x = renovabio.LinhasDistribuidor(
        ok=ok,
        meta=meta,
        aposentados=aposentados,
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
    # the CBIOs behind the fine (the engine's _cbios): the deferral as the rule decides it
    # (renovabio.distribuidor's step 2), all or nothing
    sem_regra = np.maximum(meta - aposentados, 0)
    diferida = x.diferivel & (sem_regra * seg["dif_den"] <= seg["dif_num"] * meta)
    diferido = np.where(diferida, sem_regra, 0)
    multado = sem_regra - diferido
    saidas = {
        "prazo_comprovacao": prazo,
        "falta": cbios_falta,
        "diferido": diferido,
        "multado": multado,
    }
    return ResultadoKernel(ok, valor, saidas, segmentos=(seg,))


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


KERNELS = {
    "renovabio.distribuidor": distribuidor,
    "renovabio.produtor": produtor,
    "anp.mora": mora,
    "mover.eficiencia": mover,
}
