"""Issue 37, item 13: the ``/processos`` list's estado filter
(:meth:`multas.servicos.pendencias.CicloPendencias.listar_no_estado`) reads the work queue's
index, with each processo's estado (``fila_processos.estado``): only the processos not indexed
and the page's are derived, never every processo; the list is the one derived processo by
processo, in every estado, page, filter and client's scope."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date

import pytest
from sqlalchemy import delete, select, update

from multas.nucleo.ciclo.pendencias import ESTADOS, ler_filtros
from multas.nucleo.escopo import Escopo
from multas.servicos import pendencias as modulo
from multas.servicos.gestao import Ciclo
from multas.servicos.persistencia import Repositorio, escopo_sql
from multas.servicos.persistencia.modelos_fila import FilaMarca, FilaProcesso
from multas.servicos.processos import CicloProcessos, ProcessoDerivado
from tests.utils.processos import PROCESSOS, invalidar

REFERENCIA = date(2026, 7, 20)


@pytest.fixture
def ciclo(database_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Ciclo]:
    """The queue's processos (D unreadable), on a database whose today is the reference
    date (so the index serves it)."""
    monkeypatch.setattr(modulo, "hoje_em_brasilia", lambda: REFERENCIA)
    repositorio = Repositorio(database_url)
    repositorio.migrar()
    ciclo = Ciclo(repositorio)
    ids = {chave: ciclo.criar(dados).armazenado.id for chave, dados in PROCESSOS.items()}
    invalidar(repositorio, ids["D"])
    yield ciclo
    repositorio.fechar()


def _contar_derivacoes(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The ids of the processos derived from now on."""
    derivados: list[int] = []
    original = CicloProcessos.derivar_ou_erro

    def contar(self: CicloProcessos, armazenado: object, *a: object, **k: object) -> object:
        derivados.append(armazenado.id)  # type: ignore[attr-defined]
        return original(self, armazenado, *a, **k)  # type: ignore[arg-type]

    monkeypatch.setattr(CicloProcessos, "derivar_ou_erro", contar)
    return derivados


def _esperados(ciclo: Ciclo, estado: str, tipo: str | None = None) -> list[int]:
    """The processos in ``estado`` (or unreadable), derived one by one, newest first."""
    return [
        d.armazenado.id
        for d in ciclo.listar(None, 0, tipo, None, REFERENCIA)
        if d.erro is not None or d.valido.estado == estado
    ]


def _ids(derivados: list[ProcessoDerivado]) -> list[int]:
    return [d.armazenado.id for d in derivados]


def test_o_filtro_de_estado_e_a_lista_derivada(ciclo: Ciclo) -> None:
    estados = {d.valido.estado for d in ciclo.listar(None) if d.erro is None}
    assert len(estados) > 1
    for estado in [*sorted(estados), next(e for e in ESTADOS if e not in estados)]:
        esperados = _esperados(ciclo, estado)
        derivados, total = ciclo.listar_no_estado(estado, (50, 0))
        assert (_ids(derivados), total) == (esperados, len(esperados)), estado
        assert ciclo.listar_no_estado(estado, (1, 1)) == (
            [d for d in derivados[1:2]],
            total,
        )
        so_anp = _esperados(ciclo, estado, "anp")
        assert _ids(ciclo.listar_no_estado(estado, (50, 0), "anp")[0]) == so_anp
    com_erro = [d for d in derivados if d.erro is not None]
    assert len(com_erro) == 1  # D: no filter hides it


def test_o_filtro_de_estado_nao_deriva_todos_os_processos(
    ciclo: Ciclo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once indexed, only the page's processos are derived; a processo whose index says an
    estado is listed in it without deriving the others."""
    ciclo.pendencias(ler_filtros(REFERENCIA))  # indexes every processo
    derivados = _contar_derivacoes(monkeypatch)
    um, outro = _ids(ciclo.listar(2))
    assert derivados == [um, outro]
    derivados.clear()
    with ciclo.repositorio.engine.begin() as conexao:  # the index says: um is arquivado
        conexao.execute(update(FilaProcesso).values(estado="defesa"))
        conexao.execute(
            update(FilaProcesso).where(FilaProcesso.id == um).values(estado="arquivado")
        )
    pagina, total = ciclo.listar_no_estado("arquivado", (50, 0))
    assert (_ids(pagina), total) == ([um], 1)
    assert derivados == [um]


def test_o_processo_escrito_desde_o_indice_e_derivado_de_novo(
    ciclo: Ciclo, monkeypatch: pytest.MonkeyPatch
) -> None:
    ciclo.pendencias(ler_filtros(REFERENCIA))
    um = _ids(ciclo.listar(1))[0]
    estado = ciclo.obter(um, REFERENCIA).valido.estado
    with ciclo.repositorio.engine.begin() as conexao:  # stale (of yesterday), and no mark
        conexao.execute(
            update(FilaProcesso).where(FilaProcesso.id == um).values(referencia=date(2026, 7, 19))
        )
        conexao.execute(delete(FilaMarca))
    derivados = _contar_derivacoes(monkeypatch)
    pagina, total = ciclo.listar_no_estado(estado, (50, 0))
    # the stale one derived once, for the index and the page; the others of the page only
    assert sorted(derivados) == sorted(_ids(pagina)) and um in derivados
    assert _ids(pagina) == _esperados(ciclo, estado) and total == len(pagina)
    with ciclo.repositorio.leitura() as sessao:  # and indexed again
        linha = sessao.execute(
            select(FilaProcesso.referencia, FilaProcesso.estado).where(FilaProcesso.id == um)
        ).one()
    assert tuple(linha) == (REFERENCIA, estado)


def test_o_escopo_do_cliente_filtra_a_lista_por_estado(ciclo: Ciclo) -> None:
    ciclo.pendencias(ler_filtros(REFERENCIA))
    with escopo_sql.limitado(Escopo.de(["12.345.678/0001-95"])):
        do_cliente = {d.armazenado.id: d for d in ciclo.listar(None, 0, None, None, REFERENCIA)}
        for estado in {d.valido.estado for d in do_cliente.values() if d.erro is None}:
            derivados, total = ciclo.listar_no_estado(estado, (50, 0))
            assert set(_ids(derivados)) <= set(do_cliente)
            assert _ids(derivados) == _esperados(ciclo, estado) and total == len(derivados)
    assert len(do_cliente) < len(PROCESSOS)


def test_verificar_nomeia_o_estado_alterado_no_indice(
    ciclo: Ciclo, monkeypatch: pytest.MonkeyPatch
) -> None:
    from multas.servicos import verificacao

    monkeypatch.setattr(verificacao, "hoje_em_brasilia", lambda: REFERENCIA)
    ciclo.pendencias(ler_filtros(REFERENCIA))
    assert [p.tabela for p in ciclo.verificar().problemas] == ["processos"]  # D, refused
    um = _ids(ciclo.listar(1))[0]
    with ciclo.repositorio.engine.begin() as conexao:
        conexao.execute(
            update(FilaProcesso).where(FilaProcesso.id == um).values(estado="arquivado")
        )
    alterados = [p for p in ciclo.verificar().problemas if p.tabela == "fila_processos"]
    assert [(p.tipo, p.id) for p in alterados] == [("alterado", um)]


def test_muitos_processos_fora_do_indice_sao_indexados_antes(
    ciclo: Ciclo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """More processos not indexed than a page derives beside it (the day's first list):
    each is derived and indexed once, then the page is read from the index."""
    monkeypatch.setattr(modulo, "_DERIVADOS_NA_PAGINA", 1)
    estado = next(d.valido.estado for d in ciclo.listar(None) if d.erro is None)
    esperados = _esperados(ciclo, estado)
    derivados = _contar_derivacoes(monkeypatch)
    pagina, total = ciclo.listar_no_estado(estado, (50, 0))
    assert (_ids(pagina), total) == (esperados, len(esperados))
    assert sorted(derivados) == sorted([*range(1, len(PROCESSOS) + 1), *esperados])
    with ciclo.repositorio.leitura() as sessao:
        assert len(list(sessao.scalars(select(FilaProcesso.id)))) == len(PROCESSOS)
