"""Run a batch on one file: read blocks, compute them on every core (or a Dask cluster), write
them in order.

Locally the work is a pipeline: a thread reads ahead, computers turn blocks into prepared
output, and a thread writes them in input order; reading, computing and writing overlap
(Arrow, Parquet and NumPy release the GIL). The writer is the slowest stage (one Parquet
writer encodes and compresses on one core), so the run lasts as long as it writes: it starts
on a small first block (:func:`_em_rampa`), and the computers run below its priority
(:func:`ceder_ao_escritor`), taking the CPU it leaves. Where the rule has the exact
kernel, the blocks are computed by one thread, ``nucleos - 2`` on more than three cores
(measured on two cores: a second computing thread only fought the reader and the writer for
the CPU). Where every row goes through the scalar engine (pure Python, which threads cannot
run in parallel), the rows go to ``nucleos`` processes, each block cut into slices and put
back together before it is written. Memory stays bounded: only a few blocks are in flight.

With ``--dask`` and a single file, the client reads it and ships each block (only the columns
the rule reads, scattered to a worker rather than inside the task graph) to the cluster;
a partitioned input (:mod:`multas.lote.particoes`) has the workers read and write their own
files instead. Either way the output is byte for byte the local one: every path ends in the
same pure :func:`multas.lote.processar.processar`.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import queue
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pyarrow as pa

from multas.lote.cluster import Dask, cliente, nucleos_do_cluster
from multas.lote.contagem import contar_linhas
from multas.lote.io import (
    AVISO_DINHEIRO_TEXTO,
    LINHAS_DA_RAMPA,
    LINHAS_POR_BLOCO,
    Escritor,
    Origem,
    abrir,
    abrir_escritor,
    formato_de,
    gravacao_atomica,
)
from multas.lote.processar import (
    Bloco,
    Config,
    com_erros_do_id,
    juntar,
    linhas_no_motor,
    motivos_no_motor,
    processar,
    somar_motivos,
)
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.legislacao import carregar

__all__ = ["Dask", "Resumo", "executar", "nucleos_disponiveis"]

#: rows per slice of a block that the scalar engine computes in another process
LINHAS_POR_FATIA = 2048
#: below this many rows (a single block), starting the processes (about half a second) costs
#: more than it saves: the rows are computed here
LINHAS_PARA_PROCESSOS = 16_384


@dataclass
class Resumo:
    linhas: int = 0
    erros: int = 0
    segundos: float = 0.0
    particoes: int = 0
    #: valid rows the kernel did not take, computed by the scalar engine
    motor: int = 0
    #: and why: each reason (pt-BR) → how many of those rows
    motivos: dict[str, int] = field(default_factory=dict)
    #: warnings about the output (pt-BR) → how many cells (money kept as text in XLSX)
    avisos: dict[str, int] = field(default_factory=dict)
    #: what the reader says of the input (pt-BR): how it was read, the title rows above the
    #: header, the notes after the table (never counted), the columns carried through
    leitura: list[str] = field(default_factory=list)

    @property
    def sucessos(self) -> int:
        return self.linhas - self.erros


def nucleos_disponiveis() -> int:
    """The cores this process may run on (its CPU affinity, which a container may limit)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def _enxuto(bloco: Bloco, cfg: Config) -> Bloco:
    """What a worker needs: the rule's columns (not the pass-through ones), and the rows whose
    ``id`` is refused already marked (:func:`~multas.lote.processar.com_erros_do_id`)."""
    bloco = com_erros_do_id(bloco)
    nomes = [n for n in cfg.campos if n in bloco.tabela.column_names]
    linhas = None
    if bloco.linhas is not None:
        linhas = [
            None if linha is None else {n: linha.get(n) for n in cfg.campos}
            for linha in bloco.linhas
        ]
    return Bloco(bloco.inicio, bloco.tabela.select(nomes), linhas, bloco.erros)


# --- computing: the strategies ----------------------------------------------------------------

#: a computed block: the block, its result columns, what the writer will write
Pronto = tuple[Bloco, pa.Table, Any]


def _calcular(bloco: Bloco, cfg: Config, escritor: Escritor) -> Pronto:
    resultado = processar(bloco, cfg)
    return bloco, resultado, escritor.preparar(bloco, resultado)


def _em_linha(blocos: Iterator[Bloco], cfg: Config, escritor: Escritor) -> Iterator[Pronto]:
    for bloco in blocos:
        yield _calcular(bloco, cfg, escritor)


def _em_ordem(pendentes: deque[Future[Pronto]], janela: int) -> Iterator[Pronto]:
    while len(pendentes) > janela:
        yield pendentes.popleft().result()


#: how much lower the reader's and the computers' priority is than the writer's (Linux nice
#: steps, per thread)
DEGRAUS_ABAIXO_DO_ESCRITOR = 10


def ceder_ao_escritor() -> None:
    """Lower this thread's CPU priority (Linux only, per thread; any process may lower its
    own). Called by the computing threads, which the batch starts and ends and which start no
    other thread. The writer is the pipeline's slowest stage (one Parquet writer encodes and
    compresses on a single core) and the run lasts as long as it does: the computers, which
    run ahead of it, take the CPU it leaves. Measured on two cores (2M rows of Parquet): with
    all at the same priority the writer got about two thirds of a core, and the run took
    0.58–0.62 s instead of 0.51–0.54 s."""
    if sys.platform != "linux":
        return
    with contextlib.suppress(OSError):
        linha = threading.get_native_id()
        atual = os.getpriority(os.PRIO_PROCESS, linha)
        os.setpriority(os.PRIO_PROCESS, linha, min(19, atual + DEGRAUS_ABAIXO_DO_ESCRITOR))


def _em_threads(
    blocos: Iterator[Bloco], cfg: Config, escritor: Escritor, nucleos: int
) -> Iterator[Pronto]:
    """Whole blocks on ``nucleos`` threads (below the writer's priority), handed on in input
    order."""
    with ThreadPoolExecutor(
        nucleos, thread_name_prefix="multas-calculo", initializer=ceder_ao_escritor
    ) as pool:
        pendentes: deque[Future[Pronto]] = deque()
        try:
            for bloco in blocos:
                pendentes.append(pool.submit(_calcular, bloco, cfg, escritor))
                yield from _em_ordem(pendentes, nucleos)
            yield from _em_ordem(pendentes, 0)
        finally:
            for futuro in pendentes:
                futuro.cancel()


_TRACKER_CALADO = "ignore::UserWarning:multiprocessing.resource_tracker"


def pool_de_processos(nucleos: int) -> Executor:
    """``nucleos`` worker processes (``spawn``: a fresh interpreter, never a fork of this
    threaded process), each watching this one: if it dies, even by SIGKILL, they exit too."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    # the interpreters multiprocessing starts take their warning filters from this list: its
    # resource tracker, which cleans up after a SIGKILLed run, must not warn in English
    if _TRACKER_CALADO not in sys.warnoptions:
        sys.warnoptions.append(_TRACKER_CALADO)
    return ProcessPoolExecutor(
        nucleos,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_vigiar_pai,
        initargs=(os.getpid(),),
    )


def _vigiar_pai(pai: int) -> None:
    """In a worker process: exit as soon as the process that started it is gone (its
    orphans are adopted by another process, so the parent id changes)."""

    def vigiar() -> None:
        while os.getppid() == pai:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=vigiar, name="multas-vigia", daemon=True).start()


def _em_processos(
    blocos: Iterator[Bloco], cfg: Config, escritor: Escritor, nucleos: int
) -> Iterator[Pronto]:
    """The scalar engine on ``nucleos`` processes: each block cut into slices (only the rule's
    columns travel), its results put back together in order, two blocks in flight. A small
    input (one block of fewer than :data:`LINHAS_PARA_PROCESSOS` rows) is computed here,
    without starting any process."""
    primeiro = next(blocos, None)
    if primeiro is None:
        return
    segundo = next(blocos, None)
    if segundo is None and len(primeiro) < LINHAS_PARA_PROCESSOS:
        yield _calcular(primeiro, cfg, escritor)
        return
    inicio = [primeiro] if segundo is None else [primeiro, segundo]
    pool = pool_de_processos(nucleos)
    pendentes: deque[tuple[Bloco, list[Future[pa.Table]]]] = deque()

    def pronto() -> Pronto:
        bloco, futuros = pendentes.popleft()
        resultado = juntar([f.result() for f in futuros])
        return bloco, resultado, escritor.preparar(bloco, resultado)

    try:
        for bloco in itertools.chain(inicio, blocos):
            pendentes.append((bloco, _submeter(pool, bloco, cfg)))
            while len(pendentes) > 1:
                yield pronto()
        while pendentes:
            yield pronto()
    finally:
        for _, futuros in pendentes:
            for futuro in futuros:
                futuro.cancel()
        pool.shutdown(wait=True, cancel_futures=True)


def _submeter(pool: Executor, bloco: Bloco, cfg: Config) -> list[Future[pa.Table]]:
    enxuto = _enxuto(bloco, cfg)
    return [
        pool.submit(processar, fatia.compacto(), cfg) for fatia in enxuto.fatias(LINHAS_POR_FATIA)
    ]


def _no_cluster(
    blocos: Iterator[Bloco], cfg: Config, escritor: Escritor, onde: Dask
) -> Iterator[Pronto]:
    """Blocks computed on a Dask cluster, in order, a bounded number in flight. Each block is
    scattered (sent to a worker as data) and the task refers to it, so the task graph stays
    small."""
    with cliente(onde) as conectado:
        janela = 2 * nucleos_do_cluster(conectado)  # enough to keep every worker busy
        pendentes: deque[tuple[Bloco, Any]] = deque()

        def pronto() -> Pronto:
            anterior, futuro = pendentes.popleft()
            resultado = futuro.result()
            return anterior, resultado, escritor.preparar(anterior, resultado)

        for bloco in blocos:
            [dados] = conectado.scatter([_enxuto(bloco, cfg).compacto()], hash=False)
            pendentes.append((bloco, conectado.submit(processar, dados, cfg, pure=False)))
            while len(pendentes) >= janela:
                yield pronto()
        while pendentes:
            yield pronto()


def precisa_de_processos(cfg: Config) -> bool:
    """Whether the rule runs on the scalar engine only (pure Python: processes, not threads,
    to use more than one core)."""
    from multas.nucleo.kernel import KERNELS

    return not (cfg.kernel and cfg.regime in KERNELS)


# --- the pipeline's ends: reading ahead, writing behind ---------------------------------------


class _EmSegundoPlano:
    """The writer in a thread, fed in order through a short queue: writing a block (Arrow and
    Parquet release the GIL) overlaps computing the next ones. The queue holds at most two
    blocks, so memory stays bounded; an error in the thread is raised here."""

    def __init__(self, escritor: Escritor, ao_gravar: Callable[[int], None] | None = None) -> None:
        self.escritor = escritor
        #: told the rows of each block once it is written (the progress's "gravando")
        self.ao_gravar = ao_gravar
        self.fila: queue.Queue[Any] = queue.Queue(maxsize=2)
        self.erro: BaseException | None = None
        self.linha = threading.Thread(target=self._trabalhar, name="multas-escritor", daemon=True)
        self._fim = object()

    def _trabalhar(self) -> None:
        while (item := self.fila.get()) is not self._fim:
            if self.erro is None:
                preparado, linhas = item
                try:
                    self.escritor.gravar(preparado)
                    if self.ao_gravar is not None:
                        self.ao_gravar(linhas)
                except BaseException as erro:
                    self.erro = erro

    def gravar(self, preparado: Any, linhas: int = 0) -> None:
        if self.erro is not None:
            raise self.erro
        self.fila.put((preparado, linhas))

    def __enter__(self) -> _EmSegundoPlano:
        self.linha.start()
        return self

    def __exit__(self, tipo: object, *_: object) -> None:
        self.fila.put(self._fim)
        self.linha.join()
        if tipo is None:
            if self.erro is not None:
                raise self.erro
            self.escritor.fechar()
        else:
            with contextlib.suppress(Exception):  # the original error is the one to report
                self.escritor.fechar()


class _Adiantado:
    """Read ahead in a thread (Arrow decodes without the GIL), at most ``quantos`` blocks,
    from the moment it is made: the first block is read while the caller gets ready (loads
    the legislation, opens the output). :meth:`close` stops the reader, whatever happened."""

    def __init__(self, blocos: Iterator[Bloco], quantos: int = 2) -> None:
        self._blocos = blocos
        self._fila: queue.Queue[tuple[str, Any]] = queue.Queue(maxsize=quantos)
        self._parar = threading.Event()
        self._acabou = False
        self._linha = threading.Thread(target=self._ler, name="multas-leitor", daemon=True)
        self._linha.start()

    def _ler(self) -> None:
        # at the writer's priority: a thread lowered here would hand its priority on to the
        # threads Arrow starts from it (its I/O pool), which outlive the batch
        try:
            for bloco in self._blocos:
                if self._parar.is_set():
                    return
                self._fila.put(("bloco", bloco))
            self._fila.put(("fim", None))
        except BaseException as erro:
            self._fila.put(("erro", erro))
        finally:
            fechar = getattr(self._blocos, "close", None)
            if fechar is not None:
                with contextlib.suppress(Exception):
                    fechar()  # the input file, when the reader stops early

    def __iter__(self) -> _Adiantado:
        return self

    def __next__(self) -> Bloco:
        if self._acabou:
            raise StopIteration
        tipo, item = self._fila.get()
        if tipo == "bloco":
            bloco: Bloco = item
            return bloco
        self._acabou = True
        if tipo == "erro":
            raise item
        raise StopIteration

    def close(self) -> None:
        self._acabou = True
        self._parar.set()
        while self._linha.is_alive():  # unblock a reader waiting on a full queue
            with contextlib.suppress(queue.Empty):
                self._fila.get(timeout=0.05)


def _em_rampa(blocos: Iterator[Bloco], inicial: int = LINHAS_DA_RAMPA) -> Iterator[Bloco]:
    """``blocos`` with the first one cut into slices of ``inicial``, ``2 × inicial``, … rows
    (the same rows in the same order: only where the output's row groups end moves), so the
    writer, the pipeline's slowest stage, starts early. The Parquet reader already reads its
    first row group that way (:func:`multas.lote.io.em_rampa`); for it this changes nothing."""
    primeiro = next(blocos, None)
    if primeiro is None:
        return
    feito, tamanho = 0, inicial
    while len(primeiro) - feito > tamanho:
        yield primeiro.fatia(feito, tamanho)
        feito, tamanho = feito + tamanho, 2 * tamanho
    yield primeiro if feito == 0 else primeiro.fatia(feito, len(primeiro) - feito)
    yield from blocos


def _contados(
    blocos: Iterator[Bloco], avancar: Callable[[int, int | None], None], total: int | None
) -> Iterator[Bloco]:
    """``blocos`` as they are, telling ``avancar`` the rows read so far."""
    lidas = 0
    try:
        for bloco in blocos:
            lidas += len(bloco)
            avancar(lidas, total)
            yield bloco
    finally:
        fechar = getattr(blocos, "close", None)
        if fechar is not None:
            fechar()


def _mesmo_arquivo(entrada: Origem, saida: Origem) -> bool:
    if isinstance(entrada, Path) and isinstance(saida, Path):
        return entrada.resolve() == saida.resolve()
    if isinstance(entrada, Path) or isinstance(saida, Path):
        return False
    return type(entrada.fs) is type(saida.fs) and entrada.caminho == saida.caminho


def executar(
    entrada: Origem,
    saida: Origem,
    cfg: Config,
    *,
    linhas_por_bloco: int = LINHAS_POR_BLOCO,
    dask: Dask | None = None,
    nucleos: int | None = None,
    ao_avancar: Callable[[int, int | None], None] | None = None,
    fases: Mapping[str, Callable[[int, int | None], None]] | None = None,
) -> Resumo:
    """Compute every row of ``entrada`` into ``saida`` (same format), atomically.

    ``nucleos``: computers for a local run (default: every core this process may use).
    ``ao_avancar``: told the rows done (and the total, when known) after each block;
    ``fases``: the same for each stage of the pipeline, ``lendo``, ``calculando`` and
    ``gravando`` (each from its own thread)."""
    formato = formato_de(entrada)
    if formato_de(saida) != formato:
        raise EntradaInvalida(
            None, f"a saída deve ter o formato da entrada ({entrada.suffix}), não {saida.suffix}"
        )
    if _mesmo_arquivo(entrada, saida):
        raise EntradaInvalida(None, "a saída não pode ser o próprio arquivo de entrada")
    nucleos = nucleos_disponiveis() if nucleos is None else max(1, nucleos)
    inicio = time.perf_counter()
    resumo = Resumo()
    total: int | None = None
    fases = fases or {}
    if ao_avancar is not None or fases:  # only the bar wants it (a partition's task: none)
        total = contar_linhas(entrada)
        for avancar in (ao_avancar, *fases.values()):
            if avancar is not None:
                avancar(0, total)
    leitor = abrir(entrada, cfg, linhas_por_bloco)
    lendo, calculando = fases.get("lendo"), fases.get("calculando")
    gravadas = 0

    def gravado(linhas: int) -> None:
        nonlocal gravadas
        gravadas += linhas
        fases["gravando"](gravadas, total)

    if leitor.decimal_virgula is not None:  # the numbers as this file writes them
        cfg = replace(cfg, decimal_virgula=leitor.decimal_virgula)
    with gravacao_atomica(saida) as temporario:  # a missing output folder fails before reading
        lidos = leitor.blocos if lendo is None else _contados(leitor.blocos, lendo, total)
        blocos = _Adiantado(_em_rampa(lidos))  # reading starts now
        try:
            carregar()  # meanwhile (the first computer needs it)
            escritor = abrir_escritor(temporario, formato, leitor.colunas, cfg)
            if dask is not None:
                prontos = _no_cluster(blocos, cfg, escritor, dask)
            elif nucleos > 1 and precisa_de_processos(cfg):
                prontos = _em_processos(blocos, cfg, escritor, nucleos)
            elif nucleos > 1:
                prontos = _em_threads(blocos, cfg, escritor, max(1, nucleos - 2))
            else:
                prontos = _em_linha(blocos, cfg, escritor)
            ao_gravar = gravado if "gravando" in fases else None
            with _EmSegundoPlano(escritor, ao_gravar) as fila:
                try:
                    for bloco, resultado, preparado in prontos:
                        fila.gravar(preparado, len(bloco))
                        resumo.linhas += len(bloco)
                        erro = resultado.column("erro")
                        resumo.erros += len(erro) - erro.null_count
                        resumo.motor += linhas_no_motor(resultado)
                        somar_motivos(resumo.motivos, motivos_no_motor(resultado))
                        if ao_avancar is not None:
                            ao_avancar(resumo.linhas, total)
                        if calculando is not None:
                            calculando(resumo.linhas, total)
                finally:  # stop the computers and the reader now, whatever happened
                    prontos.close()  # type: ignore[attr-defined]
                    blocos.close()
        finally:  # also when the writer cannot even be opened
            blocos.close()
    dinheiro_texto = getattr(escritor, "dinheiro_texto", 0)
    if dinheiro_texto:
        resumo.avisos[AVISO_DINHEIRO_TEXTO] = dinheiro_texto
    resumo.leitura = list(leitor.avisos)
    resumo.segundos = time.perf_counter() - inicio
    return resumo
