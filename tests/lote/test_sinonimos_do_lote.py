"""Issue 37, item 4: the year's column is ``ano`` in the ledger and in ``multas ano``, but
``ano_meta`` in the batch: the batch reads a column ``ano`` as ``ano_meta`` (unless the file
has both, or ``--coluna`` says otherwise); a JSON line reads ``ano`` as every case does (both
names with different years are the line's error)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from click.testing import CliRunner

from multas.principal import cli


def _lote(tmp_path: Path, cabecalho: list[str], linha: list[str], *opcoes: str) -> tuple[int, str]:
    entrada, saida = tmp_path / "e.csv", tmp_path / "r.csv"
    with open(entrada, "w", newline="", encoding="utf-8") as arquivo:
        csv.writer(arquivo).writerows([cabecalho, linha])
    r = CliRunner().invoke(
        cli, ["lote", str(entrada), "-r", "renovabio.distribuidor", "-o", str(saida), *opcoes]
    )
    with open(saida, encoding="utf-8") as arquivo:
        lida = next(csv.DictReader(arquivo))
    return r.exit_code, lida["valor"] or lida["erro"]


def test_ano_e_ano_meta(tmp_path: Path) -> None:
    cabecalho = ["cnpj", "Ano", "meta_cbios", "cbios_aposentados", "maior_media_mensal"]
    linha = ["11.222.333/0001-81", "2023", "250000", "100000", "130.10"]
    codigo, valor = _lote(tmp_path, cabecalho, linha)
    assert (codigo, valor) == (0, "19515000.00")


def test_com_ano_e_ano_meta_vale_ano_meta(tmp_path: Path) -> None:
    cabecalho = ["cnpj", "ano", "ano_meta", "meta_cbios", "cbios_aposentados"]
    cabecalho.append("maior_media_mensal")
    linha = ["11.222.333/0001-81", "1999", "2023", "250000", "100000", "130.10"]
    codigo, valor = _lote(tmp_path, cabecalho, linha)
    assert (codigo, valor) == (0, "19515000.00")


def _lote_jsonl(tmp_path: Path, *casos: dict[str, object]) -> tuple[int, list[dict[str, object]]]:
    entrada, saida = tmp_path / "e.jsonl", tmp_path / "r.jsonl"
    entrada.write_text("".join(json.dumps(c) + "\n" for c in casos), encoding="utf-8")
    r = CliRunner().invoke(
        cli, ["lote", str(entrada), "-r", "renovabio.distribuidor", "-o", str(saida)]
    )
    linhas = saida.read_text(encoding="utf-8").splitlines()
    return r.exit_code, [json.loads(linha) for linha in linhas]


CASO_JSON = {"meta_cbios": 250000, "cbios_aposentados": 100000, "maior_media_mensal": "130.10"}


def test_linha_json_com_ano(tmp_path: Path) -> None:
    codigo, [linha] = _lote_jsonl(tmp_path, {"ano": 2023, **CASO_JSON})
    assert (codigo, linha["valor"], linha["erro"]) == (0, "19515000.00", None)


def test_linha_json_com_ano_e_ano_meta_diferentes_e_erro_da_linha(tmp_path: Path) -> None:
    codigo, [certa, errada] = _lote_jsonl(
        tmp_path, {"ano": 2023, "ano_meta": 2023, **CASO_JSON}, {"ano": 2024, "ano_meta": 2023}
    )
    assert (codigo, certa["valor"]) == (3, "19515000.00")
    assert errada["erro"] == (
        "linha 2: ano: ano (2024) e ano_meta (2023) são o mesmo campo, o ano da meta, com "
        "valores diferentes: informe um só dos dois"
    )
