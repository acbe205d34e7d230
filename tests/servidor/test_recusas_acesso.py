"""Issue 16 ("who may do what": one permission table, a login that holds, a database role that
cannot rewrite history) under attack: the login's block holds against simultaneous attempts,
simultaneous failures all count, and neither waiting logins nor bearer tokens exhaust the
server (argon2's slots, the thread pool); failures are counted over a sliding window, per IPv6
network; a session never outlives a password change; logging out is audited as the user; the
insecure-role warning is for administrators only; ``multas servir`` refuses an application role
that could rewrite the audit (a member of a CREATEROLE role, the owner of the schema);
``banco preparar`` keeps passwords out of the SQL and runs again with a CREATEROLE admin; with
a key, an anchor must be signed, and a malformed one is a pt-BR error; bytes that are not HTTP
and an unreachable database print no English on the terminal. Each test reproduces a defect
and fails if it comes back."""

from __future__ import annotations

import base64
import http.client
import json
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import time_machine
from click.testing import CliRunner
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError

from multas.principal import cli
from multas.servicos.persistencia import Repositorio
from multas.servicos.persistencia.acesso import (
    FALHAS_POR_ENDERECO,
    FALHAS_POR_NOME,
    JANELA,
    Acesso,
    chave_endereco,
    chave_nome,
)
from multas.servicos.persistencia.modelos import TentativaLogin
from multas.servicos.persistencia.papeis import riscos
from multas.servidor.aplicacao import PapelInseguro, criar_app_para
from tests.utils import SENHA, Ambiente, com
from tests.utils.casos import salvar
from tests.utils.servidor_real import processo_servidor

INICIO = datetime(2026, 6, 1, 12, tzinfo=UTC)


def _entrar(cliente: TestClient, nome: str, senha: str) -> Any:
    return cliente.post("/entrar", data={"nome": nome, "senha": senha}, follow_redirects=False)


class _SemaforoTomado:
    """Every argon2 slot of the login (servidor.acesso.VERIFICACOES) held by the test: logins
    that arrive now queue exactly as they do behind other logins' argon2 checks."""

    def __enter__(self) -> _SemaforoTomado:
        from multas.servidor import paginas_acesso

        self.semaforo = paginas_acesso.VERIFICACOES
        self.tomadas = 0
        while self.semaforo.acquire(blocking=False):
            self.tomadas += 1
        return self

    def soltar(self) -> None:
        while self.tomadas:
            self.semaforo.release()
            self.tomadas -= 1

    def __exit__(self, *_: object) -> None:
        self.soltar()


# --- the login throttle -----------------------------------------------------------------------


def test_logins_simultaneos_passam_do_bloqueio_e_a_senha_certa_entra(ambiente: Ambiente) -> None:
    """The block is read once, when the request arrives, before it waits for an argon2
    slot; the failure is written only after the check. So every attempt that arrives while
    others are being checked (40 at once: anyio's thread pool) has already passed the block:
    a real server took 39 wrong passwords for one name in 6 s, and then the right one, from the
    same burst, logged in although the name had been blocked since the 10th failure. Here:
    FALHAS_POR_NOME + 5 wrong passwords and then the right one arrive while the checks are
    busy; every wrong one is checked (401, not 429) and the right one opens a session."""
    nome = "usuária admin"
    erradas = FALHAS_POR_NOME + 5
    with _SemaforoTomado() as ocupado, ThreadPoolExecutor(erradas + 1) as grupo:
        futuros = [
            grupo.submit(_entrar, ambiente.cliente, nome, f"errada-{i}") for i in range(erradas)
        ]
        time.sleep(1.5)  # all queued behind the busy checks
        certa = grupo.submit(_entrar, ambiente.cliente, nome, SENHA)
        time.sleep(1.0)
        ocupado.soltar()
        codigos = [f.result().status_code for f in futuros]
        final = certa.result().status_code
    conferidas = codigos.count(401)
    assert final == 429 and conferidas <= FALHAS_POR_NOME, (
        f"senha certa: HTTP {final}; senhas erradas conferidas com argon2: {conferidas} "
        f"(o limite é {FALHAS_POR_NOME}): {codigos}"
    )


def test_logins_em_espera_param_todo_o_servidor(ambiente: Ambiente) -> None:
    """Denial of service: a login waiting for an argon2 slot waits *inside* a thread of
    the pool every sync route and the authentication itself (por_token, por_sessao) use. 40
    waiting logins (one address, distinct names: no block, 40 < FALHAS_POR_ENDERECO) hold the
    whole pool: an authenticated GET /api/v1/versao waits for them (a real server: 7 s during
    80 parallel wrong logins)."""
    c = ambiente.cliente
    with _SemaforoTomado() as ocupado, ThreadPoolExecutor(45) as grupo:
        logins = [grupo.submit(_entrar, c, f"nome-{i}", "errada") for i in range(40)]
        time.sleep(1.5)
        versao = grupo.submit(c.get, "/api/v1/versao", headers=com(ambiente, "leitura"))
        try:
            respondeu = versao.result(timeout=4).status_code == 200
        except TimeoutError:
            respondeu = False
        ocupado.soltar()
        for login in logins:
            login.result()
    assert respondeu, "GET /api/v1/versao ficou parado atrás de logins esperando o argon2"


def test_falhas_simultaneas_de_um_nome_novo_contam_todas(database_url: str) -> None:
    """On PostgreSQL, the first failure of a key (a name, an address) inserts its row;
    two at once both find none and both insert: UniqueViolation. The attempt is not counted
    (8 at once left counts of 1 to 6) and the login answers 500, with an English traceback on
    the server's terminal. It recurs after every successful login (registrar_sucesso deletes
    the name's row) and after 'desbloquear'."""
    repo = Repositorio(database_url)
    repo.migrar()
    acesso = Acesso(repo)
    n, rodadas = 8, 3
    erros: list[str] = []
    try:
        for rodada in range(rodadas):
            barreira = threading.Barrier(n)

            def falhar(rodada: int = rodada, barreira: threading.Barrier = barreira) -> None:
                barreira.wait()
                try:
                    acesso.registrar_falha(
                        (chave_nome(f"ana{rodada}"), FALHAS_POR_NOME),
                        (chave_endereco(f"203.0.113.{rodada}"), FALHAS_POR_ENDERECO),
                    )
                except Exception as erro:
                    erros.append(f"{type(erro).__name__}: {str(erro).splitlines()[0][:90]}")

            linhas = [threading.Thread(target=falhar) for _ in range(n)]
            for linha in linhas:
                linha.start()
            for linha in linhas:
                linha.join()
        with repo.leitura() as sessao:
            contagens = [
                (chave, len(json.loads(momentos)))
                for chave, momentos in sessao.execute(
                    select(TentativaLogin.chave, TentativaLogin.momentos).order_by(
                        TentativaLogin.chave
                    )
                )
            ]
    finally:
        repo.fechar()
    assert not erros, erros[:3]
    assert len(contagens) == 2 * rodadas
    assert all(falhas == n for _, falhas in contagens), contagens


def test_janela_fixa_deixa_17_falhas_em_um_minuto_sem_bloqueio(acesso: Acesso) -> None:
    """The block is "10 failures in 15 minutes": the window is fixed (it starts at a failure and
    is reset whole when 15 minutes have passed), not sliding. One failure, then 8 just before
    the window closes and 9 just after it: 17 failures in 61 seconds, never blocked."""
    nome = chave_nome("ana")
    with time_machine.travel(INICIO, tick=False) as viagem:
        acesso.registrar_falha((nome, FALHAS_POR_NOME))
        viagem.shift(JANELA - timedelta(seconds=30))
        for _ in range(FALHAS_POR_NOME - 2):
            acesso.registrar_falha((nome, FALHAS_POR_NOME))
        viagem.shift(timedelta(seconds=31))
        for _ in range(FALHAS_POR_NOME - 1):
            acesso.registrar_falha((nome, FALHAS_POR_NOME))
        assert acesso.bloqueado_ate(nome) is not None, "17 falhas em 61 s e nenhum bloqueio"


def test_enderecos_da_mesma_rede_ipv6_contam_juntos(acesso: Acesso) -> None:
    """The address key is the whole address. Over IPv6 one client holds a /64
    (2^64 addresses): each attempt from a new one starts a new count, so the per-address
    limit never blocks it (and each adds a row that is never deleted)."""
    with time_machine.travel(INICIO, tick=False):
        for i in range(FALHAS_POR_ENDERECO):
            acesso.registrar_falha(
                (chave_nome(f"nome{i}"), FALHAS_POR_NOME),
                (chave_endereco(f"2001:db8:1:2::{i + 1:x}"), FALHAS_POR_ENDERECO),
            )
        assert acesso.bloqueado_ate(chave_endereco("2001:db8:1:2::ffff")) is not None


def test_tokens_com_prefixo_valido_nao_tem_limite_de_argon2(
    ambiente: Ambiente, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Denial of service: the login runs at most one argon2 check per core; a
    bearer token does not: `mlt_<prefix>.<anything>` with the prefix of any active token (a
    leitura user's own, or one read in the audit's details) costs an argon2 check (~0.1 s,
    64 MiB) that is never remembered, and the 401 is answered before the rate limit. A real
    server took 1.46 GB of RSS (from 98 MB) for 40 such requests at once (the login: 297 MB).
    Here: each check is slowed to 0.3 s and counted while it runs."""
    import os

    from multas.servicos.persistencia import acesso as modulo

    original = modulo._confere
    trava = threading.Lock()
    agora_, maximo = [0], [0]

    def contar(hash_: str, segredo: str) -> bool:
        with trava:
            agora_[0] += 1
            maximo[0] = max(maximo[0], agora_[0])
        try:
            time.sleep(0.3)
            return original(hash_, segredo)
        finally:
            with trava:
                agora_[0] -= 1

    monkeypatch.setattr(modulo, "_confere", contar)
    prefixo = ambiente.tokens["leitura"].split(".")[0]
    with ThreadPoolExecutor(12) as grupo:
        codigos = list(
            grupo.map(
                lambda i: (
                    ambiente.cliente.get(
                        "/api/v1/versao", headers={"Authorization": f"Bearer {prefixo}.errado{i}"}
                    ).status_code
                ),
                range(12),
            )
        )
    assert codigos == [401] * 12
    assert maximo[0] <= (os.cpu_count() or 1), f"{maximo[0]} verificações argon2 ao mesmo tempo"


# --- sessions and the audit's "who" -------------------------------------------------------------


def test_sessao_aberta_com_a_senha_antiga_depois_da_troca(
    ambiente: Ambiente, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A race: the password is checked, then (after registrar_sucesso and the wait for
    the chain's write lock) the session is opened without looking at the password again. A
    password changed in between (an admin, in another process, because it leaked) has already
    closed the user's sessions: the one opened next, with the old password, lives 12 hours."""
    acesso = ambiente.cliente.app.state.acesso  # type: ignore[attr-defined]
    original = acesso.registrar_sucesso

    def e_a_senha_muda_agora(*chaves: str) -> None:
        original(*chaves)
        outro = Repositorio(ambiente.url)
        Acesso(outro).definir_senha("usuária analista", "senha-nova-bem-longa", "admin")
        outro.fechar()

    monkeypatch.setattr(acesso, "registrar_sucesso", e_a_senha_muda_agora)
    entrada = _entrar(ambiente.cliente, "usuária analista", SENHA)
    assert entrada.status_code in (303, 401)
    r = ambiente.cliente.get("/api/v1/casos")  # the session cookie of that login
    assert r.status_code == 401, "sessão aberta com a senha antiga vale depois da troca"


def test_sair_registra_o_usuario_autenticado(ambiente: Ambiente) -> None:
    """POST /sair is public, so the middleware sets no identity; the session's
    deletion is audited as "anônimo", not as the user whose session cookie it is."""
    assert _entrar(ambiente.cliente, "usuária leitura", SENHA).status_code == 303
    assert ambiente.cliente.post("/sair", follow_redirects=False).status_code == 303
    repo = Repositorio(ambiente.url)
    try:
        fechadas = [r.usuario for r in repo.auditoria() if r.acao == "sessao_fechar"]
    finally:
        repo.fechar()
    assert fechadas == ["usuária leitura"], fechadas


def test_aviso_de_papel_inseguro_so_para_administradores(database_url: str) -> None:
    """Disclosure: render shows --papel-inseguro's warning when ``identidade`` is
    None, meant for the open server's local user. But it is None on every public page (the
    login page) and on the 401/403 pages of an authenticated server: an anonymous visitor and a
    leitura user are told the database role's name and that it is a superuser / may create
    roles / owns the audit."""
    if not database_url.startswith("postgresql"):
        pytest.skip("o SQLite não tem papéis")
    repo = Repositorio(database_url)
    token = Acesso(repo).criar("ana", "leitura", SENHA, "teste")
    repo.fechar()
    app = criar_app_para("127.0.0.1", database_url, aceitar_papel_inseguro=True)
    html = {"Accept": "text/html"}
    with TestClient(app, base_url="https://127.0.0.1") as c:
        anonimo = c.get("/entrar", headers=html)
        leitura = c.get("/auditoria", headers=html | {"Authorization": f"Bearer {token}"})
    assert leitura.status_code == 403
    vazou = [
        quem
        for quem, pagina in (("anônimo em /entrar", anonimo), ("leitura no 403", leitura))
        if "Papel do banco inseguro" in pagina.text
    ]
    assert not vazou, vazou


# --- PostgreSQL: a role that can rewrite history, not refused -----------------------------------


def _executar_como(url: str, comandos: list[str]) -> None:
    motor = create_engine(url)
    try:
        with motor.begin() as c:
            for comando in comandos:
                c.execute(text(comando))
    finally:
        motor.dispose()


def _recusado(app: str, dono: str) -> bool:
    """Whether `multas servir` refuses this application role (PapelInseguro)."""
    try:
        construido = criar_app_para("127.0.0.1", app, url_dono=dono)
    except PapelInseguro:
        return True
    construido.state.servico.repositorio.fechar()
    return False


def test_membro_de_um_papel_com_createrole_nao_e_recusado(
    papeis: tuple[str, str, str],
) -> None:
    """riscos() looks at the application role's own attributes (SUPERUSER,
    CREATEROLE) and at membership in the audit's owner only. A role that is a *member* of a
    role with CREATEROLE (here the administrative role that ran 'banco preparar') is reported
    safe and the server starts; yet it can SET ROLE to it, grant itself the audit's owner,
    disable the guard trigger and rewrite the audit."""
    admin, dono, app = papeis
    papel_app, papel_dono = make_url(app).username, make_url(dono).username
    papel_admin = make_url(admin).username
    repo = Repositorio(app, url_migracao=dono)
    salvar(repo)
    repo.fechar()
    _executar_como(admin, [f'GRANT "{papel_admin}" TO "{papel_app}"'])
    try:
        motor = create_engine(app)
        with motor.connect() as c:
            apontados = riscos(c)
        motor.dispose()
        # what such a role can do: become the audit's owner and rewrite it
        _executar_como(
            app,
            [
                f'SET ROLE "{papel_admin}"',
                f'GRANT "{papel_dono}" TO "{papel_app}"',
                "RESET ROLE",
                f'SET ROLE "{papel_dono}"',
                "ALTER TABLE auditoria DISABLE TRIGGER ALL",
                "UPDATE auditoria SET usuario = 'mallory'",
                "ALTER TABLE auditoria ENABLE TRIGGER ALL",
            ],
        )
        recusado = _recusado(app, dono)
    finally:
        _executar_como(
            admin,
            [
                f'REVOKE "{papel_admin}" FROM "{papel_app}"',
                f'REVOKE "{papel_dono}" FROM "{papel_app}"',
            ],
        )
    assert apontados and recusado, (
        "o papel da aplicação reescreveu a auditoria, e riscos() o deu por seguro"
    )


def test_dono_do_esquema_nao_e_recusado(papeis: tuple[str, str, str]) -> None:
    """The owner of the schema may drop any table in it, whoever owns the table. riscos()
    never asks who owns the schema: an application role that owns it (on PostgreSQL 15+, the
    owner of the *database* owns 'public' through pg_database_owner: `createdb -O app`, a
    common set-up) is reported safe, the server starts, and the role drops the audit and
    creates one of its own."""
    admin, dono, app = papeis
    papel_app = make_url(app).username
    papel_admin = make_url(admin).username
    repo = Repositorio(app, url_migracao=dono)
    salvar(repo)
    repo.fechar()
    motor = create_engine(admin)
    with motor.connect() as c:
        esquema = c.execute(text("SELECT current_schema()")).scalar_one()
    motor.dispose()
    _executar_como(
        admin,
        [
            f'GRANT "{papel_app}" TO current_user',
            f'ALTER SCHEMA "{esquema}" OWNER TO "{papel_app}"',
        ],
    )
    try:
        motor = create_engine(app)
        with motor.connect() as c:
            apontados = riscos(c)
        motor.dispose()
        recusado = _recusado(app, dono)
        apagou = True
        try:  # what it can do: the audit dropped (in a transaction rolled back here)
            motor = create_engine(app)
            with motor.connect() as c, c.begin() as t:
                c.execute(text("DROP TABLE auditoria CASCADE"))
                t.rollback()
            motor.dispose()
        except DBAPIError:
            apagou = False
    finally:
        _executar_como(admin, [f'ALTER SCHEMA "{esquema}" OWNER TO "{papel_admin}"'])
    assert not apagou or (apontados and recusado), (
        "o papel da aplicação, dono do esquema, pode apagar a auditoria, e riscos() o deu por "
        "seguro"
    )


@contextmanager
def _roles_novos(database_url: str) -> Iterator[tuple[str, str]]:
    """(owner, application) URLs of two roles that do not exist yet, dropped at the end (as
    the ``papeis`` fixture of tests/fixtures/papeis.py does)."""
    if not database_url.startswith("postgresql"):
        pytest.skip("papéis só existem no PostgreSQL")
    sufixo = uuid.uuid4().hex[:8]
    base = make_url(database_url)
    dono = base.set(username=f"multas_dono_{sufixo}", password=f"senha-dono-{uuid.uuid4().hex}")
    app = base.set(username=f"multas_app_{sufixo}", password=f"senha-app-{uuid.uuid4().hex}")
    try:
        yield dono.render_as_string(hide_password=False), app.render_as_string(hide_password=False)
    finally:
        admin = create_engine(database_url)
        with admin.begin() as c:
            esquema = c.execute(text("SELECT current_schema()")).scalar_one()
            c.execute(text(f"DROP SCHEMA IF EXISTS {esquema} CASCADE"))
            c.execute(text(f"CREATE SCHEMA {esquema}"))  # the database_url fixture drops it
            for papel in (dono.username, app.username):
                if c.execute(
                    text("SELECT 1 FROM pg_roles WHERE rolname = :n"), {"n": papel}
                ).scalar():
                    c.execute(text(f"GRANT {papel} TO current_user"))
                    c.execute(text(f"DROP OWNED BY {papel}"))
                    c.execute(text(f"DROP ROLE {papel}"))
        admin.dispose()


def test_preparar_nao_manda_as_senhas_em_claro_no_sql(database_url: str) -> None:
    """'banco preparar' creates (or updates) the roles with `CREATE/ALTER ROLE ...
    PASSWORD 'the password'`: the password travels as statement text, which the server writes
    to its log (log_statement = ddl or all, or any error in that statement under the default
    log_min_error_statement) and shows in pg_stat_activity. A SCRAM verifier computed on the
    client (what psql's \\password sends) keeps it out of both."""
    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    from multas.servicos.persistencia.papeis import preparar

    enviados: list[str] = []

    def anotar(_c: Any, _cur: Any, sql: str, *_resto: Any) -> None:
        enviados.append(sql)

    with _roles_novos(database_url) as (dono, app):
        senhas = [make_url(u).password for u in (dono, app)]
        event.listen(Engine, "before_cursor_execute", anotar)
        try:
            preparar(database_url, dono, app)
        finally:
            event.remove(Engine, "before_cursor_execute", anotar)
    em_claro = [sql for sql in enviados if any(s and s in sql for s in senhas)]
    assert not em_claro, [sql.split("PASSWORD")[0] + "PASSWORD '…'" for sql in em_claro]


def test_preparar_de_novo_com_papel_createrole(papeis: tuple[str, str, str]) -> None:
    """'banco preparar' says it "pode ser rodado de novo (atualiza senhas e
    direitos)", and its --admin may be "um superusuário, ou com CREATEROLE". Run again with a
    CREATEROLE admin (the documented case), it fails at once: `ALTER ROLE <owner> LOGIN
    NOSUPERUSER ...` needs a superuser on PostgreSQL ("must be superuser to ... change
    superuser attribute"). No password rotation, no re-grant after an upgrade."""
    admin, dono, app = papeis
    r = CliRunner().invoke(
        cli, ["banco", "preparar", "--admin", admin, "--banco-dono", dono, "--banco", app]
    )
    assert r.exit_code == 0, r.output


# --- the anchor --------------------------------------------------------------------------------


@pytest.fixture
def chave(tmp_path: Path) -> str:
    arquivo = tmp_path / "chave"
    arquivo.write_bytes(b"0123456789abcdef0123456789abcdef")
    return str(arquivo)


def _ancora_assinada(tmp_path: Path, chave: str) -> tuple[str, str]:
    url = f"sqlite:///{tmp_path / 'm.db'}"
    repo = Repositorio(url)
    salvar(repo)
    repo.fechar()
    r = CliRunner().invoke(cli, ["auditoria", "ancorar", "--banco", url, "--chave-ancora", chave])
    assert r.exit_code == 0, r.output
    return url, r.stdout.strip()


def test_ancora_sem_assinatura_passa_quando_a_chave_e_dada(tmp_path: Path, chave: str) -> None:
    """A downgrade: with --chave-ancora the signature is the whole point; an anchor
    whose signature was replaced by '-' (what anyone who rewrote the database can make for
    the rewritten state) is accepted with a mere warning, exit code 0: a scheduled
    `verificar --ancora "$(cat ancora)" --chave-ancora k` reports it intact."""
    url, ancora = _ancora_assinada(tmp_path, chave)
    prefixo, carga, _assinatura = ancora.split(".")
    r = CliRunner().invoke(
        cli,
        [
            "auditoria",
            "verificar",
            "--banco",
            url,
            "--ancora",
            f"{prefixo}.{carga}.-",
            "--chave-ancora",
            chave,
        ],
    )
    assert r.exit_code != 0, r.output


@pytest.mark.parametrize("defeito", ["assinatura não ASCII", "data fora do calendário"])
def test_ancora_malformada_da_erro_em_portugues(tmp_path: Path, chave: str, defeito: str) -> None:
    """No English on the terminal: a signature with a non-ASCII character reaches
    hmac.compare_digest, which raises TypeError; a payload whose moment overflows on
    astimezone raises OverflowError (read before the signature is checked). Both end in an
    English traceback instead of "âncora ilegível"."""
    url, ancora = _ancora_assinada(tmp_path, chave)
    prefixo, carga, assinatura = ancora.split(".")
    if defeito == "assinatura não ASCII":
        forjada = f"{prefixo}.{carga}.{assinatura[:-1]}é"
    else:
        dados = json.loads(base64.urlsafe_b64decode(carga + "=" * (-len(carga) % 4)))
        dados["m"] = "0001-01-01T00:00:00+14:00"
        nova = base64.urlsafe_b64encode(json.dumps(dados).encode()).decode().rstrip("=")
        forjada = f"{prefixo}.{nova}.{assinatura}"
    r = CliRunner().invoke(
        cli,
        ["auditoria", "verificar", "--banco", url, "--ancora", forjada, "--chave-ancora", chave],
    )
    assert isinstance(r.exception, SystemExit) and r.exit_code == 2, repr(r.exception)


# --- English on the server's terminal -----------------------------------------------------------


@pytest.mark.subprocesso
def test_pedido_http_invalido_nao_imprime_ingles_no_terminal(tmp_path: Path) -> None:
    """Any client that sends bytes that are not HTTP (a scanner, a TLS client on
    the plain port) makes uvicorn print 'WARNING:  Invalid HTTP request received.' on the
    server's terminal."""
    with processo_servidor(tmp_path, f"sqlite:///{tmp_path / 'm.db'}") as (porta, processo):
        with socket.create_connection(("127.0.0.1", porta), timeout=5) as s:
            s.sendall(b"\x16\x03\x01\x00\x05hello\r\n\r\n")
            with suppress(OSError):
                s.recv(100)
        conexao = http.client.HTTPConnection("127.0.0.1", porta, timeout=10)
        conexao.request("GET", "/api/v1/versao")
        assert conexao.getresponse().status == 200
        processo.terminate()
        _, erro = processo.communicate(timeout=30)
    assert "Invalid HTTP request" not in erro, erro


@pytest.mark.subprocesso
def test_servir_com_banco_inacessivel_sem_traceback_em_ingles(tmp_path: Path) -> None:
    """`multas servir` with a PostgreSQL that refuses the connection (or a
    URL whose port is not a number: the settings check only the scheme) ends in an English
    traceback: the checks at start-up (riscos_do_papel, migrar) run outside any handler."""
    import subprocess

    from tests.utils import MULTAS

    for url in (
        "postgresql://u:p@127.0.0.1:1/x",
        "postgresql://u:p@127.0.0.1:porta/x",
    ):
        r = subprocess.run(
            [MULTAS, "servir", "--porta", str(_porta_livre())],
            cwd=tmp_path,
            env=_ambiente_sem_banco() | {"MULTAS_DATABASE_URL": url},
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert r.returncode != 0
        assert "Traceback" not in r.stderr, (url, r.stderr[-400:])


def _porta_livre() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        porta: int = s.getsockname()[1]
        return porta


def _ambiente_sem_banco() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if not k.startswith("MULTAS_DATABASE_URL")}
