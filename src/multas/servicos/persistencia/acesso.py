"""Who may use the server: users with a role, their API tokens and page sessions.

- Roles: ``leitura`` (reads saved cases and the reference), ``analista`` (also computes and
  saves), ``admin`` (also deletes, reads the audit log, and manages users).
- API tokens (``Authorization: Bearer <prefix>.<secret>``: the prefix finds the row, the
  secret is verified), created by ``multas usuarios``, shown once, and passwords: only their
  argon2 hash is stored (argon2-cffi, the library's recommended parameters).
- Page sessions: a random id (256 bits) in a cookie; the database keeps its SHA-256.

Checking an argon2 hash costs ~0.1 s (and 64 MiB) by design: only that check is remembered
for a token, for :data:`CACHE_SEGUNDOS`; the token, its user and their role are read on every
request, so a revocation, a new password, role or clients, or a deactivation (each ends the
user's sessions, tokens and calendar feed) takes effect at once, in every worker.

Refused credentials: :data:`FALHAS_POR_NOME` failures in any :data:`JANELA` (a sliding
window) block that user name for :data:`BLOQUEIO`, twice as long each time in a row, up to
:data:`BLOQUEIO_MAXIMO`; :data:`FALHAS_POR_ENDERECO` from one address (an IPv6 /64 network)
block its logins the same way (passwords only: wrong token secrets, which only cost argon2
checks, count apart, :func:`chave_token`, :data:`FALHAS_TOKEN_POR_ENDERECO`). An attempt is
counted *before* its credential is checked (:meth:`Acesso.tentar`, every key's row locked),
so a burst cannot pass the limit; a right credential takes its count back. The counters live
in the database (every worker sees them); ``multas usuarios desbloquear`` lifts a block.
"""

from __future__ import annotations

import hashlib
import ipaddress
import json
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.escopo import Escopo
from multas.servicos.persistencia import senhas
from multas.servicos.persistencia.escrita import Escrita
from multas.servicos.persistencia.modelos import (
    FeedCalendario,
    Sessao,
    TentativaLogin,
    Token,
    Usuario,
)
from multas.servicos.persistencia.registros import (
    RECURSOS,
    conferir,
    exigir_conferido,
    validar_texto,
)
from multas.servicos.persistencia.senhas import confere as _confere
from multas.servicos.relogio import agora

if TYPE_CHECKING:
    from multas.servicos.persistencia.repositorio import Repositorio

PAPEIS = ("leitura", "analista", "admin")
NIVEL = {papel: i for i, papel in enumerate(PAPEIS)}
CACHE_SEGUNDOS = 60.0
SESSAO_HORAS = 12
FALHAS_POR_NOME, FALHAS_POR_ENDERECO = 10, 50  # the login throttle (the module's docstring)
FALHAS_TOKEN_POR_ENDERECO = 200
JANELA = timedelta(minutes=15)
BLOQUEIO = timedelta(minutes=15)
BLOQUEIO_MAXIMO = timedelta(hours=24)
#: rows idle this long with no block in force are deleted; a row keeps at most this many moments
ESQUECER_APOS = timedelta(hours=24)
MOMENTOS_GUARDADOS = 1000


@dataclass(frozen=True)
class Identidade:
    """Who is asking: the user's name (the audit's "who") and role."""

    nome: str
    papel: str
    #: the stored password hash a login was checked against (a session opens only if it is
    #: still the user's: see :meth:`Acesso.abrir_sessao`)
    credencial: str | None = field(default=None, compare=False, repr=False)
    #: the clients the user is limited to (:mod:`multas.nucleo.escopo`); ``None``: every client
    escopo: Escopo | None = field(default=None, compare=False)

    def pode(self, papel: str) -> bool:
        return NIVEL[self.papel] >= NIVEL[papel]


@dataclass(frozen=True)
class TokenLido:
    """A bearer token's stored side (:meth:`Acesso.ler_token`), before its secret is checked."""

    identidade: Identidade
    hash: str = field(repr=False)
    segredo: str = field(repr=False)
    chave: str = field(repr=False)
    #: the same secret matched the same hash less than :data:`CACHE_SEGUNDOS` ago
    lembrado: bool


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
    :meth:`~multas.servicos.persistencia.Repositorio.escrita`, every read checked against the chain)."""

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
        from multas.servicos.persistencia.modelos import RegistroAuditoria

        with self.repositorio.leitura() as sessao:
            ativo = sessao.scalars(select(Usuario.id).where(Usuario.ativo).limit(1)).first()
            registrado = sessao.scalars(
                select(RegistroAuditoria.id)
                .where(RegistroAuditoria.tabela == Usuario.__tablename__)
                .limit(1)
            ).first()
            return ativo is not None or registrado is not None

    def criar(
        self, nome: str, papel: str, senha: str | None, por: str, escopo: Escopo | None = None
    ) -> str:
        """Create a user and a first API token; return the token (shown once). ``escopo``:
        the clients the user is limited to (``None``: every client; an admin always)."""
        nome, papel = validar_nome(nome), validar_papel(papel)
        validar_escopo(papel, escopo)
        hash_senha = senhas.hasher().hash(senha) if senha else None
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
                    clientes=escopo.json() if escopo is not None else None,
                ),
                "usuario_criar",
                {"nome": nome, "papel": papel}
                | ({"clientes": escopo.json()} if escopo is not None else {}),
            )
            return self._novo_token(escrita, usuario.id)

    def _novo_token(self, escrita: Escrita, usuario_id: int) -> str:
        prefixo = secrets.token_hex(6)
        segredo = secrets.token_urlsafe(32)
        escrita.inserir(
            Token(
                prefixo=prefixo,
                usuario_id=usuario_id,
                hash=senhas.hasher().hash(segredo),
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
        """A new password; the user's page sessions, API tokens and feed end at once (a
        password changed because it leaked must not leave a session open)."""
        if len(senha) < 8:
            raise EntradaInvalida("senha", "a senha deve ter ao menos 8 caracteres")
        hash_senha = senhas.hasher().hash(senha)
        with self.repositorio.escrita(por) as escrita:
            usuario = self._usuario(escrita.sessao, nome)
            usuario.hash_senha = hash_senha
            escrita.alterar(usuario, "usuario_senha", {"nome": nome})
            self._encerrar_credenciais(escrita, usuario, "usuario_senha")

    def definir_papel(self, nome: str, papel: str, por: str) -> None:
        """Another role; the user's sessions, tokens and feed end at once (they were opened
        with the old one)."""
        papel = validar_papel(papel)
        with self.repositorio.escrita(por) as escrita:
            usuario = self._usuario(escrita.sessao, nome)
            validar_escopo(papel, Escopo.ler(usuario.clientes))
            anterior, usuario.papel = usuario.papel, papel
            escrita.alterar(
                usuario, "usuario_papel", {"nome": nome, "papel": papel, "antes": anterior}
            )
            self._encerrar_credenciais(escrita, usuario, "usuario_papel")

    def definir_clientes(self, nome: str, escopo: Escopo | None, por: str) -> None:
        """Limit the user to these clients (``None``: every client); the user's sessions,
        tokens and feed end at once (they were opened with the old scope)."""
        with self.repositorio.escrita(por) as escrita:
            usuario = self._usuario(escrita.sessao, nome)
            validar_escopo(usuario.papel, escopo)
            anterior = usuario.clientes
            usuario.clientes = escopo.json() if escopo is not None else None
            escrita.alterar(
                usuario,
                "usuario_clientes",
                {"nome": nome, "clientes": usuario.clientes, "antes": anterior},
            )
            self._encerrar_credenciais(escrita, usuario, "usuario_clientes")

    def desativar(self, nome: str, por: str) -> None:
        """The user can no longer sign in; their tokens, sessions and feed end at once."""
        with self.repositorio.escrita(por) as escrita:
            usuario = self._usuario(escrita.sessao, nome)
            usuario.ativo = False
            escrita.alterar(usuario, "usuario_desativar", {"nome": nome})
            self._encerrar_credenciais(escrita, usuario, "usuario_desativar")

    @classmethod
    def _encerrar_credenciais(cls, escrita: Escrita, usuario: Usuario, acao: str) -> None:
        """The one revocation (password, role, clients, deactivation): tokens, feed, sessions."""
        cls._revogar_feeds(escrita, usuario.id, acao)
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

    def escopos(self) -> dict[str, Escopo | None]:
        """Each user's scope, by name (``None``: every client)."""
        with self.repositorio.leitura() as sessao:
            return {
                str(nome): Escopo.ler(clientes)
                for nome, clientes in sessao.execute(select(Usuario.nome, Usuario.clientes))
            }

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
        """The user of a bearer token, or ``None``: :meth:`ler_token` then
        :meth:`confirmar_token` (the server runs the two apart, the second under its limit of
        argon2 checks at once)."""
        lido = self.ler_token(token)
        return lido.identidade if lido is not None and self.confirmar_token(lido) else None

    def ler_token(self, token: str) -> TokenLido | None:
        """The stored side of a bearer token, or ``None`` (unknown, revoked, inactive,
        malformed, or not matching its history in the audit chain). The token, its user and
        their role are read on every request, so a revocation, a role change or a
        deactivation takes effect at once, in every worker."""
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
            hash_token, identidade = linha[0].hash, _identidade(linha[1])
        chave = _sha256(token)
        with self._trava:
            lembrado = self._cache.get(chave)
        return TokenLido(
            identidade=identidade,
            hash=hash_token,
            segredo=segredo,
            chave=chave,
            lembrado=lembrado is not None
            and lembrado[0] > time.monotonic()
            and lembrado[1] == hash_token,
        )

    def confirmar_token(self, lido: TokenLido) -> bool:
        """Whether the secret matches the stored hash: the argon2 check (~0.1 s and 64 MiB by
        design), remembered for :data:`CACHE_SEGUNDOS` for the same secret and hash."""
        if lido.lembrado:
            return True
        if not _confere(lido.hash, lido.segredo):
            return False
        with self._trava:
            if len(self._cache) > 10_000:
                self._cache.clear()
            self._cache[lido.chave] = (time.monotonic() + CACHE_SEGUNDOS, lido.hash)
        return True

    def por_senha(self, nome: str, senha: str) -> Identidade | None:
        # made once per process by whichever login comes first, known name or not: the
        # first refusal of an unknown name costs no hash more than a known one's
        falso = senhas.hash_falso()
        nome = " ".join(nome.split())
        if "\x00" in nome or len(nome) > 200:
            _confere(falso, senha)  # the same time as any refusal
            return None
        identidade: Identidade | None = None
        with self.repositorio.leitura() as sessao:
            usuario = sessao.scalars(
                select(Usuario).where(Usuario.nome == nome, Usuario.ativo)
            ).first()
            if (
                usuario is not None
                and usuario.hash_senha is not None
                and _conferidos(sessao, None, usuario)
            ):
                hash_senha = usuario.hash_senha
                identidade = _identidade(usuario, credencial=hash_senha)
        # the argon2 check with the database's connection given back, known name or not (an
        # unknown name held it the whole check: names sprayed at the login emptied the pool)
        if identidade is None:
            _confere(falso, senha)  # the same time whether or not the user exists
            return None
        return identidade if _confere(hash_senha, senha) else None

    # --- the throttle of refused credentials ------------------------------------------------

    def bloqueado_ate(self, *chaves: str) -> datetime | None:
        """The end of the longest block in force among these keys (a name, an address), if
        any."""
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

    def tentar(self, *limites: tuple[str, int]) -> Bloqueio | None:
        """Admit one attempt, counted *before* its credential is checked, for each (key,
        failures allowed in :data:`JANELA`); or refuse it, saying which key and until when.
        A refusal writes nothing (a blocked client cannot fill the table). An admitted attempt
        locks every key's row (in one order) and checks again under the lock, so attempts
        that arrive together are counted one after the other: however many arrive at once, no
        more than the limit get an argon2 check. The attempt's moment stays as a failure
        unless :meth:`registrar_sucesso` or :meth:`devolver` takes it back."""
        momento = agora()
        ordenados = sorted(limites)
        with self.repositorio.escrita_fora_dos_registros() as sessao:
            vistos = sessao.scalars(
                select(TentativaLogin).where(
                    TentativaLogin.chave.in_([validar_texto(c, "nome", 300) for c, _ in ordenados])
                )
            ).all()
            por_chave = {linha.chave: linha for linha in vistos}
            recusa = _maior_recusa(
                [(por_chave[c], n) for c, n in ordenados if c in por_chave], momento
            )
            if recusa is not None:
                return recusa
            linhas = [(self._tentativa(sessao, c, momento), n) for c, n in ordenados]
            recusa = _maior_recusa(linhas, momento)  # attempts that came in meanwhile
            if recusa is not None:
                return recusa
            for linha, _n in linhas:
                _gravar(linha, [*_momentos(linha, momento), momento], momento)
        return None

    def falhou(self, *limites: tuple[str, int]) -> datetime | None:
        """The attempt admitted by :meth:`tentar` failed: a key that reached its limit is
        blocked for :data:`BLOQUEIO`, twice as long each block in a row (up to
        :data:`BLOQUEIO_MAXIMO`). Returns the end of the block this set off, if any."""
        return self._contar(limites, acrescentar=False)

    def registrar_falha(self, *limites: tuple[str, int]) -> datetime | None:
        """One failure not admitted through :meth:`tentar`: counted, then as :meth:`falhou`."""
        return self._contar(limites, acrescentar=True)

    def _contar(self, limites: tuple[tuple[str, int], ...], acrescentar: bool) -> datetime | None:
        momento = agora()
        fim: datetime | None = None
        with self.repositorio.escrita_fora_dos_registros() as sessao:
            for chave, permitidas in sorted(limites):
                linha = self._tentativa(sessao, chave, momento)
                momentos = _momentos(linha, momento) + ([momento] if acrescentar else [])
                ativo = linha.bloqueado_ate is not None and linha.bloqueado_ate > momento
                if len(momentos) >= permitidas and not ativo:
                    duracao = min(BLOQUEIO * 2 ** min(linha.nivel, 16), BLOQUEIO_MAXIMO)
                    linha.bloqueado_ate, linha.nivel = momento + duracao, linha.nivel + 1
                    momentos = []  # the next window starts when the block ends
                    fim = max(fim, linha.bloqueado_ate) if fim else linha.bloqueado_ate
                _gravar(linha, momentos, momento)
            _esquecer_antigas(sessao, momento)
        return fim

    def registrar_sucesso(self, chave_do_nome: str, *outras: str) -> None:
        """A credential that was right: the name's count (and its doubling) starts over, and
        the attempt admitted for the other keys (the address) is taken back."""
        self._devolver((chave_do_nome, *outras), apagar=chave_do_nome)

    def devolver(self, *chaves: str) -> None:
        """Take back from every key an attempt admitted by :meth:`tentar` that was never
        checked (the server was busy), or a token's that was right."""
        self._devolver(chaves)

    def _devolver(self, chaves: tuple[str, ...], apagar: str | None = None) -> None:
        momento = agora()
        with self.repositorio.escrita_fora_dos_registros() as sessao:
            for chave in sorted(chaves):  # the order every writer locks rows in: no deadlock
                linha = self._tentativa(sessao, chave, momento)
                if chave == apagar:
                    sessao.delete(linha)
                else:
                    _gravar(linha, _momentos(linha, momento)[:-1], momento)

    @staticmethod
    def _tentativa(sessao: Session, chave: str, momento: datetime) -> TentativaLogin:
        """The key's row, locked until the transaction ends (created if missing: two first
        failures at once both count, neither fails)."""
        chave = validar_texto(chave, "nome", 300)
        tabela = TentativaLogin
        valores = {
            "chave": chave,
            "momentos": "[]",
            "bloqueado_ate": None,
            "nivel": 0,
            "atualizado_em": momento,
        }
        dialeto = sessao.get_bind().dialect.name
        if dialeto == "postgresql":
            from sqlalchemy.dialects.postgresql import insert as inserir_pg

            # DO UPDATE, not DO NOTHING: the row is locked by this very statement, inserted
            # anew if a success (or the purge) deleted it while this one waited; DO NOTHING
            # would leave a row deleted under the SELECT ... FOR UPDATE that follows
            inserir = inserir_pg(tabela).values(**valores)
            sessao.execute(
                inserir.on_conflict_do_update(
                    index_elements=[TentativaLogin.chave], set_={"chave": inserir.excluded.chave}
                )
            )
        else:
            from sqlalchemy.dialects.sqlite import insert as inserir_sqlite

            sessao.execute(inserir_sqlite(tabela).values(**valores).on_conflict_do_nothing())
        consulta = select(TentativaLogin).where(TentativaLogin.chave == chave)
        if dialeto == "postgresql":
            consulta = consulta.with_for_update()
        return sessao.scalars(consulta.execution_options(populate_existing=True)).one()

    def desbloquear(self, nome: str, por: str, endereco: bool = False) -> bool:
        """Lift the block of a user name (or, with ``endereco``, the logins' and the tokens' of
        an address or network: ``2001:db8::1``, ``2001:db8::/64``) and forget its count;
        audited. ``False``: no block was in force."""
        chave = chave_endereco(nome.split("/")[0]) if endereco else chave_nome(nome)
        chaves = [chave, chave_token(nome.split("/")[0])] if endereco else [chave]
        with self.repositorio.escrita(por) as escrita:
            fins = escrita.sessao.scalars(
                delete(TentativaLogin)
                .where(TentativaLogin.chave.in_(chaves))
                .returning(TentativaLogin.bloqueado_ate)
            ).all()
            escrita.auditar(
                "usuario_desbloquear",
                {"endereco" if endereco else "nome": chave.split(":", 1)[1]},
            )
        return any(isinstance(f, datetime) and f > escrita.momento for f in fins)

    # --- sessions ---------------------------------------------------------------------------

    def abrir_sessao(self, identidade: Identidade) -> str | None:
        """A page session for a login just checked; ``None`` if the user changed in between
        (a new password, another role, deactivated: the change closed the user's sessions, and
        the one the old password would open now must not outlive it)."""
        identificador = secrets.token_urlsafe(32)
        with self.repositorio.escrita(identidade.nome) as escrita:
            usuario = self._usuario(escrita.sessao, identidade.nome)
            if (
                not usuario.ativo
                or usuario.papel != identidade.papel
                or usuario.hash_senha is None
                or usuario.hash_senha != identidade.credencial
                or Escopo.ler(usuario.clientes) != identidade.escopo
            ):
                return None
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
            expira_em, identidade = linha[0].expira_em, _identidade(linha[1])
        if expira_em <= agora():
            return None
        return identidade

    # --- the private calendar feed ---------------------------------------------------------

    def criar_feed(self, nome: str, vigente: Callable[[], bool] = lambda: True) -> str | None:
        """A new private calendar feed for the user (``/api/v1/feed/<token>.ics``), audited as
        theirs; the previous one, if any, is revoked (one feed per user). The token is shown
        once: only its SHA-256 is kept. ``None``: the request's credential, asked again under
        the lock (``vigente``), ended meanwhile (a new password, role or clients revoke it,
        and the feed with it: one made after must not outlive them)."""
        token = "cal_" + secrets.token_urlsafe(32)
        with self.repositorio.escrita(nome) as escrita:
            usuario = self._usuario(escrita.sessao, nome)
            if not vigente():
                return None
            self._revogar_feeds(escrita, usuario.id)
            escrita.inserir(
                FeedCalendario(
                    hash_token=_sha256(token),
                    usuario_id=usuario.id,
                    criado_em=escrita.momento,
                    revogado=False,
                ),
                "feed_criar",
                {"usuario_id": usuario.id},
            )
        return token

    def revogar_feed(self, nome: str) -> bool:
        """Revoke the user's feed (its URL stops working at once); ``False``: there was none."""
        with self.repositorio.escrita(nome) as escrita:
            usuario = self._usuario(escrita.sessao, nome)
            return self._revogar_feeds(escrita, usuario.id) > 0

    @staticmethod
    def _revogar_feeds(escrita: Escrita, usuario_id: int, acao: str = "feed_revogar") -> int:
        feeds = escrita.sessao.scalars(
            select(FeedCalendario).where(
                FeedCalendario.usuario_id == usuario_id, ~FeedCalendario.revogado
            )
        ).all()
        for feed in feeds:
            exigir_conferido(escrita.sessao, RECURSOS["feeds"], feed)
            feed.revogado = True
            escrita.alterar(feed, acao)
        return len(feeds)

    def tem_feed(self, nome: str) -> datetime | None:
        """When the user's feed in force was created (``None``: none)."""
        with self.repositorio.leitura() as sessao:
            criado = sessao.scalar(
                select(FeedCalendario.criado_em)
                .join(Usuario, Usuario.id == FeedCalendario.usuario_id)
                .where(Usuario.nome == nome, ~FeedCalendario.revogado)
            )
            return criado if isinstance(criado, datetime) else None

    def por_feed(self, token: str) -> Identidade | None:
        """The user of a feed's token (for its scope), or ``None``: unknown, revoked, of an
        inactive user, or not matching its history in the chain."""
        if not token.startswith("cal_") or len(token) > 100 or "\x00" in token:
            return None
        with self.repositorio.leitura() as sessao:
            linha = sessao.execute(
                select(FeedCalendario, Usuario)
                .join(Usuario, Usuario.id == FeedCalendario.usuario_id)
                .where(
                    FeedCalendario.hash_token == _sha256(token),
                    ~FeedCalendario.revogado,
                    Usuario.ativo,
                )
            ).first()
            if linha is None or not _conferidos(sessao, linha[0], linha[1]):
                return None
            return _identidade(linha[1])

    def fechar_sessao(self, identificador: str) -> None:
        """Close a page session (``/sair``), audited as the session's user."""
        if not identificador or len(identificador) > 100 or "\x00" in identificador:
            return
        hash_id = _sha256(identificador)
        with self.repositorio.leitura() as sessao:
            dono = sessao.scalar(
                select(Usuario.nome)
                .join(Sessao, Sessao.usuario_id == Usuario.id)
                .where(Sessao.hash_id == hash_id)
            )
        if dono is None:
            return
        with self.repositorio.escrita(str(dono)) as escrita:
            sessao_id = escrita.sessao.scalar(select(Sessao.id).where(Sessao.hash_id == hash_id))
            if sessao_id is not None:
                escrita.excluir(Sessao, int(sessao_id), "sessao_fechar")


def validar_escopo(papel: str, escopo: Escopo | None) -> None:
    """An admin manages users and the whole audit: never limited to some clients."""
    if escopo is not None and papel == "admin":
        raise EntradaInvalida(
            "clientes",
            "um administrador vê todos os clientes: não o limite a CNPJs (use o papel "
            "analista ou leitura)",
        )


def _identidade(usuario: Usuario, credencial: str | None = None) -> Identidade:
    return Identidade(
        usuario.nome, usuario.papel, credencial=credencial, escopo=Escopo.ler(usuario.clientes)
    )


def chave_nome(nome: str) -> str:
    """The throttle's key of a user name (as typed: blank space folded, case kept)."""
    return "u:" + " ".join(nome.split())[:200]


def chave_token(endereco: str) -> str:
    """The throttle's key of wrong bearer tokens from an address (apart from its logins')."""
    return "token:" + chave_endereco(endereco)


_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")


def chave_endereco(endereco: str) -> str:
    """The throttle's (and the request limit's) key of a client address: an IPv6 address
    counts with its whole /64 network (what one client holds); an IPv4 client seen through
    IPv6 as its IPv4 address."""
    try:
        ip = ipaddress.ip_address(endereco.strip())
    except ValueError:
        return "ip:" + endereco[:200]
    if isinstance(ip, ipaddress.IPv6Address):
        # an IPv4 client seen through IPv6 is its IPv4 address: mapped, translated (NAT64 /
        # SIIT, RFC 6052's well-known prefix), 6to4 or Teredo (the client's address)
        ipv4 = ip.ipv4_mapped or ip.sixtofour or (ip.teredo[1] if ip.teredo else None)
        if ipv4 is None and ip in _NAT64:
            ipv4 = ipaddress.IPv4Address(int(ip) & 0xFFFF_FFFF)
        if ipv4 is not None:
            return f"ip:{ipv4}"
        return f"ip:{ipaddress.IPv6Network((ip, 64), strict=False)}"
    return f"ip:{ip}"


def _esquecer_antigas(sessao: Session, momento: datetime) -> None:
    """Delete the rows idle for :data:`ESQUECER_APOS` whose block (if any) ended at least
    that long ago (they count nothing, and a block's doubling outlives the block by a day):
    the table does not grow with every address that ever failed. Rows another attempt holds
    are skipped (PostgreSQL), never waited for: no deadlock."""
    antigas = select(TentativaLogin.id).where(
        TentativaLogin.atualizado_em < momento - ESQUECER_APOS,
        TentativaLogin.bloqueado_ate.is_(None)
        | (TentativaLogin.bloqueado_ate < momento - ESQUECER_APOS),
    )
    if sessao.get_bind().dialect.name == "postgresql":
        antigas = antigas.with_for_update(skip_locked=True)
    ids = list(sessao.scalars(antigas.limit(1000)))
    if ids:
        sessao.execute(delete(TentativaLogin).where(TentativaLogin.id.in_(ids)))


def _momentos(linha: TentativaLogin, momento: datetime) -> list[datetime]:
    """The failures of a row still within the window ending now, oldest first (a row whose
    list cannot be read counts as none: losing a count only lifts a block)."""
    try:
        lidos = [datetime.fromisoformat(m) for m in json.loads(linha.momentos or "[]")]
    except (TypeError, ValueError):
        return []
    return sorted(m for m in lidos if m.tzinfo is not None and m > momento - JANELA)


def _gravar(linha: TentativaLogin, momentos: list[datetime], momento: datetime) -> None:
    linha.momentos = json.dumps([m.isoformat() for m in momentos[-MOMENTOS_GUARDADOS:]])
    linha.atualizado_em = momento


@dataclass(frozen=True)
class Bloqueio:
    """Why an attempt is refused unchecked: the key (``u:<nome>``, ``ip:<endereço>``) whose
    block (or full window) refuses it, until when."""

    chave: str
    ate: datetime

    @property
    def endereco(self) -> str | None:
        """The address (or IPv6 network) blocked, if it is an address's block."""
        return self.chave.removeprefix("ip:") if self.chave.startswith("ip:") else None


def _maior_recusa(linhas: list[tuple[TentativaLogin, int]], momento: datetime) -> Bloqueio | None:
    recusas = [
        Bloqueio(linha.chave, fim) for linha, n in linhas if (fim := _recusa(linha, n, momento))
    ]
    return max(recusas, key=lambda b: b.ate) if recusas else None


def _recusa(linha: TentativaLogin, permitidas: int, momento: datetime) -> datetime | None:
    """Until when a key refuses a new attempt: its block in force, or (with its window full
    of failures and attempts being checked) until the oldest that matters leaves it."""
    if linha.bloqueado_ate is not None and linha.bloqueado_ate > momento:
        return linha.bloqueado_ate
    momentos = _momentos(linha, momento)
    if len(momentos) >= permitidas:
        return momentos[len(momentos) - permitidas] + JANELA
    return None


def _conferidos(
    sessao: Session, credencial: Token | Sessao | FeedCalendario | None, usuario: Usuario
) -> bool:
    """Whether a credential and its user match their history in the chain: a row forged or
    edited in the database (a role raised to admin, a session planted) does not sign in."""
    if conferir(sessao, RECURSOS["usuarios"], [usuario]):
        return False
    if credencial is None:
        return True
    recurso = RECURSOS[str(type(credencial).__tablename__)]
    return not conferir(sessao, recurso, [credencial])
