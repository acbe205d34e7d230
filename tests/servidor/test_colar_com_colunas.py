"""The page's paste imports (the ledger's and the processos') take a "Colunas (CAMPO=CABEÇALHO,
uma por linha)" field, ``--coluna``'s pairs read by the one mechanism (docs/arquivos.md): the
pasted rows' headers as the ANP writes them, and a hostile value is a pt-BR error beside that
field, naming it, with the value escaped."""

from __future__ import annotations

import re
from html import unescape

import pytest
from fastapi.testclient import TestClient

#: each paste import: its route, rows pasted with a header a "Colunas" pair names, the pair
COLAGENS = [
    pytest.param(
        "/carteira/importar",
        "CNPJ\tRazão social\tAno\tMeta individual\tCBIOs aposentados\tmaior_media_mensal\tUF\n"
        "11.222.333/0001-81\tAlfa\t2025\t1000\t1000\t71,70\tSP\n",
        "meta_cbios=meta individual",
        id="carteira",
    ),
    pytest.param(
        "/processos/importar",
        "Nº do processo\ttipo\tevento\tdata\tObservação\nR-1\tanp\tinfracao\t2024-01-10\tx\n",
        "referencia=Nº do processo",
        id="processos",
    ),
]


@pytest.mark.parametrize(("rota", "colado", "colunas"), COLAGENS)
def test_colagem_com_colunas_e_importada(
    cliente: TestClient, rota: str, colado: str, colunas: str
) -> None:
    dados = {"conteudo": colado, "colunas": colunas, "usuario": "Bia"}
    r = cliente.post(rota, data=dados, follow_redirects=False)
    assert r.status_code == 303, r.text[:2000]


@pytest.mark.parametrize(("rota", "colado", "colunas"), COLAGENS)
@pytest.mark.parametrize(
    ("valor", "trecho"),
    [
        ("meta_cbios", "use CAMPO=CABEÇALHO (ex.: meta_cbios=Meta 2022), não 'meta_cbios'"),
        ("cnpj=<script>alert(1)</script>", "não há coluna 'script_alert_1_script' para cnpj"),
        ("uf=cnpj", "campo desconhecido: 'uf'"),
        ("a=b\n" * 1500, "no máximo 4000 caracteres"),
    ],
)
def test_colunas_hostis_sao_erro_junto_do_campo(
    cliente: TestClient, rota: str, colado: str, colunas: str, valor: str, trecho: str
) -> None:
    r = cliente.post(rota, data={"conteudo": colado, "colunas": valor, "usuario": "Bia"})
    assert r.status_code == 422, r.text[:2000]
    assert "<script>alert" not in r.text
    achado = re.search(r'<p class="mensagem-erro" id="erro-colunas">(.*?)</p>', r.text, re.S)
    assert achado, r.text[:3000]
    assert trecho in unescape(achado[1])
    assert re.search(r'<textarea id="campo-colunas"[^>]*aria-invalid="true"', r.text)
