"""The scalar engine (what the API, the JSON Lines CLI and every non-kernel batch row run on):
cases per second on one core, with the full memória and the alternativas, before and after.

"Before" is the engine of an earlier commit (default: f4ce8c2, the last one before the
scalar-engine work of issue 11), extracted with `git archive` and run in a subprocess with
its own sources first on the path; "after" is this checkout. Both run the same cases (the
spec's worked cases, tests/casos_spec) the same way, interleaved, three rounds each, and the
script prints the medians and their ratio: one run, so the shared machine's load falls on
both alike. Each result is turned into the contract's JSON (como_dict), as a user gets it.

Usage: python bench/motor_escalar.py [--antes REV] [--segundos S]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

RAIZ = Path(__file__).resolve().parents[1]

MEDIR = r"""
import glob, json, sys, time
from decimal import Decimal
from multas.motor import calcular_resultado
casos = [json.loads(open(p, encoding="utf-8").read(), parse_float=Decimal)["entrada"]
         for p in sorted(glob.glob(sys.argv[1] + "/*.json"))]
for caso in casos:  # warm-up: imports, the legislation, the holiday tables
    calcular_resultado(caso).como_dict()
n, inicio = 0, time.perf_counter()
while time.perf_counter() - inicio < float(sys.argv[2]):
    for caso in casos:
        calcular_resultado(caso).como_dict()
        n += 1
print(n / (time.perf_counter() - inicio))
"""


def medir(src: Path, segundos: float) -> float:
    r = subprocess.run(
        [sys.executable, "-c", MEDIR, str(RAIZ / "tests" / "casos_spec"), str(segundos)],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"},
    )
    return float(r.stdout)


def extrair(rev: str, destino: Path) -> Path:
    arquivo = subprocess.run(
        ["git", "-C", str(RAIZ), "archive", "--format=tar", rev, "src"],
        capture_output=True,
        check=True,
    ).stdout
    with tarfile.open(fileobj=BytesIO(arquivo)) as tar:
        tar.extractall(destino, filter="data")
    return destino / "src"


def main() -> None:
    argumentos = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    argumentos.add_argument("--antes", default="f4ce8c2")
    argumentos.add_argument("--segundos", type=float, default=4.0)
    opcoes = argumentos.parse_args()
    with tempfile.TemporaryDirectory() as pasta:
        antigo = extrair(opcoes.antes, Path(pasta))
        antes, depois = [], []
        for _ in range(3):
            antes.append(medir(antigo, opcoes.segundos))
            depois.append(medir(RAIZ / "src", opcoes.segundos))
    a, d = statistics.median(antes), statistics.median(depois)
    print("motor escalar: casos/s num núcleo, com memória e alternativas (mediana de 3)")
    print(f"  antes ({opcoes.antes}): {a:8.0f}   rodadas: {', '.join(f'{x:.0f}' for x in antes)}")
    print(f"  depois (esta cópia): {d:8.0f}   rodadas: {', '.join(f'{x:.0f}' for x in depois)}")
    print(f"  depois / antes = {d / a:.2f}×   (meta: ≥ 5.000 casos/s por núcleo)")


if __name__ == "__main__":
    main()
