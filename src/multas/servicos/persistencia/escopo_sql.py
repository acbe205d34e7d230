"""The clients' separation (:mod:`multas.nucleo.escopo`) enforced in one place: the database session.

The scope of whoever is asking is set for the duration of a request (:func:`limitado`, a
context variable: the server sets it once, where it identifies the user; the CLI runs as the
local operator, unlimited). While it is set, every ORM statement of every session:

- **reads** only the records within it: a listing, a count, an export, the work queue, the
  lists and the calendar are filtered in their SQL (:func:`_criterio`, SQLAlchemy's
  ``with_loader_criteria``), and a record outside it is simply not found (the caller's usual
  404 / "not found");
- **writes** only records within it: a case, processo or ledger year being saved with a CNPJ
  outside the scope (or without one) raises :class:`~multas.nucleo.escopo.ForaDoEscopo` before
  anything is flushed (HTTP 403 naming the CNPJ), and the transaction is rolled back.

What is filtered: saved cases (by the ``cnpj`` their result echoes), processos and ledger
years (by their ``cnpj`` column), and a processo's events (by their processo). Deleting is an
admin's, and an admin is never limited (:mod:`multas.servicos.persistencia.acesso`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from sqlalchemy import JSON, case, cast, event, false, func, or_, select
from sqlalchemy.orm import ORMExecuteState, Session, with_loader_criteria

from multas.nucleo.escopo import Escopo, ForaDoEscopo
from multas.servicos.persistencia import cnpj_sql
from multas.servicos.persistencia.modelos import CasoSalvo
from multas.servicos.persistencia.modelos_ciclo import AnoCarteiraSalvo, EventoSalvo, ProcessoSalvo

#: the scope of the request being served (``None``: unlimited)
_ATUAL: ContextVar[Escopo | None] = ContextVar("multas_escopo", default=None)


def atual() -> Escopo | None:
    """The scope in force (``None``: unlimited)."""
    return _ATUAL.get()


@contextmanager
def limitado(escopo: Escopo | None) -> Iterator[None]:
    """Run the block with ``escopo`` in force (``None``: unlimited)."""
    marca = _ATUAL.set(escopo)
    try:
        yield
    finally:
        _ATUAL.reset(marca)


def _condicao(coluna: Any, escopo: Escopo) -> Any:
    """``coluna`` (a CNPJ as stored, any spelling) is within ``escopo``; NULL never is."""
    normal = cnpj_sql.normalizado(coluna)
    partes = []
    if escopo.cnpjs:
        partes.append(normal.in_(sorted(escopo.cnpjs)))
    if escopo.raizes:
        partes.append(func.substr(normal, 1, 8).in_(sorted(escopo.raizes)))
    return or_(*partes) if partes else false()


def _cnpj_do_caso(dialeto: str) -> Any:
    """The top-level ``cnpj`` of a saved case's result, by the database's own JSON function
    (SQLite: NULL for a text that is not JSON, never an error for the whole query)."""
    if dialeto == "postgresql":
        return func.json_extract_path_text(cast(CasoSalvo.resultado, JSON), "cnpj")
    return case(
        (
            func.json_valid(CasoSalvo.resultado) == 1,
            func.json_extract(CasoSalvo.resultado, "$.cnpj"),
        )
    )


def _criterio(escopo: Escopo, dialeto: str) -> list[Any]:
    processos = _condicao(ProcessoSalvo.cnpj, escopo)
    return [
        with_loader_criteria(CasoSalvo, _condicao(_cnpj_do_caso(dialeto), escopo)),
        with_loader_criteria(ProcessoSalvo, processos),
        with_loader_criteria(
            EventoSalvo,
            EventoSalvo.processo_id.in_(select(ProcessoSalvo.id).where(processos)),
        ),
        with_loader_criteria(AnoCarteiraSalvo, _condicao(AnoCarteiraSalvo.cnpj, escopo)),
    ]


@event.listens_for(Session, "do_orm_execute")
def _filtrar(estado: ORMExecuteState) -> None:
    escopo = _ATUAL.get()
    if escopo is None or estado.is_column_load or estado.is_relationship_load:
        return
    if not (estado.is_select or estado.is_update or estado.is_delete):
        return
    dialeto = estado.session.get_bind().dialect.name
    estado.statement = estado.statement.options(*_criterio(escopo, dialeto))


def cnpj_do_registro(objeto: object) -> tuple[bool, str | None]:
    """Whether ``objeto`` is a record the scope applies to, and its CNPJ (as stored)."""
    return _cnpj_de(type(objeto), lambda coluna: getattr(objeto, coluna, None))


def _cnpj_de(modelo: type, coluna: Callable[[str], Any]) -> tuple[bool, str | None]:
    """Whether a record of ``modelo`` is one the scope applies to, and its CNPJ (as stored),
    ``coluna`` giving its columns' values."""
    if issubclass(modelo, ProcessoSalvo | AnoCarteiraSalvo):
        cnpj = coluna("cnpj")
        return True, cnpj if isinstance(cnpj, str) else None
    if issubclass(modelo, CasoSalvo):
        import json

        try:
            resultado = json.loads(coluna("resultado") or "null")
        except (TypeError, ValueError):
            return True, None
        cnpj = resultado.get("cnpj") if isinstance(resultado, dict) else None
        return True, cnpj if isinstance(cnpj, str) and cnpj else None
    return False, None


def conferir_linhas(modelo: type, linhas: Iterable[Mapping[str, Any]]) -> None:
    """The write check of the rows a bulk write sends as values, not objects
    (:meth:`multas.servicos.persistencia.escrita.Escrita.inserir_linhas`, ``alterar_linhas``:
    each row with every column that decides its scope, as it will be stored): the
    ``before_flush`` check below never sees them. A row outside the scope in force raises
    :class:`~multas.nucleo.escopo.ForaDoEscopo`."""
    escopo = _ATUAL.get()
    if escopo is None:
        return
    for linha in linhas:
        sujeito, cnpj = _cnpj_de(modelo, linha.get)
        if sujeito and not escopo.permite(cnpj):
            raise ForaDoEscopo(cnpj)


@event.listens_for(Session, "before_flush")
def _conferir_escritas(sessao: Session, _contexto: Any, _instancias: Any) -> None:
    escopo = _ATUAL.get()
    if escopo is None:
        return
    for objeto in (*sessao.new, *sessao.dirty):
        sujeito, cnpj = cnpj_do_registro(objeto)
        if sujeito and not escopo.permite(cnpj):
            raise ForaDoEscopo(cnpj)
