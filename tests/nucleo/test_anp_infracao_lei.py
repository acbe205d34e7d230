"""Lei 9.847/1999 art. 3º by its own numbering (``norma = lei-9847``, the default of spec § 3.4
v4): every inciso up to the last one known (XIX), the law's range where it is transcribed (I–V),
the unverified XIII with an aviso, no range where the text is not transcribed, the decree's pair
as the other reading, and ``data_infracao``."""

from __future__ import annotations

from typing import Any

import pytest

from tests.utils import calc, erro

DIA = "2022-03-10"


def lei(**campos: Any) -> dict[str, Any]:
    campos.setdefault("data_infracao", DIA)
    return calc(regime="anp.infracao", **campos)


@pytest.mark.parametrize("inciso", ["XI", "XII", "XV", "XIX", "vi"])
def test_inciso_sem_texto_transcrito_nao_tem_faixa_e_cita_o_inciso(inciso: str) -> None:
    r = lei(inciso=inciso)
    assert (r["valor_minimo"], r["valor_maximo"], r["valor"]) == (None, None, None)
    assert r["fundamento"] == f"Lei nº 9.847/1999, art. 3º, {inciso.upper()}"
    assert r["vigencia"]["redacao"] == f"{r['fundamento']} (texto não transcrito)"
    assert r["norma"] == "lei-9847"
    assert any("não está transcrito" in a and "sem faixa" in a for a in r["avisos"])
    assert r["alternativas"] == []  # no decree pair: the other reading is left out


def test_valor_dado_sem_faixa_e_ecoado_com_aviso() -> None:
    """The ANP's 2022 case of off-spec ethanol: R$ 20 mil under the law's XI, never refused
    with the decree's numbering as v3 did."""
    r = lei(inciso="XI", valor="20000")
    assert r["valor"] == "20000.00"
    assert any("R$ 20.000,00" in a and "não conferido" in a for a in r["avisos"])


@pytest.mark.parametrize("inciso", ["XX", "XXXIX"])
def test_inciso_alem_do_ultimo_conhecido_e_erro_que_nomeia_o_xix(inciso: str) -> None:
    e = erro(regime="anp.infracao", inciso=inciso, data_infracao=DIA)
    assert e.campo == "inciso"
    assert "o último inciso conhecido é o XIX" in e.mensagem


def test_xix_existe_na_lei_mas_nao_no_decreto() -> None:
    assert lei(inciso="XIX")["valor_minimo"] is None
    e = erro(regime="anp.infracao", inciso="XIX", norma="decreto-2953", data_infracao=DIA)
    assert (e.campo, "o último inciso conhecido é o XIV" in e.mensagem) == ("inciso", True)


def test_xiii_faixa_nao_conferida_com_aviso_e_valor_fora_dela_e_aviso_nao_erro() -> None:
    r = lei(inciso="XIII", valor="40000")
    assert (r["valor_minimo"], r["valor_maximo"], r["valor"]) == (
        "50000.00",
        "1000000.00",
        "40000.00",
    )
    assert any("fonte secundária" in a for a in r["avisos"])
    assert any(
        "valor fora da faixa do inciso XIII, que não foi conferida no texto da lei" in a
        for a in r["avisos"]
    )
    # the decree's XIII, paired by subject, is the other reading; 40.000 lies outside it
    assert r["alternativas"] == [
        {
            "interpretacao": {"faixa": "decreto"},
            "valor": None,
            "valor_minimo": "100000.00",
            "valor_maximo": "1000000.00",
        }
    ]


def test_faixa_decreto_usa_o_inciso_pareado_ou_e_erro_sem_par() -> None:
    r = lei(inciso="XIII", interpretacao={"faixa": "decreto"})
    assert (r["valor_minimo"], r["fundamento"]) == (
        "100000.00",
        "Decreto nº 2.953/1999, art. 28, XIII",
    )
    assert r["vigencia"]["redacao"].startswith("Decreto nº 2.953/1999, art. 28, XIII (")
    e = erro(
        regime="anp.infracao", inciso="XI", data_infracao=DIA, interpretacao={"faixa": "decreto"}
    )
    assert e.campo == "interpretacao.faixa"


def test_faixa_conferida_fora_e_erro() -> None:
    e = erro(regime="anp.infracao", inciso="II", valor="19999.99", data_infracao=DIA)
    assert e.campo == "valor"


def test_sem_norma_incisos_vi_a_xiv_avisam_que_a_numeracao_e_a_da_lei() -> None:
    aviso = '"norma": "decreto-2953"'
    assert any(aviso in a for a in lei(inciso="IX")["avisos"])
    assert not any(aviso in a for a in lei(inciso="IX", norma="lei-9847")["avisos"])
    assert not any(aviso in a for a in lei(inciso="II")["avisos"])
    assert not any(aviso in a for a in lei(inciso="XV")["avisos"])


def test_redacao_em_vigor_na_data_nao_conferida() -> None:
    r = lei(inciso="II")
    assert r["vigencia"]["data_referencia"] == DIA
    assert any("a redação em vigor em 10/03/2022 não foi conferida" in a for a in r["avisos"])


def test_data_referencia_prevalece_sobre_data_infracao() -> None:
    r = lei(inciso="II", data_referencia="2026-01-15")
    assert r["vigencia"]["data_referencia"] == "2026-01-15"
    # 2026: the 2025 aviso on the decree names only what rests on it (W9)
    assert any("os critérios de dosimetria do art. 25" in a for a in r["avisos"])


def test_antes_da_lei_inciso_pareado_da_a_faixa_do_decreto_e_o_sem_par_nao_vige() -> None:
    r = lei(inciso="II", data_infracao="1999-06-01")
    assert (r["valor_minimo"], r["valor_maximo"]) == ("500000.00", "5000000.00")
    assert r["alternativas"] == []
    e = erro(regime="anp.infracao", inciso="XI", data_infracao="1999-06-01")
    assert e.mensagem.startswith("regime não vigente")


@pytest.mark.parametrize(
    ("caso", "citado"),
    [
        ({}, "Lei nº 9.847/1999, art. 3º, caput"),
        ({"interpretacao": {"faixa": "decreto"}}, "Decreto nº 2.953/1999, art. 28, caput"),
        ({"data_infracao": "1999-06-01"}, "Decreto nº 2.953/1999, art. 28, caput"),
        ({"data_infracao": None, "data_referencia": "2026-01-15"}, "Lei nº 9.847/1999, art. 3º"),
        ({"regime": "anp.auto", "inciso": None, "infracoes": [{"inciso": "II"}]}, "Lei nº 9.847"),
    ],
)
def test_lei_aplicada_cita_o_artigo_das_faixas_e_nao_o_art_24(
    caso: dict[str, Any], citado: str
) -> None:
    """W8: the "Lei aplicada" step cites the article whose ranges apply (art. 24 only defines
    the fine)."""
    dados = {"regime": "anp.infracao", "inciso": "II", "data_infracao": DIA, **caso}
    passo = calc(**{k: v for k, v in dados.items() if v is not None})["passos"][0]
    assert passo["descricao"].startswith("Lei aplicada")
    assert passo["fundamento"].startswith(citado)
    assert "art. 24" not in passo["fundamento"]


@pytest.mark.parametrize("norma", ["lei", "decreto", "LEI-9847", 9847, ""])
def test_norma_invalida(norma: object) -> None:
    assert erro(regime="anp.infracao", inciso="II", norma=norma).campo == "norma"


def test_incisos_da_lei_de_i_ao_ultimo_conhecido_em_ordem() -> None:
    from multas.nucleo.legislacao import carregar
    from multas.nucleo.regimes.anp_infracao import incisos_da_lei

    assert incisos_da_lei(carregar()) == (
        [
            "I",
            "II",
            "III",
            "IV",
            "V",
            "VI",
            "VII",
            "VIII",
            "IX",
            "X",
            "XI",
            "XII",
            "XIII",
            "XIV",
            "XV",
            "XVI",
            "XVII",
            "XVIII",
            "XIX",
        ]
    )


@pytest.mark.parametrize(
    ("romano", "valor"),
    [("I", 1), ("IV", 4), ("IX", 9), ("XIV", 14), ("XIX", 19), ("XXIV", 24), ("XXXIX", 39)],
)
def test_numero_do_inciso(romano: str, valor: int) -> None:
    from multas.nucleo.regimes.anp_infracao import numero

    assert numero(romano) == valor
