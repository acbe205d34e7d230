"""The ledger (carteira) under the partial deferral reading (``diferimento_excedente =
parcial``), in the core: a shortfall past 15% of the target is never described as fitting in
the 15%, and with the previous year met exactly 15% of the target is deferred."""

from __future__ import annotations

from typing import Any

import pytest

from multas.nucleo.ciclo.carteira import calcular_carteira, ler_anos


@pytest.mark.parametrize("cumprida", [None, False])
def test_diferimento_parcial_aviso_nao_diz_que_cabe(cumprida: bool | None) -> None:
    """``diferimento_excedente = parcial``, meta 100, 80 aposentados (falta 20 > 15% da meta)
    and the previous year NOT known to be met: nothing is deferred, and the aviso does not say
    "A falta de 20 CBIOs cabe nos 15%…" (20 does not fit in 15 of 100). Was a defect (wrong
    text): ``_diferido`` set ``cabe_percentual = True`` to reach the previous-year check and
    reused the within-15% text. The aviso should say the shortfall passes 15% (and why nothing
    is deferred)."""
    entrada: dict[str, Any] = {
        "cnpj": "11.222.333/0001-81",
        "ano": 2024,
        "meta_cbios": 100,
        "cbios_aposentados": 80,
        "maior_media_mensal": "100",
    }
    if cumprida is not None:
        entrada["meta_anterior_cumprida"] = cumprida
    r = calcular_carteira(ler_anos([entrada]), interpretacao={"diferimento_excedente": "parcial"})
    linha = r["anos"][0]
    assert (linha["cbios_diferidos"], linha["cbios_multados"]) == (0, 20)
    texto = " ".join(linha["avisos"])
    assert "cabe nos" not in texto, texto


def test_diferimento_parcial_difere_15_por_cento() -> None:
    """parcial with the previous year met: 15 deferred, 5 fined."""
    entrada = {
        "cnpj": "11.222.333/0001-81",
        "ano": 2024,
        "meta_cbios": 100,
        "cbios_aposentados": 80,
        "maior_media_mensal": "100",
        "meta_anterior_cumprida": True,
    }
    r = calcular_carteira(ler_anos([entrada]), interpretacao={"diferimento_excedente": "parcial"})
    assert (r["anos"][0]["cbios_diferidos"], r["anos"][0]["cbios_multados"]) == (15, 5)
