"""Distinct exit codes (issue 37, item 9): 2 is bad arguments or usage (or an input refused
whole), 3 is "some rows had errors" (each written as an error, the others computed), and
``--help`` says which is which."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from multas.principal import cli

BOM = {"regime": "anp.infracao", "inciso": "XI", "valor": "750000.00"}
RUIM = {"regime": "anp.infracao", "inciso": 11}


def test_json_lines_com_linha_ruim_e_3_e_caso_unico_ruim_e_2() -> None:
    linhas = "\n".join(json.dumps(c) for c in (BOM, RUIM)) + "\n"
    r = CliRunner().invoke(cli, ["calcular", "-", "--jsonl"], linhas)
    assert r.exit_code == 3, r.output
    assert len(r.stdout.splitlines()) == 2
    r = CliRunner().invoke(cli, ["calcular", "-"], json.dumps(RUIM))
    assert r.exit_code == 2, r.output


def test_lote_com_linhas_de_erro_e_3_e_argumento_ruim_e_2(tmp_path: Path) -> None:
    entrada, saida = tmp_path / "e.csv", tmp_path / "s.csv"
    entrada.write_text("inciso,valor\nXI,750000.00\n11,1\n", encoding="utf-8")
    r = CliRunner().invoke(cli, ["lote", str(entrada), "-r", "anp.infracao", "-o", str(saida)])
    assert r.exit_code == 3, r.output
    assert saida.exists()
    r = CliRunner().invoke(cli, ["lote", str(entrada), "-r", "nenhum", "-o", str(saida)])
    assert r.exit_code == 2, r.output


def test_ajuda_diz_os_codigos() -> None:
    for argumentos in ([], ["lote"], ["calcular"]):
        ajuda = CliRunner().invoke(cli, [*argumentos, "--help"]).output
        assert "2, argumentos ou uso inválidos" in " ".join(ajuda.split())
        assert "3, algumas linhas com erro" in " ".join(ajuda.split())


def test_a_ajuda_do_ano_diz_3_para_linhas_com_erro() -> None:
    ajuda = " ".join(CliRunner().invoke(cli, ["ano", "calcular", "--help"]).output.split())
    assert "Código de saída 3 se alguma linha teve erro" in ajuda
    assert "saída 2 se alguma linha" not in ajuda
