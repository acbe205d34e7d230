"""Scale, in one run (issue 11):

1. Local, one big file: `multas lote` on 1 core against 2 cores (the process's CPU affinity, so
   "1 core" is the whole process, its reading and writing threads included), for a kernel
   regime (renovabio.distribuidor, 2M rows of Parquet, against the I/O floor: pyarrow reading
   and writing the same table) and for a regime the scalar engine computes row by row
   (renovabio.vedacao, CSV).
2. Dask on a real cluster: `dask scheduler` and 1 or 2 `dask worker` processes (one thread
   each) on loopback, on partitioned data sets whose files the workers read and write
   themselves (8 Parquet files for the kernel, 8 CSV files for the scalar engine), next to the
   local run of the same folder; and the client's peak memory (max RSS of the `multas lote`
   process) as the data set grows from 4 to 16 files: flat, since only names and counts
   reach it.
3. The scalar engine's cases/s before and after (bench/motor_escalar.py).

Every time is the best of RODADAS runs of the command line, each a fresh process, the
variants interleaved (the machine is shared: the minimum is the run least disturbed).

Usage: python bench/escala.py [--rapido]   (--rapido: smaller data, one round; for a check)
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pyarrow.parquet as pq
from dask_escala import gerar as gerar_vedacoes
from lote_vs_io import gerar as gerar_distribuidores

BIN = Path(sys.executable).parent
MULTAS, DASK = str(BIN / "multas"), str(BIN / "dask")
RAIZ = Path(__file__).resolve().parents[1]


#: runs a command and prints its wall time and peak memory: a small process of its own, so the
#: peak is the command's (a child forked from this big process would count this one's pages)
MEDIR = r"""
import os, resource, subprocess, sys, time
nucleos = sys.argv[1]
if nucleos != "-":
    os.sched_setaffinity(0, {int(n) for n in nucleos.split(",")})
inicio = time.perf_counter()
r = subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
segundos = time.perf_counter() - inicio
if r.returncode not in (0, 2):
    sys.exit(r.stderr.decode())
print(segundos, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)
"""


def rodar(comando: list[str], nucleos: set[int] | None = None) -> tuple[float, float]:
    """Wall time and peak memory (MiB) of one run; ``nucleos``: its CPU affinity."""
    afinidade = "-" if nucleos is None else ",".join(map(str, sorted(nucleos)))
    saida = subprocess.run(
        [sys.executable, "-c", MEDIR, afinidade, *comando],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return float(saida[0]), float(saida[1])


def melhor(variantes: dict[str, tuple[list[str], set[int] | None]], rodadas: int) -> dict:
    tempos: dict[str, list[float]] = {nome: [] for nome in variantes}
    for _ in range(rodadas):
        for nome, (comando, nucleos) in variantes.items():
            tempos[nome].append(rodar(comando, nucleos)[0])
    return {nome: min(t) for nome, t in tempos.items()}


@contextmanager
def cluster(trabalhadores: int, pasta: Path) -> Iterator[str]:
    """A scheduler and ``trabalhadores`` worker processes on loopback; its address."""
    arquivo = pasta / f"agendador-{trabalhadores}.json"
    registro = open(pasta / f"dask-{trabalhadores}.log", "wb")  # noqa: SIM115
    processos = [
        subprocess.Popen(
            [DASK, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
             "--scheduler-file", str(arquivo)],
            stdout=registro, stderr=subprocess.STDOUT,
        )
    ]  # fmt: skip
    try:
        while not (arquivo.exists() and arquivo.stat().st_size):
            time.sleep(0.05)
        endereco = json.loads(arquivo.read_text(encoding="utf-8"))["address"]
        processos += [
            subprocess.Popen(
                [DASK, "worker", "--scheduler-file", str(arquivo), "--nthreads", "1",
                 "--no-nanny", "--no-dashboard", "--host", "127.0.0.1"],
                stdout=registro, stderr=subprocess.STDOUT,
            )
            for _ in range(trabalhadores)
        ]  # fmt: skip
        from distributed import Client

        with Client(endereco, timeout="60s") as cliente:
            cliente.wait_for_workers(trabalhadores, timeout=120)
        yield endereco
    finally:  # the workers first (a worker whose scheduler is gone retries for a while)
        for processo in reversed(processos):
            processo.terminate()
            try:
                processo.wait(timeout=10)
            except subprocess.TimeoutExpired:
                processo.kill()
                processo.wait()
        registro.close()


def particionar(origem: Path, pasta: Path, arquivos: int) -> None:
    """``arquivos`` Parquet files of the same rows (each file is the whole ``origem``)."""
    pasta.mkdir()
    for i in range(arquivos):
        (pasta / f"parte-{i:03d}.parquet").write_bytes(origem.read_bytes())


def linhas(n: int) -> str:
    return f"{n:,}".replace(",", ".")


def main() -> None:
    opcoes = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    opcoes.add_argument("--rapido", action="store_true")
    rapido = opcoes.parse_args().rapido
    rodadas = 1 if rapido else 3
    n_grande = 200_000 if rapido else 2_000_000
    n_vedacao = 6_000 if rapido else 60_000
    n_parte = 50_000 if rapido else 500_000
    um, dois = {min(os.sched_getaffinity(0))}, set(sorted(os.sched_getaffinity(0))[:2])
    if len(dois) < 2:
        sys.exit("escala: esta máquina tem um núcleo só")

    with tempfile.TemporaryDirectory() as temporaria:
        pasta = Path(temporaria)
        grande, vedacao = pasta / "distribuidores.parquet", pasta / "vedacao.csv"
        gerar_distribuidores(grande, n_grande)
        gerar_vedacoes(vedacao, n_vedacao)

        # 1. local, one file
        def lote(entrada: Path, regime: str, saida: str) -> list[str]:
            return [MULTAS, "lote", str(entrada), "-r", regime, "-o", str(pasta / saida)]

        piso = [
            sys.executable,
            "-c",
            "import sys, pyarrow.parquet as pq; pq.write_table(pq.read_table(sys.argv[1]), "
            "sys.argv[2])",
            str(grande),
            str(pasta / "copia.parquet"),
        ]
        rodar(piso)  # warm the page cache
        kernel = melhor(
            {
                "1": (lote(grande, "renovabio.distribuidor", "r1.parquet"), um),
                "2": (lote(grande, "renovabio.distribuidor", "r2.parquet"), dois),
                "piso": (piso, dois),
            },
            rodadas,
        )
        escalar = melhor(
            {
                "1": (lote(vedacao, "renovabio.vedacao", "v1.csv"), um),
                "2": (lote(vedacao, "renovabio.vedacao", "v2.csv"), dois),
            },
            rodadas,
        )
        iguais = (pasta / "r1.parquet").read_bytes() == (pasta / "r2.parquet").read_bytes() and (
            pasta / "v1.csv"
        ).read_bytes() == (pasta / "v2.csv").read_bytes()
        print("1. Local, um arquivo: 1 núcleo contra 2 (afinidade do processo), melhor de "
              f"{rodadas}")  # fmt: skip
        print(
            f"  renovabio.distribuidor (kernel), {linhas(n_grande)} linhas de Parquet: "
            f"1 núcleo {kernel['1']:.2f} s, 2 núcleos {kernel['2']:.2f} s "
            f"({kernel['1'] / kernel['2']:.2f}×)"
        )
        print(
            f"    piso de E/S (pyarrow lê e grava a mesma tabela, 2 núcleos): {kernel['piso']:.2f} s"
            f"; multas lote / piso = {kernel['2'] / kernel['piso']:.2f}×"
        )
        print(
            f"  renovabio.vedacao (motor escalar), {linhas(n_vedacao)} linhas de CSV: "
            f"1 núcleo {escalar['1']:.2f} s, 2 núcleos {escalar['2']:.2f} s "
            f"({escalar['1'] / escalar['2']:.2f}×)"
        )
        print(f"  saídas de 1 e 2 núcleos idênticas: {'sim' if iguais else 'NÃO'}")

        # 2. Dask, partitioned data sets, workers reading and writing their own files
        parte = pasta / "parte.parquet"
        pq.write_table(pq.read_table(grande).slice(0, n_parte), parte, row_group_size=1 << 18)
        dados = {k: pasta / f"dados-{k}" for k in (4, 8, 16)}
        for k, destino in dados.items():
            particionar(parte, destino, k)
        vedacoes = pasta / "vedacoes"
        vedacoes.mkdir()
        for i in range(8):
            gerar_vedacoes(vedacoes / f"parte-{i}.csv", n_vedacao // 8)

        def distribuido(entrada: Path, regime: str, saida: str, endereco: str | None) -> list[str]:
            return lote(entrada, regime, saida) + (["--dask", endereco] if endereco else [])

        kernel_d, escalar_d, memoria = {}, {}, {}
        kernel_d["local"] = melhor(
            {"l": (distribuido(dados[8], "renovabio.distribuidor", "kl", None), dois)}, rodadas
        )["l"]
        escalar_d["local"] = melhor(
            {"l": (distribuido(vedacoes, "renovabio.vedacao", "vl", None), dois)}, rodadas
        )["l"]
        for t in (1, 2):
            with cluster(t, pasta) as endereco:
                rodar(distribuido(dados[4], "renovabio.distribuidor", f"aquece{t}", endereco))
                medidas = melhor(
                    {
                        "kernel": (
                            distribuido(dados[8], "renovabio.distribuidor", f"k{t}", endereco),
                            None,
                        ),
                        "escalar": (
                            distribuido(vedacoes, "renovabio.vedacao", f"v{t}", endereco),
                            None,
                        ),
                    },
                    rodadas,
                )
                kernel_d[t], escalar_d[t] = medidas["kernel"], medidas["escalar"]
                if t == 2:
                    for k, entrada in dados.items():
                        memoria[k] = rodar(
                            distribuido(entrada, "renovabio.distribuidor", f"m{k}", endereco)
                        )[1]
        iguais = all(
            (pasta / f"{tipo}{t}" / p.name).read_bytes() == p.read_bytes()
            for tipo in ("k", "v")
            for t in (1, 2)
            for p in (pasta / f"{tipo}l").iterdir()
        )
        print(
            "2. Dask real (dask scheduler + dask worker, 1 thread cada, loopback), entrada "
            f"particionada; cada trabalhador lê e grava os seus arquivos; melhor de {rodadas}"
        )
        for nome, medidas, descricao in (
            ("renovabio.distribuidor", kernel_d, f"8 Parquet, {linhas(8 * n_parte)} linhas"),
            ("renovabio.vedacao", escalar_d, f"8 CSV, {linhas(n_vedacao)} linhas"),
        ):
            print(
                f"  {nome} ({descricao}): local (2 núcleos) {medidas['local']:.2f} s; "
                f"1 trabalhador {medidas[1]:.2f} s, 2 trabalhadores {medidas[2]:.2f} s "
                f"(2 / 1 = {medidas[1] / medidas[2]:.2f}×)"
            )
        print(
            f"  saídas do Dask idênticas às locais: {'sim' if iguais else 'NÃO'} (no kernel, "
            "cada trabalhador já lê, calcula e grava em paralelo: numa máquina de 2 núcleos, "
            "dois trabalhadores dividem os mesmos núcleos)"
        )
        print(
            "  pico de memória do cliente (o processo multas lote), 2 trabalhadores: "
            + ", ".join(
                f"{k} arquivos ({linhas(k * n_parte)} linhas) {memoria[k]:.0f} MiB" for k in dados
            )
        )

    # 3. the scalar engine, before and after
    print("3. ", end="", flush=True)
    argumentos = ["--segundos", "1"] if rapido else []
    subprocess.run(
        [sys.executable, str(RAIZ / "bench" / "motor_escalar.py"), *argumentos], check=True
    )


if __name__ == "__main__":
    main()
