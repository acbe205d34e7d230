"""A database already at the last migration is recognised by one query, without loading
Alembic (issue 19: a lifecycle command that only reads starts faster); any other is
migrated."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from sqlalchemy import text

from multas.servicos.persistencia import Repositorio, ultima_migracao


def test_a_ultima_migracao_e_a_cabeca_do_alembic() -> None:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", "multas.servicos.persistencia:migracoes")
    assert ultima_migracao() == ScriptDirectory.from_config(config).get_current_head()


def test_banco_na_ultima_migracao_nao_carrega_o_alembic(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'm.db'}"
    Repositorio(url).migrar()  # a new database: migrated, Alembic loaded
    codigo = (
        "import sys; from multas.servicos.persistencia import Repositorio; "
        f"r = Repositorio({url!r}); r.migrar(); r.listar(); "
        "print('alembic' in sys.modules)"
    )
    saida = subprocess.run(
        [sys.executable, "-c", codigo], capture_output=True, text=True, check=True
    ).stdout
    assert saida.strip() == "False"


def test_banco_atrasado_e_migrado(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'm.db'}"
    Repositorio(url).migrar()
    repositorio = Repositorio(url)
    with repositorio.engine.begin() as conexao:  # as if the last migration had not run
        conexao.execute(text("UPDATE alembic_version SET version_num = 'r0005'"))
    assert not repositorio._na_ultima_migracao()
    with repositorio.engine.begin() as conexao:
        conexao.execute(
            text("UPDATE alembic_version SET version_num = :v"), {"v": ultima_migracao()}
        )
    assert repositorio._na_ultima_migracao()
    # a database with no version table is not at the last migration
    assert not Repositorio(f"sqlite:///{tmp_path / 'vazio.db'}")._na_ultima_migracao()
