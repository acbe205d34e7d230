"""Issue 37, item 4: ``carteira importar`` had no ``--cotacoes``, so an imported year got no
fine unless the file carried a price. With it, each year without a price of its own keeps
its year's quotes (the same file as ``multas ano calcular --cotacoes``), and the fine is
computed from them; a year with its own ``maior_media_mensal`` keeps it."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from multas.principal import cli
from tests.utils.ano import COTACOES


def _importar(tmp_path: Path, *opcoes: str) -> dict[int, str | None]:
    tmp_path.mkdir()
    banco = f"sqlite:///{tmp_path / 'm.db'}"
    entrada = tmp_path / "carteira.csv"
    entrada.write_text(
        "cnpj,ano,meta_cbios,cbios_aposentados,maior_media_mensal\n"
        "11.222.333/0001-81,2024,100000,60000,\n"
        "11.222.333/0001-81,2023,100000,60000,100\n",
        encoding="utf-8",
    )
    r = CliRunner().invoke(cli, ["carteira", "importar", str(entrada), "--banco", banco, *opcoes])
    assert r.exit_code == 0, r.output
    mostrado = CliRunner().invoke(
        cli, ["carteira", "mostrar", "11222333000181", "--banco", banco, "-f", "json"]
    )
    return {a["ano"]: a["multa"] for a in json.loads(mostrado.stdout)["anos"]}


def test_cotacoes_dao_a_multa_ao_ano_sem_preco(tmp_path: Path) -> None:
    sem = _importar(tmp_path / "a")
    com = _importar(tmp_path / "b", "--cotacoes", str(COTACOES))
    assert sem[2024] is None  # no price: no fine
    assert com[2024] is not None and float(com[2024]) > 0
    assert com[2023] == sem[2023]  # its own price stays
