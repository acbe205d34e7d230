"""Many rows at once (:mod:`multas.servicos.persistencia.em_massa`): ``COPY`` on PostgreSQL and
an executemany elsewhere keep an insert's rules (the net under every statement, the database's
errors as SQLAlchemy's), and a slice of ids is written into its statement only as integers.
Every write's audit rows take this path: the chain's checks all over the suite read them back."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import Table, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DataError, IntegrityError

from multas.nucleo.erros import EntradaInvalida
from multas.servicos.persistencia.em_massa import copiar, em_postgresql, entre, inserir
from multas.servicos.persistencia.modelos import TentativaLogin

TABELA = TentativaLogin.__table__
assert isinstance(TABELA, Table)


def _linha(chave: str) -> dict[str, Any]:
    momento = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    return {
        "chave": chave,
        "momentos": "[]",
        "bloqueado_ate": None,
        "nivel": 0,
        "atualizado_em": momento,
    }


def test_copiar_grava_como_um_insert_e_recusa_como_ele(repo: Any) -> None:
    with repo.escrita_fora_dos_registros() as sessao:
        copiar(sessao, TABELA, [_linha("a"), _linha("b")])
    with repo.leitura() as sessao:
        lidas = sessao.execute(select(TABELA.c.chave, TABELA.c.atualizado_em).order_by("chave"))
        assert [tuple(linha) for linha in lidas] == [
            ("a", datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)),
            ("b", datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)),
        ]
    # the database's refusal is SQLAlchemy's, and nothing of the slice stays
    with pytest.raises(IntegrityError), repo.escrita_fora_dos_registros() as sessao:
        copiar(sessao, TABELA, [_linha("c"), _linha("a")])
    # the net under every statement: a NUL or a 65-bit integer is a pt-BR input error, never
    # the driver's
    for ruim in ({"chave": "d\x00"}, {"nivel": 2**64}):
        with pytest.raises(EntradaInvalida), repo.escrita_fora_dos_registros() as sessao:
            copiar(sessao, TABELA, [_linha("e") | ruim])
    with repo.leitura() as sessao:
        assert sessao.scalar(select(func.count()).select_from(TABELA)) == 2


def test_inserir_devolve_os_ids_na_ordem_das_linhas(repo: Any) -> None:
    chaves = [f"k{i}" for i in (5, 3, 9, 1, 7)]
    with repo.escrita_fora_dos_registros() as sessao:
        if not em_postgresql(sessao):
            pytest.skip("SQLite: a multi-row insert of SQLAlchemy (Escrita.inserir_linhas)")
        ids = inserir(sessao, TABELA, [_linha(c) for c in chaves])
    with repo.leitura() as sessao:
        lidos = {c: i for c, i in sessao.execute(select(TABELA.c.chave, TABELA.c.id))}
    assert ids == [lidos[c] for c in chaves]
    with pytest.raises(IntegrityError), repo.escrita_fora_dos_registros() as sessao:
        inserir(sessao, TABELA, [_linha("novo"), _linha("k5")])
    # a text longer than its column is refused by the database, never cut to fit
    with pytest.raises(DataError), repo.escrita_fora_dos_registros() as sessao:
        inserir(sessao, TABELA, [_linha("x" * 301)])
    for ruim in ({"chave": "d\x00"}, {"nivel": 2**64}):
        with pytest.raises(EntradaInvalida), repo.escrita_fora_dos_registros() as sessao:
            inserir(sessao, TABELA, [_linha("e") | ruim])


@pytest.mark.parametrize("dialeto", [postgresql.dialect(), sqlite.dialect()], ids=["pg", "sqlite"])
def test_entre_escreve_so_inteiros_no_comando(dialeto: Any) -> None:
    consulta = select(TABELA.c.id).where(entre(TABELA.c.id, [3, 1, 2]))
    compilada = consulta.compile(dialect=dialeto, compile_kwargs={"render_postcompile": True})
    assert "IN (3, 1, 2)" in str(compilada)
    assert not compilada.params
    with pytest.raises(ValueError):
        entre(TABELA.c.id, [1, "2); DROP TABLE auditoria; --"])  # type: ignore[list-item]
