"""Spec § 6.3 v4: a processo's ``origem``, the fine it was opened for, is read, echoed, and
names both dates of a RenovaBio target's auto (the deadline and the infração)."""

from __future__ import annotations

from typing import Any

import pytest

from multas.nucleo.ciclo.prazos import calcular_prazos
from multas.nucleo.erros import EntradaInvalida

ORIGEM = {"regime": "renovabio.distribuidor", "ano_meta": 2024, "cnpj": "11.222.333/0001-81"}


def _processo(**extra: Any) -> dict[str, Any]:
    return {
        "tipo": "anp",
        "eventos": [{"evento": "infracao", "data": "2025-01-01"}],
        "data_referencia": "2025-02-03",
        **extra,
    }


def test_origem_e_devolvida_e_o_aviso_diz_as_duas_datas() -> None:
    r = calcular_prazos(_processo(origem=ORIGEM))
    assert r["origem"] == ORIGEM and list(r)[:2] == ["origem", "tipo"]
    (datas,) = [a for a in r["avisos"] if a.startswith("Meta de 2024")]
    assert "31/12/2024" in datas and "01/01/2025" in datas and "dia seguinte" in datas
    assert any("Lei nº 9.847/1999" in a for a in r["avisos"])
    assert not any(a.startswith("Meta de") for a in calcular_prazos(_processo())["avisos"])


@pytest.mark.parametrize(
    ("origem", "campo"),
    [
        ({**ORIGEM, "valor": 1}, "origem.valor"),
        ({**ORIGEM, "regime": ""}, "origem.regime"),
        ({**ORIGEM, "ano_meta": "2024"}, "origem.ano_meta"),
        ({**ORIGEM, "ano_meta": True}, "origem.ano_meta"),
        ({k: v for k, v in ORIGEM.items() if k != "cnpj"}, "origem.cnpj"),
        ({**ORIGEM, "cnpj": 11222333000181}, "origem.cnpj"),
    ],
)
def test_origem_invalida_e_recusada_nomeando_o_campo(origem: object, campo: str) -> None:
    with pytest.raises(EntradaInvalida) as erro:
        calcular_prazos(_processo(origem=origem))
    assert erro.value.campo == campo
