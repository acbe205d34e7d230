"""`multas lote` on the same rows as XLSX and as CSV, measured in one run, as separate
processes (each side pays its own start-up), interleaved, best of 3 (the machine is shared:
the minimum is the run least disturbed by others). The XLSX is what a company's spreadsheet
holds: numbers in number cells, dates in date cells, CNPJs as text.

Besides the time, the CPU each side's process used (user + system, its threads together):
on a machine other processes keep busy the time swings by 2× from run to run while the CPU
moves little, so both ratios are printed.

The goal (issue 37): the XLSX within 3× the CSV time for the same rows.

Usage: python bench/xlsx_vs_csv.py [LINHAS] [RODADAS]   (default 100 000 and 3)
"""

from __future__ import annotations

import csv
import resource
import subprocess
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

import numpy as np

MULTAS = str(Path(sys.executable).parent / "multas")
COLUNAS = [
    "cnpj",
    "ano_meta",
    "meta_cbios",
    "cbios_aposentados",
    "maior_media_mensal",
    "faturamento_ano_meta",
    "faturamento_ano_anterior",
    "data_quitacao",
]


def linhas(n: int, semente: int = 4) -> list[list[object]]:
    """Distributors of 2023–2026 targets: integers, exact decimals and dates as a company's
    spreadsheet types them."""
    g = np.random.default_rng(semente)
    aposentados = g.integers(0, 5_000_000, n)
    faltantes = np.where(g.random(n) < 0.1, 0, g.integers(1, 3_000_000, n))
    sem_faturamento = g.random(n) < 0.4
    sem_quitacao = g.random(n) < 0.6
    anos = g.integers(2023, 2027, n)
    precos = g.integers(1_000_000, 20_000_000, n)
    faturamentos = g.integers(10**9, 10**12, (2, n))
    dias = g.integers(0, 365, n)
    saida: list[list[object]] = []
    for i in range(n):
        saida.append(
            [
                f"{i:08d}/0001-{i % 97:02d}",
                int(anos[i]),
                int(aposentados[i] + faltantes[i]),
                int(aposentados[i]),
                int(precos[i]) / 10_000,
                None if sem_faturamento[i] else int(faturamentos[0, i]) / 100,
                None if sem_faturamento[i] else int(faturamentos[1, i]) / 100,
                None
                if sem_quitacao[i] or anos[i] != 2025
                else date(2026, 1, 1) + timedelta(days=int(dias[i])),
            ]
        )
    return saida


def gerar(pasta: Path, n: int) -> tuple[Path, Path]:
    from multas.lote.xlsx_escrita import PlanilhaEmFluxo

    dados = linhas(n)
    caminho_csv = pasta / "distribuidores.csv"
    with open(caminho_csv, "w", newline="", encoding="utf-8") as arquivo:
        escritor = csv.writer(arquivo)
        escritor.writerow(COLUNAS)
        for linha in dados:
            escritor.writerow(
                ["" if v is None else v.isoformat() if isinstance(v, date) else v for v in linha]
            )
    caminho_xlsx = pasta / "distribuidores.xlsx"
    planilha = PlanilhaEmFluxo(caminho_xlsx, "distribuidores", ["dd/mm/yyyy"], formulas=False)
    estilos = {7: planilha.estilo["dd/mm/yyyy"]}
    planilha.gravar(planilha.linhas_xml([COLUNAS, *dados], estilos, 1))
    planilha.fechar()
    return caminho_csv, caminho_xlsx


def _cpu_dos_filhos() -> float:
    uso = resource.getrusage(resource.RUSAGE_CHILDREN)
    return uso.ru_utime + uso.ru_stime


def cronometrar(comando: list[str]) -> tuple[float, float]:
    """The command's time and the CPU its process used, in seconds."""
    antes = _cpu_dos_filhos()
    inicio = time.perf_counter()
    processo = subprocess.run(comando, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    segundos = time.perf_counter() - inicio
    if processo.returncode != 0:
        raise RuntimeError(processo.stderr)
    return segundos, _cpu_dos_filhos() - antes


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    rodadas = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    with tempfile.TemporaryDirectory() as pasta:
        entrada_csv, entrada_xlsx = gerar(Path(pasta), n)
        comandos = {
            formato: [
                MULTAS,
                "lote",
                str(entrada),
                "-r",
                "renovabio.distribuidor",
                "-o",
                str(Path(pasta) / f"resultado.{formato}"),
            ]
            for formato, entrada in (("csv", entrada_csv), ("xlsx", entrada_xlsx))
        }
        tempos: dict[str, list[float]] = {"csv": [], "xlsx": []}
        cpus: dict[str, list[float]] = {"csv": [], "xlsx": []}
        for _ in range(rodadas):
            for formato, comando in comandos.items():
                segundos, cpu = cronometrar(comando)
                tempos[formato].append(segundos)
                cpus[formato].append(cpu)
    t_csv, t_xlsx = min(tempos["csv"]), min(tempos["xlsx"])
    c_csv, c_xlsx = min(cpus["csv"]), min(cpus["xlsx"])
    quantas = f"{n:,}".replace(",", ".")
    print(f"multas lote, {quantas} linhas, melhor de {rodadas} rodadas")
    print(f"  CSV:  {t_csv:6.2f} s  (CPU {c_csv:5.2f} s)")
    print(f"  XLSX: {t_xlsx:6.2f} s  (CPU {c_xlsx:5.2f} s)")
    print(f"  XLSX / CSV = {t_xlsx / t_csv:.2f}× (meta: ≤ 3×); em CPU, {c_xlsx / c_csv:.2f}×")


if __name__ == "__main__":
    main()
