"""Databases at an older revision: processos written as the code of revision r0005 wrote them
(the rows by raw SQL, the audit rows with the state hashes that code computed), for the tests
of the migrations after it (r0006, r0007)."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import Connection, bindparam, text

from multas.servicos.persistencia import Repositorio
from multas.servicos.persistencia.integridade import GENESE, hash_registro
from multas.servicos.persistencia.modelos import DataSegura, UTCDateTime
from multas.servicos.persistencia.registros import RECURSOS, estado, hash_estado

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


def ate_r0005(repo: Repositorio) -> None:
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", "multas.servicos.persistencia:migracoes")
    with repo.engine.begin() as conexao:
        config.attributes["connection"] = conexao
        command.upgrade(config, "r0005")
