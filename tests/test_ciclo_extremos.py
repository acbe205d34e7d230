"""Issue 15, item 8: dates at both ends of the calendar (01/01/0001, 02/01/0001 and
22/12/9999 … 31/12/9999) through every event of every kind of processo. Whatever cannot be
computed is a pt-BR 422 *before* anything is stored; whatever was stored is read back by every
read route (the detail, the listing, the next deadlines, the calendar, the lists in JSON, CSV
and PDF, the pages and the command line) without a 500 nor a traceback."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from multas.ciclo.eventos import TIPOS
from multas.datas import ANO_DIGITADO_MINIMO
from multas.servidor import criar_app
from tests.test_api import erro_pt

DATAS = [date(1, 1, 1), date(1, 1, 2), *(date(9999, 12, dia) for dia in range(22, 32))]
#: the lists are read as of these dates (and today)
DATAS_LISTAS = [date(1, 1, 1), date(1, 1, 2), date(9999, 12, 22), date(9999, 12, 31)]
CNPJ = "12.345.678/0001-95"
JSON_CT = {"Content-Type": "application/json"}
CASOS = [(tipo, nome) for tipo, t in TIPOS.items() for nome in t.eventos]


def cadeia(tipo: str, nome: str) -> list[str]:
    """The shortest list of events that ends in ``nome``: its first event and every event it
    must come after (transitively), in the table's order."""
    eventos = TIPOS[tipo].eventos
    precisa: set[str] = set()

    def juntar(evento: str) -> None:
        precisa.add(evento)
        for anterior in eventos[evento].depois_de:
            juntar(anterior)

    juntar(TIPOS[tipo].primeiro.nome)
    juntar(nome)
    return [e for e in eventos if e in precisa]


def antes_de(dia: date) -> list[date]:
    """The dates the earlier events take: the same day, the day before, two months before
    (never before 01/01/0001)."""
    return sorted({dia - timedelta(days=min(n, (dia - date.min).days)) for n in (0, 1, 60)})


def aceito_ou_422(resposta: Any, o_que: str) -> bool:
    """201 (stored) or a pt-BR 422 (nothing stored); never a 500."""
    if resposta.status_code == 422:
        corpo = resposta.json()
        erro_pt(resposta, 422, corpo["erro"]["campo"])
        return False
    assert resposta.status_code == 201, f"{o_que}: {resposta.status_code} {resposta.text}"
    return True


@pytest.fixture
def cliente(database_url: str) -> Iterator[TestClient]:
    with TestClient(criar_app(database_url), raise_server_exceptions=False) as c:
        yield c


def _post(cliente: TestClient, url: str, corpo: Any) -> Any:
    return cliente.post(url, content=json.dumps(corpo), headers=JSON_CT)


@pytest.mark.parametrize(("tipo", "nome"), CASOS, ids=[f"{t}:{n}" for t, n in CASOS])
def test_datas_extremas_422_antes_de_gravar_e_o_gravado_se_le_de_volta(
    cliente: TestClient, database_url: str, tmp_path: Path, tipo: str, nome: str
) -> None:
    # the linked fine is part of what is read back: anp with a principal, the list linked to
    # a saved distributor case; the ledger gives the CNPJ its partial checks (informações)
    caso = _post(
        cliente,
        "/api/v1/casos",
        {
            "regime": "renovabio.distribuidor",
            "ano_meta": 2025,
            "meta_cbios": 1000000,
            "cbios_aposentados": 400000,
            "maior_media_mensal": "71.70",
        },
    )
    assert caso.status_code == 201, caso.text
    ano = {"cnpj": CNPJ, "ano": 9000, "meta_cbios": 10, "cbios_aposentados": 20}
    assert _post(cliente, "/api/v1/carteira", {**ano, "segundo_ano_atuacao": True}).is_success
    vinculo = {"anp": {"principal": "1000.00"}, "renovabio.lista": {"caso_id": caso.json()["id"]}}
    nomes = cadeia(tipo, nome)
    gravados = 0
    for dia in DATAS:
        for anterior in antes_de(dia):
            for calendario in ("expediente", "feriados"):
                eventos = [
                    {"evento": n, "data": (dia if n == nome else anterior).isoformat()}
                    for n in nomes
                ]
                processo = {
                    "tipo": tipo,
                    "cnpj": CNPJ,
                    "nome": "Distribuidora Exemplo",
                    "interpretacao": {"calendario": calendario},
                    **vinculo.get(tipo, {}),
                    "eventos": eventos,
                }
                o_que = f"{calendario} {eventos}"
                # the whole list at once, and the last event appended to the stored rest
                gravados += aceito_ou_422(_post(cliente, "/api/v1/processos", processo), o_que)
                if len(eventos) == 1:
                    continue
                resto = {**processo, "eventos": eventos[:-1]}
                criado = _post(cliente, "/api/v1/processos", resto)
                if not aceito_ou_422(criado, f"{o_que} (sem o último)"):
                    continue
                gravados += 1
                pid = criado.json()["processo_id"]
                url = f"/api/v1/processos/{pid}/eventos"
                aceito_ou_422(_post(cliente, url, eventos[-1]), f"{o_que} (acrescentado)")

    # a refused processo or event stored nothing: the stored ones are exactly the 201s
    listagem = cliente.get("/api/v1/processos", params={"limite": 500})
    assert listagem.status_code == 200, listagem.text
    assert listagem.json()["total"] == gravados
    ids = [p["processo_id"] for p in listagem.json()["processos"]]
    # every stored processo reads back: the detail (today and on the extreme dates), its page
    prazos = 0
    for pid in ids:
        for hoje in (None, DATAS[0], DATAS[-1]):
            params = {"hoje": hoje.isoformat()} if hoje else {}
            r = cliente.get(f"/api/v1/processos/{pid}", params=params)
            assert r.status_code == 200, r.text
        prazos += len(r.json()["resultado"]["prazos"])
        r = cliente.get(f"/processos/{pid}", headers={"Accept": "text/html"})
        assert r.status_code == 200, r.text
    for url in ("/processos", "/prazos", "/listas", f"/carteira/distribuidor?cnpj={CNPJ}"):
        assert cliente.get(url).status_code == 200, url
    ics = cliente.get("/api/v1/prazos/calendario.ics")
    assert ics.status_code == 200, ics.text
    from icalendar import Calendar

    assert len(Calendar.from_ical(ics.content).walk("VEVENT")) == prazos
    for hoje in [None, *DATAS]:
        params = {"hoje": hoje.isoformat()} if hoje else {}
        r = cliente.get("/api/v1/prazos/proximos", params={**params, "dias": 3660, "todos": True})
        assert r.status_code == 200, r.text
        pagina = cliente.get("/prazos", params={"dias": 3660, **({"data": hoje} if hoje else {})})
        # a date typed on the page has a year from 1900 (multas.datas.ANO_DIGITADO_MINIMO): the
        # year 1 is an error at its field there, while the API (ISO, the contract) takes it
        digitavel = hoje is None or hoje.year >= ANO_DIGITADO_MINIMO
        assert pagina.status_code == (200 if digitavel else 422)
        if not digitavel:
            assert "ano fora do intervalo aceito" in pagina.text
    for hoje in [None, *DATAS_LISTAS]:
        data = {"data": hoje.isoformat()} if hoje else {}
        for qual in ("sancoes", "balanco", "encaminhamento"):
            for formato in ("json", "csv", "pdf"):
                r = cliente.get(f"/api/v1/listas/{qual}", params={**data, "formato": formato})
                assert r.status_code == 200, (qual, formato, hoje, r.text)
            pagina = cliente.get("/listas", params={"lista": qual, **data})
            assert pagina.status_code == (
                200 if hoje is None or hoje.year >= ANO_DIGITADO_MINIMO else 422
            )

    # the command line reads the same database back without a traceback
    from multas.principal import cli

    banco = ["--banco", database_url]

    def multas(*args: str) -> str:
        r = CliRunner().invoke(cli, [*args, *banco], prog_name="multas")
        assert r.exit_code == 0 and r.exception is None, (args, r.output, r.exception)
        return r.output

    for pid in ids:
        multas("processo", "mostrar", str(pid))
        multas("processo", "mostrar", str(pid), "--hoje", "9999-12-31", "-f", "json")
    multas("processo", "listar")
    multas("prazos", "proximos", "--hoje", "9999-12-22", "--dias", "3660", "--todos")
    multas("prazos", "ics", "-o", str(tmp_path / "prazos.ics"))
    for qual in ("sancoes", "balanco", "encaminhamento"):
        for formato in ("texto", "csv", "pdf"):
            saida = str(tmp_path / f"lista.{formato}")
            multas("listas", qual, "--data", "9999-12-31", "-f", formato, "-o", saida)


def sem_traceback(r: Any, o_que: object) -> bool:
    """Exit 0 (done) or 2 (a pt-BR error in JSON on stdout, nothing stored), no traceback."""
    assert r.exception is None or isinstance(r.exception, SystemExit), (o_que, r.exception)
    assert r.exit_code in (0, 2), (o_que, r.output)
    if r.exit_code == 2:
        erro = json.loads(r.stdout)["erro"]
        assert set(erro) == {"campo", "mensagem"}, (o_que, r.output)
    return bool(r.exit_code == 0)


@pytest.mark.parametrize("tipo", list(TIPOS))
def test_cli_datas_extremas_gravam_ou_recusam_sem_traceback(tmp_path: Path, tipo: str) -> None:
    """``multas processo criar`` and ``multas processo evento`` with the extreme dates: exit 0
    (stored) or 2 (a pt-BR error, nothing stored), never a traceback."""
    from multas.principal import cli

    banco = ["--banco", f"sqlite:///{tmp_path / 'm.db'}"]
    principal = {"principal": "1000.00"} if tipo == "anp" else {}
    gravados = 0
    for dia in (DATAS[0], DATAS[2], DATAS[-1]):
        for nome in TIPOS[tipo].eventos:
            nomes = cadeia(tipo, nome)
            eventos = [{"evento": n, "data": dia.isoformat()} for n in nomes[:-1] or nomes]
            corpo = json.dumps({"tipo": tipo, **principal, "eventos": eventos})
            r = CliRunner().invoke(cli, ["processo", "criar", "-", "-f", "json", *banco], corpo)
            if not sem_traceback(r, corpo):
                continue
            gravados += 1
            if len(nomes) > 1:
                pid = str(json.loads(r.stdout)["processo_id"])
                argumentos = ["processo", "evento", pid, nome, dia.isoformat(), "-f", "json"]
                sem_traceback(CliRunner().invoke(cli, [*argumentos, *banco]), argumentos)
    r = CliRunner().invoke(cli, ["processo", "listar", "-f", "json", *banco])
    assert r.exit_code == 0 and len(json.loads(r.stdout)) == gravados


def test_prazo_em_31_12_9999_nao_derruba_o_calendario(tmp_path: Path) -> None:
    """The .ics of every stored deadline, with one on the last day of the calendar: its
    DTEND (the next day) cannot be written, so it has none — one day (RFC 5545 § 3.6.1)."""
    from icalendar import Calendar

    with TestClient(criar_app(f"sqlite:///{tmp_path / 'm.db'}")) as cliente:
        for inicio, adequacao in (("2026-04-01", "2026-04-14"), ("9999-12-01", "9999-12-24")):
            processo = {
                "tipo": "renovabio.balanco",
                "eventos": [
                    {"evento": "inclusao_lista", "data": inicio},
                    # 24/12/9999 (sexta) + 5 dias úteis: 27, 28, 29, 30, 31/12/9999 (só
                    # feriados: no calendário "expediente", 31/12 encerra mais cedo e nenhum
                    # prazo termina nele, e o dia seguinte não existe)
                    {"evento": "comprovacao_adequacao", "data": adequacao},
                ],
                "interpretacao": {"calendario": "feriados"},
            }
            assert _post(cliente, "/api/v1/processos", processo).status_code == 201
        ics = cliente.get("/api/v1/prazos/calendario.ics")
    assert ics.status_code == 200, ics.text
    eventos = Calendar.from_ical(ics.content).walk("VEVENT")
    datas = [(e.decoded("DTSTART"), e.get("DTEND") and e.decoded("DTEND")) for e in eventos]
    # 14/04/2026, só feriados: 15, 16, 17, 20, 22 (21 Tiradentes) → 22/04/2026
    assert datas == [(date(2026, 4, 22), date(2026, 4, 23)), (date(9999, 12, 31), None)]


def test_multa_vinculada_que_nao_se_calcula_e_recusada_antes_de_gravar(tmp_path: Path) -> None:
    """A processo whose linked fine cannot be computed used to be stored, then answer 422 (or
    500) on every reading: now it is refused, naming the event's date, and nothing is stored."""
    with TestClient(criar_app(f"sqlite:///{tmp_path / 'm.db'}")) as cliente:
        anp = {
            "tipo": "anp",
            "principal": "1000.00",
            "eventos": [
                {"evento": "infracao", "data": "1998-01-05"},
                {"evento": "auto_infracao", "data": "1998-02-02"},
                {"evento": "ciencia_primeira_instancia", "data": "1998-06-01"},
                # anp.mora exists from 29/01/1999 on
                {"evento": "ciencia_decisao_definitiva", "data": "1999-01-28"},
            ],
        }
        r = _post(cliente, "/api/v1/processos", anp)
        assert "multa vinculada" in erro_pt(r, 422, "eventos[3].data")
        # the same event appended to the stored rest: the form's field, "data"
        criado = _post(cliente, "/api/v1/processos", {**anp, "eventos": anp["eventos"][:3]})
        pid = criado.json()["processo_id"]
        r = _post(cliente, f"/api/v1/processos/{pid}/eventos", anp["eventos"][3])
        assert "29/01/1999" in erro_pt(r, 422, "data")
        assert len(cliente.get(f"/api/v1/processos/{pid}").json()["eventos"]) == 3
        # the list linked to a saved case whose deadline is 31/12/2025: a quitação before it
        caso = _post(
            cliente,
            "/api/v1/casos",
            {
                "regime": "renovabio.distribuidor",
                "ano_meta": 2025,
                "meta_cbios": 1000,
                "cbios_aposentados": 400,
                "maior_media_mensal": "71.70",
            },
        ).json()
        lista = {
            "tipo": "renovabio.lista",
            "caso_id": caso["id"],
            "eventos": [
                {"evento": "fim_prazo_meta", "data": "2025-01-31"},
                {"evento": "quitacao_meta", "data": "2025-03-10"},
            ],
        }
        r = _post(cliente, "/api/v1/processos", lista)
        assert "31/12/2025" in erro_pt(r, 422, "eventos[1].data")
        assert cliente.get("/api/v1/processos").json()["total"] == 1  # only the anp rest
