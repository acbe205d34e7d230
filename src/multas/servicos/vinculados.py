"""A stored processo's detail, and the linked processos (issue 19, item 5): the link
between an ``anp`` processo and its distributor's ``renovabio.lista`` one, and the
first-instance decision entered once for both (:mod:`multas.servicos.vinculos` checks and
plans them)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from multas.nucleo.erros import EntradaInvalida
from multas.servicos.persistencia import USUARIO_PADRAO
from multas.servicos.persistencia.ciclo import ProcessoArmazenado
from multas.servicos.processos import (
    CicloProcessos,
    NaoEncontrado,
    ProcessoDerivado,
    rotulo_do_evento,
)
from multas.servicos.relogio import hoje as hoje_em_brasilia
from multas.servicos.vinculos import (
    ACAO_DECISAO,
    ler_decisao,
    ler_vinculo,
    planejar_decisao,
    resultado_da_decisao,
    validar_vinculo,
)


class CicloVinculados(CicloProcessos):
    """A processo's detail; linking two processos and the decision they share."""

    def detalhe(self, derivado: ProcessoDerivado, hoje: date) -> dict[str, Any]:
        """A stored processo as JSON: what was stored, § 6's result, the information beyond
        it, the linked fine (to ``hoje``) and the events it accepts next."""
        a = derivado.armazenado
        vinculo = self._vinculo(a)
        # a linked case the reader may not see (another client's) is not named
        caso_id = a.caso_id
        if caso_id is not None and caso_id not in self.repositorio.casos_visiveis([caso_id]):
            caso_id = None
        detalhe: dict[str, Any] = {
            "processo_id": a.id,
            "tipo": a.tipo,
            "id": a.identificador,
            "cnpj": a.cnpj,
            "nome": a.nome,
            "origem": a.origem,
            "calendario": a.calendario,
            # the readings and the penal period it keeps (migration r0013), as it reads them
            "leituras": a.leituras or {},
            "valor_multa": a.valor_multa,
            "dias_sem_expediente": a.dias_sem_expediente or [],
            "caso_id": caso_id,
            # a link to a processo the reader may not see (another client's) is not shown
            "lista_id": a.lista_id if vinculo is not None else None,
            "vinculo": vinculo,
            "usuario": a.usuario,
            "criado_em": a.criado_em.isoformat(),
            "atualizado_em": a.atualizado_em.isoformat(),
            "eventos": [
                {
                    "evento": e.evento,
                    "rotulo": rotulo_do_evento(a.tipo, e.evento),
                    "data": e.data.isoformat(),
                    "usuario": e.usuario,
                    "registrado_em": e.criado_em.isoformat(),
                    **({"valor": e.valor} if e.valor is not None else {}),
                    **(dict(e.plano) if isinstance(e.plano, Mapping) else {}),
                    # spec § 6.2 v4: its documents (sha256, nome, tipo, bytes), to download
                    **({"documentos": e.documentos} if e.documentos is not None else {}),
                }
                for e in a.eventos
            ],
        }
        if derivado.erro is not None:
            # stored, but § 6 refuses it as the rules stand: its events are shown, nothing
            # derived from them; undoing the last event is how it is corrected
            return detalhe | {
                "resultado": None,
                "estado_rotulo": "não pôde ser avaliado",
                "erro": derivado.erro,
                "informacoes": [],
                "multa": None,
                "eventos_possiveis": [],
            }
        return detalhe | {
            "resultado": derivado.resultado,
            "estado_rotulo": derivado.valido.estado_rotulo,
            "informacoes": self.informacoes(derivado, hoje),
            "multa": self.multa_vinculada(derivado, hoje),
            "eventos_possiveis": [
                {"evento": nome, "rotulo": rotulo} for nome, rotulo in self.eventos_possiveis(a)
            ],
        }

    def _vinculo(self, armazenado: ProcessoArmazenado) -> dict[str, Any] | None:
        """The processo linked to this one, as the detail shows it (its number and tipo)."""
        if armazenado.tipo not in ("anp", "renovabio.lista"):
            return None
        outro = self.repo.vinculado(armazenado)
        if outro is None:
            return None
        return {
            "processo_id": outro,
            "tipo": "renovabio.lista" if armazenado.tipo == "anp" else "anp",
        }

    # --- linked processos (issue 19, item 5) ------------------------------------------------

    def vincular(
        self, processo_id: int, dados: object, usuario: str = USUARIO_PADRAO
    ) -> ProcessoDerivado:
        """Link the ``anp`` processo to the ``renovabio.lista`` processo of the same
        distributor: ``{"lista_id": N}`` (``{"lista_id": null}`` undoes the link). Refused,
        naming the field, when the processo is not ``anp``, the other is not a list processo
        or does not exist, their CNPJs differ (compared normalised, when both have one), or
        either is already linked to another; linking again to the same one stores nothing.
        For a user limited to some clients, a processo they do not see is one that does not
        exist, and a link to it is no link: undoing it stores nothing, and a conflict with it
        does not name it (:meth:`RepositorioProcessos.vincular`)."""
        lista_id = ler_vinculo(dados)

        def validar(
            anp: ProcessoArmazenado,
            lista: ProcessoArmazenado | None,
            ocupante: int | None,
            ocultos: frozenset[int],
        ) -> None:
            validar_vinculo(anp, lista_id, lista, ocupante, ocultos=ocultos)

        armazenado = self.repo.vincular(processo_id, lista_id, validar, usuario)
        if armazenado is None:
            raise NaoEncontrado(f"processo {processo_id} não encontrado")
        return self.derivar(armazenado)

    def registrar_decisao(
        self, processo_id: int, dados: object, usuario: str = USUARIO_PADRAO
    ) -> dict[str, Any]:
        """The first-instance decision, entered once for a linked pair (either processo's id):
        ``{"data_decisao", "data_ciencia"}``, one of them or both. The ciência feeds the
        ``anp`` processo (``ciencia_primeira_instancia``), the decision's own date the
        ``renovabio.lista`` processo (``decisao_primeira_instancia``); a date not given leaves
        its processo as it is, and an aviso says so. Both processos are locked in id order and
        changed in one transaction: all or nothing. An event already stored on the same date
        is not appended again (a repeated request changes nothing)."""
        decisao = ler_decisao(dados)
        plano: dict[str, Any] = {}

        def planejar(
            atual: ProcessoArmazenado, vinculado: ProcessoArmazenado | None
        ) -> dict[int, list[tuple[str, date]]]:
            if vinculado is None:
                raise EntradaInvalida(
                    "processo_id",
                    f"o processo nº {atual.id} não está vinculado a outro processo: vincule o "
                    "processo anp ao processo renovabio.lista (multas processo vincular ID "
                    "--lista N; POST /api/v1/processos/{id}/vinculo) ou acrescente o evento "
                    "só a ele (multas processo evento)",
                )
            anp, lista = (atual, vinculado) if atual.tipo == "anp" else (vinculado, atual)
            plano.update(anp=anp, lista=lista)
            return planejar_decisao(decisao, anp, lista, self.conferir_acrescimo)

        par = self.repo.acrescentar_em_par(processo_id, planejar, ACAO_DECISAO, usuario)
        if par is None:
            raise NaoEncontrado(f"processo {processo_id} não encontrado")
        depois = {p.id: p for p in par if p is not None}
        anp, lista = depois[plano["anp"].id], depois[plano["lista"].id]
        hoje = hoje_em_brasilia()
        return resultado_da_decisao(
            decisao,
            plano["anp"],
            plano["lista"],
            [self.detalhe(self.derivar_ou_erro(p), hoje) for p in (anp, lista)],
        )
