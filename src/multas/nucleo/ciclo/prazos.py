"""Spec § 6: a processo (a list of dated events) in, its estado and deadlines out.

``calcular_prazos`` is the one function the CLI (``multas prazos calcular``), the API
(``POST /api/v1/prazos``), the stored processes, the lists, the calendar and the page all
call. It is pure: the same processo always gives the same answer, whatever today is.

How each kind of deadline is counted (§ 6, "Counting"):

- *N days* (``recurso``, ``pagamento``): calendar days from the event, the first day excluded
  and the last included, moved to the next business day when the last day is not one
  (Lei 9.784/1999 art. 66; spec § 1) — :func:`multas.nucleo.datas.prazo_em_dias`;
- *N business days* (``retirada_lista``): the Nth business day after the event, its day
  excluded — :func:`multas.nucleo.datas.dias_uteis_depois`;
- *N months* (``limite_reducao``): the event + N months, clamped to the month's end, not
  moved — :func:`multas.nucleo.datas.somar_meses`;
- *N years* (``prescricao``, ``prescricao_cobranca``): the same day and month N years later,
  29/02 → 28/02, not moved — :func:`multas.nucleo.datas.somar_anos`.

The business-day calendar is ``interpretacao.calendario`` (spec § 1): ``expediente`` (the
default: public holidays and federal pontos facultativos) or ``feriados``.

Readings where § 6 is silent (also in ``docs/ciclo.md``):

- ``eventos[i]`` is 0-based, as every other list field of the contract (``cotacoes_diarias[0]``).
- A problem with an event's date (invalid, backwards, not later than a date or a deadline it
  must follow) names ``eventos[i].data``; every other problem with an event names
  ``eventos[i].evento`` (or the unknown key). The first problem in list order is reported.
- ``id`` may be a text or an integer, ``cnpj`` and ``nome`` texts; each is echoed exactly as
  given; ``null`` is the same as absent. The CNPJ is not checked: the processo may come from a
  system that stores it in any layout.
- Among events on the same date as the latest interruption of the prescrição, the later one
  in the list is named as the interruption (the date, and so the deadline, is the same).
- A deadline that would fall after 31/12/9999 is an input error on the date it counts from.
- The avisos are exactly those of § 6, in the order of the events that raise them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from decimal import Decimal
from fractions import Fraction
from typing import Any

from multas.nucleo.calendario import Expediente
from multas.nucleo.contrato import Campo, ler_datas, ler_valor
from multas.nucleo.datas import (
    Calendario,
    data_com_dia_da_semana,
    dias_uteis_depois,
    formatar_data,
    para_data,
    prazo_em_dias,
    somar_anos,
    somar_meses,
)
from multas.nucleo.dinheiro import arredondar, formatar_percentual, para_json, por_mes
from multas.nucleo.erros import EntradaInvalida, mostrar_valor
from multas.nucleo.eventos import (
    CUMPRIDO_POR,
    PENDENTES,
    RESPONSAVEIS,
    TIPOS,
    Evento,
    Tipo,
)
from multas.nucleo.legislacao import Legislacao, Vigencia, carregar
from multas.nucleo.rotulos import evento_citado, prazo_citado

CAMPOS_PROCESSO = (
    "tipo",
    "eventos",
    "interpretacao",
    "dias_sem_expediente",
    "data_referencia",
    "valor_multa",
    "id",
    "referencia",
    "cnpj",
    "nome",
)
CAMPOS_EVENTO = ("evento", "data")
CALENDARIOS: dict[str, str] = {
    "expediente": "sem expediente nos feriados e pontos facultativos do calendário federal; "
    "nenhum prazo termina em dia de expediente encerrado antes da hora normal",
    "feriados": "só os feriados nacionais",
}
NAO_TRANSCRITO = "texto não transcrito"


@dataclass(frozen=True, slots=True)
class EventoDatado:
    nome: str
    data: date


@dataclass(frozen=True, slots=True)
class Processo:
    """A validated processo."""

    tipo: Tipo
    eventos: tuple[EventoDatado, ...]
    calendario: Calendario
    #: ``id``, ``cnpj``, ``nome`` as given (only those given)
    identificacao: dict[str, Any] = field(default_factory=dict)
    #: extra days without expediente (spec § 1)
    dias_sem_expediente: frozenset[date] = frozenset()
    #: the date the situation is judged on (spec § 6 v3); ``None``: today in Brasília
    data_referencia: date | None = None
    #: the fine fixed by the decision (``anp`` only)
    valor_multa: Decimal | None = None

    def expediente(self, legislacao: Legislacao) -> Expediente:
        """The calendar this processo's deadlines use (spec § 1)."""
        return Expediente(legislacao.calendario, self.calendario, self.dias_sem_expediente)

    def evento(self, nome: str) -> EventoDatado | None:
        return next((e for e in self.eventos if e.nome == nome), None)

    def indice(self, nome: str) -> int:
        return next(i for i, e in enumerate(self.eventos) if e.nome == nome)

    @property
    def principais(self) -> tuple[EventoDatado, ...]:
        """The events that are not court suspensions (they alone set the estado)."""
        return tuple(e for e in self.eventos if not self.tipo.eventos[e.nome].suspensao)

    def como_dict(self) -> dict[str, Any]:
        """The processo as JSON (the input contract), defaults written out."""
        dados: dict[str, Any] = {
            **self.identificacao,
            "tipo": self.tipo.nome,
            "eventos": [{"evento": e.nome, "data": e.data.isoformat()} for e in self.eventos],
            "interpretacao": {"calendario": self.calendario},
        }
        if self.dias_sem_expediente:
            dados["dias_sem_expediente"] = [d.isoformat() for d in sorted(self.dias_sem_expediente)]
        if self.data_referencia is not None:
            dados["data_referencia"] = self.data_referencia.isoformat()
        if self.valor_multa is not None:
            dados["valor_multa"] = str(self.valor_multa)
        return dados


@dataclass(frozen=True, slots=True)
class Prazo:
    nome: str
    data: date
    fundamento: str
    contagem: str
    #: the event it counts from
    origem: str
    #: the provision's text, where transcribed (for the page, the calendar, the docs)
    texto: str | None = None
    #: spec § 6 v3: ``cumprido``, ``cumprido_com_atraso``, ``encerrado``, ``suspenso``,
    #: ``vencido`` or ``em_aberto`` on the processo's ``data_referencia``
    situacao: str = "em_aberto"

    @property
    def responsavel(self) -> str:
        return RESPONSAVEIS[self.nome]

    @property
    def pendente(self) -> bool:
        """Still asks something of someone (not met, not closed)."""
        return self.situacao in PENDENTES

    def como_dict(self) -> dict[str, str]:
        return {
            "prazo": self.nome,
            "data": self.data.isoformat(),
            "fundamento": self.fundamento,
            "contagem": self.contagem,
            "responsavel": self.responsavel,
            "situacao": self.situacao,
        }


@dataclass(frozen=True, slots=True)
class Situacao:
    """What § 6 derives from a processo."""

    processo: Processo
    estado: str
    prazos: tuple[Prazo, ...]
    avisos: tuple[str, ...]
    data_referencia: date = date.min
    valor_com_desconto: Decimal | None = None

    @property
    def estado_rotulo(self) -> str:
        if self.estado == "prescrito":
            return "prescrito"
        if self.estado == "suspenso":
            return "suspenso por ordem judicial"
        return self.processo.tipo.eventos[self.processo.principais[-1].nome].estado_rotulo

    def como_dict(self) -> dict[str, Any]:
        """The output of § 6: ``{id?, cnpj?, nome?, tipo, estado, data_referencia, prazos,
        avisos}`` and ``valor_com_desconto`` where § 6 says so."""
        dados: dict[str, Any] = {
            **self.processo.identificacao,
            "tipo": self.processo.tipo.nome,
            "estado": self.estado,
            "data_referencia": self.data_referencia.isoformat(),
            "prazos": [p.como_dict() for p in self.prazos],
            "avisos": list(self.avisos),
        }
        if self.valor_com_desconto is not None:
            dados["valor_com_desconto"] = para_json(self.valor_com_desconto)
        return dados


# --- reading and validating ---------------------------------------------------------------


def _dias_corridos(n: int) -> str:
    return "1 dia corrido" if n == 1 else f"{n} dias corridos"


def _anos(n: int) -> str:
    """A count of years, in words.

    >>> _anos(1), _anos(2), _anos(5)
    ('1 ano', '2 anos', '5 anos')
    """
    return "1 ano" if n == 1 else f"{n} anos"


def _tipo(bruto: object) -> Tipo:
    if bruto is None:
        raise EntradaInvalida("tipo", "campo obrigatório")
    if not isinstance(bruto, str) or bruto not in TIPOS:
        raise EntradaInvalida(
            "tipo",
            f"tipo de processo desconhecido: {mostrar_valor(bruto)} (tipos: {', '.join(TIPOS)})",
        )
    return TIPOS[bruto]


def _calendario(bruto: object) -> Calendario:
    if bruto is None:
        return "expediente"
    if not isinstance(bruto, Mapping):
        raise EntradaInvalida(
            "interpretacao", 'deve ser um objeto, ex.: {"calendario": "feriados"}'
        )
    escolhido: Calendario = "expediente"
    for chave, opcao in bruto.items():
        if chave != "calendario":
            raise EntradaInvalida(
                f"interpretacao.{chave}",
                "leitura desconhecida para um processo (aceita: calendario)",
            )
        if opcao == "feriados":
            escolhido = "feriados"
        elif opcao != "expediente":
            raise EntradaInvalida(
                "interpretacao.calendario",
                f"opção inválida: {mostrar_valor(opcao)} (opções: {', '.join(CALENDARIOS)})",
            )
    return escolhido


def _identificacao(dados: Mapping[str, Any]) -> dict[str, Any]:
    """``id``, ``cnpj`` and ``nome``, echoed as given. ``referencia`` (the ANP's process
    number, the name a case and the import give it, issue 19) is the same field as ``id``: one
    of the two, stored and echoed as ``id``."""
    if dados.get("referencia") is not None and dados.get("id") is not None:
        raise EntradaInvalida(
            "referencia", "informe só um: referencia ou id (o mesmo campo, dois nomes)"
        )
    ids: dict[str, Any] = {}
    for chave in ("id", "referencia", "cnpj", "nome"):
        valor = dados.get(chave)
        if valor is None:
            continue
        como_id = chave in ("id", "referencia")
        inteiro_aceito = como_id and isinstance(valor, int) and not isinstance(valor, bool)
        if not isinstance(valor, str) and not inteiro_aceito:
            tipo = "um texto ou um número inteiro" if como_id else "um texto"
            raise EntradaInvalida(chave, f"deve ser {tipo}, não {mostrar_valor(valor)}")
        ids["id" if como_id else chave] = valor
    return {chave: ids[chave] for chave in ("id", "cnpj", "nome") if chave in ids}


def _ler_evento(tipo: Tipo, bruto: object, i: int) -> EventoDatado:
    onde = f"eventos[{i}]"
    if not isinstance(bruto, Mapping):
        raise EntradaInvalida(onde, 'cada evento deve ser um objeto {"evento": ..., "data": ...}')
    for chave in bruto:
        if chave not in CAMPOS_EVENTO:
            raise EntradaInvalida(
                f"{onde}.{chave}",
                f'campo desconhecido: um evento é exatamente {{"evento", "data"}} ({mostrar_valor(chave)})',
            )
    nome = bruto.get("evento")
    if nome is None:
        raise EntradaInvalida(f"{onde}.evento", "campo obrigatório: o nome do evento")
    if not isinstance(nome, str) or nome not in tipo.eventos:
        raise EntradaInvalida(
            f"{onde}.evento",
            f"evento desconhecido para um processo {mostrar_valor(tipo.nome)}: {mostrar_valor(nome)} "
            f"(eventos: {', '.join(tipo.eventos)})",
        )
    if bruto.get("data") is None:
        raise EntradaInvalida(
            f"{onde}.data", f"campo obrigatório: a data do evento {evento_citado(nome)}"
        )
    try:
        dia = para_data(bruto["data"], f"{onde}.data")
    except EntradaInvalida as erro:
        raise EntradaInvalida(
            erro.campo, f"{erro.mensagem}, no evento {evento_citado(nome)}"
        ) from None
    return EventoDatado(nome, dia)


def _conferir_suspensao(
    anteriores: list[EventoDatado], atual: EventoDatado, campo_evento: str
) -> None:
    """Court suspensions: after the first event, alternating, starting with a suspension."""
    if not anteriores:
        raise EntradaInvalida(
            campo_evento,
            f"o evento {evento_citado(atual.nome)} não pode ser o primeiro do processo",
        )
    abertas = [
        e.nome for e in anteriores if e.nome in ("suspensao_judicial", "fim_suspensao_judicial")
    ]
    aberta = bool(abertas) and abertas[-1] == "suspensao_judicial"
    if atual.nome == "suspensao_judicial" and aberta:
        raise EntradaInvalida(
            campo_evento,
            "já há uma suspensão judicial em vigor: registre "
            f"{evento_citado('fim_suspensao_judicial')} antes de outra "
            f"{evento_citado('suspensao_judicial')}",
        )
    if atual.nome == "fim_suspensao_judicial" and not aberta:
        raise EntradaInvalida(
            campo_evento,
            "não há suspensão judicial em vigor para terminar: "
            f"{evento_citado('fim_suspensao_judicial')} vem depois de "
            f"{evento_citado('suspensao_judicial')}",
        )


def _conferir_desde(
    regra: Evento, atual: EventoDatado, campo_data: str, legislacao: Legislacao
) -> None:
    """An event that records what a provision created cannot be dated before it."""
    if regra.desde is None:
        return
    primeira = legislacao.parametro(regra.desde).vigencias[0]
    if atual.data < primeira.inicio:
        raise EntradaInvalida(
            campo_data,
            f"a data do evento {evento_citado(atual.nome)} ({formatar_data(atual.data)}) é anterior a "
            f"{formatar_data(primeira.inicio)}: {primeira.fundamento} só vale desde essa data",
        )


def _conferir_requisitos(
    tipo: Tipo,
    regra: Evento,
    atual: EventoDatado,
    vistos: Mapping[str, tuple[int, EventoDatado]],
    campo_evento: str,
) -> None:
    """Which events must, or must not, come before ``atual``."""
    for requisito in regra.depois_de:
        if requisito not in vistos:
            raise EntradaInvalida(
                campo_evento,
                f"o evento {evento_citado(atual.nome)} deve vir depois de {evento_citado(requisito)}, "
                "que não consta antes dele",
            )
    if regra.depois_de_algum and not any(e in vistos for e in regra.depois_de_algum):
        nomes = " ou ".join(f"{evento_citado(e)}" for e in regra.depois_de_algum)
        raise EntradaInvalida(
            campo_evento,
            f"o evento {evento_citado(atual.nome)} deve vir depois de {nomes}: a decisão ainda não é definitiva",
        )
    for posterior in regra.antes_de:
        if posterior in vistos:
            raise EntradaInvalida(
                campo_evento,
                f"o evento {evento_citado(atual.nome)} deve vir antes de {evento_citado(posterior)}, "
                "que já consta",
            )
    for outro in regra.exclui:
        if outro in vistos:
            raise EntradaInvalida(
                campo_evento,
                f"o evento {evento_citado(atual.nome)} não pode ocorrer num processo que já tem {evento_citado(outro)}: "
                "um ou outro, no máximo",
            )


def _conferir_ordem(
    tipo: Tipo,
    anteriores: list[EventoDatado],
    atual: EventoDatado,
    processo_parcial: Processo,
    legislacao: Legislacao,
) -> None:
    """The order rules of § 6 for the event at position ``len(anteriores)``."""
    i = len(anteriores)
    regra: Evento = tipo.eventos[atual.nome]
    campo_evento, campo_data = f"eventos[{i}].evento", f"eventos[{i}].data"
    if anteriores and atual.data < anteriores[-1].data:
        anterior = anteriores[-1]
        raise EntradaInvalida(
            campo_data,
            f"data fora de ordem: o evento {evento_citado(atual.nome)} ({formatar_data(atual.data)}) é "
            f"anterior ao evento que o precede, {evento_citado(anterior.nome)} "
            f"({formatar_data(anterior.data)}); os eventos vão em ordem de data",
        )
    if regra.suspensao:
        _conferir_suspensao(anteriores, atual, campo_evento)
        return
    vistos = {e.nome: (j, e) for j, e in enumerate(anteriores)}
    if atual.nome in vistos:
        j = vistos[atual.nome][0]
        raise EntradaInvalida(
            campo_evento,
            f"evento repetido: {evento_citado(atual.nome)} já consta em eventos[{j}]; "
            "cada evento aparece no máximo uma vez",
        )
    for anterior in anteriores:
        if tipo.eventos[anterior.nome].terminal:
            raise EntradaInvalida(
                campo_evento,
                f"nenhum evento pode vir depois de {evento_citado(anterior.nome)}; "
                f"{evento_citado(atual.nome)} veio depois dele",
            )
    primeiro = tipo.primeiro
    if i == 0 and not regra.primeiro:
        raise EntradaInvalida(
            campo_evento,
            f"o primeiro evento de um processo {mostrar_valor(tipo.nome)} deve ser {evento_citado(primeiro.nome)}, "
            f"não {evento_citado(atual.nome)}",
        )
    _conferir_requisitos(tipo, regra, atual, vistos, campo_evento)
    _conferir_desde(regra, atual, campo_data, legislacao)
    for referencia in regra.data_posterior_a:
        data_ref = vistos[referencia][1].data
        if atual.data <= data_ref:
            raise EntradaInvalida(
                campo_data,
                f"a data do evento {evento_citado(atual.nome)} ({formatar_data(atual.data)}) deve ser "
                f"posterior à do evento {evento_citado(referencia)} ({formatar_data(data_ref)})",
            )
    if regra.depois_do_prazo:
        try:
            pagamento = _prazo_pagamento(processo_parcial, legislacao)
        except _ForaDoCalendario as erro:
            raise _fora_do_calendario(processo_parcial, erro) from None
        assert pagamento is not None and regra.depois_do_prazo == ("pagamento",)
        for nome_prazo, prazo in (("pagamento", pagamento),):
            if atual.data <= prazo.data:
                raise EntradaInvalida(
                    campo_data,
                    f"o evento {evento_citado(atual.nome)} ({formatar_data(atual.data)}) deve ser posterior "
                    f"ao prazo {prazo_citado(nome_prazo)} ({formatar_data(prazo.data)})",
                )


def _valor_multa(bruto: object, tipo: Tipo) -> Decimal | None:
    if bruto is None:
        return None
    if tipo.nome != "anp":
        raise EntradaInvalida("valor_multa", "só um processo 'anp' tem valor_multa")
    valor: Decimal = ler_valor(bruto, Campo("valor_multa", "quantia_positiva", "", False, 0))
    return valor


def ler_processo(dados: object, legislacao: Legislacao | None = None) -> Processo:
    """Validate a raw processo (a JSON object) against § 6; the first problem is the error."""
    legislacao = legislacao or carregar()
    if not isinstance(dados, Mapping):
        raise EntradaInvalida(None, "o processo deve ser um objeto JSON")
    for chave in dados:
        if chave not in CAMPOS_PROCESSO:
            raise EntradaInvalida(
                str(chave),
                f"campo desconhecido para um processo (campos: {', '.join(CAMPOS_PROCESSO)})",
            )
    tipo = _tipo(dados.get("tipo"))
    identificacao = _identificacao(dados)
    calendario = _calendario(dados.get("interpretacao"))
    extras = dados.get("dias_sem_expediente")
    dias_sem_expediente = (
        frozenset() if extras is None else ler_datas(extras, "dias_sem_expediente")
    )
    bruta = dados.get("data_referencia")
    data_referencia = None if bruta is None else para_data(bruta, "data_referencia")
    valor_multa = _valor_multa(dados.get("valor_multa"), tipo)
    brutos = dados.get("eventos")
    if brutos is None:
        raise EntradaInvalida("eventos", "campo obrigatório: a lista de eventos do processo")
    if not isinstance(brutos, list | tuple):
        raise EntradaInvalida(
            "eventos", 'deve ser uma lista de eventos [{"evento": ..., "data": "AAAA-MM-DD"}]'
        )
    if not brutos:
        raise EntradaInvalida(
            "eventos",
            f"a lista de eventos está vazia: um processo {mostrar_valor(tipo.nome)} começa com o evento "
            f"{evento_citado(tipo.primeiro.nome)}",
        )
    eventos: list[EventoDatado] = []

    def montar(lista: list[EventoDatado]) -> Processo:
        return Processo(
            tipo,
            tuple(lista),
            calendario,
            identificacao,
            dias_sem_expediente,
            data_referencia,
            valor_multa,
        )

    for i, bruto in enumerate(brutos):
        atual = _ler_evento(tipo, bruto, i)
        _conferir_ordem(tipo, eventos, atual, montar(eventos), legislacao)
        eventos.append(atual)
    return montar(eventos)


# --- the deadlines --------------------------------------------------------------------------


def vigencia_em(legislacao: Legislacao, nome: str, dia: date) -> Vigencia:
    """The version in force on ``dia``; before the first one, the first (§ 6 derives every
    deadline whatever the date); in a gap, the last one before ``dia``."""
    parametro = legislacao.parametro(nome)
    vigente = parametro.em(dia)
    if vigente is not None:
        return vigente
    anteriores = [v for v in parametro.vigencias if v.inicio <= dia]
    return anteriores[-1] if anteriores else parametro.vigencias[0]


def fundamento(vigencia: Vigencia) -> str:
    """The exact provision, with its wording; "(texto não transcrito)" when the sources do
    not show its text."""
    if vigencia.texto is None:
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


def _prazos_das_listas(processo: Processo, legislacao: Legislacao) -> list[Prazo]:
    """The deadlines of a list's processo (an ``anp`` one has :class:`_Anp`), unsorted; each
    listed once the event it counts from exists."""
    if processo.tipo.nome == "renovabio.lista":
        return _prazos_lista(processo, legislacao)
    return _prazos_balanco(processo, legislacao)


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
    ultimo = None
    for evento in processo.eventos:
        if evento.data > dia:
            break
        if processo.tipo.eventos[evento.nome].suspensao:
            ultimo = evento.nome
    return ultimo == "suspensao_judicial"


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


class _Anp:
    """The deadlines of an ``anp`` processo (spec § 6 v3), with the limitation periods of
    Lei nº 9.873/1999 and the avisos they raise."""

    def __init__(self, processo: Processo, legislacao: Legislacao, referencia: date) -> None:
        self.processo = processo
        self.legislacao = legislacao
        self.referencia = referencia
        self.judiciais = _suspensoes(processo, referencia)
        self.avisos: list[str] = []
        #: limitation deadlines that lapsed, with how
        self.prescritos: dict[str, str] = {}
        definitivas = [
            e
            for e in processo.eventos
            if e.nome in ("ciencia_decisao_definitiva", "renuncia_recurso")
        ]
        self.definitiva = definitivas[0] if definitivas else None

    def anos(
        self, inicio: EventoDatado, parametro: str, nome: str, pausas: list[Pausa]
    ) -> tuple[Vigencia, date, date, int]:
        """``inicio`` + N years (Lei nº 810/1949), then + the paused days after ``inicio``
        up to that extended date (spec § 6 v3: "court suspensions")."""
        vigencia = vigencia_em(self.legislacao, parametro, inicio.data)
        nominal = _somar_anos(inicio.data, vigencia.inteiro, nome, inicio.nome)
        fim = _fim_com_pausas(inicio.data, nominal, pausas) if pausas else nominal
        pausados = (fim - nominal).days
        if (inicio.data.month, inicio.data.day) == (2, 29) and nominal.month == 3:
            self.avisos.append(
                f"O prazo {prazo_citado(nome)} conta {vigencia.inteiro} anos de 29/02/{inicio.data.year:04d}: "
                f"sem 29/02 em {nominal.year}, termina no dia seguinte, 01/03 (Lei nº 810/1949, "
                "art. 3º; Código Civil, art. 132, § 3º); pela Lei nº 9.784/1999, art. 66, § 3º, "
                "que rege os prazos do processo, terminaria em 28/02."
            )
        return vigencia, nominal, fim, pausados

    def _com_pausas(self, contagem: str, fim: date, pausados: int) -> str:
        if not pausados:
            return contagem
        return (
            f"{contagem}; acrescido de {_dias_corridos(pausados)} em que a prescrição não "
            f"correu (suspensão judicial ou inscrição em Dívida Ativa): "
            f"{data_com_dia_da_semana(fim)}"
        )

    def prazos(self) -> list[Prazo]:
        p = self.processo
        prazos: list[Prazo] = []
        auto = p.evento("auto_infracao")
        if auto is not None:
            prazos.append(_prazo_em_dias(p, self.legislacao, "defesa", "ciclo.defesa", auto))
        prazos += self._prescricao()
        prazos += self._intercorrente()
        primeira = p.evento("ciencia_primeira_instancia")
        if primeira is not None:
            recurso = _prazo_em_dias(p, self.legislacao, "recurso", "ciclo.recurso", primeira)
            prazos.append(recurso)
            renuncia = p.evento("renuncia_recurso")
            if renuncia is not None:
                prazos.append(self._desconto(recurso, renuncia))
        pagamento = _prazo_pagamento(p, self.legislacao)
        if pagamento is not None:
            prazos.append(pagamento)
            prazos.append(self._cobranca(pagamento))
        for prazo in prazos:
            self._nota_de_2025(prazo)
        if self.judiciais:
            self.avisos.append(
                "Suspensão judicial: os prazos de prescrição não correm enquanto ela vigora "
                "(os dias suspensos são somados a eles); os demais prazos não se movem: o que "
                "a ordem judicial faz com cada prazo depende dos seus termos, que decidem."
            )
        return prazos

    def _nota_de_2025(self, prazo: Prazo) -> None:
        """§ 3.5 v3: a deadline resting on Decreto 2.953/1999 counted from an event on or
        after the amendment says that the amended text was not checked."""
        if "Decreto nº 2.953/1999" not in prazo.fundamento:
            return
        origem = self.processo.evento(prazo.origem)
        alterado = self.legislacao.parametro("anp.decreto_2953_alterado")
        if origem is None or alterado.em(origem.data) is None:
            return
        vigencia = alterado.vigencias[0]
        self.avisos.append(
            f"O prazo {prazo_citado(prazo.nome)} apoia-se no Decreto nº 2.953/1999, alterado pelo "
            f'{vigencia.dispositivo.removesuffix(", ementa")} ("{vigencia.texto}"); o texto '
            "alterado não foi conferido: confira o prazo na redação em vigor."
        )

    def _prescricao(self) -> list[Prazo]:
        """Lei nº 9.873/1999 arts. 1º and 2º: 5 years from the infração, restarted by the
        citação and the decisão condenatória only when they come in time (no revival)."""
        p = self.processo
        infracao = p.eventos[0]
        marco = infracao
        vigencia, nominal, fim, pausados = self.anos(
            infracao, "ciclo.prescricao", "prescricao", self.judiciais
        )
        parou: EventoDatado | None = None
        for nome in ("auto_infracao", "ciencia_primeira_instancia"):
            evento = p.evento(nome)
            if evento is None:
                continue
            if evento.data > fim:
                parou = evento
                break
            marco = evento
            vigencia, nominal, fim, pausados = self.anos(
                evento, "ciclo.prescricao", "prescricao", self.judiciais
            )
        definitiva = self.definitiva
        if definitiva is not None and definitiva.data <= fim and parou is None:
            return []
        tipo = p.tipo
        if marco is infracao:
            de_onde, regra = "a infração", vigencia
        else:
            regra = vigencia_em(self.legislacao, "ciclo.prescricao_interrupcao", marco.data)
            de_onde = (
                f"{tipo.eventos[marco.nome].rotulo}, o último ato que a interrompeu antes de ela "
                f"se consumar; contada da infração em {formatar_data(infracao.data)}"
            )
        contagem = self._com_pausas(
            _contagem_anos(vigencia.inteiro, marco.data, de_onde, nominal), fim, pausados
        )
        pagamento = p.evento("pagamento")
        # the first of the two: no event may follow the pagamento (ler_processo), so a
        # definitive decision, when there is one, came first
        primeiro = definitiva or pagamento
        if parou is not None:
            self.prescritos["prescricao"] = (
                f"a prescrição da ação punitiva consumou-se em {formatar_data(fim)}; o evento "
                f"{evento_citado(parou.nome)} ({formatar_data(parou.data)}) veio depois e não a interrompeu"
            )
        elif primeiro is not None and primeiro.data > fim:
            self.prescritos["prescricao"] = (
                f"a prescrição da ação punitiva consumou-se em {formatar_data(fim)}, antes do "
                f"evento {evento_citado(primeiro.nome)} ({formatar_data(primeiro.data)})"
            )
        elif primeiro is None and self.referencia > fim:
            self.prescritos["prescricao"] = (
                f"a prescrição da ação punitiva consumou-se em {formatar_data(fim)} sem decisão "
                "definitiva nem pagamento registrados"
            )
        self.avisos.append(
            "Prescrição: qualquer ato inequívoco que importe apuração do fato também a "
            "interrompe (Lei nº 9.873/1999, art. 2º, II), e a decisão condenatória recorrível "
            "(art. 2º, III) a interrompe na data da decisão, que pode ser anterior à ciência: "
            "só os eventos registrados contam."
        )
        fundamentos = fundamento(vigencia)
        if regra is not vigencia:
            fundamentos += f"; {fundamento(regra)}"
        return [Prazo("prescricao", fim, fundamentos, contagem, marco.nome, regra.texto)]

    def _intercorrente(self) -> list[Prazo]:
        """Lei nº 9.873/1999 art. 1º § 1º: 3 years waiting for a decision (the first stall,
        else the current wait)."""
        principais = self.processo.principais
        for i, evento in enumerate(principais):
            if evento.nome not in ("auto_infracao", "defesa", "recurso"):
                continue
            vigencia, nominal, fim, pausados = self.anos(
                evento, "ciclo.prescricao_intercorrente", "prescricao_intercorrente", self.judiciais
            )
            seguinte = principais[i + 1] if i + 1 < len(principais) else None
            if seguinte is not None and seguinte.data <= fim:
                continue
            rotulo = self.processo.tipo.eventos[evento.nome].rotulo
            contagem = self._com_pausas(
                _contagem_anos(
                    vigencia.inteiro,
                    evento.data,
                    f"{rotulo}: o processo aguarda julgamento ou despacho",
                    nominal,
                ),
                fim,
                pausados,
            )
            if seguinte is not None:
                self.prescritos["prescricao_intercorrente"] = (
                    f"o processo ficou paralisado de {formatar_data(evento.data)} a "
                    f"{formatar_data(seguinte.data)} ({evento_citado(seguinte.nome)}): a prescrição "
                    f"intercorrente consumou-se em {formatar_data(fim)}"
                )
            elif self.referencia > fim:
                self.prescritos["prescricao_intercorrente"] = (
                    f"o processo está paralisado desde {formatar_data(evento.data)}: a prescrição "
                    f"intercorrente consumou-se em {formatar_data(fim)}"
                )
            self.avisos.append(
                "Prescrição intercorrente: só os eventos registrados contam; um despacho não "
                "registrado também movimenta o processo."
            )
            return [
                Prazo(
                    "prescricao_intercorrente",
                    fim,
                    fundamento(vigencia),
                    contagem,
                    evento.nome,
                    vigencia.texto,
                )
            ]
        return []

    def _desconto(self, recurso: Prazo, renuncia: EventoDatado) -> Prazo:
        desconto = vigencia_em(self.legislacao, "ciclo.pagamento_com_desconto", renuncia.data)
        percentual = formatar_percentual(desconto.fracao)
        return Prazo(
            "pagamento_com_desconto",
            recurso.data,
            fundamento(desconto),
            f"a data do prazo 'recurso', {data_com_dia_da_semana(recurso.data)}: com a renúncia expressa "
            f"ao recurso em {formatar_data(renuncia.data)}, a multa paga no prazo do "
            f"recurso tem redução de {percentual}. Prazo do recurso: {recurso.contagem}",
            renuncia.nome,
            desconto.texto,
        )

    def _cobranca(self, pagamento: Prazo) -> Prazo:
        """Lei nº 9.873/1999 art. 1º-A: 5 years from the vencimento, paused by court
        suspensions and by the Dívida Ativa inscription (Lei nº 6.830/1980 art. 2º § 3º)."""
        p = self.processo
        pausas = list(self.judiciais)
        inscricao = p.evento("inscricao_divida_ativa")
        extra = ""
        if inscricao is not None:
            dias = vigencia_em(self.legislacao, "ciclo.suspensao_inscricao", inscricao.data)
            try:
                pausas.append((inscricao.data, inscricao.data + timedelta(days=dias.inteiro)))
            except OverflowError:
                pausas.append((inscricao.data, date.max))
            extra = (
                f"; a inscrição em Dívida Ativa ({formatar_data(inscricao.data)}) suspende a "
                f"prescrição por {dias.inteiro} dias, contado o dia da inscrição ({dias.dispositivo})"
            )
            self.avisos.append(
                f"Prescrição da cobrança: a suspensão de {dias.inteiro} dias pela inscrição "
                "termina antes se a execução fiscal for distribuída (evento não registrado "
                "aqui); as interrupções do art. 2º-A da Lei nº 9.873/1999 (texto não "
                "transcrito) podem mover a data."
            )
        origem = EventoDatado(pagamento.origem, pagamento.data)
        cobranca, nominal, fim, pausados = self.anos(
            origem, "ciclo.prescricao_cobranca", "prescricao_cobranca", pausas
        )
        contagem = _contagem_anos(
            cobranca.inteiro,
            pagamento.data,
            "o vencimento da multa, o prazo 'pagamento': a multa definitivamente "
            f"constituída é cobrada em {_anos(cobranca.inteiro)}",
            nominal,
        )
        return Prazo(
            "prescricao_cobranca",
            fim,
            fundamento(cobranca),
            self._com_pausas(contagem + extra, fim, pausados),
            pagamento.origem,
            cobranca.texto,
        )


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


def _prazos_lista(processo: Processo, legislacao: Legislacao) -> list[Prazo]:
    prazos: list[Prazo] = []
    fim_prazo = processo.eventos[0]
    # listed only when the reduction existed on fim_prazo_meta (from 01/01/2025)
    reducao = legislacao.parametro("ciclo.limite_reducao").em(fim_prazo.data)
    if reducao is not None:
        try:
            limite = somar_meses(fim_prazo.data, reducao.inteiro)
        except (OverflowError, ValueError):
            raise _ForaDoCalendario("limite_reducao", fim_prazo.nome) from None
        prazos.append(
            Prazo(
                "limite_reducao",
                limite,
                fundamento(reducao),
                f"{reducao.inteiro} meses a partir do fim do prazo de comprovação "
                f"({formatar_data(fim_prazo.data)}), contados da própria data e ajustados ao "
                f"fim do mês: {data_com_dia_da_semana(limite)}; quitada a meta até esse dia, a multa cai para "
                f"{_fator_da_reducao(legislacao, fim_prazo.data)}, k = meses ou fração desde o fim do prazo; não é prorrogado para dia útil, "
                "porque fecha a janela de meses da redução",
                fim_prazo.nome,
                reducao.texto,
            )
        )
    pedido = processo.evento("pedido_retirada")
    if pedido is not None:
        prazos.append(
            _prazo_dias_uteis(processo, legislacao, "ciclo.retirada_lista_sancoes", pedido)
        )
    return prazos


def _prazos_balanco(processo: Processo, legislacao: Legislacao) -> list[Prazo]:
    adequacao = processo.evento("comprovacao_adequacao")
    if adequacao is None:
        return []
    return [_prazo_dias_uteis(processo, legislacao, "ciclo.retirada_lista_balanco", adequacao)]


# --- the avisos -------------------------------------------------------------------------------

#: the late events of § 6: event → the deadline it is measured against
_ATRASOS = {
    "defesa": "defesa",
    "recurso": "recurso",
    "pagamento": "pagamento",
    "retirada_lista": "retirada_lista",
    "quitacao_meta": "limite_reducao",
}

_CONSEQUENCIAS = {
    "defesa": "a defesa foi apresentada fora do prazo",
    "recurso": "o recurso foi interposto fora do prazo",
    "pagamento": "a multa é devida com juros e multa de mora "
    "(Decreto nº 2.953/1999, art. 26, parágrafo único); veja o regime anp.mora",
    "pagamento_com_desconto": "depois do prazo do recurso, a redução de {desconto} "
    "({dispositivo}) não se aplica",
    "retirada_lista": "a ANP retirou o nome da lista depois do prazo",
    "limite_reducao": "a quitação não reduz mais a multa (Decreto nº 9.888/2019, art. 6º-A, § 8º)",
}


def _fator_da_reducao(legislacao: Legislacao, dia: date) -> str:
    """``k/12``: the factor of the reduction in force on ``dia``."""
    return por_mes(vigencia_em(legislacao, "renovabio.distribuidor.reducao", dia).fracao)


def _aviso_art59(prazo: Prazo, legislacao: Legislacao) -> str:
    geral = vigencia_em(legislacao, "ciclo.recurso", prazo.data)
    return (
        f"O prazo de recurso ({formatar_data(prazo.data)}) é o prazo geral de {geral.inteiro} "
        f"dias da {geral.dispositivo}, aplicado quando não há prazo específico (texto não "
        "transcrito nas fontes do multas); confira se outra norma fixa prazo próprio."
    )


def _consequencia(nome_prazo: str, prazo: Prazo, legislacao: Legislacao) -> str:
    """What being late for a deadline means, its numbers from the parameter in force."""
    desconto = vigencia_em(legislacao, "ciclo.pagamento_com_desconto", prazo.data)
    return _CONSEQUENCIAS[nome_prazo].format(
        desconto=formatar_percentual(desconto.fracao), dispositivo=desconto.dispositivo
    )


def _avisos(processo: Processo, prazos: dict[str, Prazo], legislacao: Legislacao) -> list[str]:
    avisos: list[str] = []
    renunciado = processo.evento("renuncia_recurso") is not None
    for evento in processo.eventos:
        if evento.nome == "ciencia_primeira_instancia" and "recurso" in prazos:
            avisos.append(_aviso_art59(prazos["recurso"], legislacao))
        nome_prazo = _ATRASOS.get(evento.nome)
        if processo.tipo.nome == "anp" and evento.nome == "pagamento" and renunciado:
            nome_prazo = "pagamento_com_desconto"
        if nome_prazo is None or nome_prazo not in prazos:
            continue
        prazo = prazos[nome_prazo]
        atraso = (evento.data - prazo.data).days
        if atraso > 0:
            aviso = (
                f"O evento {evento_citado(evento.nome)} ({formatar_data(evento.data)}) ocorreu "
                f"{_dias_corridos(atraso)} depois do prazo {prazo_citado(nome_prazo)} "
                f"({formatar_data(prazo.data)}): {_consequencia(nome_prazo, prazo, legislacao)}"
            )
            # § 6 pairs a waived appeal's payment with the discount only; one aviso still
            # says when the payment also came after the vencimento
            vencimento = prazos.get("pagamento")
            if (
                nome_prazo == "pagamento_com_desconto"
                and vencimento
                and evento.data > vencimento.data
            ):
                aviso += (
                    f"; foi também depois do vencimento ({formatar_data(vencimento.data)}), "
                    f"{_dias_corridos((evento.data - vencimento.data).days)} de atraso, com "
                    "juros e multa de mora"
                )
            avisos.append(aviso + ".")
    return avisos


# --- the one function ---------------------------------------------------------------------


def _fora_do_calendario(processo: Processo, erro: _ForaDoCalendario) -> EntradaInvalida:
    nome_prazo, origem = erro.args
    i = processo.indice(origem)
    return EntradaInvalida(
        f"eventos[{i}].data",
        f"data fora do intervalo calculável: o prazo {prazo_citado(nome_prazo)}, contado do evento "
        f"{evento_citado(origem)}, passaria de 31/12/9999",
    )


def _situacao_do_prazo(
    prazo: Prazo, processo: Processo, referencia: date, prescritos: Mapping[str, str]
) -> str:
    """Spec § 6 v3: the first of cumprido(_com_atraso), encerrado, suspenso, vencido,
    em_aberto on ``referencia``; a lapsed limitation deadline is vencido."""
    if prazo.nome in prescritos:
        return "vencido"
    cumpre = CUMPRIDO_POR.get(prazo.nome)
    evento = processo.evento(cumpre) if cumpre else None
    if evento is not None:
        return "cumprido" if evento.data <= prazo.data else "cumprido_com_atraso"
    if prazo.nome == "recurso" and processo.evento("renuncia_recurso") is not None:
        return "encerrado"
    if prazo.nome == "prescricao_cobranca" and processo.evento("pagamento") is not None:
        return "encerrado"
    if prazo.nome in ("prescricao", "prescricao_intercorrente"):
        fechamentos = ("ciencia_decisao_definitiva", "renuncia_recurso", "pagamento")
        if any((e := processo.evento(n)) and e.data <= prazo.data for n in fechamentos):
            return "encerrado"
    if suspensao_em_vigor(processo, referencia):
        return "suspenso"
    return "vencido" if referencia > prazo.data else "em_aberto"


def situacao(
    processo: Processo, legislacao: Legislacao | None = None, hoje: date | None = None
) -> Situacao:
    """Derive the estado, the deadlines and the avisos of a validated processo, judged on its
    ``data_referencia``, else on ``hoje``: the caller's today in Brasília (this module reads
    no clock, so the answer is the same whatever day it runs). A processo with neither date
    is the caller's defect, not the user's."""
    legislacao = legislacao or carregar()
    referencia = processo.data_referencia or hoje
    if referencia is None:
        raise ValueError("processo sem data_referencia: informe hoje, a data do relógio")
    extras: list[str] = []
    prescritos: dict[str, str] = {}
    try:
        if processo.tipo.nome == "anp":
            anp = _Anp(processo, legislacao, referencia)
            prazos = anp.prazos()
            extras, prescritos = anp.avisos, anp.prescritos
        else:
            prazos = _prazos_das_listas(processo, legislacao)
    except _ForaDoCalendario as erro:
        raise _fora_do_calendario(processo, erro) from None
    prazos = [
        replace(p, situacao=_situacao_do_prazo(p, processo, referencia, prescritos)) for p in prazos
    ]
    prazos.sort(key=lambda p: (p.data, p.nome))
    avisos = _avisos(processo, {p.nome: p for p in prazos}, legislacao) + extras
    for nome, como in prescritos.items():
        avisos.append(
            f"Prazo {prazo_citado(nome)} prescrito: {como}; atos posteriores não a fazem renascer."
        )
    expediente = processo.expediente(legislacao)
    contados = [p.data for p in prazos if p.nome not in _PRESCRICOES and p.nome != "limite_reducao"]
    avisos += expediente.avisos(contados)
    estado = processo.tipo.eventos[processo.principais[-1].nome].estado
    if suspensao_em_vigor(processo, referencia):
        estado = "suspenso"
    if prescritos:
        estado = "prescrito"
    desconto = None
    if processo.valor_multa is not None and any(p.nome == "pagamento_com_desconto" for p in prazos):
        renuncia = processo.evento("renuncia_recurso")
        assert renuncia is not None
        taxa = vigencia_em(legislacao, "ciclo.pagamento_com_desconto", renuncia.data).fracao
        desconto = arredondar(Fraction(processo.valor_multa) * (1 - taxa))
    return Situacao(processo, estado, tuple(prazos), tuple(avisos), referencia, desconto)


_PRESCRICOES = frozenset({"prescricao", "prescricao_intercorrente", "prescricao_cobranca"})


def analisar(
    dados: object, legislacao: Legislacao | None = None, hoje: date | None = None
) -> Situacao:
    """Validate a raw processo and derive its situation (spec § 6)."""
    legislacao = legislacao or carregar()
    return situacao(ler_processo(dados, legislacao), legislacao, hoje)


def calcular_prazos(
    dados: object, legislacao: Legislacao | None = None, hoje: date | None = None
) -> dict[str, Any]:
    """Spec § 6: one processo (a JSON object) → ``{tipo, estado, prazos, avisos}``, with
    ``id``, ``cnpj`` and ``nome`` echoed when given.

    >>> r = calcular_prazos({"tipo": "renovabio.balanco", "eventos": [
    ...     {"evento": "inclusao_lista", "data": "2025-04-17"},
    ...     {"evento": "comprovacao_adequacao", "data": "2025-04-28"}],
    ...     "data_referencia": "2025-05-01"})
    >>> r["estado"], [(p["prazo"], p["data"], p["situacao"]) for p in r["prazos"]]
    ('adequacao_comprovada', [('retirada_lista', '2025-05-06', 'em_aberto')])
    """
    return analisar(dados, legislacao, hoje).como_dict()
