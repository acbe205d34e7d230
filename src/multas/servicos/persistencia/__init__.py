"""The database service: the saved records (cases, processos, the ledger, users and tokens) in
SQLite or PostgreSQL, the Alembic migrations that create and upgrade its schema, and the audit
chain every write extends and every read is checked against.

The default database is SQLite in the user's data folder (:mod:`multas.servicos.pasta_de_dados`);
``MULTAS_DATABASE_URL`` points elsewhere (e.g. PostgreSQL), ``MULTAS_DATABASE_URL_DONO`` names
the role that migrates it (:mod:`multas.servicos.configuracao` reads both). The repository
(:mod:`multas.servicos.persistencia.repositorio`) runs the migrations of ``migracoes/`` at
start-up; the one mechanism for every record is in :mod:`multas.servicos.persistencia.registros`.

Only the server imports this package: SQLAlchemy stays off the CLI's start-up path.
"""

from multas.nucleo.ids import MAIOR_ID as MAIOR_ID
from multas.nucleo.ids import id_valido as id_valido
from multas.servicos.persistencia import escopo_sql as escopo_sql  # the clients' separation
from multas.servicos.persistencia.banco import criar_engine as criar_engine
from multas.servicos.persistencia.banco import normalizar_url as normalizar_url
from multas.servicos.persistencia.banco import ultima_migracao as ultima_migracao
from multas.servicos.persistencia.banco import url_padrao as url_padrao
from multas.servicos.persistencia.casos import Caso as Caso
from multas.servicos.persistencia.casos import Registro as Registro
from multas.servicos.persistencia.escrita import Escrita as Escrita
from multas.servicos.persistencia.registros import BancoInacessivel as BancoInacessivel
from multas.servicos.persistencia.registros import BancoOcupado as BancoOcupado
from multas.servicos.persistencia.registros import (
    DistribuidorEmImportacao as DistribuidorEmImportacao,
)
from multas.servicos.persistencia.registros import RegistroAlterado as RegistroAlterado
from multas.servicos.persistencia.repositorio import LIMITE_CHAVE as LIMITE_CHAVE
from multas.servicos.persistencia.repositorio import USUARIO_PADRAO as USUARIO_PADRAO
from multas.servicos.persistencia.repositorio import Repositorio as Repositorio

__all__ = [
    "LIMITE_CHAVE",
    "MAIOR_ID",
    "USUARIO_PADRAO",
    "BancoInacessivel",
    "BancoOcupado",
    "Caso",
    "DistribuidorEmImportacao",
    "Escrita",
    "Registro",
    "RegistroAlterado",
    "Repositorio",
    "criar_engine",
    "escopo_sql",
    "id_valido",
    "normalizar_url",
    "ultima_migracao",
    "url_padrao",
]
