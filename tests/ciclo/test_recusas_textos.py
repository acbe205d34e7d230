"""Issue 15, item 9: a list's PDF broke (a 500 in the API, a traceback in the CLI) when a
``nome``, ``cnpj`` or ``id`` looked like a date: every cell of the form ``AAAA-?…`` was read as
one. Text is only ever text now: hostile names go through the API (PDF and CSV) and the CLI,
and the PDF is parsed back to find them; what a database cannot store is a pt-BR 422."""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from pypdf import PdfReader

from multas.saidas.exportar import lista_pdf
from multas.servidor import criar_app
from tests.utils import erro_pt

#: names a list must show exactly as typed (the font covers every character of these)
HOSTIS = [
    "Post-Bom12",
    "2025-01-01",
    "2025-13-45",
    "9999-99-99",
    "31/12/2025",
    "=1+1",
    "+5511999999999",
    "-2",
    "@SUM(A1)",
    "<b>negrito</b>",
    "<para>x</para>",
    "A & B",
    "&amp; &lt;",
    "]]> \\n",
    "Ünïcödé Ação Ñ ß € — “aspas”",
    "Posto" + "X" * 195,  # 200 characters, no space: wraps inside its column
    "Posto " * 33,  # 198 characters
]
LISTAS = ("sancoes", "balanco", "encaminhamento")
DATA = "2026-02-01"


def sem_espacos(texto: str) -> str:
    return re.sub(r"\s+", "", texto)


def texto_do_pdf(conteudo: bytes) -> str:
    assert conteudo[:5] == b"%PDF-"
    return "".join(p.extract_text() for p in PdfReader(io.BytesIO(conteudo)).pages)


def processos(nome: str) -> list[dict[str, Any]]:
    """One processo in each list, named ``nome`` (the CNPJ and the id too: the second's id
    with a suffix, one processo per reference)."""
    ids = {"id": nome, "cnpj": nome[:32], "nome": nome}
    return [
        {
            "tipo": "renovabio.lista",
            **ids,
            "eventos": [
                {"evento": "fim_prazo_meta", "data": "2025-12-31"},
                {"evento": "decisao_primeira_instancia", "data": "2026-01-05"},
                {"evento": "inclusao_lista", "data": "2026-01-06"},
            ],
        },
        {
            "tipo": "renovabio.balanco",
            **ids,
            "id": f"{nome[:190]} (b)",  # another process: its own reference
            "eventos": [{"evento": "inclusao_lista", "data": "2026-01-06"}],
        },
    ]


@pytest.fixture
def cliente(database_url: str) -> Iterator[TestClient]:
    with TestClient(criar_app(database_url), raise_server_exceptions=False) as c:
        for nome in HOSTIS:
            for processo in processos(nome):
                r = c.post(
                    "/api/v1/processos",
                    content=json.dumps(processo),
                    headers={"Content-Type": "application/json"},
                )
                assert r.status_code == 201, (nome, r.text)
        yield c


@pytest.mark.parametrize("qual", LISTAS)
def test_lista_em_pdf_e_csv_mostra_os_nomes_como_texto(cliente: TestClient, qual: str) -> None:
    pdf = cliente.get(f"/api/v1/listas/{qual}", params={"data": DATA, "formato": "pdf"})
    assert pdf.status_code == 200, pdf.text
    assert pdf.headers["content-type"] == "application/pdf"
    texto = sem_espacos(texto_do_pdf(pdf.content))
    for nome in HOSTIS:
        assert sem_espacos(nome) in texto, nome
        assert sem_espacos(nome[:32]) in texto, nome  # the CNPJ
    # the dates are still dates: 06/01/2026 (inclusão) or 31/12/2025 (fim do prazo)
    assert ("06/01/2026" if qual != "encaminhamento" else "31/12/2025") in texto
    planilha = cliente.get(f"/api/v1/listas/{qual}", params={"data": DATA, "formato": "csv"})
    assert planilha.status_code == 200
    linhas = list(csv.DictReader(io.StringIO(planilha.text)))
    formula = ("=", "+", "-", "@")
    esperado = sorted(("'" + n if n.startswith(formula) else n) for n in HOSTIS)
    assert sorted(linha["Nome"] for linha in linhas) == esperado


def test_lista_em_pdf_pela_linha_de_comando(
    cliente: TestClient, database_url: str, tmp_path: Path
) -> None:
    from multas.principal import cli

    for qual in LISTAS:
        for formato in ("pdf", "csv", "texto", "json"):
            saida = tmp_path / f"lista-{qual}.{formato}"
            argumentos = ["listas", qual, "--data", DATA, "-f", formato, "-o", str(saida)]
            r = CliRunner().invoke(cli, [*argumentos, "--banco", database_url])
            assert r.exit_code == 0 and r.exception is None, (qual, formato, r.output, r.exception)
            if formato == "pdf":
                texto = sem_espacos(texto_do_pdf(saida.read_bytes()))
                assert all(sem_espacos(nome) in texto for nome in HOSTIS)
            elif formato == "json":
                itens = json.loads(saida.read_text(encoding="utf-8"))["itens"]
                assert sorted(i["nome"] for i in itens) == sorted(HOSTIS)
            else:
                texto = saida.read_text(encoding="utf-8")
                assert all(nome.strip() in texto for nome in HOSTIS), texto


@pytest.mark.parametrize(
    ("campo", "valor", "mensagem"),
    [
        ("nome", "A\x00B", "caractere nulo"),
        ("cnpj", "12\x00", "caractere nulo"),
        ("id", "\x00", "caractere nulo"),
        ("nome", "Posto \ud800", "substituto isolado"),
        ("nome", "N" * 201, "(máximo 200)"),
        ("cnpj", "1" * 33, "(máximo 32)"),
        ("id", "9" * 201, "(máximo 200)"),
    ],
    ids=["nome-nul", "cnpj-nul", "id-nul", "nome-surrogate", "nome-201", "cnpj-33", "id-201"],
)
def test_texto_que_o_banco_nao_guarda_e_422(
    database_url: str, campo: str, valor: str, mensagem: str
) -> None:
    """NUL (PostgreSQL refuses it), half a UTF-16 pair (UTF-8 cannot write it) and a text
    longer than its column were a 500 on saving (PostgreSQL; the surrogate on SQLite too)."""
    with TestClient(criar_app(database_url), raise_server_exceptions=False) as c:
        processo = {**processos("Posto")[1], campo: valor}
        r = c.post(
            "/api/v1/processos",
            content=json.dumps(processo),
            headers={"Content-Type": "application/json"},
        )
        assert mensagem in erro_pt(r, 422, campo)
        assert c.get("/api/v1/processos").json()["total"] == 0


def test_pdf_de_dados_antigos_com_textos_enormes_ou_invalidos() -> None:
    """Processos stored before the limits (SQLite keeps any length): a cell taller than a
    page, a word wider than its column, NUL and a lone surrogate still make a PDF."""
    nomes = ["X" * 3000, "Posto " * 500, "A\x00B", "C\ud800D", "2025-01-01"]
    itens = [
        {
            "processo_id": i,
            "id": nome,
            "cnpj": nome,
            "nome": nome,
            "data_inclusao": "2026-01-06",
            "comprovacao_adequacao": None,
            "prazo_retirada": None,
        }
        for i, nome in enumerate(nomes, 1)
    ]
    lista = {
        "lista": "balanco",
        "titulo": "Lista de balanço",
        "data": DATA,
        "fundamento": "art. 9º-A",
        "texto": None,
        "itens": itens,
        "avisos": [],
    }
    texto = sem_espacos(texto_do_pdf(lista_pdf(lista, datetime(2026, 2, 1, tzinfo=UTC))))
    # the long cells go on over the next pages (the header repeated): all of both columns
    assert texto.count("X") == 2 * 3000 and texto.count("Posto") == 2 * 500
    assert "A?B" in texto and "C?D" in texto and "2025-01-01" in texto
