"""A CNPJ compared in its normal form (:func:`multas.nucleo.cnpj.normalizar`) inside SQL, the same on
SQLite and PostgreSQL: how the processos and the saved cases are searched by CNPJ while each
record keeps the CNPJ as it was given."""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, ColumnElement, cast, func, or_, type_coerce

from multas.nucleo.cnpj import normalizar


def normalizado(coluna: Any) -> Any:
    """``coluna`` with ``.``, ``/`` and ``-`` removed, spaces at both ends removed, in upper
    case. (SQL's ``upper`` may also raise a non-ASCII letter, which ``normalizar`` keeps; such
    a text is not a CNPJ, and :func:`igual` also finds it by its exact spelling.)"""
    sem_pontuacao = func.replace(func.replace(func.replace(coluna, ".", ""), "/", ""), "-", "")
    return func.upper(func.trim(sem_pontuacao))


def igual(coluna: Any, cnpj: str) -> ColumnElement[bool]:
    """The stored CNPJ in ``coluna`` is ``cnpj``, in any spelling."""
    return or_(normalizado(coluna) == normalizar(cnpj), coluna == cnpj)


def do_json(coluna: Any, dialeto: str) -> Any:
    """The top-level ``cnpj`` of a JSON text column (a saved case's result echoes it):
    PostgreSQL casts the text to JSON; SQLite reads JSON from text as it is (a ``CAST`` there
    would give the text a numeric affinity)."""
    json = cast(coluna, JSON) if dialeto == "postgresql" else type_coerce(coluna, JSON)
    return json["cnpj"].as_string()
