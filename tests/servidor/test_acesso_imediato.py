"""Who may use the server, taking effect at once (issue 16, items 3 and 4), on SQLite and
PostgreSQL: a new password, a role change, other clients or a deactivation ends the user's
sessions, tokens and private calendar feed at once (also for a token verified a moment ago); refused logins block a user name after
FALHAS_POR_NOME in JANELA, for BLOQUEIO doubling up to BLOQUEIO_MAXIMO, and an address after
FALHAS_POR_ENDERECO; ``multas usuarios desbloquear`` lifts a block. The clock is injected."""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from click.testing import CliRunner
from sqlalchemy import select

from multas.nucleo.escopo import Escopo
from multas.principal import cli
from multas.servicos.persistencia import Repositorio
from multas.servicos.persistencia.acesso import (
    BLOQUEIO,
    BLOQUEIO_MAXIMO,
    ESQUECER_APOS,
    FALHAS_POR_ENDERECO,
    FALHAS_POR_NOME,
    JANELA,
    Acesso,
    Identidade,
    chave_endereco,
    chave_nome,
)
from multas.servicos.persistencia.modelos import TentativaLogin
from multas.servicos.relogio import agora

INICIO = datetime(2026, 6, 1, 12, tzinfo=UTC)


@pytest.mark.parametrize("mudanca", ["senha", "papel", "clientes", "desativar"])
def test_mudanca_do_usuario_encerra_sessoes_tokens_e_feed_na_hora(
    acesso: Acesso, mudanca: str
) -> None:
    """One revocation: whatever ends the user's sessions and tokens also ends their private
    calendar feed (a feed subscribed for the old clients, or by whoever holds the leaked
    password, must not keep answering); a new one can be created."""
    token = acesso.criar("ana", "analista", "senha-bem-longa", "setup")
    quem = acesso.por_senha("ana", "senha-bem-longa")
    assert quem is not None
    sessao = acesso.abrir_sessao(quem)
    assert sessao is not None
    feed = acesso.criar_feed("ana")
    assert acesso.por_token(token) == Identidade("ana", "analista")  # verified: remembered
    assert acesso.por_sessao(sessao) == Identidade("ana", "analista")
    assert acesso.por_feed(feed) == Identidade("ana", "analista")
    if mudanca == "senha":
        acesso.definir_senha("ana", "outra-senha-longa", "admin")
    elif mudanca == "papel":
        acesso.definir_papel("ana", "leitura", "admin")
    elif mudanca == "clientes":
        acesso.definir_clientes("ana", Escopo.de(["11.222.333/0001-81"]), "admin")
    else:
        acesso.desativar("ana", "admin")
    assert acesso.por_token(token) is None  # the same instance, the same second
    assert acesso.por_sessao(sessao) is None
    assert acesso.por_feed(feed) is None
    assert acesso.tem_feed("ana") is None
    revogacoes = [r.acao for r in acesso.repositorio.auditoria() if r.tabela == "feeds"]
    assert revogacoes == ["feed_criar", f"usuario_{mudanca}"]  # audited as the change
    if mudanca != "desativar":
        novo = acesso.novo_token("ana", "admin")
        assert acesso.por_token(novo) is not None
        assert acesso.por_feed(acesso.criar_feed("ana")) is not None
    assert acesso.repositorio.verificar().integro


def test_papel_mudado_vale_na_hora_em_outro_processo(database_url: str) -> None:
    """Two workers are two Acesso instances: what one changes, the other sees at once."""
    um, outro = Acesso(Repositorio(database_url)), Acesso(Repositorio(database_url))
    token = um.criar("ana", "admin", None, "setup")
    assert outro.por_token(token) == Identidade("ana", "admin")
    um.definir_papel("ana", "analista", "admin")
    assert outro.por_token(token) is None
    novo = um.novo_token("ana", "admin")
    assert outro.por_token(novo) == Identidade("ana", "analista")


def test_nome_bloqueado_apos_falhas_e_o_bloqueio_dobra(acesso: Acesso) -> None:
    nome = chave_nome("ana")
    with time_machine.travel(INICIO, tick=False) as viagem:
        for _ in range(FALHAS_POR_NOME - 1):
            assert acesso.registrar_falha((nome, FALHAS_POR_NOME)) is None
        assert acesso.bloqueado_ate(nome) is None
        fim = acesso.registrar_falha((nome, FALHAS_POR_NOME))
        assert fim == INICIO + BLOQUEIO
        assert acesso.bloqueado_ate(nome) == fim
        viagem.shift(BLOQUEIO + timedelta(seconds=1))
        assert acesso.bloqueado_ate(nome) is None
        for _ in range(FALHAS_POR_NOME - 1):
            acesso.registrar_falha((nome, FALHAS_POR_NOME))
        fim = acesso.registrar_falha((nome, FALHAS_POR_NOME))
        assert fim == INICIO + BLOQUEIO + timedelta(seconds=1) + 2 * BLOQUEIO  # doubled
        for _ in range(10):  # blocks in a row: never past the maximum
            viagem.shift(BLOQUEIO_MAXIMO)
            for _ in range(FALHAS_POR_NOME):
                fim = acesso.registrar_falha((nome, FALHAS_POR_NOME))
        assert fim is not None and fim - agora() == BLOQUEIO_MAXIMO


def test_falhas_fora_da_janela_recomecam_a_contagem(acesso: Acesso) -> None:
    nome = chave_nome("ana")
    with time_machine.travel(INICIO, tick=False) as viagem:
        for _ in range(FALHAS_POR_NOME - 1):
            acesso.registrar_falha((nome, FALHAS_POR_NOME))
        viagem.shift(JANELA + timedelta(seconds=1))
        assert acesso.registrar_falha((nome, FALHAS_POR_NOME)) is None


def test_endereco_bloqueado_apos_as_suas_falhas(acesso: Acesso) -> None:
    endereco = chave_endereco("203.0.113.7")
    with time_machine.travel(INICIO, tick=False):
        for i in range(FALHAS_POR_ENDERECO):
            fim = acesso.registrar_falha(
                (chave_nome(f"nome{i}"), FALHAS_POR_NOME), (endereco, FALHAS_POR_ENDERECO)
            )
        assert fim == INICIO + BLOQUEIO
        assert acesso.bloqueado_ate(chave_nome("outro"), endereco) == fim


def test_desbloquear_e_auditado_e_o_sucesso_recomeca(acesso: Acesso, database_url: str) -> None:
    acesso.criar("ana", "admin", "senha-bem-longa", "setup")
    nome = chave_nome("ana")
    for _ in range(FALHAS_POR_NOME):
        acesso.registrar_falha((nome, FALHAS_POR_NOME))
    assert acesso.bloqueado_ate(nome) is not None
    r = CliRunner().invoke(cli, ["usuarios", "desbloquear", "ana", "--banco", database_url])
    assert r.exit_code == 0 and "desbloqueado" in r.stderr
    assert acesso.bloqueado_ate(nome) is None
    assert [x.acao for x in acesso.repositorio.auditoria()][-1] == "usuario_desbloquear"
    r = CliRunner().invoke(cli, ["usuarios", "desbloquear", "ana", "--banco", database_url])
    assert "não estava bloqueado" in r.stderr
    acesso.registrar_falha((nome, FALHAS_POR_NOME))
    acesso.registrar_sucesso(nome)
    for _ in range(FALHAS_POR_NOME - 1):  # the success started the count over
        assert acesso.registrar_falha((nome, FALHAS_POR_NOME)) is None
    assert acesso.repositorio.verificar().integro


def test_comando_papel_muda_e_encerra(database_url: str) -> None:
    acesso = Acesso(Repositorio(database_url))
    token = acesso.criar("ana", "admin", None, "setup")
    r = CliRunner().invoke(cli, ["usuarios", "papel", "ana", "leitura", "--banco", database_url])
    assert r.exit_code == 0 and "leitura" in r.stderr
    assert acesso.por_token(token) is None
    r = CliRunner().invoke(cli, ["usuarios", "papel", "ana", "chefe", "--banco", database_url])
    assert r.exit_code == 2


def test_desbloquear_endereco_pela_rede_ipv6(database_url: str) -> None:
    acesso = Acesso(Repositorio(database_url))
    acesso.repositorio.migrar()
    rede = chave_endereco("2001:db8::1")
    for _ in range(FALHAS_POR_NOME):
        acesso.registrar_falha((rede, FALHAS_POR_NOME))
    assert acesso.bloqueado_ate(chave_endereco("2001:db8::ffff")) is not None
    r = CliRunner().invoke(
        cli, ["usuarios", "desbloquear", "--endereco", "2001:db8::2", "--banco", database_url]
    )
    assert r.exit_code == 0 and "desbloqueado" in r.stderr, r.output
    assert acesso.bloqueado_ate(rede) is None
    acesso.repositorio.fechar()


def test_linhas_paradas_sem_bloqueio_sao_esquecidas(acesso: Acesso) -> None:
    """The table does not grow with every address that ever failed: a row idle for a day with
    no block is deleted by the next failure; a blocked one is kept a whole day after its block
    ends (its doubling with it), then deleted too."""

    def chaves() -> set[str]:
        with acesso.repositorio.leitura() as sessao:
            return set(sessao.scalars(select(TentativaLogin.chave)))

    with time_machine.travel(INICIO, tick=False) as viagem:
        acesso.registrar_falha((chave_endereco("203.0.113.1"), FALHAS_POR_ENDERECO))
        for _ in range(FALHAS_POR_NOME):
            acesso.registrar_falha((chave_nome("bloqueada"), FALHAS_POR_NOME))
        viagem.shift(ESQUECER_APOS + timedelta(minutes=1))
        acesso.registrar_falha((chave_nome("outra"), FALHAS_POR_NOME))
        assert chaves() == {chave_nome("bloqueada"), chave_nome("outra")}
        viagem.shift(BLOQUEIO)
        acesso.registrar_falha((chave_nome("outra"), FALHAS_POR_NOME))
        assert chaves() == {chave_nome("outra")}


def test_tentativas_e_sucessos_simultaneos_sem_impasse(acesso: Acesso) -> None:
    """Every writer locks the keys' rows in one order: attempts, failures and successes of one
    name and one address at once never deadlock (PostgreSQL) nor lose an update."""
    nome, endereco = chave_nome("ana"), chave_endereco("198.51.100.7")
    limites = ((nome, 10_000), (endereco, 10_000))
    erros: list[BaseException] = []
    barreira = threading.Barrier(8)

    def rodar(i: int) -> None:
        barreira.wait()
        try:
            for _ in range(5):
                assert acesso.tentar(*limites) is None
                if i % 2:
                    acesso.registrar_sucesso(nome, endereco)
                else:
                    acesso.falhou(*limites)
        except BaseException as erro:  # reported below
            erros.append(erro)

    linhas = [threading.Thread(target=rodar, args=(i,)) for i in range(8)]
    for linha in linhas:
        linha.start()
    for linha in linhas:
        linha.join()
    assert not erros, erros[:2]
    with acesso.repositorio.leitura() as sessao:
        momentos = sessao.scalar(
            select(TentativaLogin.momentos).where(TentativaLogin.chave == endereco)
        )
    assert momentos is not None and len(json.loads(momentos)) == 20  # 4 threads x 5 failures
