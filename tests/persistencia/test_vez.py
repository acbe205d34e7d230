"""The writers' queue of a process hands the turn over in order (issue 32, item 1): a thread
that releases it and asks again at once (a long import, part after part) queues behind the
threads already waiting, and a wait that runs out gives its place up."""

from __future__ import annotations

import threading
import time

from multas.servicos.persistencia.vez import FilaDeEscrita


def _esperando(fila: FilaDeEscrita, quantos: int) -> None:
    """Until ``quantos`` threads are queued."""
    limite = time.monotonic() + 5
    while len(fila._fila) < quantos:
        assert time.monotonic() < limite, "ninguém entrou na fila"
        time.sleep(0.001)


def test_quem_pede_de_novo_entra_atras_de_quem_ja_esperava() -> None:
    fila = FilaDeEscrita()
    assert fila.acquire(1)
    ordem: list[str] = []

    def outro(nome: str) -> None:
        assert fila.acquire(5)
        ordem.append(nome)
        fila.release()

    linhas = [threading.Thread(target=outro, args=(n,)) for n in ("login", "salvar")]
    for quantos, linha in enumerate(linhas, 1):
        linha.start()
        _esperando(fila, quantos)
    fila.release()
    assert fila.acquire(5)  # the import's next part
    ordem.append("importação")
    fila.release()
    for linha in linhas:
        linha.join()
    assert ordem == ["login", "salvar", "importação"]


def test_uma_espera_que_se_esgota_desiste_do_lugar() -> None:
    fila = FilaDeEscrita()
    assert fila.acquire(1)
    resultado: list[bool] = []
    linha = threading.Thread(target=lambda: resultado.append(fila.acquire(0.05)))
    linha.start()
    linha.join()
    assert resultado == [False] and not fila._fila
    fila.release()
    assert fila.acquire(0.05)  # free, and nobody left queued ahead
