"""The queue's first page under a write flood, this code against another (issue 36): one
database of N processos of ``bench/regulador.py``'s mix, imported and indexed once, then
``bench/regulador.py``'s reads alone and reads under writes (2 workers, its clients and
seconds), each after ``multas reavaliar`` indexed every processo, by this checkout's code and
by another's (``--outro``: a folder with the
other code's ``src``, e.g. ``git worktree add /tmp/antes REV``), in turn, ``--rodadas``
times. Prints each run's p50 and p99 and the ratios of the two codes in the same run.

Usage: python bench/pagina_sob_escritas.py --outro /tmp/antes/src [N] [--rodadas 2]
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

import regulador as r


def _sob_escritas(banco: str, src: str | None) -> dict[str, float]:
    """The reads alone and under writes, served by the code in ``src`` (this one: ``None``)."""
    from carga import percentil

    grupos = r._em_defesa(banco, r.CLIENTES)
    metade = r.CLIENTES // 2
    antes = os.environ.get("PYTHONPATH")
    if src is not None:
        os.environ["PYTHONPATH"] = src  # the commands and the server import that code
    try:
        # every processo indexed by that code (the index's key includes the code's version)
        r._rodar(banco, "reavaliar")
        medidas = r._no_servidor(
            banco,
            2,
            {
                "leituras": (lambda _: r.Leitor(), metade),
                "leituras e escritas": (
                    lambda i: r.Leitor() if i < metade else r.Escritor(grupos[i]),
                    r.CLIENTES,
                ),
            },
        )
    finally:
        if antes is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = antes
    saida: dict[str, float] = {}
    for fase, medida in medidas.items():
        tempos = medida.por_rotulo.get("GET /api/v1/pendencias", [])  # type: ignore[attr-defined]
        saida[f"{fase}, p50"] = percentil(tempos, 50) * 1000
        saida[f"{fase}, p99"] = percentil(tempos, 99) * 1000
        saida[f"{fase}, leituras"] = len(tempos)
    return saida


def main() -> None:
    argumentos = argparse.ArgumentParser()
    argumentos.add_argument("n", nargs="?", type=int, default=10_000)
    argumentos.add_argument("--outro", required=True, help="o src do outro código")
    argumentos.add_argument("--rodadas", type=int, default=2)
    a = argumentos.parse_args()
    with tempfile.TemporaryDirectory() as pasta:
        arquivo = Path(pasta) / "processos.csv"
        r.gerar(a.n, arquivo)
        banco = os.environ.get("MULTAS_TEST_POSTGRES_URL")
        esquema = f"pagina_{os.getpid()}"
        if banco:
            from sqlalchemy import create_engine, text

            with create_engine(banco).begin() as c:
                c.execute(text(f"CREATE SCHEMA {esquema}"))
            separador = "&" if "?" in banco else "?"
            url = f"{banco}{separador}options=-csearch_path%3D{esquema}"
        else:
            url = f"sqlite:///{Path(pasta) / 'pagina.db'}"
        try:
            r._rodar(url, "processo", "importar", str(arquivo))
            print(f"{a.n} processos, {'PostgreSQL' if banco else 'SQLite'}, 2 workers")
            for rodada in range(a.rodadas):
                outro = _sob_escritas(url, a.outro)
                este = _sob_escritas(url, None)
                print(f"  rodada {rodada + 1} (ms; o outro código → este):")
                for chave, valor in este.items():
                    razao = "" if chave.endswith("leituras") else f" ({valor / outro[chave]:.2f}×)"
                    print(f"    {chave}: {outro[chave]:.0f} → {valor:.0f}{razao}")
        finally:
            if banco:
                with create_engine(banco).begin() as c:
                    c.execute(text(f"DROP SCHEMA {esquema} CASCADE"))


if __name__ == "__main__":
    main()
