"""The new processo's and the event's forms read what a hostile user types (found by a hostile
review of issue 37's every-error forms): never a 500, each refusal beside its field."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient


@pytest.mark.parametrize("caso_id", ["²", "1²"])
def test_um_caso_salvo_com_digitos_nao_ascii_e_recusado_no_campo(
    cliente: TestClient, caso_id: str
) -> None:
    # '²'.isdigit() is true and int('²') raises: the form answered 500
    r = cliente.post("/processos", data={"tipo": "anp", "data": "10/01/2024", "caso_id": caso_id})
    assert r.status_code == 422
    assert re.search(r'id="erro-caso_id"><span class="vh">Erro: </span>[^<]*caso salvo', r.text)
