"""Throughput and latency of ``POST /api/v1/calcular`` on loopback, against the engine alone,
measured in one run.

Starts ``multas servir`` (one uvicorn process, SQLite in a temporary folder) on a free
loopback port, then:
  1. one client, sequential requests: the latency of a single case (p50/p99);
  2. a bounded concurrent load: CLIENTES keep-alive connections × PEDIDOS requests each:
     requests per second and p50/p99 latency;
  3. the engine alone, in this process: calls per second of ``calcular(ler_json(corpo))``.
The three are interleaved over RODADAS rounds and the medians printed (this 2-core machine
is noisy; a single round can be off by a third).

The load generator is asyncio on raw HTTP/1.1 (stdlib only): a thread-per-client generator
costs more CPU than the server on a 2-core machine and would measure itself. The cases rotate
over the six regimes' worked examples. Every loop is bounded in count and in time
(TEMPO_MAXIMO); traffic goes only to 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import http.client
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

RAIZ = Path(__file__).resolve().parents[1]
RODADAS = 3
CLIENTES = 8
PEDIDOS = 200  # per client and round
SEQUENCIAIS = 300
MOTOR = 1500
TEMPO_MAXIMO = 120.0  # seconds, for each phase


def corpos() -> list[bytes]:
    return [p.read_bytes() for p in sorted((RAIZ / "exemplos").glob("*.json"))]


def pedido(corpo: bytes) -> bytes:
    cabecalho = (
        "POST /api/v1/calcular HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        f"Content-Type: application/json\r\nContent-Length: {len(corpo)}\r\n\r\n"
    )
    return cabecalho.encode() + corpo


def porta_livre() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        porta: int = s.getsockname()[1]
        return porta


def esperar(porta: int, limite: float = 30.0, caminho: str = "/api/v1/versao") -> None:
    """Until ``caminho`` answers 200 (a server with users: the login page, as the API asks for
    a token)."""
    fim = time.monotonic() + limite
    while time.monotonic() < fim:
        try:
            conexao = http.client.HTTPConnection("127.0.0.1", porta, timeout=2)
            conexao.request("GET", caminho)
            if conexao.getresponse().status == 200:
                return
        except OSError:
            time.sleep(0.1)
    raise SystemExit("o servidor não respondeu")


async def cliente(
    porta: int, pedidos: list[bytes], n: int, prazo: float, tempos: list[float]
) -> None:
    leitor, escritor = await asyncio.open_connection("127.0.0.1", porta)
    try:
        for i in range(n):
            if time.monotonic() > prazo:
                break
            inicio = time.perf_counter()
            escritor.write(pedidos[i % len(pedidos)])
            await escritor.drain()
            cabecalho = await leitor.readuntil(b"\r\n\r\n")
            linhas = cabecalho.split(b"\r\n")
            tamanho = next(
                int(linha.split(b":", 1)[1])
                for linha in linhas
                if linha.lower().startswith(b"content-length:")
            )
            corpo = await leitor.readexactly(tamanho)
            tempos.append(time.perf_counter() - inicio)
            if not linhas[0].startswith(b"HTTP/1.1 200"):
                raise SystemExit(f"{linhas[0]!r}: {corpo[:200]!r}")
    finally:
        escritor.close()


async def carga(
    porta: int, pedidos: list[bytes], clientes: int, n: int
) -> tuple[list[float], float]:
    tempos: list[float] = []
    prazo = time.monotonic() + TEMPO_MAXIMO
    inicio = time.perf_counter()
    await asyncio.gather(*(cliente(porta, pedidos, n, prazo, tempos) for _ in range(clientes)))
    return tempos, time.perf_counter() - inicio


def percentil(valores: list[float], p: float) -> float:
    ordenados = sorted(valores)
    return ordenados[min(len(ordenados) - 1, int(p / 100 * len(ordenados)))]


def ms(segundos: float) -> str:
    return f"{segundos * 1000:.2f} ms"


def motor_por_segundo(textos: list[str], n: int) -> float:
    from multas import calcular
    from multas.nucleo.json_exato import ler_json

    inicio = time.perf_counter()
    for i in range(n):
        calcular(ler_json(textos[i % len(textos)]))
    return n / (time.perf_counter() - inicio)


def main() -> None:
    cargas = corpos()
    pedidos = [pedido(c) for c in cargas]
    textos = [c.decode() for c in cargas]
    motor_por_segundo(textos, len(textos))  # rules and legislation loaded here too
    porta = porta_livre()
    sequenciais: list[list[float]] = []
    cargas_medidas: list[tuple[list[float], float]] = []
    motor: list[float] = []
    with tempfile.TemporaryDirectory() as pasta:
        ambiente = {**os.environ, "MULTAS_DATABASE_URL": f"sqlite:///{pasta}/bench.db"}
        servidor = subprocess.Popen(
            [sys.executable, "-m", "multas", "servir", "--porta", str(porta)],
            env=ambiente,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            esperar(porta)
            asyncio.run(carga(porta, pedidos, 2, 60))  # warm-up
            # rounds interleave the three measures, so each sees the same machine noise
            for _ in range(RODADAS):
                sequenciais.append(asyncio.run(carga(porta, pedidos, 1, SEQUENCIAIS))[0])
                cargas_medidas.append(asyncio.run(carga(porta, pedidos, CLIENTES, PEDIDOS)))
                motor.append(motor_por_segundo(textos, MOTOR))
        finally:
            servidor.terminate()
            servidor.wait(timeout=30)

    por_segundo = [len(tempos) / duracao for tempos, duracao in cargas_medidas]
    mediana = statistics.median
    print(
        f"POST /api/v1/calcular em 127.0.0.1: 1 processo uvicorn, {os.cpu_count()} núcleos; "
        f"medianas de {RODADAS} rodadas intercaladas"
    )
    print(
        f"  1 cliente, {SEQUENCIAIS} pedidos em sequência: "
        f"p50 {ms(mediana(percentil(t, 50) for t in sequenciais))}, "
        f"p99 {ms(mediana(percentil(t, 99) for t in sequenciais))}"
    )
    print(
        f"  {CLIENTES} clientes × {PEDIDOS} pedidos: {mediana(por_segundo):,.0f} pedidos/s "
        f"(de {min(por_segundo):,.0f} a {max(por_segundo):,.0f}), "
        f"p50 {ms(mediana(percentil(t, 50) for t, _ in cargas_medidas))}, "
        f"p99 {ms(mediana(percentil(t, 99) for t, _ in cargas_medidas))}"
    )
    print(
        f"  motor sozinho, neste processo: {mediana(motor):,.0f} cálculos/s "
        f"({ms(1 / mediana(motor))} por caso)"
    )
    razao = mediana(p / m for p, m in zip(por_segundo, motor, strict=True))
    print(
        f"  pedidos HTTP/s ÷ cálculos/s do motor sozinho = {razao:.2f} (mediana das razões por rodada)"
    )


if __name__ == "__main__":
    main()
