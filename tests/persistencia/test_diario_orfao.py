"""A new SQLite database next to the WAL log of another one (``multas.db-wal`` left by a
database deleted or moved without it): SQLite read the new file with that log, silently, and
the new database became the other one (§ 8 of stop 53). Every path that creates a database
goes through the engine, which refuses, in pt-BR, naming the log; nothing is created."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from multas.principal import cli
from multas.servicos.persistencia import BancoInacessivel
from multas.servicos.persistencia.banco import criar_engine

PROCESSO = json.dumps(
    {
        "tipo": "renovabio.lista",
        "cnpj": "12.345.678/0001-95",
        "eventos": [{"evento": "fim_prazo_meta", "data": "2025-12-31"}],
    }
)


def _diario_de_outro(arquivo: Path) -> None:
    """``arquivo``'s log, non-empty, taken from another database that still had rows in it."""
    outro = arquivo.with_name("outro.db")
    conexao = sqlite3.connect(outro)
    try:
        conexao.execute("PRAGMA journal_mode=WAL")
        conexao.execute("PRAGMA wal_autocheckpoint=0")
        conexao.execute("CREATE TABLE casos (n INTEGER)")
        conexao.commit()
        shutil.copyfile(f"{outro}-wal", f"{arquivo}-wal")
        shutil.copyfile(f"{outro}-shm", f"{arquivo}-shm")
    finally:
        conexao.close()
    assert Path(f"{arquivo}-wal").stat().st_size > 0


def test_um_comando_nao_cria_o_banco_ao_lado_do_diario_de_outro(tmp_path: Path) -> None:
    banco = tmp_path / "multas.db"
    _diario_de_outro(banco)
    r = CliRunner().invoke(cli, ["processo", "criar", "-", "--banco", str(banco)], PROCESSO)
    assert r.exit_code == 1
    assert f"{banco}-wal (e {banco}-shm)" in r.stderr, r.output
    assert "ainda não existe" in r.stderr and "Nenhum banco foi criado" in r.stderr
    assert "Traceback" not in r.output
    assert not banco.exists()


@pytest.mark.parametrize("vazio", [False, True])
def test_o_motor_recusa_um_arquivo_novo_ou_vazio_com_diario(tmp_path: Path, vazio: bool) -> None:
    banco = tmp_path / "multas.db"
    _diario_de_outro(banco)
    if vazio:
        banco.write_bytes(b"")
    with pytest.raises(BancoInacessivel, match=r"multas\.db-wal"):
        criar_engine(f"sqlite:///{banco}")


def test_um_diario_vazio_ou_de_um_banco_que_existe_nao_impede(tmp_path: Path) -> None:
    banco = tmp_path / "multas.db"
    Path(f"{banco}-wal").write_bytes(b"")  # a log truncated by a checkpoint: nothing to replay
    criar_engine(f"sqlite:///{banco}").dispose()
    existente = tmp_path / "existente.db"
    conexao = sqlite3.connect(existente)  # a database in use, with its own log
    try:
        conexao.execute("PRAGMA journal_mode=WAL")
        conexao.execute("CREATE TABLE t (n INTEGER)")
        conexao.commit()
        criar_engine(f"sqlite:///{existente}").dispose()
    finally:
        conexao.close()


def test_o_motor_acha_o_diario_ao_lado_do_arquivo_a_que_o_link_leva(tmp_path: Path) -> None:
    """SQLite names the log after the file a symbolic link leads to: a ``multas.db`` that
    links to another disk's file, deleted there with its log left, was looked for beside the
    link, found no log, and the new database was read with the other one's."""
    alvo = tmp_path / "disco" / "multas.db"
    alvo.parent.mkdir()
    _diario_de_outro(alvo)
    banco = tmp_path / "dados" / "multas.db"
    banco.parent.mkdir()
    banco.symlink_to(alvo)  # the data folder's file, a link to the other disk
    with pytest.raises(BancoInacessivel, match=r"disco/multas\.db-wal"):
        criar_engine(f"sqlite:///{banco}")
    assert not alvo.exists()
