"""The work queue (issue 19, item 6): what the filters of ``multas pendencias`` (and its alias
``multas prazos proximos``), ``GET /api/v1/pendencias`` and the page ``/pendencias`` mean, read
and checked in one place, and the order of the queue. The queue itself is
:meth:`multas.servicos.gestao.Ciclo.pendencias`, the one function all of them call.

Readings (also in ``docs/ciclo.md``):

- **What is listed**: every deadline ``vencido`` on the reference date, whatever its age, and
  every deadline still pending (``em_aberto``, or ``suspenso`` while a court suspension is in
  force: its date may still matter, depending on the order's terms) whose date falls from the
  reference date to N days after it. ``todos`` adds the deadlines already met or closed in that
  window; ``vencidos = False`` leaves the overdue ones out.
- **A ``prescrito`` processo**: its deadlines are listed like any other (spec § 6 v3: a missed
  deadline never disappears), with the processo's ``estado``; ``prescritos = False`` hides
  them, and the queue says how many it hid.
- **The CNPJ** is compared in its normal form (:func:`multas.nucleo.cnpj.normalizar`), so
  ``12345678000195`` finds ``12.345.678/0001-95``.
- **The next actions** (spec § 6.1 v4, ``acoes``): one line per readable processo whose
  ``proxima_acao`` is not ``null``, whatever its dates (the window of ``dias`` is the
  deadlines'), ordered by ``ate`` (none last), then ``desde``, then the processo; ``responsavel``
  filters them on ``quem`` (``anp``, ``autuado``, ``procuradoria``, ``judiciario``), and
  ``cnpj``, ``estado`` and ``prescritos`` as the deadlines. An action past its ``ate`` has
  its ``dias_de_atraso``.
- **A stored processo that cannot be read** is listed first, with its ``erro``, unless a filter
  can exclude it on what is trusted of it: only the CNPJ filter can (a processo that § 6 now
  refuses keeps its CNPJ; one that does not match its history shows nothing but its number,
  and is always listed). ``responsavel``, ``estado`` and ``prescritos`` cannot say anything of
  a processo whose deadlines cannot be derived, so they never hide it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from multas.nucleo.ciclo.prazos import Prazo
from multas.nucleo.cnpj import ler_filtro, normalizar
from multas.nucleo.erros import EntradaInvalida, mostrar_valor
from multas.nucleo.eventos import ESTADOS as TODOS_OS_ESTADOS

#: the widest window, in days (about ten years)
DIAS_MAXIMO = 3660
#: the window when none is asked
DIAS_PADRAO = 30
#: who may be asked to act by a deadline (spec § 6 v3, ``responsavel``)
RESPONSAVEIS = ("anp", "autuado")
#: who may act next (spec § 6.1 v4, ``quem``): what ``responsavel`` filters on
QUEM = ("anp", "autuado", "procuradoria", "judiciario")
#: every estado a processo may be in (the tables of § 6, with ``prescrito``,
#: ``cobranca_prescrita`` and ``suspenso``)
ESTADOS = TODOS_OS_ESTADOS
#: the longest CNPJ filter accepted (a stored CNPJ has at most 32 characters)
CNPJ_MAXIMO = 64

#: every key of an item of the queue, in the CSV's order (an unreadable processo's row has
#: ``None`` where its deadline would be)
CAMPOS_ITEM = (
    "processo_id",
    "tipo",
    "id",
    "cnpj",
    "nome",
    "estado",
    "prazo",
    "rotulo",
    "data",
    "situacao",
    "responsavel",
    "dias_de_atraso",
    "dias_restantes",
    "fundamento",
    "contagem",
    "encerrado",
    # spec § 6.2 v4: what the processo owes on the queue's date (``devido.saldo``), if known
    "saldo",
    "erro",
)
#: every key of a next action's line (spec § 6.1 v4), in the CSV's order
CAMPOS_ACAO = (
    "processo_id",
    "tipo",
    "id",
    "cnpj",
    "nome",
    "estado",
    "quem",
    "o_que",
    "desde",
    "ate",
    "fundamento",
    "dias_de_atraso",
    "saldo",
)


@dataclass(frozen=True, slots=True)
class Filtros:
    """What the queue lists (read by :func:`ler_filtros`)."""

    referencia: date
    dias: int = DIAS_PADRAO
    responsavel: str | None = None
    cnpj: str | None = None
    estado: str | None = None
    #: list the deadlines of a ``prescrito`` processo
    prescritos: bool = True
    #: list the overdue deadlines
    vencidos: bool = True
    #: also the deadlines already met or closed, within the window
    todos: bool = False

    @property
    def ate(self) -> date:
        """The window's last day (31/12/9999 at most)."""
        return self.referencia + timedelta(days=min(self.dias, (date.max - self.referencia).days))

    @property
    def cnpj_normalizado(self) -> str | None:
        return normalizar(self.cnpj) if self.cnpj is not None else None

    def como_dict(self) -> dict[str, Any]:
        return {
            "responsavel": self.responsavel,
            "cnpj": self.cnpj,
            "estado": self.estado,
            "prescritos": self.prescritos,
            "vencidos": self.vencidos,
            "todos": self.todos,
        }


def ler_filtros(
    referencia: date,
    dias: int = DIAS_PADRAO,
    responsavel: str | None = None,
    cnpj: str | None = None,
    estado: str | None = None,
    prescritos: bool = True,
    vencidos: bool = True,
    todos: bool = False,
) -> Filtros:
    """The queue's filters, checked: an invalid one is an :class:`EntradaInvalida` naming the
    parameter, in pt-BR. An empty text (a form's empty field) is no filter.

    >>> ler_filtros(date(2026, 1, 1), responsavel="ANP")
    Traceback (most recent call last):
    ...
    multas.nucleo.erros.EntradaInvalida: responsavel: responsável desconhecido: 'ANP' (use anp, autuado, procuradoria ou judiciario)
    """
    if isinstance(dias, bool) or not isinstance(dias, int) or not 0 <= dias <= DIAS_MAXIMO:
        raise EntradaInvalida("dias", f"deve ser um número inteiro de 0 a {DIAS_MAXIMO}")
    responsavel = responsavel or None
    if responsavel is not None and responsavel not in QUEM:
        raise EntradaInvalida(
            "responsavel",
            f"responsável desconhecido: {mostrar_valor(responsavel)} "
            f"(use {', '.join(QUEM[:-1])} ou {QUEM[-1]})",
        )
    estado = estado or None
    if estado is not None and estado not in ESTADOS:
        raise EntradaInvalida(
            "estado",
            # the list grows with the spec (v4: 23): named where it is kept, not repeated in
            # every error (no message, whatever it echoes, passes 400 characters)
            f"estado desconhecido: {mostrar_valor(estado)}; os estados estão em 'multas "
            "pendencias --help' e em docs/ciclo.md#pendencias",
        )
    if estado == "prescrito" and not prescritos:
        raise EntradaInvalida(
            "prescritos",
            "estado prescrito com os prescritos ocultos não mostraria nada: escolha um dos dois",
        )
    if cnpj is not None and not cnpj.strip():
        cnpj = None
    if cnpj is not None and (len(cnpj) > CNPJ_MAXIMO or "\x00" in cnpj):
        raise EntradaInvalida("cnpj", f"CNPJ inválido: até {CNPJ_MAXIMO} caracteres")
    ler_filtro(cnpj, "cnpj")  # a text without a CNPJ's shape is an error, not an empty queue
    return Filtros(referencia, dias, responsavel, cnpj, estado, prescritos, vencidos, todos)


def na_fila(prazo: Prazo, filtros: Filtros) -> bool:
    """Whether one deadline of a readable processo is in the queue (the ``estado`` and
    ``prescritos`` filters are the processo's, applied by the caller)."""
    if filtros.responsavel is not None and prazo.responsavel != filtros.responsavel:
        return False
    if prazo.situacao == "vencido":
        return filtros.vencidos
    if not filtros.referencia <= prazo.data <= filtros.ate:
        return False
    return prazo.pendente or filtros.todos


def ordem(item: dict[str, Any]) -> tuple[int, str, int, str]:
    """The queue's order: overdue first (the most days late first), then by date; on the same
    date, by processo and deadline."""
    return (
        0 if item["situacao"] == "vencido" else 1,
        item["data"],
        item["processo_id"],
        item["prazo"],
    )


def ordem_das_acoes(item: dict[str, Any]) -> tuple[bool, str, str, int]:
    """Spec § 6.1 v4: by ``ate`` (none last), then ``desde``, then the processo."""
    return (item["ate"] is None, item["ate"] or "", item["desde"], item["processo_id"])


def com_todos_os_campos(item: dict[str, Any]) -> dict[str, Any]:
    """An item with every key of :data:`CAMPOS_ITEM` (``None`` where it has none), in order."""
    return {campo: item.get(campo) for campo in CAMPOS_ITEM} | item
