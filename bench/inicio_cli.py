"""Start-up of ``multas regimes`` against a bare ``python -c pass``, measured in one run.

Runs are interleaved so both sides see the same machine noise; prints the medians and the
ratio (the target in issue 2 is at most 8×).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

RODADAS = 21
MULTAS = str(Path(sys.executable).parent / "multas")


# As installed for a user, Python caches bytecode; some CI shells disable it, which would time
# the compilation of every module instead of the start-up.
AMBIENTE = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def cronometrar(comando: list[str]) -> float:
    inicio = time.perf_counter()
    subprocess.run(comando, check=True, stdout=subprocess.DEVNULL, env=AMBIENTE)
    return time.perf_counter() - inicio


def main() -> None:
    comandos = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "multas regimes": [MULTAS, "regimes"],
        "multas calcular (1 caso)": [MULTAS, "calcular", "exemplos/renovabio-distribuidor.json"],
    }
    for comando in comandos.values():  # warm the OS caches
        cronometrar(comando)
    tempos: dict[str, list[float]] = {nome: [] for nome in comandos}
    for _ in range(RODADAS):
        for nome, comando in comandos.items():
            tempos[nome].append(cronometrar(comando))
    base = statistics.median(tempos["python -c pass"])
    print(f"início da CLI: mediana de {RODADAS} rodadas intercaladas")
    for nome, valores in tempos.items():
        mediana = statistics.median(valores)
        print(f"  {nome:<28} {mediana * 1000:7.1f} ms   {mediana / base:5.2f}× python -c pass")
    razao = statistics.median(tempos["multas regimes"]) / base
    print(f"multas regimes / python -c pass = {razao:.2f}× (meta: ≤ 8×)")


if __name__ == "__main__":
    main()
