"""The legislation's model: a provision's dated versions (:class:`Vigencia`), the parameters,
the table of compliance deadlines, the law in force on one date (:class:`Lei`) and the whole
validated legislation (:class:`Legislacao`). Reading the files is :mod:`.carga`'s.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from multas.nucleo.calendario import CalendarioFederal
from multas.nucleo.erros import EntradaInvalida

if TYPE_CHECKING:
    from collections.abc import Callable

    from multas.nucleo.legislacao.selic import SerieSelic


class LegislacaoInvalida(Exception):
    """A parameter file breaks the rules (no source, overlapping dates...)."""


@dataclass(frozen=True, slots=True)
class Fonte:
    """Where a value comes from: the act or page as people name it (``titulo``), and its
    public page where one exists (``href``: the Planalto's page of the act, or the page the
    transcription came from), as PolicyEngine keeps its references."""

    titulo: str
    href: str | None = None

    def como_dict(self) -> dict[str, str | None]:
        return {"titulo": self.titulo, "href": self.href}

    def __str__(self) -> str:
        return self.titulo if self.href is None else f"{self.titulo} <{self.href}>"


#: the label of a provision whose start date (the DOU's) no shipped source gives (W13)
DATA_NAO_CONFERIDA = "data não conferida"


@dataclass(frozen=True, slots=True)
class Vigencia:
    """One version of a provision: what it says, from when to when, and where it comes from."""

    inicio: date
    fim: date | None
    valor: Any
    dispositivo: str
    redacao: str | None
    texto: str | None
    fonte: Fonte
    #: ``data_conferida = false`` in the file: the start date rests on a DOU date that no
    #: shipped source gives (review 4, W13); the provision is then cited with
    #: :data:`DATA_NAO_CONFERIDA`, so every memória that cites it says so
    data_conferida: bool = True

    @property
    def fundamento(self) -> str:
        """``Decreto nº 9.888/2019, art. 6º, § 2º, II (redação original)``; with its start
        date not checked, ``Lei nº 9.873/1999, art. 1º, caput (data não conferida: ...)``."""
        partes = [p for p in (self.redacao, self.nota_da_data) if p]
        return f"{self.dispositivo} ({'; '.join(partes)})" if partes else self.dispositivo

    @property
    def nota_da_data(self) -> str | None:
        """What the memória says of a start date that no shipped source gives."""
        return None if self.data_conferida else DATA_NAO_CONFERIDA

    @property
    def fracao(self) -> Fraction:
        """The value, when it is a number (every number is read as an exact fraction)."""
        if not isinstance(self.valor, Fraction):
            raise TypeError(f"{self.dispositivo}: valor não numérico")
        return self.valor

    @property
    def inteiro(self) -> int:
        if isinstance(self.valor, bool) or not isinstance(self.valor, int):
            raise TypeError(f"{self.dispositivo}: valor não inteiro")
        return self.valor

    def vale_em(self, dia: date) -> bool:
        return self.inicio <= dia and (self.fim is None or dia <= self.fim)


@dataclass(frozen=True, slots=True)
class Parametro:
    nome: str
    descricao: str
    unidade: str
    arquivo: str
    vigencias: tuple[Vigencia, ...]
    #: the parameter whose versions this one shares (``igual_a`` in the file): one value, two
    #: names, never two copies that could drift apart
    igual_a: str | None = None

    def em(self, dia: date) -> Vigencia | None:
        for vigencia in self.vigencias:
            if vigencia.vale_em(dia):
                return vigencia
        return None


@dataclass(frozen=True, slots=True)
class PrazoComprovacao:
    """A row of the table of compliance deadlines (art. 4º-A), keyed by target year."""

    ano_meta_inicio: int
    ano_meta_fim: int | None
    anos_depois: int
    mes: int
    dia: int
    dispositivo: str
    texto: str | None
    fonte: Fonte

    @property
    def fundamento(self) -> str:
        return self.dispositivo

    def abrange(self, ano_meta: int) -> bool:
        return self.ano_meta_inicio <= ano_meta and (
            self.ano_meta_fim is None or ano_meta <= self.ano_meta_fim
        )

    def prazo(self, ano_meta: int) -> date:
        return date(ano_meta + self.anos_depois, self.mes, self.dia)


class Lei:
    """The law in force on one date: ``lei["renovabio.distribuidor.teto"].valor``."""

    def __init__(self, legislacao: Legislacao, dia: date) -> None:
        self.legislacao = legislacao
        self.data = dia
        self._lidos: dict[str, Vigencia | None] = {}

    @property
    def lidos(self) -> frozenset[str]:
        """The parameters read through this object."""
        return frozenset(self._lidos)

    def get(self, nome: str) -> Vigencia | None:
        try:
            return self._lidos[nome]
        except KeyError:
            vigencia = self._lidos[nome] = self.legislacao.parametro(nome).em(self.data)
            return vigencia

    def __getitem__(self, nome: str) -> Vigencia:
        vigencia = self.get(nome)
        if vigencia is None:
            raise KeyError(f"{nome} não vigente em {self.data.isoformat()}")
        return vigencia

    def exigir(self, nome: str, campo: str, regime: str) -> Vigencia:
        """The provision, or a pt-BR input error when the regime was not in force that day."""
        vigencia = self.get(nome)
        if vigencia is None:
            parametro = self.legislacao.parametro(nome)
            desde = min(v.inicio for v in parametro.vigencias)
            from multas.nucleo.datas import formatar_data

            raise EntradaInvalida(
                campo,
                f"regime não vigente: {regime} não existia na data de referência "
                f"{formatar_data(self.data)} (vigente a partir de {formatar_data(desde)})",
            )
        return vigencia


class Legislacao:
    """Every parameter file, validated. Build it with :func:`carregar`."""

    def __init__(
        self,
        parametros: dict[str, Parametro],
        prazos: tuple[PrazoComprovacao, ...],
        versao: str,
        calendario: CalendarioFederal | None = None,
    ) -> None:
        self.parametros = parametros
        self.prazos_comprovacao = prazos
        self.versao = versao
        #: the federal calendar (``parametros/calendario.toml``); without it, every year uses
        #: the pattern of :mod:`multas.nucleo.calendario`
        self.calendario = calendario or CalendarioFederal({})
        self._leis: dict[date, Lei] = {}
        #: every parameter a rule asked for (every read goes through :meth:`parametro`): the
        #: test that no numeric parameter is dead weight reads it (issue 17)
        self.lidos: set[str] = set()
        #: the monthly Selic (:mod:`multas.nucleo.legislacao.selic`): the shipped series, read
        #: on first use, or the one :meth:`com_selic` gave (or its reader gives, on first use)
        self._selic: SerieSelic | None = None
        self._ler_selic: Callable[[], SerieSelic] | None = None

    @property
    def selic(self) -> SerieSelic:
        if self._selic is None:
            if self._ler_selic is not None:
                self._selic = self._ler_selic()
            else:
                from multas.nucleo.legislacao.selic import serie_enviada

                self._selic = serie_enviada()
        return self._selic

    def com_selic(self, selic: SerieSelic | Callable[[], SerieSelic]) -> Legislacao:
        """The same legislation with another Selic series (the shipped months and those a
        user added, :mod:`multas.servicos.selic`), or the function that reads it, called the
        first time a rule asks for the Selic (so a case that needs none reads no database)."""
        copia = copy.copy(self)
        if callable(selic):
            copia._selic, copia._ler_selic = None, selic
        else:
            copia._selic, copia._ler_selic = selic, None
        return copia

    def parametro(self, nome: str) -> Parametro:
        self.lidos.add(nome)
        return self.parametros[nome]

    def em(self, dia: date) -> Lei:
        """The law in force on ``dia`` (one object per date, its lookups cached)."""
        lei = self._leis.get(dia)
        if lei is None:
            if len(self._leis) >= 4096:  # bounded: a batch may span many dates
                self._leis.clear()
            lei = self._leis[dia] = Lei(self, dia)
        return lei

    def prazo_comprovacao(self, ano_meta: int) -> tuple[date, PrazoComprovacao] | None:
        for linha in self.prazos_comprovacao:
            if linha.abrange(ano_meta):
                return linha.prazo(ano_meta), linha
        return None
