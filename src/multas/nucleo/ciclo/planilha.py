"""Reading the ledger from a file: CSV (``,``; or ``;`` with pt-BR numbers), XLSX (the first
sheet), JSON (a list of objects) or JSON Lines, or rows pasted from a spreadsheet. Every cell
becomes the text (or JSON value) the contract parses: an XLSX number stored as a float is
written with ``repr`` (its shortest exact form, as ``multas lote`` does), never computed with.

The files are read by :mod:`multas.nucleo.arquivos`, the readers ``multas lote`` uses, within the
entry point's limits (:data:`multas.nucleo.arquivos.SERVIDOR` unless the caller passes others); each
row keeps where it was (:class:`multas.nucleo.arquivos.Local`), so its errors say ``linha 3, coluna
ano`` (the header is line 1), ``linha 2, campo ano`` (JSON Lines) or ``item 2, campo ano``.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from decimal import Decimal
from itertools import chain
from typing import TYPE_CHECKING, Any

from multas.nucleo.arquivos import (
    FORMULA_SEM_VALOR,
    NAO_UTF8,
    SERVIDOR,
    LeitorXlsx,
    Limites,
    Local,
    celula_longa,
    decodificar,
    formula_sem_valor,
    largura_errada,
    letra_da_coluna,
    linhas_csv,
    linhas_demais,
    linhas_json,
    sem_repetidas,
)
from multas.nucleo.cabecalhos import (
    CAMPOS_COTACOES,
    CHAVES_COTACOES,
    CHAVES_PADRAO,
    canonico,
    ler_cabecalho,
    nomeia_chave,
    normalizar,
    nota,
)
from multas.nucleo.contrato import JSON, Leitura
from multas.nucleo.dialeto import (
    PTBR,
    Dialeto,
    decodificar_texto,
    descrever,
    detectar_decimal,
    detectar_separador,
)
from multas.nucleo.erros import EntradaInvalida, mostrar_valor

if TYPE_CHECKING:
    from multas.nucleo.cotacoes import Serie

FORMATOS = (".csv", ".xlsx", ".json", ".jsonl")


@dataclass(frozen=True, slots=True)
class Planilha:
    """The rows read from a file (each a dict of its header's columns, or a JSON value),
    where each one was, and how their values are read."""

    linhas: list[Any]
    locais: list[Local]
    leitura: Leitura
    #: what the reader left out of the rows, said for the summary (pt-BR): the title rows
    #: above the header, the notes after the table, the columns without a header, and how
    #: the file was read (its encoding, separator and numbers)
    avisos: tuple[str, ...] = ()
    #: the headers that name no field the importer knows: their columns are carried through
    desconhecidas: tuple[str, ...] = ()


def colunas_da_carteira(mapa: Mapping[str, str] | None = None) -> Colunas:
    """The ledger's columns (:data:`multas.nucleo.ciclo.carteira_entrada.NOMES_CAMPOS`)."""
    from multas.nucleo.ciclo.carteira_entrada import NOMES_CAMPOS

    return Colunas(tuple(NOMES_CAMPOS), mapa=mapa or {})


@dataclass(frozen=True, slots=True)
class Colunas:
    """What the importer knows of a table's columns: its fields (``campos``: a header naming
    one, written any way, is read as it), the key columns whose first mention is the header row
    (``chaves``), and ``--coluna``'s own mapping (normalised header → field)."""

    campos: tuple[str, ...] = ()
    chaves: tuple[str, ...] = CHAVES_PADRAO
    mapa: Mapping[str, str] = field(default_factory=dict)


def _celula(valor: object) -> object:
    if isinstance(valor, bool):
        return valor
    if isinstance(valor, float):
        return repr(valor)
    if isinstance(valor, int | Decimal):
        return str(valor)
    if isinstance(valor, datetime):
        return valor.date().isoformat()
    if isinstance(valor, date):
        return valor.isoformat()
    return valor


def ler_planilha(
    conteudo: bytes,
    nome_arquivo: str,
    ptbr: bool = False,
    limites: Limites = SERVIDOR,
    *,
    dialeto: Dialeto | None = None,
    colunas: Colunas | None = None,
    formulas_por_linha: bool = False,
) -> Planilha:
    """The rows of the file (blank ones skipped); an error about the file itself names the
    field ``arquivo``, one about a cell its column. A table's header row, headers, encoding,
    separator and numbers are found as :mod:`multas.nucleo.cabecalhos` and
    :mod:`multas.nucleo.dialeto` say; ``ptbr`` (``;`` and ``1.234,56``) and then ``dialeto``
    override what is detected. An XLSX formula cell saved without its value is an error
    naming its line and column; with ``formulas_por_linha`` it is left in the row as
    :data:`~multas.nucleo.arquivos.FORMULA_SEM_VALOR`, for the caller to refuse that row
    alone (:func:`~multas.nucleo.arquivos.sem_formula_sem_valor`)."""
    extensao = nome_arquivo[nome_arquivo.rfind(".") :].lower() if "." in nome_arquivo else ""
    if extensao not in FORMATOS:
        raise EntradaInvalida(
            "arquivo",
            f"formato não aceito: {mostrar_valor(nome_arquivo)} (aceitos: {', '.join(FORMATOS)})",
        )
    escolhido = (dialeto or Dialeto()).sobre(PTBR if ptbr else Dialeto())
    colunas = colunas or Colunas()
    try:
        if extensao == ".xlsx":
            return _xlsx(conteudo, limites, escolhido, colunas, formulas_por_linha)
        if extensao == ".jsonl":
            return _jsonl(conteudo, limites)
        if extensao == ".csv":
            texto, codificacao = decodificar_texto(conteudo, escolhido.codificacao)
            return _csv(texto, limites, replace(escolhido, codificacao=codificacao), colunas)
        return _json(decodificar(conteudo), limites)
    except EntradaInvalida as erro:
        if erro.campo is None:
            raise EntradaInvalida("arquivo", erro.mensagem) from None
        raise


def ler_colado(texto: str, limites: Limites = SERVIDOR, colunas: Colunas | None = None) -> Planilha:
    r"""Rows pasted from a spreadsheet (tab-separated) or a CSV, the separator and the numbers
    detected as in a file.

    >>> colado = ler_colado("cnpj\tano\n1\t2025")
    >>> colado.linhas, str(colado.locais[0]), colado.leitura.decimal_virgula
    ([{'cnpj': '1', 'ano': '2025'}], 'linha 2', True)
    """
    texto = texto.removeprefix("\ufeff")
    try:
        return _csv(texto, limites, Dialeto(), colunas or Colunas())
    except EntradaInvalida as erro:
        if erro.campo is None:
            raise EntradaInvalida("conteudo", erro.mensagem) from None
        raise


#: at most this many rows above the header (titles) are looked through for it
TITULOS_MAXIMOS = 50


def _em_branco(valores: Sequence[Any]) -> bool:
    return all(v is None or (isinstance(v, str) and not v.strip()) for v in valores)


def _sem_nada(valores: Sequence[Any]) -> bool:
    """Whether cells are all blank, counted in C (a padded spreadsheet row may have thousands);
    a cell of spaces only is blank too (the slow path, for the few rows that have one)."""
    vazias = valores.count(None)
    if vazias == len(valores) or vazias + valores.count("") == len(valores):
        return True
    return _em_branco(valores)


def _mostrar_linha(valores: Sequence[Any]) -> str:
    texto = " | ".join(str(v).strip() for v in valores if not _em_branco([v]))
    return mostrar_valor(texto if len(texto) <= 120 else texto[:119] + "…")


def achar_cabecalho(
    registros: Iterator[tuple[int, Sequence[Any]]], colunas: Colunas, vazio: str
) -> tuple[list[tuple[int, Sequence[Any]]], int]:
    """The rows read up to the header row, and which of them it is: the first naming a key
    column (within :data:`TITULOS_MAXIMOS`), else the first that is not blank."""
    vistos: list[tuple[int, Sequence[Any]]] = []
    for numero, valores in registros:
        if _em_branco(valores):
            continue
        vistos.append((numero, valores))
        if nomeia_chave(valores, colunas.chaves, colunas.campos, colunas.mapa):
            return vistos, len(vistos) - 1
        if len(vistos) >= TITULOS_MAXIMOS:
            break
    if not vistos:
        raise EntradaInvalida(None, vazio)
    return vistos, 0


def avisos_dos_titulos(vistos: Sequence[tuple[int, Sequence[Any]]], achado: int) -> list[str]:
    """What the summary says of the header row ``vistos[achado]`` when it is not the first
    line, and of the title rows above it."""
    numero = vistos[achado][0]
    return [f"cabeçalho na linha {numero}"] * (numero != 1) + [
        f"linha {n}: título acima do cabeçalho, fora da tabela: {_mostrar_linha(valores)}"
        for n, valores in vistos[:achado]
    ]


def sem_desconhecidas(lida: Planilha) -> None:
    """The rows of ``lida`` without the columns that name none of the importer's fields (an
    importer that stores the rows reads past them: :func:`colunas_fora` says which)."""
    fora = set(lida.desconhecidas)
    for linha in lida.linhas if fora else ():
        for coluna in fora.intersection(linha):
            del linha[coluna]


def colunas_fora(desconhecidas: Sequence[str]) -> list[str]:
    """What the summary of an importer that stores the rows (the ledger, the processos) says
    of the columns that name none of its fields: read past, never an error."""
    if not desconhecidas:
        return []
    return [f"colunas fora da leitura (não são campos do arquivo): {', '.join(desconhecidas)}"]


def aviso_de_nota(texto: str, numero: int | None = None) -> str:
    """What the summary says of a note after the table (never a row, never counted)."""
    onde = f"linha {numero}: " if numero is not None else ""
    return f"{onde}nota depois da tabela, fora da contagem: {mostrar_valor(texto)}"


def _tabela(
    registros: Iterable[tuple[int, Sequence[Any]]],
    leitura: Leitura,
    vazio: str,
    largura: bool,
    colunas: Colunas,
    arquivo: str | None = None,
    sem_valor: bool = False,
    por_linha: bool = False,
) -> Planilha:
    """Rows of a table. The header is the first row naming a key column (within
    :data:`TITULOS_MAXIMOS` rows; else the first row that is not blank), the rows above it are
    titles; a note after the table (:func:`multas.nucleo.cabecalhos.nota`) is no row. Cells
    under a column without a header are left out; past the header's columns, a cell that is
    not blank is an error when ``largura`` (CSV: a misplaced delimiter) and left out otherwise
    (a note beside a spreadsheet's table). Everything left out is said in ``avisos``.
    ``sem_valor``: the rows may hold a formula cell saved without its value, the file's error
    unless ``por_linha`` (then the row's: see :func:`ler_planilha`)."""
    registros = iter(registros)
    vistos, achado = achar_cabecalho(registros, colunas, vazio)
    avisos = avisos_dos_titulos(vistos, achado)
    cabecalho = vistos[achado][1]
    nomes = [str(v).strip() if v is not None else "" for v in cabecalho]
    sem_repetidas([n for n in nomes if n])
    lido = ler_cabecalho(nomes, colunas.campos, colunas.mapa)
    chaves = lido.chaves
    sem_nome = [i for i, chave in enumerate(chaves) if not chave]
    preenchidas = dict.fromkeys(sem_nome, 0)
    fora = 0
    primeira_fora: int | None = None
    linhas: list[Any] = []
    locais: list[Local] = []
    for numero, valores in chain(vistos[achado + 1 :], registros):
        if _em_branco(valores):
            continue
        resto = valores[len(chaves) :]
        resto_em_branco = _sem_nada(resto)
        if resto_em_branco and (texto := nota(valores[: len(chaves)])) is not None:
            avisos.append(aviso_de_nota(texto, numero))
            continue
        local = Local(numero)
        if sem_valor and FORMULA_SEM_VALOR in valores:
            lidas = [v if i < len(chaves) and chaves[i] else None for i, v in enumerate(valores)]
            erro = formula_sem_valor(lidas, nomes)
            if erro is not None and not por_linha:
                raise local.localizar(erro)
        if not resto_em_branco:
            if largura:
                raise largura_errada(local, len(valores), len(nomes))
            fora += 1
            primeira_fora = primeira_fora or numero
        for i in sem_nome:
            if i < len(valores) and not _em_branco([valores[i]]):
                preenchidas[i] += 1
        linhas.append(
            {
                chave: _celula(valor)
                for chave, valor in zip(chaves, valores, strict=False)
                if chave and valor is not None
            }
        )
        locais.append(local)
    for i, n in preenchidas.items():
        celulas = (
            f"{n} {'célula preenchida' if n == 1 else 'células preenchidas'}" if n else "vazia"
        )
        avisos.append(f"coluna {letra_da_coluna(i)}: sem cabeçalho, fora da leitura ({celulas})")
    if fora:
        avisos.append(
            f"{fora} {'linha tem' if fora == 1 else 'linhas têm'} células à direita da última "
            f"coluna do cabeçalho, fora da leitura (a primeira: linha {primeira_fora})"
        )
    return Planilha(linhas, locais, leitura, tuple(avisos), tuple(lido.desconhecidas))


def _csv(texto: str, limites: Limites, dialeto: Dialeto, colunas: Colunas) -> Planilha:
    def chave(celulas: Sequence[str]) -> bool:
        return nomeia_chave(celulas, colunas.chaves, colunas.campos, colunas.mapa)

    separador = dialeto.separador or detectar_separador(texto, chave)
    registros = list(linhas_csv(io.StringIO(texto, newline=""), separador, limites))
    decimal = dialeto.decimal_virgula
    if decimal is None:
        decimal = detectar_decimal((c for _, celulas in registros[1:] for c in celulas), separador)
    leitura = Leitura(tabela=True, decimal_virgula=decimal)
    planilha = _tabela(
        registros, leitura, "arquivo CSV vazio (falta o cabeçalho)", largura=True, colunas=colunas
    )
    if dialeto.codificacao in (None, "utf-8") and separador == "," and not decimal:
        return planilha  # the plain CSV: nothing to say about how it was read
    como = f"lido como {descrever(dialeto.codificacao, separador, decimal)}"
    return replace(planilha, avisos=(como, *planilha.avisos))


def _xlsx(
    conteudo: bytes, limites: Limites, dialeto: Dialeto, colunas: Colunas, por_linha: bool
) -> Planilha:
    with LeitorXlsx(io.BytesIO(conteudo), limites) as leitor:
        registros = list(chain([(leitor.numero_cabecalho, leitor.cabecalho)], leitor.linhas()))
    decimal = dialeto.decimal_virgula
    if decimal is None:
        decimal = detectar_decimal((c for _, valores in registros for c in valores), None)
    leitura = Leitura(tabela=True, decimal_virgula=decimal)
    planilha = _tabela(
        registros,
        leitura,
        "planilha vazia (falta o cabeçalho)",
        largura=False,
        colunas=colunas,
        sem_valor=leitor.formulas_sem_valor,
        por_linha=por_linha,
    )
    como = f"lido com {descrever(None, None, decimal)}"
    return replace(planilha, avisos=(como, *planilha.avisos))


def _conferir_textos(valor: Any, local: Local, limites: Limites) -> None:
    """A JSON row's text values within the cell limit."""
    if isinstance(valor, dict):
        for chave, item in valor.items():
            if isinstance(item, str) and len(item) > limites.texto:
                raise celula_longa(limites, local, str(chave))


def _json(texto: str, limites: Limites) -> Planilha:
    from multas.nucleo.json_exato import ler_json

    dados = ler_json(texto)
    if not isinstance(dados, list):
        raise EntradaInvalida(None, "o JSON deve ser uma lista de anos da carteira")
    if limites.linhas is not None and len(dados) > limites.linhas:
        raise linhas_demais(limites)
    locais = [Local(i, "item", "campo") for i in range(1, len(dados) + 1)]
    for item, local in zip(dados, locais, strict=True):
        _conferir_textos(item, local, limites)
    return Planilha(dados, locais, JSON)


def _jsonl(conteudo: bytes, limites: Limites) -> Planilha:
    from multas.nucleo.json_exato import ler_json

    linhas: list[Any] = []
    locais: list[Local] = []
    for numero, bruta in linhas_json(io.BytesIO(conteudo), limites):
        local = Local(numero, chave="campo")
        try:
            texto = bruta.decode("utf-8")
        except UnicodeDecodeError:
            raise local.erro(NAO_UTF8) from None
        if not texto.strip():
            continue
        try:
            valor = ler_json(texto)
        except EntradaInvalida as erro:
            raise local.localizar(erro) from None
        _conferir_textos(valor, local, limites)
        linhas.append(valor)
        locais.append(local)
    return Planilha(linhas, locais, JSON)


def ler_cotacoes(
    conteudo: bytes,
    nome_arquivo: str,
    ptbr: bool = False,
    limites: Limites = SERVIDOR,
    *,
    coluna_preco: str = "preco",
    dialeto: Dialeto | None = None,
    mapa: Mapping[str, str] | None = None,
) -> tuple[Serie, Planilha]:
    """A file of CBIO quotes (``--cotacoes``, the page's upload) read by the one reader, its
    headers as B3's site exports them (``Data``, ``Preço médio``, ``Qtde negociada``): the
    series, and the file as read (for its ``avisos``). ``coluna_preco`` may be written as the
    file's header is (``preço médio``)."""
    from multas.nucleo.cotacoes import ler_serie
    from multas.nucleo.preco import fonte_do_arquivo

    colunas = Colunas(CAMPOS_COTACOES, CHAVES_COTACOES, mapa or {})
    lidas = ler_planilha(conteudo, nome_arquivo, ptbr, limites, dialeto=dialeto, colunas=colunas)
    preco = (mapa or {}).get(normalizar(coluna_preco)) or canonico(coluna_preco) or coluna_preco
    serie = ler_serie(
        lidas.linhas, lidas.locais, lidas.leitura, preco, fonte_do_arquivo(nome_arquivo)
    )
    return serie, lidas
