"""Spec § 6: reading and validating a processo (a JSON object) into a
:class:`~multas.nucleo.ciclo.processo.Processo`: every field's error at once, then the events in
order, the first problem of which is the error (the readings where § 6 is silent are in
:mod:`multas.nucleo.ciclo.prazos`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

from multas.nucleo.ciclo.contagem import _fora_do_calendario, _ForaDoCalendario, _prazo_pagamento
from multas.nucleo.ciclo.devido import primeira_quitacao, quitacao_e_previa
from multas.nucleo.ciclo.documentos import ler_documentos
from multas.nucleo.ciclo.parcelamento import simular
from multas.nucleo.ciclo.processo import (
    ALIASES_LEITURA,
    CALENDARIOS,
    CAMPOS_EVENTO,
    CAMPOS_ORIGEM,
    CAMPOS_PAGAMENTO,
    CAMPOS_PARCELAMENTO,
    CAMPOS_PROCESSO,
    IMPUTACAO_PADRAO,
    LEITURAS_DO_DEVIDO,
    LEITURAS_PROCESSO,
    EventoDatado,
    Plano,
    Processo,
)
from multas.nucleo.contrato import Campo, ler_datas, ler_valor
from multas.nucleo.datas import Calendario, formatar_data, para_data
from multas.nucleo.dinheiro import para_decimal
from multas.nucleo.erros import Coleta, EntradaInvalida, mostrar_valor
from multas.nucleo.eventos import TIPOS, Evento, Tipo
from multas.nucleo.legislacao import Legislacao, carregar
from multas.nucleo.rotulos import evento_citado, prazo_citado


def _tipo(bruto: object) -> Tipo:
    if bruto is None:
        raise EntradaInvalida("tipo", "campo obrigatório")
    if not isinstance(bruto, str) or bruto not in TIPOS:
        raise EntradaInvalida(
            "tipo",
            f"tipo de processo desconhecido: {mostrar_valor(bruto)} (tipos: {', '.join(TIPOS)})",
        )
    return TIPOS[bruto]


def _interpretacao(bruto: object, tipo: Tipo) -> tuple[Calendario, dict[str, str]]:
    """``interpretacao``: ``calendario`` (spec § 1) and the readings of § 6.1 and § 6.2 v4
    (:data:`LEITURAS_PROCESSO`), each defaulted (``imputacao`` by ``encargos``)."""
    leituras = {chave: opcoes[0] for chave, opcoes in LEITURAS_PROCESSO.items()}
    if bruto is None:
        return "expediente", leituras
    escolhido = _ler_interpretacao(bruto, tipo, leituras)
    if not isinstance(bruto, Mapping) or "imputacao" not in bruto:
        leituras["imputacao"] = IMPUTACAO_PADRAO[leituras["encargos"]]
    return escolhido, leituras


def _ler_interpretacao(bruto: object, tipo: Tipo, leituras: dict[str, str]) -> Calendario:
    if not isinstance(bruto, Mapping):
        raise EntradaInvalida(
            "interpretacao", 'deve ser um objeto, ex.: {"calendario": "feriados"}'
        )
    aceitas = ", ".join(
        chave
        for chave in ("calendario", *LEITURAS_PROCESSO)
        if tipo.nome == "anp" or chave not in LEITURAS_DO_DEVIDO
    )
    escolhido: Calendario = "expediente"
    for chave, opcao in bruto.items():
        if chave in LEITURAS_DO_DEVIDO and tipo.nome != "anp":
            raise EntradaInvalida(
                f"interpretacao.{chave}", "leitura do valor devido: só de um processo 'anp'"
            )
        if chave in LEITURAS_PROCESSO:
            opcoes = LEITURAS_PROCESSO[chave]
            opcao = ALIASES_LEITURA.get((chave, opcao), opcao) if isinstance(opcao, str) else opcao
            if opcao not in opcoes:
                raise EntradaInvalida(
                    f"interpretacao.{chave}",
                    f"opção inválida: {mostrar_valor(opcao)} (opções: {', '.join(opcoes)})",
                )
            leituras[chave] = opcao
            continue
        if chave != "calendario":
            raise EntradaInvalida(
                f"interpretacao.{chave}",
                f"leitura desconhecida para um processo (aceita: {aceitas})",
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
    if dados.get("origem") is not None:
        ids["origem"] = _origem(dados["origem"])
    return {chave: ids[chave] for chave in ("id", "cnpj", "nome", "origem") if chave in ids}


def _origem(bruto: object) -> dict[str, Any]:
    """Spec § 6.3 v4: ``origem``, the fine the processo was opened for, ``{"regime",
    "ano_meta", "cnpj"}`` (the distributor's ledger year and its notice); echoed as given."""
    if not isinstance(bruto, Mapping):
        raise EntradaInvalida(
            "origem",
            'deve ser um objeto {"regime": ..., "ano_meta": ..., "cnpj": ...}, não '
            f"{mostrar_valor(bruto)}",
        )
    for chave in bruto:
        if chave not in CAMPOS_ORIGEM:
            raise EntradaInvalida(
                f"origem.{chave}", f"campo desconhecido (campos: {', '.join(CAMPOS_ORIGEM)})"
            )
    regime, ano, cnpj = (bruto.get(c) for c in CAMPOS_ORIGEM)
    if not isinstance(regime, str) or not regime.strip() or len(regime) > 64:
        raise EntradaInvalida("origem.regime", "informe o regime da multa, um texto")
    if isinstance(ano, bool) or not isinstance(ano, int) or not 1 <= ano <= 9999:
        raise EntradaInvalida("origem.ano_meta", "informe o ano da meta, um inteiro de 1 a 9999")
    if not isinstance(cnpj, str) or not cnpj.strip() or len(cnpj) > 32:
        raise EntradaInvalida("origem.cnpj", "informe o CNPJ do distribuidor, um texto")
    return {"regime": regime, "ano_meta": ano, "cnpj": cnpj}


def _ler_evento(tipo: Tipo, bruto: object, i: int, com_valor_multa: bool) -> EventoDatado:
    onde = f"eventos[{i}]"
    if not isinstance(bruto, Mapping):
        raise EntradaInvalida(onde, 'cada evento deve ser um objeto {"evento": ..., "data": ...}')
    campos = {"pagamento": CAMPOS_PAGAMENTO, "parcelamento": CAMPOS_PARCELAMENTO}.get(
        str(bruto.get("evento")) if tipo.nome == "anp" else "", CAMPOS_EVENTO
    )
    for chave in bruto:
        if chave not in campos:
            exatamente = "{" + ", ".join(f'"{c}"' for c in campos) + "}"
            raise EntradaInvalida(
                f"{onde}.{chave}",
                f"campo desconhecido: um evento é exatamente {exatamente} ({mostrar_valor(chave)})",
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
    documentos = (
        () if bruto.get("documentos") is None else ler_documentos(bruto["documentos"], onde)
    )
    if nome == "parcelamento":
        return EventoDatado(nome, dia, plano=ler_plano(bruto, onde), documentos=documentos)
    bruto_valor = bruto.get("valor")
    if bruto_valor is None:
        return EventoDatado(nome, dia, documentos=documentos)
    if not com_valor_multa:
        raise EntradaInvalida(
            f"{onde}.valor",
            "informe valor_multa, a multa fixada na decisão, para registrar o valor de um "
            "pagamento (sem valor, o pagamento quita a multa)",
        )
    valor: Decimal = ler_valor(
        bruto_valor, Campo(f"{onde}.valor", "quantia_positiva", "", False, 0)
    )
    return EventoDatado(nome, dia, valor, documentos=documentos)


def _inteiro(bruto: object, campo: str, minimo: int = 1) -> int:
    if isinstance(bruto, bool) or not isinstance(bruto, int) or bruto < minimo:
        raise EntradaInvalida(
            campo, f"deve ser um número inteiro ≥ {minimo}, não {mostrar_valor(bruto)}"
        )
    return bruto


def ler_plano(bruto: Mapping[str, Any], onde: str = "") -> Plano:
    """Spec § 6.2 v4: ``parcelas`` (an integer; its maximum, art. 37-B caput, is checked
    with the schedule), ``valor_consolidado`` (an amount > 0) and, optionally,
    ``parcelas_para_rescisao`` (an integer from 1 to ``parcelas``), each on its own: every
    error at once (issue 37, item 9), the first the one a one-error reading gave. ``onde``:
    the event's place (``eventos[2]``), prefixed to each field's name."""
    prefixo = f"{onde}." if onde else ""
    coleta = Coleta()
    for campo in ("parcelas", "valor_consolidado"):
        if bruto.get(campo) is None:
            coleta.erros.append(
                EntradaInvalida(
                    f"{prefixo}{campo}",
                    "campo obrigatório num parcelamento (parcelas, valor_consolidado)",
                )
            )
    parcelas = consolidado = rescisao = None
    with coleta.campo():
        if bruto.get("parcelas") is not None:
            parcelas = _inteiro(bruto["parcelas"], f"{prefixo}parcelas")
    with coleta.campo():
        if bruto.get("valor_consolidado") is not None:
            consolidado = ler_valor(
                bruto["valor_consolidado"],
                Campo(f"{prefixo}valor_consolidado", "quantia_positiva", "", False, 0),
            )
    with coleta.campo():
        if bruto.get("parcelas_para_rescisao") is not None:
            rescisao = _inteiro(bruto["parcelas_para_rescisao"], f"{prefixo}parcelas_para_rescisao")
            if parcelas is not None and rescisao > parcelas:
                raise EntradaInvalida(
                    f"{prefixo}parcelas_para_rescisao",
                    f"no máximo o número de parcelas ({parcelas}), não {rescisao}",
                )
    coleta.levantar()
    assert parcelas is not None and isinstance(consolidado, Decimal)
    return Plano(parcelas, consolidado, rescisao)


@dataclass
class _Vistos:
    """What the events read so far say, kept as they are read (so that reading N events
    costs N steps, not N²: payments and suspensions may repeat)."""

    #: each event name → its last position and event
    por_nome: dict[str, tuple[int, EventoDatado]] = field(default_factory=dict)
    #: the events after which nothing (but their ``seguem``) may come
    terminais: list[EventoDatado] = field(default_factory=list)
    #: a court suspension is open
    suspensao_aberta: bool = False

    def acrescentar(self, tipo: Tipo, i: int, evento: EventoDatado) -> None:
        regra = tipo.eventos[evento.nome]
        if regra.suspensao:
            self.suspensao_aberta = evento.nome == "suspensao_judicial"
            return
        self.por_nome[evento.nome] = (i, evento)
        if regra.terminal:
            self.terminais.append(evento)


def _conferir_suspensao(
    primeiro: bool, aberta: bool, atual: EventoDatado, campo_evento: str
) -> None:
    """Court suspensions: after the first event, alternating, starting with a suspension."""
    if primeiro:
        raise EntradaInvalida(
            campo_evento,
            f"o evento {evento_citado(atual.nome)} não pode ser o primeiro do processo",
        )
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
    """An event that records what a provision created cannot be dated before the first day
    of the rule. That day is the parameter's, and so is what the message says of it: the
    rule (``descricao``), the provision and its wording, and the source of the date; it is
    not always the provision's own start (the list's targets from 01/01/2025 are the
    Parecer's cut-off, the article being of 17/04/2025: review 4, W7)."""
    if regra.desde is None:
        return
    parametro = legislacao.parametro(regra.desde)
    primeira = parametro.vigencias[0]
    if atual.data < primeira.inicio:
        raise EntradaInvalida(
            campo_data,
            f"a data do evento {evento_citado(atual.nome)} ({formatar_data(atual.data)}) é anterior a "
            f"{formatar_data(primeira.inicio)}, primeira data da regra: {parametro.descricao} "
            f"({primeira.fundamento}; fonte: {primeira.fonte.titulo})",
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
    ja_vistos: _Vistos,
    parcial: Callable[[], Processo],
    legislacao: Legislacao,
) -> None:
    """The order rules of § 6 for the event at position ``len(anteriores)`` (``ja_vistos``:
    what the events before it say; ``parcial``: the processo so far, built only when a rule
    needs it)."""
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
        _conferir_suspensao(not anteriores, ja_vistos.suspensao_aberta, atual, campo_evento)
        return
    vistos = ja_vistos.por_nome
    if atual.nome in vistos and not regra.repete:
        j = vistos[atual.nome][0]
        raise EntradaInvalida(
            campo_evento,
            f"evento repetido: {evento_citado(atual.nome)} já consta em eventos[{j}]; "
            "cada evento aparece no máximo uma vez",
        )
    for anterior in ja_vistos.terminais:
        anterior_regra = tipo.eventos[anterior.nome]
        if anterior_regra.terminal and atual.nome not in anterior_regra.seguem:
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
        processo_parcial = parcial()
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


def _prescricao_penal_anos(bruto: object, tipo: Tipo, legislacao: Legislacao) -> int | None:
    """Spec § 3.7 point 3 v4: one of the penal periods of the parameter
    ``ciclo.prescricao_penal_anos`` (Código Penal art. 109, texto não transcrito)."""
    if bruto is None:
        return None
    campo = "prescricao_penal_anos"
    if tipo.nome != "anp":
        raise EntradaInvalida(campo, "só um processo 'anp' tem prescricao_penal_anos")
    periodos = legislacao.parametro(f"ciclo.{campo}").vigencias[-1]
    if isinstance(bruto, bool) or not isinstance(bruto, int) or bruto not in periodos.valor:
        opcoes = ", ".join(str(n) for n in periodos.valor)
        raise EntradaInvalida(
            campo,
            f"deve ser um dos prazos de prescrição do {periodos.dispositivo} (texto não "
            f"transcrito), em anos: {opcoes}; não {mostrar_valor(bruto)}",
        )
    return bruto


def _encargo_legal_percentual(bruto: object, tipo: Tipo) -> Decimal | None:
    """Spec § 6.2 v4: the encargo legal's rate, in percent: a quantity ≥ 0 (its rate is in
    Decreto-Lei nº 1.025/1969, texto não transcrito, so the user gives it)."""
    if bruto is None:
        return None
    campo = "encargo_legal_percentual"
    if tipo.nome != "anp":
        raise EntradaInvalida(campo, "só um processo 'anp' tem encargo_legal_percentual")
    valor = para_decimal(bruto, campo)
    if valor < 0 or valor > 100:
        raise EntradaInvalida(
            campo, f"deve ser um percentual de 0 a 100, não {mostrar_valor(bruto)}"
        )
    return valor


def _conferir_plano(
    evento: EventoDatado, i: int, minimo: Decimal | None, legislacao: Legislacao
) -> None:
    """The plan's schedule can be drawn (art. 37-B: at most its instalments, each at least
    the minimum when given): an error names the event's field."""
    assert evento.plano is not None
    try:
        simular(
            evento.plano.valor_consolidado, evento.plano.parcelas, evento.data, legislacao, minimo
        )
    except EntradaInvalida as erro:
        raise EntradaInvalida(f"eventos[{i}].{erro.campo}", erro.mensagem) from None


def _valor_minimo_parcela(bruto: object, tipo: Tipo) -> Decimal | None:
    """Spec § 6.2 v4: the minimum instalment, set by an act of the Procurador-Geral Federal
    (art. 37-B § 9º): an amount > 0."""
    if bruto is None:
        return None
    campo = "valor_minimo_parcela"
    if tipo.nome != "anp":
        raise EntradaInvalida(campo, "só um processo 'anp' tem valor_minimo_parcela")
    valor: Decimal = ler_valor(bruto, Campo(campo, "quantia_positiva", "", False, 0))
    return valor


@dataclass(frozen=True, slots=True)
class _Campos:
    """A processo's fields besides its events' order, each read on its own (:func:`_ler_campos`)."""

    tipo: Tipo
    identificacao: dict[str, Any]
    calendario: Calendario
    leituras: dict[str, str]
    dias_sem_expediente: frozenset[Any]
    data_referencia: Any
    valor_multa: Decimal | None
    prescricao_penal_anos: int | None
    encargo_legal_percentual: Decimal | None
    valor_minimo_parcela: Decimal | None
    eventos: list[Any] | tuple[Any, ...]


def _ler_campos(dados: Mapping[str, Any], legislacao: Legislacao) -> _Campos:
    """Every field of the processo but its events' order, each read on its own: all their
    errors raised together (:class:`~multas.nucleo.erros.Coleta`), in the order a one-error
    reading found the first. Without a known ``tipo``, the fields that hang on it are not read."""
    coleta = Coleta()
    for chave in dados:
        if chave not in CAMPOS_PROCESSO:
            with coleta.campo():
                raise EntradaInvalida(
                    str(chave),
                    f"campo desconhecido para um processo (campos: {', '.join(CAMPOS_PROCESSO)})",
                )
    tipo: Tipo | None = None
    with coleta.campo():
        tipo = _tipo(dados.get("tipo"))
    lido: dict[str, Any] = {
        "identificacao": {},
        "dias_sem_expediente": frozenset(),
        "data_referencia": None,
        "valor_multa": None,
        "prescricao_penal_anos": None,
        "encargo_legal_percentual": None,
        "valor_minimo_parcela": None,
    }
    with coleta.campo():
        lido["identificacao"] = _identificacao(dados)
    if tipo is not None:
        with coleta.campo():
            lido["calendario"], lido["leituras"] = _interpretacao(dados.get("interpretacao"), tipo)
    with coleta.campo():
        if (extras := dados.get("dias_sem_expediente")) is not None:
            lido["dias_sem_expediente"] = ler_datas(extras, "dias_sem_expediente")
    with coleta.campo():
        if (bruta := dados.get("data_referencia")) is not None:
            lido["data_referencia"] = para_data(bruta, "data_referencia")
    if tipo is not None:
        with coleta.campo():
            lido["valor_multa"] = _valor_multa(dados.get("valor_multa"), tipo)
        with coleta.campo():
            lido["prescricao_penal_anos"] = _prescricao_penal_anos(
                dados.get("prescricao_penal_anos"), tipo, legislacao
            )
        with coleta.campo():
            lido["encargo_legal_percentual"] = _encargo_legal_percentual(
                dados.get("encargo_legal_percentual"), tipo
            )
        with coleta.campo():
            lido["valor_minimo_parcela"] = _valor_minimo_parcela(
                dados.get("valor_minimo_parcela"), tipo
            )
    with coleta.campo():
        lido["eventos"] = _lista_de_eventos(dados.get("eventos"), tipo)
    coleta.levantar()
    assert tipo is not None
    return _Campos(tipo=tipo, **lido)


def _lista_de_eventos(brutos: object, tipo: Tipo | None) -> list[Any] | tuple[Any, ...]:
    """``eventos``: a non-empty list (what each event is, and their order, is read after)."""
    if brutos is None:
        raise EntradaInvalida("eventos", "campo obrigatório: a lista de eventos do processo")
    if not isinstance(brutos, list | tuple):
        raise EntradaInvalida(
            "eventos", 'deve ser uma lista de eventos [{"evento": ..., "data": "AAAA-MM-DD"}]'
        )
    if not brutos and tipo is not None:
        raise EntradaInvalida(
            "eventos",
            f"a lista de eventos está vazia: um processo {mostrar_valor(tipo.nome)} começa com o evento "
            f"{evento_citado(tipo.primeiro.nome)}",
        )
    return brutos


def ler_processo(dados: object, legislacao: Legislacao | None = None) -> Processo:
    """Validate a raw processo (a JSON object) against § 6: every field's error at once
    (:func:`_ler_campos`); then the events, in order, where the first problem is the error
    (each event's rules hang on those before it)."""
    legislacao = legislacao or carregar()
    if not isinstance(dados, Mapping):
        raise EntradaInvalida(None, "o processo deve ser um objeto JSON")
    campos = _ler_campos(dados, legislacao)
    tipo, brutos = campos.tipo, campos.eventos
    calendario, leituras, identificacao = campos.calendario, campos.leituras, campos.identificacao
    dias_sem_expediente, data_referencia = campos.dias_sem_expediente, campos.data_referencia
    valor_multa, penal = campos.valor_multa, campos.prescricao_penal_anos
    encargo_legal, minimo = campos.encargo_legal_percentual, campos.valor_minimo_parcela
    eventos: list[EventoDatado] = []
    quitado_em: int | None = None

    def montar(lista: list[EventoDatado]) -> Processo:
        return Processo(
            tipo,
            tuple(lista),
            calendario,
            identificacao,
            dias_sem_expediente,
            data_referencia,
            valor_multa,
            **leituras,
            prescricao_penal_anos=penal,
            encargo_legal_percentual=encargo_legal,
            valor_minimo_parcela=minimo,
            quitado_em=quitado_em,
        )

    vistos = _Vistos()
    for i, bruto in enumerate(brutos):
        try:
            atual = _ler_evento(tipo, bruto, i, valor_multa is not None)
            _conferir_ordem(tipo, eventos, atual, vistos, lambda: montar(eventos), legislacao)
        except EntradaInvalida:
            # the first problem in list order: an event after the payment that settled
            # comes before this one's (or is this one, when it is no suspension)
            quitado_em = primeira_quitacao(montar(eventos), legislacao)
            if quitado_em is not None:
                _nada_depois_da_quitacao(tipo, eventos, quitado_em, proximo=bruto)
            raise
        eventos.append(atual)
        vistos.acrescentar(tipo, i, atual)
        if atual.plano is not None:
            _conferir_plano(atual, i, minimo, legislacao)
    quitado_em, previa = quitacao_e_previa(montar(eventos), legislacao)
    if quitado_em is not None:
        _nada_depois_da_quitacao(tipo, eventos, quitado_em)
    return replace(montar(eventos), previa=previa)  # what is owed goes on from its account


def _nada_depois_da_quitacao(
    tipo: Tipo, eventos: list[EventoDatado], quitado_em: int, proximo: object = None
) -> None:
    """Spec § 6.2 v4: nothing but a court suspension after the payment that leaves a zero
    balance (found in one pass once every event is read: :func:`primeira_quitacao`);
    ``proximo``, the raw event after ``eventos``, when it is the one being refused."""
    quitacao = eventos[quitado_em]
    nomes = [e.nome for e in eventos]
    if isinstance(proximo, Mapping):
        nomes.append(str(proximo.get("evento")))
    for j in range(quitado_em + 1, len(nomes)):
        definicao = tipo.eventos.get(nomes[j])
        if definicao is not None and definicao.suspensao:
            continue
        raise EntradaInvalida(
            f"eventos[{j}].evento",
            f"nenhum evento pode vir depois de {evento_citado('pagamento')} que quitou a multa "
            f"(eventos[{quitado_em}], {formatar_data(quitacao.data)}); "
            f"{evento_citado(nomes[j]) if definicao else mostrar_valor(nomes[j])} veio depois dele",
        )
