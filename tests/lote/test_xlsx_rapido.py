"""Issue 37, item 8: the batch's XLSX is read by calamine and written in a stream, with the
rows and cells of the former openpyxl reader and writer; a workbook calamine cannot hold within
bounds is read by the streaming reader, and never aborts the process."""

from __future__ import annotations

import zipfile
from datetime import date, datetime, time
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from click.testing import CliRunner

from multas.lote.executor import executar
from multas.lote.processar import Config
from multas.lote.xlsx_arrow import LeitorArrow
from multas.lote.xlsx_escrita import PlanilhaEmFluxo
from multas.lote.xlsx_leitura import LeitorCalamine, abrir_planilha, cabe_no_rapido
from multas.nucleo.arquivos import LOTE, LeitorXlsx
from multas.nucleo.regimes import REGIMES
from multas.principal import cli
from tests.utils.planilhas import (
    CABECALHO,
    cabecalho_xml,
    linha_xml,
    linhas_lidas,
    livro,
    xlsx,
)

REGIME = "renovabio.distribuidor"


def test_calamine_le_as_linhas_do_openpyxl(tmp_path: Path) -> None:
    """Integers, decimals, texts with blanks, dates (a date cell is a datetime at midnight),
    a date-time, booleans, a blank row, a row that ends early, a leading empty column and
    row: the same rows, numbered the same, from both readers."""
    dados = livro(
        [
            [],
            [None, "cnpj", "ano_meta", "meta_cbios", "preco", "quitacao", "hora", "ok"],
            [None, " 12.345 ", 2024, 10, 111.1742, date(2025, 3, 31), datetime(2025, 1, 2, 3, 4)],
            [],
            [None, "b", 2**53, -7, 0.1, None, None, True],
            [None, "c", 2025],
            [None, "Fonte: ANP"],
        ]
    )
    caminho = tmp_path / "c.xlsx"
    caminho.write_bytes(dados)
    assert cabe_no_rapido(caminho) is not None
    rapido = abrir_planilha(caminho, LOTE, "c.xlsx")
    assert isinstance(rapido, LeitorCalamine)
    lento = LeitorXlsx(caminho, LOTE, "c.xlsx")
    assert (rapido.numero_cabecalho, rapido.cabecalho) == (lento.numero_cabecalho, lento.cabecalho)
    assert linhas_lidas(rapido) == linhas_lidas(lento)


def test_celula_distante_vai_ao_leitor_em_fluxo(tmp_path: Path) -> None:
    """One cell at XFD1048576 made calamine ask for 512 GiB and abort the process: the scan
    sends such a workbook to the streaming reader."""
    hostil = xlsx(
        cabecalho_xml() + linha_xml(1_048_576, ['<c r="XFD1048576"><v>1</v></c>']), CABECALHO
    )
    caminho = tmp_path / "h.xlsx"
    caminho.write_bytes(hostil)
    assert cabe_no_rapido(caminho) is None
    assert isinstance(abrir_planilha(caminho, LOTE, "h.xlsx"), LeitorXlsx)
    # without a cell reference, a position is not read by the scan: streaming reader too
    sem_ref = xlsx(cabecalho_xml() + '<row r="2"><c><v>1</v></c></row>', CABECALHO)
    caminho.write_bytes(sem_ref)
    assert cabe_no_rapido(caminho) is None


def test_texto_compartilhado_repetido_vai_ao_leitor_em_fluxo(tmp_path: Path) -> None:
    """calamine copies a shared text into every cell that names it: 64 cells of one 16 MiB
    text would be 1 GiB."""
    celulas = "".join(
        linha_xml(n, [f'<c r="A{n}" t="s"><v>{len(CABECALHO)}</v></c>']) for n in range(2, 66)
    )
    grande = xlsx(cabecalho_xml() + celulas, [*CABECALHO, "a" * (16 * 2**20)])
    caminho = tmp_path / "t.xlsx"
    caminho.write_bytes(grande)
    assert cabe_no_rapido(caminho) is None


def test_datas_do_xlsx_vao_ao_kernel(tmp_path: Path) -> None:
    """A date cell (read as a datetime at midnight) is the date it shows: the kernel takes the
    row, as from a CSV (it went to the slower scalar engine)."""
    entrada = tmp_path / "d.xlsx"
    entrada.write_bytes(
        livro(
            [
                [
                    "cnpj",
                    "ano_meta",
                    "meta_cbios",
                    "cbios_aposentados",
                    "maior_media_mensal",
                    "data_quitacao",
                ],
                ["12.345.678/0001-95", 2025, 1000, 400, 100.5, datetime(2026, 3, 2)],
            ]
        )
    )
    cfg = Config(REGIME, REGIMES[REGIME].interpretacao_padrao(), False)
    resumo = executar(entrada, tmp_path / "r.xlsx", cfg, nucleos=1)
    assert (resumo.linhas, resumo.erros, resumo.motor) == (1, 0, 0)
    folha = openpyxl.load_workbook(tmp_path / "r.xlsx").worksheets[0]
    assert folha["F2"].value == datetime(2026, 3, 2)  # the input cell, still a date


def test_escritor_em_fluxo_tipa_as_celulas(tmp_path: Path) -> None:
    destino = tmp_path / "e.xlsx"
    planilha = PlanilhaEmFluxo(destino, "resultado", ["0.00"], formulas=False)
    valores: list[list[Any]] = [
        ["texto <&>", 7, 2.5, date(2024, 2, 9), datetime(2024, 2, 9, 12), True, "=1+1", None],
        ["a\x01b", 2**60, float("nan"), time(6), None, False, "-12,5", ""],
    ]
    planilha.gravar(planilha.linhas_xml(valores, {1: planilha.estilo["0.00"]}, 1))
    planilha.fechar()
    with zipfile.ZipFile(destino) as pacote:
        assert pacote.testzip() is None
    folha = openpyxl.load_workbook(destino).worksheets[0]
    assert [c.value for c in folha[1]] == [
        "texto <&>",
        7,
        2.5,
        datetime(2024, 2, 9),
        datetime(2024, 2, 9, 12),
        True,
        "=1+1",
    ]
    assert folha["B1"].number_format == "0.00"
    assert folha["G1"].data_type == "s" and folha["G1"].quotePrefix  # neutralised
    assert folha["A2"].value == "a_x0001_b" or folha["A2"].value == "a\x01b"
    assert folha["B2"].value == 2**60  # an integer as it is


def test_lote_xlsx_sem_neutralizar_grava_formula(tmp_path: Path) -> None:
    entrada = tmp_path / "f.xlsx"
    entrada.write_bytes(
        livro(
            [
                ["cnpj", "ano_meta", "meta_cbios", "cbios_aposentados", "nota"],
                ["12.345.678/0001-95", 2025, 1000, 1000, "=1+1"],
            ]
        )
    )
    saida = tmp_path / "r.xlsx"
    comando = ["lote", str(entrada), "-r", REGIME, "-o", str(saida), "--sem-neutralizar-formulas"]
    r = CliRunner().invoke(cli, comando)
    assert r.exit_code in (0, 3) and saida.exists(), r.stderr  # 3: some rows had errors
    folha = openpyxl.load_workbook(saida).worksheets[0]
    assert folha["E2"].data_type == "f" and folha["E2"].value == "=1+1"


_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
_REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PKG = "http://schemas.openxmlformats.org/package/2006"


def _compartilhado_repetido(arquivo: Path, aspas: str, celulas: int) -> Path:
    """A workbook whose ``celulas`` cells all show one 2 MB shared text (``t=<aspas>s``)."""
    import zipfile

    linhas = "".join(
        f'<row r="{i}"><c r="A{i}" t={aspas}s{aspas}><v>0</v></c></row>'
        for i in range(1, celulas + 1)
    )
    tipo = "application/vnd.openxmlformats-officedocument.spreadsheetml"
    with zipfile.ZipFile(arquivo, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(
            "[Content_Types].xml",
            f'<?xml version="1.0"?><Types xmlns="{_PKG}/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
            'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
            f'<Override PartName="/xl/workbook.xml" ContentType="{tipo}.sheet.main+xml"/>'
            f'<Override PartName="/xl/worksheets/sheet1.xml" ContentType="{tipo}.worksheet+xml"/>'
            f'<Override PartName="/xl/sharedStrings.xml" ContentType="{tipo}.sharedStrings+xml"/>'
            "</Types>",
        )
        z.writestr(
            "_rels/.rels",
            f'<?xml version="1.0"?><Relationships xmlns="{_PKG}/relationships">'
            f'<Relationship Id="rId1" Type="{_REL}/officeDocument" Target="xl/workbook.xml"/>'
            "</Relationships>",
        )
        z.writestr(
            "xl/workbook.xml",
            f'<?xml version="1.0"?><workbook xmlns="{_NS}" xmlns:r="{_REL}"><sheets>'
            '<sheet name="a" sheetId="1" r:id="rId1"/></sheets></workbook>',
        )
        z.writestr(
            "xl/_rels/workbook.xml.rels",
            f'<?xml version="1.0"?><Relationships xmlns="{_PKG}/relationships">'
            f'<Relationship Id="rId1" Type="{_REL}/worksheet" Target="worksheets/sheet1.xml"/>'
            f'<Relationship Id="rId2" Type="{_REL}/sharedStrings" Target="sharedStrings.xml"/>'
            "</Relationships>",
        )
        z.writestr(
            "xl/worksheets/sheet1.xml",
            f'<?xml version="1.0"?><worksheet xmlns="{_NS}"><sheetData>{linhas}'
            "</sheetData></worksheet>",
        )
        z.writestr(
            "xl/sharedStrings.xml",
            f'<?xml version="1.0"?><sst xmlns="{_NS}"><si><t>{"a" * 2_000_000}</t></si></sst>',
        )
    return arquivo


@pytest.mark.parametrize("aspas", ["'", '"'])
def test_texto_compartilhado_repetido_com_aspas_simples_nao_vai_ao_rapido(
    tmp_path: Path, aspas: str
) -> None:
    """A 2 MB shared text shown by 300 cells (600 MB for calamine) is kept from the fast
    reader however the cells' ``t`` attribute is quoted (``t='s'`` was missed: gigabytes, then
    an abort); 10 such cells still go to it."""
    from multas.lote.xlsx_leitura import cabe_no_rapido

    assert cabe_no_rapido(_compartilhado_repetido(tmp_path / "b.xlsx", aspas, 300)) is None
    assert cabe_no_rapido(_compartilhado_repetido(tmp_path / "p.xlsx", aspas, 10)) is not None


@pytest.mark.parametrize("espaco", ["\n", "\t", "\r\n", "  "])
def test_celula_distante_com_outro_espaco_vai_ao_leitor_em_fluxo(
    tmp_path: Path, espaco: str
) -> None:
    """XML allows any white space after a tag's name: ``<c\\nr="XFD1048576">`` is a cell for
    calamine too. The scan took only ``<c `` for a cell tag, so that one cell was not counted
    and calamine was given a 512 GiB rectangle."""
    celula = f'<c{espaco}r="XFD1048576"><v>1</v></c>'
    hostil = xlsx(cabecalho_xml() + linha_xml(1_048_576, [celula]), CABECALHO)
    caminho = tmp_path / "h.xlsx"
    caminho.write_bytes(hostil)
    assert cabe_no_rapido(caminho) is None


def test_textos_da_coluna_em_arrow_sao_os_do_python() -> None:
    """The batch's number cells are turned into the kernel's texts in Arrow where Arrow's
    text of the double is Python's own (``str`` of an integer, ``repr`` of a float): the same
    text for every cell, an integral float (``2024.0``), an exponent, an integer past a
    double's or past int64 included."""
    from multas.lote.leitura import coluna_de_textos, textos_da_coluna

    colunas: list[list[Any]] = [
        [2024, None, -7, 0, 2**53],
        [2**63, 5],
        [2**60, 0.5],
        [1030.7931, 2024, None, 2024.0, -0.0, 0.1, 1e-4, 9.9e-5, 1e16, 9.1e15, 1e15 + 0.5],
        [123456789012345.6, 8277025938204.418, 2.5e-3, -1234.56, float("nan"), float("inf")],
        ["a", "", None, " b "],
        [None, None],
        [True, "x", 1],
    ]
    for valores in colunas:
        esperado = textos_da_coluna(valores, "quantia", False)
        assert coluna_de_textos(valores, "quantia", False).to_pylist() == esperado, valores


def _com_formula(caminho: Path) -> Path:
    """A workbook saved by openpyxl (never opened in a spreadsheet program): row 2's
    ``meta_cbios`` is a formula with no computed value (``<v/>``), row 3 is plain."""
    livro = openpyxl.Workbook()
    folha = livro.active
    assert folha is not None
    folha.append(["cnpj", "ano_meta", "meta_cbios", "cbios_aposentados", "maior_media_mensal"])
    folha.append(["12.345.678/0001-95", 2025, "=1000*2", 1000, 100.5])
    folha.append(["12.345.678/0001-95", 2025, 1000, 400, 100.5])
    livro.save(caminho)
    return caminho


def test_lote_formula_sem_valor_e_erro_da_linha_nunca_vazia(tmp_path: Path) -> None:
    """calamine and openpyxl read a formula cell with no computed value as empty: the row was
    computed without it. It is now that row's error, naming the column; the others go on."""
    entrada = _com_formula(tmp_path / "f.xlsx")
    assert cabe_no_rapido(entrada) is None  # the streaming reader names the cell
    cfg = Config(REGIME, REGIMES[REGIME].interpretacao_padrao(), False)
    resumo = executar(entrada, tmp_path / "r.xlsx", cfg, nucleos=1)
    assert (resumo.linhas, resumo.erros) == (2, 1)
    folha = openpyxl.load_workbook(tmp_path / "r.xlsx").worksheets[0]
    cabecalho = [c.value for c in folha[1]]
    erro = cabecalho.index("erro")
    linha_2, linha_3 = ([c.value for c in folha[n]] for n in (2, 3))
    assert linha_2[erro].startswith("meta_cbios: fórmula sem o valor calculado")
    assert linha_2[2] is None  # never the marker's name
    assert linha_3[erro] is None


@pytest.mark.parametrize("neutralizar", [True, False])
def test_texto_com_escape_ooxml_volta_igual_pelos_dois_leitores(
    tmp_path: Path, neutralizar: bool
) -> None:
    """A text holding ``_x0041_`` was written as it is and read back as ``A`` by calamine
    (and as ``_x0041_`` by openpyxl): both writers now write it ``_x005F_x0041_``, and both
    readers read every text back as it was."""
    from openpyxl import Workbook

    from multas.saidas.exportacao import celula_xlsx_texto

    textos = ["_x0041_", "_x005F_x0041_", "_x0041_x0042_", "_x004a_", "a_x000D_b", "_x4E2D_"]
    lote = tmp_path / "lote.xlsx"
    planilha = PlanilhaEmFluxo(lote, "r", [], formulas=not neutralizar)
    colunas = [["t", *textos], ["n", *range(len(textos))], ["misto", *[*textos[:-1], 7]]]
    planilha.gravar(planilha.colunas_xml(colunas, {}, 1))
    planilha.fechar()
    livro = Workbook(write_only=True)
    folha = livro.create_sheet()
    folha.append(["t", "n", "misto"])
    for i, texto in enumerate(textos):
        misto = 7 if i == len(textos) - 1 else texto
        folha.append([celula_xlsx_texto(folha, texto), i, celula_xlsx_texto(folha, misto)])
    saidas = tmp_path / "saidas.xlsx"
    livro.save(saidas)
    esperadas = [
        ("t", "n", "misto"),
        *((t, i, 7 if i == len(textos) - 1 else t) for i, t in enumerate(textos)),
    ]
    for caminho in (lote, saidas):
        assert isinstance(abrir_planilha(caminho, LOTE, "x"), LeitorCalamine)
        rapido = abrir_planilha(caminho, LOTE, "x")
        lento = LeitorXlsx(caminho, LOTE, "x")
        for leitor in (rapido, lento):
            lidas = [tuple(leitor.cabecalho), *(v for _, v in linhas_lidas(leitor))]
            assert lidas == esperadas, (caminho.name, type(leitor).__name__)


def test_leitura_adiantada_le_o_mesmo_e_diz_o_mesmo_erro(tmp_path: Path) -> None:
    """``multas lote`` starts reading an XLSX while it loads its modules: the rows are the
    same, an error found early is raised where it would have been, and a read with other
    limits is not taken."""
    from multas.lote.xlsx_leitura import adiantar
    from multas.nucleo.erros import EntradaInvalida

    caminho = tmp_path / "c.xlsx"
    caminho.write_bytes(livro([["cnpj", "ano_meta"], ["a", 2024], ["b", 2.5]]))
    adiantar(caminho, LOTE)
    rapido = abrir_planilha(caminho, LOTE, "c.xlsx")
    assert isinstance(rapido, LeitorArrow)  # read into Arrow columns, as calamine's rows
    assert linhas_lidas(rapido) == linhas_lidas(LeitorXlsx(caminho, LOTE, "c.xlsx"))
    ruim = tmp_path / "r.xlsx"
    ruim.write_bytes(b"isto nao e um zip")
    adiantar(ruim, LOTE)
    with pytest.raises(EntradaInvalida, match=r"^r\.xlsx: não é uma planilha XLSX válida"):
        abrir_planilha(ruim, LOTE, "r.xlsx")
    from dataclasses import replace

    adiantar(caminho, replace(LOTE, celulas=1))  # other limits: read again, with the caller's
    assert isinstance(abrir_planilha(caminho, LOTE, "c.xlsx"), LeitorArrow)
