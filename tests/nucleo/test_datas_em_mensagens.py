"""Dates people read are always dd/mm/aaaa with four digits of year: ``strftime("%Y")``
writes the year 1 as ``1`` on Linux (found by the hostile review of 02/12/2026: "na data de
referência 01/01/1")."""

from __future__ import annotations

import pytest

from multas import calcular
from multas.nucleo.erros import EntradaInvalida


def test_regime_nao_vigente_escreve_o_ano_com_quatro_algarismos() -> None:
    caso = {
        "regime": "renovabio.distribuidor",
        "ano_meta": 2025,
        "meta_cbios": 10,
        "cbios_aposentados": 0,
        "maior_media_mensal": "80",
        "data_referencia": "0001-01-01",
    }
    with pytest.raises(EntradaInvalida) as erro:
        calcular(caso)
    assert "na data de referência 01/01/0001 (vigente a partir de" in erro.value.mensagem


def test_nenhum_strftime_de_data_no_codigo() -> None:
    """One date formatter (multas.nucleo.datas.formatar_data) for people; strftime stays only where
    a time of day is written (the report's Brasília time)."""
    from pathlib import Path

    import multas

    raiz = Path(multas.__file__).parent
    achados = [
        f"{p.relative_to(raiz)}:{n}"
        for p in raiz.rglob("*.py")
        for n, linha in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if 'strftime("%d/%m/%Y")' in linha or "strftime('%d/%m/%Y')" in linha
    ]
    assert achados == []
