"""The page's "Conferir a notificação" form refuses bad input beside its field, the form back
with what was typed (found by a hostile review of issue 37, item 7): a year the ledger does not
have, a NUL in the CNPJ, a notice file in UTF-16, a cell's error said once."""

from __future__ import annotations

import re
from html import unescape

from fastapi.testclient import TestClient

from tests.servidor.test_conferir_pagina import CNPJ_A, SEM_ARQUIVO, cena  # noqa: F401

Cena = tuple[TestClient, dict[str, str]]


def _erro(html: str, campo: str) -> str:
    """The message beside ``campo`` (``erro-conferir-<campo>``), tags and escapes gone."""
    achado = re.search(
        rf'<p class="mensagem-erro" id="erro-conferir-{campo}">(.*?)</p>', html, re.S
    )
    assert achado, html[:4000]
    return " ".join(unescape(re.sub(r"<[^>]+>", "", achado[1])).split()).removeprefix("Erro: ")


def _arquivo(c: TestClient, cab: dict[str, str], nome: str, conteudo: bytes) -> str:
    r = c.post(
        "/carteira/conferir",
        data={"cnpj": CNPJ_A, "ano": "2024"},
        files={"arquivo": (nome, conteudo, "text/csv")},
        headers=cab,
    )
    assert r.status_code == 422, r.text[:3000]
    assert 'id="form-conferir"' in r.text
    return _erro(r.text, "arquivo")


def test_ano_fora_da_carteira_volta_o_formulario_com_o_erro_no_ano(cena: Cena) -> None:  # noqa: F811
    c, cab = cena
    dados = {"cnpj": CNPJ_A, "ano": "2023", "meta_publicada": "1.234", "valor_multa": "42.000,00"}
    r = c.post("/carteira/conferir", data=dados, files=SEM_ARQUIVO, headers=cab)
    assert r.status_code == 422, r.text[:3000]
    assert 'id="form-conferir"' in r.text  # the form again, not a whole 404 page
    assert 'value="1.234"' in r.text and 'value="42.000,00"' in r.text  # nothing typed is lost
    mensagem = _erro(r.text, "ano")
    assert "2023" in mensagem and "não está na carteira" in mensagem and "2024" in mensagem
    assert re.search(r'<option value="2023" selected>', r.text)  # the year sent, still chosen


def test_cnpj_com_caractere_nulo_e_erro_do_campo(cena: Cena) -> None:  # noqa: F811
    c, cab = cena
    dados = {"cnpj": CNPJ_A + "\x00", "ano": "2024", "meta_publicada": "1.234"}
    r = c.post("/carteira/conferir", data=dados, files=SEM_ARQUIVO, headers=cab)
    assert r.status_code == 422, r.text[:3000]
    assert 'id="form-conferir"' in r.text and 'value="1.234"' in r.text
    assert "caractere nulo" in _erro(r.text, "cnpj")
    assert "\x00" not in r.text


def test_csv_em_utf16_e_recusado_com_mensagem_clara(cena: Cena) -> None:  # noqa: F811
    c, cab = cena
    texto = "meta_publicada,valor_multa\n1200,42000.00\n"
    for conteudo in (texto.encode("utf-16"), texto.encode("utf-16-le")):  # with a BOM or not
        mensagem = _arquivo(c, cab, "notificacao.csv", conteudo)
        assert "UTF-16" in mensagem and "salve-o como UTF-8" in mensagem, mensagem
        assert "linhas de dados" not in mensagem


def test_csv_latin1_diz_a_coluna_uma_vez(cena: Cena) -> None:  # noqa: F811
    c, cab = cena
    conteudo = "meta_publicada;preço;valor_multa\n1200;abc;-1\n".encode("latin-1")
    mensagem = _arquivo(c, cab, "notificação.csv", conteudo)
    assert mensagem.startswith("linha 2, coluna preco: número inválido: 'abc'"), mensagem
    assert "preco: linha 2" not in mensagem
    assert "linha 2, coluna valor_multa:" in mensagem  # every error of the row, not the first
