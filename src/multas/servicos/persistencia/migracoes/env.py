"""Alembic environment: run programmatically by :meth:`multas.servicos.persistencia.Repositorio.migrar`,
which passes an open connection in ``config.attributes["connection"]``."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine

from multas.servicos.persistencia import modelos_ciclo  # the lifecycle's tables
from multas.servicos.persistencia.modelos import Base

modelos_ciclo.declarar_indices_parciais()
config = context.config
alvo = Base.metadata


def _offline() -> None:
    context.configure(
        url=config.get_main_option("sqlalchemy.url"),
        target_metadata=alvo,
        literal_binds=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def _online() -> None:
    conexao = config.attributes.get("connection")
    if conexao is None:  # run from the alembic command line, with sqlalchemy.url set
        url = config.get_main_option("sqlalchemy.url")
        assert url, "sqlalchemy.url não configurada"
        with create_engine(url).connect() as nova:
            context.configure(connection=nova, target_metadata=alvo)
            with context.begin_transaction():
                context.run_migrations()
        return
    context.configure(connection=conexao, target_metadata=alvo)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    _offline()
else:
    _online()
