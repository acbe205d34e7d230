"""Issue 17, items 1 and 2: each RenovaBio batch rule is written once, and the kernel's integer
bounds come from one declared limit.

- The compiled loop runs the code objects of :mod:`multas.nucleo.kernel.renovabio` themselves: there
  is no second writing to drift.
- For every shipped segment of the law, and for a parameter of each rule grown until the
  largest product passes int64, the bound functions decide: a segment within them computes the
  extreme rows exactly as the scalar engine; one beyond them is refused, naming the parameter.
- That limit is the only one declared in the kernel's sources.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pytest

from multas import calcular
from multas.nucleo.kernel import aritmetica, calcular_colunas, lacos, regras, renovabio
from multas.nucleo.kernel.leis import NAO_VIGENTE, ForaDoKernel
from multas.nucleo.kernel.regras import (
    _params_distribuidor,
    _params_lei_10522,
    _params_mora,
    _params_mover,
    _params_produtor,
)
from multas.nucleo.legislacao import Legislacao, Lei, carregar, ler_textos
from multas.servicos import relogio
from multas.servicos.configuracao import carregar as configuracao

PARAMETROS = (
    Path(__file__).resolve().parents[2] / "src" / "multas" / "nucleo" / "legislacao" / "parametros"
)


def test_o_laco_roda_o_codigo_das_regras() -> None:
    espaco = lacos._espaco(True)
    for nome in renovabio.PASSOS:
        funcao = espaco[nome]
        codigo = getattr(funcao, "py_func", funcao).__code__
        assert codigo is getattr(renovabio, nome).__code__, nome
    for nome, fonte in renovabio.LACOS.items():  # the drivers only call the rule
        regra = nome.removesuffix("_linhas")
        assert fonte.count(f"{regra}(") == 1 and "onde" not in fonte and "//" not in fonte
        funcao = espaco[nome]
        assert getattr(funcao, "py_func", funcao).__code__.co_filename == renovabio.__file__
    # the loop's module defines no arithmetic of its own
    proprias = {
        nome
        for nome, valor in vars(lacos).items()
        if callable(valor) and getattr(valor, "__module__", "") == lacos.__name__
    }
    assert proprias == {"compilado", "_espaco", "_compilar"}


_SEM_REFERENCIAS = """
import json, re, sys
import numpy as np
from multas.nucleo.kernel import lacos, renovabio as r

def registro(tipo, n):
    return tipo(*(np.ones(n, np.bool_ if a == "Logicos" else np.int64)
                  for a in tipo.__annotations__.values()))

resultado = {}
for nome, linhas, parametros, extras in (
    ("distribuidor_linhas", r.LinhasDistribuidor, r.ParametrosDistribuidor, (r.Leituras(0, 1, 0),)),
    ("produtor_linhas", r.LinhasProdutor, r.ParametrosProdutor, (r.Leituras(0, 1, 0),)),
):
    laco = lacos.compilado(nome)
    laco(registro(linhas, 3), registro(parametros, 1), np.zeros(3, np.int64), *extras,
         np.zeros(3, np.int64))
    (ir,) = laco.inspect_llvm().values()
    nativa = re.search(r'^define [^\\n]*@"?_ZN6multas6nucleo6kernel9renovabio\\d+' + nome + r'.*?^}', ir,
                       re.S | re.M)
    resultado[nome] = None if nativa is None else sorted(set(re.findall(r"@\\"?(NRT_\\w+)", nativa.group(0))))
print(json.dumps(resultado))
"""


@pytest.mark.skipif(configuracao().sem_numba, reason="MULTAS_SEM_NUMBA: the loop is not compiled")
def test_o_laco_compilado_nao_conta_referencias_por_linha(tmp_path: Path) -> None:
    """The compiled loops call nothing of Numba's runtime: an array handed to a step (the
    month tables, once) costs reference counts, atomic calls, per row, and made the loop 1.5×
    slower. The tables are the module's constants instead. Compiled afresh (a cached loop
    cannot be inspected), in a process of its own."""
    import json
    import os
    import subprocess
    import sys

    ambiente = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    saida = subprocess.run(
        [sys.executable, "-c", _SEM_REFERENCIAS],
        capture_output=True,
        text=True,
        env=ambiente,
        check=True,
        timeout=600,
    ).stdout
    assert json.loads(saida) == {"distribuidor_linhas": [], "produtor_linhas": []}


def test_os_primitivos_escalares_sao_os_de_numpy() -> None:
    e = renovabio.ESCALARES
    assert set(e) == {"onde", "maximo", "minimo", "nao", "algum", "cabe"}
    valores = [0, 1, 7, 2**31, renovabio._RAIZ, renovabio._RAIZ + 1, 2**62, renovabio.LIMITE]
    for a in valores:
        for b in valores:
            coluna = renovabio.cabe(np.array([a], np.int64), np.array([b], np.int64))
            assert bool(coluna[0]) == e["cabe"](a, b) == (a * b <= renovabio.LIMITE), (a, b)
            assert e["maximo"](a, b) == int(renovabio.maximo(a, b))
            assert e["minimo"](a, b) == int(renovabio.minimo(a, b))
    for c in (True, False):
        assert e["onde"](c, 1, 2) == int(renovabio.onde(c, 1, 2))
        assert e["nao"](c) == bool(renovabio.nao(c))
        assert e["algum"](c) == bool(renovabio.algum(c))


def _segmentos(legislacao: Legislacao, nomes: list[str]) -> list[Lei]:
    datas = {v.inicio for n in nomes for v in legislacao.parametro(n).vigencias}
    return [Lei(legislacao, d) for d in sorted(datas)]


def test_cada_segmento_da_lei_entregue_cabe_no_limite() -> None:
    legislacao = carregar()
    leitores = {
        "renovabio.distribuidor.teto": (_params_distribuidor, _params_produtor),
        "renovabio.produtor.teto": (_params_distribuidor, _params_produtor),
        "anp.juros_mora": (_params_mora,),
        "anp.juros_selic": (_params_lei_10522,),
        "mover.tanque_roda.adicional": (_params_mover,),
    }
    for lei in _segmentos(legislacao, list(leitores)):
        for ler in {ler for grupo in leitores.values() for ler in grupo}:
            try:
                ler(lei)
            except (ForaDoKernel, KeyError) as erro:  # only a regime not yet in force
                assert isinstance(erro, KeyError) or erro.motivo == NAO_VIGENTE, (lei.data, erro)


def _com_valor(nome: str, valor: str) -> Legislacao:
    """The shipped law with the last value of the parameter ``nome`` replaced by ``valor``."""
    textos = {p.name: p.read_text(encoding="utf-8") for p in PARAMETROS.glob("*.toml")}
    arquivo = next(a for a, texto in textos.items() if f'["{nome}"]' in texto)
    texto = textos[arquivo]
    inicio = texto.index(f'["{nome}"]')
    fim = texto.find('\n["', inicio + 1)
    fim = len(texto) if fim < 0 else fim
    bloco = texto[inicio:fim]
    ultimo = bloco.rindex("valor = ")
    linha = bloco.index("\n", ultimo)
    bloco = bloco[:ultimo] + f'valor = "{valor}"' + bloco[linha:]
    textos[arquivo] = texto[:inicio] + bloco + texto[fim:]
    return ler_textos(textos)


def _com_teto(teto: str) -> Legislacao:
    """The shipped law with the distributor's ceiling from 2025 on replaced by ``teto``."""
    return _com_valor("renovabio.distribuidor.teto", teto)


def _maior_aceito(cabe: Callable[[int], bool]) -> int:
    """The largest k ≥ 1 with ``cabe(k)`` (monotone), by bisection on the bound functions."""
    baixo, alto = 1, 10**19
    assert cabe(baixo) and not cabe(alto)
    while alto - baixo > 1:
        meio = (baixo + alto) // 2
        baixo, alto = (meio, alto) if cabe(meio) else (baixo, meio)
    return baixo


def _maior_teto_aceito() -> Decimal:
    """The largest ceiling (whole reais) the bound functions accept with the shipped fractions
    of the 2025 law: found by bisection on the functions themselves."""
    lei = Lei(carregar(), carregar().prazo_comprovacao(2025)[0])  # type: ignore[index]
    params = _params_distribuidor(lei)

    def cabe(teto_reais: int) -> bool:
        p = dict(params, teto=teto_reais * 100)
        p["soma_max"] = renovabio.soma_maxima(p["teto"], p["lim_num"], p["lim_den"])
        del p["tem_reducao"]
        maiores = renovabio.maiores_produtos_distribuidor(**p)
        return max(maiores.values()) <= renovabio.LIMITE

    return Decimal(_maior_aceito(cabe))


def _linhas_extremas() -> list[dict[str, Any]]:
    """Rows at the edges of every product: the largest count and price of the fast shapes,
    the largest revenues, a payment within the reduction's months."""
    return [
        {"meta_cbios": "99999999999", "maior_media_mensal": "99999.999999"},
        {
            "meta_cbios": "99999999999",
            "maior_media_mensal": "99999.999999",
            "faturamento_ano_meta": "999999999999999.99",
            "faturamento_ano_anterior": "999999999999999.98",
            "data_quitacao": "2026-02-10",
        },
        {
            "meta_cbios": "999999",
            "maior_media_mensal": "0.000001",
            "faturamento_ano_meta": "1",
            "faturamento_ano_anterior": "0",
            "data_quitacao": "2026-11-30",
        },
        {
            "meta_cbios": "12345678901",
            "maior_media_mensal": "777.777777",
            "faturamento_ano_meta": "999999999999999.99",
            "faturamento_ano_anterior": "1",
            "data_quitacao": "2026-01-01",
        },
    ]


@pytest.mark.parametrize("acima", [False, True])
def test_o_limite_decide_no_teto_extremo(acima: bool) -> None:
    teto = _maior_teto_aceito() + (1 if acima else 0)
    legislacao = _com_teto(f"{teto}.00")
    linhas = _linhas_extremas()
    colunas: dict[str, pa.Array] = {}
    for nome in {k for linha in linhas for k in linha} | {"ano_meta", "cbios_aposentados"}:
        padrao = {"ano_meta": "2025", "cbios_aposentados": "0"}.get(nome)
        colunas[nome] = pa.array([linha.get(nome, padrao) for linha in linhas], pa.string())
    for laco in (True, False):
        r = calcular_colunas(
            "renovabio.distribuidor",
            colunas,
            len(linhas),
            legislacao=legislacao,
            laco=laco,
            hoje=relogio.hoje(),
        )
        assert r.ok.tolist() == [not acima] * len(linhas), laco
        if acima:
            continue
        for k, linha in enumerate(linhas):
            caso = {
                "regime": "renovabio.distribuidor",
                "ano_meta": 2025,
                "cbios_aposentados": 0,
                **linha,
            }
            esperado = calcular(caso, legislacao=legislacao)["valor"]
            assert Decimal(int(r.valor[k])) / 100 == Decimal(esperado), (laco, linha)


def test_a_recusa_nomeia_o_parametro() -> None:
    teto = _maior_teto_aceito() + 1
    lei = Lei(_com_teto(f"{teto}.00"), carregar().prazo_comprovacao(2025)[0])  # type: ignore[index]
    with pytest.raises(ForaDoKernel) as erro:
        _params_distribuidor(lei)
    assert re.search(r"renovabio\.distribuidor\.(teto|limite_faturamento|reducao)", str(erro.value))


# --- anp.mora and mover.eficiencia: a parameter grown to the bound ----------------------------

#: the law date of every row below (art. 37-A and the MP in force)
DATA_LEI = date(2025, 6, 2)
#: every month a row below needs, at the largest scale the kernel takes (10**-8 %)
SELIC = {
    f"{ano}-{mes:02d}": Decimal("0.00000001") for ano in range(1900, 2200) for mes in range(1, 13)
}


def _mora(principal: str, ciencia: str, pagamento: str) -> dict[str, str]:
    return {
        "principal": principal,
        "data_ciencia": ciencia,
        "data_pagamento": pagamento,
        "data_referencia": DATA_LEI.isoformat(),
    }


def _mover(consumo: str, veiculos: str = "1", meta: str = "0", **outros: str) -> dict[str, str]:
    linha = {"meta_mj_km": meta, "consumo_mj_km": consumo, "veiculos": veiculos, **outros}
    return linha | {"data_referencia": DATA_LEI.isoformat()}


#: the widest span of dates the kernel reads: the most days and months of delay
EXTREMOS = ("1900-01-01", "2199-12-31")
MAIOR_PRINCIPAL = "999999999999999.99"  # the largest of the contract's fast shapes
DECADAS = range(1910, 2200, 10)


@dataclass(frozen=True)
class Crescido:
    """A parameter grown as an integer ``k`` (its value in the law: ``texto(k)``), the rule's
    reader and bound function on it, and rows at the edges of its products, each with whether
    the kernel computes it at the bound (the others go to the engine, by a per-row guard)."""

    regime: str
    ler: Callable[[Lei], dict[str, int]]
    maiores: Callable[[dict[str, int], int], dict[str, int]]
    texto: Callable[[int], str]
    linhas: list[tuple[dict[str, str], bool]]
    leituras: list[dict[str, str]]
    constantes: dict[str, Any]


def _mover_ciclo(p: dict[str, int], prefixo: str, **trocas: int) -> dict[str, int]:
    nomes = ("un", "ud", "f1", "f2", "f3", "d")
    return regras.maiores_produtos_mover(**({n: p[f"{prefixo}.{n}"] for n in nomes} | trocas))


LEI_10522 = [{"encargos": "lei-10522"}]
FAIXAS = [{"faixa_superior": f} for f in ("marginal", "literal", "excedente")]
CRESCIDOS = {
    # dia_num × dias × lim_den: the most days at the largest daily rate
    "anp.multa_mora_dia": Crescido(
        "anp.mora",
        _params_lei_10522,
        lambda p, k: regras.maiores_produtos_mora_lei_10522(**(p | {"dia_num": k, "dia_den": 1})),
        str,
        [
            (_mora(MAIOR_PRINCIPAL, *EXTREMOS), True),
            (_mora("0.01", *EXTREMOS), True),
            # every span of days, so that a product past int64 would wrap to either sign
            *((_mora(MAIOR_PRINCIPAL, EXTREMOS[0], f"{ano}-07-01"), True) for ano in DECADAS),
            (_mora(MAIOR_PRINCIPAL, "2025-05-02", "2025-06-03"), True),
            (_mora(MAIOR_PRINCIPAL, "2025-05-02", "2025-05-10"), True),  # before the vencimento
        ],
        LEI_10522,
        {"taxas_selic": SELIC},
    ),
    # selic_num × 100 × 10**casas beside the Selic sum; principal × J; the total
    "anp.juros_selic": Crescido(
        "anp.mora",
        _params_lei_10522,
        lambda p, k: regras.maiores_produtos_mora_lei_10522(
            **(p | {"selic_num": k, "selic_den": 1})
        ),
        str,
        [
            (_mora("0.01", *EXTREMOS), True),
            # juros by Python integers, the total a centavo of principal below the limit; then
            # a total past it, though each charge fits
            (_mora("99999999.94", *EXTREMOS), True),
            (_mora("99999999.95", *EXTREMOS), False),
            (_mora("0.01", "2025-05-02", "2025-07-01"), True),  # no month in between
        ],
        LEI_10522,
        {"taxas_selic": SELIC},
    ),
    # (encargos = lei-9847) meses × juros_num: the most months at the largest monthly rate of
    # the law's art. 4º § 2º (spec § 3.7 point 8: the special law's parameter is the one applied)
    "anp.lei_9847.juros_mora": Crescido(
        "anp.mora",
        _params_mora,
        lambda p, k: regras.maiores_produtos_mora_decreto(k, 1, p["multa_num"], p["multa_den"]),
        str,
        [
            (_mora("0.01", *EXTREMOS), True),
            *((_mora("0.01", EXTREMOS[0], f"{ano}-07-01"), True) for ano in DECADAS),
            (_mora("0.02", *EXTREMOS), False),  # principal × fator past the limit
        ],
        [{"encargos": "lei-9847"}],
        {},
    ),
    # f1 + f2 + f3 + d × _UNIDADES_MAX, in every reading of alínea d
    "mover.tanque_roda.adicional": Crescido(
        "mover.eficiencia",
        _params_mover,
        lambda p, k: _mover_ciclo(p, "mover.tanque_roda", d=k),
        lambda k: f"{Decimal(k) / 100:.2f}",
        [
            (_mover("10000000"), True),  # 10**9 units above the target
            (_mover("10000001.5", meta="1.5", meta_gco2_km="100", emissao_gco2_km="101"), True),
            (_mover("10000000.01"), False),  # one unit more
            (_mover("10000000", veiculos="2"), False),  # the fine per vehicle × 2
        ],
        FAIXAS,
        {},
    ),
    # MICRO × un: the divisor of the units above the target
    "mover.tanque_roda.unidade": Crescido(
        "mover.eficiencia",
        _params_mover,
        lambda p, k: _mover_ciclo(p, "mover.tanque_roda", un=k, ud=1),
        str,
        [
            (_mover("99999999999.999999"), True),
            (_mover("0.000001", veiculos="999999999999999"), True),
        ],
        FAIXAS,
        {},
    ),
}


def _no_limite(parametro: str) -> int:
    """The largest value of ``parametro`` the rule's bound function accepts, the others as
    shipped."""
    caso = CRESCIDOS[parametro]
    params = caso.ler(Lei(carregar(), DATA_LEI))
    return _maior_aceito(lambda k: max(caso.maiores(params, k).values()) <= renovabio.LIMITE)


@pytest.mark.parametrize("parametro", list(CRESCIDOS))
@pytest.mark.parametrize("acima", [False, True])
def test_o_limite_decide_no_parametro_extremo(parametro: str, acima: bool) -> None:
    caso = CRESCIDOS[parametro]
    legislacao = _com_valor(parametro, caso.texto(_no_limite(parametro) + acima))
    linhas = [linha for linha, _ in caso.linhas]
    nomes = {k for linha in linhas for k in linha}
    colunas = {n: pa.array([linha.get(n) for linha in linhas], pa.string()) for n in nomes}
    for leitura in caso.leituras:
        r = calcular_colunas(
            caso.regime,
            colunas,
            len(linhas),
            leitura,
            legislacao,
            constantes=caso.constantes,
            hoje=relogio.hoje(),
        )
        if acima:  # the segment is refused, naming the parameter
            assert not r.ok.any(), leitura
            assert all(parametro in motivo for motivo in r.motivos(range(len(linhas))))
            continue
        assert r.ok.tolist() == [aceita for _, aceita in caso.linhas], leitura
        constantes = {n: {m: f"{t:f}" for m, t in v.items()} for n, v in caso.constantes.items()}
        for k in np.flatnonzero(r.ok).tolist():
            dados = {"regime": caso.regime, "interpretacao": leitura, **constantes, **linhas[k]}
            esperado = calcular(dados, legislacao=legislacao)["valor"]
            assert Decimal(int(r.valor[k])) / 100 == Decimal(esperado), (leitura, linhas[k])


@pytest.mark.parametrize("parametro", list(CRESCIDOS))
def test_a_recusa_nomeia_o_parametro_da_regra(parametro: str) -> None:
    caso = CRESCIDOS[parametro]
    lei = Lei(_com_valor(parametro, caso.texto(_no_limite(parametro))), DATA_LEI)
    caso.ler(lei)  # at the bound: taken
    lei = Lei(_com_valor(parametro, caso.texto(_no_limite(parametro) + 1)), DATA_LEI)
    with pytest.raises(ForaDoKernel) as erro:
        caso.ler(lei)
    assert erro.value.parametro == parametro


def test_o_limite_declarado_e_um_so() -> None:
    """No other overflow limit in the kernel's sources: ``renovabio.LIMITE`` is int64's
    largest, and every other module takes it from there."""
    achados = []
    for fonte in sorted(Path(renovabio.__file__).parent.glob("*.py")):
        texto = fonte.read_text(encoding="utf-8")
        for achado in re.findall(r"2\s*\*\*\s*6\d|^LIMITE\b\s*[:=]", texto, re.M):
            achados.append((fonte.name, re.sub(r"\s", "", achado)))
    assert achados == [("renovabio.py", "LIMITE="), ("renovabio.py", "2**63")]
    assert renovabio.LIMITE == 2**63 - 1
    assert aritmetica.LIMITE is regras.LIMITE is renovabio.LIMITE
    assert "limite" not in inspect.signature(aritmetica.cabe).parameters
