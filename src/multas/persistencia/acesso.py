"""Who may use the server: users with a role, their API tokens and page sessions.

- Roles: ``leitura`` (reads saved cases and the reference), ``analista`` (also computes and
  saves), ``admin`` (also deletes, reads the audit log, and manages users).
- API tokens (``Authorization: Bearer <token>``) are created by ``multas usuarios`` and shown
  once; only their argon2 hash is stored (argon2-cffi, the library's recommended parameters).
  A token is ``<prefix>.<secret>``: the prefix finds the row, the secret is verified.
- Passwords (for the page's login) are stored the same way.
- Page sessions: a random id in a cookie; the database keeps its SHA-256 (the id has 256 bits
  of entropy, so a fast hash suffices), the user and the expiry.

Checking an argon2 hash costs ~0.1 s by design: a verified token is remembered in memory for
:data:`CACHE_SEGUNDOS` (keyed by its SHA-256), so a revoked token or a deactivated user stops
working within that time.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from sqlalchemy import select, update

from multas.erros import EntradaInvalida
from multas.persistencia.modelos import Sessao, Token, Usuario
from multas.relogio import agora

if TYPE_CHECKING:
    from multas.persistencia import Repositorio

PAPEIS = ("leitura", "analista", "admin")
NIVEL = {papel: i for i, papel in enumerate(PAPEIS)}
CACHE_SEGUNDOS = 60.0
SESSAO_HORAS = 12


@dataclass(frozen=True)
class Identidade:
    """Who is asking: the user's name (the audit's "who") and role."""

    nome: str
    papel: str

    def pode(self, papel: str) -> bool:
        return NIVEL[self.papel] >= NIVEL[papel]


def _hasher() -> object:
    from argon2 import PasswordHasher

    return PasswordHasher()


def _sha256(texto: str) -> str:
    return hashlib.sha256(texto.encode("utf-8")).hexdigest()


def validar_nome(nome: str) -> str:
    nome = " ".join(nome.split())
    if not 1 <= len(nome) <= 200 or not nome.isprintable():
        raise EntradaInvalida("nome", "nome de usuário inválido (de 1 a 200 caracteres visíveis)")
    return nome


def validar_papel(papel: str) -> str:
    if papel not in PAPEIS:
        raise EntradaInvalida("papel", f"papel desconhecido: {papel!r} (use {', '.join(PAPEIS)})")
    return papel


class Acesso:
    """Users, tokens and sessions, in the repository's database."""

    def __init__(self, repositorio: Repositorio) -> None:
        self.repositorio = repositorio
        self._cache: dict[str, tuple[float, Identidade]] = {}
        self._trava = threading.Lock()

    # --- users ---------------------------------------------------------------------------

    def ha_usuarios(self) -> bool:
        with self.repositorio._sessao() as sessao:
            return (
                sessao.scalars(select(Usuario.id).where(Usuario.ativo).limit(1)).first() is not None
            )

    def criar(self, nome: str, papel: str, senha: str | None, por: str) -> str:
        """Create a user and a first API token; return the token (shown once)."""
        from argon2 import PasswordHasher

        nome, papel = validar_nome(nome), validar_papel(papel)
        momento = agora()
        with self.repositorio._sessao(escrita=True) as sessao:
            existente = sessao.scalars(select(Usuario).where(Usuario.nome == nome)).first()
            if existente is not None:
                raise EntradaInvalida("nome", f"o usuário {nome!r} já existe")
            usuario = Usuario(
                nome=nome,
                papel=papel,
                hash_senha=PasswordHasher().hash(senha) if senha else None,
                ativo=True,
                criado_em=momento,
            )
            sessao.add(usuario)
            sessao.flush()
            token = self._novo_token(sessao, usuario.id, momento)
            self.repositorio.acrescentar_auditoria(
                sessao,
                momento=momento,
                usuario=por,
                acao="usuario_criar",
                detalhe={"nome": nome, "papel": papel},
            )
        return token

    def _novo_token(self, sessao: object, usuario_id: int, momento: datetime) -> str:
        from argon2 import PasswordHasher
        from sqlalchemy.orm import Session

        assert isinstance(sessao, Session)
        prefixo = secrets.token_hex(6)
        segredo = secrets.token_urlsafe(32)
        sessao.add(
            Token(
                prefixo=prefixo,
                usuario_id=usuario_id,
                hash=PasswordHasher().hash(segredo),
                criado_em=momento,
                revogado=False,
            )
        )
        return f"mlt_{prefixo}.{segredo}"

    def _usuario(self, sessao: object, nome: str) -> Usuario:
        from sqlalchemy.orm import Session

        assert isinstance(sessao, Session)
        usuario = sessao.scalars(select(Usuario).where(Usuario.nome == nome)).first()
        if usuario is None:
            raise EntradaInvalida("nome", f"usuário desconhecido: {nome!r}")
        return usuario

    def novo_token(self, nome: str, por: str) -> str:
        momento = agora()
        with self.repositorio._sessao(escrita=True) as sessao:
            usuario = self._usuario(sessao, nome)
            token = self._novo_token(sessao, usuario.id, momento)
            self.repositorio.acrescentar_auditoria(
                sessao, momento=momento, usuario=por, acao="usuario_token", detalhe={"nome": nome}
            )
        return token

    def definir_senha(self, nome: str, senha: str, por: str) -> None:
        from argon2 import PasswordHasher

        if len(senha) < 8:
            raise EntradaInvalida("senha", "a senha deve ter ao menos 8 caracteres")
        with self.repositorio._sessao(escrita=True) as sessao:
            usuario = self._usuario(sessao, nome)
            usuario.hash_senha = PasswordHasher().hash(senha)
            self.repositorio.acrescentar_auditoria(
                sessao, momento=agora(), usuario=por, acao="usuario_senha", detalhe={"nome": nome}
            )

    def desativar(self, nome: str, por: str) -> None:
        """The user can no longer sign in; their tokens and sessions stop working."""
        with self.repositorio._sessao(escrita=True) as sessao:
            usuario = self._usuario(sessao, nome)
            usuario.ativo = False
            sessao.execute(
                update(Token).where(Token.usuario_id == usuario.id).values(revogado=True)
            )
            sessao.query(Sessao).filter(Sessao.usuario_id == usuario.id).delete()
            self.repositorio.acrescentar_auditoria(
                sessao,
                momento=agora(),
                usuario=por,
                acao="usuario_desativar",
                detalhe={"nome": nome},
            )
        with self._trava:
            self._cache.clear()

    def listar(self) -> list[tuple[str, str, bool, datetime]]:
        with self.repositorio._sessao() as sessao:
            return [
                (u.nome, u.papel, u.ativo, u.criado_em)
                for u in sessao.scalars(select(Usuario).order_by(Usuario.nome))
            ]

    # --- checking credentials ---------------------------------------------------------------

    def por_token(self, token: str) -> Identidade | None:
        """The user of a bearer token, or ``None`` (unknown, revoked, inactive, malformed)."""
        chave = _sha256(token)
        agora_ = time.monotonic()
        with self._trava:
            lembrado = self._cache.get(chave)
            if lembrado is not None and lembrado[0] > agora_:
                return lembrado[1]
        prefixo, _, segredo = token.removeprefix("mlt_").partition(".")
        if not prefixo or not segredo or len(token) > 200:
            return None
        with self.repositorio._sessao() as sessao:
            linha = sessao.execute(
                select(Token.hash, Usuario.nome, Usuario.papel)
                .join(Usuario, Usuario.id == Token.usuario_id)
                .where(Token.prefixo == prefixo, ~Token.revogado, Usuario.ativo)
            ).first()
        if linha is None or not _confere(linha[0], segredo):
            return None
        identidade = Identidade(linha[1], linha[2])
        with self._trava:
            if len(self._cache) > 10_000:
                self._cache.clear()
            self._cache[chave] = (agora_ + CACHE_SEGUNDOS, identidade)
        return identidade

    def por_senha(self, nome: str, senha: str) -> Identidade | None:
        with self.repositorio._sessao() as sessao:
            usuario = sessao.scalars(
                select(Usuario).where(Usuario.nome == " ".join(nome.split()), Usuario.ativo)
            ).first()
            if usuario is None or usuario.hash_senha is None:
                _confere(_HASH_FALSO, senha)  # the same time whether or not the user exists
                return None
            hash_senha, identidade = usuario.hash_senha, Identidade(usuario.nome, usuario.papel)
        return identidade if _confere(hash_senha, senha) else None

    # --- sessions ---------------------------------------------------------------------------

    def abrir_sessao(self, identidade: Identidade) -> str:
        identificador = secrets.token_urlsafe(32)
        momento = agora()
        with self.repositorio._sessao(escrita=True) as sessao:
            usuario = self._usuario(sessao, identidade.nome)
            sessao.add(
                Sessao(
                    hash_id=_sha256(identificador),
                    usuario_id=usuario.id,
                    criado_em=momento,
                    expira_em=momento + timedelta(hours=SESSAO_HORAS),
                )
            )
        return identificador

    def por_sessao(self, identificador: str) -> Identidade | None:
        if not identificador or len(identificador) > 100:
            return None
        with self.repositorio._sessao() as sessao:
            linha = sessao.execute(
                select(Sessao.expira_em, Usuario.nome, Usuario.papel)
                .join(Usuario, Usuario.id == Sessao.usuario_id)
                .where(Sessao.hash_id == _sha256(identificador), Usuario.ativo)
            ).first()
        if linha is None or linha[0] <= agora():
            return None
        return Identidade(linha[1], linha[2])

    def fechar_sessao(self, identificador: str) -> None:
        with self.repositorio._sessao(escrita=True) as sessao:
            sessao.query(Sessao).filter(Sessao.hash_id == _sha256(identificador)).delete()


_HASH_FALSO = (
    "$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHRzYWx0$RdescudvJCsgt3ub+b+dWRWJTmaaJObG0Pr9+n0hDc0"
)


def _confere(hash_: str, segredo: str) -> bool:
    from argon2 import PasswordHasher
    from argon2.exceptions import InvalidHashError, VerificationError

    try:
        return bool(PasswordHasher().verify(hash_, segredo))
    except (VerificationError, InvalidHashError):
        return False
