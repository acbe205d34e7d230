"""Crash tests (issue 10): the server killed with SIGKILL in the middle of saves, on SQLite
and on PostgreSQL. After a restart every acknowledged save is there, exactly as sent; the
audit chain is intact; and retrying the unacknowledged requests with their Idempotency-Key
creates no duplicate."""

from __future__ import annotations

import http.client
import json
import signal
import threading
import time
import uuid
from pathlib import Path

import pytest

from multas.servicos.persistencia import Repositorio
from tests.utils.servidor_real import processo_servidor

# other processes keep the real clock: left out of the runs on a faked date
pytestmark = pytest.mark.subprocesso

QUEDAS = 3
CLIENTES = 4


def corpo(i: int) -> str:
    return json.dumps(
        {
            "regime": "anp.mora",
            "principal": f"{1000 + i}.{i % 100:02d}",
            "data_ciencia": "2024-03-29",
            "data_pagamento": "2024-07-01",
        }
    )


def salvar(porta: int, chave: str, texto: str) -> dict[str, object] | None:
    """One save; its body when acknowledged (201), None when the server died first."""
    try:
        conexao = http.client.HTTPConnection("127.0.0.1", porta, timeout=10)
        conexao.request(
            "POST",
            "/api/v1/casos",
            body=texto,
            headers={"Content-Type": "application/json", "Idempotency-Key": chave},
        )
        resposta = conexao.getresponse()
        dados = resposta.read()
        conexao.close()
    except (OSError, http.client.HTTPException):
        return None
    assert resposta.status == 201, dados[:300]
    resultado: dict[str, object] = json.loads(dados)
    return resultado


def test_servidor_morto_durante_salvamentos_nao_perde_salvamento_confirmado(
    tmp_path: Path, database_url: str
) -> None:
    confirmados: dict[str, dict[str, object]] = {}  # key → acknowledged case
    enviados: dict[str, str] = {}  # key → body, every request sent
    contador = iter(range(10**9))
    trava = threading.Lock()
    mortes = 0
    for _ in range(QUEDAS):
        with processo_servidor(tmp_path, database_url) as (porta, processo):
            parar = threading.Event()

            def trabalhar(porta: int = porta, parar: threading.Event = parar) -> None:
                while not parar.is_set():
                    with trava:
                        i = next(contador)
                    chave, texto = str(uuid.uuid4()), corpo(i)
                    with trava:
                        enviados[chave] = texto
                    caso = salvar(porta, chave, texto)
                    if caso is None:
                        return
                    with trava:
                        confirmados[chave] = caso

            linhas = [threading.Thread(target=trabalhar) for _ in range(CLIENTES)]
            for linha in linhas:
                linha.start()
            time.sleep(1.5)
            processo.send_signal(signal.SIGKILL)  # mid-save, with requests in flight
            processo.wait(timeout=30)
            mortes += 1
            parar.set()
            for linha in linhas:
                linha.join(timeout=30)
    assert mortes == QUEDAS and len(confirmados) > 20, len(confirmados)

    repositorio = Repositorio(database_url)
    try:
        for chave, caso in confirmados.items():  # every acknowledged save, as sent
            salvo = repositorio.obter(int(str(caso["id"])))
            assert salvo is not None, f"salvamento confirmado perdido: {caso['id']}"
            assert salvo.entrada == enviados[chave]
        assert repositorio.verificar().integro, repositorio.verificar().problemas
        antes = repositorio.contar()
        # retrying every request, acknowledged or not, with its key: no duplicate
        with processo_servidor(tmp_path, database_url) as (porta, _):
            for chave, texto in enviados.items():
                caso = salvar(porta, chave, texto)
                assert caso is not None
                if chave in confirmados:
                    assert caso["id"] == confirmados[chave]["id"]
        assert repositorio.contar() == len(enviados) >= antes
        assert repositorio.verificar().integro
    finally:
        repositorio.fechar()
    print(
        f"\n{QUEDAS} quedas (SIGKILL): {len(confirmados)} salvamentos confirmados, todos "
        f"presentes; {len(enviados) - len(confirmados)} sem confirmação, refeitos sem duplicar"
    )
