"""The dated parameter files: every value has a start date, its provision and its source."""

from __future__ import annotations

from datetime import date
from importlib import resources

import pytest

from multas.legislacao import LegislacaoInvalida, carregar, ler_textos

VALIDO = """
["x.teto"]
descricao = "Teto"
unidade = "BRL"

[["x.teto".vigencias]]
inicio = 2018-01-01
fim = 2024-12-31
valor = "50000000.00"
dispositivo = "Decreto nº 1/2018, art. 1º"
fonte = "DOU"

[["x.teto".vigencias]]
inicio = 2025-01-01
valor = "500000000.00"
dispositivo = "Decreto nº 2/2025, art. 1º"
fonte = "DOU"
"""


def test_arquivos_distribuidos_sao_validos() -> None:
    legislacao = carregar()
    assert len(legislacao.parametros) > 40
    for parametro in legislacao.parametros.values():
        for vigencia in parametro.vigencias:
            assert vigencia.fonte.strip() and vigencia.dispositivo.strip(), parametro.nome
    for linha in legislacao.prazos_comprovacao:
        assert linha.fonte.strip() and linha.dispositivo.strip()


def test_valor_sem_fonte_e_rejeitado() -> None:
    with pytest.raises(LegislacaoInvalida, match="fonte"):
        ler_textos({"x.toml": VALIDO.replace('fonte = "DOU"\n', "", 1)})


def test_valor_sem_data_de_inicio_e_rejeitado() -> None:
    with pytest.raises(LegislacaoInvalida, match="inicio"):
        ler_textos({"x.toml": VALIDO.replace("inicio = 2018-01-01\n", "", 1)})


def test_vigencias_sobrepostas_sao_rejeitadas() -> None:
    with pytest.raises(LegislacaoInvalida, match="sobrepostas"):
        ler_textos({"x.toml": VALIDO.replace("fim = 2024-12-31", "fim = 2025-06-30")})


def test_valor_em_float_e_rejeitado() -> None:
    with pytest.raises(LegislacaoInvalida, match="float"):
        ler_textos({"x.toml": VALIDO.replace('"500000000.00"', "500000000.0")})


def test_campo_desconhecido_e_rejeitado() -> None:
    with pytest.raises(LegislacaoInvalida, match="desconhecidos"):
        ler_textos({"x.toml": VALIDO.replace('fonte = "DOU"', 'fonte = "DOU"\nvalr = "1"', 1)})


def test_valor_vigente_por_data() -> None:
    legislacao = ler_textos({"x.toml": VALIDO})
    assert legislacao.em(date(2024, 12, 31))["x.teto"].fracao == 50_000_000
    assert legislacao.em(date(2025, 1, 1))["x.teto"].fracao == 500_000_000
    assert legislacao.em(date(2017, 1, 1)).get("x.teto") is None


def test_uma_mudanca_de_lei_e_so_um_dado_novo() -> None:
    """Changing a value in the data changes the result, with no code change."""
    from multas import calcular

    pasta = resources.files("multas.legislacao") / "parametros"
    textos = {
        p.name: p.read_text(encoding="utf-8") for p in pasta.iterdir() if p.name.endswith(".toml")
    }
    textos["renovabio.toml"] = textos["renovabio.toml"].replace(
        'valor = "500000000.00"', 'valor = "600000000.00"', 1
    )
    outra = ler_textos(textos)
    caso = {
        "regime": "renovabio.distribuidor",
        "ano_meta": 2025,
        "meta_cbios": 9_000_000,
        "cbios_aposentados": 0,
        "maior_media_mensal": "71.70",
    }
    assert calcular(caso)["valor"] == "500000000.00"
    assert calcular(caso, legislacao=outra)["valor"] == "600000000.00"
    assert outra.versao != carregar().versao
