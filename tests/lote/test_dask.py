"""`multas lote --executor dask`: the same blocks on a Dask LocalCluster of worker processes
write byte for byte the local output."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from multas.lote.executor import Dask, executar
from multas.lote.processar import Config
from multas.nucleo.motor import ler_interpretacao, regime_de
from multas.principal import cli

distributed = pytest.importorskip("distributed")


def _linhas(n: int) -> list[dict[str, Any]]:
    return [
        {
            "id": f"c{i}",
            "principal": f"{1000 + i * 37}.{i % 100:02d}" if i % 11 else "1.001",
            "data_ciencia": f"2024-{1 + i % 12:02d}-{1 + i % 28:02d}",
            "data_pagamento": f"2025-{1 + (i * 7) % 12:02d}-{1 + (i * 3) % 28:02d}",
        }
        for i in range(n)
    ]


@pytest.fixture(scope="module")
def cluster() -> Any:
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0"
        ) as local,
    ):
        yield local


def test_dask_escreve_o_mesmo_arquivo_que_o_local(tmp_path: Path, cluster: Any) -> None:
    entrada = tmp_path / "m.parquet"
    pq.write_table(pa.Table.from_pylist(_linhas(3000)), entrada, row_group_size=700)
    cfg = Config("anp.mora", ler_interpretacao(regime_de("anp.mora"), {"calendario": "feriados"}))
    local, remoto = tmp_path / "local.parquet", tmp_path / "dask.parquet"
    resumo_local = executar(entrada, local, cfg, linhas_por_bloco=256)
    resumo_dask = executar(
        entrada, remoto, cfg, linhas_por_bloco=256, dask=Dask(cluster.scheduler_address)
    )
    assert local.read_bytes() == remoto.read_bytes()
    assert (resumo_dask.linhas, resumo_dask.erros) == (resumo_local.linhas, resumo_local.erros)
    assert resumo_local.erros == len([i for i in range(3000) if i % 11 == 0])


def test_dask_soma_as_linhas_do_motor_escalar_e_os_motivos(tmp_path: Path, cluster: Any) -> None:
    """Rows past the kernel's bounds (a huge principal) in several blocks: the cluster's
    summary counts them, with their reason, as the local run does."""
    from multas.nucleo.kernel.regras import FORA_DOS_LIMITES

    linhas = _linhas(600)
    for linha in linhas[::5]:
        linha |= {"principal": "900000000000000.00", "data_ciencia": "2000-01-10"}
    entrada = tmp_path / "m.parquet"
    pq.write_table(pa.Table.from_pylist(linhas), entrada)
    cfg = Config("anp.mora", ler_interpretacao(regime_de("anp.mora"), None))
    local = executar(entrada, tmp_path / "l.parquet", cfg, linhas_por_bloco=64, nucleos=1)
    remoto = executar(
        entrada,
        tmp_path / "d.parquet",
        cfg,
        linhas_por_bloco=64,
        dask=Dask(cluster.scheduler_address),
    )
    assert (
        (remoto.motor, remoto.motivos)
        == (local.motor, local.motivos)
        == (
            120,
            {FORA_DOS_LIMITES: 120},
        )
    )


def test_dask_pela_linha_de_comando_csv(tmp_path: Path, cluster: Any) -> None:
    entrada = tmp_path / "m.csv"
    linhas = _linhas(500)
    with open(entrada, "w", encoding="utf-8", newline="") as arquivo:
        escritor = csv.DictWriter(arquivo, list(linhas[0]))
        escritor.writeheader()
        escritor.writerows(linhas)
    runner = CliRunner()
    base = ["lote", str(entrada), "-r", "anp.mora", "--linhas-por-bloco", "64"]
    local = runner.invoke(cli, [*base, "-o", str(tmp_path / "l.csv")])
    remoto = runner.invoke(
        cli, [*base, "-o", str(tmp_path / "d.csv"), "--dask", cluster.scheduler_address]
    )
    assert local.exit_code == remoto.exit_code == 3  # the "1.001" rows (some rows had errors)
    assert (tmp_path / "l.csv").read_bytes() == (tmp_path / "d.csv").read_bytes()


def test_dask_sem_endereco_sobe_um_cluster_local(tmp_path: Path) -> None:
    entrada = tmp_path / "m.parquet"
    pq.write_table(pa.Table.from_pylist(_linhas(40)), entrada)
    runner = CliRunner()
    base = ["lote", str(entrada), "-r", "anp.mora"]
    runner.invoke(cli, [*base, "-o", str(tmp_path / "l.parquet")])
    resultado = runner.invoke(
        cli,
        [*base, "-o", str(tmp_path / "d.parquet"), "--executor", "dask", "--trabalhadores", "1"],
    )
    assert resultado.exit_code == 3, resultado.output  # the "1.001" rows
    assert (tmp_path / "l.parquet").read_bytes() == (tmp_path / "d.parquet").read_bytes()
