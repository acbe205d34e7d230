"""A processos file gives every error of every row's own cells at once, in the file's order
(issue 37, item 9); the first is the one it always gave, and nothing is stored."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from multas.nucleo.arquivos import LINHA_DE_COMANDO
from multas.nucleo.erros import MAXIMO_ERROS_DAS_LINHAS, EntradaInvalida
from multas.servicos.gestao import Ciclo
from multas.servicos.importar import importar_processos, ler_arquivo
from multas.servicos.persistencia import Repositorio
from multas.servidor import criar_app
from tests.utils import problema

#: line 2: a bad date and a bad fine; line 3: a good row; line 4: a referencia too long, a
#: bad date and a day that does not exist among the days without business hours
ARQUIVO = (
    "referencia,tipo,evento,data,valor_multa,dias_sem_expediente\n"
    "A,anp,infracao,2024-13-01,muitos,\n"
    "B,anp,infracao,2024-01-10,10,\n" + "X" * 201 + ",anp,infracao,ontem,,2024-02-30\n"
)


@pytest.fixture
def banco(tmp_path: Path) -> Iterator[str]:
    url = f"sqlite:///{tmp_path / 'm.db'}"
    repo = Repositorio(url)
    repo.migrar()
    repo.fechar()
    yield url


def _recusa(url: str, conteudo: str) -> EntradaInvalida:
    repo = Repositorio(url)
    try:
        planilha = ler_arquivo(conteudo.encode(), "p.csv", False, LINHA_DE_COMANDO)
        with pytest.raises(EntradaInvalida) as info:
            importar_processos(Ciclo(repo), planilha, "Ana")
        assert Ciclo(repo).listar(limite=None) == []  # nothing stored
    finally:
        repo.fechar()
    return info.value


def test_cada_erro_de_cada_linha_de_uma_vez(banco: str) -> None:
    erro = _recusa(banco, ARQUIVO)
    onde = [(e.campo, e.mensagem.partition(":")[0]) for e in erro.todos()]
    assert onde == [
        ("data", "linha 2, coluna data"),
        ("valor_multa", "linha 2, coluna valor_multa"),
        ("referencia", "linha 4, coluna referencia"),
        ("data", "linha 4, coluna data"),
        ("dias_sem_expediente", "linha 4, coluna dias_sem_expediente"),
    ]
    # the first is the one the file always gave
    assert erro.campo == "data" and erro.mensagem.startswith("linha 2, coluna data: data")


def test_muitas_linhas_ruins_dao_uma_lista_limitada(banco: str) -> None:
    linhas = "".join(f"R{i},anp,infracao,ontem\n" for i in range(MAXIMO_ERROS_DAS_LINHAS + 50))
    erros = _recusa(banco, "referencia,tipo,evento,data\n" + linhas).todos()
    assert len(erros) == MAXIMO_ERROS_DAS_LINHAS
    assert erros[-1].campo is None and erros[-1].mensagem.startswith("e mais 51 erros")


def test_a_api_lista_todos_os_erros_do_arquivo(banco: str) -> None:
    with TestClient(criar_app(banco), raise_server_exceptions=False) as cliente:
        resposta = cliente.post("/api/v1/processos/importar?formato=csv", content=ARQUIVO)
    corpo = problema(resposta, 422)
    assert [(e["campo"], e["linha"]) for e in corpo["erros"]] == [
        ("data", 2),
        ("valor_multa", 2),
        ("referencia", 4),
        ("data", 4),
        ("dias_sem_expediente", 4),
    ]


def test_a_pagina_mostra_todos_os_erros_das_linhas_coladas(banco: str) -> None:
    colado = ARQUIVO.replace(",", "\t")
    with TestClient(criar_app(banco), raise_server_exceptions=False) as cliente:
        resposta = cliente.post("/processos/importar", data={"conteudo": colado})
    assert resposta.status_code == 422
    resumo = resposta.text.split('id="resumo-erro-importar"')[1].split("</div>")[0]
    assert "5 erros" in resumo
    for onde in ("linha 2, coluna data", "linha 2, coluna valor_multa", "linha 4, coluna data"):
        assert onde in resumo
