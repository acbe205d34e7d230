"""One processo per ANP reference (issue 19, item 4: the ``referencia``, the § 6 ``id``, is
unique). Every entry point that makes a processo take a reference refuses one that a processo
outside the bin already holds, whoever's client it is, by one check
(:func:`multas.servicos.persistencia.ciclo.recusar_referencia_em_uso`); ``123`` and ``"123"`` are one
reference, as for the import. On SQLite and PostgreSQL."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from click.testing import CliRunner

from multas.nucleo.arquivos import LINHA_DE_COMANDO
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.escopo import Escopo
from multas.principal import cli
from multas.servicos.gestao import Ciclo
from multas.servicos.importar import importar_processos, ler_arquivo
from multas.servicos.persistencia import Repositorio, escopo_sql
from multas.servicos.persistencia.acesso import Acesso
from tests.utils import SENHA, Ambiente, com

CNPJ_A = "11.222.333/0001-81"
CNPJ_B = "12.ABC.345/01DE-35"
MENSAGEM = "já tem a referência '{}': cada processo da ANP fica em um só processo salvo"


def _processo(referencia: Any, cnpj: str | None = None, campo: str = "id") -> dict[str, Any]:
    dados: dict[str, Any] = {
        "tipo": "anp",
        campo: referencia,
        "eventos": [{"evento": "infracao", "data": "2024-01-02"}],
    }
    if cnpj:
        dados["cnpj"] = cnpj
    return dados


def _analista_de_a(ambiente: Ambiente) -> dict[str, str]:
    """The headers of "ana de A", an analyst limited to client A."""
    repo = Repositorio(ambiente.url)
    token = Acesso(repo).criar("ana de A", "analista", SENHA, "teste", Escopo.de([CNPJ_A]))
    repo.fechar()
    return {"Authorization": f"Bearer {token}"}


def _erro(resposta: Any) -> tuple[str, str]:
    assert resposta.status_code == 422, resposta.text
    texto = json.dumps(resposta.json(), ensure_ascii=False)
    campo = "referencia" if '"referencia"' in texto else "id"
    return campo, texto


@pytest.mark.parametrize(
    ("primeira", "segunda", "campo"),
    [
        ("48610.000001/2024-11", "48610.000001/2024-11", "id"),
        ("48610.000001/2024-11", "48610.000001/2024-11", "referencia"),
        (123, "123", "id"),
        ("123", 123, "id"),
    ],
)
def test_a_api_recusa_a_mesma_referencia(
    ambiente: Ambiente, primeira: Any, segunda: Any, campo: str
) -> None:
    c, admin = ambiente.cliente, com(ambiente, "admin")
    criado = c.post("/api/v1/processos", json=_processo(primeira), headers=admin)
    assert criado.status_code == 201, criado.text
    numero = criado.json()["processo_id"]
    repetido = c.post("/api/v1/processos", json=_processo(segunda, campo=campo), headers=admin)
    _, texto = _erro(repetido)
    assert f"o processo nº {numero} " + MENSAGEM.format(str(segunda)) in texto
    assert len(c.get("/api/v1/processos", headers=admin).json()["processos"]) == 1


def test_um_processo_na_lixeira_nao_prende_a_referencia(ambiente: Ambiente) -> None:
    c, admin = ambiente.cliente, com(ambiente, "admin")
    numero = c.post("/api/v1/processos", json=_processo("R-9"), headers=admin).json()
    excluido = c.delete(f"/api/v1/processos/{numero['processo_id']}", headers=admin)
    assert excluido.status_code in (200, 204), excluido.text
    assert c.post("/api/v1/processos", json=_processo("R-9"), headers=admin).status_code == 201


def test_a_referencia_de_outro_cliente_e_recusada_sem_nomea_lo(ambiente: Ambiente) -> None:
    """A limited user cannot take another client's reference, and the error names neither
    that processo's number nor its CNPJ."""
    analista = _analista_de_a(ambiente)
    c, admin = ambiente.cliente, com(ambiente, "admin")
    de_b = c.post("/api/v1/processos", json=_processo("REF-B", CNPJ_B), headers=admin)
    assert de_b.status_code == 201
    tentativa = c.post("/api/v1/processos", json=_processo("REF-B", CNPJ_A), headers=analista)
    _, texto = _erro(tentativa)
    assert "outro processo " + MENSAGEM.format("REF-B") in texto
    assert f"nº {de_b.json()['processo_id']}" not in texto
    assert "12ABC" not in texto.replace(".", "").upper()


def test_a_cli_recusa_a_mesma_referencia(database_url: str) -> None:
    corpo = json.dumps(_processo("CLI-1"))
    banco = ["--banco", database_url]
    primeiro = CliRunner().invoke(cli, ["processo", "criar", "-", "-f", "json", *banco], corpo)
    assert primeiro.exit_code == 0, primeiro.output
    segundo = CliRunner().invoke(cli, ["processo", "criar", "-", "-f", "json", *banco], corpo)
    assert segundo.exit_code == 2, segundo.output
    assert MENSAGEM.format("CLI-1") in segundo.output
    assert "Traceback" not in segundo.output


def test_a_importacao_nao_cria_a_referencia_de_outro_cliente(repo: Repositorio) -> None:
    """Limited to client A, an import of a reference that client B's processo holds (which
    the import cannot see, so it would create it) is refused, naming the line and column."""
    ciclo = Ciclo(repo)
    ciclo.criar(_processo("IMP-B", CNPJ_B), "admin")
    arquivo = f"referencia,tipo,cnpj,evento,data\nIMP-B,anp,{CNPJ_A},infracao,2024-01-10\n"
    with escopo_sql.limitado(Escopo.de([CNPJ_A])), pytest.raises(EntradaInvalida) as info:
        importar_processos(
            ciclo, ler_arquivo(arquivo.encode(), "p.csv", False, LINHA_DE_COMANDO), "ana"
        )
    assert info.value.campo == "referencia"
    assert info.value.mensagem.startswith(
        "linha 2, coluna referencia: outro processo " + MENSAGEM.format("IMP-B")
    )
    assert len(ciclo.listar(limite=None)) == 1


def test_duas_criacoes_ao_mesmo_tempo_criam_um_processo(repo: Repositorio) -> None:
    """Writers are serialised by the chain's lock, and the check runs after it: of several
    creations of one reference at once, exactly one succeeds."""
    ciclo = Ciclo(repo)
    largada = threading.Barrier(4)
    resultados: list[str] = []

    def criar() -> None:
        largada.wait()
        try:
            ciclo.criar(_processo("CORRIDA"), "ana")
            resultados.append("criado")
        except EntradaInvalida as erro:
            resultados.append(erro.campo or "")

    linhas = [threading.Thread(target=criar) for _ in range(4)]
    for linha in linhas:
        linha.start()
    for linha in linhas:
        linha.join()
    assert sorted(resultados) == ["criado", "id", "id", "id"]
    assert len(ciclo.listar(limite=None)) == 1


def test_a_importacao_de_outro_cliente_diz_a_linha(ambiente: Ambiente) -> None:
    """Through the API, a limited user's import of another client's reference names the line
    and the column, as every other import error does, and not the holder."""
    analista = _analista_de_a(ambiente)
    c, admin = ambiente.cliente, com(ambiente, "admin")
    de_b = c.post("/api/v1/processos", json=_processo("IMP-B", CNPJ_B), headers=admin)
    assert de_b.status_code == 201
    arquivo = (
        f"referencia,tipo,cnpj,evento,data\nNOVA,anp,{CNPJ_A},infracao,2024-01-10\n"
        f"IMP-B,anp,{CNPJ_A},infracao,2024-01-10\n"
    )
    resposta = c.post(
        "/api/v1/processos/importar?formato=csv",
        content=arquivo.encode(),
        headers={**analista, "Content-Type": "text/csv"},
    )
    assert resposta.status_code == 422, resposta.text
    erro = resposta.json()["erro"]
    assert erro["campo"] == "referencia"
    assert erro["mensagem"].startswith(
        "linha 3, coluna referencia: outro processo " + MENSAGEM.format("IMP-B")
    )
    assert f"nº {de_b.json()['processo_id']}" not in erro["mensagem"]
    assert len(c.get("/api/v1/processos", headers=admin).json()["processos"]) == 1


def test_com_duas_referencias_antigas_nomeia_a_que_o_leitor_ve(
    ambiente: Ambiente, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database written before the rule may hold two processos with one reference, one of
    another client: a limited user's refusal names the one they see, never the other."""
    import multas.servicos.persistencia.processos as persistencia_processos

    analista = _analista_de_a(ambiente)
    c, admin = ambiente.cliente, com(ambiente, "admin")
    with monkeypatch.context() as antes_da_regra:
        antes_da_regra.setattr(
            persistencia_processos, "recusar_referencia_em_uso", lambda *_a, **_k: None
        )
        de_b = c.post("/api/v1/processos", json=_processo("REF-X", CNPJ_B), headers=admin)
        de_a = c.post("/api/v1/processos", json=_processo("REF-X", CNPJ_A), headers=admin)
    tentativa = c.post("/api/v1/processos", json=_processo("REF-X", CNPJ_A), headers=analista)
    _, texto = _erro(tentativa)
    assert f"o processo nº {de_a.json()['processo_id']} " + MENSAGEM.format("REF-X") in texto
    assert f"nº {de_b.json()['processo_id']} " not in texto


@pytest.mark.parametrize("branca", ["", " ", "\t"])
def test_uma_referencia_em_branco_nao_e_referencia(repo: Repositorio, branca: str) -> None:
    """As the page's form and the import read an empty cell: a blank ``id`` is stored as given
    but takes no reference, so several processos may have it."""
    ciclo = Ciclo(repo)
    primeiro = ciclo.criar(_processo(branca), "ana")
    segundo = ciclo.criar(_processo(branca), "ana")
    assert primeiro.armazenado.identificador == segundo.armazenado.identificador == branca
