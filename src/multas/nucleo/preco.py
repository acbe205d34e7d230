"""The CBIO price of a RenovaBio fine: "a maior média mensal das cotações ... no exercício do
descumprimento" (Decreto 9.888/2019 art. 6º § 1º; spec § 3.1 step 2 and its v4 notes).

One function, :func:`preco_do_exercicio`, prices every fine: the engine's rule, the batch's
``--cotacoes``, the ledger and the year all call it, so the monthly mean, the exercise and the
coverage are computed one way.

- **The monthly mean** is a reading (``interpretacao.media_mensal``): ``ponderada``, Σ
  ``valor_financeiro`` ÷ Σ ``quantidade`` of the month's quotes, is the default when every
  quote of the exercise carries both; ``simples``, the arithmetic mean of the days' ``preco``,
  otherwise. No legal text says which: the reasons are data (``preco.toml``), quoted in the
  memória. The mean is exact (a :class:`~fractions.Fraction`).
- **The exercise** is chosen by the caller (``interpretacao.ano_do_preco``, in the rule).
  Quotes outside it are ignored, and listed.
- **The coverage**: which months of the exercise have a quote. A partial exercise is priced
  all the same, with an aviso written by the caller (:func:`aviso_cobertura`).
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal
from fractions import Fraction
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from multas.nucleo.erros import EntradaInvalida

#: ``interpretacao.media_mensal``'s options; the default depends on the quotes
#: (:func:`metodo_padrao`)
MEDIAS = ("ponderada", "simples")
#: ``preco_metodo`` of a price given as monthly means, or as the highest mean itself
MENSAL_INFORMADA, INFORMADO = "mensal_informada", "informado"
#: ``preco_fonte`` when the case does not name the source of its quotes
FONTE_ENTRADA = "cotações informadas na entrada"


def exercicio_do_preco(ano_meta: int, prazo: date | None, leitura: str | None) -> int:
    """The exercise whose quotes price a target's fine (``interpretacao.ano_do_preco``, spec
    § 3.1 v4): the target year (``ano_meta``, the default), or under ``prazo`` the calendar
    year of its deadline (the year's own when no deadline is known). The one choice every
    caller makes: the rule, the default of ``media_mensal``, the ledger, the year, the batch.

    >>> exercicio_do_preco(2022, date(2023, 9, 30), "prazo"), exercicio_do_preco(2022, date(2023, 9, 30), None)
    (2023, 2022)
    """
    return prazo.year if leitura == "prazo" and prazo is not None else ano_meta


def fonte_do_arquivo(nome: str) -> str:
    """``preco_fonte`` of quotes read from a file: its name, printable characters only and at
    most 200 of them (a name may carry a tab, or come from a browser).

    >>> fonte_do_arquivo("cbio\\tb3.csv")
    'arquivo cbiob3.csv'
    """
    limpo = "".join(c for c in nome if c.isprintable())[:200].strip()
    return f"arquivo {limpo or 'de cotações'}"


@dataclass(frozen=True, slots=True)
class Cotacao:
    """One day's quote: its price, its volume (CBIOs traded and the value traded), or both."""

    dia: date
    preco: Fraction | None = None
    quantidade: int | None = None
    valor_financeiro: Decimal | None = None

    @property
    def com_volume(self) -> bool:
        return self.quantidade is not None and self.valor_financeiro is not None

    def como_dict(self) -> dict[str, str | int]:
        """The quote as the contract writes it (``{"data", "preco"?, "quantidade"?,
        "valor_financeiro"?}``)."""
        saida: dict[str, str | int] = {"data": self.dia.isoformat()}
        if self.preco is not None:
            saida["preco"] = exato(self.preco)
        if self.quantidade is not None and self.valor_financeiro is not None:
            saida["quantidade"] = self.quantidade
            saida["valor_financeiro"] = f"{self.valor_financeiro:f}"
        return saida


class Diarias(tuple[Cotacao, ...]):
    """Daily quotes as read once and shared (:func:`multas.nucleo.contrato.ler_valor` of a
    year's quotes given to every distributor's case): a tuple whose hash is computed once, so
    that finding its price among the remembered ones (:func:`_das_diarias`) does not hash
    each quote again. Its items are immutable, so the hash never changes."""

    def __hash__(self) -> int:
        guardado: int | None = self.__dict__.get("hash")
        if guardado is None:
            guardado = self.__dict__["hash"] = tuple.__hash__(self)
        return guardado

    def __reduce__(self) -> tuple[Any, ...]:
        # never the hash: a date's hash differs from one interpreter to the next
        return (Diarias, (tuple(self),))


@dataclass(frozen=True, slots=True)
class Media:
    """A month's mean and how many daily quotes it averages (``None``: a mean given as such)."""

    mes: str
    valor: Fraction
    cotacoes: int | None


@dataclass(frozen=True, slots=True)
class Cobertura:
    """Which months of the exercise have a quote (spec § 3.1 v4, ``cotacoes_cobertura``)."""

    exercicio: int
    primeira: str
    ultima: str
    meses_sem_cotacao: tuple[str, ...]

    @property
    def completa(self) -> bool:
        return not self.meses_sem_cotacao

    def como_dict(self) -> dict[str, Any]:
        return {
            "exercicio": self.exercicio,
            "primeira": self.primeira,
            "ultima": self.ultima,
            "meses_sem_cotacao": list(self.meses_sem_cotacao),
            "completa": self.completa,
        }


@dataclass(frozen=True, slots=True)
class Preco:
    """The price of an exercise: the highest monthly mean, the month, the method and the
    coverage; the months' means; what was ignored; the other method's price, when the quotes
    allow it."""

    exercicio: int
    valor: Fraction
    mes: str | None
    metodo: str
    medias: tuple[Media, ...] = ()
    cobertura: Cobertura | None = None
    #: the quotes (dates) or months outside the exercise, ignored
    ignoradas: tuple[str, ...] = ()
    #: quotes of the exercise without ``quantidade`` and ``valor_financeiro``
    sem_volume: int = 0
    #: the price under the other ``media_mensal`` (``None`` when it cannot be computed)
    outra: Preco | None = None

    @property
    def cotacoes_no_mes(self) -> int | None:
        for media in self.medias:
            if media.mes == self.mes:
                return media.cotacoes
        return None

    def saidas(self, fonte: str) -> dict[str, Any]:
        """The result fields of a price (spec § 3.1 v4): ``preco`` exact, its month, method,
        source and coverage."""
        return {
            "preco": exato(self.valor),
            "preco_mes": self.mes,
            "preco_metodo": self.metodo,
            "preco_fonte": fonte,
            "cotacoes_cobertura": None if self.cobertura is None else self.cobertura.como_dict(),
        }


@lru_cache(maxsize=8192)
def exato(valor: Fraction | Decimal) -> str:
    """An exact number as the contract writes it: the decimal when it terminates, else
    ``p/q``.

    >>> exato(Fraction(223, 2)), exato(Fraction(334, 3)), exato(Decimal("50.0"))
    ('111.5', '334/3', '50')
    >>> exato(Fraction(-1, 40)), exato(Decimal("-0.0625")), exato(Fraction(0))
    ('-0.025', '-0.0625', '0')

    Remembered by value (the text depends only on the number): a year of the ledger writes
    the same daily quotes for each distributor.
    """
    fracao = Fraction(valor)
    resto, vezes = fracao.denominator, {2: 0, 5: 0}
    for primo in (2, 5):
        while resto % primo == 0:
            resto //= primo
            vezes[primo] += 1
    if resto != 1:
        return f"{fracao.numerator}/{fracao.denominator}"
    # the denominator is 2^a·5^b: max(a, b) decimal places make it whole (integer arithmetic
    # only: a ledger's year writes each of its daily quotes, thousands of years at a time)
    escala = max(vezes.values())
    inteiro = abs(fracao.numerator) * 10**escala // fracao.denominator
    texto = str(inteiro).rjust(escala + 1, "0")
    if escala:
        texto = f"{texto[:-escala]}.{texto[-escala:]}"
    return ("-" if fracao < 0 else "") + texto


def metodo_padrao(cotacoes: Iterable[Cotacao], exercicio: int | None = None) -> str:
    """``ponderada`` when every quote (of ``exercicio``, when given) carries its volume,
    else ``simples`` (spec § 3.1 v4)."""
    do_exercicio = [c for c in cotacoes if exercicio is None or c.dia.year == exercicio]
    if do_exercicio and all(c.com_volume for c in do_exercicio):
        return "ponderada"
    return "simples"


def preco_do_exercicio(
    exercicio: int,
    *,
    diarias: Sequence[Cotacao] | None = None,
    mensais: Mapping[str, Decimal | Fraction] | None = None,
    informado: Decimal | Fraction | None = None,
    metodo: str | None = None,
    campo: str = "cotacoes_diarias",
) -> Preco:
    """The price of ``exercicio`` from one of the three forms of the contract. ``metodo``:
    ``interpretacao.media_mensal`` as chosen, or ``None`` for the default. An exercise with
    no quote, or a method the quotes cannot give, is an error naming ``campo``."""
    if informado is not None:
        return Preco(exercicio, Fraction(informado), None, INFORMADO)
    if mensais is not None:
        return _de_medias(mensais, exercicio, campo)
    assert diarias is not None
    fixas = diarias if isinstance(diarias, tuple) else tuple(diarias)  # a Diarias kept
    return _das_diarias(exercicio, fixas, metodo, campo)


@lru_cache(maxsize=64)
def _das_diarias(
    exercicio: int, diarias: tuple[Cotacao, ...], metodo: str | None, campo: str
) -> Preco:
    """:func:`preco_do_exercicio` from daily quotes, remembered: a year of the ledger or of
    ``ano calcular`` prices each distributor's fine with the same quotes (a :class:`Preco` is
    immutable; an error is raised again each time, as it is not remembered)."""
    escolhido = metodo or metodo_padrao(diarias, exercicio)
    preco = _de_diarias(diarias, exercicio, escolhido, campo)
    outro = "simples" if escolhido == "ponderada" else "ponderada"
    try:
        alternativo = _de_diarias(diarias, exercicio, outro, campo)
    except EntradaInvalida:
        return preco
    return replace(preco, outra=alternativo)


def _de_medias(mensais: Mapping[str, Decimal | Fraction], exercicio: int, campo: str) -> Preco:
    prefixo = f"{exercicio}-"
    medias = tuple(
        Media(mes, Fraction(valor), None)
        for mes, valor in sorted(mensais.items())
        if mes.startswith(prefixo)
    )
    fora = tuple(mes for mes in sorted(mensais) if not mes.startswith(prefixo))
    if not medias:
        raise EntradaInvalida(campo, f"nenhuma cotação no exercício de {exercicio}")
    maior = _maior(medias)
    meses = [m.mes for m in medias]
    cobertura = Cobertura(exercicio, meses[0], meses[-1], _sem_cotacao(exercicio, set(meses)))
    return Preco(exercicio, maior.valor, maior.mes, MENSAL_INFORMADA, medias, cobertura, fora)


def _de_diarias(diarias: Sequence[Cotacao], exercicio: int, metodo: str, campo: str) -> Preco:
    if metodo not in MEDIAS:
        raise EntradaInvalida("interpretacao.media_mensal", f"opção inválida: {metodo}")
    do_ano: list[tuple[int, Cotacao]] = []
    fora: list[str] = []
    for i, cotacao in enumerate(diarias):
        if cotacao.dia.year == exercicio:
            do_ano.append((i, cotacao))
        else:
            fora.append(cotacao.dia.isoformat())
    if not do_ano:
        raise EntradaInvalida(campo, f"nenhuma cotação no exercício de {exercicio}")
    sem_volume = sum(1 for _, c in do_ano if not c.com_volume)
    somas: dict[str, list[Fraction]] = {}
    for i, cotacao in sorted(do_ano, key=lambda par: par[1].dia):
        soma = somas.setdefault(f"{cotacao.dia:%Y-%m}", [Fraction(0), Fraction(0), Fraction(0)])
        if metodo == "ponderada":
            if cotacao.quantidade is None or cotacao.valor_financeiro is None:
                raise EntradaInvalida(
                    f"{campo}[{i}]",
                    f"a cotação de {cotacao.dia:%d/%m/%Y} não tem quantidade e valor_financeiro: "
                    "a média ponderada (media_mensal = ponderada) precisa dos dois em toda "
                    f"cotação do exercício de {exercicio}",
                )
            soma[0] += Fraction(cotacao.valor_financeiro)
            soma[1] += cotacao.quantidade
        else:
            if cotacao.preco is None:
                raise EntradaInvalida(
                    f"{campo}[{i}].preco",
                    f"a cotação de {cotacao.dia:%d/%m/%Y} não tem preco: a média simples "
                    "(media_mensal = simples) precisa do preço de cada dia",
                )
            soma[0] += cotacao.preco
            soma[1] += 1
        soma[2] += 1
    medias = tuple(
        Media(mes, total / divisor, int(dias)) for mes, (total, divisor, dias) in somas.items()
    )
    maior = _maior(medias)
    dias = sorted(c.dia for _, c in do_ano)
    cobertura = Cobertura(
        exercicio,
        dias[0].isoformat(),
        dias[-1].isoformat(),
        _sem_cotacao(exercicio, set(somas)),
    )
    return Preco(
        exercicio, maior.valor, maior.mes, metodo, medias, cobertura, tuple(fora), sem_volume
    )


def _maior(medias: Sequence[Media]) -> Media:
    """The highest monthly mean; on a tie, the earliest month."""
    return max(medias, key=lambda m: m.valor)


def _sem_cotacao(exercicio: int, meses: set[str]) -> tuple[str, ...]:
    todos = (f"{exercicio}-{mes:02d}" for mes in range(1, 13))
    return tuple(m for m in todos if m not in meses)


# --- what the memória says about the method (data: preco.toml) -----------------------------


@cache
def notas() -> dict[str, Any]:
    """The reasons of the readings of the price (``preco.toml``): no legal text states them,
    so they are data with their sources, not sentences in code."""
    with (Path(__file__).with_name("preco.toml")).open("rb") as arquivo:
        return tomllib.load(arquivo)


def aviso_cobertura(cobertura: Cobertura) -> str | None:
    """The aviso of an exercise the quotes do not cover (spec § 3.1 v4), or ``None``."""
    if cobertura.completa:
        return None
    meses = ", ".join(f"{m[5:]}/{m[:4]}" for m in cobertura.meses_sem_cotacao)
    return (
        f"as cotações não cobrem todo o exercício de {cobertura.exercicio} (sem cotações em "
        f"{meses}): a maior média mensal do exercício pode ser outra"
    )
