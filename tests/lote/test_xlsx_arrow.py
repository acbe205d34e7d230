"""Issue 37, item 8: the batch reads a plain workbook with ``fastexcel`` straight into Arrow
columns (:mod:`multas.lote.xlsx_arrow`), with exactly the rows, and so the output, of
calamine's rows; any other workbook keeps calamine's rows or the streaming reader."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from bench.xlsx_vs_csv import COLUNAS
from multas.lote import xlsx_leitura
from multas.lote.executor import executar
from multas.lote.processar import Config
from multas.lote.xlsx_arrow import LeitorArrow
from multas.lote.xlsx_leitura import LeitorCalamine, abrir_planilha
from multas.nucleo.arquivos import LOTE
from multas.nucleo.regimes import REGIMES
from tests.utils.planilhas import (
    CABECALHO,
    NS,
    cabecalho_xml,
    celula_texto,
    linha_xml,
    linhas_lidas,
    livro,
    xlsx,
)

REGIME = "renovabio.distribuidor"
#: the kind bench/xlsx_vs_csv.py measures (its columns): texts, integers, exact decimals, blanks
#: and dates, as a company types them
BANCADA = [
    COLUNAS,
    ["12.345.678/0001-95", 2025, 5488038, 3632213, 103.0793, 1522049.98, 3702117.43, None],
    ["00000001/0001-01", 2024, 10, 4, 111.1742, None, None, date(2025, 3, 31)],
    ["00000002/0001-02", 2023, 1000, 1000, 85.5, 99999999999.99, 0.01, None],
    ["00000003/0001-03", 2026, 7, 0, 1, 1e-05, 12345678.123456, datetime(2026, 1, 2)],
]
#: blank rows between rows and after the table, a row that ends early, notes after it
BRANCAS_E_NOTAS = [
    COLUNAS[:5],
    ["a", 2024, 10, 4, 100.5],
    [],
    ["b", 2025],
    [None, None, 3],
    [],
    ["Fonte: ANP"],
    [],
]
#: integers past a double's exactness, large and small doubles, negative zero
GRANDES = [
    ["cnpj", "ano_meta", "meta_cbios", "x"],
    ["a", 2**53, -(2**53), 0.1],
    ["b", 2**53 + 2, 2**60, 1e20],
    ["c", 1.2345678901234567e19, -0.0, 1e-07],
    ["d", 123456789.123, 3.0, 2.5e-300],
]
#: dates (a date-time at midnight too), texts with spaces and line breaks
DATAS_E_TEXTOS = [
    ["cnpj", "ano_meta", "data_quitacao", "nome"],
    ["a", 2025, datetime(2026, 3, 2), " x "],
    ["b", 2025, date(2026, 3, 2), "linha\nquebrada"],
    ["c", 2025, None, "  "],
]
#: what the Arrow reading leaves to calamine's rows
TITULOS = [["Relatório de metas"], [], COLUNAS[:4], ["a", 2024, 10, 4]]
MISTA = [COLUNAS[:4], ["a", 2024, 10, 4], ["b", "2025", 10, "4,5"]]
ESCAPE = [COLUNAS[:3], ["_x0041_", 2024, 10]]
BOOLEANO = [["cnpj", "ano_meta", "ok"], ["a", 2024, True]]
CABECALHO_NUMERO = [["cnpj", 2024], ["a", 1]]
REPETIDO = [["cnpj", "cnpj", "cnpj_1"], ["a", "b", "c"]]
CABECALHO_EM_BRANCO = [["cnpj", None, "ano_meta"], ["a", 1, 2024]]
HORA = [["cnpj", "data_quitacao"], ["a", date(2026, 3, 2)], ["b", datetime(2026, 3, 2, 10, 30)]]


def _as_duas(
    caminho: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[Any, list[Any], Any, list[Any]]:
    """The workbook read with the Arrow reading allowed, then without it."""
    rapido = abrir_planilha(caminho, LOTE, caminho.name)
    cabecalho = (rapido.numero_cabecalho, tuple(rapido.cabecalho))
    lidas = linhas_lidas(rapido)
    with monkeypatch.context() as m:
        m.setattr(xlsx_leitura, "_ARROW", False)
        antigo = abrir_planilha(caminho, LOTE, caminho.name)
    assert (antigo.numero_cabecalho, tuple(antigo.cabecalho)) == cabecalho
    return rapido, lidas, antigo, linhas_lidas(antigo)


@pytest.mark.parametrize(
    "linhas", [BANCADA, BRANCAS_E_NOTAS, GRANDES, DATAS_E_TEXTOS], ids=lambda x: str(x[0][-1])
)
def test_planilha_simples_e_lida_pelo_arrow_com_as_mesmas_linhas(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, linhas: list[list[Any]]
) -> None:
    caminho = tmp_path / "p.xlsx"
    caminho.write_bytes(livro(linhas))
    rapido, lidas, antigo, antigas = _as_duas(caminho, monkeypatch)
    assert isinstance(rapido, LeitorArrow)
    assert isinstance(antigo, LeitorCalamine)
    assert lidas == antigas


@pytest.mark.parametrize(
    "linhas",
    [TITULOS, MISTA, ESCAPE, BOOLEANO, CABECALHO_NUMERO, REPETIDO, CABECALHO_EM_BRANCO, HORA],
    ids=["titulos", "mista", "escape", "booleano", "numero", "repetido", "em_branco", "hora"],
)
def test_outra_planilha_fica_com_as_linhas_do_calamine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, linhas: list[list[Any]]
) -> None:
    caminho = tmp_path / "p.xlsx"
    caminho.write_bytes(livro(linhas))
    rapido, lidas, _, antigas = _as_duas(caminho, monkeypatch)
    assert not isinstance(rapido, LeitorArrow)
    assert lidas == antigas


def test_inteiro_da_coluna_de_numeros_segue_a_regra_do_double(tmp_path: Path) -> None:
    """An integral double up to 2**53 is an ``int``; past it, the ``float`` (written with
    ``repr`` by the batch), as calamine's rows give them."""
    caminho = tmp_path / "g.xlsx"
    caminho.write_bytes(livro(GRANDES))
    leitor = abrir_planilha(caminho, LOTE, "g.xlsx")
    assert isinstance(leitor, LeitorArrow)
    lidas = dict(linhas_lidas(leitor))
    assert lidas[2] == ("a", 2**53, -(2**53), 0.1)
    assert lidas[3][1:] == (float(2**53 + 2), float(2**60), 1e20)
    assert type(lidas[3][1]) is float and type(lidas[4][2]) is int


def test_lote_pelo_arrow_grava_o_mesmo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole batch, read both ways: the same output workbook, cell for cell (the ``cnpj``
    carried, the fields, the results and the ``erro`` column) and the same summary."""
    saida = "r.xlsx"
    entrada = tmp_path / "e.xlsx"
    ruim = ["99", 2025, -1, 0, 10, None, None, None]
    entrada.write_bytes(livro([*BANCADA, ruim, *BANCADA[1:]]))
    assert isinstance(abrir_planilha(entrada, LOTE, "e.xlsx"), LeitorArrow)
    cfg = Config(REGIME, REGIMES[REGIME].interpretacao_padrao(), False)
    novo, antigo = tmp_path / "novo", tmp_path / "antigo"
    novo.mkdir()
    antigo.mkdir()
    resumo = executar(entrada, novo / saida, cfg, nucleos=1)
    with monkeypatch.context() as m:
        m.setattr(xlsx_leitura, "_ARROW", False)
        resumo_antigo = executar(entrada, antigo / saida, cfg, nucleos=1)
    assert (resumo.linhas, resumo.erros, resumo.motor) == (
        9,
        resumo_antigo.erros,
        resumo_antigo.motor,
    )
    assert resumo.erros >= 1
    assert (resumo.avisos, resumo.leitura) == (resumo_antigo.avisos, resumo_antigo.leitura)

    def celulas(caminho: Path) -> list[tuple[Any, ...]]:
        folha = openpyxl.load_workbook(caminho).worksheets[0]
        return [tuple(c.value for c in linha) for linha in folha.iter_rows()]

    assert celulas(novo / saida) == celulas(antigo / saida)
    assert "erro" in celulas(novo / saida)[0]


@pytest.mark.parametrize(
    ("tipo", "valor"), [("e", "#DIV/0!"), ("d", "2025-03-31T00:00:00"), ("b", "1")]
)
def test_celula_de_erro_booleana_ou_data_iso_fica_com_o_calamine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tipo: str, valor: str
) -> None:
    """An error cell (``fastexcel`` would make it a blank), a boolean or an ISO date: the
    workbook keeps calamine's rows, whatever the sheet's other columns."""
    celulas = [
        celula_texto("A2", len(CABECALHO)),
        '<c r="B2"><v>2025</v></c>',
        f'<c r="C2" t = "{tipo}"><v>{valor}</v></c>',
    ]
    caminho = tmp_path / "p.xlsx"
    caminho.write_bytes(xlsx(cabecalho_xml() + linha_xml(2, celulas), [*CABECALHO, "a"]))
    rapido, lidas, _, antigas = _as_duas(caminho, monkeypatch)
    assert not isinstance(rapido, LeitorArrow)
    assert lidas == antigas


#: blank rows first, notes between rows, a row with one number, more rows than a block
NOTAS_NO_MEIO = [
    COLUNAS[:5],
    [],
    ["a", 2024, 10, 4, 100.5],
    ["Fonte: ANP"],
    [],
    ["b", 2025, 1, 1, 2],
    [None, None, None, 5],
    ["Nota: revisada"],
    *([f"c{i}", 2025, i, 0, 1.5] for i in range(9)),
    [],
    ["* estimado"],
]


@pytest.mark.parametrize(
    "linhas",
    [BANCADA, BRANCAS_E_NOTAS, GRANDES, DATAS_E_TEXTOS, NOTAS_NO_MEIO],
    ids=["bancada", "brancas", "grandes", "datas", "notas_no_meio"],
)
def test_blocos_das_colunas_sao_os_das_linhas(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, linhas: list[list[Any]]
) -> None:
    """The batch's blocks made from the columns: the same rows (as dicts), cells, texts for
    the kernel, block bounds (a ramp of 2 rows that doubles up to 5) and notes as the loop
    over calamine's rows."""
    from multas.lote import io as lote_io
    from multas.lote.leitura import _ler_xlsx

    monkeypatch.setattr(lote_io, "LINHAS_DA_RAMPA", 2)
    caminho = tmp_path / "p.xlsx"
    caminho.write_bytes(livro(linhas))
    cfg = Config(REGIME, REGIMES[REGIME].interpretacao_padrao(), False)

    def ler() -> tuple[Any, ...]:
        leitor = _ler_xlsx(caminho, cfg, 5)
        blocos = [
            (b.inicio, b.linhas, b.erros, b.celulas, b.tabela.to_pylist()) for b in leitor.blocos
        ]
        return leitor.colunas, leitor.decimal_virgula, leitor.avisos, blocos

    assert isinstance(abrir_planilha(caminho, LOTE, "p.xlsx"), LeitorArrow)
    novo = ler()
    with monkeypatch.context() as m:
        m.setattr(xlsx_leitura, "_ARROW", False)
        antigo = ler()
    assert novo == antigo
    assert len(novo[3]) >= 1


#: shared strings as Excel writes them: rich text (runs, each with its font) and a phonetic
#: reading (Japanese furigana, ``rPh``), which is not part of the cell's text
TEXTOS_RICOS = (
    f'<sst xmlns="{NS}"><si><t>cnpj</t></si><si><t>ano_meta</t></si><si><t>nome</t></si>'
    '<si><r><rPr><b/></rPr><t>Distri</t></r><r><t xml:space="preserve">buidora X </t></r></si>'
    '<si><t>東京</t><rPh sb="0" eb="2"><t>トウキョウ</t></rPh><phoneticPr fontId="1"/></si></sst>'
).encode()


def test_texto_rico_e_leitura_fonetica_iguais_nas_duas_leituras(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    linhas = "".join(
        linha_xml(
            n, [celula_texto(f"A{n}", a), f'<c r="B{n}"><v>{ano}</v></c>', celula_texto(f"C{n}", c)]
        )
        for n, a, ano, c in ((1, 0, None, 2), (2, 3, 2024, 4), (3, 4, 2025, 3))
    ).replace('<c r="B1"><v>None</v></c>', celula_texto("B1", 1))
    caminho = tmp_path / "p.xlsx"
    caminho.write_bytes(xlsx(linhas, TEXTOS_RICOS))
    rapido, lidas, _, antigas = _as_duas(caminho, monkeypatch)
    assert isinstance(rapido, LeitorArrow)
    assert lidas == antigas
    assert [valores[0] for _, valores in lidas] == ["Distribuidora X ", "東京"]
