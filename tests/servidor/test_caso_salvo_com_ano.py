"""A case saved with ``ano`` (the ledger's name of ``ano_meta``: issue 37, item 4) reopens in
the form with its year in the ``ano_meta`` field, and its page lists the year."""

from __future__ import annotations

import json
import re
from pathlib import Path

from fastapi.testclient import TestClient

from multas.servidor import criar_app

CASO = {
    "regime": "renovabio.distribuidor",
    "ano": 2023,
    "meta_cbios": 250000,
    "cbios_aposentados": 100000,
    "maior_media_mensal": "130.10",
}


def test_caso_salvo_com_ano_reabre_com_o_ano(tmp_path: Path) -> None:
    with TestClient(criar_app(f"sqlite:///{tmp_path / 'multas.db'}")) as cliente:
        salvo = cliente.post("/api/v1/casos", content=json.dumps(CASO))
        assert salvo.status_code == 201, salvo.text
        numero = salvo.json()["id"]
        formulario = cliente.get(f"/?caso={numero}").text
        pagina = cliente.get(f"/casos/{numero}").text
    assert re.search(r'name="ano_meta" value="2023"', formulario)
    assert "<code>ano_meta</code></dt><dd>2023</dd>" in pagina
