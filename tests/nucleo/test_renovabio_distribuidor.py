"""Decreto 9.888/2019 art. 6º (and art. 6º-A § 8º): the distributor's fine. Spec §§ 2, 3.1."""

from __future__ import annotations

from typing import Any

import pytest

from multas import calcular
from tests.utils import calc, erro

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
    assert any("Faturamento: média dos dois anos" in p["descricao"] for p in r["passos"])
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


# --- what the user reads, pinned by equality --------------------------------------------------

ART6 = "Decreto nº 9.888/2019, art. 6º"
REDACAO_2025 = f"{ART6} (redação dada pelo Decreto nº 12.437/2025)"
SEM_FATURAMENTO = (
    "Faturamentos não informados: o limite de 5% do faturamento (Decreto nº 9.888/2019, art. 6º, "
    "§ 3º) não foi aplicado."
)
PAR8 = "Decreto nº 9.888/2019, art. 6º-A, § 8º (incluído pelo Decreto nº 12.437/2025)"
DOZE_MIL = {"meta_cbios": 12_000, "cbios_aposentados": 0, "maior_media_mensal": "100"}


def _passos(r: dict[str, Any], de: int = 0) -> list[tuple[str, Any, str, str]]:
    return [(p["descricao"], p["valor"], p["tipo"], p["fundamento"]) for p in r["passos"][de:]]


def test_art6_par1_meta_atendida_resultado_completo() -> None:
    r = caso(cbios_aposentados=1_000_000)
    assert (r["regime"], r["valor"], r["fundamento"]) == ("renovabio.distribuidor", "0.00", ART6)
    assert r["prazo_comprovacao"] == "2025-12-31"
    assert r["vigencia"] == {"data_referencia": "2025-12-31", "redacao": REDACAO_2025}
    assert (r["avisos"], r["alternativas"]) == ([], [])
    assert _passos(r, 2) == [
        (
            "CBIOs não adquiridos: meta individual − CBIOs aposentados (mínimo zero)",
            "0",
            "inteiro",
            "Decreto nº 9.888/2019, art. 6º, § 1º (redação original; data não conferida)",
        ),
        (
            "Meta individual atendida: não há multa",
            "0.00",
            "quantia",
            "Decreto nº 9.888/2019, art. 6º, § 1º (redação original; data não conferida)",
        ),
    ]


ENTRE = "entre o piso de R$ 100.000,00 e o teto de R$ {}: aplica-se o valor calculado"
ENTRE_2024 = ENTRE.format("50.000.000,00")
ENTRE_2025 = ENTRE.format("500.000.000,00")


@pytest.mark.parametrize(
    ("meta", "passo"),
    [
        (
            999,
            (
                "Valor obtido de R$ 99.900,00 inferior ao piso de R$ 100.000,00: aplica-se o "
                "piso (caso do piso)",
                "100000.00",
            ),
        ),
        (1000, (f"Valor obtido de R$ 100.000,00 {ENTRE_2025}", "100000.00")),
        (1001, (f"Valor obtido de R$ 100.100,00 {ENTRE_2025}", "100100.00")),
    ],
)
def test_art6_par2_I_piso_abaixo_no_e_acima(meta: int, passo: tuple[str, str]) -> None:
    r = caso(meta_cbios=meta, cbios_aposentados=0, maior_media_mensal="100")
    assert _passos(r)[5][:2] == passo
    assert r["valor"] == passo[1]


@pytest.mark.parametrize(
    ("ano_meta", "meta", "preco", "passo"),
    [
        # the 2024 target (deadline 31/12/2024): R$ 50 milhões
        (2024, 500_000, "100", f"Valor obtido de R$ 50.000.000,00 {ENTRE_2024}"),
        (
            2024,
            500_000,
            "100.01",
            "Valor obtido de R$ 50.005.000,00 superior ao teto de R$ 50.000.000,00: aplica-se "
            "o teto",
        ),
        # from the 2025 target: R$ 500 milhões
        (2025, 5_000_000, "100", f"Valor obtido de R$ 500.000.000,00 {ENTRE_2025}"),
        (
            2025,
            5_000_000,
            "100.01",
            "Valor obtido de R$ 500.050.000,00 superior ao teto de R$ 500.000.000,00: "
            "aplica-se o teto",
        ),
    ],
)
def test_art6_par2_II_teto_no_limite_e_um_centavo_acima(
    ano_meta: int, meta: int, preco: str, passo: str
) -> None:
    r = caso(ano_meta=ano_meta, meta_cbios=meta, cbios_aposentados=0, maior_media_mensal=preco)
    teto = "50000000.00" if ano_meta == 2024 else "500000000.00"
    assert (_passos(r)[5][0], r["valor"]) == (passo, teto)


@pytest.mark.parametrize(
    ("faturamento", "passo", "valor"),
    [
        (
            "24000000",
            "Multa de R$ 1.200.000,00 não supera o limite do faturamento (R$ 1.200.000,00): "
            "mantida",
            "1200000.00",
        ),
        (
            "23999999.80",
            "Multa de R$ 1.200.000,00 acima do limite do faturamento (R$ 1.199.999,99), que não "
            "fica abaixo do piso legal (R$ 100.000,00): multa limitada ao percentual do "
            "faturamento",
            "1199999.99",
        ),
    ],
)
def test_art6_par3_multa_igual_ao_limite_e_mantida(
    faturamento: str, passo: str, valor: str
) -> None:
    r = caso(**DOZE_MIL, faturamento_ano_meta=faturamento, faturamento_ano_anterior=faturamento)
    par3 = "Decreto nº 9.888/2019, art. 6º, § 3º (redação original; data não conferida)"
    assert _passos(r, -2)[0] == (passo, valor, "quantia", par3)
    assert (r["valor"], r["avisos"]) == (valor, [])


def test_art6_par3_limite_igual_ao_piso_nao_e_abaixo_dele() -> None:
    # 5% of R$ 2.000.000,00 = R$ 100.000,00: the cap is the floor, not below it: no aviso
    r = caso(**DOZE_MIL, faturamento_ano_meta="2000000", faturamento_ano_anterior="2000000")
    assert _passos(r, -2)[0] == (
        "Multa de R$ 1.200.000,00 acima do limite do faturamento (R$ 100.000,00), que não fica "
        "abaixo do piso legal (R$ 100.000,00): multa limitada ao percentual do faturamento",
        "100000.00",
        "quantia",
        "Decreto nº 9.888/2019, art. 6º, § 3º (redação original; data não conferida)",
    )
    assert (r["valor"], r["avisos"], r["alternativas"]) == ("100000.00", [], [])


def test_art6_par3_sem_faturamento_aviso_completo() -> None:
    assert caso()["avisos"] == [SEM_FATURAMENTO]


@pytest.mark.parametrize(
    ("quitacao", "ultimos"),
    [
        # k = 1: 1.200.000 / 12 = 100.000,00, exactly the floor: kept, no floor step
        (
            "2026-01-01",
            [("Multa reduzida à razão de 1/12 ao mês: multa × 1 × 1/12", "100000.00")],
        ),
        # k = 11: the last month with a reduction
        (
            "2026-11-30",
            [("Multa reduzida à razão de 1/12 ao mês: multa × 11 × 1/12", "1100000.00")],
        ),
        # k = 12: no reduction
        (
            "2026-12-01",
            [
                (
                    "Quitação após 11 meses do prazo de comprovação (depois de 30/11/2026): "
                    "sem redução",
                    "1200000.00",
                )
            ],
        ),
    ],
)
def test_art6A_par8_reducao_no_piso_exato_e_k_11_e_12(
    quitacao: str, ultimos: list[tuple[str, str]]
) -> None:
    r = caso(**DOZE_MIL, data_quitacao=quitacao)
    assert [(d, v) for d, v, _, _ in _passos(r, -1 - len(ultimos))[:-1]] == ultimos
    assert r["passos"][-2]["fundamento"] == PAR8


def test_art6A_par8_reduzida_abaixo_do_piso_volta_ao_piso() -> None:
    r = caso(
        meta_cbios=11_999, cbios_aposentados=0, maior_media_mensal="100", data_quitacao="2026-01-01"
    )
    assert _passos(r, -3)[:2] == [
        (
            "Multa reduzida à razão de 1/12 ao mês: multa × 1 × 1/12",
            "99991.6666666666…",
            "quantia",
            PAR8,
        ),
        (
            "Respeitado o limite inferior: a multa reduzida não fica abaixo do piso",
            "100000.00",
            "quantia",
            PAR8,
        ),
    ]


def test_art6A_par8_aviso_k_12_completo() -> None:
    r = caso(**DOZE_MIL, data_quitacao="2026-01-01")
    assert r["avisos"] == [
        SEM_FATURAMENTO,
        "Leitura do projeto (Meses da redução: mês ou fração conta como mês; veja "
        "docs/leituras.md#meses_reducao): a "
        'redução "à razão de 1/12 ao mês" é lida como multa × k/12, com k = 1 (meses ou '
        "fração) do prazo de comprovação até a quitação; a outra leitura conta meses completos "
        "(Meses da redução: só meses completos). O Decreto nº 9.888/2019, art. 6º-A, § 8º "
        'remete ao "regulamento da ANP", que não foi localizado; confira se ele dispõe de outro '
        "modo.",
    ]


@pytest.mark.parametrize(("quitacao", "aceita"), [("2025-12-31", False), ("2026-01-01", True)])
def test_art6A_par8_quitacao_no_prazo_e_no_dia_seguinte(quitacao: str, aceita: bool) -> None:
    if aceita:
        assert caso(**DOZE_MIL, data_quitacao=quitacao)["valor"] == "100000.00"
        return
    e = erro(**{**BASE, **DOZE_MIL, "data_quitacao": quitacao})
    assert (e.campo, e.mensagem) == (
        "data_quitacao",
        "a quitação (31/12/2025) deve ser posterior ao prazo de comprovação (31/12/2025)",
    )


def test_lei_13576_art7_regra_dos_85_aviso_completo() -> None:
    r = caso(**{**DOZE_MIL, "cbios_aposentados": 10_200})
    assert r["avisos"] == [
        SEM_FATURAMENTO,
        "85% da meta foram comprovados (ao menos 85%): se o distribuidor cumpriu integralmente a "
        "meta do ano anterior, pode comprovar o restante, até 15%, no ano seguinte (Lei nº "
        "13.576/2017, art. 7º, como a ANP o aplica; o texto do parágrafo não está transcrito nas "
        "fontes do projeto). Nesse caso não há multa neste ano e os CBIOs adiados somam-se à meta "
        "do ano seguinte. A multa de R$ 180.000,00 calculada aqui não considera essa "
        "hipótese.",
    ]


@pytest.mark.parametrize(
    ("campos", "com_aviso"),
    [
        ({}, True),
        ({"falta_anterior": 0}, True),
        ({"falta_anterior": 100}, False),  # the year before was not met, or was deferred
        ({"meta_anterior_cumprida": False}, False),
        ({"cbios_aposentados": 10_199}, False),  # below 85%
    ],
)
def test_aviso_do_diferimento_so_onde_ele_pode_valer(
    campos: dict[str, Any], com_aviso: bool
) -> None:
    """Spec § 3.7, W12: the 85% aviso only where the deferral can apply, naming the value it
    refers to, never "abaixo" or "acima"."""
    r = caso(**{**DOZE_MIL, "cbios_aposentados": 10_200, **campos})
    avisos = [a for a in r["avisos"] if "no ano seguinte" in a]
    assert bool(avisos) is com_aviso
    for aviso in avisos:
        assert "abaixo" not in aviso and "acima" not in aviso


@pytest.mark.parametrize(
    ("prazo", "avisos"),
    [
        ("2025-12-31", [SEM_FATURAMENTO]),  # the table's own deadline: nothing to warn
        (
            "2026-03-31",
            [
                "O prazo de comprovação informado (31/03/2026) difere do previsto para a meta de "
                "2025, 31/12/2025 (Lei nº 13.576/2017, art. 7º, § 2º, na redação da Lei nº "
                "15.082/2024); usado o informado.",
                SEM_FATURAMENTO,
            ],
        ),
    ],
)
def test_art4A_prazo_informado_igual_ou_diferente_da_tabela(prazo: str, avisos: list[str]) -> None:
    r = caso(prazo_comprovacao=prazo)
    assert r["avisos"] == avisos
    assert _passos(r)[0] == (
        "Prazo de comprovação da meta de 2025 (informado)",
        prazo,
        "data",
        "Decreto nº 9.888/2019, art. 4º-A (prazo informado pelo usuário)",
    )


def test_art4A_ano_sem_prazo_conhecido_mensagem() -> None:
    e = erro(**{**BASE, "ano_meta": 2019})
    assert (e.campo, e.mensagem) == (
        "prazo_comprovacao",
        "não há prazo de comprovação conhecido para a meta de 2019; informe prazo_comprovacao",
    )


@pytest.mark.parametrize(
    ("campos", "campo"),
    [
        ({"ano_meta": 2017, "prazo_comprovacao": "2018-03-15"}, "prazo_comprovacao"),
        ({"data_referencia": "2018-03-15"}, "data_referencia"),
    ],
)
def test_decreto_9308_vigente_desde_16_03_2018(campos: dict[str, Any], campo: str) -> None:
    e = erro(**{**BASE, **campos})
    assert (e.campo, e.mensagem) == (
        campo,
        "regime não vigente: renovabio.distribuidor não existia na data de referência "
        "15/03/2018 (vigente a partir de 16/03/2018)",
    )
    r = caso(ano_meta=2017, prazo_comprovacao="2018-03-16")
    assert r["vigencia"] == {
        "data_referencia": "2018-03-16",
        "redacao": "Decreto nº 9.308/2018, art. 7º (redação original)",
    }
    assert r["fundamento"] == "Decreto nº 9.308/2018, art. 7º"


@pytest.mark.parametrize(
    ("dia", "redacao"),
    [
        ("2019-06-27", "Decreto nº 9.308/2018, art. 7º (redação original)"),
        ("2019-06-28", "Decreto nº 9.888/2019, art. 6º (redação original)"),
        ("2024-12-31", "Decreto nº 9.888/2019, art. 6º (redação original)"),
        ("2025-01-01", REDACAO_2025),
    ],
)
def test_redacao_nos_dois_lados_de_cada_mudanca(dia: str, redacao: str) -> None:
    r = caso(data_referencia=dia)
    assert r["vigencia"] == {"data_referencia": dia, "redacao": redacao}
    assert r["fundamento"] == redacao.split(" (")[0]


@pytest.mark.parametrize(
    ("campo", "cotacoes"),
    [
        ("cotacoes_mensais", {"2024-12": "99", "2026-01": "1"}),
        (
            "cotacoes_diarias",
            [{"data": "2024-12-30", "preco": "1"}, {"data": "2026-01-02", "preco": "2"}],
        ),
    ],
)
def test_art6_par1_nenhuma_cotacao_no_exercicio_nomeia_o_campo(campo: str, cotacoes: Any) -> None:
    e = erro(**{**BASE, "maior_media_mensal": None, campo: cotacoes})
    assert (e.campo, e.mensagem) == (campo, "nenhuma cotação no exercício de 2025")


def test_art6_par1_cotacoes_ignoradas_listadas_no_aviso() -> None:
    r = caso(
        maior_media_mensal=None,
        cotacoes_mensais={"2025-03": "60", "2024-12": "99", "2026-01": "1"},
    )
    assert r["avisos"] == [
        "Cotações fora do exercício de 2025 foram ignoradas: 2024-12, 2026-01.",
        "as cotações não cobrem todo o exercício de 2025 (sem cotações em 01/2025, 02/2025, "
        "04/2025, 05/2025, 06/2025, 07/2025, 08/2025, 09/2025, 10/2025, 11/2025, 12/2025): a "
        "maior média mensal do exercício pode ser outra",
        SEM_FATURAMENTO,
    ]
    assert _passos(r)[3] == (
        "Maior média mensal das cotações do CBIO em 2025 (03/2025): R$ 60,0000 "
        "(fonte: cotações informadas na entrada)",
        "60.00",
        "quantia",
        "Decreto nº 9.888/2019, art. 6º, § 1º (redação original; data não conferida)",
    )


def test_leitura_completos_aponta_a_leitura_fracao_como_a_outra() -> None:
    r = caso(**DOZE_MIL, data_quitacao="2026-01-01", interpretacao={"meses_reducao": "completos"})
    aviso = next(a for a in r["avisos"] if "meses_reducao" in a)
    assert "(Meses da redução: só meses completos;" in aviso
    assert "(Meses da redução: mês ou fração conta como mês)." in aviso


# --- the deferral (issue 19: meta_anterior_cumprida, diferir) ----------------------------------


def _fracao_diferivel() -> Any:
    from datetime import date

    from multas.nucleo.legislacao import Lei, carregar

    return Lei(carregar(), date(2025, 12, 31))["ciclo.diferimento"].fracao


def test_diferimento_toda_a_falta_dentro_da_fracao_sem_multa() -> None:
    from multas.nucleo.dinheiro import formatar_percentual

    fracao = _fracao_diferivel()
    percentual = formatar_percentual(fracao)
    dentro = int(fracao * 1_000_000)  # the largest shortfall deferred
    r = caso(cbios_aposentados=1_000_000 - dentro, meta_anterior_cumprida=True)
    assert r["valor"] == "0.00" and r["avisos"] == []
    descricoes = [p["descricao"] for p in r["passos"]]
    assert descricoes[-3:] == [
        f"CBIOs diferidos ao ano seguinte: a falta cabe em {percentual} da meta e a meta do ano "
        "anterior foi cumprida integralmente (meta_anterior_cumprida); somam-se à meta do ano seguinte",
        "CBIOs multados neste ano: não adquiridos − diferidos",
        "Toda a falta foi diferida: não há multa neste ano",
    ]
    assert [p["valor"] for p in r["passos"][-3:-1]] == [str(dentro), "0"]
    assert r["passos"][-3]["fundamento"].startswith("Lei nº 13.576/2017, art. 7º")
    # one CBIO more: no deferral, the whole shortfall fined, and the aviso says why
    r = caso(cbios_aposentados=1_000_000 - dentro - 1, meta_anterior_cumprida=True)
    assert r["valor"] == caso(cbios_aposentados=1_000_000 - dentro - 1)["valor"] != "0.00"
    assert (
        f"Sem diferimento da falta para o ano seguinte: a falta passa de {percentual} da meta."
        in r["avisos"]
    )


@pytest.mark.parametrize(
    ("campos", "motivo"),
    [
        (
            {"meta_anterior_cumprida": False},
            "a meta do ano anterior não foi cumprida integralmente",
        ),
        (
            {"meta_anterior_cumprida": True, "diferir": False},
            "o distribuidor não usa o diferimento (diferir = false)",
        ),
    ],
)
def test_diferimento_negado_multa_a_falta_inteira(campos: dict[str, Any], motivo: str) -> None:
    sem = caso(cbios_aposentados=900_000)
    r = caso(cbios_aposentados=900_000, **campos)
    assert r["valor"] == sem["valor"] != "0.00"
    assert f"Sem diferimento da falta para o ano seguinte: {motivo}." in r["avisos"]
    # the 85% aviso is for a case that does not say whether the previous year was met
    assert any("foram comprovados (ao menos" in a for a in sem["avisos"])
    assert not any("foram comprovados (ao menos" in a for a in r["avisos"])


def test_diferimento_sem_o_campo_e_exatamente_o_paragrafo_3_1() -> None:
    assert caso(cbios_aposentados=900_000, diferir=True) == caso(cbios_aposentados=900_000)
    assert erro(**BASE, meta_anterior_cumprida="talvez").campo == "meta_anterior_cumprida"


def test_falta_de_um_cbio_toda_diferida_nao_tem_multa() -> None:
    """The smallest shortfall (1 CBIO), within 15% of the target, with the previous year met:
    deferred whole, so the year has no fine; the memória says so in reais, and the result
    keeps the year's deadline."""
    from multas import calcular

    caso = {
        "regime": "renovabio.distribuidor",
        "ano_meta": 2025,
        "meta_cbios": 1000000,
        "cbios_aposentados": 999999,
        "maior_media_mensal": "71.70",
        "faturamento_ano_meta": "900000000.00",
        "faturamento_ano_anterior": "800000000.00",
        "meta_anterior_cumprida": True,
    }
    r = calcular(caso)
    assert (r["regime"], r["valor"]) == ("renovabio.distribuidor", "0.00")
    assert r["prazo_comprovacao"] == "2025-12-31"
    passos = [(p["descricao"], p["valor"]) for p in r["passos"]]
    assert passos[-3][1] == "1" and passos[-3][0].startswith("CBIOs diferidos ao ano seguinte")
    assert passos[-2:] == [
        ("CBIOs multados neste ano: não adquiridos − diferidos", "0"),
        ("Toda a falta foi diferida: não há multa neste ano", "0.00"),
    ]


def test_prazo_de_2024_cita_o_decreto_11499_sem_transcrever() -> None:
    """Spec § 3.7 point 7 (prazo-2024-decreto-11499): the 2024 deadline rests on Decreto
    11.499/2023, cited with nothing quoted (its text is not transcribed); from the 2025 target
    the deadline is also Lei 13.576 art. 7º § 2º, whose text is shipped and quoted."""

    def passo_do_prazo(ano_meta: int) -> dict[str, Any]:
        r = calcular(
            {
                "regime": "renovabio.distribuidor",
                "ano_meta": ano_meta,
                "meta_cbios": 1000,
                "cbios_aposentados": 0,
                "maior_media_mensal": "100",
            }
        )
        (passo,) = [p for p in r["passos"] if p["descricao"].startswith("Prazo de comprovação")]
        return passo

    p24 = passo_do_prazo(2024)
    assert p24["valor"] == "2024-12-31"
    assert "Decreto nº 11.499/2023" in p24["fundamento"]
    assert "texto não transcrito" in p24["fundamento"] and p24["texto"] is None
    p25 = passo_do_prazo(2025)
    assert p25["fundamento"].startswith("Lei nº 13.576/2017, art. 7º, § 2º")
    assert p25["texto"] and "31 de dezembro de cada ano" in p25["texto"]
