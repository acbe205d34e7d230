"""The work queue and the calendar (``multas pendencias``, ``multas prazos proximos``, the
iCalendar export): the deadlines of every stored processo, filtered as
:mod:`multas.nucleo.ciclo.pendencias` says."""

from __future__ import annotations

from datetime import date
from typing import Any

from multas.nucleo.ciclo.pendencias import (
    Filtros,
    com_todos_os_campos,
    na_fila,
    ordem,
    ordem_das_acoes,
)
from multas.nucleo.ciclo.prazos import Prazo
from multas.nucleo.cnpj import ler_filtro
from multas.nucleo.cnpj import normalizar as normalizar_cnpj
from multas.nucleo.dinheiro import para_json
from multas.nucleo.eventos import rotulo_do_prazo
from multas.servicos.processos import CicloProcessos, ProcessoDerivado
from multas.servicos.relogio import hoje as hoje_em_brasilia


class CicloPendencias(CicloProcessos):
    """The deadlines across the stored processos: the work queue and the calendar."""

    def pendencias(self, filtros: Filtros) -> dict[str, Any]:
        """The work queue, judged on ``filtros.referencia``: every overdue deadline
        (``vencido``, whatever its date) and every pending one due from the reference date to
        ``filtros.ate``, across all stored processos, filtered (:mod:`multas.nucleo.ciclo.pendencias`
        says how). A processo that cannot be read comes first, with its ``erro``; then the
        overdue deadlines, the most days late first; then the others by date. Beside them,
        ``acoes``: the next action of each processo (spec § 6.1 v4). The one function
        behind ``multas pendencias``, ``multas prazos proximos``, ``GET /api/v1/pendencias``,
        ``GET /api/v1/prazos/proximos`` and the pages ``/pendencias`` and ``/prazos``."""
        referencia, ate = filtros.referencia, filtros.ate
        cnpj = filtros.cnpj_normalizado
        itens: list[dict[str, Any]] = []
        acoes: list[dict[str, Any]] = []
        erros: list[dict[str, Any]] = []
        prescritos_ocultos = 0
        for derivado in self.todos(referencia):
            armazenado = derivado.armazenado
            # a record that does not match its history: its CNPJ is not trusted, so no filter
            # hides it
            confiavel = armazenado.erro is None
            if cnpj is not None and confiavel and normalizar_cnpj(armazenado.cnpj or "") != cnpj:
                continue
            if derivado.erro is not None:
                erros.append(com_todos_os_campos(self._item_erro(derivado)))
                continue
            situacao = derivado.valido
            if filtros.estado is not None and situacao.estado != filtros.estado:
                continue
            acao = situacao.proxima_acao
            oculto = situacao.estado == "prescrito" and not filtros.prescritos
            if acao is not None and not oculto and filtros.responsavel in (None, acao.quem):
                acoes.append(self._item_acao(derivado, referencia))
            for prazo in situacao.prazos:
                if not na_fila(prazo, filtros):
                    continue
                if situacao.estado == "prescrito" and not filtros.prescritos:
                    prescritos_ocultos += 1
                    continue
                itens.append(self._item_prazo(derivado, prazo, referencia))
        itens.sort(key=ordem)
        acoes.sort(key=ordem_das_acoes)
        erros.sort(key=lambda item: item["processo_id"])
        return {
            "data_referencia": referencia.isoformat(),
            "hoje": referencia.isoformat(),
            "dias": filtros.dias,
            "ate": ate.isoformat(),
            "filtros": filtros.como_dict(),
            "acoes": acoes,
            "prazos": erros + itens,
            "prescritos_ocultos": prescritos_ocultos,
        }

    def _item_acao(self, derivado: ProcessoDerivado, hoje: date) -> dict[str, Any]:
        """One line of the next actions (spec § 6.1 v4): the processo and its
        ``proxima_acao``, with the days past its ``ate``."""
        armazenado = derivado.armazenado
        acao = derivado.valido.proxima_acao
        assert acao is not None
        return {
            "processo_id": armazenado.id,
            "tipo": armazenado.tipo,
            "id": armazenado.identificador,
            "cnpj": armazenado.cnpj,
            "nome": armazenado.nome,
            "estado": derivado.valido.estado,
            **acao.como_dict(),
            "dias_de_atraso": acao.dias_de_atraso(hoje),
            "saldo": _saldo(derivado),
        }

    def proximos(
        self,
        hoje: date,
        dias: int,
        incluir_encerrados: bool = False,
        incluir_vencidos: bool = True,
    ) -> list[dict[str, Any]]:
        """The items of :meth:`pendencias` with no filter but these (its former name)."""
        filtros = Filtros(hoje, dias, vencidos=incluir_vencidos, todos=incluir_encerrados)
        itens: list[dict[str, Any]] = self.pendencias(filtros)["prazos"]
        return itens

    def _item_prazo(self, derivado: ProcessoDerivado, prazo: Prazo, hoje: date) -> dict[str, Any]:
        armazenado = derivado.armazenado
        vencido = prazo.situacao == "vencido"
        return com_todos_os_campos(
            {
                "processo_id": armazenado.id,
                "tipo": armazenado.tipo,
                "id": armazenado.identificador,
                "cnpj": armazenado.cnpj,
                "nome": armazenado.nome,
                "estado": derivado.valido.estado,
                "prazo": prazo.nome,
                "rotulo": rotulo_do_prazo(prazo.nome),
                "responsavel": prazo.responsavel,
                "data": prazo.data.isoformat(),
                "fundamento": prazo.fundamento,
                "contagem": prazo.contagem,
                "situacao": prazo.situacao,
                "encerrado": not prazo.pendente,
                "dias_de_atraso": (hoje - prazo.data).days if vencido else 0,
                "dias_restantes": 0 if vencido else max(0, (prazo.data - hoje).days),
                "saldo": _saldo(derivado),
            }
        )

    def todos_os_prazos(
        self, hoje: date | None = None, cnpj: str | None = None, processo_id: int | None = None
    ) -> list[dict[str, Any]]:
        """Every deadline of the stored processos (for the iCalendar export), judged on
        ``hoje``: all of them, one client's (``cnpj``, compared in its normal form, as the work
        queue does: a processo that does not match its history is never hidden by it), or one
        processo's (``processo_id``). A processo that cannot be read comes first, with its
        ``erro``."""
        itens, erros = [], []
        referencia = hoje or hoje_em_brasilia()
        if processo_id is not None:
            derivados = [self.obter(processo_id, referencia)]
        else:
            derivados = self.todos(referencia)
        normal = ler_filtro(cnpj, "cnpj")
        for derivado in derivados:
            armazenado = derivado.armazenado
            if (
                normal is not None
                and armazenado.erro is None
                and normalizar_cnpj(armazenado.cnpj or "") != normal
            ):
                continue
            if derivado.erro is not None:
                erros.append(self._item_erro(derivado))
                continue
            for prazo in derivado.valido.prazos:
                itens.append(self._item_prazo(derivado, prazo, referencia))
        itens.sort(key=lambda i: (i["data"], i["processo_id"], i["prazo"]))
        return erros + itens


def _saldo(derivado: ProcessoDerivado) -> str | None:
    """Spec § 6.2 v4: the balance the processo owes on the queue's date, as JSON money, or
    ``None`` when it has no ``devido`` (no fine fixed, no definitive decision)."""
    devido = derivado.valido.devido
    return None if devido is None else para_json(devido.saldo)
