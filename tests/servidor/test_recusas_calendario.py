"""The federal calendar's API (``GET /api/v1/calendario/{ano}``) under hostile years: every
malformed year (signs, non-ASCII digits, decimals, huge numbers, surrounding whitespace) is a
pt-BR 422 naming ``ano``, never a 500; the ends of the range, 0001 and 9999, are computed."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.utils import erro_pt


@pytest.mark.parametrize(
    "ano",
    [
        "0000",
        "-1",
        "１２３４",
        "٢٠٢٥",
        "2025.0",
        str(10**30),
        "10000",
        "+2025",
        "2_025",
        "0x10",
        "00002025",
        "%00",
    ],
)
def test_calendario_api_recusa_ano_invalido(cliente: TestClient, ano: str) -> None:
    """Every malformed year is a pt-BR 422 naming ``ano`` (never a 500)."""
    mensagem = erro_pt(cliente.get(f"/api/v1/calendario/{ano}"), 422, "ano")
    assert "AAAA" in mensagem


def test_calendario_api_limites_do_intervalo(cliente: TestClient) -> None:
    """0001 and 9999 are computed from the pattern (Easter by the computus)."""
    for ano, primeiro in (("0001", "0001-01-01"), ("9999", "9999-01-01")):
        r = cliente.get(f"/api/v1/calendario/{ano}")
        assert r.status_code == 200
        corpo = r.json()
        assert corpo["transcrito"] is False and corpo["dias"][0]["data"] == primeiro
        assert all(d["data"].startswith(ano) for d in corpo["dias"])


@pytest.mark.parametrize("ano", ["%202025", "2025%20", "2025%0A", "%092025"])
def test_calendario_api_ano_com_espacos_e_recusado(cliente: TestClient, ano: str) -> None:
    """A year with whitespace around it (``GET /api/v1/calendario/%202025``, ``2025%20``,
    ``2025%0A``) is a 422 naming ``ano``, as the project reads path and query parameters
    strictly (``servidor/parametros.py``: "an integer is ASCII digits"; ``/processos/1%20`` is
    a 422) and the message itself asks for AAAA. Was a defect: it answered 200 for 2025,
    because ``ler_ano_calendario`` stripped whitespace first."""
    erro_pt(cliente.get(f"/api/v1/calendario/{ano}"), 422, "ano")
