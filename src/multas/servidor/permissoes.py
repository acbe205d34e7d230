"""Who may do what: one table of (route or action → least role), checked in one place
(:class:`multas.servidor.acesso.Autenticacao`) for the API and the pages alike.

The roles, each with everything the one before it may do:

- ``leitura``: read, and compute without storing: a case's result, the report of a case that
  is not saved, the deadlines of a processo that is not saved;
- ``analista``: also store (save a case, create a processo and add its events, save or import
  a year of the ledger);
- ``admin``: also delete, undo an event, the audit log and the users.

Every route of the app must be in :data:`PERMISSOES`: a route added later and not put here is
refused to everyone but an admin (and ``tests/servidor/test_permissoes.py``, which walks every route
with every role and compares the answers with this table, fails until it is). ``None`` is a
public route. :data:`ACOES` names the administration's actions done on the server's machine
(``multas usuarios``, ``multas auditoria``, ``multas banco``): they need the database's own
credentials, so the operating system decides who runs them; the table says which role they
belong to.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

PAPEIS = ("leitura", "analista", "admin")
#: static files, the interactive docs' assets and the documentation site: public
PREFIXOS_PUBLICOS = ("/static/", "/docs-static/", "/documentacao/")
#: the least role of a route of the app the table does not know: only an admin
PAPEL_DESCONHECIDO = "admin"
#: the least role of a path no route answers (a 404 to whoever may read)
PAPEL_SEM_ROTA = "leitura"

PERMISSOES: dict[tuple[str, str], str | None] = {
    # the login page itself
    ("GET", "/entrar"): None,
    ("POST", "/entrar"): None,
    ("POST", "/sair"): None,
    # reference and documentation
    ("GET", "/openapi.json"): "leitura",
    ("GET", "/docs"): "leitura",
    ("GET", "/redoc"): "leitura",
    ("GET", "/guia-da-api"): "leitura",
    ("GET", "/api/v1/regimes"): "leitura",
    ("GET", "/api/v1/legislacao"): "leitura",
    ("GET", "/api/v1/calendario/{ano}"): "leitura",
    ("GET", "/api/v1/versao"): "leitura",
    # computing without storing
    ("POST", "/api/v1/calcular"): "leitura",
    ("POST", "/api/v1/relatorio"): "leitura",
    ("POST", "/api/v1/prazos"): "leitura",
    ("GET", "/"): "leitura",
    ("GET", "/formulario"): "leitura",
    ("GET", "/formulario/dias-locais"): "leitura",
    ("POST", "/calcular"): "leitura",
    ("POST", "/relatorio"): "leitura",
    # saved cases
    ("GET", "/api/v1/casos"): "leitura",
    ("GET", "/api/v1/casos/{caso_id}"): "leitura",
    ("GET", "/api/v1/casos/{caso_id}/relatorio"): "leitura",
    ("POST", "/api/v1/casos"): "analista",
    ("DELETE", "/api/v1/casos/{caso_id}"): "admin",
    ("GET", "/casos"): "leitura",
    ("GET", "/casos/{caso_id}"): "leitura",
    ("GET", "/casos/{caso_id}/relatorio.{formato}"): "leitura",
    ("POST", "/casos"): "analista",
    ("POST", "/casos/{caso_id}/excluir"): "admin",
    # the audit log
    ("GET", "/api/v1/auditoria"): "admin",
    ("GET", "/auditoria"): "admin",
    # the audit of the records the user may read (a limited user's: their clients')
    ("GET", "/api/v1/auditoria/clientes"): "leitura",
    ("GET", "/auditoria/clientes"): "leitura",
    # the bin: deleted records, restored by an admin
    ("GET", "/api/v1/lixeira"): "admin",
    ("POST", "/api/v1/lixeira/{tipo}/{registro_id}/restaurar"): "admin",
    ("GET", "/lixeira"): "admin",
    ("POST", "/lixeira/{tipo}/{registro_id}/restaurar"): "admin",
    # processos and their events
    ("GET", "/api/v1/processos"): "leitura",
    ("GET", "/api/v1/processos/{processo_id}"): "leitura",
    ("GET", "/api/v1/processos/{processo_id}/documentos/{sha256}"): "leitura",
    ("POST", "/api/v1/processos"): "analista",
    ("PATCH", "/api/v1/processos/{processo_id}"): "analista",
    ("POST", "/api/v1/processos/{processo_id}/eventos"): "analista",
    ("PUT", "/api/v1/processos/{processo_id}/vinculo"): "analista",
    ("POST", "/api/v1/processos/{processo_id}/decisao"): "analista",
    ("DELETE", "/api/v1/processos/{processo_id}/eventos/ultimo"): "admin",
    ("DELETE", "/api/v1/processos/{processo_id}"): "admin",
    ("POST", "/api/v1/processos/importar"): "analista",
    ("GET", "/api/v1/processos/exportar"): "leitura",
    ("GET", "/processos"): "leitura",
    ("GET", "/processos/{processo_id}"): "leitura",
    ("GET", "/processos/{processo_id}/documentos/{sha256}"): "leitura",
    ("POST", "/processos"): "analista",
    ("POST", "/processos/importar"): "analista",
    ("POST", "/processos/{processo_id}/eventos"): "analista",
    ("POST", "/processos/{processo_id}/dias-sem-expediente"): "analista",
    ("POST", "/processos/{processo_id}/desfazer"): "admin",
    ("POST", "/processos/{processo_id}/vinculo"): "analista",
    ("POST", "/processos/{processo_id}/decisao"): "analista",
    # deadlines and lists
    ("GET", "/api/v1/pendencias"): "leitura",
    ("GET", "/api/v1/prazos/proximos"): "leitura",
    ("GET", "/api/v1/prazos/calendario.ics"): "leitura",
    ("GET", "/api/v1/processos/{processo_id}/calendario.ics"): "leitura",
    # the private calendar feed: the address is the secret (scoped like its user)
    ("GET", "/api/v1/feed/{token}.ics"): None,
    ("POST", "/api/v1/feed"): "leitura",
    ("DELETE", "/api/v1/feed"): "leitura",
    ("GET", "/calendario-privado"): "leitura",
    ("POST", "/calendario-privado"): "leitura",
    ("POST", "/calendario-privado/revogar"): "leitura",
    # the users and the clients each may reach (the admin's)
    ("GET", "/usuarios"): "admin",
    ("POST", "/usuarios/clientes"): "admin",
    ("GET", "/api/v1/listas/{qual}"): "leitura",
    ("GET", "/pendencias"): "leitura",
    ("GET", "/prazos"): "leitura",
    ("GET", "/listas"): "leitura",
    # the ledger
    ("GET", "/api/v1/carteira"): "leitura",
    ("GET", "/api/v1/carteira/distribuidor"): "leitura",
    ("GET", "/api/v1/carteira/distribuidor/exportar"): "leitura",
    ("POST", "/api/v1/carteira/conferir"): "leitura",  # computes, stores nothing
    ("POST", "/api/v1/carteira"): "analista",
    ("POST", "/api/v1/carteira/importar"): "analista",
    ("DELETE", "/api/v1/carteira/distribuidor"): "admin",
    ("GET", "/carteira"): "leitura",
    ("GET", "/carteira/distribuidor"): "leitura",
    ("GET", "/carteira/distribuidor/memoria"): "leitura",
    ("POST", "/carteira/conferir"): "leitura",  # the notice checked: computes, stores nothing
    ("POST", "/carteira"): "analista",
    ("POST", "/carteira/importar"): "analista",
    # the RenovaBio year (computed, never stored)
    ("POST", "/api/v1/ano"): "leitura",
    ("POST", "/api/v1/ano/notificacoes"): "leitura",
    ("GET", "/ano"): "leitura",
    ("POST", "/ano"): "leitura",
    # the exposure simulation (computed, never stored)
    ("GET", "/exposicao"): "leitura",
    ("POST", "/exposicao"): "leitura",
}

#: the administration's actions on the server's machine (see the module's docstring)
ACOES: dict[str, str] = {
    "usuarios criar": "admin",
    "usuarios token": "admin",
    "usuarios senha": "admin",
    "usuarios papel": "admin",
    "usuarios clientes": "admin",
    "usuarios desativar": "admin",
    "usuarios desbloquear": "admin",
    "usuarios listar": "admin",
    "auditoria verificar": "admin",
    "auditoria ancorar": "admin",
    "lixeira listar": "admin",
    "lixeira restaurar": "admin",
    "manutencao purgar": "admin",
    "banco preparar": "admin",
    # public data for every user, added on the server's machine (issue 35, item 1)
    "legislacao selic atualizar": "admin",
}

ROTULOS = {"leitura": "leitura", "analista": "analista", "admin": "administrador"}
#: what each role may do, in pt-BR (for the page's messages)
PODE = {
    "leitura": "consultar e calcular sem salvar",
    "analista": "também salvar",
    "admin": (
        "também excluir, restaurar da lixeira, desfazer eventos, ver a auditoria e cuidar dos "
        "usuários"
    ),
}


#: the page actions a role may be refused, in pt-BR (the refusal's page names the action; a
#: page route above ``leitura`` without a name here fails ``tests/servidor/test_papeis_na_pagina.py``)
ACOES_DA_PAGINA: dict[tuple[str, str], str] = {
    ("POST", "/casos"): "salvar um caso",
    ("POST", "/casos/{caso_id}/excluir"): "excluir um caso",
    ("GET", "/auditoria"): "ver a auditoria",
    ("GET", "/usuarios"): "ver os usuários",
    ("POST", "/usuarios/clientes"): "limitar um usuário a clientes",
    ("GET", "/lixeira"): "ver a lixeira",
    ("POST", "/lixeira/{tipo}/{registro_id}/restaurar"): "restaurar um registro da lixeira",
    ("POST", "/processos"): "salvar um processo novo",
    ("POST", "/processos/importar"): "importar processos",
    ("POST", "/processos/{processo_id}/eventos"): "registrar um evento do processo",
    ("POST", "/processos/{processo_id}/dias-sem-expediente"): (
        "salvar os dias sem expediente do processo"
    ),
    ("POST", "/processos/{processo_id}/desfazer"): "desfazer o último evento do processo",
    ("POST", "/processos/{processo_id}/vinculo"): "vincular os processos",
    ("POST", "/processos/{processo_id}/decisao"): (
        "registrar a decisão de primeira instância nos processos vinculados"
    ),
    ("POST", "/carteira"): "salvar um ano da carteira",
    ("POST", "/carteira/importar"): "importar a carteira",
}


def rota_de_pagina(caminho: str) -> bool:
    """A page's route (not the API, its OpenAPI document or its interactive docs).

    >>> rota_de_pagina("/casos/{caso_id}/excluir"), rota_de_pagina("/api/v1/casos")
    (True, False)
    """
    return not caminho.startswith(("/api/", "/openapi.json", "/docs", "/redoc"))


def alcanca(papel: str, necessario: str) -> bool:
    """Whether ``papel`` may do what needs ``necessario``.

    >>> alcanca("admin", "analista"), alcanca("leitura", "analista")
    (True, False)
    """
    return PAPEIS.index(papel) >= PAPEIS.index(necessario)


@dataclass(frozen=True)
class Rota:
    metodo: str
    modelo: str
    expressao: re.Pattern[str]


class Tabela:
    """The permission table against the app's own routes: a request's path is matched to its
    route's template (``/api/v1/casos/{caso_id}``), whose role the table gives."""

    def __init__(self, rotas: Iterable[Any]) -> None:
        self.rotas = [
            Rota(metodo, rota.path, rota.path_regex)
            for rota in rotas
            for metodo in sorted(rota.methods or ())
        ]

    def modelo(self, metodo: str, caminho: str) -> str | None:
        """The template of the route this request reaches, if any (HEAD as GET)."""
        metodo = "GET" if metodo == "HEAD" else metodo
        for rota in self.rotas:
            if rota.metodo == metodo and rota.expressao.match(caminho):
                return rota.modelo
        return None

    def papel_necessario(self, metodo: str, caminho: str) -> str | None:
        """The least role a request needs (``None``: public)."""
        # a public mount's bare path too (``/documentacao``): its router redirects it to the
        # trailing slash (or answers 404), never asks to sign in
        if caminho.startswith(PREFIXOS_PUBLICOS) or f"{caminho}/" in PREFIXOS_PUBLICOS:
            return None
        modelo = self.modelo(metodo, caminho)
        if modelo is None:
            return PAPEL_SEM_ROTA
        chave = ("GET" if metodo == "HEAD" else metodo, modelo)
        return PERMISSOES.get(chave, PAPEL_DESCONHECIDO)


@dataclass(frozen=True)
class Alcance:
    """What one request's user may reach, by the same table: the pages show only the actions
    it allows (the template global ``pode``). ``papel`` is ``None`` for a visitor not signed
    in; ``aberto``: the open server (no users), where everything stays visible."""

    tabela: Tabela
    papel: str | None
    aberto: bool

    def pode(self, metodo: str, caminho: str) -> bool:
        if self.aberto:
            return True
        caminho = caminho.split("?", 1)[0].split("#", 1)[0]
        necessario = self.tabela.papel_necessario(metodo.upper(), caminho)
        return necessario is None or (self.papel is not None and alcanca(self.papel, necessario))
