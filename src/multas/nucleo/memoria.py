"""The memória de cálculo: steps with value and citation, warnings, alternatives, renderers.

Every step is recorded by the code that computed it (``m.passo(...)`` returns the value it
records), so the explanation cannot drift from the calculation.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from fractions import Fraction
from typing import Any, Literal, Protocol, TypeVar

from multas.nucleo.dinheiro import arredondar, exibir, para_json

T = TypeVar("T")
Tipo = Literal["quantia", "numero", "inteiro", "data", "texto"]


class Citavel(Protocol):
    """Anything with a citation: a dated provision (``Vigencia``) or a row of a table."""

    @property
    def fundamento(self) -> str: ...

    @property
    def texto(self) -> str | None: ...


class Dispositivo(Citavel, Protocol):
    """A citable provision that names itself (``Vigencia``): "…, art. 6º, § 2º, III"."""

    @property
    def dispositivo(self) -> str: ...


@dataclass(frozen=True, slots=True)
class Citacao:
    """A quotation put together from the law's own passages (:func:`com_incisos`)."""

    fundamento: str
    texto: str | None


_INCISO = re.compile(r", (?:(?P<inciso>[IVXLC]+)|(?P<alinea>[a-z]))$")
NAO_TRANSCRITO = "[texto do inciso não transcrito nas fontes do projeto]"


def com_incisos(caput: Citavel, *incisos: Dispositivo, fundamento: str | None = None) -> Citacao:
    """A provision whose text ends in ":" quoted with the incisos (or the inciso and its
    alínea) applied, each after its own numeral (from its ``dispositivo``: "I - ", "a) "), so
    the quotation never stops at "… ser:". Only the shipped passages are quoted; an inciso
    without one is named as not transcribed.

    The citation is ``fundamento`` when given, else the last part's (the most specific).
    """
    partes = [caput.texto or ""]
    for inciso in incisos:
        numero = _INCISO.search(inciso.dispositivo)
        prefixo = ""
        if numero and numero["inciso"]:
            prefixo = f"{numero['inciso']} - "
        elif numero:
            prefixo = f"{numero['alinea']}) "
        partes.append(f"{prefixo}{inciso.texto or NAO_TRANSCRITO}")
    if fundamento is None:
        fundamento = incisos[-1].fundamento if incisos else caput.fundamento
    return Citacao(fundamento, " ".join(p for p in partes if p) or None)


@dataclass(frozen=True, slots=True)
class Passo:
    descricao: str
    valor: str | None
    fundamento: str
    texto: str | None = None
    tipo: Tipo = "texto"

    def como_dict(self) -> dict[str, Any]:
        return {
            "descricao": self.descricao,
            "valor": self.valor,
            "fundamento": self.fundamento,
            "texto": self.texto,
            "tipo": self.tipo,
        }


def _valor_passo(valor: object, tipo: Tipo) -> str | None:
    if valor is None:
        return None
    if isinstance(valor, bool):
        return "sim" if valor else "não"
    if isinstance(valor, date):
        return valor.isoformat()
    if isinstance(valor, Fraction | Decimal | int) and tipo in ("quantia", "numero"):
        numerador, denominador = (valor, 1) if isinstance(valor, int) else valor.as_integer_ratio()
        if tipo == "quantia" and numerador * 100 % denominador == 0:
            # whole centavos: written as money, "1234.50"
            centavos = numerador * 100 // denominador
            sinal = "-" if centavos < 0 else ""
            return f"{sinal}{abs(centavos) // 100}.{abs(centavos) % 100:02d}"
        if denominador == 1:
            return str(numerador)
        return exibir(Fraction(numerador, denominador))
    return str(valor)


#: True while the engine computes an alternative reading, whose memória nobody reads: steps
#: and avisos are then not recorded (the values are computed exactly the same way)
_SILENCIO: ContextVar[bool] = ContextVar("multas_memoria_silenciosa", default=False)


@contextmanager
def silenciosa() -> Iterator[None]:
    """Memórias created inside this block record nothing (for the alternativas)."""
    ficha = _SILENCIO.set(True)
    try:
        yield
    finally:
        _SILENCIO.reset(ficha)


@dataclass
class Memoria:
    """Collects the steps and warnings of one calculation.

    A step's value is kept as computed and written out (``Passo``) only when the steps are
    read, so a memória nobody reads costs little; inside :func:`silenciosa` nothing is kept.
    A description may be given as a function of no arguments, called only when the steps are
    read (a hot loop's steps then cost no formatting when nobody reads them): it must capture
    the values it shows, never state that changes afterwards.
    """

    avisos: list[str] = field(default_factory=list)
    _brutos: list[tuple[str | Callable[[], str], object, Citavel | str, Tipo | None]] = field(
        default_factory=list
    )
    _passos: list[Passo] = field(default_factory=list)
    _registra: bool = field(default_factory=lambda: not _SILENCIO.get())

    @property
    def registra(self) -> bool:
        """Whether steps and avisos are kept (not inside :func:`silenciosa`)."""
        return self._registra

    def passo(
        self,
        descricao: str | Callable[[], str],
        valor: T,
        fonte: Citavel | str,
        tipo: Tipo | None = None,
    ) -> T:
        """Record a step and return its value unchanged."""
        if self._registra:
            self._brutos.append((descricao, valor, fonte, tipo))
        return valor

    def aviso(self, texto: str) -> None:
        if self._registra and texto not in self.avisos:
            self.avisos.append(texto)

    @property
    def passos(self) -> list[Passo]:
        """The steps, each value written as the contract shows it."""
        for descricao, valor, fonte, tipo in self._brutos[len(self._passos) :]:
            if not isinstance(descricao, str):
                descricao = descricao()
            if tipo is None:
                tipo = _tipo(valor)
            if isinstance(fonte, str):
                fundamento, texto = fonte, None
            else:
                fundamento, texto = fonte.fundamento, fonte.texto
            self._passos.append(
                Passo(descricao, _valor_passo(valor, tipo), fundamento, texto, tipo)
            )
        return self._passos


def _tipo(valor: object) -> Tipo:
    if isinstance(valor, bool) or valor is None or isinstance(valor, str):
        return "texto"
    if isinstance(valor, int):
        return "inteiro"
    if isinstance(valor, date):
        return "data"
    return "numero"


@dataclass
class Resultado:
    """What a rule returns. ``como_dict`` is the case-file contract's result object."""

    regime: str
    valor: Fraction | Decimal | None
    fundamento: str
    data_referencia: date
    redacao: str
    memoria: Memoria
    saidas: dict[str, Any] = field(default_factory=dict)
    interpretacao: dict[str, str] = field(default_factory=dict)
    alternativas: list[dict[str, Any]] = field(default_factory=list)
    #: who the case is about (``id``, ``cnpj``, ``nome``, ``referencia``), echoed as given;
    #: ``id`` is the result's first field (spec § 3 v4)
    identificacao: dict[str, str] = field(default_factory=dict)

    @property
    def valor_arredondado(self) -> Decimal | None:
        return None if self.valor is None else arredondar(self.valor)

    def valor_json(self) -> str | None:
        arredondado = self.valor_arredondado
        return None if arredondado is None else para_json(arredondado)

    def como_dict(self) -> dict[str, Any]:
        saidas = {chave: _saida_json(valor) for chave, valor in self.saidas.items()}
        identificacao = dict(self.identificacao)
        return {
            **({"id": identificacao.pop("id")} if "id" in identificacao else {}),
            "regime": self.regime,
            **identificacao,
            "valor": self.valor_json(),
            **saidas,
            "moeda": "BRL",
            "fundamento": self.fundamento,
            "vigencia": {
                "data_referencia": self.data_referencia.isoformat(),
                "redacao": self.redacao,
            },
            "interpretacao": dict(self.interpretacao),
            "passos": [p.como_dict() for p in self.memoria.passos],
            "avisos": list(self.memoria.avisos),
            "alternativas": list(self.alternativas),
        }


def _saida_json(valor: object) -> object:
    """Outputs: amounts (already rounded Decimals) as strings, dates as ISO, ints as ints."""
    if isinstance(valor, Decimal):
        return para_json(valor)
    if isinstance(valor, Fraction):
        return para_json(arredondar(valor))
    if isinstance(valor, date):
        return valor.isoformat()
    return valor
