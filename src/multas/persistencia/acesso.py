"""Who may use the server: users with a role, their API tokens and page sessions.

- Roles: ``leitura`` (reads saved cases and the reference), ``analista`` (also computes and
  saves), ``admin`` (also deletes, reads the audit log, and manages users).
- API tokens (``Authorization: Bearer <token>``) are created by ``multas usuarios`` and shown
  once; only their argon2 hash is stored (argon2-cffi, the library's recommended parameters).
  A token is ``<prefix>.<secret>``: the prefix finds the row, the secret is verified.
- Passwords (for the page's login) are stored the same way.
- Page sessions: a random id in a cookie; the database keeps its SHA-256 (the id has 256 bits
  of entropy, so a fast hash suffices), the user and the expiry.

Checking an argon2 hash costs ~0.1 s (and 64 MiB) by design: only that check is remembered
for a token, for :data:`CACHE_SEGUNDOS`; the token, its user and their role are read on every
request, so a revocation, a role change, a new password or a deactivation (each of which ends
the user's sessions and tokens) takes effect at once, in every worker.

Refused logins (:meth:`Acesso.registrar_falha`): :data:`FALHAS_POR_NOME` in
:data:`JANELA` block that user name for :data:`BLOQUEIO`, twice as long each time in a row, up
to :data:`BLOQUEIO_MAXIMO`; :data:`FALHAS_POR_ENDERECO` from one address block it the same way.
The counters live in the database (every worker sees them); a block is checked before any
argon2 work, and lifted by ``multas usuarios desbloquear``.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from multas.erros import EntradaInvalida
from multas.persistencia.modelos import Sessao, TentativaLogin, Token, Usuario
from multas.persistencia.registros import (
    RECURSOS,
    Escrita,
    conferir,
    exigir_conferido,
    validar_texto,
)
from multas.relogio import agora

if TYPE_CHECKING:
    from multas.persistencia import Repositorio

PAPEIS = ("leitura", "analista", "admin")
NIVEL = {papel: i for i, papel in enumerate(PAPEIS)}
CACHE_SEGUNDOS = 60.0
SESSAO_HORAS = 12
#: the login throttle (see the module's docstring)
FALHAS_POR_NOME = 10
FALHAS_POR_ENDERECO = 50
JANELA = timedelta(minutes=15)
BLOQUEIO = timedelta(minutes=15)
BLOQUEIO_MAXIMO = timedelta(hours=24)


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
    """Users, tokens and sessions, in the repository's database (every write through its
    :meth:`~multas.persistencia.Repositorio.escrita`, every read checked against the chain)."""

    def __init__(self, repositorio: Repositorio) -> None:
        self.repositorio = repositorio
        #: sha256 of a token → (until when, the stored argon2 hash it was verified against)
        self._cache: dict[str, tuple[float, str]] = {}
        self._trava = threading.Lock()

    # --- users ---------------------------------------------------------------------------

    def ha_usuarios(self) -> bool:
        """Whether the server requires authentication: an active user, or any user the audit
        log records (users are never deleted, only deactivated). So users deleted or
        deactivated in the database, outside the system, never open the server."""
        from multas.persistencia.modelos import RegistroAuditoria

        with self.repositorio.leitura() as sessao:
            ativo = sessao.scalars(select(Usuario.id).where(Usuario.ativo).limit(1)).first()
            registrado = sessao.scalars(
                select(RegistroAuditoria.id)
                .where(RegistroAuditoria.tabela == Usuario.__tablename__)
                .limit(1)
            ).first()
            return ativo is not None or registrado is not None

    def criar(self, nome: str, papel: str, senha: str | None, por: str) -> str:
        """Create a user and a first API token; return the token (shown once)."""
        from argon2 import PasswordHasher

        nome, papel = validar_nome(nome), validar_papel(papel)
        hash_senha = PasswordHasher().hash(senha) if senha else None
        with self.repositorio.escrita(por) as escrita:
            existente = escrita.sessao.scalars(select(Usuario).where(Usuario.nome == nome)).first()
            if existente is not None:
                raise EntradaInvalida("nome", f"o usuário {nome!r} já existe")
            usuario = escrita.inserir(
                Usuario(
                    nome=nome,
                    papel=papel,
                    hash_senha=hash_senha,
                    ativo=True,
                    criado_em=escrita.momento,
                ),
                "usuario_criar",
                {"nome": nome, "papel": papel},
            )
            return self._novo_token(escrita, usuario.id)

    def _novo_token(self, escrita: Escrita, usuario_id: int) -> str:
        from argon2 import PasswordHasher

        prefixo = secrets.token_hex(6)
        segredo = secrets.token_urlsafe(32)
        escrita.inserir(
            Token(
                prefixo=prefixo,
                usuario_id=usuario_id,
                hash=PasswordHasher().hash(segredo),
                criado_em=escrita.momento,
                revogado=False,
            ),
            "usuario_token",
            {"usuario_id": usuario_id, "prefixo": prefixo},
        )
        return f"mlt_{prefixo}.{segredo}"

    def _usuario(self, sessao: Session, nome: str) -> Usuario:
        usuario = sessao.scalars(
            select(Usuario).where(Usuario.nome == validar_texto(nome, "nome", 200))
        ).first()
        if usuario is None:
            raise EntradaInvalida("nome", f"usuário desconhecido: {nome!r}")
        exigir_conferido(sessao, RECURSOS["usuarios"], usuario)
        return usuario

    def novo_token(self, nome: str, por: str) -> str:
        with self.repositorio.escrita(por) as escrita:
            usuario = self._usuario(escrita.sessao, nome)
            return self._novo_token(escrita, usuario.id)

    def definir_senha(self, nome: str, senha: str, por: str) -> None:
        """A new password; the user's page sessions and API tokens end at once (a password
        changed because it leaked must not leave a session open)."""
        from argon2 import PasswordHasher

        if len(senha) < 8:
            raise EntradaInvalida("senha", "a senha deve ter ao menos 8 caracteres")
        hash_senha = PasswordHasher().hash(senha)
        with self.repositorio.escrita(por) as escrita:
            usuario = self._usuario(escrita.sessao, nome)
            usuario.hash_senha = hash_senha
            escrita.alterar(usuario, "usuario_senha", {"nome": nome})
            self._encerrar_credenciais(escrita, usuario, "usuario_senha")

    def definir_papel(self, nome: str, papel: str, por: str) -> None:
        """Another role; the user's sessions and tokens end at once (they were opened with
        the old one)."""
        papel = validar_papel(papel)
        with self.repositorio.escrita(por) as escrita:
            usuario = self._usuario(escrita.sessao, nome)
            anterior, usuario.papel = usuario.papel, papel
            escrita.alterar(
                usuario, "usuario_papel", {"nome": nome, "papel": papel, "antes": anterior}
            )
            self._encerrar_credenciais(escrita, usuario, "usuario_papel")

    def desativar(self, nome: str, por: str) -> None:
        """The user can no longer sign in; their tokens and sessions stop working at once."""
        with self.repositorio.escrita(por) as escrita:
            usuario = self._usuario(escrita.sessao, nome)
            usuario.ativo = False
            escrita.alterar(usuario, "usuario_desativar", {"nome": nome})
            self._encerrar_credenciais(escrita, usuario, "usuario_desativar")

    @staticmethod
    def _encerrar_credenciais(escrita: Escrita, usuario: Usuario, acao: str) -> None:
        """Revoke every token of the user and close every page session."""
        sessao = escrita.sessao
        for token in sessao.scalars(
            select(Token).where(Token.usuario_id == usuario.id, ~Token.revogado)
        ).all():
            token.revogado = True
            escrita.alterar(token, acao)
        for sessao_id in sessao.scalars(
            select(Sessao.id).where(Sessao.usuario_id == usuario.id)
        ).all():
            escrita.excluir(Sessao, sessao_id, acao)

    def listar(self) -> list[tuple[str, str, bool, datetime, str | None]]:
        """Every user: (name, role, active, created, the problem of one that does not match
        its history, if any: listed, never hidden)."""
        with self.repositorio.leitura() as sessao:
            usuarios = list(sessao.scalars(select(Usuario).order_by(Usuario.nome)))
            problemas = conferir(sessao, RECURSOS["usuarios"], usuarios)
            return [
                (
                    u.nome,
                    u.papel,
                    u.ativo,
                    u.criado_em,
                    problemas[u.id].mensagem if u.id in problemas else None,
                )
                for u in usuarios
            ]

    # --- checking credentials ---------------------------------------------------------------

    def por_token(self, token: str) -> Identidade | None:
        """The user of a bearer token, or ``None`` (unknown, revoked, inactive, malformed, or
        not matching its history in the audit chain). The token, its user and their role are
        read on every request, so a revocation, a role change or a deactivation takes effect
        at once, in every worker; only the argon2 check (~0.1 s by design) is remembered, for
        the same secret against the same stored hash."""
        prefixo, _, segredo = token.removeprefix("mlt_").partition(".")
        if not prefixo or not segredo or len(token) > 200 or "\x00" in token:
            return None
        with self.repositorio.leitura() as sessao:
            linha = sessao.execute(
                select(Token, Usuario)
                .join(Usuario, Usuario.id == Token.usuario_id)
                .where(Token.prefixo == prefixo, ~Token.revogado, Usuario.ativo)
            ).first()
            if linha is None or not _conferidos(sessao, linha[0], linha[1]):
                return None
            hash_token, identidade = linha[0].hash, Identidade(linha[1].nome, linha[1].papel)
        chave = _sha256(token)
        agora_ = time.monotonic()
        with self._trava:
            lembrado = self._cache.get(chave)
        if lembrado is None or lembrado[0] <= agora_ or lembrado[1] != hash_token:
            if not _confere(hash_token, segredo):
                return None
            with self._trava:
                if len(self._cache) > 10_000:
                    self._cache.clear()
                self._cache[chave] = (agora_ + CACHE_SEGUNDOS, hash_token)
        return identidade

    def por_senha(self, nome: str, senha: str) -> Identidade | None:
        nome = " ".join(nome.split())
        if "\x00" in nome or len(nome) > 200:
            _confere(_HASH_FALSO, senha)  # the same time as any refusal
            return None
        with self.repositorio.leitura() as sessao:
            usuario = sessao.scalars(
                select(Usuario).where(Usuario.nome == nome, Usuario.ativo)
            ).first()
            if (
                usuario is None
                or usuario.hash_senha is None
                or not _conferidos(sessao, None, usuario)
            ):
                _confere(_HASH_FALSO, senha)  # the same time whether or not the user exists
                return None
            hash_senha, identidade = usuario.hash_senha, Identidade(usuario.nome, usuario.papel)
        return identidade if _confere(hash_senha, senha) else None

    # --- the login throttle -------------------------------------------------------------------

    def bloqueado_ate(self, *chaves: str) -> datetime | None:
        """The end of the longest block in force among these keys (a name, an address), if
        any: a blocked attempt is refused before any password is checked."""
        momento = agora()
        with self.repositorio.leitura() as sessao:
            fins = sessao.scalars(
                select(TentativaLogin.bloqueado_ate).where(
                    TentativaLogin.chave.in_([validar_texto(c, "nome", 300) for c in chaves]),
                    TentativaLogin.bloqueado_ate > momento,
                )
            ).all()
        validos = [f for f in fins if isinstance(f, datetime)]
        return max(validos) if validos else None

    def registrar_falha(self, *limites: tuple[str, int]) -> datetime | None:
        """One refused login, counted for each (key, failures allowed in :data:`JANELA`);
        returns the end of the block it set off, if any."""
        momento = agora()
        fim: datetime | None = None
        with self.repositorio._sessao_em(escrita=True) as sessao:
            for chave, permitidas in limites:
                linha = self._tentativa(sessao, validar_texto(chave, "nome", 300), momento)
                if momento - linha.inicio_janela > JANELA:
                    linha.falhas, linha.inicio_janela = 0, momento
                linha.falhas += 1
                if linha.falhas >= permitidas:
                    duracao = min(BLOQUEIO * 2 ** min(linha.nivel, 16), BLOQUEIO_MAXIMO)
                    linha.bloqueado_ate = momento + duracao
                    linha.nivel += 1
                    linha.falhas, linha.inicio_janela = 0, momento
                    fim = max(fim, linha.bloqueado_ate) if fim else linha.bloqueado_ate
        return fim

    def registrar_sucesso(self, chave: str) -> None:
        """A login that succeeded: that name's count (and its doubling) starts over."""
        with self.repositorio._sessao_em(escrita=True) as sessao:
            sessao.execute(delete(TentativaLogin).where(TentativaLogin.chave == chave))

    @staticmethod
    def _tentativa(sessao: Session, chave: str, momento: datetime) -> TentativaLogin:
        consulta = select(TentativaLogin).where(TentativaLogin.chave == chave)
        if sessao.get_bind().dialect.name == "postgresql":
            consulta = consulta.with_for_update()
        linha = sessao.scalars(consulta).first()
        if linha is None:
            linha = TentativaLogin(
                chave=chave, falhas=0, inicio_janela=momento, bloqueado_ate=None, nivel=0
            )
            sessao.add(linha)
            sessao.flush()
        return linha

    def desbloquear(self, nome: str, por: str) -> bool:
        """Lift a user name's block (and forget its count); audited. ``False``: none."""
        chave = chave_nome(nome)
        with self.repositorio.escrita(por) as escrita:
            apagadas = escrita.sessao.scalars(
                delete(TentativaLogin)
                .where(TentativaLogin.chave == chave)
                .returning(TentativaLogin.id)
            ).all()
            escrita.auditar("usuario_desbloquear", {"nome": " ".join(nome.split())})
        return bool(apagadas)

    # --- sessions ---------------------------------------------------------------------------

    def abrir_sessao(self, identidade: Identidade) -> str:
        identificador = secrets.token_urlsafe(32)
        with self.repositorio.escrita(identidade.nome) as escrita:
            usuario = self._usuario(escrita.sessao, identidade.nome)
            escrita.inserir(
                Sessao(
                    hash_id=_sha256(identificador),
                    usuario_id=usuario.id,
                    criado_em=escrita.momento,
                    expira_em=escrita.momento + timedelta(hours=SESSAO_HORAS),
                ),
                "sessao_abrir",
                {"usuario_id": usuario.id},
            )
        return identificador

    def por_sessao(self, identificador: str) -> Identidade | None:
        if not identificador or len(identificador) > 100 or "\x00" in identificador:
            return None
        with self.repositorio.leitura() as sessao:
            linha = sessao.execute(
                select(Sessao, Usuario)
                .join(Usuario, Usuario.id == Sessao.usuario_id)
                .where(Sessao.hash_id == _sha256(identificador), Usuario.ativo)
            ).first()
            if linha is None or not _conferidos(sessao, linha[0], linha[1]):
                return None
            expira_em, identidade = linha[0].expira_em, Identidade(linha[1].nome, linha[1].papel)
        if expira_em <= agora():
            return None
        return identidade

    def fechar_sessao(self, identificador: str) -> None:
        if not identificador or len(identificador) > 100 or "\x00" in identificador:
            return
        with self.repositorio.escrita() as escrita:
            sessao_id = escrita.sessao.scalar(
                select(Sessao.id).where(Sessao.hash_id == _sha256(identificador))
            )
            if sessao_id is not None:
                escrita.excluir(Sessao, int(sessao_id), "sessao_fechar")


def chave_nome(nome: str) -> str:
    """The throttle's key of a user name (as typed: blank space folded, case kept)."""
    return "u:" + " ".join(nome.split())[:200]


def chave_endereco(endereco: str) -> str:
    return "ip:" + endereco[:200]


def _conferidos(sessao: Session, credencial: Token | Sessao | None, usuario: Usuario) -> bool:
    """Whether a credential and its user match their history in the chain: a row forged or
    edited in the database (a role raised to admin, a session planted) does not sign in."""
    if conferir(sessao, RECURSOS["usuarios"], [usuario]):
        return False
    if credencial is None:
        return True
    recurso = RECURSOS[str(type(credencial).__tablename__)]
    return not conferir(sessao, recurso, [credencial])


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
