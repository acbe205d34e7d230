"""The regulator's database (issue 36, item 6), first version: N processos of a realistic mix,
imported through ``multas processo importar``, then the commands a regulator runs on them, each
timed as a fresh process, on SQLite and (when ``MULTAS_TEST_POSTGRES_URL`` names a server, as
``scripts/servicos_teste.sh`` prints it) PostgreSQL.

The mix, per 20 processos: 10 ``anp`` in defence (3 events), 4 ``anp`` decided and paid in part
(6 events, a fine), 2 ``anp`` with 52 events (the decision and 50 payments: the 10% with 50 or
more changes), 2 ``renovabio.lista`` on the list, 2 ``renovabio.balanco``. Every processo has a
reference and a CNPJ.

Timed: the import (processos/s), the whole work queue as CSV (``multas pendencias -f csv``)
twice: the day's first, which derives every processo and indexes it, and the next, read from
the index (their ratio is printed); the queue's first page of 50 items, as the API asks for
it, under four filters (the slowest); ``verificar`` in-process on 1 and on 2 cores (their
ratio is printed); the whole export (``multas processo exportar``), ``multas reavaliar`` (on
every core) and ``multas auditoria verificar``; ``reavaliar`` in-process on 1 and on 2 cores
(their ratio is printed); then, on the same database served by ``multas servir`` (the phases of
``bench/carga.py``, :data:`CLIENTES` clients for :data:`SEGUNDOS` s each):

- events at 1 and at 2 workers: each client on processos of its own (anp, in defence), appending
  the first-instance decision and undoing it, turn about (writes to different records; their
  ratio is printed);
- reads under a write flood, at 2 workers: half the clients read the queue's first page (``GET
  /api/v1/pendencias?limite=50``) while the other half append and undo events, against the same
  reads with no writer (the p50 and p99 of the reads, and their ratio).

Printed: each time, the rate, and the ratio of PostgreSQL to SQLite measured in the same run.

Usage: python bench/regulador.py [N] [--bancos sqlite,postgresql] [--partes K] [--fases ...]
(default: 2,000 processos, both databases, one file, every phase). At 1,000,000 the
regulator's run is ``--bancos postgresql --partes 10 --fases
importar,reavaliar,pagina,pendencias-indice,servidor``: the import in 10 files of 100,000 (as
the ANP would bring a year's processos, not a decade's in one transaction), ``reavaliar``
indexing the queue (the day's first queue does the same work), then the reads and the server.
"""

from __future__ import annotations

import argparse
import csv
import os
import subprocess
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from multas.servicos.relogio import agora

MULTAS = str(Path(sys.executable).parent / "multas")
#: the clients of the phases on the server, and each phase's seconds
CLIENTES = 16
SEGUNDOS = 15.0
#: the event each writer appends to a processo in defence, and undoes
DECISAO = ("ciencia_primeira_instancia", "2024-04-01")
#: the reads alone, and under the write flood
FASES_LEITURA = ("leituras", "leituras e escritas")


def _cnpj(i: int) -> str:
    from multas.nucleo.cnpj import digitos_verificadores

    base = f"{10_000_000 + i:08d}0001"
    return base + digitos_verificadores(base)


def _eventos(i: int) -> tuple[str, list[tuple[str, str, str]], str]:
    """(tipo, [(evento, data, valor)], valor_multa) of the i-th processo of the mix."""
    k = i % 20
    if k < 10:
        return (
            "anp",
            [
                ("infracao", "2024-01-02", ""),
                ("auto_infracao", "2024-02-01", ""),
                ("defesa", "2024-02-10", ""),
            ],
            "",
        )
    decidido = [
        ("infracao", "2023-01-02", ""),
        ("auto_infracao", "2023-02-01", ""),
        ("defesa", "2023-02-10", ""),
        ("ciencia_primeira_instancia", "2023-06-01", ""),
        ("renuncia_recurso", "2023-06-05", ""),
    ]
    if k < 14:
        return "anp", [*decidido, ("pagamento", "2023-06-20", "1000.00")], "100000.00"
    if k < 16:
        dia, pagamentos = date(2023, 7, 1), []
        for _ in range(50):
            pagamentos.append(("pagamento", dia.isoformat(), "100.00"))
            dia += timedelta(days=7)
        return "anp", [*decidido, *pagamentos], "1000000.00"
    if k < 18:
        return (
            "renovabio.lista",
            [
                ("fim_prazo_meta", "2025-12-31", ""),
                ("decisao_primeira_instancia", "2026-03-10", ""),
                ("inclusao_lista", "2026-03-20", ""),
            ],
            "",
        )
    return "renovabio.balanco", [("inclusao_lista", "2026-03-20", "")], ""


def gerar(n: int, caminho: Path, inicio: int = 0) -> int:
    """The processos ``inicio`` to ``inicio + n - 1`` of the mix, as a processos file: its
    rows."""
    linhas = 0
    with caminho.open("w", encoding="utf-8", newline="") as arquivo:
        escritor = csv.writer(arquivo)
        escritor.writerow(["referencia", "tipo", "cnpj", "valor_multa", "evento", "data", "valor"])
        for i in range(inicio, inicio + n):
            tipo, eventos, multa = _eventos(i)
            for evento, dia, valor in eventos:
                escritor.writerow(
                    [f"48610.{i:07d}/2024-11", tipo, _cnpj(i), multa, evento, dia, valor]
                )
                linhas += 1
    return linhas


def _rodar(banco: str, *argumentos: str) -> float:
    """The command's seconds; what it logged about the queue's index left unwritten (the
    database busy) is printed, as it changes the next command's time."""
    inicio = time.perf_counter()
    feito = subprocess.run(
        [MULTAS, *argumentos, "--banco", banco],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    segundos = time.perf_counter() - inicio
    for linha in feito.stderr.splitlines():
        if linha.startswith("fila:"):
            print(f"  multas {argumentos[0]}: {linha}")
    return segundos


def _primeira_pagina(banco: str) -> float:
    """The queue's first page (50 items), as the API asks for it (the same function, in this
    process), under each of a few filters: the slowest."""
    from multas.nucleo.ciclo.pendencias import ler_filtros
    from multas.servicos.gestao import Ciclo
    from multas.servicos.persistencia import Repositorio
    from multas.servicos.relogio import hoje

    repositorio = Repositorio(banco)
    ciclo = Ciclo(repositorio)
    ciclo.pendencias(ler_filtros(hoje()), (50, 0))  # the connection and the rules, loaded
    tempos = []
    for filtros in ({}, {"responsavel": "anp"}, {"estado": "defesa"}, {"cnpj": _cnpj(7)}):
        inicio = time.perf_counter()
        ciclo.pendencias(ler_filtros(hoje(), **filtros), (50, 0))
        tempos.append(time.perf_counter() - inicio)
    repositorio.fechar()
    return max(tempos)


def _verificar(banco: str, processos: int) -> float:
    """``multas auditoria verificar`` as the command runs it (the same function, in this
    process), its processos derived in ``processos`` workers."""
    from multas.servicos.gestao import Ciclo
    from multas.servicos.persistencia import Repositorio

    repositorio = Repositorio(banco)
    inicio = time.perf_counter()
    Ciclo(repositorio).verificar(processos=processos)
    segundos = time.perf_counter() - inicio
    repositorio.fechar()
    return segundos


class Escritor:
    """One client's processos, each given the first-instance decision, then undone, in turn
    (bench/carga.py's :class:`Roteiro`)."""

    def __init__(self, processos: list[int]) -> None:
        self.processos = processos
        self.decididos: set[int] = set()
        self.k = 0

    def proximo(self) -> object:
        from carga import desfazer, novo_evento

        atual = self.processos[self.k % len(self.processos)]
        if atual in self.decididos:
            return desfazer(atual, DECISAO[0], ("422",))
        return novo_evento(atual, *DECISAO, ("422",))

    def resposta(self, pedido: object, status: str, corpo: bytes) -> None:
        atual = self.processos[self.k % len(self.processos)]
        undo = str(getattr(pedido, "rotulo", "")).startswith("DELETE")
        if status in ("200", "201", "422"):  # a 422: it was already so
            (self.decididos.discard if undo else self.decididos.add)(atual)
        self.k += 1

    def falhou(self) -> None:
        self.k += 1


class Leitor:
    """The queue's first page, again and again."""

    def proximo(self) -> object:
        from carga import Pedido, requisicao

        return Pedido("GET /api/v1/pendencias", requisicao("GET", "/api/v1/pendencias?limite=50"))

    def resposta(self, pedido: object, status: str, corpo: bytes) -> None:
        pass

    def falhou(self) -> None:
        pass


def _em_defesa(banco: str, clientes: int) -> list[list[int]]:
    """Each client's processos: anp ones with 3 events (in defence), 8 each."""
    from sqlalchemy import create_engine, text

    from multas.servicos.persistencia import normalizar_url

    engine = create_engine(normalizar_url(banco))
    with engine.connect() as conexao:
        ids = list(
            conexao.execute(
                text(
                    "SELECT p.id FROM processos p WHERE p.tipo = 'anp' AND (SELECT count(*) "
                    "FROM processo_eventos e WHERE e.processo_id = p.id) = 3 ORDER BY p.id "
                    "LIMIT :n"
                ),
                {"n": clientes * 8},
            ).scalars()
        )
    engine.dispose()
    return [ids[i::clientes] for i in range(clientes)]


def _no_servidor(
    banco: str, workers: int, fases: dict[str, tuple[object, int]]
) -> dict[str, object]:
    """Serve ``banco`` with ``workers`` and run each phase (a function of the client's number
    to its roteiro, and how many clients) for :data:`SEGUNDOS`: the measures, by phase."""
    import asyncio

    from carga import AQUECIMENTO, carregar, esperar, iniciar_servidor, porta_livre

    porta = porta_livre()
    medidas: dict[str, object] = {}
    with tempfile.TemporaryDirectory() as pasta:
        servidor = iniciar_servidor(banco, porta, pasta, Path(pasta) / "servidor.log", workers)
        try:
            esperar(porta, 120)
            for nome, (roteiros, clientes) in fases.items():
                n, c, s = AQUECIMENTO
                asyncio.run(carregar(porta, roteiros, c, s, n))  # type: ignore[arg-type]
                medidas[nome] = asyncio.run(
                    carregar(porta, roteiros, clientes, SEGUNDOS, 10**9)  # type: ignore[arg-type]
                )
        finally:
            servidor.terminate()
            try:
                servidor.wait(timeout=120)
            except subprocess.TimeoutExpired:  # requests still running: said, not hidden
                servidor.kill()
                servidor.wait()
                print(f"o servidor ({workers} workers) não parou em 120 s: encerrado à força")
    return medidas


def _servidor(banco: str) -> dict[str, float]:
    """Events at 1 and 2 workers, and reads with and without a write flood (at 2)."""
    from carga import percentil

    grupos = _em_defesa(banco, CLIENTES)
    metade = CLIENTES // 2

    def escritores(i: int) -> Escritor:
        return Escritor(grupos[i])

    def misto(i: int) -> object:
        return Leitor() if i < metade else Escritor(grupos[i])

    def leitores(_: int) -> object:
        return Leitor()

    um = _no_servidor(banco, 1, {"escritas": (escritores, CLIENTES)})
    dois = _no_servidor(
        banco,
        2,
        {
            "escritas": (escritores, CLIENTES),
            "leituras": (leitores, metade),  # as many readers as under the flood
            "leituras e escritas": (misto, CLIENTES),
        },
    )
    resultado: dict[str, float] = {}
    for rotulo, medida in (("1 worker", um["escritas"]), ("2 workers", dois["escritas"])):
        resultado[f"eventos por segundo, {rotulo}"] = medida.por_segundo  # type: ignore[attr-defined]
        resultado[f"erros, eventos, {rotulo}"] = medida.erros  # type: ignore[attr-defined]
    for fase in FASES_LEITURA:
        tempos = dois[fase].por_rotulo.get("GET /api/v1/pendencias", [])  # type: ignore[attr-defined]
        resultado[f"{fase}: a primeira página, p50 (ms)"] = percentil(tempos, 50) * 1000
        resultado[f"{fase}: a primeira página, p99 (ms)"] = percentil(tempos, 99) * 1000
        resultado[f"erros, {fase}"] = dois[fase].erros  # type: ignore[attr-defined]
    return resultado


def _reavaliar(banco: str, processos: int) -> float:
    """``multas reavaliar`` as the command runs it (the same function, in this process), its
    processos derived in ``processos`` workers."""
    from multas.servicos.gestao import Ciclo
    from multas.servicos.persistencia import Repositorio
    from multas.servicos.reavaliar import reavaliar

    repositorio = Repositorio(banco)
    inicio = time.perf_counter()
    reavaliar(Ciclo(repositorio), processos=processos)
    segundos = time.perf_counter() - inicio
    repositorio.fechar()
    return segundos


#: the phases (``--fases``, run in the order given; by default, this order) and what each times
FASES: dict[str, tuple[str, ...]] = {
    "importar": ("importar",),
    "pendencias": ("pendencias (CSV inteiro, a primeira do dia)",),
    "pendencias-indice": ("pendencias (CSV inteiro, do índice)",),
    "pagina": ("a primeira página da fila (50 itens, o pior de 4 filtros)",),
    "exportar": ("exportar",),
    "reavaliar": ("reavaliar",),
    "verificar": ("auditoria verificar",),
    "nucleos": (
        "verificar, 1 núcleo",
        "verificar, 2 núcleos",
        "reavaliar, 1 núcleo",
        "reavaliar, 2 núcleos",
    ),
}


def _importar(banco: str, arquivos: list[Path]) -> float:
    """``multas processo importar`` of each file, one after the other: their seconds."""
    return sum(_rodar(banco, "processo", "importar", str(a)) for a in arquivos)


def medir(banco: str, arquivos: list[Path], fases: list[str]) -> dict[str, float]:
    """Each phase of ``fases`` (:data:`FASES`), in the order given: its seconds."""
    pasta = arquivos[0].parent
    fazer: dict[str, Any] = {
        "importar": lambda: _importar(banco, arquivos),
        # the day's first queue derives every processo and indexes it; the next reads the index
        "pendencias (CSV inteiro, a primeira do dia)": lambda: _rodar(
            banco, "pendencias", "-f", "csv"
        ),
        "pendencias (CSV inteiro, do índice)": lambda: _rodar(banco, "pendencias", "-f", "csv"),
        "a primeira página da fila (50 itens, o pior de 4 filtros)": lambda: _primeira_pagina(
            banco
        ),
        "exportar": lambda: _rodar(banco, "processo", "exportar", "-o", str(pasta / "x.csv")),
        "reavaliar": lambda: _rodar(banco, "reavaliar"),
        "auditoria verificar": lambda: _rodar(banco, "auditoria", "verificar"),
        "verificar, 1 núcleo": lambda: _verificar(banco, 1),
        "verificar, 2 núcleos": lambda: _verificar(banco, 2),
        "reavaliar, 1 núcleo": lambda: _reavaliar(banco, 1),
        "reavaliar, 2 núcleos": lambda: _reavaliar(banco, 2),
    }
    medidas: dict[str, float] = {}
    for fase in fases:
        for etapa in FASES.get(fase, ()):
            medidas[etapa] = fazer[etapa]()
            print(f"  ({agora():%H:%M:%S} UTC) {etapa}: {medidas[etapa]:.2f} s", flush=True)
    return medidas


def _argumentos() -> argparse.Namespace:
    leitor = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    leitor.add_argument("n", nargs="?", type=int, default=2000, help="processos (2.000)")
    leitor.add_argument(
        "--bancos",
        default="sqlite,postgresql",
        help="sqlite, postgresql ou os dois (o PostgreSQL de MULTAS_TEST_POSTGRES_URL)",
    )
    leitor.add_argument(
        "--partes", type=int, default=1, help="importar em K arquivos, um depois do outro (1)"
    )
    leitor.add_argument(
        "--fases",
        default=",".join([*FASES, "servidor"]),
        help=f"as fases, separadas por vírgula: {', '.join([*FASES, 'servidor'])} (todas)",
    )
    argumentos = leitor.parse_args()
    argumentos.fases = argumentos.fases.split(",")
    argumentos.bancos = argumentos.bancos.split(",")
    desconhecidas = set(argumentos.fases) - {*FASES, "servidor"}
    if desconhecidas or not set(argumentos.bancos) <= {"sqlite", "postgresql"}:
        leitor.error(f"fase ou banco desconhecido: {sorted(desconhecidas) or argumentos.bancos}")
    if argumentos.n < 1 or not 1 <= argumentos.partes <= argumentos.n:
        leitor.error("N deve ser positivo, e --partes entre 1 e N")
    return argumentos


def main() -> None:
    argumentos = _argumentos()
    n, partes, fases = argumentos.n, argumentos.partes, argumentos.fases
    with tempfile.TemporaryDirectory() as pasta:
        arquivos, linhas = [], 0
        for k in range(partes):
            inicio, fim = n * k // partes, n * (k + 1) // partes
            arquivos.append(Path(pasta) / f"processos-{k}.csv")
            linhas += gerar(fim - inicio, arquivos[-1], inicio)
        bancos = {}
        if "sqlite" in argumentos.bancos:
            bancos["SQLite"] = f"sqlite:///{Path(pasta) / 'regulador.db'}"
        pg = os.environ.get("MULTAS_TEST_POSTGRES_URL")
        if pg and "postgresql" in argumentos.bancos:
            from sqlalchemy import create_engine, text

            esquema = f"regulador_{os.getpid()}"
            with create_engine(pg).begin() as c:
                c.execute(text(f"CREATE SCHEMA {esquema}"))
            separador = "&" if "?" in pg else "?"
            bancos["PostgreSQL"] = f"{pg}{separador}options=-csearch_path%3D{esquema}"
        tempos: dict[str, dict[str, float]] = {}
        servidor: dict[str, dict[str, float]] = {}
        try:
            for nome, url in bancos.items():
                print(f"{nome}:", flush=True)
                tempos[nome] = medir(url, arquivos, fases)
                if "servidor" in fases:
                    servidor[nome] = _servidor(url)
        finally:
            if "PostgreSQL" in bancos:
                with create_engine(pg).begin() as c:
                    c.execute(text(f"DROP SCHEMA {esquema} CASCADE"))
    em_partes = f", importado em {partes} arquivos" if partes > 1 else ""
    print(f"{n} processos ({linhas} eventos), o arquivo em CSV{em_partes}")
    for nome, medidas in tempos.items():
        print(f"  {nome}:")
        for etapa, segundos in medidas.items():
            taxa = f" ({n / segundos:,.0f} processos/s)".replace(",", ".")
            if etapa.startswith("a primeira página"):
                taxa = f" ({segundos * 1000:.0f} ms)"
            print(f"    {etapa}: {segundos:.2f} s{taxa}")
    for nome, medidas in tempos.items():
        razoes = (
            (
                "a fila do índice ÷ a primeira do dia",
                *FASES["pendencias"],
                *FASES["pendencias-indice"],
            ),
            ("verificar em 2 núcleos ÷ em 1", "verificar, 1 núcleo", "verificar, 2 núcleos"),
            ("reavaliar em 2 núcleos ÷ em 1", "reavaliar, 1 núcleo", "reavaliar, 2 núcleos"),
        )
        for rotulo, um, dois in razoes:
            if um in medidas and dois in medidas:
                print(f"  {nome}, {rotulo}: {medidas[dois] / medidas[um]:.2f}×")
    for nome, medidas in servidor.items():
        print(f"  {nome}, no servidor ({CLIENTES} clientes, {SEGUNDOS:.0f} s por fase):")
        for etapa, valor in medidas.items():
            print(f"    {etapa}: {valor:.1f}")
        um, dois = (medidas[f"eventos por segundo, {w}"] for w in ("1 worker", "2 workers"))
        print(f"  {nome}, eventos com 2 workers ÷ com 1: {dois / um:.2f}×")
        for p in ("p50", "p99"):
            so, sob = (medidas[f"{f}: a primeira página, {p} (ms)"] for f in FASES_LEITURA)
            print(f"  {nome}, a primeira página sob escritas ÷ sozinha, {p}: {sob / so:.2f}×")
    if len(tempos) == 2:
        print("  PostgreSQL ÷ SQLite, na mesma rodada:")
        for etapa in tempos["SQLite"]:
            print(f"    {etapa}: {tempos['PostgreSQL'][etapa] / tempos['SQLite'][etapa]:.2f}×")


if __name__ == "__main__":
    main()
