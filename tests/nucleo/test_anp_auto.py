"""``anp.auto`` (spec § 3.4.1): one auto with several incisos, one fine per inciso, added up;
the auto's total checked against the items."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from tests.utils import calc, erro

DIA = "2022-03-10"


def auto(*infracoes: dict[str, Any], **campos: Any) -> dict[str, Any]:
    campos.setdefault("data_infracao", DIA)
    return calc(regime="anp.auto", infracoes=list(infracoes), **campos)


def test_caso_real_xi_e_xii_pela_lei_ecoa_o_total_com_aviso() -> None:
    r = auto({"inciso": "XI"}, {"inciso": "XII"}, valor="27000")
    assert (r["valor"], r["valor_minimo"], r["valor_maximo"]) == ("27000.00", None, None)
    assert [i["inciso"] for i in r["infracoes"]] == ["XI", "XII"]
    assert any("R$ 27.000,00" in a and "não conferido" in a for a in r["avisos"])


def test_caso_real_xi_e_xii_pelo_decreto_confere_o_total_na_soma_das_faixas() -> None:
    r = auto({"inciso": "XI"}, {"inciso": "XII"}, valor="27000", norma="decreto-2953")
    assert (r["valor"], r["valor_minimo"], r["valor_maximo"]) == (
        "27000.00",
        "10000.00",
        "2010000.00",
    )
    assert r["infracoes"][1] == {
        "inciso": "XII",
        "descricao": r["infracoes"][1]["descricao"],
        "valor_minimo": "5000.00",
        "valor_maximo": "10000.00",
        "valor": None,
    }
    e = erro(
        regime="anp.auto",
        norma="decreto-2953",
        data_infracao=DIA,
        infracoes=[{"inciso": "XI"}, {"inciso": "XII"}],
        valor="9999.99",
    )
    assert e.campo == "valor"


def test_todos_os_itens_com_valor_o_total_e_a_soma() -> None:
    r = auto({"inciso": "I", "valor": "60000"}, {"inciso": "IV", "valor": "6000"})
    assert (r["valor"], r["valor_minimo"], r["valor_maximo"]) == (
        "66000.00",
        "55000.00",
        "210000.00",
    )
    e = erro(
        regime="anp.auto",
        data_infracao=DIA,
        infracoes=[{"inciso": "I", "valor": "60000"}, {"inciso": "IV", "valor": "6000"}],
        valor="66000.01",
    )
    assert (e.campo, "difere da soma" in e.mensagem) == ("valor", True)


@pytest.mark.parametrize(
    ("total", "aceito"),
    [("64999.99", False), ("65000", True), ("70000", True), ("70000.01", False)],
)
def test_caso_misto_total_entre_dados_mais_minimos_e_dados_mais_maximos(
    total: str, aceito: bool
) -> None:
    """I given at R$ 60.000, IV not: the total lies in [60.000 + 5.000, 60.000 + 10.000]."""
    itens = [{"inciso": "I", "valor": "60000"}, {"inciso": "IV"}]
    if aceito:
        assert auto(*itens, valor=total)["valor"] == f"{Decimal(total):.2f}"
    else:
        assert (
            erro(regime="anp.auto", data_infracao=DIA, infracoes=itens, valor=total).campo
            == "valor"
        )


def test_item_fora_da_faixa_nomeia_o_item() -> None:
    e = erro(
        regime="anp.auto",
        data_infracao=DIA,
        infracoes=[{"inciso": "II"}, {"inciso": "IV", "valor": "4999.99"}],
    )
    assert e.campo == "infracoes[2].valor"


def test_inciso_repetido_e_permitido_com_aviso() -> None:
    r = auto({"inciso": "IV", "valor": "5000"}, {"inciso": "iv", "valor": "5000"})
    assert r["valor"] == "10000.00"
    assert any("O inciso IV aparece 2 vezes" in a for a in r["avisos"])


def test_memoria_diz_que_a_absorcao_nao_e_oferecida() -> None:
    r = auto({"inciso": "II"})
    assert any("absorção" in p["descricao"] for p in r["passos"])


def test_alternativa_decreto_com_as_somas() -> None:
    r = auto({"inciso": "II"}, {"inciso": "V"})
    assert (r["valor_minimo"], r["valor_maximo"]) == ("40000.00", "6000000.00")
    assert r["alternativas"] == [
        {
            "interpretacao": {"faixa": "decreto"},
            "valor": None,
            "valor_minimo": "600000.00",
            "valor_maximo": "6000000.00",
        }
    ]
    # an inciso with no decree pair: the other reading cannot be computed, left out
    assert auto({"inciso": "II"}, {"inciso": "XI"})["alternativas"] == []


@pytest.mark.parametrize(
    ("infracoes", "campo"),
    [
        ([], "infracoes"),
        ("XI", "infracoes"),
        ([{"inciso": "XI", "extra": 1}], "infracoes[1].extra"),
        ([{"valor": "1"}], "infracoes[1].inciso"),
        ([{"inciso": "11"}], "infracoes[1].inciso"),
        ([{"inciso": "II", "valor": "1.001"}], "infracoes[1].valor"),
        ([{"inciso": "XX"}], "infracoes[1].inciso"),
        ([{"inciso": "I"}] * 101, "infracoes"),
    ],
)
def test_infracoes_invalidas_nomeiam_o_item(infracoes: object, campo: str) -> None:
    assert erro(regime="anp.auto", data_infracao=DIA, infracoes=infracoes).campo == campo
