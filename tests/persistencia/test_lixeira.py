"""Issue 20, item 4 (safe deletes), for every table with a bin, through the one mechanism
(:mod:`multas.servicos.persistencia.lixeira`): a deleted record is hidden from its read, listed in the
bin, restored as it was within the period, refused after it, purged by the injected clock, and
the audit chain accepts each step. Concurrent restores restore once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from click.testing import CliRunner
from sqlalchemy import text

from multas.nucleo.erros import EntradaInvalida
from multas.servicos.persistencia import lixeira
from multas.servicos.persistencia.registros import COM_LIXEIRA
from tests.utils.registros import FABRICAS, Banco, ao_mesmo_tempo, como_excluir

TABELAS = sorted(r.tabela for r in COM_LIXEIRA)
TIPO = {r.tabela: tipo for tipo, r in lixeira.TIPOS.items()}
INICIO = datetime(2026, 3, 2, 15, 0, tzinfo=UTC)


def test_cada_tabela_com_lixeira_tem_um_tipo() -> None:
    assert set(TABELAS) == {"casos", "processos", "carteira_anos"}
    assert set(TIPO) == set(TABELAS)


def _operacoes(banco: Banco, tabela: str, registro_id: int) -> list[str]:
    return [
        r.operacao
        for r in banco.repo.auditoria(limite=10_000, tabela=tabela, registro_id=registro_id)
    ]


def _existe(banco: Banco, tabela: str, registro_id: int) -> bool:
    with banco.repo.engine.connect() as c:
        return (
            c.execute(text(f"SELECT 1 FROM {tabela} WHERE id = :i"), {"i": registro_id}).first()
            is not None
        )


@pytest.mark.parametrize("tabela", TABELAS)
def test_excluir_esconde_restaurar_traz_de_volta_igual(banco: Banco, tabela: str) -> None:
    with time_machine.travel(INICIO, tick=False):
        feito = FABRICAS[tabela](banco)
        antes = feito.ler()
        assert antes is not None
        assert como_excluir(banco, tabela, feito)() is True
        assert feito.ler() is None
        assert como_excluir(banco, tabela, feito)() is False  # once in the bin, not found again
        [item] = [i for i in lixeira.listar(banco.repo) if i.id == feito.id]
        assert item.tipo == TIPO[tabela]
        assert item.excluido_em == INICIO
        assert item.restaurar_ate == INICIO + timedelta(days=lixeira.DIAS_NA_LIXEIRA)
    with time_machine.travel(item.restaurar_ate - timedelta(seconds=1), tick=False):
        restaurado = lixeira.restaurar(banco.repo, TIPO[tabela], feito.id, "admin")
    assert restaurado.id == feito.id
    with time_machine.travel(INICIO, tick=False):  # read on the same day: shown the same
        assert feito.ler() == antes
    assert not [i for i in lixeira.listar(banco.repo) if i.id == feito.id]
    assert _operacoes(banco, tabela, feito.id)[-2:] == ["ocultar", "restaurar"]
    relatorio = banco.repo.verificar()
    assert relatorio.integro, relatorio.problemas
    with pytest.raises(EntradaInvalida) as info:  # not in the bin any more
        lixeira.restaurar(banco.repo, TIPO[tabela], feito.id, "admin")
    assert info.value.campo == "id" and "na lixeira" in info.value.mensagem


@pytest.mark.parametrize("tabela", TABELAS)
def test_depois_do_prazo_nao_restaura_e_a_purga_apaga(banco: Banco, tabela: str) -> None:
    with time_machine.travel(INICIO, tick=False):
        feito, outro = FABRICAS[tabela](banco), FABRICAS[tabela](banco, outro=True)
        assert como_excluir(banco, tabela, feito)() is True
    prazo = INICIO + timedelta(days=lixeira.DIAS_NA_LIXEIRA)
    with time_machine.travel(prazo - timedelta(seconds=1), tick=False):
        assert lixeira.purgar(banco.repo, "admin")[TIPO[tabela]] == 0  # not yet
        assert _existe(banco, tabela, feito.id)
    with time_machine.travel(prazo, tick=False):
        with pytest.raises(EntradaInvalida) as info:
            lixeira.restaurar(banco.repo, TIPO[tabela], feito.id, "admin")
        assert f"mais de {lixeira.DIAS_NA_LIXEIRA} dias" in info.value.mensagem
        apagados = lixeira.purgar(banco.repo, "admin")
    assert apagados[TIPO[tabela]] == 1
    assert not _existe(banco, tabela, feito.id)
    assert _existe(banco, tabela, outro.id) and outro.ler() is not None
    assert _operacoes(banco, tabela, feito.id)[-2:] == ["ocultar", "excluir"]
    assert lixeira.listar(banco.repo) == []
    relatorio = banco.repo.verificar()
    assert relatorio.integro, relatorio.problemas


@pytest.mark.parametrize("tabela", TABELAS)
def test_restauracoes_concorrentes_restauram_uma_vez(banco: Banco, tabela: str) -> None:
    feito = FABRICAS[tabela](banco)
    assert como_excluir(banco, tabela, feito)() is True

    def restaurar() -> Any:
        return lixeira.restaurar(banco.repo, TIPO[tabela], feito.id, "admin")

    saidas = ao_mesmo_tempo([restaurar] * 4)
    certos = [s for s in saidas if isinstance(s, lixeira.ItemLixeira)]
    recusados = [s for s in saidas if isinstance(s, EntradaInvalida)]
    assert len(certos) == 1 and len(recusados) == 3, saidas
    assert _operacoes(banco, tabela, feito.id).count("restaurar") == 1
    assert feito.ler() is not None
    assert banco.repo.verificar().integro


@pytest.mark.parametrize("tabela", TABELAS)
def test_na_lixeira_adulterado_e_apontado_e_nao_restaura(banco: Banco, tabela: str) -> None:
    """A record edited in the database while in the bin is named by the verification, and
    restoring it is refused (it would launder the edit)."""
    from multas.servicos.persistencia.registros import RegistroAlterado

    feito = FABRICAS[tabela](banco)
    assert como_excluir(banco, tabela, feito)() is True
    with banco.repo.engine.begin() as c:  # a forger takes it out of the bin by hand
        c.execute(text(f"UPDATE {tabela} SET excluido_em = NULL WHERE id = :i"), {"i": feito.id})
    relatorio = banco.repo.verificar()
    assert (tabela, feito.id) in {(p.tabela, p.id) for p in relatorio.problemas}
    with banco.repo.engine.begin() as c:  # and puts it back with another date
        c.execute(
            text(f"UPDATE {tabela} SET excluido_em = :d WHERE id = :i"),
            {"i": feito.id, "d": datetime(2026, 1, 1, tzinfo=UTC)},
        )
    with pytest.raises(RegistroAlterado):
        lixeira.restaurar(banco.repo, TIPO[tabela], feito.id, "admin")


@pytest.mark.parametrize("tipo", ["caso", "processo", "carteira", "usuario", "", "casos"])
@pytest.mark.parametrize("registro_id", [0, -1, 2**63, 10**30, 7])
def test_restaurar_o_que_nao_ha_e_um_erro_de_campo(
    banco: Banco,
    tipo: str,
    registro_id: int,
) -> None:
    with pytest.raises(EntradaInvalida) as info:
        lixeira.restaurar(banco.repo, tipo, registro_id, "admin")
    assert info.value.campo in ("tipo", "id")


def test_processo_restaurado_nao_toma_o_id_de_outro(banco: Banco) -> None:
    """A processo in the bin whose ANP reference another processo took meanwhile: restoring it
    is refused with the reason."""
    dados = {
        "tipo": "anp",
        "id": "48610.000001/2024-11",
        "eventos": [{"evento": "infracao", "data": "2024-01-02"}],
    }
    primeiro = banco.ciclo.criar(dados, "ana").armazenado.id
    assert banco.ciclo.repo.excluir_processo(primeiro, "admin")
    banco.ciclo.criar(dados, "ana")
    with pytest.raises(EntradaInvalida) as info:
        lixeira.restaurar(banco.repo, "processo", primeiro, "admin")
    novo = banco.ciclo.listar(limite=None)[0].armazenado.id
    assert info.value.campo == "id"
    assert info.value.mensagem == (
        f"o processo nº {novo} já tem a referência '48610.000001/2024-11': cada processo da "
        "ANP fica em um só processo salvo (acrescente os eventos a ele)"
    )


def test_caso_excluido_deixa_de_ser_o_caso_do_processo(banco: Banco) -> None:
    """A link to a record in the bin would point at what no view shows: it is undone (and
    audited), and a restore does not redo it."""
    feito = FABRICAS["casos"](banco)
    processo = banco.ciclo.criar(
        {
            "tipo": "anp",
            "caso_id": feito.id,
            "eventos": [{"evento": "infracao", "data": "2024-01-02"}],
        },
        "ana",
    ).armazenado.id
    assert banco.repo.excluir(feito.id, "admin")
    assert banco.ciclo.obter(processo).armazenado.caso_id is None
    lixeira.restaurar(banco.repo, "caso", feito.id, "admin")
    assert banco.ciclo.obter(processo).armazenado.caso_id is None
    assert banco.repo.verificar().integro


def test_linha_de_comando(banco: Banco, monkeypatch: pytest.MonkeyPatch) -> None:
    from multas.principal import cli as principal

    monkeypatch.setenv("MULTAS_DATABASE_URL", banco.repo.url)
    with time_machine.travel(INICIO, tick=False):
        feito = FABRICAS["casos"](banco)
        assert banco.repo.excluir(feito.id, "admin")
        cli = CliRunner()
        listado = cli.invoke(principal, ["lixeira", "listar"])
        assert listado.exit_code == 0, listado.output
        assert f"caso {feito.id}: caso nº {feito.id}" in listado.output
        assert "02/03/2026 12:00 (horário de Brasília)" in listado.output
        assert "01/04/2026 12:00" in listado.output
        restaurado = cli.invoke(principal, ["lixeira", "restaurar", "caso", str(feito.id)])
        assert restaurado.exit_code == 0, restaurado.output
        assert f"Restaurado: caso nº {feito.id}" in restaurado.output
        de_novo = cli.invoke(principal, ["lixeira", "restaurar", "caso", str(feito.id)])
        assert de_novo.exit_code == 2 and "não há caso nº" in de_novo.output
        assert banco.repo.excluir(feito.id, "admin")
    with time_machine.travel(INICIO + timedelta(days=31), tick=False):
        purgado = cli.invoke(principal, ["manutencao", "purgar"])
        assert purgado.exit_code == 0, purgado.output
        assert "Apagados de vez: 1 caso(s)." in purgado.output
        nada = cli.invoke(principal, ["manutencao", "purgar"])
        assert "Nada a apagar" in nada.output


def test_api(database_url: str) -> None:
    from fastapi.testclient import TestClient

    from multas.servidor import criar_app

    caso = {
        "regime": "renovabio.distribuidor",
        "ano_meta": 2025,
        "meta_cbios": 1000,
        "cbios_aposentados": 400,
        "maior_media_mensal": "71.70",
    }
    with TestClient(criar_app(database_url), raise_server_exceptions=False) as c:
        numero = c.post("/api/v1/casos", json=caso).json()["id"]
        assert c.delete(f"/api/v1/casos/{numero}").status_code == 204
        assert c.get(f"/api/v1/casos/{numero}").status_code == 404
        assert all(item["id"] != numero for item in c.get("/api/v1/casos").json()["casos"])
        lista = c.get("/api/v1/lixeira").json()
        assert lista["dias_na_lixeira"] == lixeira.DIAS_NA_LIXEIRA
        assert [(i["tipo"], i["id"]) for i in lista["itens"]] == [("caso", numero)]
        r = c.post(f"/api/v1/lixeira/caso/{numero}/restaurar")
        assert r.status_code == 200 and r.json()["id"] == numero, r.text
        assert c.get(f"/api/v1/casos/{numero}").status_code == 200
        r = c.post(f"/api/v1/lixeira/caso/{numero}/restaurar")
        assert r.status_code == 422 and r.json()["erro"]["campo"] == "id", r.text
        for ruim in ("/api/v1/lixeira/usuario/1/restaurar", "/api/v1/lixeira/caso/0/restaurar"):
            assert c.post(ruim).status_code == 422
        assert c.post(f"/api/v1/lixeira/caso/{2**63}/restaurar").status_code == 422
