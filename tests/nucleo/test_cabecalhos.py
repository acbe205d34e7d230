"""The one reader of imported tables, on the shapes the ANP and B3 publish: the header row after
title rows, a blank column A, a "Fonte:" note, headers in any case and accents with the
synonyms, ``--coluna``, unknown columns carried, and each file's encoding, separator and
numbers detected (or given)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from multas.nucleo.cabecalhos import (
    SINONIMOS,
    canonico,
    ler_cabecalho,
    ler_colunas,
    normalizar,
)
from multas.nucleo.ciclo.planilha import Colunas, ler_colado, ler_cotacoes, ler_planilha
from multas.nucleo.dialeto import Dialeto
from multas.nucleo.erros import EntradaInvalida
from tests.utils.ano import B3_SITE, DESPACHO_CABECALHO, despacho_xlsx

CAMPOS = ("cnpj", "nome", "meta_cbios", "falta_anterior", "meta_publicada", "cbios_aposentados")
#: the Despacho's target headers, mapped as a user does with --coluna
MAPA = ler_colunas(
    [
        "meta_cbios=Meta individual 2022 (CBIO)",
        "falta_anterior=Meta não cumprida 2021",
        "meta_publicada=Meta total 2022",
    ]
)


def despacho_csv() -> bytes:
    """The same table as a CSV saved by Excel in pt-BR: CP1252, ``;``, ``1.200``."""
    linhas = [
        "Despacho ANP nº 374/2022;;;;;;;",
        ";;;;;;;",
        ";" + ";".join(DESPACHO_CABECALHO),
        ";Alfa Combustíveis;11.222.333/0001-81;1.000;200;1.200;900;SP",
        ";Beta;22.333.444/0001-81;800;0;800;800;RJ",
        ";;;;;;;",
        ";Fonte: ANP/SBQ;;;;;;",
    ]
    return ("\r\n".join(linhas) + "\r\n").encode("cp1252")


ESPERADAS = [
    {
        "nome": "Alfa Combustíveis",
        "cnpj": "11.222.333/0001-81",
        "meta_cbios": "1000",
        "falta_anterior": "200",
        "meta_publicada": "1200",
        "cbios_aposentados": "900",
        "UF": "SP",
    },
    {
        "nome": "Beta",
        "cnpj": "22.333.444/0001-81",
        "meta_cbios": "800",
        "falta_anterior": "0",
        "meta_publicada": "800",
        "cbios_aposentados": "800",
        "UF": "RJ",
    },
]


def test_a_planilha_do_despacho_e_lida_como_publicada() -> None:
    lida = ler_planilha(despacho_xlsx(), "d.xlsx", colunas=Colunas(CAMPOS, mapa=MAPA))
    assert lida.linhas == ESPERADAS
    assert [str(local) for local in lida.locais] == ["linha 6", "linha 7"]
    assert lida.desconhecidas == ("UF",)
    avisos = "\n".join(lida.avisos)
    assert "cabeçalho na linha 5" in avisos
    assert "linha 1: título acima do cabeçalho" in avisos and "linha 2: título" in avisos
    assert "linha 9: nota depois da tabela, fora da contagem: 'Fonte: ANP/SBQ'" in avisos
    assert "coluna A: sem cabeçalho, fora da leitura (vazia)" in avisos


def test_o_csv_do_despacho_em_cp1252_com_ponto_e_virgula() -> None:
    lida = ler_planilha(despacho_csv(), "d.csv", colunas=Colunas(CAMPOS, mapa=MAPA))
    assert lida.leitura.decimal_virgula
    # pt-BR numbers are read by the contract (1.200 is 1200): the cells stay as written
    assert [linha["meta_publicada"] for linha in lida.linhas] == ["1.200", "800"]
    assert [linha["nome"] for linha in lida.linhas] == ["Alfa Combustíveis", "Beta"]
    assert [str(local) for local in lida.locais] == ["linha 4", "linha 5"]
    assert lida.avisos[0] == "lido como Latin-1 (CP1252), separador ';', números 1.234,56"
    assert any("linha 7: nota depois da tabela" in a for a in lida.avisos)


def test_as_opcoes_de_cada_arquivo_prevalecem_sobre_a_deteccao() -> None:
    with pytest.raises(EntradaInvalida, match="UTF-8"):
        ler_planilha(despacho_csv(), "d.csv", dialeto=Dialeto(codificacao="utf-8"))
    lida = ler_planilha(
        despacho_csv(),
        "d.csv",
        dialeto=Dialeto(decimal_virgula=False),
        colunas=Colunas(CAMPOS, mapa=MAPA),
    )
    assert not lida.leitura.decimal_virgula
    # a `,` separator makes no row name the CNPJ: the first row is the header, as before
    lida = ler_planilha(despacho_csv(), "d.csv", dialeto=Dialeto(separador=","))
    assert lida.avisos[0].startswith("lido como Latin-1 (CP1252), separador ','")
    # --ptbr (for both files of a run) under a file's own option
    lida = ler_planilha(b"cnpj,meta_cbios\n1,2.5\n", "d.csv", True, dialeto=Dialeto(separador=","))
    assert lida.linhas == [{"cnpj": "1", "meta_cbios": "2.5"}] and lida.leitura.decimal_virgula


def test_a_exportacao_do_site_da_b3_e_um_arquivo_de_cotacoes() -> None:
    serie, lida = ler_cotacoes(B3_SITE.read_bytes(), B3_SITE.name, coluna_preco="preço médio")
    assert lida.avisos == ("lido como Latin-1 (CP1252), separador ';', números 1.234,56",)
    assert set(lida.linhas[0]) == {
        "data",
        "negocios",
        "quantidade",
        "preco_minimo",
        "preco_medio",
        "preco_maximo",
        "valor_financeiro",
    }
    assert lida.linhas[0]["valor_financeiro"] == "15.129.584,90"
    primeira = serie.diarias[0]
    assert (str(primeira.dia), primeira.preco) == ("2024-01-02", Fraction("108.07"))
    assert (primeira.quantidade, primeira.valor_financeiro) == (140000, Decimal("15129584.90"))
    assert len(serie.diarias) == 41


def test_coluna_mapeia_e_e_conferida() -> None:
    assert ler_planilha(
        b"Id;Ano\n1;2024\n", "c.csv", colunas=Colunas(("cnpj",), mapa={"id": "cnpj"})
    ).linhas == [{"cnpj": "1", "Ano": "2024"}]
    with pytest.raises(EntradaInvalida, match="não há coluna 'meta_2030'"):
        ler_cabecalho(["CNPJ"], CAMPOS, {"meta_2030": "meta_cbios"})
    with pytest.raises(EntradaInvalida, match="campo desconhecido: 'metas'"):
        ler_cabecalho(["CNPJ", "x"], CAMPOS, {"x": "metas"})
    for ruim in ("meta_cbios", "=Meta", "meta_cbios=  "):
        with pytest.raises(EntradaInvalida) as erro:
            ler_colunas([ruim])
        assert erro.value.campo == "--coluna" and "CAMPO=CABEÇALHO" in erro.value.mensagem


def test_dois_cabecalhos_do_mesmo_campo_sao_erro_nomeando_os_dois() -> None:
    with pytest.raises(EntradaInvalida) as erro:
        ler_planilha("CNPJ,Razão Social,Nome\n1,a,b\n".encode(), "c.csv", colunas=Colunas(CAMPOS))
    assert erro.value.campo == "arquivo"
    assert "'Razão Social' e 'Nome' são a mesma (nome)" in erro.value.mensagem


def test_colado_da_planilha_tambem_acha_o_cabecalho() -> None:
    colado = ler_colado("Metas de 2024\n\nCNPJ\tRazão social\n1\tAlfa\n", colunas=Colunas(CAMPOS))
    assert colado.linhas == [{"cnpj": "1", "nome": "Alfa"}]
    assert "linha 1: título acima do cabeçalho" in "\n".join(colado.avisos)


def test_os_sinonimos_documentados_sao_os_do_codigo() -> None:
    """docs/arquivos.md lists every synonym of :data:`SINONIMOS`, each mapped to its field."""
    pagina = (Path(__file__).parents[2] / "docs" / "arquivos.md").read_text(encoding="utf-8")
    for sinonimo in SINONIMOS:
        for cabecalho in sinonimo.cabecalhos:
            assert f"`{cabecalho}`" in pagina, cabecalho
            assert canonico(cabecalho) == sinonimo.campo


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
def test_um_cabecalho_hostil_nunca_quebra_a_normalizacao(cabecalho: str) -> None:
    normal = normalizar(cabecalho)
    assert normal == normalizar(normal) or normal == ""
    assert set(normal) <= set("abcdefghijklmnopqrstuvwxyz0123456789_")
    outra = [] if canonico(cabecalho, CAMPOS) == "cnpj" else ["CNPJ"]
    lido = ler_cabecalho([cabecalho, *outra], CAMPOS)
    assert len(lido.chaves) == 1 + len(outra)
