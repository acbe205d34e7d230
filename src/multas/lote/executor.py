"""Run a batch: read blocks, process them here or on a Dask cluster, write them in order.

The Dask path ships each block (only the columns the rule reads) to a worker, runs the same
:func:`multas.lote.processar.processar` there, and writes the results in input order, with a
bounded number of blocks in flight, so memory stays bounded on both sides and the output is
byte for byte the local one.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from multas.erros import EntradaInvalida
from multas.lote.io import (
    LINHAS_POR_BLOCO,
    Escritor,
    abrir,
    abrir_escritor,
    escrita_atomica,
    formato_de,
)
from multas.lote.processar import Bloco, Config, processar


@dataclass
class Resumo:
    linhas: int = 0
    erros: int = 0
    segundos: float = 0.0

    @property
    def sucessos(self) -> int:
        return self.linhas - self.erros


def _enxuto(bloco: Bloco, cfg: Config) -> Bloco:
    """What a worker needs: the rule's columns (not the pass-through ones)."""
    nomes = [n for n in cfg.campos if n in bloco.tabela.column_names]
    linhas = None
    if bloco.linhas is not None:
        linhas = [
            None if linha is None else {n: linha.get(n) for n in cfg.campos}
            for linha in bloco.linhas
        ]
    return Bloco(bloco.inicio, bloco.tabela.select(nomes), linhas, bloco.erros)


def _local(blocos: Iterator[Bloco], cfg: Config) -> Iterator[tuple[Bloco, pa.Table]]:
    for bloco in blocos:
        yield bloco, processar(bloco, cfg)


@dataclass(frozen=True)
class Dask:
    """Where to run: a scheduler address (``tcp://host:8786``), or ``None`` for a local
    cluster of ``trabalhadores`` processes with one thread each."""

    endereco: str | None = None
    trabalhadores: int = 2


def _dask(blocos: Iterator[Bloco], cfg: Config, onde: Dask) -> Iterator[tuple[Bloco, pa.Table]]:
    from importlib import import_module

    distributed: Any = import_module("distributed")  # typed loosely upstream
    cluster: Any = None
    if onde.endereco is None:
        cluster = distributed.LocalCluster(
            n_workers=onde.trabalhadores,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
        )
        cliente = distributed.Client(cluster)
    else:
        cliente = distributed.Client(onde.endereco)
    try:
        nucleos = max(1, sum(cliente.nthreads().values()))
        janela = 2 * nucleos  # blocks in flight: enough to keep every worker busy
        pendentes: deque[tuple[Bloco, Any]] = deque()
        for bloco in blocos:
            futuro = cliente.submit(processar, _enxuto(bloco, cfg), cfg, pure=False)
            pendentes.append((bloco, futuro))
            while len(pendentes) >= janela:
                anterior, pronto = pendentes.popleft()
                yield anterior, pronto.result()
        while pendentes:
            anterior, pronto = pendentes.popleft()
            yield anterior, pronto.result()
    finally:
        cliente.close()
        if cluster is not None:
            cluster.close()


class _EmSegundoPlano:
    """The writer in a thread, fed in order through a short queue: encoding and writing a
    block (Arrow/Parquet release the GIL) overlaps computing the next one. The queue holds
    at most two blocks, so memory stays bounded; an error in the thread is raised here."""

    def __init__(self, escritor: Escritor) -> None:
        self.escritor = escritor
        self.fila: queue.Queue[tuple[Bloco, pa.Table] | None] = queue.Queue(maxsize=2)
        self.erro: BaseException | None = None
        self.linha = threading.Thread(target=self._trabalhar, name="multas-escritor", daemon=True)

    def _trabalhar(self) -> None:
        while (item := self.fila.get()) is not None:
            if self.erro is None:
                try:
                    self.escritor.escrever(*item)
                except BaseException as erro:
                    self.erro = erro

    def escrever(self, bloco: Bloco, resultado: pa.Table) -> None:
        if self.erro is not None:
            raise self.erro
        self.fila.put((bloco, resultado))

    def __enter__(self) -> _EmSegundoPlano:
        self.linha.start()
        return self

    def __exit__(self, tipo: object, *_: object) -> None:
        self.fila.put(None)
        self.linha.join()
        if tipo is None:
            if self.erro is not None:
                raise self.erro
            self.escritor.fechar()
        else:
            with contextlib.suppress(Exception):  # the original error is the one to report
                self.escritor.fechar()


def _adiantado(blocos: Iterator[Bloco], quantos: int = 2) -> Iterator[Bloco]:
    """Read ahead in a thread (Arrow decodes without the GIL), at most ``quantos`` blocks."""
    fila: queue.Queue[tuple[str, Any]] = queue.Queue(maxsize=quantos)
    parar = threading.Event()

    def ler() -> None:
        try:
            for bloco in blocos:
                if parar.is_set():
                    return
                fila.put(("bloco", bloco))
            fila.put(("fim", None))
        except BaseException as erro:
            fila.put(("erro", erro))

    linha = threading.Thread(target=ler, name="multas-leitor", daemon=True)
    linha.start()
    try:
        while True:
            tipo, item = fila.get()
            if tipo == "fim":
                return
            if tipo == "erro":
                raise item
            yield item
    finally:
        parar.set()
        while linha.is_alive():  # unblock a reader waiting on a full queue
            with contextlib.suppress(queue.Empty):
                fila.get(timeout=0.05)


def executar(
    entrada: Path,
    saida: Path,
    cfg: Config,
    *,
    linhas_por_bloco: int = LINHAS_POR_BLOCO,
    dask: Dask | None = None,
    ao_avancar: Callable[[int, int | None], None] | None = None,
) -> Resumo:
    """Compute every row of ``entrada`` into ``saida`` (same format), atomically."""
    formato = formato_de(entrada)
    if formato_de(saida) != formato:
        raise EntradaInvalida(
            None, f"a saída deve ter o formato da entrada ({entrada.suffix}), não {saida.suffix}"
        )
    if entrada.resolve() == saida.resolve():
        raise EntradaInvalida(None, "a saída não pode ser o próprio arquivo de entrada")
    inicio = time.perf_counter()
    resumo = Resumo()
    leitor = abrir(entrada, cfg, linhas_por_bloco)
    blocos = _adiantado(leitor.blocos)
    resultados = _local(blocos, cfg) if dask is None else _dask(blocos, cfg, dask)
    with escrita_atomica(saida) as temporario:
        escritor = abrir_escritor(temporario, formato, leitor.colunas, cfg)
        with _EmSegundoPlano(escritor) as fila:
            for bloco, resultado in resultados:
                fila.escrever(bloco, resultado)
                resumo.linhas += len(bloco)
                resumo.erros += int(pc.sum(pc.is_valid(resultado.column("erro"))).as_py() or 0)
                if ao_avancar is not None:
                    ao_avancar(resumo.linhas, leitor.total)
    resumo.segundos = time.perf_counter() - inicio
    return resumo
