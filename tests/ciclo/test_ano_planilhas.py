"""The year's result as XLSX and pt-BR CSV (issue 37): ``multas ano calcular`` writes, beside
``resultado.csv`` (unchanged), ``resultado.xlsx`` and ``resultado-ptbr.csv`` with the same rows
and columns in the same order and the same values, exactly; a name that looks like a formula
stays inert in both."""

from __future__ import annotations

import csv
import io
import re
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import openpyxl
from click.testing import CliRunner

from multas.principal import cli
from tests.utils.ano import COTACOES

FORMULA = '=HYPERLINK("http://x","y")'
ENTRADA = (
    "cnpj,nome,meta_cbios,cbios_aposentados,faturamento_ano_meta,faturamento_ano_anterior,"
    "data_quitacao,uf\n"
    f'11.222.333/0001-81,"{FORMULA.replace(chr(34), 2 * chr(34))}",5000,1200,'
    "1234567.89,1000000.5,2025-03-01,SP\n"
    "11.222.333/0001-80,Posto B,1,0,,,,RJ\n"
    "11444777000161,Posto C,300,300,,,,MG\n"
)


def _ano(tmp_path: Path, conteudo: str = ENTRADA) -> Path:
    entrada = tmp_path / "distribuidores.csv"
    entrada.write_text(conteudo, encoding="utf-8")
    saida = tmp_path / "saida"
    r = CliRunner().invoke(
        cli,
        [
            *("ano", "calcular", str(entrada), "--ano", "2024"),
            *("--cotacoes", str(COTACOES), "--saida", str(saida)),
        ],
    )
    assert r.exit_code == 3, r.output  # the row with a bad CNPJ
    return saida


def _ptbr(texto: str) -> str:
    """A pt-BR cell back in resultado.csv's notation (a number, a date); a text as it is."""
    if re.fullmatch(r"-?[0-9]{1,3}(\.[0-9]{3})*,[0-9]+", texto):
        return str(Decimal(texto.replace(".", "").replace(",", ".")))
    if m := re.fullmatch(r"([0-9]{2})/([0-9]{2})/([0-9]{4})", texto):
        return f"{m[3]}-{m[2]}-{m[1]}"
    return texto


def _xlsx(celula: Any) -> str:
    """An XLSX cell back in resultado.csv's notation."""
    if celula.value is None:
        return ""
    if isinstance(celula.value, datetime):
        return celula.value.date().isoformat()
    if isinstance(celula.value, float):
        return str(Decimal(repr(celula.value)))
    return str(celula.value)


def _numero(texto: str) -> object:
    """A number's text as its value (a cell keeps 100000.00 as 100000: the same number)."""
    return Decimal(texto) if re.fullmatch(r"-?[0-9]+(\.[0-9]+)?", texto) else texto


def _resultados(saida: Path) -> tuple[list[list[str]], list[list[str]], list[Any]]:
    """The year's result three ways: resultado.csv and resultado-ptbr.csv as rows of texts,
    resultado.xlsx as rows of cells."""
    with (saida / "resultado.csv").open(encoding="utf-8", newline="") as arquivo:
        base = list(csv.reader(arquivo))
    texto = (saida / "resultado-ptbr.csv").read_text(encoding="utf-8")
    ptbr = list(csv.reader(io.StringIO(texto, newline=""), delimiter=";"))
    folha = openpyxl.load_workbook(saida / "resultado.xlsx").active
    assert folha is not None
    planilha = list(folha.iter_rows())
    return base, ptbr, planilha


def test_xlsx_e_csv_ptbr_tem_as_linhas_colunas_e_valores_do_resultado_csv(
    tmp_path: Path,
) -> None:
    saida = _ano(tmp_path)
    base, ptbr, planilha = _resultados(saida)

    assert base[0][:8] == ENTRADA.split("\n")[0].split(",")[:8]
    assert ptbr[0] == base[0] and [c.value for c in planilha[0]] == base[0]
    assert len(base) == len(ptbr) == len(planilha) == 4
    # the same values, exactly: the pt-BR CSV and the XLSX read back to resultado.csv's text
    # (a neutralised formula keeps its apostrophe in the CSV files only: below)
    for b, p, x in zip(base[1:], ptbr[1:], planilha[1:], strict=True):
        assert [_ptbr(c) for c in p] == b
        assert [_numero(_xlsx(c)) for c in x] == [_numero(v.removeprefix("'")) for v in b]
    _tipos_e_notacao(base, ptbr, planilha)


def test_as_planilhas_seguem_a_ordem_das_colunas_da_entrada(tmp_path: Path) -> None:
    """resultado.xlsx and resultado-ptbr.csv keep the input file's own column order (the
    user's sheet and the result side by side); resultado.csv keeps its order, as always."""
    cabecalho, *linhas = ENTRADA.strip("\n").split("\n")
    ordem = [7, 3, 0, 2, 1, 4, 5, 6]  # uf, cbios_aposentados, cnpj, meta_cbios, nome, ...
    nomes = cabecalho.split(",")
    embaralhado = [",".join(nomes[i] for i in ordem)]
    for linha in linhas:
        celulas = next(csv.reader([linha]))
        embaralhado.append(",".join(_aspas(celulas[i]) for i in ordem))
    saida = _ano(tmp_path, "\n".join(embaralhado) + "\n")
    base, ptbr, planilha = _resultados(saida)

    assert base[0][:8] == nomes  # resultado.csv: its own order
    assert ptbr[0][:8] == [nomes[i] for i in ordem]  # the input's
    assert [c.value for c in planilha[0]] == ptbr[0]
    assert sorted(ptbr[0]) == sorted(base[0]) and ptbr[0][8:] == base[0][8:]
    # the same values under each column
    for b, p, x in zip(base[1:], ptbr[1:], planilha[1:], strict=True):
        por_nome = dict(zip(base[0], b, strict=True))
        assert [_ptbr(c) for c in p] == [por_nome[c] for c in ptbr[0]]
        assert [_numero(_xlsx(c)) for c in x] == [
            _numero(por_nome[c].removeprefix("'")) for c in ptbr[0]
        ]


def _aspas(celula: str) -> str:
    return '"' + celula.replace('"', '""') + '"' if "," in celula or '"' in celula else celula


def _tipos_e_notacao(base: list[list[str]], ptbr: list[list[str]], planilha: list[Any]) -> None:
    fino = dict(zip(base[0], planilha[1], strict=True))
    # typed cells: counts integers, amounts exact numbers with the money format, dates dates
    assert fino["meta_cbios"].value == 5000 and fino["multado"].value == 3800
    assert fino["faturamento_ano_meta"].number_format == '"R$" #,##0.00'
    assert Decimal(repr(fino["faturamento_ano_meta"].value)) == Decimal("1234567.89")
    assert fino["data_quitacao"].value == datetime(2025, 3, 1)
    assert fino["data_quitacao"].is_date
    assert fino["preco"].number_format == '"R$" #,##0.0000'
    assert isinstance(fino["preco"].value, float)
    assert fino["preco_exato"].data_type == "s" and "/" in fino["preco_exato"].value
    assert Decimal(repr(fino["valor"].value)) == Decimal(base[1][base[0].index("valor")])
    assert fino["valor"].number_format == '"R$" #,##0.00'
    # pt-BR notation: ";", decimal comma, dd/mm/aaaa, counts as digits
    linha = dict(zip(ptbr[0], ptbr[1], strict=True))
    assert linha["faturamento_ano_meta"] == "1.234.567,89"
    assert linha["data_quitacao"] == date(2025, 3, 1).strftime("%d/%m/%Y")
    assert linha["meta_cbios"] == "5000" and "," in linha["preco"]
    # the row in error: its cells as given, its error said
    assert "CNPJ inválido" in ptbr[2][-1] and planilha[2][2].value == "1"


def test_nome_que_parece_formula_fica_inerte_no_xlsx_e_no_csv_ptbr(tmp_path: Path) -> None:
    saida = _ano(tmp_path)
    texto = (saida / "resultado-ptbr.csv").read_text(encoding="utf-8")
    ptbr = list(csv.reader(io.StringIO(texto, newline=""), delimiter=";"))
    assert ptbr[1][1] == "'" + FORMULA
    folha = openpyxl.load_workbook(saida / "resultado.xlsx").active
    assert folha is not None
    nome = folha["B2"]
    assert nome.value == FORMULA and nome.data_type == "s" and nome.quotePrefix


def test_a_pagina_do_ano_baixa_o_xlsx_e_o_csv_ptbr(tmp_path: Path) -> None:
    """/ano offers both beside resultado.csv (the page re-sends the files): the same files
    as the command's, from the same rows."""
    from fastapi.testclient import TestClient

    from multas.servicos.ano_planilhas import escrever_resultado_ptbr, resultado_xlsx
    from multas.servidor import criar_app
    from tests.utils.ano import enviar, esperado, ocultos

    with TestClient(criar_app(f"sqlite:///{tmp_path / 'multas.db'}")) as cliente:
        r = enviar(cliente, {"ano": "2024"})
        assert 'id="baixar-xlsx"' in r.text and 'id="baixar-csv-ptbr"' in r.text
        devolvidos = ocultos(r.text)
        certo = esperado()
        vazio = {"x": ("", b"")}
        xlsx = cliente.post("/ano", data={**devolvidos, "formato": "xlsx"}, files=vazio)
        ptbr = cliente.post("/ano", data={**devolvidos, "formato": "csv-ptbr"}, files=vazio)
    assert xlsx.status_code == ptbr.status_code == 200
    assert 'filename="ano-2024-resultado.xlsx"' in xlsx.headers["content-disposition"]
    assert 'filename="ano-2024-resultado-ptbr.csv"' in ptbr.headers["content-disposition"]
    assert ptbr.headers["content-type"].startswith("text/csv")
    saida = io.StringIO(newline="")
    escrever_resultado_ptbr(saida, certo["lida"].linhas, certo)
    assert ptbr.content.decode("utf-8") == saida.getvalue()
    lido = openpyxl.load_workbook(io.BytesIO(xlsx.content)).active
    nosso = openpyxl.load_workbook(io.BytesIO(resultado_xlsx(certo["lida"].linhas, certo))).active
    assert lido is not None and nosso is not None
    assert [[c.value for c in linha] for linha in lido.iter_rows()] == [
        [c.value for c in linha] for linha in nosso.iter_rows()
    ]


def test_um_caractere_de_controle_num_nome_nao_derruba_o_xlsx(tmp_path: Path) -> None:
    """A name with a control character (XML cannot hold it) is written as OOXML's escape, and
    the whole output folder is written, not a traceback."""
    conteudo = ENTRADA.replace("Posto C", "Posto\x01C")
    saida = _ano(tmp_path, conteudo)
    folha = openpyxl.load_workbook(saida / "resultado.xlsx").active
    assert folha is not None
    nomes = [linha[1].value for linha in folha.iter_rows(min_row=2)]
    assert "Posto_x0001_C" in nomes
    assert (saida / "resultado.csv").exists() and (saida / "resultado-ptbr.csv").exists()
