"""Regenerate the golden memórias of the worked cases (tests/memorias/*.json): the spec's
(tests/casos_spec) and the project's own (tests/casos_proprios, branches the spec's cases do
not reach), each with the rest of its result (values, ranges, alternatives).

``python scripts/memorias.py`` rewrites them; ``tests/nucleo/test_memorias.py`` fails when the engine's
memória of a worked case differs from its reviewed golden file. Review the diff before
committing: these files are what a lawyer reads (each step, its value and the provision it
cites, the avisos, the law applied).

The cases without a date of their own are computed as of 30/11/2026, 12:00 in Brasília, so
the files do not change with the calendar.
"""

from __future__ import annotations

import datetime as dt
import json
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

RAIZ = Path(__file__).resolve().parents[1]
CASOS = RAIZ / "tests" / "casos_spec"
PROPRIOS = RAIZ / "tests" / "casos_proprios"
MEMORIAS = RAIZ / "tests" / "memorias"
HOJE = dt.datetime(2026, 11, 30, 15, 0, tzinfo=dt.UTC)  # 12:00 in Brasília


def memoria(entrada: dict[str, Any]) -> dict[str, Any]:
    """What the golden file keeps of a result: the law applied and the whole explanation."""
    import time_machine

    from multas import calcular
    from multas.nucleo.erros import EntradaInvalida

    with time_machine.travel(HOJE, tick=False):
        try:
            r = calcular(entrada)
        except EntradaInvalida as erro:  # a refusal is golden too: its field and its words
            return {"regime": entrada.get("regime"), **erro.como_dict()}
    return {
        "regime": r["regime"],
        "fundamento": r["fundamento"],
        "vigencia": r["vigencia"],
        "interpretacao": r["interpretacao"],
        "passos": [
            {
                "descricao": p["descricao"],
                "valor": p["valor"],
                "tipo": p["tipo"],
                "fundamento": p["fundamento"],
                "texto": p["texto"],
            }
            for p in r["passos"]
        ],
        "avisos": r["avisos"],
        "resultado": {k: v for k, v in r.items() if k not in _NA_MEMORIA},
    }


#: the result's fields the golden file already keeps above
_NA_MEMORIA = ("regime", "fundamento", "vigencia", "interpretacao", "passos", "avisos")


def casos() -> dict[str, dict[str, Any]]:
    return {
        p.stem: json.loads(p.read_text(encoding="utf-8"), parse_float=Decimal)["entrada"]
        for p in sorted([*CASOS.glob("*.json"), *PROPRIOS.glob("*.json")])
    }


def texto(memoria_: dict[str, Any]) -> str:
    return json.dumps(memoria_, ensure_ascii=False, indent=2) + "\n"


def main() -> None:
    MEMORIAS.mkdir(exist_ok=True)
    for nome, entrada in casos().items():
        (MEMORIAS / f"{nome}.json").write_text(texto(memoria(entrada)), encoding="utf-8")
    json.dump({"memorias": len(casos())}, sys.stdout)
    print()


if __name__ == "__main__":
    main()
