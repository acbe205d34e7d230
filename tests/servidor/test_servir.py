"""``multas servir``: the real command, in a subprocess, on a free loopback port."""

from __future__ import annotations

import http.client
import json
import os
import socket
import subprocess
import time
from pathlib import Path

import pytest

from tests.utils import MULTAS, porta_livre

# other processes keep the real clock: left out of the runs on a faked date
pytestmark = pytest.mark.subprocesso


def enderecos_escutando(porta: int) -> set[str]:
    """The IPv4 addresses listening on ``porta``, from /proc/net/tcp (and none on IPv6)."""
    enderecos = set()
    for arquivo in ("/proc/net/tcp", "/proc/net/tcp6"):
        if not Path(arquivo).exists():
            continue
        for linha in Path(arquivo).read_text().splitlines()[1:]:
            local, estado = linha.split()[1], linha.split()[3]
            endereco, porta_hex = local.split(":")
            if estado == "0A" and int(porta_hex, 16) == porta:  # 0A: LISTEN
                if arquivo.endswith("6"):
                    enderecos.add(f"ipv6:{endereco}")
                else:
                    enderecos.add(socket.inet_ntoa(bytes.fromhex(endereco)[::-1]))
    return enderecos


def test_servir_atende_no_loopback_com_sqlite_na_pasta_do_usuario(tmp_path: Path) -> None:
    porta = porta_livre()
    ambiente = {k: v for k, v in os.environ.items() if k != "MULTAS_DATABASE_URL"}
    ambiente["XDG_DATA_HOME"] = str(tmp_path / "xdg")
    banco = tmp_path / "xdg" / "multas" / "multas.db"
    processo = subprocess.Popen(
        [MULTAS, "servir", "--porta", str(porta)],
        cwd=tmp_path,
        env=ambiente,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        limite = time.monotonic() + 30
        while True:
            try:
                conexao = http.client.HTTPConnection("127.0.0.1", porta, timeout=5)
                conexao.request(
                    "POST",
                    "/api/v1/calcular",
                    body='{"regime": "anp.infracao", "inciso": "IX", "norma": "decreto-2953"}',
                )
                resposta = conexao.getresponse()
                break
            except ConnectionRefusedError:
                assert time.monotonic() < limite, "o servidor não iniciou"
                time.sleep(0.1)
        assert resposta.status == 200
        assert json.loads(resposta.read())["valor_maximo"] == "2000000.00"
        assert banco.exists()  # the default: the user's data folder, not the current one
        assert not (tmp_path / "dados").exists()
        if Path("/proc/net/tcp").exists():  # Linux: it listens on 127.0.0.1 only
            assert enderecos_escutando(porta) == {"127.0.0.1"}
    finally:
        processo.terminate()
        _, erros = processo.communicate(timeout=30)
    assert f"http://127.0.0.1:{porta}/" in erros
    assert f"Banco: {banco}\n" in erros


def test_servir_em_porta_ocupada_explica_em_portugues() -> None:
    with socket.socket() as ocupada:
        ocupada.bind(("127.0.0.1", 0))
        ocupada.listen()
        porta = ocupada.getsockname()[1]
        r = subprocess.run(
            [MULTAS, "servir", "--porta", str(porta)], capture_output=True, text=True, timeout=60
        )
    assert r.returncode == 1
    assert "a porta já está em uso" in r.stderr


def test_trabalhadores_leem_a_mesma_configuracao_com_as_opcoes(tmp_path: Path) -> None:
    """``--trabalhadores 2``: each worker process reads the settings the command read, the
    options over the variables (the port from MULTAS_SERVIR_PORTA; --limite-requisicoes over
    MULTAS_LIMITE_REQUISICOES=0, which would turn the limit off)."""
    from tests.utils.servidor_real import esperar_servidor

    porta = porta_livre()
    ambiente = {k: v for k, v in os.environ.items() if k != "MULTAS_DATABASE_URL"}
    ambiente |= {"MULTAS_SERVIR_PORTA": str(porta), "MULTAS_LIMITE_REQUISICOES": "0"}
    processo = subprocess.Popen(
        [MULTAS, "servir", "--trabalhadores", "2", "--limite-requisicoes", "0.5"],
        cwd=tmp_path,
        env=ambiente,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        esperar_servidor(porta, processo, 120)
        situacoes = []
        for _ in range(50):  # a burst of 10 per worker, then 1 every 2 s
            conexao = http.client.HTTPConnection("127.0.0.1", porta, timeout=10)
            conexao.request("GET", "/api/v1/versao")
            resposta = conexao.getresponse()
            resposta.read()
            conexao.close()
            situacoes.append(resposta.status)
    finally:
        processo.terminate()
        _, erros = processo.communicate(timeout=60)
    assert 200 in situacoes and 429 in situacoes, situacoes
    assert f"http://127.0.0.1:{porta}/" in erros
