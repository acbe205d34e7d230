"""Start-up of the lifecycle commands against ``python -c "import sqlalchemy.orm"``, measured
in one run (issue 19: within 1.5×). Runs are interleaved so every command sees the same machine
noise; prints each median and its ratio to the SQLAlchemy import.

The commands run on a database of their own (SQLite, in a temporary folder), already migrated
and holding one processo and one ledger year, as a user's would.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RODADAS = 15
MULTAS = str(Path(sys.executable).parent / "multas")


def cronometrar(comando: list[str], ambiente: dict[str, str], entrada: str | None) -> float:
    inicio = time.perf_counter()
    subprocess.run(
        comando, check=True, stdout=subprocess.DEVNULL, env=ambiente, input=entrada, text=True
    )
    return time.perf_counter() - inicio


def main() -> None:
    with tempfile.TemporaryDirectory() as pasta:
        ambiente = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        ambiente["MULTAS_DATABASE_URL"] = f"sqlite:///{Path(pasta) / 'm.db'}"
        processo = json.dumps(
            {"tipo": "anp", "eventos": [{"evento": "infracao", "data": "2025-01-10"}]}
        )
        ano = json.dumps(
            {"cnpj": "11.222.333/0001-81", "ano": 2024, "meta_cbios": 100, "cbios_aposentados": 100}
        )
        subprocess.run(
            [MULTAS, "processo", "criar", "-"],
            input=processo,
            text=True,
            check=True,
            env=ambiente,
            stdout=subprocess.DEVNULL,
        )
        subprocess.run(
            [MULTAS, "carteira", "salvar", "-"],
            input=ano,
            text=True,
            check=True,
            env=ambiente,
            stdout=subprocess.DEVNULL,
        )
        comandos: dict[str, tuple[list[str], str | None]] = {
            'python -c "import sqlalchemy.orm"': (
                [sys.executable, "-c", "import sqlalchemy.orm"],
                None,
            ),
            # the same import, its objects then frozen out of the collector as the commands'
            # are (multas.inicio): the like-for-like comparison, with the same exit
            "  idem, com gc.freeze() ao fim": (
                [sys.executable, "-c", "import gc, sqlalchemy.orm; gc.freeze()"],
                None,
            ),
            "multas processo mostrar 1": ([MULTAS, "processo", "mostrar", "1"], None),
            "multas processo criar": ([MULTAS, "processo", "criar", "-"], processo),
            "multas processo evento": (
                [MULTAS, "processo", "evento", "1", "auto_infracao", "2025-02-03"],
                None,
            ),
            "multas carteira mostrar": (
                [MULTAS, "carteira", "mostrar", "11.222.333/0001-81"],
                None,
            ),
        }
        for comando, entrada in comandos.values():
            if comando:
                cronometrar(comando, ambiente, entrada)  # warm the caches
        tempos: dict[str, list[float]] = {nome: [] for nome in comandos}
        for _ in range(RODADAS):
            for nome, (comando, entrada) in comandos.items():
                if nome == "multas processo evento":  # one event per processo: a new one each time
                    criado = subprocess.run(
                        [MULTAS, "processo", "criar", "-", "--formato", "json"],
                        input=processo,
                        text=True,
                        check=True,
                        env=ambiente,
                        capture_output=True,
                    ).stdout
                    novo = str(json.loads(criado)["processo_id"])
                    comando = [MULTAS, "processo", "evento", novo, "auto_infracao", "2025-02-03"]
                tempos[nome].append(cronometrar(comando, ambiente, entrada))
    base = statistics.median(tempos['python -c "import sqlalchemy.orm"'])
    congelado = statistics.median(tempos["  idem, com gc.freeze() ao fim"])
    print(f"Início dos comandos do ciclo de vida, mediana de {RODADAS} rodadas intercaladas")
    print(f"  {'':36} {'':>10}  {'÷ import':>8}  {'÷ import com freeze':>19}")
    for nome, lista in tempos.items():
        mediana = statistics.median(lista)
        print(
            f"  {nome:36} {mediana * 1000:7.0f} ms  {mediana / base:7.2f}×  "
            f"{mediana / congelado:18.2f}×"
        )
    print("  (meta do issue 19: cada comando até 1,5× o import do SQLAlchemy)")


if __name__ == "__main__":
    main()
