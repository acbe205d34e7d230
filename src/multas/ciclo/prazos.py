"""Spec § 6: a processo (a list of dated events) in, its estado and deadlines out.

``calcular_prazos`` is the one function the CLI (``multas prazos calcular``), the API
(``POST /api/v1/prazos``), the stored processes, the lists, the calendar and the page all
call. It is pure: the same processo always gives the same answer, whatever today is.

How each kind of deadline is counted (§ 6, "Counting"):

- *N days* (``recurso``, ``pagamento``): calendar days from the event, the first day excluded
  and the last included, moved to the next business day when the last day is not one
  (Lei 9.784/1999 art. 66; spec § 1) — :func:`multas.datas.prazo_em_dias`;
- *N business days* (``retirada_lista``): the Nth business day after the event, its day
  excluded — :func:`multas.datas.dias_uteis_depois`;
- *N months* (``limite_reducao``): the event + N months, clamped to the month's end, not
  moved — :func:`multas.datas.somar_meses`;
- *N years* (``prescricao``, ``prescricao_cobranca``): the same day and month N years later,
  29/02 → 28/02, not moved — :func:`multas.datas.somar_anos`.

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
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from multas.calendario import Expediente
from multas.ciclo.eventos import TIPOS, Evento, Tipo
from multas.datas import (
    Calendario,
    data_com_dia_da_semana,
    dias_uteis_depois,
    formatar_data,
    para_data,
    prazo_em_dias,
    somar_anos,
    somar_meses,
)
from multas.dinheiro import formatar_percentual, por_mes
from multas.erros import EntradaInvalida
from multas.legislacao import Legislacao, Vigencia, carregar

CAMPOS_PROCESSO = ("tipo", "eventos", "interpretacao", "id", "cnpj", "nome")
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

    def expediente(self, legislacao: Legislacao) -> Expediente:
        """The calendar this processo's deadlines use (spec § 1)."""
        return Expediente(legislacao.calendario, self.calendario)

    def evento(self, nome: str) -> EventoDatado | None:
        return next((e for e in self.eventos if e.nome == nome), None)

    def indice(self, nome: str) -> int:
        return next(i for i, e in enumerate(self.eventos) if e.nome == nome)

    def como_dict(self) -> dict[str, Any]:
        """The processo as JSON (the input contract), defaults written out."""
        return {
            **self.identificacao,
            "tipo": self.tipo.nome,
            "eventos": [{"evento": e.nome, "data": e.data.isoformat()} for e in self.eventos],
            "interpretacao": {"calendario": self.calendario},
        }


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

    def como_dict(self) -> dict[str, str]:
        return {
            "prazo": self.nome,
            "data": self.data.isoformat(),
            "fundamento": self.fundamento,
            "contagem": self.contagem,
        }


@dataclass(frozen=True, slots=True)
class Situacao:
    """What § 6 derives from a processo."""

    processo: Processo
    estado: str
    prazos: tuple[Prazo, ...]
    avisos: tuple[str, ...]

    @property
    def estado_rotulo(self) -> str:
        return self.processo.tipo.eventos[self.processo.eventos[-1].nome].estado_rotulo

    def como_dict(self) -> dict[str, Any]:
        """The output of § 6: ``{id?, cnpj?, nome?, tipo, estado, prazos, avisos}``."""
        return {
            **self.processo.identificacao,
            "tipo": self.processo.tipo.nome,
            "estado": self.estado,
            "prazos": [p.como_dict() for p in self.prazos],
            "avisos": list(self.avisos),
        }


# --- reading and validating ---------------------------------------------------------------


def _dias_corridos(n: int) -> str:
    return "1 dia corrido" if n == 1 else f"{n} dias corridos"


def _anos(n: int) -> str:
    return "1 ano" if n == 1 else f"{n} anos"


def _tipo(bruto: object) -> Tipo:
    if bruto is None:
        raise EntradaInvalida("tipo", "campo obrigatório")
    if not isinstance(bruto, str) or bruto not in TIPOS:
        raise EntradaInvalida(
            "tipo", f"tipo de processo desconhecido: {bruto!r} (tipos: {', '.join(TIPOS)})"
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
                f"opção inválida: {opcao!r} (opções: {', '.join(CALENDARIOS)})",
            )
    return escolhido


def _identificacao(dados: Mapping[str, Any]) -> dict[str, Any]:
    ids: dict[str, Any] = {}
    for chave in ("id", "cnpj", "nome"):
        valor = dados.get(chave)
        if valor is None:
            continue
        inteiro_aceito = chave == "id" and isinstance(valor, int) and not isinstance(valor, bool)
        if not isinstance(valor, str) and not inteiro_aceito:
            tipo = "um texto ou um número inteiro" if chave == "id" else "um texto"
            raise EntradaInvalida(chave, f"deve ser {tipo}, não {valor!r}")
        ids[chave] = valor
    return ids


def _ler_evento(tipo: Tipo, bruto: object, i: int) -> EventoDatado:
    onde = f"eventos[{i}]"
    if not isinstance(bruto, Mapping):
        raise EntradaInvalida(onde, 'cada evento deve ser um objeto {"evento": ..., "data": ...}')
    for chave in bruto:
        if chave not in CAMPOS_EVENTO:
            raise EntradaInvalida(
                f"{onde}.{chave}",
                f'campo desconhecido: um evento é exatamente {{"evento", "data"}} ({chave!r})',
            )
    nome = bruto.get("evento")
    if nome is None:
        raise EntradaInvalida(f"{onde}.evento", "campo obrigatório: o nome do evento")
    if not isinstance(nome, str) or nome not in tipo.eventos:
        raise EntradaInvalida(
            f"{onde}.evento",
            f"evento desconhecido para um processo {tipo.nome!r}: {nome!r} "
            f"(eventos: {', '.join(tipo.eventos)})",
        )
    if bruto.get("data") is None:
        raise EntradaInvalida(f"{onde}.data", f"campo obrigatório: a data do evento '{nome}'")
    try:
        dia = para_data(bruto["data"], f"{onde}.data")
    except EntradaInvalida as erro:
        raise EntradaInvalida(erro.campo, f"{erro.mensagem}, no evento '{nome}'") from None
    return EventoDatado(nome, dia)


def _conferir_ordem(
    tipo: Tipo,
    anteriores: list[EventoDatado],
    atual: EventoDatado,
    calendario: Calendario,
    legislacao: Legislacao,
) -> None:
    """The order rules of § 6 for the event at position ``len(anteriores)``."""
    i = len(anteriores)
    regra: Evento = tipo.eventos[atual.nome]
    campo_evento, campo_data = f"eventos[{i}].evento", f"eventos[{i}].data"
    vistos = {e.nome: (j, e) for j, e in enumerate(anteriores)}
    if atual.nome in vistos:
        j = vistos[atual.nome][0]
        raise EntradaInvalida(
            campo_evento,
            f"evento repetido: '{atual.nome}' já consta em eventos[{j}]; "
            "cada evento aparece no máximo uma vez",
        )
    if anteriores and atual.data < anteriores[-1].data:
        anterior = anteriores[-1]
        raise EntradaInvalida(
            campo_data,
            f"data fora de ordem: o evento '{atual.nome}' ({formatar_data(atual.data)}) é "
            f"anterior ao evento que o precede, '{anterior.nome}' "
            f"({formatar_data(anterior.data)}); os eventos vão em ordem de data",
        )
    for anterior in anteriores:
        if tipo.eventos[anterior.nome].terminal:
            raise EntradaInvalida(
                campo_evento,
                f"nenhum evento pode vir depois de '{anterior.nome}' "
                f"({tipo.eventos[anterior.nome].rotulo}); '{atual.nome}' veio depois dele",
            )
    primeiro = tipo.primeiro
    if i == 0 and not regra.primeiro:
        raise EntradaInvalida(
            campo_evento,
            f"o primeiro evento de um processo {tipo.nome!r} deve ser '{primeiro.nome}' "
            f"({primeiro.rotulo}), não '{atual.nome}'",
        )
    for requisito in regra.depois_de:
        if requisito not in vistos:
            raise EntradaInvalida(
                campo_evento,
                f"o evento '{atual.nome}' deve vir depois de '{requisito}' "
                f"({tipo.eventos[requisito].rotulo}), que não consta antes dele",
            )
    for outro in regra.exclui:
        if outro in vistos:
            raise EntradaInvalida(
                campo_evento,
                f"o evento '{atual.nome}' não pode ocorrer num processo que já tem '{outro}': "
                "um ou outro, no máximo",
            )
    for referencia in regra.data_posterior_a:
        data_ref = vistos[referencia][1].data
        if atual.data <= data_ref:
            raise EntradaInvalida(
                campo_data,
                f"a data do evento '{atual.nome}' ({formatar_data(atual.data)}) deve ser "
                f"posterior à do evento '{referencia}' ({formatar_data(data_ref)})",
            )
    if regra.depois_do_prazo:
        parcial = Processo(tipo, tuple(anteriores), calendario)
        prazos = {p.nome: p for p in _prazos_validados(parcial, legislacao)}
        for nome_prazo in regra.depois_do_prazo:
            prazo = prazos[nome_prazo]
            if atual.data <= prazo.data:
                raise EntradaInvalida(
                    campo_data,
                    f"o evento '{atual.nome}' ({formatar_data(atual.data)}) deve ser posterior "
                    f"ao prazo '{nome_prazo}' ({formatar_data(prazo.data)})",
                )


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
            f"a lista de eventos está vazia: um processo {tipo.nome!r} começa com o evento "
            f"'{tipo.primeiro.nome}'",
        )
    eventos: list[EventoDatado] = []
    for i, bruto in enumerate(brutos):
        atual = _ler_evento(tipo, bruto, i)
        _conferir_ordem(tipo, eventos, atual, calendario, legislacao)
        eventos.append(atual)
    return Processo(tipo, tuple(eventos), calendario, identificacao)


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


def _contagem_anos(n: int, inicio: date, de_onde: str, fim: date) -> str:
    texto = f"{n} anos contados de {formatar_data(inicio)} ({de_onde}): "
    if (inicio.month, inicio.day) == (2, 29) and fim.day == 28:
        texto += f"29/02 não existe em {fim.year}, então {data_com_dia_da_semana(fim)}"
    else:
        texto += f"o mesmo dia e mês, {data_com_dia_da_semana(fim)}"
    return f"{texto}; não é prorrogado para dia útil (prazo de prescrição, não prazo da parte)"


class _ForaDoCalendario(Exception):
    """A deadline past 31/12/9999."""


def _prazos(processo: Processo, legislacao: Legislacao) -> list[Prazo]:
    """The deadlines of § 6, unsorted; each listed once the event it counts from exists."""
    if processo.tipo.nome == "anp":
        return _prazos_anp(processo, legislacao)
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


def _prazos_anp(processo: Processo, legislacao: Legislacao) -> list[Prazo]:
    prazos: list[Prazo] = []
    tipo = processo.tipo
    definitiva = processo.evento("ciencia_decisao_definitiva")
    if definitiva is None:
        # prescricao: 5 years from the latest of infracao, auto_infracao (the citação) and
        # ciencia_primeira_instancia (Decreto 2.953/1999 art. 22 and its sole paragraph)
        marcos = [
            e
            for e in processo.eventos
            if e.nome in ("infracao", "auto_infracao", "ciencia_primeira_instancia")
        ]
        ultimo = max(reversed(marcos), key=lambda e: e.data)  # ties: the later in the list
        anos_vig = vigencia_em(legislacao, "ciclo.prescricao", ultimo.data)
        fim = _somar_anos(ultimo.data, anos_vig.inteiro, "prescricao", ultimo.nome)
        infracao = processo.eventos[0]
        if ultimo.nome == "infracao":
            vigencia = anos_vig
            de_onde = "a infração"
        else:
            vigencia = vigencia_em(legislacao, "ciclo.prescricao_interrupcao", ultimo.data)
            de_onde = (
                f"{tipo.eventos[ultimo.nome].rotulo}, o último ato que interrompeu a "
                f"prescrição contada da infração em {formatar_data(infracao.data)}"
            )
        prazos.append(
            Prazo(
                "prescricao",
                fim,
                fundamento(vigencia),
                _contagem_anos(anos_vig.inteiro, ultimo.data, de_onde, fim),
                ultimo.nome,
                vigencia.texto,
            )
        )
    primeira = processo.evento("ciencia_primeira_instancia")
    if primeira is not None:
        recurso = _prazo_em_dias(processo, legislacao, "recurso", "ciclo.recurso", primeira)
        prazos.append(recurso)
        renuncia = processo.evento("renuncia_recurso")
        if renuncia is not None:
            desconto = vigencia_em(legislacao, "ciclo.pagamento_com_desconto", renuncia.data)
            percentual = formatar_percentual(desconto.fracao)
            prazos.append(
                Prazo(
                    "pagamento_com_desconto",
                    recurso.data,
                    fundamento(desconto),
                    f"a data do prazo 'recurso', {data_com_dia_da_semana(recurso.data)}: com a renúncia expressa "
                    f"ao recurso em {formatar_data(renuncia.data)}, a multa paga no prazo do "
                    f"recurso tem redução de {percentual}. Prazo do recurso: {recurso.contagem}",
                    renuncia.nome,
                    desconto.texto,
                )
            )
    if definitiva is not None:
        pagamento = _prazo_em_dias(processo, legislacao, "pagamento", "ciclo.pagamento", definitiva)
        prazos.append(pagamento)
        cobranca = vigencia_em(legislacao, "ciclo.prescricao_cobranca", pagamento.data)
        fim = _somar_anos(pagamento.data, cobranca.inteiro, "prescricao_cobranca", definitiva.nome)
        prazos.append(
            Prazo(
                "prescricao_cobranca",
                fim,
                fundamento(cobranca),
                _contagem_anos(
                    cobranca.inteiro,
                    pagamento.data,
                    "o vencimento da multa, o prazo 'pagamento': a multa definitivamente "
                    f"constituída é cobrada em {_anos(cobranca.inteiro)}; substitui o prazo "
                    "'prescricao' desde a decisão definitiva",
                    fim,
                ),
                definitiva.nome,
                cobranca.texto,
            )
        )
    return prazos


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
    "recurso": "recurso",
    "pagamento": "pagamento",
    "retirada_lista": "retirada_lista",
    "quitacao_meta": "limite_reducao",
}

_CONSEQUENCIAS = {
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
                f"O evento '{evento.nome}' ({formatar_data(evento.data)}) ocorreu "
                f"{_dias_corridos(atraso)} depois do prazo '{nome_prazo}' "
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


def _prazos_validados(processo: Processo, legislacao: Legislacao) -> list[Prazo]:
    """The deadlines; one past 31/12/9999 is an input error on the date it counts from."""
    try:
        return _prazos(processo, legislacao)
    except _ForaDoCalendario as erro:
        nome_prazo, origem = erro.args
        i = processo.indice(origem)
        raise EntradaInvalida(
            f"eventos[{i}].data",
            f"data fora do intervalo calculável: o prazo '{nome_prazo}', contado do evento "
            f"'{origem}', passaria de 31/12/9999",
        ) from None


def situacao(processo: Processo, legislacao: Legislacao | None = None) -> Situacao:
    """Derive the estado, the deadlines and the avisos of a validated processo."""
    legislacao = legislacao or carregar()
    prazos = _prazos_validados(processo, legislacao)
    prazos.sort(key=lambda p: (p.data, p.nome))
    avisos = _avisos(processo, {p.nome: p for p in prazos}, legislacao)
    ultimo = processo.tipo.eventos[processo.eventos[-1].nome]
    return Situacao(processo, ultimo.estado, tuple(prazos), tuple(avisos))


def analisar(dados: object, legislacao: Legislacao | None = None) -> Situacao:
    """Validate a raw processo and derive its situation (spec § 6)."""
    legislacao = legislacao or carregar()
    return situacao(ler_processo(dados, legislacao), legislacao)


def calcular_prazos(dados: object, legislacao: Legislacao | None = None) -> dict[str, Any]:
    """Spec § 6: one processo (a JSON object) → ``{tipo, estado, prazos, avisos}``, with
    ``id``, ``cnpj`` and ``nome`` echoed when given.

    >>> r = calcular_prazos({"tipo": "renovabio.balanco", "eventos": [
    ...     {"evento": "inclusao_lista", "data": "2025-04-01"},
    ...     {"evento": "comprovacao_adequacao", "data": "2025-04-14"}]})
    >>> r["estado"], [(p["prazo"], p["data"]) for p in r["prazos"]]
    ('adequacao_comprovada', [('retirada_lista', '2025-04-23')])
    """
    return analisar(dados, legislacao).como_dict()
