"""Run the OpenFisca reference on the cases in an .npz file; write its results and the time
taken by ``simulation.calculate`` (inputs are set before the clock starts).

Usage (from bench/kernel_vs_openfisca.py, in .venv-bench): openfisca_rodar.py CASOS.npz SAIDA.npz
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

from openfisca_core.simulations import SimulationBuilder
from openfisca_renovabio import sistema

PERIODO = "2025"
RODADAS = 3


def main() -> None:
    casos = np.load(sys.argv[1])
    n = len(casos["meta_cbios"])
    tbs = sistema()
    tempos = []
    for _ in range(RODADAS):  # a fresh simulation each time (results are cached in one)
        simulacao = SimulationBuilder().build_default_simulation(tbs, count=n)
        for nome in casos.files:
            simulacao.set_input(nome, PERIODO, casos[nome])
        inicio = time.perf_counter()
        multa = simulacao.calculate("multa_distribuidor", PERIODO)
        tempos.append(time.perf_counter() - inicio)
    segundos = min(tempos)
    np.savez(
        sys.argv[2], multa=multa, segundos=np.array(segundos), dtype=np.array(str(multa.dtype))
    )


if __name__ == "__main__":
    main()
