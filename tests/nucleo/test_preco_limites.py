"""The CBIO price's edges (spec § 3.1 v4): the default of ``media_mensal`` decided by the
priced exercise's quotes only, and the exact ``p/q`` prices within the contract's bounds."""

from __future__ import annotations

from typing import Any

import pytest

from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.motor import calcular


def _multa(**campos: Any) -> dict[str, Any]:
    caso = {
        "regime": "renovabio.distribuidor",
        "ano_meta": 2024,
        "meta_cbios": 100000,
        "cbios_aposentados": 0,
    }
    return calcular({**caso, **campos}, hoje=None)


def test_padrao_da_media_mensal_so_olha_as_cotacoes_do_exercicio() -> None:
    """Spec § 3.1 v4: ``ponderada`` "is the default when every quote of the priced exercise
    carries both fields". Every 2024 quote carries them; the 2023 one, ignored by the price,
    must not change the method."""
    r = _multa(
        cotacoes_diarias=[
            {"data": "2023-05-02", "preco": "80"},
            {"data": "2024-01-02", "preco": "100", "quantidade": 10, "valor_financeiro": "900"},
        ]
    )
    assert r["preco_metodo"] == "ponderada"
    assert r["interpretacao"]["media_mensal"] == "ponderada"
    assert r["preco"] == "90"  # Σ valor_financeiro ÷ Σ quantidade of January 2024
    assert r["valor"] == "9000000.00"


def test_fracao_nao_passa_do_maior_numero_que_o_contrato_le() -> None:
    """The same price must be accepted or refused whatever its notation: a decimal of 16
    integer digits is refused, so a fraction worth as much is too."""
    with pytest.raises(EntradaInvalida) as decimal:
        _multa(cotacoes_mensais={"2024-01": "1" + "0" * 29})
    assert decimal.value.campo == "cotacoes_mensais.2024-01"
    with pytest.raises(EntradaInvalida) as fracao:
        _multa(cotacoes_mensais={"2024-01": "9" * 30 + "/1"})
    assert fracao.value.campo == "cotacoes_mensais.2024-01"
