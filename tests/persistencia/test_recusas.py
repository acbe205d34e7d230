"""The hostile suite, written once for every stored table (issue 15): tampering with each column,
deleting and forging rows, concurrent deletes and appends, NUL characters and overlong texts,
ids past 2^63 and dates at the ends of the calendar, on SQLite and PostgreSQL.

Every table of the schema must be a declared record (:data:`multas.servicos.persistencia.registros.
RECURSOS`) and have a maker (:data:`tests.utils.registros.FABRICAS`): a table added later fails
:func:`test_toda_tabela_e_um_registro_com_fabrica` until it uses the one mechanism and is
covered by every test below.
"""

from __future__ import annotations

import itertools
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import Date, DateTime, String, Text, inspect, select
from sqlalchemy.exc import IntegrityError

from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.ids import MAIOR_ID
from multas.servicos.persistencia.modelos import Base, RegistroAuditoria
from multas.servicos.persistencia.registros import (
    FORA_DOS_REGISTROS,
    RECURSOS,
    Recurso,
    RegistroAlterado,
    conferir,
)
from tests.utils.registros import (
    FABRICAS,
    Banco,
    Feito,
    ao_mesmo_tempo,
    como_excluir,
    fazer_caso,
    fazer_processo,
    linha_do_registro,
)

_SUFIXOS = itertools.count(101)


def test_toda_tabela_e_um_registro_com_fabrica(banco: Banco) -> None:
    """Every table of the schema (the models and the migrated database alike) is a declared
    record with a maker in FABRICAS, or the chain itself."""
    with banco.repo.engine.connect() as conexao:
        no_banco = {t for t in inspect(conexao).get_table_names() if not t.startswith("sqlite_")}
    declaradas = set(Base.metadata.tables)
    assert no_banco == declaradas | {"alembic_version"}
    for tabela in sorted(no_banco - FORA_DOS_REGISTROS):
        assert tabela in RECURSOS, f"{tabela}: declare-a em multas.servicos.persistencia.registros"
        assert tabela in FABRICAS, f"{tabela}: falta a sua fábrica em tests/utils/registros.py"
    assert set(RECURSOS) == set(FABRICAS)


# --- tampering --------------------------------------------------------------------------------


def _colunas(tabela: str) -> list[str]:
    return [c.key for c in RECURSOS[tabela].colunas.columns]


ADULTERACOES = [(t, c) for t in sorted(RECURSOS) for c in _colunas(t)]


def _unicas(recurso: Recurso) -> set[str]:
    nomes = {c.key for c in recurso.colunas.columns if c.unique or c.primary_key}
    for restricao in recurso.colunas.constraints:
        nomes |= (
            {c.key for c in getattr(restricao, "columns", ())}
            if type(restricao).__name__ == "UniqueConstraint"
            else set()
        )
    for indice in recurso.colunas.indexes:  # the unique keys among the records not deleted
        if indice.unique:
            nomes |= {c.key for c in indice.columns}
    return nomes


def _a_mudar(recurso: Recurso) -> set[str]:
    """What a copy of a row must change to be stored beside it: its unique values, but its id
    and its references (which must keep naming an existing row)."""
    referencias = {c.key for c in recurso.colunas.columns if c.foreign_keys}
    return _unicas(recurso) - {"id"} - referencias


def _candidatos(recurso: Recurso, coluna: str, valor: Any, do_outro: Any) -> list[Any]:
    """What a forger writes, in order: the other record's value (same table, so every type
    and reference holds), else a value of the same type that differs."""
    mudado = _outro_valor(recurso, coluna, valor, valor)
    return [do_outro, mudado] if do_outro != valor else [mudado]


def _outro_valor(recurso: Recurso, coluna: str, valor: Any, do_outro: Any) -> Any:
    """A value that differs from ``valor``: ``do_outro`` where it differs and may be copied,
    else one of the same type."""
    if do_outro != valor and coluna not in _unicas(recurso):
        return do_outro
    tipo = recurso.colunas.c[coluna].type
    if coluna == "id":
        return valor + 1000
    if valor is None:
        if isinstance(getattr(tipo, "impl", None), DateTime):  # moved to the bin by a forger
            return datetime(2026, 1, 1, tzinfo=UTC)
        return "1.00" if isinstance(tipo, String | Text) else 1
    if isinstance(valor, bytes):
        return valor + b"!"
    if isinstance(valor, bool):
        return not valor
    if isinstance(valor, int):
        return valor + 1
    if isinstance(valor, datetime):
        return valor + timedelta(microseconds=1)
    if isinstance(valor, date):
        return valor + timedelta(days=1)
    assert isinstance(valor, str)
    while True:  # a random value may already end in the suffix (a token's prefix, 1 in 4096)
        sufixo = f"{next(_SUFIXOS):03d}"[-3:]  # same length, unique: fits the column, no key
        novo = valor[: -len(sufixo)] + sufixo if len(valor) >= len(sufixo) else sufixo
        if novo != valor:
            return novo


def _assinalado(banco: Banco, tabela: str, registro_id: int) -> None:
    relatorio = banco.repo.verificar()
    assert not relatorio.integro, "a adulteração passou despercebida"
    nomeados = {(p.tabela, p.id) for p in relatorio.problemas}
    assert (tabela, registro_id) in nomeados, relatorio.problemas


def _recusado(feito: Feito) -> None:
    try:
        mostrado = feito.ler()
    except RegistroAlterado:
        return
    assert mostrado is None, f"o registro adulterado foi mostrado: {mostrado!r}"


@pytest.mark.parametrize(
    ("tabela", "coluna"), ADULTERACOES, ids=[f"{t}.{c}" for t, c in ADULTERACOES]
)
def test_cada_coluna_adulterada_e_apontada_e_recusada(
    banco: Banco, tabela: str, coluna: str
) -> None:
    recurso = RECURSOS[tabela]
    alvo, outro = FABRICAS[tabela](banco), FABRICAS[tabela](banco, outro=True)
    assert alvo.ler() is not None
    assert banco.repo.verificar().integro
    antes = linha_do_registro(banco, tabela, alvo.id)
    do_outro = linha_do_registro(banco, tabela, outro.id)[coluna]
    for novo in _candidatos(recurso, coluna, antes[coluna], do_outro):
        try:  # the application's own tables: no guard to lift
            with banco.repo.engine.begin() as c:
                c.execute(
                    recurso.colunas.update()
                    .where(recurso.colunas.c.id == alvo.id)
                    .values({coluna: novo})
                )
            break
        except IntegrityError:
            continue  # that value breaks a constraint: the forger tries another
    else:
        # only a parent's id cannot be changed at all: its children's foreign keys refuse it
        assert coluna == "id" and recurso.filhos, f"nenhum valor adulterado coube em {coluna}"
        return
    _assinalado(banco, tabela, alvo.id)
    _recusado(alvo)


@pytest.mark.parametrize("tabela", sorted(RECURSOS))
def test_linha_apagada_e_linha_forjada_sao_apontadas(banco: Banco, tabela: str) -> None:
    recurso = RECURSOS[tabela]
    alvo, modelo = FABRICAS[tabela](banco), FABRICAS[tabela](banco, outro=True)
    copia = linha_do_registro(banco, tabela, modelo.id)
    with banco.repo.engine.begin() as c:
        c.execute(recurso.colunas.delete().where(recurso.colunas.c.id == alvo.id))
    _assinalado(banco, tabela, alvo.id)
    _recusado(alvo)
    # a forged row: the other record's content under a new id, its unique values changed
    forjado = dict(copia, id=copia["id"] + 500)
    for coluna in _a_mudar(recurso):
        forjado[coluna] = _outro_valor(recurso, coluna, forjado[coluna], forjado[coluna])
    with banco.repo.engine.begin() as c:
        c.execute(recurso.colunas.insert().values(forjado))
    _assinalado(banco, tabela, forjado["id"])


# --- concurrency ---------------------------------------------------------------------------------


#: records no user deletes (a user is deactivated, a token revoked; an idempotency key lives
#: as long as its case's history, an import and a month of the Selic as long as the chain)
NUNCA_EXCLUIDOS = {
    "usuarios",
    "tokens",
    "idempotencia",
    "feeds",
    "cargas",
    "selic_meses",
    "documentos",
}


@pytest.mark.parametrize("tabela", sorted(set(RECURSOS) - NUNCA_EXCLUIDOS))
def test_exclusoes_concorrentes_excluem_uma_vez(banco: Banco, tabela: str) -> None:
    for _ in range(3):
        feito = FABRICAS[tabela](banco)
        excluir = como_excluir(banco, tabela, feito)
        saidas = ao_mesmo_tempo([excluir] * 4)
        assert sorted(map(repr, saidas)) == ["False", "False", "False", "True"], saidas
        exclusoes = [
            r
            for r in banco.repo.auditoria(limite=10_000, tabela=tabela, registro_id=feito.id)
            if r.operacao == ("ocultar" if RECURSOS[tabela].lixeira else "excluir")
        ]
        assert len(exclusoes) == 1
    assert banco.repo.verificar().integro


def test_acrescimos_e_desfazer_concorrentes_deixam_um_processo_valido(banco: Banco) -> None:
    """The defect: an undo and an append at once stored [infracao, auto_infracao, recurso], a
    list § 6 refuses, and then every listing failed. Now a stored processo is always valid."""
    eventos = [
        ("ciencia_primeira_instancia", "2024-04-01"),
        ("recurso", "2024-04-05"),
        ("renuncia_recurso", "2024-04-05"),
        ("decisao_definitiva", "2024-06-03"),
    ]
    for _ in range(4):
        pid = fazer_processo(banco).id

        def acao(i: int, pid: int = pid) -> object:
            if i % 3 == 2:
                return banco.ciclo.remover_ultimo_evento(pid)
            evento, dia = eventos[i % len(eventos)]
            return banco.ciclo.acrescentar(pid, {"evento": evento, "data": dia})

        saidas = ao_mesmo_tempo([lambda i=i: acao(i) for i in range(6)])
        # § 6 may refuse some against the list as it then was; nothing else may fail
        assert all(not isinstance(s, Exception) or isinstance(s, EntradaInvalida) for s in saidas)
        derivado = banco.ciclo.obter(pid)  # derives: § 6 accepts the stored list
        assert derivado.erro is None
        assert all(r.get("erro") is None for r in map(banco.ciclo.resumo, banco.ciclo.listar()))
    relatorio = banco.repo.verificar()
    assert relatorio.integro, relatorio.problemas


# --- texts, ids, dates: the mechanism itself, for every column of every table -------------------


def _copia(banco: Banco, tabela: str) -> Base:
    """A new, valid object of this table (a copy of a record the system made, its unique
    values changed), not yet written."""
    recurso = RECURSOS[tabela]
    feito = FABRICAS[tabela](banco)
    valores = linha_do_registro(banco, tabela, feito.id)
    del valores["id"]
    for coluna in _a_mudar(recurso):
        valores[coluna] = _outro_valor(recurso, coluna, valores[coluna], valores[coluna])
    return recurso.modelo(**valores)


TEXTOS = [
    (t, c.key)
    for t in sorted(RECURSOS)
    for c in RECURSOS[t].colunas.columns
    if isinstance(c.type, String | Text)
]


@pytest.mark.parametrize(("tabela", "coluna"), TEXTOS, ids=[f"{t}.{c}" for t, c in TEXTOS])
def test_texto_com_nulo_ou_longo_demais_e_recusado_nomeando_o_campo(
    banco: Banco, tabela: str, coluna: str
) -> None:
    recurso = RECURSOS[tabela]
    limite = recurso.colunas.c[coluna].type.length or recurso.limites.get(coluna, 64 * 2**20)
    for ruim in ("antes\x00depois", "x" * (limite + 1)):
        objeto = _copia(banco, tabela)
        setattr(objeto, coluna, ruim)
        total = banco.repo.auditoria(limite=100_000)
        with pytest.raises(EntradaInvalida) as erro, banco.repo.escrita("ana") as escrita:
            escrita.inserir(objeto, "teste")
        assert erro.value.campo == recurso.campo(coluna)
        assert len(banco.repo.auditoria(limite=100_000)) == len(total)  # nothing written


def test_a_rede_sob_cada_comando_recusa_nulo_e_inteiro_de_65_bits(banco: Banco) -> None:
    """Whatever path a value takes to SQL, a NUL or a 65-bit integer is an input error."""
    with pytest.raises(EntradaInvalida), banco.repo.leitura() as sessao:
        sessao.execute(select(RegistroAuditoria).where(RegistroAuditoria.usuario == "a\x00"))
    with pytest.raises(EntradaInvalida), banco.repo.leitura() as sessao:
        sessao.execute(select(RegistroAuditoria).where(RegistroAuditoria.id == 2**63))


def test_gravacao_por_fora_do_mecanismo_e_recusada(banco: Banco) -> None:
    objeto = _copia(banco, "processos")
    with pytest.raises(RuntimeError, match="fora de Escrita"), banco.repo.escrita() as escrita:
        escrita.sessao.add(objeto)
    assert banco.repo.verificar().integro


IDS_RUINS = [0, -1, MAIOR_ID + 1, 2**64, -(2**63) - 1]


@pytest.mark.parametrize("numero", IDS_RUINS)
def test_ids_fora_do_intervalo_nao_nomeiam_registro(banco: Banco, numero: int) -> None:
    """Every read and delete, of every table, by an id that cannot exist: nothing, no error."""
    assert banco.repo.obter(numero) is None
    assert banco.repo.excluir(numero) is False
    assert banco.ciclo.repo.obter_processo(numero) is None
    assert banco.ciclo.repo.excluir_processo(numero) is False
    assert banco.ciclo.repo.remover_ultimo_evento(numero) is None
    with banco.repo.escrita() as escrita:
        for recurso in RECURSOS.values():
            assert escrita.travar(recurso.modelo, numero) is None
            assert escrita.excluir(recurso.modelo, numero, "teste") is None
    assert banco.repo.auditoria(caso_id=numero) == []
    assert banco.repo.auditoria(registro_id=numero) == []


DATAS = [
    (t, c.key)
    for t in sorted(RECURSOS)
    for c in RECURSOS[t].colunas.columns
    if isinstance(c.type, Date | DateTime) or isinstance(getattr(c.type, "impl", None), DateTime)
]
EXTREMOS = {
    "date": (date(1, 1, 1), date(9999, 12, 31)),
    "datetime": (datetime(1, 1, 1, tzinfo=UTC), datetime(9999, 12, 31, 23, 59, 59, 999999, UTC)),
}


@pytest.mark.parametrize(("tabela", "coluna"), DATAS, ids=[f"{t}.{c}" for t, c in DATAS])
def test_datas_nos_extremos_do_calendario_gravam_e_conferem(
    banco: Banco, tabela: str, coluna: str
) -> None:
    recurso = RECURSOS[tabela]
    tipo = "datetime" if not isinstance(recurso.colunas.c[coluna].type, Date) else "date"
    for extremo in EXTREMOS[tipo]:
        objeto = _copia(banco, tabela)
        setattr(objeto, coluna, extremo)
        with banco.repo.escrita("ana") as escrita:
            escrita.inserir(objeto, "teste")
        registro_id = objeto.id  # type: ignore[attr-defined]
        assert linha_do_registro(banco, tabela, registro_id)[coluna] in (
            extremo,
            extremo.replace(tzinfo=None) if isinstance(extremo, datetime) else extremo,
        )
        with banco.repo.leitura() as sessao:
            linha = sessao.get(recurso.modelo, registro_id)
            assert conferir(sessao, recurso, [linha]) == {}
    relatorio = banco.repo.verificar()
    assert relatorio.integro, relatorio.problemas


def test_ids_nunca_sao_reusados(banco: Banco) -> None:
    """SQLite reused a deleted processo's id, and the .ics UIDs then pointed at another one."""
    for tabela in sorted(set(RECURSOS) - NUNCA_EXCLUIDOS - {"processo_eventos"}):
        feito = FABRICAS[tabela](banco)
        assert como_excluir(banco, tabela, feito)()
        assert FABRICAS[tabela](banco).id > feito.id, tabela


def test_relogio_que_volta_e_aviso_nao_adulteracao(banco: Banco) -> None:
    import time_machine

    with time_machine.travel(datetime(2026, 5, 1, 12, tzinfo=UTC), tick=False):
        fazer_caso(banco)
    with time_machine.travel(datetime(2026, 5, 1, 11, 59, 58, tzinfo=UTC), tick=False):
        fazer_caso(banco)
    relatorio = banco.repo.verificar()
    assert relatorio.integro, relatorio.problemas
    assert len(relatorio.avisos) == 1 and "2.000000 s" in relatorio.avisos[0]


def test_criado_duas_vezes_e_apontado(banco: Banco) -> None:
    """The application's role may append to the chain: a deleted case re-inserted with another
    value, with an appended creation record, is still caught (an id is created once)."""
    from multas.servicos.persistencia.modelos import CasoSalvo

    feito = fazer_caso(banco)
    linha = linha_do_registro(banco, "casos", feito.id)
    with banco.repo.escrita() as escrita:  # erased, as the bin's purge does
        assert escrita.excluir(CasoSalvo, feito.id, "caso_purgar", definitivo=True)
    with banco.repo.escrita("mallory") as escrita:
        escrita.inserir(CasoSalvo(**dict(linha, valor="1.00")), "criar")
    problemas = banco.repo.verificar().problemas
    assert any(
        p.tabela == "casos" and p.id == feito.id and "mais de uma vez" in p.mensagem
        for p in problemas
    ), problemas
