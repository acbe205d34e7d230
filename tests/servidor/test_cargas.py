"""One import of a file at a time per server process (issue 32, item 1): while one runs,
another sent to any import route (the API's and the pages', the ledger's and the processos')
is refused at once with a pt-BR 429 and ``Retry-After``, having read and written nothing; the
next one, once the turn is free, runs."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from multas.servicos.cargas import TENTAR_DE_NOVO_EM, uma_por_vez
from multas.servicos.persistencia import Repositorio
from multas.servicos.persistencia.modelos import RegistroAuditoria
from multas.servidor import criar_app

CARTEIRA = "cnpj,ano,meta_cbios,cbios_aposentados\n11222333000181,2024,1000,900\n"
PROCESSOS = "referencia,tipo,cnpj,evento,data\nN{},anp,11222333000181,infracao,2024-01-10\n"

#: route → (its path, how the file is sent)
ROTAS = {
    "api-carteira": ("/api/v1/carteira/importar?formato=csv", {"content": CARTEIRA}),
    "api-processos": ("/api/v1/processos/importar?formato=csv", {"content": PROCESSOS.format(1)}),
    "pagina-carteira": ("/carteira/importar", {"data": {"conteudo": CARTEIRA}}),
    "pagina-processos": ("/processos/importar", {"data": {"conteudo": PROCESSOS.format(2)}}),
}


@pytest.fixture(scope="module")
def banco(tmp_path_factory: pytest.TempPathFactory) -> str:
    return f"sqlite:///{tmp_path_factory.mktemp('cargas') / 'multas.db'}"


@pytest.fixture(scope="module")
def cliente(banco: str) -> Iterator[TestClient]:
    with TestClient(criar_app(banco), raise_server_exceptions=False) as c:
        yield c


@pytest.fixture(scope="module")
def repo(banco: str) -> Iterator[Repositorio]:
    r = Repositorio(banco)
    yield r
    r.fechar()


def _gravacoes(repo: Repositorio) -> int:
    """How many rows the audit chain has: every write appends to it."""
    with repo.leitura() as sessao:
        return int(sessao.scalar(select(func.count()).select_from(RegistroAuditoria)) or 0)


@pytest.mark.parametrize("rota", ROTAS)
def test_uma_importacao_por_vez(cliente: TestClient, repo: Repositorio, rota: str) -> None:
    caminho, corpo = ROTAS[rota]
    antes = _gravacoes(repo)
    with uma_por_vez():  # another import holds the turn
        r: Any = cliente.post(caminho, follow_redirects=False, **corpo)
    assert r.status_code == 429, r.text
    assert r.headers["Retry-After"] == str(TENTAR_DE_NOVO_EM)
    assert "outra importação de arquivo está em andamento" in r.text
    assert _gravacoes(repo) == antes  # nothing written
    r = cliente.post(caminho, follow_redirects=False, **corpo)
    assert r.status_code in (200, 303), r.text
    assert _gravacoes(repo) > antes  # the turn is free again: it ran


def test_um_distribuidor_em_importacao_recusa_outra_gravacao(
    cliente: TestClient, repo: Repositorio
) -> None:
    """While an import in parts of a distributor runs (one part of it written), another
    user's save of its years is a pt-BR 409 with ``Retry-After``, and nothing is written."""
    from multas.servicos.gestao import Ciclo
    from multas.servicos.persistencia import cargas

    ciclo = Ciclo(repo)
    entrada = {"cnpj": "11222333000181", "ano": 2030, "meta_cbios": 10, "cbios_aposentados": 10}
    with repo.escrita("ana") as escrita:
        carga_id = cargas.abrir(escrita, "carteira")
        cargas.renovar(escrita, carga_id, 1)
        linha = ("11222333000181", 2030, None, entrada)
        ciclo.repo._salvar_anos_em(escrita, [linha], None, None, carga_id)
    antes = _gravacoes(repo)
    try:
        r = cliente.post("/api/v1/carteira", json=entrada | {"cbios_aposentados": 5})
        assert r.status_code == 409, r.text
        assert r.headers["Retry-After"] == str(TENTAR_DE_NOVO_EM)
        assert f"estão sendo importados agora (importação nº {carga_id});" in r.text
        assert _gravacoes(repo) == antes
    finally:
        with repo.escrita("ana") as escrita:
            cargas.desfazer(escrita, carga_id, "teste")
        ciclo.repo.limpar_cargas()
