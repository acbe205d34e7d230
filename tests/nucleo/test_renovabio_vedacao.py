"""Decreto 9.888/2019 art. 6º-A § 1º: breaking the sales ban. Spec § 3.3."""

from __future__ import annotations

from typing import Any

import pytest

from tests.utils import calc, erro


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


# --- what the user reads, pinned by equality --------------------------------------------------

ART6A = "Decreto nº 9.888/2019, art. 6º-A"
INCLUIDO = "(incluído pelo Decreto nº 12.437/2025)"
DIA = "2026-01-15"


def vedacao(**campos: Any) -> dict[str, Any]:
    return calc(regime="renovabio.vedacao", data_referencia=DIA, **campos)


def _passos(r: dict[str, Any], de: int = 0) -> list[tuple[str, Any, str, str]]:
    return [(p["descricao"], p["valor"], p["tipo"], p["fundamento"]) for p in r["passos"][de:]]


def test_art6A_par1_sem_valor_base_resultado_completo() -> None:
    r = vedacao()
    assert (r["regime"], r["valor"], r["fundamento"]) == (
        "renovabio.vedacao",
        None,
        f"{ART6A}, § 1º",
    )
    assert r["vigencia"] == {"data_referencia": DIA, "redacao": f"{ART6A} {INCLUIDO}"}
    assert r["avisos"] == [
        "Sem valor_base, só a faixa é informada: o Decreto remete os parâmetros da multa à "
        "regulação da ANP, que não está transcrita nas fontes do projeto (leitura "
        "valor-base-informado; veja docs/leituras.md#valor-base-informado)."
    ]


def test_art6A_par2_caso_do_piso_ignora_o_limite_do_faturamento() -> None:
    r = vedacao(valor_base="99999.99", faturamento_ano_meta="1", faturamento_ano_anterior="1")
    assert _passos(r, 4) == [
        (
            "Valor obtido de R$ 99.999,99 inferior ao piso de R$ 100.000,00: aplica-se o piso "
            "(caso do piso)",
            "100000.00",
            "quantia",
            f"{ART6A}, § 1º {INCLUIDO}",
        ),
        (
            "Caso do piso: o limite do faturamento não se aplica",
            "100000.00",
            "quantia",
            f"{ART6A}, § 3º {INCLUIDO}",
        ),
        (
            'Sem redução de 1/12: o art. 6º-A, § 8º, reduz apenas "a multa prevista no art. 6º"',
            "100000.00",
            "quantia",
            f"{ART6A}, § 8º {INCLUIDO}",
        ),
        (
            "Multa devida",
            "100000.00",
            "quantia",
            "multas: arredondamento único ao centavo, meio para cima (veja docs/contrato.md#arredondamento)",
        ),
    ]
    assert (r["valor"], r["avisos"]) == ("100000.00", [])


ENTRE = "entre o piso de R$ 100.000,00 e o teto de R$ 500.000.000,00: aplica-se o valor calculado"


@pytest.mark.parametrize(
    ("valor_base", "passo", "valor"),
    [
        ("100000", f"Valor obtido de R$ 100.000,00 {ENTRE}", "100000.00"),
        ("500000000", f"Valor obtido de R$ 500.000.000,00 {ENTRE}", "500000000.00"),
        (
            "500000000.01",
            "Valor obtido de R$ 500.000.000,01 superior ao teto de R$ 500.000.000,00: aplica-se "
            "o teto",
            "500000000.00",
        ),
    ],
)
def test_art6A_par1_minimo_e_maximo_exatos(valor_base: str, passo: str, valor: str) -> None:
    r = vedacao(valor_base=valor_base)
    assert (_passos(r)[4][0], r["valor"]) == (passo, valor)


def test_art6A_par3_sem_ano_nomeia_os_dois_exercicios() -> None:
    r = vedacao(
        valor_base="1000000", faturamento_ano_meta="20000000", faturamento_ano_anterior="20000000"
    )
    assert _passos(r, 5)[:3] == [
        (
            "Faturamento de referência: média dos faturamentos dos dois exercícios "
            "(R$ 20.000.000,00 e R$ 20.000.000,00; leitura Faturamento: média dos dois anos)",
            "20000000.00",
            "quantia",
            f"{ART6A}, § 3º {INCLUIDO}",
        ),
        (
            "Limite: 5% do faturamento de referência (R$ 20.000.000,00)",
            "1000000.00",
            "quantia",
            f"{ART6A}, § 3º {INCLUIDO}",
        ),
        (
            "Multa de R$ 1.000.000,00 não supera o limite do faturamento (R$ 1.000.000,00): "
            "mantida",
            "1000000.00",
            "quantia",
            f"{ART6A}, § 3º {INCLUIDO}",
        ),
    ]


@pytest.mark.parametrize(("dia", "vigente"), [("2025-04-16", False), ("2025-04-17", True)])
def test_art6A_vigente_desde_17_04_2025(dia: str, vigente: bool) -> None:
    if vigente:
        r = calc(regime="renovabio.vedacao", valor_base="1000000", data_referencia=dia)
        assert (r["valor"], r["vigencia"]["data_referencia"]) == ("1000000.00", dia)
        return
    e = erro(regime="renovabio.vedacao", valor_base="1000000", data_referencia=dia)
    assert (e.campo, e.mensagem) == (
        "data_referencia",
        "regime não vigente: renovabio.vedacao não existia na data de referência 16/04/2025 "
        "(vigente a partir de 17/04/2025)",
    )


def test_sem_a_reducao_em_vigor_o_passo_nao_cita_fracao() -> None:
    """A legislation in which the monthly reduction ends on 31/12/2026 (a law change): the
    sales ban of 2027 says "Sem redução" with no fraction; of 2026, with the fraction."""
    from pathlib import Path

    from multas import calcular
    from multas.nucleo.legislacao import ler_textos

    pasta = (
        Path(__file__).resolve().parents[2]
        / "src"
        / "multas"
        / "nucleo"
        / "legislacao"
        / "parametros"
    )
    textos = {p.name: p.read_text(encoding="utf-8") for p in pasta.glob("*.toml")}
    bloco = '[["renovabio.distribuidor.reducao".vigencias]]\ninicio = 2025-01-01\n'
    assert bloco in textos["renovabio.toml"]
    textos["renovabio.toml"] = textos["renovabio.toml"].replace(bloco, bloco + "fim = 2026-12-31\n")
    legislacao = ler_textos(textos)

    def passo(dia: str) -> str:
        caso = {"regime": "renovabio.vedacao", "valor_base": "5000", "data_referencia": dia}
        passos = calcular(caso, legislacao=legislacao)["passos"]
        return next(p["descricao"] for p in passos if p["descricao"].startswith("Sem redução"))

    assert passo("2027-01-15").startswith("Sem redução: o art. 6º-A, § 8º, reduz apenas")
    assert passo("2026-01-15").startswith("Sem redução de 1/12: o art. 6º-A, § 8º")
