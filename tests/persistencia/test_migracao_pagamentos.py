"""Migration r0015 (spec § 6.2 v4): ``processo_eventos`` gains ``valor`` and loses the
constraint that kept each event once; on SQLite the table is rebuilt, and its rows, its ids,
its index and the counter of ids survive."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config

from multas.servicos.persistencia import Repositorio


def _preencher(conexao: sa.Connection, tabela: str, valores: dict[str, object]) -> None:
    """Insert a row, every other NOT NULL column given a placeholder of its type."""
    for coluna in sa.inspect(conexao).get_columns(tabela):
        nome = coluna["name"]
        if nome in valores or coluna["nullable"] or nome == "id":
            continue
        tipo = str(coluna["type"]).upper()
        valores[nome] = 0 if "INT" in tipo else "2026-01-01 00:00:00.000000+00:00"
    colunas = ", ".join(valores)
    marcas = ", ".join(f":{c}" for c in valores)
    conexao.execute(sa.text(f"INSERT INTO {tabela} ({colunas}) VALUES ({marcas})"), valores)


def test_r0015_reconstroi_os_eventos_sem_perder_linhas_ids_nem_contador(tmp_path: Path) -> None:
    repo = Repositorio(f"sqlite:///{tmp_path / 'm.db'}")
    config = Config()
    config.set_main_option("script_location", "multas.servicos.persistencia:migracoes")
    with repo.engine.begin() as conexao:
        config.attributes["connection"] = conexao
        command.upgrade(config, "r0014")
        _preencher(conexao, "processos", {"id": 1, "tipo": "anp", "calendario": "expediente"})
        for i, evento in enumerate(("infracao", "auto_infracao")):
            _preencher(
                conexao,
                "processo_eventos",
                {
                    "id": i + 1,
                    "processo_id": 1,
                    "posicao": i,
                    "evento": evento,
                    "data": "2024-01-10",
                },
            )
        conexao.execute(sa.text("DELETE FROM processo_eventos WHERE id = 2"))
        command.upgrade(config, "head")
        colunas = {c["name"] for c in sa.inspect(conexao).get_columns("processo_eventos")}
        assert "valor" in colunas
        linhas = conexao.execute(sa.text("SELECT id, evento, valor FROM processo_eventos")).all()
        assert [tuple(linha) for linha in linhas] == [(1, "infracao", None)]
        contador = conexao.execute(
            sa.text("SELECT seq FROM sqlite_sequence WHERE name = 'processo_eventos'")
        ).scalar()
        assert contador == 2  # a deleted id is never given again
        indices = {i["name"] for i in sa.inspect(conexao).get_indexes("processo_eventos")}
        assert "ix_processo_eventos_processo_id" in indices
        # the same event again, at another position: accepted; the same position: refused
        _preencher(
            conexao,
            "processo_eventos",
            {"processo_id": 1, "posicao": 1, "evento": "infracao", "data": "2024-01-11"},
        )
        with pytest.raises(sa.exc.IntegrityError):
            _preencher(
                conexao,
                "processo_eventos",
                {"processo_id": 1, "posicao": 1, "evento": "defesa", "data": "2024-01-12"},
            )
