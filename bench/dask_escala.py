"""`multas lote` on a Dask LocalCluster: 2 worker processes against 1, on a CPU-bound batch
(renovabio.vedacao, a regime the scalar engine computes row by row), measured in one run.
Cluster start-up is left out (a warm-up batch runs first); the outputs must be identical.

The machine is shared: as a control, the same blocks also run on 2 plain worker processes
against 1 (concurrent.futures, no Dask), interleaved with the Dask runs; that ratio is the
parallelism the machine actually gave during the run.

Usage: python bench/dask_escala.py [LINHAS]   (default 40 000)
"""

from __future__ import annotations

import csv
import sys
import tempfile
import time
from pathlib import Path

from distributed import LocalCluster

from multas.lote.executor import Dask, executar
from multas.lote.processar import Config
from multas.nucleo.motor import ler_interpretacao, regime_de

REGIME = "renovabio.vedacao"
RODADAS = 3
LINHAS_POR_BLOCO = 1000


def gerar(caminho: Path, n: int) -> None:
    with open(caminho, "w", encoding="utf-8", newline="") as arquivo:
        escritor = csv.writer(arquivo)
        escritor.writerow(
            [
                "id",
                "valor_base",
                "faturamento_ano_meta",
                "faturamento_ano_anterior",
                "data_referencia",
            ]
        )
        for i in range(n):
            com_faturamento = i % 3 == 0
            escritor.writerow(
                [
                    f"d{i}",
                    f"{(i * 7919) % 900_000_000}.{i % 100:02d}",
                    f"{(i * 104729) % 10**10}.00" if com_faturamento else "",
                    f"{(i * 1299709) % 10**10}.50" if com_faturamento else "",
                    "2025-10-01",
                ]
            )


def medir(entrada: Path, saida: Path, cfg: Config, trabalhadores: int) -> float:
    with LocalCluster(
        n_workers=trabalhadores, threads_per_worker=1, processes=True, dashboard_address=":0"
    ) as cluster:
        onde = Dask(cluster.scheduler_address)
        executar(entrada, saida, cfg, linhas_por_bloco=LINHAS_POR_BLOCO, dask=onde)  # warm-up
        tempos = []
        for _ in range(RODADAS):
            inicio = time.perf_counter()
            executar(entrada, saida, cfg, linhas_por_bloco=LINHAS_POR_BLOCO, dask=onde)
            tempos.append(time.perf_counter() - inicio)
    return min(tempos)


def controle(entrada: Path, cfg: Config, processos: int) -> float:
    """The same blocks on a plain process pool: the parallelism available right now."""
    from concurrent.futures import ProcessPoolExecutor

    from multas.lote.io import abrir
    from multas.lote.processar import processar

    blocos = list(abrir(entrada, cfg, LINHAS_POR_BLOCO).blocos)
    with ProcessPoolExecutor(processos) as pool:
        list(pool.map(processar, blocos[:processos], [cfg] * processos))  # warm-up
        inicio = time.perf_counter()
        list(pool.map(processar, blocos, [cfg] * len(blocos)))
        return time.perf_counter() - inicio


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 40_000
    cfg = Config(REGIME, ler_interpretacao(regime_de(REGIME), None))
    with tempfile.TemporaryDirectory() as pasta:
        entrada = Path(pasta) / "vedacao.csv"
        gerar(entrada, n)
        um, dois = Path(pasta) / "um.csv", Path(pasta) / "dois.csv"
        t_um = medir(entrada, um, cfg, 1)
        c_um = controle(entrada, cfg, 1)
        t_dois = medir(entrada, dois, cfg, 2)
        c_dois = controle(entrada, cfg, 2)
        iguais = um.read_bytes() == dois.read_bytes()
    linhas = f"{n:,}".replace(",", ".")
    print(
        f"Dask LocalCluster, {REGIME} (motor escalar, limitado pela CPU), {linhas} linhas, "
        f"blocos de {LINHAS_POR_BLOCO}, melhor de {RODADAS}"
    )
    print(f"  1 trabalhador:  {t_um:6.2f} s ({n / t_um:8.0f} linhas/s)")
    print(f"  2 trabalhadores: {t_dois:6.2f} s ({n / t_dois:8.0f} linhas/s)")
    print(
        f"  2 / 1 = {t_um / t_dois:.2f}× (meta: ≥ 1,6×); saídas idênticas: {'sim' if iguais else 'NÃO'}"
    )
    print(
        f"  controle sem Dask (2 processos / 1, mesmos blocos): {c_um / c_dois:.2f}× "
        f"({c_um:.2f} s / {c_dois:.2f} s): o paralelismo que a máquina deu nesta execução"
    )


if __name__ == "__main__":
    main()
