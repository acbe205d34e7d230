"""``multas ano calcular`` on a realistic RenovaBio year: 163 obligated distributors (as the
ANP reported for 2024), B3's real daily 2024 quotes (tests/dados/cbio-b3-2024.csv), invented
per-distributor figures, notices included. Issue 19's bar: under 10 s on 2 cores.

Prints the best of 3 wall-clock runs of the whole command (start-up, reading, the fines, the
notices' PDFs, the summary), the same with ``--salvar`` into a new SQLite database each time
(the ledger's years and the processos the year opens, spec § 6.3 v4: one ``anp`` per fined
distributor), the number of notices and of processos opened, and the share of the time the notices take
(the same run without them: a second command, ``--sem-notificacoes`` is not an option, so the
bench times the library's two halves in-process too).

Usage: python bench/ano.py [N]   (default 163 distributors)
"""

from __future__ import annotations

import csv
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RAIZ = Path(__file__).resolve().parents[1]
COTACOES = RAIZ / "tests" / "dados" / "cbio-b3-2024.csv"
MULTAS = str(Path(sys.executable).parent / "multas")
RODADAS = 3
AMBIENTE = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _cnpj(raiz: int) -> str:
    """A CNPJ with the right check digits (the year refuses any other)."""
    from multas.nucleo.cnpj import digitos_verificadores

    base = f"{raiz:08d}0001"
    return base + digitos_verificadores(base)


def distribuidores(n: int, caminho: Path, semente: int = 2024) -> None:
    g = random.Random(semente)
    with caminho.open("w", encoding="utf-8", newline="") as arquivo:
        escritor = csv.writer(arquivo)
        escritor.writerow(
            [
                "cnpj",
                "nome",
                "meta_publicada",
                "falta_anterior",
                "cbios_aposentados",
                "meta_anterior_cumprida",
                "faturamento_ano_meta",
                "faturamento_ano_anterior",
            ]
        )
        for i in range(n):
            meta = int(g.lognormvariate(11, 1.5)) + 100
            falta_anterior = g.choice([0] * 8 + [g.randint(1, meta // 5)])
            cumprido = g.random()
            aposentados = meta if cumprido < 0.6 else int(meta * g.uniform(0.3, 0.99))
            fat = g.random() < 0.5
            escritor.writerow(
                [
                    _cnpj(10_000_000 + i),
                    f"Distribuidora {i}",
                    meta,
                    falta_anterior,
                    aposentados,
                    "" if falta_anterior else g.choice(["sim", "não"]),
                    g.randint(10**8, 10**11) if fat else "",
                    g.randint(10**8, 10**11) if fat else "",
                ]
            )


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 163
    with tempfile.TemporaryDirectory() as pasta:
        entrada = Path(pasta) / "distribuidoras.csv"
        distribuidores(n, entrada)
        tempos = []
        for rodada in range(RODADAS):
            saida = Path(pasta) / f"saida{rodada}"
            inicio = time.perf_counter()
            subprocess.run(
                [
                    MULTAS,
                    "ano",
                    "calcular",
                    str(entrada),
                    "--ano",
                    "2024",
                    "--cotacoes",
                    str(COTACOES),
                    "--saida",
                    str(saida),
                    "--data-notificacao",
                    "2025-03-03",
                ],
                check=True,
                stdout=subprocess.DEVNULL,
                env=AMBIENTE,
            )
            tempos.append(time.perf_counter() - inicio)
        salvando, saida_salva = [], ""
        for rodada in range(RODADAS):
            inicio = time.perf_counter()
            feito = subprocess.run(
                [
                    MULTAS,
                    "ano",
                    "calcular",
                    str(entrada),
                    "--ano",
                    "2024",
                    "--cotacoes",
                    str(COTACOES),
                    "--saida",
                    str(Path(pasta) / f"salva{rodada}"),
                    "--data-notificacao",
                    "2025-03-03",
                    "--salvar",
                    "--banco",
                    f"sqlite:///{Path(pasta) / f'm{rodada}.db'}",
                ],
                check=True,
                capture_output=True,
                text=True,
                env=AMBIENTE,
            )
            salvando.append(time.perf_counter() - inicio)
            saida_salva = feito.stdout.strip().splitlines()[-1]
        notificacoes = len(list((Path(pasta) / "saida0" / "notificacoes").iterdir()))
        # in-process: the fines alone, then the notices alone
        from multas.nucleo.arquivos import LINHA_DE_COMANDO
        from multas.nucleo.ciclo.planilha import ler_planilha
        from multas.nucleo.cotacoes import ler_serie
        from multas.nucleo.legislacao import carregar
        from multas.servicos.ano import calcular_ano
        from multas.servicos.ano import notificacoes as gerar

        legislacao = carregar()
        lidas = ler_planilha(COTACOES.read_bytes(), COTACOES.name, False, LINHA_DE_COMANDO)
        serie = ler_serie(lidas.linhas, lidas.locais, lidas.leitura)
        lida = ler_planilha(entrada.read_bytes(), entrada.name, False, LINHA_DE_COMANDO)
        inicio = time.perf_counter()
        resultado = calcular_ano(
            lida.linhas, lida.locais, lida.leitura, 2024, serie, legislacao, com_calculo=True
        )
        t_multas = time.perf_counter() - inicio
        # the notices on one core and on all of them (issue 36, item 5), interleaved
        from multas.servicos.em_paralelo import nucleos

        t_um, t_todos = [], []
        for _ in range(RODADAS):
            inicio = time.perf_counter()
            pdfs = list(gerar(resultado, 2024, legislacao, None))
            t_um.append(time.perf_counter() - inicio)
            inicio = time.perf_counter()
            paralelos = list(gerar(resultado, 2024, legislacao, None, processos=nucleos()))
            t_todos.append(time.perf_counter() - inicio)
        assert paralelos == pdfs, "os PDFs em paralelo diferem dos de um núcleo"
        t_pdfs = min(t_um)
    print(f"multas ano calcular, {n} distribuidores, cotações diárias de 2024 (B3)")
    print(f"  comando inteiro, melhor de {RODADAS}: {min(tempos):.2f} s (meta: < 10 s)")
    print(f"  com --salvar, melhor de {RODADAS}: {min(salvando):.2f} s (meta: < 10 s)")
    print(f"    {saida_salva}")
    print(f"  {notificacoes} notificações em PDF")
    print(
        f"  no mesmo processo: as multas {t_multas:.2f} s; as {len(pdfs)} notificações {t_pdfs:.2f} s"
    )
    print(
        f"  as notificações em {nucleos()} processos: {min(t_todos):.2f} s, "
        f"{t_pdfs / min(t_todos):.2f}× um núcleo (os mesmos bytes)"
    )


if __name__ == "__main__":
    main()
