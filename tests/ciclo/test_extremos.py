"""Issue 15, item 8: dates at both ends of the calendar (01/01/0001, 02/01/0001 and
22/12/9999 … 31/12/9999) through every event of every kind of processo. Whatever cannot be
computed is a pt-BR error *before* anything is stored; whatever was stored is read back by every
read route (the detail, the listing, the next deadlines, the calendar, the lists in JSON, CSV
and PDF, the pages and the command line) without a 500 nor a traceback.

Each check lives at the cheapest level that can still fail for it:

- **the core, the whole matrix** (:func:`test_datas_extremas_no_nucleo_recusa_em_portugues_ou_tudo_se_le`):
  every event of every tipo × every date × every earlier date × both calendars, the whole list
  and the list without its last event followed by appending it, through the very methods the
  API calls (:meth:`Ciclo.criar`, :meth:`Ciclo.acrescentar`, :meth:`Ciclo.obter`,
  :meth:`Ciclo.detalhe`, :meth:`Ciclo.pendencias`, :meth:`Ciclo.lista`, …) and the renderers
  of the read routes and commands (JSON, text, CSV, PDF, iCalendar), on an in-memory
  repository (:class:`_EmMemoria`): no database, no HTTP;
- **the round trip, one per tipo** (:func:`test_datas_extremas_422_antes_de_gravar_e_o_gravado_se_le_de_volta`):
  a few chains of each tipo (the longest, the one that reaches the linked fine, a court
  suspension, the first event alone) at the two ends, through HTTP and each database, and then
  every read route, page and command on what was stored.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import replace
from datetime import date, timedelta
from functools import cache
from pathlib import Path
from typing import Any, cast

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from icalendar import Calendar

from multas import calcular
from multas.cli.listas import _lista_texto
from multas.nucleo.ciclo.carteira import ler_ano
from multas.nucleo.ciclo.pendencias import ler_filtros
from multas.nucleo.cnpj import normalizar as normalizar_cnpj
from multas.nucleo.datas import ANO_DIGITADO_MINIMO
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.eventos import TIPOS
from multas.nucleo.json_exato import despejar_json
from multas.nucleo.legislacao import Legislacao, carregar
from multas.saidas.exportar import calendario_ics, lista_csv, lista_pdf, pendencias_csv
from multas.saidas.texto import detalhe_texto, pendencias_texto, quem_e
from multas.servicos.gestao import LISTAS, Ciclo
from multas.servicos.persistencia import USUARIO_PADRAO, Caso, Repositorio
from multas.servicos.persistencia.ciclo import (
    AnoArmazenado,
    EventoArmazenado,
    NovoProcesso,
    ProcessoArmazenado,
    RepositorioCiclo,
)
from multas.servicos.relogio import agora, hoje
from multas.servidor import criar_app
from multas.servidor.formulario import sugerir_dias
from tests.utils import INGLES, erro_pt

DATAS = [date(1, 1, 1), date(1, 1, 2), *(date(9999, 12, dia) for dia in range(22, 32))]
#: the lists are read as of these dates (and today)
DATAS_LISTAS = [date(1, 1, 1), date(1, 1, 2), date(9999, 12, 22), date(9999, 12, 31)]
CNPJ = "12.345.678/0001-95"
JSON_CT = {"Content-Type": "application/json"}
CASOS = [(tipo, nome) for tipo, t in TIPOS.items() for nome in t.eventos]
CALENDARIOS = ("expediente", "feriados")
#: the saved distributor case a renovabio.lista processo links to (its linked fine)
CASO = {
    "regime": "renovabio.distribuidor",
    "ano_meta": 2025,
    "meta_cbios": 1000000,
    "cbios_aposentados": 400000,
    "maior_media_mensal": "71.70",
}
#: the ledger's year that gives the CNPJ its partial checks (the detail's informações)
ANO = {
    "cnpj": CNPJ,
    "ano": 9000,
    "meta_cbios": 10,
    "cbios_aposentados": 20,
    "segundo_ano_atuacao": True,
}


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


def processos(tipo: str, nome: str, datas: list[date], caso_id: int) -> Iterator[dict[str, Any]]:
    """The processos of the matrix that end in ``nome``: each date of ``datas`` for ``nome``,
    each of its :func:`antes_de` for the events before it, each calendar; with the linked fine
    (anp: ``principal``, the deprecated name of ``valor_multa``; renovabio.lista: the saved
    case ``caso_id``) and the CNPJ of the ledger's year."""
    vinculo: dict[str, dict[str, Any]] = {
        "anp": {"principal": "1000.00"},
        "renovabio.lista": {"caso_id": caso_id},
    }
    nomes = cadeia(tipo, nome)
    vistos: set[str] = set()
    for dia in datas:
        for anterior in antes_de(dia):
            for calendario in CALENDARIOS:
                processo = {
                    "tipo": tipo,
                    "cnpj": CNPJ,
                    "nome": "Distribuidora Exemplo",
                    "interpretacao": {"calendario": calendario},
                    **vinculo.get(tipo, {}),
                    "eventos": [
                        {"evento": n, "data": (dia if n == nome else anterior).isoformat()}
                        for n in nomes
                    ],
                }
                # a chain of one event is the same whatever the earlier date: once
                if (chave := json.dumps(processo)) not in vistos:
                    vistos.add(chave)
                    yield processo


# --- the core: the whole matrix, without a database or HTTP --------------------------------


def recusa_em_portugues(erro: EntradaInvalida, o_que: object) -> None:
    """A refusal names its field and says why in pt-BR (what the API answers as a 422)."""
    assert erro.campo, (o_que, erro)
    assert erro.mensagem, (o_que, erro)
    assert not any(palavra in erro.mensagem for palavra in INGLES), (o_que, erro.mensagem)


class _Casos:
    """What :class:`Ciclo` asks of :class:`Repositorio` (a saved case, for the linked fine),
    in memory: the distributor case :data:`CASO`, id 1, as the API saves it."""

    def __init__(self) -> None:
        resultado = calcular(dict(CASO))
        self.caso = Caso(
            id=1,
            regime=str(CASO["regime"]),
            entrada=json.dumps(CASO),
            resultado=json.dumps(resultado, ensure_ascii=False),
            valor=resultado.get("valor"),
            versao_motor="",
            versao_legislacao="",
            usuario=USUARIO_PADRAO,
            origem="api",
            criado_em=agora(),
        )

    def obter(self, caso_id: int) -> Caso | None:
        return self.caso if caso_id == self.caso.id else None


class _EmMemoria(RepositorioCiclo):
    """The stored processos and the ledger in a dict: what :class:`Ciclo` asks of
    :class:`RepositorioCiclo` to create a processo, append an event and read them back, without
    SQL (the database's own checks are the round trip's). A method not written here would reach
    for a database it does not have, and fail."""

    def __init__(self) -> None:  # no database: RepositorioCiclo.__init__ is not called
        self.processos: dict[int, ProcessoArmazenado] = {}
        entrada = ler_ano(ANO).como_dict()
        momento = agora()
        self.ano = AnoArmazenado(CNPJ, 9000, None, entrada, USUARIO_PADRAO, momento, momento)

    def criar_processo(
        self, novo: NovoProcesso, usuario: str = USUARIO_PADRAO
    ) -> ProcessoArmazenado:
        momento = agora()
        armazenado = ProcessoArmazenado(
            id=len(self.processos) + 1,
            tipo=novo.tipo,
            identificador=novo.identificador,
            cnpj=novo.cnpj,
            nome=novo.nome,
            calendario=novo.calendario,
            valor_multa=novo.valor_multa,
            dias_sem_expediente=None
            if novo.dias_sem_expediente is None
            else json.loads(novo.dias_sem_expediente),
            caso_id=novo.caso_id,
            usuario=usuario,
            criado_em=momento,
            atualizado_em=momento,
            eventos=tuple(
                EventoArmazenado(e, d, usuario, momento, v, None if p is None else json.loads(p))
                for (e, d), v, p in zip(
                    novo.eventos,
                    novo.valores or (None,) * len(novo.eventos),
                    novo.planos or (None,) * len(novo.eventos),
                    strict=True,
                )
            ),
        )
        self.processos[armazenado.id] = armazenado
        return armazenado

    def acrescentar_evento(
        self,
        processo_id: int,
        evento: str,
        data: date,
        validar: Callable[[ProcessoArmazenado, str, date], tuple[str | None, str | None] | None],
        usuario: str = USUARIO_PADRAO,
        documentos: str | None = None,
        guardar: object = None,
    ) -> ProcessoArmazenado | None:
        atual = self.processos.get(processo_id)
        if atual is None:
            return None
        valor, plano = validar(atual, evento, data) or (None, None)
        momento = agora()
        novo = EventoArmazenado(
            evento, data, usuario, momento, valor, None if plano is None else json.loads(plano)
        )
        self.processos[processo_id] = replace(
            atual, eventos=(*atual.eventos, novo), atualizado_em=momento
        )
        return self.processos[processo_id]

    def obter_processo(self, processo_id: int) -> ProcessoArmazenado | None:
        return self.processos.get(processo_id)

    def listar_processos(
        self,
        limite: int | None = 50,
        deslocamento: int = 0,
        tipo: str | None = None,
        cnpj: str | None = None,
    ) -> list[ProcessoArmazenado]:
        assert cnpj is None, "não usado aqui"
        todos = [p for p in reversed(self.processos.values()) if tipo in (None, p.tipo)]
        return todos[deslocamento:][:limite]

    def contar_processos(self, tipo: str | None = None, cnpj: str | None = None) -> int:
        return len(self.listar_processos(None, 0, tipo, cnpj))

    def vinculado(self, armazenado: ProcessoArmazenado) -> int | None:
        return None  # no processo of the matrix is linked to another

    def anos_carteira(self, cnpj: str, exigir: bool = True) -> list[AnoArmazenado]:
        return [self.ano] if normalizar_cnpj(cnpj) == normalizar_cnpj(CNPJ) else []


@cache
def _legislacao() -> Legislacao:
    return carregar()


@cache
def _casos() -> _Casos:
    return _Casos()


def ciclo_em_memoria() -> Ciclo:
    """A :class:`Ciclo` on :class:`_Casos` and a new :class:`_EmMemoria`."""
    ciclo = Ciclo(cast(Repositorio, _casos()), _legislacao())
    ciclo.repo = _EmMemoria()
    return ciclo


#: the lists, as of each date, of every processo stored in one test: one PDF each at its end
Pdfs = dict[tuple[str, date], dict[str, Any]]


def ler_de_volta(ciclo: Ciclo, pid: int, pdfs: Pdfs) -> None:
    """Every reading of the stored processo ``pid`` that a read route or command makes, as it
    makes it: the detail (today and on both ends; JSON, text, the page's calendar suggestions),
    the listing, the calendar (one VEVENT per deadline), the work queue as of today and every
    date of the matrix (JSON, CSV, text), and the three lists as of today and
    :data:`DATAS_LISTAS` (JSON, CSV, text; the PDF at the test's end, :func:`imprimir_listas`).
    Nothing stored is unreadable: no ``erro`` anywhere."""
    dia_de_hoje = hoje()
    prazos: dict[date | None, int] = {}
    for dia in (None, DATAS[0], DATAS[-1]):
        referencia = dia or dia_de_hoje
        derivado = ciclo.obter(pid, referencia)
        assert derivado.erro is None, derivado.erro
        detalhe = ciclo.detalhe(derivado, referencia)
        despejar_json(detalhe)
        detalhe_texto(detalhe)
        prazos[dia] = len(detalhe["resultado"]["prazos"])
        datas = [e["data"] for e in detalhe["eventos"]]
        datas += [z["data"] for z in detalhe["resultado"]["prazos"]]
        sugerir_dias("dias_sem_expediente", datas, "", _legislacao().calendario, referencia)
    resumos = [ciclo.resumo(d) for d in ciclo.listar(limite=None)]
    assert [r["processo_id"] for r in resumos] == [pid] and "erro" not in resumos[0]
    despejar_json(resumos)
    quem_e(resumos[0])
    itens = ciclo.todos_os_prazos()
    assert not any(i.get("erro") for i in itens), itens
    eventos = Calendar.from_ical(calendario_ics(itens, agora())).walk("VEVENT")
    assert len(eventos) == len(itens) == prazos[DATAS[-1]]
    for dia in [None, *DATAS]:
        fila = ciclo.pendencias(ler_filtros(dia or dia_de_hoje, 3660, todos=True))
        assert not any(i.get("erro") for i in fila["prazos"]), fila
        despejar_json(fila)
        pendencias_csv(fila)
        pendencias_csv(fila, ptbr=True)
        pendencias_texto(fila)
    for dia in [None, *DATAS_LISTAS]:
        for qual in LISTAS:
            lista = ciclo.lista(qual, dia or dia_de_hoje)
            assert not lista["erros"], lista
            despejar_json(lista)
            lista_csv(lista)
            lista_csv(lista, ptbr=True)
            _lista_texto(lista)
            junta = pdfs.setdefault((qual, dia or date.max), {**lista, "itens": [], "avisos": []})
            junta["itens"] += lista["itens"]
            junta["avisos"] += [a for a in lista["avisos"] if a not in junta["avisos"]]


def imprimir_listas(pdfs: Pdfs) -> None:
    """Each list as of each date, with every item that the test's processos put on it, as a
    PDF: every cell of the matrix rendered, in a few documents."""
    for lista in pdfs.values():
        assert lista_pdf(lista, agora()).startswith(b"%PDF-")


def criar(ciclo: Ciclo, processo: dict[str, Any]) -> int | None:
    """``POST /api/v1/processos``: the processo's id, or ``None`` when it is refused (pt-BR,
    naming the field)."""
    try:
        derivado = ciclo.criar(processo)
    except EntradaInvalida as erro:
        recusa_em_portugues(erro, processo)
        assert not ciclo.repo.contar_processos(), "recusado, mas gravado"
        return None
    ciclo.detalhe(derivado, hoje())  # what the 201 answers
    pid: int = derivado.armazenado.id
    return pid


def acrescentar(ciclo: Ciclo, pid: int, evento: dict[str, Any]) -> bool:
    """``POST /api/v1/processos/{pid}/eventos``: whether the event was appended; a refusal is
    pt-BR, names the form's field and leaves the stored events as they were."""
    antes = ciclo.repo.obter_processo(pid)
    try:
        derivado = ciclo.acrescentar(pid, evento)
    except EntradaInvalida as erro:
        recusa_em_portugues(erro, evento)
        assert ciclo.repo.obter_processo(pid) == antes, "recusado, mas gravado"
        return False
    ciclo.detalhe(derivado, hoje())  # what the 201 answers
    return True


@pytest.mark.parametrize(("tipo", "nome"), CASOS, ids=[f"{t}:{n}" for t, n in CASOS])
def test_datas_extremas_no_nucleo_recusa_em_portugues_ou_tudo_se_le(tipo: str, nome: str) -> None:
    """The whole matrix on the core: each processo, whole or its last event appended to the
    rest, is refused in pt-BR naming the field, or stored and then read back by everything the
    read routes and commands derive and render, without any other exception. Appending the last
    event to the stored rest is accepted exactly when the whole list is."""
    pdfs: Pdfs = {}
    for processo in processos(tipo, nome, DATAS, _casos().caso.id):
        ciclo = ciclo_em_memoria()
        inteiro = criar(ciclo, processo)
        if inteiro is not None:
            ler_de_volta(ciclo, inteiro, pdfs)
        eventos = processo["eventos"]
        if len(eventos) == 1:
            continue
        ciclo = ciclo_em_memoria()
        resto = criar(ciclo, {**processo, "eventos": eventos[:-1]})
        if resto is None:
            assert inteiro is None, ("o resto é recusado, o todo não", processo)
            continue
        acrescentado = acrescentar(ciclo, resto, eventos[-1])
        assert acrescentado == (inteiro is not None), processo
        ler_de_volta(ciclo, resto, pdfs)
    imprimir_listas(pdfs)


# --- the round trip: HTTP and each database, one item per tipo -----------------------------

#: per tipo, the events whose chains go through HTTP and the database: the longest chain (for
#: anp, the one that reaches the linked fine, anp.mora on the ciência of the final decision),
#: renovabio.lista's quitação as the last event (the linked case recomputed on its date), a
#: court suspension and the first event alone
IDA_E_VOLTA = {
    "anp": ("infracao", "ciencia_decisao_definitiva", "suspensao_judicial"),
    "renovabio.lista": ("fim_prazo_meta", "quitacao_meta", "retirada_lista", "suspensao_judicial"),
    "renovabio.balanco": ("inclusao_lista", "retirada_lista", "fim_suspensao_judicial"),
}
#: the two ends of the calendar (each with every earlier date of :func:`antes_de`)
PONTAS = [DATAS[0], DATAS[-1]]
#: an answer to a POST: 201 and no field, or 422 and the field the error names
Desfecho = tuple[int, str | None]


def aceito_ou_422(resposta: Any, o_que: str) -> Desfecho:
    """201 (stored) or a pt-BR 422 (nothing stored), with the field it names; never a 500."""
    if resposta.status_code == 422:
        campo: str | None = resposta.json()["erro"]["campo"]
        erro_pt(resposta, 422, campo)
        return 422, campo
    assert resposta.status_code == 201, f"{o_que}: {resposta.status_code} {resposta.text}"
    return 201, None


def no_nucleo(fazer: Callable[..., object], *argumentos: Any) -> Desfecho:
    """What the API answers to the same request, as the core decides it."""
    try:
        fazer(*argumentos)
    except EntradaInvalida as erro:
        return 422, erro.campo
    return 201, None


@pytest.fixture
def cliente(database_url: str) -> Iterator[TestClient]:
    with TestClient(criar_app(database_url), raise_server_exceptions=False) as c:
        yield c


def _post(cliente: TestClient, url: str, corpo: Any) -> Any:
    return cliente.post(url, content=json.dumps(corpo), headers=JSON_CT)


def test_ida_e_volta_cobre_cada_tipo() -> None:
    """The round trip's chains stay representative when the tables change: every tipo, its
    first event, its longest chain and a court suspension."""
    assert set(IDA_E_VOLTA) == set(TIPOS)
    for tipo, nomes in IDA_E_VOLTA.items():
        assert set(nomes) <= set(TIPOS[tipo].eventos)
        assert TIPOS[tipo].primeiro.nome in nomes
        mais_longa = max(len(cadeia(tipo, n)) for n in TIPOS[tipo].eventos)
        assert max(len(cadeia(tipo, n)) for n in nomes) == mais_longa
        assert any(TIPOS[tipo].eventos[n].suspensao for n in nomes)


@pytest.mark.parametrize("tipo", list(TIPOS))
def test_datas_extremas_422_antes_de_gravar_e_o_gravado_se_le_de_volta(
    cliente: TestClient, database_url: str, tmp_path: Path, tipo: str
) -> None:
    # the linked fine is part of what is read back: anp with a principal, the list linked to
    # a saved case; the ledger gives the CNPJ its partial checks (informações)
    caso = _post(cliente, "/api/v1/casos", CASO)
    assert caso.status_code == 201, caso.text
    assert _post(cliente, "/api/v1/carteira", ANO).is_success
    caso_id = caso.json()["id"]
    gravados = 0
    for nome in IDA_E_VOLTA[tipo]:
        for processo in processos(tipo, nome, PONTAS, caso_id):
            eventos = processo["eventos"]
            o_que = f"{processo['interpretacao']} {eventos}"
            # the same processo on the core (its saved case: the in-memory one), which must
            # decide every request as the API did: the matrix on the core stands for the API
            nucleo, caso_em_memoria = ciclo_em_memoria(), {"caso_id": _casos().caso.id}
            como_no_nucleo = processo | (caso_em_memoria if "caso_id" in processo else {})
            # the whole list at once, and the last event appended to the stored rest
            desfecho = aceito_ou_422(_post(cliente, "/api/v1/processos", processo), o_que)
            assert desfecho == no_nucleo(nucleo.criar, como_no_nucleo), o_que
            gravados += desfecho[0] == 201
            if len(eventos) == 1:
                continue
            nucleo = ciclo_em_memoria()
            resto = {**processo, "eventos": eventos[:-1]}
            criado = _post(cliente, "/api/v1/processos", resto)
            desfecho = aceito_ou_422(criado, f"{o_que} (sem o último)")
            resto_no_nucleo = {**como_no_nucleo, "eventos": eventos[:-1]}
            assert desfecho == no_nucleo(nucleo.criar, resto_no_nucleo), o_que
            if desfecho[0] != 201:
                continue
            gravados += 1
            pid = criado.json()["processo_id"]
            url = f"/api/v1/processos/{pid}/eventos"
            desfecho = aceito_ou_422(_post(cliente, url, eventos[-1]), f"{o_que} (acrescentado)")
            [guardado] = nucleo.repo.listar_processos(None)
            assert desfecho == no_nucleo(nucleo.acrescentar, guardado.id, eventos[-1]), o_que

    # a refused processo or event stored nothing: the stored ones are exactly the 201s
    listagem = cliente.get("/api/v1/processos", params={"limite": 500})
    assert listagem.status_code == 200, listagem.text
    assert listagem.json()["total"] == gravados
    ids = [p["processo_id"] for p in listagem.json()["processos"]]
    # every stored processo reads back: the detail (today and on the extreme dates), its page
    prazos = 0
    for pid in ids:
        for dia in (None, DATAS[0], DATAS[-1]):
            params = {"hoje": dia.isoformat()} if dia else {}
            r = cliente.get(f"/api/v1/processos/{pid}", params=params)
            assert r.status_code == 200, r.text
        prazos += len(r.json()["resultado"]["prazos"])
        r = cliente.get(f"/processos/{pid}", headers={"Accept": "text/html"})
        assert r.status_code == 200, r.text
    for url in ("/processos", "/prazos", "/listas", f"/carteira/distribuidor?cnpj={CNPJ}"):
        assert cliente.get(url).status_code == 200, url
    ics = cliente.get("/api/v1/prazos/calendario.ics")
    assert ics.status_code == 200, ics.text
    assert len(Calendar.from_ical(ics.content).walk("VEVENT")) == prazos
    for dia in [None, *DATAS]:
        params = {"hoje": dia.isoformat()} if dia else {}
        r = cliente.get("/api/v1/prazos/proximos", params={**params, "dias": 3660, "todos": True})
        assert r.status_code == 200, r.text
        pagina = cliente.get(
            "/prazos", params={"dias": 3660, **({"data": dia.isoformat()} if dia else {})}
        )
        # a date typed on the page has a year from 1900 (multas.nucleo.datas.ANO_DIGITADO_MINIMO): the
        # year 1 is an error at its field there, while the API (ISO, the contract) takes it
        digitavel = dia is None or dia.year >= ANO_DIGITADO_MINIMO
        assert pagina.status_code == (200 if digitavel else 422)
        if not digitavel:
            assert "ano fora do intervalo aceito" in pagina.text
    for dia in [None, *DATAS_LISTAS]:
        data = {"data": dia.isoformat()} if dia else {}
        for qual in LISTAS:
            for formato in ("json", "csv", "pdf"):
                r = cliente.get(f"/api/v1/listas/{qual}", params={**data, "formato": formato})
                assert r.status_code == 200, (qual, formato, dia, r.text)
            pagina = cliente.get("/listas", params={"lista": qual, **data})
            assert pagina.status_code == (
                200 if dia is None or dia.year >= ANO_DIGITADO_MINIMO else 422
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
    for qual in LISTAS:
        for formato in ("texto", "csv", "pdf"):
            saida = str(tmp_path / f"lista.{formato}")
            multas("listas", qual, "--data", "9999-12-31", "-f", formato, "-o", saida)


def sem_traceback(r: Any, o_que: object) -> bool:
    """Exit 0 (done) or 2 (a pt-BR error in JSON on stdout, nothing stored), no traceback."""
    assert r.exception is None or isinstance(r.exception, SystemExit), (o_que, r.exception)
    assert r.exit_code in (0, 2), (o_que, r.output)
    if r.exit_code == 2:
        erro = json.loads(r.stdout)["erro"]
        # a row of a file: where it is too (linha, or item in a JSON list)
        assert set(erro) - {"linha", "item"} == {"campo", "mensagem"}, (o_que, r.output)
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
