"""Work on every core (:mod:`multas.servicos.em_paralelo`): :func:`em_lotes` gives each lot's
results in order, as on one core; a worker that fails or dies ends the command with
:class:`FilhoPerdido`, never a hang, in :func:`em_lotes` and in :func:`em_paralelo`; Ctrl-C is
the parent's; without ``fork``, the work runs here."""

from __future__ import annotations

import os
import pickle
import signal
from typing import Any

import pytest

from multas.nucleo.erros import EntradaInvalida
from multas.servicos import em_paralelo
from multas.servicos.em_paralelo import FilhoPerdido, em_lotes
from multas.servicos.em_paralelo import em_paralelo as _em_paralelo

LOTES = [([1, 2, 3], "a"), ([4, 5], "b"), ([6, 7, 8, 9], "c")]


def _quadrado(item: int) -> bytes:
    return pickle.dumps((item * item, os.getpid()))


def _resultados(processos: int) -> list[tuple[list[int], str, set[int]]]:
    saida = []
    for feitos, junto in em_lotes(_quadrado, iter(LOTES), processos):
        pares = [pickle.loads(b) for b in feitos]
        saida.append(([q for q, _ in pares], junto, {p for _, p in pares}))
    return saida


def test_em_lotes_na_ordem_e_nos_filhos() -> None:
    um = _resultados(1)
    dois = _resultados(2)
    assert [(q, j) for q, j, _ in dois] == [(q, j) for q, j, _ in um]
    assert [q for q, _, _ in um] == [[1, 4, 9], [16, 25], [36, 49, 64, 81]]
    assert {p for _, _, ps in um for p in ps} == {os.getpid()}
    assert os.getpid() not in {p for _, _, ps in dois for p in ps}


def test_sem_fork_roda_aqui(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(os, "fork")
    assert {p for _, _, ps in _resultados(2) for p in ps} == {os.getpid()}


def _recusa(item: int) -> bytes:
    if item == 5:
        raise EntradaInvalida("campo", "uma exceção que o pickle não refaz")
    return b""


def _morre(item: int) -> bytes:
    if item == 5:
        os.kill(os.getpid(), signal.SIGKILL)
    return b""


def _todos_em_lotes(fazer: Any) -> list[Any]:
    return list(em_lotes(fazer, iter(LOTES), 2))


def _todos_em_paralelo(fazer: Any) -> list[Any]:
    return list(_em_paralelo(fazer, list(range(1, 10)), 2))


@pytest.mark.parametrize("fazer", [_recusa, _morre], ids=["falha", "morre"])
@pytest.mark.parametrize("rodar", [_todos_em_lotes, _todos_em_paralelo], ids=["lotes", "paralelo"])
def test_um_filho_perdido_encerra_sem_prender(fazer: Any, rodar: Any) -> None:
    with pytest.raises(FilhoPerdido):
        rodar(fazer)
    assert em_paralelo._FAZER is None and em_paralelo._TAREFA is None


@pytest.mark.parametrize("fazer", [_recusa, _morre], ids=["falha", "morre"])
@pytest.mark.parametrize("rodar", [_todos_em_lotes, _todos_em_paralelo], ids=["lotes", "paralelo"])
def test_so_a_thread_do_pool_cancela_os_futuros(
    fazer: Any, rodar: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A future cancelled here while the pool's thread fails it for a dead worker is CPython
    3.11's InvalidStateError in that thread (``executor.map`` did that on an error)."""
    import threading
    from concurrent.futures import Future

    aqui: list[str] = []
    original = Future.cancel

    def cancelar(futuro: Future[Any]) -> bool:
        if threading.current_thread() is threading.main_thread():
            aqui.append("cancel")
        return original(futuro)

    monkeypatch.setattr(Future, "cancel", cancelar)
    with pytest.raises(FilhoPerdido):
        rodar(fazer)
    assert aqui == []


def test_em_paralelo_na_ordem_e_nos_filhos() -> None:
    pares = [pickle.loads(b) for b in _em_paralelo(_quadrado, list(range(1, 10)), 2)]
    assert [q for q, _ in pares] == [i * i for i in range(1, 10)]
    assert os.getpid() not in {p for _, p in pares}
    assert all(pickle.loads(b) for b in _em_paralelo(_ctrl_c, list(range(8)), 2))


def _ctrl_c(_: int) -> bytes:
    return pickle.dumps(signal.getsignal(signal.SIGINT) == signal.SIG_IGN)


def test_ctrl_c_e_do_pai() -> None:
    """A worker that took Ctrl-C could die holding the pool's queue lock, and the parent,
    terminating the pool, would wait for it forever."""
    ignorado = [pickle.loads(b) for feitos, _ in em_lotes(_ctrl_c, iter(LOTES), 2) for b in feitos]
    assert ignorado and all(ignorado)
    assert em_paralelo._FAZER is None


def test_o_comando_diz_o_filho_perdido_sem_traceback(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from click.testing import CliRunner

    from multas.principal import cli
    from multas.servicos import reavaliar

    def perdido(*_: object, **__: object) -> None:
        raise FilhoPerdido("um processo filho morreu (sinal, memória?)")

    monkeypatch.setattr(reavaliar, "reavaliar", perdido)
    r = CliRunner().invoke(cli, ["reavaliar", "--banco", f"sqlite:///{tmp_path / 'b.db'}"])
    assert r.exit_code == 1
    assert "Erro: um processo filho morreu" in r.output and "Traceback" not in r.output
