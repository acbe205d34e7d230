"""The mutation score per file, from the results mutmut leaves in ``mutants/`` (``make mutacao``).

``python scripts/mutacao.py`` prints, for each mutated file, how many mutants the tests killed
(a timeout counts as killed: the mutant made the code hang), how many survived and the score.
The survivors judged equivalent are those named in docs/mutacao.md; any other survivor is
listed, since a test is missing for it or it must be explained there. ``--sobreviventes``
lists every survivor (with ``mutmut show NOME`` you see its diff).

The exit status is 0 even with survivors: the score is a figure to read, not a gate.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

RAIZ = Path(__file__).resolve().parents[1]
MUTANTES = RAIZ / "mutants"
NOTA = RAIZ / "docs" / "mutacao.md"

#: mutmut's exit codes (mutmut.stats.status_by_exit_code), in the words of the report
MORTO = {1, 3, 36, 24, -24, 152, 255}  # killed, or timed out
SOBREVIVEU = 0
SEM_TESTES = {5, 33}
NAO_TESTADO = {None}


def resultados() -> dict[str, dict[str, int | None]]:
    """{file (relative to the project): {mutant name: exit code}}"""
    por_arquivo: dict[str, dict[str, int | None]] = {}
    for meta in sorted(MUTANTES.glob("src/**/*.py.meta")):
        dados = json.loads(meta.read_text(encoding="utf-8"))
        relativo = meta.relative_to(MUTANTES).as_posix().removesuffix(".meta")
        por_arquivo[relativo] = dados["exit_code_by_key"]
    return por_arquivo


def equivalentes() -> set[str]:
    """The mutants docs/mutacao.md explains as equivalent (their names in backticks)."""
    if not NOTA.exists():
        return set()
    return set(re.findall(r"`(multas\.[\w.]+__mutmut_\d+)`", NOTA.read_text(encoding="utf-8")))


def main(argv: list[str]) -> int:
    por_arquivo = resultados()
    if not por_arquivo:
        print("Nenhum resultado em mutants/: rode `make mutacao` (ou `mutmut run`) antes.")
        return 1
    explicados = equivalentes()
    linhas = []
    total: Counter[str] = Counter()
    sobreviventes: list[str] = []
    for arquivo, codigos in por_arquivo.items():
        c: Counter[str] = Counter()
        for nome, codigo in codigos.items():
            if codigo in MORTO:
                c["mortos"] += 1
            elif codigo == SOBREVIVEU:
                c["sobreviventes"] += 1
                c["equivalentes"] += nome in explicados
                sobreviventes.append(nome)
            elif codigo in SEM_TESTES:
                c["sem_testes"] += 1
                sobreviventes.append(nome)
            elif codigo in NAO_TESTADO:
                c["nao_testados"] += 1
            else:
                c["outros"] += 1
        c["total"] = len(codigos)
        total += c
        linhas.append((arquivo, c))
    linhas.append(("total", total))

    print(
        f"{'arquivo':<32} {'mutantes':>8} {'mortos':>7} {'sobrev.':>7} {'equiv.':>6} "
        f"{'sem teste':>9} {'escore':>7}"
    )
    for arquivo, c in linhas:
        testados = c["total"] - c["nao_testados"]
        escore = 100 * c["mortos"] / testados if testados else 0.0
        print(
            f"{arquivo:<32} {c['total']:>8} {c['mortos']:>7} {c['sobreviventes']:>7} "
            f"{c['equivalentes']:>6} {c['sem_testes']:>9} {escore:>6.1f}%"
        )
    if total["nao_testados"] or total["outros"]:
        print(
            f"\natenção: {total['nao_testados']} mutantes não testados, {total['outros']} "
            "com outro resultado (suspeito, segfault…): veja `mutmut results`"
        )
    listar = sobreviventes if "--sobreviventes" in argv else []
    if not listar:
        listar = [nome for nome in sobreviventes if nome not in explicados]
        if listar:
            print(f"\nSobreviventes não explicados em docs/mutacao.md ({len(listar)}):")
    for nome in listar:
        print(f"  {nome}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
