"""Every quotation the engine shows is the law's own words: each ``texto`` of the dated
parameters is a verbatim passage of the legal texts shipped in multas/nucleo/legislacao/textos
(after normalising whitespace). A misquote, even of one word, fails here."""

from __future__ import annotations

import pytest

from multas.nucleo.legislacao import Legislacao, carregar, ler_textos
from tests.utils import textos_da_legislacao
from tests.utils.legislacao import fontes_normalizadas, normalizar_espacos


def _citacoes(legislacao: Legislacao) -> list[tuple[str, str]]:
    citacoes = []
    for nome, parametro in legislacao.parametros.items():
        for i, vigencia in enumerate(parametro.vigencias, 1):
            if vigencia.texto:
                citacoes.append((f"{nome} (vigência {i})", vigencia.texto))
    for linha in legislacao.prazos_comprovacao:
        if linha.texto:
            citacoes.append((f"prazos_comprovacao {linha.ano_meta_inicio}", linha.texto))
    return citacoes


def _fora_das_fontes(legislacao: Legislacao) -> list[str]:
    fontes = fontes_normalizadas()
    return [
        onde for onde, texto in _citacoes(legislacao) if normalizar_espacos(texto) not in fontes
    ]


def test_toda_citacao_e_trecho_literal_das_fontes() -> None:
    assert _fora_das_fontes(carregar()) == []


def test_ha_citacoes_de_cada_arquivo_de_parametros() -> None:
    arquivos = {
        p.arquivo for p in carregar().parametros.values() if any(v.texto for v in p.vigencias)
    }
    assert arquivos == {"anp.toml", "ciclo.toml", "mover.toml", "renovabio.toml"}


@pytest.mark.parametrize(
    ("original", "trocado"),
    [
        ("cinco por cento", "seis por cento"),  # a word of art. 6º, § 3º
        ("ao mês ou fração", "ao mês"),  # Decreto 2.953/1999, art. 26
        ("R$ 360,00", "R$ 350,00"),  # MP 1.205/2023, art. 6º, I, d
    ],
)
def test_uma_palavra_trocada_numa_citacao_e_apanhada(original: str, trocado: str) -> None:
    textos = textos_da_legislacao()
    alterados = {
        nome: texto.replace(original, trocado, 1) if original in texto else texto
        for nome, texto in textos.items()
    }
    assert alterados != textos
    assert _fora_das_fontes(ler_textos(alterados))
