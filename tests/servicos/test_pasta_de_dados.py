"""One database per user (issue 37, item 3): the default is the user's data folder's, whatever
the current folder; ``--banco`` takes a plain path; a writing command names its database on
the error output (without a password); an old ``dados/multas.db`` is pointed to where it is,
and moved only by ``multas banco mover`` (nothing lost): a folder someone else gave never
becomes the user's database by itself."""

from __future__ import annotations

import json
import logging
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from multas.principal import cli
from multas.servicos import pasta_de_dados
from multas.servicos.pasta_de_dados import (
    banco_padrao,
    descrever_banco,
    url_de_caminho,
)

PROCESSO = json.dumps(
    {
        "tipo": "renovabio.lista",
        "cnpj": "12.345.678/0001-95",
        "eventos": [{"evento": "fim_prazo_meta", "data": "2025-12-31"}],
    }
)


@pytest.fixture
def usuario(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A user's data folder (XDG_DATA_HOME) and a current folder, both temporary."""
    xdg = tmp_path / "xdg"
    monkeypatch.setenv("XDG_DATA_HOME", str(xdg))
    monkeypatch.delenv("MULTAS_DATABASE_URL", raising=False)
    atual = tmp_path / "projeto"
    atual.mkdir()
    monkeypatch.chdir(atual)
    monkeypatch.setattr(pasta_de_dados, "_AVISADOS", set())
    return xdg / "multas" / "multas.db"


def _banco_antigo(arquivo: Path, linhas: int) -> sqlite3.Connection:
    """A SQLite database in WAL mode whose rows are still in its log, not in the file (while
    the connection returned stays open)."""
    arquivo.parent.mkdir(parents=True, exist_ok=True)
    conexao = sqlite3.connect(arquivo)
    conexao.execute("PRAGMA journal_mode=WAL")
    conexao.execute("PRAGMA wal_autocheckpoint=0")
    conexao.execute("CREATE TABLE casos (n INTEGER)")  # multas's table: what a move looks for
    conexao.executemany("INSERT INTO casos VALUES (?)", [(n,) for n in range(linhas)])
    conexao.commit()
    return conexao


def _contar(arquivo: Path) -> int:
    with sqlite3.connect(arquivo) as conexao:
        return int(conexao.execute("SELECT count(*) FROM casos").fetchone()[0])


def test_o_padrao_e_a_pasta_do_usuario_de_qualquer_pasta(
    usuario: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from multas.servicos.persistencia import url_padrao

    assert url_padrao() == f"sqlite:///{usuario}"
    outra = tmp_path / "outra"
    outra.mkdir()
    monkeypatch.chdir(outra)
    assert url_padrao() == f"sqlite:///{usuario}"
    assert not usuario.exists()  # naming it creates nothing
    monkeypatch.setenv("MULTAS_DATABASE_URL", "postgresql://u:s@127.0.0.1/multas")
    assert url_padrao() == "postgresql://u:s@127.0.0.1/multas"


def test_sem_banco_antigo_nada_e_movido_nem_dito(
    usuario: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="multas"):
        assert banco_padrao() == usuario
    assert caplog.text == ""
    assert not usuario.exists() and not Path("dados").exists()


def test_o_banco_antigo_e_apontado_onde_esta_e_nunca_tomado_sozinho(
    usuario: Path, caplog: pytest.LogCaptureFixture, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Someone else's folder (an unzipped project with its users and tokens) is used while
    there, with a message, and never becomes the user's own database: no command moves it."""
    antigo = Path.cwd() / "dados" / "multas.db"
    criado = CliRunner().invoke(cli, ["processo", "criar", "-", "--banco", str(antigo)], PROCESSO)
    assert criado.exit_code == 0, criado.output  # an old multas database, with its tables
    pasta_de_dados._AVISADOS.clear()
    antes = antigo.read_bytes()
    with caplog.at_level(logging.WARNING, logger="multas"):
        assert banco_padrao() == antigo
        assert banco_padrao() == antigo
    assert caplog.text.count("usando o banco antigo") == 1  # once per process
    assert "multas banco mover" in caplog.text
    runner = CliRunner()
    lido = runner.invoke(cli, ["usuarios", "listar"])
    assert lido.exit_code == 0, lido.output
    gravado = runner.invoke(cli, ["processo", "criar", "-", "-f", "json"], PROCESSO)
    assert gravado.exit_code == 0, gravado.output
    assert gravado.stderr.endswith(f"Banco: {antigo}\n")
    assert not usuario.exists() and antigo.exists()
    assert not antigo.with_name("multas.db.movido").exists()
    assert antigo.read_bytes() != antes  # the write went where the message said
    outra = tmp_path / "outra"
    outra.mkdir()
    monkeypatch.chdir(outra)  # elsewhere, the user's own (still none): nothing was adopted
    assert banco_padrao() == usuario and not usuario.exists()


def _banco_antigo_com_log(arquivo: Path, linhas: int) -> None:
    """A database left as a program that stopped without closing it leaves it: rows only in
    its WAL log (copied while the connection that wrote them was open), no one holding it."""
    escrito = arquivo.with_name("escrevendo.db")
    aberta = _banco_antigo(escrito, linhas)
    try:
        for sufixo in ("", "-wal"):
            shutil.copyfile(f"{escrito}{sufixo}", f"{arquivo}{sufixo}")
    finally:
        aberta.close()
    assert arquivo.with_name("multas.db-wal").stat().st_size > 0


def test_banco_mover_leva_o_antigo_inteiro_e_o_arquivo_fica_como_copia(usuario: Path) -> None:
    antigo = Path.cwd() / "dados" / "multas.db"
    _banco_antigo_com_log(antigo, 5)
    r = CliRunner().invoke(cli, ["banco", "mover"])
    assert r.exit_code == 0, r.output
    assert _contar(usuario) == 5  # the rows still in the log came too
    assert not antigo.exists()
    guardado = antigo.with_name("multas.db.movido")
    assert _contar(guardado) == 5  # nothing lost: the old file, renamed, whole
    assert f"foi movido para {usuario}" in r.stdout and str(guardado) in r.stdout
    assert banco_padrao() == usuario
    # a second move finds the user's database there and moves nothing
    _banco_antigo(antigo, 1).close()
    r = CliRunner().invoke(cli, ["banco", "mover", str(antigo)])
    assert r.exit_code == 1
    assert "já tem um banco" in r.stderr and _contar(usuario) == 5 and _contar(antigo) == 1


def test_com_banco_na_pasta_do_usuario_o_antigo_fica_e_e_apontado(
    usuario: Path, caplog: pytest.LogCaptureFixture
) -> None:
    usuario.parent.mkdir(parents=True)
    sqlite3.connect(usuario).close()
    antigo = Path.cwd() / "dados" / "multas.db"
    _banco_antigo(antigo, 2).close()
    with caplog.at_level(logging.WARNING, logger="multas"):
        assert banco_padrao() == usuario
    assert _contar(antigo) == 2  # untouched
    assert f"--banco {antigo}" in caplog.text


def test_banco_aceita_um_caminho_e_nunca_mostra_a_senha(usuario: Path) -> None:
    assert url_de_caminho("rel/m.db") == f"sqlite:///{Path.cwd() / 'rel' / 'm.db'}"
    assert url_de_caminho(" sqlite:///x.db ") == "sqlite:///x.db"
    for ruim in ("", "   ", "postgresql:/u:segredo@h/b"):
        with pytest.raises(ValueError, match="banco inválido") as erro:
            url_de_caminho(ruim)
        assert "segredo" not in str(erro.value)
    mostrado = descrever_banco("postgresql+psycopg://app:s3gr3d0@db:5432/multas")
    assert mostrado == "postgresql+psycopg://app:***@db:5432/multas"
    assert descrever_banco("postgresql://db/multas") == "postgresql://db/multas"


def test_o_comando_que_grava_diz_o_banco_e_o_que_so_le_nao(usuario: Path) -> None:
    runner = CliRunner()
    r = runner.invoke(cli, ["processo", "criar", "-", "-f", "json"], PROCESSO)
    assert r.exit_code == 0, r.output
    assert r.stderr == f"Banco: {usuario}\n"
    assert json.loads(r.stdout)["processo_id"] == 1
    lido = runner.invoke(cli, ["processo", "listar", "-f", "json"])
    assert lido.exit_code == 0 and lido.stderr == ""
    assert len(json.loads(lido.stdout)) == 1
    # --banco: a plain path, relative to the current folder, made absolute
    r = runner.invoke(cli, ["processo", "criar", "-", "--banco", "outro.db"], PROCESSO)
    assert r.exit_code == 0, r.output
    assert r.stderr == f"Banco: {Path.cwd() / 'outro.db'}\n"
    assert (Path.cwd() / "outro.db").is_file()


def test_banco_invalido_e_erro_de_argumento_em_portugues(usuario: Path) -> None:
    r = CliRunner().invoke(cli, ["processo", "listar", "--banco", "postgresql:/u:segredo@h"])
    assert r.exit_code == 2
    assert "banco inválido" in r.stderr and "segredo" not in r.stderr


def test_um_dados_multas_db_que_nao_e_sqlite_nao_e_usado_nem_movido(
    usuario: Path, caplog: pytest.LogCaptureFixture
) -> None:
    antigo = Path("dados/multas.db")
    antigo.parent.mkdir()
    antigo.write_text("x")
    with caplog.at_level(logging.WARNING, logger="multas"):
        assert banco_padrao() == usuario
    assert antigo.read_text() == "x" and "não é um banco SQLite" in caplog.text
    r = CliRunner().invoke(cli, ["banco", "mover"])
    assert r.exit_code == 1 and "não é um banco SQLite" in r.stderr
    assert antigo.read_text() == "x" and not usuario.exists()
    r = CliRunner().invoke(cli, ["banco", "mover", "nenhum.db"])
    assert r.exit_code == 1 and "não existe" in r.stderr


def test_um_banco_antigo_que_nao_pode_ser_movido_fica_onde_esta(
    usuario: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _banco_antigo(Path("dados/multas.db"), 3).close()

    def falha(*_: object) -> None:
        raise sqlite3.OperationalError("unable to open database file")

    monkeypatch.setattr(pasta_de_dados, "mover_banco", falha)
    r = CliRunner().invoke(cli, ["banco", "mover"])
    assert r.exit_code == 1 and "não pôde ser movido" in r.stderr
    assert _contar(Path("dados/multas.db")) == 3 and not usuario.exists()


def test_dois_comandos_movendo_ao_mesmo_tempo_nao_trocam_o_banco_de_baixo(usuario: Path) -> None:
    """The second copy never replaces the first one (which a command may already use)."""
    _banco_antigo(Path("dados/multas.db"), 5).close()
    usuario.parent.mkdir(parents=True)
    usuario.write_bytes(b"")  # the other command's database, already in place
    assert pasta_de_dados.mover_banco(Path("dados/multas.db"), usuario) is None
    assert usuario.read_bytes() == b"" and Path("dados/multas.db").exists()
    assert not list(usuario.parent.glob("*.parcial"))


def test_a_senha_na_consulta_da_url_tambem_e_escondida() -> None:
    assert "segredo" not in descrever_banco("postgresql:///b?host=h&password=segredo")
    assert "segredo" not in descrever_banco("postgresql://u@h/b?PASSWORD=segredo&x=1")


@pytest.mark.parametrize("caminho", ["clientes?2024.db", "x%20y.db", "50%/m.db", "a#b.db"])
def test_um_caminho_com_interrogacao_ou_por_cento_e_o_proprio_arquivo(
    usuario: Path, caminho: str
) -> None:
    """SQLAlchemy reads a URL's path with its escapes undone and cuts it at a ``?``: such a
    path was refused by ``--banco``; now it is escaped, and names its own file."""
    from sqlalchemy.engine import make_url

    url = url_de_caminho(caminho)
    assert make_url(url).database == str(Path.cwd() / caminho)
    assert descrever_banco(url) == str(Path.cwd() / caminho)


def test_a_pasta_com_por_cento_no_nome_usa_o_seu_proprio_banco(
    usuario: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A project folder named ``Relatório%20A``: its database went, silently, into a new
    folder ``Relatório A`` beside it (SQLAlchemy undid the escape), and the old
    ``dados/multas.db`` there was never the one used."""
    pasta = Path.cwd() / "Relatório%20A"
    pasta.mkdir()
    monkeypatch.chdir(pasta)
    runner = CliRunner()
    r = runner.invoke(cli, ["processo", "criar", "-", "--banco", "dados/multas.db"], PROCESSO)
    assert r.exit_code == 0, r.output
    assert r.stderr == f"Banco: {pasta / 'dados' / 'multas.db'}\n"
    assert (pasta / "dados" / "multas.db").is_file()
    assert not (pasta.parent / "Relatório A").exists()
    lido = runner.invoke(cli, ["processo", "listar", "-f", "json"])  # the old default, there
    assert lido.exit_code == 0 and len(json.loads(lido.stdout)) == 1, lido.output


def test_banco_mover_recusa_um_banco_aberto_por_um_servidor(usuario: Path) -> None:
    """A server still running on the old file went on answering 201 after the move, writing
    into ``multas.db.movido``: each case saved after the copy was missing from the moved
    database (found by a hostile review). Refused, nothing changes; once stopped, it moves."""
    from multas.servidor import criar_app

    antigo = Path.cwd() / "dados" / "multas.db"
    antigo.parent.mkdir()
    caso = {"regime": "anp.infracao", "inciso": "IX"}
    with TestClient(criar_app(f"sqlite:///{antigo}"), raise_server_exceptions=False) as c:
        assert c.post("/api/v1/casos", json=caso).status_code == 201
        r = CliRunner().invoke(cli, ["banco", "mover"])
        assert r.exit_code == 1, r.output
        assert "está aberto por outro programa" in r.stderr and "nada foi movido" in r.stderr
        assert not usuario.exists() and not antigo.with_name("multas.db.movido").exists()
        assert not list(usuario.parent.glob("*.parcial"))
        assert c.post("/api/v1/casos", json=caso).status_code == 201
    r = CliRunner().invoke(cli, ["banco", "mover"])
    assert r.exit_code == 0, r.output
    with closing(sqlite3.connect(usuario)) as movido:
        assert movido.execute("SELECT count(*) FROM casos").fetchone() == (2,)


def test_banco_mover_nunca_substitui_a_copia_de_uma_mudanca_anterior(usuario: Path) -> None:
    """A second move from the same folder renamed the new old file onto the first move's
    ``multas.db.movido``, which was silently replaced (found by a hostile review)."""
    antigo = Path("dados/multas.db")
    _banco_antigo(antigo, 5).close()
    assert CliRunner().invoke(cli, ["banco", "mover"]).exit_code == 0
    usuario.rename(usuario.with_name("posto-de-lado.db"))  # the user sets the moved one aside
    _banco_antigo(antigo, 1).close()
    r = CliRunner().invoke(cli, ["banco", "mover"])
    assert r.exit_code == 1, r.output
    assert "já existe" in r.stderr and "multas.db.movido" in r.stderr
    assert _contar(antigo.with_name("multas.db.movido")) == 5 and _contar(antigo) == 1
    assert not usuario.exists()


def test_banco_mover_nao_renomeia_o_banco_sqlite_de_outro_programa(usuario: Path) -> None:
    """A path typed by mistake (another application's SQLite database) was copied in as the
    user's multas database and renamed ``*.movido`` from under its application (found by a
    hostile review)."""
    outro = Path("historico.sqlite")
    with closing(sqlite3.connect(outro)) as conexao:
        conexao.execute("CREATE TABLE paginas (url TEXT)")
        conexao.commit()
    r = CliRunner().invoke(cli, ["banco", "mover", str(outro)])
    assert r.exit_code == 1, r.output
    assert "não do multas" in r.stderr and "nada foi movido" in r.stderr
    assert outro.exists() and not Path("historico.sqlite.movido").exists()
    assert not usuario.exists()


def test_so_um_trinco_e_dito_aberto_por_outro_programa() -> None:
    """An error of the exclusive lock that is not a lock (a read-only file) is not "open by
    another program": it goes on to the move's own "could not be moved" with its reason."""

    class Conexao:
        def __init__(self, codigo: int) -> None:
            self.codigo = codigo

        def execute(self, sql: str) -> None:
            if sql.startswith("BEGIN"):
                erro = sqlite3.OperationalError("x")
                erro.sqlite_errorcode = self.codigo
                raise erro

    so_esta = pasta_de_dados._so_esta_conexao
    with pytest.raises(pasta_de_dados.NaoMovido, match="aberto por outro programa"):
        so_esta(Conexao(sqlite3.SQLITE_BUSY), Path("m.db"))  # type: ignore[arg-type]
    with pytest.raises(sqlite3.OperationalError):
        so_esta(Conexao(sqlite3.SQLITE_READONLY), Path("m.db"))  # type: ignore[arg-type]


def test_um_dados_multas_db_que_leva_ao_banco_de_outro_programa_nao_e_usado(
    usuario: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A folder someone gave with ``dados/multas.db`` linking to another application's SQLite
    database (at a path every machine has): a command there used it as its database, switched
    it to WAL and created multas's tables in it (found by a hostile review)."""
    outro = tmp_path / "History"
    with closing(sqlite3.connect(outro)) as conexao:
        conexao.execute("CREATE TABLE urls (url TEXT)")
        conexao.commit()
    antes = outro.read_bytes()
    Path("dados").mkdir()
    Path("dados/multas.db").symlink_to(outro)
    with caplog.at_level(logging.WARNING, logger="multas"):
        assert banco_padrao() == usuario
    assert "não é um banco do multas" in caplog.text
    r = CliRunner().invoke(cli, ["processo", "criar", "-", "-f", "json"], PROCESSO)
    assert r.exit_code == 0, r.output
    assert r.stderr.endswith(f"Banco: {usuario}\n")
    assert outro.read_bytes() == antes  # untouched


def test_banco_mover_recusa_a_pasta_com_o_diario_de_um_banco_apagado(usuario: Path) -> None:
    """The user's database deleted and its WAL left (a crash, an rm while the server ran): the
    moved file, linked beside that log, was read with it, the deleted database's rows instead
    of its own (found by a hostile review)."""
    _banco_antigo_com_log(usuario, 50)
    usuario.unlink()  # its multas.db-wal stays
    _banco_antigo(Path("dados/multas.db"), 3).close()
    r = CliRunner().invoke(cli, ["banco", "mover"])
    assert r.exit_code == 1, r.output
    assert "multas.db-wal" in r.stderr and "nada foi movido" in r.stderr
    assert not usuario.exists() and _contar(Path("dados/multas.db")) == 3


def test_um_caminho_com_controles_aparece_escapado_no_terminal(
    usuario: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder someone else named (an unzipped project) cannot run a terminal's control
    sequence through the warning or through ``banco mover``'s line."""
    hostil = Path.cwd() / "p\x1b]0;x\x07\u202e"
    _banco_antigo(hostil / "dados" / "multas.db", 1).close()
    monkeypatch.chdir(hostil)
    with caplog.at_level(logging.WARNING, logger="multas"):
        banco_padrao()
    r = CliRunner().invoke(cli, ["banco", "mover"])
    assert r.exit_code == 0, r.output
    for texto in (caplog.text, r.stdout):
        assert "\x1b" not in texto and "\u202e" not in texto and "\x07" not in texto
        assert "p\\x1b]0;x\\x07\\u202e" in texto


def test_banco_mover_segura_o_banco_ate_renomea_lo(
    usuario: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The exclusive lock was released before the renames: a server starting in between opened
    the old file and went on writing into it once renamed ``*.movido`` (§ 8 of stop 53). Now
    SQLite refuses it ("database is locked") until the move is done, and no log is left."""
    antigo = Path.cwd() / "dados" / "multas.db"
    _banco_antigo_com_log(antigo, 4)
    tentativas: list[str] = []
    guardar = pasta_de_dados._guardar

    def abrir_e_guardar(arquivo: Path) -> Path:
        try:  # a server starting between the copy and the renames
            with closing(sqlite3.connect(antigo, timeout=0)) as tarde:
                tarde.execute("SELECT count(*) FROM casos").fetchone()
            tentativas.append("aberto")
        except sqlite3.OperationalError as erro:
            tentativas.append(str(erro))
        return guardar(arquivo)

    monkeypatch.setattr(pasta_de_dados, "_guardar", abrir_e_guardar)
    r = CliRunner().invoke(cli, ["banco", "mover"])
    assert r.exit_code == 0, r.output
    assert tentativas == ["database is locked"]
    guardado = antigo.with_name("multas.db.movido")
    assert _contar(usuario) == 4 and _contar(guardado) == 4
    assert sorted(p.name for p in antigo.parent.glob("multas.db*")) == ["multas.db.movido"]


@pytest.mark.subprocesso  # another process holds the file
@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="só o Linux mostra /proc")
def test_banco_mover_recusa_um_banco_sem_wal_aberto_por_outro_processo(usuario: Path) -> None:
    """A database in rollback-journal mode (another tool's, never opened by multas) held by
    an idle connection has no lock to see: it was moved, and that program's later writes went
    into ``*.movido`` (§ 8 of stop 53). Its open file is seen (Linux) and nothing is moved."""
    import subprocess
    import sys

    antigo = Path.cwd() / "dados" / "multas.db"
    antigo.parent.mkdir()
    with closing(sqlite3.connect(antigo)) as conexao:
        conexao.execute("CREATE TABLE casos (n INTEGER)")
        conexao.commit()
    segurar = (
        "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
        "c.execute('SELECT count(*) FROM casos').fetchone(); print('pronto', flush=True); "
        "sys.stdin.read()"
    )
    with subprocess.Popen(
        [sys.executable, "-c", segurar, str(antigo)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as outro:
        assert outro.stdout is not None and outro.stdout.readline() == "pronto\n"
        r = CliRunner().invoke(cli, ["banco", "mover"])
        outro.communicate("")
    assert r.exit_code == 1, r.output
    assert "está aberto por outro programa" in r.stderr and "nada foi movido" in r.stderr
    assert antigo.exists() and not usuario.exists()
    assert not antigo.with_name("multas.db.movido").exists()


def test_banco_mover_onde_um_arquivo_aberto_nao_se_renomeia(
    usuario: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Windows cannot rename an open file: there the old file is renamed once closed."""
    monkeypatch.setattr(pasta_de_dados, "RENOMEIA_ABERTO", False)
    antigo = Path.cwd() / "dados" / "multas.db"
    _banco_antigo_com_log(antigo, 2)
    r = CliRunner().invoke(cli, ["banco", "mover"])
    assert r.exit_code == 0, r.output
    assert _contar(usuario) == 2 and _contar(antigo.with_name("multas.db.movido")) == 2
    assert not antigo.exists()


@pytest.mark.subprocesso  # another process opens the file
@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="só o Linux mostra /proc")
def test_banco_mover_recusa_um_programa_que_abriu_o_banco_durante_a_copia(
    usuario: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server starting during the copy opens the old file and waits for the lock: once the
    move let go it wrote into the file renamed ``*.movido``, with its log beside the old name.
    The file is looked at once renamed (nobody opens it by its name then): the old file is
    put back and nothing is moved."""
    import subprocess
    import sys

    antigo = Path.cwd() / "dados" / "multas.db"
    _banco_antigo_com_log(antigo, 3)
    segurar = (
        "import sys; f = open(sys.argv[1], 'rb'); print('pronto', flush=True); sys.stdin.read()"
    )
    outros: list[subprocess.Popen[str]] = []
    sozinho = pasta_de_dados._so_esta_conexao

    def sozinho_e_depois_um_servidor(conexao: sqlite3.Connection, arquivo: Path) -> None:
        sozinho(conexao, arquivo)  # no one else yet; then a server starts during the copy
        outro = subprocess.Popen(
            [sys.executable, "-c", segurar, str(arquivo)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        outros.append(outro)
        assert outro.stdout is not None and outro.stdout.readline() == "pronto\n"

    monkeypatch.setattr(pasta_de_dados, "_so_esta_conexao", sozinho_e_depois_um_servidor)
    try:
        r = CliRunner().invoke(cli, ["banco", "mover"])
    finally:
        for outro in outros:
            outro.communicate("")
    assert r.exit_code == 1, r.output
    assert "está aberto por outro programa" in r.stderr and "nada foi movido" in r.stderr
    assert _contar(antigo) == 3 and not usuario.exists()
    assert sorted(p.name for p in antigo.parent.glob("multas.db*")) == ["multas.db"]


def test_banco_mover_onde_o_arquivo_aberto_nao_se_renomeia_devolve_a_copia(
    usuario: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Windows: a program that opened the old file after the lock was let go makes its rename
    fail; the copy was left in the user's folder (two databases, the error saying none was
    moved). The copy is taken back: nothing moved, the old file where it was."""
    monkeypatch.setattr(pasta_de_dados, "RENOMEIA_ABERTO", False)
    antigo = Path.cwd() / "dados" / "multas.db"
    _banco_antigo_com_log(antigo, 2)

    def aberto_por_outro(_arquivo: Path) -> Path:
        raise PermissionError(13, "O arquivo já está sendo usado por outro processo")

    monkeypatch.setattr(pasta_de_dados, "_guardar", aberto_por_outro)
    r = CliRunner().invoke(cli, ["banco", "mover"])
    assert r.exit_code == 1, r.output
    assert "está aberto por outro programa" in r.stderr and "nada foi movido" in r.stderr
    assert _contar(antigo) == 2 and not usuario.exists()


def test_banco_mover_nunca_substitui_a_copia_que_outro_fez_durante_a_mudanca(
    usuario: Path,
) -> None:
    """Another ``banco mover`` running at once renames its file to ``*.movido`` after this one
    looked: the rename replaced that copy (the only one left of it). Now nothing is replaced:
    the files go back, and nothing is moved. The folder's odd name reaches SQLite whole."""
    antigo = Path.cwd() / "pasta #1 %41 ?é" / "multas.db"
    _banco_antigo(antigo, 3).close()
    copia = antigo.with_name("multas.db.movido")
    copia.write_bytes(b"a copia do outro comando")
    with pytest.raises(pasta_de_dados.NaoMovido, match="já existe"):
        pasta_de_dados.mover_banco(antigo, usuario)
    assert copia.read_bytes() == b"a copia do outro comando"
    assert _contar(antigo) == 3 and not usuario.exists()


def test_banco_mover_nao_recria_vazio_o_banco_que_outro_ja_renomeou(usuario: Path) -> None:
    """Of two ``banco mover`` at once, the second opened the old file after the first renamed
    it: SQLite made it again, empty, under the old name (a database of nothing that every
    command in that folder then warned about). Now it is an error, and no file is made."""
    antigo = Path.cwd() / "dados" / "multas.db"
    antigo.parent.mkdir()
    pasta_de_dados._tem_casos(antigo)
    assert not antigo.exists()
    with pytest.raises(sqlite3.OperationalError):
        pasta_de_dados.mover_banco(antigo, usuario)
    assert list(antigo.parent.iterdir()) == [] and not usuario.exists()


def test_um_comando_durante_a_mudanca_nao_cria_outro_banco_na_pasta_do_usuario(
    usuario: Path,
) -> None:
    """A command run in the folder while ``banco mover`` copies (and locks) its old database
    could not read it, said it was "não é um banco do multas", and made a new, empty one in
    the user's folder: the move then failed, and that empty database hid the old one from
    every command after. Now it says the old one is locked, and does nothing."""
    antigo = Path.cwd() / "dados" / "multas.db"
    _banco_antigo(antigo, 2).close()
    with closing(sqlite3.connect(antigo, isolation_level=None)) as mudanca:
        mudanca.execute("PRAGMA locking_mode=EXCLUSIVE")
        mudanca.execute("BEGIN EXCLUSIVE")  # the move's lock, held through the copy
        r = CliRunner().invoke(cli, ["processo", "criar", "-"], PROCESSO)
    assert r.exit_code == 1, r.output
    assert "está trancado por outro programa" in r.stderr and "nada foi feito" in r.stderr
    assert "não é um banco do multas" not in r.stderr and "Traceback" not in r.output
    assert not usuario.exists() and _contar(antigo) == 2


def test_renomear_sem_substituir_onde_nao_ha_links(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a file system without hard links (FAT, some network shares) the old file is still
    renamed, and never over a file already there."""
    from multas.servicos import pasta_de_dados

    def sem_links(*_args: object, **_kwargs: object) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(pasta_de_dados.os, "link", sem_links)
    origem, destino = tmp_path / "multas.db", tmp_path / "multas.db.movido"
    origem.write_bytes(b"um")
    pasta_de_dados._renomear_sem_substituir(origem, destino)
    assert not origem.exists() and destino.read_bytes() == b"um"
    origem.write_bytes(b"outro")
    with pytest.raises(FileExistsError):
        pasta_de_dados._renomear_sem_substituir(origem, destino)
    assert origem.read_bytes() == b"outro" and destino.read_bytes() == b"um"
