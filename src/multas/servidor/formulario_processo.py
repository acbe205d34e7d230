"""The new processo's form (``/processos``), read: every field's error at once (issue 37, item
9), each named by the form's field; the rules are :meth:`multas.servicos.gestao.Ciclo.preparar`'s,
the same as ``POST /api/v1/processos``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from multas.nucleo.dinheiro import normalizar_ptbr, quantia_digitada
from multas.nucleo.erros import EntradaInvalida, ErrosDeEntrada, levantar
from multas.nucleo.eventos import TIPOS
from multas.servidor.formulario import data_do_formulario, datas_do_campo

#: the form field of a processo's list of dates (the name § 6 and the API give it)
DIAS = "dias_sem_expediente"
#: the new processo form's fields and their labels (the error summary's links)
ROTULOS_PROCESSO = {
    "tipo": "Tipo",
    "data": "Data do primeiro evento",
    "id": "Identificador",
    "cnpj": "CNPJ",
    "nome": "Nome",
    "calendario": "Dias sem expediente",
    DIAS: "Outros dias sem expediente na repartição",
    "valor_multa": "Multa fixada",
    "caso_id": "Caso salvo da multa",
}


#: the event form's fields (on a processo's page) and their labels; a document's error
#: (``documentos[2]``) is the file field's, ``documento``
ROTULOS_EVENTO = {
    "evento": "Evento",
    "data": "Data",
    "valor": "Valor pago",
    "parcelas": "Número de prestações",
    "valor_consolidado": "Valor consolidado",
    "parcelas_para_rescisao": "Prestações em atraso que rescindem",
    "documento": "Documentos",
}


def erro_dos_dias(erro: EntradaInvalida, todo: bool = False) -> EntradaInvalida:
    """An error about one of the dates (``dias_sem_expediente[2]``) belongs to the form's one
    field: named by it, the exact place kept in the message. With ``todo`` (the form that sends
    only the list), every error is the list's: a deadline it would push past 31/12/9999 too."""
    if erro.campo == DIAS:
        return erro
    if todo or (erro.campo or "").startswith(f"{DIAS}["):
        detalhe = f" ({erro.campo})" if erro.campo else ""
        return EntradaInvalida(DIAS, f"{erro.mensagem}{detalhe}")
    return erro


def ler_novo_processo(dados: Mapping[str, str]) -> tuple[dict[str, Any], list[EntradaInvalida]]:
    """The processo the form describes (its first event dated by ``data``), and the errors of
    the fields the form reads itself (the date, the list of dates), each on its own: a field in
    error is left out, for the others to be checked (:func:`com_os_outros_erros`)."""
    tipo = dados.get("tipo", "")
    corpo: dict[str, Any] = {"tipo": tipo}
    for chave in ("id", "cnpj", "nome"):
        if dados.get(chave, "").strip():
            corpo[chave] = dados[chave].strip()
    if dados.get("calendario") in ("expediente", "feriados"):
        corpo["interpretacao"] = {"calendario": dados["calendario"]}
    if dados.get("valor_multa", "").strip():
        corpo["valor_multa"] = normalizar_ptbr(dados["valor_multa"].strip())
    if dados.get("caso_id", "").strip():
        texto = dados["caso_id"].strip()
        # ASCII digits only: int() refuses '²', which isdigit() accepts (it was a 500)
        digitos = texto.isascii() and texto.isdigit()
        corpo["caso_id"] = int(texto) if digitos and len(texto) < 10 else texto
    erros: list[EntradaInvalida] = []
    try:
        if dias := datas_do_campo(dados.get(DIAS, ""), DIAS):
            corpo[DIAS] = dias
    except EntradaInvalida as erro:
        erros.append(erro)
    if tipo in TIPOS:
        try:
            data = data_do_formulario(dados.get("data", ""), "data")
            corpo["eventos"] = [{"evento": TIPOS[tipo].primeiro.nome, "data": data}]
        except EntradaInvalida as erro:
            erros.append(erro)
    return corpo, erros


def com_os_outros_erros(
    erros: list[EntradaInvalida],
    preparar: Callable[[dict[str, Any]], object],
    corpo: dict[str, Any],
) -> None:
    """Raise the form's own ``erros`` with every other field's that ``preparar`` (the check of
    :meth:`Ciclo.criar`, which stores nothing) finds in ``corpo``; a field already in error is
    not blamed twice (a missing first event is the date's)."""
    outros: tuple[EntradaInvalida, ...] = ()
    try:
        preparar(corpo)
    except EntradaInvalida as erro:
        outros = erro.todos()
    ja = {e.campo for e in erros}
    levantar([*erros, *(e for e in outros if no_campo_do_formulario(e).campo not in ja)])


def no_campo_do_formulario(erro: EntradaInvalida) -> EntradaInvalida:
    """One error as the form's field: the first event's (``eventos[0].data``) is the date's,
    one of the list of dates is the list's."""
    if (erro.campo or "").startswith("eventos"):
        return EntradaInvalida("data", erro.mensagem)
    return erro_dos_dias(erro)


def no_formulario(erro: EntradaInvalida) -> EntradaInvalida:
    """Every error of a submit, each as the form's field (:func:`no_campo_do_formulario`)."""
    todos = [no_campo_do_formulario(e) for e in erro.todos()]
    return todos[0] if len(todos) == 1 else ErrosDeEntrada(todos)


def campo_do_evento(campo: str) -> str:
    """The event form's field of an error: a document's (``documentos[2]``) is the file's."""
    return "documento" if campo.startswith("documentos") else campo


def corpo_do_evento(dados: Mapping[str, str]) -> dict[str, Any]:
    """The event the form describes, but its date (read by the page: dd/mm/aaaa) and files:
    amounts as people type them, a plan's counts as integers when they are digits."""
    corpo: dict[str, Any] = {"evento": dados.get("evento", "")}
    valor = dados.get("valor", "").strip()
    if valor:  # spec § 6.2 v4: a payment's amount
        corpo["valor"] = quantia_digitada(valor)
    for campo in ("parcelas", "parcelas_para_rescisao"):  # a parcelamento's plan
        texto = dados.get(campo, "").strip()
        if texto:
            corpo[campo] = (
                int(texto) if texto.isascii() and texto.isdigit() and len(texto) < 6 else texto
            )
    consolidado = dados.get("valor_consolidado", "").strip()
    if consolidado:
        corpo["valor_consolidado"] = quantia_digitada(consolidado)
    return corpo
