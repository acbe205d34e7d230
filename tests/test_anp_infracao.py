"""Decreto 2.953/1999 art. 28 (ranges) and art. 25 (criteria). Spec § 3.4."""

from __future__ import annotations

import pytest

from tests.conftest import calc, erro

FAIXAS = {
    "I": ("50000.00", "200000.00"),
    "II": ("500000.00", "5000000.00"),
    "III": ("5000.00", "1000000.00"),
    "IV": ("5000.00", "10000.00"),
    "V": ("100000.00", "1000000.00"),
    "VI": ("100000.00", "1000000.00"),
    "VII": ("500000.00", "5000000.00"),
    "VIII": ("100000.00", "1000000.00"),
    "IX": ("200000.00", "2000000.00"),
    "X": ("50000.00", "1000000.00"),
    "XI": ("5000.00", "2000000.00"),
    "XII": ("5000.00", "10000.00"),
    "XIII": ("100000.00", "1000000.00"),
    "XIV": ("500000.00", "2000000.00"),
}


@pytest.mark.parametrize(("inciso", "faixa"), FAIXAS.items())
def test_art28_faixa_de_cada_inciso(inciso: str, faixa: tuple[str, str]) -> None:
    r = calc(regime="anp.infracao", inciso=inciso.lower())
    assert (r["valor_minimo"], r["valor_maximo"]) == faixa
    assert r["valor"] is None
    assert r["descricao"]
    assert r["fundamento"] == f"Decreto nº 2.953/1999, art. 28, {inciso}"


def test_art28_valor_dentro_da_faixa_inclusive_nos_extremos() -> None:
    assert calc(regime="anp.infracao", inciso="IX", valor="200000")["valor"] == "200000.00"
    assert calc(regime="anp.infracao", inciso="IX", valor="2000000.00")["valor"] == "2000000.00"


@pytest.mark.parametrize("valor", ["199999.99", "2000000.01"])
def test_art28_valor_fora_da_faixa_e_erro(valor: str) -> None:
    e = erro(regime="anp.infracao", inciso="IX", valor=valor)
    assert e.campo == "valor"
    assert "R$ 200.000,00" in e.mensagem


@pytest.mark.parametrize("inciso", ["9", 9, "XV", "", "IIII"])
def test_art28_inciso_invalido(inciso: object) -> None:
    assert erro(regime="anp.infracao", inciso=inciso).campo == "inciso"


def test_art25_lista_os_cinco_criterios_e_avisa_da_lei_9847() -> None:
    r = calc(regime="anp.infracao", inciso="II")
    criterios = [
        p for p in r["passos"] if p["fundamento"].startswith("Decreto nº 2.953/1999, art. 25")
    ]
    assert len(criterios) == 5
    assert any("Lei nº 9.847/1999" in a and "R$ 20.000,00" in a for a in r["avisos"])
