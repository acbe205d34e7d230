"""Checking the ANP's notice from the page (issue 37, item 7): ``/carteira/distribuidor`` has
the form "Conferir a notificação" (the figures typed, or the notice's file, as the API takes
them), and the comparison table answers it, within the user's clients. Bad input is refused
beside its field, the form back with what was typed (found by a hostile review of item 7): a
year the ledger does not have, a NUL in the CNPJ, a notice file in UTF-16, a cell's error said
once."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from multas.nucleo.escopo import Escopo
from multas.servicos.persistencia import Repositorio
from multas.servicos.persistencia.acesso import Acesso
from multas.servidor import criar_app
from tests.utils import SENHA
from tests.utils.paginas import erros_da_pagina, todos_os_erros

CNPJ_A = "11.222.333/0001-81"
CNPJ_B = "12.ABC.345/01DE-35"
SEM_ARQUIVO = {"arquivo": ("", b"", "application/octet-stream")}

Cena = tuple[TestClient, dict[str, str]]


def _ano(cnpj: str, nome: str) -> dict[str, Any]:
    return {
        "cnpj": cnpj,
        "nome": nome,
        "ano": 2024,
        "meta_cbios": 1000,
        "cbios_aposentados": 400,
        "meta_anterior_cumprida": True,
        "maior_media_mensal": "70.00",
    }


@pytest.fixture
def cena(tmp_path: Path) -> Iterator[Cena]:
    url = f"sqlite:///{tmp_path / 'm.db'}"
    repo = Repositorio(url)
    acesso = Acesso(repo)
    limitado = acesso.criar("léo de A", "leitura", SENHA, "teste", Escopo.de([CNPJ_A]))
    admin = acesso.criar("bia", "admin", SENHA, "teste")
    repo.fechar()
    with TestClient(criar_app(url), raise_server_exceptions=False) as c:
        for cnpj, nome in ((CNPJ_A, "Alfa"), (CNPJ_B, "Bravo")):
            r = c.post(
                "/api/v1/carteira",
                json=_ano(cnpj, nome),
                headers={"Authorization": f"Bearer {admin}"},
            )
            assert r.status_code in (200, 201), r.text
        yield c, {"Authorization": f"Bearer {limitado}", "Accept": "text/html"}


def _celulas(html: str, campo: str) -> list[str]:
    linha = re.search(rf'<tr id="conferir-item-{campo}"[^>]*>(.*?)</tr>', html, re.S)
    assert linha, html[:3000]
    return [
        " ".join(unescape(re.sub(r"<[^>]+>", "", c)).split())
        for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", linha[1], re.S)
    ]


def test_formulario_na_pagina_do_distribuidor_e_a_tabela_da_conferencia(
    cena: Cena,
) -> None:
    c, cab = cena
    pagina = c.get(f"/carteira/distribuidor?cnpj={CNPJ_A}", headers=cab)
    assert pagina.status_code == 200
    assert 'action="/carteira/conferir"' in pagina.text and "Conferir a notificação" in pagina.text
    dados = {"cnpj": CNPJ_A, "ano": "2024", "meta_publicada": "1.200", "valor_multa": "42.000,00"}
    r = c.post("/carteira/conferir", data=dados, files=SEM_ARQUIVO, headers=cab)
    assert r.status_code == 200, r.text[:3000]
    assert _celulas(r.text, "meta_publicada")[1:4] == ["1.200", "1.000", "+200"]
    assert _celulas(r.text, "valor_multa")[1] == "R$ 42.000,00"
    assert 'id="tabela-conferencia"' in r.text
    # what was typed stays in the form, to check again
    assert 'value="42.000,00"' in r.text


def test_arquivo_da_notificacao_como_a_api_o_le(cena: Cena) -> None:
    c, cab = cena
    arquivo = json.dumps({"meta_publicada": 1000, "cbios_aposentados": 300}).encode()
    r = c.post(
        "/carteira/conferir",
        data={"cnpj": CNPJ_A, "ano": "2024"},
        files={"arquivo": ("notificacao.json", arquivo, "application/json")},
        headers=cab,
    )
    assert r.status_code == 200, r.text[:3000]
    assert _celulas(r.text, "cbios_aposentados")[1:4] == ["300", "400", "-100"]
    assert _celulas(r.text, "meta_publicada")[3] == "igual"


def test_todos_os_erros_ao_lado_dos_campos(cena: Cena) -> None:
    c, cab = cena
    dados = {"cnpj": CNPJ_A, "ano": "2024", "meta_publicada": "abc", "preco": "-1"}
    r = c.post("/carteira/conferir", data=dados, files=SEM_ARQUIVO, headers=cab)
    assert r.status_code == 422
    titulo = "A notificação não pôde ser conferida: 2 erros"
    todos_os_erros(r.text, titulo, ["meta_publicada", "preco"], prefixo="conferir-")
    assert 'value="abc"' in r.text


def test_outro_cliente_nao_e_conferido(cena: Cena) -> None:
    c, cab = cena
    dados = {"cnpj": CNPJ_B, "ano": "2024", "meta_publicada": "1000"}
    r = c.post("/carteira/conferir", data=dados, files=SEM_ARQUIVO, headers=cab)
    assert r.status_code == 404
    assert "Bravo" not in r.text


# --- refusals ------------------------------------------------------------------------------------


def _erro(html: str, campo: str) -> str:
    """The message beside ``campo`` (``erro-conferir-<campo>``)."""
    ao_lado = erros_da_pagina(html).ao_lado
    assert f"conferir-{campo}" in ao_lado, (campo, ao_lado)
    return ao_lado[f"conferir-{campo}"].removeprefix("Erro: ")


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


def test_ano_fora_da_carteira_volta_o_formulario_com_o_erro_no_ano(cena: Cena) -> None:
    c, cab = cena
    dados = {"cnpj": CNPJ_A, "ano": "2023", "meta_publicada": "1.234", "valor_multa": "42.000,00"}
    r = c.post("/carteira/conferir", data=dados, files=SEM_ARQUIVO, headers=cab)
    assert r.status_code == 422, r.text[:3000]
    assert 'id="form-conferir"' in r.text  # the form again, not a whole 404 page
    assert 'value="1.234"' in r.text and 'value="42.000,00"' in r.text  # nothing typed is lost
    mensagem = _erro(r.text, "ano")
    # one error: the shared summary's heading without a count, and the error in a paragraph
    erros = todos_os_erros(r.text, "A notificação não pôde ser conferida", ["ano"], "conferir-")
    assert erros.resumo == [f"Ano da meta: {mensagem}"] and "lista-erros" not in r.text
    assert "2023" in mensagem and "não está na carteira" in mensagem and "2024" in mensagem
    assert re.search(r'<option value="2023" selected>', r.text)  # the year sent, still chosen


def test_cnpj_longo_demais_e_recusado_nao_cortado(cena: Cena) -> None:
    """A CNPJ of the ledger followed by spaces and more text was cut at 64 characters, and
    the notice was compared with that distributor's years: the rest was never read."""
    c, cab = cena
    dados = {"cnpj": CNPJ_A + " " * 60 + "lixo", "ano": "2024", "meta_publicada": "1.234"}
    r = c.post("/carteira/conferir", data=dados, files=SEM_ARQUIVO, headers=cab)
    assert r.status_code == 422, r.text[:3000]
    assert "texto longo demais" in _erro(r.text, "cnpj") and 'value="1.234"' in r.text
    assert 'id="tabela-conferencia"' not in r.text


def test_cnpj_com_caractere_nulo_e_erro_do_campo(cena: Cena) -> None:
    c, cab = cena
    dados = {"cnpj": CNPJ_A + "\x00", "ano": "2024", "meta_publicada": "1.234"}
    r = c.post("/carteira/conferir", data=dados, files=SEM_ARQUIVO, headers=cab)
    assert r.status_code == 422, r.text[:3000]
    assert 'id="form-conferir"' in r.text and 'value="1.234"' in r.text
    assert "caractere nulo" in _erro(r.text, "cnpj")
    assert "\x00" not in r.text


def test_csv_em_utf16_e_recusado_com_mensagem_clara(cena: Cena) -> None:
    c, cab = cena
    texto = "meta_publicada,valor_multa\n1200,42000.00\n"
    for conteudo in (texto.encode("utf-16"), texto.encode("utf-16-le")):  # with a BOM or not
        mensagem = _arquivo(c, cab, "notificacao.csv", conteudo)
        assert "UTF-16" in mensagem and "salve-o como UTF-8" in mensagem, mensagem
        assert "linhas de dados" not in mensagem


def test_csv_latin1_diz_a_coluna_uma_vez(cena: Cena) -> None:
    c, cab = cena
    conteudo = "meta_publicada;preço;valor_multa\n1200;abc;-1\n".encode("latin-1")
    mensagem = _arquivo(c, cab, "notificação.csv", conteudo)
    assert mensagem.startswith("linha 2, coluna preco: número inválido: 'abc'"), mensagem
    assert "preco: linha 2" not in mensagem
    assert "linha 2, coluna valor_multa:" in mensagem  # every error of the row, not the first
