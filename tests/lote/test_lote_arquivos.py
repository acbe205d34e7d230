"""``multas lote`` reads a file as the ANP publishes it, through the one mechanism of every
importer (docs/arquivos.md): the encoding, separator and numbers detected, title rows above the
header and notes after the table left out and said in the summary, ``--coluna``, and the
other columns carried through; Arrow still streams the rows."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from openpyxl import Workbook

from tests.utils.lote import rodar_lote

REGIME = "renovabio.distribuidor"
#: as the Despacho's spreadsheet saved as CSV by Excel: Latin-1, ';', a blank column A, title
#: rows, the header on line 4, a header --coluna names, thousands with a dot, a note padded to
#: the header's width and one that is not
DESPACHO = (
    "Despacho ANP nº 374/2022 — metas individuais;;;;;;\r\n"
    ";;;;;;\r\n"
    ";;;;;;\r\n"
    ";CNPJ;Razão social;Ano da meta;Meta individual 2022 (CBIOs);CBIOs aposentados;Preço\r\n"
    ";12.345.678/0001-95;Alfa Combustíveis;2022;1.200;1.000;50,25\r\n"
    ";11.222.333/0001-81;Beta Distribuidora;2022;500;500;50,25\r\n"
    ";;;;;;\r\n"
    "Fonte: ANP/SBQ;;;;;;\r\n"
    "* metas publicadas no DOU\r\n"
)
COLUNAS = ("--coluna", "meta_cbios=meta individual 2022", "--coluna", "ano_meta=ano da meta")


def _saida(caminho: Path) -> list[dict[str, str]]:
    with caminho.open(encoding="utf-8", newline="") as arquivo:
        return list(csv.DictReader(arquivo))


def test_lote_le_o_csv_como_publicado(tmp_path: Path) -> None:
    entrada, saida = tmp_path / "despacho.csv", tmp_path / "r.csv"
    entrada.write_bytes(DESPACHO.encode("cp1252"))
    r = rodar_lote(
        entrada, "-r", REGIME, "-o", saida, *COLUNAS, "--coluna", "maior_media_mensal=preço"
    )
    assert r.exit_code == 0, r.output
    linhas = _saida(saida)
    assert [linha["Razão social"] for linha in linhas] == [
        "Alfa Combustíveis",
        "Beta Distribuidora",
    ]
    assert linhas[0]["meta_cbios"] == "1.200" and linhas[0]["valor"] == "100000.00"  # the floor
    assert linhas[1]["valor"] == "0.00"
    assert "despacho.csv: lido como Latin-1 (CP1252), separador ';', números 1.234,56" in r.stderr
    assert "cabeçalho na linha 4" in r.stderr
    assert "linha 1: título acima do cabeçalho, fora da tabela: 'Despacho ANP" in r.stderr
    assert "nota depois da tabela, fora da contagem: 'Fonte: ANP/SBQ'" in r.stderr
    assert "nota depois da tabela, fora da contagem: '* metas publicadas no DOU'" in r.stderr
    assert "colunas levadas à saída como estão (não são campos do regime): CNPJ" in r.stderr
    assert "2 linhas, 2 calculadas, 0 com erro" in r.stderr


def test_lote_le_a_planilha_como_publicada(tmp_path: Path) -> None:
    livro = Workbook()
    folha = livro.active
    assert folha is not None
    folha.append(["Despacho ANP nº 374/2022"])
    folha.append([])
    folha.append(["CNPJ", "Ano da meta", "Meta individual 2022", "CBIOs aposentados", "Preço"])
    folha.append(["12.345.678/0001-95", 2022, 1200, 1000, "50,25"])
    folha.append(["Fonte: ANP/SBQ"])
    entrada, saida = tmp_path / "despacho.xlsx", tmp_path / "r.xlsx"
    livro.save(entrada)
    r = rodar_lote(
        entrada, "-r", REGIME, "-o", saida, *COLUNAS, "--coluna", "maior_media_mensal=preço"
    )
    assert r.exit_code == 0, r.output
    assert "linha 1: título acima do cabeçalho" in r.stderr
    assert "linha 5: nota depois da tabela, fora da contagem: 'Fonte: ANP/SBQ'" in r.stderr
    assert "1 linha, 1 calculada, 0 com erro" in r.stderr


@pytest.mark.parametrize(
    ("opcoes", "trecho"),
    [
        (("--coluna", "meta_cbios"), "use CAMPO=CABEÇALHO"),
        (("--coluna", "meta_cbios=Meta 2030"), "não há coluna 'meta_2030' para meta_cbios"),
        (("--coluna", "uf=CNPJ"), "campo desconhecido: 'uf'"),
        (("--separador", "|"), "opção inválida: '|'"),
        (("--codificacao", "ebcdic"), "opção inválida: 'ebcdic'"),
    ],
)
def test_opcao_do_arquivo_invalida_e_erro_que_a_nomeia(
    tmp_path: Path, opcoes: tuple[str, ...], trecho: str
) -> None:
    entrada, saida = tmp_path / "despacho.csv", tmp_path / "r.csv"
    entrada.write_bytes(DESPACHO.encode("cp1252"))
    r = rodar_lote(entrada, "-r", REGIME, "-o", saida, *opcoes)
    assert r.exit_code == 2
    assert f"Erro no campo '{opcoes[0]}'" in r.stderr and trecho in r.stderr, r.stderr
    assert not saida.exists()


def test_so_as_notas_depois_da_tabela_ficam_fora(tmp_path: Path) -> None:
    """Only the notes after the table are left out: one between rows is a row, with its
    error (never dropped)."""
    entrada, saida = tmp_path / "d.csv", tmp_path / "r.csv"
    entrada.write_text(
        "ano_meta,meta_cbios,cbios_aposentados,maior_media_mensal\n"
        "2022,10,10,50\nFonte: ANP,,,\n2022,10,10,50\nFonte: ANP/SBQ,,,\n",
        encoding="utf-8",
    )
    r = rodar_lote(entrada, "-r", REGIME, "-o", saida)
    assert r.exit_code == 3, r.output
    assert [bool(linha["erro"]) for linha in _saida(saida)] == [False, True, False]
    assert "nota depois da tabela, fora da contagem: 'Fonte: ANP/SBQ'" in r.stderr
    assert "'Fonte: ANP'" not in r.stderr
