"""A saved case with a year of daily quotes (issue 37, item 11): the page and the memória PDF
say them in one line (how many, from when to when, the step with each month's mean) instead of
listing 253 of them; the page keeps the whole list folded in a <details>, the JSON keeps it."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

from fastapi.testclient import TestClient

RAIZ = Path(__file__).resolve().parents[2]
LINHA = "253 cotações diárias, de 02/01/2024 a 31/12/2024; a média de cada mês no passo "


def _paginas(pdf: bytes) -> int:
    import io

    from pypdf import PdfReader

    return len(PdfReader(io.BytesIO(pdf)).pages)


def _caso() -> dict[str, object]:
    with (RAIZ / "tests" / "dados" / "cbio-b3-2024.csv").open(encoding="utf-8") as arquivo:
        cotacoes = [{"data": c["data"], "preco": c["preco"]} for c in csv.DictReader(arquivo)]
    assert len(cotacoes) == 253
    return {
        "regime": "renovabio.distribuidor",
        "ano_meta": 2024,
        "meta_cbios": 100000,
        "cbios_aposentados": 60000,
        "cotacoes_diarias": cotacoes,
    }


def test_as_cotacoes_do_ano_numa_linha_na_pagina_e_no_pdf(cliente: TestClient) -> None:
    from tests.utils.saidas import texto_do_pdf

    salvo = cliente.post(
        "/api/v1/casos", content=json.dumps(_caso()), headers={"Origin": "http://testserver"}
    )
    assert salvo.status_code == 201, salvo.text
    numero = salvo.json()["id"]
    pagina = cliente.get(f"/casos/{numero}").text
    assert LINHA in pagina
    dobrada = re.search(r"<details[^>]*>(.*?)</details>", pagina, re.S)
    assert dobrada is not None and dobrada.group(1).count("<li>") == 253
    assert pagina.count("<li>") - dobrada.group(1).count("<li>") < 60  # no dump outside it
    pdf = cliente.get(f"/api/v1/casos/{numero}/relatorio", params={"formato": "pdf"})
    assert pdf.status_code == 200
    texto = re.sub(r"\s+", " ", texto_do_pdf(pdf.content))
    assert _paginas(pdf.content) <= 3  # 6 pages when the quotes were listed
    assert LINHA in texto
    assert "31/12/2024: R$" not in texto  # the quotes are not listed one by one
    assert len(cliente.get(f"/api/v1/casos/{numero}").json()["entrada"]["cotacoes_diarias"]) == 253
