"""The server's memory after a long import (issue 32, item 1): each file import hands the
allocator's free memory back when its turn ends, however it ends."""

from __future__ import annotations

import pytest

from multas.servicos import alocador, cargas


def test_cada_importacao_devolve_a_memoria_ao_terminar(monkeypatch: pytest.MonkeyPatch) -> None:
    devolvidas: list[bool] = []
    monkeypatch.setattr(cargas, "devolver_memoria", lambda: devolvidas.append(True) or True)
    with cargas.uma_por_vez():
        pass
    with pytest.raises(ValueError), cargas.uma_por_vez():
        raise ValueError  # a refused file too
    assert devolvidas == [True, True]


def test_no_linux_com_glibc_as_chamadas_funcionam() -> None:
    if alocador._glibc() is None:
        pytest.skip("sem glibc")
    assert alocador.limitar_arenas() is True
    assert isinstance(alocador.devolver_memoria(), bool)
