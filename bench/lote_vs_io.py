"""`multas lote` end to end on a 2M-row Parquet file against the I/O floor (a plain pyarrow
read and write of the same table), measured in one run, as separate processes (each side
pays its own start-up), interleaved, best of 5 (the machine is shared: the minimum is the
run least disturbed by others). Also prints each side's peak memory (max RSS): the batch
reads and writes block by block, so its peak does not grow with the file.

Usage: python bench/lote_vs_io.py [LINHAS]   (default 2 000 000)
"""

from __future__ import annotations

import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

RODADAS = 5
MULTAS = str(Path(sys.executable).parent / "multas")


def decimais(mantissas: np.ndarray, escala: int, nulos: np.ndarray | None = None) -> pa.Array:
    """Exact decimal128(18, escala) from integer mantissas (little-endian 128-bit words)."""
    pares = np.zeros((len(mantissas), 2), dtype=np.int64)
    pares[:, 0] = mantissas
    validade = None if nulos is None else pa.array(~nulos).buffers()[1]
    return pa.Array.from_buffers(
        pa.decimal128(18, escala),
        len(mantissas),
        [validade, pa.py_buffer(pares)],
        0 if nulos is None else int(nulos.sum()),
    )


def gerar(caminho: Path, n: int, semente: int = 4) -> None:
    """Distributors of 2023–2026 targets, typed columns (what a data team would write)."""
    g = np.random.default_rng(semente)
    aposentados = g.integers(0, 5_000_000, n)
    faltantes = np.where(g.random(n) < 0.1, 0, g.integers(1, 3_000_000, n))
    sem_faturamento = g.random(n) < 0.4
    sem_quitacao = g.random(n) < 0.6
    anos = g.integers(2023, 2027, n)
    quitacao = (np.datetime64("2026-01-01") + g.integers(0, 365, n)).astype("datetime64[D]")
    tabela = pa.table(
        {
            "cnpj": pa.array([f"{i:08d}/0001-{i % 97:02d}" for i in range(n)]),
            "ano_meta": pa.array(anos, pa.int64()),
            "meta_cbios": pa.array(aposentados + faltantes, pa.int64()),
            "cbios_aposentados": pa.array(aposentados, pa.int64()),
            "maior_media_mensal": decimais(g.integers(1_000_000, 20_000_000, n), 4),
            "faturamento_ano_meta": decimais(g.integers(10**9, 10**12, n), 2, sem_faturamento),
            "faturamento_ano_anterior": decimais(g.integers(10**9, 10**12, n), 2, sem_faturamento),
            "data_quitacao": pa.array(quitacao, pa.date32(), mask=sem_quitacao | (anos != 2025)),
        }
    )
    pq.write_table(tabela, caminho, row_group_size=256 * 1024)


def cronometrar(comando: list[str]) -> tuple[float, float]:
    """Wall time and the child's peak RSS (MiB)."""
    antes = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    inicio = time.perf_counter()
    processo = subprocess.run(comando, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    segundos = time.perf_counter() - inicio
    if processo.returncode not in (0, 2):
        raise RuntimeError(processo.stderr)
    depois = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return segundos, max(depois, antes) / 1024


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2_000_000
    with tempfile.TemporaryDirectory() as pasta:
        entrada = Path(pasta) / "distribuidores.parquet"
        gerar(entrada, n)
        io = [
            sys.executable,
            "-c",
            "import sys, pyarrow.parquet as pq; pq.write_table(pq.read_table(sys.argv[1]), sys.argv[2])",
            str(entrada),
            str(Path(pasta) / "copia.parquet"),
        ]
        lote = [
            MULTAS,
            "lote",
            str(entrada),
            "-r",
            "renovabio.distribuidor",
            "-o",
            str(Path(pasta) / "resultado.parquet"),
        ]
        cronometrar(io)
        cronometrar(lote)
        tempos: dict[str, list[float]] = {"io": [], "lote": []}
        memoria: dict[str, float] = {}
        for _ in range(RODADAS):
            for nome, comando in (("io", io), ("lote", lote)):
                segundos, _ = cronometrar(comando)
                tempos[nome].append(segundos)
        # peak memory, each in a fresh measurement (RUSAGE_CHILDREN keeps the max so far)
        for nome, comando in (("io", io), ("lote", lote)):
            medida = subprocess.run(
                [
                    "/usr/bin/env",
                    "python3",
                    "-c",
                    "import resource, subprocess, sys; subprocess.run(sys.argv[1:]); "
                    "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)",
                    *comando,
                ],
                capture_output=True,
                text=True,
                check=True,
            )
            memoria[nome] = int(medida.stdout.split()[-1]) / 1024
        tamanho = entrada.stat().st_size / 2**20
        # bounded memory: the same rows three times over (3× the file), same peak
        triplo = Path(pasta) / "triplo.parquet"
        tabela = pq.read_table(entrada)
        with pq.ParquetWriter(triplo, tabela.schema) as escritor:
            for _ in range(3):
                escritor.write_table(tabela, row_group_size=256 * 1024)
        del tabela
        lote_triplo = [*lote[:2], str(triplo), *lote[3:]]
        medida = subprocess.run(
            [
                "/usr/bin/env",
                "python3",
                "-c",
                "import resource, subprocess, sys; subprocess.run(sys.argv[1:]); "
                "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)",
                *lote_triplo,
            ],
            capture_output=True,
            text=True,
            check=True,
        )
        memoria["triplo"] = int(medida.stdout.split()[-1]) / 1024
    t_io, t_lote = min(tempos["io"]), min(tempos["lote"])
    linhas = f"{n:,}".replace(",", ".")
    print(
        f"multas lote, {linhas} linhas de Parquet ({tamanho:.0f} MiB), melhor de {RODADAS} rodadas"
    )
    print(
        f"  piso de E/S (pyarrow lê e grava):  {t_io:6.2f} s   pico de memória {memoria['io']:6.0f} MiB"
    )
    print(
        f"  multas lote (ponta a ponta):       {t_lote:6.2f} s   pico de memória {memoria['lote']:6.0f} MiB"
    )
    print(f"  multas lote / piso de E/S = {t_lote / t_io:.2f}× (meta: ≤ 1,0×)")
    print(
        f"  memória limitada: {linhas} linhas → pico {memoria['lote']:.0f} MiB; "
        f"3× mais linhas → pico {memoria['triplo']:.0f} MiB (o piso de E/S carrega tudo)"
    )


if __name__ == "__main__":
    main()
