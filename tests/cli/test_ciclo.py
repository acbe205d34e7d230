"""Spec § 6 through the adapters: ``multas prazos calcular`` (the installed console script, in a
subprocess) and ``POST /api/v1/prazos`` give exactly the core's object; bad input is exit 2 /
HTTP 422 with the pt-BR error."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from multas.nucleo.ciclo import calcular_prazos
from multas.servicos import relogio
from multas.servidor.openapi import EXEMPLOS_PROCESSOS

MULTAS = shutil.which("multas", path=str(Path(sys.executable).parent)) or "multas"

DIVIDA_ATIVA = {
    "id": "48610.000001/2024-01",
    "cnpj": "12.345.678/0001-95",
    "nome": "Posto Exemplo",
    "tipo": "anp",
    "eventos": [
        {"evento": "infracao", "data": "2023-01-02"},
        {"evento": "auto_infracao", "data": "2023-02-01"},
        {"evento": "ciencia_primeira_instancia", "data": "2023-09-01"},
        {"evento": "recurso", "data": "2023-09-05"},
        # 21/10/2024 (segunda) + 30 = 20/11/2024, Consciência Negra → 21/11/2024 (quinta)
        {"evento": "ciencia_decisao_definitiva", "data": "2024-10-21"},
        {"evento": "inscricao_divida_ativa", "data": "2025-01-15"},
    ],
    "data_referencia": "2025-02-01",
}
#: spec § 6.2 v4: a partial payment after the inscription, judged with --em / ?em=
PAGO_EM_PARTE = {
    **DIVIDA_ATIVA,
    "valor_multa": "1000.00",
    "eventos": [
        *DIVIDA_ATIVA["eventos"],  # type: ignore[misc]
        {"evento": "pagamento", "data": "2025-01-20", "valor": "100.00"},
    ],
}
FORA_DE_ORDEM = {
    "tipo": "anp",
    "eventos": [
        {"evento": "infracao", "data": "2024-01-10"},
        {"evento": "auto_infracao", "data": "2024-01-09"},
    ],
}


def multas(*args: str, entrada: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [MULTAS, *args], input=entrada, capture_output=True, text=True, encoding="utf-8", timeout=60
    )


# --- the command line -----------------------------------------------------------------------


@pytest.mark.subprocesso
def test_prazos_calcular_arquivo_json(tmp_path: Path) -> None:
    arquivo = tmp_path / "processo.json"
    arquivo.write_text(json.dumps(DIVIDA_ATIVA), encoding="utf-8")
    r = multas("prazos", "calcular", str(arquivo))
    assert r.returncode == 0, r.stderr
    saida = json.loads(r.stdout)
    assert saida == calcular_prazos(DIVIDA_ATIVA, hoje=relogio.hoje())
    assert saida["estado"] == "divida_ativa"
    assert {p["prazo"]: p["data"] for p in saida["prazos"]} == {
        "defesa": "2023-02-16",  # 01/02/2023 (quarta) + 15 = 16/02/2023 (quinta)
        "recurso": "2023-09-11",  # 01/09/2023 (sexta) + 10 = 11/09/2023 (segunda)
        "pagamento": "2024-11-21",
        # 21/11/2024 + 5 anos = 21/11/2029, + 180 dias suspensos pela inscrição (15/01 a
        # 13/07/2025) = 20/05/2030
        "prescricao_cobranca": "2030-05-20",
    }


@pytest.mark.subprocesso
def test_prazos_calcular_texto_em_portugues() -> None:
    r = multas("prazos", "calcular", "-", "--formato", "texto", entrada=json.dumps(DIVIDA_ATIVA))
    assert r.returncode == 0, r.stderr
    assert "Estado: inscrito em Dívida Ativa (divida_ativa)" in r.stdout
    assert "21/11/2024 (quinta-feira)  Pagamento (vencimento) (pagamento)" in r.stdout
    assert "20/11/2024 (Zumbi e Consciência Negra)" in r.stdout
    assert "CNPJ: 12.345.678/0001-95" in r.stdout
    assert "Avisos:" in r.stdout
    # spec § 6.2 v4: vencimento 21/11/2024; on 20/01/2025, 2 months: 20 + 40, and the 100 pays
    # 40 + 20 + 40 (late fine, interest, principal); on 01/02, a 3rd month on the 960 left:
    # 9,60 + 19,20
    r = multas(
        "prazos",
        "calcular",
        "-",
        "-f",
        "texto",
        "--em",
        "01/02/2025",
        entrada=json.dumps(PAGO_EM_PARTE),
    )
    assert r.returncode == 0, r.stderr
    assert "Valor devido em 01/02/2025 (sábado): R$ 988,80" in r.stdout
    assert "multa de mora R$ 40,00, juros R$ 20,00, principal R$ 40,00" in r.stdout


@pytest.mark.subprocesso
def test_prazos_calcular_erro_sai_com_2_e_json_em_portugues() -> None:
    r = multas("prazos", "calcular", "-", entrada=json.dumps(FORA_DE_ORDEM))
    assert r.returncode == 2
    erro = json.loads(r.stdout)["erro"]
    assert erro["campo"] == "eventos[1].data"
    assert "auto_infracao" in erro["mensagem"]
    r = multas("prazos", "calcular", "-", "--formato", "texto", entrada="{")
    assert r.returncode == 2
    assert r.stdout == "" and "JSON inválido" in r.stderr


@pytest.mark.subprocesso
def test_prazos_calcular_jsonl_uma_linha_por_processo_em_ordem(tmp_path: Path) -> None:
    linhas = [
        json.dumps(DIVIDA_ATIVA),
        json.dumps(FORA_DE_ORDEM),
        "não é json",
        json.dumps(EXEMPLOS_PROCESSOS["renovabio.balanco"]),
    ]
    r = multas("prazos", "calcular", "--jsonl", "-", entrada="\n".join(linhas) + "\n")
    assert r.returncode == 3  # some lines had errors
    saidas = [json.loads(linha) for linha in r.stdout.splitlines()]
    assert len(saidas) == 4
    assert saidas[0] == calcular_prazos(DIVIDA_ATIVA, hoje=relogio.hoje())
    assert saidas[1]["erro"]["linha"] == 2 and saidas[1]["erro"]["campo"] == "eventos[1].data"
    assert saidas[2]["erro"]["linha"] == 3 and "JSON inválido" in saidas[2]["erro"]["mensagem"]
    assert saidas[3]["estado"] == "adequacao_comprovada"
    # all good: exit 0; a .jsonl file is read as JSON Lines without the flag
    arquivo = tmp_path / "processos.jsonl"
    arquivo.write_text(linhas[0] + "\n" + linhas[3] + "\n", encoding="utf-8")
    r = multas("prazos", "calcular", str(arquivo))
    assert r.returncode == 0, r.stdout
    assert len(r.stdout.splitlines()) == 2


# --- the API ----------------------------------------------------------------------------------


def _post(cliente: TestClient, corpo: str | bytes) -> Any:
    return cliente.post(
        "/api/v1/prazos", content=corpo, headers={"Content-Type": "application/json"}
    )


@pytest.mark.parametrize("nome", sorted(EXEMPLOS_PROCESSOS))
def test_api_prazos_devolve_o_objeto_do_nucleo(cliente: TestClient, nome: str) -> None:
    processo = EXEMPLOS_PROCESSOS[nome]
    resposta = _post(cliente, json.dumps(processo))
    assert resposta.status_code == 200, resposta.text
    assert resposta.headers["content-type"] == "application/json"
    assert resposta.json() == calcular_prazos(processo, hoje=relogio.hoje())


def test_api_prazos_caminho_da_divida_ativa(cliente: TestClient) -> None:
    resposta = _post(cliente, json.dumps(DIVIDA_ATIVA))
    assert resposta.status_code == 200
    corpo = resposta.json()
    assert corpo["id"] == DIVIDA_ATIVA["id"] and corpo["estado"] == "divida_ativa"
    # spec § 6.2 v4: ?em= takes the place of data_referencia
    resposta = cliente.post("/api/v1/prazos?em=2025-02-01", json=PAGO_EM_PARTE)
    assert resposta.status_code == 200, resposta.text
    devido = resposta.json()["devido"]
    assert (devido["em"], devido["saldo"], resposta.json()["estado"]) == (
        "2025-02-01",
        "988.80",
        "divida_ativa",
    )
    assert cliente.post("/api/v1/prazos?em=31/02/2025", json=PAGO_EM_PARTE).status_code == 422


@pytest.mark.parametrize(
    ("corpo", "campo"),
    [
        (json.dumps(FORA_DE_ORDEM), "eventos[1].data"),
        ('{"tipo": "anp", "eventos": []}', "eventos"),
        ('{"tipo": "anp", "eventos": [{"evento": "infracao", "data": "2024-01-02"}], "x": 1}', "x"),
        ('{"tipo": "anp", "tipo": "anp", "eventos": []}', "tipo"),  # repeated key
        ("{", None),
        ("", None),
        (b"\xff\xfe", None),
    ],
)
def test_api_prazos_entrada_invalida_422_em_portugues(
    cliente: TestClient, corpo: str | bytes, campo: str | None
) -> None:
    resposta = _post(cliente, corpo)
    assert resposta.status_code == 422, resposta.text
    erro = resposta.json()["erro"]
    assert set(erro) == {"campo", "mensagem"}
    assert erro["campo"] == campo and erro["mensagem"]


def test_api_prazos_le_como_o_calcular_sem_float(cliente: TestClient) -> None:
    """The same exact reader as /calcular: a float id is refused, never rounded."""
    resposta = _post(cliente, '{"tipo": "renovabio.balanco", "id": 1.0, "eventos": []}')
    assert resposta.status_code == 422
    assert resposta.json()["erro"]["campo"] == "id"


def test_openapi_documenta_prazos(cliente: TestClient) -> None:
    documento = cliente.get("/openapi.json").json()
    operacao = documento["paths"]["/api/v1/prazos"]["post"]
    corpo = operacao["requestBody"]["content"]["application/json"]
    assert corpo["schema"] == {"$ref": "#/components/schemas/Processo"}
    assert set(corpo["examples"]) == set(EXEMPLOS_PROCESSOS)
    assert "422" in operacao["responses"]
    esquemas = documento["components"]["schemas"]
    assert esquemas["Processo"]["properties"]["tipo"]["enum"] == [
        "anp",
        "renovabio.lista",
        "renovabio.balanco",
    ]
    assert (
        "inscricao_divida_ativa"
        in (esquemas["Processo"]["properties"]["eventos"]["items"]["properties"]["evento"]["enum"])
    )
    assert esquemas["Prazos"]["properties"]["prazos"]["items"] == {
        "$ref": "#/components/schemas/Prazo"
    }


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.binary(max_size=200)
    | st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=10),
        lambda f: st.lists(f, max_size=3) | st.dictionaries(st.text(max_size=8), f, max_size=3),
        max_leaves=12,
    ).map(lambda v: json.dumps({"tipo": "anp", "eventos": v}).encode())
)
def test_api_prazos_qualquer_corpo_200_ou_422(cliente: TestClient, corpo: bytes) -> None:
    resposta = _post(cliente, corpo)
    assert resposta.status_code in (200, 422), resposta.text
    if resposta.status_code == 422:
        assert resposta.json()["erro"]["mensagem"]


# --- the stored processos through the command line -------------------------------------------


@pytest.mark.subprocesso
def test_cli_processo_eventos_listas_carteira_e_calendario(tmp_path: Path) -> None:
    from icalendar import Calendar

    banco = ["--banco", f"sqlite:///{tmp_path / 'm.db'}"]
    processo = {
        "tipo": "renovabio.lista",
        "cnpj": "12.345.678/0001-95",
        "nome": "Distribuidora Exemplo",
        "eventos": [{"evento": "fim_prazo_meta", "data": "2025-12-31"}],
    }
    r = multas("processo", "criar", "-", "-f", "json", *banco, entrada=json.dumps(processo))
    assert r.returncode == 0, r.stderr
    pid = str(json.loads(r.stdout)["processo_id"])
    for nome, data in [
        ("decisao_primeira_instancia", "2026-02-06"),
        ("inclusao_lista", "2026-02-09"),
        ("quitacao_meta", "2026-03-10"),
        ("pedido_retirada", "2026-03-12"),
    ]:
        r = multas("processo", "evento", pid, nome, data, "-f", "json", *banco)
        assert r.returncode == 0, r.stdout + r.stderr
    # refused: nothing stored, exit 2, the pt-BR error naming the field
    r = multas("processo", "evento", pid, "inclusao_lista", "2026-03-13", "-f", "json", *banco)
    assert r.returncode == 2
    assert json.loads(r.stdout)["erro"]["campo"] == "evento"
    r = multas("processo", "mostrar", pid, "-f", "json", *banco)
    detalhe = json.loads(r.stdout)
    assert [e["evento"] for e in detalhe["eventos"]][-1] == "pedido_retirada"
    # 12/03/2026 (quinta) + 5 dias úteis: 13, 16, 17, 18, 19 → 19/03/2026
    assert {p["prazo"]: p["data"] for p in detalhe["resultado"]["prazos"]}["retirada_lista"] == (
        "2026-03-19"
    )
    r = multas("processo", "mostrar", pid, *banco)
    assert "Estado: retirada solicitada" in r.stdout and "19/03/2026 (quinta-feira)" in r.stdout
    assert multas("processo", "mostrar", "999", *banco).returncode == 1
    # the lists
    r = multas("listas", "sancoes", "--data", "2026-03-18", "-f", "csv", *banco)
    assert "12.345.678/0001-95" in r.stdout and "2026-03-19" in r.stdout
    pdf = tmp_path / "lista.pdf"
    r = multas("listas", "sancoes", "--data", "2026-03-18", "-f", "pdf", "-o", str(pdf), *banco)
    assert r.returncode == 0 and pdf.read_bytes()[:5] == b"%PDF-"
    r = multas("listas", "encaminhamento", "--data", "2026-01-02", "-f", "json", *banco)
    assert json.loads(r.stdout)["itens"][0]["fim_prazo_meta"] == "2025-12-31"
    # the next deadlines, with an injected today, and the calendar
    r = multas("prazos", "proximos", "--hoje", "2026-03-13", "--dias", "10", "-f", "json", *banco)
    assert [(p["prazo"], p["data"]) for p in json.loads(r.stdout)["prazos"]] == [
        ("retirada_lista", "2026-03-19")
    ]
    ics = tmp_path / "prazos.ics"
    assert multas("prazos", "ics", "-o", str(ics), *banco).returncode == 0
    uids = {str(e["UID"]) for e in Calendar.from_ical(ics.read_bytes()).walk("VEVENT")}
    assert uids == {
        f"multas-processo-{pid}-retirada_lista@multas",
        f"multas-processo-{pid}-limite_reducao@multas",
    }
    # the ledger, imported from a pt-BR CSV, and shown as a table
    planilha = tmp_path / "carteira.csv"
    planilha.write_text(
        "cnpj;ano;meta_cbios;cbios_aposentados;maior_media_mensal\n"
        "12.345.678/0001-95;2025;1000;400;71,70\n"
        "12.345.678/0001-95;2026;1000;1600;\n",
        encoding="utf-8",
    )
    r = multas("carteira", "importar", str(planilha), "--ptbr", *banco)
    assert r.returncode == 0, r.stdout + r.stderr
    r = multas("carteira", "mostrar", "12.345.678/0001-95", *banco)
    assert "R$ 100.000,00" in r.stdout and "1.600" in r.stdout  # 600 × 71,70 < floor; 1 000 + 600
    assert "Resolução ANP nº 791/2019" in r.stdout


@pytest.mark.subprocesso
def test_prazos_calcular_aceita_bom_utf8(tmp_path: Path) -> None:
    arquivo = tmp_path / "bom.json"
    arquivo.write_bytes(
        b"\xef\xbb\xbf" + json.dumps(EXEMPLOS_PROCESSOS["renovabio.balanco"]).encode()
    )
    r = multas("prazos", "calcular", str(arquivo))
    assert r.returncode == 0, r.stdout
    assert json.loads(r.stdout) == calcular_prazos(
        EXEMPLOS_PROCESSOS["renovabio.balanco"], hoje=relogio.hoje()
    )


def test_em_invalido_e_erro_nomeado_e_valor_digitado_em_reais(tmp_path: Path) -> None:
    """``--em`` that is no date is the contract's error (exit 2), never a traceback; a
    payment typed "1.500" is R$ 1.500,00 (three digits after a dot are thousands)."""
    from click.testing import CliRunner

    from multas.principal import cli

    for ruim in ("abc", "32/01/2025", "00/00/0000"):
        r = CliRunner().invoke(
            cli, ["prazos", "calcular", "-", "--em", ruim], json.dumps(PAGO_EM_PARTE)
        )
        assert r.exit_code == 2 and json.loads(r.stdout)["erro"]["campo"] == "em", ruim
    banco = ["--banco", f"sqlite:///{tmp_path / 'm.db'}"]
    criado = CliRunner().invoke(
        cli,
        ["processo", "criar", "-", "-f", "json", *banco],
        json.dumps({**PAGO_EM_PARTE, "data_referencia": None}),
    )
    assert criado.exit_code == 0, criado.output
    pid = str(json.loads(criado.stdout)["processo_id"])
    r = CliRunner().invoke(
        cli,
        [
            "processo",
            "evento",
            pid,
            "pagamento",
            "25/01/2025",
            "--valor",
            "1.500",
            "-f",
            "json",
            *banco,
        ],
    )
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["eventos"][-1]["valor"] == "1500.00"
