"""The lifecycle's tables as safe as the saved cases (issue 15): a stored processo that the rules
no longer accept is listed with its erro everywhere (never a failed listing, never hidden) and
named by ``multas auditoria verificar``; a tampered linked case never changes a processo's
amounts; a ledger import is all or nothing; ``verificar`` names the table and the row."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from sqlalchemy import func, select, text

from multas.nucleo.erros import EntradaInvalida
from multas.principal import cli
from multas.servicos.gestao import Ciclo
from multas.servicos.persistencia.escrita import Escrita
from multas.servicos.persistencia.modelos_ciclo import AnoCarteiraSalvo
from multas.servidor import criar_app
from tests.utils import cnpj_valido
from tests.utils.processos import invalidar

LISTA = {
    "tipo": "renovabio.lista",
    "cnpj": "12.345.678/0001-95",
    "nome": "Distribuidora Exemplo",
    "eventos": [
        {"evento": "fim_prazo_meta", "data": "2025-03-31"},
        {"evento": "decisao_primeira_instancia", "data": "2025-06-02"},
        {"evento": "inclusao_lista", "data": "2025-06-03"},
    ],
}


@pytest.fixture
def cliente(database_url: str) -> Iterator[TestClient]:
    with TestClient(criar_app(database_url), raise_server_exceptions=False) as c:
        yield c


def _ciclo(cliente: TestClient) -> Ciclo:
    return cliente.app.state.servico.ciclo  # type: ignore[attr-defined,no-any-return]


def test_processo_que_as_regras_recusam_aparece_com_erro_em_toda_listagem(
    cliente: TestClient,
) -> None:
    bom = cliente.post("/api/v1/processos", json=LISTA).json()["processo_id"]
    ruim = cliente.post("/api/v1/processos", json=LISTA | {"nome": "Ruim"}).json()["processo_id"]
    invalidar(_ciclo(cliente).repositorio, ruim)

    listagem = cliente.get("/api/v1/processos")
    assert listagem.status_code == 200
    por_id = {p["processo_id"]: p for p in listagem.json()["processos"]}
    assert "erro" not in por_id[bom] and "não é válido" in por_id[ruim]["erro"]

    detalhe = cliente.get(f"/api/v1/processos/{ruim}")
    assert detalhe.status_code == 200 and detalhe.json()["resultado"] is None
    assert detalhe.json()["erro"] and len(detalhe.json()["eventos"]) == 4

    proximos = cliente.get("/api/v1/prazos/proximos?hoje=2025-06-03&dias=3660").json()["prazos"]
    assert proximos[0]["processo_id"] == ruim and proximos[0]["erro"]
    assert any(p["processo_id"] == bom and not p.get("erro") for p in proximos)

    ics = cliente.get("/api/v1/prazos/calendario.ics")
    assert ics.status_code == 200 and f"[ERRO] Processo {ruim}" in ics.text

    sancoes = cliente.get("/api/v1/listas/sancoes?data=2025-07-01").json()
    assert [i["processo_id"] for i in sancoes["itens"]] == [bom]  # never listed on its strength
    assert [e["processo_id"] for e in sancoes["erros"]] == [ruim]  # nor silently left off
    assert any(str(ruim) in aviso for aviso in sancoes["avisos"])
    for formato in ("csv", "pdf"):
        assert (
            cliente.get(f"/api/v1/listas/sancoes?data=2025-07-01&formato={formato}").status_code
            == 200
        )

    for pagina in (
        "/processos",
        "/prazos?data=2025-06-03&dias=3660",
        f"/processos/{ruim}",
        "/listas",
    ):
        resposta = cliente.get(pagina)
        assert resposta.status_code == 200, pagina
    assert "não pôde ser lido" in cliente.get("/processos").text

    # named by verificar, and corrected by undoing the last event
    r = CliRunner().invoke(
        cli,
        ["auditoria", "verificar", "--banco", _ciclo(cliente).repositorio.url, "-f", "json"],
    )
    assert r.exit_code == 1
    problemas = json.loads(r.stdout)["problemas"]
    assert [(p["tipo"], p["tabela"], p["id"]) for p in problemas] == [
        ("inválido", "processos", ruim)
    ]
    assert cliente.delete(f"/api/v1/processos/{ruim}/eventos/ultimo").status_code == 200
    assert _ciclo(cliente).verificar().integro


def test_desfazer_que_deixaria_o_processo_invalido_nao_grava(cliente: TestClient) -> None:
    pid = cliente.post("/api/v1/processos", json=LISTA).json()["processo_id"]
    c = _ciclo(cliente)

    def recusar(_restante: Any) -> None:
        raise EntradaInvalida("evento", "recusado")

    antes = c.obter(pid).armazenado.eventos
    with pytest.raises(EntradaInvalida):
        c.repo.remover_ultimo_evento(pid, "ana", recusar)
    assert c.obter(pid).armazenado.eventos == antes
    assert c.verificar().integro


def test_caso_vinculado_adulterado_nao_muda_a_multa_do_processo(cliente: TestClient) -> None:
    caso = cliente.post(
        "/api/v1/casos", json={"regime": "anp.infracao", "inciso": "XI", "valor": "750000.00"}
    ).json()["id"]
    processo = {
        "tipo": "anp",
        "caso_id": caso,
        "eventos": [
            {"evento": "infracao", "data": "2024-01-02"},
            {"evento": "auto_infracao", "data": "2024-02-01"},
            {"evento": "ciencia_primeira_instancia", "data": "2024-04-01"},
            {"evento": "renuncia_recurso", "data": "2024-04-02"},
            {"evento": "ciencia_decisao_definitiva", "data": "2024-04-03"},
        ],
    }
    pid = cliente.post("/api/v1/processos", json=processo).json()["processo_id"]
    assert cliente.get(f"/api/v1/processos/{pid}").json()["multa"]["resultado"]["valor"]
    with _ciclo(cliente).repositorio.engine.begin() as c:
        c.execute(text("UPDATE casos SET valor = '1.00' WHERE id = :i"), {"i": caso})
    multa = cliente.get(f"/api/v1/processos/{pid}").json()["multa"]
    assert multa["resultado"] is None and "não confere" in multa["erro"]
    pagina = cliente.get(f"/processos/{pid}").text
    assert "A multa não é mostrada" in pagina and "R$ 1,00" not in pagina


def test_importacao_da_carteira_e_tudo_ou_nada(
    cliente: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    cabecalho = "cnpj,ano,meta_cbios,cbios_aposentados,meta_anterior_cumprida\n"
    linhas = [f"{cnpj_valido(f'{i:02d}345678')},2024,1000,900,true\n" for i in range(1, 7)]
    ruim = cabecalho + "".join(linhas[:2]) + f"{cnpj_valido('03345678')},2024,mil,900,true\n"
    resposta = cliente.post("/api/v1/carteira/importar?formato=csv", content=ruim.encode())
    assert resposta.status_code == 422
    repo = _ciclo(cliente).repositorio

    def anos() -> int:
        with repo.leitura() as sessao:
            return int(sessao.scalar(select(func.count()).select_from(AnoCarteiraSalvo)) or 0)

    assert anos() == 0
    # a failure in the middle of writing (the database failing once the rows were written)
    # stores nothing
    original = Escrita.inserir_linhas

    def falhar_depois_de_gravar(self: Escrita, modelo: Any, *args: Any, **kw: Any) -> Any:
        original(self, modelo, *args, **kw)
        assert modelo is AnoCarteiraSalvo and anos_na_transacao(self) == 6
        raise RuntimeError("o banco caiu")

    def anos_na_transacao(escrita: Escrita) -> int:
        consulta = select(func.count()).select_from(AnoCarteiraSalvo)
        return int(escrita.sessao.scalar(consulta) or 0)

    monkeypatch.setattr(Escrita, "inserir_linhas", falhar_depois_de_gravar)
    resposta = cliente.post(
        "/api/v1/carteira/importar?formato=csv", content=(cabecalho + "".join(linhas)).encode()
    )
    assert resposta.status_code == 500
    assert anos() == 0 and _ciclo(cliente).verificar().integro
    monkeypatch.undo()
    resposta = cliente.post(
        "/api/v1/carteira/importar?formato=csv", content=(cabecalho + "".join(linhas)).encode()
    )
    assert resposta.status_code == 200 and anos() == 6


@pytest.mark.parametrize(
    ("tabela", "sql", "rotulo"),
    [
        (
            "processo_eventos",
            "UPDATE processo_eventos SET data = '2025-04-30' WHERE id = 2",
            "evento",
        ),
        ("processo_eventos", "DELETE FROM processo_eventos WHERE id = 3", "evento"),
        ("carteira_anos", "UPDATE carteira_anos SET ano = 2023 WHERE id = 1", "ano da carteira"),
        ("usuarios", "UPDATE usuarios SET papel = 'admin' WHERE id = 1", "usuário"),
    ],
)
def test_verificar_nomeia_a_tabela_e_o_registro(
    cliente: TestClient, tabela: str, sql: str, rotulo: str
) -> None:
    c = _ciclo(cliente)
    cliente.post("/api/v1/processos", json=LISTA)
    c.salvar_ano(
        {
            "cnpj": "11.222.333/0001-81",
            "ano": 2024,
            "meta_cbios": 10,
            "cbios_aposentados": 10,
            "meta_anterior_cumprida": True,
        }
    )
    from multas.servicos.persistencia.acesso import Acesso

    Acesso(c.repositorio).criar("ana", "leitura", None, "admin")
    url = c.repositorio.url
    assert CliRunner().invoke(cli, ["auditoria", "verificar", "--banco", url]).exit_code == 0
    with c.repositorio.engine.begin() as conexao:
        conexao.execute(text(sql))
    r = CliRunner().invoke(cli, ["auditoria", "verificar", "--banco", url])
    assert r.exit_code == 1
    assert f"(tabela {tabela})" in r.stderr and rotulo in r.stderr
