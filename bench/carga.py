"""A bounded loopback load on ``multas servir`` (issue 10): ``--segundos`` (60) of requests at
``POST /api/v1/calcular``, then as long of saves (``POST /api/v1/casos``), from ``--clientes``
keep-alive connections; prints requests per second, p50 and p99 latency, and the errors
(anything but 200/201, and connections that failed). ``--workers 2`` runs uvicorn with two
worker processes (the machine has 2 cores).

    .venv/bin/python bench/carga.py                # 1 worker, SQLite in a temporary folder
    .venv/bin/python bench/carga.py --workers 2
    .venv/bin/python bench/carga.py --banco postgresql+psycopg://...   # saves in PostgreSQL

The load generator is asyncio on raw HTTP/1.1 (stdlib only); traffic goes only to 127.0.0.1,
each phase stops after ``--segundos`` or ``--maximo`` requests, whichever comes first. The
server runs open (loopback, no users), with no rate limit, as a single local user would.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from servidor import corpos, esperar, ms, percentil, porta_livre


def pedido(caminho: str, corpo: bytes) -> bytes:
    cabecalho = (
        f"POST {caminho} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(corpo)}\r\n\r\n"
    )
    return cabecalho.encode() + corpo


@dataclass
class Medida:
    tempos: list[float] = field(default_factory=list)
    status: dict[str, int] = field(default_factory=dict)
    falhas: int = 0  # connections reset or refused
    segundos: float = 0.0

    @property
    def erros(self) -> int:
        return self.falhas + sum(n for s, n in self.status.items() if s not in ("200", "201"))


async def cliente(
    porta: int, pedidos: list[bytes], prazo: float, restantes: list[int], medida: Medida
) -> None:
    i = 0
    while time.monotonic() < prazo and restantes[0] > 0:
        try:
            leitor, escritor = await asyncio.open_connection("127.0.0.1", porta)
        except OSError:
            medida.falhas += 1
            await asyncio.sleep(0.05)
            continue
        try:
            while time.monotonic() < prazo and restantes[0] > 0:
                restantes[0] -= 1
                inicio = time.perf_counter()
                escritor.write(pedidos[i % len(pedidos)])
                i += 1
                await escritor.drain()
                cabecalho = await leitor.readuntil(b"\r\n\r\n")
                linhas = cabecalho.split(b"\r\n")
                tamanho = next(
                    (
                        int(linha.split(b":", 1)[1])
                        for linha in linhas
                        if linha.lower().startswith(b"content-length:")
                    ),
                    0,
                )
                await leitor.readexactly(tamanho)
                medida.tempos.append(time.perf_counter() - inicio)
                status = linhas[0].split(b" ")[1].decode()
                medida.status[status] = medida.status.get(status, 0) + 1
                if any(linha.lower() == b"connection: close" for linha in linhas):
                    break
        except (OSError, asyncio.IncompleteReadError):
            medida.falhas += 1
        finally:
            escritor.close()


async def fase(
    porta: int, pedidos: list[bytes], clientes: int, segundos: float, maximo: int
) -> Medida:
    medida = Medida()
    restantes = [maximo]
    inicio = time.perf_counter()
    prazo = time.monotonic() + segundos
    await asyncio.gather(
        *(cliente(porta, pedidos, prazo, restantes, medida) for _ in range(clientes))
    )
    medida.segundos = time.perf_counter() - inicio
    return medida


def linha(nome: str, m: Medida) -> str:
    if not m.tempos:
        return f"  {nome}: nenhuma resposta ({m.falhas} falhas de conexão)"
    por_segundo = f"{len(m.tempos) / m.segundos:,.0f}".replace(",", ".")
    total = f"{len(m.tempos):,}".replace(",", ".")
    return (
        f"  {nome}: {por_segundo} req/s ({total} em {m.segundos:.0f} s), "
        f"p50 {ms(percentil(m.tempos, 50))}, p99 {ms(percentil(m.tempos, 99))}, "
        f"erros {m.erros} (status {dict(sorted(m.status.items()))})"
    )


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    args.add_argument("--workers", type=int, default=1, help="processos uvicorn (1 ou 2)")
    args.add_argument("--segundos", type=float, default=60.0, help="duração de cada fase")
    args.add_argument("--clientes", type=int, default=16, help="conexões keep-alive")
    args.add_argument("--maximo", type=int, default=2_000_000, help="pedidos no máximo, por fase")
    args.add_argument(
        "--banco", default=None, help="MULTAS_DATABASE_URL (padrão: SQLite temporário)"
    )
    args.add_argument("--json", action="store_true", help="também uma linha JSON no fim")
    opcoes = args.parse_args()

    cargas = corpos()
    calcular = [pedido("/api/v1/calcular", c) for c in cargas]
    salvar = [pedido("/api/v1/casos", c) for c in cargas]
    porta = porta_livre()
    with tempfile.TemporaryDirectory() as pasta:
        banco = opcoes.banco or f"sqlite:///{pasta}/carga.db"
        ambiente = {**os.environ, "MULTAS_DATABASE_URL": banco, "MULTAS_LIMITE_REQUISICOES": "0"}
        servidor = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "multas",
                "servir",
                "--porta",
                str(porta),
                "--trabalhadores",
                str(opcoes.workers),
            ],
            env=ambiente,
            cwd=pasta,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            esperar(porta, 60)
            asyncio.run(fase(porta, calcular, 2, 3, 300))  # warm-up (each worker)
            medidas = {
                "POST /api/v1/calcular": asyncio.run(
                    fase(porta, calcular, opcoes.clientes, opcoes.segundos, opcoes.maximo)
                ),
                "POST /api/v1/casos (salvar)": asyncio.run(
                    fase(porta, salvar, opcoes.clientes, opcoes.segundos, opcoes.maximo)
                ),
            }
        finally:
            servidor.terminate()
            servidor.wait(timeout=60)
    backend = "PostgreSQL" if banco.startswith("postgres") else "SQLite"
    print(
        f"carga em 127.0.0.1: {opcoes.workers} processo(s) uvicorn, {os.cpu_count()} núcleos, "
        f"{opcoes.clientes} conexões, {opcoes.segundos:.0f} s por fase, casos em {backend}"
    )
    for nome, medida in medidas.items():
        print(linha(nome, medida))
    if opcoes.json:
        print(
            json.dumps(
                {
                    nome: {
                        "req_s": round(len(m.tempos) / m.segundos, 1),
                        "p50_ms": round(percentil(m.tempos, 50) * 1000, 2) if m.tempos else None,
                        "p99_ms": round(percentil(m.tempos, 99) * 1000, 2) if m.tempos else None,
                        "erros": m.erros,
                    }
                    for nome, m in medidas.items()
                }
            )
        )


if __name__ == "__main__":
    main()
