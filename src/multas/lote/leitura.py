"""Reading a batch's CSV, JSON Lines and XLSX files block by block (:func:`multas.lote.io.abrir`
picks the reader; Parquet's is in :mod:`multas.lote.io`, with its ramp): every cell as text, for
the contract to read; the errors in pt-BR with the line.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from datetime import date, datetime, time
from decimal import Decimal
from itertools import chain, islice
from pathlib import Path
from typing import IO, Any

import pyarrow as pa

from multas.lote.arquivo import Origem, _binario, _fechar
from multas.lote.forma import (
    LINHAS_DA_AMOSTRA,
    Forma,
    colunas_do_lote,
    forma_do_csv,
    nomes_das_colunas,
)
from multas.lote.processar import Bloco, Config
from multas.lote.xlsx_arrow import LeitorArrow
from multas.lote.xlsx_escrita import coluna_das_linhas
from multas.lote.xlsx_leitura import abrir_planilha
from multas.nucleo.arquivos import (
    FORMULA_SEM_VALOR,
    NAO_UTF8,
    Limites,
    Local,
    formula_sem_valor,
    largura_errada,
    linhas_csv,
    linhas_json,
    no_arquivo,
    primeira_linha_nao_utf8,
)
from multas.nucleo.cabecalhos import nota
from multas.nucleo.ciclo.planilha import achar_cabecalho, aviso_de_nota, avisos_dos_titulos
from multas.nucleo.dialeto import descrever, detectar_decimal
from multas.nucleo.dinheiro import normalizar_ptbr
from multas.nucleo.erros import EntradaInvalida, ErrosDeEntrada, em_uma_celula


@dataclass
class Leitor:
    """An input file: its columns (known before the first block) and its blocks (how many
    rows it has, for a progress bar: :mod:`multas.lote.contagem`); how its numbers are written
    (``None``: as ``--ptbr`` says) and what the summary says of its reading (pt-BR: how it was
    read, title rows, notes after the table, columns carried), filled as it is read."""

    colunas: list[str]
    blocos: Iterator[Bloco]
    decimal_virgula: bool | None = None
    avisos: list[str] = field(default_factory=list)


def _texto(binario: IO[bytes], erros: str = "strict", codec: str = "utf-8-sig") -> io.TextIOWrapper:
    return io.TextIOWrapper(binario, encoding=codec, newline="", errors=erros)


def diagnosticar_csv(caminho: Origem, forma: Forma, limites: Limites) -> EntradaInvalida:
    """Why pyarrow refused a CSV (or why a cell is past the limit), in pt-BR with the line:
    read again with the shared readers (only on this error path), to find the first line
    that is not UTF-8 (a UTF-8 file), has a wrong number of cells (a note after the table
    aside), a malformed quote or a cell past ``limites.texto``."""
    if forma.codec == "utf8":
        with _binario(caminho) as binario:
            numero = primeira_linha_nao_utf8(binario)
        if numero is not None:
            return Local(numero, arquivo=caminho.name).erro(NAO_UTF8)
    codec = "utf-8-sig" if forma.codec == "utf8" else forma.codec
    with _texto(_binario(caminho), "strict", codec) as arquivo:
        try:
            colunas = len(forma.nomes)
            for numero, celulas in linhas_csv(arquivo, forma.separador, limites, caminho.name):
                if numero <= forma.numero_cabecalho or not celulas:  # Arrow skips blank lines
                    continue
                if len(celulas) != colunas and nota(celulas) is None:
                    local = Local(numero, arquivo=caminho.name)
                    return largura_errada(local, len(celulas), colunas)
        except EntradaInvalida as erro:
            return erro
        except UnicodeDecodeError:
            pass
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

    limites = cfg.limites
    with _binario(caminho) as binario:
        forma = forma_do_csv(binario, cfg, caminho.name)
    avisos = list(forma.avisos)

    def notas(linha: Any) -> str:
        """A row Arrow finds of the wrong width: a note (left out, said), else the error."""
        celulas = next(csv.reader([linha.text], delimiter=forma.separador), [])
        if (texto := nota(celulas)) is None:
            return "error"
        avisos.append(aviso_de_nota(texto))
        return "skip"

    fonte: Any = pa.OSFile(str(caminho)) if isinstance(caminho, Path) else _binario(caminho)
    # a block holds whole rows: room for a few cells at the limit
    bloco = max(1 << 20, linhas_por_bloco * 128, 4 * limites.texto)
    # every column as text: the contract, not a type guesser, reads the cells
    try:
        fonte.seek(forma.inicio)  # the rows after the header: Arrow is given its names
        leitor = pacsv.open_csv(
            fonte,
            read_options=pacsv.ReadOptions(
                block_size=bloco, column_names=forma.nomes, encoding=forma.codec
            ),
            parse_options=pacsv.ParseOptions(
                delimiter=forma.separador, newlines_in_values=True, invalid_row_handler=notas
            ),
            convert_options=pacsv.ConvertOptions(
                column_types={nome: pa.string() for nome in forma.nomes},
                strings_can_be_null=False,
                quoted_strings_can_be_null=False,
            ),
        )
    except (pa.ArrowException, UnicodeDecodeError):  # the first block is read here
        _fechar(fonte)
        raise diagnosticar_csv(caminho, forma, limites) from None

    def blocos() -> Iterator[Bloco]:
        inicio = 0
        guardadas: pa.Table | None = None  # the last rows read, if they may be notes
        try:
            for lote in leitor:  # batches of block_size bytes, cut to the row limit
                lida = pa.Table.from_batches([lote])
                if not _texto_no_limite(lida, limites.texto):
                    raise diagnosticar_csv(caminho, forma, limites)
                if guardadas is not None:  # rows followed them: they are rows of the table
                    lida, guardadas = pa.concat_tables([guardadas, lida]), None
                fim = _fim_da_tabela(lida)
                if fim < lida.num_rows:
                    lida, guardadas = lida.slice(0, fim), lida.slice(fim)
                for tabela in _fatias(lida, linhas_por_bloco):
                    yield Bloco(inicio, tabela)
                    inicio += tabela.num_rows
        except (pa.ArrowException, UnicodeDecodeError):
            raise diagnosticar_csv(caminho, forma, limites) from None
        finally:
            _fechar(fonte)
        for linha in [] if guardadas is None else guardadas.to_pylist():
            if (texto := nota(list(linha.values()))) is not None:
                avisos.append(aviso_de_nota(texto))
        if inicio == 0:  # a header and no row: one empty block, so the output has its header
            yield Bloco(0, pa.table({n: pa.array([], pa.string()) for n in forma.nomes}))

    return Leitor(list(forma.nomes), blocos(), forma.decimal_virgula, avisos)


#: at most this many rows at the end of a file may be notes after the table (or blank)
_NOTAS_MAXIMAS = 64


def _fim_da_tabela(tabela: pa.Table) -> int:
    """Where the rows of a block end, the notes after the table (``Fonte: ...``, padded to
    the header's width) and blank rows at its end left out: only its last rows are looked at,
    and only when the very last is such a row."""
    n = int(tabela.num_rows)
    if not n or not _fora_da_tabela(tabela.slice(n - 1).to_pylist()[0]):
        return n
    fim = n
    for linha in reversed(tabela.slice(max(0, n - _NOTAS_MAXIMAS)).to_pylist()):
        if not _fora_da_tabela(linha):
            break
        fim -= 1
    return fim


def _fora_da_tabela(linha: dict[str, Any]) -> bool:
    valores = list(linha.values())
    return all(v == "" for v in valores) or nota(valores) is not None


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
    if isinstance(valor, datetime):
        # a spreadsheet's date cell is a date-time at midnight: the date it shows, for the
        # kernel (a time of day is the engine's to refuse)
        return valor.date().isoformat() if valor.time() == time() and not valor.tzinfo else "\x00"
    if isinstance(valor, date):
        return valor.isoformat()
    return "\x00"  # anything else: the engine decides (and names the field)


def textos_da_coluna(valores: list[Any], tipo: str, ptbr: bool) -> list[str | None]:
    """:func:`texto_da_celula` of a column's cells, the common columns (all integers, all
    texts…) at once."""
    tipos = set(map(type, valores))
    tipos.discard(type(None))
    if tipos == {int}:
        return [None if v is None else str(v) for v in valores]
    if tipos <= {int, float}:
        return [None if v is None else repr(v) for v in valores]
    if tipos == {str} and not (ptbr and tipo not in ("data", "inciso")):
        return [v if v else None for v in valores]
    return [texto_da_celula(v, tipo, ptbr) for v in valores]


def coluna_de_textos(valores: list[Any], tipo: str, ptbr: bool) -> pa.Array:
    """:func:`textos_da_coluna` as an Arrow array: a column of integers or of plain texts
    (the most common) is made in Arrow, with no Python text per cell."""
    import pyarrow.compute as pc

    tipos = set(map(type, valores))
    tipos.discard(type(None))
    if tipos == {int}:
        try:  # str(v) of each, in Arrow
            return pa.array(valores, pa.int64()).cast(pa.string())
        except (pa.ArrowInvalid, OverflowError):  # past int64: Python's
            pass
    elif tipos == {str} and not (ptbr and tipo not in ("data", "inciso")):
        textos = pa.array(valores, pa.string())
        return pc.if_else(pc.equal(textos, ""), pa.scalar(None, pa.string()), textos)
    elif tipos and tipos <= {int, float}:
        numeros = _numeros_em_arrow(valores)
        if numeros is not None:
            return numeros
    elif not tipos:
        return pa.nulls(len(valores), pa.string())
    return pa.array(textos_da_coluna(valores, tipo, ptbr), pa.string())


def _numeros_em_arrow(valores: list[Any]) -> pa.Array | None:
    """The texts of a column of integers and floats (``str`` and ``repr``), made in Arrow
    where Arrow's shortest text of the double is the same: an integer below 10**16, a
    fraction whose ``repr`` has no exponent (from 10**-4 to 10**16) written without one by
    Arrow too. Any other cell (an integral float, which ``repr`` writes ``2024.0``; an
    exponent) gets Python's own text. ``None``: an integer a double does not hold."""
    import numpy as np
    import pyarrow.compute as pc

    try:
        duplos = pa.array(valores, pa.float64())
    except (pa.ArrowInvalid, OverflowError):
        return None
    textos = duplos.cast(pa.string())
    x = duplos.to_numpy(zero_copy_only=False)  # a null is NaN (and is no cell's text)
    e_float = np.fromiter((type(v) is float for v in valores), bool, len(valores))
    modulo = np.abs(x)
    with np.errstate(invalid="ignore"):
        fracao = (modulo >= 1e-4) & (modulo < 1e16) & (x != np.floor(x))
        inteiro = modulo < 1e16
    certos = np.where(e_float, fracao, inteiro)
    certos &= ~np.asarray(pc.fill_null(pc.match_substring(textos, "e"), False))
    nulos = np.asarray(duplos.is_null())
    faltam = np.flatnonzero(~certos & ~nulos)
    if not len(faltam):
        return textos
    proprios: list[str | None] = [None] * len(valores)
    for i in faltam.tolist():
        proprios[i] = repr(valores[i])
    return pc.if_else(pa.array(certos), textos, pa.array(proprios, pa.string()))


def _bloco_de_linhas(
    inicio: int,
    linhas: list[dict[str, Any] | None],
    erros: list[str | None],
    cfg: Config,
    nomes: list[str] | None = None,
    celulas: dict[str, list[Any]] | None = None,
) -> Bloco:
    """The block of these rows. ``nomes``: the columns every row has (a spreadsheet's): each
    is taken out of the rows once (:attr:`Bloco.celulas`; or given, as ``celulas``), and a
    field none of them names is empty at once."""
    from multas.nucleo.regimes import REGIMES

    tipos = {c.nome: c.tipo for c in REGIMES[cfg.regime].caso.campos() if c.plano}
    if celulas is None and nomes is not None:
        celulas = {n: coluna_das_linhas(linhas, n) for n in nomes}

    def coluna(nome: str) -> list[Any]:
        if celulas is None:
            return coluna_das_linhas(linhas, nome)
        return celulas[nome] if nome in celulas else [None] * len(linhas)

    colunas = {
        nome: coluna_de_textos(coluna(nome), tipo, cfg.virgula) for nome, tipo in tipos.items()
    }
    tabela = (
        pa.table(colunas) if linhas else pa.table({n: pa.array([], pa.string()) for n in tipos})
    )
    return Bloco(inicio, tabela, linhas, erros, celulas)


def pelos_nomes_do_contrato(objeto: dict[str, Any], regime: str) -> dict[str, Any]:
    """A JSON line's case with each synonym of the regime read as its field (``ano`` as
    ``ano_meta``), as every reader of a case (:mod:`multas.nucleo.sinonimos`): both names
    with different values are the line's error."""
    from multas.nucleo.erros import levantar
    from multas.nucleo.regimes import REGIMES
    from multas.nucleo.sinonimos import ler_sinonimos, sinonimos_do_regime

    classe = REGIMES[regime].caso
    sinonimos = sinonimos_do_regime(classe)
    if not sinonimos or not any(nome in objeto for nome in sinonimos.values()):
        return objeto
    campos = {c.nome: c for c in classe.campos()}
    lido, _, erros = ler_sinonimos(objeto, sinonimos, campos)
    levantar(erros)
    return dict(lido)


def _erro_do_id(objeto: Mapping[str, Any]) -> list[EntradaInvalida]:
    """A JSON line's ``id`` refused as ``calcular`` refuses it (spec § 3 v4; JSON types it: a
    number is no text), as a list of its error (empty: none)."""
    from multas.nucleo.identidade import ler_identidade

    if objeto.get("id") is None:
        return []
    try:
        ler_identidade({"id": objeto["id"]})
    except EntradaInvalida as erro:
        return [erro]
    return []


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
                    do_id = _erro_do_id(objeto)
                    try:
                        objeto = pelos_nomes_do_contrato(objeto, cfg.regime)
                    except EntradaInvalida as erro:
                        raise ErrosDeEntrada([*do_id, *erro.todos()]) from None
                    linhas.append(objeto | {"\x00texto": texto})
                    # a refused id is the line's error, and the engine adds its others
                    erros.append(f"linha {numero}: {do_id[0]}" if do_id else None)
                except EntradaInvalida as erro:
                    linhas.append({"\x00texto": texto, "\x00linha": numero})
                    erros.append(f"linha {numero}: {em_uma_celula(erro)}")
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
        planilha = abrir_planilha(fonte, cfg.limites, caminho.name)
    except BaseException:
        _fechar(fonte)
        raise

    def fechar() -> None:
        planilha.fechar()
        _fechar(fonte)

    try:
        registros = chain([(planilha.numero_cabecalho, planilha.cabecalho)], planilha.linhas())
        vistos, achado = achar_cabecalho(
            registros, colunas_do_lote(cfg), "planilha vazia (falta o cabeçalho)"
        )
        cabecalho = [str(v).strip() if v is not None else "" for v in vistos[achado][1]]
        nomes, levadas = nomes_das_colunas(cabecalho, cfg, caminho.name)
        # the first rows say how the numbers are written, when no option does
        primeiras = [*vistos[achado + 1 :], *islice(registros, LINHAS_DA_AMOSTRA)]
    except BaseException:
        fechar()
        raise
    decimal = cfg.dialeto.decimal_virgula
    if decimal is None:
        celulas = (c for _, valores in primeiras for c in valores)
        decimal = True if cfg.ptbr else detectar_decimal(celulas, None)
    cfg = replace(cfg, decimal_virgula=decimal)
    avisos = [
        f"lido com {descrever(None, None, decimal)}",
        *avisos_dos_titulos(vistos, achado),
        *levadas,
    ]

    from multas.lote.io import LINHAS_DA_RAMPA

    def blocos() -> Iterator[Bloco]:
        inicio = 0
        linhas: list[dict[str, Any] | None] = []
        vazias: list[dict[str, Any] | None] = []  # blank rows are kept only if a row follows
        # a small first block that doubles: the rows are computed and written while the next
        # ones are read (the whole sheet is in memory already: only the rows' Python objects
        # are made block by block)
        alvo = min(LINHAS_DA_RAMPA, linhas_por_bloco)
        erros: list[str | None] = []
        if (
            isinstance(planilha, LeitorArrow)
            and vistos[achado][0] == 1
            and len(set(nomes)) == len(nomes) == len(planilha.colunas)
        ):  # read into columns: the same blocks, made from them
            try:
                yield from _blocos_em_colunas(planilha, nomes, cfg, avisos, alvo, linhas_por_bloco)
            finally:
                fechar()
            return
        try:
            for numero, valores in chain(primeiras, registros):
                linha = dict(zip(nomes, valores, strict=False))
                if not valores:  # a blank row
                    vazias.append(linha)
                    continue
                if len(valores) - valores.count(None) == 1 and (texto := nota(valores)):
                    avisos.append(aviso_de_nota(texto, numero))
                    continue
                linhas.extend(vazias)
                erros.extend([None] * len(vazias))
                vazias = []
                erro = None
                # a formula cell saved without its value: the row's error, naming the column
                if planilha.formulas_sem_valor and FORMULA_SEM_VALOR in valores:
                    erro = str(formula_sem_valor(valores, nomes))
                    linha = {k: None if v is FORMULA_SEM_VALOR else v for k, v in linha.items()}
                linhas.append(linha)
                erros.append(erro)
                if len(linhas) >= alvo:
                    yield _bloco_de_linhas(inicio, linhas, erros, cfg, nomes)
                    inicio += len(linhas)
                    linhas, erros = [], []
                    alvo = min(2 * alvo, linhas_por_bloco)
        finally:
            fechar()
        if linhas or inicio == 0:
            yield _bloco_de_linhas(inicio, linhas, erros, cfg, nomes)

    return Leitor(nomes, blocos(), decimal, avisos)


def _blocos_em_colunas(
    planilha: LeitorArrow,
    nomes: list[str],
    cfg: Config,
    avisos: list[str],
    alvo: int,
    linhas_por_bloco: int,
) -> Iterator[Bloco]:
    """:func:`_ler_xlsx`'s blocks of a sheet read into columns (its header in row 1, each
    name once): the same rows, blocks and notes as its loop over the rows, with the blank
    rows and the notes found at once (NumPy) and each block's cells taken from the columns."""
    import numpy as np

    colunas, cheias = planilha.colunas, planilha.cheias
    largura = len(colunas)
    contagem = cheias.sum(axis=1)
    # one past each row's last cell that is not empty: the row as the other reader ends it
    fins = np.where(contagem > 0, largura - np.argmax(cheias[:, ::-1], axis=1), 0)
    notas: list[int] = []
    for i in np.flatnonzero(contagem == 1).tolist():
        if texto := nota([coluna[i] for coluna in colunas]):
            avisos.append(aviso_de_nota(texto, i + 2))
            notas.append(i)
    normais = contagem > 0
    normais[notas] = False
    ultima = int(np.flatnonzero(normais)[-1]) if normais.any() else -1
    # the rows kept: every one up to the last row with cells (the blank ones among them), but
    # the notes; and where each block ends: at the first row with cells that fills it
    mantidas = np.flatnonzero(~np.isin(np.arange(ultima + 1), notas))
    posicoes = np.flatnonzero(normais[mantidas])
    prefixos = [nomes[:k] for k in range(largura + 1)]
    de, inicio = 0, 0
    while de < len(mantidas) or inicio == 0:
        j = int(np.searchsorted(posicoes, de + alvo - 1))
        ate = len(mantidas) if j == len(posicoes) else int(posicoes[j]) + 1
        indices = mantidas[de:ate]
        if len(indices) and int(indices[-1]) - int(indices[0]) == len(indices) - 1:
            primeira, fim = int(indices[0]), int(indices[-1]) + 1
            fatias = [coluna[primeira:fim] for coluna in colunas]
        else:
            lista = indices.tolist()
            fatias = [[coluna[i] for i in lista] for coluna in colunas]
        linhas: list[dict[str, Any] | None] = [
            dict(zip(prefixos[k], valores, strict=False))
            for k, valores in zip(fins[indices].tolist(), zip(*fatias, strict=True), strict=True)
        ]
        celulas = dict(zip(nomes, fatias, strict=True))
        yield _bloco_de_linhas(inicio, linhas, [None] * len(linhas), cfg, nomes, celulas)
        inicio += len(linhas)
        de = ate
        alvo = min(2 * alvo, linhas_por_bloco)
        if not len(indices):
            return
