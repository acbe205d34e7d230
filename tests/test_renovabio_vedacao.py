"""Decreto 9.888/2019 art. 6º-A § 1º: breaking the sales ban. Spec § 3.3."""

from __future__ import annotations

from tests.conftest import calc, erro


def test_art6A_par1_faixa_sem_valor_base() -> None:
    r = calc(regime="renovabio.vedacao")
    assert (r["valor"], r["valor_minimo"], r["valor_maximo"]) == (None, "100000.00", "500000000.00")
    assert r["alternativas"] == []


def test_art6A_par2_piso_e_teto() -> None:
    assert calc(regime="renovabio.vedacao", valor_base="5000")["valor"] == "100000.00"
    assert calc(regime="renovabio.vedacao", valor_base="600000000")["valor"] == "500000000.00"
    assert calc(regime="renovabio.vedacao", valor_base="152187560.63")["valor"] == "152187560.63"


def test_art6A_par3_limite_do_faturamento() -> None:
    r = calc(
        regime="renovabio.vedacao",
        valor_base="152187560.63",
        faturamento_ano_meta="2000000000",
        faturamento_ano_anterior="1500000000",
    )
    assert r["valor"] == "87500000.00"


def test_art6A_par3_nao_se_aplica_no_caso_do_piso() -> None:
    r = calc(
        regime="renovabio.vedacao",
        valor_base="10",
        faturamento_ano_meta="1",
        faturamento_ano_anterior="1",
    )
    assert r["valor"] == "100000.00"


def test_art6A_par8_nao_reduz_a_multa_da_vedacao() -> None:
    assert (
        erro(regime="renovabio.vedacao", valor_base="1000000", data_quitacao="2026-01-01").campo
        == "data_quitacao"
    )


def test_vedacao_nao_existia_antes_de_2025() -> None:
    e = erro(regime="renovabio.vedacao", valor_base="1000000", data_referencia="2024-06-01")
    assert e.campo == "data_referencia"
