"""The OpenAPI document of the case's `id` (spec § 3 v4): echoed first in a result and in a 422."""

from __future__ import annotations

from fastapi.testclient import TestClient


def test_openapi_documenta_o_id_do_erro_e_do_resultado(cliente: TestClient) -> None:
    esquemas = cliente.get("/openapi.json").json()["components"]["schemas"]
    assert "id" in esquemas["Erro"]["properties"]
    assert "id" in esquemas["Resultado"]["properties"]
