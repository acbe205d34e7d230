"""The lifecycle end to end through the HTTP API: the issue's three walks (a distributor that
misses its target and is listed, a processo paid late, a processo sent to the Dívida Ativa),
refused events that store nothing, the calendar parsed back, the lists in JSON, CSV and PDF,
and the ledger imported from CSV and XLSX. Every date is counted by hand beside it."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from fastapi.testclient import TestClient

CNPJ = "12.345.678/0001-95"
JSON_CT = {"Content-Type": "application/json"}


def post(cliente: TestClient, url: str, corpo: Any, usuario: str = "Ana") -> Any:
    return cliente.post(url, content=json.dumps(corpo), headers={**JSON_CT, "X-Usuario": usuario})


def evento(cliente: TestClient, pid: int, nome: str, data: str) -> Any:
    return post(cliente, f"/api/v1/processos/{pid}/eventos", {"evento": nome, "data": data})


def prazos(detalhe: dict[str, Any]) -> dict[str, str]:
    return {p["prazo"]: p["data"] for p in detalhe["resultado"]["prazos"]}


def test_distribuidor_perde_a_meta_quita_em_3_meses_e_sai_da_lista(cliente: TestClient) -> None:
    # the ledger: 2025 missed by 600 000 CBIOs, carried into 2026's target
    for ano in (
        {
            "cnpj": CNPJ,
            "nome": "Distribuidora Exemplo",
            "ano": 2025,
            "meta_cbios": 1000000,
            "cbios_aposentados": 400000,
            "maior_media_mensal": "71.70",
            "faturamento_ano_meta": "900000000.00",
            "faturamento_ano_anterior": "800000000.00",
            "data_quitacao": "2026-03-10",
        },
        {"cnpj": CNPJ, "ano": 2026, "meta_cbios": 1100000, "cbios_aposentados": 1700000},
    ):
        assert post(cliente, "/api/v1/carteira", ano).status_code == 200
    carteira = cliente.get("/api/v1/carteira/distribuidor", params={"cnpj": CNPJ}).json()
    a25, a26 = carteira["anos"]
    # 600 000 × 71,70 = 43 020 000, capped at 5% of 850 M = 42 500 000; quitação 10/03/2026:
    # 31/12/2025 → 10/03/2026 is 3 months or part → × 3/12 = 10 625 000
    assert (a25["deficit"], a25["multa"]) == (600000, "10625000.00")
    # 2026: 1 100 000 + 600 000 = 1 700 000, all retired (the 600 000 settled among them)
    assert (a26["acrescimo_ano_anterior"], a26["meta_total"], a26["deficit"]) == (
        600000,
        1700000,
        0,
    )
    # the fine case, saved, then the processo linked to it
    caso = post(
        cliente,
        "/api/v1/casos",
        {
            "regime": "renovabio.distribuidor",
            "ano_meta": 2025,
            "meta_cbios": 1000000,
            "cbios_aposentados": 400000,
            "maior_media_mensal": "71.70",
            "faturamento_ano_meta": "900000000.00",
            "faturamento_ano_anterior": "800000000.00",
        },
    ).json()
    criado = post(
        cliente,
        "/api/v1/processos",
        {
            "tipo": "renovabio.lista",
            "cnpj": CNPJ,
            "nome": "Distribuidora Exemplo",
            "caso_id": caso["id"],
            "eventos": [{"evento": "fim_prazo_meta", "data": "2025-12-31"}],
        },
    )
    assert criado.status_code == 201, criado.text
    pid = criado.json()["processo_id"]
    assert criado.headers["location"] == f"/api/v1/processos/{pid}"
    assert criado.json()["multa"]["resultado"]["valor"] == "42500000.00"  # not yet reduced
    for nome, data in [
        ("decisao_primeira_instancia", "2026-02-06"),
        ("inclusao_lista", "2026-02-09"),
        ("quitacao_meta", "2026-03-10"),
        ("pedido_retirada", "2026-03-12"),
    ]:
        resposta = evento(cliente, pid, nome, data)
        assert resposta.status_code == 201, resposta.text
    detalhe = resposta.json()
    assert detalhe["resultado"]["estado"] == "retirada_solicitada"
    # pedido 12/03/2026 (quinta): 13 (1º); 14-15 fim de semana; 16 (2º), 17, 18, 19 (5º)
    assert prazos(detalhe) == {"retirada_lista": "2026-03-19", "limite_reducao": "2026-11-30"}
    assert detalhe["multa"]["resultado"]["valor"] == "10625000.00"  # × 3/12 after quitação
    # listed on 18/03, with the removal deadline; the list in CSV and PDF
    lista = cliente.get("/api/v1/listas/sancoes", params={"data": "2026-03-18"}).json()
    assert [(i["cnpj"], i["prazo_retirada"]) for i in lista["itens"]] == [(CNPJ, "2026-03-19")]
    texto_csv = cliente.get(
        "/api/v1/listas/sancoes", params={"data": "2026-03-18", "formato": "csv"}
    ).text
    linhas = list(csv.DictReader(io.StringIO(texto_csv)))
    assert linhas[0]["CNPJ"] == CNPJ and linhas[0]["Prazo da ANP para retirar"] == "2026-03-19"
    pdf = cliente.get("/api/v1/listas/sancoes", params={"data": "2026-03-18", "formato": "pdf"})
    assert pdf.headers["content-type"] == "application/pdf"
    from pypdf import PdfReader

    texto_pdf = "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf.content)).pages)
    assert CNPJ in texto_pdf and "19/03/2026" in texto_pdf and "art. 6º-A, § 4º" in texto_pdf
    # removed on the 5th business day: no aviso, off the list from that day
    final = evento(cliente, pid, "retirada_lista", "2026-03-19").json()
    assert final["resultado"]["estado"] == "fora_da_lista" and final["resultado"]["avisos"] == []
    assert (
        cliente.get("/api/v1/listas/sancoes", params={"data": "2026-03-19"}).json()["itens"] == []
    )
    # every change is in the audit log, with who did it
    auditoria = cliente.get("/api/v1/auditoria").json()
    assert {r["acao"] for r in auditoria} >= {"carteira_criar", "processo_criar", "processo_evento"}
    assert {r["usuario"] for r in auditoria} == {"Ana"}


def test_processo_pago_com_atraso_com_encargos_ate_o_dia(cliente: TestClient) -> None:
    pid = post(
        cliente,
        "/api/v1/processos",
        {
            "tipo": "anp",
            "id": "48610.000123/2023-11",
            "principal": "250000.00",
            "eventos": [
                {"evento": "infracao", "data": "2023-01-02"},
                {"evento": "auto_infracao", "data": "2023-02-01"},
                # 01/09/2023 (sexta) + 10 = 11/09/2023 (segunda)
                {"evento": "ciencia_primeira_instancia", "data": "2023-09-01"},
                # 29/03/2024 (Sexta-feira Santa) + 30 = 28/04 (domingo) → 29/04/2024
                {"evento": "ciencia_decisao_definitiva", "data": "2024-03-29"},
            ],
        },
    ).json()["processo_id"]
    # the charges to any date before payment: 15/05/2024 is 1 month or part after 29/04
    em_maio = cliente.get(f"/api/v1/processos/{pid}", params={"hoje": "2024-05-15"}).json()
    assert em_maio["multa"]["resultado"]["valor"] == "257500.00"  # 250 000 × 1,03
    pago = evento(cliente, pid, "pagamento", "2024-07-01").json()
    assert pago["resultado"]["estado"] == "pago"
    assert prazos(pago) == {
        "defesa": "2023-02-16",
        "recurso": "2023-09-11",
        "pagamento": "2024-04-29",
        "prescricao_cobranca": "2029-04-29",
    }
    assert (
        "63 dias corridos depois do prazo “Pagamento (vencimento)” (pagamento) (29/04/2024)"
        in pago["resultado"]["avisos"][-1]
    )
    # 29/04 → 01/07/2024: 3 months or part: 250 000 × (1 + 3 × 1% + 3 × 2%) = 272 500
    mora = pago["multa"]["resultado"]
    assert (mora["meses_atraso"], mora["juros_mora"], mora["multa_mora"], mora["valor"]) == (
        3,
        "7500.00",
        "15000.00",
        "272500.00",
    )
    # nothing after the payment, but a court suspension (spec v3 § 6)
    assert [e["evento"] for e in pago["eventos_possiveis"]] == ["suspensao_judicial"]


def test_processo_que_vai_para_a_divida_ativa(cliente: TestClient) -> None:
    pid = post(
        cliente,
        "/api/v1/processos",
        {
            "tipo": "anp",
            "principal": "10000.00",
            "eventos": [
                {"evento": "infracao", "data": "2023-01-02"},
                {"evento": "auto_infracao", "data": "2023-02-01"},
                {"evento": "ciencia_primeira_instancia", "data": "2023-09-01"},
                {"evento": "recurso", "data": "2023-09-05"},
                # 24/11/2025 (segunda) + 30 = 24/12/2025, ponto facultativo; 25 Natal
                # → 26/12/2025 (sexta)
                {"evento": "ciencia_decisao_definitiva", "data": "2025-11-24"},
            ],
        },
    ).json()["processo_id"]
    antes = cliente.get(f"/api/v1/processos/{pid}").json()
    assert prazos(antes)["pagamento"] == "2025-12-26"
    recusado = evento(cliente, pid, "inscricao_divida_ativa", "2025-12-26")
    assert recusado.status_code == 422
    assert recusado.json()["erro"]["campo"] == "data"
    assert "26/12/2025" in recusado.json()["erro"]["mensagem"]
    assert cliente.get(f"/api/v1/processos/{pid}").json()["eventos"] == antes["eventos"]
    assert evento(cliente, pid, "inscricao_divida_ativa", "2026-01-05").status_code == 201
    # the charges to the date asked: 26/12/2025 → 05/01/2026 is 1 month or part: × 1,03
    em_janeiro = cliente.get(f"/api/v1/processos/{pid}", params={"hoje": "2026-01-05"}).json()
    # judged on that day (years later the collection limitation lapses: cobranca_prescrita)
    assert em_janeiro["resultado"]["estado"] == "divida_ativa"
    assert em_janeiro["multa"]["resultado"]["valor"] == "10300.00"
    # 26/12/2025 → 27/02/2026: 2 months and part = 3: 10 000 × 1,09
    em_fevereiro = cliente.get(f"/api/v1/processos/{pid}", params={"hoje": "2026-02-27"}).json()
    assert em_fevereiro["multa"]["resultado"]["valor"] == "10900.00"
    # spec § 6.2 v4: what is owed that day is the same amount, and ?em= asks for it
    em = cliente.get(f"/api/v1/processos/{pid}", params={"em": "2026-02-27"}).json()
    assert em["resultado"]["devido"]["saldo"] == "10900.00"
    # the inscribed debt is still paid (v4); then nothing follows the payment
    assert evento(cliente, pid, "pagamento", "2026-02-01").status_code == 201
    depois = evento(cliente, pid, "pagamento", "2026-02-02")
    assert depois.status_code == 422 and "pagamento" in depois.json()["erro"]["mensagem"]


def test_evento_contraditorio_e_recusado_e_nada_muda(cliente: TestClient) -> None:
    pid = post(
        cliente,
        "/api/v1/processos",
        {
            "tipo": "renovabio.balanco",
            "eventos": [{"evento": "inclusao_lista", "data": "2025-05-05"}],
        },
    ).json()["processo_id"]
    antes = (
        cliente.get(f"/api/v1/processos/{pid}").json(),
        cliente.get("/api/v1/auditoria").json(),
    )
    for corpo, status, campo in [
        ({"evento": "retirada_lista", "data": "2025-05-06"}, 422, "evento"),
        ({"evento": "comprovacao_adequacao", "data": "2025-05-04"}, 422, "data"),
        ({"evento": "comprovacao_adequacao", "data": "2025-02-30"}, 422, "data"),
        ({"evento": "comprovacao_adequacao"}, 422, "data"),
        ({"evento": "inclusao_lista", "data": "2025-05-06"}, 422, "evento"),
        ({"evento": "comprovacao_adequacao", "data": "2025-05-06", "x": 1}, 422, "x"),
    ]:
        resposta = post(cliente, f"/api/v1/processos/{pid}/eventos", corpo)
        assert resposta.status_code == status, (corpo, resposta.text)
        assert resposta.json()["erro"]["campo"] == campo
    depois = (
        cliente.get(f"/api/v1/processos/{pid}").json(),
        cliente.get("/api/v1/auditoria").json(),
    )
    assert depois == antes
    assert evento(cliente, 999999, "retirada_lista", "2025-05-06").status_code == 404
    assert cliente.get("/api/v1/processos/99999999999").status_code == 404


def test_criar_processo_invalido_422(cliente: TestClient) -> None:
    for corpo, campo in [
        ({"tipo": "anp", "eventos": []}, "eventos"),
        (
            {
                "tipo": "anp",
                "eventos": [{"evento": "infracao", "data": "2024-01-01"}],
                "principal": "1.001",
            },
            "principal",
        ),
        (
            {
                "tipo": "anp",
                "eventos": [{"evento": "infracao", "data": "2024-01-01"}],
                "caso_id": 77,
            },
            "caso_id",
        ),
    ]:
        resposta = post(cliente, "/api/v1/processos", corpo)
        assert resposta.status_code == 422 and resposta.json()["erro"]["campo"] == campo
    assert cliente.get("/api/v1/processos").json() == {"total": 0, "processos": []}


def test_proximos_prazos_e_calendario_ics(cliente: TestClient) -> None:
    from icalendar import Calendar

    post(
        cliente,
        "/api/v1/processos",
        {
            "tipo": "anp",
            "nome": "Posto Exemplo",
            "eventos": [
                {"evento": "infracao", "data": "2026-01-05"},
                {"evento": "auto_infracao", "data": "2026-02-02"},
                # 10/11/2026 (terça) + 10 = 20/11/2026, Consciência Negra (sexta); 21-22 fim
                # de semana → 23/11/2026 (segunda)
                {"evento": "ciencia_primeira_instancia", "data": "2026-11-10"},
            ],
        },
    )
    proximos = cliente.get("/api/v1/prazos/proximos", params={"dias": 30, "hoje": "2026-11-11"})
    itens = proximos.json()["prazos"]
    # the defence was never recorded: 02/02/2026 + 15 = 17/02/2026, Carnaval → 18/02/2026
    # (Cinzas, dia útil); overdue on 11/11/2026, it comes first and stays (spec v3 § 6)
    assert [(i["prazo"], i["data"], i["situacao"], i["dias_de_atraso"]) for i in itens] == [
        ("defesa", "2026-02-18", "vencido", 266),
        ("recurso", "2026-11-23", "em_aberto", 0),
    ]
    cinco = cliente.get(
        "/api/v1/prazos/proximos", params={"dias": 5, "data_referencia": "2026-11-11"}
    ).json()["prazos"]
    assert [i["prazo"] for i in cinco] == ["defesa"]
    sem_vencidos = cliente.get(
        "/api/v1/prazos/proximos",
        params={"dias": 5, "data_referencia": "2026-11-11", "vencidos": "false"},
    ).json()["prazos"]
    assert sem_vencidos == []
    ics = cliente.get("/api/v1/prazos/calendario.ics")
    assert ics.headers["content-type"].startswith("text/calendar")
    calendario = Calendar.from_ical(ics.content)
    eventos = {str(e["UID"]): e for e in calendario.walk("VEVENT")}
    assert set(eventos) == {
        "multas-processo-1-defesa@multas",
        "multas-processo-1-recurso@multas",
        "multas-processo-1-prescricao@multas",
    }
    recurso = eventos["multas-processo-1-recurso@multas"]
    assert recurso.decoded("DTSTART").isoformat() == "2026-11-23"
    assert recurso.decoded("DTEND").isoformat() == "2026-11-24"
    assert "Lei nº 9.784/1999, art. 59" in str(recurso["DESCRIPTION"])
    assert "Posto Exemplo" in str(recurso["SUMMARY"])
    # 10/11/2026 + 5 anos
    assert eventos["multas-processo-1-prescricao@multas"].decoded("DTSTART").isoformat() == (
        "2031-11-10"
    )


def test_carteira_importada_de_csv_e_xlsx_tudo_ou_nada(cliente: TestClient) -> None:
    import openpyxl

    texto = (
        "cnpj;nome;ano;meta_cbios;cbios_aposentados;maior_media_mensal\n"
        f"{CNPJ};Distribuidora Exemplo;2024;1000;1000;\n"
        f"{CNPJ};Distribuidora Exemplo;2025;1000;900;71,70\n"
    )
    resposta = cliente.post(
        "/api/v1/carteira/importar",
        params={"formato": "csv", "ptbr": "true"},
        content=texto.encode(),
    )
    assert resposta.status_code == 200, resposta.text
    assert resposta.json() == {"anos": 2, "distribuidores": [CNPJ]}
    a25 = cliente.get("/api/v1/carteira/distribuidor", params={"cnpj": CNPJ}).json()["anos"][1]
    assert a25["cbios_diferidos"] == 100  # 90% retired, 2024 met in full: deferred
    livro = openpyxl.Workbook()
    folha = livro.active
    assert folha is not None
    folha.append(["cnpj", "ano", "meta_cbios", "cbios_aposentados", "maior_media_mensal"])
    folha.append(["99.999.999/0001-91", 2025, 500, 100, 80.5])
    folha.append(["99.999.999/0001-91", 2026, 500, "muitos", 80.5])
    arquivo = io.BytesIO()
    livro.save(arquivo)
    ruim = cliente.post(
        "/api/v1/carteira/importar", params={"formato": "xlsx"}, content=arquivo.getvalue()
    )
    assert ruim.status_code == 422 and ruim.json()["erro"]["campo"] == "cbios_aposentados"
    # the sheet's row number (the header is row 1) and the column
    assert ruim.json()["erro"]["mensagem"].startswith("linha 3, coluna cbios_aposentados: ")
    # nothing stored (the distributor listed by its key, the normalised CNPJ)
    assert [d["cnpj"] for d in cliente.get("/api/v1/carteira").json()] == ["12345678000195"]
    folha.delete_rows(3)
    arquivo = io.BytesIO()
    livro.save(arquivo)
    bom = cliente.post(
        "/api/v1/carteira/importar", params={"formato": "xlsx"}, content=arquivo.getvalue()
    )
    assert bom.status_code == 200, bom.text
    outra = cliente.get(
        "/api/v1/carteira/distribuidor", params={"cnpj": "99.999.999/0001-91"}
    ).json()
    assert outra["anos"][0]["multa"] == "100000.00"  # 400 × 80,5 = 32 200 < floor
    lixo = cliente.post("/api/v1/carteira/importar", params={"formato": "xlsx"}, content=b"PK\x03")
    assert lixo.status_code == 422
    ausente = {"cnpj": "11.222.333/0001-81"}
    assert cliente.get("/api/v1/carteira/distribuidor", params=ausente).status_code == 404
    # a text of no CNPJ's shape is the field's error, as in every filter by CNPJ
    assert cliente.get("/api/v1/carteira/distribuidor", params={"cnpj": "x"}).status_code == 422


def test_listas_json_erros_e_openapi(cliente: TestClient) -> None:
    assert cliente.get("/api/v1/listas/outra").status_code == 422
    assert cliente.get("/api/v1/listas/sancoes", params={"data": "2025-02-30"}).status_code == 422
    vazia = cliente.get("/api/v1/listas/encaminhamento", params={"data": "2025-01-10"}).json()
    assert vazia["itens"] == [] and vazia["avisos"]
    documento = cliente.get("/openapi.json").json()
    for caminho in (
        "/api/v1/processos",
        "/api/v1/processos/{processo_id}/eventos",
        "/api/v1/prazos/proximos",
        "/api/v1/prazos/calendario.ics",
        "/api/v1/listas/{qual}",
        "/api/v1/carteira",
        "/api/v1/carteira/importar",
    ):
        assert caminho in documento["paths"], caminho


def test_calendario_de_um_processo_e_de_um_cnpj(cliente: TestClient) -> None:
    """Issue 20, item 2: the .ics of one processo holds only its deadlines, and a client's
    (?cnpj=, in any spelling) only that client's."""
    from icalendar import Calendar

    def uids(resposta: Any) -> set[str]:
        assert resposta.status_code == 200, resposta.text
        assert resposta.headers["content-type"].startswith("text/calendar")
        return {str(e["UID"]) for e in Calendar.from_ical(resposta.content).walk("VEVENT")}

    eventos = [
        {"evento": "infracao", "data": "2026-01-05"},
        {"evento": "auto_infracao", "data": "2026-02-02"},
    ]
    for cnpj in ("11.222.333/0001-81", "22.333.444/0001-81", "11222333000181"):
        post(cliente, "/api/v1/processos", {"tipo": "anp", "cnpj": cnpj, "eventos": eventos})
    todos = uids(cliente.get("/api/v1/prazos/calendario.ics"))
    assert {u.split("-")[2] for u in todos} == {"1", "2", "3"}
    so_o_2 = uids(cliente.get("/api/v1/processos/2/calendario.ics"))
    assert so_o_2 and {u.split("-")[2] for u in so_o_2} == {"2"}
    assert so_o_2 == {u for u in todos if u.startswith("multas-processo-2-")}
    resposta = cliente.get("/api/v1/processos/2/calendario.ics")
    assert 'filename="multas-processo-2.ics"' in resposta.headers["content-disposition"]
    defesa = next(
        e for e in Calendar.from_ical(resposta.content).walk("VEVENT") if "defesa" in str(e["UID"])
    )
    # the deadline by its label, its key after it (issue 20, item 7)
    assert str(defesa["DESCRIPTION"]).startswith("Prazo “Defesa escrita” (defesa) do processo 2")
    do_cliente = uids(
        cliente.get("/api/v1/prazos/calendario.ics", params={"cnpj": "11222333/0001-81"})
    )
    assert {u.split("-")[2] for u in do_cliente} == {"1", "3"}
    # a filter that is no CNPJ is the field's error, not an empty calendar (hostile review of
    # 02/12/2026); a well-shaped one of no stored processo is an empty calendar
    invalido = cliente.get("/api/v1/prazos/calendario.ics", params={"cnpj": "99"})
    assert invalido.status_code == 422 and invalido.json()["erro"]["campo"] == "cnpj"
    vazio = cliente.get("/api/v1/prazos/calendario.ics", params={"cnpj": "99.999.999/0001-99"})
    assert uids(vazio) == set()
    assert cliente.get("/api/v1/processos/99/calendario.ics").status_code == 404
    assert cliente.get(f"/api/v1/processos/{2**63}/calendario.ics").status_code in (404, 422)
    pagina = cliente.get("/processos/2", headers={"Accept": "text/html"}).text
    assert 'href="/api/v1/processos/2/calendario.ics"' in pagina
    assert 'href="/api/v1/prazos/calendario.ics"' not in pagina
    fila = cliente.get("/pendencias", params={"cnpj": "11.222.333/0001-81"}).text
    assert "/api/v1/prazos/calendario.ics?cnpj=11.222.333/0001-81" in fila.replace("%2F", "/")
