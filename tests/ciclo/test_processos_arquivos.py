"""``multas processo importar`` reads a file as the ANP publishes it, through the one reader
(docs/arquivos.md): title rows, a note after the table, Latin-1 and ``;``, ``--coluna``, and a
column the processos file does not have (read past and said, never an error)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from multas.principal import cli


def test_processo_importa_o_arquivo_como_publicado(tmp_path: Path) -> None:
    planilha = tmp_path / "autos.csv"
    planilha.write_bytes(
        (
            "Autos de infração lavrados em 2024;;;;;;\r\n"
            ";;;;;;\r\n"
            "Nº do processo;Tipo;CNPJ;Razão social;Evento;Data;Observação\r\n"
            "48610.000001/2024-11;anp;12.345.678/0001-95;Alfa Combustíveis;infracao;10/01/2024;"
            "ofício nº 7\r\n"
            "Fonte: ANP/SFI;;;;;;\r\n"
        ).encode("cp1252")
    )
    banco = ["--banco", f"sqlite:///{tmp_path / 'm.db'}"]
    r = CliRunner().invoke(
        cli,
        ["processo", "importar", str(planilha), "--coluna", "referencia=nº do processo", *banco],
    )
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["processos_criados"] == 1
    assert "autos.csv: lido como Latin-1 (CP1252), separador ';'" in r.stderr
    assert "linha 1: título acima do cabeçalho" in r.stderr
    assert "linha 5: nota depois da tabela, fora da contagem: 'Fonte: ANP/SFI'" in r.stderr
    assert "colunas fora da leitura (não são campos do arquivo): Observação" in r.stderr
    r = CliRunner().invoke(cli, ["processo", "exportar", "-f", "jsonl", *banco])
    [evento] = [json.loads(x) for x in r.stdout.splitlines()]
    assert evento["referencia"] == "48610.000001/2024-11"
    assert (evento["nome"], evento["data"]) == ("Alfa Combustíveis", "2024-01-10")


def test_processo_importar_com_coluna_invalida_nomeia_a_opcao(tmp_path: Path) -> None:
    planilha = tmp_path / "p.csv"
    planilha.write_text("referencia,tipo,evento,data\nR,anp,infracao,2024-01-10\n", "utf-8")
    banco = ["--banco", f"sqlite:///{tmp_path / 'm.db'}"]
    r = CliRunner().invoke(
        cli, ["processo", "importar", str(planilha), "--coluna", "multa=valor", *banco]
    )
    assert r.exit_code == 2
    erro = json.loads(r.stdout)["erro"]
    assert erro["campo"] == "--coluna" and "campo desconhecido: 'multa'" in erro["mensagem"]
