"""Migration r0006 (issue 18, spec v3 § 6): ``processos.principal`` becomes ``valor_multa`` and
``dias_sem_expediente`` is added, on SQLite and PostgreSQL.

A database at r0005 gets processos written as the code of that revision wrote them: the rows
by raw SQL, and the audit rows with the state hashes that code computed (every column holding a
value, by name: ``principal`` among them), in the chain. Upgraded to head, ``multas auditoria
verificar`` is clean but for what was edited outside the system before the upgrade (never
vouched for by the migration), each processo reads back with ``valor_multa``, the migration's
own audit rows are named, and an edit made after the upgrade is caught."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from typing import Any

import pytest
from sqlalchemy import Connection, bindparam, text

from multas.ciclo.gestao import Ciclo
from multas.motor import calcular
from multas.persistencia import Repositorio
from multas.persistencia.integridade import GENESE, hash_registro
from multas.persistencia.modelos import DataSegura, UTCDateTime
from multas.persistencia.registros import RECURSOS, RegistroAlterado, estado, hash_estado
from multas.principal import cli

MOMENTO = datetime(2026, 1, 1, 0, 0, 0, 1, tzinfo=UTC)


class CodigoR0005:
    """Writes processos as the r0005 code did (``RepositorioCiclo.criar_processo`` and
    ``acrescentar_evento`` through ``Escrita``): each row, then one audit row per record
    touched, in the order first touched, with the record's final state."""

    def __init__(self, conexao: Connection) -> None:
        self.c = conexao
        self.seq, self.hash = 0, GENESE

    def _auditar(
        self, acao: str, detalhe: dict[str, Any] | None, tabela: str, rid: int, op: str, h: str
    ) -> None:
        valores: dict[str, Any] = {
            "momento": MOMENTO,
            "usuario": "ana",
            "acao": acao,
            "caso_id": None,
            "regime": None,
            "detalhe": None if detalhe is None else json.dumps(detalhe, sort_keys=True),
            "tabela": tabela,
            "registro_id": rid,
            "operacao": op,
            "hash_estado": h,
        }
        self.seq += 1
        novo = hash_registro(seq=self.seq, hash_anterior=self.hash, **valores)
        self.c.execute(
            text(
                "INSERT INTO auditoria (momento, usuario, acao, caso_id, regime, detalhe, seq, "
                "hash_anterior, hash, tabela, registro_id, operacao, hash_estado) VALUES (:momento, "
                ":usuario, :acao, :caso_id, :regime, :detalhe, :seq, :ha, :h, :tabela, "
                ":registro_id, :operacao, :hash_estado)"
            ).bindparams(bindparam("momento", type_=UTCDateTime())),
            {**valores, "seq": self.seq, "ha": self.hash, "h": novo},
        )
        self.hash = novo

    def _estado_processo(self, pid: int) -> str:
        linha = dict(
            self.c.execute(text(f"SELECT * FROM processos WHERE id = {pid}")).mappings().one()
        )
        assert "principal" in linha and "valor_multa" not in linha  # the r0005 schema
        eventos = [
            int(i)
            for (i,) in self.c.execute(
                text(f"SELECT id FROM processo_eventos WHERE processo_id = {pid} ORDER BY posicao")
            )
        ]
        # the canonical state as r0005 hashed it, written out: every column with a value
        atual = {
            k: v
            for k, v in {
                "id": pid,
                "tipo": linha["tipo"],
                "calendario": linha["calendario"],
                "principal": linha["principal"],
                "usuario": "ana",
                "criado_em": MOMENTO,
                "atualizado_em": MOMENTO,
            }.items()
            if v is not None
        }
        return hash_estado(
            "processos", estado(RECURSOS["processos"], atual, {"processo_eventos": eventos})
        )

    def _evento(self, pid: int, posicao: int, evento: str, dia: str) -> tuple[int, str]:
        eid = self.c.execute(
            text(
                "INSERT INTO processo_eventos (processo_id, posicao, evento, data, usuario, "
                "criado_em) VALUES (:p, :pos, :e, :d, 'ana', :m) RETURNING id"
            ).bindparams(bindparam("d", type_=DataSegura()), bindparam("m", type_=UTCDateTime())),
            {"p": pid, "pos": posicao, "e": evento, "d": date.fromisoformat(dia), "m": MOMENTO},
        ).scalar_one()
        atual = {
            "id": eid,
            "processo_id": pid,
            "posicao": posicao,
            "evento": evento,
            "data": date.fromisoformat(dia),
            "usuario": "ana",
            "criado_em": MOMENTO,
        }
        return int(eid), hash_estado(
            "processo_eventos", estado(RECURSOS["processo_eventos"], atual, {})
        )

    def criar(self, tipo: str, principal: str | None, eventos: list[tuple[str, str]]) -> int:
        pid = int(
            self.c.execute(
                text(
                    "INSERT INTO processos (tipo, identificador, cnpj, nome, calendario, principal, "
                    "caso_id, usuario, criado_em, atualizado_em) VALUES (:t, NULL, NULL, NULL, "
                    "'expediente', :p, NULL, 'ana', :m, :m) RETURNING id"
                ).bindparams(bindparam("m", type_=UTCDateTime())),
                {"t": tipo, "p": principal, "m": MOMENTO},
            ).scalar_one()
        )
        criados = [self._evento(pid, i, e, d) for i, (e, d) in enumerate(eventos)]
        detalhe = {"tipo": tipo, "eventos": len(eventos)}
        self._auditar(
            "processo_criar", detalhe, "processos", pid, "inserir", self._estado_processo(pid)
        )
        for (evento, dia), (eid, h) in zip(eventos, criados, strict=True):
            self._auditar(
                "processo_criar",
                {"evento": evento, "data": dia},
                "processo_eventos",
                eid,
                "inserir",
                h,
            )
        return pid

    def acrescentar(self, pid: int, posicao: int, evento: str, dia: str) -> int:
        eid, h = self._evento(pid, posicao, evento, dia)
        self._auditar(
            "processo_evento",
            {"evento": evento, "data": dia},
            "processo_eventos",
            eid,
            "inserir",
            h,
        )
        self._auditar(
            "processo_evento", None, "processos", pid, "alterar", self._estado_processo(pid)
        )
        return eid


ANP = [
    ("infracao", "2023-01-02"),
    ("auto_infracao", "2023-02-01"),
    ("ciencia_primeira_instancia", "2023-09-01"),
]


def _ate_r0005(repo: Repositorio) -> None:
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", "multas.persistencia:migracoes")
    with repo.engine.begin() as conexao:
        config.attributes["connection"] = conexao
        command.upgrade(config, "r0005")


@pytest.fixture
def migrado(database_url: str) -> Any:
    """A database at r0005 with four processos, upgraded to head: (repo, ids, the anchor
    taken before the upgrade)."""
    repo = Repositorio(database_url)
    _ate_r0005(repo)
    with repo.engine.begin() as c:
        antigo = CodigoR0005(c)
        com_multa = antigo.criar("anp", "250000.00", ANP)
        antigo.acrescentar(com_multa, 3, "ciencia_decisao_definitiva", "2024-03-29")
        sem_multa = antigo.criar("renovabio.lista", None, [("fim_prazo_meta", "2025-12-31")])
        adulterado = antigo.criar("anp", "1000.00", ANP)
        com_evento_adulterado = antigo.criar("anp", "5000.00", ANP)
        evento_adulterado = antigo.acrescentar(com_evento_adulterado, 3, "recurso", "2023-09-05")
    repo._migrado = True  # an anchor of the chain as r0005 left it (no upgrade yet)
    ancora = repo.ancorar()
    # edited in the database before the upgrade: a fine lowered, an event's date moved
    with repo.engine.begin() as c:
        c.execute(text(f"UPDATE processos SET principal = '1.00' WHERE id = {adulterado}"))
        c.execute(
            text(f"UPDATE processo_eventos SET data = '2023-09-04' WHERE id = {evento_adulterado}")
        )
    repo._migrado = False
    repo.migrar()
    ids = {
        "com_multa": com_multa,
        "sem_multa": sem_multa,
        "adulterado": adulterado,
        "com_evento_adulterado": com_evento_adulterado,
        "evento_adulterado": evento_adulterado,
    }
    yield repo, ids, ancora
    repo.fechar()


def test_depois_da_migracao_a_auditoria_confere_e_o_processo_le_valor_multa(migrado: Any) -> None:
    repo, ids, _ = migrado
    relatorio = repo.verificar()
    # only what was edited outside the system before the upgrade: the migration vouched for
    # neither the processo whose fine was lowered nor the event moved (its processo's own
    # state, the ids of its events, still matched: vouched for, but never shown)
    assert {(p.tabela, p.id) for p in relatorio.problemas} == {
        ("processos", ids["adulterado"]),
        ("processo_eventos", ids["evento_adulterado"]),
    }, relatorio.problemas
    ciclo = Ciclo(repo)
    derivado = ciclo.obter(ids["com_multa"])
    detalhe = ciclo.detalhe(derivado, date(2024, 5, 15))
    assert detalhe["valor_multa"] == "250000.00" and "principal" not in detalhe
    assert detalhe["dias_sem_expediente"] == []
    esperado = calcular(
        {
            "regime": "anp.mora",
            "principal": "250000.00",
            "data_ciencia": "2024-03-29",
            "data_pagamento": "2024-05-15",
        }
    )
    assert detalhe["multa"]["resultado"]["valor"] == esperado["valor"]
    assert ciclo.obter(ids["sem_multa"]).armazenado.valor_multa is None
    for recusado in ("adulterado", "com_evento_adulterado"):
        with pytest.raises(RegistroAlterado):
            ciclo.obter(ids[recusado])
    # the command line says the same (exit 1, the two records named)
    from click.testing import CliRunner

    saida = CliRunner().invoke(
        cli, ["auditoria", "verificar", "--banco", repo.url, "--formato", "json"]
    )
    assert saida.exit_code == 1, saida.output
    nomeados = {(p["tabela"], p["id"]) for p in json.loads(saida.output)["problemas"]}
    assert nomeados == {
        ("processos", ids["adulterado"]),
        ("processo_eventos", ids["evento_adulterado"]),
    }


def test_a_migracao_deixa_na_cadeia_uma_alteracao_por_processo_com_multa(migrado: Any) -> None:
    repo, ids, ancora = migrado
    migracoes = [r for r in repo.auditoria(tabela="processos") if r.acao == "processo_migrar"]
    # the processo without a fine keeps its hash (nothing of its state was renamed); the one
    # edited before the upgrade is not vouched for
    assert [(r.registro_id, r.operacao, r.usuario) for r in migracoes] == [
        (ids["com_multa"], "alterar", "migração r0006"),
        (ids["com_evento_adulterado"], "alterar", "migração r0006"),
    ]
    assert json.loads(migracoes[0].detalhe or "") == {
        "processo_id": ids["com_multa"],
        "coluna": {"principal": "valor_multa"},
    }
    # an anchor taken before the upgrade names what the migration did
    depois = repo.verificar(ancora)
    assert any(linha.startswith("processos: 2 alterado(s)") for linha in depois.desde_ancora), (
        depois.desde_ancora
    )


def test_adulteracao_depois_da_migracao_e_apontada(migrado: Any) -> None:
    repo, ids, _ = migrado
    ciclo = Ciclo(repo)
    pid = ids["com_multa"]
    # the system's own writes after the upgrade keep the chain whole
    ciclo.acrescentar(pid, {"evento": "pagamento", "data": "2024-07-01"})
    ciclo.alterar(pid, {"dias_sem_expediente": ["2024-04-29"]})
    nomeados = {(p.tabela, p.id) for p in repo.verificar().problemas}
    assert ("processos", pid) not in nomeados
    for coluna, valor in (("valor_multa", "'1.00'"), ("dias_sem_expediente", "NULL")):
        with repo.engine.begin() as c:
            antes = c.execute(text(f"SELECT {coluna} FROM processos WHERE id = {pid}")).scalar()
            c.execute(text(f"UPDATE processos SET {coluna} = {valor} WHERE id = {pid}"))
        assert ("processos", pid) in {(p.tabela, p.id) for p in repo.verificar().problemas}
        with pytest.raises(RegistroAlterado):
            ciclo.obter(pid)
        with repo.engine.begin() as c:
            c.execute(text(f"UPDATE processos SET {coluna} = :v WHERE id = {pid}"), {"v": antes})
        assert ("processos", pid) not in {(p.tabela, p.id) for p in repo.verificar().problemas}
