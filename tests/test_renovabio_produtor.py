"""Decreto 9.888/2019 art. 6º-B: the biofuel producer's fine (from 2025). Spec § 3.2."""

from __future__ import annotations

from typing import Any

from tests.conftest import calc, erro

BASE: dict[str, Any] = {
    "regime": "renovabio.produtor",
    "ano": 2025,
    "cbios_nao_pagos": 300_000,
    "maior_media_mensal": "70.43",
}


def caso(**mudancas: Any) -> dict[str, Any]:
    return calc(**{**BASE, **mudancas})


def test_art6B_par1_cbios_nao_pagos_vezes_maior_media() -> None:
    assert caso()["valor"] == "21129000.00"


def test_art6B_zero_cbios_nao_pagos_nao_tem_multa() -> None:
    assert caso(cbios_nao_pagos=0)["valor"] == "0.00"


def test_art6B_par2_inciso_I_piso() -> None:
    assert caso(cbios_nao_pagos=10, maior_media_mensal="38.29")["valor"] == "100000.00"


def test_art6B_par2_inciso_II_teto_de_50_milhoes() -> None:
    assert caso(cbios_nao_pagos=1_000_000)["valor"] == "50000000.00"


def test_art6B_par3_dobro_com_dados_primarios() -> None:
    assert caso(dados_primarios=True)["valor"] == "42258000.00"


def test_art6B_par3_dobro_respeita_o_teto() -> None:
    assert caso(cbios_nao_pagos=500_000, dados_primarios=True)["valor"] == "50000000.00"


def test_art6B_par4_limite_do_faturamento_exceto_piso_dobrado() -> None:
    r = caso(
        cbios_nao_pagos=1000,
        maior_media_mensal="60",
        dados_primarios=True,
        faturamento_ano_meta="1000000",
        faturamento_ano_anterior="1000000",
    )
    assert r["valor"] == "200000.00"


def test_art6B_par4_limite_do_faturamento() -> None:
    r = caso(faturamento_ano_meta="100000000", faturamento_ano_anterior="300000000")
    assert r["valor"] == "10000000.00"
    assert {a["interpretacao"]["faturamento"]: a["valor"] for a in r["alternativas"]} == {
        "maior": "15000000.00",
        "menor": "5000000.00",
    }


def test_regime_nao_vigente_antes_de_2025() -> None:
    e = erro(**{**BASE, "ano": 2024})
    assert e.campo == "ano"
    assert "regime não vigente" in e.mensagem


def test_dados_primarios_so_booleano_json() -> None:
    assert erro(**{**BASE, "dados_primarios": "sim"}).campo == "dados_primarios"
    assert erro(**{**BASE, "dados_primarios": 1}).campo == "dados_primarios"
