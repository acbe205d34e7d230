"""Linked processos (issue 19, item 5): an ``anp`` processo linked to the ``renovabio.lista``
processo of the same distributor, and the first-instance decision entered once for both.

Which date feeds which processo (spec § 6, the two event tables; also ``docs/ciclo.md``):

- the ``anp`` processo records the **ciência** of the first-instance decision,
  ``ciencia_primeira_instancia`` (the appeal deadline and the interruption of the limitation
  period count from it in § 6);
- the ``renovabio.lista`` processo records the **decision's own date**,
  ``decisao_primeira_instancia`` (Decreto 9.888/2019 art. 6º-A § 4º: the inclusion in the list
  follows the decision).

A date not given leaves its processo unchanged, with an aviso naming what is missing (unless
that processo already has its event). The
readings beyond the issue (a ciência before the decision refused; an event already stored on
the same date not appended again) are written down in ``docs/ciclo.md``.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from multas.nucleo.cnpj import normalizar as normalizar_cnpj
from multas.nucleo.datas import formatar_data, para_data
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.ids import id_valido
from multas.nucleo.rotulos import evento_citado
from multas.servicos.persistencia.ciclo import ProcessoArmazenado

#: the audit action of the decision entered for a linked pair
ACAO_DECISAO = "processo_decisao"
#: the fields of the decision's input
CAMPOS_DECISAO = ("data_decisao", "data_ciencia")
#: the event each processo of the pair records, and the input field that feeds it
EVENTO_ANP = "ciencia_primeira_instancia"
EVENTO_LISTA = "decisao_primeira_instancia"
#: what a message says of a processo the reader may not see, never named (:func:`validar_vinculo`)
OCULTO = "que não está entre os que você vê"


@dataclass(frozen=True, slots=True)
class Decisao:
    """The first-instance decision as entered: its own date and the date of its ciência, one
    of them or both."""

    data_decisao: date | None
    data_ciencia: date | None


def ler_vinculo(dados: object) -> int | None:
    """``{"lista_id": N}`` (``null``: undo the link) → the list processo's id.

    >>> ler_vinculo({"lista_id": 7}), ler_vinculo({"lista_id": None})
    (7, None)
    >>> ler_vinculo({"lista_id": 2**63})
    Traceback (most recent call last):
    ...
    multas.nucleo.erros.EntradaInvalida: lista_id: deve ser o número de um processo salvo (um inteiro de 1 a 9223372036854775807), ou null para desfazer o vínculo
    """
    if not isinstance(dados, Mapping):
        raise EntradaInvalida(None, 'o corpo deve ser um objeto JSON: {"lista_id": N}')
    for chave in dados:
        if chave != "lista_id":
            raise EntradaInvalida(
                str(chave), 'campo desconhecido: o vínculo é {"lista_id": N} (null o desfaz)'
            )
    if "lista_id" not in dados:
        raise EntradaInvalida(
            "lista_id",
            "campo obrigatório: o número do processo renovabio.lista (null desfaz o vínculo)",
        )
    bruto = dados["lista_id"]
    if bruto is None:
        return None
    if not id_valido(bruto):
        raise EntradaInvalida(
            "lista_id",
            "deve ser o número de um processo salvo (um inteiro de 1 a 9223372036854775807), "
            "ou null para desfazer o vínculo",
        )
    assert isinstance(bruto, int)
    return bruto


def _cnpj(texto: str | None) -> str | None:
    if texto is None:
        return None
    normalizado = normalizar_cnpj(texto)
    return normalizado or None


def validar_vinculo(
    anp: ProcessoArmazenado,
    lista_id: int | None,
    lista: ProcessoArmazenado | None,
    ocupante: int | None,
    nome: Callable[[int], str] = lambda numero: f"processo nº {numero}",
    ocultos: Container[int] = frozenset(),
) -> None:
    """The rules of a link (pt-BR errors naming the field): only ``anp`` → ``renovabio.lista``,
    the same CNPJ when both have one (compared normalised), neither already linked to
    another. ``ocupante``: the anp processo already linked to ``lista``, if any. ``nome``: how
    a message names a processo by its id (a file import names its referência: a processo it
    creates has no number until the file is accepted). ``ocultos``: the processos at the other
    end of a link that the reader may not see (another client's, or without a CNPJ, for a user
    limited to some clients): a conflict with one is refused without naming it, "outro
    processo", never by number nor referência."""
    if anp.tipo != "anp":
        raise EntradaInvalida(
            "processo_id",
            f"o {nome(anp.id)} é do tipo '{anp.tipo}': só um processo 'anp' se vincula "
            "(a um processo 'renovabio.lista')",
        )
    if lista_id is None:
        return
    if lista is None:
        raise EntradaInvalida("lista_id", f"processo {lista_id} não encontrado")
    if lista.tipo != "renovabio.lista":
        raise EntradaInvalida(
            "lista_id",
            f"o {nome(lista.id)} é do tipo '{lista.tipo}': um processo 'anp' só se "
            "vincula a um processo 'renovabio.lista'",
        )
    if anp.lista_id is not None and anp.lista_id != lista.id:
        raise EntradaInvalida(
            "lista_id",
            f"o {nome(anp.id)} já está vinculado a outro processo, {OCULTO}: só quem o vê pode "
            "desfazer esse vínculo"
            if anp.lista_id in ocultos
            else f"o {nome(anp.id)} já está vinculado ao {nome(anp.lista_id)}: desfaça "
            'esse vínculo antes ({"lista_id": null}; multas processo vincular ID --desfazer)',
        )
    if ocupante is not None:
        raise EntradaInvalida(
            "lista_id",
            f"o {nome(lista.id)} já está vinculado a outro processo (anp), {OCULTO}"
            if ocupante in ocultos
            else f"o {nome(lista.id)} já está vinculado ao {nome(ocupante)} (anp)",
        )
    de_anp, de_lista = _cnpj(anp.cnpj), _cnpj(lista.cnpj)
    if de_anp is not None and de_lista is not None and de_anp != de_lista:
        raise EntradaInvalida(
            "lista_id",
            f"o CNPJ do {nome(lista.id)} ({lista.cnpj}) difere do CNPJ do {nome(anp.id)} "
            f"({anp.cnpj}): os processos vinculados são do mesmo distribuidor",
        )


def ler_decisao(dados: object) -> Decisao:
    """``{"data_decisao", "data_ciencia"}`` (AAAA-MM-DD; one of them or both)."""
    if not isinstance(dados, Mapping):
        raise EntradaInvalida(
            None,
            'o corpo deve ser um objeto JSON: {"data_decisao": "AAAA-MM-DD", '
            '"data_ciencia": "AAAA-MM-DD"}',
        )
    for chave in dados:
        if chave not in CAMPOS_DECISAO:
            raise EntradaInvalida(
                str(chave),
                "campo desconhecido: a decisão de primeira instância tem data_decisao e "
                "data_ciencia",
            )
    datas = {
        campo: None if dados.get(campo) in (None, "") else para_data(dados[campo], campo)
        for campo in CAMPOS_DECISAO
    }
    decisao = Decisao(datas["data_decisao"], datas["data_ciencia"])
    if decisao.data_decisao is None and decisao.data_ciencia is None:
        raise EntradaInvalida(
            "data_decisao",
            "informe a data da decisão (data_decisao), a da ciência dela (data_ciencia) ou as duas",
        )
    if (
        decisao.data_decisao is not None
        and decisao.data_ciencia is not None
        and decisao.data_ciencia < decisao.data_decisao
    ):
        raise EntradaInvalida(
            "data_ciencia",
            f"a ciência ({formatar_data(decisao.data_ciencia)}) é anterior à decisão "
            f"({formatar_data(decisao.data_decisao)})",
        )
    return decisao


def _guardado(processo: ProcessoArmazenado, evento: str) -> date | None:
    return next((e.data for e in processo.eventos if e.evento == evento), None)


def planejar_decisao(
    decisao: Decisao,
    anp: ProcessoArmazenado,
    lista: ProcessoArmazenado,
    conferir: Callable[[ProcessoArmazenado, Sequence[tuple[str, date]]], object],
) -> dict[int, list[tuple[str, date]]]:
    """The events to append to each processo of the pair (by id), each checked by
    ``conferir`` (§ 6 and the linked fine on the processo with it appended); an error names
    the input field that feeds the event, and the processo."""
    decisao_guardada = _guardado(lista, EVENTO_LISTA)
    ciencia_guardada = _guardado(anp, EVENTO_ANP)
    decidido = decisao.data_decisao or decisao_guardada
    ciente = decisao.data_ciencia or ciencia_guardada
    if decidido is not None and ciente is not None and ciente < decidido:
        campo = "data_ciencia" if decisao.data_ciencia is not None else "data_decisao"
        raise EntradaInvalida(
            campo,
            f"a ciência ({formatar_data(ciente)}, processo nº {anp.id}) seria anterior à "
            f"decisão ({formatar_data(decidido)}, processo nº {lista.id})",
        )
    plano: dict[int, list[tuple[str, date]]] = {anp.id: [], lista.id: []}
    for processo, evento, dia, campo in (
        (anp, EVENTO_ANP, decisao.data_ciencia, "data_ciencia"),
        (lista, EVENTO_LISTA, decisao.data_decisao, "data_decisao"),
    ):
        if dia is None:
            continue
        guardada = _guardado(processo, evento)
        if guardada == dia:
            continue  # already recorded (a repeated request): nothing to append
        if guardada is not None:
            raise EntradaInvalida(
                campo,
                f"o processo nº {processo.id} já tem {evento_citado(evento)} em {formatar_data(guardada)}: "
                "para trocar a data, desfaça esse evento antes",
            )
        try:
            conferir(processo, [(evento, dia)])
        except EntradaInvalida as erro:
            raise EntradaInvalida(
                campo, f"processo nº {processo.id} ({evento_citado(evento)}): {erro.mensagem}"
            ) from None
        plano[processo.id] = [(evento, dia)]
    return plano


def resultado_da_decisao(
    decisao: Decisao,
    anp: ProcessoArmazenado,
    lista: ProcessoArmazenado,
    detalhes: list[dict[str, Any]],
) -> dict[str, Any]:
    """What the operation answers: each event (appended, or already stored), the avisos and
    the two processos as stored now (``anp`` and ``lista`` their state before the change)."""
    eventos: list[dict[str, Any]] = []
    avisos: list[str] = []
    for processo, evento, dia, campo in (
        (anp, EVENTO_ANP, decisao.data_ciencia, "data_ciencia"),
        (lista, EVENTO_LISTA, decisao.data_decisao, "data_decisao"),
    ):
        if dia is None:
            continue
        ja = _guardado(processo, evento) == dia
        eventos.append(
            {
                "processo_id": processo.id,
                "tipo": processo.tipo,
                "evento": evento,
                "data": dia.isoformat(),
                "campo": campo,
                "acrescentado": not ja,
            }
        )
        if ja:
            avisos.append(
                f"O processo nº {processo.id} já tinha {evento_citado(evento)} em {formatar_data(dia)}: nada "
                "foi acrescentado a ele."
            )
    # a date not given is worth an aviso only while its processo still lacks the event
    if decisao.data_ciencia is None and _guardado(anp, EVENTO_ANP) is None:
        avisos.append(
            f"A data da ciência da decisão (data_ciencia) não foi informada: o processo anp nº "
            f"{anp.id} não foi alterado; registre {evento_citado(EVENTO_ANP)} quando a ciência for conhecida."
        )
    if decisao.data_decisao is None and _guardado(lista, EVENTO_LISTA) is None:
        avisos.append(
            f"A data da decisão (data_decisao) não foi informada: o processo renovabio.lista "
            f"nº {lista.id} não foi alterado; registre {evento_citado(EVENTO_LISTA)} quando a data da "
            "decisão for conhecida."
        )
    return {
        "processo_anp": anp.id,
        "processo_lista": lista.id,
        "eventos": eventos,
        "avisos": avisos,
        "processos": detalhes,
    }
