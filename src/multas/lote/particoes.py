"""A partitioned batch: a folder, a glob or an fsspec URL of data files in; a folder with one
output file per input file (same relative name, same format) out, and ``_SUCCESS`` written
last.

Each partition is one task: open the input file, compute every row (the same
:func:`multas.lote.executor.executar` as a single file, so the same bytes), write the output
file atomically. With Dask the workers run these tasks: each one reads and writes its own
files, and only names, counts and errors travel through the client, whose memory therefore
does not grow with the data. Without Dask the same tasks run here, one after the other.

The run is atomic as a whole: a stale ``_SUCCESS`` is removed before anything is written, each
output file appears only complete, and ``_SUCCESS`` (a JSON manifest of the files, their rows
and their errors) is written only when every partition is. A folder without ``_SUCCESS`` is not
a result.

File systems are fsspec's: ``file://`` and plain paths (the local disk: atomic rename, fsync),
``memory://`` (tests), and whatever backend the user installs (``s3fs`` for ``s3://``,
``gcsfs`` for ``gs://``…), with its own configuration (environment variables, fsspec's
configuration files) on the client and on every worker.
"""

from __future__ import annotations

import json
import os
import posixpath
import time
import uuid
from collections.abc import Callable, Generator
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from multas.lote.cluster import Dask, cliente, importar_distributed, nucleos_do_cluster
from multas.lote.contagem import contar_linhas, somar
from multas.lote.executor import (
    Resumo,
    executar,
    nucleos_disponiveis,
    pool_de_processos,
    precisa_de_processos,
)
from multas.lote.io import (
    FORMATOS,
    LINHAS_POR_BLOCO,
    Arquivo,
    Origem,
    gravacao_atomica,
    limpar_parciais,
)
from multas.lote.processar import Config, somar_motivos
from multas.nucleo.erros import EntradaInvalida

#: written last, in the output folder, when every partition is complete
MARCADOR = "_SUCCESS"
_MAGICOS = frozenset("*?[")


@dataclass(frozen=True)
class Particao:
    """One input file and its output file: local paths or fsspec URLs, as a worker opens
    them; ``nome`` is the file's name relative to the input (and the output) folder."""

    nome: str
    entrada: str
    saida: str


@dataclass(frozen=True)
class Plano:
    particoes: tuple[Particao, ...]
    formato: str
    #: the output folder: a local path or an fsspec URL
    saida: str


@dataclass(frozen=True)
class Feito:
    """What a task sends back: a few numbers, or why the partition failed (pt-BR)."""

    nome: str
    linhas: int = 0
    erros: int = 0
    falha: str | None = None
    #: valid rows the kernel did not take, computed by the scalar engine
    motor: int = 0
    #: and why: each reason (pt-BR) → how many of those rows
    motivos: dict[str, int] = field(default_factory=dict)
    #: warnings about the output (pt-BR) → how many cells
    avisos: dict[str, int] = field(default_factory=dict)
    #: what the reader said of the file (:attr:`multas.lote.executor.Resumo.leitura`)
    leitura: list[str] = field(default_factory=list)


def e_url(texto: str) -> bool:
    return "://" in texto or "::" in texto


def particionada(entrada: str) -> bool:
    """Whether ``entrada`` is a partitioned input: a URL, a folder, or a glob. A path that is
    a file is a single file, whatever characters its name has."""
    if e_url(entrada):
        return True
    caminho = Path(entrada)
    if caminho.exists():
        return caminho.is_dir()
    return any(c in _MAGICOS for c in entrada)


# --- file systems -----------------------------------------------------------------------------


def _local(fs: Any) -> bool:
    from fsspec.implementations.local import LocalFileSystem

    return isinstance(fs, LocalFileSystem)


def sistema(endereco: str) -> tuple[Any, str]:
    """The fsspec file system of a path or URL, and the path on it; pt-BR errors for an
    unknown scheme or a backend that is not installed."""
    from fsspec.core import split_protocol, url_to_fs
    from fsspec.registry import known_implementations

    protocolo = split_protocol(endereco)[0] or "file"
    try:
        fs, caminho = url_to_fs(endereco)
    except ImportError:
        classe = known_implementations.get(protocolo, {}).get("class", "")
        pacote = classe.split(".")[0] or "o pacote do fsspec para ele"
        raise EntradaInvalida(
            None,
            f"para usar {protocolo}:// instale o suporte do fsspec a ele: pip install {pacote} "
            "(no cliente e em cada trabalhador do Dask)",
        ) from None
    except ValueError as erro:
        if "Protocol not known" in str(erro):
            raise EntradaInvalida(
                None, f"esquema de URL desconhecido: {protocolo}:// (em {endereco})"
            ) from None
        raise EntradaInvalida(None, f"endereço inválido: {endereco}") from None
    if _local(fs):
        caminho = os.path.realpath(caminho)
    return fs, str(caminho).rstrip("/") or "/"


def _endereco(fs: Any, caminho: str) -> str:
    """What a worker opens: the local path itself, or the full URL."""
    if _local(fs):
        return caminho
    url: str = fs.unstrip_protocol(caminho)
    return url


def abrir_endereco(endereco: str, nome: str) -> Origem:
    fs, caminho = sistema(endereco)
    if _local(fs):
        return Path(caminho)
    return Arquivo(fs, caminho, nome)


def _oculto(relativo: str) -> bool:
    """Names data tools leave out of a data set: ``_SUCCESS``, ``.crc``, ``_metadata``…"""
    return any(parte.startswith((".", "_")) for parte in relativo.split("/"))


def _raiz_do_glob(caminho: str) -> str:
    partes = caminho.split("/")
    for i, parte in enumerate(partes):
        if any(c in _MAGICOS for c in parte):
            return "/".join(partes[:i]) or "/"
    return posixpath.dirname(caminho)


def _listar(fs: Any, caminho: str, entrada: str) -> tuple[str, list[str]]:
    """The input's base folder and its files (recursively for a folder)."""
    try:
        if any(c in _MAGICOS for c in caminho):
            achados = fs.glob(caminho, detail=True)
            arquivos = [n for n, info in achados.items() if info.get("type") == "file"]
            return _raiz_do_glob(caminho), arquivos
        if fs.isdir(caminho):
            return caminho, list(fs.find(caminho))
        if fs.isfile(caminho):
            return posixpath.dirname(caminho), [caminho]
    except OSError as erro:
        raise EntradaInvalida(
            None, f"não foi possível listar {entrada} ({erro.strerror or erro})"
        ) from None
    raise EntradaInvalida(None, f"a entrada não existe: {entrada}")


def _relativo(base: str, caminho: str) -> str:
    return posixpath.relpath(caminho, base) if base != "/" else caminho.lstrip("/")


def _dentro(pasta: str, caminho: str) -> bool:
    return caminho == pasta or caminho.startswith(pasta.rstrip("/") + "/")


def _lista(nomes: list[str]) -> str:
    mostrados = ", ".join(nomes[:3])
    return mostrados + (f" e mais {len(nomes) - 3}" if len(nomes) > 3 else "")


def planejar(entrada: str, saida: str) -> Plano:
    """The partitions of ``entrada`` and their outputs in the folder ``saida``, checked: some
    data files, one format, the output folder neither inside the input nor holding files this
    run would not write."""
    fs, caminho = sistema(entrada)
    base, arquivos = _listar(fs, caminho, entrada)
    nomes = sorted(r for r in (_relativo(base, a) for a in arquivos) if not _oculto(r))
    if not nomes:
        raise EntradaInvalida(None, f"nenhum arquivo de dados em {entrada}")
    formatos: dict[str, list[str]] = {}
    for nome in nomes:
        extensao = posixpath.splitext(nome)[1].lower()
        if extensao not in FORMATOS:
            raise EntradaInvalida(
                None,
                f"formato não reconhecido na entrada: {nome} (use {', '.join(FORMATOS)}; "
                "nomes começados por . ou _ são ignorados)",
            )
        formatos.setdefault(extensao, []).append(nome)
    if len(formatos) > 1:
        partes = ", ".join(f"{len(n)} {e}" for e, n in sorted(formatos.items()))
        raise EntradaInvalida(
            None, f"a entrada mistura formatos ({partes}): use arquivos de um só formato"
        )
    fs_saida, pasta = sistema(saida)
    if type(fs_saida) is type(fs):
        if _dentro(base, pasta):
            raise EntradaInvalida(
                "--saida", f"a pasta de saída não pode ficar dentro da entrada ({saida})"
            )
        if _dentro(pasta, base):
            raise EntradaInvalida("--saida", f"a entrada não pode ficar dentro da saída ({saida})")
    if fs_saida.isfile(pasta):
        raise EntradaInvalida(
            "--saida", f"{saida} é um arquivo: com entrada particionada, a saída é uma pasta"
        )
    if fs_saida.isdir(pasta):
        estranhos = sorted(
            r
            for r in (_relativo(pasta, a) for a in fs_saida.find(pasta))
            if not _oculto(r) and r not in set(nomes)
        )
        if estranhos:
            raise EntradaInvalida(
                "--saida",
                f"a pasta de saída tem arquivos que esta execução não grava: {_lista(estranhos)} "
                "(use uma pasta vazia ou apague-os)",
            )
    particoes = tuple(
        Particao(
            nome,
            _endereco(fs, posixpath.join(base, nome)),
            _endereco(fs_saida, posixpath.join(pasta, nome)),
        )
        for nome in nomes
    )
    return Plano(particoes, FORMATOS[next(iter(formatos))], _endereco(fs_saida, pasta))


# --- one partition (what a worker runs) -------------------------------------------------------


def _na_particao(nome: str, mensagem: str) -> str:
    return mensagem if mensagem.startswith(nome) else f"{nome}: {mensagem}"


def processar_particao(
    particao: Particao,
    cfg: Config,
    linhas_por_bloco: int = LINHAS_POR_BLOCO,
    nucleos: int | None = 1,
) -> Feito:
    """Read one input file, compute it, write its output file atomically; the counts, or why
    it failed. Runs on a Dask worker (or locally): nothing but this small record goes back."""
    try:
        origem = abrir_endereco(particao.entrada, particao.nome)
        destino = abrir_endereco(particao.saida, particao.nome)
        if isinstance(destino, Path):
            destino.parent.mkdir(parents=True, exist_ok=True)
        resumo = executar(origem, destino, cfg, linhas_por_bloco=linhas_por_bloco, nucleos=nucleos)
    except EntradaInvalida as erro:
        return Feito(particao.nome, falha=_na_particao(particao.nome, str(erro)))
    except OSError as erro:
        motivo = erro.strerror or type(erro).__name__
        return Feito(
            particao.nome,
            falha=f"{particao.nome}: não foi possível ler a entrada ou gravar a saída ({motivo})",
        )
    except Exception as erro:  # a bug must not pass for a result: the run fails, in pt-BR
        return Feito(
            particao.nome, falha=f"{particao.nome}: erro interno: {type(erro).__name__}: {erro}"
        )
    return Feito(
        particao.nome,
        resumo.linhas,
        resumo.erros,
        motor=resumo.motor,
        motivos=resumo.motivos,
        avisos=resumo.avisos,
        leitura=resumo.leitura,
    )


# --- the whole run ----------------------------------------------------------------------------


def _localmente(
    plano: Plano, cfg: Config, linhas_por_bloco: int, nucleos: int | None
) -> Generator[Feito, None, None]:
    """Here, one partition after the other, each on every core; but on processes, one
    partition each, when the rule is the scalar engine's and there are partitions enough
    (files too small to be cut would each use one core), unless the files live in this
    process's memory (``memory://``)."""
    n = nucleos_disponiveis() if nucleos is None else nucleos
    na_memoria = any(e.startswith("memory:") for p in plano.particoes for e in (p.entrada, p.saida))
    if n > 1 and len(plano.particoes) >= n and precisa_de_processos(cfg) and not na_memoria:
        yield from _em_processos(plano, cfg, linhas_por_bloco, n)
        return
    for particao in plano.particoes:
        yield processar_particao(particao, cfg, linhas_por_bloco, nucleos)


def _em_processos(
    plano: Plano, cfg: Config, linhas_por_bloco: int, nucleos: int
) -> Generator[Feito, None, None]:
    pool = pool_de_processos(nucleos)
    restantes = iter(plano.particoes)
    pendentes: set[Future[Feito]] = set()

    def enviar() -> None:
        particao = next(restantes, None)
        if particao is not None:
            pendentes.add(pool.submit(processar_particao, particao, cfg, linhas_por_bloco, 1))

    try:
        for _ in range(2 * nucleos):
            enviar()
        while pendentes:
            prontos, _ = wait(pendentes, return_when=FIRST_COMPLETED)
            for futuro in prontos:
                pendentes.discard(futuro)
                yield futuro.result()
                enviar()
    finally:
        for futuro in pendentes:
            futuro.cancel()
        pool.shutdown(wait=True, cancel_futures=True)


def _no_cluster(
    plano: Plano, cfg: Config, linhas_por_bloco: int, onde: Dask
) -> Generator[Feito, None, None]:
    """One task per partition, a bounded number submitted at a time (the client keeps only
    those), each worker reading and writing its own files."""
    distributed = importar_distributed()
    with cliente(onde) as conectado:
        janela = max(4, 2 * nucleos_do_cluster(conectado))
        execucao = uuid.uuid4().hex[:8]
        restantes = iter(enumerate(plano.particoes))
        prontos = distributed.as_completed()
        enviados: set[Any] = set()

        def enviar() -> None:
            proxima = next(restantes, None)
            if proxima is not None:
                i, particao = proxima
                futuro = conectado.submit(
                    processar_particao,
                    particao,
                    cfg,
                    linhas_por_bloco,
                    1,
                    key=f"multas-lote-{execucao}-{i}",
                    pure=False,
                )
                enviados.add(futuro)
                prontos.add(futuro)

        for _ in range(janela):
            enviar()
        try:
            for futuro in prontos:
                enviados.discard(futuro)
                try:
                    feito: Feito = futuro.result()
                except distributed.KilledWorker:
                    raise EntradaInvalida(
                        None,
                        "uma partição derrubou trabalhadores do Dask várias vezes; "
                        "a execução parou (veja os registros dos trabalhadores)",
                    ) from None
                except (OSError, distributed.CancelledError, TimeoutError):
                    raise EntradaInvalida(
                        "--dask", "a conexão com o agendador Dask caiu; a execução parou"
                    ) from None
                yield feito
                enviar()
        finally:
            if enviados:
                conectado.cancel(list(enviados))


def _manifesto(plano: Plano, feitos: list[Feito]) -> bytes:
    ordenados = sorted(feitos, key=lambda f: f.nome)
    return (
        json.dumps(
            {
                "formato": plano.formato,
                "particoes": len(ordenados),
                "linhas": sum(f.linhas for f in ordenados),
                "erros": sum(f.erros for f in ordenados),
                "arquivos": [
                    {"arquivo": f.nome, "linhas": f.linhas, "erros": f.erros} for f in ordenados
                ],
            },
            ensure_ascii=False,
            indent=1,
        )
        + "\n"
    ).encode("utf-8")


def _limpar_parciais(plano: Plano) -> None:
    """Temporary files a killed attempt may have left (a worker that died while writing;
    on Linux's local disks there are none): the run is over, nothing writes them now."""
    fs, pasta = sistema(plano.saida)
    if _local(fs):
        for particao in plano.particoes:
            limpar_parciais(Path(particao.saida))
        return
    for caminho in fs.find(pasta):
        if posixpath.basename(caminho).startswith(".") and caminho.endswith(".parcial"):
            fs.rm(caminho)


def executar_particoes(
    plano: Plano,
    cfg: Config,
    *,
    linhas_por_bloco: int = LINHAS_POR_BLOCO,
    dask: Dask | None = None,
    nucleos: int | None = None,
    ao_avancar: Callable[[int, int | None], None] | None = None,
) -> Resumo:
    """Every partition of ``plano``, then ``_SUCCESS``. A partition that fails stops the run
    with its pt-BR error: the files already written stay, but there is no ``_SUCCESS``."""
    inicio = time.perf_counter()
    fs, pasta = sistema(plano.saida)
    if dask is not None and dask.endereco is None and fs.protocol in ("memory", ("memory",)):
        raise EntradaInvalida(
            "--executor", "memory:// só existe neste processo: rode sem o cluster local do Dask"
        )
    marcador = posixpath.join(pasta, MARCADOR)
    if fs.exists(marcador):  # before anything is written: no stale mark on a new result
        fs.rm(marcador)
    fs.makedirs(pasta, exist_ok=True)
    feitos: list[Feito] = []
    resumo = Resumo(particoes=len(plano.particoes))
    leituras: dict[str, list[str]] = {}  # what the reader said → of which files
    tarefas: Generator[Feito, None, None] = (
        _localmente(plano, cfg, linhas_por_bloco, nucleos)
        if dask is None
        else _no_cluster(plano, cfg, linhas_por_bloco, dask)
    )
    total: int | None = None
    if ao_avancar is not None:  # local files only: a remote one is not read twice
        total = somar(contar_linhas(p.entrada) for p in plano.particoes)
        ao_avancar(0, total)
    for feito in tarefas:
        if feito.falha is not None:
            tarefas.close()
            raise EntradaInvalida(None, f"{feito.falha} (a pasta de saída fica sem {MARCADOR})")
        feitos.append(feito)
        resumo.linhas += feito.linhas
        resumo.erros += feito.erros
        resumo.motor += feito.motor
        somar_motivos(resumo.motivos, feito.motivos)
        somar_motivos(resumo.avisos, feito.avisos)
        for aviso in feito.leitura:
            leituras.setdefault(aviso, []).append(feito.nome)
        if ao_avancar is not None:
            ao_avancar(resumo.linhas, total)
    resumo.leitura = [
        f"{nomes[0]}: {aviso}" if len(nomes) == 1 else f"{aviso} ({len(nomes)} arquivos)"
        for aviso, nomes in leituras.items()
    ]
    _limpar_parciais(plano)
    with gravacao_atomica(abrir_endereco(_endereco(fs, marcador), MARCADOR)) as destino:
        if isinstance(destino, Path):
            destino.write_bytes(_manifesto(plano, feitos))
        else:
            destino.write(_manifesto(plano, feitos))
    resumo.segundos = time.perf_counter() - inicio
    return resumo
