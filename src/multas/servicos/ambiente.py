"""The database's two settings, read from the environment without pydantic.

:class:`multas.servicos.configuracao.Configuracao` declares every ``MULTAS_*`` setting, and the server
reads them all through it. A lifecycle command (``multas processo``, ``multas carteira``) needs
only the database's URLs, and importing pydantic-settings costs about a seventh of a second,
a tenth of such a command's start-up (issue 19: within 1.5× of importing SQLAlchemy). So the
database reads its URLs here, with the rules ``Configuracao`` applies to them:

- a variable's name is matched without regard to case, as pydantic-settings does;
- an empty variable is an unset one (``env_ignore_empty``);
- ``MULTAS_DATABASE_URL_DONO`` may still be given by its obsolete name (:data:`OBSOLETAS`),
  with a warning, once;
- a value without a scheme is refused, naming the variable, and never echoed (a URL may carry
  a password).

``Configuracao`` validates the same two fields with :func:`url_de_banco`, and
``tests/servidor/test_ambiente.py`` checks that both readers agree on any environment.

Choice: a command that reads only the database does not validate the server's settings (a bad
``MULTAS_SERVIR_PORTA`` does not stop ``multas processo mostrar``); ``multas servir`` still
refuses it.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Mapping

from multas.nucleo.erros import ConfiguracaoInvalida

PREFIXO = "MULTAS_"
URL = "MULTAS_DATABASE_URL"
URL_DONO = "MULTAS_DATABASE_URL_DONO"

#: old names still accepted, each with the one that replaces it (a warning says so, once)
OBSOLETAS = {"MULTAS_DATABASE_URL_MIGRACAO": URL_DONO}

_ESQUEMA_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")
registro = logging.getLogger("multas")
_AVISADAS: set[str] = set()


def url_de_banco(valor: str | None) -> str | None:
    """A database URL, stripped; without a scheme, :class:`ValueError` (pt-BR).

    >>> url_de_banco("  sqlite:///dados/multas.db ")
    'sqlite:///dados/multas.db'
    >>> url_de_banco("dados/multas.db")
    Traceback (most recent call last):
    ValueError: URL de banco inválida; use sqlite:///caminho/multas.db ou postgresql+psycopg://usuario:senha@servidor:5432/banco
    """
    if valor is not None and not _ESQUEMA_URL.match(valor.strip()):
        raise ValueError(
            "URL de banco inválida; use sqlite:///caminho/multas.db ou "
            "postgresql+psycopg://usuario:senha@servidor:5432/banco"
        )
    return valor.strip() if valor is not None else None


def urls_do_banco(ambiente: Mapping[str, str] | None = None) -> tuple[str | None, str | None]:
    """``(MULTAS_DATABASE_URL, MULTAS_DATABASE_URL_DONO)`` from ``ambiente`` (the process's
    environment by default), each ``None`` when unset; a bad value raises
    :class:`ConfiguracaoInvalida` naming the variable.

    >>> urls_do_banco({"multas_database_url": "sqlite:///m.db", "MULTAS_DATABASE_URL_DONO": ""})
    ('sqlite:///m.db', None)
    """
    variaveis = os.environ if ambiente is None else ambiente
    por_nome = {nome.upper(): (nome, valor) for nome, valor in variaveis.items() if valor}
    urls: list[str | None] = []
    for nomes in ((URL,), (URL_DONO, *(a for a, n in OBSOLETAS.items() if n == URL_DONO))):
        nome = next((n for n in nomes if n in por_nome), None)
        try:
            urls.append(url_de_banco(por_nome[nome][1]) if nome else None)
        except ValueError as erro:
            raise ConfiguracaoInvalida(nome or nomes[0], str(erro)) from None
    avisar_obsoletas(variaveis)
    return urls[0], urls[1]


def avisar_obsoletas(ambiente: Mapping[str, str] | None = None) -> None:
    """Warn, once per process, of each obsolete variable set."""
    variaveis = os.environ if ambiente is None else ambiente
    for antiga, nova in OBSOLETAS.items():
        if variaveis.get(antiga) and antiga not in _AVISADAS:
            _AVISADAS.add(antiga)
            registro.warning("Aviso: %s está obsoleta; use %s (o mesmo valor).", antiga, nova)


def operador_local() -> str:
    """Who runs a command on this machine, as the audit records it: the operating system's
    account and ``(linha de comando)`` (the administration commands, ``multas usuarios``, and
    ``multas legislacao selic atualizar``: whoever can run them can reach the database)."""
    import getpass

    try:
        conta = getpass.getuser()
    except (KeyError, OSError):
        conta = "?"
    return f"{conta} (linha de comando)"
