"""The headers of an imported table, as the ANP and B3 publish their files: one mechanism for
every importer (``multas ano``, ``multas carteira``, ``multas processo``, ``multas lote``, the
quotes of ``--cotacoes`` and the page's uploads).

- **Normalised**: a header is compared casefolded, without accents (Unicode NFKD), with any run
  of spaces, underscores and punctuation made one ``_``, and a trailing unit in parentheses
  (``(R$)``, ``(CBIO)``) left out: ``Razão  Social`` is ``razao_social``, ``Preço médio (R$)`` is
  ``preco_medio``.
- **Synonyms** (:data:`SINONIMOS`, data, each documented): the headers the ANP and B3 use for a
  field the engine knows (``razão social`` is ``nome``, ``qtde negociada`` is ``quantidade``).
- **``--coluna CAMPO=CABEÇALHO``** (:func:`ler_colunas`): maps any other header to a field.
- **The header row** (:func:`linha_do_cabecalho`): the first row naming one of the importer's
  key columns (a CNPJ column, by default); the rows above it are titles.
- **Notes** after the table (:func:`nota`): a row whose only cell starts ``Fonte:``, ``Nota:``,
  ``Obs.:`` or ``*`` is a note, not a row.

A header that names no field the importer knows keeps its own text: its column is carried
through to the output (never an error).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from multas.nucleo.erros import EntradaInvalida, mostrar_valor

_SEPARADORES = re.compile(r"[^0-9a-z]+")
_UNIDADE = re.compile(r"\s*\([^()]*\)\s*$")


def normalizar(cabecalho: str) -> str:
    """A header as it is compared: casefolded, without accents, runs of anything but letters
    and digits made one ``_``, a trailing unit in parentheses left out.

    >>> [normalizar(c) for c in ("Razão  Social", "qtde. negociada", "Preço médio (R$)", "CNPJ")]
    ['razao_social', 'qtde_negociada', 'preco_medio', 'cnpj']
    >>> normalizar("Nº de negócios"), normalizar("(R$)"), normalizar("  ")
    ('no_de_negocios', 'r', '')
    """
    texto = str(cabecalho)
    sem_unidade = _UNIDADE.sub("", texto)
    if sem_unidade.strip():
        texto = sem_unidade
    decomposto = unicodedata.normalize("NFKD", texto.casefold())
    sem_acentos = "".join(c for c in decomposto if not unicodedata.combining(c))
    return _SEPARADORES.sub("_", sem_acentos).strip("_")


@dataclass(frozen=True, slots=True)
class Sinonimo:
    """The headers that name ``campo`` in the files of ``quem`` (compared normalised)."""

    campo: str
    cabecalhos: tuple[str, ...]
    quem: str


#: the synonyms of the fields the importers know, each with who writes it so. Documented in
#: docs/arquivos.md (the table there is checked against this one by a test).
SINONIMOS: tuple[Sinonimo, ...] = (
    Sinonimo("cnpj", ("CNPJ do distribuidor", "CNPJ da distribuidora"), "ANP (despachos de metas)"),
    Sinonimo(
        "nome",
        ("Razão social", "Distribuidor", "Distribuidora", "Nome empresarial"),
        "ANP (despachos de metas)",
    ),
    Sinonimo("data", ("Data do pregão", "Data pregão"), "B3 (exportação do site)"),
    Sinonimo(
        "quantidade",
        ("Qtde negociada", "Qtd negociada", "Quantidade negociada"),
        "B3 (exportação do site)",
    ),
    Sinonimo("valor_financeiro", ("Valor financeiro", "Volume financeiro"), "B3"),
    Sinonimo("preco_medio", ("Preço médio",), "B3"),
    Sinonimo("preco_minimo", ("Preço mínimo",), "B3"),
    Sinonimo("preco_maximo", ("Preço máximo",), "B3"),
    Sinonimo(
        "negocios",
        ("Negócios", "Número de negócios", "Nº de negócios", "Qtde de negócios"),
        "B3",
    ),
    Sinonimo("preco", ("Preço", "Cotação"), "cotações diárias"),
    Sinonimo("referencia_b3", ("Referência B3",), "B3 (aposentadorias)"),
)

#: normalised header → field
_INDICE: dict[str, str] = {
    normalizar(cabecalho): s.campo for s in SINONIMOS for cabecalho in (s.campo, *s.cabecalhos)
}

#: the key columns of a table of distributors: its header is the first row naming one
CHAVES_PADRAO = ("cnpj",)
#: the columns of a file of CBIO quotes (daily: B3's export; or monthly means), and its keys
CAMPOS_COTACOES = (
    "data",
    "preco",
    "preco_medio",
    "quantidade",
    "valor_financeiro",
    "negocios",
    "preco_minimo",
    "preco_maximo",
    "mes",
    "media",
)
CHAVES_COTACOES = ("data", "mes")

#: the words a note after a table starts with (normalised)
_NOTAS = ("fonte", "fontes", "nota", "notas", "obs", "observacao", "observacoes", "elaboracao")


def canonico(cabecalho: str, campos: Collection[str] = ()) -> str | None:
    """The field a header names: a synonym's (:data:`SINONIMOS`), or one of ``campos`` written
    another way; ``None`` when it names none.

    >>> canonico("Qtde negociada"), canonico("Meta CBIOs", ("meta_cbios",)), canonico("UF")
    ('quantidade', 'meta_cbios', None)
    """
    chave = normalizar(cabecalho)
    if chave in _INDICE:
        return _INDICE[chave]
    return chave if chave in campos else None


def ler_colunas(pares: Iterable[str], opcao: str = "--coluna") -> dict[str, str]:
    """``CAMPO=CABEÇALHO`` pairs (``--coluna``, repeatable) as normalised header → field. A pair
    without ``=``, with a blank side or with a header given twice is an error naming the
    option.

    >>> ler_colunas(["meta_cbios=Meta individual 2022 (CBIOs)"])
    {'meta_individual_2022': 'meta_cbios'}
    """
    colunas: dict[str, str] = {}
    for par in pares:
        campo, igual, cabecalho = par.partition("=")
        campo, cabecalho = campo.strip(), cabecalho.strip()
        if not igual or not campo or not normalizar(cabecalho):
            raise EntradaInvalida(
                opcao,
                f"use CAMPO=CABEÇALHO (ex.: meta_cbios=Meta 2022), não {mostrar_valor(par[:80])}",
            )
        chave = normalizar(cabecalho)
        if chave in colunas:
            raise EntradaInvalida(opcao, f"cabeçalho dado duas vezes: {mostrar_valor(cabecalho)}")
        colunas[chave] = campo
    return colunas


@dataclass(frozen=True, slots=True)
class Cabecalho:
    """A table's header read: each column's key (a field, or the header's own text for a column
    no field names; ``""`` for a column without a header), and what was not a field."""

    chaves: list[str]
    #: the headers that name no field the importer knows: carried through as they are
    desconhecidas: list[str]


def ler_cabecalho(
    nomes: Sequence[str],
    campos: Collection[str] = (),
    colunas: Mapping[str, str] | None = None,
    arquivo: str | None = None,
) -> Cabecalho:
    """The keys of a header row: ``colunas`` (``--coluna``) first, then the synonyms and
    ``campos``; any other header keeps its text. Two headers naming one field is an error, as
    is a ``--coluna`` header the file lacks or a ``--coluna`` field the importer does not know
    (when it says which it knows)."""
    colunas = colunas or {}
    chaves: list[str] = []
    desconhecidas: list[str] = []
    origem: dict[str, str] = {}
    for nome in nomes:
        texto = str(nome).strip()
        if not texto:
            chaves.append("")
            continue
        chave = normalizar(texto)
        campo = colunas.get(chave) or canonico(texto, campos)
        if campo is None:
            campo = texto
            if campos:  # only an importer that says its fields knows what is unknown
                desconhecidas.append(texto)
        if campo in origem:
            raise EntradaInvalida(
                "arquivo",
                _no(arquivo)
                + f"as colunas {mostrar_valor(origem[campo])} e {mostrar_valor(texto)} são a mesma "
                f"({campo}): renomeie ou apague uma delas",
            )
        origem[campo] = texto
        chaves.append(campo)
    vistas = {normalizar(str(n)) for n in nomes}
    for chave, campo in colunas.items():
        if campos and campo not in campos:
            raise EntradaInvalida(
                "--coluna",
                f"campo desconhecido: {mostrar_valor(campo)} (campos: {', '.join(campos)})",
            )
        if chave not in vistas:
            raise EntradaInvalida(
                "--coluna",
                _no(arquivo)
                + f"não há coluna {mostrar_valor(chave)} para {campo} (colunas: "
                + ", ".join(str(n).strip() for n in nomes if str(n).strip())
                + ")",
            )
    return Cabecalho(chaves, desconhecidas)


def _no(arquivo: str | None) -> str:
    return f"{arquivo}: " if arquivo else ""


def nomeia_chave(
    valores: Sequence[object],
    chaves: Collection[str],
    campos: Collection[str] = (),
    colunas: Mapping[str, str] | None = None,
) -> bool:
    """Whether a row names one of the key columns ``chaves`` (through ``colunas`` too): the
    header row, when the rows above it are titles."""
    colunas = colunas or {}
    for valor in valores:
        if not isinstance(valor, str) or not valor.strip() or len(valor) > 200:
            continue
        campo = colunas.get(normalizar(valor)) or canonico(valor, campos)
        if campo in chaves:
            return True
    return False


def nota(valores: Sequence[object]) -> str | None:
    """The text of a note after a table (a row whose only filled cell is a text starting
    ``Fonte``, ``Nota``, ``Obs.``, ``Elaboração`` or ``*``), else ``None``.

    >>> nota([None, "Fonte: ANP/SBQ", ""]), nota(["12", "Fonte"])
    ('Fonte: ANP/SBQ', None)
    """
    cheias = [v for v in valores if v is not None and not (isinstance(v, str) and not v.strip())]
    if len(cheias) != 1 or not isinstance(cheias[0], str):
        return None
    texto = cheias[0].strip()
    primeira = normalizar(texto).split("_", 1)[0]
    return texto if texto.startswith("*") or primeira in _NOTAS else None
