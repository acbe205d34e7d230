"""Batch files in and out, block by block (memory stays bounded whatever the file's size):
CSV (also pt-BR: ``;`` and decimal comma), XLSX, Parquet and JSON Lines (spec § 4).

Output: every input column as read, then ``valor`` and the regime's outputs, then ``erro``.
Money is exact: text with two decimals (``1234.56``, or ``1234,56`` in pt-BR mode) in CSV,
XLSX and JSON Lines, ``decimal128(18, 2)`` in Parquet; dates ISO (``date32`` in Parquet).
"""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from multas.dinheiro import normalizar_ptbr
from multas.erros import EntradaInvalida
from multas.lote.processar import Bloco, Config, tipo_saida

FORMATOS = {".csv": "csv", ".xlsx": "xlsx", ".parquet": "parquet", ".jsonl": "jsonl"}
LINHAS_POR_BLOCO = 1 << 18


def formato_de(caminho: Path) -> str:
    formato = FORMATOS.get(caminho.suffix.lower())
    if formato is None:
        raise EntradaInvalida(
            None,
            f"formato não reconhecido: {caminho.name} (use {', '.join(FORMATOS)})",
        )
    return formato


# --- reading --------------------------------------------------------------------------------


@dataclass
class Leitor:
    """An input file: its columns (known before the first block) and its blocks."""

    colunas: list[str]
    blocos: Iterator[Bloco]
    total: int | None  # rows, when the format says it up front


def abrir(caminho: Path, cfg: Config, linhas_por_bloco: int = LINHAS_POR_BLOCO) -> Leitor:
    formato = formato_de(caminho)
    if formato == "csv":
        return _ler_csv(caminho, cfg, linhas_por_bloco)
    if formato == "parquet":
        return _ler_parquet(caminho, linhas_por_bloco)
    if formato == "jsonl":
        return _ler_jsonl(caminho, cfg, linhas_por_bloco)
    return _ler_xlsx(caminho, cfg, linhas_por_bloco)


def _ler_csv(caminho: Path, cfg: Config, linhas_por_bloco: int) -> Leitor:
    import pyarrow.csv as pacsv

    delimitador = ";" if cfg.ptbr else ","
    with open(caminho, encoding="utf-8-sig", newline="") as arquivo:
        cabecalho = next(csv.reader(arquivo, delimiter=delimitador), None)
    if not cabecalho:
        raise EntradaInvalida(None, f"{caminho.name}: arquivo CSV vazio (falta o cabeçalho)")
    # every column as text: the contract, not a type guesser, reads the cells
    leitor = pacsv.open_csv(
        caminho,
        read_options=pacsv.ReadOptions(block_size=max(1 << 20, linhas_por_bloco * 128)),
        parse_options=pacsv.ParseOptions(delimiter=delimitador, newlines_in_values=True),
        convert_options=pacsv.ConvertOptions(
            column_types={nome: pa.string() for nome in cabecalho},
            strings_can_be_null=False,
            quoted_strings_can_be_null=False,
        ),
    )

    def blocos() -> Iterator[Bloco]:
        inicio = 0
        for lote in leitor:  # batches of block_size bytes, cut to the row limit
            for tabela in _fatias(pa.Table.from_batches([lote]), linhas_por_bloco):
                yield Bloco(inicio, tabela)
                inicio += tabela.num_rows
        if inicio == 0:  # a header and no row: one empty block, so the output has its header
            yield Bloco(0, pa.table({n: pa.array([], pa.string()) for n in cabecalho}))

    return Leitor(list(cabecalho), blocos(), None)


def _fatias(tabela: pa.Table, linhas: int) -> Iterator[pa.Table]:
    for inicio in range(0, tabela.num_rows, linhas):
        yield tabela.slice(inicio, linhas)


def _ler_parquet(caminho: Path, linhas_por_bloco: int) -> Leitor:
    import pyarrow.parquet as pq

    arquivo = pq.ParquetFile(caminho)

    def blocos() -> Iterator[Bloco]:
        inicio = 0
        # one row group at a time: a single iter_batches over the whole file keeps the
        # buffers it has read until the end (memory grew with the file)
        for grupo in range(arquivo.metadata.num_row_groups):
            for lote in arquivo.iter_batches(batch_size=linhas_por_bloco, row_groups=[grupo]):
                tabela = pa.Table.from_batches([lote])
                yield Bloco(inicio, tabela)
                inicio += tabela.num_rows
        if inicio == 0:
            yield Bloco(0, arquivo.schema_arrow.empty_table())

    return Leitor(list(arquivo.schema_arrow.names), blocos(), arquivo.metadata.num_rows)


def texto_da_celula(valor: object, tipo: str, ptbr: bool) -> str | None:
    """A cell (JSON or spreadsheet value) as the text the kernel parses; the engine still
    gets the value itself. pt-BR notation applies to texts only, as in the engine."""
    if valor is None:
        return None
    if isinstance(valor, bool):
        return "true" if valor else "false"
    if isinstance(valor, str):
        if valor == "":
            return None
        return normalizar_ptbr(valor) if ptbr and tipo not in ("data", "inciso") else valor
    if isinstance(valor, int | Decimal):
        return str(valor)
    if isinstance(valor, float):
        return repr(valor)
    if isinstance(valor, date) and not isinstance(valor, datetime):
        return valor.isoformat()
    return "\x00"  # anything else: the engine decides (and names the field)


def _bloco_de_linhas(
    inicio: int, linhas: list[dict[str, Any] | None], erros: list[str | None], cfg: Config
) -> Bloco:
    from multas.regimes import REGIMES

    tipos = {c.nome: c.tipo for c in REGIMES[cfg.regime].caso.campos() if c.plano}
    colunas = {
        nome: pa.array(
            [texto_da_celula((linha or {}).get(nome), tipo, cfg.ptbr) for linha in linhas],
            pa.string(),
        )
        for nome, tipo in tipos.items()
    }
    tabela = (
        pa.table(colunas) if linhas else pa.table({n: pa.array([], pa.string()) for n in tipos})
    )
    return Bloco(inicio, tabela, linhas, erros)


def _ler_jsonl(caminho: Path, cfg: Config, linhas_por_bloco: int) -> Leitor:
    from multas.json_exato import ler_json

    def blocos() -> Iterator[Bloco]:
        inicio = 0
        linhas: list[dict[str, Any] | None] = []
        erros: list[str | None] = []
        with open(caminho, encoding="utf-8") as arquivo:
            for numero, texto in enumerate(arquivo, 1):
                texto = texto.rstrip("\r\n")
                try:
                    if not texto.strip():
                        raise EntradaInvalida(None, "linha vazia")
                    objeto = ler_json(texto)
                    if not isinstance(objeto, dict):
                        raise EntradaInvalida(None, "o caso deve ser um objeto JSON")
                    linhas.append(objeto | {"\x00texto": texto})
                    erros.append(None)
                except EntradaInvalida as erro:
                    linhas.append({"\x00texto": texto, "\x00linha": numero})
                    erros.append(f"linha {numero}: {erro}")
                if len(linhas) == linhas_por_bloco:
                    yield _bloco_de_linhas(inicio, linhas, erros, cfg)
                    inicio += len(linhas)
                    linhas, erros = [], []
        if linhas or inicio == 0:
            yield _bloco_de_linhas(inicio, linhas, erros, cfg)

    return Leitor([], blocos(), None)


def _ler_xlsx(caminho: Path, cfg: Config, linhas_por_bloco: int) -> Leitor:
    import openpyxl

    livro = openpyxl.load_workbook(caminho, read_only=True, data_only=True)
    folha = livro.worksheets[0]
    linhas_brutas = folha.iter_rows(values_only=True)
    cabecalho = next(linhas_brutas, None)
    if not cabecalho:
        livro.close()
        raise EntradaInvalida(None, f"{caminho.name}: planilha vazia (falta o cabeçalho)")
    nomes = [str(v) if v is not None else f"coluna_{i + 1}" for i, v in enumerate(cabecalho)]

    def blocos() -> Iterator[Bloco]:
        inicio = 0
        linhas: list[dict[str, Any] | None] = []
        vazias: list[dict[str, Any] | None] = []  # blank rows are kept only if a row follows
        try:
            for valores in linhas_brutas:
                linha = dict(zip(nomes, valores, strict=False))
                if all(v is None or v == "" for v in valores):
                    vazias.append(linha)
                    continue
                linhas.extend(vazias)
                vazias = []
                linhas.append(linha)
                if len(linhas) >= linhas_por_bloco:
                    yield _bloco_de_linhas(inicio, linhas, [None] * len(linhas), cfg)
                    inicio += len(linhas)
                    linhas = []
        finally:
            livro.close()
        if linhas or inicio == 0:
            yield _bloco_de_linhas(inicio, linhas, [None] * len(linhas), cfg)

    total = folha.max_row - 1 if folha.max_row else None
    return Leitor(nomes, blocos(), total)


# --- writing --------------------------------------------------------------------------------


def nomes_de_saida(colunas_entrada: Sequence[str], cfg: Config) -> list[str]:
    """``valor``, the outputs and ``erro``; one whose name is already an input column is
    written ``resultado_<nome>`` (the input column is kept as it was)."""
    existentes = set(colunas_entrada)
    return [f"resultado_{nome}" if nome in existentes else nome for nome in (*cfg.saidas, "erro")]


def _centavos_texto(coluna: pa.Array, virgula: bool) -> pa.Array:
    """int64 centavos → "1234.56" (or "1234,56"), nulls kept."""
    valores = np.asarray(coluna.fill_null(0).to_numpy(zero_copy_only=False), np.int64)
    reais = pa.array(valores // 100).cast(pa.string())
    centavos = pc.utf8_lpad(pa.array(valores % 100).cast(pa.string()), 2, "0")
    texto = pc.binary_join_element_wise(reais, centavos, "," if virgula else ".")
    return pc.if_else(pc.is_null(coluna), pa.scalar(None, pa.string()), texto)


def _centavos_decimal(coluna: pa.Array) -> pa.Array:
    """int64 centavos → decimal128(18, 2), exactly: the decimal's unscaled 128-bit integers
    are the centavos themselves (|centavos| < 10**17, so the high word is the sign)."""
    valores = np.asarray(coluna.fill_null(0).to_numpy(zero_copy_only=False), np.int64)
    pares = np.empty((len(valores), 2), dtype=np.int64)
    pares[:, 0] = valores
    pares[:, 1] = np.where(valores < 0, -1, 0)
    validade = pc.is_valid(coluna).buffers()[1] if coluna.null_count else None
    return pa.Array.from_buffers(
        pa.decimal128(18, 2), len(valores), [validade, pa.py_buffer(pares)], coluna.null_count
    )


def resultados_formatados(resultado: pa.Table, cfg: Config, formato: str) -> list[pa.Array]:
    """The result columns as the output format writes them."""
    arrays = []
    for nome in (*cfg.saidas, "erro"):
        coluna = resultado.column(nome).combine_chunks()
        tipo = "texto" if nome == "erro" else tipo_saida(nome)
        if tipo == "quantia":
            coluna = (
                _centavos_decimal(coluna)
                if formato == "parquet"
                else _centavos_texto(coluna, cfg.ptbr and formato in ("csv", "xlsx"))
            )
        elif formato == "csv":
            coluna = coluna.cast(pa.string())
        arrays.append(coluna)
    return arrays


class Escritor(Protocol):
    def escrever(self, bloco: Bloco, resultado: pa.Table) -> None: ...

    def fechar(self) -> None: ...


class _EscritorArrow:
    """CSV and Parquet: input columns as read, then the result columns, block by block (one
    Parquet row group per block)."""

    def __init__(self, destino: Path, formato: str, colunas: list[str], cfg: Config) -> None:
        self.destino, self.formato, self.cfg = destino, formato, cfg
        self.nomes = [*colunas, *nomes_de_saida(colunas, cfg)]
        self.escritor: Any = None

    def escrever(self, bloco: Bloco, resultado: pa.Table) -> None:
        arrays = [c.combine_chunks() for c in bloco.tabela.columns]
        tabela = pa.Table.from_arrays(
            arrays + resultados_formatados(resultado, self.cfg, self.formato), names=self.nomes
        )
        self._gravar(tabela)

    def _gravar(self, tabela: pa.Table) -> None:
        if self.escritor is None:
            if self.formato == "parquet":
                import pyarrow.parquet as pq

                # no dictionary encoding: on high-cardinality columns (ids, amounts) building
                # and dropping the dictionary doubled the writing time; snappy still compresses
                self.escritor = pq.ParquetWriter(self.destino, tabela.schema, use_dictionary=False)
            else:
                import pyarrow.csv as pacsv

                opcoes = pacsv.WriteOptions(
                    delimiter=";" if self.cfg.ptbr else ",", quoting_style="needed"
                )
                self.escritor = pacsv.CSVWriter(self.destino, tabela.schema, write_options=opcoes)
        self.escritor.write_table(tabela)

    def fechar(self) -> None:
        if self.escritor is not None:  # every reader yields at least one block
            self.escritor.close()


def _jsonl_valor(valor: Any) -> str:
    if isinstance(valor, date):
        return json.dumps(valor.isoformat())
    return json.dumps(valor, ensure_ascii=False)


class _EscritorJsonl:
    """Each input line as it was (its text, so exact numbers stay as written), with the
    result keys appended; a line that was not a JSON object keeps its text in ``entrada``."""

    def __init__(self, destino: Path, cfg: Config) -> None:
        self.arquivo = open(destino, "w", encoding="utf-8", newline="\n")  # noqa: SIM115
        self.cfg = cfg

    def escrever(self, bloco: Bloco, resultado: pa.Table) -> None:
        assert bloco.linhas is not None
        colunas = [c.to_pylist() for c in resultados_formatados(resultado, self.cfg, "jsonl")]
        saidas = (*self.cfg.saidas, "erro")
        partes = []
        for i, linha in enumerate(bloco.linhas):
            assert linha is not None
            texto = linha["\x00texto"]
            if "\x00linha" in linha:  # not a JSON object: nothing to append to
                pares = [f'"entrada":{json.dumps(texto, ensure_ascii=False)}']
                existentes: set[str] = set()
                fechamento = "{"
            else:
                existentes = {k for k in linha if not k.startswith("\x00")}
                corpo = texto.rstrip()
                fechamento = corpo[:-1].rstrip()
                pares = [] if fechamento.endswith("{") else [""]
            nomes = [f"resultado_{s}" if s in existentes else s for s in saidas]
            pares += [
                f"{json.dumps(n)}:{_jsonl_valor(c[i])}" for n, c in zip(nomes, colunas, strict=True)
            ]
            if fechamento == "{":
                partes.append("{" + ",".join(p for p in pares if p) + "}\n")
            else:
                partes.append(fechamento + ",".join(pares) + "}\n")
        self.arquivo.write("".join(partes))

    def fechar(self) -> None:
        self.arquivo.close()


class _EscritorXlsx:
    def __init__(self, destino: Path, colunas: list[str], cfg: Config) -> None:
        import openpyxl

        self.destino, self.cfg, self.colunas = destino, cfg, colunas
        self.livro = openpyxl.Workbook(write_only=True)
        self.folha = self.livro.create_sheet("resultado")
        self.folha.append([*colunas, *nomes_de_saida(colunas, cfg)])

    def escrever(self, bloco: Bloco, resultado: pa.Table) -> None:
        assert bloco.linhas is not None
        colunas = [c.to_pylist() for c in resultados_formatados(resultado, self.cfg, "xlsx")]
        for i, linha in enumerate(bloco.linhas):
            entrada = [(linha or {}).get(nome) for nome in self.colunas]
            self.folha.append([*entrada, *(c[i] for c in colunas)])

    def fechar(self) -> None:
        self.livro.save(self.destino)


def abrir_escritor(destino: Path, formato: str, colunas: list[str], cfg: Config) -> Escritor:
    if formato in ("csv", "parquet"):
        return _EscritorArrow(destino, formato, colunas, cfg)
    if formato == "jsonl":
        return _EscritorJsonl(destino, cfg)
    return _EscritorXlsx(destino, colunas, cfg)


@contextmanager
def escrita_atomica(destino: Path) -> Iterator[Path]:
    """A temporary file beside ``destino``, renamed over it only when everything was written:
    an interrupted run leaves no half-written output (and the old file, if any, intact)."""
    temporario = destino.with_name(f".{destino.name}.{os.getpid()}.parcial")
    try:
        yield temporario
        os.replace(temporario, destino)
    except BaseException:
        temporario.unlink(missing_ok=True)
        raise
