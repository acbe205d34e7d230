"""A bounded loopback load on ``multas servir`` (issues 10 and 15): phase after phase, from
``--clientes`` keep-alive connections, each for ``--segundos`` (20) or ``--maximo`` requests,
whichever comes first; prints, per phase, requests per second, p50 and p99 latency, the errors
(any status the phase does not expect, and connections that failed or timed out), the refusals
the phase expects (a 422 of § 6 when clients race on one processo) and the server's peak memory.

The phases (``--fases``, all by default):

- ``calcular``: ``POST /api/v1/calcular``, the six worked examples in rotation;
- ``casos``: the same, saved (``POST /api/v1/casos``);
- ``eventos``: each client walks its own processos (anp): creates one (``POST
  /api/v1/processos``, the infração), appends the auto, the first-instance decision and an
  appeal, undoes the appeal (``DELETE .../eventos/ultimo?evento=recurso``), appends a waiver,
  the final decision and the payment, then starts another: 8 writes per processo;
- ``eventos-mesmo``: every client on ONE processo (its auto and first-instance decision
  already stored): a client that last saw the decision appends ``recurso`` or
  ``renuncia_recurso`` (one excludes the other), one that last saw either undoes it (``?evento=``
  names it). A 422 (§ 6 refusing an event against a list another client just changed, or an
  undo of an event that another client already undid) is expected and counted apart; the client
  then reads the processo again (``GET``, counted as an error only if it fails, and left out of
  requests/s and the latencies, which are of the writes);
- ``carteira-20``, ``carteira-200``: ``POST /api/v1/carteira/importar?formato=csv``, 20 or 200
  rows (10 or 100 new CNPJs × 2024 and 2025) per request, every request with CNPJs of its own;
- ``carteira-substituir``: every request replaces the same 10 CNPJs × 2 years (stored before the
  phase), with other retired CBIOs;
- ``carteira-100k``: client 0 imports 99,998 rows (the server's limit; new years in the
  warm-up, the same years replaced in the phase) while the others save cases: the saves' p99
  and longest wait say how long another user waits for a long import (issue 32, item 1).

The import phases count a 429 apart: the server runs one import of a file at a time
(:mod:`multas.servicos.cargas`) and refuses another sent meanwhile.

Lock holds: per phase, the longest hold of the audit chain's lock by an import and by any other
request, from the lines the server logs of a write that held it 0.5 s or more
(:func:`multas.servicos.persistencia.repositorio._avisar_se_longa`).

Peak memory: the high-water mark of resident memory (``VmHWM`` in ``/proc/<pid>/status``) of
every process of the server (``multas servir`` and, with ``--workers 2``, uvicorn's worker
processes and multiprocessing's resource tracker), reset at the start of each phase (``echo 5 >
/proc/<pid>/clear_refs``) and summed at its end. The sum bounds the tree's peak from above (the
processes' peaks need not coincide).

Also per phase: requests per second in its first and last fifth (a write that slows down as the
data grows), and, on PostgreSQL, how much of the phase the audit chain's advisory lock was held
by a connection of another program on the same database (:class:`TravaAlheia`).

    .venv/bin/python bench/carga.py                    # 1 worker, SQLite in a temporary folder
    .venv/bin/python bench/carga.py --workers 2 --fases eventos,eventos-mesmo
    .venv/bin/python bench/carga.py --banco postgresql+psycopg://...   # a fresh schema there
    .venv/bin/python bench/carga.py --matriz --banco postgresql+psycopg://...  # 1 and 2 workers
                                                       # × SQLite and PostgreSQL, one table

With a PostgreSQL ``--banco`` the run creates a schema of its own (``carga_<hex>``, selected
with ``options=-csearch_path=...``) and drops it at the end. The load generator is asyncio on
raw HTTP/1.1 (stdlib only); traffic goes only to 127.0.0.1. The server runs open (loopback, no
users), with no rate limit, as a single local user would.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import itertools
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from servidor import corpos, esperar, percentil, porta_livre

from multas.nucleo.cnpj import digitos_verificadores

#: a request that has not answered in this time counts as a failed connection
TEMPO_PEDIDO = 60.0
#: the short load before each phase (not measured): requests, clients, seconds
AQUECIMENTO = (40, 2, 3.0)


def requisicao(
    metodo: str, caminho: str, corpo: bytes = b"", tipo: str = "application/json"
) -> bytes:
    cabecalho = f"{metodo} {caminho} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    if corpo:
        cabecalho += f"Content-Type: {tipo}\r\n"
    cabecalho += f"Content-Length: {len(corpo)}\r\n\r\n"
    return cabecalho.encode() + corpo


def pedido(caminho: str, corpo: bytes) -> bytes:
    return requisicao("POST", caminho, corpo)


@dataclass(frozen=True, slots=True)
class Pedido:
    """One request of a phase, with the statuses that answer it as expected."""

    rotulo: str
    dados: bytes
    esperados: tuple[str, ...] = ("200", "201")
    #: answers the phase expects and counts apart (not errors): the 422 of a race
    recusas: tuple[str, ...] = ()
    #: in requests/s and the latencies (a re-read after a refusal is not)
    medir: bool = True


class Roteiro:
    """What one client sends next, given what it was answered."""

    def proximo(self) -> Pedido:
        raise NotImplementedError

    def resposta(self, pedido: Pedido, status: str, corpo: bytes) -> None:
        """The answer to ``pedido``."""

    def falhou(self) -> None:
        """The connection failed: the last answer may have been lost."""


class Rodizio(Roteiro):
    """Fixed requests in rotation."""

    def __init__(self, pedidos: list[Pedido], inicio: int = 0) -> None:
        self._ciclo = itertools.islice(itertools.cycle(pedidos), inicio, None)

    def proximo(self) -> Pedido:
        return next(self._ciclo)


@dataclass
class Medida:
    tempos: list[float] = field(default_factory=list)
    #: when each measured request ended, in seconds from the phase's start
    instantes: list[float] = field(default_factory=list)
    por_rotulo: dict[str, list[float]] = field(default_factory=dict)
    #: the statuses of each kind of request (re-reads included)
    status_por_rotulo: dict[str, dict[str, int]] = field(default_factory=dict)
    status: dict[str, int] = field(default_factory=dict)
    falhas: int = 0  # connections reset, refused or timed out
    inesperados: int = 0  # answers with a status the request does not expect
    recusas: int = 0  # answers the phase expects apart (the 422 of a race)
    nao_medidos: int = 0  # re-reads: answered, out of requests/s and the latencies
    segundos: float = 0.0
    inicio: float = field(default_factory=time.perf_counter)
    pico_kib: int | None = None  # the server's peak resident memory in the phase
    #: PostgreSQL: (fraction of the phase, longest stretch in s) the audit chain's lock was
    #: held by another program on the same database (:class:`TravaAlheia`)
    trava_alheia: tuple[float, float] | None = None
    #: the writes that held the audit chain's lock 0.5 s or more in the phase, from the
    #: server's log: (seconds, what they wrote)
    travas: list[tuple[float, str]] = field(default_factory=list)

    @property
    def erros(self) -> int:
        return self.falhas + self.inesperados

    @property
    def por_segundo(self) -> float:
        return len(self.tempos) / self.segundos if self.segundos else 0.0

    def quintos(self) -> tuple[float, float]:
        """Requests per second in the phase's first and last fifth: a write that slows down as
        the data grows shows here. (Not the latencies: with the writes queued behind one lock,
        the first answers of a phase have waited for fewer others.)"""
        corte = self.segundos / 5
        primeiro = sum(1 for fim in self.instantes if fim < corte)
        ultimo = sum(1 for fim in self.instantes if fim >= self.segundos - corte)
        return (primeiro / corte, ultimo / corte) if corte else (0.0, 0.0)

    def registrar(self, pedido: Pedido, status: str, segundos: float) -> None:
        self.status[status] = self.status.get(status, 0) + 1
        deste = self.status_por_rotulo.setdefault(pedido.rotulo, {})
        deste[status] = deste.get(status, 0) + 1
        if status in pedido.recusas:
            self.recusas += 1
        elif status not in pedido.esperados:
            self.inesperados += 1
        if pedido.medir:
            self.tempos.append(segundos)
            self.instantes.append(time.perf_counter() - self.inicio)
            self.por_rotulo.setdefault(pedido.rotulo, []).append(segundos)
        else:
            self.nao_medidos += 1


async def cliente(
    porta: int, roteiro: Roteiro, prazo: float, restantes: list[int], medida: Medida
) -> None:
    while time.monotonic() < prazo and restantes[0] > 0:
        try:
            leitor, escritor = await asyncio.wait_for(
                asyncio.open_connection("127.0.0.1", porta), TEMPO_PEDIDO
            )
        except OSError:
            medida.falhas += 1
            roteiro.falhou()
            await asyncio.sleep(0.05)
            continue
        try:
            while time.monotonic() < prazo and restantes[0] > 0:
                restantes[0] -= 1
                atual = roteiro.proximo()
                inicio = time.perf_counter()
                escritor.write(atual.dados)
                await escritor.drain()
                status, corpo, fechar = await asyncio.wait_for(resposta(leitor), TEMPO_PEDIDO)
                medida.registrar(atual, status, time.perf_counter() - inicio)
                roteiro.resposta(atual, status, corpo)
                if fechar:
                    break
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError):
            medida.falhas += 1
            roteiro.falhou()
        finally:
            escritor.close()


async def resposta(leitor: asyncio.StreamReader) -> tuple[str, bytes, bool]:
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
    corpo = await leitor.readexactly(tamanho)
    fechar = any(linha.lower() == b"connection: close" for linha in linhas)
    return linhas[0].split(b" ")[1].decode(), corpo, fechar


async def carregar(
    porta: int,
    roteiros: Callable[[int], Roteiro],
    clientes: int,
    segundos: float,
    maximo: int,
) -> Medida:
    medida = Medida()
    restantes = [maximo]
    prazo = time.monotonic() + segundos
    await asyncio.gather(
        *(cliente(porta, roteiros(i), prazo, restantes, medida) for i in range(clientes))
    )
    medida.segundos = time.perf_counter() - medida.inicio
    return medida


# --- the phases ---------------------------------------------------------------------------

PROCESSOS = "/api/v1/processos"
#: one processo of the ``eventos`` phase, after its creation: (event, date) or an undo
PASSOS: tuple[tuple[str, str | None], ...] = (
    ("auto_infracao", "2024-02-01"),
    ("ciencia_primeira_instancia", "2024-04-01"),
    ("recurso", "2024-04-05"),
    ("desfazer", "recurso"),
    ("renuncia_recurso", "2024-04-08"),
    ("ciencia_decisao_definitiva", "2024-05-02"),
    ("pagamento", "2024-05-10"),
)
#: the events the ``eventos-mesmo`` clients race to append after the first-instance decision
CORRIDA = {"recurso": "2024-04-05", "renuncia_recurso": "2024-04-08"}
CRIAR_PROCESSO = json.dumps(
    {"tipo": "anp", "eventos": [{"evento": "infracao", "data": "2024-01-02"}]}
).encode()


def novo_evento(processo_id: int, evento: str, data: str, recusas: tuple[str, ...] = ()) -> Pedido:
    corpo = json.dumps({"evento": evento, "data": data}).encode()
    return Pedido(
        "POST /api/v1/processos/{id}/eventos",
        requisicao("POST", f"{PROCESSOS}/{processo_id}/eventos", corpo),
        ("201",),
        recusas,
    )


def desfazer(processo_id: int, evento: str, recusas: tuple[str, ...] = ()) -> Pedido:
    return Pedido(
        "DELETE /api/v1/processos/{id}/eventos/ultimo",
        requisicao("DELETE", f"{PROCESSOS}/{processo_id}/eventos/ultimo?evento={evento}"),
        ("200",),
        recusas,
    )


class Eventos(Roteiro):
    """One client's processos, each created and walked through :data:`PASSOS`."""

    def __init__(self) -> None:
        self.processo: int | None = None
        self.passo = 0

    def proximo(self) -> Pedido:
        if self.processo is None:
            return Pedido("POST /api/v1/processos", pedido(PROCESSOS, CRIAR_PROCESSO), ("201",))
        evento, valor = PASSOS[self.passo]
        assert valor is not None
        if evento == "desfazer":
            return desfazer(self.processo, valor)
        return novo_evento(self.processo, evento, valor)

    def resposta(self, pedido: Pedido, status: str, corpo: bytes) -> None:
        if status not in pedido.esperados:
            self.falhou()  # start over with a new processo
        elif self.processo is None:
            self.processo = json.loads(corpo)["processo_id"]
            self.passo = 0
        else:
            self.passo += 1
            if self.passo == len(PASSOS):
                self.processo = None

    def falhou(self) -> None:
        self.processo = None


class MesmoProcesso(Roteiro):
    """One of several clients racing on one processo (see the module's docstring)."""

    def __init__(self, processo_id: int, semente: int) -> None:
        self.processo = processo_id
        self.ultimo: str | None = "ciencia_primeira_instancia"  # None: read it again
        self.sorte = random.Random(semente)

    def proximo(self) -> Pedido:
        if self.ultimo is None:
            return Pedido(
                "GET /api/v1/processos/{id} (releitura)",
                requisicao("GET", f"{PROCESSOS}/{self.processo}"),
                ("200",),
                medir=False,
            )
        if self.ultimo in CORRIDA:
            return desfazer(self.processo, self.ultimo, ("422",))
        evento = self.sorte.choice(sorted(CORRIDA))
        return novo_evento(self.processo, evento, CORRIDA[evento], ("422",))

    def resposta(self, pedido: Pedido, status: str, corpo: bytes) -> None:
        self.ultimo = None
        if status in pedido.esperados:
            self.ultimo = json.loads(corpo)["eventos"][-1]["evento"]

    def falhou(self) -> None:
        self.ultimo = None


CABECALHO_CARTEIRA = "cnpj,ano,meta_cbios,cbios_aposentados,meta_anterior_cumprida\n"


def carteira_csv(cnpjs: list[str], aposentados: int) -> bytes:
    linhas = [f"{cnpj},{ano},1000,{aposentados},true\n" for cnpj in cnpjs for ano in (2024, 2025)]
    return (CABECALHO_CARTEIRA + "".join(linhas)).encode()


def importar_carteira(csv: bytes, linhas: int) -> Pedido:
    # a 429: another import held the server's one turn (multas.servicos.cargas), counted apart
    return Pedido(
        f"POST /api/v1/carteira/importar ({numero(linhas)} linhas)",
        requisicao("POST", "/api/v1/carteira/importar?formato=csv", csv, "text/csv"),
        ("200",),
        recusas=("429",),
    )


def cnpj_valido(base: str) -> str:
    """A CNPJ with its check digits, from a base of 12 letters or digits."""
    return base + digitos_verificadores(base)


class CarteiraNova(Roteiro):
    """Each request a file of new CNPJs (a counter shared by the run's clients)."""

    def __init__(self, contador: Iterator[int], distribuidores: int, prefixo: str) -> None:
        self.contador = contador
        self.distribuidores = distribuidores
        self.prefixo = prefixo

    def proximo(self) -> Pedido:
        cnpjs = [
            cnpj_valido(f"{self.prefixo}{next(self.contador):06d}")
            for _ in range(self.distribuidores)
        ]
        return importar_carteira(carteira_csv(cnpjs, 900), 2 * self.distribuidores)


#: the CNPJs of the ``carteira-substituir`` phase, stored before it
SUBSTITUIR = [cnpj_valido(f"S{i:011d}") for i in range(10)]
#: the distributors of the ``carteira-100k`` phase's file: 2 years each, 99,998 rows (the
#: server's limit is 100,000 with the header)
GRANDE = 49_999


def preparar_grande(porta: int) -> Callable[[int], Roteiro]:
    """Client 0 imports 99,998 rows (new years the first time, the same years replaced after),
    while the others save cases: how long another user's save waits for a long import."""
    cnpjs = [cnpj_valido(f"G{i:011d}") for i in range(GRANDE)]
    grande = importar_carteira(carteira_csv(cnpjs, 900), 2 * GRANDE)
    casos = rodizio("/api/v1/casos")(porta)
    return lambda i: Rodizio([grande]) if i == 0 else casos(i)


class CarteiraSubstituir(Roteiro):
    def __init__(self, semente: int) -> None:
        self.n = semente

    def proximo(self) -> Pedido:
        self.n += 1
        return importar_carteira(carteira_csv(SUBSTITUIR, 900 + self.n % 50), 2 * len(SUBSTITUIR))


@dataclass(frozen=True, slots=True)
class Fase:
    rotulo: str
    #: (port) → a client's script by its index; may write to the server before the phase
    preparar: Callable[[int], Callable[[int], Roteiro]]


def enviar(porta: int, metodo: str, caminho: str, corpo: bytes, tipo: str) -> bytes:
    """One request, outside the measures (a phase's set-up); anything but 2xx stops the run."""
    conexao = http.client.HTTPConnection("127.0.0.1", porta, timeout=TEMPO_PEDIDO)
    try:
        conexao.request(metodo, caminho, corpo, {"Content-Type": tipo})
        resposta_ = conexao.getresponse()
        dados = resposta_.read()
    finally:
        conexao.close()
    if resposta_.status // 100 != 2:
        raise SystemExit(f"{metodo} {caminho}: {resposta_.status} {dados[:300]!r}")
    return dados


def rodizio(caminho: str) -> Callable[[int], Callable[[int], Roteiro]]:
    def preparar(_porta: int) -> Callable[[int], Roteiro]:
        pedidos = [Pedido(f"POST {caminho}", pedido(caminho, c)) for c in corpos()]
        return lambda i: Rodizio(pedidos, i)

    return preparar


def preparar_mesmo(porta: int) -> Callable[[int], Roteiro]:
    corpo = json.dumps(
        {
            "tipo": "anp",
            "eventos": [
                {"evento": "infracao", "data": "2024-01-02"},
                {"evento": "auto_infracao", "data": "2024-02-01"},
                {"evento": "ciencia_primeira_instancia", "data": "2024-04-01"},
            ],
        }
    ).encode()
    criado = json.loads(enviar(porta, "POST", PROCESSOS, corpo, "application/json"))
    return lambda i: MesmoProcesso(criado["processo_id"], i)


def preparar_nova(distribuidores: int) -> Callable[[int], Callable[[int], Roteiro]]:
    def preparar(_porta: int) -> Callable[[int], Roteiro]:
        # CNPJs never used in this run: one counter per phase (and its warm-up), a prefix each
        contador = itertools.count()
        prefixo = uuid.uuid4().hex[:6].upper()
        return lambda _i: CarteiraNova(contador, distribuidores, prefixo)

    return preparar


def preparar_substituir(porta: int) -> Callable[[int], Roteiro]:
    caminho = "/api/v1/carteira/importar?formato=csv"
    enviar(porta, "POST", caminho, carteira_csv(SUBSTITUIR, 900), "text/csv")
    return lambda i: CarteiraSubstituir(1000 * i)


FASES: dict[str, Fase] = {
    "calcular": Fase("POST /api/v1/calcular", rodizio("/api/v1/calcular")),
    "casos": Fase("POST /api/v1/casos (salvar)", rodizio("/api/v1/casos")),
    "eventos": Fase(
        "eventos: criar, acrescentar, desfazer (um processo por cliente)",
        lambda _porta: lambda _i: Eventos(),
    ),
    "eventos-mesmo": Fase("eventos: todos os clientes no mesmo processo", preparar_mesmo),
    "carteira-20": Fase("carteira: importar 20 linhas (CNPJs novos)", preparar_nova(10)),
    "carteira-200": Fase("carteira: importar 200 linhas (CNPJs novos)", preparar_nova(100)),
    "carteira-substituir": Fase(
        "carteira: importar 20 linhas (substituindo os mesmos anos)", preparar_substituir
    ),
    "carteira-100k": Fase(
        "carteira: um cliente importa 99.998 linhas, os outros salvam casos", preparar_grande
    ),
}


# --- the server, its memory and its database ------------------------------------------------


def arvore(raiz: int) -> list[int]:
    """``raiz`` and every process descending from it (Linux: from /proc)."""
    filhos: dict[int, list[int]] = {}
    for entrada in os.listdir("/proc"):
        if not entrada.isdigit():
            continue
        try:
            estado = Path(f"/proc/{entrada}/stat").read_text()
        except OSError:
            continue
        pai = int(estado.rsplit(")", 1)[1].split()[1])
        filhos.setdefault(pai, []).append(int(entrada))
    todos, pendentes = [], [raiz]
    while pendentes:
        pid = pendentes.pop()
        todos.append(pid)
        pendentes.extend(filhos.get(pid, []))
    return todos


def memoria_kib(pid: int, campo: str) -> int:
    try:
        for linha in Path(f"/proc/{pid}/status").read_text().splitlines():
            if linha.startswith(f"{campo}:"):
                return int(linha.split()[1])
    except OSError:
        pass
    return 0


def zerar_picos(raiz: int) -> None:
    """Reset each process's ``VmHWM`` to its current resident size."""
    for pid in arvore(raiz):
        with suppress(OSError):
            Path(f"/proc/{pid}/clear_refs").write_text("5")


def somar(raiz: int, campo: str) -> int:
    return sum(memoria_kib(pid, campo) for pid in arvore(raiz))


@dataclass
class Banco:
    url: str  # the server's MULTAS_DATABASE_URL
    #: PostgreSQL: a libpq URL to watch the audit chain's lock from, and the name this run's
    #: connections give themselves (``application_name``)
    vigia: str | None = None
    aplicacao: str | None = None


@contextmanager
def banco_da_rodada(url: str | None, pasta: str) -> Iterator[Banco]:
    """SQLite in ``pasta`` (no ``url``), or a fresh schema of the PostgreSQL at ``url``,
    dropped at the end; any other URL as given."""
    if url is None:
        yield Banco(f"sqlite:///{pasta}/carga.db")
        return
    if not url.startswith("postgres"):
        yield Banco(url)
        return
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    from multas.servicos.persistencia import normalizar_url

    base = normalizar_url(url)
    esquema = f"carga_{uuid.uuid4().hex[:12]}"
    admin = create_engine(base)
    try:
        with admin.begin() as conexao:
            conexao.execute(text(f"CREATE SCHEMA {esquema}"))
        isolada = make_url(base).update_query_dict(
            {"options": f"-csearch_path={esquema}", "application_name": esquema}
        )
        vigia = make_url(base).set(drivername="postgresql")
        yield Banco(
            isolada.render_as_string(hide_password=False),
            vigia.render_as_string(hide_password=False),
            esquema,
        )
    finally:
        with admin.begin() as conexao:
            conexao.execute(text(f"DROP SCHEMA IF EXISTS {esquema} CASCADE"))
        admin.dispose()


class TravaAlheia:
    """PostgreSQL: how much of a phase the audit chain's advisory lock was held by a connection
    that is not this run's. The lock is one per *database* (``pg_advisory_xact_lock`` knows no
    schema), so any other program writing to the same database (another run, a test suite in
    its own schema) holds this run's writers back. Sampled every ``INTERVALO`` s."""

    INTERVALO = 0.2
    CONSULTA = (
        "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a USING (pid) "
        "WHERE l.locktype = 'advisory' AND l.granted AND l.classid = %s AND l.objid = %s "
        "AND l.objsubid = 1 AND a.application_name IS DISTINCT FROM %s"
    )

    def __init__(self, banco: Banco) -> None:
        self.banco = banco
        self.amostras = 0
        self.alheias = 0
        self.seguidas = 0
        self.maior = 0  # the longest run of samples with the lock held from outside
        self._parar = threading.Event()
        self._fio: threading.Thread | None = None

    def __enter__(self) -> TravaAlheia:
        if self.banco.vigia is not None:
            self._fio = threading.Thread(target=self._vigiar, daemon=True)
            self._fio.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._parar.set()
        if self._fio is not None:
            self._fio.join(timeout=10)

    def _vigiar(self) -> None:
        import psycopg

        from multas.servicos.persistencia.registros import TRAVA_CADEIA

        chave = (TRAVA_CADEIA >> 32, TRAVA_CADEIA & 0xFFFFFFFF, self.banco.aplicacao)
        assert self.banco.vigia is not None
        with psycopg.connect(self.banco.vigia, autocommit=True) as conexao:
            while not self._parar.wait(self.INTERVALO):
                linha = conexao.execute(self.CONSULTA, chave).fetchone()
                self.amostras += 1
                if linha and linha[0]:
                    self.alheias += 1
                    self.seguidas += 1
                    self.maior = max(self.maior, self.seguidas)
                else:
                    self.seguidas = 0

    def resumo(self) -> tuple[float, float] | None:
        """(fraction of the samples, longest stretch in seconds); ``None``: not watched."""
        if self._fio is None or not self.amostras:
            return None
        return self.alheias / self.amostras, self.maior * self.INTERVALO


@dataclass
class Rodada:
    workers: int
    backend: str
    medidas: dict[str, Medida]
    rss_inicio_kib: int  # the tree's resident memory after start-up and warm-up
    rss_fim_kib: int  # and after the last phase
    processos: list[int]  # each process's resident memory after the last phase
    log: list[str]  # the server's last log lines, when a phase had errors


def iniciar_servidor(
    url: str, porta: int, pasta: str, registro: Path, workers: int = 1
) -> subprocess.Popen[bytes]:
    """``multas servir`` on ``url`` (no request limit), its log in ``registro``."""
    ambiente = {**os.environ, "MULTAS_DATABASE_URL": url, "MULTAS_LIMITE_REQUISICOES": "0"}
    with registro.open("wb") as saida:
        return subprocess.Popen(
            [
                sys.executable,
                "-m",
                "multas",
                "servir",
                "--porta",
                str(porta),
                "--trabalhadores",
                str(workers),
                # the run's own schema, owned by the role it runs as: a bench, not a
                # deployment (docs/seguranca.md asks two roles of one)
                *(["--papel-inseguro"] if url.startswith("postgres") else []),
            ],
            env=ambiente,
            cwd=pasta,
            stdout=subprocess.DEVNULL,
            stderr=saida,
        )


def rodar(
    url: str | None, workers: int, fases: list[str], clientes: int, segundos: float, maximo: int
) -> Rodada:
    porta = porta_livre()
    with tempfile.TemporaryDirectory() as pasta, banco_da_rodada(url, pasta) as banco:
        registro = Path(pasta) / "servidor.log"
        servidor = iniciar_servidor(banco.url, porta, pasta, registro, workers)
        try:
            esperar(porta, 60)
            calcular = FASES["calcular"].preparar(porta)
            asyncio.run(carregar(porta, calcular, 2, 3, 300))  # warm-up (each worker)
            rss_inicio = somar(servidor.pid, "VmRSS")
            medidas = {}
            for nome in fases:
                roteiros = FASES[nome].preparar(porta)
                n, c, s = AQUECIMENTO
                asyncio.run(carregar(porta, roteiros, c, s, n))
                zerar_picos(servidor.pid)
                inicio_do_log = registro.stat().st_size
                with TravaAlheia(banco) as trava:
                    medida = asyncio.run(carregar(porta, roteiros, clientes, segundos, maximo))
                medida.pico_kib = somar(servidor.pid, "VmHWM")
                medida.travas = travas_longas(registro, inicio_do_log)
                medida.trava_alheia = trava.resumo()
                medidas[nome] = medida
            rss_fim = somar(servidor.pid, "VmRSS")
            processos = [memoria_kib(p, "VmRSS") for p in arvore(servidor.pid)]
        finally:
            servidor.terminate()
            try:
                servidor.wait(timeout=60)
            except subprocess.TimeoutExpired:  # still inside a long request: its end is moot
                servidor.kill()
                servidor.wait()
        log = []
        if any(m.erros for m in medidas.values()):
            log = registro.read_text(errors="replace").splitlines()[-20:]
    backend = "PostgreSQL" if banco.url.startswith("postgres") else "SQLite"
    return Rodada(workers, backend, medidas, rss_inicio, rss_fim, processos, log)


#: what the server logs of a write that held the lock long (multas.servicos.persistencia)
TRAVA_LONGA = re.compile(r"segurou a trava da cadeia por ([0-9.]+) s \((.*)\)")


def travas_longas(registro: Path, desde: int) -> list[tuple[float, str]]:
    """The long holds of the lock the server logged from byte ``desde`` of its log on."""
    with registro.open("rb") as arquivo:
        arquivo.seek(desde)
        texto = arquivo.read().decode(errors="replace")
    return [(float(m[1]), m[2]) for m in TRAVA_LONGA.finditer(texto)]


# --- the report ---------------------------------------------------------------------------


def numero(valor: float, casas: int = 0) -> str:
    texto = f"{valor:,.{casas}f}"
    return texto.replace(",", "_").replace(".", ",").replace("_", ".")


def taxa(por_segundo: float) -> str:
    return numero(por_segundo, 1 if por_segundo < 10 else 0)


def mib(kib: int | None) -> str:
    return "—" if not kib else f"{numero(kib / 1024)} MiB"


def em_ms(valores: list[float], p: float) -> str:
    return f"{numero(percentil(valores, p) * 1000, 1)} ms" if valores else "—"


def quintos(m: Medida) -> str:
    primeiro, ultimo = m.quintos()
    casas = 1 if max(primeiro, ultimo) < 10 else 0
    return f"{numero(primeiro, casas)} → {numero(ultimo, casas)}"


def alheia(m: Medida) -> str:
    if m.trava_alheia is None:
        return "—"
    fracao, maior = m.trava_alheia
    if not fracao:
        return "0 %"
    return f"{numero(fracao * 100)} % (até {numero(maior, 1)} s seguidos)"


def travas(m: Medida) -> str:
    """The longest hold of the lock by an import and by any other request (the server logs
    those of 0.5 s or more)."""
    importacoes = [s for s, acoes in m.travas if "carteira_" in acoes or "processo_" in acoes]
    outras = [s for s, acoes in m.travas if not ("carteira_" in acoes or "processo_" in acoes)]

    def maior(segundos: list[float]) -> str:
        return f"{numero(max(segundos), 2)} s" if segundos else "menos de 0,5 s"

    return (
        f"trava da cadeia, a mais longa: numa importação {maior(importacoes)}, em outro "
        f"pedido {maior(outras)} ({len(m.travas)} de 0,5 s ou mais)"
    )


def linha(nome: str, m: Medida) -> str:
    if not m.tempos:
        return f"  {nome}: nenhuma resposta medida ({m.falhas} falhas de conexão)"
    texto = (
        f"  {nome}: {taxa(m.por_segundo)} req/s ({numero(len(m.tempos))} em "
        f"{m.segundos:.0f} s), p50 {em_ms(m.tempos, 50)}, p99 {em_ms(m.tempos, 99)}, "
        f"req/s no primeiro e no último quinto {quintos(m)}, erros {m.erros}"
    )
    if m.recusas:
        texto += f", 422 esperados {m.recusas}"
    if m.nao_medidos:
        texto += f", releituras {m.nao_medidos}"
    if m.trava_alheia is not None:
        texto += f", trava da cadeia com outro programa do banco {alheia(m)}"
    texto += f", pico de memória {mib(m.pico_kib)}; status {dict(sorted(m.status.items()))}"
    texto += "\n      " + travas(m)
    if len(m.status_por_rotulo) > 1:
        for rotulo, status in sorted(m.status_por_rotulo.items()):
            tempos = m.por_rotulo.get(rotulo, [])
            medidos = (
                f"p50 {em_ms(tempos, 50)}, p99 {em_ms(tempos, 99)}, máx {em_ms(tempos, 100)}"
                if tempos
                else "não medido"
            )
            texto += f"\n      {rotulo}: {medidos}; status {dict(sorted(status.items()))}"
    return texto


def cabecalho_rodada(r: Rodada, clientes: int, segundos: float) -> str:
    return (
        f"carga em 127.0.0.1: {r.workers} processo(s) uvicorn, {os.cpu_count()} núcleos, "
        f"{clientes} conexões, {segundos:.0f} s por fase, banco {r.backend}; memória residente "
        f"do servidor depois do aquecimento {mib(r.rss_inicio_kib)}, no fim {mib(r.rss_fim_kib)} "
        f"({' + '.join(mib(rss) for rss in r.processos)}, em {len(r.processos)} processos)"
    )


def imprimir_log(r: Rodada) -> None:
    if r.log:
        print(f"  últimas linhas do log do servidor ({r.backend}, {r.workers}):", file=sys.stderr)
        for texto in r.log:
            print(f"    {texto}", file=sys.stderr)


def tabela(rodadas: list[Rodada]) -> list[str]:
    """The matrix as Markdown: one row per phase, database and workers; then, per phase and
    database, requests/s with 2 workers over 1 (both measured in this run)."""
    saida = [
        "| fase | banco | processos | req/s | p50 | p99 | req/s no 1º → no último quinto "
        "| erros | 422 esperados | pico de memória | trava com outro programa |",
        "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
    ]
    fases = list(rodadas[0].medidas)
    for nome in fases:
        for r in rodadas:
            m = r.medidas[nome]
            saida.append(
                f"| {nome} | {r.backend} | {r.workers} | {taxa(m.por_segundo)} | "
                f"{em_ms(m.tempos, 50)} | {em_ms(m.tempos, 99)} | {quintos(m)} | {m.erros} | "
                f"{m.recusas if nome == 'eventos-mesmo' else '—'} | {mib(m.pico_kib)} | {alheia(m)} |"
            )
    backends = list(dict.fromkeys(r.backend for r in rodadas))
    saida += ["", "| fase | " + " | ".join(f"{b}: 2 ÷ 1 processo" for b in backends) + " |"]
    saida.append("|---|" + "--:|" * len(backends))
    for nome in fases:
        razoes = []
        for b in backends:
            um = next((r for r in rodadas if r.backend == b and r.workers == 1), None)
            dois = next((r for r in rodadas if r.backend == b and r.workers == 2), None)
            if um and dois and um.medidas[nome].por_segundo:
                razao = dois.medidas[nome].por_segundo / um.medidas[nome].por_segundo
                razoes.append(f"{numero(razao, 2)}×")
            else:
                razoes.append("—")
        saida.append(f"| {nome} | " + " | ".join(razoes) + " |")
    return saida


def resumo_json(r: Rodada) -> dict[str, object]:
    return {
        "workers": r.workers,
        "banco": r.backend,
        "rss_inicio_kib": r.rss_inicio_kib,
        "rss_fim_kib": r.rss_fim_kib,
        "processos_rss_kib": r.processos,
        "fases": {
            nome: {
                "req_s": round(m.por_segundo, 1),
                "pedidos": len(m.tempos),
                "p50_ms": round(percentil(m.tempos, 50) * 1000, 2) if m.tempos else None,
                "p99_ms": round(percentil(m.tempos, 99) * 1000, 2) if m.tempos else None,
                "req_s_quintos": [round(q, 1) for q in m.quintos()],
                "erros": m.erros,
                "recusas_422": m.recusas,
                "releituras": m.nao_medidos,
                "status": m.status_por_rotulo,
                "pico_kib": m.pico_kib,
                "trava_alheia": m.trava_alheia,
            }
            for nome, m in r.medidas.items()
        },
    }


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    args.add_argument("--workers", type=int, default=1, help="processos uvicorn (1 ou 2)")
    args.add_argument("--segundos", type=float, default=20.0, help="duração de cada fase")
    args.add_argument("--clientes", type=int, default=16, help="conexões keep-alive")
    args.add_argument("--maximo", type=int, default=2_000_000, help="pedidos no máximo, por fase")
    args.add_argument(
        "--fases",
        default=",".join(FASES),
        help=f"fases, separadas por vírgula (padrão: todas: {', '.join(FASES)})",
    )
    args.add_argument(
        "--banco",
        default=None,
        help="MULTAS_DATABASE_URL (padrão: SQLite temporário); PostgreSQL: um esquema novo, "
        "apagado no fim",
    )
    args.add_argument(
        "--matriz",
        action="store_true",
        help="1 e 2 processos × SQLite e PostgreSQL (o de --banco ou de "
        "MULTAS_TEST_POSTGRES_URL), numa tabela",
    )
    args.add_argument("--json", action="store_true", help="também uma linha JSON no fim")
    opcoes = args.parse_args()
    fases = [f.strip() for f in opcoes.fases.split(",") if f.strip()]
    desconhecidas = [f for f in fases if f not in FASES]
    if desconhecidas or not fases:
        args.error(f"fases desconhecidas: {', '.join(desconhecidas)} (há: {', '.join(FASES)})")

    if opcoes.matriz:
        postgres = opcoes.banco or os.environ.get("MULTAS_TEST_POSTGRES_URL")
        bancos: list[str | None] = [None]
        if postgres and postgres.startswith("postgres"):
            bancos.append(postgres)
        else:
            print(
                "sem PostgreSQL (--banco ou MULTAS_TEST_POSTGRES_URL): só SQLite", file=sys.stderr
            )
        combinacoes = [(b, w) for b in bancos for w in (1, 2)]
    else:
        combinacoes = [(opcoes.banco, opcoes.workers)]

    inicio = time.monotonic()
    rodadas = []
    for banco, workers in combinacoes:
        r = rodar(banco, workers, fases, opcoes.clientes, opcoes.segundos, opcoes.maximo)
        rodadas.append(r)
        print(cabecalho_rodada(r, opcoes.clientes, opcoes.segundos), flush=True)
        for nome, medida in r.medidas.items():
            print(linha(f"{nome} — {FASES[nome].rotulo}", medida), flush=True)
        imprimir_log(r)
    if opcoes.matriz:
        print(
            f"\nmatriz: {len(fases)} fases × {len(combinacoes)} combinações, "
            f"{opcoes.segundos:.0f} s por fase, {opcoes.clientes} conexões, "
            f"{os.cpu_count()} núcleos; {numero((time.monotonic() - inicio) / 60, 1)} min\n"
        )
        print("\n".join(tabela(rodadas)))
    if opcoes.json:
        print(json.dumps([resumo_json(r) for r in rodadas]))


if __name__ == "__main__":
    main()
