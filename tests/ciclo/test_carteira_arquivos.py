"""``multas carteira importar`` reads a file as the ANP publishes it, through the one reader:
title rows, ``CNPJ``/``Razão social`` headers, ``--coluna`` and a column the ledger does not
know (read past, never an error)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from multas.principal import cli


def test_a_carteira_importa_o_arquivo_como_publicado(tmp_path: Path) -> None:
    planilha = tmp_path / "metas.csv"
    planilha.write_bytes(
        (
            "Metas individuais de 2025;;;;\r\n"
            ";;;;\r\n"
            "CNPJ;Razão social;Ano;Meta do ano;CBIOs aposentados;UF\r\n"
            "12.345.678/0001-95;Alfa Combustíveis;2025;1.000;1.000;SP\r\n"
            "Fonte: ANP;;;;\r\n"
        ).encode("cp1252")
    )
    banco = ["--banco", f"sqlite:///{tmp_path / 'm.db'}"]
    r = CliRunner().invoke(
        cli,
        ["carteira", "importar", str(planilha), "--coluna", "meta_cbios=meta do ano", *banco],
    )
    assert r.exit_code == 0, r.output
    assert "linha 1: título acima do cabeçalho" in r.output
    assert "linha 5: nota depois da tabela" in r.output
    r = CliRunner().invoke(cli, ["carteira", "mostrar", "12.345.678/0001-95", "-f", "json", *banco])
    assert r.exit_code == 0, r.output
    assert '"nome": "Alfa Combustíveis"' in r.output and '"meta_cbios": 1000' in r.output
