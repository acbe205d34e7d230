"""The OpenAPI document of the case's `id` (spec § 3 v4): echoed first in a result and in a 422."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from multas.servidor import criar_app


@pytest.fixture
def cliente(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(
        criar_app(f"sqlite:///{tmp_path / 'multas.db'}"), raise_server_exceptions=False
    ) as c:
        yield c


def test_openapi_documenta_o_id_do_erro_e_do_resultado(cliente: TestClient) -> None:
    esquemas = cliente.get("/openapi.json").json()["components"]["schemas"]
    assert "id" in esquemas["Erro"]["properties"]
    assert "id" in esquemas["Resultado"]["properties"]
