"""Batch files in and out, block by block (memory stays bounded whatever the file's size):
CSV (also pt-BR: ``;`` and decimal comma), XLSX, Parquet and JSON Lines (spec § 4).

Output: every input column as read, then ``valor`` and the regime's outputs, then ``erro``.
Money is exact: text with two decimals (``1234.56``, or ``1234,56`` in pt-BR mode) in CSV
and JSON Lines, ``decimal128(18, 2)`` in Parquet, a number cell shown ``"R$" #,##0.00`` in XLSX
(text from 10**13 reais, or with ``--xlsx-dinheiro-texto``); dates ISO (``date32`` in Parquet,
date cells shown dd/mm/yyyy in XLSX).
"""

from __future__ import annotations

import io
import json
import os
import posixpath
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import IO, Any, Protocol

import numpy as np
import pyarrow as pa

from multas.lote.processar import Bloco, Config, tipo_saida
from multas.nucleo.arquivos import (
    NAO_UTF8,
    LeitorXlsx,
    Limites,
    Local,
    largura_errada,
    linhas_csv,
    linhas_json,
    no_arquivo,
    primeira_linha_nao_utf8,
    sem_repetidas,
)
from multas.nucleo.dinheiro import normalizar_ptbr
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.kernel.colunas import contigua, de_buffers, inteiros, presenca
from multas.saidas.exportacao import (
    FORMATO_DATA,
    FORMATO_DINHEIRO,
    FORMULA_REGEX,
    LIMITE_NUMERO_XLSX,
    SO_NUMERO,
    celula_xlsx_texto,
    neutralizar_formula,
)
from multas.saidas.exportacao import NumeroExato as _Numero

FORMATOS = {".csv": "csv", ".xlsx": "xlsx", ".parquet": "parquet", ".jsonl": "jsonl"}
LINHAS_POR_BLOCO = 1 << 18


@dataclass(frozen=True)
class Arquivo:
    """A file on an fsspec file system other than the local one (``memory://``, ``s3://``…):
    the readers and writers open it as a file object. ``nome`` is what messages call it."""

    fs: Any
    caminho: str
    nome: str = ""

    @property
    def name(self) -> str:
        return self.nome or posixpath.basename(self.caminho)

    @property
    def suffix(self) -> str:
        return posixpath.splitext(self.caminho)[1]


#: an input or output file: a local path, or a file on another fsspec file system
Origem = Path | Arquivo


def _binario(origem: Origem) -> IO[bytes]:
    if isinstance(origem, Path):
        return open(origem, "rb")  # closed by the caller
    arquivo: IO[bytes] = origem.fs.open(origem.caminho, "rb")
    return arquivo


def formato_de(caminho: Origem) -> str:
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
    """An input file: its columns (known before the first block) and its blocks (how many
    rows it has, for a progress bar: :mod:`multas.lote.contagem`)."""

    colunas: list[str]
    blocos: Iterator[Bloco]


def abrir(caminho: Origem, cfg: Config, linhas_por_bloco: int = LINHAS_POR_BLOCO) -> Leitor:
    formato = formato_de(caminho)
    if formato == "csv":
        return _ler_csv(caminho, cfg, linhas_por_bloco)
    if formato == "parquet":
        return _ler_parquet(caminho, linhas_por_bloco)
    if formato == "jsonl":
        return _ler_jsonl(caminho, cfg, linhas_por_bloco)
    return _ler_xlsx(caminho, cfg, linhas_por_bloco)


def _texto(binario: IO[bytes], erros: str = "strict") -> io.TextIOWrapper:
    return io.TextIOWrapper(binario, encoding="utf-8-sig", newline="", errors=erros)


def _cabecalho_csv(caminho: Origem, delimitador: str, limites: Limites) -> list[str]:
    with _binario(caminho) as binario:
        primeira = binario.readline(1 << 20)
    if primeira_linha_nao_utf8([primeira]) is not None:
        raise Local(1, arquivo=caminho.name).erro(NAO_UTF8)
    with _texto(_binario(caminho), "replace") as arquivo:
        registro = next(linhas_csv(arquivo, delimitador, limites, caminho.name), None)
    if not registro or not registro[1]:
        raise no_arquivo(caminho.name, "arquivo CSV vazio (falta o cabeçalho)")
    cabecalho = registro[1]
    sem_repetidas(cabecalho, caminho.name)
    return cabecalho


def diagnosticar_csv(caminho: Origem, delimitador: str, limites: Limites) -> EntradaInvalida:
    """Why pyarrow refused a CSV (or why a cell is past the limit), in pt-BR with the line:
    read again with the shared readers (only on this error path), to find the first line
    that is not UTF-8, has a wrong number of cells, a malformed quote or a cell past
    ``limites.texto``."""
    with _binario(caminho) as binario:
        numero = primeira_linha_nao_utf8(binario)
    if numero is not None:
        return Local(numero, arquivo=caminho.name).erro(NAO_UTF8)
    with _texto(_binario(caminho)) as arquivo:
        try:
            colunas: int | None = None
            for numero, celulas in linhas_csv(arquivo, delimitador, limites, caminho.name):
                if colunas is None:
                    colunas = len(celulas)
                elif celulas and len(celulas) != colunas:  # Arrow skips blank lines
                    local = Local(numero, arquivo=caminho.name)
                    return largura_errada(local, len(celulas), colunas)
        except EntradaInvalida as erro:
            return erro
    return no_arquivo(caminho.name, "CSV malformado; não foi possível lê-lo")


def _texto_no_limite(tabela: pa.Table, limite: int) -> bool:
    """Whether every text cell of the block is within ``limite`` characters (its UTF-8 bytes
    are counted first: no more characters than bytes)."""
    import pyarrow.compute as pc

    for coluna in tabela.columns:
        if not (pa.types.is_string(coluna.type) or pa.types.is_large_string(coluna.type)):
            continue
        maior = pc.max(pc.binary_length(coluna)).as_py()
        if maior is not None and maior > limite:
            maior = pc.max(pc.utf8_length(coluna)).as_py()
            if maior is not None and maior > limite:
                return False
    return True


def _ler_csv(caminho: Origem, cfg: Config, linhas_por_bloco: int) -> Leitor:
    import pyarrow.csv as pacsv

    delimitador = ";" if cfg.ptbr else ","
    limites = cfg.limites
    cabecalho = _cabecalho_csv(caminho, delimitador, limites)
    fonte = caminho if isinstance(caminho, Path) else _binario(caminho)
    # a block holds whole rows: room for a few cells at the limit
    bloco = max(1 << 20, linhas_por_bloco * 128, 4 * limites.texto)
    # every column as text: the contract, not a type guesser, reads the cells
    try:
        leitor = pacsv.open_csv(
            fonte,
            read_options=pacsv.ReadOptions(block_size=bloco),
            parse_options=pacsv.ParseOptions(delimiter=delimitador, newlines_in_values=True),
            convert_options=pacsv.ConvertOptions(
                column_types={nome: pa.string() for nome in cabecalho},
                strings_can_be_null=False,
                quoted_strings_can_be_null=False,
            ),
        )
    except pa.ArrowException:  # the first block is read here
        _fechar(fonte)
        raise diagnosticar_csv(caminho, delimitador, limites) from None

    def blocos() -> Iterator[Bloco]:
        inicio = 0
        try:
            for lote in leitor:  # batches of block_size bytes, cut to the row limit
                lida = pa.Table.from_batches([lote])
                if not _texto_no_limite(lida, limites.texto):
                    raise diagnosticar_csv(caminho, delimitador, limites)
                for tabela in _fatias(lida, linhas_por_bloco):
                    yield Bloco(inicio, tabela)
                    inicio += tabela.num_rows
        except pa.ArrowException:
            raise diagnosticar_csv(caminho, delimitador, limites) from None
        finally:
            _fechar(fonte)
        if inicio == 0:  # a header and no row: one empty block, so the output has its header
            yield Bloco(0, pa.table({n: pa.array([], pa.string()) for n in cabecalho}))

    return Leitor(list(cabecalho), blocos())


def _fechar(fonte: object) -> None:
    """Close a file object this module opened (a local path is pyarrow's to close)."""
    if not isinstance(fonte, Path):
        with suppress(Exception):
            fonte.close()  # type: ignore[attr-defined]


def _fatias(tabela: pa.Table, linhas: int) -> Iterator[pa.Table]:
    for inicio in range(0, tabela.num_rows, linhas):
        yield tabela.slice(inicio, linhas)


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


def _ler_parquet(caminho: Origem, linhas_por_bloco: int) -> Leitor:
    import pyarrow.parquet as pq

    def invalido() -> EntradaInvalida:
        return EntradaInvalida(
            None, f"{caminho.name}: arquivo Parquet inválido ou incompleto (truncado?)"
        )

    fonte = caminho if isinstance(caminho, Path) else _binario(caminho)
    try:
        arquivo = pq.ParquetFile(fonte, pre_buffer=True)
        nomes = list(arquivo.schema_arrow.names)
        sem_repetidas(nomes, caminho.name)
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
                    ultima = inicio + tabela.num_rows == arquivo.metadata.num_rows
                    for parte in em_descida(tabela) if ultima else [tabela]:
                        yield Bloco(inicio, parte)
                        inicio += parte.num_rows
        except (pa.ArrowException, OSError):
            raise invalido() from None
        finally:
            _fechar(fonte)
        if inicio == 0:
            yield Bloco(0, arquivo.schema_arrow.empty_table())

    return Leitor(nomes, blocos())


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
    from multas.nucleo.regimes import REGIMES

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


def _ler_jsonl(caminho: Origem, cfg: Config, linhas_por_bloco: int) -> Leitor:
    from multas.nucleo.json_exato import ler_json

    def blocos() -> Iterator[Bloco]:
        inicio = 0
        linhas: list[dict[str, Any] | None] = []
        erros: list[str | None] = []
        # binary: lines end at \n only (\r, U+2028 and the like may be inside a line), and
        # a line that is not UTF-8 is that line's error, not the whole batch's
        with _binario(caminho) as arquivo:
            for numero, bruta in linhas_json(arquivo, cfg.limites, caminho.name):
                texto = bruta.decode("utf-8", errors="replace")
                try:
                    try:
                        bruta.decode("utf-8")
                    except UnicodeDecodeError:
                        raise EntradaInvalida(None, "a linha não está em UTF-8") from None
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

    return Leitor([], blocos())


def _ler_xlsx(caminho: Origem, cfg: Config, linhas_por_bloco: int) -> Leitor:
    fonte = caminho if isinstance(caminho, Path) else _binario(caminho)
    try:
        planilha = LeitorXlsx(fonte, cfg.limites, caminho.name)
    except BaseException:
        _fechar(fonte)
        raise

    def fechar() -> None:
        planilha.fechar()
        _fechar(fonte)

    nomes = [
        str(v) if v is not None else f"coluna_{i + 1}" for i, v in enumerate(planilha.cabecalho)
    ]
    try:
        sem_repetidas(nomes, caminho.name)
    except EntradaInvalida:
        fechar()
        raise

    def blocos() -> Iterator[Bloco]:
        inicio = 0
        linhas: list[dict[str, Any] | None] = []
        vazias: list[dict[str, Any] | None] = []  # blank rows are kept only if a row follows
        try:
            for _, valores in planilha.linhas():
                linha = dict(zip(nomes, valores, strict=False))
                if not valores:  # a blank row
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
            fechar()
        if linhas or inicio == 0:
            yield _bloco_de_linhas(inicio, linhas, [None] * len(linhas), cfg)

    return Leitor(nomes, blocos())


# --- writing --------------------------------------------------------------------------------


def nomes_de_saida(colunas_entrada: Sequence[str], cfg: Config) -> list[str]:
    """``valor``, the outputs and ``erro``; one whose name is already an input column is
    written ``resultado_<nome>`` (the input column is kept as it was)."""
    existentes = set(colunas_entrada)
    return [f"resultado_{nome}" if nome in existentes else nome for nome in (*cfg.saidas, "erro")]


def _centavos_texto(coluna: pa.Array, virgula: bool) -> pa.Array:
    """int64 centavos → "1234.56" (or "1234,56"), "-0.05" below zero, nulls kept."""
    import pyarrow.compute as pc

    valores = inteiros(coluna)
    absolutos = np.abs(valores)
    reais = pa.array(absolutos // 100).cast(pa.string())
    if (valores < 0).any():  # floor division would make -5 centavos "-1.95"
        reais = pc.if_else(
            pa.array(valores < 0), pc.binary_join_element_wise("-", reais, ""), reais
        )
    centavos = pc.utf8_lpad(pa.array(absolutos % 100).cast(pa.string()), 2, "0")
    texto = pc.binary_join_element_wise(reais, centavos, "," if virgula else ".")
    return pc.if_else(pc.is_null(coluna), pa.scalar(None, pa.string()), texto)


def _centavos_decimal(coluna: pa.Array) -> pa.Array:
    """int64 centavos → decimal128(18, 2), exactly: the decimal's unscaled 128-bit integers
    are the centavos themselves (|centavos| < 10**17, so the high word is the sign)."""
    valores = inteiros(coluna)
    pares = np.empty((len(valores), 2), dtype=np.int64)
    pares[:, 0] = valores
    pares[:, 1] = valores >> 63  # the sign, extended
    nulos = ~presenca(coluna) if coluna.null_count else None
    return de_buffers(pa.decimal128(18, 2), pares, nulos)


def resultados_formatados(resultado: pa.Table, cfg: Config, formato: str) -> list[pa.Array]:
    """The result columns as the output format writes them."""
    arrays = []
    for nome in (*cfg.saidas, "erro"):
        coluna = contigua(resultado.column(nome))
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


def _neutralizar_coluna(coluna: pa.Array) -> pa.Array:
    """The same, on an Arrow text column (vectorised)."""
    if not (pa.types.is_string(coluna.type) or pa.types.is_large_string(coluna.type)):
        return coluna
    import pyarrow.compute as pc

    perigosa = pc.and_(
        pc.match_substring_regex(coluna, FORMULA_REGEX),
        pc.invert(pc.match_substring_regex(coluna, SO_NUMERO)),
    )
    perigosa = pc.fill_null(perigosa, False)
    if not pc.any(perigosa).as_py():
        return coluna
    prefixada = pc.binary_join_element_wise(pa.scalar("'", coluna.type), coluna, "")
    return pc.if_else(perigosa, prefixada, coluna)


class Escritor(Protocol):
    """An output file, written block by block in input order.

    ``preparar`` turns a block and its results into what the format writes (formatting,
    neutralising formulas, encoding text): it is pure and may run on several threads at once.
    ``gravar`` writes prepared blocks, one thread, in order; ``fechar`` ends the file.
    """

    def preparar(self, bloco: Bloco, resultado: pa.Table) -> Any: ...

    def gravar(self, preparado: Any) -> None: ...

    def fechar(self) -> None: ...


def escrever(escritor: Escritor, bloco: Bloco, resultado: pa.Table) -> None:
    escritor.gravar(escritor.preparar(bloco, resultado))


#: where a writer writes: a local path, or a file object it does not close
Destino = Path | IO[bytes]


class _EscritorArrow:
    """CSV and Parquet: input columns as read, then the result columns, block by block (one
    Parquet row group per block)."""

    def __init__(self, destino: Destino, formato: str, colunas: list[str], cfg: Config) -> None:
        self.destino, self.formato, self.cfg = destino, formato, cfg
        self.nomes = [*colunas, *nomes_de_saida(colunas, cfg)]
        if formato == "csv" and cfg.neutralizar_formulas:  # the header names input columns
            self.nomes = [neutralizar_formula(nome) for nome in self.nomes]
        self.entradas = len(colunas)
        self.escritor: Any = None

    def preparar(self, bloco: Bloco, resultado: pa.Table) -> pa.Table:
        # the input columns as read: a block of several batches (the first ones) is written as
        # one row group without copying its chunks together (the CSV ones are rewritten below)
        arrays: list[pa.Array | pa.ChunkedArray] = list(bloco.tabela.columns)
        if self.formato == "csv":
            arrays = [contigua(c) for c in arrays]
        arrays += resultados_formatados(resultado, self.cfg, self.formato)
        if self.formato == "csv" and self.cfg.neutralizar_formulas:
            arrays = [_neutralizar_coluna(a) for a in arrays]
        return pa.Table.from_arrays(arrays, names=self.nomes)

    def gravar(self, tabela: pa.Table) -> None:
        if self.escritor is None:
            if self.formato == "parquet":
                import pyarrow.parquet as pq

                # no dictionary encoding: on high-cardinality columns (ids, amounts) building
                # and dropping the dictionary doubled the writing time; snappy still compresses.
                # Statistics (min, max, nulls per row group, for readers to skip row groups)
                # only for the result columns: the input's own columns have them in the input,
                # and computing them again took an eighth of the writing time
                self.escritor = pq.ParquetWriter(
                    self.destino,
                    tabela.schema,
                    use_dictionary=False,
                    write_statistics=self.nomes[self.entradas :],
                )
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

    def __init__(self, destino: Destino, cfg: Config) -> None:
        self.destino = destino
        self.arquivo: IO[bytes] = (
            open(destino, "wb")  # noqa: SIM115
            if isinstance(destino, Path)
            else destino
        )
        self.cfg = cfg

    def preparar(self, bloco: Bloco, resultado: pa.Table) -> bytes:
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
        return "".join(partes).encode("utf-8")

    def gravar(self, texto: bytes) -> None:
        self.arquivo.write(texto)

    def fechar(self) -> None:
        if isinstance(self.destino, Path):
            self.arquivo.close()
        else:
            self.arquivo.flush()


#: the summary's warning when some did (``multas lote``)
AVISO_DINHEIRO_TEXTO = (
    "valores a partir de R$ 10.000.000.000.000,00 ficaram como texto no XLSX (uma planilha "
    "guarda números com 15 algarismos exatos, e um centavo poderia mudar)"
)


def _dinheiro_xlsx(coluna: pa.Array, virgula: bool) -> tuple[list[Any], int]:
    """int64 centavos → number cells (:class:`_Numero`) or, from :data:`LIMITE_NUMERO_XLSX`,
    the text form of ``--xlsx-dinheiro-texto``; and how many stayed text."""
    import pyarrow.compute as pc

    numeros = _centavos_texto(coluna, False).to_pylist()
    grande = pc.greater_equal(pc.abs(inteiros(coluna)), LIMITE_NUMERO_XLSX)
    if not pc.any(grande).as_py():
        return [None if t is None else _Numero(t) for t in numeros], 0
    textos = _centavos_texto(coluna, virgula).to_pylist()
    celulas: list[Any] = [
        texto if e_grande and texto is not None else (None if numero is None else _Numero(numero))
        for numero, texto, e_grande in zip(numeros, textos, grande.to_pylist(), strict=True)
    ]
    return celulas, int(pc.sum(pc.and_(grande, presenca(coluna))).as_py() or 0)


class _EscritorXlsx:
    """The result cells typed: money (:class:`_Numero`, shown :data:`FORMATO_DINHEIRO`),
    dates (shown :data:`FORMATO_DATA`), counts (integers); with ``--xlsx-dinheiro-texto``,
    money as text and dates in openpyxl's default format, as before."""

    def __init__(self, destino: Destino, colunas: list[str], cfg: Config) -> None:
        import openpyxl

        self.destino, self.cfg, self.colunas = destino, cfg, colunas
        self.livro = openpyxl.Workbook(write_only=True)
        self.folha = self.livro.create_sheet("resultado")
        self.folha.append(self._celulas([*colunas, *nomes_de_saida(colunas, cfg)]))
        #: result cells whose type decides their format: index in the row → number format
        self.formatos: dict[int, str] = {}
        if not cfg.xlsx_dinheiro_texto:
            for i, nome in enumerate(cfg.saidas, start=len(colunas)):
                tipo = tipo_saida(nome)
                if tipo in ("quantia", "data"):
                    self.formatos[i] = FORMATO_DINHEIRO if tipo == "quantia" else FORMATO_DATA
        #: amounts kept as text (from 10**13 reais), for the summary's warning
        self.dinheiro_texto = 0

    def _celulas(self, valores: list[Any]) -> list[Any]:
        """openpyxl writes a text starting with ``=`` as a live formula: such a text is
        written as a text cell (unless the run trusts its cells)."""
        if not self.cfg.neutralizar_formulas:
            return valores
        return [celula_xlsx_texto(self.folha, valor) for valor in valores]

    def preparar(self, bloco: Bloco, resultado: pa.Table) -> tuple[list[list[Any]], int]:
        assert bloco.linhas is not None
        if self.cfg.xlsx_dinheiro_texto:
            colunas = [c.to_pylist() for c in resultados_formatados(resultado, self.cfg, "xlsx")]
            grandes = 0
        else:
            colunas, grandes = [], 0
            for nome in (*self.cfg.saidas, "erro"):
                coluna = contigua(resultado.column(nome))
                if nome != "erro" and tipo_saida(nome) == "quantia":
                    celulas, textos = _dinheiro_xlsx(coluna, self.cfg.ptbr)
                    colunas.append(celulas)
                    grandes += textos
                else:
                    colunas.append(coluna.to_pylist())
        linhas = [
            [*((linha or {}).get(nome) for nome in self.colunas), *(c[i] for c in colunas)]
            for i, linha in enumerate(bloco.linhas)
        ]
        return linhas, grandes

    def gravar(self, preparado: tuple[list[list[Any]], int]) -> None:
        linhas, grandes = preparado
        self.dinheiro_texto += grandes
        for valores in linhas:
            self.folha.append(self._formatadas(self._celulas(valores)))

    def _formatadas(self, valores: list[Any]) -> list[Any]:
        """Money and date results as styled cells (one thread: styles are the workbook's)."""
        if not self.formatos:
            return valores
        from openpyxl.cell import WriteOnlyCell

        for i, formato in self.formatos.items():
            valor = valores[i]
            if isinstance(valor, (_Numero, date)):
                celula = WriteOnlyCell(self.folha, value=valor)
                if isinstance(valor, _Numero):
                    celula.data_type = "n"  # its text is written as it is: exact
                celula.number_format = formato
                valores[i] = celula
        return valores

    def fechar(self) -> None:
        self.livro.save(self.destino)


def abrir_escritor(destino: Destino, formato: str, colunas: list[str], cfg: Config) -> Escritor:
    if formato in ("csv", "parquet"):
        return _EscritorArrow(destino, formato, colunas, cfg)
    if formato == "jsonl":
        return _EscritorJsonl(destino, cfg)
    return _EscritorXlsx(destino, colunas, cfg)


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


def _fsync_pasta(pasta: Path) -> None:
    """Make the rename itself durable (POSIX: fsync the directory)."""
    try:
        fd = os.open(pasta, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


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
            _fsync_pasta(pasta)
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
        _fsync_pasta(pasta)
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
