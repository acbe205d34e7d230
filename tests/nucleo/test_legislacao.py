"""The dated parameter files: every value has a start date, its provision and its source."""

from __future__ import annotations

from datetime import date
from importlib import resources

import pytest

from multas.nucleo.legislacao import LegislacaoInvalida, carregar, ler_textos

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
            assert vigencia.fonte.titulo.strip() and vigencia.dispositivo.strip(), parametro.nome
    for linha in legislacao.prazos_comprovacao:
        assert linha.fonte.titulo.strip() and linha.dispositivo.strip()


def test_cada_fonte_embarcada_e_titulo_e_endereco() -> None:
    """Every shipped source is ``{titulo, href}``; most acts link to their public page (the
    Planalto's, or the page the transcription came from)."""
    legislacao = carregar()
    fontes = [v.fonte for p in legislacao.parametros.values() for v in p.vigencias]
    fontes += [linha.fonte for linha in legislacao.prazos_comprovacao]
    assert all(f.href is None or f.href.startswith(("https://", "http://")) for f in fontes)
    com_pagina = [f for f in fontes if f.href]
    assert len(com_pagina) > len(fontes) / 2
    decreto = legislacao.parametro("anp.decreto_2953_alterado").vigencias[0].fonte
    assert decreto.como_dict() == {"titulo": decreto.titulo, "href": None}
    juros = legislacao.parametro("anp.juros_mora").vigencias[0].fonte
    assert juros.href == "https://www.planalto.gov.br/ccivil_03/decreto/d2953.htm"


@pytest.mark.parametrize(
    ("fonte", "erro"),
    [
        ('fonte = { titulo = "DOU", href = "https://dou.example/1" }', None),
        ('fonte = { titulo = "DOU" }', None),
        ('fonte = { href = "https://dou.example/1" }', "falta 'titulo'"),
        ('fonte = { titulo = "DOU", href = "javascript:alert(1)" }', "endereço http"),
        ('fonte = { titulo = "DOU", link = "https://x" }', "campos desconhecidos"),
        ("fonte = 7", "falta 'fonte'"),
    ],
)
def test_fonte_estruturada(fonte: str, erro: str | None) -> None:
    texto = VALIDO.replace('fonte = "DOU"', fonte, 1)
    if erro is None:
        lida = ler_textos({"x.toml": texto}).parametro("x.teto").vigencias[0].fonte
        assert lida.titulo == "DOU"
        return
    with pytest.raises(LegislacaoInvalida, match=erro):
        ler_textos({"x.toml": texto})


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

    pasta = resources.files("multas.nucleo.legislacao") / "parametros"
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


def test_lacuna_entre_vigencias_e_rejeitada() -> None:
    """Every dated table is checked at load for overlaps and for gaps (issue 17)."""
    with pytest.raises(LegislacaoInvalida, match="lacuna"):
        ler_textos({"x.toml": VALIDO.replace("fim = 2024-12-31", "fim = 2024-11-30")})


PRAZOS = """
[[prazos_comprovacao]]
ano_meta_inicio = 2020
ano_meta_fim = 2023
anos_depois = 0
mes = 12
dia = 31
dispositivo = "Decreto nº 1/2020, art. 1º"
fonte = "DOU"

[[prazos_comprovacao]]
ano_meta_inicio = 2024
anos_depois = 1
mes = 3
dia = 31
dispositivo = "Decreto nº 2/2024, art. 1º"
fonte = "DOU"
"""


@pytest.mark.parametrize(
    ("mudanca", "erro"),
    [
        (("ano_meta_inicio = 2024", "ano_meta_inicio = 2023"), "sobrepostos"),
        (("ano_meta_inicio = 2024", "ano_meta_inicio = 2026"), "lacuna"),
        (("ano_meta_fim = 2023", "ano_meta_fim = 2019"), "antes de"),
    ],
)
def test_tabela_de_prazos_sem_sobreposicao_nem_lacuna(mudanca: tuple[str, str], erro: str) -> None:
    assert ler_textos({"p.toml": PRAZOS}).prazo_comprovacao(2024) is not None
    with pytest.raises(LegislacaoInvalida, match=erro):
        ler_textos({"p.toml": PRAZOS.replace(*mudanca)})


def test_linha_nova_depois_de_uma_aberta_e_rejeitada() -> None:
    """A 2026 row beside an open-ended 2024 row was silently ignored (the first match won)."""
    nova = PRAZOS + (
        "\n[[prazos_comprovacao]]\nano_meta_inicio = 2026\nanos_depois = 1\nmes = 6\n"
        'dia = 30\ndispositivo = "Decreto nº 3/2026, art. 1º"\nfonte = "DOU"\n'
    )
    with pytest.raises(LegislacaoInvalida, match="sobrepostos"):
        ler_textos({"p.toml": nova})


ALIAS = """
["x.nome"]
descricao = "O mesmo teto, com outro nome"
unidade = "BRL"
igual_a = "x.teto"
"""


def test_alias_le_as_vigencias_do_outro_parametro() -> None:
    legislacao = ler_textos({"x.toml": VALIDO, "y.toml": ALIAS})
    assert legislacao.parametro("x.nome").vigencias == legislacao.parametro("x.teto").vigencias


@pytest.mark.parametrize(
    ("mudanca", "erro"),
    [
        (('igual_a = "x.teto"', 'igual_a = "x.nada"'), "não é um parâmetro"),
        (('unidade = "BRL"', 'unidade = "meses"'), "unidade"),
        (
            ('igual_a = "x.teto"', 'igual_a = "x.teto"\nvigencias = [{inicio = 2020-01-01}]'),
            "sem vigências",
        ),
    ],
)
def test_alias_invalido_e_rejeitado(mudanca: tuple[str, str], erro: str) -> None:
    with pytest.raises(LegislacaoInvalida, match=erro):
        ler_textos({"x.toml": VALIDO, "y.toml": ALIAS.replace(*mudanca)})
