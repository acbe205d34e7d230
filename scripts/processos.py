"""Regenerate the golden § 6 outputs of the scenario processos (tests/processos/*.json).

``python scripts/processos.py`` rewrites them from ``tests/processos/entradas.json``;
``tests/nucleo/test_ciclo_processos_dourados.py`` fails when the lifecycle's output for a scenario differs
from its reviewed golden file. Review the diff before committing: these are the deadlines, the
situations, the provisions and the avisos a user reads. Every scenario carries its own
``data_referencia``, so the files do not change with the calendar.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

RAIZ = Path(__file__).resolve().parents[1]
PASTA = RAIZ / "tests" / "processos"


def entradas() -> dict[str, dict[str, Any]]:
    dados: dict[str, dict[str, Any]] = json.loads(
        (PASTA / "entradas.json").read_text(encoding="utf-8")
    )
    return dados


def saida(entrada: dict[str, Any]) -> dict[str, Any]:
    """The processo as read (defaults written out, as it is stored), its § 6 output, and what
    the page and the calendar add to each deadline: the event it counts from and the text of
    its provision."""
    from multas.nucleo.ciclo.prazos import analisar, calcular_prazos, ler_processo

    detalhe = [
        {"prazo": p.nome, "origem": p.origem, "texto": p.texto} for p in analisar(entrada).prazos
    ]
    return {
        "lido": ler_processo(entrada).como_dict(),
        "saida": calcular_prazos(entrada),
        "detalhe": detalhe,
    }


def texto(resultado: dict[str, Any]) -> str:
    return json.dumps(resultado, ensure_ascii=False, indent=2, sort_keys=True) + "\n"


def main() -> None:
    for nome, entrada in entradas().items():
        (PASTA / f"{nome}.json").write_text(texto(saida(entrada)), encoding="utf-8")
    json.dump({"processos": len(entradas())}, sys.stdout)
    print()


if __name__ == "__main__":
    main()
