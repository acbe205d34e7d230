"""One event to append to a stored processo (:meth:`Ciclo.acrescentar`: the API, the page's
event form, the command line), its fields read each on its own: every error at once (issue 37,
item 9), the first the one a one-error reading gave; then § 6 judges it against the events
before it, where the first problem is the error (each rule hangs on those before), but a
parcelamento's plan, whose fields are each read on their own there too."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal

from multas.nucleo.ciclo.leitura import ler_plano
from multas.nucleo.ciclo.processo import CAMPOS_EVENTO, CAMPOS_PAGAMENTO, CAMPOS_PARCELAMENTO
from multas.nucleo.contrato import JSON, Leitura
from multas.nucleo.datas import para_data
from multas.nucleo.dinheiro import para_json
from multas.nucleo.erros import Coleta, EntradaInvalida, mostrar_valor
from multas.nucleo.rotulos import evento_citado
from multas.servicos.documentos import recusar_metadados


def ler_valor_multa(
    bruto: object, campo: str = "valor_multa", leitura: Leitura = JSON
) -> str | None:
    """A stored processo's ``valor_multa`` (anp: the fine fixed), as the text it is stored as:
    an amount in reais above zero (``principal``, its deprecated name, in ``campo``; a table's
    cell read as ``leitura`` says).

    >>> ler_valor_multa("1500.50"), ler_valor_multa(None)
    ('1500.50', None)
    >>> ler_valor_multa("1.500,50", leitura=Leitura(tabela=True, decimal_virgula=True))
    '1500.50'
    """
    if bruto is None:
        return None
    from multas.nucleo.contrato import Campo, ler_valor

    valor = ler_valor(bruto, Campo(campo, "quantia_positiva", "", False, 0), leitura)
    return f"{valor:f}"


@dataclass(frozen=True, slots=True)
class EventoNovo:
    """The event as read: its name, date, a payment's ``valor`` (as stored) and what § 6 reads
    with it besides (``extra``: the valor, a parcelamento's plan, the documents)."""

    nome: str
    dia: date
    valor: str | None = None
    extra: dict[str, object] = field(default_factory=dict)


def ler_evento_novo(
    dados: Mapping[str, object], documentos: Sequence[Mapping[str, object]] = ()
) -> EventoNovo:
    """``{"evento", "data"}`` (a ``pagamento`` may carry ``valor``, a ``parcelamento`` its
    plan, spec § 6.2 v4), each field on its own; ``documentos``: what the event records of its
    files (read by § 6 too)."""
    coleta = Coleta()
    with coleta.campo():
        recusar_metadados(dados.get("documentos"), "documentos")
    campos = {"pagamento": CAMPOS_PAGAMENTO, "parcelamento": CAMPOS_PARCELAMENTO}.get(
        str(dados.get("evento")), CAMPOS_EVENTO
    )
    exatamente = "{" + ", ".join(f'"{c}"' for c in campos) + "}"
    for chave in dados:
        if chave not in campos:
            with coleta.campo():
                raise EntradaInvalida(
                    str(chave), f"campo desconhecido: um evento é exatamente {exatamente}"
                )
    nome, bruto_data = dados.get("evento"), dados.get("data")
    with coleta.campo():
        if nome is None or nome == "":
            raise EntradaInvalida("evento", "campo obrigatório: o nome do evento")
        if not isinstance(nome, str):
            raise EntradaInvalida("evento", f"evento desconhecido: {mostrar_valor(nome)}")
    dia: date | None = None
    with coleta.campo():
        if bruto_data is None or bruto_data == "":
            do_evento = f" {evento_citado(nome)}" if isinstance(nome, str) and nome else ""
            raise EntradaInvalida("data", f"campo obrigatório: a data do evento{do_evento}")
        dia = para_data(bruto_data, "data")
    valor: str | None = None
    with coleta.campo():  # spec § 6.2 v4: an amount > 0, stored as the contract writes it
        if dados.get("valor") is not None:
            valor = para_json(Decimal(ler_valor_multa(dados["valor"], "valor") or "0"))
    if coleta.erros and nome == "parcelamento":
        # the plan's errors beside the others' (alone, § 6 gives them, after what it judges
        # first: the event's name for the processo's type, its order)
        with coleta.campo():
            ler_plano(dados)
    coleta.levantar()
    assert isinstance(nome, str) and dia is not None
    # spec § 6.2 v4: a parcelamento's plan, read (and refused) by § 6 with the event
    extra: dict[str, object] = {
        c: dados[c] for c in CAMPOS_PARCELAMENTO[2:-1] if dados.get(c) is not None
    }
    if documentos:
        extra["documentos"] = list(documentos)
    if valor is not None:
        extra["valor"] = valor
    return EventoNovo(nome, dia, valor, extra)
