"""``--ano``: one reader with one bound (the contract's, 1900 to 9000) on every command that
takes it: a year outside is a usage error naming the option, in pt-BR, exit 2, before any
file or database is read."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from multas.principal import cli


def _comandos(arquivo: str) -> list[list[str]]:
    return [
        ["ano", "calcular", arquivo, "--cotacoes", arquivo],
        ["carteira", "excluir", "11222333000181"],
        ["carteira", "conferir", "11222333000181", "--notificacao", arquivo],
        ["carteira", "aposentadorias", "importar", "11222333000181", arquivo],
    ]


@pytest.mark.parametrize("ano", ["99999", "1800", "9001", "1899"])
@pytest.mark.parametrize("qual", range(4))
def test_ano_fora_do_limite_e_erro_da_opcao(tmp_path: Path, ano: str, qual: int) -> None:
    arquivo = tmp_path / "x.csv"
    arquivo.write_text("cnpj\n", encoding="utf-8")
    banco = tmp_path / "nao-criado.db"
    argumentos = [*_comandos(str(arquivo))[qual], "--ano", ano]
    if qual:
        argumentos += ["--banco", f"sqlite:///{banco}"]
    r = CliRunner().invoke(cli, argumentos)
    assert r.exit_code == 2, r.output
    assert (
        f"Valor inválido para '--ano': ano fora do intervalo aceito (1900 a 9000): {ano}"
        in r.output
    )
    assert "Traceback" not in r.output
    assert not banco.exists()  # refused before the database
