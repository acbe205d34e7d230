"""The clock is injected: rules without a date of their own apply the law of today in Brasília,
read from multas.servicos.relogio; with data_referencia the result does not depend on the day at all."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
import time_machine

from multas import calcular
from multas.nucleo.erros import EntradaInvalida
from multas.servicos.relogio import fuso_brasilia, hoje

SEM_DATA_PROPRIA: list[dict[str, Any]] = [
    {"regime": "anp.infracao", "inciso": "XI", "valor": "750000.00"},
    {"regime": "renovabio.vedacao", "valor_base": "152187560.63"},
    {"regime": "mover.eficiencia", "meta_mj_km": "1.82", "consumo_mj_km": "1.83", "veiculos": 10},
]


def test_a_sessao_vive_na_data_pedida(request: pytest.FixtureRequest) -> None:
    """`make test` runs the suite again with --hoje; the clock must then say that date."""
    pedido = request.config.getoption("--hoje")
    if pedido:
        assert hoje().isoformat() == pedido


def test_hoje_e_a_data_de_brasilia_nao_a_do_servidor() -> None:
    # 31/12/2025 23:30 in Brasília is already 01/01/2026 in UTC
    with time_machine.travel(dt.datetime(2026, 1, 1, 2, 30, tzinfo=dt.UTC), tick=False):
        assert hoje() == dt.date(2025, 12, 31)


@pytest.mark.parametrize("caso", SEM_DATA_PROPRIA, ids=lambda c: c["regime"])
def test_sem_data_de_referencia_aplica_a_lei_de_hoje(caso: dict[str, Any]) -> None:
    with time_machine.travel(dt.datetime(2031, 7, 15, 12, tzinfo=fuso_brasilia()), tick=False):
        r = calcular(caso)
    assert r["vigencia"]["data_referencia"] == "2031-07-15"
    assert "hoje" in r["passos"][0]["descricao"]


@pytest.mark.parametrize("caso", SEM_DATA_PROPRIA, ids=lambda c: c["regime"])
@pytest.mark.parametrize("dia", ["2026-11-29", "2026-11-30", "2028-02-29", "2031-07-15"])
def test_com_data_de_referencia_o_resultado_nao_depende_do_dia(
    caso: dict[str, Any], dia: str
) -> None:
    caso = {**caso, "data_referencia": "2025-10-01"}
    esperado = calcular(caso)
    d = dt.date.fromisoformat(dia)
    with time_machine.travel(dt.datetime(d.year, d.month, d.day, 12, tzinfo=dt.UTC), tick=False):
        assert calcular(caso) == esperado
    assert "hoje" not in esperado["passos"][0]["descricao"]


def test_antes_da_vedacao_existir_hoje_e_regime_nao_vigente() -> None:
    with (
        time_machine.travel(dt.datetime(2024, 6, 1, 12, tzinfo=dt.UTC), tick=False),
        pytest.raises(EntradaInvalida) as erro,
    ):
        calcular({"regime": "renovabio.vedacao"})
    assert erro.value.campo == "data_referencia"
    assert "regime não vigente" in erro.value.mensagem
