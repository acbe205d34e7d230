"""A series of CBIO quotes read from a file, and a target year's price from it.

The price is the highest monthly mean of the year's quotes (spec § 3.1 step 2), computed by
the rule of :mod:`multas.nucleo.regimes.renovabio` (:func:`~multas.nucleo.regimes.renovabio.medias_mensais`,
:func:`~multas.nucleo.regimes.renovabio.mes_da_maior_media`), exactly: a mean of daily quotes is a
fraction that often does not terminate as a decimal. It is shown whole, as the decimal when it
terminates, else as the fraction ``p/q``, beside an approximation to ten places.

Two shapes of file (CSV, XLSX, JSON or JSON Lines, read by :mod:`multas.nucleo.ciclo.planilha`):
daily quotes, columns ``data`` and ``preco`` (another column may be named as the price: B3's
daily summary has ``preco_medio``; which daily figure the ANP averages is not stated in the
shipped texts), or monthly means, columns ``mes`` (``AAAA-MM``) and ``media``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from fractions import Fraction
from typing import Any

from multas.nucleo.arquivos import Local
from multas.nucleo.contrato import Campo, Leitura, ler_valor
from multas.nucleo.dinheiro import exibir
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.regimes.renovabio import medias_informadas, medias_mensais, mes_da_maior_media

#: the places of :attr:`PrecoDoAno.aproximado`
CASAS_APROXIMADO = 10
_MES = re.compile(r"\d{4}-(0[1-9]|1[0-2])")


@dataclass(frozen=True, slots=True)
class Serie:
    """Daily quotes (date, price) or monthly means (``AAAA-MM`` → mean): one of the two."""

    diarias: tuple[tuple[date, Decimal], ...] = ()
    mensais: Mapping[str, Decimal] = field(default_factory=dict)

    def do_ano(self, ano: int) -> dict[str, Any]:
        """The quotes of ``ano`` as the contract's parsed field (``cotacoes_diarias``: (date,
        price) pairs; ``cotacoes_mensais``: month → mean), as a ledger year keeps them."""
        if self.mensais:
            return {
                "cotacoes_mensais": {m: v for m, v in self.mensais.items() if m[:4] == str(ano)}
            }
        return {"cotacoes_diarias": tuple(d for d in self.diarias if d[0].year == ano)}

    def campos_do_caso(self, ano: int) -> dict[str, Any]:
        """The quotes of ``ano`` as a case's contract field (``cotacoes_diarias`` or
        ``cotacoes_mensais``): the engine then computes the price itself, exactly, and its
        memória shows each month's mean."""
        if self.mensais:
            return {
                "cotacoes_mensais": {
                    mes: f"{media:f}" for mes, media in self.mensais.items() if mes[:4] == str(ano)
                }
            }
        return {
            "cotacoes_diarias": [
                {"data": dia.isoformat(), "preco": f"{preco:f}"}
                for dia, preco in self.diarias
                if dia.year == ano
            ]
        }


@dataclass(frozen=True, slots=True)
class PrecoDoAno:
    """A target year's price: the highest monthly mean and its month."""

    ano: int
    mes: str
    valor: Fraction
    #: how many daily quotes the month's mean averages (``None`` for a mean given as such)
    cotacoes: int | None

    @property
    def exato(self) -> str:
        """The price whole: ``111.5`` when the decimal terminates, else ``p/q``.

        >>> PrecoDoAno(2024, "2024-01", Fraction(223, 2), 2).exato
        '111.5'
        >>> PrecoDoAno(2024, "2024-01", Fraction(334, 3), 3).exato
        '334/3'
        """
        texto = exibir(self.valor)
        return f"{self.valor.numerator}/{self.valor.denominator}" if "…" in texto else texto

    @property
    def aproximado(self) -> str:
        """The price to :data:`CASAS_APROXIMADO` places, truncated, for reading only (the
        fines use :attr:`valor`).

        >>> PrecoDoAno(2024, "2024-01", Fraction(334, 3), 3).aproximado
        '111.3333333333'
        """
        inteiro = int(self.valor * 10**CASAS_APROXIMADO)
        texto = str(inteiro).rjust(CASAS_APROXIMADO + 1, "0")
        return f"{texto[:-CASAS_APROXIMADO]}.{texto[-CASAS_APROXIMADO:]}"

    def como_dict(self) -> dict[str, Any]:
        return {
            "ano": self.ano,
            "mes": self.mes,
            "preco": self.exato,
            "preco_aproximado": self.aproximado,
            "cotacoes_no_mes": self.cotacoes,
        }


def preco_do_ano(serie: Serie, ano: int) -> PrecoDoAno:
    """The highest monthly mean of the quotes of ``ano``; an error naming ``cotacoes`` when
    the series has none in that year."""
    if serie.mensais:
        medias, _ = medias_informadas(serie.mensais, ano)
        if medias:
            mes = mes_da_maior_media(medias)
            return PrecoDoAno(ano, mes, medias[mes], None)
    else:
        por_mes, _ = medias_mensais(serie.diarias, ano)
        if por_mes:
            mes = mes_da_maior_media({m: media for m, (media, _) in por_mes.items()})
            return PrecoDoAno(ano, mes, *por_mes[mes])
    raise EntradaInvalida("cotacoes", f"nenhuma cotação no exercício de {ano}")


_PRECO = Campo("preco", "preco", "Cotação do CBIO", True, 0)
_DATA = Campo("data", "data", "Dia da cotação", True, 0)


def ler_serie(
    linhas: Sequence[Any],
    locais: Sequence[Local],
    leitura: Leitura,
    coluna_preco: str = "preco",
) -> Serie:
    """The series in the rows of a file (:func:`multas.nucleo.ciclo.planilha.ler_planilha`): daily
    (``data`` and ``coluna_preco``) or monthly (``mes`` and ``media``), decided by the first
    row. A bad cell is an error with its line and column; a date or month given twice too."""
    if not linhas:
        raise EntradaInvalida("cotacoes", "o arquivo de cotações não tem nenhuma linha")
    primeira = linhas[0] if isinstance(linhas[0], Mapping) else {}
    mensal = "mes" in primeira and "data" not in primeira
    diarias: dict[date, Decimal] = {}
    mensais: dict[str, Decimal] = {}
    for linha, local in zip(linhas, locais, strict=True):
        try:
            if not isinstance(linha, Mapping):
                raise EntradaInvalida(None, "cada linha deve ser um objeto")
            if mensal:
                mes, media = _mes(linha.get("mes")), _valor(linha, "media", leitura)
                if mes in mensais:
                    raise EntradaInvalida("mes", f"mês repetido: {mes}")
                mensais[mes] = media
            else:
                dia = ler_valor(_obrigatorio(linha, "data"), _DATA, leitura)
                preco = _valor(linha, coluna_preco, leitura)
                if dia in diarias:
                    raise EntradaInvalida("data", f"dia repetido: {dia.isoformat()}")
                diarias[dia] = preco
        except EntradaInvalida as erro:
            raise local.localizar(erro) from None
    return Serie(tuple(sorted(diarias.items())), dict(sorted(mensais.items())))


def _obrigatorio(linha: Mapping[str, Any], coluna: str) -> Any:
    bruto = linha.get(coluna)
    if bruto is None or (isinstance(bruto, str) and not bruto.strip()):
        raise EntradaInvalida(coluna, "campo obrigatório")
    return bruto


def _valor(linha: Mapping[str, Any], coluna: str, leitura: Leitura) -> Decimal:
    try:
        preco: Decimal = ler_valor(_obrigatorio(linha, coluna), _PRECO, leitura)
    except EntradaInvalida as erro:
        raise EntradaInvalida(coluna, erro.mensagem) from None
    return preco


def _mes(bruto: object) -> str:
    if not isinstance(bruto, str) or not _MES.fullmatch(bruto.strip()):
        raise EntradaInvalida("mes", "mês inválido (use AAAA-MM, ex.: 2024-01)")
    return bruto.strip()
