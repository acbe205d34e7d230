"""Lei 9.847/1999 art. 3º (the default range, for incisos I–V), Decreto 2.953/1999 art. 28
(Faixa da multa: a do decreto, and VI–XIV under both), art. 25 (criteria). Spec § 3.4, the
decree's numbering (``norma = decreto-2953``: the v3 contract, unchanged); the law's own
numbering is tests/nucleo/test_anp_infracao_lei.py's."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from tests.utils import calc, erro

DEPOIS_DA_LEI = "2026-01-15"

FAIXAS_DECRETO = {
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
FAIXAS_LEI = {
    "I": ("50000.00", "200000.00"),
    "II": ("20000.00", "5000000.00"),
    "III": ("5000.00", "1000000.00"),
    "IV": ("5000.00", "10000.00"),
    "V": ("20000.00", "1000000.00"),
}


def infracao(**campos: Any) -> dict[str, Any]:
    campos.setdefault("norma", "decreto-2953")
    return calc(regime="anp.infracao", data_referencia=DEPOIS_DA_LEI, **campos)


@pytest.mark.parametrize(("inciso", "faixa"), FAIXAS_LEI.items())
def test_lei_9847_art3_faixa_dos_incisos_I_a_V(inciso: str, faixa: tuple[str, str]) -> None:
    r = infracao(inciso=inciso.lower())
    assert (r["valor_minimo"], r["valor_maximo"]) == faixa
    assert r["valor"] is None
    assert r["fundamento"] == f"Lei nº 9.847/1999, art. 3º, {inciso}"
    assert r["interpretacao"] == {"faixa": "lei"}
    assert any("redação original, de 1999, não está transcrita" in a for a in r["avisos"])


@pytest.mark.parametrize(("inciso", "faixa"), FAIXAS_DECRETO.items())
def test_decreto_2953_art28_faixa_de_cada_inciso(inciso: str, faixa: tuple[str, str]) -> None:
    r = infracao(inciso=inciso, interpretacao={"faixa": "decreto"})
    assert (r["valor_minimo"], r["valor_maximo"]) == faixa
    assert r["fundamento"] == f"Decreto nº 2.953/1999, art. 28, {inciso}"


@pytest.mark.parametrize("inciso", ["VI", "IX", "XIV"])
def test_lei_sem_texto_transcrito_usa_a_faixa_do_decreto_e_avisa(inciso: str) -> None:
    r = infracao(inciso=inciso)
    assert (r["valor_minimo"], r["valor_maximo"]) == FAIXAS_DECRETO[inciso]
    assert r["fundamento"] == f"Decreto nº 2.953/1999, art. 28, {inciso}"
    assert any(
        f"inciso {inciso} da Lei nº 9.847/1999, art. 3º, não está transcrito" in a
        for a in r["avisos"]
    )
    assert r["alternativas"] == []


@pytest.mark.parametrize(("inciso", "iguais"), [("I", True), ("II", False), ("V", False)])
def test_alternativas_comparam_faixas_e_nao_valores(inciso: str, iguais: bool) -> None:
    r = infracao(inciso=inciso)
    if iguais:
        assert r["alternativas"] == []
        return
    minimo, maximo = FAIXAS_DECRETO[inciso]
    assert r["alternativas"] == [
        {
            "interpretacao": {"faixa": "decreto"},
            "valor": None,
            "valor_minimo": minimo,
            "valor_maximo": maximo,
        }
    ]


def test_alternativa_traz_o_valor_so_se_ele_cabe_na_outra_faixa() -> None:
    dentro = infracao(inciso="II", valor="500000.00")["alternativas"][0]
    fora = infracao(inciso="II", valor="499999.99")["alternativas"][0]
    assert dentro["valor"] == "500000.00"
    assert fora["valor"] is None


@pytest.mark.parametrize(
    ("valor", "aceito"),
    [("19999.99", False), ("20000.00", True), ("5000000.00", True), ("5000000.01", False)],
)
def test_lei_valor_nos_extremos_da_faixa(valor: str, aceito: bool) -> None:
    if aceito:
        assert infracao(inciso="II", valor=valor)["valor"] == valor
        return
    e = erro(regime="anp.infracao", inciso="II", valor=valor, data_referencia=DEPOIS_DA_LEI)
    assert e.campo == "valor"
    assert e.mensagem == (
        "fora da faixa de R$ 20.000,00 a R$ 5.000.000,00 (Lei nº 9.847/1999, art. 3º, II; "
        "leitura Faixa da multa: a da lei, que prevalece sobre o decreto)"
    )


@pytest.mark.parametrize(
    ("valor", "aceito"),
    [("199999.99", False), ("200000", True), ("2000000.00", True), ("2000000.01", False)],
)
def test_decreto_valor_nos_extremos_da_faixa(valor: str, aceito: bool) -> None:
    campos: dict[str, Any] = {"inciso": "IX", "valor": valor}
    if aceito:
        assert infracao(**campos)["valor"] == f"{Decimal(valor):.2f}"
        return
    e = erro(regime="anp.infracao", data_referencia=DEPOIS_DA_LEI, norma="decreto-2953", **campos)
    assert e.campo == "valor"
    assert "de R$ 200.000,00 a R$ 2.000.000,00" in e.mensagem


@pytest.mark.parametrize(
    ("dia", "faixa"),
    [
        ("1999-10-26", FAIXAS_DECRETO["II"]),  # the day before the law: the decree's range
        ("1999-10-27", FAIXAS_LEI["II"]),  # in force from its publication
    ],
)
def test_antes_de_27_10_1999_as_duas_leituras_dao_a_faixa_do_decreto(
    dia: str, faixa: tuple[str, str]
) -> None:
    r = calc(regime="anp.infracao", inciso="II", data_referencia=dia)
    assert (r["valor_minimo"], r["valor_maximo"]) == faixa
    assert (r["alternativas"] == []) is (dia == "1999-10-26")


def test_antes_do_decreto_regime_nao_vigente() -> None:
    e = erro(regime="anp.infracao", inciso="II", data_referencia="1999-01-28")
    assert e.campo == "data_referencia"
    assert e.mensagem.startswith("regime não vigente")


@pytest.mark.parametrize("inciso", ["9", 9, "XV", "", "IIII", None])
def test_inciso_invalido(inciso: object) -> None:
    assert erro(regime="anp.infracao", inciso=inciso, norma="decreto-2953").campo == "inciso"


def test_memoria_cita_a_faixa_usada_e_mostra_os_dois_textos_quando_diferem() -> None:
    r = infracao(inciso="II")
    fundamentos = [p["fundamento"] for p in r["passos"]]
    assert (
        "Lei nº 9.847/1999, art. 3º, II (redação atual; a original, de 1999, não está transcrita; data não conferida)"
        in (fundamentos)
    )
    assert "Decreto nº 2.953/1999, art. 28, II (redação original)" in fundamentos
    textos = [p["texto"] for p in r["passos"] if p["texto"]]
    assert any("R$ 20.000,00 (vinte mil reais)" in t for t in textos)
    assert any("R$ 500.000,00 (quinhentos mil reais)" in t for t in textos)
    # III: the two texts are the same, so only the one applied is shown
    iguais = infracao(inciso="III")
    assert not any(
        p["fundamento"].startswith("Decreto nº 2.953/1999, art. 28") for p in iguais["passos"]
    )


def test_art25_lista_os_cinco_criterios_e_a_graduacao_da_lei() -> None:
    r = infracao(inciso="II")
    criterios = [
        p for p in r["passos"] if p["fundamento"].startswith("Decreto nº 2.953/1999, art. 25")
    ]
    assert len(criterios) == 5
    assert (
        sum(p["fundamento"].startswith("Lei nº 9.847/1999, art. 4º, caput") for p in r["passos"])
        == 1
    )


# --- what the user reads, pinned by equality --------------------------------------------------

DESCRICAO_LEI_II = (
    "importar, exportar ou comercializar petróleo, gás natural, seus derivados e "
    "biocombustíveis em quantidade ou especificação diversa da autorizada, bem como dar ao "
    "produto destinação não permitida ou diversa da autorizada, na forma prevista na "
    "legislação aplicável"
)


def test_lei_9847_art3_II_descricao_fundamento_e_vigencia() -> None:
    r = infracao(inciso="II", valor="300000")
    assert r["regime"] == "anp.infracao"
    assert r["descricao"] == DESCRICAO_LEI_II
    assert r["fundamento"] == "Lei nº 9.847/1999, art. 3º, II"
    assert r["vigencia"] == {
        "data_referencia": DEPOIS_DA_LEI,
        # W9: the text whose range was used, not the decree (spec § 3.4 v4)
        "redacao": (
            "Lei nº 9.847/1999, art. 3º, II (redação atual; a original, de 1999, não está "
            "transcrita)"
        ),
    }
    assert r["avisos"][0] == (
        "Valores da redação atual (Lei nº 9.847/1999, art. 3º, II); a redação original, de "
        "1999, não está transcrita nas fontes do projeto (veja docs/leituras.md#faixa)."
    )
    # 15/01/2026: after Decreto nº 12.437/2025 amended Decreto nº 2.953/1999, the aviso names
    # only what rests on the decree here: the criteria of its art. 25 (W9)
    assert (
        "os critérios de dosimetria do art. 25, aqui, são os da redação original"
        in (r["avisos"][1])
    )
    assert r["passos"][-1] == {
        "descricao": "Valor fixado pela autoridade (informado), dentro da faixa de "
        "R$ 20.000,00 a R$ 5.000.000,00",
        "valor": "300000.00",
        "fundamento": (
            "Lei nº 9.847/1999, art. 3º, II (redação atual; a original, de 1999, não está "
            "transcrita; data não conferida)"
        ),
        "texto": r["passos"][1]["texto"],
        "tipo": "quantia",
    }


def test_lei_9847_art3_I_mesma_faixa_textos_diferentes_mostra_o_do_decreto() -> None:
    # same range in both norms, but the law's wording adds "à indústria de biocombustíveis":
    # the decree's text is shown too (spec § 3.4)
    passos = [(p["descricao"], p["valor"], p["fundamento"]) for p in infracao(inciso="I")["passos"]]
    assert passos[2] == (
        "Texto da outra norma, não aplicada nesta leitura: Decreto nº 2.953/1999, art. 28, I, "
        "de R$ 50.000,00 a R$ 200.000,00",
        None,
        "Decreto nº 2.953/1999, art. 28, I (redação original)",
    )


@pytest.mark.parametrize("inciso", ["III", "IV"])
def test_lei_9847_art3_mesmo_texto_do_decreto_nao_e_repetido(inciso: str) -> None:
    passos = [p["descricao"] for p in infracao(inciso=inciso)["passos"]]
    assert not any(d.startswith("Texto da outra norma") for d in passos)


@pytest.mark.parametrize(
    ("valor", "na_lei"),
    [("5000000.00", "5000000.00"), ("500000.00", "500000.00")],
)
def test_alternativa_da_lei_com_o_valor_nos_extremos_da_faixa_dela(valor: str, na_lei: str) -> None:
    r = infracao(inciso="II", valor=valor, interpretacao={"faixa": "decreto"})
    assert r["alternativas"] == [
        {
            "interpretacao": {"faixa": "lei"},
            "valor": na_lei,
            "valor_minimo": "20000.00",
            "valor_maximo": "5000000.00",
        }
    ]


@pytest.mark.parametrize(
    ("valor", "no_decreto"), [("1000000.00", "1000000.00"), ("99999.99", None)]
)
def test_alternativa_do_decreto_no_minimo_e_no_maximo_dele(
    valor: str, no_decreto: str | None
) -> None:
    (alternativa,) = infracao(inciso="V", valor=valor)["alternativas"]
    assert alternativa == {
        "interpretacao": {"faixa": "decreto"},
        "valor": no_decreto,
        "valor_minimo": "100000.00",
        "valor_maximo": "1000000.00",
    }


def test_antes_do_decreto_2953_regime_nao_vigente_nomeia_o_regime_e_as_datas() -> None:
    e = erro(regime="anp.infracao", inciso="II", data_referencia="1999-01-28")
    assert (e.campo, e.mensagem) == (
        "data_referencia",
        "regime não vigente: anp.infracao não existia na data de referência 28/01/1999 "
        "(vigente a partir de 29/01/1999)",
    )
    r = calc(regime="anp.infracao", inciso="II", data_referencia="1999-01-29")
    assert r["vigencia"]["data_referencia"] == "1999-01-29"


def test_antes_da_lei_9847_a_memoria_diz_que_ela_nao_existia() -> None:
    r = calc(regime="anp.infracao", inciso="II", data_referencia="1999-10-26")
    assert r["fundamento"] == "Decreto nº 2.953/1999, art. 28, II"
    assert r["passos"][2]["descricao"] == (
        "A Lei nº 9.847/1999 ainda não existia em 26/10/1999: as duas leituras aplicam a faixa "
        "do decreto"
    )
    assert r["avisos"] == [
        "Sem valor informado: só a faixa é apresentada; a autoridade fixa o valor "
        "(Decreto nº 2.953/1999, art. 25)."
    ]
