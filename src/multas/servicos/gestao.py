"""Stored processos, the ledger, the ANP's lists and the calendar, all derived through spec § 6
(:func:`multas.nucleo.ciclo.prazos.analisar`): the CLI, the API and the page call this class.

Readings beyond § 6 (also in ``docs/ciclo.md``):

- **Adding an event** validates the whole new list with § 6; a refused event is not stored and
  the error names the form's field (``evento`` or ``data``).
- **Stored means readable**: creating a processo or adding an event also computes its linked
  fine before storing (reading it back computes it), so one that cannot be computed is a 422
  and nothing is stored; the rest of what a reading derives (the information, the next events)
  is computable for every date up to 31/12/9999.
- **As of a date**: a processo "as of D" is its events dated on or before D (a prefix of the
  list, so § 6 accepts it too).
- **The sanctions list** (art. 6º-A) as of D: the ``renovabio.lista`` processos with
  ``inclusao_lista`` and without ``retirada_lista`` on or before D. **The balance list**
  (art. 9º-A): the same for ``renovabio.balanco``. **The referral list** (art. 6º § 4º): the
  ``renovabio.lista`` processos whose ``fim_prazo_meta`` is before D — the text refers to the
  distributors that did not prove their target *on that date*, so a later quitação does not
  take a name off (it is shown beside it) —, and only when D is on or after 17/04/2025, when
  § 4º was included.
- **The work queue** (``multas pendencias``; ``multas prazos proximos`` is its alias): the
  overdue deadlines and the pending ones due within N days, filtered (see
  :mod:`multas.nucleo.ciclo.pendencias`); § 6 itself keeps every deadline listed.
- **The linked fine**: for ``anp``, ``anp.mora`` on ``valor_multa`` (or the linked case's
  ``valor``) from the ``ciencia_decisao_definitiva`` to the payment (or to the date asked), with
  the processo's ``dias_sem_expediente`` (so its vencimento is the ``pagamento`` deadline); for
  ``renovabio.lista``, the linked ``renovabio.distribuidor`` case recomputed with
  ``data_quitacao`` = the ``quitacao_meta`` date (the 1/12 reduction).

The parts of :class:`Ciclo`, one module each (and their names re-exported here): the stored
processos and their linked fine (:mod:`multas.servicos.processos`), a processo's detail and the
linked processos (:mod:`multas.servicos.vinculados`), the work queue and the calendar
(:mod:`multas.servicos.pendencias`), the ANP's lists (:mod:`multas.servicos.listas`) and the
ledger (:mod:`multas.servicos.carteira`).
"""

from __future__ import annotations

from multas.servicos.carteira import CicloCarteira
from multas.servicos.evento_novo import ler_valor_multa
from multas.servicos.listas import LISTAS, CicloListas
from multas.servicos.processos import (
    CAMPOS_ALTERAVEIS,
    CAMPOS_ARMAZENADOS,
    CAMPOS_NAO_GRAVADOS,
    NaoEncontrado,
    ProcessoDerivado,
    rotulo_do_evento,
)
from multas.servicos.verificacao import CicloVerificacao
from multas.servicos.vinculados import CicloVinculados

__all__ = [
    "CAMPOS_ALTERAVEIS",
    "CAMPOS_ARMAZENADOS",
    "CAMPOS_NAO_GRAVADOS",
    "LISTAS",
    "Ciclo",
    "NaoEncontrado",
    "ProcessoDerivado",
    "ler_valor_multa",
    "rotulo_do_evento",
]


class Ciclo(CicloVinculados, CicloVerificacao, CicloListas, CicloCarteira):
    """The lifecycle over one repository: the stored processos, the work queue and the
    calendar, the ANP's lists and the ledger, each derived through spec § 6."""
