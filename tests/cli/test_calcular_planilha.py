"""Issue 37, item 4: ``multas calcular sol-2024.csv`` answered "JSON inválido (linha 1,
coluna 1)". A CSV or XLSX is now one case per row, with the batch's columns (``ano`` read as
``ano_meta``), and the memória of each row in the format asked for."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from multas.principal import cli
from tests.utils.planilhas import livro

CABECALHO = ["cnpj", "ano", "meta_cbios", "cbios_aposentados", "maior_media_mensal"]
LINHAS = [
    ["11.222.333/0001-81", "2023", "250000", "100000", "130.10"],
    ["11.222.333/0002-62", "2023", "x", "1", "1"],
]


def test_csv_uma_memoria_por_linha(tmp_path: Path) -> None:
    entrada = tmp_path / "sol-2024.csv"
    entrada.write_text(
        "\n".join(",".join(linha) for linha in [CABECALHO, *LINHAS]) + "\n", encoding="utf-8"
    )
    r = CliRunner().invoke(cli, ["calcular", str(entrada), "-r", "renovabio.distribuidor"])
    assert r.exit_code == 3, r.output  # the second row is in error: some rows had errors
    primeira, segunda = (json.loads(linha) for linha in r.stdout.splitlines())
    assert primeira["valor"] == "19515000.00"
    assert segunda["erro"]["campo"] == "meta_cbios"
    assert "linha 3" in segunda["erro"]["mensagem"]
    texto = CliRunner().invoke(
        cli, ["calcular", str(entrada), "-r", "renovabio.distribuidor", "-f", "texto"]
    )
    assert "R$ 19.515.000,00" in texto.stdout and "JSON inválido" not in texto.output


def test_xlsx_e_sem_regime(tmp_path: Path) -> None:
    entrada = tmp_path / "sol.xlsx"
    entrada.write_bytes(livro([CABECALHO, ["11.222.333/0001-81", 2023, 250000, 100000, 130.1]]))
    r = CliRunner().invoke(cli, ["calcular", str(entrada), "-r", "renovabio.distribuidor"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["valor"] == "19515000.00"
    sem = CliRunner().invoke(cli, ["calcular", str(entrada)])
    assert sem.exit_code == 2 and "--regime" in sem.stdout


def test_coluna_com_nome_errado_e_dita_nunca_calada(tmp_path: Path) -> None:
    """A misspelled column (``vlaor``) is not read: the run says so on the error output."""
    entrada = tmp_path / "t.csv"
    entrada.write_text("inciso,vlaor\nXI,750000.00\n", encoding="utf-8")
    r = CliRunner().invoke(cli, ["calcular", str(entrada), "-r", "anp.infracao"])
    assert "vlaor" in r.stderr and "fora da leitura" in r.stderr, r.output


def test_linha_com_varios_erros_traz_todos(tmp_path: Path) -> None:
    """Issue 37, item 9: a row in error gives every error of the row, each with its line and
    column (the first as ``erro``, all in ``erros``); a row with one error keeps ``erro``."""
    entrada = tmp_path / "sol.csv"
    entrada.write_text(
        "ano,meta_cbios,cbios_aposentados,maior_media_mensal\n2023,1.5,x,130.10\n2023,1,1,\n",
        encoding="utf-8",
    )
    r = CliRunner().invoke(cli, ["calcular", str(entrada), "-r", "renovabio.distribuidor"])
    assert r.exit_code == 3, r.output
    varios, um = (json.loads(linha) for linha in r.stdout.splitlines())
    assert [(e["campo"], e["mensagem"].split(":")[0]) for e in varios["erros"]] == [
        ("meta_cbios", "linha 2, coluna meta_cbios"),
        ("cbios_aposentados", "linha 2, coluna cbios_aposentados"),
    ]
    assert varios["erro"] == varios["erros"][0]
    assert [e["linha"] for e in varios["erros"]] == [2, 2]  # the row, as JSON Lines says it
    assert set(um) == {"erro"} and um["erro"]["campo"] == "maior_media_mensal"
    assert um["erro"]["linha"] == 3


def test_coluna_ano_meta_da_propria_planilha_e_lida(tmp_path: Path) -> None:
    """The batch's own column name, ``ano_meta``, is read as it is (it was refused: "não há
    coluna 'ano' para ano_meta"); ``ano`` still stands for it."""
    for coluna in ("ano_meta", "ano"):
        entrada = tmp_path / f"{coluna}.csv"
        entrada.write_text(
            f"{coluna},meta_cbios,cbios_aposentados,maior_media_mensal\n2023,250000,100000,130.10\n",
            encoding="utf-8",
        )
        r = CliRunner().invoke(cli, ["calcular", str(entrada), "-r", "renovabio.distribuidor"])
        assert r.exit_code == 0, r.output
        assert json.loads(r.stdout)["valor"] == "19515000.00", coluna
        assert "colunas fora da leitura" not in r.stderr, r.stderr


def test_xlsx_formula_sem_valor_e_erro_da_linha(tmp_path: Path) -> None:
    """A workbook saved by a library (openpyxl writes a formula with no computed value): the
    formula's row was computed as if the cell were empty. It is now that row's error, naming
    the column; the other rows are computed."""
    linhas = [
        CABECALHO,
        ["11.222.333/0001-81", 2023, "=200000+50000", 100000, 130.1],
        ["11.222.333/0001-81", 2023, 250000, 100000, 130.1],
    ]
    entrada = tmp_path / "sol.xlsx"
    entrada.write_bytes(livro(linhas, formulas=True))
    r = CliRunner().invoke(cli, ["calcular", str(entrada), "-r", "renovabio.distribuidor"])
    assert r.exit_code == 3, r.output  # some rows had errors
    primeira, segunda = (json.loads(linha) for linha in r.stdout.splitlines())
    assert primeira["erro"]["campo"] == "meta_cbios"
    assert primeira["erro"]["mensagem"].startswith(
        "linha 2, coluna meta_cbios: fórmula sem o valor calculado"
    )
    assert segunda["valor"] == "19515000.00"
