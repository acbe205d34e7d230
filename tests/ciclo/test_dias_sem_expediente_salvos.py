"""A stored processo keeps spec § 6's ``dias_sem_expediente`` (issue 18, migration r0006), on
SQLite and PostgreSQL: given on creation or changed later (the library, ``PATCH
/api/v1/processos/{id}``, ``multas processo alterar``), it moves the deadlines exactly as in
an unsaved processo (``POST /api/v1/prazos``), is shown in the detail, is part of the audited
state, and hostile input is a pt-BR error naming the field, with nothing stored.

01/02/2025 (sábado) + 15 days = 16/02 (domingo) → 17/02 (segunda): the ``defesa`` deadline;
with 17/02 and 18/02 without expediente, 19/02."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from sqlalchemy import text

from multas.nucleo.ciclo.prazos import calcular_prazos
from multas.nucleo.erros import EntradaInvalida
from multas.principal import cli
from multas.servicos.gestao import Ciclo
from multas.servicos.persistencia import Repositorio
from multas.servidor import criar_app

EVENTOS = [
    {"evento": "infracao", "data": "2025-01-10"},
    {"evento": "auto_infracao", "data": "2025-02-01"},
]
DIAS = ["2025-02-18", "2025-02-17", "2025-02-18"]  # unordered, one repeated
HOJE = date(2025, 2, 2)


def processo(**extra: Any) -> dict[str, Any]:
    return {"tipo": "anp", "eventos": [dict(e) for e in EVENTOS], **extra}


def defesa(resultado: dict[str, Any]) -> str:
    return next(p["data"] for p in resultado["prazos"] if p["prazo"] == "defesa")


def _coluna(repo: Repositorio, pid: int) -> Any:
    with repo.engine.connect() as c:
        return c.execute(
            text(f"SELECT dias_sem_expediente FROM processos WHERE id = {pid}")
        ).scalar()


def _quantos(repo: Repositorio) -> int:
    with repo.engine.connect() as c:
        return int(c.execute(text("SELECT count(*) FROM processos")).scalar_one())


def test_dias_sem_expediente_move_o_prazo_como_no_processo_nao_salvo(repo: Repositorio) -> None:
    ciclo = Ciclo(repo)
    sem = ciclo.criar(processo())
    com = ciclo.criar(processo(dias_sem_expediente=DIAS))
    assert defesa(sem.resultado) == "2025-02-17"
    assert defesa(com.resultado) == "2025-02-19"
    # the same deadlines as the unsaved path, judged on the same day
    for derivado, extra in ((sem, {}), (com, {"dias_sem_expediente": DIAS})):
        lido = ciclo.obter(derivado.armazenado.id, HOJE)
        assert (
            lido.resultado["prazos"]
            == calcular_prazos(processo(data_referencia=HOJE.isoformat(), **extra))["prazos"]
        )
    # persisted: sorted, each date once, and read back (detail, text)
    assert json.loads(_coluna(repo, com.armazenado.id)) == ["2025-02-17", "2025-02-18"]
    assert _coluna(repo, sem.armazenado.id) is None
    detalhe = ciclo.detalhe(ciclo.obter(com.armazenado.id, HOJE), HOJE)
    assert detalhe["dias_sem_expediente"] == ["2025-02-17", "2025-02-18"]
    assert ciclo.detalhe(ciclo.obter(sem.armazenado.id, HOJE), HOJE)["dias_sem_expediente"] == []
    from multas.saidas.texto import detalhe_texto

    assert "Outros dias sem expediente: 17/02/2025" in detalhe_texto(detalhe)
    # a later event is validated and derived with them; the chain stays whole
    ciclo.acrescentar(com.armazenado.id, {"evento": "defesa", "data": "2025-02-19"})
    assert "atraso" not in " ".join(ciclo.obter(com.armazenado.id).resultado["avisos"])
    assert repo.verificar().integro, repo.verificar().problemas


def test_alterar_os_dias_de_um_processo_salvo(repo: Repositorio) -> None:
    ciclo = Ciclo(repo)
    pid = ciclo.criar(processo()).armazenado.id
    alterado = ciclo.alterar(pid, {"dias_sem_expediente": DIAS}, "bia")
    assert defesa(ciclo.obter(pid, HOJE).resultado) == "2025-02-19"
    assert alterado.armazenado.dias_sem_expediente == ["2025-02-17", "2025-02-18"]
    registro = repo.auditoria(tabela="processos", registro_id=pid)[-1]
    assert (registro.acao, registro.operacao, registro.usuario) == (
        "processo_alterar",
        "alterar",
        "bia",
    )
    for nenhum in (None, []):
        ciclo.alterar(pid, {"dias_sem_expediente": ["2025-02-17"]})
        ciclo.alterar(pid, {"dias_sem_expediente": nenhum})
        assert defesa(ciclo.obter(pid, HOJE).resultado) == "2025-02-17"
        assert _coluna(repo, pid) is None
    assert repo.verificar().integro, repo.verificar().problemas


def test_os_dias_movem_o_vencimento_da_multa_vinculada(repo: Repositorio) -> None:
    """29/03/2024 + 30 = 28/04 (domingo) → 29/04; with 29/04 without expediente, 30/04: the
    ``pagamento`` deadline and the linked fine's vencimento agree."""
    ciclo = Ciclo(repo)
    derivado = ciclo.criar(
        {
            "tipo": "anp",
            "valor_multa": "250000.00",
            "dias_sem_expediente": ["2024-04-29"],
            "eventos": [
                {"evento": "infracao", "data": "2023-01-02"},
                {"evento": "auto_infracao", "data": "2023-02-01"},
                {"evento": "ciencia_primeira_instancia", "data": "2023-09-01"},
                {"evento": "ciencia_decisao_definitiva", "data": "2024-03-29"},
            ],
        }
    )
    prazos = {p["prazo"]: p["data"] for p in derivado.resultado["prazos"]}
    multa = ciclo.multa_vinculada(derivado, date(2024, 5, 15))
    assert multa is not None
    assert prazos["pagamento"] == multa["resultado"]["vencimento"] == "2024-04-30"


HOSTIS = [
    pytest.param(["2025-02-30"], "dias_sem_expediente[0]", id="inexistente"),
    pytest.param(["2025-02-17", "17/02/2025"], "dias_sem_expediente[1]", id="formato"),
    pytest.param([20250217], "dias_sem_expediente[0]", id="numero"),
    pytest.param([None], "dias_sem_expediente[0]", id="nulo"),
    pytest.param(2025, "dias_sem_expediente", id="inteiro"),
    pytest.param({"2025-02-17": True}, "dias_sem_expediente", id="objeto"),
    pytest.param(
        [(date(2025, 1, 1) + timedelta(days=i)).isoformat() for i in range(367)],
        "dias_sem_expediente",
        id="367-datas",
    ),
]


@pytest.mark.parametrize(("valor", "campo"), HOSTIS)
def test_dias_hostis_sao_recusados_nomeando_o_campo(
    repo: Repositorio, valor: Any, campo: str
) -> None:
    ciclo = Ciclo(repo)
    with pytest.raises(EntradaInvalida) as criar:
        ciclo.criar(processo(dias_sem_expediente=valor))
    assert criar.value.campo == campo
    assert _quantos(repo) == 0
    pid = ciclo.criar(processo(dias_sem_expediente=["2025-02-17"])).armazenado.id
    with pytest.raises(EntradaInvalida) as alterar:
        ciclo.alterar(pid, {"dias_sem_expediente": valor})
    assert alterar.value.campo == campo
    assert json.loads(_coluna(repo, pid)) == ["2025-02-17"]  # nothing stored
    if campo == "dias_sem_expediente" and isinstance(valor, list):
        assert alterar.value.mensagem == "no máximo 366 datas"


def test_alterar_so_os_dias(repo: Repositorio) -> None:
    ciclo = Ciclo(repo)
    pid = ciclo.criar(processo()).armazenado.id
    for corpo, campo in (
        ({"valor_multa": "1.00"}, "valor_multa"),
        ({"eventos": []}, "eventos"),
        ({}, "dias_sem_expediente"),
        ([], None),
    ):
        with pytest.raises(EntradaInvalida) as info:
            ciclo.alterar(pid, corpo)
        assert info.value.campo == campo
    from multas.servicos.gestao import NaoEncontrado

    with pytest.raises(NaoEncontrado):
        ciclo.alterar(pid + 1000, {"dias_sem_expediente": None})


def test_alterar_que_levaria_um_prazo_alem_de_9999_nao_grava(repo: Repositorio) -> None:
    ciclo = Ciclo(repo)
    pid = ciclo.criar(
        {
            "tipo": "renovabio.balanco",
            "eventos": [
                {"evento": "inclusao_lista", "data": "9999-12-01"},
                {"evento": "comprovacao_adequacao", "data": "9999-12-20"},
            ],
        }
    ).armazenado.id
    dias = [f"9999-12-{d}" for d in range(21, 32)]
    with pytest.raises(EntradaInvalida):
        ciclo.alterar(pid, {"dias_sem_expediente": dias})
    assert _coluna(repo, pid) is None


# --- the API and the command line --------------------------------------------------------------


@pytest.fixture
def cliente(database_url: str) -> Iterator[TestClient]:
    with TestClient(criar_app(database_url), raise_server_exceptions=False) as c:
        yield c


def test_api_guarda_e_altera_os_dias(cliente: TestClient) -> None:
    criado = cliente.post("/api/v1/processos", json=processo(dias_sem_expediente=DIAS))
    assert criado.status_code == 201, criado.text
    pid = criado.json()["processo_id"]
    assert criado.json()["dias_sem_expediente"] == ["2025-02-17", "2025-02-18"]
    lido = cliente.get(f"/api/v1/processos/{pid}?data_referencia=2025-02-02").json()
    assert defesa(lido["resultado"]) == "2025-02-19"
    assert lido["valor_multa"] is None and "principal" not in lido
    alterado = cliente.patch(f"/api/v1/processos/{pid}", json={"dias_sem_expediente": None})
    assert alterado.status_code == 200, alterado.text
    assert alterado.json()["dias_sem_expediente"] == []
    lido = cliente.get(f"/api/v1/processos/{pid}?data_referencia=2025-02-02").json()
    assert defesa(lido["resultado"]) == "2025-02-17"
    for corpo, campo in (
        ({"dias_sem_expediente": ["2025-02-30"]}, "dias_sem_expediente[0]"),
        ({"dias_sem_expediente": "x"}, "dias_sem_expediente[0]"),
        ({"dias_sem_expediente": 1}, "dias_sem_expediente"),
        ({"nome": "x"}, "nome"),
    ):
        r = cliente.patch(f"/api/v1/processos/{pid}", json=corpo)
        assert r.status_code == 422 and r.json()["erro"]["campo"] == campo, r.text
    r = cliente.post("/api/v1/processos", json=processo(dias_sem_expediente=["2025-13-01"]))
    assert r.status_code == 422 and r.json()["erro"]["campo"] == "dias_sem_expediente[0]"
    assert (
        cliente.patch("/api/v1/processos/999999", json={"dias_sem_expediente": []}).status_code
        == 404
    )
    assert cliente.get("/api/v1/processos").json()["total"] == 1
    # the old name of valor_multa is still read, and shown under the new one
    r = cliente.post("/api/v1/processos", json=processo(principal="1000.00"))
    assert r.status_code == 201 and r.json()["valor_multa"] == "1000.00"
    r = cliente.post(
        "/api/v1/processos",
        json={
            "tipo": "renovabio.balanco",
            "principal": "1.00",
            "eventos": [{"evento": "inclusao_lista", "data": "2025-05-02"}],
        },
    )
    assert r.status_code == 422 and r.json()["erro"]["campo"] == "principal"


def test_documento_openapi_descreve_o_processo_salvo_e_a_alteracao(cliente: TestClient) -> None:
    documento = cliente.get("/openapi.json").json()
    esquemas = documento["components"]["schemas"]
    salvo = esquemas["ProcessoSalvo"]["properties"]
    assert "dias_sem_expediente" in salvo and "data_referencia" not in salvo
    assert salvo["principal"]["deprecated"] is True and "valor_multa" in salvo
    rota = documento["paths"]["/api/v1/processos/{processo_id}"]["patch"]
    assert rota["requestBody"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/AlteracaoProcesso"
    }


def test_linha_de_comando_guarda_e_altera_os_dias(database_url: str, tmp_path: Path) -> None:
    executar = CliRunner().invoke
    entrada = tmp_path / "processo.json"
    entrada.write_text(json.dumps(processo(dias_sem_expediente=DIAS)), encoding="utf-8")
    r = executar(cli, ["processo", "criar", str(entrada), "--banco", database_url, "-f", "json"])
    assert r.exit_code == 0, r.output
    pid = json.loads(r.stdout)["processo_id"]
    assert json.loads(r.stdout)["dias_sem_expediente"] == ["2025-02-17", "2025-02-18"]
    alteracao = tmp_path / "alteracao.json"
    alteracao.write_text('{"dias_sem_expediente": ["2025-02-17"]}', encoding="utf-8")
    r = executar(
        cli,
        ["processo", "alterar", str(pid), str(alteracao), "--banco", database_url, "-f", "json"],
    )
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["dias_sem_expediente"] == ["2025-02-17"]
    r = executar(
        cli,
        [
            "processo",
            "mostrar",
            str(pid),
            "--hoje",
            "2025-02-02",
            "--banco",
            database_url,
            "-f",
            "json",
        ],
    )
    assert defesa(json.loads(r.stdout)["resultado"]) == "2025-02-18"
    alteracao.write_text('{"dias_sem_expediente": ["2025-02-29"]}', encoding="utf-8")
    r = executar(
        cli,
        ["processo", "alterar", str(pid), str(alteracao), "--banco", database_url, "-f", "json"],
    )
    assert r.exit_code == 2
    assert json.loads(r.stdout)["erro"]["campo"] == "dias_sem_expediente[0]"
    alteracao.write_text('{"dias_sem_expediente": []}', encoding="utf-8")
    r = executar(cli, ["processo", "alterar", "999999", str(alteracao), "--banco", database_url])
    assert r.exit_code == 1 and "processo 999999 não encontrado" in r.output
