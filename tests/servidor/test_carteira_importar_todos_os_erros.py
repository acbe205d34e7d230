"""Importing the ledger gives every error of every row at once (issue 37, item 9): the API's
problem+json lists them in ``erros``, each naming its field and saying its line and column;
``multas carteira importar`` and the page's paste box say them all too. Nothing is stored."""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

from click.testing import CliRunner
from fastapi.testclient import TestClient

from multas.principal import cli

CNPJ = "11.222.333/0001-81"
ARQUIVO = (
    "cnpj,ano,meta_cbios,cbios_aposentados,maior_media_mensal\n"
    f"{CNPJ},2024,1000,10,100\n"
    f"{CNPJ},dois mil,x,10,100\n"
    f"{CNPJ},2025,1000,-5,100\n"
)
ESPERADOS = [
    ("ano", "linha 3, coluna ano"),
    ("meta_cbios", "linha 3, coluna meta_cbios"),
    ("cbios_aposentados", "linha 4, coluna cbios_aposentados"),
]


def test_api_lista_todos_os_erros_do_arquivo(cliente: TestClient) -> None:
    r = cliente.post(
        "/api/v1/carteira/importar", params={"formato": "csv"}, content=ARQUIVO.encode()
    )
    assert r.status_code == 422
    assert r.headers["content-type"].startswith("application/problem+json")
    corpo = r.json()
    assert [(e["campo"], e["mensagem"].split(":")[0]) for e in corpo["erros"]] == ESPERADOS
    assert corpo["erro"] == corpo["erros"][0]
    assert [e["linha"] for e in corpo["erros"]] == [3, 3, 4]  # for a program: the row
    assert corpo["detail"].startswith("3 erros na entrada")
    assert cliente.get("/api/v1/carteira").json() == []  # nothing stored


def test_pagina_mostra_todos_os_erros_das_linhas_coladas(cliente: TestClient) -> None:
    r = cliente.post("/carteira/importar", data={"conteudo": ARQUIVO, "colunas": ""})
    assert r.status_code == 422
    resumo = re.search(r'id="resumo-erro-importar".*?</div>', r.text, re.S)
    assert resumo and "3 erros" in resumo[0]
    junto = re.search(r'id="erro-conteudo">(.*?)</p>', r.text, re.S)
    assert junto is not None
    for _, onde in ESPERADOS:
        assert onde in unescape(resumo[0]) and onde in unescape(junto[1]), onde


def test_linha_de_comando_lista_todos_os_erros(tmp_path: Path) -> None:
    entrada = tmp_path / "carteira.csv"
    entrada.write_text(ARQUIVO, encoding="utf-8")
    r = CliRunner().invoke(
        cli, ["carteira", "importar", str(entrada), "--banco", str(tmp_path / "m.db")]
    )
    assert r.exit_code == 2, r.output
    corpo = json.loads(r.stdout)
    assert [(e["campo"], e["mensagem"].split(":")[0]) for e in corpo["erros"]] == ESPERADOS
    assert [e["linha"] for e in corpo["erros"]] == [3, 3, 4]
