"""The server's last lines of defence (issue 16, items 5 and 7): it refuses to start with a
database role that could rewrite the audit (unless --papel-inseguro, which every page then
shows its admins); TLS with --certificado/--chave; proxy headers only from --proxy-confiavel;
the login page says why logging in cannot work over plain HTTP off loopback; no English line
on a terminal when a password comes from a pipe."""

from __future__ import annotations

import http.client
import shutil
import ssl
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from multas.principal import cli
from multas.servicos.configuracao import carregar
from multas.servidor import criar_app
from multas.servidor.aplicacao import PapelInseguro, criar_app_para, opcoes_uvicorn
from tests.utils.servidor_real import servidor_real

pytestmark = pytest.mark.subprocesso


def test_servidor_recusa_papel_que_pode_reescrever_a_auditoria(database_url: str) -> None:
    if not database_url.startswith("postgresql"):
        pytest.skip("o SQLite não tem papéis")
    with pytest.raises(PapelInseguro) as recusa:
        criar_app_para("127.0.0.1", database_url)  # the tests' own role: CREATEROLE, owner
    assert any("CREATEROLE" in r for r in recusa.value.riscos)
    r = CliRunner().invoke(
        cli, ["servir", "--porta", "1"], env={"MULTAS_DATABASE_URL": database_url}
    )
    assert r.exit_code == 1
    for nome in (
        "MULTAS_DATABASE_URL",
        "MULTAS_DATABASE_URL_DONO",
        "NOCREATEROLE",
        "--papel-inseguro",
    ):
        assert nome in r.stderr, nome
    app = criar_app_para("127.0.0.1", database_url, aceitar_papel_inseguro=True)
    with TestClient(app, base_url="http://127.0.0.1") as c:  # open: its one user is admin
        pagina = c.get("/", headers={"Accept": "text/html"})
    assert "Papel do banco inseguro" in pagina.text


def test_servidor_com_dois_papeis_inicia(database_url: str, tmp_path: Path) -> None:
    """The same database with the application's least-privilege role (the owner migrates):
    it starts, and works."""
    with servidor_real(tmp_path, database_url) as porta:
        conexao = http.client.HTTPConnection("127.0.0.1", porta, timeout=10)
        conexao.request(
            "POST",
            "/api/v1/casos",
            body='{"regime": "anp.infracao", "inciso": "XI", "valor": 750000.00}',
            headers={"Content-Type": "application/json"},
        )
        assert conexao.getresponse().status == 201


def test_cabecalhos_de_proxy_so_valem_do_proxy_confiavel(tmp_path: Path) -> None:
    """uvicorn, by default, trusts X-Forwarded-For from 127.0.0.1: a client on this machine
    chose its own address, and so got a fresh limit on every request. Now the header counts
    only from --proxy-confiavel."""
    assert opcoes_uvicorn(carregar())["proxy_headers"] is False

    def codigos(argumentos: tuple[str, ...]) -> list[int]:
        with servidor_real(tmp_path, None, argumentos=argumentos) as porta:
            resultado = []
            for i in range(25):
                conexao = http.client.HTTPConnection("127.0.0.1", porta, timeout=10)
                conexao.request(
                    "GET", "/api/v1/versao", headers={"X-Forwarded-For": f"203.0.113.{i}"}
                )
                resultado.append(conexao.getresponse().status)
                conexao.close()
            return resultado

    sem_proxy = codigos(("--limite-requisicoes", "1"))
    assert 429 in sem_proxy  # one address, one bucket, whatever the header says
    com_proxy = codigos(("--limite-requisicoes", "1", "--proxy-confiavel", "127.0.0.1"))
    assert 429 not in com_proxy  # behind a trusted proxy, each client has its own


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl")
def test_https_com_certificado_e_chave(tmp_path: Path) -> None:
    certificado, chave = tmp_path / "c.pem", tmp_path / "k.pem"
    subprocess.run(
        [
            "openssl",
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            str(chave),
            "-out",
            str(certificado),
            "-days",
            "1",
            "-subj",
            "/CN=127.0.0.1",
        ],
        check=True,
        capture_output=True,
    )
    argumentos = ("--certificado", str(certificado), "--chave", str(chave))
    with servidor_real(tmp_path, None, argumentos=argumentos, https=True) as porta:
        contexto = ssl.create_default_context(cafile=str(certificado))
        contexto.check_hostname = False
        conexao = http.client.HTTPSConnection("127.0.0.1", porta, timeout=10, context=contexto)
        conexao.request("GET", "/api/v1/versao")
        assert conexao.getresponse().status == 200
    r = CliRunner().invoke(cli, ["servir", "--certificado", str(certificado)])
    assert r.exit_code == 2 and "--certificado/--chave" in r.stderr


def test_pagina_de_entrar_explica_http_fora_do_loopback(tmp_path: Path) -> None:
    app = criar_app(f"sqlite:///{tmp_path / 'm.db'}")
    with TestClient(app, base_url="http://multas.exemplo.gov.br") as c:
        assert "não vai funcionar por HTTP" in c.get("/entrar").text
    with TestClient(app, base_url="https://multas.exemplo.gov.br") as c:
        assert "não vai funcionar por HTTP" not in c.get("/entrar").text
    with TestClient(app, base_url="http://127.0.0.1:8000") as c:
        assert "não vai funcionar por HTTP" not in c.get("/entrar").text


def test_senha_por_um_pipe_sem_aviso_em_ingles(tmp_path: Path) -> None:
    from tests.utils import MULTAS

    banco = f"sqlite:///{tmp_path / 'm.db'}"
    r = subprocess.run(
        [MULTAS, "usuarios", "criar", "ana", "--papel", "admin", "--senha", "--banco", banco],
        input="senha-bem-longa\nsenha-bem-longa\n",
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    assert "Warning" not in r.stderr and "echoed" not in r.stderr
