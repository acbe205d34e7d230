"""Clients kept apart (issue 20, item 2): a user limited to some clients (``--cnpj``,
``--cnpj-raiz``) sees, lists, exports and writes only their records, on SQLite and
PostgreSQL. The separation is checked by walking every route of the app (the permission
table, :data:`multas.servidor.permissoes.PERMISSOES`) as a limited user: another client's
record, or one without a CNPJ, never shows, and its ids answer 404."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from click.testing import CliRunner

from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.escopo import Escopo, ForaDoEscopo, normalizar_raiz
from multas.servicos.persistencia import Repositorio
from multas.servicos.persistencia.acesso import Acesso
from multas.servidor.permissoes import PERMISSOES
from tests.utils import SENHA, Ambiente, com

PARAMETRO = re.compile(r"\{([^}]+)\}")

#: the limited user's client (A), another client (B, alphanumeric), and a branch of A's root
CNPJ_A = "11.222.333/0001-81"
NOME_A = "Distribuidora Alfa"
CNPJ_B = "12.ABC.345/01DE-35"
NOME_B = "Combustíveis Bravo"
CNPJ_FILIAL_A = "11.222.333/0002-62"
REF_SEM = "REF-SEM-CNPJ-777"
#: every spelling of B and of the record without a CNPJ that must never reach the limited user
VAZAMENTOS = ("12ABC34501DE35", CNPJ_B, NOME_B, REF_SEM, "Bravo")


def _caso(cnpj: str | None, nome: str | None, referencia: str | None = None) -> str:
    dados: dict[str, Any] = {"regime": "anp.infracao", "inciso": "XI", "valor": "750000.00"}
    for campo, valor in (("cnpj", cnpj), ("nome", nome), ("referencia", referencia)):
        if valor:
            dados[campo] = valor
    return json.dumps(dados)


def _processo(cnpj: str | None, nome: str | None, referencia: str | None = None) -> dict[str, Any]:
    dados: dict[str, Any] = {
        "tipo": "anp",
        "eventos": [{"evento": "infracao", "data": "2024-01-02"}],
    }
    for campo, valor in (("cnpj", cnpj), ("nome", nome), ("referencia", referencia)):
        if valor:
            dados[campo] = valor
    return dados


def _ano(cnpj: str, nome: str) -> dict[str, Any]:
    return {
        "cnpj": cnpj,
        "nome": nome,
        "ano": 2024,
        "meta_cbios": 10,
        "cbios_aposentados": 1,
        "meta_anterior_cumprida": True,
    }


@dataclass
class Clientes:
    amb: Ambiente
    #: ids of A's, B's and the CNPJ-less records
    a: dict[str, str]
    b: dict[str, str]
    sem: dict[str, str]
    #: bearer headers of the limited users
    analista_a: dict[str, str]
    leitura_raiz_a: dict[str, str]


def _guardar(amb: Ambiente, cnpj: str | None, nome: str | None, ref: str | None) -> dict[str, str]:
    admin = com(amb, "admin")
    c = amb.cliente
    caso = c.post("/api/v1/casos", content=_caso(cnpj, nome, ref), headers=admin)
    assert caso.status_code == 201, caso.text
    processo = c.post("/api/v1/processos", json=_processo(cnpj, nome, ref), headers=admin)
    assert processo.status_code == 201, processo.text
    if cnpj and nome:
        ano = c.post("/api/v1/carteira", json=_ano(cnpj, nome), headers=admin)
        assert ano.status_code in (200, 201), ano.text
    return {"caso_id": str(caso.json()["id"]), "processo_id": str(processo.json()["processo_id"])}


@pytest.fixture
def clientes(ambiente: Ambiente) -> Iterator[Clientes]:
    repo = Repositorio(ambiente.url)
    acesso = Acesso(repo)
    analista = acesso.criar("ana de A", "analista", SENHA, "teste", Escopo.de([CNPJ_A]))
    leitura = acesso.criar("léo da raiz A", "leitura", SENHA, "teste", Escopo.de((), ["11222333"]))
    repo.fechar()
    a = _guardar(ambiente, CNPJ_A, NOME_A, None)
    b = _guardar(ambiente, CNPJ_B, NOME_B, None)
    sem = _guardar(ambiente, None, None, REF_SEM)
    yield Clientes(
        ambiente,
        a,
        b,
        sem,
        {"Authorization": f"Bearer {analista}"},
        {"Authorization": f"Bearer {leitura}"},
    )


def _concreto(caminho: str, ids: dict[str, str]) -> str:
    valores = {
        "qual": "sancoes",
        "formato": "html",
        "ano": "2024",
        "token": "cal_x",
        "sha256": "0" * 64,
        "tipo": "caso",
        "registro_id": ids["caso_id"],
        **ids,
    }
    return PARAMETRO.sub(lambda m: valores[m.group(1)], caminho)


def _sem_vazamento(resposta: Any, onde: str) -> None:
    texto = resposta.text
    for proibido in VAZAMENTOS:
        assert proibido not in texto, (onde, proibido, resposta.status_code, texto[:300])


# --- the rule -----------------------------------------------------------------------------------


def test_escopo_permite_cnpj_e_raiz_e_nunca_registro_sem_cnpj() -> None:
    escopo = Escopo.de([CNPJ_A], ["12abc345"])
    assert escopo is not None
    assert escopo.permite("11222333000181") and escopo.permite(" 11.222.333/0001-81 ")
    assert escopo.permite(CNPJ_B) and escopo.permite("12.ABC.345/0001-99")  # B's root
    assert not escopo.permite(CNPJ_FILIAL_A)  # A's CNPJ alone, not its root
    assert not escopo.permite(None) and not escopo.permite("")
    assert escopo.json() == '[{"cnpj": "11222333000181"}, {"raiz": "12ABC345"}]'
    assert Escopo.ler(escopo.json()) == escopo
    assert Escopo.de() is None and Escopo.ler(None) is None
    assert Escopo.ler("[quebrado") == Escopo(frozenset(), frozenset())  # nothing, never all


@pytest.mark.parametrize("errado", ["11.222.333/0001-80", "123", ""])
def test_cnpj_do_escopo_com_digitos_errados_e_recusado(errado: str) -> None:
    with pytest.raises(EntradaInvalida):
        Escopo.de([errado])


@pytest.mark.parametrize("errada", ["1122233", "112223334", "11.222.33-", "ç1222333"])
def test_raiz_invalida_e_recusada(errada: str) -> None:
    with pytest.raises(EntradaInvalida):
        normalizar_raiz(errada)


def test_fora_do_escopo_nomeia_o_cnpj_formatado() -> None:
    assert "12.ABC.345/01DE-35" in ForaDoEscopo("12abc34501de35").mensagem


# --- storage: with the user, inside the chain -------------------------------------------------------


def test_escopo_gravado_com_o_usuario_na_cadeia(acesso: Acesso) -> None:
    acesso.criar("ana", "analista", None, "admin", Escopo.de([CNPJ_A], ["12ABC345"]))
    assert acesso.escopos()["ana"] == Escopo.de([CNPJ_A], ["12ABC345"])
    acesso.definir_clientes("ana", None, "admin")
    assert acesso.escopos()["ana"] is None
    acesso.definir_clientes("ana", Escopo.de((), ["11222333"]), "admin")
    registros = acesso.repositorio.auditoria(limite=1000)
    assert [r.acao for r in registros if r.tabela == "usuarios"] == [
        "usuario_criar",
        "usuario_clientes",
        "usuario_clientes",
    ]
    assert not acesso.repositorio.verificar().problemas


def test_adulterar_o_escopo_no_banco_impede_a_entrada(acesso: Acesso) -> None:
    """The scope is in the user's state hash: widening it outside the system (set to NULL:
    every client) makes the user's credentials stop working."""
    from sqlalchemy import update

    from multas.servicos.persistencia.modelos import Usuario

    token = acesso.criar("ana", "leitura", None, "admin", Escopo.de([CNPJ_A]))
    assert acesso.por_token(token) is not None
    with acesso.repositorio.engine.begin() as conexao:
        conexao.execute(update(Usuario).where(Usuario.nome == "ana").values(clientes=None))
    assert acesso.por_token(token) is None
    assert acesso.repositorio.verificar().problemas


def test_administrador_nunca_e_limitado(acesso: Acesso) -> None:
    with pytest.raises(EntradaInvalida, match="administrador"):
        acesso.criar("root", "admin", None, "admin", Escopo.de([CNPJ_A]))
    acesso.criar("ana", "leitura", None, "admin", Escopo.de([CNPJ_A]))
    with pytest.raises(EntradaInvalida, match="administrador"):
        acesso.definir_papel("ana", "admin", "admin")


def test_mudar_os_clientes_encerra_tokens(acesso: Acesso) -> None:
    token = acesso.criar("ana", "leitura", None, "admin", Escopo.de([CNPJ_A]))
    acesso.definir_clientes("ana", Escopo.de([CNPJ_B]), "admin")
    assert acesso.por_token(token) is None


def test_cli_cria_com_cnpj_e_raiz_e_lista(database_url: str) -> None:
    from multas.servidor.administracao import usuarios

    runner = CliRunner()
    r = runner.invoke(
        usuarios,
        [
            "criar",
            "ana",
            "--papel",
            "analista",
            "--cnpj",
            CNPJ_A,
            "--cnpj",
            CNPJ_B,
            "--cnpj-raiz",
            "99.888.777",
            "--banco",
            database_url,
        ],
    )
    assert r.exit_code == 0, r.output
    lista = runner.invoke(usuarios, ["listar", "--banco", database_url])
    assert lista.exit_code == 0, lista.output
    assert f"{CNPJ_A}, {CNPJ_B}, raiz 99.888.777" in lista.output
    r = runner.invoke(usuarios, ["clientes", "ana", "--todos", "--banco", database_url])
    assert r.exit_code == 0, r.output
    lista = runner.invoke(usuarios, ["listar", "--banco", database_url])
    assert "todos os clientes" in lista.output
    errado = runner.invoke(
        usuarios,
        [
            "criar",
            "bia",
            "--papel",
            "leitura",
            "--cnpj",
            "11.222.333/0001-80",
            "--banco",
            database_url,
        ],
    )
    assert errado.exit_code == 2 and "CNPJ inválido" in errado.output


# --- the separation, walking every route ------------------------------------------------------------


def test_usuario_limitado_nunca_ve_outro_cliente_em_rota_alguma(clientes: Clientes) -> None:
    """Every GET route of the permission table, as the limited analista and the limited
    reader, pointed at B's and at the CNPJ-less records' ids, with and without ``?cnpj=`` of
    B: nothing of B nor of the record without a CNPJ is ever in the answer."""
    c = clientes.amb.cliente
    for (metodo, caminho), minimo in sorted(PERMISSOES.items()):
        if metodo != "GET" or minimo is None:
            continue
        for quem in (clientes.analista_a, clientes.leitura_raiz_a):
            for ids in (clientes.b, clientes.sem):
                concreto = _concreto(caminho, ids)
                for consulta in ("", f"?cnpj={CNPJ_B}", "?cnpj=12ABC34501DE35"):
                    r = c.get(concreto + consulta, headers=quem, follow_redirects=False)
                    _sem_vazamento(r, f"GET {concreto}{consulta}")
                    if consulta:
                        # 404; 403 where the role itself is refused (the audit log)
                        assert r.status_code in (403, 404), (concreto, consulta, r.status_code)
                    elif "{" in caminho and "{ano}" not in caminho and "{qual}" not in caminho:
                        # a route naming a record by its id: as if it did not exist
                        assert r.status_code in (404, 403), (concreto, r.status_code)


def test_usuario_limitado_ve_os_seus_clientes(clientes: Clientes) -> None:
    c = clientes.amb.cliente
    for quem in (clientes.analista_a, clientes.leitura_raiz_a):
        casos = c.get("/api/v1/casos", headers=quem).json()
        assert {str(x["id"]) for x in casos["casos"]} == {clientes.a["caso_id"]}
        assert casos["total"] == 1
        processos = c.get("/api/v1/processos", headers=quem).json()
        ids = {str(p["processo_id"]) for p in processos["processos"]}
        assert ids == {clientes.a["processo_id"]}
        assert c.get(f"/api/v1/casos/{clientes.a['caso_id']}", headers=quem).status_code == 200
        pagina = c.get(f"/processos/{clientes.a['processo_id']}", headers=quem)
        assert pagina.status_code == 200 and NOME_A in pagina.text
        assert NOME_A in c.get("/carteira", headers=quem).text
        exportado = c.get("/api/v1/processos/exportar", headers=quem)
        assert exportado.status_code == 200 and NOME_A in exportado.text
        _sem_vazamento(exportado, "exportar")
        ics = c.get("/api/v1/prazos/calendario.ics", headers=quem)
        assert ics.status_code == 200
        _sem_vazamento(ics, "ics")
        distribuidor = c.get("/api/v1/carteira/distribuidor", params={"cnpj": CNPJ_A}, headers=quem)
        assert distribuidor.status_code == 200
        # a page's total counts only the client's records too
        carteira = c.get("/api/v1/carteira", headers=quem)
        assert len(carteira.json()) == 1 and carteira.headers["X-Total-Count"] == "1"
        assert c.get("/api/v1/processos", headers=quem).headers["X-Total-Count"] == "1"
    # the admin and an unlimited user still see every client, and the records without a CNPJ
    for papel in ("admin", "leitura"):
        todos = c.get("/api/v1/casos", headers=com(clientes.amb, papel)).json()
        assert todos["total"] == 3


def test_usuario_limitado_nao_grava_para_outro_cliente(clientes: Clientes) -> None:
    c = clientes.amb.cliente
    quem = clientes.analista_a
    r = c.post("/api/v1/casos", content=_caso(CNPJ_B, NOME_B), headers=quem)
    assert r.status_code == 403 and "12.ABC.345/01DE-35" in r.json()["erro"]["mensagem"]
    r = c.post("/api/v1/casos", content=_caso(None, None), headers=quem)
    assert r.status_code == 403
    r = c.post("/api/v1/processos", json=_processo("12abc34501de35", NOME_B), headers=quem)
    assert r.status_code == 403 and "12.ABC.345/01DE-35" in r.json()["erro"]["mensagem"]
    r = c.post("/api/v1/carteira", json=_ano(CNPJ_B, NOME_B), headers=quem)
    assert r.status_code == 403 and "12.ABC.345/01DE-35" in r.json()["erro"]["mensagem"]
    r = c.post("/api/v1/carteira", json=_ano(CNPJ_FILIAL_A, NOME_A), headers=quem)
    assert r.status_code == 403  # A's CNPJ alone: not its branch
    # the ledger's imports write in bulk, not through objects: the same refusal, for a year B
    # does not have and for B's stored year (which the limited user does not see)
    cabecalho = "cnpj,ano,meta_cbios,cbios_aposentados\n"
    for linha in (f"{CNPJ_B},2031,10,1\n", f"{CNPJ_B},2024,10,5\n"):
        r = c.post("/api/v1/carteira/importar", content=cabecalho + linha, headers=quem)
        assert r.status_code == 403 and "12.ABC.345/01DE-35" in r.text, r.text
        pagina = c.post("/carteira/importar", data={"conteudo": cabecalho + linha}, headers=quem)
        assert pagina.status_code == 403 and "12.ABC.345/01DE-35" in pagina.text
    # A's CNPJ with whitespace the database's filter does not trim: it would be written and
    # then never found by its writer, so it is not A's
    for cercado in (f"{CNPJ_A}\n", f"\u00a0{CNPJ_A}", f"\t{CNPJ_A}"):
        r = c.post("/api/v1/processos", json=_processo(cercado, NOME_A), headers=quem)
        assert r.status_code == 403, (cercado, r.text)
    r = c.post("/api/v1/processos", json=_processo(f" {CNPJ_A} ", NOME_A), headers=quem)
    assert r.status_code == 201, r.text  # spaces are trimmed on both sides
    assert c.get(f"/api/v1/processos/{r.json()['processo_id']}", headers=quem).status_code == 200
    importar = "referencia,tipo,cnpj,nome,evento,data,valor_multa\n"
    importar += f"N1,anp,{CNPJ_A},{NOME_A},infracao,2024-01-10,\n"
    importar += f"N2,anp,{CNPJ_B},{NOME_B},infracao,2024-01-10,\n"
    r = c.post(
        "/api/v1/processos/importar", params={"formato": "csv"}, content=importar, headers=quem
    )
    assert r.status_code == 403 and "12.ABC.345/01DE-35" in r.text
    pb = clientes.b["processo_id"]
    r = c.post(
        f"/api/v1/processos/{pb}/eventos",
        json={"evento": "auto_infracao", "data": "2024-02-01"},
        headers=quem,
    )
    assert r.status_code == 404
    r = c.patch(
        f"/api/v1/processos/{pb}", json={"dias_sem_expediente": ["2024-02-05"]}, headers=quem
    )
    assert r.status_code == 404
    pagina = c.post(
        "/casos",
        data={"caso": _caso(CNPJ_B, NOME_B)},
        headers=quem,
    )
    assert pagina.status_code == 403 and "12.ABC.345/01DE-35" in pagina.text
    # within the scope, it writes
    r = c.post("/api/v1/casos", content=_caso(CNPJ_A, NOME_A), headers=quem)
    assert r.status_code == 201, r.text
    # nothing of B changed: its processo has its one event
    admin = com(clientes.amb, "admin")
    eventos = c.get(f"/api/v1/processos/{pb}", headers=admin).json()["eventos"]
    assert [e["evento"] for e in eventos] == ["infracao"]
    # the three of the fixture, and A's written above with spaces around its CNPJ
    assert c.get("/api/v1/processos", headers=admin).json()["total"] == 4


def test_rotas_que_gravam_nunca_alteram_outro_cliente(clientes: Clientes) -> None:
    """Every writing route of the table, as the limited analista, pointed at B's ids: none
    succeeds, and the audit log has nothing by the limited user."""
    c = clientes.amb.cliente
    for (metodo, caminho), minimo in sorted(PERMISSOES.items()):
        if metodo == "GET" or minimo is None or caminho in ("/sair",):
            continue
        if caminho.startswith(("/api/v1/feed", "/calendario-privado")):
            continue  # the user's own feed, no client's record (tested below)
        concreto = _concreto(caminho, clientes.b)
        r = c.request(metodo, concreto + f"?cnpj={CNPJ_B}", headers=clientes.analista_a, json={})
        assert r.status_code >= 400, (metodo, concreto, r.status_code)
        _sem_vazamento(r, f"{metodo} {concreto}")
        r = c.request(metodo, concreto, headers=clientes.analista_a, json={})
        assert r.status_code >= 400 or "importar" in caminho, (metodo, concreto, r.status_code)
        _sem_vazamento(r, f"{metodo} {concreto}")
    auditoria = c.get("/api/v1/auditoria?limite=1000", headers=com(clientes.amb, "admin")).json()
    assert not [r for r in auditoria if r["usuario"] == "ana de A"]


# --- the audit ----------------------------------------------------------------------------------


def test_auditoria_do_usuario_limitado_so_tem_os_seus_clientes(clientes: Clientes) -> None:
    c = clientes.amb.cliente
    quem = clientes.leitura_raiz_a
    registros = c.get("/api/v1/auditoria/clientes?limite=1000", headers=quem).json()
    vistos = {(r["tabela"], str(r["registro_id"])) for r in registros}
    assert ("casos", clientes.a["caso_id"]) in vistos
    assert ("processos", clientes.a["processo_id"]) in vistos
    assert "carteira_anos" in {t for t, _ in vistos}
    for outro in (clientes.b, clientes.sem):
        assert ("casos", outro["caso_id"]) not in vistos
        assert ("processos", outro["processo_id"]) not in vistos
    assert not {t for t, _ in vistos} & {"usuarios", "tokens", "sessoes"}
    pagina = c.get("/auditoria/clientes", headers=quem)
    assert pagina.status_code == 200 and "dos seus clientes" in pagina.text
    assert f'href="/processos/{clientes.a["processo_id"]}"' in pagina.text
    assert f'href="/processos/{clientes.b["processo_id"]}"' not in pagina.text
    # the whole audit, and its verification, stay the admin's
    assert c.get("/api/v1/auditoria", headers=quem).status_code == 403
    assert c.get("/auditoria", headers=quem).status_code == 403
    # an admin sees every record's history there too
    todos = c.get("/api/v1/auditoria/clientes?limite=1000", headers=com(clientes.amb, "admin"))
    assert ("casos", int(clientes.b["caso_id"])) in {
        (r["tabela"], r["registro_id"]) for r in todos.json()
    }
    # a processo in the bin leaves it with its events (an event has no bin of its own)
    pa = clientes.a["processo_id"]
    eventos = {
        r["registro_id"] for r in registros if r["tabela"] == "processo_eventos"
    }  # of the processos A's user may read now
    assert eventos
    assert (
        c.delete(f"/api/v1/processos/{pa}", headers=com(clientes.amb, "admin")).status_code == 204
    )
    depois = c.get("/api/v1/auditoria/clientes?limite=1000", headers=quem).json()
    assert ("processos", int(pa)) not in {(r["tabela"], r["registro_id"]) for r in depois}
    assert not eventos & {r["registro_id"] for r in depois if r["tabela"] == "processo_eventos"}


def test_auditoria_verificar_e_do_administrador() -> None:
    from multas.servidor.permissoes import ACOES

    assert ACOES["auditoria verificar"] == "admin"
    assert ACOES["usuarios clientes"] == "admin"


# --- the private calendar feed ------------------------------------------------------------------


def test_feed_privado_sem_login_com_o_escopo_do_usuario_e_revogavel(clientes: Clientes) -> None:
    c = clientes.amb.cliente
    quem = clientes.leitura_raiz_a
    criado = c.post("/api/v1/feed", headers=quem)
    assert criado.status_code == 201, criado.text
    caminho = criado.json()["caminho"]
    assert caminho.startswith("/api/v1/feed/cal_") and caminho.endswith(".ics")
    ics = c.get(caminho)  # no credentials: the address is the secret
    assert ics.status_code == 200 and ics.text.startswith("BEGIN:VCALENDAR")
    assert "BEGIN:VEVENT" in ics.text  # A's processo's deadlines
    _sem_vazamento(ics, "feed")
    # only the token's hash is stored, and its creation is audited as the user's
    with Repositorio(clientes.amb.url).leitura() as sessao:
        from sqlalchemy import select

        from multas.servicos.persistencia.modelos import FeedCalendario

        hashes = list(sessao.scalars(select(FeedCalendario.hash_token)))
    token = caminho.removeprefix("/api/v1/feed/").removesuffix(".ics")
    assert token not in hashes and len(hashes) == 1
    auditoria = c.get("/api/v1/auditoria?limite=1000", headers=com(clientes.amb, "admin")).json()
    assert [r["usuario"] for r in auditoria if r["acao"] == "feed_criar"] == ["léo da raiz A"]
    # an admin's feed has every client
    todos = c.post("/api/v1/feed", headers=com(clientes.amb, "admin")).json()["caminho"]
    assert NOME_B in c.get(todos).text
    # a new one revokes the old one; revoking ends it at once
    novo = c.post("/api/v1/feed", headers=quem).json()["caminho"]
    assert c.get(caminho).status_code == 404
    assert c.get(novo).status_code == 200
    assert c.delete("/api/v1/feed", headers=quem).status_code == 204
    assert c.get(novo).status_code == 404
    assert c.delete("/api/v1/feed", headers=quem).status_code == 404
    assert c.get("/api/v1/feed/cal_inventado.ics").status_code == 404


def test_feed_morre_com_a_troca_de_clientes_e_o_novo_tem_os_novos(clientes: Clientes) -> None:
    """A calendar subscribed for the old clients never receives the new ones' deadlines: the
    change of clients ends the feed (404), as it ends the user's tokens and sessions; the feed
    the user creates next has the new clients."""
    c = clientes.amb.cliente
    caminho = c.post("/api/v1/feed", headers=clientes.leitura_raiz_a).json()["caminho"]
    assert NOME_A in c.get(caminho).text
    repo = Repositorio(clientes.amb.url)
    acesso = Acesso(repo)
    acesso.definir_clientes("léo da raiz A", Escopo.de([CNPJ_B]), "admin")
    antigo = c.get(caminho)
    assert antigo.status_code == 404 and NOME_B not in antigo.text
    novo = "/api/v1/feed/" + acesso.criar_feed("léo da raiz A") + ".ics"
    assert NOME_B in c.get(novo).text and NOME_A not in c.get(novo).text
    acesso.desativar("léo da raiz A", "admin")
    assert c.get(novo).status_code == 404
    repo.fechar()


def test_pagina_do_calendario_privado(clientes: Clientes) -> None:
    c = clientes.amb.cliente
    quem = clientes.leitura_raiz_a
    pagina = c.get("/calendario-privado", headers=quem)
    assert pagina.status_code == 200 and "ainda não tem calendário privado" in pagina.text
    assert "raiz 11.222.333" in pagina.text
    criado = c.post("/calendario-privado", headers=quem)
    url = re.search(r'value="(https?://[^"]+\.ics)"', criado.text)
    assert url is not None
    assert c.get(url.group(1).split("testserver", 1)[1]).status_code == 200
    assert "criado em" in c.get("/calendario-privado", headers=quem).text
    revogado = c.post("/calendario-privado/revogar", headers=quem)
    assert "revogado" in revogado.text
    assert c.get(url.group(1).split("testserver", 1)[1]).status_code == 404


# --- the admin's page ---------------------------------------------------------------------------


def test_pagina_do_administrador_limita_um_usuario(clientes: Clientes) -> None:
    c = clientes.amb.cliente
    admin = com(clientes.amb, "admin")
    pagina = c.get("/usuarios", headers=admin)
    assert pagina.status_code == 200
    assert "11.222.333/0001-81" in pagina.text and "raiz 11.222.333" in pagina.text
    assert "todos os clientes" in pagina.text
    r = c.post(
        "/usuarios/clientes",
        data={"nome": "usuária leitura", "cnpjs": f"{CNPJ_B}\n", "raizes": "99.888.777"},
        headers=admin,
        follow_redirects=False,
    )
    assert r.status_code == 303, r.text
    escopo = Acesso(Repositorio(clientes.amb.url)).escopos()["usuária leitura"]
    assert escopo == Escopo.de([CNPJ_B], ["99888777"])
    errado = c.post(
        "/usuarios/clientes",
        data={"nome": "usuária leitura", "cnpjs": "11.222.333/0001-80", "raizes": ""},
        headers=admin,
    )
    assert errado.status_code == 422 and "CNPJ inválido" in errado.text
    admin_limitado = c.post(
        "/usuarios/clientes",
        data={"nome": "usuária admin", "cnpjs": CNPJ_A, "raizes": ""},
        headers=admin,
    )
    assert admin_limitado.status_code == 422 and "administrador" in admin_limitado.text
    # both boxes empty: every client again
    c.post("/usuarios/clientes", data={"nome": "usuária leitura"}, headers=admin)
    assert Acesso(Repositorio(clientes.amb.url)).escopos()["usuária leitura"] is None
    auditoria = c.get("/api/v1/auditoria?limite=1000", headers=admin).json()
    assert {r["usuario"] for r in auditoria if r["acao"] == "usuario_clientes"} == {"usuária admin"}
    assert c.get("/usuarios", headers=clientes.analista_a).status_code == 403


def test_vinculo_a_processo_que_o_usuario_nao_ve_nao_aparece(clientes: Clientes) -> None:
    """An admin links A's anp processo to a list processo without a CNPJ: A's user is shown no
    link (neither its number nor its kind), the admin is."""
    c = clientes.amb.cliente
    admin = com(clientes.amb, "admin")
    lista = c.post(
        "/api/v1/processos",
        json={
            "tipo": "renovabio.lista",
            "eventos": [{"evento": "fim_prazo_meta", "data": "2025-12-31"}],
        },
        headers=admin,
    ).json()["processo_id"]
    pa = clientes.a["processo_id"]
    r = c.put(f"/api/v1/processos/{pa}/vinculo", json={"lista_id": lista}, headers=admin)
    assert r.status_code == 200, r.text
    visto = c.get(f"/api/v1/processos/{pa}", headers=clientes.analista_a).json()
    assert visto["lista_id"] is None and visto["vinculo"] is None
    assert f"/processos/{lista}" not in c.get(f"/processos/{pa}", headers=clientes.analista_a).text
    completo = c.get(f"/api/v1/processos/{pa}", headers=admin).json()
    assert completo["lista_id"] == lista and completo["vinculo"]["processo_id"] == lista


def test_caso_vinculado_que_o_usuario_nao_ve_nao_e_nomeado(clientes: Clientes) -> None:
    """An admin links a processo of A to the saved case without a CNPJ: A's user is not told
    its number (the detail, the page, the export), the admin is."""
    c = clientes.amb.cliente
    admin = com(clientes.amb, "admin")
    oculto = int(clientes.sem["caso_id"])
    dados = _processo(CNPJ_A, NOME_A, "REF-A-CASO") | {"caso_id": oculto, "valor_multa": "1000.00"}
    dados["eventos"] += [
        {"evento": "auto_infracao", "data": "2024-02-01"},
        {"evento": "ciencia_primeira_instancia", "data": "2024-04-01"},
        {"evento": "renuncia_recurso", "data": "2024-04-02"},
        {"evento": "ciencia_decisao_definitiva", "data": "2024-04-03"},  # the fine is shown
    ]
    r = c.post("/api/v1/processos", json=dados, headers=admin)
    assert r.status_code == 201, r.text
    pid = r.json()["processo_id"]
    quem = clientes.analista_a
    assert c.get(f"/api/v1/processos/{pid}", headers=quem).json()["caso_id"] is None
    assert f"/casos/{oculto}" not in c.get(f"/processos/{pid}", headers=quem).text
    exportado = c.get("/api/v1/processos/exportar?formato=jsonl", headers=quem).text
    linhas = [json.loads(linha) for linha in exportado.splitlines()]
    assert {x["caso_id"] for x in linhas if x["referencia"] == "REF-A-CASO"} == {None}
    assert c.get(f"/api/v1/processos/{pid}", headers=admin).json()["caso_id"] == oculto
    assert f"/casos/{oculto}" in c.get(f"/processos/{pid}", headers=admin).text
