"""What an attacker with the database in hand does to the record: the guard triggers lifted
(SQLite: whoever can write the file; PostgreSQL: whoever gets the owner role's rights, which
the application's role does not have), then rows changed, deleted or forged."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Connection, text

from multas.servicos.persistencia import Repositorio

DONO = "multas_dono"


@contextmanager
def sem_protecao(repositorio: Repositorio) -> Iterator[Connection]:
    """A transaction in which the audit table can be changed (its guard lifted, put back)."""
    with repositorio.engine.begin() as c:
        if c.dialect.name == "sqlite":
            gatilhos = c.execute(
                text("SELECT name, sql FROM sqlite_master WHERE type='trigger'")
            ).all()
            for nome, _ in gatilhos:
                c.execute(text(f"DROP TRIGGER {nome}"))
            yield c
            for _, sql in gatilhos:
                c.execute(text(sql))
            return
        c.execute(text(f"GRANT {DONO} TO current_user"))  # the test role has CREATEROLE
        c.execute(text(f"SET ROLE {DONO}"))
        c.execute(text("ALTER TABLE auditoria DISABLE TRIGGER auditoria_somente_inclusao"))
        yield c
        c.execute(text("ALTER TABLE auditoria ENABLE TRIGGER auditoria_somente_inclusao"))
        c.execute(text("RESET ROLE"))
        c.execute(text(f"REVOKE {DONO} FROM current_user"))


def apagar_ultima_auditoria(repositorio: Repositorio) -> None:
    with sem_protecao(repositorio) as c:
        c.execute(text("DELETE FROM auditoria WHERE id = (SELECT max(id) FROM auditoria)"))
