"""The database's folder at its edges (issue 37, item 3, second review): a password SQLAlchemy
takes with '#', '/' or '?' in it never reaches the terminal, and a ``banco mover``
interrupted (Ctrl+C) after renaming the old file puts it back."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from multas.servicos import pasta_de_dados
from multas.servicos.pasta_de_dados import descrever_banco


@pytest.mark.parametrize(
    "url",
    [
        "postgresql+psycopg://app:se#gredo@db:5432/multas",
        "postgresql+psycopg://app:se/gredo@db:5432/multas",
        "postgresql+psycopg://app:se?gredo@db:5432/multas?sslmode=require",
        "postgresql://db/multas?sslpassword=segredo",
    ],
)
def test_a_senha_com_cerquilha_barra_ou_interrogacao_nunca_e_mostrada(url: str) -> None:
    """SQLAlchemy reads these passwords whole (and connects with them); a URL parser ended
    the server's name at the '#', '/' or '?', saw no password, and the whole URL, password
    and all, was printed by every command ("Banco: ...")."""
    from sqlalchemy.engine import make_url

    assert "gredo" in str(make_url(url).password) or "sslpassword" in url
    descrito = descrever_banco(url)
    assert "gredo" not in descrito and "***" in descrito
    assert descrito.startswith(("postgresql+psycopg://app:***@db", "postgresql://db/multas"))


def test_banco_mover_interrompido_depois_de_renomear_devolve_o_antigo(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl+C while the move looks for programs holding the renamed file (``/proc``, slow on a
    busy machine) left the old file as ``*.movido`` and no database moved: the next command
    made an empty one in the user's folder, and 'banco mover' said the old one did not exist.
    The old file goes back under its name, and the interruption goes on."""
    antigo = tmp_path / "dados" / "multas.db"
    antigo.parent.mkdir()
    with sqlite3.connect(antigo) as conexao:
        conexao.execute("PRAGMA journal_mode=WAL")
        conexao.execute("CREATE TABLE casos (n INTEGER)")
        conexao.execute("INSERT INTO casos VALUES (1)")
    conexao.close()
    novo = tmp_path / "usuario" / "multas.db"

    def interrompido(arquivo: Path) -> bool:
        if arquivo.name.endswith(pasta_de_dados.SUFIXO_MOVIDO):
            raise KeyboardInterrupt
        return False

    monkeypatch.setattr(pasta_de_dados, "_aberto_por_outro_processo", interrompido)
    with pytest.raises(KeyboardInterrupt):
        pasta_de_dados.mover_banco(antigo, novo)
    assert sorted(p.name for p in antigo.parent.iterdir()) == ["multas.db"]
    assert sorted(p.name for p in novo.parent.iterdir()) == []
    with sqlite3.connect(antigo) as conexao:
        assert conexao.execute("SELECT n FROM casos").fetchall() == [(1,)]
    conexao.close()


def test_um_companheiro_que_nao_se_renomeia_devolve_os_ja_renomeados(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The old file was renamed, then its ``-shm`` could not be (a disk error): the file
    stayed ``*.movido`` with the error said as "nada foi movido". Now it goes back."""
    antigo = tmp_path / "multas.db"
    antigo.write_bytes(b"banco")
    antigo.with_name("multas.db-shm").write_bytes(b"memoria")
    renomear = pasta_de_dados._renomear_sem_substituir

    def falha_no_shm(origem: Path, destino: Path) -> None:
        if origem.name.endswith("-shm"):
            raise OSError(5, "Input/output error")
        renomear(origem, destino)

    monkeypatch.setattr(pasta_de_dados, "_renomear_sem_substituir", falha_no_shm)
    with pytest.raises(OSError, match="Input/output"):
        pasta_de_dados._guardar(antigo)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["multas.db", "multas.db-shm"]
    assert antigo.read_bytes() == b"banco"


def test_banco_aceita_a_pasta_com_dois_pontos_no_nome(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--banco backup:2024/multas.db`` (a folder named so, as Linux allows) was refused as a
    broken URL ("banco inválido"); a URL typed wrong (``postgresql:/x``, ``sqlite:m.db``,
    no such folder) still is."""
    from multas.servicos.pasta_de_dados import url_de_caminho

    monkeypatch.chdir(tmp_path)
    (tmp_path / "backup:2024").mkdir()
    assert url_de_caminho("backup:2024/multas.db") == (
        f"sqlite:///{tmp_path}/backup:2024/multas.db"
    )
    for errado in ("postgresql:/u:segredo@h", "sqlite:m.db", "backup:2025/multas.db"):
        with pytest.raises(ValueError, match="banco inválido"):
            url_de_caminho(errado)


def test_um_banco_mover_morto_no_meio_e_dito_e_nao_escondido(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A ``banco mover`` killed (the machine turned off) between renaming the old file and
    linking its copy left only ``dados/multas.db.movido``: the next command silently made an
    empty database in the user's folder, and 'banco mover' said only that the old file did
    not exist. Both now name the ``*.movido`` and how to finish the move."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr(pasta_de_dados, "_AVISADOS", set())
    monkeypatch.chdir(tmp_path)
    guardado = tmp_path / "dados" / "multas.db.movido"
    guardado.parent.mkdir()
    guardado.write_bytes(b"SQLite format 3\x00")
    with caplog.at_level("WARNING", logger="multas"):
        assert pasta_de_dados.banco_padrao() == pasta_de_dados.arquivo_padrao()
    assert "multas.db.movido" in caplog.text and "renomeie-o de volta" in caplog.text
    with pytest.raises(pasta_de_dados.NaoMovido, match="renomeie-o de volta") as erro:
        pasta_de_dados.mover_para_a_pasta(tmp_path / "dados" / "multas.db")
    assert "interrompido" in str(erro.value)


def test_o_banco_antigo_trancado_diz_como_seguir_sem_esperar(tmp_path: Path) -> None:
    """A lock that never ends (a database browser left in a transaction, a network share
    whose locks are broken) stopped every command in that folder, saying only "espere": the
    message now says how to go on (close that program, or another database)."""
    erro = pasta_de_dados.BancoAntigoTrancado(tmp_path / "dados" / "multas.db")
    assert "--banco" in str(erro) and "MULTAS_DATABASE_URL" in str(erro)
    assert "nada foi feito" in str(erro)


def test_o_banco_relativo_e_dito_pelo_caminho_inteiro(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``MULTAS_DATABASE_URL=sqlite:///dados/multas.db`` was named "Banco: dados/multas.db":
    which folder's, the very doubt the line is there to end. It is the whole path now."""
    monkeypatch.chdir(tmp_path)
    assert descrever_banco("sqlite:///dados/multas.db") == str(tmp_path / "dados" / "multas.db")
    assert descrever_banco("sqlite:///dados/a%20b.db?mode=ro") == str(tmp_path / "dados" / "a b.db")
    assert descrever_banco("sqlite:///:memory:") == ":memory:"
    assert descrever_banco("sqlite:///") == ":memory:"


@pytest.mark.parametrize(
    ("erro", "motivo"),
    [
        (PermissionError(13, "Permission denied"), "sem permissão de escrita"),
        (OSError(30, "Read-only file system"), "disco só de leitura"),
        (sqlite3.OperationalError("attempt to write a readonly database"), "só de leitura"),
    ],
)
def test_banco_mover_numa_pasta_so_de_leitura_diz_por_que_em_portugues(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, erro: Exception, motivo: str
) -> None:
    """A folder the user cannot write to: the move said "([Errno 13] Permission denied:
    '/…/multas.db')", the system's English, in the middle of a pt-BR sentence."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    antigo = tmp_path / "dados" / "multas.db"
    antigo.parent.mkdir()
    with sqlite3.connect(antigo) as conexao:
        conexao.execute("CREATE TABLE casos (n INTEGER)")
    conexao.close()

    def recusa(*_args: object) -> None:
        raise erro

    monkeypatch.setattr(pasta_de_dados, "mover_banco", recusa)
    with pytest.raises(pasta_de_dados.NaoMovido) as recusado:
        pasta_de_dados.mover_para_a_pasta(antigo)
    assert motivo in str(recusado.value) and "nada foi movido" in str(recusado.value)
    assert "Errno" not in str(recusado.value) and "attempt" not in str(recusado.value)


def test_banco_mover_para_uma_pasta_de_dados_sem_links(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A data folder on a file system without hard links (FAT, some network homes): the copy
    was put in place by a hard link only, so the move always failed there, saying "sem
    permissão". It is renamed in place, never over a database already there."""
    antigo = tmp_path / "dados" / "multas.db"
    antigo.parent.mkdir()
    with sqlite3.connect(antigo) as conexao:
        conexao.execute("CREATE TABLE casos (n INTEGER)")
        conexao.execute("INSERT INTO casos VALUES (5)")
    conexao.close()

    def sem_links(*_args: object, **_kwargs: object) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(pasta_de_dados.os, "link", sem_links)
    novo = tmp_path / "usuario" / "multas.db"
    assert pasta_de_dados.mover_banco(antigo, novo) == antigo.with_name("multas.db.movido")
    with sqlite3.connect(novo) as conexao:
        assert conexao.execute("SELECT n FROM casos").fetchall() == [(5,)]
    conexao.close()
    assert sorted(p.name for p in novo.parent.iterdir()) == ["multas.db"]


def test_o_banco_com_driver_ou_uri_do_sqlite_e_dito_pelo_arquivo(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``sqlite+pysqlite:///…`` and ``sqlite:///file:…?mode=ro&uri=true`` were named by
    their URL, escapes and all ("Banco: sqlite+pysqlite:////tmp/a%25b/multas.db"), not by
    the file they open."""
    monkeypatch.chdir(tmp_path)
    assert descrever_banco("sqlite+pysqlite:////tmp/a%25b/multas.db") == "/tmp/a%b/multas.db"
    assert descrever_banco("sqlite:///file:/tmp/x%20y.db?mode=ro&uri=true") == "/tmp/x y.db"
    assert descrever_banco("sqlite:///file:dados/m.db?uri=true") == str(tmp_path / "dados/m.db")


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="Linux's /proc")
def test_o_proprio_processo_nao_e_outro_programa_em_outro_espaco_de_pids(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a container whose /proc numbers processes otherwise than os.getpid() (another PID
    namespace's /proc), the move's own open file was "another program's": every move was
    refused. The process is known by /proc/self too."""
    arquivo = tmp_path / "multas.db"
    arquivo.write_bytes(b"banco")
    monkeypatch.setattr(pasta_de_dados.os, "getpid", lambda: 999_999_999)
    with open(arquivo, "rb"):
        assert not pasta_de_dados._aberto_por_outro_processo(arquivo)
