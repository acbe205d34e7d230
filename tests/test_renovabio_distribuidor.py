"""Decreto 9.888/2019 art. 6º (and art. 6º-A § 8º): the distributor's fine. Spec §§ 2, 3.1."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import calc, erro

BASE: dict[str, Any] = {
    "regime": "renovabio.distribuidor",
    "ano_meta": 2025,
    "meta_cbios": 1_000_000,
    "cbios_aposentados": 400_000,
    "maior_media_mensal": "71.70",
}


def caso(**mudancas: Any) -> dict[str, Any]:
    return calc(**{**BASE, **mudancas})


def test_art6_par1_cbios_nao_adquiridos_vezes_maior_media_mensal() -> None:
    # In 2025, a distributor missing 600 000 CBIOs at R$ 71,70 owes R$ 43.020.000,00.
    assert caso()["valor"] == "43020000.00"


def test_art6_par1_meta_atendida_nao_tem_multa() -> None:
    r = caso(cbios_aposentados=1_000_000)
    assert r["valor"] == "0.00"
    assert caso(cbios_aposentados=2_000_000)["valor"] == "0.00"


def test_art6_par1_maior_media_mensal_das_cotacoes_diarias() -> None:
    r = caso(
        ano_meta=2024,
        meta_cbios=3000,
        cbios_aposentados=0,
        maior_media_mensal=None,
        cotacoes_diarias=[
            {"data": "2024-01-02", "preco": "80"},
            {"data": "2024-01-03", "preco": "81"},
            {"data": "2024-01-04", "preco": "82.01"},
            {"data": "2024-02-01", "preco": "90"},
            {"data": "2024-02-02", "preco": "70"},
            {"data": "2023-12-29", "preco": "500"},
        ],
    )
    # January's mean 81.00333… beats February's 80; 3000 × 81.00333… = 243010 exactly
    assert r["valor"] == "243010.00"
    assert any("2023-12-29" in aviso for aviso in r["avisos"])


def test_art6_par1_cotacoes_mensais_fora_do_exercicio_sao_ignoradas() -> None:
    r = caso(maior_media_mensal=None, cotacoes_mensais={"2025-03": "60", "2024-12": "99"})
    assert r["valor"] == "36000000.00"
    assert any("2024-12" in aviso for aviso in r["avisos"])


def test_art6_par1_nenhuma_cotacao_no_exercicio_e_erro() -> None:
    e = erro(**{**BASE, "maior_media_mensal": None, "cotacoes_mensais": {"2024-12": "99"}})
    assert e.campo == "cotacoes_mensais"


def test_art6_par2_inciso_I_piso_mesmo_com_um_cbio() -> None:
    assert caso(meta_cbios=5000, cbios_aposentados=4999)["valor"] == "100000.00"


def test_art6_par2_inciso_II_teto_de_50_milhoes_ate_a_meta_de_2024() -> None:
    r = caso(ano_meta=2024, meta_cbios=2_000_000, cbios_aposentados=0, maior_media_mensal="99.99")
    assert r["valor"] == "50000000.00"
    assert r["vigencia"] == {
        "data_referencia": "2024-12-31",
        "redacao": "Decreto nº 9.888/2019, art. 6º (redação original)",
    }


def test_art6_par2_inciso_II_teto_de_500_milhoes_desde_2025() -> None:
    r = caso(meta_cbios=9_000_000, cbios_aposentados=0)
    assert r["valor"] == "500000000.00"
    assert "12.437/2025" in r["vigencia"]["redacao"]


def test_art6_par2_inciso_III_valor_calculado_entre_piso_e_teto() -> None:
    assert caso(meta_cbios=500_000, cbios_aposentados=0)["valor"] == "35850000.00"


def test_art6_par2_no_piso_exato_nao_ha_caso_do_piso() -> None:
    # 1000 × 100 = 100 000,00 is not "inferior a" the floor: § 3º applies and caps it at
    # R$ 500,00; by default the law's floor then prevails (spec § 3.1 step 5, piso = lei)
    campos = {
        "meta_cbios": 1000,
        "cbios_aposentados": 0,
        "maior_media_mensal": "100",
        "faturamento_ano_meta": "10000",
        "faturamento_ano_anterior": "10000",
    }
    r = caso(**campos)
    assert r["valor"] == "100000.00"
    assert r["alternativas"] == [{"interpretacao": {"piso": "decreto"}, "valor": "500.00"}]
    assert any("prevalece o piso da lei" in a for a in r["avisos"])
    decreto = caso(**campos, interpretacao={"piso": "decreto"})
    assert decreto["valor"] == "500.00"
    assert any("abaixo do mínimo legal" in a for a in decreto["avisos"])
    # one CBIO less: the piso case, where § 3º does not apply under either reading
    r = caso(**{**campos, "meta_cbios": 999}, interpretacao={"piso": "decreto"})
    assert (r["valor"], r["alternativas"]) == ("100000.00", [])


@pytest.mark.parametrize(
    ("faturamento", "lei", "decreto"),
    [
        ("1999999.80", "100000.00", "99999.99"),  # 5% = 99.999,99: below the floor
        ("1999999.98", "100000.00", "100000.00"),  # 99.999,999: below, rounds up to the floor
        ("2000000.00", "100000.00", "100000.00"),  # 5% = 100.000,00: the cap is the floor
        ("2000000.02", "100000.00", "100000.00"),  # just above: capped at 100.000,001 → .00
        ("4000000.00", "200000.00", "200000.00"),  # above the floor: both readings agree
    ],
)
def test_art6_par3_limite_nos_dois_lados_do_piso(faturamento: str, lei: str, decreto: str) -> None:
    campos = {
        "meta_cbios": 1_000_000,
        "cbios_aposentados": 0,
        "maior_media_mensal": "100",
        "faturamento_ano_meta": faturamento,
        "faturamento_ano_anterior": faturamento,
    }
    assert caso(**campos)["valor"] == lei
    assert caso(**campos, interpretacao={"piso": "decreto"})["valor"] == decreto


def test_art6_par3_limite_de_5_por_cento_da_media_dos_faturamentos() -> None:
    r = caso(faturamento_ano_meta="900000000", faturamento_ano_anterior="800000000")
    assert r["valor"] == "42500000.00"
    assert {a["interpretacao"]["faturamento"]: a["valor"] for a in r["alternativas"]} == {
        "maior": "43020000.00",
        "menor": "40000000.00",
    }


def test_art6_par3_nao_se_aplica_no_caso_do_piso() -> None:
    r = caso(
        meta_cbios=5000,
        cbios_aposentados=4999,
        faturamento_ano_meta="1000",
        faturamento_ano_anterior="1000",
    )
    assert r["valor"] == "100000.00"


def test_art6_par3_faturamento_zero_zera_o_limite() -> None:
    r = caso(faturamento_ano_meta="0", faturamento_ano_anterior="0")
    assert r["valor"] == "100000.00"  # piso = lei: the law's floor
    r = caso(
        faturamento_ano_meta="0", faturamento_ano_anterior="0", interpretacao={"piso": "decreto"}
    )
    assert r["valor"] == "0.00"


def test_art6_par3_sem_faturamento_avisa_que_nao_aplicou() -> None:
    r = caso()
    assert any("não foi aplicado" in aviso for aviso in r["avisos"])
    assert r["alternativas"] == []


def test_art6_par3_um_faturamento_sozinho_e_erro() -> None:
    assert erro(**{**BASE, "faturamento_ano_meta": "1000"}).campo == "faturamento_ano_anterior"
    assert erro(**{**BASE, "faturamento_ano_anterior": "1000"}).campo == "faturamento_ano_meta"


def test_art6A_par8_reducao_de_1_12_por_mes_ou_fracao() -> None:
    r = caso(
        meta_cbios=10_000,
        cbios_aposentados=0,
        maior_media_mensal="60.25",
        data_quitacao="2026-01-01",
    )
    assert r["valor"] == "100000.00"  # 602 500 × 1/12 = 50 208,33 → floor
    r = caso(
        meta_cbios=100_000,
        cbios_aposentados=0,
        maior_media_mensal="60.25",
        data_quitacao="2026-01-01",
    )
    assert r["valor"] == "502083.33"  # 6 025 000 / 12
    r = caso(
        meta_cbios=100_000,
        cbios_aposentados=0,
        maior_media_mensal="60.25",
        data_quitacao="2026-02-01",
    )
    assert r["valor"] == "1004166.67"  # 2 months (31/01 + 1 day is a fraction)


def test_art6A_par8_onze_meses_inclusive() -> None:
    base = {"meta_cbios": 10_000, "cbios_aposentados": 0, "maior_media_mensal": "60.25"}
    assert caso(**base, data_quitacao="2026-11-30")["valor"] == "552291.67"
    assert caso(**base, data_quitacao="2026-12-01")["valor"] == "602500.00"


def test_art6A_par8_respeita_o_limite_inferior() -> None:
    r = caso(
        meta_cbios=10_000,
        cbios_aposentados=7000,
        maior_media_mensal="60.25",
        data_quitacao="2026-01-20",
    )
    assert r["valor"] == "100000.00"


def test_art6A_par8_multa_ja_abaixo_do_piso_pelo_par3_fica_como_estava() -> None:
    campos = {
        "maior_media_mensal": 71.7,
        "faturamento_ano_meta": 1_000_000,
        "faturamento_ano_anterior": 1_000_000,
        "data_quitacao": "2026-01-10",
    }
    # piso = decreto: 43.020.000,00 capped at 50.000,00 stays there (spec § 3.1 step 6)
    assert caso(**campos, interpretacao={"piso": "decreto"})["valor"] == "50000.00"
    # piso = lei: the floor, and the reduction cannot take it lower
    assert caso(**campos)["valor"] == "100000.00"


def test_art6A_par8_nao_existia_na_redacao_original() -> None:
    r = caso(
        ano_meta=2024,
        meta_cbios=40_000,
        cbios_aposentados=0,
        maior_media_mensal="100",
        data_quitacao="2025-02-10",
    )
    assert r["valor"] == "4000000.00"
    assert any("não existia" in aviso for aviso in r["avisos"])


@pytest.mark.parametrize("ano_meta", [2024, 2025])
def test_quitacao_no_prazo_ou_antes_e_erro_em_qualquer_redacao(ano_meta: int) -> None:
    e = erro(**{**BASE, "ano_meta": ano_meta, "data_quitacao": f"{ano_meta}-12-31"})
    assert e.campo == "data_quitacao"


@pytest.mark.parametrize(
    ("ano_meta", "prazo"),
    [
        (2021, "2021-12-31"),
        (2022, "2023-09-30"),
        (2023, "2024-03-31"),
        (2024, "2024-12-31"),
        (2031, "2031-12-31"),
    ],
)
def test_art4A_prazo_de_comprovacao_por_ano(ano_meta: int, prazo: str) -> None:
    r = caso(ano_meta=ano_meta)
    assert r["prazo_comprovacao"] == prazo
    assert r["vigencia"]["data_referencia"] == prazo


def test_art4A_ano_sem_prazo_conhecido_exige_prazo_informado() -> None:
    assert erro(**{**BASE, "ano_meta": 2019}).campo == "prazo_comprovacao"
    r = caso(
        ano_meta=2019,
        meta_cbios=5000,
        cbios_aposentados=0,
        maior_media_mensal="43.53",
        prazo_comprovacao="2021-03-31",
    )
    assert r["valor"] == "217650.00"


def test_art4A_prazo_informado_prevalece_com_aviso() -> None:
    r = caso(
        ano_meta=2024, meta_cbios=2_000_000, cbios_aposentados=0, prazo_comprovacao="2025-03-31"
    )
    # the deadline given falls under the new wording: the R$ 500 milhões ceiling
    assert r["prazo_comprovacao"] == "2025-03-31"
    assert r["valor"] == "143400000.00"
    assert any("difere" in aviso for aviso in r["avisos"])


def test_data_referencia_e_se_a_lei_nova_valesse() -> None:
    r = caso(
        ano_meta=2024,
        meta_cbios=2_000_000,
        cbios_aposentados=0,
        maior_media_mensal="99.99",
        data_referencia="2025-01-01",
    )
    assert r["valor"] == "199980000.00"
    assert r["vigencia"]["data_referencia"] == "2025-01-01"


def test_data_referencia_e_se_a_lei_antiga_valesse() -> None:
    r = caso(meta_cbios=9_000_000, cbios_aposentados=0, data_referencia="2024-12-31")
    assert r["valor"] == "50000000.00"


def test_decreto_9308_art7_antes_do_decreto_9888() -> None:
    r = caso(data_referencia="2019-01-01")
    assert r["vigencia"]["redacao"].startswith("Decreto nº 9.308/2018")


def test_data_referencia_antes_do_renovabio_e_regime_nao_vigente() -> None:
    e = erro(**{**BASE, "data_referencia": "2017-01-01"})
    assert e.campo == "data_referencia"
    assert "não vigente" in e.mensagem


def test_memoria_cita_cada_passo() -> None:
    r = caso(
        faturamento_ano_meta="900000000",
        faturamento_ano_anterior="800000000",
        data_quitacao="2026-03-15",
    )
    fundamentos = [p["fundamento"] for p in r["passos"]]
    assert all(fundamentos)
    assert any("art. 6º, § 1º" in f for f in fundamentos)
    assert any("art. 6º, § 3º" in f for f in fundamentos)
    assert any("art. 6º-A, § 8º" in f for f in fundamentos)
    assert any("faturamento = media" in p["descricao"] for p in r["passos"])
    assert r["passos"][-1]["valor"] == r["valor"]


def test_exatamente_uma_forma_de_preco() -> None:
    sem = {k: v for k, v in BASE.items() if k != "maior_media_mensal"}
    assert erro(**sem).campo == "maior_media_mensal"
    e = erro(**{**BASE, "cotacoes_mensais": {"2025-01": "10"}})
    assert e.campo == "cotacoes_mensais"


def test_cotacao_diaria_repetida_e_erro() -> None:
    e = erro(
        **{
            **BASE,
            "maior_media_mensal": None,
            "cotacoes_diarias": [
                {"data": "2025-01-02", "preco": "1"},
                {"data": "2025-01-02", "preco": "2"},
            ],
        }
    )
    assert e.campo == "cotacoes_diarias[1].data"


@pytest.mark.parametrize(
    ("aposentados", "aviso"),
    [(8499, False), (8500, True), (9999, True), (10_000, False)],
)
def test_lei_13576_art7_regra_dos_85_por_cento_so_avisa(aposentados: int, aviso: bool) -> None:
    valores = {8499: "150100.00", 8500: "150000.00", 9999: "100000.00", 10_000: "0.00"}
    """≥ 85% and < 100% of the target: an aviso of the deferral; the value does not change."""
    r = caso(meta_cbios=10_000, cbios_aposentados=aposentados, maior_media_mensal="100")
    avisou = any("até 15%, no ano seguinte" in a for a in r["avisos"])
    assert avisou is aviso
    assert r["valor"] == valores[aposentados]


def test_art6A_par8_aviso_da_leitura_k_sobre_12() -> None:
    r = caso(
        meta_cbios=10_000,
        cbios_aposentados=0,
        maior_media_mensal="60.25",
        data_quitacao="2026-03-15",
    )
    assert any("multa × k/12, com k = 3 (meses ou fração)" in a for a in r["avisos"])
    sem = caso(meta_cbios=10_000, cbios_aposentados=0, maior_media_mensal="60.25")
    assert not any("k/12" in a for a in sem["avisos"])
