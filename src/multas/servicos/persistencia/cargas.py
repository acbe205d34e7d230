"""Imports in parts (issue 32, item 1): a long import writes a part at a time, each part its own
short transaction, so that no one request holds the chain's lock for long; all or nothing still
holds, because the import is a record of its own (:class:`Carga`) and its rows are seen only
once it is applied.

- :func:`abrir` creates the import, ``pendente``, valid for :data:`VALIDADE`.
- Each part (:meth:`~multas.servicos.persistencia.carteira.RepositorioCarteira.salvar_anos_em_partes`)
  checks it is still pending and renews it (:func:`renovar`), inserts its new rows with
  ``carga_id`` and marks each row they replace with ``substituida_por``. Until the import is
  applied every view (:func:`~multas.servicos.persistencia.registros.vivos`) shows the rows
  as they were: the new ones are not there yet, the replaced ones still are.
- :func:`aplicar` is one row's change: from then on the new rows are seen and the replaced
  ones are not.
- A failed import is undone (:func:`desfazer`); one whose process died is undone by the next
  write to its distributors once its validity passed (:func:`conferir_livres`). Either way
  nothing of it was ever seen.
- :func:`limpar` then erases, a part per transaction, the rows that no view shows any more (the
  replaced rows of an applied import, the new rows of an undone one) and unmarks the rows an
  undone import had marked. Until it does, views are already right.

While an import runs, a write to one of its distributors' years by anyone else is refused
(:class:`~multas.servicos.persistencia.registros.DistribuidorEmImportacao`): an import never
applies over a change it did not validate.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from sqlalchemy import not_, or_, select
from sqlalchemy.orm import Session

from multas.servicos.persistencia import escopo_sql
from multas.servicos.persistencia.escrita import LOTE_ESCRITA, Escrita
from multas.servicos.persistencia.integridade import Problema
from multas.servicos.persistencia.modelos_ciclo import AnoCarteiraSalvo, Carga
from multas.servicos.persistencia.registros import (
    APLICADA,
    RECURSOS,
    VALIDADE_CARGA,
    CargaInterrompida,
    DistribuidorEmImportacao,
    RegistroAlterado,
    conferir,
    vivos,
)
from multas.servicos.persistencia.repositorio import Repositorio

registro = logging.getLogger(__name__)

PENDENTE = "pendente"
DESFEITA = "desfeita"
#: how long a pending import lives without being renewed: each part renews it, and a part
#: is short; one not renewed by then was interrupted (its process died)
VALIDADE = timedelta(seconds=VALIDADE_CARGA)


def abrir(escrita: Escrita, tipo: str) -> int:
    """A new pending import of ``tipo``; its id."""
    carga = Carga(
        tipo=tipo,
        estado=PENDENTE,
        usuario=escrita.usuario,
        linhas=0,
        criado_em=escrita.momento,
        validade=escrita.momento + VALIDADE,
    )
    return int(escrita.inserir(carga, "carga_abrir", {"tipo": tipo}).id)


def _pendente(escrita: Escrita, carga_id: int) -> Carga:
    """The import, still pending: else it was undone by another write while its validity had
    passed (:func:`conferir_livres`), and it stops (:class:`CargaInterrompida`). One late but
    not undone goes on: nobody wrote to its distributors meanwhile."""
    carga = escrita.travar(Carga, carga_id)
    if carga is None or carga.estado != PENDENTE:
        raise CargaInterrompida(carga_id)
    return carga


def renovar(escrita: Escrita, carga_id: int, linhas: int) -> None:
    """One more part of the import: it must still be pending (else
    :class:`CargaInterrompida`); its validity starts again."""
    carga = _pendente(escrita, carga_id)
    carga.linhas += linhas
    carga.validade = escrita.momento + VALIDADE
    escrita.alterar(carga, "carga_parte", {"linhas": linhas})


def aplicar(escrita: Escrita, carga_id: int) -> None:
    """The import's last step: from now on its rows are seen, and the rows they replace are
    not."""
    carga = _pendente(escrita, carga_id)
    carga.estado = APLICADA
    escrita.alterar(carga, "carga_aplicar", {"tipo": carga.tipo, "linhas": carga.linhas})


def desfazer(escrita: Escrita, carga_id: int, motivo: str) -> None:
    """Undo a pending import (nothing of it was ever seen; :func:`limpar` erases its rows)."""
    carga = escrita.travar(Carga, carga_id)
    if carga is not None and carga.estado == PENDENTE:
        carga.estado = DESFEITA
        escrita.alterar(carga, "carga_desfazer", {"motivo": motivo})


def conferir_livres(escrita: Escrita, cnpjs: Sequence[str], exceto: int | None = None) -> None:
    """Before a write to these distributors' years (their stored keys): refuse it
    (:class:`DistribuidorEmImportacao`) while an import in parts of any of them other than
    ``exceto`` runs. An import whose validity passed is undone here first: its process died."""
    ativas: set[int] = set()
    for carga_id, validade in escrita.sessao.execute(
        select(Carga.id, Carga.validade).where(Carga.estado == PENDENTE)
    ):
        if carga_id == exceto:
            continue
        if validade < escrita.momento:
            desfazer(escrita, int(carga_id), "interrompida")
        else:
            ativas.add(int(carga_id))
    if not ativas or not cnpjs:
        return
    a = AnoCarteiraSalvo
    for inicio in range(0, len(cnpjs), 500):
        encontrada = escrita.sessao.execute(
            select(a.cnpj, a.carga_id, a.substituida_por)
            .where(a.cnpj.in_(cnpjs[inicio : inicio + 500]))
            .where(or_(a.carga_id.in_(ativas), a.substituida_por.in_(ativas)))
            .limit(1)
        ).first()
        if encontrada is not None:
            cnpj, nova, substituida = encontrada
            outra = nova if nova in ativas else substituida
            assert outra is not None
            raise DistribuidorEmImportacao(str(cnpj), outra)


def conferir_ocultos(sessao: Session, cnpjs: Sequence[str]) -> dict[str, Problema]:
    """What decides, beyond the rows a view shows, which years of these CNPJs (as stored) a
    view shows, each checked against its history: every row of theirs that no view shows (in
    the bin, of an import not applied, replaced), and every import that wrote or replaces a
    row of theirs. A column a view filters by (``excluido_em``, ``carga_id``,
    ``substituida_por``) or an import's state altered outside the system would otherwise hide
    or show a year silently. The first problem of each CNPJ affected."""
    a = AnoCarteiraSalvo
    recurso = RECURSOS["carteira_anos"]
    ocultas: list[Any] = []
    por_carga: dict[int, set[str]] = {}
    for inicio in range(0, len(cnpjs), 500):
        lote = cnpjs[inicio : inicio + 500]
        ocultas += sessao.execute(
            select(recurso.colunas).where(a.cnpj.in_(lote), not_(vivos(a)))
        ).mappings()
        for cnpj, nova, substituida in sessao.execute(
            select(a.cnpj, a.carga_id, a.substituida_por)
            .where(a.cnpj.in_(lote))
            .where(or_(a.carga_id.is_not(None), a.substituida_por.is_not(None)))
            .distinct()
        ):
            for carga_id in (nova, substituida):
                if carga_id is not None:
                    por_carga.setdefault(int(carga_id), set()).add(str(cnpj))
    problemas: dict[str, Problema] = {}
    cnpj_de = {int(linha["id"]): str(linha["cnpj"]) for linha in ocultas}
    for linha_id, problema in conferir(sessao, recurso, ocultas).items():
        problemas.setdefault(cnpj_de[linha_id], problema)
    for carga_id, problema in _conferir_cargas(sessao, sorted(por_carga)).items():
        for cnpj in sorted(por_carga[carga_id]):
            problemas.setdefault(cnpj, problema)
    return problemas


def conferir_nao_aplicadas(sessao: Session) -> Problema | None:
    """Every import not applied (few: those running, undone or interrupted), checked against
    its history: one altered outside the system into ``pendente`` or ``desfeita`` hides every
    year it wrote, from every CNPJ, a listing included. The first problem, or ``None``."""
    ids = [int(i) for i in sessao.scalars(select(Carga.id).where(Carga.estado != APLICADA))]
    return next(iter(_conferir_cargas(sessao, ids).values()), None)


def _conferir_cargas(sessao: Session, ids: Sequence[int]) -> dict[int, Problema]:
    """These imports, each checked against its history (one that is gone is a problem too:
    rows still name it)."""
    if not ids:
        return {}
    recurso = RECURSOS[Carga.__tablename__]
    linhas = sessao.execute(select(recurso.colunas).where(Carga.id.in_(ids))).mappings().all()
    problemas = conferir(sessao, recurso, linhas)
    for falta in sorted(set(ids) - {int(linha["id"]) for linha in linhas}):
        problemas[falta] = Problema(
            "ausente",
            f"importação nº {falta} não existe mais, mas anos da carteira a nomeiam",
            tabela=recurso.tabela,
            id=falta,
        )
    return problemas


def _detalhe(motivo: str) -> Any:
    def detalhe(linha: Any) -> dict[str, Any]:
        carga = linha["carga_id"] if motivo == DESFEITA else linha["substituida_por"]
        return {"cnpj": linha["cnpj"], "ano": linha["ano"], "carga": carga}

    return detalhe


def limpar(repositorio: Repositorio, usuario: str) -> int:
    """Undo the imports whose process died (their validity passed), then erase, a part per
    transaction (:func:`limpar_parte`), the rows that finished imports left and no view shows;
    how many rows were erased or unmarked. Every client's leftovers, whoever runs it: a
    client scope in force would leave the others' behind. A record that does not match its
    history stops it, logged: ``multas auditoria verificar`` names it."""
    feitas = 0
    try:
        with escopo_sql.limitado(None):
            with repositorio.escrita(usuario) as escrita:
                conferir_livres(escrita, [])
            while True:
                with repositorio.escrita(usuario) as escrita:
                    parte = limpar_parte(escrita)
                if not parte:
                    return feitas
                feitas += parte
    except RegistroAlterado as erro:
        registro.error("limpeza das importações parada: %s", erro.problema.mensagem)
        return feitas


def limpar_parte(escrita: Escrita) -> int:
    """One part of :func:`limpar`: up to :data:`LOTE_ESCRITA` rows erased or unmarked; how
    many (0: nothing is left to do)."""
    a = AnoCarteiraSalvo
    sessao = escrita.sessao

    def das(estado: str) -> Any:
        return select(Carga.id).where(Carga.estado == estado).scalar_subquery()

    def ids(condicao: Any) -> list[int]:
        return [int(i) for i in sessao.scalars(select(a.id).where(condicao).limit(LOTE_ESCRITA))]

    # the rows an applied import replaced: no view shows them
    if substituidas := ids(a.substituida_por.in_(das(APLICADA))):
        return escrita.excluir_linhas(a, substituidas, "carga_limpar", _detalhe(APLICADA))
    # the rows an undone import wrote: no view ever showed them
    if novas := ids(a.carga_id.in_(das(DESFEITA))):
        return escrita.excluir_linhas(a, novas, "carga_desfazer", _detalhe(DESFEITA))
    # the rows an undone import had marked as replaced: they stay, unmarked
    if marcadas := ids(a.substituida_por.in_(das(DESFEITA))):
        recurso = RECURSOS["carteira_anos"]
        linhas = sessao.execute(select(recurso.colunas).where(a.id.in_(marcadas))).mappings()
        problemas = conferir(sessao, recurso, linhas.all())
        if problemas:
            raise RegistroAlterado(next(iter(problemas.values())))
        escrita.marcar_conferidos(recurso, marcadas)
        escrita.alterar_linhas(
            a,
            ({"id": i, "substituida_por": None} for i in marcadas),
            "carga_desfazer",
            lambda _: {"motivo": "importação desfeita"},
        )
        return len(marcadas)
    return 0
