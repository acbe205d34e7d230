"""The federal calendar through the API and the CLI: the local and conditional acts are listed
apart and never applied (an HTTP round trip: outside the core's tests, which mutation testing
runs in forked processes where a server's threads do not survive)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from fastapi.testclient import TestClient

from multas.nucleo.legislacao import carregar
from multas.principal import cli
from multas.servidor.aplicacao import criar_app

FEDERAL = carregar().calendario


def test_os_atos_locais_saem_a_parte_na_api_e_na_cli_e_nao_se_aplicam(tmp_path: Path) -> None:
    locais = FEDERAL.locais(2025)
    assert locais, "2025 has a conditional act (02/05/2025)"
    esperado = [d.como_dict() for d in locais]
    cliente = TestClient(criar_app(f"sqlite:///{tmp_path / 'm.db'}"))
    corpo = cliente.get("/api/v1/calendario/2025").json()
    assert corpo["fora_do_nacional"] == esperado
    assert not {d["data"] for d in esperado} & {d["data"] for d in corpo["dias"]}
    r = CliRunner().invoke(cli, ["calendario", "2025", "--formato", "json"])
    assert json.loads(r.stdout)["fora_do_nacional"] == esperado
    assert cliente.get("/api/v1/calendario/2024").json()["fora_do_nacional"] == []
