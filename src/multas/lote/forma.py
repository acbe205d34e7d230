"""How a batch's CSV is written, found from its first bytes by the mechanism every importer
uses (:mod:`multas.nucleo.dialeto`, :mod:`multas.nucleo.cabecalhos`,
:func:`multas.nucleo.ciclo.planilha.achar_cabecalho`): its encoding, separator and numbers,
its header row (the first naming a field of the regime or a CNPJ column; the rows above it are
titles), and each column's name (the field it names, else its own header). Arrow then streams
the rest of the file from the first byte after the header (:func:`multas.lote.leitura._ler_csv`),
configured with what was found here: the fast reader never reads the whole file in Python.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import IO

from multas.lote.processar import Config
from multas.nucleo.arquivos import BOM, Limites, linhas_csv, no_arquivo, sem_repetidas
from multas.nucleo.cabecalhos import CHAVES_PADRAO, ler_cabecalho, nomeia_chave
from multas.nucleo.ciclo.planilha import (
    Colunas,
    achar_cabecalho,
    avisos_dos_titulos,
)
from multas.nucleo.dialeto import decodificar_texto, descrever, detectar_decimal, detectar_separador
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.sinonimos import SINONIMOS

#: how much of the file is read to find how it is written (the header may follow title rows)
AMOSTRA = 1 << 20
#: rows after the header whose cells say how the numbers are written
LINHAS_DA_AMOSTRA = 1000


@dataclass(frozen=True)
class Forma:
    """A CSV as it is written."""

    #: the codec Arrow decodes with: ``utf8``, ``cp1252`` or ``latin-1``
    codec: str
    separador: str
    decimal_virgula: bool
    #: the byte where the rows after the header start
    inicio: int
    #: the line of the header row (1 when there are no titles)
    numero_cabecalho: int
    #: each column's name in the batch: the field it names, else its header as written, or
    #: ``coluna_N`` for a column without a header (carried through, as in an XLSX)
    nomes: list[str]
    #: what the summary says of the reading (pt-BR): how the file was read, the title rows,
    #: the columns carried through
    avisos: list[str] = field(default_factory=list)


#: headers the batch reads as a field of the regime where the regime has that field and not
#: one of the header's own name: ``ano``, the ledger's and the year's column, is ``ano_meta``
#: (normalised header → field). ``--coluna`` decides first.
SINONIMOS_DO_LOTE = SINONIMOS


def colunas_do_lote(cfg: Config, sinonimos: bool = True) -> Colunas:
    """What the batch knows of a table: the regime's fields, a CNPJ column or one of them
    starting the header row, and ``--coluna`` (with :data:`SINONIMOS_DO_LOTE`)."""
    mapa = dict(cfg.colunas)
    if sinonimos:
        for cabecalho, campo in SINONIMOS_DO_LOTE.items():
            if campo in cfg.campos and cabecalho not in cfg.campos and campo not in mapa.values():
                mapa.setdefault(cabecalho, campo)
    return Colunas(cfg.campos, (*CHAVES_PADRAO, *cfg.campos), mapa)


def nomes_das_colunas(
    cabecalho: list[str], cfg: Config, arquivo: str
) -> tuple[list[str], list[str]]:
    """Each column's name in the batch (see :attr:`Forma.nomes`), and what the summary says
    of the headers: those that name no field, carried through as they are."""
    sem_repetidas([n for n in cabecalho if n.strip()], arquivo)
    colunas = colunas_do_lote(cfg)
    try:
        lido = ler_cabecalho(cabecalho, colunas.campos, colunas.mapa, arquivo)
    except EntradaInvalida:
        # a synonym's field may be a column of its own too (ano and ano_meta): the synonym
        # yields (a real repetition is refused by the reading without it)
        colunas = colunas_do_lote(cfg, sinonimos=False)
        lido = ler_cabecalho(cabecalho, colunas.campos, colunas.mapa, arquivo)
    campos = set(colunas.campos)
    nomes: list[str] = []
    levadas: list[str] = []
    for i, (texto, chave) in enumerate(zip(cabecalho, lido.chaves, strict=True)):
        if not chave:
            nomes.append(f"coluna_{i + 1}")
        elif chave in campos:
            nomes.append(chave)
        else:  # not the regime's: its own header, whatever field a synonym would make it
            nomes.append(texto)
            levadas.append(texto)
    sem_repetidas(nomes, arquivo)
    avisos = []
    if levadas:
        avisos.append(
            "colunas levadas à saída como estão (não são campos do regime): " + ", ".join(levadas)
        )
    return nomes, avisos


def forma_do_csv(binario: IO[bytes], cfg: Config, arquivo: str) -> Forma:
    """How the CSV ``binario`` (at its start) is written, from its first :data:`AMOSTRA`
    bytes; ``cfg.dialeto`` and ``--ptbr`` decide first (as in every importer)."""
    limites: Limites = cfg.limites
    tamanho = max(AMOSTRA, 4 * limites.texto)
    amostra = binario.read(tamanho + 1)
    completa = len(amostra) <= tamanho
    bom = len(BOM) if amostra.startswith(BOM) else 0
    corpo = amostra[bom:tamanho]
    if not completa and b"\n" in corpo:  # whole lines only (and whole characters)
        corpo = corpo[: corpo.rindex(b"\n") + 1]
    dialeto = cfg.dialeto
    escolhida = dialeto.codificacao
    texto, codificacao = decodificar_texto(corpo, escolhida, arquivo)
    codec = "utf8"
    if codificacao != "utf-8":
        try:
            corpo.decode("cp1252")
            codec = "cp1252"
        except UnicodeDecodeError:  # a byte CP1252 leaves undefined: Latin-1 reads them all
            codec = "latin-1"
    colunas = colunas_do_lote(cfg)

    def chave(celulas: Sequence[str]) -> bool:
        return nomeia_chave(celulas, colunas.chaves, colunas.campos, colunas.mapa)

    separador = dialeto.separador or (";" if cfg.ptbr else detectar_separador(texto, chave))
    registros = linhas_csv(io.StringIO(texto, newline=""), separador, limites, arquivo)
    try:
        vistos, achado = achar_cabecalho(
            ((n, c) for n, c in registros), colunas, "arquivo CSV vazio (falta o cabeçalho)"
        )
    except EntradaInvalida as erro:
        if erro.campo is None:
            raise no_arquivo(arquivo, erro.mensagem) from None
        raise
    cabecalho = vistos[achado][1]
    restantes = list(vistos[achado + 1 :])  # rows read past the header (no key was found)
    try:
        for registro in registros:
            restantes.append(registro)
            if len(restantes) >= LINHAS_DA_AMOSTRA:
                break
    except EntradaInvalida:
        if completa:  # the whole file: Arrow would refuse it too, said by the diagnosis
            raise
        # the sample cut a quoted cell: what was read before it is the sample
    decimal = dialeto.decimal_virgula
    if decimal is None:
        celulas = (c for _, registro in restantes for c in registro)
        decimal = True if cfg.ptbr else detectar_decimal(celulas, separador)
    if restantes:  # the first line after the header (blank ones are Arrow's to skip)
        linhas = io.StringIO(texto, newline="").readlines()
        inicio = bom + len("".join(linhas[: restantes[0][0] - 1]).encode(codec))
    else:  # nothing but the header (and blank lines) in the sample
        inicio = bom + len(corpo)
    # the header cells as written: a column carried through keeps its own header, whitespace
    # and all (the writer neutralises a formula-looking one)
    nomes, colunas_levadas = nomes_das_colunas([str(c) for c in cabecalho], cfg, arquivo)
    como = f"lido como {descrever(codificacao, separador, decimal)}"
    avisos = [como, *avisos_dos_titulos(vistos, achado), *colunas_levadas]
    return Forma(codec, separador, decimal, inicio, vistos[achado][0], nomes, avisos)
