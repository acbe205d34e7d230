"""Access control (issue 10): open on loopback with no user; otherwise tokens (API) and login
sessions (page), three roles, each reaching what it may and refused (401/403) elsewhere; the
audit's "who" from the authenticated user; the address lock of the logins apart from the
tokens'; rate limiting; the server refuses to listen beyond loopback with no user configured."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from sqlalchemy import text

from multas.principal import cli
from multas.servicos.persistencia import Repositorio, senhas
from multas.servicos.persistencia import acesso as acesso_mod
from multas.servicos.persistencia.acesso import FALHAS_POR_ENDERECO, Acesso
from multas.servidor import SemAutenticacao, criar_app, criar_app_para
from multas.servidor.acesso import Balde
from tests.utils import SENHA, Ambiente, com
from tests.utils.casos import ENTRADA


def salvo(amb: Ambiente) -> int:
    r = amb.cliente.post("/api/v1/casos", content=ENTRADA, headers=com(amb, "analista"))
    assert r.status_code == 201, r.text
    caso_id: int = r.json()["id"]
    return caso_id


#: (method, path, body, least role)
OPERACOES: list[tuple[str, str, str | None, str]] = [
    ("GET", "/api/v1/regimes", None, "leitura"),
    ("GET", "/api/v1/versao", None, "leitura"),
    ("GET", "/openapi.json", None, "leitura"),
    ("GET", "/api/v1/casos", None, "leitura"),
    ("GET", "/api/v1/casos/{id}", None, "leitura"),
    ("GET", "/api/v1/casos/{id}/relatorio?formato=html", None, "leitura"),
    ("POST", "/api/v1/calcular", ENTRADA, "leitura"),  # computing without storing
    ("POST", "/api/v1/relatorio?formato=html", ENTRADA, "leitura"),
    ("POST", "/api/v1/casos", ENTRADA, "analista"),
    ("GET", "/api/v1/auditoria", None, "admin"),
    ("DELETE", "/api/v1/casos/{id}", None, "admin"),
]
ORDEM = ("leitura", "analista", "admin")


@pytest.mark.parametrize(("metodo", "caminho", "corpo", "minimo"), OPERACOES)
def test_cada_papel_alcanca_o_que_pode_e_e_recusado_no_resto(
    ambiente: Ambiente, metodo: str, caminho: str, corpo: str | None, minimo: str
) -> None:
    for papel in (None, *ORDEM):
        alvo = caminho.format(id=salvo(ambiente))
        r = ambiente.cliente.request(metodo, alvo, content=corpo, headers=com(ambiente, papel))
        if papel is None:
            assert r.status_code == 401, (alvo, r.status_code)
            assert r.headers["www-authenticate"].startswith("Bearer")
            assert "autenticação necessária" in r.json()["erro"]["mensagem"]
        elif ORDEM.index(papel) < ORDEM.index(minimo):
            assert r.status_code == 403, (alvo, papel, r.status_code)
            assert "acesso negado" in r.json()["erro"]["mensagem"]
        else:
            assert r.status_code in (200, 201, 204), (alvo, papel, r.status_code, r.text)


def test_token_errado_ou_malformado_e_401(ambiente: Ambiente) -> None:
    token = ambiente.tokens["admin"]
    for cabecalho in (
        f"Bearer {token}x",
        f"Bearer {token[:-1]}",
        "Bearer mlt_nada.nada",
        f"Basic {token}",
        "Bearer ",
        "Bearer " + "a" * 5000,
    ):
        r = ambiente.cliente.get("/api/v1/casos", headers={"Authorization": cabecalho})
        assert r.status_code == 401, cabecalho


def test_tokens_e_senhas_guardados_so_como_hash_argon2(ambiente: Ambiente) -> None:
    repo = Repositorio(ambiente.url)
    with repo.engine.connect() as c:
        hashes = [h for (h,) in c.execute(text("SELECT hash FROM tokens"))]
        senhas = [h for (h,) in c.execute(text("SELECT hash_senha FROM usuarios"))]
        despejo = json.dumps(
            [list(r) for r in c.execute(text("SELECT * FROM tokens"))], default=str
        )
    repo.fechar()
    assert hashes and all(h.startswith("$argon2id$") for h in [*hashes, *senhas])
    for token in ambiente.tokens.values():
        assert token.split(".", 1)[1] not in despejo
    assert SENHA not in despejo


def test_argon2_com_os_parametros_recomendados(hasher_do_produto: Callable[[], Any]) -> None:
    """The product hashes with argon2-cffi's recommended parameters (RFC 9106, low memory);
    the suite, with the cheapest (tests/fixtures/bancos.py)."""
    from argon2 import extract_parameters
    from argon2.profiles import CHEAPEST, RFC_9106_LOW_MEMORY

    assert extract_parameters(hasher_do_produto().hash("senha-bem-longa")) == RFC_9106_LOW_MEMORY
    assert extract_parameters(senhas.hasher().hash("senha-bem-longa")) == CHEAPEST


def test_quem_nao_existe_custa_o_mesmo_que_quem_existe(acesso: Acesso) -> None:
    """A refusal with no stored hash checks one made by the same hasher (same parameters, so
    the same time: an unknown name is not told apart by how fast it is refused)."""
    from argon2 import extract_parameters

    acesso.criar("ana", "leitura", SENHA, "teste")
    with acesso.repositorio.engine.connect() as c:
        (guardado,) = c.execute(text("SELECT hash_senha FROM usuarios")).one()
    assert extract_parameters(senhas.hash_falso()) == extract_parameters(guardado)


def test_a_primeira_recusa_custa_o_mesmo_com_nome_conhecido_ou_nao(
    acesso: Acesso, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hash an unknown name is checked against is made once per process, by the first
    refusal that needed it: the first unknown name of each worker cost a hash more than a
    known name's wrong password, and was told apart. Whichever login comes first makes it."""
    from argon2 import PasswordHasher
    from argon2.profiles import CHEAPEST

    acesso.criar("ana", "leitura", SENHA, "teste")
    feitos: list[str] = []

    class Contado(PasswordHasher):
        def hash(self, *args: Any, **kwargs: Any) -> str:
            feitos.append("hash")
            return super().hash(*args, **kwargs)

        def verify(self, *args: Any, **kwargs: Any) -> bool:
            feitos.append("verify")
            return super().verify(*args, **kwargs)

    monkeypatch.setattr(senhas, "hasher", lambda: Contado.from_parameters(CHEAPEST))
    trabalho = {}
    for nome in ("ana", "quem-nao-existe"):
        senhas.hash_falso.cache_clear()  # a worker just started
        feitos.clear()
        assert acesso.por_senha(nome, "senha-errada-123") is None
        trabalho[nome] = sorted(feitos)
    assert trabalho["ana"] == trabalho["quem-nao-existe"] == ["hash", "verify"]


def test_a_conferencia_argon2_nunca_segura_uma_conexao_do_banco(
    acesso: Acesso, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An unknown name was checked against the fake hash inside the database's read: each
    attempt held a pooled connection for the whole argon2 check (a known name's check came
    after giving it back), so names sprayed at the login emptied the pool."""
    acesso.criar("ana", "leitura", SENHA, "teste")
    conferir = acesso_mod._confere
    presas: list[int] = []

    def contando(hash_: str, segredo: str) -> bool:
        presas.append(acesso.repositorio.engine.pool.checkedout())  # type: ignore[attr-defined]
        return conferir(hash_, segredo)

    monkeypatch.setattr(acesso_mod, "_confere", contando)
    for nome in ("ana", "quem-nao-existe"):
        assert acesso.por_senha(nome, "senha-errada-123") is None
    assert presas == [0, 0]


def test_quem_na_auditoria_e_o_usuario_autenticado_nunca_o_x_usuario(ambiente: Ambiente) -> None:
    cabecalhos = {**com(ambiente, "analista"), "X-Usuario": "mallory"}
    r = ambiente.cliente.post("/api/v1/casos", content=ENTRADA, headers=cabecalhos)
    assert r.status_code == 201 and r.json()["usuario"] == "usuária analista"
    caso_id = r.json()["id"]
    cabecalhos = {**com(ambiente, "admin"), "X-Usuario": "mallory"}
    assert (
        ambiente.cliente.delete(f"/api/v1/casos/{caso_id}", headers=cabecalhos).status_code == 204
    )
    registros = ambiente.cliente.get(
        f"/api/v1/auditoria?caso_id={caso_id}", headers=com(ambiente, "admin")
    ).json()
    assert [(r["acao"], r["usuario"]) for r in registros] == [
        ("criar", "usuária analista"),
        ("excluir", "usuária admin"),
    ]


def test_usuario_desativado_perde_o_acesso(ambiente: Ambiente) -> None:
    repo = Repositorio(ambiente.url)
    Acesso(repo).desativar("usuária leitura", "teste")
    repo.fechar()
    ambiente.cliente.app.state.acesso._cache.clear()  # type: ignore[attr-defined]
    assert (
        ambiente.cliente.get("/api/v1/casos", headers=com(ambiente, "leitura")).status_code == 401
    )


# --- the page: login sessions with secure cookies, CSRF kept ----------------------------------


def entrar(amb: Ambiente, nome: str, senha: str = SENHA) -> Any:
    return amb.cliente.post(
        "/entrar",
        data={"nome": nome, "senha": senha, "proximo": "/casos"},
        follow_redirects=False,
    )


def test_pagina_sem_sessao_leva_ao_login_e_login_abre_sessao_segura(ambiente: Ambiente) -> None:
    r = ambiente.cliente.get("/casos", headers={"Accept": "text/html"}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].startswith("/entrar?proximo=")
    assert ambiente.cliente.get("/entrar").status_code == 200
    assert ambiente.cliente.get("/static/estilo.css").status_code == 200  # public
    errado = entrar(ambiente, "usuária analista", "outra-senha")
    assert errado.status_code == 401 and "incorretos" in errado.text
    r = entrar(ambiente, "usuária analista")
    assert r.status_code == 303 and r.headers["location"] == "/casos"
    biscoito = r.headers["set-cookie"].lower()
    assert "multas_sessao=" in biscoito
    for atributo in ("httponly", "secure", "samesite=lax"):
        assert atributo in biscoito
    pagina = ambiente.cliente.get("/casos", headers={"Accept": "text/html"})
    assert pagina.status_code == 200 and "usuária analista" in pagina.text
    # saving from the page: the name is the login's, not the form's
    caso = json.dumps({"regime": "anp.infracao", "inciso": "XI", "valor": "750000.00"})
    r = ambiente.cliente.post(
        "/casos", data={"caso": caso, "usuario": "mallory"}, follow_redirects=False
    )
    assert r.status_code == 303
    caso_id = int(r.headers["location"].split("/")[2].split("?")[0])
    repo = Repositorio(ambiente.url)
    obtido = repo.obter(caso_id)
    repo.fechar()
    assert obtido is not None and obtido.usuario == "usuária analista"
    # a cross-site form is still refused (CSRF), session or not
    r = ambiente.cliente.post(
        "/casos", data={"caso": caso}, headers={"Origin": "https://malicioso.example"}
    )
    assert r.status_code == 403
    # the analyst's session cannot delete nor read the audit log; logout ends it
    assert ambiente.cliente.get("/auditoria", headers={"Accept": "text/html"}).status_code == 403
    ambiente.cliente.post("/sair", follow_redirects=False)
    ambiente.cliente.cookies.clear()
    r = ambiente.cliente.get("/api/v1/casos")
    assert r.status_code == 401


def test_login_nao_redireciona_para_outro_site(ambiente: Ambiente) -> None:
    for proximo in ("https://malicioso.example/", "//malicioso.example", "/\\malicioso"):
        r = ambiente.cliente.post(
            "/entrar",
            data={"nome": "usuária admin", "senha": SENHA, "proximo": proximo},
            follow_redirects=False,
        )
        assert r.headers["location"] == "/", proximo


def test_tentativas_de_login_demais_sao_429(ambiente: Ambiente) -> None:
    codigos = [entrar(ambiente, "usuária admin", "errada").status_code for _ in range(12)]
    assert codigos[:10] == [401] * 10 and codigos[-1] == 429


def test_tokens_errados_nao_bloqueiam_a_entrada_nem_senhas_erradas_os_tokens(
    ambiente: Ambiente, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The address lock counts password attempts only: FALHAS_POR_ENDERECO wrong bearer tokens
    from one address, with no login at all, leave its page login open (for everyone behind the
    same proxy or NAT); wrong passwords enough to lock its logins leave its tokens working.
    Wrong tokens have a lock of their own, on a higher threshold (brought down to the count
    here), lifted by ``multas usuarios desbloquear --endereco`` with the logins'. The wrong
    secrets skip argon2 (0.1 s each)."""
    from multas.servicos.persistencia import acesso as modulo
    from multas.servidor import acesso as middleware

    original = modulo._confere
    monkeypatch.setattr(
        modulo, "_confere", lambda h, s: not s.startswith("errad") and original(h, s)
    )
    c = ambiente.cliente
    errado = {"Authorization": f"Bearer {ambiente.tokens['leitura'].split('.')[0]}.errado"}
    tokens = [
        c.get("/api/v1/casos", headers=errado).status_code for _ in range(FALHAS_POR_ENDERECO)
    ]
    assert tokens == [401] * FALHAS_POR_ENDERECO
    assert entrar(ambiente, "usuária analista").status_code == 303, "tokens errados bloqueiam"
    c.cookies.clear()
    for i in range(FALHAS_POR_ENDERECO):
        assert entrar(ambiente, f"ninguém {i}", "errada").status_code == 401
    assert entrar(ambiente, "usuária analista").status_code == 429  # the address's logins
    assert c.get("/api/v1/casos", headers=com(ambiente, "admin")).status_code == 200
    # the tokens' own lock: it refuses them (even a right one not yet checked), not the logins
    assert modulo.FALHAS_TOKEN_POR_ENDERECO > FALHAS_POR_ENDERECO
    monkeypatch.setattr(middleware, "FALHAS_TOKEN_POR_ENDERECO", FALHAS_POR_ENDERECO + 1)
    assert c.get("/api/v1/casos", headers=errado).status_code == 401  # sets the lock off
    bloqueado = c.get("/api/v1/casos", headers=com(ambiente, "analista"))
    assert bloqueado.status_code == 429 and "tokens errados demais" in bloqueado.text
    r = CliRunner().invoke(
        cli, ["usuarios", "desbloquear", "--endereco", "testclient", "--banco", ambiente.url]
    )
    assert r.exit_code == 0 and "desbloqueado" in r.stderr, r.output
    assert c.get("/api/v1/casos", headers=com(ambiente, "analista")).status_code == 200
    assert entrar(ambiente, "usuária analista").status_code == 303


# --- rate limiting, per user or per address ---------------------------------------------------


def test_balde_enche_pelo_relogio(monkeypatch: pytest.MonkeyPatch) -> None:
    instante = [0.0]
    monkeypatch.setattr(Balde, "relogio", staticmethod(lambda: instante[0]))
    balde = Balde(2, 3)  # 2 a second, bursts of 3
    assert [balde.tirar("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert balde.tirar("a") == 0.5  # one token away, at 2 a second
    assert balde.tirar("b") == 0.0  # a key of its own
    instante[0] = 0.5
    assert balde.tirar("a") == 0.0 and balde.tirar("a") == 0.5
    instante[0] = 100.0  # never more than the burst
    assert [balde.tirar("a") for _ in range(4)] == [0.0, 0.0, 0.0, 0.5]


@pytest.mark.usefixtures("relogio_do_limite_parado")
def test_limite_de_requisicoes_por_usuario(database_url: str) -> None:
    repo = Repositorio(database_url)
    token = Acesso(repo).criar("ana", "leitura", None, "teste")
    outro = Acesso(repo).criar("bia", "leitura", None, "teste")
    repo.fechar()
    app = criar_app(database_url, limite_por_segundo=1)
    with TestClient(app, base_url="https://testserver") as c:
        codigos = [
            c.get("/api/v1/versao", headers={"Authorization": f"Bearer {token}"}).status_code
            for _ in range(15)
        ]
        assert codigos == [200] * 10 + [429] * 5, codigos
        r = c.get("/api/v1/versao", headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
        assert "requisições demais" in r.json()["erro"]["mensagem"]
        # another user has a bucket of their own
        assert (
            c.get("/api/v1/versao", headers={"Authorization": f"Bearer {outro}"}).status_code == 200
        )


@pytest.mark.usefixtures("relogio_do_limite_parado")
def test_limite_de_requisicoes_por_endereco_no_modo_aberto(tmp_path: Path) -> None:
    app = criar_app(f"sqlite:///{tmp_path / 'm.db'}", limite_por_segundo=1)
    with TestClient(app) as c:
        codigos = [c.get("/api/v1/versao").status_code for _ in range(12)]
    assert codigos == [200] * 10 + [429] * 2, codigos


# --- open on loopback with no user; refused elsewhere without one ------------------------------


def test_sem_usuarios_no_loopback_fica_aberto(tmp_path: Path) -> None:
    app = criar_app_para("127.0.0.1", f"sqlite:///{tmp_path / 'm.db'}")
    with TestClient(app, base_url="http://127.0.0.1:8000") as c:
        r = c.post("/api/v1/casos", content=ENTRADA, headers={"X-Usuario": "ana"})
        assert r.status_code == 201 and r.json()["usuario"] == "ana"


def test_fora_do_loopback_sem_usuarios_o_servidor_nao_inicia(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'm.db'}"
    with pytest.raises(SemAutenticacao):
        criar_app_para("0.0.0.0", url)
    repo = Repositorio(url)
    token = Acesso(repo).criar("ana", "admin", None, "teste")
    repo.fechar()
    with TestClient(criar_app_para("0.0.0.0", url)) as c:  # now it starts, authenticated
        assert c.get("/api/v1/casos").status_code == 401
        r = c.get("/api/v1/casos", headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 200


def test_comando_servir_fora_do_loopback_sem_usuarios_recusa_em_portugues(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MULTAS_DATABASE_URL", f"sqlite:///{tmp_path / 'm.db'}")
    from tests.utils import porta_livre

    r = CliRunner().invoke(cli, ["servir", "--host", "0.0.0.0", "--porta", str(porta_livre())])
    assert r.exit_code == 1
    assert "exige autenticação" in r.stderr and "multas usuarios criar" in r.stderr


def test_comando_usuarios_cria_lista_e_desativa(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'm.db'}"
    r = CliRunner().invoke(
        cli,
        ["usuarios", "criar", "Ana", "--papel", "analista", "--senha", "--banco", url],
        input="segredo-longo\nsegredo-longo\n",
    )
    assert r.exit_code == 0, r.output
    token = r.stdout.strip().splitlines()[-1]
    assert token.startswith("mlt_")
    # the user works at once, also on a server already running: no restart is asked for
    assert "Reinicie" not in r.stderr and "Vale na hora" in r.stderr
    repo = Repositorio(url)
    assert Acesso(repo).por_token(token) is not None
    assert Acesso(repo).por_senha("Ana", "segredo-longo") is not None
    r = CliRunner().invoke(cli, ["usuarios", "criar", "Ana", "--papel", "admin", "--banco", url])
    assert r.exit_code == 2 and "já existe" in r.stderr
    r = CliRunner().invoke(cli, ["usuarios", "listar", "--banco", url])
    assert "Ana\tanalista\tativo" in r.stdout
    assert CliRunner().invoke(cli, ["usuarios", "desativar", "Ana", "--banco", url]).exit_code == 0
    assert Acesso(repo).por_token(token) is None
    # one audit row per record touched: the user and its token, created, then both changed
    acoes = [(registro.acao, registro.tabela) for registro in repo.auditoria()]
    assert acoes == [
        ("usuario_criar", "usuarios"),
        ("usuario_token", "tokens"),
        ("usuario_desativar", "usuarios"),
        ("usuario_desativar", "tokens"),
    ]
    assert repo.verificar().integro
    repo.fechar()


@pytest.mark.parametrize("rota", ["api", "pagina"])
def test_feed_pedido_antes_de_uma_nova_senha_nao_sobrevive_a_ela(
    ambiente: Ambiente, monkeypatch: pytest.MonkeyPatch, rota: str
) -> None:
    """The new password lands between the request's authentication and the feed's write:
    the feed is not made (its credential, asked again under the lock, ended), so no feed
    outlives the change that was meant to end them (by the bearer token or the page)."""
    nome = "usuária leitura"
    original = Acesso.criar_feed

    def no_intervalo(self: Acesso, quem: str, vigente: Any = lambda: True) -> str | None:
        outro = Repositorio(ambiente.url)
        Acesso(outro).definir_senha(quem, "outra-senha-bem-longa", "admin")
        outro.fechar()
        return original(self, quem, vigente)

    if rota == "pagina":
        assert entrar(ambiente, nome).status_code == 303
    monkeypatch.setattr(Acesso, "criar_feed", no_intervalo)
    if rota == "api":
        r = ambiente.cliente.post("/api/v1/feed", headers=com(ambiente, "leitura"))
        assert r.status_code == 401 and "deixou de valer" in r.json()["erro"]["mensagem"]
    else:
        r = ambiente.cliente.post("/calendario-privado", follow_redirects=False)
        assert r.status_code == 303 and r.headers["location"] == "/entrar"
    repo = Repositorio(ambiente.url)
    try:
        assert Acesso(repo).tem_feed(nome) is None
    finally:
        repo.fechar()
