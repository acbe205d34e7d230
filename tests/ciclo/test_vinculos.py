"""Linked processos (issue 19, item 5), on SQLite and PostgreSQL: an ``anp`` processo linked to
the ``renovabio.lista`` processo of the same distributor; the first-instance decision entered
once feeds both (the ciência to the anp processo, the decision's own date to the list
processo), with an aviso when one date is missing; the refusals, which store nothing; both
processos changed in one transaction; the audit chain verified after each change; the command
line and the API; and migration r0007 over a database with stored processos."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from multas.nucleo.erros import EntradaInvalida
from multas.principal import cli
from multas.servicos.gestao import Ciclo, NaoEncontrado
from multas.servicos.persistencia import Repositorio
from multas.servicos.persistencia.registros import RegistroAlterado
from tests.utils.processos import anp, lista
from tests.utils.registros import ao_mesmo_tempo


def par(ciclo: Ciclo) -> tuple[int, int]:
    """A linked pair: (anp, list)."""
    a = ciclo.criar(anp()).armazenado.id
    b = ciclo.criar(lista()).armazenado.id
    ciclo.vincular(a, {"lista_id": b})
    return a, b


def eventos(ciclo: Ciclo, processo_id: int) -> list[tuple[str, str]]:
    return [(e.evento, e.data.isoformat()) for e in ciclo.obter(processo_id).armazenado.eventos]


def _integro(ciclo: Ciclo) -> None:
    relatorio = ciclo.verificar()
    assert relatorio.integro, relatorio.problemas


def test_a_decisao_alimenta_os_dois_processos(ciclo: Ciclo) -> None:
    a, b = par(ciclo)
    _integro(ciclo)  # after the link
    vinculos = [
        r for r in ciclo.repositorio.auditoria(tabela="processos") if r.acao == "processo_vincular"
    ]
    assert [(r.registro_id, r.operacao) for r in vinculos] == [(a, "alterar")]
    assert json.loads(vinculos[0].detalhe or "") == {"lista_id": b, "anterior": None}
    resultado = ciclo.registrar_decisao(
        a, {"data_decisao": "2026-02-06", "data_ciencia": "2026-02-10"}, "ana"
    )
    assert resultado["avisos"] == []
    assert [(e["processo_id"], e["evento"], e["data"]) for e in resultado["eventos"]] == [
        (a, "ciencia_primeira_instancia", "2026-02-10"),
        (b, "decisao_primeira_instancia", "2026-02-06"),
    ]
    assert eventos(ciclo, a)[-1] == ("ciencia_primeira_instancia", "2026-02-10")
    assert eventos(ciclo, b)[-1] == ("decisao_primeira_instancia", "2026-02-06")
    # what § 6 derives: the appeal counts from the ciência; the list processo is sancionado
    anp_depois, lista_depois = resultado["processos"]
    recurso = {p["prazo"]: p["data"] for p in anp_depois["resultado"]["prazos"]}["recurso"]
    assert recurso == "2026-02-20"  # 10 days from 10/02/2026 (a Friday)
    assert lista_depois["resultado"]["estado"] == "sancionado"
    # each processo shows its link
    assert anp_depois["lista_id"] == b and anp_depois["vinculo"] == {
        "processo_id": b,
        "tipo": "renovabio.lista",
    }
    assert lista_depois["lista_id"] is None and lista_depois["vinculo"] == {
        "processo_id": a,
        "tipo": "anp",
    }
    decisoes = [
        (r.registro_id, r.usuario)
        for r in ciclo.repositorio.auditoria(tabela="processos")
        if r.acao == "processo_decisao"
    ]
    assert sorted(decisoes) == sorted([(a, "ana"), (b, "ana")])
    _integro(ciclo)  # after the decision
    # entered again (a retried request): nothing appended, an aviso for each
    antes = len(ciclo.repositorio.auditoria(limite=10_000))
    de_novo = ciclo.registrar_decisao(
        b, {"data_decisao": "2026-02-06", "data_ciencia": "2026-02-10"}
    )
    assert [e["acrescentado"] for e in de_novo["eventos"]] == [False, False]
    assert len(de_novo["avisos"]) == 2
    assert len(ciclo.repositorio.auditoria(limite=10_000)) == antes


@pytest.mark.parametrize(
    ("dados", "alterado", "aviso"),
    [
        ({"data_decisao": "2026-02-06"}, "lista", "data_ciencia"),
        ({"data_ciencia": "2026-02-10", "data_decisao": None}, "anp", "data_decisao"),
    ],
)
def test_so_uma_data_altera_so_um_processo_com_aviso(
    ciclo: Ciclo, dados: dict[str, Any], alterado: str, aviso: str
) -> None:
    a, b = par(ciclo)
    antes = {a: eventos(ciclo, a), b: eventos(ciclo, b)}
    resultado = ciclo.registrar_decisao(b, dados)
    mudou, ficou = (a, b) if alterado == "anp" else (b, a)
    assert eventos(ciclo, ficou) == antes[ficou]
    assert len(eventos(ciclo, mudou)) == len(antes[mudou]) + 1
    assert len(resultado["avisos"]) == 1
    texto = resultado["avisos"][0]
    assert aviso in texto and f"nº {ficou} não foi alterado" in texto
    _integro(ciclo)
    # the other date later: it feeds the other processo, checked against the stored one
    if alterado == "lista":
        with pytest.raises(EntradaInvalida) as info:
            ciclo.registrar_decisao(a, {"data_ciencia": "2026-02-05"})
        assert info.value.campo == "data_ciencia" and "anterior" in info.value.mensagem
        ciclo.registrar_decisao(a, {"data_ciencia": "2026-02-09"})
        assert eventos(ciclo, a)[-1] == ("ciencia_primeira_instancia", "2026-02-09")


def _nada_muda(ciclo: Ciclo) -> tuple[Any, ...]:
    return (
        len(ciclo.repositorio.auditoria(limite=10_000)),
        [(p.armazenado.id, p.armazenado.lista_id, p.armazenado.eventos) for p in ciclo.listar()],
    )


def test_vinculos_recusados_nomeiam_o_campo_e_nao_gravam_nada(ciclo: Ciclo) -> None:
    a = ciclo.criar(anp()).armazenado.id
    b = ciclo.criar(lista()).armazenado.id
    outra_anp = ciclo.criar(anp()).armazenado.id
    outro_cnpj = ciclo.criar(lista("11.222.333/0001-81")).armazenado.id
    balanco = ciclo.criar(
        {
            "tipo": "renovabio.balanco",
            "eventos": [{"evento": "inclusao_lista", "data": "2026-01-05"}],
        }
    ).armazenado.id
    ciclo.vincular(a, {"lista_id": b})
    antes = _nada_muda(ciclo)
    recusas: list[tuple[int, Any, str, str]] = [
        (b, {"lista_id": a}, "processo_id", "só um processo 'anp' se vincula"),
        (outra_anp, {"lista_id": a}, "lista_id", "'renovabio.lista'"),
        (outra_anp, {"lista_id": balanco}, "lista_id", "'renovabio.balanco'"),
        (outra_anp, {"lista_id": outro_cnpj}, "lista_id", "CNPJ"),
        (outra_anp, {"lista_id": b}, "lista_id", f"já está vinculado ao processo nº {a} (anp)"),
        (a, {"lista_id": outro_cnpj}, "lista_id", f"já está vinculado ao processo nº {b}"),
        (outra_anp, {"lista_id": 10**6}, "lista_id", "não encontrado"),
        (outra_anp, {"lista_id": 2**63}, "lista_id", "número de um processo salvo"),
        (outra_anp, {"lista_id": 0}, "lista_id", "número de um processo salvo"),
        (outra_anp, {"lista_id": True}, "lista_id", "número de um processo salvo"),
        (outra_anp, {"lista_id": "2"}, "lista_id", "número de um processo salvo"),
        (outra_anp, {}, "lista_id", "campo obrigatório"),
        (outra_anp, {"lista_id": b, "x": 1}, "x", "campo desconhecido"),
        (outra_anp, [b], "", "objeto JSON"),
    ]
    for processo_id, dados, campo, trecho in recusas:
        with pytest.raises(EntradaInvalida) as info:
            ciclo.vincular(processo_id, dados)
        assert (info.value.campo or "") == campo, (dados, info.value)
        assert trecho in info.value.mensagem, (dados, info.value.mensagem)
    for desconhecido in (10**6, 2**63, 0):
        with pytest.raises(NaoEncontrado):
            ciclo.vincular(desconhecido, {"lista_id": b})
    assert _nada_muda(ciclo) == antes
    # a processo without a CNPJ links to any; linking again to the same one stores nothing
    sem_cnpj = ciclo.criar(anp(cnpj=None)).armazenado.id
    ciclo.vincular(sem_cnpj, {"lista_id": outro_cnpj})
    depois = _nada_muda(ciclo)
    ciclo.vincular(sem_cnpj, {"lista_id": outro_cnpj})
    assert _nada_muda(ciclo) == depois
    # undone, then linked elsewhere
    assert ciclo.vincular(a, {"lista_id": None}).armazenado.lista_id is None
    assert ciclo.vincular(outra_anp, {"lista_id": b}).armazenado.lista_id == b
    _integro(ciclo)


def test_decisoes_recusadas_nao_gravam_nada(ciclo: Ciclo) -> None:
    a, b = par(ciclo)
    solto = ciclo.criar(anp()).armazenado.id
    antes = _nada_muda(ciclo)
    recusas: list[tuple[int, Any, str, str]] = [
        (solto, {"data_ciencia": "2026-02-10"}, "processo_id", "não está vinculado"),
        (a, {}, "data_decisao", "informe"),
        (a, {"data_decisao": None, "data_ciencia": ""}, "data_decisao", "informe"),
        (a, {"data_decisao": "2026-02-30"}, "data_decisao", ""),
        (a, {"data_decisao": 20260206}, "data_decisao", ""),
        (a, {"data": "2026-02-06"}, "data", "campo desconhecido"),
        (
            a,
            {"data_decisao": "2026-02-10", "data_ciencia": "2026-02-06"},
            "data_ciencia",
            "anterior à decisão",
        ),
        # § 6 refuses the list's event (before fim_prazo_meta): the anp's valid ciência is not
        # stored either (all or nothing)
        (
            a,
            {"data_decisao": "2025-12-01", "data_ciencia": "2026-02-10"},
            "data_decisao",
            f"processo nº {b}",
        ),
        # § 6 refuses the anp's event (before auto_infracao)
        (
            b,
            {"data_decisao": "2026-01-05", "data_ciencia": "2026-01-06"},
            "data_ciencia",
            f"processo nº {a}",
        ),
        (a, ["2026-02-06"], "", "objeto JSON"),
    ]
    for processo_id, dados, campo, trecho in recusas:
        with pytest.raises(EntradaInvalida) as info:
            ciclo.registrar_decisao(processo_id, dados)
        assert (info.value.campo or "") == campo, (dados, info.value)
        assert trecho in info.value.mensagem, (dados, info.value.mensagem)
    for desconhecido in (10**6, 2**63):
        with pytest.raises(NaoEncontrado):
            ciclo.registrar_decisao(desconhecido, {"data_ciencia": "2026-02-10"})
    assert _nada_muda(ciclo) == antes
    # a date different from the one already stored is refused, naming the field
    ciclo.registrar_decisao(a, {"data_decisao": "2026-02-06"})
    with pytest.raises(EntradaInvalida) as info:
        ciclo.registrar_decisao(a, {"data_decisao": "2026-02-07", "data_ciencia": "2026-02-10"})
    assert info.value.campo == "data_decisao" and "já tem" in info.value.mensagem
    assert ("ciencia_primeira_instancia", "2026-02-10") not in eventos(ciclo, a)
    _integro(ciclo)


def test_excluir_o_processo_da_lista_desfaz_o_vinculo(ciclo: Ciclo) -> None:
    a, b = par(ciclo)
    ciclo.excluir(b, "admin")
    assert ciclo.obter(a).armazenado.lista_id is None
    assert ciclo.detalhe(ciclo.obter(a), date(2026, 3, 1))["vinculo"] is None
    _integro(ciclo)


def test_decisoes_ao_mesmo_tempo_uma_so_fica(ciclo: Ciclo) -> None:
    """Two decisions at once on one pair, entered through each of its processos with different
    dates: both processos are locked (in id order) in one transaction, so exactly one is
    stored whole and the other is refused; never one date in each processo, never a
    deadlock."""
    for _ in range(3):
        a, b = par(ciclo)
        saidas = ao_mesmo_tempo(
            [
                lambda a=a: ciclo.registrar_decisao(
                    a, {"data_decisao": "2026-02-06", "data_ciencia": "2026-02-10"}
                ),
                lambda b=b: ciclo.registrar_decisao(
                    b, {"data_decisao": "2026-02-09", "data_ciencia": "2026-02-11"}
                ),
            ]
        )
        erros = [s for s in saidas if isinstance(s, Exception)]
        assert len(erros) == 1 and isinstance(erros[0], EntradaInvalida), saidas
        ganhou = next(s for s in saidas if isinstance(s, dict))
        datas = {e["evento"]: e["data"] for e in ganhou["eventos"]}
        assert eventos(ciclo, a)[-1] == (
            "ciencia_primeira_instancia",
            datas["ciencia_primeira_instancia"],
        )
        assert eventos(ciclo, b)[-1] == (
            "decisao_primeira_instancia",
            datas["decisao_primeira_instancia"],
        )
    # two anp processos linked to one list processo at once: one link only
    b = ciclo.criar(lista()).armazenado.id
    candidatos = [ciclo.criar(anp()).armazenado.id for _ in range(3)]
    saidas = ao_mesmo_tempo([lambda x=x: ciclo.vincular(x, {"lista_id": b}) for x in candidatos])
    assert sum(not isinstance(s, Exception) for s in saidas) == 1, saidas
    assert all(isinstance(s, EntradaInvalida) for s in saidas if isinstance(s, Exception))
    _integro(ciclo)


# --- the command line and the API ---------------------------------------------------------------


def test_linha_de_comando(tmp_path: Path) -> None:
    banco = f"sqlite:///{tmp_path / 'm.db'}"
    executor = CliRunner()

    def rodar(*args: str, codigo: int = 0) -> Any:
        saida = executor.invoke(cli, [*args, "--banco", banco])
        assert saida.exit_code == codigo, saida.output
        return saida

    ids = []
    for dados in (anp(), lista()):
        arquivo = tmp_path / f"{dados['tipo']}.json"
        arquivo.write_text(json.dumps(dados), encoding="utf-8")
        ids.append(json.loads(rodar("processo", "criar", str(arquivo), "-f", "json").stdout))
    a, b = (d["processo_id"] for d in ids)
    detalhe = json.loads(
        rodar("processo", "vincular", str(a), "--lista", str(b), "-f", "json").stdout
    )
    assert detalhe["vinculo"] == {"processo_id": b, "tipo": "renovabio.lista"}
    texto = rodar("processo", "mostrar", str(b)).output
    assert f"Vinculado ao processo nº {a} (anp)" in texto
    saida = rodar("processo", "decisao", str(a), "--data", "2026-02-06")
    assert "não foi alterado" in saida.output and "decisao_primeira_instancia" in saida.output
    resultado = json.loads(
        rodar("processo", "decisao", str(b), "--ciencia", "2026-02-10", "-f", "json").stdout
    )
    assert [e["evento"] for e in resultado["eventos"]] == ["ciencia_primeira_instancia"]
    rodar("auditoria", "verificar")
    # refusals: exit 2, the field named; an id past 2^63 refused by the option itself
    erro = rodar("processo", "vincular", str(b), "--lista", str(a), "-f", "json", codigo=2)
    assert json.loads(erro.stdout)["erro"]["campo"] == "processo_id"
    rodar("processo", "vincular", str(a), "--lista", str(2**63), codigo=2)
    rodar("processo", "vincular", str(a), codigo=2)  # neither --lista nor --desfazer
    erro = rodar("processo", "decisao", str(a), "-f", "json", codigo=2)
    assert json.loads(erro.stdout)["erro"]["campo"] == "data_decisao"
    rodar("processo", "decisao", "999", "--data", "2026-02-06", codigo=1)
    desfeito = json.loads(rodar("processo", "vincular", str(a), "--desfazer", "-f", "json").stdout)
    assert desfeito["vinculo"] is None and desfeito["lista_id"] is None
    rodar("auditoria", "verificar")


def test_api(cliente: TestClient) -> None:
    def enviar(metodo: str, url: str, corpo: Any) -> Any:
        return cliente.request(
            metodo,
            url,
            content=json.dumps(corpo),
            headers={"Content-Type": "application/json", "X-Usuario": "Ana"},
        )

    a = enviar("POST", "/api/v1/processos", anp()).json()["processo_id"]
    b = enviar("POST", "/api/v1/processos", lista()).json()["processo_id"]
    r = enviar("PUT", f"/api/v1/processos/{a}/vinculo", {"lista_id": b})
    assert r.status_code == 200, r.text
    assert r.json()["vinculo"] == {"processo_id": b, "tipo": "renovabio.lista"}
    assert cliente.get(f"/api/v1/processos/{b}").json()["vinculo"] == {
        "processo_id": a,
        "tipo": "anp",
    }
    r = enviar("POST", f"/api/v1/processos/{b}/decisao", {"data_ciencia": "2026-02-10"})
    assert r.status_code == 200, r.text
    assert r.json()["avisos"] and "data_decisao" in r.json()["avisos"][0]
    r = enviar("POST", f"/api/v1/processos/{a}/decisao", {"data_decisao": "2026-02-06"})
    assert r.status_code == 200 and r.json()["avisos"] == []
    for metodo, url, corpo, status, campo in [
        ("PUT", f"/api/v1/processos/{b}/vinculo", {"lista_id": a}, 422, "processo_id"),
        ("PUT", f"/api/v1/processos/{a}/vinculo", {"lista_id": 2**63}, 422, "lista_id"),
        ("PUT", f"/api/v1/processos/{2**63}/vinculo", {"lista_id": b}, 404, None),
        ("PUT", "/api/v1/processos/999/vinculo", {"lista_id": b}, 404, None),
        ("POST", f"/api/v1/processos/{a}/decisao", {}, 422, "data_decisao"),
        ("POST", f"/api/v1/processos/{2**63}/decisao", {"data_decisao": "2026-02-06"}, 404, None),
    ]:
        r = enviar(
            metodo,
            url,
            corpo,
        )
        assert r.status_code == status, (url, corpo, r.text)
        if campo is not None:
            assert r.json()["erro"]["campo"] == campo
    documento = cliente.get("/openapi.json").json()
    caminhos = documento["paths"]
    assert "put" in caminhos["/api/v1/processos/{processo_id}/vinculo"]
    assert "post" in caminhos["/api/v1/processos/{processo_id}/decisao"]
    assert {"Vinculo", "DecisaoPrimeiraInstancia", "ResultadoDecisao"} <= set(
        documento["components"]["schemas"]
    )


# --- migration r0007 ------------------------------------------------------------------------------


def test_a_migracao_r0007_mantem_a_cadeia_dos_processos_salvos(database_url: str) -> None:
    """A database at r0005 with processos written as that code wrote them (one of them edited
    outside the system), upgraded to head (r0006, then r0007): the chain verifies but for the
    edited one, r0007 adds no audit row (the new column is NULL everywhere), and the stored
    processos link and take the decision with the chain still whole."""
    from sqlalchemy import text

    from tests.utils.migracoes import ANP, CodigoR0005, ate_r0005

    repo = Repositorio(database_url)
    try:
        ate_r0005(repo)
        with repo.engine.begin() as c:
            antigo = CodigoR0005(c)
            com_multa = antigo.criar("anp", "250000.00", ANP[:2])
            da_lista = antigo.criar("renovabio.lista", None, [("fim_prazo_meta", "2025-12-31")])
            adulterado = antigo.criar("anp", "1000.00", ANP)
        with repo.engine.begin() as c:
            c.execute(text(f"UPDATE processos SET principal = '1.00' WHERE id = {adulterado}"))
        repo.migrar()
        assert not [r for r in repo.auditoria(limite=10_000) if r.usuario == "migração r0007"]
        problemas = {(p.tabela, p.id) for p in repo.verificar().problemas}
        assert problemas == {("processos", adulterado)}
        ciclo = Ciclo(repo)
        assert ciclo.obter(com_multa).armazenado.lista_id is None
        ciclo.vincular(com_multa, {"lista_id": da_lista})
        resultado = ciclo.registrar_decisao(
            da_lista, {"data_decisao": "2026-02-06", "data_ciencia": "2026-02-10"}
        )
        assert [e["acrescentado"] for e in resultado["eventos"]] == [True, True]
        problemas = {(p.tabela, p.id) for p in repo.verificar().problemas}
        assert problemas == {("processos", adulterado)}
        # the edited one is not linked on top of its forgery
        with pytest.raises(RegistroAlterado):
            ciclo.vincular(adulterado, {"lista_id": None})
    finally:
        repo.fechar()
