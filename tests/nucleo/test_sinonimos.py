"""Issue 37, item 4: the ledger and the year call the target year ``ano``; a case of
``renovabio.distribuidor`` reads ``ano`` as ``ano_meta`` wherever a case is read (the library,
``multas calcular`` on JSON, the API), refuses both names with different years naming both,
and still reads ``ano_meta``."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.motor import calcular
from multas.principal import cli
from multas.servidor import criar_app

HOJE = date(2026, 12, 4)
CASO: dict[str, Any] = {
    "regime": "renovabio.distribuidor",
    "meta_cbios": 250000,
    "cbios_aposentados": 100000,
    "maior_media_mensal": "130.10",
}
VALOR = "19515000.00"


def _erros(dados: dict[str, Any]) -> list[dict[str, Any]]:
    with pytest.raises(EntradaInvalida) as erro:
        calcular(dados, hoje=HOJE)
    return [{"campo": e.campo, "mensagem": e.mensagem} for e in erro.value.todos()]


def test_ano_e_o_ano_da_meta() -> None:
    resultado = calcular({**CASO, "ano": 2023}, hoje=HOJE)
    assert resultado["valor"] == VALOR
    assert resultado == calcular({**CASO, "ano_meta": 2023}, hoje=HOJE)


def test_ano_e_ano_meta_iguais_valem_uma_vez() -> None:
    assert calcular({**CASO, "ano": "2023", "ano_meta": 2023}, hoje=HOJE)["valor"] == VALOR


def test_ano_e_ano_meta_diferentes_sao_recusados_nomeando_os_dois() -> None:
    erros = _erros({**CASO, "ano": 2024, "ano_meta": 2023})
    assert erros == [
        {
            "campo": "ano",
            "mensagem": "ano (2024) e ano_meta (2023) são o mesmo campo, o ano da meta, com "
            "valores diferentes: informe um só dos dois",
        }
    ]


def test_erro_de_ano_nomeia_ano() -> None:
    assert [e["campo"] for e in _erros({**CASO, "ano": "x"})] == ["ano"]
    assert [e["campo"] for e in _erros({**CASO, "ano": "x", "ano_meta": 2023})] == ["ano"]
    assert [e["campo"] for e in _erros(CASO)] == ["ano_meta"]


def test_ano_do_produtor_e_o_seu_proprio_campo() -> None:
    produtor = {"regime": "renovabio.produtor", "ano": 2025, "cbios_nao_pagos": 10}
    produtor["maior_media_mensal"] = "100"
    assert calcular(produtor, hoje=HOJE)["valor"]
    assert [e["campo"] for e in _erros({**produtor, "ano_meta": 2025})] == ["ano_meta"]


def test_multas_calcular_le_ano_em_json(tmp_path: Path) -> None:
    caso = tmp_path / "caso.json"
    caso.write_text(json.dumps({**CASO, "ano": 2023}), encoding="utf-8")
    r = CliRunner().invoke(cli, ["calcular", str(caso)])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["valor"] == VALOR


def test_api_calcular_le_ano(tmp_path: Path) -> None:
    with TestClient(criar_app(f"sqlite:///{tmp_path / 'multas.db'}")) as cliente:
        ok = cliente.post("/api/v1/calcular", json={**CASO, "ano": 2023})
        recusado = cliente.post("/api/v1/calcular", json={**CASO, "ano": 2024, "ano_meta": 2023})
        esquema = cliente.get("/openapi.json").json()["components"]["schemas"]
    assert (ok.status_code, ok.json()["valor"]) == (200, VALOR)
    assert recusado.status_code == 422
    assert "ano_meta" in recusado.json()["erro"]["mensagem"]
    distribuidor = esquema["Caso_renovabio_distribuidor"]
    assert "ano" in distribuidor["properties"]
    assert "ano_meta" not in distribuidor["required"]
