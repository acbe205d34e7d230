"""Time the OpenFisca reference case by case: one simulation per case (``count=1``), its inputs
set, ``multa_distribuidor`` calculated, as an engine answering one request at a time would.

The cases come as a JSON list (bench/motor_escalar.py writes it from the spec's worked cases):
each an OpenFisca period (the target year) and its inputs, already typed. The tax-benefit
system is built once, before the clock starts; every case builds its own simulation.

Prints one JSON object: cases per second and each case's result (after one warm-up pass).

Usage (from bench/motor_escalar.py, in .venv-bench): openfisca_casos.py CASOS.json SEGUNDOS
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

from openfisca_core.simulations import SimulationBuilder
from openfisca_renovabio import sistema

DATAS = {"prazo_comprovacao", "data_quitacao"}


def preparar(caso: dict[str, Any]) -> tuple[str, list[tuple[str, np.ndarray]]]:
    entradas = [
        (nome, np.array([valor], dtype="datetime64[D]" if nome in DATAS else None))
        for nome, valor in caso["entradas"].items()
    ]
    return str(caso["periodo"]), entradas


def main() -> None:
    casos = [preparar(c) for c in json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))]
    segundos = float(sys.argv[2])
    tbs = sistema()

    def um(periodo: str, entradas: list[tuple[str, np.ndarray]]) -> float:
        simulacao = SimulationBuilder.build_default_simulation(tbs, count=1)
        for nome, valor in entradas:
            simulacao.set_input(nome, periodo, valor)
        return float(simulacao.calculate("multa_distribuidor", periodo)[0])

    valores = [um(*caso) for caso in casos]  # warm-up: parameters read, formulas loaded
    n, inicio = 0, time.perf_counter()
    while time.perf_counter() - inicio < segundos:
        for caso in casos:
            um(*caso)
            n += 1
    print(json.dumps({"casos_s": n / (time.perf_counter() - inicio), "valores": valores}))


if __name__ == "__main__":
    main()
