"""§ 3.6, ``mover.eficiencia`` on columns (:mod:`multas.nucleo.kernel.regras`): MP 1.205/2023
art. 6º, in exact integers. Each step mirrors :mod:`multas.nucleo.regimes.mover`;
:func:`maiores_produtos_mover` bounds the products of the law's parameters per segment.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date

import numpy as np

from multas.nucleo.kernel.aritmetica import cabe
from multas.nucleo.kernel.colunas import Inteiros
from multas.nucleo.kernel.entradas import (
    _MICRO,
    Entradas,
    ResultadoKernel,
    _dentro_do_limite,
    _escolher_data,
    em_micro,
)
from multas.nucleo.kernel.leis import centavos, exigir, fracao, segmentar
from multas.nucleo.legislacao import Legislacao, Lei

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
    # spec § 3.7 point 4: the MP's text is checked until its conversion, not after
    params["conferido"] = int(lei.get("mover.lei_conversao") is None)
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
    nomes = ["mover.redacao", "mover.maior_valor", "mover.lei_conversao"] + [
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
            "texto_conferido": seg["conferido"],  # 1/0: the batch writes it as a boolean
        },
        segmentos=(seg,),
    )
