"""A long ledger import and the other users (issue 32, item 1): while ``multas servir`` (with
users: authentication on) imports 99,998 rows (``POST /api/v1/carteira/importar``), how long do
a page login and another user's save wait, how long does the audit chain's lock stay held, and
how much memory does the server take?

Unlike ``bench/carga.py``, whose server runs open, the server here has users, created through
the CLI (``multas usuarios criar``) before it starts: an analyst whose API token sends the
imports, one analyst per saving client (another user's save, ``Authorization: Bearer``), and
one user with a password per logging-in client (a page login, ``POST /entrar``: a right
password answers ``303`` to ``/``). One user per logging-in client keeps the login throttle
(10 refused attempts per name, 50 per address, each attempt counted before its password is
checked and taken back when it is right) out of the measure; ``MULTAS_LIMITE_REQUISICOES=0``
turns the per-user request limit off.

The ``--clientes`` other users alternate: client 0, 2, ... log in over and over, client 1, 3,
... save a case over and over (the six worked examples in rotation), each waiting ``--pausa``
seconds between two of its requests (a person, not a flood: a login costs an argon2 check of
~0.1 s and 64 MiB by design). The phases, in order:

- ``sem importação``: the same logins and saves for ``--segundos-base`` s with no import: the
  latencies to compare with;
- the warm-up import (not measured but reported): the 99,998 rows as new years;
- ``A — uma importação``: the same file again, replacing the same years (the slow case), while
  the others log in and save, until the import answers;
- ``B — três importações``: three clients send the file at the same moment. The server runs one
  file import at a time per process and answers the others 429 with ``Retry-After``
  (:mod:`multas.servicos.cargas`); each refused client waits that long and sends it again (not
  with ``--sem-repetir``), so the phase spans three whole imports, one after another. The
  others log in and save until the last import answers.

Per phase: for the logins and the saves apart, count, p50, p99, max and how many took over
2 s, and every status (a login that is not 303, a save that is not 201, is an error); the
imports' statuses and durations; the longest hold of the audit chain's lock, from the lines the
server logs of a hold of 0.5 s or more (none logged: no hold reached 0.5 s); and the server's
peak memory (``VmHWM`` of its processes, reset at the phase's start: ``bench/carga.py``; the
logins' argon2 checks alone take 64 MiB each, one per core at most). Then each request over
2 s, when it started and ended, beside when the imports ran and when each long lock hold was
logged (the log has no times: it is read every 0.2 s while the phase runs, :class:`VigiaDoLog`).
At the end, the server log's lines that are neither its start nor a long lock hold.

    PYTHONPATH=src .venv/bin/python bench/importacao_longa.py               # SQLite, temporary
    PYTHONPATH=src .venv/bin/python bench/importacao_longa.py --banco postgresql+psycopg://...

With a PostgreSQL ``--banco`` the run creates a schema of its own and drops it at the end
(``bench/carga.py``'s :func:`banco_da_rodada`). Traffic goes only to 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import suppress
from dataclasses import dataclass, field, replace
from pathlib import Path
from urllib.parse import urlencode

sys.path.insert(0, str(Path(__file__).resolve().parent))

from carga import (
    GRANDE,
    TEMPO_PEDIDO,
    TRAVA_LONGA,
    Medida,
    Pedido,
    Rodizio,
    banco_da_rodada,
    carteira_csv,
    cnpj_valido,
    iniciar_servidor,
    numero,
    requisicao,
    resposta,
    somar,
    travas_longas,
    zerar_picos,
)
from servidor import corpos, esperar, percentil, porta_livre

#: the answer the issue asks of a login and of a save during an import
LIMITE = 2.0
#: an import that has not answered in this time is given up
TEMPO_IMPORTACAO = 900.0
#: a refused import of phase B is sent again at most this many times
REPETICOES = 30
#: the slow requests listed per phase, and the server log's lines, at most
MOSTRADOS = 40
ENTRAR = "POST /entrar (entrar)"
SALVAR = "POST /api/v1/casos (salvar)"
IMPORTAR = "/api/v1/carteira/importar?formato=csv"
#: what the server logs at start-up (not worth showing at the end)
PARTIDA = re.compile(
    r"multas: página e API em|Started server process|Waiting for application|"
    r"Application startup complete|Uvicorn running on"
)


def autenticada(dados: bytes, token: str) -> bytes:
    """A request of :func:`carga.requisicao` with the token of an API user (none: the server
    runs open, ``--aberto``)."""
    if not token:
        return dados
    host = b"\r\nHost: 127.0.0.1\r\n"
    return dados.replace(host, host + f"Authorization: Bearer {token}\r\n".encode(), 1)


# --- the users ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Usuarios:
    importador: str  # the importing analyst's token
    salvadores: list[str]  # one analyst's token per saving client
    entradas: list[tuple[str, str]]  # (name, password) per logging-in client


def criar_usuario(url: str, nome: str, papel: str, senha: str | None = None) -> str:
    """``multas usuarios criar``; its token (the first line it prints)."""
    comando = [sys.executable, "-m", "multas", "usuarios", "criar", nome, "--papel", papel]
    comando += ["--banco", url, *(["--senha"] if senha else [])]
    feito = subprocess.run(
        comando,
        input=f"{senha}\n{senha}\n" if senha else "",
        capture_output=True,
        text=True,
        check=False,
    )
    if feito.returncode != 0:
        raise SystemExit(f"multas usuarios criar {nome}: {feito.stderr.strip()}")
    return feito.stdout.splitlines()[0].strip()


#: whether the even clients log in (``--sem-entrar``: every client saves, and the peak memory
#: is the imports', without the logins' argon2 checks)
ENTRAM = True


def entra(i: int) -> bool:
    return ENTRAM and i % 2 == 0


#: ``--aberto``: no users (the server runs open, no argon2 check at all), every client saves:
#: the peak memory is the imports' alone
ABERTO = False


def criar_usuarios(url: str, clientes: int) -> Usuarios:
    if ABERTO:
        return Usuarios("", [""] * clientes, [])
    entradas = [(f"entrada-{i}", f"senha-da-entrada-{i}") for i in range(clientes) if entra(i)]
    for nome, senha in entradas:
        criar_usuario(url, nome, "leitura", senha)
    salvadores = [
        criar_usuario(url, f"analista-{i}", "analista") for i in range(clientes) if not entra(i)
    ]
    return Usuarios(criar_usuario(url, "importador", "analista"), salvadores, entradas)


def roteiro(i: int, usuarios: Usuarios) -> Rodizio:
    """Client ``i``'s requests: logins (even ``i``) or saves (odd ``i``, or every one with
    ``--sem-entrar``), in rotation."""
    anteriores = sum(1 for j in range(i) if entra(j) == entra(i))
    if entra(i):
        nome, senha = usuarios.entradas[anteriores]
        formulario = urlencode({"nome": nome, "senha": senha, "proximo": "/"}).encode()
        dados = requisicao("POST", "/entrar", formulario, "application/x-www-form-urlencoded")
        return Rodizio([Pedido(ENTRAR, dados, ("303",))])
    token = usuarios.salvadores[anteriores]
    pedidos = [
        Pedido(SALVAR, autenticada(requisicao("POST", "/api/v1/casos", c), token), ("201",))
        for c in corpos()
    ]
    return Rodizio(pedidos, i)


# --- the load -------------------------------------------------------------------------------


async def usuario(
    porta: int, rodizio: Rodizio, pausa: float, parar: asyncio.Event, medida: Medida
) -> None:
    """One other user: a request, an answer, a pause, until ``parar`` (its request then under
    way still counts). As :func:`carga.cliente`, with the pause."""
    while not parar.is_set():
        try:
            leitor, escritor = await asyncio.wait_for(
                asyncio.open_connection("127.0.0.1", porta), TEMPO_PEDIDO
            )
        except OSError:
            medida.falhas += 1
            await asyncio.sleep(0.05)
            continue
        try:
            while not parar.is_set():
                atual = rodizio.proximo()
                inicio = time.perf_counter()
                escritor.write(atual.dados)
                await escritor.drain()
                status, _corpo, fechar = await asyncio.wait_for(resposta(leitor), TEMPO_PEDIDO)
                medida.registrar(atual, status, time.perf_counter() - inicio)
                if fechar:
                    break
                if pausa:
                    with suppress(TimeoutError):
                        await asyncio.wait_for(parar.wait(), pausa)
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, ValueError):
            medida.falhas += 1
        finally:
            escritor.close()


@dataclass
class Cronologia(Medida):
    """:class:`carga.Medida`, and when each request started."""

    #: every request: (its label, its start in seconds from the phase's start, its seconds)
    todos: list[tuple[str, float, float]] = field(default_factory=list)

    def registrar(self, pedido: Pedido, status: str, segundos: float) -> None:
        super().registrar(pedido, status, segundos)
        fim = time.perf_counter() - self.inicio
        self.todos.append((pedido.rotulo, fim - segundos, segundos))


class VigiaDoLog:
    """While a phase runs, when each long lock hold was logged (the server's log has no time):
    :func:`carga.travas_longas` read every ``INTERVALO`` s, its new lines stamped with the
    seconds since the phase's start (a hold is logged when it ends)."""

    INTERVALO = 0.2

    def __init__(self, registro: Path, origem: float) -> None:
        self.registro, self.origem = registro, origem
        self.desde = registro.stat().st_size
        #: (seconds from the phase's start, seconds held, what it wrote)
        self.travas: list[tuple[float, float, str]] = []
        self._parar = threading.Event()
        self._fio = threading.Thread(target=self._vigiar, daemon=True)

    def __enter__(self) -> VigiaDoLog:
        self._fio.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._parar.set()
        self._fio.join(timeout=10)
        self._ler()

    def _vigiar(self) -> None:
        while not self._parar.wait(self.INTERVALO):
            self._ler()

    def _ler(self) -> None:
        lidas = travas_longas(self.registro, self.desde)
        quando = time.perf_counter() - self.origem
        self.travas += [(quando, s, acoes) for s, acoes in lidas[len(self.travas) :]]


@dataclass(frozen=True)
class Envio:
    """One import sent: its status, how long it took, ``Retry-After`` and the answer's start."""

    status: str
    segundos: float
    tentar_em: str | None
    corpo: bytes
    #: when it was sent, in seconds from the phase's start
    partida: float = 0.0


async def enviar_importacao(porta: int, dados: bytes, origem: float | None = None) -> Envio:
    """One import; ``origem``: the phase's start (``time.perf_counter()``)."""
    inicio = time.perf_counter()
    envio = await _enviar(porta, dados, inicio)
    return replace(envio, partida=inicio - (inicio if origem is None else origem))


async def _enviar(porta: int, dados: bytes, inicio: float) -> Envio:
    try:
        leitor, escritor = await asyncio.open_connection("127.0.0.1", porta)
    except OSError as erro:
        return Envio(f"falha ({erro})", time.perf_counter() - inicio, None, b"")
    try:
        escritor.write(dados)
        await escritor.drain()
        cabecalho = await asyncio.wait_for(leitor.readuntil(b"\r\n\r\n"), TEMPO_IMPORTACAO)
        linhas = cabecalho.decode("latin-1").split("\r\n")
        campos = {
            nome.strip().lower(): valor.strip()
            for nome, _, valor in (linha.partition(":") for linha in linhas[1:] if linha)
        }
        corpo = await leitor.readexactly(int(campos.get("content-length", "0")))
        segundos = time.perf_counter() - inicio
        return Envio(linhas[0].split(" ")[1], segundos, campos.get("retry-after"), corpo[:300])
    except (OSError, asyncio.IncompleteReadError, TimeoutError, ValueError) as erro:
        return Envio(f"falha ({type(erro).__name__})", time.perf_counter() - inicio, None, b"")
    finally:
        escritor.close()


async def importador(
    porta: int, dados: bytes, repetir: bool, envios: list[Envio], origem: float
) -> None:
    """Send the import; a 429 is sent again after its ``Retry-After`` when ``repetir``."""
    for _ in range(REPETICOES):
        envio = await enviar_importacao(porta, dados, origem)
        envios.append(envio)
        if envio.status != "429" or not repetir:
            return
        await asyncio.sleep(float(envio.tentar_em or 10))


@dataclass
class Fase:
    nome: str
    medida: Cronologia
    envios: list[list[Envio]]  # per import client, every send
    segundos: float
    pico_kib: int
    rss_antes_kib: int
    rss_depois_kib: int
    carga_do_sistema: tuple[float, float]  # the 1-minute load average at the start and end
    #: the long lock holds: (when logged, from the phase's start; seconds held; what it wrote)
    travas: list[tuple[float, float, str]] = field(default_factory=list)


async def carregar_durante(
    porta: int,
    usuarios: Usuarios,
    clientes: int,
    pausa: float,
    importacoes: int,
    dados: bytes,
    repetir: bool,
    segundos: float,
    medida: Cronologia,
) -> list[list[Envio]]:
    """The other users' load while ``importacoes`` clients send the import at the same moment
    (until the last one answers), or for ``segundos`` with no import."""
    parar = asyncio.Event()
    outros = [
        asyncio.create_task(usuario(porta, roteiro(i, usuarios), pausa, parar, medida))
        for i in range(clientes)
    ]
    envios: list[list[Envio]] = [[] for _ in range(importacoes)]
    if importacoes:
        await asyncio.gather(*(importador(porta, dados, repetir, e, medida.inicio) for e in envios))
    else:
        await asyncio.sleep(segundos)
    parar.set()
    await asyncio.gather(*outros)
    medida.segundos = time.perf_counter() - medida.inicio
    return envios


# --- the run --------------------------------------------------------------------------------


@dataclass
class Rodada:
    backend: str
    fases: list[Fase]
    aquecimento: Envio
    rss_inicio_kib: int
    log: list[str]  # the server log's lines that are neither its start nor a long lock hold


def rodar(url: str | None, clientes: int, pausa: float, base: float, repetir: bool) -> Rodada:
    porta = porta_livre()
    cnpjs = [cnpj_valido(f"G{i:011d}") for i in range(GRANDE)]
    arquivo = carteira_csv(cnpjs, 900)
    outro = carteira_csv(cnpjs, 901)  # the same years replaced, with other figures
    with tempfile.TemporaryDirectory() as pasta, banco_da_rodada(url, pasta) as banco:
        usuarios = criar_usuarios(banco.url, clientes)
        dados = autenticada(requisicao("POST", IMPORTAR, arquivo, "text/csv"), usuarios.importador)
        substituir = autenticada(
            requisicao("POST", IMPORTAR, outro, "text/csv"), usuarios.importador
        )
        registro = Path(pasta) / "servidor.log"
        servidor = iniciar_servidor(banco.url, porta, pasta, registro)
        fases: list[Fase] = []
        try:
            esperar(porta, 60, "/entrar")  # the API asks for a token
            # warm-up: each token's first argon2 check, the app's first requests
            aquecer = Cronologia()
            asyncio.run(
                carregar_durante(porta, usuarios, clientes, 0.1, 0, b"", False, 3.0, aquecer)
            )
            rss_inicio = somar(servidor.pid, "VmRSS")

            def fase(nome: str, importacoes: int, corpo: bytes, segundos: float = 0.0) -> None:
                zerar_picos(servidor.pid)
                antes = somar(servidor.pid, "VmRSS")
                carga_antes = os.getloadavg()[0]
                medida = Cronologia()
                with VigiaDoLog(registro, medida.inicio) as vigia:
                    envios = asyncio.run(
                        carregar_durante(
                            porta,
                            usuarios,
                            clientes,
                            pausa,
                            importacoes,
                            corpo,
                            repetir,
                            segundos,
                            medida,
                        )
                    )
                fases.append(
                    Fase(
                        nome,
                        medida,
                        envios,
                        medida.segundos,
                        somar(servidor.pid, "VmHWM"),
                        antes,
                        somar(servidor.pid, "VmRSS"),
                        (carga_antes, os.getloadavg()[0]),
                        vigia.travas,
                    )
                )

            fase("sem importação", 0, b"", base)
            aquecimento = asyncio.run(enviar_importacao(porta, dados))
            if aquecimento.status != "200":
                raise SystemExit(f"importação de aquecimento: {aquecimento}")
            fase("A — uma importação (substituindo os anos)", 1, substituir)
            fase("B — três importações ao mesmo tempo", 3, dados)
        finally:
            servidor.terminate()
            try:
                servidor.wait(timeout=60)
            except subprocess.TimeoutExpired:
                servidor.kill()
                servidor.wait()
        log = [
            linha
            for linha in registro.read_text(errors="replace").splitlines()
            if linha.strip() and not PARTIDA.search(linha) and not TRAVA_LONGA.search(linha)
        ]
    backend = "PostgreSQL" if banco.url.startswith("postgres") else "SQLite"
    return Rodada(backend, fases, aquecimento, rss_inicio, log)


# --- the report -----------------------------------------------------------------------------


def tempo(segundos: float) -> str:
    if segundos < 1:
        return f"{numero(segundos * 1000)} ms"
    return f"{numero(segundos, 2)} s"


def mib(kib: int) -> str:
    return f"{numero(kib / 1024)} MiB"


def linha_pedidos(fase: str, rotulo: str, m: Medida) -> str:
    tempos = m.por_rotulo.get(rotulo, [])
    status = dict(sorted(m.status_por_rotulo.get(rotulo, {}).items()))
    if not tempos:
        return f"| {fase} | {rotulo} | 0 | — | — | — | — | {status} |"
    acima = sum(1 for t in tempos if t > LIMITE)
    return (
        f"| {fase} | {rotulo} | {len(tempos)} | {tempo(percentil(tempos, 50))} | "
        f"{tempo(percentil(tempos, 99))} | {tempo(max(tempos))} | {acima} | {status} |"
    )


def importacoes(f: Fase) -> str:
    """Per import client, its sends: the refusals counted (``4 × 429``, with the
    ``Retry-After`` they gave), then the last answer and its duration; with several clients,
    first what they were answered when they sent at the same moment."""
    if not f.envios:
        return "—"
    partes = []
    for envios in f.envios:
        recusas = [e for e in envios[:-1] if e.status == "429"]
        ultimo = envios[-1]
        texto = f"{ultimo.status} em {tempo(ultimo.segundos)}"
        if recusas:
            esperas = sorted({e.tentar_em or "?" for e in recusas})
            texto = f"{len(recusas)} × 429 (Retry-After {', '.join(esperas)}) e então {texto}"
        partes.append(texto)
    if len(f.envios) > 1:
        juntos: dict[str, int] = {}
        for envios in f.envios:
            juntos[envios[0].status] = juntos.get(envios[0].status, 0) + 1
        mesmo = ", ".join(f"{n} × {status}" for status, n in sorted(juntos.items()))
        return f"ao mesmo tempo: {mesmo}; cada cliente: " + "; ".join(partes)
    return "; ".join(partes)


def maior_trava(f: Fase) -> str:
    if not f.travas:
        return "nenhuma ≥ 0,5 s"
    quando, segundos, acoes = max(f.travas, key=lambda t: t[1])
    return (
        f"{numero(segundos, 2)} s, acabou a {numero(quando, 1)} s da fase ({acoes}); "
        f"{len(f.travas)} de 0,5 s ou mais"
    )


def lentos(f: Fase) -> list[str]:
    """The requests over :data:`LIMITE`, when they started, and what the imports and the long
    lock holds were doing meanwhile."""
    acima = [(rotulo, inicio, s) for rotulo, inicio, s in f.medida.todos if s > LIMITE]
    if not acima:
        return []
    saida = [f"  {f.nome}: pedidos acima de 2 s (início → fim, em segundos da fase)"]
    for rotulo, inicio, s in sorted(acima, key=lambda a: a[1])[:MOSTRADOS]:
        saida.append(f"    {rotulo}: {tempo(s)} ({numero(inicio, 1)} → {numero(inicio + s, 1)})")
    if len(acima) > MOSTRADOS:
        saida.append(f"    (e mais {len(acima) - MOSTRADOS})")
    aceitas = [e for envios in f.envios for e in envios if e.status == "200"]
    for e in aceitas:
        saida.append(
            f"    importação: {numero(e.partida, 1)} → {numero(e.partida + e.segundos, 1)}"
        )
    if f.travas:
        horas = ", ".join(f"{numero(q, 1)} ({numero(s, 2)} s)" for q, s, _ in f.travas)
        saida.append(f"    travas de 0,5 s ou mais, quando foram registradas: {horas}")
    return saida


def relatorio(r: Rodada, clientes: int, pausa: float) -> list[str]:
    entram = sum(1 for i in range(clientes) if entra(i))
    salvam = clientes - entram
    saida = [
        f"importação longa em 127.0.0.1: banco {r.backend}, 1 processo uvicorn, "
        f"{os.cpu_count()} núcleos, {numero(2 * GRANDE)} linhas por importação; {clientes} "
        f"outros usuários ({entram} entrando pela página, {salvam} salvando casos), pausa de "
        f"{numero(pausa, 1)} s entre dois pedidos de cada um; memória residente do servidor "
        f"depois do aquecimento {mib(r.rss_inicio_kib)}",
        f"importação de aquecimento (anos novos, sem outros usuários): {r.aquecimento.status} "
        f"em {tempo(r.aquecimento.segundos)}",
        "",
        "| fase | pedido | n | p50 | p99 | máx | acima de 2 s | status |",
        "|---|---|--:|--:|--:|--:|--:|---|",
    ]
    for f in r.fases:
        for rotulo in (ENTRAR, SALVAR):
            saida.append(linha_pedidos(f.nome, rotulo, f.medida))
    saida += [
        "",
        "| fase | duração | importações: status e duração | trava da cadeia, a mais longa "
        "| pico de memória | residente antes → depois | falhas de conexão | carga do sistema |",
        "|---|--:|---|---|--:|--:|--:|--:|",
    ]
    for f in r.fases:
        saida.append(
            f"| {f.nome} | {tempo(f.segundos)} | {importacoes(f)} | {maior_trava(f)} | "
            f"{mib(f.pico_kib)} | {mib(f.rss_antes_kib)} → {mib(f.rss_depois_kib)} | "
            f"{f.medida.falhas} | {numero(f.carga_do_sistema[0], 1)} → "
            f"{numero(f.carga_do_sistema[1], 1)} |"
        )
    recusas = [e for f in r.fases for envios in f.envios for e in envios if e.status != "200"]
    estranhas = [e for e in recusas if e.status != "429"]
    for e in estranhas:
        saida.append(f"importação {e.status}: {e.corpo.decode(errors='replace')}")
    saida.append("")
    for f in r.fases:
        saida += lentos(f)
    saida.append("")
    if r.log:
        saida.append(f"log do servidor ({len(r.log)} linhas além da partida e das travas longas):")
        saida += [f"    {texto}" for texto in r.log[:MOSTRADOS]]
        if len(r.log) > MOSTRADOS:
            saida.append(f"    (e mais {len(r.log) - MOSTRADOS})")
    else:
        saida.append("log do servidor: nada além da partida e das travas longas")
    return saida


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    args.add_argument(
        "--banco",
        default=None,
        help="MULTAS_DATABASE_URL (padrão: SQLite temporário); PostgreSQL: um esquema novo, "
        "apagado no fim",
    )
    args.add_argument(
        "--clientes",
        type=int,
        default=4,
        help="outros usuários: os de índice par entram pela página, os ímpares salvam casos",
    )
    args.add_argument(
        "--pausa", type=float, default=0.5, help="segundos entre dois pedidos de cada usuário"
    )
    args.add_argument(
        "--segundos-base", type=float, default=10.0, help="duração da fase sem importação"
    )
    args.add_argument(
        "--sem-repetir",
        action="store_true",
        help="na fase B, uma importação recusada (429) não é enviada de novo",
    )
    args.add_argument(
        "--sem-entrar",
        action="store_true",
        help="todos os outros usuários salvam casos (a memória das importações, sem a dos logins)",
    )
    args.add_argument(
        "--aberto",
        action="store_true",
        help="servidor sem usuários (sem nenhuma conferência argon2), todos salvam casos: a "
        "memória das importações sozinhas",
    )
    opcoes = args.parse_args()
    global ENTRAM, ABERTO
    ABERTO = opcoes.aberto
    ENTRAM = not (opcoes.sem_entrar or opcoes.aberto)
    if opcoes.clientes < 2:
        args.error("--clientes: ao menos 2 (um entra pela página, outro salva casos)")
    inicio = time.monotonic()
    r = rodar(
        opcoes.banco, opcoes.clientes, opcoes.pausa, opcoes.segundos_base, not opcoes.sem_repetir
    )
    print("\n".join(relatorio(r, opcoes.clientes, opcoes.pausa)))
    print(f"\n{numero((time.monotonic() - inicio) / 60, 1)} min no total")


if __name__ == "__main__":
    main()
