"""Every list that grows with the data is paged, by one mechanism (multas.servidor.paginacao):
bounded by default, ``limite``/``deslocamento`` pick the part asked for (the API tells the
total in X-Total-Count; a page links "anterior"/"próxima"), and a hostile ``limite`` or
``deslocamento`` is the same pt-BR 422 as ``GET /api/v1/casos`` gives. Issue 32, item 9: the
ledger listed 167,000 years at once (8.5 s and 7.7 MB from the API, 21 MB of HTML).

One database per engine for the module, seeded once with more than a page of each list:
distributors, cases, processos (with deadlines and on a list), deleted ledger years (the
bin) and the audit rows all of that wrote."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from multas import __version__, calcular
from multas.nucleo.cnpj import normalizar
from multas.nucleo.json_exato import ler_json
from multas.servicos.persistencia import Repositorio
from multas.servicos.persistencia.modelos_ciclo import AnoCarteiraSalvo
from multas.servidor import criar_app
from tests.utils import cnpj_valido
from tests.utils.casos import ENTRADA

#: more than a page (50) of each list
N = 55


def _cnpj(i: int) -> str:
    """The i-th distributor's CNPJ (its check digits right: the ledger refuses any other)."""
    return normalizar(cnpj_valido(10_000_000 + i))


@pytest.fixture(scope="module")
def cliente(database_url_do_modulo: str) -> Iterator[TestClient]:
    url = database_url_do_modulo
    with TestClient(criar_app(url), raise_server_exceptions=False) as c:
        # N distributors, and N more whose year is deleted below (the bin)
        anos = ["cnpj,ano,meta_cbios,cbios_aposentados"]
        anos += [f"{_cnpj(i)},2024,100,100" for i in range(2 * N)]
        assert c.post("/api/v1/carteira/importar", content="\n".join(anos)).status_code == 200
        # an anp processo with deadlines in the work queue, a list processo on the referral list
        linhas = ["referencia,tipo,cnpj,nome,evento,data"]
        for i in range(N):
            cnpj = _cnpj(i)
            linhas += [
                f"A{i},anp,{cnpj},A {i},infracao,2025-01-10",
                f"A{i},anp,{cnpj},A {i},auto_infracao,2025-01-20",
                f"L{i},renovabio.lista,{cnpj},L {i},fim_prazo_meta,2025-03-31",
            ]
        importado = c.post("/api/v1/processos/importar", content="\n".join(linhas))
        assert importado.status_code == 200, importado.text
        repo = Repositorio(url)
        resultado = calcular(ler_json(ENTRADA))
        for _ in range(N):
            repo.salvar(
                regime=resultado["regime"],
                entrada=ENTRADA,
                resultado=resultado,
                versao_motor=__version__,
                versao_legislacao="teste",
            )
        with repo.escrita("teste") as escrita:
            for i in range(N, 2 * N):
                linha = escrita.sessao.scalar(
                    select(AnoCarteiraSalvo.id).where(AnoCarteiraSalvo.cnpj == _cnpj(i))
                )
                escrita.excluir(AnoCarteiraSalvo, int(linha), "carteira_excluir")
        repo.fechar()
        yield c


# --- the lists -------------------------------------------------------------------------------


def _linhas(resposta: Any) -> list[str]:
    """A page's list: the rows of its one table's body."""
    corpos = re.findall(r"<tbody>(.*?)</tbody>", resposta.text, re.S)
    assert len(corpos) <= 1, "mais de uma tabela na página"
    return [linha.strip() for linha in re.findall(r"<tr.*?</tr>", "".join(corpos), re.S)]


def _json(chave: str, campo: str) -> Callable[[Any], list[str]]:
    return lambda resposta: [str(item[campo]) for item in resposta.json()[chave]]


def _lista_json(campo: str) -> Callable[[Any], list[str]]:
    return lambda resposta: [str(item[campo]) for item in resposta.json()]


def _prazos(resposta: Any) -> list[str]:
    return [f"{p['processo_id']} {p['prazo']}" for p in resposta.json()["prazos"]]


def _lixeira(resposta: Any) -> list[str]:
    return [f"{i['tipo']} {i['id']}" for i in resposta.json()["itens"]]


@dataclass(frozen=True)
class Lista:
    """A list route or page: its address, how its items are read, its default and maximum
    ``limite``, and whether it tells the total in X-Total-Count (the API)."""

    caminho: str
    itens: Callable[[Any], list[str]]
    padrao: int = 50
    maximo: int = 500

    @property
    def api(self) -> bool:
        return self.caminho.startswith("/api/")

    def __str__(self) -> str:
        return self.caminho


FILA = "data_referencia=2025-02-01&dias=3660"
LISTAS = [
    Lista("/api/v1/carteira", _lista_json("cnpj")),
    Lista("/api/v1/casos", _json("casos", "id")),
    Lista("/api/v1/processos", _json("processos", "processo_id")),
    Lista("/api/v1/lixeira", _lixeira),
    Lista("/api/v1/auditoria", _lista_json("id"), 200, 1000),
    Lista("/api/v1/auditoria/clientes", _lista_json("id"), 200, 1000),
    Lista(f"/api/v1/pendencias?{FILA}", _prazos),
    Lista(f"/api/v1/prazos/proximos?{FILA}", _prazos),
    Lista("/api/v1/listas/encaminhamento?data=2025-07-01", _json("itens", "processo_id")),
    Lista("/carteira", _linhas),
    Lista("/casos", _linhas, padrao=25),
    Lista("/processos", _linhas),
    Lista("/lixeira", _linhas),
    Lista("/auditoria", _linhas),
    Lista("/auditoria/clientes", _linhas),
    Lista(f"/pendencias?{FILA}", _linhas),
    Lista(f"/prazos?{FILA}", _linhas),
    Lista("/listas?lista=encaminhamento&data=2025-07-01", _linhas),
]


def _com(lista: Lista, **consulta: object) -> str:
    extra = "&".join(f"{chave}={valor}" for chave, valor in consulta.items())
    separador = "&" if "?" in lista.caminho else "?"
    return lista.caminho + (separador + extra if extra else "")


def _tudo(c: TestClient, lista: Lista) -> list[str]:
    """The whole list, read ``maximo`` items at a time."""
    itens: list[str] = []
    while True:
        resposta = c.get(_com(lista, limite=lista.maximo, deslocamento=len(itens)))
        assert resposta.status_code == 200, resposta.text[:300]
        pagina = lista.itens(resposta)
        itens += pagina
        if len(pagina) < lista.maximo:
            break
    assert len(itens) > lista.padrao, (lista.caminho, len(itens))
    if lista.api:
        assert resposta.headers["X-Total-Count"] == str(len(itens))
    return itens


@pytest.mark.parametrize("lista", LISTAS, ids=str)
def test_lista_paginada(cliente: TestClient, lista: Lista) -> None:
    """Without ``limite``, the first ``padrao`` items (the API tells the total; a page links
    to the next one, which shows the next items); ``limite`` and ``deslocamento`` pick any
    part, past the end an empty one."""
    tudo = _tudo(cliente, lista)
    total = len(tudo)
    resposta = cliente.get(lista.caminho)
    assert resposta.status_code == 200, resposta.text[:300]
    assert lista.itens(resposta) == tudo[: lista.padrao]
    if lista.api:
        assert resposta.headers["X-Total-Count"] == str(total)
    else:
        assert "← anterior" not in resposta.text
        [proxima] = re.findall(r'<a href="([^"]*)" rel="next">próxima →</a>', resposta.text)
        seguinte = cliente.get(unescape(proxima))
        assert lista.itens(seguinte) == tudo[lista.padrao : 2 * lista.padrao]
        fim = min(total, 2 * lista.padrao)
        assert f"{lista.padrao + 1} a {fim} de {total}" in seguinte.text
        assert '" rel="prev">← anterior</a>' in seguinte.text
    for limite, deslocamento in ((7, 3), (10, total - 2), (5, 2**63 - 1)):
        resposta = cliente.get(_com(lista, limite=limite, deslocamento=deslocamento))
        assert resposta.status_code == 200, (limite, deslocamento, resposta.text[:300])
        esperado = tudo[deslocamento : deslocamento + limite]
        assert lista.itens(resposta) == esperado, (limite, deslocamento)
        if lista.api:
            assert resposta.headers["X-Total-Count"] == str(total)


# --- hostile values: one pt-BR 422, the one GET /api/v1/casos gives ---------------------------


@pytest.fixture(scope="module")
def vazio(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """The app on an empty database: the parameters are refused before any query."""
    pasta: Path = tmp_path_factory.mktemp("paginacao")
    with TestClient(
        criar_app(f"sqlite:///{pasta / 'multas.db'}"), raise_server_exceptions=False
    ) as c:
        yield c


HOSTIS = {
    "limite": ["0", "-1", "-0", "1000001", str(2**63), str(10**30), "abc", "1.5", "1e3", "%205"],
    "deslocamento": ["-1", str(2**63), str(10**30), "x", "1.0"],
}


@pytest.mark.parametrize("lista", LISTAS, ids=str)
@pytest.mark.parametrize(
    ("parametro", "valor"), [(p, v) for p, valores in HOSTIS.items() for v in valores]
)
def test_limite_hostil_e_o_mesmo_422_em_toda_lista(
    vazio: TestClient, lista: Lista, parametro: str, valor: str
) -> None:
    referencia = vazio.get(f"/api/v1/casos?{parametro}={valor}")
    assert referencia.status_code == 422, referencia.text
    erro = referencia.json()["erro"]
    assert erro["campo"] == parametro
    assert erro["mensagem"].startswith(("deve ser um número inteiro", "valor fora do intervalo"))
    resposta = vazio.get(_com(lista, **{parametro: valor}))
    # the same problem, but for its ``instance``: the path asked
    mesmo = {k: v for k, v in referencia.json().items() if k != "instance"}
    assert resposta.status_code == 422
    assert {k: v for k, v in resposta.json().items() if k != "instance"} == mesmo
