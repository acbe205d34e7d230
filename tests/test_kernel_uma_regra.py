"""Issue 17, items 1 and 2: each RenovaBio batch rule is written once, and the kernel's integer
bounds come from one declared limit.

- The compiled loop runs the code objects of :mod:`multas.kernel.renovabio` themselves: there
  is no second writing to drift.
- For every shipped segment of the law, and for a ceiling grown until the largest product
  passes int64, the bound functions decide: a segment within them computes the extreme rows
  exactly as the scalar engine; one beyond them is refused, naming the parameter.
"""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from multas.kernel import calcular_colunas, lacos, renovabio
from multas.kernel.leis import NAO_VIGENTE, ForaDoKernel
from multas.kernel.regras import _params_distribuidor, _params_produtor
from multas.legislacao import Legislacao, Lei, carregar, ler_textos
from multas.motor import calcular

PARAMETROS = Path(__file__).resolve().parents[1] / "src" / "multas" / "legislacao" / "parametros"


def test_o_laco_roda_o_codigo_das_regras() -> None:
    espaco = lacos._espaco()
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
    assert proprias == {"compilado", "_espaco", "_compilar", "sem_numba"}


_SEM_REFERENCIAS = """
import json, re, sys
import numpy as np
from multas.kernel import lacos, renovabio as r

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
    nativa = re.search(r'^define [^\\n]*@"?_ZN6multas6kernel9renovabio\\d+' + nome + r'.*?^}', ir,
                       re.S | re.M)
    resultado[nome] = None if nativa is None else sorted(set(re.findall(r"@\\"?(NRT_\\w+)", nativa.group(0))))
print(json.dumps(resultado))
"""


@pytest.mark.skipif(lacos.sem_numba(), reason="MULTAS_SEM_NUMBA: the loop is not compiled")
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
    import numpy as np

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
    for lei in _segmentos(legislacao, ["renovabio.distribuidor.teto", "renovabio.produtor.teto"]):
        for ler in (_params_distribuidor, _params_produtor):
            try:
                ler(lei)
            except ForaDoKernel as erro:  # only a regime not yet in force
                assert erro.motivo == NAO_VIGENTE, (lei.data, erro)


def _com_teto(teto: str) -> Legislacao:
    """The shipped law with the distributor's ceiling from 2025 on replaced by ``teto``."""
    textos = {p.name: p.read_text(encoding="utf-8") for p in PARAMETROS.glob("*.toml")}
    texto = textos["renovabio.toml"]
    inicio = texto.index('["renovabio.distribuidor.teto"]')
    fim = texto.find('\n["', inicio + 1)
    bloco = texto[inicio:fim]
    ultimo = bloco.rindex("valor = ")
    linha = bloco.index("\n", ultimo)
    bloco = bloco[:ultimo] + f'valor = "{teto}"' + bloco[linha:]
    textos["renovabio.toml"] = texto[:inicio] + bloco + texto[fim:]
    return ler_textos(textos)


def _maior_teto_aceito() -> Decimal:
    """The largest ceiling (whole reais) the bound functions accept with the shipped fractions
    of the 2025 law: found by bisection on the functions themselves."""
    lei = Lei(carregar(), carregar().prazo_comprovacao(2025)[0])  # type: ignore[index]
    params = _params_distribuidor(lei)
    baixo, alto = 1, 10**18

    def cabe(teto_reais: int) -> bool:
        p = dict(params, teto=teto_reais * 100)
        p["soma_max"] = renovabio.soma_maxima(p["teto"], p["lim_num"], p["lim_den"])
        del p["tem_reducao"]
        maiores = renovabio.maiores_produtos_distribuidor(**p)
        return max(maiores.values()) <= renovabio.LIMITE

    while alto - baixo > 1:
        meio = (baixo + alto) // 2
        baixo, alto = (meio, alto) if cabe(meio) else (baixo, meio)
    return Decimal(baixo)


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
            "renovabio.distribuidor", colunas, len(linhas), legislacao=legislacao, laco=laco
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
