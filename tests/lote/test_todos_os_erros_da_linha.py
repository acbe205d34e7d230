"""A batch's row in error reports every field error of the row in its ``erro`` cell (issue 37,
item 9): ``campo: mensagem`` each, in the order the contract finds them, joined by `` | ``; a
row with one error keeps the text it always had. Kernel regimes and engine-only regimes alike
(a kernel's row in error goes to the engine, which says every error)."""

from __future__ import annotations

import csv
import json
from decimal import Decimal
from pathlib import Path

import pytest

from multas.lote.executor import executar
from multas.lote.processar import Config


def _erros(saida: Path) -> list[str]:
    if saida.suffix == ".jsonl":
        return [json.loads(linha).get("erro") or "" for linha in saida.read_text().splitlines()]
    with saida.open(encoding="utf-8", newline="") as arquivo:
        return [linha["erro"] for linha in csv.DictReader(arquivo)]


@pytest.mark.parametrize("kernel", [True, False])
def test_cada_erro_da_linha_na_celula(tmp_path: Path, kernel: bool) -> None:
    entrada = tmp_path / "e.csv"
    entrada.write_text(
        "ano_meta,meta_cbios,cbios_aposentados,maior_media_mensal\n"
        "2024,1.5,x,100\n"  # two errors
        "2024,1000,10,\n"  # one: the price is missing
        "2024,1000,10,100\n",
        encoding="utf-8",
    )
    saida = tmp_path / "s.csv"
    resumo = executar(entrada, saida, Config("renovabio.distribuidor", {}, kernel=kernel))
    assert resumo.erros == 2
    duas, uma, nenhuma = _erros(saida)
    assert duas.split(" | ") == [
        "meta_cbios: deve ser um número inteiro, não fracionário (1.5)",
        "cbios_aposentados: número inválido: 'x' (use ponto como separador decimal, ex.: 1234.56)",
    ]
    assert uma.startswith("maior_media_mensal: informe o preço do CBIO") and " | " not in uma
    assert nenhuma == ""


def test_json_lines_e_regime_so_do_motor(tmp_path: Path) -> None:
    entrada = tmp_path / "e.jsonl"
    entrada.write_text(
        json.dumps({"inciso": "XC", "valor": "muito", "data_infracao": "2025-02-30"}) + "\n"
    )
    saida = tmp_path / "s.jsonl"
    executar(entrada, saida, Config("anp.infracao", {}))
    (erro,) = _erros(saida)
    assert [parte.split(":")[0] for parte in erro.split(" | ")] == [
        "inciso",
        "valor",
        "data_infracao",
    ]


@pytest.mark.parametrize("sufixo", [".csv", ".jsonl"])
def test_id_recusado_e_preco_duas_vezes_com_os_outros_erros(tmp_path: Path, sufixo: str) -> None:
    """A row refused before the engine (an ``id`` the contract refuses, a price given twice
    with --cotacoes) says its other errors too."""
    from multas.lote.processar import PRECO_DUAS_VEZES
    from multas.nucleo.cotacoes import Serie

    linhas = [
        {"id": "a" * 300, "ano_meta": "2024", "meta_cbios": "x", "cbios_aposentados": "1"},
        {"ano_meta": "2024", "meta_cbios": "10", "cbios_aposentados": "y"},
    ]
    linhas[1]["maior_media_mensal"] = "100"
    entrada = tmp_path / f"e{sufixo}"
    if sufixo == ".csv":
        colunas = ["id", "ano_meta", "meta_cbios", "cbios_aposentados", "maior_media_mensal"]
        texto = ",".join(colunas) + "\n"
        texto += "\n".join(",".join(linha.get(c, "") for c in colunas) for linha in linhas)
        entrada.write_text(texto + "\n", encoding="utf-8")
    else:
        entrada.write_text("\n".join(json.dumps(linha) for linha in linhas) + "\n")
    saida = tmp_path / f"s{sufixo}"
    serie = Serie(mensais={"2024-01": Decimal("100")})
    executar(entrada, saida, Config("renovabio.distribuidor", {}, cotacoes=serie))
    id_ruim, duas_vezes = _erros(saida)
    if sufixo == ".jsonl":  # the reader refuses the id, and names the line (§ 8 of stop 53)
        assert id_ruim.startswith("linha 1: id: ")
        id_ruim = id_ruim.removeprefix("linha 1: ")
    assert [parte.split(":")[0] for parte in id_ruim.split(" | ")] == ["id", "meta_cbios"]
    assert duas_vezes.split(" | ")[0] == PRECO_DUAS_VEZES
    assert [parte.split(":")[0] for parte in duas_vezes.split(" | ")] == [
        "maior_media_mensal",
        "cbios_aposentados",
    ]


def test_json_lines_id_numerico_com_os_outros_erros_da_linha(tmp_path: Path) -> None:
    """A JSON line whose ``id`` is refused (a number: JSON types it) showed only that error
    (§ 8 of stop 53): every error of the line now, the line kept as the object it is; one
    whose fields cannot be read as the contract's (two synonyms) says both."""
    entrada = tmp_path / "e.jsonl"
    linhas = [
        {"id": 7, "ano_meta": 2024, "meta_cbios": 1.5, "cbios_aposentados": "x"},
        {"id": 8, "ano": 2023, "ano_meta": 2024},
        {"id": 9, "ano_meta": 2024, "meta_cbios": 10, "cbios_aposentados": 10},
    ]
    for linha in linhas:
        linha["maior_media_mensal"] = "100"
    entrada.write_text("\n".join(json.dumps(linha) for linha in linhas) + "\n")
    saida = tmp_path / "s.jsonl"
    executar(entrada, saida, Config("renovabio.distribuidor", {}))
    tres, sinonimos, so_o_id = _erros(saida)
    assert tres.split(" | ") == [
        "linha 1: id: deve ser um texto não vazio",
        "meta_cbios: deve ser um número inteiro, não fracionário (1.5)",
        "cbios_aposentados: número inválido: 'x' (use ponto como separador decimal, ex.: 1234.56)",
    ]
    assert json.loads(saida.read_text().splitlines()[0])["id"] == 7  # the line, not "entrada"
    assert [parte.split(":")[0] for parte in sinonimos.split(" | ")] == ["linha 2", "ano"]
    assert "id: deve ser" in sinonimos
    assert so_o_id == "linha 3: id: deve ser um texto não vazio"
