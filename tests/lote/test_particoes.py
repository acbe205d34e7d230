"""`multas lote` on a partitioned input (a folder, a glob, an fsspec URL): one output file per
input file, each the bytes a single-file run writes, ``_SUCCESS`` last; fsspec's in-memory file
system stands in for object storage (with an in-process Dask cluster: memory:// lives in one
process). The real scheduler and worker processes are in test_lote_cluster.py."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import fsspec
import pytest
from click.testing import CliRunner

from multas.lote.executor import executar
from multas.lote.io import Arquivo
from multas.lote.particoes import MARCADOR, executar_particoes, particionada, planejar
from multas.lote.processar import Config
from multas.nucleo.motor import ler_interpretacao, regime_de
from multas.principal import cli
from tests.utils.lote import (
    PARTES,
    config_mora,
    dados_particionados,
    em_parquet,
    escrever_csv,
    linhas_mora,
    vedacoes,
)
from tests.utils.lote import REGIME_MORA as REGIME


def _sozinho(entrada: Path, saida: Path) -> bytes:
    """What a single-file run writes for one partition."""
    executar(entrada, saida, config_mora(), linhas_por_bloco=64)
    return saida.read_bytes()


def _lote(*args: Any) -> Any:
    return CliRunner().invoke(cli, ["lote", *map(str, args)])


def test_o_que_e_entrada_particionada(tmp_path: Path) -> None:
    arquivo = tmp_path / "a[1].csv"
    arquivo.write_text("x\n", encoding="utf-8")
    assert particionada(str(tmp_path)) and particionada("memory://b/d")
    assert particionada(str(tmp_path / "*.csv")) and particionada("s3://balde/x.parquet")
    assert not particionada(str(arquivo))  # an existing file, even with glob characters
    assert not particionada(str(tmp_path / "nao_existe.csv"))


@pytest.mark.parametrize("formato", ["parquet", "csv"])
def test_pasta_particionada_um_arquivo_por_particao_e_success(tmp_path: Path, formato: str) -> None:
    entrada, saida = tmp_path / "entrada", tmp_path / "saida"
    dados_particionados(entrada, formato)
    (entrada / "_metadata").write_text("ignorado", encoding="utf-8")
    (entrada / ".crc").write_text("ignorado", encoding="utf-8")
    r = _lote(
        entrada, "-r", REGIME, "-o", saida, "-i", "calendario=feriados", "--linhas-por-bloco", 64
    )
    assert r.exit_code == 3, r.output  # some rows have errors: the files are still written
    assert "625 linhas em 3 arquivos" in r.stderr
    nomes = sorted(p.relative_to(saida).as_posix() for p in saida.rglob("*") if p.is_file())
    assert nomes == [MARCADOR, f"p0.{formato}", f"p1.{formato}", f"sub/p2.{formato}"]
    for nome in PARTES:
        sozinho = _sozinho(entrada / f"{nome}.{formato}", tmp_path / f"s.{formato}")
        assert (saida / f"{nome}.{formato}").read_bytes() == sozinho
    manifesto = json.loads((saida / MARCADOR).read_text(encoding="utf-8"))
    assert manifesto["linhas"] == 625 and manifesto["particoes"] == 3
    assert manifesto["erros"] == sum(1 for i in range(625) if i % 11 == 0)
    assert [a["arquivo"] for a in manifesto["arquivos"]] == nomes[1:]
    assert [a["linhas"] for a in manifesto["arquivos"]] == [300, 120, 205]


def test_glob_e_url_file(tmp_path: Path) -> None:
    entrada = tmp_path / "entrada"
    dados_particionados(entrada)
    r = _lote(entrada / "p*.parquet", "-r", REGIME, "-o", tmp_path / "g")
    assert r.exit_code == 3, r.output
    assert sorted(p.name for p in (tmp_path / "g").iterdir()) == [
        MARCADOR,
        "p0.parquet",
        "p1.parquet",
    ]
    r = _lote(
        f"file://{entrada}",
        "-r",
        REGIME,
        "-o",
        f"file://{tmp_path / 'u'}",
        "--linhas-por-bloco",
        64,
        "-i",
        "calendario=feriados",
    )
    assert r.exit_code == 3, r.output  # some rows have errors
    assert (tmp_path / "u" / "sub" / "p2.parquet").read_bytes() == _sozinho(
        entrada / "sub" / "p2.parquet", tmp_path / "s.parquet"
    )


@pytest.fixture
def memoria() -> Any:
    """fsspec's in-memory file system, emptied around the test (it is global to the process)."""
    fs = fsspec.filesystem("memory")
    fs.store.clear()
    fs.pseudo_dirs.clear()
    fs.pseudo_dirs.append("")
    yield fs
    fs.store.clear()


def _na_memoria(fs: Any, raiz: str) -> None:
    for nome, (inicio, n) in PARTES.items():
        with fs.open(f"{raiz}/{nome}.parquet", "wb") as arquivo:
            arquivo.write(em_parquet(linhas_mora(inicio, n)))


def test_memoria_como_armazenamento_de_objetos(tmp_path: Path, memoria: Any) -> None:
    _na_memoria(memoria, "/balde/dados")
    resumo = executar_particoes(
        planejar("memory://balde/dados", "memory://balde/resultado"),
        config_mora(),
        linhas_por_bloco=64,
    )
    assert (resumo.linhas, resumo.particoes) == (625, 3)
    escritos = sorted(memoria.find("/balde/resultado"))
    assert escritos == [
        f"/balde/resultado/{n}" for n in (MARCADOR, "p0.parquet", "p1.parquet", "sub/p2.parquet")
    ]  # no temporary object left behind
    for nome in PARTES:
        local = tmp_path / f"{nome.replace('/', '_')}.parquet"
        local.write_bytes(memoria.cat(f"/balde/dados/{nome}.parquet"))
        assert memoria.cat(f"/balde/resultado/{nome}.parquet") == _sozinho(
            local, tmp_path / "s.parquet"
        )


def test_formatos_de_linhas_pela_memoria(memoria: Any) -> None:
    """JSON Lines and XLSX read and written through fsspec file objects, not paths."""
    from io import BytesIO

    import openpyxl

    memoria.pipe("/j/a.jsonl", b'{"principal": "100.00", "data_ciencia": "2024-01-10"}\nnada\n')
    executar_particoes(planejar("memory://j", "memory://jr"), config_mora())
    linhas = memoria.cat("/jr/a.jsonl").decode().splitlines()
    assert len(linhas) == 2 and '"erro":' in linhas[0] and linhas[1].startswith('{"entrada":')
    livro = openpyxl.Workbook()
    livro.active.append(["principal", "data_ciencia", "data_pagamento"])
    livro.active.append(["100.00", "2024-01-10", "2024-03-01"])
    binario = BytesIO()
    livro.save(binario)
    memoria.pipe("/x/a.xlsx", binario.getvalue())
    executar_particoes(planejar("memory://x", "memory://xr"), config_mora())
    folha = openpyxl.load_workbook(BytesIO(memoria.cat("/xr/a.xlsx"))).active
    linhas_xlsx = list(folha.iter_rows(values_only=True))
    assert linhas_xlsx[0][-1] == "erro" and linhas_xlsx[1][-1] is None


def test_particao_ruim_falha_sem_success_e_tira_o_antigo(tmp_path: Path) -> None:
    entrada, saida = tmp_path / "entrada", tmp_path / "saida"
    dados_particionados(entrada)
    saida.mkdir()
    (saida / MARCADOR).write_text("{}", encoding="utf-8")  # a previous run's
    (entrada / "sub" / "p2.parquet").write_bytes(b"PAR1 truncado")
    r = _lote(entrada, "-r", REGIME, "-o", saida)
    assert r.exit_code == 2
    assert "sub/p2.parquet" in r.stderr and "Parquet inválido ou incompleto" in r.stderr
    assert f"sem {MARCADOR}" in r.stderr
    assert not (saida / MARCADOR).exists()
    assert not any(p.name.endswith(".parcial") for p in saida.rglob("*"))


@pytest.mark.parametrize(
    ("preparar", "mensagem"),
    [
        (lambda e, s: (e / "vazia").mkdir(), "nenhum arquivo de dados em"),
        (lambda e, s: (e / "p9.csv").write_text("a\n1\n"), "mistura formatos (1 .csv, 3 .parquet)"),
        (lambda e, s: (e / "notas.txt").write_text("x"), "formato não reconhecido na entrada"),
        (lambda e, s: None, "a pasta de saída não pode ficar dentro da entrada"),
        (lambda e, s: s.write_text("x"), "com entrada particionada, a saída é uma pasta"),
        (lambda e, s: (s.mkdir(), (s / "outro.parquet").write_text("x")), "não grava: outro"),
    ],
)
def test_erros_de_uso_em_portugues(tmp_path: Path, preparar: Any, mensagem: str) -> None:
    entrada = tmp_path / "entrada"
    dados_particionados(entrada)
    saida = entrada / "dentro" if "dentro da entrada" in mensagem else tmp_path / "saida"
    preparar(entrada, saida)
    alvo = entrada / "vazia" if "nenhum arquivo" in mensagem else entrada
    r = _lote(alvo, "-r", REGIME, "-o", saida)
    assert r.exit_code == 2
    assert mensagem in r.stderr, r.stderr
    assert "Traceback" not in r.output


@pytest.mark.parametrize(
    ("entrada", "mensagem"),
    [
        ("zzz://balde/x", "esquema de URL desconhecido: zzz://"),
        ("s3://balde/dados/", "pip install s3fs"),
        ("gs://balde/dados/", "pip install gcsfs"),
        ("memory://nao/existe", "a entrada não existe"),
        ("nao_existe.csv", "a entrada não existe"),
    ],
)
def test_url_errada_ou_sem_suporte(
    tmp_path: Path, entrada: str, mensagem: str, memoria: Any
) -> None:
    import importlib.util

    if "pip install" in mensagem and importlib.util.find_spec(mensagem.split()[-1]):
        pytest.skip("o suporte está instalado aqui")
    r = _lote(entrada, "-r", REGIME, "-o", tmp_path / "saida")
    assert r.exit_code == 2 and mensagem in r.stderr, r.stderr


def test_dask_em_processo_com_memoria_igual_ao_local(memoria: Any) -> None:
    """An in-process cluster (memory:// is per process) and the CLI: the same bytes as the
    local run, and nothing in English on the terminal."""
    distributed = pytest.importorskip("distributed")
    _na_memoria(memoria, "/b/d")
    base = ["-r", REGIME, "--linhas-por-bloco", "64"]
    local = _lote("memory://b/d", *base, "-o", "memory://b/local")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0"
    ) as cluster:
        remoto = _lote(
            "memory://b/d", *base, "-o", "memory://b/dask", "--dask", cluster.scheduler_address
        )
    assert local.exit_code == remoto.exit_code == 3, remoto.output
    for nome in PARTES:
        assert memoria.cat(f"/b/local/{nome}.parquet") == memoria.cat(f"/b/dask/{nome}.parquet")
    assert memoria.cat(f"/b/local/{MARCADOR}") == memoria.cat(f"/b/dask/{MARCADOR}")
    assert re.fullmatch(r"multas lote: 625 linhas em 3 arquivos, .*\n", remoto.stderr)


def test_memoria_com_cluster_de_processos_e_erro_claro(memoria: Any) -> None:
    _na_memoria(memoria, "/b/d")
    r = _lote("memory://b/d", "-r", REGIME, "-o", "memory://b/r", "--executor", "dask")
    assert r.exit_code == 2 and "memory:// só existe neste processo" in r.stderr


def test_remoto_atomico_sem_sobras(memoria: Any) -> None:
    """A write that fails midway on object storage leaves neither the object nor a temporary."""
    from multas.lote.io import escrita_atomica_remota

    memoria.pipe("/o/r.csv", b"anterior\n")
    with pytest.raises(RuntimeError), escrita_atomica_remota(Arquivo(memoria, "/o/r.csv")) as f:
        f.write(b"metade")
        raise RuntimeError
    assert memoria.find("/o") == ["/o/r.csv"] and memoria.cat("/o/r.csv") == b"anterior\n"


def test_agendador_inalcancavel_e_erro_claro(tmp_path: Path) -> None:
    dask = pytest.importorskip("dask")
    entrada = tmp_path / "entrada"
    dados_particionados(entrada)
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        r = _lote(entrada, "-r", REGIME, "-o", tmp_path / "s", "--dask", "tcp://127.0.0.1:9")
    assert r.exit_code == 2
    assert "não foi possível conectar ao agendador Dask em tcp://127.0.0.1:9" in r.stderr
    assert not (tmp_path / "s" / MARCADOR).exists()


def test_motor_escalar_local_uma_particao_por_processo(tmp_path: Path, monkeypatch: Any) -> None:
    """A scalar-engine rule over several files, locally: one file per process, each output the
    bytes of a single-file run."""
    from multas.lote import particoes

    regime = "renovabio.vedacao"
    cfg = Config(regime, ler_interpretacao(regime_de(regime), None))
    entrada = tmp_path / "entrada"
    entrada.mkdir()
    for i in range(3):
        linhas = vedacoes(500)[i * 100 : i * 100 + 300]
        escrever_csv(entrada / f"v{i}.csv", linhas, list(linhas[0]))
    pools: list[int] = []
    original = particoes.pool_de_processos

    def contar(nucleos: int) -> Any:
        pools.append(nucleos)
        return original(nucleos)

    monkeypatch.setattr(particoes, "pool_de_processos", contar)
    resumo = executar_particoes(planejar(str(entrada), str(tmp_path / "saida")), cfg, nucleos=2)
    assert pools == [2] and (resumo.linhas, resumo.particoes) == (900, 3)
    # each partition's rows that went to the scalar engine, and why, reach the summary
    assert resumo.motor == resumo.linhas - resumo.erros > 0
    assert resumo.motivos == {"o regime renovabio.vedacao não tem kernel": resumo.motor}
    for i in range(3):
        executar(entrada / f"v{i}.csv", tmp_path / "s.csv", cfg, nucleos=1)
        assert (tmp_path / "saida" / f"v{i}.csv").read_bytes() == (tmp_path / "s.csv").read_bytes()
    assert (tmp_path / "saida" / MARCADOR).exists()


def test_arquivo_unico_gravado_numa_url(tmp_path: Path, memoria: Any) -> None:
    entrada = tmp_path / "a.parquet"
    entrada.write_bytes(em_parquet(linhas_mora(0, 50)))
    r = _lote(
        entrada, "-r", REGIME, "-o", "memory://saida/r.parquet", "-i", "calendario=feriados",
        "--linhas-por-bloco", 64,
    )  # fmt: skip
    assert r.exit_code == 3, r.output  # the "1.001" rows
    assert memoria.cat("/saida/r.parquet") == _sozinho(entrada, tmp_path / "s.parquet")
    assert memoria.find("/saida") == ["/saida/r.parquet"]
