"""The login throttle of issue 16 (attempts counted before the check, row locks, a sliding
window, IPv6 counted per /64, argon2 slots waited for without a thread) under attack: a login
racing a success on the same name is never a 500; refused attempts add no rows; the request
limit holds per IPv6 network and for refused credentials; a blocked address's page says what
is blocked; IPv4 clients behind NAT64 are counted apart; a 24-hour block is not forgotten when
it ends; a token check never waits for a long write. Each test reproduces a defect and fails if
it comes back."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event, func, select

from multas.servicos.persistencia import Repositorio
from multas.servicos.persistencia.acesso import (
    FALHAS_POR_ENDERECO,
    Acesso,
    chave_endereco,
    chave_nome,
)
from multas.servicos.persistencia.modelos import TentativaLogin
from multas.servicos.relogio import agora
from tests.utils import SENHA

CABECALHO_CLIENTE = "x-teste-cliente"


def _com_cliente(app: Any) -> Any:
    """The app, with the client's address taken from the test's ``X-Teste-Cliente`` header (as
    a socket or a trusted proxy would give it): requests from many addresses in one test."""

    async def envolto(escopo: dict[str, Any], receber: Any, enviar: Any) -> None:
        if escopo["type"] == "http":
            for chave, valor in escopo["headers"]:
                if chave.decode("latin-1") == CABECALHO_CLIENTE:
                    escopo = dict(escopo, client=(valor.decode("latin-1"), 50000))
        await app(escopo, receber, enviar)

    return envolto


@pytest.fixture
def servidor(database_url: str) -> Iterator[tuple[TestClient, Acesso, str]]:
    """An authenticated app (one admin user "ana", password SENHA) whose client address each
    request may choose; with the app's own Acesso (its engine) and the database URL."""
    from multas.servidor import criar_app

    repo = Repositorio(database_url)
    Acesso(repo).criar("ana", "admin", SENHA, "teste")
    repo.fechar()
    app = criar_app(database_url, limite_por_segundo=0)
    with TestClient(
        _com_cliente(app), base_url="https://testserver", raise_server_exceptions=False
    ) as cliente:
        yield cliente, app.state.acesso, database_url


def _entrar(cliente: TestClient, nome: str, senha: str, endereco: str) -> Any:
    return cliente.post(
        "/entrar",
        data={"nome": nome, "senha": senha},
        headers={CABECALHO_CLIENTE: endereco, "Accept": "text/html"},
        follow_redirects=False,
    )


def _linhas(acesso: Acesso) -> int:
    with acesso.repositorio.leitura() as sessao:
        return int(sessao.scalar(select(func.count()).select_from(TentativaLogin)) or 0)


# --- PostgreSQL: a row deleted under a waiting attempt ------------------------------------------


def test_login_simultaneo_a_um_sucesso_do_mesmo_nome_da_500(
    servidor: tuple[TestClient, Acesso, str],
) -> None:
    """On PostgreSQL, a 500 with an English traceback on the server's terminal, and the
    attempt neither checked nor counted: `_tentativa` is `INSERT ... ON CONFLICT DO NOTHING`
    then `SELECT ... FOR UPDATE` ... `.one()`. A success (`registrar_sucesso`) locks the name's
    row and then *deletes* it (as do `desbloquear` and the purge `_esquecer_antigas`, which
    locks idle rows with SKIP LOCKED and deletes them in a second statement). An attempt on
    the same name from another address that arrives in between finds the row (only locked:
    DO NOTHING, no wait), waits on the FOR UPDATE, and when the deleter commits, READ
    COMMITTED gives it no row: NoResultFound, HTTP 500. The user logging in from home while
    anyone else tries the name (or double-clicks "Entrar" behind another address, or the purge
    runs on an idle row) is enough. It is not rare: with no pause at all, 3 threads logging
    in right (each from its own address) and 3 failing (from others) on one name for 8 s got
    727 NoResultFound for 603 attempts that went through. The test only makes it certain (a
    pause before the success's DELETE, what a busy machine does). Reproduce: as below, on
    PostgreSQL."""
    cliente, acesso, url = servidor
    if not url.startswith("postgresql"):
        pytest.skip("o SQLite serializa as escritas (BEGIN IMMEDIATE)")
    nome = chave_nome("ana")
    assert _entrar(cliente, "ana", "errada", "203.0.113.1").status_code == 401  # the row exists

    def pausar(_c: Any, _cur: Any, sql: str, *_resto: Any) -> None:
        if threading.current_thread().name == "sucesso" and sql.startswith(
            "DELETE FROM tentativas_login"
        ):
            time.sleep(1.5)

    event.listen(acesso.repositorio.engine, "before_cursor_execute", pausar)
    try:
        sucesso = threading.Thread(
            target=acesso.registrar_sucesso,
            args=(nome, chave_endereco("198.51.100.7")),
            name="sucesso",
        )
        sucesso.start()
        time.sleep(0.5)  # the success holds the row and is about to delete it
        r = _entrar(cliente, "ana", "outra-errada", "192.0.2.44")
        sucesso.join()
    finally:
        event.remove(acesso.repositorio.engine, "before_cursor_execute", pausar)
    assert r.status_code in (401, 429), f"HTTP {r.status_code}: {r.text[:200]}"


# --- rows written by refused attempts -----------------------------------------------------------


def test_tentativas_recusadas_criam_uma_linha_por_nome(
    servidor: tuple[TestClient, Acesso, str],
) -> None:
    """Denial of service (the table and the database grow without bound): `tentar`
    upserts the row of every key *before* it looks at the blocks: an attempt refused because
    its address is blocked (429, no argon2, nothing counted) still inserts a row for the name
    it sent, and commits it. Only `_contar` (a checked failure) purges, and only rows idle for
    24 hours. So a client whose address is blocked keeps writing one new row (up to 200
    characters of key) per request, at the rate the server accepts requests: with the default
    request limit, 50 rows a second per address, 4.3 million a day; the per-address request
    limit keys the full IPv6 address, so a /64 has no such limit at all. Reproduce: block an
    address, then POST /entrar from it with 40 different names: 40 × 429, 40 new rows."""
    cliente, acesso, _url = servidor
    endereco = "203.0.113.9"
    for _ in range(FALHAS_POR_ENDERECO):
        acesso.registrar_falha((chave_endereco(endereco), FALHAS_POR_ENDERECO))
    antes = _linhas(acesso)
    codigos = [
        _entrar(cliente, f"nome-inventado-{i:03d}-" + "x" * 150, "errada", endereco).status_code
        for i in range(40)
    ]
    depois = _linhas(acesso)
    assert codigos == [429] * 40, codigos
    assert depois == antes, f"{depois - antes} linhas novas para 40 tentativas recusadas"


# --- the request limit and IPv6 ---------------------------------------------------------------


@pytest.mark.usefixtures("relogio_do_limite_parado")
def test_limite_de_requisicoes_vale_para_a_rede_ipv6(database_url: str) -> None:
    """The throttle counts an IPv6 client by its /64 (what one client holds), but
    the request limit (`Balde`, per address when unauthenticated: the login page, every 401,
    every token with an unknown prefix) keys `ip:{client[0]}`, the full address. A client with
    a /64 (2^64 addresses) is never rate-limited: a new source address per request. With 1
    request a second allowed (bursts of 10), 30 GET /entrar from one IPv4 address get 20 × 429;
    from 30 addresses of one /64, none. Reproduce: `multas servir --limite-requisicoes 1`,
    requests from 2001:db8:1:2::1, ::2, ... (`ip -6 addr add`, `curl --interface`)."""
    from multas.servidor import criar_app

    app = criar_app(database_url, limite_por_segundo=1)
    with TestClient(
        _com_cliente(app), base_url="https://testserver", raise_server_exceptions=False
    ) as cliente:

        def pagina(endereco: str) -> int:
            return cliente.get("/entrar", headers={CABECALHO_CLIENTE: endereco}).status_code

        codigos_v4 = [pagina("198.51.100.20") for _ in range(30)]
        codigos_v6 = [pagina(f"2001:db8:1:2::{i + 1:x}") for i in range(30)]
    assert codigos_v4.count(429) == 20, codigos_v4  # the limit works for one address
    assert codigos_v6.count(429) == 20, (
        f"30 pedidos de uma rede /64: {codigos_v6.count(429)} recusados com 429"
    )


# --- lifting a block: what the page says --------------------------------------------------------


def test_pagina_de_bloqueio_do_endereco_manda_desbloquear_o_nome(
    servidor: tuple[TestClient, Acesso, str],
) -> None:
    """Operations: when the *address* is blocked (50 wrong logins from it: a colleague
    behind the same NAT, a scanner), the 429 page says "entrar está bloqueado até ... (um
    administrador pode desbloquear com 'multas usuarios desbloquear')", the same words as for
    a blocked name, without saying which is blocked nor the address. The admin does what it
    says, `multas usuarios desbloquear ana`, and is even told "Usuário 'ana' desbloqueado."
    (the refused attempt inserted an empty row for the name: see
    test_tentativas_recusadas_criam_uma_linha_por_nome, and `desbloquear` reports any row
    deleted as a block lifted); the user, with the right password, is still refused, and
    nothing tells either of them that it is `--endereco <the address>` (which neither knows).
    Reproduce: 50 wrong logins with distinct names from one address, then log in as ana from
    it, `multas usuarios desbloquear ana`, log in again: 429."""
    from click.testing import CliRunner

    from multas.principal import cli

    cliente, _acesso, url = servidor
    endereco = "203.0.113.77"
    for i in range(FALHAS_POR_ENDERECO):
        _entrar(cliente, f"inexistente-{i}", "errada", endereco)
    pagina = _entrar(cliente, "ana", SENHA, endereco)
    assert pagina.status_code == 429
    r = CliRunner().invoke(cli, ["usuarios", "desbloquear", "ana", "--banco", url])
    assert r.exit_code == 0, r.output
    depois = _entrar(cliente, "ana", SENHA, endereco)
    assert depois.status_code == 303 or "--endereco" in pagina.text, (
        f"a página disse: {pagina.text[pagina.text.find('tentativas') :][:160]!r}; o comando "
        f"que ela indica respondeu {r.stderr.strip()!r}; a senha certa continua com HTTP "
        f"{depois.status_code}"
    )


# --- addresses: IPv4 clients seen through IPv6 ---------------------------------------------------


def test_clientes_ipv4_traduzidos_por_nat64_nao_contam_como_um_so(acesso: Acesso) -> None:
    """Lock-out of everyone, in one kind of deployment: `chave_endereco` maps an
    IPv4-mapped address (::ffff:a.b.c.d) to its IPv4 address, but not one in the NAT64 /
    SIIT-DC well-known prefix 64:ff9b::/96 (RFC 6052, RFC 7755: an IPv6-only server reached
    by IPv4 clients through a stateless translator sees every IPv4 client as 64:ff9b::a.b.c.d).
    Every such address is in 64:ff9b::/64: all IPv4 clients of the Internet share one key, and
    one of them with 50 wrong logins blocks the login for all of them (doubling up to a day).
    Reproduce: chave_endereco('64:ff9b::c000:201') == chave_endereco('64:ff9b::cb00:7101')."""
    um, outro = "64:ff9b::192.0.2.1", "64:ff9b::203.0.113.1"
    for i in range(FALHAS_POR_ENDERECO):
        acesso.registrar_falha((chave_nome(f"n{i}"), 10), (chave_endereco(um), FALHAS_POR_ENDERECO))
    assert acesso.bloqueado_ate(chave_endereco(outro)) is None, (
        f"{um} bloqueou {outro}: as duas são a chave {chave_endereco(outro)!r}"
    )


# --- the doubling forgotten at the end of the longest block -------------------------------------


def test_bloqueio_de_24_horas_esquecido_quando_acaba(acesso: Acesso) -> None:
    """Way past the per-name limit over time: a block doubles "each time in a
    row, up to 24 hours", so a persistent guesser gets 10 passwords a day. But the purge
    (`_esquecer_antigas`: rows idle for ESQUECER_APOS = 24 h with no block in force) looks at
    `atualizado_em`, written when the block was *set*; refused attempts do not touch the row.
    A 24-hour block therefore ends at the very moment its row becomes "idle for a day": the
    next failure of anyone, on any key, deletes it, level and all, and the guesser starts
    again at 15 minutes: 8 bursts of 10 (blocks of 15 min, 30 min, 1 h, ... 16 h, then 24 h
    again) = 80 passwords every ~56 hours, about 34 a day instead of 10. Reproduce (clock injected): drive a name to a 24-hour
    block, wait for it to end, one failure on another name, 10 on the name: blocked for 15
    minutes."""
    from datetime import UTC, datetime, timedelta

    import time_machine

    from multas.servicos.persistencia.acesso import BLOQUEIO, BLOQUEIO_MAXIMO, FALHAS_POR_NOME

    nome = chave_nome("ana")
    limite = (nome, FALHAS_POR_NOME)
    with time_machine.travel(datetime(2026, 6, 1, 12, tzinfo=UTC), tick=False) as viagem:
        duracao = timedelta(0)
        while duracao < BLOQUEIO_MAXIMO:
            for _ in range(FALHAS_POR_NOME):
                fim = acesso.registrar_falha(limite)
            assert fim is not None
            duracao = fim - agora()
            viagem.shift(duracao + timedelta(seconds=1))
        acesso.registrar_falha((chave_nome("outra pessoa"), FALHAS_POR_NOME))
        for _ in range(FALHAS_POR_NOME):
            fim = acesso.registrar_falha(limite)
        assert fim is not None
        seguinte = fim - agora()
    assert seguinte == BLOQUEIO_MAXIMO, (
        f"depois de um bloqueio de {BLOQUEIO_MAXIMO}, o seguinte durou {seguinte} "
        f"(o primeiro nível é {BLOQUEIO})"
    )


@pytest.mark.usefixtures("relogio_do_limite_parado")
def test_limite_de_requisicoes_nao_vale_para_credenciais_recusadas(
    servidor: tuple[TestClient, Acesso, str], database_url: str
) -> None:
    """Denial of service: "Rate limiting (Balde): per user when authenticated,
    per address otherwise" (servidor/acesso.py). But `Autenticacao.__call__` answers a refused
    credential (401: a bearer token of an unknown prefix, a session cookie that matches
    nothing, a malformed Authorization) and returns *before* it reaches the limit: those
    requests are never counted. Each costs a database read (`ler_token`, `por_sessao`, with
    the chain check of the user) and none is refused, however many a client sends; nor are
    they counted by the login throttle (only a known prefix is). Here, with 1 request a
    second allowed (bursts of 10), 40 requests with a made-up token from one address: all 401,
    no 429. Reproduce: `multas servir --limite-requisicoes 1`, then `curl -H 'Authorization:
    Bearer mlt_000000000000.x'` in a loop."""
    from multas.servidor import criar_app

    app = criar_app(database_url, limite_por_segundo=1)
    with TestClient(
        _com_cliente(app), base_url="https://testserver", raise_server_exceptions=False
    ) as cliente:
        codigos = [
            cliente.get(
                "/api/v1/casos",
                headers={
                    "Authorization": f"Bearer mlt_{i:012x}.segredo",
                    CABECALHO_CLIENTE: "198.51.100.30",
                },
            ).status_code
            for i in range(40)
        ]
    assert codigos.count(429) == 30, f"40 pedidos com token inventado: {codigos}"


# --- SQLite: the throttle's writes wait for every other writer -----------------------------------


def test_leitura_com_token_espera_uma_escrita_longa_e_da_500(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On SQLite, a regression of "a read never waits for the writers" (checked by
    tests/persistencia/test_recusas_cadeia.py::test_escrita_longa_nao_derruba_os_outros_pedidos):
    checking a bearer token that is not remembered (the first request of a client, then one a
    minute) and every login now *write* (`tentar`, then `devolver` /
    `falhou`), in a transaction of their own (`_sessao_em(escrita=True)`: BEGIN IMMEDIATE),
    outside `Repositorio.escrita` and its handling. While another process holds SQLite's
    write lock (an import in the other worker, `multas banco ...`), an authenticated GET
    waits for it the whole busy timeout (ESPERA_ESCRITA, 30 s by default) and then answers
    500 ('database is locked', an English traceback on the terminal), where a write answers
    a pt-BR 503 with Retry-After; a login likewise. Reproduce: hold a write 6 s (2 s timeout
    here) and GET /api/v1/casos with a fresh token."""
    if not database_url.startswith("sqlite"):
        pytest.skip("no PostgreSQL a contagem trava só as suas linhas")
    from multas.servicos.persistencia import registros
    from multas.servidor import criar_app

    repo = Repositorio(database_url)
    token = Acesso(repo).criar("ana", "leitura", SENHA, "teste")
    repo.fechar()
    monkeypatch.setattr(registros, "ESPERA_ESCRITA", 2.0)
    app = criar_app(database_url, limite_por_segundo=0)
    importador = Repositorio(database_url)  # the other worker's
    travado = threading.Event()

    def importacao_longa() -> None:
        with importador.escrita("imp") as escrita:
            escrita.sessao.execute(select(func.count()).select_from(TentativaLogin))
            travado.set()
            time.sleep(6)

    try:
        with TestClient(
            app, base_url="https://testserver", raise_server_exceptions=False
        ) as cliente:
            linha = threading.Thread(target=importacao_longa)
            linha.start()
            travado.wait()
            inicio = time.monotonic()
            leitura = cliente.get("/api/v1/casos", headers={"Authorization": f"Bearer {token}"})
            espera = time.monotonic() - inicio
            login = _entrar(cliente, "ana", SENHA, "testclient")
            linha.join()
    finally:
        importador.fechar()
    assert leitura.status_code == 200 and espera < 1.5 and login.status_code in (303, 503), (
        f"GET com token: HTTP {leitura.status_code} depois de {espera:.1f} s; "
        f"login: HTTP {login.status_code}"
    )
