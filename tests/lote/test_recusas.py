"""Hypothesis fuzzes the batch readers (issue 10): malformed CSV, XLSX, Parquet and JSON Lines
files end in the batch's result (every row in the output) or in a pt-BR input error
(``EntradaInvalida``), never in another exception, and never leave a file behind."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import openpyxl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from multas.lote.executor import executar
from multas.lote.processar import Config
from multas.nucleo.erros import EntradaInvalida

REGIME = "renovabio.distribuidor"
CFG = Config(REGIME, {"faturamento": "media", "piso": "lei"})
COLUNAS = ["ano_meta", "meta_cbios", "cbios_aposentados", "maior_media_mensal", "nome"]
LINHA = ["2025", "1000000", "400000", "71.70", "ok"]
AJUSTES = settings(
    max_examples=40,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
CELULAS = st.one_of(
    st.sampled_from(["", "2025", "1,5", "=1+1", '"', '""', ";", ",", "\n", "\r", "\ufeff", "١٠"]),
    st.text(max_size=6),
)


def rodar(pasta: Path, nome: str, conteudo: bytes) -> None:
    """Run the batch on ``conteudo``; only a result or a pt-BR error may come out."""
    for item in pasta.iterdir():
        item.unlink()
    entrada = pasta / nome
    entrada.write_bytes(conteudo)
    saida = pasta / f"saida{entrada.suffix}"
    try:
        resumo = executar(entrada, saida, CFG, linhas_por_bloco=7)
    except EntradaInvalida as erro:
        assert erro.mensagem and "Traceback" not in erro.mensagem
        assert sorted(p.name for p in pasta.iterdir()) == [nome]  # nothing written
        return
    assert saida.exists()
    assert resumo.linhas >= 0 and 0 <= resumo.erros <= resumo.linhas
    assert sorted(p.name for p in pasta.iterdir()) == sorted([nome, saida.name])


@pytest.fixture
def pasta(tmp_path: Path) -> Path:
    return tmp_path


@AJUSTES
@given(
    linhas=st.lists(st.lists(CELULAS, min_size=0, max_size=7), max_size=6),
    cabecalho=st.lists(st.sampled_from([*COLUNAS, "", "ano_meta"]), min_size=1, max_size=6),
    separador=st.sampled_from([",", ";"]),
    fim=st.sampled_from(["\n", "\r\n", "\r"]),
    estragar=st.sampled_from([b"", b"\xe9", b"\xff\xfe", b'"', b"\x00"]),
    onde=st.integers(0, 400),
)
def test_csv_malformado(
    pasta: Path,
    linhas: list[list[str]],
    cabecalho: list[str],
    separador: str,
    fim: str,
    estragar: bytes,
    onde: int,
) -> None:
    texto = fim.join(separador.join(c) for c in [cabecalho, *linhas]) + fim
    dados = texto.encode("utf-8")
    dados = dados[:onde] + estragar + dados[onde:]
    rodar(pasta, "d.csv", dados)


def _linha_jsonl() -> st.SearchStrategy[bytes]:
    valida = json.dumps(dict(zip(COLUNAS, LINHA, strict=True))).encode()
    return st.one_of(
        st.just(valida),
        st.just(valida.replace(b", ", b",\r", 1)),
        st.just(valida.replace(b'"ok"', '"a\u2028b"'.encode())),
        st.just(valida.replace(b'"ok"', b'"Jos\xe9"')),
        st.binary(max_size=20),
        st.just(b"[1, 2]"),
        st.just(b"{"),
        st.just(b"\xef\xbb\xbf" + valida),
        st.just(b""),
    )


@AJUSTES
@given(linhas=st.lists(_linha_jsonl(), max_size=12), final=st.sampled_from([b"", b"\n", b"\r\n"]))
def test_jsonl_malformado(pasta: Path, linhas: list[bytes], final: bytes) -> None:
    rodar(pasta, "d.jsonl", b"\n".join(linhas) + final)


def _parquet() -> bytes:
    buffer = io.BytesIO()
    tabela = pa.table({c: [v] * 30 for c, v in zip(COLUNAS, LINHA, strict=True)})
    pq.write_table(tabela, buffer, row_group_size=10)
    return buffer.getvalue()


def _xlsx() -> bytes:
    livro = openpyxl.Workbook()
    folha = livro.active
    assert folha is not None
    folha.append(COLUNAS)
    for _ in range(5):
        folha.append(LINHA)
    buffer = io.BytesIO()
    livro.save(buffer)
    return buffer.getvalue()


PARQUET, XLSX = _parquet(), _xlsx()


def _estragado(original: bytes) -> st.SearchStrategy[bytes]:
    def aplicar(args: tuple[int, int, list[tuple[int, int]]]) -> bytes:
        inicio, fim, trocas = args
        dados = bytearray(original[inicio:fim])
        for posicao, valor in trocas:
            if dados:
                dados[posicao % len(dados)] = valor
        return bytes(dados)

    n = len(original)
    return st.tuples(
        st.sampled_from([0, 0, 0, 4, 100]),
        st.one_of(st.just(n), st.integers(0, n)),
        st.lists(st.tuples(st.integers(0, n), st.integers(0, 255)), max_size=8),
    ).map(aplicar)


@AJUSTES
@given(dados=_estragado(PARQUET))
def test_parquet_malformado(pasta: Path, dados: bytes) -> None:
    rodar(pasta, "d.parquet", dados)


@AJUSTES
@given(dados=_estragado(XLSX))
def test_xlsx_malformado(pasta: Path, dados: bytes) -> None:
    rodar(pasta, "d.xlsx", dados)


def test_arquivos_validos_de_partida_sao_calculados(pasta: Path) -> None:
    """The fuzzers start from files that do compute (else they would test nothing)."""
    for nome, dados in (("d.parquet", PARQUET), ("d.xlsx", XLSX)):
        entrada, saida = pasta / nome, pasta / f"s{Path(nome).suffix}"
        entrada.write_bytes(dados)
        resumo: Any = executar(entrada, saida, CFG)
        assert resumo.linhas in (30, 5) and resumo.erros == 0
