"""A series of CBIO quotes read from a file, and an exercise's price from it.

The price is the highest monthly mean of the exercise's quotes (spec § 3.1 step 2), computed by
:func:`multas.nucleo.preco.preco_do_exercicio`, the one function that prices every fine:
weighted by volume when every quote of the exercise carries it (``media_mensal``), exactly.
A mean that does not terminate as a decimal is shown whole, as the fraction ``p/q``, beside an
approximation to ten places.

Two shapes of file (CSV, XLSX, JSON or JSON Lines, read by :mod:`multas.nucleo.ciclo.planilha`):
daily quotes, columns ``data`` and ``preco`` and/or ``quantidade`` with ``valor_financeiro``
(B3's daily summary has them all, its daily price as ``preco_medio``: another column may be
named as the price), or monthly means, columns ``mes`` (``AAAA-MM``) and ``media``.
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
from multas.nucleo.contrato import Campo, Leitura, ler_cotacao, ler_valor
from multas.nucleo.dinheiro import normalizar_ptbr
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.preco import Cotacao, Preco, exato, preco_do_exercicio

#: the places of :attr:`PrecoDoAno.aproximado`
CASAS_APROXIMADO = 10
_MES = re.compile(r"\d{4}-(0[1-9]|1[0-2])")
#: the volume columns of a daily quote (B3's daily summary)
VOLUMES = ("quantidade", "valor_financeiro")
#: the daily price of B3's daily summary, read as ``preco`` when the file has no ``preco``
PRECO_B3 = "preco_medio"


@dataclass(frozen=True, slots=True)
class Serie:
    """Daily quotes or monthly means (``AAAA-MM`` → mean): one of the two; ``fonte``: where
    they come from (the file's name, and the source it declares), for ``preco_fonte``."""

    diarias: tuple[Cotacao, ...] = ()
    mensais: Mapping[str, Decimal | Fraction] = field(default_factory=dict)
    fonte: str | None = None
    #: each year's daily quotes as the contract writes them, written once (a year's ledger
    #: gives the same quotes to every distributor's case); not part of the value
    _escritas: dict[int, tuple[dict[str, str | int], ...]] = field(
        default_factory=dict, init=False, compare=False, hash=False, repr=False
    )

    def do_ano(self, ano: int) -> dict[str, Any]:
        """The quotes of ``ano`` as the contract's parsed field (``cotacoes_diarias``: the
        quotes; ``cotacoes_mensais``: month → mean), as a ledger year keeps them."""
        if self.mensais:
            return {
                "cotacoes_mensais": {m: v for m, v in self.mensais.items() if m[:4] == str(ano)}
            }
        return {"cotacoes_diarias": tuple(c for c in self.diarias if c.dia.year == ano)}

    def campos_do_caso(self, ano: int) -> dict[str, Any]:
        """The quotes of ``ano`` as a case's contract fields (``cotacoes_diarias`` or
        ``cotacoes_mensais``, and ``fonte_cotacoes``): the engine then computes the price
        itself, exactly, and its memória shows each month's mean."""
        campos: dict[str, Any]
        if self.mensais:
            campos = {
                "cotacoes_mensais": {
                    mes: exato(media) for mes, media in self.mensais.items() if mes[:4] == str(ano)
                }
            }
        else:
            escritas = self._escritas.get(ano)
            if escritas is None:
                escritas = tuple(c.como_dict() for c in self.diarias if c.dia.year == ano)
                self._escritas[ano] = escritas
            # each case gets its own dicts (the caller may change its case)
            campos = {"cotacoes_diarias": [dict(c) for c in escritas]}
        if self.fonte:
            campos["fonte_cotacoes"] = self.fonte
        return campos


@dataclass(frozen=True, slots=True)
class PrecoDoAno:
    """An exercise's price (:class:`~multas.nucleo.preco.Preco`) as the year and the batch
    show it: the highest monthly mean, its month and method."""

    preco: Preco

    @property
    def ano(self) -> int:
        return self.preco.exercicio

    @property
    def mes(self) -> str | None:
        return self.preco.mes

    @property
    def valor(self) -> Fraction:
        return self.preco.valor

    @property
    def cotacoes(self) -> int | None:
        return self.preco.cotacoes_no_mes

    @property
    def exato(self) -> str:
        """The price whole: ``111.5`` when the decimal terminates, else ``p/q``."""
        return exato(self.valor)

    @property
    def aproximado(self) -> str:
        """The price to :data:`CASAS_APROXIMADO` places, truncated, for reading only (the
        fines use :attr:`valor`).

        >>> from multas.nucleo.preco import Preco
        >>> PrecoDoAno(Preco(2024, Fraction(334, 3), "2024-01", "simples")).aproximado
        '111.3333333333'
        """
        inteiro = int(self.valor * 10**CASAS_APROXIMADO)
        texto = str(inteiro).rjust(CASAS_APROXIMADO + 1, "0")
        return f"{texto[:-CASAS_APROXIMADO]}.{texto[-CASAS_APROXIMADO:]}"

    def como_dict(self) -> dict[str, Any]:
        cobertura = self.preco.cobertura
        return {
            "ano": self.ano,
            "mes": self.mes,
            "preco": self.exato,
            "preco_aproximado": self.aproximado,
            "cotacoes_no_mes": self.cotacoes,
            "metodo": self.preco.metodo,
            "cobertura": None if cobertura is None else cobertura.como_dict(),
        }


def preco_do_ano(serie: Serie, ano: int, metodo: str | None = None) -> PrecoDoAno:
    """The highest monthly mean of the quotes of ``ano`` (``metodo``: ``media_mensal`` as
    chosen, ``None`` for the default); an error naming ``cotacoes`` when the series has none
    in that year, or cannot give the method chosen."""
    if serie.mensais:
        return PrecoDoAno(preco_do_exercicio(ano, mensais=serie.mensais, campo="cotacoes"))
    return PrecoDoAno(
        preco_do_exercicio(ano, diarias=serie.diarias, metodo=metodo, campo="cotacoes")
    )


_PRECO = Campo("preco", "preco", "Cotação do CBIO", True, 0)
_DATA = Campo("data", "data", "Dia da cotação", True, 0)


def ler_serie(
    linhas: Sequence[Any],
    locais: Sequence[Local],
    leitura: Leitura,
    coluna_preco: str = "preco",
    fonte: str | None = None,
) -> Serie:
    """The series in the rows of a file (:func:`multas.nucleo.ciclo.planilha.ler_planilha`): daily
    (``data``, and ``coluna_preco`` and/or ``quantidade`` with ``valor_financeiro``) or monthly
    (``mes`` and ``media``), decided by the first row; without a ``preco`` column, B3's
    ``preco_medio`` is the day's price (for the simple mean). A bad cell is an error with its line and
    column; a date or month given twice too. ``fonte``: the file's name, for ``preco_fonte``."""
    if not linhas:
        raise EntradaInvalida("cotacoes", "o arquivo de cotações não tem nenhuma linha")
    primeira = linhas[0] if isinstance(linhas[0], Mapping) else {}
    mensal = "mes" in primeira and "data" not in primeira
    if coluna_preco == "preco" and "preco" not in primeira and PRECO_B3 in primeira:
        coluna_preco = PRECO_B3  # B3's daily summary: its daily price is the "preço médio"
    diarias: dict[date, Cotacao] = {}
    mensais: dict[str, Decimal | Fraction] = {}
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
                if dia in diarias:
                    raise EntradaInvalida("data", f"dia repetido: {dia.isoformat()}")
                diarias[dia] = _cotacao(dia, linha, coluna_preco, leitura)
        except EntradaInvalida as erro:
            raise local.localizar(erro) from None
    return Serie(tuple(diarias[d] for d in sorted(diarias)), dict(sorted(mensais.items())), fonte)


def _cotacao(dia: date, linha: Mapping[str, Any], coluna_preco: str, leitura: Leitura) -> Cotacao:
    """A daily row's quote: its price (``coluna_preco``) and/or its volumes; a cell is read in
    the file's notation, and an error names the file's column."""
    item: dict[str, Any] = {}
    for coluna, chave in ((coluna_preco, "preco"), *((v, v) for v in VOLUMES)):
        bruto = linha.get(coluna)
        if bruto is not None and not (isinstance(bruto, str) and not bruto.strip()):
            if leitura.decimal_virgula and isinstance(bruto, str) and "/" not in bruto:
                bruto = normalizar_ptbr(bruto)
            item[chave] = bruto
    if "preco" not in item and not any(v in item for v in VOLUMES):
        raise EntradaInvalida(
            coluna_preco, "campo obrigatório (o preço do dia, ou quantidade e valor_financeiro)"
        )
    try:
        return ler_cotacao(dia, item, "", leitura.dica_numero)
    except EntradaInvalida as erro:
        campo = (erro.campo or "").removeprefix(".")
        raise EntradaInvalida(coluna_preco if campo == "preco" else campo, erro.mensagem) from None


def _obrigatorio(linha: Mapping[str, Any], coluna: str) -> Any:
    bruto = linha.get(coluna)
    if bruto is None or (isinstance(bruto, str) and not bruto.strip()):
        raise EntradaInvalida(coluna, "campo obrigatório")
    return bruto


def _valor(linha: Mapping[str, Any], coluna: str, leitura: Leitura) -> Decimal | Fraction:
    try:
        preco: Decimal | Fraction = ler_valor(_obrigatorio(linha, coluna), _PRECO, leitura)
    except EntradaInvalida as erro:
        raise EntradaInvalida(coluna, erro.mensagem) from None
    return preco


def _mes(bruto: object) -> str:
    if not isinstance(bruto, str) or not _MES.fullmatch(bruto.strip()):
        raise EntradaInvalida("mes", "mês inválido (use AAAA-MM, ex.: 2024-01)")
    return bruto.strip()
