"""What a processo owes (spec § 6.2 v4) with many payments: the time must grow with their
number, never with its square (a hostile body of 1 MiB holds about 15,000 payments).

Prints, for N and 8·N payments of R$ 0,01 under both readings of ``encargos``, the best of 3
wall-clock times of ``calcular_prazos`` (reading and validation, the one pass that finds the
settling payment, the deadlines, ``devido``) and their ratio, measured in this one run: about
8 means linear; 64 would be quadratic.

Usage: python bench/pagamentos.py [N]   (default 1000)
"""

from __future__ import annotations

import sys
import time

from multas.nucleo.ciclo import calcular_prazos
from multas.nucleo.legislacao import carregar

RODADAS = 3


def processo(n: int, encargos: str) -> dict[str, object]:
    eventos = [
        {"evento": "infracao", "data": "2019-01-10"},
        {"evento": "auto_infracao", "data": "2019-02-01"},
        {"evento": "ciencia_primeira_instancia", "data": "2019-06-03"},
        {"evento": "ciencia_decisao_definitiva", "data": "2019-06-05"},
        *({"evento": "pagamento", "data": "2020-01-01", "valor": "0.01"} for _ in range(n)),
    ]
    return {
        "tipo": "anp",
        "valor_multa": "100000.00",
        "eventos": eventos,
        "data_referencia": "2020-02-01",
        "interpretacao": {"encargos": encargos},
    }


def melhor(n: int, encargos: str) -> float:
    legislacao = carregar()
    dados = processo(n, encargos)
    tempos = []
    for _ in range(RODADAS):
        inicio = time.perf_counter()
        calcular_prazos(dados, legislacao)
        tempos.append(time.perf_counter() - inicio)
    return min(tempos)


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    for encargos in ("lei-9847", "lei-10522"):
        pouco, muito = melhor(n, encargos), melhor(8 * n, encargos)
        print(
            f"{encargos}: {n} pagamentos {pouco:.2f} s; {8 * n} pagamentos {muito:.2f} s; "
            f"razão {muito / pouco:.1f} (8 = linear, 64 = quadrático)"
        )


if __name__ == "__main__":
    main()
