"""The work queue's index (issue 36, item 4): the queue read from the index is the queue
derived processo by processo, under every filter and scope; a write takes its processo out of
it; a processo written while it was being derived is not indexed."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import date, timedelta
from typing import Any

import pytest
from sqlalchemy import delete, func, insert, select, tuple_, update

from multas.nucleo.ciclo.pendencias import ler_filtros
from multas.nucleo.escopo import Escopo
from multas.servicos import pendencias as modulo
from multas.servicos.gestao import Ciclo
from multas.servicos.pendencias import CicloPendencias
from multas.servicos.persistencia import Repositorio, escopo_sql, fila
from multas.servicos.persistencia.modelos_fila import FilaItem, FilaMarca, FilaProcesso, FilaTexto
from multas.servicos.processos import CicloProcessos
from multas.servicos.selic import legislacao_com_selic
from tests.utils.processos import NOME_C, PROCESSOS, invalidar

REFERENCIA = date(2026, 7, 20)

FILTROS: list[dict[str, Any]] = [
    {},
    {"dias": 0},
    {"dias": 3660, "todos": True},
    {"responsavel": "autuado"},
    {"responsavel": "anp", "todos": True},
    {"responsavel": "judiciario"},
    {"cnpj": "12345678000195"},
    {"cnpj": "33.444.555/0001-66"},
    {"estado": "prescrito"},
    {"estado": "defesa", "dias": 10},
    {"prescritos": False},
    {"vencidos": False, "todos": True},
]


@pytest.fixture
def ciclo(database_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Ciclo]:
    """The queue's processos, on a database whose today is the reference date (so the queue
    indexes what it derives)."""
    monkeypatch.setattr(modulo, "hoje_em_brasilia", lambda: REFERENCIA)
    repositorio = Repositorio(database_url)
    repositorio.migrar()
    ciclo = Ciclo(repositorio)
    ids = {chave: ciclo.criar(dados).armazenado.id for chave, dados in PROCESSOS.items()}
    invalidar(repositorio, ids["D"])  # § 6 now refuses it: listed with its erro
    yield ciclo
    repositorio.fechar()


def _derivada(ciclo: Ciclo, **filtros: Any) -> dict[str, Any]:
    """The queue derived processo by processo (another legislation object: no index)."""
    return Ciclo(ciclo.repositorio, legislacao_com_selic(ciclo.repositorio)).pendencias(
        ler_filtros(REFERENCIA, **filtros)
    )


def _indexados(ciclo: Ciclo) -> int:
    with ciclo.repositorio.leitura() as sessao:
        return int(sessao.scalar(select(func.count()).select_from(FilaProcesso)) or 0)


def _sem_derivar(monkeypatch: pytest.MonkeyPatch) -> None:
    def derivar(*_: object, **__: object) -> None:
        raise AssertionError("a fila indexada derivou um processo")

    monkeypatch.setattr(CicloProcessos, "derivar", derivar)


def test_a_fila_do_indice_e_a_derivada(ciclo: Ciclo, monkeypatch: pytest.MonkeyPatch) -> None:
    esperadas = [_derivada(ciclo, **f) for f in FILTROS]
    assert _indexados(ciclo) == 0
    primeira = ciclo.pendencias(ler_filtros(REFERENCIA))  # derives them all, and indexes them
    assert primeira == esperadas[0]
    assert _indexados(ciclo) == len(PROCESSOS)
    _sem_derivar(monkeypatch)
    for filtros, esperada in zip(FILTROS, esperadas, strict=True):
        assert ciclo.pendencias(ler_filtros(REFERENCIA, **filtros)) == esperada, filtros
    assert any(i["erro"] for i in esperadas[0]["prazos"])  # the unreadable one is indexed too
    assert esperadas[10]["prescritos_ocultos"] > 0


def test_outro_dia_nao_usa_nem_grava_o_indice(ciclo: Ciclo) -> None:
    ciclo.pendencias(ler_filtros(REFERENCIA))
    amanha = date(2026, 7, 21)
    outra = ciclo.pendencias(ler_filtros(amanha, dias=10))
    derivada = Ciclo(ciclo.repositorio, legislacao_com_selic(ciclo.repositorio)).pendencias(
        ler_filtros(amanha, dias=10)
    )
    assert outra == derivada
    with ciclo.repositorio.leitura() as sessao:
        assert set(sessao.scalars(select(FilaProcesso.referencia))) == {REFERENCIA}


def test_uma_escrita_tira_o_processo_do_indice(
    ciclo: Ciclo, monkeypatch: pytest.MonkeyPatch
) -> None:
    ciclo.pendencias(ler_filtros(REFERENCIA))
    [c] = [
        p.armazenado.id
        for p in ciclo.todos(REFERENCIA)
        if p.armazenado.nome == PROCESSOS["C"]["nome"]
    ]
    ciclo.acrescentar(c, {"evento": "defesa", "data": "2026-07-17"})
    with ciclo.repositorio.leitura() as sessao:
        assert sessao.get(FilaProcesso, c) is None
        assert not sessao.scalars(select(FilaItem).where(FilaItem.processo_id == c)).all()
    assert ciclo.pendencias(ler_filtros(REFERENCIA, todos=True)) == _derivada(ciclo, todos=True)
    esperada = _derivada(ciclo)
    _sem_derivar(monkeypatch)  # indexed again by the queue before
    assert ciclo.pendencias(ler_filtros(REFERENCIA)) == esperada


def test_o_que_mudou_depois_de_lido_nao_e_indexado(ciclo: Ciclo) -> None:
    ids = [p.armazenado.id for p in ciclo.todos(REFERENCIA)]
    with ciclo.repositorio.leitura() as sessao:
        versoes = fila.versoes(sessao, ids)
    lidas = dict(versoes)
    lidas[ids[0]] -= 1  # read before its last write
    with ciclo.repositorio.escrita() as escrita:
        assert fila.gravar(escrita, REFERENCIA, "x", {i: [] for i in ids}, lidas) == len(ids) - 1
    with ciclo.repositorio.leitura() as sessao:
        assert sessao.get(FilaProcesso, ids[0]) is None
        assert sessao.get(FilaProcesso, ids[1]) is not None


def test_o_escopo_filtra_o_indice(ciclo: Ciclo) -> None:
    ciclo.pendencias(ler_filtros(REFERENCIA))  # indexes every processo
    escopo = Escopo.de(["12.345.678/0001-95"])
    with escopo_sql.limitado(escopo):
        indexada = ciclo.pendencias(ler_filtros(REFERENCIA, dias=3660, todos=True))
        derivada = _derivada(ciclo, dias=3660, todos=True)
    assert indexada == derivada
    assert indexada["prazos"] and len(indexada["acoes"]) < len(PROCESSOS)


def test_verificar_nomeia_o_indice_alterado_fora_do_sistema(
    ciclo: Ciclo, monkeypatch: pytest.MonkeyPatch
) -> None:
    from multas.servicos import verificacao

    monkeypatch.setattr(verificacao, "hoje_em_brasilia", lambda: REFERENCIA)
    ciclo.pendencias(ler_filtros(REFERENCIA))
    assert [p.tabela for p in ciclo.verificar().problemas] == ["processos"]  # D, refused
    with ciclo.repositorio.engine.begin() as conexao:  # an overdue deadline made to wait
        conexao.execute(
            update(FilaItem)
            .where(FilaItem.situacao == "vencido")
            .values(situacao="em_aberto", data=date(2099, 1, 1))
        )
    problemas = ciclo.verificar().problemas
    alterados = [p for p in problemas if p.tabela == "fila_itens"]
    assert alterados and all("alterado fora do sistema" in p.mensagem for p in alterados)
    assert all(p.tipo == "alterado" for p in alterados)
    assert ciclo.verificar(processos=2).problemas == problemas  # derived in 2 workers


def test_reavaliar_refaz_o_indice(ciclo: Ciclo, monkeypatch: pytest.MonkeyPatch) -> None:
    from multas.servicos.reavaliar import reavaliar

    esperada = _derivada(ciclo)
    reavaliar(ciclo, referencia=REFERENCIA)
    assert _indexados(ciclo) == len(PROCESSOS)
    _sem_derivar(monkeypatch)
    assert ciclo.pendencias(ler_filtros(REFERENCIA)) == esperada


def _indice_inteiro(ciclo: Ciclo) -> list[list[tuple[Any, ...]]]:
    """Every row of every table of the index (and the marks), sorted; an item's row without
    its own id (a sequence's)."""
    with ciclo.repositorio.leitura() as sessao:
        return [
            sorted(
                tuple(linha)
                for linha in sessao.execute(
                    select(
                        *(c for c in modelo.__table__.c if modelo is not FilaItem or c.key != "id")
                    )
                )
            )
            for modelo in (FilaProcesso, FilaItem, FilaTexto, FilaMarca)
        ]


def test_reavaliar_em_dois_processos_e_o_mesmo_que_em_um(
    ciclo: Ciclo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """reavaliar derives in forked workers that read no database: the same differences, in
    the same order, and the same index and mark, as on one core."""
    from multas.servicos import em_paralelo, pendencias
    from multas.servicos.reavaliar import reavaliar

    anterior = legislacao_com_selic(ciclo.repositorio)  # every processo compared
    um = reavaliar(ciclo, anterior=anterior, referencia=REFERENCIA)
    indice = _indice_inteiro(ciclo)
    assert indice[0] and indice[3], "nada indexado, nenhuma marca: o teste não compara nada"
    with ciclo.repositorio.engine.begin() as conexao:
        for modelo in (FilaTexto, FilaItem, FilaProcesso, FilaMarca):
            conexao.execute(delete(modelo))
    chamadas: list[int] = []

    def contar(fazer: Any, lotes: Any, processos: int) -> Any:
        chamadas.append(processos)
        return em_paralelo.em_lotes(fazer, lotes, processos)

    monkeypatch.setattr(pendencias, "em_lotes", contar)
    monkeypatch.setattr(pendencias, "_FATIA_PARALELA", 2)  # several slices, overlapping
    assert len(PROCESSOS) >= 4  # two for each worker: forked, not run here
    assert reavaliar(ciclo, anterior=anterior, referencia=REFERENCIA, processos=2) == um
    assert chamadas and set(chamadas) == {2}
    assert _indice_inteiro(ciclo) == indice


def test_o_indice_em_dois_processos_e_gravado_em_partes_de_um_nucleo(
    ciclo: Ciclo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each write of the index holds the chain's lock for as many processos as on one core,
    however many a worker's slice has."""
    from multas.servicos import pendencias
    from multas.servicos.reavaliar import reavaliar

    por_gravacao: list[int] = []
    gravar = fila.gravar

    def contar(escrita: Any, referencia: Any, lei: Any, itens: Any, *resto: Any, **k: Any) -> Any:
        por_gravacao.append(len(itens))
        return gravar(escrita, referencia, lei, itens, *resto, **k)

    monkeypatch.setattr(fila, "gravar", contar)
    monkeypatch.setattr(pendencias, "_FATIA_PARALELA", 4)
    monkeypatch.setattr(pendencias, "_FATIA_DO_INDICE", 2)
    reavaliar(ciclo, referencia=REFERENCIA, processos=2)
    assert por_gravacao and max(por_gravacao) <= 2 and sum(por_gravacao) == len(PROCESSOS)


def test_a_primeira_fila_do_dia_em_dois_processos(
    ciclo: Ciclo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On the command line the day's first queue indexes the processos on every core first,
    then reads the index: the same queue, index and mark as one derived here."""
    from multas.servicos import pendencias

    esperada = ciclo.pendencias(ler_filtros(REFERENCIA))  # derived here, and indexed
    indice = _indice_inteiro(ciclo)
    with ciclo.repositorio.engine.begin() as conexao:
        for modelo in (FilaTexto, FilaItem, FilaProcesso, FilaMarca):
            conexao.execute(delete(modelo))
    monkeypatch.setattr(pendencias, "_FATIA_PARALELA", 2)
    aqui, derivar = os.getpid(), CicloProcessos.derivar

    def so_nos_filhos(self: CicloProcessos, *args: Any, **kwargs: Any) -> Any:
        assert os.getpid() != aqui, "a fila derivou um processo aqui, não nos processos filhos"
        return derivar(self, *args, **kwargs)

    monkeypatch.setattr(CicloProcessos, "derivar", so_nos_filhos)
    assert ciclo.pendencias(ler_filtros(REFERENCIA), processos=2) == esperada
    assert _indice_inteiro(ciclo) == indice


def test_o_calendario_do_indice_e_o_derivado(ciclo: Ciclo, monkeypatch: pytest.MonkeyPatch) -> None:
    derivado = Ciclo(ciclo.repositorio, legislacao_com_selic(ciclo.repositorio))
    esperados = [derivado.todos_os_prazos(REFERENCIA, cnpj) for cnpj in (None, "12345678000195")]
    assert ciclo.todos_os_prazos(REFERENCIA) == esperados[0]  # derives and indexes them
    _sem_derivar(monkeypatch)
    assert ciclo.todos_os_prazos(REFERENCIA) == esperados[0]
    assert ciclo.todos_os_prazos(REFERENCIA, "12345678000195") == esperados[1]
    assert any(i.get("erro") for i in esperados[0]) and len(esperados[1]) < len(esperados[0])


def _fatiada(fila_: dict[str, Any], limite: int, deslocamento: int) -> dict[str, Any]:
    fim = deslocamento + limite
    return fila_ | {
        "prazos": fila_["prazos"][deslocamento:fim],
        "acoes": fila_["acoes"][deslocamento:fim],
        "total": len(fila_["prazos"]),
        "total_acoes": len(fila_["acoes"]),
    }


@pytest.mark.parametrize(
    "filtros",
    [
        {},
        {"dias": 3660, "todos": True},
        {"prescritos": False},
        {"cnpj": "12345678000195", "dias": 3660, "todos": True},
    ],
)
def test_a_pagina_do_indice_e_a_fatia_da_fila_derivada(
    ciclo: Ciclo, monkeypatch: pytest.MonkeyPatch, filtros: dict[str, Any]
) -> None:
    inteira = _derivada(ciclo, **filtros)
    assert len(inteira["prazos"]) > 3
    f = ler_filtros(REFERENCIA, **filtros)
    assert ciclo.pendencias(f, (2, 1)) == _fatiada(inteira, 2, 1)  # indexes them all first
    assert _marca(ciclo) is not None  # the pages below read the items alone
    _sem_derivar(monkeypatch)
    for andar in (0, 10**9):  # the index walked in order, or the rows kept sorted
        monkeypatch.setattr(fila, "_ANDAR", andar)
        for limite, deslocamento in ((1, 0), (2, 0), (2, 1), (3, 2), (50, 0), (5, 40)):
            pagina = ciclo.pendencias(f, (limite, deslocamento))
            assert pagina == _fatiada(inteira, limite, deslocamento), (andar, limite, deslocamento)


def test_a_pagina_com_processos_escritos_depois_do_indice_e_a_fatia_da_fila_derivada(
    ciclo: Ciclo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Processos written since they were indexed are derived beside the index's page, never
    the whole index read: the page is still the whole queue's slice, in its order, with its
    totals (here they stay out of the index: the database is busy)."""
    ciclo.pendencias(ler_filtros(REFERENCIA))  # every processo indexed
    ids = {p.armazenado.nome: p.armazenado.id for p in ciclo.todos(REFERENCIA)}
    escritos = [ids[PROCESSOS["C"]["nome"]], ids[PROCESSOS["A"]["nome"]]]
    ciclo.acrescentar(escritos[0], {"evento": "defesa", "data": "2026-07-17"})
    ciclo.remover_ultimo_evento(escritos[1])
    assert sorted(_velhos(ciclo)) == sorted(escritos)
    monkeypatch.setattr(CicloPendencias, "_gravar_indice", lambda *_: False)

    def sem_ler_tudo(*_: object) -> None:
        raise AssertionError("a página leu o índice inteiro")

    ler_tudo = fila.ler
    monkeypatch.setattr(fila, "ler", sem_ler_tudo)
    original = CicloProcessos.derivar
    derivados: list[int] = []

    def contar(self: CicloProcessos, armazenado: Any, *args: Any, **kwargs: Any) -> Any:
        derivados.append(armazenado.id)
        return original(self, armazenado, *args, **kwargs)

    for filtros in (
        {},
        {"dias": 3660, "todos": True},
        {"prescritos": False},
        {"cnpj": "12345678000195"},
    ):
        inteira = _derivada(ciclo, **filtros)
        monkeypatch.setattr(CicloProcessos, "derivar", contar)
        for limite, deslocamento in ((1, 0), (2, 1), (3, 2), (50, 0), (5, 40)):
            derivados.clear()
            pagina = ciclo.pendencias(ler_filtros(REFERENCIA, **filtros), (limite, deslocamento))
            assert pagina == _fatiada(inteira, limite, deslocamento), (filtros, limite)
            assert sorted(derivados) == sorted(escritos)
        monkeypatch.setattr(CicloProcessos, "derivar", original)
    assert sorted(_velhos(ciclo)) == sorted(escritos)
    # a page past the merge's depth (up to 2^63 - 1) is still the whole queue's slice
    monkeypatch.setattr(fila, "ler", ler_tudo)
    for deslocamento in (4990, 2**63 - 1):
        pagina = ciclo.pendencias(ler_filtros(REFERENCIA), (50, deslocamento))
        assert pagina == _fatiada(_derivada(ciclo), 50, deslocamento)


def test_a_pagina_nao_espera_a_trava_para_indexar_o_que_derivou(
    ciclo: Ciclo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under a flood of writes the chain's lock is seldom free: a page indexes the few
    processos it derived only if the lock comes at once (the whole queue waits longer)."""
    ciclo.pendencias(ler_filtros(REFERENCIA))
    [c] = [p.armazenado.id for p in ciclo.todos(REFERENCIA) if p.armazenado.nome == NOME_C]
    ciclo.acrescentar(c, {"evento": "defesa", "data": "2026-07-17"})
    original = Repositorio.escrita
    esperas: list[float | None] = []

    def escrita(self: Repositorio, *args: Any, espera: float | None = None, **kw: Any) -> Any:
        esperas.append(espera)
        return original(self, *args, espera=espera, **kw)

    monkeypatch.setattr(Repositorio, "escrita", escrita)
    ciclo.pendencias(ler_filtros(REFERENCIA), (2, 0))
    assert esperas and set(esperas) == {modulo._ESPERA_DA_PAGINA}  # the index, and the mark
    assert _velhos(ciclo) == []
    esperas.clear()
    ciclo.acrescentar(c, {"evento": "ciencia_primeira_instancia", "data": "2026-07-18"})
    esperas.clear()
    ciclo.pendencias(ler_filtros(REFERENCIA))  # the whole queue
    assert esperas and set(esperas) == {modulo._ESPERA}


def test_a_pagina_de_outro_dia_e_a_fatia_da_fila_derivada(ciclo: Ciclo) -> None:
    outro = date(2026, 7, 1)
    inteira = Ciclo(ciclo.repositorio, legislacao_com_selic(ciclo.repositorio)).pendencias(
        ler_filtros(outro)
    )
    assert ciclo.pendencias(ler_filtros(outro), (2, 1)) == _fatiada(inteira, 2, 1)
    assert _indexados(ciclo) == 0


def test_a_api_da_uma_pagina_do_indice(ciclo: Ciclo, database_url: str) -> None:
    from fastapi.testclient import TestClient

    from multas.servidor import criar_app

    esperada = _fatiada(_derivada(ciclo), 2, 1)
    with TestClient(criar_app(database_url), raise_server_exceptions=False) as cliente:
        r = cliente.get(
            "/api/v1/pendencias",
            params={"data_referencia": REFERENCIA.isoformat(), "limite": 2, "deslocamento": 1},
        )
    assert r.status_code == 200, r.text
    assert r.json() == esperada
    assert r.headers["X-Total-Count"] == str(esperada["total"])
    assert _indexados(ciclo) == len(PROCESSOS)


@pytest.mark.parametrize(
    "item",
    ["{", "[]", '{"processo_id": 1}', '{"data": 5}', "[" * 200_000 + "]" * 200_000, None],
    ids=["aberto", "lista", "sem-campos", "tipo", "aninhado", "apagado"],
)
def test_um_item_ilegivel_no_indice_nao_derruba_a_fila(ciclo: Ciclo, item: str | None) -> None:
    """An item edited outside the system (or its text deleted: ``None``) is not the queue's:
    the queue, a page and the calendar are derived, never a 500, never an item dropped."""
    esperada = _derivada(ciclo)
    calendario = Ciclo(ciclo.repositorio, legislacao_com_selic(ciclo.repositorio)).todos_os_prazos(
        REFERENCIA
    )
    ciclo.pendencias(ler_filtros(REFERENCIA))
    with ciclo.repositorio.engine.begin() as conexao:  # edited outside the system
        prazos = select(FilaItem.processo_id, FilaItem.n).where(FilaItem.tipo == "prazo")
        deles = tuple_(FilaTexto.processo_id, FilaTexto.n).in_(prazos)
        if item is None:
            conexao.execute(delete(FilaTexto).where(deles))
        else:
            conexao.execute(update(FilaTexto).where(deles).values(item=item))
    assert ciclo.pendencias(ler_filtros(REFERENCIA)) == esperada
    assert ciclo.todos_os_prazos(REFERENCIA) == calendario
    pagina = ciclo.pendencias(ler_filtros(REFERENCIA), (2, 0))
    assert pagina == _fatiada(esperada, 2, 0)


def test_a_chave_da_lei_muda_com_a_selic_guardada_e_com_a_versao() -> None:
    base = modulo.impressao("v1", [("2026-01", "1.0")])
    assert len(base) == 64
    assert modulo.impressao("v1", [("2026-01", "1.1")]) != base  # a rate changed
    assert modulo.impressao("v1", [("2026-01", "1.0"), ("2026-02", "1.0")]) != base
    assert modulo.impressao("v2", [("2026-01", "1.0")]) != base
    assert modulo.impressao("v1", [("2026-01", "1.0")]) == base


def test_indexar_nao_espera_uma_escrita_longa(database_url: str, ciclo: Ciclo) -> None:
    """A long write elsewhere (another process's import): the queue still answers at once,
    derived, and indexes nothing (the next one will)."""
    import threading
    import time

    outro = Repositorio(database_url)
    travado, soltar = threading.Event(), threading.Event()

    def importacao_longa() -> None:
        with outro.escrita("imp") as escrita:
            escrita.sessao.execute(select(1))
            travado.set()
            soltar.wait(10)

    linha = threading.Thread(target=importacao_longa)
    linha.start()
    try:
        travado.wait(10)
        inicio = time.monotonic()
        fila_ = ciclo.pendencias(ler_filtros(REFERENCIA))
        assert time.monotonic() - inicio < 5  # not 30 s, nor a wait per slice
    finally:
        soltar.set()
        linha.join()
        outro.fechar()
    assert fila_ == _derivada(ciclo)
    assert _indexados(ciclo) == 0


def test_a_primeira_pagina_do_dia_deriva_cada_processo_uma_vez(
    ciclo: Ciclo, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = CicloProcessos.derivar
    derivados: list[int] = []

    def contar(self: CicloProcessos, armazenado: Any, *args: Any, **kwargs: Any) -> Any:
        derivados.append(armazenado.id)
        return original(self, armazenado, *args, **kwargs)

    monkeypatch.setattr(CicloProcessos, "derivar", contar)
    ciclo.pendencias(ler_filtros(REFERENCIA), (2, 0))
    assert sorted(derivados) == sorted(set(derivados)) and len(derivados) == len(PROCESSOS)


def _marca(ciclo: Ciclo) -> int | None:
    with ciclo.repositorio.leitura() as sessao:
        return fila.marca(sessao, REFERENCIA, ciclo._lei_do_indice(REFERENCIA) or "")


def _velhos(ciclo: Ciclo) -> list[int]:
    lei = ciclo._lei_do_indice(REFERENCIA)
    assert lei is not None
    with ciclo.repositorio.leitura() as sessao:
        return fila.desatualizados(sessao, REFERENCIA, lei)


def test_a_marca_limita_a_busca_aos_escritos_depois_dela(
    ciclo: Ciclo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once a queue of no client's scope indexed every processo, the stale ones are looked
    for among those written since: a write and a new processo are found, the others are not
    looked at; a queue with nothing stale writes no mark; indexing under another legislation
    takes the mark away."""
    with escopo_sql.limitado(Escopo.de(["12.345.678/0001-95"])):
        ciclo.pendencias(ler_filtros(REFERENCIA))  # a client's queue: not all of them
    assert _marca(ciclo) is None
    ciclo.pendencias(ler_filtros(REFERENCIA))
    with ciclo.repositorio.leitura() as sessao:
        assert _marca(ciclo) == fila.ultima_seq(sessao)
    assert _velhos(ciclo) == []
    c = next(
        p.armazenado.id
        for p in ciclo.todos(REFERENCIA)
        if p.armazenado.nome == PROCESSOS["C"]["nome"]
    )
    ciclo.acrescentar(c, {"evento": "defesa", "data": "2026-07-17"})
    novo = ciclo.criar({**PROCESSOS["A"], "id": "48610.000001/2026-01"}).armazenado.id
    assert _velhos(ciclo) == [c, novo]
    antes = _marca(ciclo)
    assert ciclo.pendencias(ler_filtros(REFERENCIA)) == _derivada(ciclo)
    assert _velhos(ciclo) == [] and (_marca(ciclo) or 0) > (antes or 0)

    def nao_marcar(*_: object) -> None:
        raise AssertionError("uma fila sem nada a indexar gravou a marca")

    monkeypatch.setattr(fila, "marcar", nao_marcar)
    assert ciclo.pendencias(ler_filtros(REFERENCIA)) == _derivada(ciclo)
    ids = [p.armazenado.id for p in ciclo.todos(REFERENCIA)]
    with ciclo.repositorio.leitura() as sessao:
        versoes = fila.versoes(sessao, ids)
    with ciclo.repositorio.escrita() as escrita:
        fila.gravar(escrita, REFERENCIA, "outra lei", {ids[0]: []}, versoes)
    assert _marca(ciclo) is None
    assert _velhos(ciclo) == [ids[0]]


def test_verificar_nomeia_o_indice_apagado_sob_a_marca(
    ciclo: Ciclo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under the mark, a processo's index row deleted outside the system would hide it from
    the queue (which looks only among those written since): verificar names it."""
    from multas.servicos import verificacao

    monkeypatch.setattr(verificacao, "hoje_em_brasilia", lambda: REFERENCIA)
    ciclo.pendencias(ler_filtros(REFERENCIA))
    apagado = next(p.armazenado.id for p in ciclo.todos(REFERENCIA) if p.erro is None)
    with ciclo.repositorio.engine.begin() as conexao:
        conexao.execute(delete(FilaProcesso).where(FilaProcesso.id == apagado))
    assert apagado not in _velhos(ciclo)  # not written since the mark: not looked at
    problemas = [p for p in ciclo.verificar().problemas if p.tabela == "fila_processos"]
    assert [(p.id, p.tipo) for p in problemas] == [(apagado, "alterado")]
    assert "alterado fora do sistema" in problemas[0].mensagem


AMANHA = REFERENCIA + timedelta(days=1)
TODOS: dict[str, Any] = {"dias": 3660, "todos": True}


def _derivada_em(ciclo: Ciclo, dia: date, **filtros: Any) -> dict[str, Any]:
    return Ciclo(ciclo.repositorio, legislacao_com_selic(ciclo.repositorio)).pendencias(
        ler_filtros(dia, **filtros)
    )


def _id_de(ciclo: Ciclo, chave: str) -> int:
    return next(
        p.armazenado.id
        for p in ciclo.todos(REFERENCIA)
        if p.armazenado.nome == PROCESSOS[chave]["nome"]
    )


def test_uma_fila_de_ontem_indexada_depois_da_de_hoje_impede_a_marca(
    ciclo: Ciclo,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Request C (yesterday's queue, begun before midnight) writes its index rows between
    request A's (today's first queue) index rows and A's mark: A does not mark (the mark would
    say every live processo is indexed today, and C's processo, indexed yesterday and not
    written since, would not be looked for)."""
    dia = [REFERENCIA]
    monkeypatch.setattr(modulo, "hoje_em_brasilia", lambda: dia[0])
    ciclo.pendencias(ler_filtros(REFERENCIA))  # yesterday: all indexed, marked
    p = _id_de(ciclo, "C")
    ciclo.acrescentar(p, {"evento": "defesa", "data": "2026-07-17"})  # p: stale

    # C, at 23:59:59: pendencias() -> _lei_do_indice -> _pela_fila's snapshot
    lei = ciclo._lei_do_indice(REFERENCIA)
    assert lei is not None
    with ciclo.repositorio.leitura() as sessao:
        seq_c = fila.ultima_seq(sessao)
        velhos_c = fila.desatualizados(sessao, REFERENCIA, lei)
    assert velhos_c == [p]

    dia[0] = AMANHA  # midnight
    original = CicloPendencias._marcar
    feito: list[bool] = []

    def marcar(self: CicloPendencias, referencia: date, lei_: str, seq: int, *resto: Any) -> None:
        if referencia == AMANHA and not feito:  # A done indexing, about to mark: C's rows land
            feito.append(True)
            list(self._em_fatias(velhos_c, REFERENCIA, lei, seq_c))  # the rest of C's _pela_fila
        original(self, referencia, lei_, seq, *resto)

    monkeypatch.setattr(CicloPendencias, "_marcar", marcar)
    ciclo.pendencias(ler_filtros(AMANHA))  # A: today's first queue
    assert feito
    monkeypatch.setattr(CicloPendencias, "_marcar", original)

    esperada = _derivada_em(ciclo, AMANHA, **TODOS)
    assert any(i["processo_id"] == p for i in esperada["acoes"] + esperada["prazos"])
    lida = ciclo.pendencias(ler_filtros(AMANHA, **TODOS))
    assert sorted(i["processo_id"] for i in lida["acoes"]) == sorted(
        i["processo_id"] for i in esperada["acoes"]
    )
    assert lida == esperada


def test_verificar_nao_acusa_o_processo_posto_na_lixeira_enquanto_verifica(
    ciclo: Ciclo,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """While verificar derives a slice, a user moves a processo of it to the bin and another
    writes a processo and opens the queue (which marks past the bin's audit row): nothing was
    tampered, and verificar names nothing."""
    from multas.servicos import verificacao

    monkeypatch.setattr(verificacao, "hoje_em_brasilia", lambda: REFERENCIA)
    ciclo.pendencias(ler_filtros(REFERENCIA))
    assert [p.tabela for p in ciclo.verificar().problemas] == ["processos"]  # D, refused
    alvo, outro = _id_de(ciclo, "A"), _id_de(ciclo, "C")
    original = verificacao._conferir
    feito: list[bool] = []

    def conferir(c: Any, hoje: date, armazenado: Any) -> Any:
        if not feito:
            feito.append(True)
            ciclo.excluir(alvo)  # to the bin
            ciclo.acrescentar(outro, {"evento": "defesa", "data": "2026-07-17"})
            ciclo.pendencias(ler_filtros(REFERENCIA))  # indexes `outro`, marks
        return original(c, hoje, armazenado)

    monkeypatch.setattr(verificacao, "_conferir", conferir)
    problemas = ciclo.verificar().problemas
    assert [p for p in problemas if p.tabela == "fila_processos"] == []


def test_lixeira_restaurar_e_desfazer_sob_a_marca(ciclo: Ciclo) -> None:
    """Bin, restore, append and undo under the mark: the queue read is the queue derived."""
    from multas.servicos.persistencia import lixeira

    def confere() -> None:
        assert ciclo.pendencias(ler_filtros(REFERENCIA, **TODOS)) == _derivada_em(
            ciclo, REFERENCIA, **TODOS
        )

    ciclo.pendencias(ler_filtros(REFERENCIA))
    a, c = _id_de(ciclo, "A"), _id_de(ciclo, "C")
    ciclo.excluir(a)
    confere()
    lixeira.restaurar(ciclo.repositorio, "processo", a, "admin")
    confere()
    ciclo.acrescentar(c, {"evento": "defesa", "data": "2026-07-17"})
    confere()
    ciclo.remover_ultimo_evento(c)
    confere()


def test_a_pagina_de_um_cliente_sob_a_marca_e_a_do_seu_escopo(ciclo: Ciclo) -> None:
    ciclo.pendencias(ler_filtros(REFERENCIA))  # indexes all, marks
    assert _marca(ciclo) is not None
    with escopo_sql.limitado(Escopo.de(["12.345.678/0001-95"])):
        inteira = _derivada(ciclo, **TODOS)
        pagina = ciclo.pendencias(ler_filtros(REFERENCIA, **TODOS), (50, 0))
    assert pagina == _fatiada(inteira, 50, 0)
    assert pagina["total"] < len(ciclo.pendencias(ler_filtros(REFERENCIA, **TODOS))["prazos"])


def test_itens_de_processo_inativo_no_indice_sao_apontados_e_reavaliar_os_apaga(
    ciclo: Ciclo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Index rows of a processo in the bin, or of none, are written only outside the system:
    verificar names them, and reavaliar deletes them."""
    from multas.servicos import verificacao
    from multas.servicos.reavaliar import reavaliar

    monkeypatch.setattr(verificacao, "hoje_em_brasilia", lambda: REFERENCIA)
    ciclo.pendencias(ler_filtros(REFERENCIA))
    a = _id_de(ciclo, "A")

    def linhas(modelo: Any) -> list[dict[str, Any]]:
        with ciclo.repositorio.leitura() as sessao:
            return [
                {c.name: getattr(i, c.name) for c in modelo.__table__.c if c.name != "id"}
                for i in sessao.scalars(select(modelo).where(modelo.processo_id == a))
            ]

    itens, textos = linhas(FilaItem), linhas(FilaTexto)
    ciclo.excluir(a)  # to the bin: its rows go with it
    with ciclo.repositorio.engine.begin() as conexao:  # and come back, outside the system
        conexao.execute(insert(FilaItem), [*itens, *({**i, "processo_id": 999_999} for i in itens)])
        conexao.execute(insert(FilaTexto), textos)
    orfaos = [(p.tabela, p.id) for p in ciclo.verificar().problemas if p.tabela == "fila_itens"]
    assert orfaos == [("fila_itens", a), ("fila_itens", 999_999)]
    reavaliar(ciclo, referencia=REFERENCIA)
    assert not [p for p in ciclo.verificar().problemas if p.tabela == "fila_itens"]
