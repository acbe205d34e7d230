"""What the N-th change of one record costs against the first (issue 36, item 1), in one run:

- a ledger year saved again N times (``carteira salvar``: the same CNPJ and year, another
  number of CBIOs each time): the check before each change reads the record's creation and
  its last audit row, not its history;
- one ``anp`` processo given N payments, one event at a time (``processo evento``): each
  append validates and derives the whole processo (§ 6: the new list is read whole, and what is
  owed is computed payment by payment), so its cost grows with the events it already has.

Prints the mean time of the first and of the last 30 changes of each, and their ratio.

Usage: python bench/historia.py [N]   (default 300)
"""

from __future__ import annotations

import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

AMOSTRA = 30


def _razao(tempos: list[float]) -> str:
    primeiros, ultimos = tempos[:AMOSTRA], tempos[-AMOSTRA:]
    return (
        f"os {AMOSTRA} primeiros {sum(primeiros) / AMOSTRA * 1000:.1f} ms cada, os {AMOSTRA} "
        f"últimos {sum(ultimos) / AMOSTRA * 1000:.1f} ms: {sum(ultimos) / sum(primeiros):.2f}×"
    )


def main() -> None:
    from multas.servicos.gestao import Ciclo
    from multas.servicos.persistencia import Repositorio

    n = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    with tempfile.TemporaryDirectory() as pasta:
        ciclo = Ciclo(Repositorio(f"sqlite:///{Path(pasta) / 'historia.db'}"))
        ano = {"cnpj": "11.222.333/0001-81", "ano": 2024, "meta_cbios": 1000}
        anos = []
        for i in range(n):
            inicio = time.perf_counter()
            ciclo.salvar_ano({**ano, "cbios_aposentados": 900 + i % 50})
            anos.append(time.perf_counter() - inicio)
        decidido = [
            ("infracao", "2010-01-04"),
            ("auto_infracao", "2010-02-01"),
            ("ciencia_primeira_instancia", "2010-06-01"),
            ("renuncia_recurso", "2010-06-04"),
        ]
        processo = ciclo.criar(
            {
                "tipo": "anp",
                "valor_multa": "100000000.00",
                "eventos": [{"evento": e, "data": d} for e, d in decidido],
            }
        ).armazenado.id
        eventos, dia = [], date(2010, 7, 1)
        for _ in range(n):
            inicio = time.perf_counter()
            ciclo.acrescentar(
                processo, {"evento": "pagamento", "data": dia.isoformat(), "valor": "1.00"}
            )
            eventos.append(time.perf_counter() - inicio)
            dia += timedelta(days=5)
    print(f"{n} alterações de um registro (SQLite)")
    print(f"  um ano da carteira salvo de novo: {_razao(anos)}")
    print(f"  um processo com mais um pagamento: {_razao(eventos)}")


if __name__ == "__main__":
    main()
