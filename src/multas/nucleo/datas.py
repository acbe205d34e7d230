"""Dates: strict ISO parsing, "mês ou fração", business days and prazos (spec § 1).

Business days follow the federal government's calendar of each year
(:mod:`multas.nucleo.calendario`, data in ``legislacao/parametros/calendario.toml``).
"""

from __future__ import annotations

import re
from calendar import monthrange
from datetime import MAXYEAR, MINYEAR, date, timedelta
from functools import cache
from typing import TYPE_CHECKING

from multas.nucleo.calendario import Expediente as Expediente
from multas.nucleo.calendario import Leitura
from multas.nucleo.erros import EntradaInvalida, mostrar_valor

if TYPE_CHECKING:
    from zoneinfo import ZoneInfo

Calendario = Leitura

_ISO = re.compile(r"^\d{4}-\d{2}-\d{2}$", re.ASCII)
#: a date as people type it: ``15/03/2025`` (``5/3/2025`` too), ``15032025`` or ISO
_DIGITADA = re.compile(
    r"(?P<dia>\d{1,2})/(?P<mes>\d{1,2})/(?P<ano>\d{4})"
    r"|(?P<dia8>\d{2})(?P<mes8>\d{2})(?P<ano8>\d{4})"
    r"|(?P<anoi>\d{4})-(?P<mesi>\d{2})-(?P<diai>\d{2})",
    re.ASCII,
)
#: the formats :func:`data_digitada` accepts, as its messages name them
FORMATOS_DIGITADOS = "dd/mm/aaaa, ddmmaaaa ou aaaa-mm-dd"
#: the years a typed date may have (docs/servidor.md#datas). Eight digits are always day, month
#: and year, so a date typed as ``aaaammdd`` (``20250315``, ``19991231``) reads as a year of at
#: most 1231: a year before 1900 is refused as that typing mistake (the message says how to type
#: the date meant) rather than read as a silent wrong date. The top is the calendar's own last
#: year: the deadlines are computed up to 31/12/9999 (issue 15, item 8). Files and JSON
#: (:func:`para_data`) keep every ISO year.
ANO_DIGITADO_MINIMO = 1900
ANO_DIGITADO_MAXIMO = 9999
_PTBR_ARQUIVO = re.compile(r"^(\d{2})/(\d{2})/(\d{4})$", re.ASCII)


def para_data(valor: object, campo: str) -> date:
    """Parse an ISO ``YYYY-MM-DD`` date; anything else, or an impossible date, is an error.

    >>> para_data("2025-12-31", "data_quitacao")
    datetime.date(2025, 12, 31)
    """
    if isinstance(valor, date):
        return valor
    if not isinstance(valor, str) or not _ISO.match(valor.strip()):
        raise EntradaInvalida(
            campo, f"data inválida: {mostrar_valor(valor)} (use o formato AAAA-MM-DD)"
        )
    try:
        return date.fromisoformat(valor.strip())
    except ValueError:
        raise EntradaInvalida(campo, f"data inexistente: {mostrar_valor(valor)}") from None


def data_digitada(texto: object, campo: str) -> date:
    """A date typed by a person (page forms, query filters, command-line options):
    ``dd/mm/aaaa`` (or ``d/m/aaaa``), ``ddmmaaaa`` (eight digits are always day, month and
    year) or ISO ``aaaa-mm-dd``, with blanks around it ignored. Anything else, or a date that
    does not exist, is an error naming ``campo``. JSON bodies, case files and batch cells keep
    :func:`para_data` (ISO only).

    >>> data_digitada("15/03/2025", "data"), data_digitada("15032025", "data")
    (datetime.date(2025, 3, 15), datetime.date(2025, 3, 15))
    >>> data_digitada(" 2025-03-15 ", "data"), data_digitada("5/3/2025", "data")
    (datetime.date(2025, 3, 15), datetime.date(2025, 3, 5))
    """
    if isinstance(texto, date):
        return texto
    if not isinstance(texto, str):
        raise EntradaInvalida(campo, f"data inválida (use {FORMATOS_DIGITADOS})")
    mostrado = mostrar_valor(texto)
    casamento = _DIGITADA.fullmatch(texto.strip())
    if casamento is None:
        raise EntradaInvalida(campo, f"data inválida: {mostrado} (use {FORMATOS_DIGITADOS})")
    g = casamento.groupdict()
    dia, mes, ano = next(
        (g[f"dia{s}"], g[f"mes{s}"], g[f"ano{s}"]) for s in ("", "8", "i") if g[f"dia{s}"]
    )
    dica = ""
    if g["dia8"] and _aaaammdd(casamento.group(0)) is not None:
        dica = f"; oito dígitos são sempre ddmmaaaa: para {_aaaammdd(casamento.group(0))} digite "
        dica += casamento.group(0)[6:] + casamento.group(0)[4:6] + casamento.group(0)[:4]
    if not ANO_DIGITADO_MINIMO <= int(ano) <= ANO_DIGITADO_MAXIMO:
        raise EntradaInvalida(
            campo,
            f"ano fora do intervalo aceito: {mostrado} (dia {int(dia)}, mês {int(mes)}, "
            f"ano {ano}); o ano de uma data digitada vai de {ANO_DIGITADO_MINIMO} a "
            f"{ANO_DIGITADO_MAXIMO}{dica}",
        )
    try:
        return date(int(ano), int(mes), int(dia))
    except ValueError:
        raise EntradaInvalida(
            campo,
            f"data inexistente: {mostrado} (dia {int(dia)}, mês {int(mes)}, ano {ano}){dica}",
        ) from None


def _aaaammdd(oito: str) -> str | None:
    """``20250315`` read as ``aaaammdd`` (``15/03/2025``), when that is a date with a year
    :func:`data_digitada` accepts: the hint of its message; ``None`` otherwise."""
    ano, mes, dia = int(oito[:4]), int(oito[4:6]), int(oito[6:])
    if not ANO_DIGITADO_MINIMO <= ano <= ANO_DIGITADO_MAXIMO:
        return None
    try:
        return formatar_data(date(ano, mes, dia))
    except ValueError:
        return None


def data_de_arquivo_ptbr(valor: object, campo: str) -> date:
    """A date cell of a file read with ``--ptbr`` (``ptbr=true``): exactly what an export in
    pt-BR writes (:meth:`multas.saidas.exportacao.Notacao.data`, ``dd/mm/aaaa``, every year it can
    write), or ISO as in any file. Not the typed forms (``ddmmaaaa``, ``d/m/aaaa``): a file's
    ``20250315`` is never guessed.

    >>> data_de_arquivo_ptbr("31/12/2025", "data"), data_de_arquivo_ptbr("2025-12-31", "data")
    (datetime.date(2025, 12, 31), datetime.date(2025, 12, 31))
    """
    if isinstance(valor, str) and (partes := _PTBR_ARQUIVO.match(valor.strip())):
        dia, mes, ano = (int(p) for p in partes.groups())
        try:
            return date(ano, mes, dia)
        except ValueError:
            raise EntradaInvalida(
                campo,
                f"data inexistente: {mostrar_valor(valor.strip())} (dia {dia}, mês {mes}, "
                f"ano {ano:04d})",
            ) from None
    if isinstance(valor, str) and _ISO.match(valor.strip()):
        return para_data(valor, campo)
    if isinstance(valor, date):
        return valor
    raise EntradaInvalida(
        campo, f"data inválida: {mostrar_valor(valor)} (use dd/mm/aaaa ou AAAA-MM-DD)"
    )


def somar_meses(inicio: date, meses: int) -> date:
    """``inicio`` + ``meses`` months, computed from ``inicio`` itself and clamped to the end of
    the month (spec § 1).

    >>> somar_meses(date(2025, 12, 31), 2)
    datetime.date(2026, 2, 28)
    >>> somar_meses(date(2025, 12, 31), 11)
    datetime.date(2026, 11, 30)
    """
    total = inicio.month - 1 + meses
    ano, mes = inicio.year + total // 12, total % 12 + 1
    if not MINYEAR <= ano <= MAXYEAR:
        raise ValueError(f"year {ano} is out of range")
    return date(ano, mes, min(inicio.day, monthrange(ano, mes)[1]))


def meses_ou_fracao(inicio: date, fim: date) -> int:
    """Months "ou fração" from ``inicio`` to ``fim``: 0 if ``fim <= inicio``, otherwise the
    smallest k >= 1 with ``inicio + k meses >= fim`` (spec § 1).

    >>> meses_ou_fracao(date(2025, 12, 31), date(2026, 3, 15))
    3
    >>> meses_ou_fracao(date(2025, 12, 31), date(2026, 11, 30))
    11
    >>> meses_ou_fracao(date(2025, 12, 31), date(2026, 12, 1))
    12
    """
    if fim <= inicio:
        return 0
    # a lower bound: whole calendar months between the two dates, minus one
    k = max(1, (fim.year - inicio.year) * 12 + (fim.month - inicio.month) - 1)
    while True:
        try:
            if somar_meses(inicio, k) >= fim:
                break
        except ValueError:  # past 31/12/9999, so past ``fim`` too
            break
        k += 1
    return k


def meses_completos(inicio: date, fim: date) -> int:
    """Whole months from ``inicio`` to ``fim``: the largest k >= 0 with ``inicio + k meses <=
    fim`` (0 if ``fim <= inicio``), months added as in :func:`somar_meses`.

    >>> meses_completos(date(2025, 12, 31), date(2026, 3, 15))
    2
    >>> meses_completos(date(2025, 12, 31), date(2026, 2, 28))  # 31/12 + 2 meses = 28/02
    2
    >>> meses_completos(date(2025, 12, 31), date(2026, 1, 30))
    0
    """
    if fim <= inicio:
        return 0
    k = meses_ou_fracao(inicio, fim)
    return k if somar_meses(inicio, k) <= fim else k - 1


def motivo_sem_expediente(dia: date, calendario: Expediente) -> str | None:
    """Why ``dia`` is not a business day (``None`` if it is one), on the federal calendar
    (:mod:`multas.nucleo.calendario`).

    >>> from multas.nucleo.legislacao import carregar
    >>> EXPEDIENTE = Expediente(carregar().calendario, "expediente")
    >>> motivo_sem_expediente(date(2025, 3, 4), EXPEDIENTE)
    'Carnaval'
    >>> motivo_sem_expediente(date(2025, 3, 4), Expediente(carregar().calendario, "feriados")) is None
    True
    >>> motivo_sem_expediente(date(2025, 3, 5), EXPEDIENTE) is None  # até as 14 horas
    True
    """
    return calendario.sem_expediente(dia)


def dia_util(dia: date, calendario: Expediente) -> bool:
    return motivo_sem_expediente(dia, calendario) is None


def prazo_em_dias(
    ciencia: date, dias: int, calendario: Expediente
) -> tuple[date, date, list[tuple[date, str]]]:
    """A prazo of ``dias`` days counted from the notice (Lei 9.784/1999 art. 66).

    The first day is excluded and the last included; a last day without expediente, or whose
    expediente ends early, moves to the next business day (§ 1º). Returns the nominal end, the
    due date and the days skipped with their reason.

    >>> from multas.nucleo.legislacao import carregar
    >>> EXPEDIENTE = Expediente(carregar().calendario)
    >>> prazo_em_dias(date(2024, 3, 29), 30, EXPEDIENTE)[1]
    datetime.date(2024, 4, 29)
    >>> prazo_em_dias(date(2025, 2, 2), 30, EXPEDIENTE)[1]  # 04/03 Carnaval; 05/03 até 14h
    datetime.date(2025, 3, 5)
    >>> prazo_em_dias(date(2025, 12, 1), 30, EXPEDIENTE)[1]  # 31/12 encerra às 13h
    datetime.date(2026, 1, 2)
    """
    expediente = calendario
    nominal = ciencia + timedelta(days=dias)
    vencimento = nominal
    pulados: list[tuple[date, str]] = []
    while (motivo := expediente.nao_termina(vencimento)) is not None:
        pulados.append((vencimento, motivo))
        vencimento += timedelta(days=1)
    return nominal, vencimento, pulados


def dias_uteis_depois(
    inicio: date, dias_uteis: int, calendario: Expediente
) -> tuple[date, list[date], list[tuple[date, str]]]:
    """The ``dias_uteis``-th business day after ``inicio``, ``inicio`` itself excluded
    (spec § 6: "N business days"; Decreto 9.888/2019 art. 6º-A § 7º and art. 9º-A § 3º).

    A day whose expediente ends early is counted, but the count does not end on it: it then
    ends on the next business day (Lei 9.784/1999 art. 66 § 1º).

    Returns that day, the business days counted (in order) and the days skipped with their
    reason.

    >>> from multas.nucleo.legislacao import carregar
    >>> EXPEDIENTE = Expediente(carregar().calendario)
    >>> dia, contados, pulados = dias_uteis_depois(date(2025, 4, 14), 5, EXPEDIENTE)
    >>> dia  # 18/04/2025 Sexta-feira Santa, 19-20 a weekend, 21/04 Tiradentes
    datetime.date(2025, 4, 23)
    >>> [d.day for d in contados], [d.day for d, _ in pulados]
    ([15, 16, 17, 22, 23], [18, 19, 20, 21])
    """
    if dias_uteis < 1:
        raise ValueError("dias_uteis deve ser ≥ 1")
    expediente = calendario
    contados: list[date] = []
    pulados: list[tuple[date, str]] = []
    dia = inicio
    while len(contados) < dias_uteis:
        dia += timedelta(days=1)
        motivo = expediente.sem_expediente(dia)
        if motivo is None:
            contados.append(dia)
        else:
            pulados.append((dia, motivo))
    while (motivo := expediente.nao_termina(dia)) is not None:
        pulados.append((dia, motivo))
        dia += timedelta(days=1)
    return dia, contados, pulados


def somar_anos(inicio: date, anos: int) -> date:
    """The same day and month ``anos`` years later; a 29/02 with no match ends on the next
    day, 01/03 (Lei nº 810/1949, art. 3º; Código Civil, art. 132, § 3º: spec § 6, "N years").

    >>> somar_anos(date(2024, 2, 29), 5)
    datetime.date(2029, 3, 1)
    >>> somar_anos(date(2024, 2, 29), 4)
    datetime.date(2028, 2, 29)
    """
    try:
        return inicio.replace(year=inicio.year + anos)
    except ValueError:
        if inicio.month == 2 and inicio.day == 29:
            return date(inicio.year + anos, 3, 1)
        raise


def formatar_data(dia: date) -> str:
    """pt-BR date: ``31/12/2025``; always four digits of year (``strftime("%Y")`` gives
    ``1`` for the year 1 on Linux).

    >>> formatar_data(date(2025, 12, 31)), formatar_data(date(1, 1, 2))
    ('31/12/2025', '02/01/0001')
    """
    return f"{dia.day:02d}/{dia.month:02d}/{dia.year:04d}"


def formatar_mes(mes: str | None) -> str:
    """pt-BR month for people: ``"2024-01"`` (the contract's ``AAAA-MM``) → ``01/2024``, as
    a month is typed in the forms; anything else (``None``: "—") as it is.

    >>> formatar_mes("2024-01"), formatar_mes(None), formatar_mes("janeiro")
    ('01/2024', '—', 'janeiro')
    """
    if mes is None:
        return "—"
    casamento = re.fullmatch(r"(\d{4})-(\d{2})", mes, re.ASCII)
    return f"{casamento.group(2)}/{casamento.group(1)}" if casamento else mes


DIAS_DA_SEMANA = (
    "segunda-feira",
    "terça-feira",
    "quarta-feira",
    "quinta-feira",
    "sexta-feira",
    "sábado",
    "domingo",
)


def data_com_dia_da_semana(dia: date) -> str:
    """pt-BR date with its weekday: ``28/04/2024 (domingo)``.

    >>> data_com_dia_da_semana(date(2024, 4, 28))
    '28/04/2024 (domingo)'
    """
    return f"{formatar_data(dia)} ({DIAS_DA_SEMANA[dia.weekday()]})"


@cache
def fuso_brasilia() -> ZoneInfo:
    """Brasília's time zone: "today" is the date there (the clock itself is
    :mod:`multas.servicos.relogio`, outside the core). ``zoneinfo`` is loaded only here, so a
    command that needs no time zone (``multas regimes``) does not pay for it."""
    from zoneinfo import ZoneInfo

    return ZoneInfo("America/Sao_Paulo")
