"""The kernel against OpenFisca on the same rule (renovabio.distribuidor, target year 2025:
floor, 500M ceiling, 5% revenue cap, 1/12 reduction) and the same cases, measured in one run.

Prints each side's cases/s (the rule alone: inputs are already in memory on both sides; best
of 3 runs each, one thread each; the kernel both ways, compiled loop and NumPy expressions),
the ratio, and how many OpenFisca results differ from the exact ones by one centavo or more.
The kernel's exactness is checked here too, on a random sample, against the scalar engine.

OpenFisca runs in .venv-bench (``make bench`` creates it), in a subprocess: its package pins
pytest and other tools, kept away from the project's own environment.

Usage: python bench/kernel_vs_openfisca.py [N]   (default 10 000 000 cases)
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path

import numpy as np

from multas import calcular
from multas.nucleo.kernel.colunas import Booleanos, ColunaDatas, Numeros
from multas.nucleo.kernel.regras import Entradas, distribuidor
from multas.nucleo.legislacao import carregar

RAIZ = Path(__file__).resolve().parent
PYTHON_OPENFISCA = os.environ.get("PYTHON_OPENFISCA", str(RAIZ.parent / ".venv-bench/bin/python"))
BLOCO = 1 << 20
RODADAS = 3  # each side: the best of 3 (the machine is shared)
AMOSTRA = 2000


def gerar(n: int, semente: int = 2025) -> dict[str, np.ndarray]:
    g = np.random.default_rng(semente)
    aposentados = g.integers(0, 10_000_000, n)
    faltantes = np.where(
        g.random(n) < 0.1, 0, np.minimum(g.lognormal(10, 2.5, n).astype(np.int64), 8_000_000)
    )
    quitacao = np.datetime64("2025-12-31") + g.integers(1, 400, n).astype("timedelta64[D]")
    return {
        "meta_cbios": aposentados + faltantes,
        "cbios_aposentados": aposentados,
        "preco_centavos": g.integers(1_000, 20_000, n),  # R$ 10,00 to R$ 199,99
        "fat_a": g.integers(10**9, 10**12, n),  # centavos
        "fat_b": g.integers(10**9, 10**12, n),
        "tem_faturamento": g.random(n) < 0.6,
        "quitacao": quitacao,
        "tem_quitacao": g.random(n) < 0.4,
    }


def entradas(c: dict[str, np.ndarray], inicio: int, fim: int) -> Entradas:
    n = fim - inicio

    def numeros(valores: np.ndarray, escala: int, presente: np.ndarray | None = None) -> Numeros:
        tem = np.ones(n, np.bool_) if presente is None else presente[inicio:fim]
        return Numeros(tem, tem.copy(), valores[inicio:fim].astype(np.int64), np.full(n, escala))

    nada = np.zeros(n, np.bool_)
    zeros = np.zeros(n, "datetime64[D]")
    tem_q = c["tem_quitacao"][inicio:fim]
    return Entradas(
        n,
        {
            "ano_meta": numeros(np.full(len(c["meta_cbios"]), 2025), 0),
            "meta_cbios": numeros(c["meta_cbios"], 0),
            "cbios_aposentados": numeros(c["cbios_aposentados"], 0),
            "maior_media_mensal": numeros(c["preco_centavos"], 2),
            "faturamento_ano_meta": numeros(c["fat_a"], 2, c["tem_faturamento"]),
            "faturamento_ano_anterior": numeros(c["fat_b"], 2, c["tem_faturamento"]),
            "data_quitacao": ColunaDatas(tem_q, tem_q.copy(), c["quitacao"][inicio:fim]),
            "prazo_comprovacao": ColunaDatas(nada, nada.copy(), zeros),
            "data_referencia": ColunaDatas(nada, nada.copy(), zeros),
            # the deferral's columns, absent: the rule of spec § 3.1 as OpenFisca's
            "meta_anterior_cumprida": Booleanos(nada, nada.copy(), nada.copy()),
            "diferir": Booleanos(nada, nada.copy(), nada.copy()),
        },
        nada.copy(),
    )


def rodar_kernel(c: dict[str, np.ndarray], laco: bool = True) -> tuple[np.ndarray, float]:
    """The kernel: the compiled loop (``laco``) or the NumPy execution of the same rule."""
    n = len(c["meta_cbios"])
    legislacao = carregar()
    blocos = [entradas(c, i, min(i + BLOCO, n)) for i in range(0, n, BLOCO)]
    from multas.nucleo.regimes import REGIMES

    leitura = REGIMES["renovabio.distribuidor"].interpretacao_padrao()  # every reading
    distribuidor(
        blocos[0], leitura, legislacao, laco, hoje=None
    )  # warm-up: loop loaded, tables built
    tempos = []
    for _ in range(RODADAS):
        inicio = time.perf_counter()
        resultados = [distribuidor(b, leitura, legislacao, laco, hoje=None) for b in blocos]
        tempos.append(time.perf_counter() - inicio)
    segundos = min(tempos)
    assert all(r.ok.all() for r in resultados)
    return np.concatenate([r.valor for r in resultados]), segundos


def conferir_amostra(c: dict[str, np.ndarray], exatos: np.ndarray) -> int:
    g = np.random.default_rng(7)
    linhas = g.choice(len(exatos), size=min(AMOSTRA, len(exatos)), replace=False)
    for i in linhas:
        caso = {
            "regime": "renovabio.distribuidor",
            "ano_meta": 2025,
            "meta_cbios": int(c["meta_cbios"][i]),
            "cbios_aposentados": int(c["cbios_aposentados"][i]),
            "maior_media_mensal": str(Decimal(int(c["preco_centavos"][i])) / 100),
        }
        if c["tem_faturamento"][i]:
            caso["faturamento_ano_meta"] = str(Decimal(int(c["fat_a"][i])) / 100)
            caso["faturamento_ano_anterior"] = str(Decimal(int(c["fat_b"][i])) / 100)
        if c["tem_quitacao"][i]:
            caso["data_quitacao"] = str(c["quitacao"][i])
        esperado = int(Decimal(calcular(caso)["valor"]) * 100)
        assert esperado == int(exatos[i]), (caso, esperado, int(exatos[i]))
    return len(linhas)


def rodar_openfisca(c: dict[str, np.ndarray], pasta: Path) -> tuple[np.ndarray, float, str]:
    casos, saida = pasta / "casos.npz", pasta / "openfisca.npz"
    np.savez(
        casos,
        meta_cbios=c["meta_cbios"].astype(np.int32),
        cbios_aposentados=c["cbios_aposentados"].astype(np.int32),
        maior_media_mensal=c["preco_centavos"] / 100,
        faturamento_ano_meta=c["fat_a"] / 100,
        faturamento_ano_anterior=c["fat_b"] / 100,
        tem_faturamento=c["tem_faturamento"],
        prazo_comprovacao=np.full(len(c["meta_cbios"]), np.datetime64("2025-12-31")),
        data_quitacao=np.where(c["tem_quitacao"], c["quitacao"], np.datetime64("2025-12-31")),
        tem_quitacao=c["tem_quitacao"],
    )
    subprocess.run([PYTHON_OPENFISCA, str(RAIZ / "openfisca_rodar.py"), casos, saida], check=True)
    dados = np.load(saida)
    return dados["multa"], float(dados["segundos"]), str(dados["dtype"])


def _milhares(n: int) -> str:
    return f"{n:,}".replace(",", ".")


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000_000
    print(f"renovabio.distribuidor, meta de 2025, {_milhares(n)} casos")
    c = gerar(n)
    exatos, t_kernel = rodar_kernel(c)
    conferidos = conferir_amostra(c, exatos)
    print(
        f"  kernel multas, laço compilado (Numba): {n / t_kernel / 1e6:6.2f} M casos/s "
        f"({t_kernel:.2f} s); {conferidos} casos sorteados iguais ao motor escalar, ao centavo"
    )
    vetorial, t_numpy = rodar_kernel(c, laco=False)
    assert (vetorial == exatos).all()
    print(
        f"  kernel multas, expressões NumPy:       {n / t_numpy / 1e6:6.2f} M casos/s "
        f"({t_numpy:.2f} s); os mesmos valores"
    )
    if not Path(PYTHON_OPENFISCA).exists():
        print(f"  OpenFisca: {PYTHON_OPENFISCA} não existe (rode `make bench`)")
        return
    with tempfile.TemporaryDirectory() as pasta:
        multa, t_of, tipo = rodar_openfisca(c, Path(pasta))
    centavos = np.round(multa.astype(np.float64) * 100)
    erradas = int(np.count_nonzero(np.abs(centavos - exatos) >= 1))
    print(f"  OpenFisca ({tipo}): {n / t_of / 1e6:6.2f} M casos/s ({t_of:.2f} s)")
    print(
        f"  kernel (laço) / OpenFisca = {t_of / t_kernel:.2f}× (meta: ≥ 3×); "
        f"kernel (NumPy) / OpenFisca = {t_of / t_numpy:.2f}×"
    )
    print(
        f"  OpenFisca erra por 1 centavo ou mais em {_milhares(erradas)} casos "
        f"({100 * erradas / n:.1f}%); o kernel, em nenhum"
    )


if __name__ == "__main__":
    main()
