"""Writing a batch's output block by block (:func:`abrir_escritor`): every input column as
read, then ``valor``, the regime's outputs and ``erro``, in CSV, Parquet, JSON Lines or XLSX
(money exact: see :mod:`multas.lote.io`). The file is written in place by
:func:`multas.lote.io.gravacao_atomica`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import IO, Any, Protocol

import numpy as np
import pyarrow as pa

from multas.lote.processar import Bloco, Config, tipo_saida
from multas.lote.xlsx_escrita import NumerosExatos, coluna_das_linhas
from multas.nucleo.kernel.colunas import contigua, de_buffers, inteiros, presenca
from multas.saidas.exportacao import (
    FORMATO_DATA,
    FORMATO_DINHEIRO,
    FORMATO_PRECO,
    FORMULA_REGEX,
    LIMITE_NUMERO_XLSX,
    SO_NUMERO,
    neutralizar_formula,
)
from multas.saidas.exportacao import NumeroExato as _Numero


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
        # the header names input columns: neutralised always (--sem-neutralizar-formulas keeps
        # the cell values the user asked to keep, never a live column name)
        if formato == "csv":
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


def _dinheiro_xlsx(coluna: pa.Array, virgula: bool) -> tuple[list[Any] | NumerosExatos, int]:
    """int64 centavos → number cells (:class:`NumerosExatos`, in Arrow; or :class:`_Numero`
    beside the ones that, from :data:`LIMITE_NUMERO_XLSX`, take the text form of
    ``--xlsx-dinheiro-texto``); and how many stayed text."""
    import pyarrow.compute as pc

    exatos = _centavos_texto(coluna, False)
    grande = pc.greater_equal(pc.abs(inteiros(coluna)), LIMITE_NUMERO_XLSX)
    if not pc.any(grande).as_py():
        return NumerosExatos(exatos), 0
    numeros = exatos.to_pylist()
    textos = _centavos_texto(coluna, virgula).to_pylist()
    celulas: list[Any] = [
        texto if e_grande and texto is not None else (None if numero is None else _Numero(numero))
        for numero, texto, e_grande in zip(numeros, textos, grande.to_pylist(), strict=True)
    ]
    return celulas, int(pc.sum(pc.and_(grande, presenca(coluna))).as_py() or 0)


#: 1970-01-01 as a spreadsheet's serial number (days since 1899-12-30): Arrow's date32 plus it
_SERIAL_1970 = 25_569


class _EscritorXlsx:
    """The result cells typed: money (:class:`_Numero`, shown :data:`FORMATO_DINHEIRO`),
    dates (shown :data:`FORMATO_DATA`), counts (integers); with ``--xlsx-dinheiro-texto``,
    money as text and dates in the default format (``yyyy-mm-dd``), as before. Written in a
    stream (:mod:`multas.lote.xlsx_escrita`)."""

    def __init__(self, destino: Destino, colunas: list[str], cfg: Config) -> None:
        from multas.lote.xlsx_escrita import PlanilhaEmFluxo

        self.cfg, self.colunas = cfg, colunas
        self.planilha = PlanilhaEmFluxo(
            destino,
            "resultado",
            [FORMATO_DINHEIRO, FORMATO_DATA, FORMATO_PRECO],
            formulas=not cfg.neutralizar_formulas,
        )
        #: result cells whose type decides their format: index in the row → style
        self.estilos: dict[int, int] = {}
        if not cfg.xlsx_dinheiro_texto:
            for i, nome in enumerate(cfg.saidas, start=len(colunas)):
                tipo = tipo_saida(nome)
                if tipo in ("quantia", "data"):
                    formato = FORMATO_DINHEIRO if tipo == "quantia" else FORMATO_DATA
                    self.estilos[i] = self.planilha.estilo[formato]
                elif nome == "preco":  # --cotacoes: the price to 4 places, a number cell
                    self.estilos[i] = self.planilha.estilo[FORMATO_PRECO]
        # the header stays text whatever the run trusts (--sem-neutralizar-formulas keeps the
        # cell values, not the names of the columns)
        self.planilha.gravar(self.planilha.cabecalho_xml([*colunas, *nomes_de_saida(colunas, cfg)]))
        #: amounts kept as text (from 10**13 reais), for the summary's warning
        self.dinheiro_texto = 0

    def preparar(self, bloco: Bloco, resultado: pa.Table) -> tuple[bytes, int]:
        import pyarrow.compute as pc

        assert bloco.linhas is not None
        colunas: list[list[Any] | NumerosExatos]
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
                elif nome == "preco":  # "111,1742" with --ptbr: the cell is a number
                    colunas.append(NumerosExatos(pc.replace_substring(coluna, ",", ".")))
                elif pa.types.is_integer(coluna.type):  # a count: its digits, in Arrow
                    colunas.append(NumerosExatos(coluna.cast(pa.string())))
                elif pa.types.is_date32(coluna.type) and tipo_saida(nome) == "data":
                    # a date: its serial number (days since 1899-12-30), shown as a date
                    dias = pc.add(coluna.cast(pa.int32()), _SERIAL_1970)
                    colunas.append(NumerosExatos(dias.cast(pa.string())))
                else:
                    colunas.append(coluna.to_pylist())
        lidas = bloco.celulas or {}
        entradas = [
            lidas[nome] if nome in lidas else coluna_das_linhas(bloco.linhas, nome)
            for nome in self.colunas
        ]
        # the header is row 1: the block's first row is its place in the input, plus 2
        xml = self.planilha.colunas_xml([*entradas, *colunas], self.estilos, bloco.inicio + 2)
        return xml, grandes

    def gravar(self, preparado: tuple[bytes, int]) -> None:
        xml, grandes = preparado
        self.dinheiro_texto += grandes
        self.planilha.gravar(xml)

    def fechar(self) -> None:
        self.planilha.fechar()


def abrir_escritor(destino: Destino, formato: str, colunas: list[str], cfg: Config) -> Escritor:
    if formato in ("csv", "parquet"):
        return _EscritorArrow(destino, formato, colunas, cfg)
    if formato == "jsonl":
        return _EscritorJsonl(destino, cfg)
    return _EscritorXlsx(destino, colunas, cfg)
