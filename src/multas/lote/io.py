"""Batch files in and out, block by block (memory stays bounded whatever the file's size):
CSV (also pt-BR: ``;`` and decimal comma), XLSX, Parquet and JSON Lines (spec § 4).

Output: every input column as read, then ``valor`` and the regime's outputs, then ``erro``.
Money is exact: text with two decimals (``1234.56``, or ``1234,56`` in pt-BR mode) in CSV
and JSON Lines, ``decimal128(18, 2)`` in Parquet, a number cell shown ``"R$" #,##0.00`` in XLSX
(text from 10**13 reais, or with ``--xlsx-dinheiro-texto``); dates ISO (``date32`` in Parquet,
date cells shown dd/mm/yyyy in XLSX).

Here: opening a file (:func:`abrir`), the Parquet reader with its ramp of small first blocks,
and the atomic writing of the output; the other readers are :mod:`multas.lote.leitura`, the
writers :mod:`multas.lote.escrita`, where a file is :mod:`multas.lote.arquivo` (all
re-exported here).
"""

from __future__ import annotations

import os
import posixpath
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO

import pyarrow as pa

from multas.lote.arquivo import FORMATOS, Arquivo, Origem, _binario, _fechar, formato_de
from multas.lote.escrita import (
    AVISO_DINHEIRO_TEXTO,
    Destino,
    Escritor,
    abrir_escritor,
    escrever,
    nomes_de_saida,
    resultados_formatados,
)
from multas.lote.forma import nomes_das_colunas
from multas.lote.leitura import (
    Leitor,
    _ler_csv,
    _ler_jsonl,
    _ler_xlsx,
    diagnosticar_csv,
    texto_da_celula,
)
from multas.lote.processar import Bloco, Config
from multas.nucleo.erros import EntradaInvalida
from multas.saidas.exportacao import FORMATO_DATA, FORMATO_DINHEIRO, LIMITE_NUMERO_XLSX
from multas.servicos.pastas import sincronizar_pasta

# the CSV and Parquet writer, here with the others (tests/lote/test_vazao.py)
from multas.lote.escrita import _EscritorArrow  # noqa: F401  # isort: skip

__all__ = [
    "AVISO_DINHEIRO_TEXTO",
    "FORMATOS",
    "FORMATO_DATA",
    "FORMATO_DINHEIRO",
    "LIMITE_NUMERO_XLSX",
    "LINHAS_DA_RAMPA",
    "LINHAS_POR_BLOCO",
    "Arquivo",
    "Destino",
    "Escritor",
    "Leitor",
    "Origem",
    "abrir",
    "abrir_escritor",
    "diagnosticar_csv",
    "em_descida",
    "em_rampa",
    "escrever",
    "escrita_atomica",
    "escrita_atomica_remota",
    "formato_de",
    "glob_escape",
    "gravacao_atomica",
    "limpar_parciais",
    "nomes_de_saida",
    "resultados_formatados",
    "texto_da_celula",
]

LINHAS_POR_BLOCO = 1 << 18


def abrir(caminho: Origem, cfg: Config, linhas_por_bloco: int = LINHAS_POR_BLOCO) -> Leitor:
    formato = formato_de(caminho)
    if formato == "csv":
        return _ler_csv(caminho, cfg, linhas_por_bloco)
    if formato == "parquet":
        return _ler_parquet(caminho, cfg, linhas_por_bloco)
    if formato == "jsonl":
        return _ler_jsonl(caminho, cfg, linhas_por_bloco)
    return _ler_xlsx(caminho, cfg, linhas_por_bloco)


#: the first rows are read, computed and written in small blocks that double (16 384,
#: 32 768, … rows) up to a whole one: the writer, the pipeline's slowest stage, starts on the
#: first small block instead of waiting for a whole one to be read and computed
LINHAS_DA_RAMPA = 16_384


def em_rampa(
    lotes: Iterator[pa.RecordBatch], primeiro: int, linhas_por_bloco: int
) -> Iterator[pa.Table]:
    """Batches of ``primeiro`` rows regrouped into tables of ``primeiro`` rows, then twice as
    many, … up to the largest multiple of ``primeiro`` not above ``linhas_por_bloco`` (the
    same rows, in order; whole batches of at most ``primeiro`` rows, so no table is above
    ``linhas_por_bloco``)."""
    teto = max(primeiro, linhas_por_bloco // primeiro * primeiro)
    alvo = primeiro
    juntos: list[pa.RecordBatch] = []
    linhas = 0
    for lote in lotes:
        if juntos and linhas + lote.num_rows > alvo:  # a short batch: never past the target
            yield pa.Table.from_batches(juntos)
            juntos, linhas = [], 0
            alvo = min(2 * alvo, teto)
        juntos.append(lote)
        linhas += lote.num_rows
        if linhas >= alvo:
            yield pa.Table.from_batches(juntos)
            juntos, linhas = [], 0
            alvo = min(2 * alvo, teto)
    if juntos:
        yield pa.Table.from_batches(juntos)


def em_descida(tabela: pa.Table) -> Iterator[pa.Table]:
    """The last block in halves (½, ¼, … down to :data:`LINHAS_DA_RAMPA` rows): the writer's
    last piece of work, which nothing else overlaps, is then a small one."""
    while tabela.num_rows > LINHAS_DA_RAMPA:
        metade = (tabela.num_rows + 1) // 2
        yield tabela.slice(0, metade)
        tabela = tabela.slice(metade)
    yield tabela


def _ler_parquet(caminho: Origem, cfg: Config, linhas_por_bloco: int) -> Leitor:
    import pyarrow.parquet as pq

    def invalido() -> EntradaInvalida:
        return EntradaInvalida(
            None, f"{caminho.name}: arquivo Parquet inválido ou incompleto (truncado?)"
        )

    fonte = caminho if isinstance(caminho, Path) else _binario(caminho)
    try:
        arquivo = pq.ParquetFile(fonte, pre_buffer=True)
        nomes = list(arquivo.schema_arrow.names)
        # the headers matched as in every importer (--coluna, case, accents): a column that
        # names a field of the regime is read as it
        # (a typed data set's other columns are carried without a word)
        novos, _ = nomes_das_colunas(nomes, cfg, caminho.name)
    except (pa.ArrowException, OSError):
        _fechar(fonte)
        raise invalido() from None
    except EntradaInvalida:
        _fechar(fonte)
        raise

    def blocos() -> Iterator[Bloco]:
        inicio = 0
        try:
            # one row group at a time: a single iter_batches over the whole file keeps the
            # buffers it has read until the end (memory grew with the file)
            for grupo in range(arquivo.metadata.num_row_groups):
                # decoded in the reader's own thread (use_threads=False): the other core
                # is the writer's and the computers' (multas.lote.executor)
                primeiro = linhas_por_bloco if grupo else min(LINHAS_DA_RAMPA, linhas_por_bloco)
                lotes = arquivo.iter_batches(
                    batch_size=primeiro, row_groups=[grupo], use_threads=False
                )
                for tabela in em_rampa(lotes, primeiro, linhas_por_bloco):
                    if novos != nomes:
                        tabela = tabela.rename_columns(novos)
                    ultima = inicio + tabela.num_rows == arquivo.metadata.num_rows
                    for parte in em_descida(tabela) if ultima else [tabela]:
                        yield Bloco(inicio, parte)
                        inicio += parte.num_rows
        except (pa.ArrowException, OSError):
            raise invalido() from None
        finally:
            _fechar(fonte)
        if inicio == 0:
            yield Bloco(0, arquivo.schema_arrow.empty_table().rename_columns(novos))

    return Leitor(novos, blocos())


def _parciais(destino: Path) -> Iterator[Path]:
    yield from destino.parent.glob(f".{glob_escape(destino.name)}.*.parcial")


def glob_escape(nome: str) -> str:
    """``nome`` with glob's special characters taken literally.

    >>> glob_escape("r[1]*.csv")
    'r[[]1[]][*].csv'
    """
    return "".join(f"[{c}]" if c in "*?[]" else c for c in nome)


def limpar_parciais(destino: Path) -> list[Path]:
    """Remove the partial files of ``destino`` that a killed run left behind (a run that is
    still alive holds a lock on its own, so it is left alone). Returns what was removed."""
    removidos = []
    for parcial in _parciais(destino):
        try:
            with open(parcial, "rb") as arquivo:
                if not _livre(arquivo.fileno(), parcial):
                    continue
                parcial.unlink()
                removidos.append(parcial)
        except OSError:
            continue
    return removidos


def _livre(fd: int, parcial: Path) -> bool:
    """Whether no running process owns this partial file."""
    try:
        import fcntl
    except ImportError:  # not POSIX: the pid in the name tells
        pid = parcial.name.rsplit(".", 2)[-2]
        return not (pid.isdigit() and _vivo(int(pid)))
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def _vivo(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def _anonimo(pasta: Path) -> int | None:
    """An unnamed file in ``pasta`` (Linux ``O_TMPFILE``): nothing to clean if the process is
    killed, even by SIGKILL; ``None`` where the system or the file system has none."""
    flag = getattr(os, "O_TMPFILE", None)
    if flag is None or not Path("/proc/self/fd").is_dir():
        return None
    try:
        return os.open(pasta, flag | os.O_WRONLY, 0o666)
    except OSError:
        return None


@contextmanager
def _sincronizando(fd: int, intervalo: float = 0.05) -> Iterator[None]:
    """While the output is being written, a thread flushes what is already written to disk
    (``fdatasync`` every ``intervalo`` seconds), so the final ``fsync`` waits only for the
    last blocks: it took 20–30 ms of an 80 MB batch's end, alone, and now overlaps the work."""
    import threading
    import time

    parar = threading.Event()
    # fdatasync is Linux's (CPython has none on macOS or Windows): fsync does the same there
    descarregar = getattr(os, "fdatasync", None) or os.fsync

    def sincronizar() -> None:
        espera = intervalo
        while not parar.wait(espera):
            inicio = time.monotonic()
            try:
                descarregar(fd)
            except Exception:  # only an early flush: the final fsync still says what failed
                return
            # on slow storage (a network disk) flush less often: at most a third of the time
            espera = max(intervalo, 2 * (time.monotonic() - inicio))

    linha = threading.Thread(target=sincronizar, name="multas-sincronia", daemon=True)
    linha.start()
    try:
        yield
    finally:
        parar.set()
        linha.join()


@contextmanager
def escrita_atomica(destino: Path) -> Iterator[Path]:
    """A temporary file beside ``destino``, renamed over it only when everything was written
    and flushed to disk (fsync, then the rename, then the folder's fsync): an interrupted run
    leaves the old output, if any, intact, and no half-written file.

    On Linux the temporary file has no name until it is complete (``O_TMPFILE``), so even a
    ``kill -9`` leaves nothing behind. Elsewhere it is ``.NAME.<pid>.parcial``, locked while
    the run lives; a killed run's one is removed by the next run that writes ``destino``.
    """
    pasta = destino.parent
    if not pasta.is_dir():
        raise EntradaInvalida(None, f"a pasta de saída não existe: {pasta}")
    limpar_parciais(destino)
    nome_parcial = destino.with_name(f".{destino.name}.{os.getpid()}.parcial")
    anonimo = _anonimo(pasta)
    if anonimo is not None:
        try:
            with _sincronizando(anonimo):
                yield Path(f"/proc/self/fd/{anonimo}")
            os.fsync(anonimo)
            procfd = os.open("/proc/self/fd", os.O_RDONLY)
            try:  # linkat(AT_SYMLINK_FOLLOW): give the complete file its (temporary) name
                os.link(str(anonimo), nome_parcial, src_dir_fd=procfd, follow_symlinks=True)
            finally:
                os.close(procfd)
            try:
                os.replace(nome_parcial, destino)
            except BaseException:
                nome_parcial.unlink(missing_ok=True)
                raise
            sincronizar_pasta(pasta)
        finally:
            os.close(anonimo)
        return
    trava = os.open(nome_parcial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
    try:
        try:
            import fcntl

            fcntl.flock(trava, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except ImportError:
            pass
        with _sincronizando(trava):
            yield nome_parcial
        with open(nome_parcial, "rb+") as escrito:
            os.fsync(escrito.fileno())
        os.replace(nome_parcial, destino)
        sincronizar_pasta(pasta)
    except BaseException:
        nome_parcial.unlink(missing_ok=True)
        raise
    finally:
        os.close(trava)


@contextmanager
def escrita_atomica_remota(destino: Arquivo) -> Iterator[IO[bytes]]:
    """The same on another fsspec file system (object storage has no rename that can fail
    half-way, nor fsync): a hidden temporary object beside ``destino``
    (``.NAME.<random>.parcial``: readers of data sets skip names starting with a dot), moved
    onto ``destino`` when complete; removed on error. Two attempts at the same file (a Dask
    retry) never share a temporary name, and both write the same bytes."""
    fs = destino.fs
    pasta, nome = posixpath.split(destino.caminho)
    temporario = posixpath.join(pasta, f".{nome}.{uuid.uuid4().hex}.parcial")
    with suppress(Exception):  # object stores have no folders
        fs.makedirs(pasta, exist_ok=True)
    try:
        with fs.open(temporario, "wb") as arquivo:
            yield arquivo
        fs.mv(temporario, destino.caminho)
    except BaseException:
        with suppress(Exception):
            fs.rm(temporario)
        raise


@contextmanager
def gravacao_atomica(destino: Origem) -> Iterator[Destino]:
    """:func:`escrita_atomica` for a local path, :func:`escrita_atomica_remota` otherwise."""
    if isinstance(destino, Path):
        with escrita_atomica(destino) as temporario:
            yield temporario
    else:
        with escrita_atomica_remota(destino) as arquivo:
            yield arquivo
