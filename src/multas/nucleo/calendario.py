"""The federal government's calendar: which days have expediente (spec § 1).

A year's calendar is its base portaria and every act that changed that year's expediente,
transcribed as data in ``legislacao/parametros/calendario.toml``. A year not transcribed uses
the usual pattern, computed for any year from 0001 to 9999 (Easter by the Gregorian computus,
``dateutil.easter``), with an aviso naming the year.

Four kinds of day (``tipo``):

- ``feriado`` and ``ponto_facultativo``: no expediente all day, not a business day;
- ``inicio_tardio`` (Ash Wednesday's "até as 14 horas"): there is expediente, so it is a
  business day, for counting and as a last day;
- ``encerramento_antecipado`` (24/12 and 31/12 "após as 13/14 horas"): counted as a business
  day, but no deadline ends on it (Lei nº 9.784/1999 art. 66 § 1º: "não houver expediente ou
  este for encerrado antes da hora normal").

Only ``ambito = nacional`` dates apply; local and conditional acts are listed apart
(:attr:`CalendarioFederal.fora_do_nacional`) for the user to give as ``dias_sem_expediente``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, timedelta
from functools import cache
from typing import Any, Literal

Leitura = Literal["expediente", "feriados"]

TIPOS = ("feriado", "ponto_facultativo", "inicio_tardio", "encerramento_antecipado")
#: kinds with no expediente all day
SEM_EXPEDIENTE = frozenset({"feriado", "ponto_facultativo"})
AMBITOS = ("nacional", "local", "condicional")

#: the national holidays of the pattern: (month, day, name, first year). 20/11 is a national
#: holiday from 2024 (Lei nº 14.759/2023).
_FERIADOS_FIXOS = (
    (1, 1, "Confraternização Universal", 1),
    (4, 21, "Tiradentes", 1),
    (5, 1, "Dia Mundial do Trabalho", 1),
    (9, 7, "Independência", 1),
    (10, 12, "N. Sra. Aparecida", 1),
    (11, 2, "Finados", 1),
    (11, 15, "Proclamação da República", 1),
    (11, 20, "Zumbi e Consciência Negra", 2024),
    (12, 25, "Natal", 1),
)
#: the pattern's days relative to Easter Sunday
_DA_PASCOA = (
    (-48, "Carnaval", "ponto_facultativo"),
    (-47, "Carnaval", "ponto_facultativo"),
    (-46, "Quarta-feira de Cinzas (até 14h)", "inicio_tardio"),
    (-2, "Paixão de Cristo", "feriado"),
    (60, "Corpus Christi", "ponto_facultativo"),
)
_DATAS_FIXAS_DO_PADRAO = (
    (10, 28, "Dia do Servidor Público", "ponto_facultativo"),
    (12, 24, "Véspera de Natal", "encerramento_antecipado"),
    (12, 31, "Véspera de Ano Novo", "encerramento_antecipado"),
)
PADRAO = "padrão do projeto (calendário do ano não transcrito)"


class CalendarioInvalido(Exception):
    """The calendar's data file breaks its rules."""


@dataclass(frozen=True, slots=True)
class Dia:
    """One date of a year's calendar."""

    data: date
    nome: str
    tipo: str
    ato: str
    ambito: str = "nacional"

    def como_dict(self) -> dict[str, str]:
        return {
            "data": self.data.isoformat(),
            "nome": self.nome,
            "tipo": self.tipo,
            "ato": self.ato,
            "ambito": self.ambito,
        }


@dataclass(frozen=True, slots=True)
class Ato:
    ato: str
    fonte: str


@dataclass(frozen=True, slots=True)
class AnoCalendario:
    """A year's days without full expediente, by date."""

    ano: int
    transcrito: bool
    atos: tuple[Ato, ...]
    dias: Mapping[date, Dia]

    @property
    def descricao(self) -> str:
        """``calendário federal de 2025 (Portaria MGI nº 9.783, ...)`` for the memória."""
        if not self.transcrito:
            return f"calendário federal de {self.ano:04d}: {PADRAO}"
        return f"calendário federal de {self.ano:04d} ({self.atos[0].ato})"

    def como_dict(self) -> dict[str, Any]:
        """``{"ano", "transcrito", "atos", "dias"}`` (spec § 1, ``multas calendario``)."""
        return {
            "ano": self.ano,
            "transcrito": self.transcrito,
            "atos": [{"ato": a.ato, "fonte": a.fonte} for a in self.atos],
            "dias": [self.dias[d].como_dict() for d in sorted(self.dias)],
        }


def aviso_nao_transcrito(ano: int) -> str:
    return f"calendário de {ano:04d} não transcrito: usado o padrão"


@cache
def padrao(ano: int) -> AnoCalendario:
    """The usual pattern for a year not transcribed (spec § 1), for any year 1..9999.

    >>> p = padrao(2101)
    >>> [(d.isoformat(), p.dias[d].tipo) for d in sorted(p.dias)][1:4]  # Páscoa: 17/04/2101
    [('2101-02-28', 'ponto_facultativo'), ('2101-03-01', 'ponto_facultativo'), ('2101-03-02', 'inicio_tardio')]
    """
    from dateutil.easter import EASTER_WESTERN, easter

    dias: dict[date, Dia] = {}
    for mes, dia_do_mes, nome, desde in _FERIADOS_FIXOS:
        if ano >= desde:
            fixo = date(ano, mes, dia_do_mes)
            dias[fixo] = Dia(fixo, nome, "feriado", PADRAO)
    pascoa = easter(ano, EASTER_WESTERN)
    for deslocamento, nome, tipo in _DA_PASCOA:
        try:
            dia = pascoa + timedelta(days=deslocamento)
        except OverflowError:  # pragma: no cover - Easter is never near the ends of 1..9999
            continue
        if dia.year == ano:
            dias.setdefault(dia, Dia(dia, nome, tipo, PADRAO))
    for mes, d, nome, tipo in _DATAS_FIXAS_DO_PADRAO:
        dias.setdefault(date(ano, mes, d), Dia(date(ano, mes, d), nome, tipo, PADRAO))
    return AnoCalendario(ano, False, (), dias)


@dataclass(frozen=True, slots=True)
class CalendarioFederal:
    """Every transcribed year, and the pattern for the others."""

    anos: Mapping[int, AnoCalendario]
    fora_do_nacional: tuple[Dia, ...] = ()

    def ano(self, ano: int) -> AnoCalendario:
        return self.anos.get(ano) or padrao(ano)

    def dia(self, dia: date) -> Dia | None:
        return self.ano(dia.year).dias.get(dia)

    def locais(self, ano: int) -> list[Dia]:
        return [d for d in self.fora_do_nacional if d.data.year == ano]


def ler_calendario(dados: Mapping[str, Any], arquivo: str) -> CalendarioFederal:
    """Build and check the calendar from the parsed TOML of ``arquivo``."""
    extras = set(dados) - {"ano", "fora_do_nacional"}
    if extras:
        raise _erro(arquivo, "raiz", f"chaves desconhecidas: {sorted(extras)}")
    anos: dict[int, AnoCalendario] = {}
    for i, bruto in enumerate(dados.get("ano", [])):
        calendario = _ler_ano(bruto, arquivo, f"ano[{i}]")
        if calendario.ano in anos:
            raise _erro(arquivo, f"ano[{i}]", f"o ano {calendario.ano} aparece duas vezes")
        anos[calendario.ano] = calendario
    fora: list[Dia] = []
    for item in dados.get("fora_do_nacional", []):
        dia = _dia(item, arquivo, "fora_do_nacional", tipo_padrao="ponto_facultativo")
        if dia.ambito == "nacional":
            raise _erro(
                arquivo, "fora_do_nacional", f"{dia.data}: ambito deve ser local ou condicional"
            )
        fora.append(dia)
    return CalendarioFederal(anos, tuple(sorted(fora, key=lambda d: d.data)))


def _erro(arquivo: str, onde: str, motivo: str) -> CalendarioInvalido:
    return CalendarioInvalido(f"{arquivo}: {onde}: {motivo}")


def _texto(item: Mapping[str, Any], chave: str, arquivo: str, onde: str) -> str:
    valor = item.get(chave)
    if not isinstance(valor, str) or not valor.strip():
        raise _erro(arquivo, onde, f"'{chave}' obrigatório")
    return valor


def _ler_ano(bruto: Any, arquivo: str, onde: str) -> AnoCalendario:
    if not isinstance(bruto, Mapping):
        raise _erro(arquivo, onde, "cada ano é uma tabela")
    ano = bruto.get("ano")
    if not isinstance(ano, int) or isinstance(ano, bool) or not 1 <= ano <= 9999:
        raise _erro(arquivo, onde, "'ano' deve ser um inteiro de 1 a 9999")
    desconhecidas = set(bruto) - {"ano", "atos", "dias", "notas"}
    if desconhecidas:
        raise _erro(arquivo, onde, f"chaves desconhecidas: {sorted(desconhecidas)}")
    atos = tuple(
        Ato(_texto(a, "ato", arquivo, f"{onde}.atos"), _texto(a, "fonte", arquivo, f"{onde}.atos"))
        for a in bruto.get("atos", [])
    )
    if not atos:
        raise _erro(arquivo, onde, "cada ano transcrito nomeia seus atos e fontes")
    dias: dict[date, Dia] = {}
    for item in bruto.get("dias", []):
        dia = _dia(item, arquivo, f"{onde}.dias")
        if dia.data.year != ano:
            raise _erro(arquivo, onde, f"{dia.data} não é do ano {ano}")
        if dia.ambito != "nacional":
            raise _erro(
                arquivo, onde, f"{dia.data}: só datas nacionais (as demais: fora_do_nacional)"
            )
        if dia.data in dias:
            raise _erro(arquivo, onde, f"{dia.data} aparece duas vezes")
        dias[dia.data] = dia
    return AnoCalendario(ano, True, atos, dias)


def _dia(item: Any, arquivo: str, onde: str, tipo_padrao: str | None = None) -> Dia:
    if not isinstance(item, Mapping):
        raise _erro(arquivo, onde, "cada dia é uma tabela")
    desconhecidas = set(item) - {"data", "nome", "tipo", "ato", "ambito", "fonte"}
    if desconhecidas:
        raise _erro(arquivo, onde, f"chaves desconhecidas: {sorted(desconhecidas)}")
    data = item.get("data")
    if not isinstance(data, date):
        raise _erro(arquivo, onde, f"data inválida: {data!r}")
    tipo = item.get("tipo", tipo_padrao)
    if tipo not in TIPOS:
        raise _erro(arquivo, onde, f"{data}: tipo {tipo!r} (tipos: {', '.join(TIPOS)})")
    ambito = item.get("ambito", "nacional")
    if ambito not in AMBITOS:
        raise _erro(arquivo, onde, f"{data}: ambito {ambito!r} (âmbitos: {', '.join(AMBITOS)})")
    nome, ato = _texto(item, "nome", arquivo, onde), _texto(item, "ato", arquivo, onde)
    return Dia(data, nome, str(tipo), ato, str(ambito))


@dataclass(frozen=True, slots=True)
class Expediente:
    """The calendar a count uses: the federal calendar, the reading of
    ``interpretacao.calendario`` and the user's extra ``dias_sem_expediente``."""

    federal: CalendarioFederal
    leitura: Leitura = "expediente"
    extras: frozenset[date] = field(default_factory=frozenset)

    def sem_expediente(self, dia: date) -> str | None:
        """Why ``dia`` has no expediente at all (``None`` when it is counted as a business day)."""
        if dia.weekday() == 5:
            return "sábado"
        if dia.weekday() == 6:
            return "domingo"
        if dia in self.extras:
            return "dia sem expediente informado em dias_sem_expediente"
        registro = self.federal.dia(dia)
        if registro is None:
            return None
        if self.leitura == "feriados":
            return registro.nome if registro.tipo == "feriado" else None
        return registro.nome if registro.tipo in SEM_EXPEDIENTE else None

    def nao_termina(self, dia: date) -> str | None:
        """Why a deadline cannot end on ``dia``: no expediente, or an early closing (art. 66
        § 1º). ``feriados`` knows no partial days."""
        motivo = self.sem_expediente(dia)
        if motivo is not None or self.leitura == "feriados":
            return motivo
        registro = self.federal.dia(dia)
        if registro is not None and registro.tipo == "encerramento_antecipado":
            return f"{registro.nome}: expediente encerrado antes da hora normal"
        return None

    def calendarios(self, dias: Iterable[date]) -> list[AnoCalendario]:
        """The years' calendars that ``dias`` used, in order."""
        return [self.federal.ano(a) for a in sorted({d.year for d in dias})]

    def avisos(self, dias: Iterable[date]) -> list[str]:
        return [aviso_nao_transcrito(c.ano) for c in self.calendarios(dias) if not c.transcrito]

    def fechados(self, ano_inicio: int, ano_fim: int) -> list[date]:
        """Every weekday of ``ano_inicio..ano_fim`` on which no deadline ends (for the kernel)."""
        resultado: list[date] = []
        for ano in range(ano_inicio, ano_fim + 1):
            for dia in self.federal.ano(ano).dias:
                if dia.weekday() < 5 and self.nao_termina(dia) is not None:
                    resultado.append(dia)
        resultado.extend(
            d for d in self.extras if ano_inicio <= d.year <= ano_fim and d.weekday() < 5
        )
        return sorted(set(resultado))
