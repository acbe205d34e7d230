"""The monthly Selic (BCB series 4390, % a.m.) as dated, sourced data (spec § 3.5 v4): the
months shipped in ``series/selic-mensal-4390.csv`` (their source in ``series/LEIAME.md``),
and the months a user adds from the Banco Central's own CSV of the series
(:func:`ler_csv_do_bcb`), each month with the source it came from. A month outside the series
is never a zero: the rule that needs it names it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import cache
from pathlib import Path

from multas.nucleo.datas import formatar_mes
from multas.nucleo.erros import EntradaInvalida

#: where the shipped series comes from, as the memória names it (series/LEIAME.md says more)
FONTE_ENVIADA = (
    'Receita Federal, tabela "Selic (RFB)" até 04/2025 (série 4390 do Banco Central, '
    "acumulada no mês), reproduzida em marcca.com.br; legislacao/series/LEIAME.md"
)
#: how a month is written in the data and in ``taxas_selic``
_MES = re.compile(r"^(\d{4})-(\d{2})$", re.ASCII)
#: the Banco Central's CSV of a series: "data";"valor", dd/mm/aaaa, a decimal comma
_LINHA_BCB = re.compile(r'^"?(\d{2})/(\d{2})/(\d{4})"?;"?(-?[\d.]*,?\d*)"?$', re.ASCII)
#: the most months a Banco Central file may bring at once (a century: a file is small)
MAXIMO_MESES = 1200


def indice(mes: str) -> int:
    """A month ``AAAA-MM`` as a count of months (so months add and compare as integers).

    >>> indice("2009-01") - indice("2008-12")
    1
    """
    return int(mes[:4]) * 12 + int(mes[5:]) - 1


def texto_do_mes(numero: int) -> str:
    """:func:`indice`'s inverse.

    >>> texto_do_mes(indice("2024-12") + 1)
    '2025-01'
    """
    return f"{numero // 12:04d}-{numero % 12 + 1:02d}"


def mes_br(mes: str) -> str:
    """``2025-04`` as a person reads it, ``04/2025`` (:func:`~multas.nucleo.datas.formatar_mes`)."""
    return formatar_mes(mes)


@dataclass(frozen=True, slots=True)
class TaxaSelic:
    """One month's Selic, in percent (``1.05`` is 1,05 %), and where it came from."""

    taxa: Decimal
    fonte: str


@dataclass(frozen=True)
class SerieSelic:
    """Contiguous months, each with its rate and source."""

    meses: Mapping[str, TaxaSelic]

    @property
    def primeiro(self) -> str:
        return min(self.meses)

    @property
    def ultimo(self) -> str:
        return max(self.meses)

    def get(self, mes: str) -> TaxaSelic | None:
        return self.meses.get(mes)

    def com(self, novos: Mapping[str, Decimal], fonte: str) -> SerieSelic:
        """The series with ``novos`` months after its last (validated: each ``AAAA-MM``, ≥ 0,
        contiguous with the series and each other). A month already in the series must keep
        its rate: a shipped or stored month is never changed, only repeated."""
        meses = dict(self.meses)
        for mes in sorted(novos):
            taxa = novos[mes]
            _conferir_taxa(mes, taxa)
            atual = meses.get(mes)
            if atual is not None:
                if atual.taxa != taxa:
                    raise EntradaInvalida(
                        mes,
                        f"a taxa de {mes_br(mes)} já é {taxa_br(atual.taxa)} ({atual.fonte}); "
                        f"o arquivo traz {taxa_br(taxa)}: um mês guardado não muda",
                    )
                continue
            esperado = texto_do_mes(indice(max(meses)) + 1)
            if mes != esperado:
                raise EntradaInvalida(
                    mes,
                    f"meses não contíguos: depois de {mes_br(max(meses))} vem {mes_br(esperado)}, "
                    f"não {mes_br(mes)}",
                )
            meses[mes] = TaxaSelic(taxa, fonte)
        return SerieSelic(meses)


def taxas_do_caso(serie: SerieSelic, dadas: Mapping[str, Decimal] | None) -> dict[str, Decimal]:
    """Each month's rate a case computes with: the series', each month ``taxas_selic`` gives
    taking its place (spec § 3.5 v4: the override)."""
    return {mes: t.taxa for mes, t in serie.meses.items()} | dict(dadas or {})


def taxa_br(taxa: Decimal) -> str:
    """A month's rate as a person reads it, as published: ``0.80`` → ``0,80%``."""
    return f"{taxa:f}".replace(".", ",") + "%"


def _conferir_taxa(mes: str, taxa: Decimal) -> None:
    achado = _MES.match(mes)
    if achado is None or not 1 <= int(achado[2]) <= 12:
        raise EntradaInvalida(mes, "mês inválido: use AAAA-MM")
    if not taxa.is_finite() or taxa < 0 or taxa >= 100:
        raise EntradaInvalida(mes, f"taxa inválida: {taxa} (de 0 a 100, em % ao mês)")


def ler_csv_enviado(texto: str, fonte: str = FONTE_ENVIADA) -> SerieSelic:
    """The shipped file: ``mes,taxa_percentual_ao_mes``, one month a line, contiguous."""
    linhas = texto.strip().splitlines()
    if not linhas or linhas[0].strip() != "mes,taxa_percentual_ao_mes":
        raise ValueError("selic-mensal-4390.csv: cabeçalho inesperado")
    meses: dict[str, TaxaSelic] = {}
    for linha in linhas[1:]:
        mes, taxa = linha.strip().split(",")
        _conferir_taxa(mes, Decimal(taxa))
        if meses and indice(mes) != indice(max(meses)) + 1:
            raise ValueError(f"selic-mensal-4390.csv: lacuna antes de {mes}")
        meses[mes] = TaxaSelic(Decimal(taxa), fonte)
    return SerieSelic(meses)


@cache
def serie_enviada() -> SerieSelic:
    """The series shipped with the project (read once per process)."""
    pasta = Path(__file__).parent / "series"
    if not pasta.is_dir():  # installed inside a zip
        from importlib import resources

        arquivo = resources.files("multas.nucleo.legislacao") / "series" / "selic-mensal-4390.csv"
        return ler_csv_enviado(arquivo.read_text(encoding="utf-8"))
    return ler_csv_enviado((pasta / "selic-mensal-4390.csv").read_text(encoding="utf-8"))


def ler_csv_do_bcb(texto: str, campo: str = "arquivo") -> dict[str, Decimal]:
    """The Banco Central's CSV of series 4390 as it publishes it: a ``data;valor`` header,
    then ``dd/mm/aaaa;taxa`` (the first day of each month, a decimal comma), quotes optional.

    >>> ler_csv_do_bcb('"data";"valor"\\n"01/05/2025";"1,14"\\n')
    {'2025-05': Decimal('1.14')}
    """
    linhas = [linha.strip() for linha in texto.lstrip("\ufeff").splitlines() if linha.strip()]
    if not linhas or linhas[0].replace('"', "").lower() != "data;valor":
        raise EntradaInvalida(campo, 'o arquivo do Banco Central começa por "data";"valor"')
    if len(linhas) - 1 > MAXIMO_MESES:
        raise EntradaInvalida(campo, f"meses demais no arquivo (máximo {MAXIMO_MESES})")
    taxas: dict[str, Decimal] = {}
    for numero, linha in enumerate(linhas[1:], 2):
        achado = _LINHA_BCB.match(linha)
        if achado is None:
            raise EntradaInvalida(
                campo, f"linha {numero}: esperado dd/mm/aaaa;taxa ({linha[:40]!r})"
            )
        dia, mes, ano, valor = achado.groups()
        if dia != "01" or not 1 <= int(mes) <= 12:
            raise EntradaInvalida(
                campo, f"linha {numero}: a data de um mês é o dia 01 ({dia}/{mes}/{ano})"
            )
        chave = f"{ano}-{mes}"
        if chave in taxas:
            raise EntradaInvalida(campo, f"linha {numero}: mês repetido: {mes_br(chave)}")
        try:
            taxa = Decimal(valor.replace(".", "").replace(",", "."))
        except InvalidOperation:
            raise EntradaInvalida(campo, f"linha {numero}: taxa inválida: {valor!r}") from None
        try:
            _conferir_taxa(chave, taxa)
        except EntradaInvalida as erro:
            raise EntradaInvalida(campo, f"linha {numero}: {erro.mensagem}") from None
        taxas[chave] = taxa
    if not taxas:
        raise EntradaInvalida(campo, "o arquivo não traz nenhum mês")
    return taxas
