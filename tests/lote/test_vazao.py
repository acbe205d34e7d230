"""How a local batch keeps both cores busy (``bench/lote_vs_io.py`` measures it; these tests
pin the mechanisms): the first rows go through in small blocks, the reader and the computers
run below the writer's priority, written data reaches the disk during the run, and the ``lote``
command keeps freed memory. None of them may change a byte of the output."""

from __future__ import annotations

import contextlib
import itertools
import os
import sys
import threading
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from multas.lote import executor as executor_mod
from multas.lote import io as io_mod
from multas.lote.executor import ceder_ao_escritor, executar
from multas.lote.io import em_rampa
from multas.lote.processar import Config

LINUX = pytest.mark.skipif(sys.platform != "linux", reason="prioridade por thread: só Linux")


def _linhas(n: int) -> list[dict[str, Any]]:
    return [
        {
            "cnpj": f"{i:014d}",
            "ano_meta": 2023 + i % 4,
            "meta_cbios": 1000 + i,
            "cbios_aposentados": i % 1500,
            "maior_media_mensal": f"{50 + i % 60}.{i % 100:02d}",
        }
        for i in range(n)
    ]


def test_rampa_dobra_o_tamanho_e_mantem_as_linhas() -> None:
    tabela = pa.table({"x": list(range(1000))})
    lotes = iter(tabela.to_batches(max_chunksize=10))
    tamanhos, valores = [], []
    for parte in em_rampa(lotes, 10, 160):
        tamanhos.append(parte.num_rows)
        valores += parte.column("x").to_pylist()
    assert tamanhos == [10, 20, 40, 80, 160, 160, 160, 160, 160, 50]
    assert valores == list(range(1000))


def test_parquet_comeca_em_blocos_pequenos_e_grava_o_mesmo(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The output's first row groups are the ramp; every row and value is the same as without
    it."""
    entrada = tmp_path / "e.parquet"
    pq.write_table(pa.Table.from_pylist(_linhas(2500)), entrada, row_group_size=1000)
    cfg = Config("renovabio.distribuidor", {})
    executar(entrada, tmp_path / "sem.parquet", cfg, linhas_por_bloco=1000)
    monkeypatch.setattr(io_mod, "LINHAS_DA_RAMPA", 100)
    executar(entrada, tmp_path / "com.parquet", cfg, linhas_por_bloco=1000)
    sem, com = pq.ParquetFile(tmp_path / "sem.parquet"), pq.ParquetFile(tmp_path / "com.parquet")
    grupos = [com.metadata.row_group(i).num_rows for i in range(com.metadata.num_row_groups)]
    assert grupos == [100, 200, 400, 300, 1000, 250, 125, 63, 62]  # the last 500 in halves
    assert sem.read().equals(com.read())


def test_rampa_de_outros_formatos_corta_o_primeiro_bloco() -> None:
    from multas.lote.processar import Bloco

    blocos = iter([Bloco(0, pa.table({"x": list(range(50))})), Bloco(50, pa.table({"x": [50]}))])
    partes = list(executor_mod._em_rampa(blocos, 8))
    assert [(p.inicio, len(p)) for p in partes] == [(0, 8), (8, 16), (24, 26), (50, 1)]
    assert [x for p in partes for x in p.tabela.column("x").to_pylist()] == list(range(51))


def _prioridades() -> dict[int, int]:
    """The nice value of every thread of this process."""
    saida = {}
    for tarefa in Path("/proc/self/task").iterdir():
        with contextlib.suppress(OSError):  # a thread that ended meanwhile
            saida[int(tarefa.name)] = os.getpriority(os.PRIO_PROCESS, int(tarefa.name))
    return saida


@LINUX
def test_calculo_abaixo_do_escritor_e_nada_mais_muda(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The computing thread lowers its own priority; the writer, the reader and the caller's
    thread keep theirs, and after the batch no thread of the process is left lowered (a thread
    Arrow starts inherits the priority of the thread it starts from, and outlives the batch)."""
    vistos: dict[str, int] = {}
    gravar = io_mod._EscritorArrow.gravar
    processar = executor_mod.processar

    def prioridade() -> int:
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    def gravando(self: Any, tabela: Any) -> None:
        vistos["escritor"] = prioridade()
        gravar(self, tabela)

    def calculando(bloco: Any, cfg: Any) -> Any:
        vistos["calculo"] = prioridade()
        return processar(bloco, cfg)

    monkeypatch.setattr(io_mod._EscritorArrow, "gravar", gravando)
    monkeypatch.setattr(executor_mod, "processar", calculando)
    entrada = tmp_path / "e.parquet"
    pq.write_table(pa.Table.from_pylist(_linhas(300)), entrada)
    antes = prioridade()
    executar(entrada, tmp_path / "s.parquet", Config("renovabio.distribuidor", {}), nucleos=2)
    assert prioridade() == antes
    assert vistos["escritor"] == antes
    assert vistos["calculo"] == min(19, antes + executor_mod.DEGRAUS_ABAIXO_DO_ESCRITOR)
    pq.read_table(entrada)  # Arrow's pools, used again from this thread
    assert set(_prioridades().values()) == {antes}


@LINUX
def test_nenhuma_thread_fica_com_prioridade_menor_num_processo_novo(tmp_path: Path) -> None:
    """In a fresh process (where the batch is the first to use Arrow's pools, so the threads
    they start come from the batch's threads), every thread keeps the process's priority."""
    import subprocess

    entrada = tmp_path / "e.parquet"
    pq.write_table(pa.Table.from_pylist(_linhas(300)), entrada, row_group_size=100)
    codigo = """
import os, sys
from pathlib import Path
import pyarrow.parquet as pq
from multas.lote.executor import executar
from multas.lote.processar import Config
pasta = Path(sys.argv[1])
executar(pasta / "e.parquet", pasta / "s.parquet", Config("renovabio.distribuidor", {}), nucleos=2)
pq.read_table(pasta / "e.parquet")
pq.read_table(pasta / "s.parquet")
vistas = set()
for t in os.listdir("/proc/self/task"):
    try:
        vistas.add(os.getpriority(os.PRIO_PROCESS, int(t)))
    except OSError:  # a thread that ended meanwhile
        pass
print(sorted(vistas))
"""
    feito = subprocess.run(
        [sys.executable, "-c", codigo, str(tmp_path)], capture_output=True, text=True, check=True
    )
    assert feito.stdout.strip() == str([os.getpriority(os.PRIO_PROCESS, 0)])


@LINUX
def test_ceder_ao_escritor_so_muda_a_propria_thread() -> None:
    resultado: list[int] = []

    def numa_thread() -> None:
        antes = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
        ceder_ao_escritor()
        resultado.append(os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) - antes)

    principal = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    linha = threading.Thread(target=numa_thread)
    linha.start()
    linha.join()
    assert resultado and 0 < resultado[0] <= executor_mod.DEGRAUS_ABAIXO_DO_ESCRITOR
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == principal


def test_saida_vai_ao_disco_durante_o_lote(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """While the batch writes, a thread flushes the temporary output (fdatasync) so the final
    fsync is short; the thread is gone when the file is in place."""
    sincronias: list[int] = []
    original = os.fdatasync

    def fdatasync(fd: int) -> None:
        sincronias.append(fd)
        original(fd)

    monkeypatch.setattr(io_mod.os, "fdatasync", fdatasync)
    destino = tmp_path / "s.bin"
    with io_mod.escrita_atomica(destino) as temporario, open(temporario, "wb") as arquivo:
        arquivo.write(b"x" * 1000)
        arquivo.flush()
        _esperar(lambda: bool(sincronias))
    assert sincronias  # at least one flush while writing
    assert destino.read_bytes() == b"x" * 1000
    assert not [t for t in threading.enumerate() if t.name == "multas-sincronia"]


def test_comando_lote_guarda_a_memoria_liberada() -> None:
    """On glibc the ``lote`` command raises malloc's thresholds (nothing elsewhere)."""
    from multas.lote.comando import _alocador_para_lotes

    aplicado = _alocador_para_lotes()
    if sys.platform.startswith("linux") and os.path.exists("/lib/x86_64-linux-gnu/libc.so.6"):
        assert aplicado


def test_ultimo_bloco_em_metades(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The last rows go out in halves, so the writer's last piece of work is small; the same
    rows and values as without it."""
    monkeypatch.setattr(io_mod, "LINHAS_DA_RAMPA", 100)
    partes = list(io_mod.em_descida(pa.table({"x": list(range(1000))})))
    assert [t.num_rows for t in partes] == [500, 250, 125, 63, 62]
    assert [x for t in partes for x in t.column("x").to_pylist()] == list(range(1000))
    entrada = tmp_path / "e.parquet"
    pq.write_table(pa.Table.from_pylist(_linhas(2500)), entrada, row_group_size=1000)
    executar(
        entrada, tmp_path / "s.parquet", Config("renovabio.distribuidor", {}), linhas_por_bloco=1000
    )
    saida = pq.ParquetFile(tmp_path / "s.parquet")
    grupos = [saida.metadata.row_group(i).num_rows for i in range(saida.metadata.num_row_groups)]
    assert grupos == [100, 200, 400, 300, 1000, 250, 125, 63, 62]
    assert saida.read().num_rows == 2500


@pytest.mark.subprocesso
def test_lote_termina_logo_com_o_codigo_e_as_mensagens(tmp_path: Path) -> None:
    """The console script ends ``lote`` with ``os._exit``: the exit code and every line on
    stdout and stderr still arrive (through pipes, as in a shell pipeline)."""
    import subprocess

    multas = str(Path(sys.executable).parent / "multas")
    entrada = tmp_path / "e.parquet"
    linhas = _linhas(50)
    linhas[7]["meta_cbios"] = None  # one row with an error: exit code 3
    pq.write_table(pa.Table.from_pylist(linhas), entrada)
    saida = tmp_path / "s.parquet"
    feito = subprocess.run(
        [multas, "lote", str(entrada), "-r", "renovabio.distribuidor", "-o", str(saida)],
        capture_output=True,
        text=True,
    )
    assert feito.returncode == 3
    assert "50 linhas, 49 calculadas, 1 com erro" in feito.stderr
    assert pq.read_table(saida).num_rows == 50
    faltando = subprocess.run(
        [multas, "lote", str(tmp_path / "nao.parquet"), "-r", "renovabio.distribuidor", "-o", "x"],
        capture_output=True,
        text=True,
    )
    assert faltando.returncode == 2 and "a entrada não existe" in faltando.stderr


def test_saida_imediata_so_para_os_lotes(monkeypatch: pytest.MonkeyPatch) -> None:
    from multas import principal

    codigos: list[int] = []
    monkeypatch.setattr(os, "_exit", codigos.append)
    monkeypatch.setattr(sys, "argv", ["multas", "lote", "--help"])
    principal.main()
    assert codigos == [0]
    monkeypatch.setattr(sys, "argv", ["multas", "regimes"])
    with pytest.raises(SystemExit) as fim:
        principal.main()
    assert fim.value.code in (0, None) and codigos == [0]


def test_leitura_comeca_antes_de_abrir_a_saida(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reader starts as soon as the input is open (the first block is read while the
    legislation loads); when the output cannot be opened, it is stopped and nothing leaks."""
    lidos = threading.Event()
    original = io_mod.em_rampa

    def rampa(*args: Any) -> Any:
        lidos.set()
        yield from original(*args)

    monkeypatch.setattr(io_mod, "em_rampa", rampa)
    carregar = executor_mod.carregar

    def carregar_depois_de_ler() -> Any:
        assert lidos.wait(5), "o leitor só começou depois de carregar a legislação"
        return carregar()

    monkeypatch.setattr(executor_mod, "carregar", carregar_depois_de_ler)
    entrada = tmp_path / "e.parquet"
    pq.write_table(pa.Table.from_pylist(_linhas(100)), entrada)
    cfg = Config("renovabio.distribuidor", {})
    executar(entrada, tmp_path / "s.parquet", cfg)
    antes = {t.name for t in threading.enumerate()}
    with pytest.raises(Exception, match="pasta de saída não existe"):
        executar(entrada, tmp_path / "nao" / "s.parquet", cfg)
    assert {t.name for t in threading.enumerate()} <= antes
    assert "multas-leitor" not in {t.name for t in threading.enumerate()}


def test_primeiro_grupo_nunca_passa_do_tamanho_do_bloco(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ramp doubles only up to ``--linhas-por-bloco`` (whole batches: never above it)."""
    monkeypatch.setattr(io_mod, "LINHAS_DA_RAMPA", 100)
    entrada = tmp_path / "e.parquet"
    pq.write_table(pa.Table.from_pylist(_linhas(1000)), entrada, row_group_size=1000)
    executar(
        entrada, tmp_path / "s.parquet", Config("renovabio.distribuidor", {}), linhas_por_bloco=250
    )
    saida = pq.ParquetFile(tmp_path / "s.parquet")
    grupos = [saida.metadata.row_group(i).num_rows for i in range(saida.metadata.num_row_groups)]
    assert grupos == [100, 200, 200, 200, 200, 100]
    assert (
        max(
            t.num_rows
            for t in io_mod.em_rampa(iter(pa.table({"x": list(range(99))}).to_batches(7)), 7, 20)
        )
        <= 20
    )


def test_fatias_enviadas_a_processos_levam_so_as_suas_linhas() -> None:
    """A slice pickles with its parent's whole buffers: what goes to a worker process (or a
    Dask worker) is made compact first."""
    import pickle

    from multas.lote.processar import Bloco

    bloco = Bloco(0, pa.table({"valor_base": [str(i) for i in range(100_000)]}))
    fatia = bloco.fatia(50_000, 2048)
    inteiro = len(pickle.dumps(bloco))
    assert len(pickle.dumps(fatia)) > inteiro // 2  # the problem
    compacta = fatia.compacto()
    assert len(pickle.dumps(compacta)) < inteiro // 20
    assert compacta.tabela.equals(fatia.tabela) and compacta.inicio == 50_000
    enviados: list[Any] = []

    class Pool:
        def submit(self, funcao: Any, parte: Any, cfg: Any) -> None:
            enviados.append(parte)

    cfg = Config("renovabio.vedacao", {}, kernel=False)
    executor_mod._submeter(Pool(), bloco, cfg)  # type: ignore[arg-type]
    assert len(enviados) == 49
    assert all(len(pickle.dumps(p)) < inteiro // 20 for p in enviados)


def test_saida_sem_pasta_falha_antes_de_ler(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A missing output folder is reported before the input is read."""
    lidos: list[int] = []
    original = io_mod.em_rampa

    def rampa(*args: Any) -> Any:
        lidos.append(1)
        yield from original(*args)

    monkeypatch.setattr(io_mod, "em_rampa", rampa)
    entrada = tmp_path / "e.parquet"
    pq.write_table(pa.Table.from_pylist(_linhas(10)), entrada)
    with pytest.raises(Exception, match="pasta de saída não existe"):
        executar(entrada, tmp_path / "nao" / "s.parquet", Config("renovabio.distribuidor", {}))
    assert lidos == []


@pytest.mark.subprocesso
def test_lote_com_a_saida_padrao_fechada(tmp_path: Path) -> None:
    """Started with stdout closed (``>&-``), ``sys.stdout`` is None: the batch still ends with
    its exit code and nothing in English."""
    import subprocess

    multas = str(Path(sys.executable).parent / "multas")
    entrada = tmp_path / "e.parquet"
    pq.write_table(pa.Table.from_pylist(_linhas(20)), entrada)
    feito = subprocess.run(
        [
            multas,
            "lote",
            str(entrada),
            "-r",
            "renovabio.distribuidor",
            "-o",
            str(tmp_path / "s.parquet"),
        ],
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: os.close(1),
    )
    assert feito.returncode == 0, feito.stderr
    assert "Traceback" not in feito.stderr and "20 linhas" in feito.stderr


def test_sincronia_sem_fdatasync_usa_fsync_e_nao_imprime(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    """macOS and Windows have no os.fdatasync: the early flushes use fsync; a failing flush
    ends the thread quietly (the final fsync reports a real problem)."""
    chamadas: list[int] = []
    monkeypatch.delattr(os, "fdatasync", raising=False)
    monkeypatch.setattr(os, "fsync", chamadas.append)
    with open(tmp_path / "a", "wb") as arquivo, io_mod._sincronizando(arquivo.fileno(), 0.01):
        _esperar(lambda: bool(chamadas))
    assert chamadas
    falhas: list[int] = []

    def falhar(fd: int) -> None:
        falhas.append(fd)
        raise OSError("disco")

    monkeypatch.setattr(os, "fsync", falhar)
    with open(tmp_path / "b", "wb") as arquivo, io_mod._sincronizando(arquivo.fileno(), 0.01):
        _esperar(lambda: bool(falhas))
    assert falhas == [falhas[0]]  # it stopped after the first failure
    assert capfd.readouterr().err == ""


def _esperar(condicao: Any, segundos: float = 10) -> None:
    """Until ``condicao()`` holds (a loaded machine may take a while to run a thread)."""
    import time

    limite = time.monotonic() + segundos
    while not condicao() and time.monotonic() < limite:
        time.sleep(0.01)


def test_sincronia_lenta_espaca_as_descargas(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On slow storage the early flushes back off: the thread waits twice as long as the last
    flush took, so it never keeps the disk busy more than a third of the time."""
    import time

    momentos: list[float] = []

    def lenta(fd: int) -> None:
        momentos.append(time.monotonic())
        time.sleep(0.05)

    monkeypatch.setattr(os, "fdatasync", lenta, raising=False)
    with open(tmp_path / "a", "wb") as arquivo, io_mod._sincronizando(arquivo.fileno(), 0.001):
        _esperar(lambda: len(momentos) >= 3)
    assert len(momentos) >= 3
    intervalos = [b - a for a, b in itertools.pairwise(momentos)]
    assert min(intervalos) >= 0.05 + 2 * 0.05 * 0.9  # the flush itself, then twice its time
