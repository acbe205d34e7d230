"""MP 1.205/2023 art. 6º: MOVER compensatory fines, per vehicle. Spec § 3.6."""

from __future__ import annotations

from typing import Any

import pytest

from multas import calcular
from tests.utils import calc, erro


def tanque(consumo: str, leitura: str | None = None, veiculos: int = 1) -> dict[str, Any]:
    extra: dict[str, Any] = {"interpretacao": {"faixa_superior": leitura}} if leitura else {}
    return calc(
        regime="mover.eficiencia",
        meta_mj_km="1.82",
        consumo_mj_km=consumo,
        veiculos=veiculos,
        **extra,
    )


@pytest.mark.parametrize(
    ("consumo", "por_veiculo"),
    [
        ("1.82", "0.00"),
        ("1.80", "0.00"),
        ("1.8201", "50.00"),  # art. 6º, I, a: "até o primeiro centésimo, inclusive"
        ("1.83", "50.00"),
        ("1.832", "90.00"),  # 0.012 falls in the second band (closed above)
        ("1.84", "90.00"),
        ("1.85", "270.00"),
        ("1.851", "1440.00"),  # alínea d, literal: 360 × 4
        ("1.87", "1800.00"),
    ],
)
def test_art6_inciso_I_faixas_do_tanque_a_roda(consumo: str, por_veiculo: str) -> None:
    assert tanque(consumo)["valor_por_veiculo"] == por_veiculo


@pytest.mark.parametrize(
    ("consumo", "literal", "marginal", "excedente"),
    [
        ("1.83", "50.00", "50.00", "50.00"),
        ("1.84", "90.00", "140.00", "90.00"),
        ("1.85", "270.00", "410.00", "270.00"),
        ("1.86", "1440.00", "770.00", "360.00"),
        ("1.88", "2160.00", "1490.00", "1080.00"),
    ],
)
def test_art6_inciso_I_alinea_d_tres_leituras(
    consumo: str, literal: str, marginal: str, excedente: str
) -> None:
    assert tanque(consumo, "literal")["valor"] == literal
    assert tanque(consumo, "marginal")["valor"] == marginal
    assert tanque(consumo, "excedente")["valor"] == excedente


def test_art6_inciso_II_poco_a_roda() -> None:
    r = calc(
        regime="mover.eficiencia", meta_gco2_km="95.0", emissao_gco2_km="101.2", veiculos=20000
    )
    assert (r["valor_por_veiculo"], r["valor"]) == ("3500.00", "70000000.00")
    assert r["valor_tanque_roda"] == "0.00"


def test_art6_paragrafo_unico_so_a_maior() -> None:
    r = calc(
        regime="mover.eficiencia",
        meta_mj_km="1.82",
        consumo_mj_km="1.855",
        meta_gco2_km="100",
        emissao_gco2_km="101.5",
        veiculos=1000,
    )
    assert (r["valor"], r["valor_tanque_roda"], r["valor_poco_roda"]) == (
        "1440000.00",
        "1440000.00",
        "125000.00",
    )


def test_numeros_json_exatos() -> None:
    r = calc(regime="mover.eficiencia", meta_mj_km=1.82, consumo_mj_km=1.83, veiculos=1)
    assert r["valor"] == "50.00"


def test_meio_par_e_erro() -> None:
    assert erro(regime="mover.eficiencia", meta_mj_km="1.82", veiculos=1).campo == "consumo_mj_km"
    assert erro(regime="mover.eficiencia", emissao_gco2_km="1", veiculos=1).campo == "meta_gco2_km"
    assert erro(regime="mover.eficiencia", veiculos=1).campo == "meta_mj_km"


def test_veiculos_ao_menos_um_e_inteiro() -> None:
    assert (
        erro(regime="mover.eficiencia", meta_mj_km="1", consumo_mj_km="2", veiculos=0).campo
        == "veiculos"
    )
    assert (
        erro(regime="mover.eficiencia", meta_mj_km="1", consumo_mj_km="2", veiculos="1.5").campo
        == "veiculos"
    )


def test_mover_nao_vigente_antes_da_mp() -> None:
    e = erro(
        regime="mover.eficiencia",
        meta_mj_km="1",
        consumo_mj_km="2",
        veiculos=1,
        data_referencia="2023-01-01",
    )
    assert e.campo == "data_referencia"


def test_aviso_por_veiculo_e_lei_de_conversao() -> None:
    base = {
        "regime": "mover.eficiencia",
        "meta_mj_km": "1.82",
        "consumo_mj_km": "1.83",
        "veiculos": 10,
    }
    depois = calcular({**base, "data_referencia": "2024-06-28"})["avisos"]
    antes = calcular({**base, "data_referencia": "2024-06-27"})["avisos"]
    assert any("Leitura do projeto (docs/leituras.md#faixa_superior)" in a for a in depois + antes)
    assert any("convertida na Lei nº 14.902/2024 (DOU 28/06/2024)" in a for a in depois)
    assert not any("14.902" in a for a in antes)


# --- what the user reads, pinned by equality --------------------------------------------------

AVISO_POR_VEICULO = (
    "Leitura do projeto (docs/leituras.md#faixa_superior): a multa é por veículo vendido no período, como no "
    'Inovar-Auto e no Rota 2030; o art. 6º da MP não diz "por veículo".'
)
AVISO_CONVERSAO = (
    " A MP nº 1.205/2023 foi convertida na Lei nº 14.902/2024 (DOU 28/06/2024), cujo artigo da "
    "multa não está transcrito nas fontes do projeto nem foi conferido: o texto aplicado é o da "
    "MP (texto não conferido; leitura mover-texto-da-mp, veja "
    "docs/leituras.md#mover-texto-da-mp)."
)
MP = "Medida Provisória nº 1.205/2023, art. 6º"


def _passos(r: dict[str, Any]) -> list[tuple[str, Any, str, str]]:
    return [(p["descricao"], p["valor"], p["tipo"], p["fundamento"]) for p in r["passos"]]


@pytest.mark.parametrize(
    ("dia", "avisos"),
    [("2024-06-27", [AVISO_POR_VEICULO]), ("2024-06-28", [AVISO_POR_VEICULO + AVISO_CONVERSAO])],
)
def test_mp_1205_art6_avisos_antes_e_depois_da_lei_14902(dia: str, avisos: list[str]) -> None:
    r = calc(
        regime="mover.eficiencia",
        meta_mj_km="1.82",
        consumo_mj_km="1.83",
        veiculos=10,
        data_referencia=dia,
    )
    assert (r["regime"], r["fundamento"]) == ("mover.eficiencia", MP)
    assert r["vigencia"]["data_referencia"] == dia
    assert r["avisos"] == avisos


@pytest.mark.parametrize(("dia", "vigente"), [("2023-12-29", False), ("2023-12-30", True)])
def test_mp_1205_vigente_desde_30_12_2023(dia: str, vigente: bool) -> None:
    campos: dict[str, Any] = {
        "regime": "mover.eficiencia",
        "meta_mj_km": "1.82",
        "consumo_mj_km": "1.83",
        "veiculos": 1,
        "data_referencia": dia,
    }
    if vigente:
        assert calcular(campos)["valor"] == "50.00"
        return
    e = erro(**campos)
    assert (e.campo, e.mensagem) == (
        "data_referencia",
        "regime não vigente: mover.eficiencia não existia na data de referência 29/12/2023 "
        "(vigente a partir de 30/12/2023)",
    )


def test_mp_1205_art6_I_c_marginal_com_tres_centesimos_nao_soma_a_alinea_d() -> None:
    r = tanque("1.85", "marginal", veiculos=2)
    assert _passos(r)[3] == (
        "Soma das faixas a + b + c, por veículo (leitura Faixa superior (alínea d): soma das faixas, como numa tabela progressiva)",
        "410.00",
        "quantia",
        f"{MP}, I, c (redação original)",
    )
    quatro = tanque("1.86", "marginal")
    assert _passos(quatro)[3] == (
        "Soma das faixas a + b + c + alínea d × (4 − 3), por veículo "
        "(leitura Faixa superior (alínea d): soma das faixas, como numa tabela progressiva)",
        "770.00",
        "quantia",
        f"{MP}, I, d (redação original)",
    )


def test_mp_1205_art6_meta_atendida_num_ciclo_e_descumprida_no_outro() -> None:
    r = calc(
        regime="mover.eficiencia",
        meta_mj_km="1.82",
        consumo_mj_km="1.80",
        meta_gco2_km="100",
        emissao_gco2_km="101",
        veiculos=3,
        data_referencia="2025-01-15",
    )
    assert _passos(r)[1:] == [
        (
            "Ciclo tanque à roda: alcançado − meta (1,80 − 1,82)",
            "-0.02",
            "numero",
            f"{MP}, I, alíneas a a d (redação original)",
        ),
        (
            "Ciclo tanque à roda: meta atendida, sem multa",
            "0.00",
            "quantia",
            f"{MP}, I, alíneas a a d (redação original)",
        ),
        (
            "Ciclo poço à roda: alcançado − meta (101 − 100)",
            "1",
            "numero",
            f"{MP}, II, alíneas a a d (redação original)",
        ),
        (
            "Ciclo poço à roda: gramas de CO2e/km acima da meta, arredondado para cima "
            '(as faixas são fechadas em cima: "inclusive")',
            "1",
            "inteiro",
            f"{MP}, II, alíneas a a d (redação original)",
        ),
        ("Faixa a, por veículo", "70.00", "quantia", f"{MP}, II, a (redação original)"),
        (
            "Multa: valor por veículo × 3 veículos vendidos (por veículo, como no Inovar-Auto e no "
            "Rota 2030)",
            "210.00",
            "quantia",
            f"{MP}, caput (redação original)",
        ),
        (
            "Multa devida",
            "210.00",
            "quantia",
            "multas: arredondamento único ao centavo, meio para cima (veja docs/contrato.md#arredondamento)",
        ),
    ]
    assert (r["valor_tanque_roda"], r["valor_poco_roda"], r["valor"]) == (
        "0.00",
        "210.00",
        "210.00",
    )


# --- spec v4 § 3.7 point 4 (mover-texto-da-mp) ------------------------------------------------


@pytest.mark.parametrize(("dia", "conferido"), [("2024-06-27", True), ("2024-06-28", False)])
def test_texto_conferido_falso_depois_da_lei_14902(dia: str, conferido: bool) -> None:
    r = calc(
        regime="mover.eficiencia",
        meta_mj_km="1.82",
        consumo_mj_km="1.83",
        veiculos=1,
        data_referencia=dia,
    )
    assert r["texto_conferido"] is conferido
    assert r["valor"] == "50.00"  # the MP's table either way
    assert ("não foi conferido" in r["vigencia"]["redacao"]) is not conferido


def test_texto_conferido_e_saida_do_catalogo() -> None:
    from multas.nucleo.regimes import REGIMES

    assert "texto_conferido" in REGIMES["mover.eficiencia"].saidas
