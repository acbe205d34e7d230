"""A real Dask cluster: ``dask scheduler`` and two ``dask worker`` processes on loopback,
started here as separate processes. `multas lote` (also run as a process, as a user runs it)
has each worker read and write its own partitions through ``file://``; the outputs are byte
for byte the local run's, and nothing in English reaches the terminal. A worker killed with
SIGKILL mid-run: Dask runs its partition on the other worker, and the result is still complete
and identical. `multas exposicao` on the same cluster gives the local report, byte for byte.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from multas.lote.particoes import MARCADOR
from tests.utils.lote import PARTES, dados_particionados

distributed = pytest.importorskip("distributed")

pytestmark = pytest.mark.subprocesso  # other processes, with the real clock

BIN = Path(sys.executable).parent
MULTAS, DASK = str(BIN / "multas"), str(BIN / "dask")


@dataclass
class Cluster:
    endereco: str
    trabalhadores: list[subprocess.Popen[bytes]]
    monitor: Any  # a distributed.Client of the test's own, to watch the scheduler
    pids: dict[str, int]  # worker address → process id


def _esperar(condicao: Any, segundos: float, o_que: str) -> None:
    limite = time.monotonic() + segundos
    while not condicao():
        if time.monotonic() > limite:
            raise TimeoutError(f"{o_que}: não aconteceu em {segundos} s")
        time.sleep(0.05)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    pasta = tmp_path_factory.mktemp("dask")
    arquivo = pasta / "agendador.json"
    processos: list[subprocess.Popen[bytes]] = []

    def iniciar(*args: str, registro: str) -> subprocess.Popen[bytes]:
        with open(pasta / registro, "wb") as saida:
            processo = subprocess.Popen(
                [DASK, *args], stdout=saida, stderr=subprocess.STDOUT, cwd=pasta
            )
        processos.append(processo)
        return processo

    try:
        iniciar(
            "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
            "--scheduler-file", str(arquivo), registro="agendador.log",
        )  # fmt: skip
        _esperar(lambda: arquivo.exists() and arquivo.stat().st_size > 0, 60, "agendador")
        endereco = json.loads(arquivo.read_text(encoding="utf-8"))["address"]
        trabalhadores = [
            iniciar(
                *("worker", "--scheduler-file", str(arquivo), "--nthreads", "1", "--no-nanny"),
                *("--no-dashboard", "--host", "127.0.0.1", "--name", f"t{i}"),
                registro=f"trabalhador{i}.log",
            )
            for i in range(2)
        ]
        monitor = distributed.Client(endereco, timeout="30s")
        monitor.wait_for_workers(2, timeout=60)
        yield Cluster(endereco, trabalhadores, monitor, monitor.run(os.getpid))
        monitor.close()
    finally:  # the workers first (a worker whose scheduler is gone retries for a while)
        for processo in reversed(processos):
            processo.terminate()
            try:
                processo.wait(timeout=10)
            except subprocess.TimeoutExpired:
                processo.kill()
                processo.wait()


def _multas(*args: Any, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [MULTAS, *map(str, args)], capture_output=True, text=True, timeout=timeout
    )


def _so_portugues(stderr: str) -> None:
    """Only the batch's own pt-BR lines (the summary and its reasons, "  12 linhas: …"): no
    Dask log line, warning or traceback."""
    for linha in stderr.splitlines():
        assert linha.startswith("multas lote: ") or re.match(r"  [\d.]+ linhas?: ", linha), (
            f"linha inesperada no terminal: {linha!r}"
        )


def _arquivos(pasta: Path) -> dict[str, bytes]:
    return {
        p.relative_to(pasta).as_posix(): p.read_bytes() for p in pasta.rglob("*") if p.is_file()
    }


def test_agendador_e_trabalhadores_reais_leem_e_gravam_as_suas_particoes(
    tmp_path: Path, cluster: Cluster
) -> None:
    entrada = tmp_path / "entrada"
    dados_particionados(entrada, "csv")
    base = ["-r", "anp.mora", "--linhas-por-bloco", "64", "-i", "calendario=feriados"]
    local = _multas("lote", entrada, *base, "-o", tmp_path / "local")
    with distributed.get_task_stream(cluster.monitor) as tarefas:
        remoto = _multas(
            "lote", f"file://{entrada}", *base, "-o", f"file://{tmp_path / 'dask'}",
            "--dask", cluster.endereco,
        )  # fmt: skip
    assert local.returncode == remoto.returncode == 3, remoto.stderr  # rows with errors
    _so_portugues(remoto.stderr)
    assert "625 linhas em 3 arquivos" in remoto.stderr
    assert _arquivos(tmp_path / "dask") == _arquivos(tmp_path / "local")
    assert set(_arquivos(tmp_path / "dask")) == {MARCADOR, *(f"{n}.csv" for n in PARTES)}
    # one task per partition ran on the workers (which read and wrote the files themselves)
    feitas = [t for t in tarefas.data if str(t["key"]).startswith("multas-lote-")]
    assert len(feitas) == len(PARTES)
    assert {t["worker"] for t in feitas} <= set(cluster.monitor.scheduler_info()["workers"])


def test_exposicao_no_cluster_real_igual_a_local(tmp_path: Path, cluster: Cluster) -> None:
    caso = tmp_path / "caso.json"
    caso.write_text(
        json.dumps(
            {"regime": "renovabio.distribuidor", "ano_meta": "2025", "meta_cbios": "700000",
             "cbios_aposentados": "0"}
        ),
        encoding="utf-8",
    )  # fmt: skip
    args = ["exposicao", caso, "--lognormal", "--preco-inicial", "80", "--volatilidade", "0.35"]
    args += ["--cenarios", "45000", "--seed", "11", "-f", "json"]
    local = _multas(*args)
    remoto = _multas(*args, "--dask", cluster.endereco)
    assert local.returncode == remoto.returncode == 0, remoto.stderr
    assert remoto.stdout == local.stdout and remoto.stderr == ""
    assert json.loads(remoto.stdout)["cenarios"] == 45000


def _vedacoes(pasta: Path, particoes: int, linhas: int) -> None:
    pasta.mkdir()
    for p in range(particoes):
        texto = ["id,valor_base,faturamento_ano_meta,faturamento_ano_anterior,data_referencia"]
        for i in range(p * linhas, (p + 1) * linhas):
            faturamentos = f"{(i * 104729) % 10**10}.00,{(i * 1299709) % 10**10}.50"
            texto.append(
                f"d{i},{(i * 7919) % 900_000_000}.{i % 100:02d},"
                f"{faturamentos if i % 3 == 0 else ','},2025-10-01"
            )
        (pasta / f"parte-{p:02d}.csv").write_text("\n".join(texto) + "\n", encoding="utf-8")


def test_trabalhador_morto_no_meio_o_dask_refaz_e_a_saida_e_completa(
    tmp_path: Path, cluster: Cluster
) -> None:
    """SIGKILL on the worker that is computing a partition: the scheduler gives that
    partition to the other worker; the output is complete and identical to the local run."""
    entrada = tmp_path / "entrada"
    _vedacoes(entrada, particoes=8, linhas=6000)  # the scalar engine: ~0.5 s a partition
    base = ["-r", "renovabio.vedacao", "--linhas-por-bloco", "1000"]
    local = _multas("lote", entrada, *base, "-o", tmp_path / "local")
    assert local.returncode == 0, local.stderr
    pids = {p.pid for p in cluster.trabalhadores}
    execucao = subprocess.Popen(
        [MULTAS, "lote", f"file://{entrada}", *base, "-o", f"file://{tmp_path / 'dask'}",
         "--dask", cluster.endereco],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    vitima: dict[str, Any] = {}

    def alguem_calculando() -> bool:
        ocupados = {
            endereco: tarefas
            for endereco, tarefas in cluster.monitor.processing().items()
            if any(str(t).startswith("multas-lote-") for t in tarefas)
        }
        if ocupados:
            endereco = sorted(ocupados)[0]
            vitima["pid"] = cluster.pids[endereco]
            vitima["tarefas"] = ocupados[endereco]
        return bool(ocupados)

    try:
        _esperar(alguem_calculando, 120, "uma partição em cálculo")
        assert vitima["pid"] in pids  # one of the workers this test started
        os.kill(vitima["pid"], signal.SIGKILL)
        _, erros = execucao.communicate(timeout=300)
    finally:
        if execucao.poll() is None:
            execucao.kill()
            execucao.communicate()
    assert execucao.returncode == 0, erros
    _so_portugues(erros)
    assert "48.000 linhas em 8 arquivos" in erros
    morto = next(p for p in cluster.trabalhadores if p.pid == vitima["pid"])
    assert morto.wait(timeout=10) == -signal.SIGKILL
    assert _arquivos(tmp_path / "dask") == _arquivos(tmp_path / "local")
    manifesto = json.loads((tmp_path / "dask" / MARCADOR).read_text(encoding="utf-8"))
    assert manifesto["linhas"] == 48_000 and manifesto["particoes"] == 8


def test_cluster_local_do_executor_dask_tambem_fica_calado(tmp_path: Path) -> None:
    """--executor dask starts its own LocalCluster (worker processes inheriting the terminal):
    still only the pt-BR summary on stderr, and the local bytes."""
    entrada = tmp_path / "entrada"
    dados_particionados(entrada)
    base = ["-r", "anp.mora", "--linhas-por-bloco", "64"]
    local = _multas("lote", entrada, *base, "-o", tmp_path / "local")
    remoto = _multas(
        "lote", entrada, *base, "-o", tmp_path / "dask", "--executor", "dask",
        "--trabalhadores", "1",
    )  # fmt: skip
    assert local.returncode == remoto.returncode == 3, remoto.stderr  # rows with errors
    _so_portugues(remoto.stderr)
    assert _arquivos(tmp_path / "dask") == _arquivos(tmp_path / "local")
