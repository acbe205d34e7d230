"""Spec § 6, "Counting": how each kind of deadline is counted and worded, the version of a
parameter in force on a date, and the pauses of the limitation periods (the court
suspensions). Shared by the reading of a processo, the ``anp`` deadlines and
:func:`multas.nucleo.ciclo.prazos.situacao`."""

from __future__ import annotations

from datetime import date, timedelta

from multas.nucleo.calendario import Expediente
from multas.nucleo.ciclo.processo import CALENDARIOS, NAO_TRANSCRITO, EventoDatado, Prazo, Processo
from multas.nucleo.datas import (
    data_com_dia_da_semana,
    dias_uteis_depois,
    formatar_data,
    prazo_em_dias,
    somar_anos,
)
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.legislacao import Legislacao, Vigencia
from multas.nucleo.rotulos import evento_citado, prazo_citado


def _dias_corridos(n: int) -> str:
    return "1 dia corrido" if n == 1 else f"{n} dias corridos"


def _anos(n: int) -> str:
    """A count of years, in words.

    >>> _anos(1), _anos(2), _anos(5)
    ('1 ano', '2 anos', '5 anos')
    """
    return "1 ano" if n == 1 else f"{n} anos"


def vigencia_em(legislacao: Legislacao, nome: str, dia: date) -> Vigencia:
    """The version in force on ``dia``; before the first one, the first (§ 6 derives every
    deadline whatever the date); in a gap, the last one before ``dia``."""
    parametro = legislacao.parametro(nome)
    vigente = parametro.em(dia)
    if vigente is not None:
        return vigente
    anteriores = [v for v in parametro.vigencias if v.inicio <= dia]
    return anteriores[-1] if anteriores else parametro.vigencias[0]


def comprovacoes_parciais(legislacao: Legislacao, ano: int) -> tuple[Vigencia, list[date]]:
    """The partial checks of a distributor's second year ``ano`` (art. 4º-A; spec § 3.7 W5):
    the version in force at the year's end, and the dates on which a version of the provision
    is in force, so none before the decree that created them (the start date is data:
    ``ciclo.comprovacoes_parciais``). One rule for the ledger and the processos' information."""
    parametro = legislacao.parametro("ciclo.comprovacoes_parciais")
    vigencia = vigencia_em(legislacao, "ciclo.comprovacoes_parciais", date(ano, 12, 31))
    datas = [date.fromisoformat(f"{ano:04d}-{mes_dia}") for mes_dia in vigencia.valor]
    return vigencia, [d for d in datas if parametro.em(d) is not None]


def fundamento(vigencia: Vigencia) -> str:
    """The exact provision, with its wording; "(texto não transcrito)" when the sources do
    not show its text."""
    if vigencia.texto is None:
        if vigencia.nota_da_data:  # one parenthesis: "(data não conferida; texto não ...)"
            return f"{vigencia.fundamento[:-1]}; {NAO_TRANSCRITO})"
        return f"{vigencia.fundamento} ({NAO_TRANSCRITO})"
    return vigencia.fundamento


def _calendarios(expediente: Expediente, *dias: date) -> str:
    """``calendário "expediente": ...; calendário federal de 2025 (Portaria ...)``."""
    leitura = expediente.leitura
    usados = "; ".join(c.descricao for c in expediente.calendarios(dias))
    return f'calendário "{leitura}": {CALENDARIOS[leitura]}; {usados}'


def _contagem_dias(
    dias: int,
    inicio: date,
    rotulo: str,
    nominal: date,
    vencimento: date,
    pulados: list[tuple[date, str]],
    expediente: Expediente,
) -> str:
    texto = (
        f"{dias} dias corridos contados de {formatar_data(inicio)} ({rotulo}), excluído o dia "
        f"do começo e incluído o do vencimento (Lei nº 9.784/1999, art. 66): {data_com_dia_da_semana(nominal)}"
    )
    calendarios = _calendarios(expediente, nominal, vencimento)
    if not pulados:
        return f"{texto}, dia útil ({calendarios})"
    sem_expediente = ", ".join(f"{formatar_data(d)} ({motivo})" for d, motivo in pulados)
    return (
        f"{texto}; sem expediente em {sem_expediente}: prorrogado para o primeiro dia útil "
        f"seguinte, {data_com_dia_da_semana(vencimento)} (art. 66, § 1º; {calendarios})"
    )


def _contagem_dias_uteis(
    n: int,
    inicio: date,
    rotulo: str,
    contados: list[date],
    pulados: list[tuple[date, str]],
    fim: date,
    expediente: Expediente,
) -> str:
    dias = ", ".join(formatar_data(d) for d in contados)
    texto = (
        f"{n}º dia útil depois de {formatar_data(inicio)} ({rotulo}), excluído o dia do "
        f"evento ({_calendarios(expediente, inicio, fim)}): dias úteis contados {dias}"
    )
    if pulados:
        sem = ", ".join(f"{formatar_data(d)} ({motivo})" for d, motivo in pulados)
        texto += f"; sem expediente, não contados ou sem término de prazo: {sem}"
    return f"{texto}; o prazo termina em {data_com_dia_da_semana(fim)}"


def _contagem_anos(n: int, inicio: date, de_onde: str, nominal: date) -> str:
    texto = f"{n} anos contados de {formatar_data(inicio)} ({de_onde}): "
    if (inicio.month, inicio.day) == (2, 29) and (nominal.month, nominal.day) == (3, 1):
        texto += (
            f"29/02 não existe em {nominal.year}, então o dia seguinte, "
            f"{data_com_dia_da_semana(nominal)} (Lei nº 810/1949, art. 3º)"
        )
    else:
        texto += f"o mesmo dia e mês, {data_com_dia_da_semana(nominal)}"
    return f"{texto}; não é prorrogado para dia útil (prazo de prescrição, não prazo da parte)"


class _ForaDoCalendario(Exception):
    """A deadline past 31/12/9999."""


#: a pause of the limitation periods: [início, fim), in dates
Pausa = tuple[date, date]


def _prazo_em_dias(
    processo: Processo, legislacao: Legislacao, nome: str, parametro: str, origem: EventoDatado
) -> Prazo:
    vigencia = vigencia_em(legislacao, parametro, origem.data)
    expediente = processo.expediente(legislacao)
    try:
        nominal, vencimento, pulados = prazo_em_dias(origem.data, vigencia.inteiro, expediente)
    except (OverflowError, ValueError):
        raise _ForaDoCalendario(nome, origem.nome) from None
    rotulo = processo.tipo.eventos[origem.nome].rotulo
    return Prazo(
        nome,
        vencimento,
        fundamento(vigencia),
        _contagem_dias(
            vigencia.inteiro,
            origem.data,
            rotulo,
            nominal,
            vencimento,
            pulados,
            expediente,
        ),
        origem.nome,
        vigencia.texto,
    )


def _somar_anos(inicio: date, anos: int, nome: str, origem: str) -> date:
    try:
        return somar_anos(inicio, anos)
    except (OverflowError, ValueError):
        raise _ForaDoCalendario(nome, origem) from None


def suspensao_em_vigor(processo: Processo, dia: date) -> bool:
    """A court suspension is in force on ``dia``: the last suspension event on or before it
    is ``suspensao_judicial`` (spec § 6 v3)."""
    return inicio_da_suspensao(processo, dia) is not None


def inicio_da_suspensao(processo: Processo, dia: date) -> date | None:
    """The date of the court suspension in force on ``dia`` (the last suspension event on or
    before it is ``suspensao_judicial``); ``None`` when none is."""
    ultimo: EventoDatado | None = None
    for evento in processo.eventos:
        if evento.data > dia:
            break
        if processo.tipo.eventos[evento.nome].suspensao:
            ultimo = evento
    return ultimo.data if ultimo and ultimo.nome == "suspensao_judicial" else None


def _suspensoes(processo: Processo, referencia: date) -> list[Pausa]:
    """The court suspensions, [start, end); one still open lasts up to ``referencia``."""
    pausas: list[Pausa] = []
    aberta: date | None = None
    for evento in processo.eventos:
        if evento.nome == "suspensao_judicial":
            aberta = evento.data
        elif evento.nome == "fim_suspensao_judicial" and aberta is not None:
            pausas.append((aberta, evento.data))
            aberta = None
    if aberta is not None and referencia >= aberta:
        fim = date.max if referencia == date.max else referencia + timedelta(days=1)
        pausas.append((aberta, fim))
    return pausas


def _fim_com_pausas(inicio: date, nominal: date, pausas: list[Pausa]) -> date:
    """The end of a period from ``inicio`` whose nominal end is ``nominal`` when it does not
    run on paused days: the day on which as many unpaused days have passed after ``inicio``
    as there are days from ``inicio`` to ``nominal``. It is the least date F with F = nominal
    + the paused days in (inicio, F] (spec § 6 v3), found by walking the merged pauses once.
    Past 31/12/9999: 31/12/9999."""
    unidas: list[tuple[int, int]] = []
    for a, b in sorted((a.toordinal(), b.toordinal()) for a, b in pausas):
        if unidas and a <= unidas[-1][1]:
            unidas[-1] = (unidas[-1][0], max(unidas[-1][1], b))
        else:
            unidas.append((a, b))
    ultimo, restantes = inicio.toordinal(), (nominal - inicio).days
    for a, b in unidas:
        a = max(a, inicio.toordinal() + 1)
        if b <= a:
            continue
        livres = a - 1 - ultimo  # unpaused days before this pause
        if restantes <= livres:
            break
        restantes -= max(livres, 0)
        ultimo = max(ultimo, b - 1)
    fim = ultimo + restantes
    return date.max if fim > date.max.toordinal() else date.fromordinal(fim)


def _prazo_pagamento(processo: Processo, legislacao: Legislacao) -> Prazo | None:
    """30 days from the ciência of the definitive decision or, without it, from the waiver of
    the appeal (the decision became definitive then: Lei nº 9.847/1999 art. 4º § 3º)."""
    origem = processo.evento("ciencia_decisao_definitiva") or processo.evento("renuncia_recurso")
    if origem is None:
        return None
    return _prazo_em_dias(processo, legislacao, "pagamento", "ciclo.pagamento", origem)


def _prazo_dias_uteis(
    processo: Processo, legislacao: Legislacao, parametro: str, origem: EventoDatado
) -> Prazo:
    vigencia = vigencia_em(legislacao, parametro, origem.data)
    expediente = processo.expediente(legislacao)
    try:
        fim, contados, pulados = dias_uteis_depois(origem.data, vigencia.inteiro, expediente)
    except (OverflowError, ValueError):
        raise _ForaDoCalendario("retirada_lista", origem.nome) from None
    return Prazo(
        "retirada_lista",
        fim,
        fundamento(vigencia),
        _contagem_dias_uteis(
            vigencia.inteiro,
            origem.data,
            processo.tipo.eventos[origem.nome].rotulo,
            contados,
            pulados,
            fim,
            expediente,
        ),
        origem.nome,
        vigencia.texto,
    )


def _fora_do_calendario(processo: Processo, erro: _ForaDoCalendario) -> EntradaInvalida:
    nome_prazo, origem = erro.args
    i = processo.indice(origem)
    return EntradaInvalida(
        f"eventos[{i}].data",
        f"data fora do intervalo calculável: o prazo {prazo_citado(nome_prazo)}, contado do evento "
        f"{evento_citado(origem)}, passaria de 31/12/9999",
    )
