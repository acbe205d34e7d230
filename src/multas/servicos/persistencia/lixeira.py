"""The bin (issue 20, item 4): what a deleted case, processo or ledger year becomes.

Deleting one of them (:meth:`multas.servicos.persistencia.registros.Escrita.excluir`) sets its
``excluido_em``: every view, listing, export, list, calendar and work queue leaves it out
(:func:`multas.servicos.persistencia.registros.vivos`), and the audit records the move (``ocultar``).

- An admin may **restore** it for :data:`DIAS_NA_LIXEIRA` days (``restaurar``, in the chain).
  A restore that would break a key another record took meanwhile is refused with the reason:
  a ledger year whose (CNPJ, year) was saved again, a processo whose ``id`` (the ANP's
  reference) another processo now has, or whose list processo another anp processo is now
  linked to.
- After that, ``multas manutencao purgar`` erases it (``excluir``, in the chain): a processo with
  its events, and the references to it cleared, as a delete always did. The day is the injected
  clock's (:func:`multas.servicos.relogio.agora`), read inside the transaction.

The period is the product's choice (the issue's), not a legal parameter: it lives here, once.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, literal_column, select, union_all

from multas.nucleo.cnpj import exibir
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.ids import id_valido
from multas.servicos.persistencia import cargas
from multas.servicos.persistencia.escrita import Escrita
from multas.servicos.persistencia.modelos_ciclo import AnoCarteiraSalvo, ProcessoSalvo
from multas.servicos.persistencia.referencias import recusar_referencia_em_uso
from multas.servicos.persistencia.registros import COM_LIXEIRA, RECURSOS, Linha, Recurso, vivos
from multas.servicos.persistencia.repositorio import Repositorio

#: how long a deleted record may be restored; then it is purged
DIAS_NA_LIXEIRA = 30
#: the kinds of record with a bin, as a user names them (the API's and the CLI's ``tipo``)
TIPOS: Mapping[str, Recurso] = {
    "caso": RECURSOS["casos"],
    "processo": RECURSOS["processos"],
    "carteira": RECURSOS["carteira_anos"],
}
assert {r.tabela for r in TIPOS.values()} == {r.tabela for r in COM_LIXEIRA}


@dataclass(frozen=True)
class ItemLixeira:
    """A record in the bin, as the admin sees it."""

    tipo: str
    id: int
    #: what it is about, in pt-BR (the regime and amount of a case; a processo's type,
    #: reference and client; a ledger year's CNPJ and year)
    descricao: str
    cnpj: str | None
    excluido_em: datetime
    #: the last moment it may be restored; purged from then on
    restaurar_ate: datetime

    def como_dict(self) -> dict[str, Any]:
        return {
            "tipo": self.tipo,
            "id": self.id,
            "descricao": self.descricao,
            "cnpj": self.cnpj,
            "excluido_em": self.excluido_em.isoformat(),
            "restaurar_ate": self.restaurar_ate.isoformat(),
        }


def formatar_cnpj(cnpj: str) -> str:
    return exibir(cnpj)[0]


def prazo(excluido_em: datetime) -> datetime:
    return excluido_em + timedelta(days=DIAS_NA_LIXEIRA)


def _tipo(tipo: str) -> Recurso:
    if tipo not in TIPOS:
        raise EntradaInvalida("tipo", f"use um de: {', '.join(TIPOS)}")
    return TIPOS[tipo]


def _cnpj_de(linha: Linha) -> str | None:
    if "cnpj" in linha:
        return None if linha["cnpj"] is None else str(linha["cnpj"])
    try:
        resultado = json.loads(linha["resultado"])
    except (TypeError, ValueError):
        return None
    cnpj = resultado.get("cnpj") if isinstance(resultado, dict) else None
    return cnpj if isinstance(cnpj, str) else None


def _referencia(identificador: str | None) -> str | None:
    if identificador is None:
        return None
    try:
        valor = json.loads(identificador)
    except ValueError:
        return identificador
    return None if valor is None else str(valor)


def _descricao(tipo: str, linha: Linha) -> str:
    cnpj = _cnpj_de(linha)
    cliente = f" — CNPJ {formatar_cnpj(cnpj)}" if cnpj else ""
    nome = linha.get("nome")
    if nome:
        cliente += f" ({nome})"
    if tipo == "caso":
        return f"caso nº {linha['id']}, {linha['regime']}{cliente}"
    if tipo == "processo":
        referencia = _referencia(linha.get("identificador"))
        ref = f" {referencia}" if referencia else ""
        return f"processo nº {linha['id']}{ref}, {linha['tipo']}{cliente}"
    return f"ano {linha['ano']} da carteira{cliente}"


def _item(tipo: str, linha: Linha) -> ItemLixeira:
    excluido_em: datetime = linha["excluido_em"]
    return ItemLixeira(
        tipo=tipo,
        id=int(linha["id"]),
        descricao=_descricao(tipo, linha),
        cnpj=_cnpj_de(linha),
        excluido_em=excluido_em,
        restaurar_ate=prazo(excluido_em),
    )


def listar(
    repositorio: Repositorio, limite: int | None = None, deslocamento: int = 0
) -> list[ItemLixeira]:
    """What the bin holds, the most recently deleted first: ``limite`` items (``None``: all)
    after ``deslocamento``. The database orders the rows of every kind together and picks the
    page (one query), then reads only the page's records."""
    excluidos = union_all(
        *(
            select(
                literal_column(f"'{tipo}'").label("tipo"),
                recurso.colunas.c.id.label("id"),
                recurso.colunas.c.excluido_em.label("excluido_em"),
            ).where(recurso.colunas.c.excluido_em.is_not(None))
            for tipo, recurso in TIPOS.items()
        )
    ).subquery()
    e = excluidos.c
    consulta = select(e.tipo, e.id).order_by(e.excluido_em.desc(), e.id.desc(), e.tipo)
    itens: dict[tuple[str, int], ItemLixeira] = {}
    with repositorio.leitura() as sessao:
        pagina = [
            (str(tipo), int(i))
            for tipo, i in sessao.execute(consulta.limit(limite).offset(deslocamento))
        ]
        for tipo, recurso in TIPOS.items():
            ids = [i for t, i in pagina if t == tipo]
            if ids:
                linhas = select(recurso.colunas).where(recurso.colunas.c.id.in_(ids))
                for linha in sessao.execute(linhas).mappings():
                    itens[(tipo, int(linha["id"]))] = _item(tipo, linha)
    # a record purged between the two reads (READ COMMITTED) is simply not listed
    return [itens[chave] for chave in pagina if chave in itens]


def restaurar(repositorio: Repositorio, tipo: str, registro_id: int, usuario: str) -> ItemLixeira:
    """Bring a record back. :class:`EntradaInvalida` (pt-BR, naming the field) when the bin
    holds no such record, when its period is over, or when restoring it would break a key
    another record took meanwhile."""
    recurso = _tipo(tipo)
    if not id_valido(registro_id):
        raise EntradaInvalida("id", "não há registro com este número na lixeira")
    with repositorio.escrita(usuario) as escrita:
        tabela = recurso.colunas
        linha = (
            escrita.sessao.execute(
                select(tabela).where(tabela.c.id == registro_id, tabela.c.excluido_em.is_not(None))
            )
            .mappings()
            .first()
        )
        if linha is None:
            raise EntradaInvalida("id", f"não há {recurso.rotulo} nº {registro_id} na lixeira")
        # a record edited outside the system is refused first: its date is not to be trusted
        escrita.conferir_antes(recurso, registro_id)
        item = _item(tipo, linha)
        if escrita.momento >= item.restaurar_ate:
            raise EntradaInvalida(
                "id",
                f"o {recurso.rotulo} nº {registro_id} foi excluído há mais de "
                f"{DIAS_NA_LIXEIRA} dias: não pode mais ser restaurado e será apagado por "
                "'multas manutencao purgar'",
            )
        _recusar_conflito(escrita, tipo, linha)
        escrita.restaurar(recurso.modelo, registro_id, f"{tipo}_restaurar", {"tipo": tipo})
    return item


def _recusar_conflito(escrita: Escrita, tipo: str, linha: Linha) -> None:
    sessao = escrita.sessao
    if tipo == "carteira":
        cargas.conferir_livres(escrita, [linha["cnpj"]])
        outro = sessao.scalar(
            select(AnoCarteiraSalvo.id).where(
                AnoCarteiraSalvo.cnpj == linha["cnpj"],
                AnoCarteiraSalvo.ano == linha["ano"],
                vivos(AnoCarteiraSalvo),
            )
        )
        if outro is not None:
            raise EntradaInvalida(
                "id",
                f"o ano {linha['ano']} do CNPJ {formatar_cnpj(linha['cnpj'])} foi salvo de novo "
                f"depois da exclusão (ano da carteira nº {outro}): exclua esse antes de "
                "restaurar este",
            )
    if tipo != "processo":
        return
    if linha["identificador"] is not None:  # another processo took its ANP reference
        recusar_referencia_em_uso(
            sessao, _referencia(linha["identificador"]), "id", exceto=int(linha["id"])
        )
    if linha["lista_id"] is not None:
        outro = sessao.scalar(
            select(ProcessoSalvo.id).where(
                ProcessoSalvo.lista_id == linha["lista_id"],
                ProcessoSalvo.excluido_em.is_(None),
            )
        )
        if outro is not None:
            raise EntradaInvalida(
                "id",
                f"o processo da lista nº {linha['lista_id']} ao qual este estava vinculado está "
                f"agora vinculado ao processo nº {outro}: desfaça esse vínculo antes",
            )


def purgar(repositorio: Repositorio, usuario: str) -> dict[str, int]:
    """Erase every record deleted :data:`DIAS_NA_LIXEIRA` days or more ago (by the clock read
    inside the transaction): how many of each kind. All or nothing."""
    apagados: dict[str, int] = {}
    with repositorio.escrita(usuario) as escrita:
        limite = escrita.momento - timedelta(days=DIAS_NA_LIXEIRA)
        for tipo, recurso in TIPOS.items():
            tabela = recurso.colunas
            ids = escrita.sessao.scalars(
                select(tabela.c.id)
                .where(tabela.c.excluido_em.is_not(None), tabela.c.excluido_em <= limite)
                .order_by(tabela.c.id)
            ).all()
            for registro_id in ids:
                escrita.excluir(
                    recurso.modelo,
                    int(registro_id),
                    f"{tipo}_purgar",
                    {"tipo": tipo, "dias": DIAS_NA_LIXEIRA},
                    definitivo=True,
                )
            apagados[tipo] = len(ids)
    return apagados


def contar(repositorio: Repositorio) -> int:
    with repositorio.leitura() as sessao:
        return sum(
            int(
                sessao.scalar(
                    select(func.count())
                    .select_from(r.colunas)
                    .where(r.colunas.c.excluido_em.is_not(None))
                )
                or 0
            )
            for r in TIPOS.values()
        )


__all__ = [
    "DIAS_NA_LIXEIRA",
    "TIPOS",
    "ItemLixeira",
    "contar",
    "listar",
    "prazo",
    "purgar",
    "restaurar",
]
