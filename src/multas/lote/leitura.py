"""Reading a batch's CSV, JSON Lines and XLSX files block by block (:func:`multas.lote.io.abrir`
picks the reader; Parquet's is in :mod:`multas.lote.io`, with its ramp): every cell as text, for
the contract to read; the errors in pt-BR with the line.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import IO, Any

import pyarrow as pa

from multas.lote.arquivo import Origem, _binario, _fechar
from multas.lote.processar import Bloco, Config
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


@dataclass
class Leitor:
    """An input file: its columns (known before the first block) and its blocks (how many
    rows it has, for a progress bar: :mod:`multas.lote.contagem`)."""

    colunas: list[str]
    blocos: Iterator[Bloco]


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


def _fatias(tabela: pa.Table, linhas: int) -> Iterator[pa.Table]:
    for inicio in range(0, tabela.num_rows, linhas):
        yield tabela.slice(inicio, linhas)


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
