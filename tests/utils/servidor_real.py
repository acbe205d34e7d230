"""A real ``multas servir`` in a subprocess on a free loopback port, for the tests that need
the real HTTP server (keep-alive connections, SIGKILL during saves)."""

from __future__ import annotations

import http.client
import os
import ssl
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.utils import MULTAS, porta_livre, url_aplicacao


def esperar_servidor(
    porta: int, processo: subprocess.Popen[str], segundos: float = 60, https: bool = False
) -> None:
    limite = time.monotonic() + segundos
    while True:
        assert processo.poll() is None, "o servidor saiu antes de atender"
        try:
            conexao: http.client.HTTPConnection = (
                http.client.HTTPSConnection(
                    "127.0.0.1", porta, timeout=5, context=ssl._create_unverified_context()
                )
                if https
                else http.client.HTTPConnection("127.0.0.1", porta, timeout=5)
            )
            conexao.request("GET", "/api/v1/versao")
            conexao.getresponse().read()
            conexao.close()
            return
        except OSError:
            assert time.monotonic() < limite, "o servidor não iniciou"
            time.sleep(0.1)


@contextmanager
def servidor_real(
    pasta: Path,
    database_url: str | None = None,
    ambiente: dict[str, str] | None = None,
    argumentos: tuple[str, ...] = (),
    https: bool = False,
) -> Iterator[int]:
    """``multas servir`` on a free port with its database in ``pasta`` (or the given one)."""
    with processo_servidor(pasta, database_url, ambiente, argumentos, https=https) as (porta, _):
        yield porta


@contextmanager
def processo_servidor(
    pasta: Path,
    database_url: str | None = None,
    ambiente: dict[str, str] | None = None,
    argumentos: tuple[str, ...] = (),
    porta: int | None = None,
    https: bool = False,
) -> Iterator[tuple[int, subprocess.Popen[str]]]:
    """The same, yielding the port and the process (to kill it)."""
    porta = porta or porta_livre()
    env = {k: v for k, v in os.environ.items() if not k.startswith("MULTAS_DATABASE_URL")}
    if database_url and database_url.startswith("postgresql"):
        # two roles, as in production: the server refuses an application role that could
        # rewrite the audit (the tests' own role may create roles)
        env["MULTAS_DATABASE_URL"] = url_aplicacao(database_url)
        env["MULTAS_DATABASE_URL_DONO"] = database_url
    elif database_url:
        env["MULTAS_DATABASE_URL"] = database_url
    env.update(ambiente or {})
    processo = subprocess.Popen(
        [MULTAS, "servir", "--porta", str(porta), *argumentos],
        cwd=pasta,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        esperar_servidor(porta, processo, https=https)
        yield porta, processo
    finally:
        processo.terminate()
        try:
            processo.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            processo.kill()
            processo.communicate()
