"""Where the database is when no URL is given: **one data folder per user**, the same for every
command and the server wherever they start (platformdirs: ``~/.local/share/multas/multas.db`` on
Linux, ``~/Library/Application Support/multas/multas.db`` on macOS,
``%LOCALAPPDATA%\\multas\\multas.db`` on Windows; ``XDG_DATA_HOME`` moves it on Linux).

Before, the default was ``dados/multas.db`` under the folder a command ran in, so two folders
meant two databases. A database found there is **pointed to, never taken by itself**: when
the user's folder has no database yet, the old one is used where it is (as before), with a
message naming it and the command that moves it (``multas banco mover``); when the user's
folder has one, that one is used and a warning names the old one and how to open it
(``--banco dados/multas.db``). Moving is only ever asked for (:func:`mover_para_a_pasta`): a
folder someone else gave (an unzipped project with its ``dados/multas.db``, its users and
tokens) never becomes the user's own database without the user's word. The move copies the
database whole by SQLite's backup API (what its write-ahead log holds too), and the old file
is kept beside where it was, renamed ``multas.db.movido`` (nothing is lost).

Also here: ``--banco``'s plain path (:func:`url_de_caminho`) and the database as a command
names it on the error output, without a password (:func:`descrever_banco`). Nothing here
imports SQLAlchemy: a command that reads no database does not pay for it.
"""

from __future__ import annotations

import errno
import logging
import os
import re
import sqlite3
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote

from multas.nucleo.visivel import texto_visivel

__all__ = [
    "ANTIGO",
    "ARQUIVO",
    "BancoAntigoTrancado",
    "NaoMovido",
    "arquivo_padrao",
    "banco_padrao",
    "caminho_visivel",
    "descrever_banco",
    "mover_para_a_pasta",
    "pasta_de_dados",
    "url_de_caminho",
    "url_sqlite",
]

#: the application's name for platformdirs (the folder's name)
APLICACAO = "multas"
#: the database's file in that folder
ARQUIVO = "multas.db"
#: the old default, under the current folder
ANTIGO = Path("dados") / ARQUIVO
#: what the old file is renamed to once moved (kept: nothing is lost)
SUFIXO_MOVIDO = ".movido"
#: whether a file can be renamed while open (POSIX); on Windows it cannot
RENOMEIA_ABERTO = os.name != "nt"
#: SQLite's companion files of a database in WAL mode (each named after the database)
_COMPANHEIROS = ("", "-wal", "-shm")

_ESQUEMA = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://")
_SQLITE = re.compile(r"sqlite(?:\+\w+)?:///")
_SENHA_NA_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://[^:/]*:")
#: ``password=``, ``sslpassword=`` (libpq's key passphrase): any key that ends so
_SENHA_NA_CONSULTA = re.compile(r"((?:^|&)[A-Za-z_]*password=)[^&]*", re.IGNORECASE)
_ESQUEMA_QUEBRADO = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:(?!//)")
registro = logging.getLogger("multas")
_AVISADOS: set[Path] = set()


def caminho_visivel(caminho: str | os.PathLike[str]) -> str:
    """A path as a message shows it on a terminal: a control character, a separator or a bidi
    mark in a folder's name (one someone else named) written as a visible escape."""
    return texto_visivel(os.fspath(caminho)).replace("\n", "\\n")


def pasta_de_dados() -> Path:
    """The user's data folder for multas (not created here)."""
    import platformdirs

    return Path(platformdirs.user_data_dir(APLICACAO, appauthor=False))


def arquivo_padrao() -> Path:
    """The default database's file, in :func:`pasta_de_dados`."""
    return pasta_de_dados() / ARQUIVO


def url_sqlite(caminho: str | os.PathLike[str]) -> str:
    """The SQLite URL of a file, absolute (a relative path is taken from the current folder).
    A ``%`` or ``?`` in a folder's name is escaped: SQLAlchemy reads the URL's path with its
    escapes undone and cuts it at a ``?`` (another file would be used: ``Relatório%20A`` as
    ``Relatório A``, ``/tmp/Quem?/multas.db`` as ``/tmp/Quem``).

    >>> url_sqlite("/caminho/multas.db")
    'sqlite:////caminho/multas.db'
    >>> url_sqlite("/caminho/50%?/multas.db")
    'sqlite:////caminho/50%25%3F/multas.db'
    """
    absoluto = os.path.abspath(os.path.expanduser(os.fspath(caminho)))
    return "sqlite:///" + absoluto.replace("%", "%25").replace("?", "%3F")


def url_de_caminho(valor: str) -> str:
    """``--banco``: a URL as given, or a plain path (``/caminho/multas.db``,
    ``dados/multas.db``) as its absolute SQLite URL; empty, or a URL with a broken scheme
    (``postgresql:/x``), :class:`ValueError` in pt-BR (the value is never echoed: a URL may
    carry a password).

    >>> url_de_caminho("postgresql://u:s@h/b")
    'postgresql://u:s@h/b'
    >>> url_de_caminho("/caminho/multas.db")
    'sqlite:////caminho/multas.db'
    """
    valor = valor.strip()
    if _ESQUEMA.match(valor):
        return valor
    # ``postgresql:/x`` is a URL typed wrong, unless its first name is a folder that exists
    # (``backup:2024/multas.db``: ':' is a letter of a folder's name on Linux and macOS)
    quebrado = _ESQUEMA_QUEBRADO.match(valor) and not os.path.isdir(valor.partition("/")[0])
    if not valor or (quebrado and os.sep == "/"):
        raise ValueError(
            "banco inválido; use um caminho (/caminho/multas.db, ou ./pasta:com:dois-pontos/"
            "multas.db), sqlite:///caminho/multas.db ou "
            "postgresql+psycopg://usuario:senha@servidor:5432/banco"
        )
    return url_sqlite(valor)


def descrever_banco(url: str) -> str:
    """The database as a command names it: a SQLite file by its absolute path (a relative
    ``sqlite:///dados/multas.db`` is the current folder's), any other by its URL with the
    password masked.

    >>> descrever_banco("sqlite:////home/u/.local/share/multas/multas.db")
    '/home/u/.local/share/multas/multas.db'
    >>> descrever_banco("postgresql+psycopg://app:segredo@db:5432/multas")
    'postgresql+psycopg://app:***@db:5432/multas'
    >>> descrever_banco("postgresql:///b?host=h&password=segredo")
    'postgresql:///b?host=h&password=***'
    """
    sqlite = _SQLITE.match(url)
    if sqlite is not None:  # the file SQLAlchemy opens: its escapes undone
        base = unquote(url[sqlite.end() :].partition("?")[0])
        if base.startswith("file:"):  # SQLite's own URI (``?uri=true``): its path
            base = unquote(base.removeprefix("file:").removeprefix("//"))
        if not base or base == ":memory:":
            return ":memory:"
        return caminho_visivel(os.path.abspath(base))  # a relative one: the current folder's
    # the password as SQLAlchemy reads it: after the user's name and up to an '@', and it
    # may hold '/', '?' or '#' unescaped (a URL parser would end the server's name there and
    # see no password); everything up to the last '@' is masked (never too little)
    senha = _SENHA_NA_URL.match(url)
    if senha is not None and "@" in url[senha.end() :]:
        url = url[: senha.end()] + "***" + url[url.rindex("@") :]
    base, interrogacao, consulta = url.partition("?")
    if interrogacao:  # a password in the query (``?password=...``) is masked too
        url = base + "?" + _SENHA_NA_CONSULTA.sub(r"\1***", consulta)
    return url


def banco_padrao(pasta_atual: Path | None = None) -> Path:
    """The default database's file: the user's (:func:`arquivo_padrao`), or, while that does
    not exist, the current folder's old ``dados/multas.db`` **where it is** (a SQLite file of
    multas's, with its table of cases: pointed to, never moved; a message says so once per
    process, with how to move it)."""
    novo = arquivo_padrao()
    antigo = (pasta_atual or Path.cwd()) / ANTIGO
    if not antigo.is_file():
        aviso = _interrompido(antigo, novo)
        if aviso and antigo.resolve() not in _AVISADOS:
            _AVISADOS.add(antigo.resolve())
            registro.warning("Aviso: o banco usado é %s%s", caminho_visivel(novo), aviso)
        return novo
    if antigo.resolve() == novo.resolve():
        return novo
    avisar = antigo.resolve() not in _AVISADOS
    _AVISADOS.add(antigo.resolve())
    if novo.exists():
        if avisar:
            registro.warning(
                "Aviso: há um banco antigo em %s, que não é o usado (o padrão agora é %s); "
                "para abri-lo: --banco %s",
                caminho_visivel(antigo),
                caminho_visivel(novo),
                caminho_visivel(antigo),
            )
        return novo
    if not e_sqlite(antigo):
        if avisar:
            registro.warning(
                "Aviso: %s não é um banco SQLite; ficou onde está, e o banco usado é %s",
                caminho_visivel(antigo),
                caminho_visivel(novo),
            )
        return novo
    if not _tem_casos(antigo, na_duvida=False):  # another application's (a link to it)
        if avisar:
            registro.warning(
                "Aviso: %s não é um banco do multas (não tem a tabela de casos); ficou onde "
                "está, sem mudança, e o banco usado é %s",
                caminho_visivel(antigo),
                caminho_visivel(novo),
            )
        return novo
    if avisar:
        registro.warning(
            "Aviso: usando o banco antigo %s, desta pasta: a pasta de dados do usuário (%s) "
            "ainda não tem banco. Para que todo comando e o servidor usem este banco de "
            "qualquer pasta, mova-o para lá com: multas banco mover",
            caminho_visivel(antigo),
            caminho_visivel(novo.parent),
        )
    return antigo


def _interrompido(antigo: Path, novo: Path) -> str:
    """What to say when ``antigo`` is gone but its ``*.movido`` is there and ``novo`` is not:
    a ``banco mover`` killed (the machine turned off) between renaming the old file and
    putting its copy in the user's folder; nothing else leaves that (empty when not so)."""
    guardado = antigo.with_name(antigo.name + SUFIXO_MOVIDO)
    if not guardado.is_file() or novo.exists():
        return ""
    return (
        f"; há {caminho_visivel(guardado)} e a pasta de dados ainda não tem banco (um "
        f"'multas banco mover' interrompido?): para movê-lo, renomeie-o de volta para "
        f"{caminho_visivel(antigo)} e rode 'multas banco mover' de novo"
    )


class NaoMovido(Exception):
    """Why ``multas banco mover`` moved nothing (pt-BR, for the user)."""


def mover_para_a_pasta(antigo: Path) -> tuple[Path, Path]:
    """``multas banco mover``: the SQLite database ``antigo`` into the user's data folder
    (:func:`arquivo_padrao`), asked for by the user; returns ``(novo, guardado)``, where the
    old file now is (renamed ``*.movido``). :class:`NaoMovido` when there is no such file;
    it is not SQLite, or not multas's; another program has it open (a running server); the
    user's folder already has a database, or the WAL of a deleted one; or an earlier move's
    copy is where this one's would go (nothing is ever replaced)."""
    novo = arquivo_padrao()
    antigo = Path(os.path.abspath(antigo))
    if not antigo.is_file():
        raise NaoMovido(
            f"{caminho_visivel(antigo)} não existe ou não é um arquivo; nada foi movido"
            + _interrompido(antigo, novo)
        )
    if not e_sqlite(antigo):
        raise NaoMovido(f"{caminho_visivel(antigo)} não é um banco SQLite; nada foi movido")
    if not _tem_casos(antigo):  # another application's database: never renamed under it
        raise NaoMovido(
            f"{caminho_visivel(antigo)} é um banco SQLite, mas não do multas (não tem a tabela de casos); nada "
            "foi movido nem renomeado"
        )
    if novo.exists():
        raise NaoMovido(
            f"a pasta de dados do usuário já tem um banco ({caminho_visivel(novo)}); nada foi movido nem "
            f"misturado. Para abrir o outro: --banco {caminho_visivel(antigo)}"
        )
    diario = novo.with_name(novo.name + "-wal")
    if diario.exists():  # SQLite would replay it into the moved database: the old rows back
        raise NaoMovido(
            f"a pasta de dados tem {caminho_visivel(diario)}, o diário de um banco que não está mais lá; "
            "o banco movido seria lido com ele (e viraria o outro). Guarde-o em outro lugar "
            "(ou apague-o) e rode de novo; nada foi movido"
        )
    copia = antigo.with_name(antigo.name + SUFIXO_MOVIDO)
    if any(Path(f"{copia}{sufixo}").exists() for sufixo in _COMPANHEIROS):
        # the copy of an earlier move: renaming onto it would replace it (nothing is lost)
        raise NaoMovido(
            f"já existe {caminho_visivel(copia)}, a cópia de um banco movido antes, que seria substituída: "
            "renomeie-a ou apague-a e rode de novo; nada foi movido"
        )
    try:
        guardado = mover_banco(antigo, novo)
    except (sqlite3.Error, OSError) as erro:  # a read-only folder, a disk error
        raise NaoMovido(
            f"{caminho_visivel(antigo)} não pôde ser movido para {caminho_visivel(novo)} "
            f"({_motivo(erro)}); nada foi movido"
        ) from None
    if guardado is None:  # another command moved one there at the same time
        raise NaoMovido(
            f"outro comando pôs um banco em {caminho_visivel(novo)} ao mesmo tempo; nada foi movido. Para "
            f"abrir o outro: --banco {caminho_visivel(antigo)}"
        )
    return novo, guardado


#: why a move failed, in pt-BR, by the system's error number (else its own words)
_MOTIVOS = {
    errno.EACCES: "sem permissão de escrita na pasta ou no arquivo",
    errno.EPERM: "sem permissão de escrita na pasta ou no arquivo",
    errno.EROFS: "a pasta está num disco só de leitura",
    getattr(errno, "EDQUOT", errno.ENOSPC): "a cota do disco acabou",
    errno.ENOSPC: "o disco está cheio",
}
_MOTIVOS_SQLITE = (
    ("readonly", "o arquivo ou a pasta é só de leitura"),
    ("unable to open", "o SQLite não conseguiu abri-lo (permissão da pasta?)"),
    ("disk is full", "o disco está cheio"),
    ("disk i/o", "erro de leitura ou escrita no disco"),
)


def _motivo(erro: sqlite3.Error | OSError) -> str:
    if isinstance(erro, OSError) and erro.errno in _MOTIVOS:
        return _MOTIVOS[erro.errno]
    texto = str(erro)
    for trecho, motivo in _MOTIVOS_SQLITE:
        if trecho in texto.lower():
            return motivo
    return caminho_visivel(texto)


def _tem_casos(arquivo: Path, na_duvida: bool = True) -> bool:
    """Whether the SQLite database ``arquivo`` has multas's table of cases: another
    application's database (a path typed by mistake; a ``dados/multas.db`` that links to it,
    in a folder someone gave) is never migrated, switched to WAL nor renamed ``*.movido``.
    ``na_duvida``: the answer when it cannot be read now (busy, say); without doubt
    (``False``), a file another program keeps locked is :class:`BancoAntigoTrancado`."""
    try:
        with closing(_abrir_existente(arquivo)) as conexao:
            consulta = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'casos'"
            return conexao.execute(consulta).fetchone() is not None
    except sqlite3.Error as erro:
        if not na_duvida and _trancado(erro):
            raise BancoAntigoTrancado(arquivo) from None
        return na_duvida


def _trancado(erro: sqlite3.Error) -> bool:
    """Whether SQLite refused for a lock another connection holds."""
    codigo = getattr(erro, "sqlite_errorcode", 0) & 0xFF
    return codigo in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


class BancoAntigoTrancado(Exception):
    """The current folder's old ``dados/multas.db`` is locked by another program (a ``banco
    mover`` copying it): whether it is multas's cannot be told now. Neither it nor the user's
    folder is used: the latter would be made, empty, beside the move (which would then fail),
    with a warning that the old one is not multas's."""

    def __init__(self, arquivo: Path) -> None:
        super().__init__(
            f"o banco antigo {caminho_visivel(arquivo)}, desta pasta, está trancado por outro "
            "programa (um 'multas banco mover' copiando-o, talvez): espere ele terminar e rode "
            "de novo, ou, se a trava não acaba (um programa que o deixou aberto numa "
            "transação), feche esse programa ou use outro banco com MULTAS_DATABASE_URL (ou "
            "--banco CAMINHO, nos comandos que o têm); nada foi feito"
        )


def _abrir_existente(arquivo: Path) -> sqlite3.Connection:
    """A connection to the SQLite file ``arquivo`` only if it exists (``mode=rw``): a file
    renamed away meanwhile (by another ``banco mover``) is an error, never made again empty
    under the old name (a ``dados/multas.db`` of nothing, warned about by every command)."""
    uri = Path(os.path.abspath(arquivo)).as_uri() + "?mode=rw"
    return sqlite3.connect(uri, timeout=0.5, isolation_level=None, uri=True)


def e_sqlite(arquivo: Path) -> bool:
    """Whether ``arquivo`` starts as a SQLite database does (its 16-byte header)."""
    try:
        with open(arquivo, "rb") as aberto:
            return aberto.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False


def _so_esta_conexao(conexao: sqlite3.Connection, arquivo: Path) -> None:
    """Hold the database alone until ``conexao`` closes, or :class:`NaoMovido` when another
    connection has it open: a running server (or command) would go on writing into the old
    file, renamed ``*.movido``, and each of its writes after the copy would be missing from the
    moved database. In WAL mode (every database multas opens) an exclusive lock is refused
    while any other connection has the database open, even an idle one of a server's pool."""
    conexao.execute("PRAGMA locking_mode=EXCLUSIVE")
    try:
        conexao.execute("BEGIN EXCLUSIVE")
        conexao.execute("COMMIT")
    except sqlite3.OperationalError as erro:
        codigo = getattr(erro, "sqlite_errorcode", sqlite3.SQLITE_BUSY) & 0xFF  # its primary
        if codigo not in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
            raise  # not a lock (a read-only file...): the move's own "could not" says it
        raise NaoMovido(_aberto(arquivo)) from None
    if _aberto_por_outro_processo(arquivo):
        raise NaoMovido(_aberto(arquivo))


def _aberto(arquivo: Path) -> str:
    return (
        f"{caminho_visivel(arquivo)} está aberto por outro programa (um servidor 'multas servir' ou um "
        "comando que o usa): pare-o e rode 'multas banco mover' de novo; nada foi movido"
    )


def _aberto_por_outro_processo(arquivo: Path) -> bool:
    """Whether another process has ``arquivo`` open, as Linux's ``/proc`` shows it (elsewhere
    ``False``; processes of another user are not seen). A database in rollback-journal mode
    (not multas's WAL: made by another tool, never opened by multas) held by an idle connection
    leaves no lock for SQLite to see; only its open file does."""
    proc = Path("/proc")
    try:
        alvo = arquivo.stat()
        # this process, by the number this /proc gives it (in a container whose /proc is
        # another PID namespace's, os.getpid() is not it: its own connection was "another")
        proprio = {str(os.getpid()), _eu(proc)}
        processos = [p for p in proc.iterdir() if p.name.isdigit() and p.name not in proprio]
    except OSError:
        return False
    for processo in processos:
        try:
            descritores = list((processo / "fd").iterdir())
        except OSError:  # gone, or another user's
            continue
        for descritor in descritores:
            try:
                dado = descritor.stat()
            except OSError:
                continue
            if (dado.st_dev, dado.st_ino) == (alvo.st_dev, alvo.st_ino):
                return True
    return False


def _eu(proc: Path) -> str:
    """This process's number in ``proc`` ("" when it does not say)."""
    try:
        return os.readlink(proc / "self")
    except OSError:
        return ""


def mover_banco(antigo: Path, novo: Path) -> Path | None:
    """Copy the SQLite database ``antigo`` whole to ``novo`` (SQLite's backup API, into a
    temporary file of its own, linked in place at the end: a crash leaves no half database,
    and of two commands moving at once only one's copy becomes ``novo``, never replaced under
    the other), then rename the old file and its companions to ``*.movido``; the renamed one is
    returned (``None``: another command had already put a database at ``novo``). A database
    another connection has open is not moved (:func:`_so_esta_conexao`), the lock that
    proves it is held until the renames are done, and one that a program opened during the
    copy is put back (:func:`_guardar_sozinho`)."""
    import tempfile

    novo.parent.mkdir(parents=True, exist_ok=True)
    descritor, nome = tempfile.mkstemp(prefix=novo.name + ".", suffix=".parcial", dir=novo.parent)
    os.close(descritor)
    parcial = Path(nome)
    try:
        # the lock is held until the old file is renamed: a server (or command) starting
        # before that is refused by SQLite ("database is locked"), never left writing into
        # the old file once it is ``*.movido``
        with closing(_abrir_existente(antigo)) as origem:
            _so_esta_conexao(origem, antigo)
            with closing(sqlite3.connect(parcial)) as copia:
                origem.backup(copia)
            # the log folded into the file and closed, under the same lock: the old file
            # whole on its own, and no log deleted by name later (another database's, once
            # this one is renamed)
            origem.execute("PRAGMA journal_mode=DELETE")
            if RENOMEIA_ABERTO:
                return _guardar_sozinho(antigo, parcial, novo)
            try:
                _renomear_sem_substituir(parcial, novo)  # only if none is there yet
            except FileExistsError:
                return None
    finally:
        parcial.unlink(missing_ok=True)
    # Windows: a file open (by this connection or any program) cannot be renamed; one that
    # a program opened since the lock was released makes the rename fail: the copy is taken
    # back (nothing moved), as when a program has it open on Linux
    try:
        return _guardar(antigo).guardado
    except OSError:
        novo.unlink(missing_ok=True)
        raise NaoMovido(_aberto(antigo)) from None
    except NaoMovido:
        novo.unlink(missing_ok=True)
        raise


def _guardar_sozinho(antigo: Path, parcial: Path, novo: Path) -> Path | None:
    """Under the move's lock: rename the old file, then link the copy at ``novo``, unless a
    program opened the old file during the copy (it waits for the lock, and would then write
    into the file renamed ``*.movido``, or leave its log beside the moved name): then the old
    file is put back and :class:`NaoMovido`. Once renamed nobody can open it by its name, so
    whoever has it open now is seen (Linux's ``/proc``). ``None``: another command had put a
    database at ``novo`` (the old file put back too, as on any error or an interruption)."""
    guardados = _guardar(antigo)
    try:
        if _aberto_por_outro_processo(guardados.guardado):
            raise NaoMovido(_aberto(antigo))
        _renomear_sem_substituir(parcial, novo)  # only if none is there yet
    except FileExistsError:
        guardados.devolver()
        return None
    except BaseException:  # and Ctrl+C during the /proc scan: never left renamed, unmoved
        guardados.devolver()
        raise
    return guardados.guardado


@dataclass
class _Guardados:
    """What :func:`_guardar` renamed: ``antigo``'s files, each now beside ``guardado``."""

    antigo: Path
    guardado: Path
    sufixos: list[str] = field(default_factory=list)

    def devolver(self) -> None:
        """Each file renamed back under its name, never over one made there meanwhile (it
        then stays ``*.movido``: nothing is lost)."""
        for sufixo in self.sufixos:
            try:
                _renomear_sem_substituir(
                    self.guardado.with_name(self.guardado.name + sufixo),
                    self.antigo.with_name(self.antigo.name + sufixo),
                )
            except FileExistsError:
                continue


def _guardar(antigo: Path) -> _Guardados:
    """Rename the old file and its companions to ``*.movido`` (kept: nothing is lost), never
    over a file already there (the copy of an earlier move, or of another ``banco mover``
    running at the same time): then the ones renamed go back and :class:`NaoMovido`."""
    guardados = _Guardados(antigo, antigo.with_name(antigo.name + SUFIXO_MOVIDO))
    for sufixo in _COMPANHEIROS:
        arquivo = antigo.with_name(antigo.name + sufixo)
        if not os.path.lexists(arquivo):
            continue
        try:
            destino = guardados.guardado.with_name(guardados.guardado.name + sufixo)
            _renomear_sem_substituir(arquivo, destino)
        except FileExistsError:
            guardados.devolver()
            raise NaoMovido(
                f"já existe {caminho_visivel(guardados.guardado)}, a cópia de um banco movido "
                "antes, que seria substituída: renomeie-a ou apague-a e rode de novo; nada foi "
                "movido"
            ) from None
        except BaseException:  # a companion that cannot be renamed: the others go back
            guardados.devolver()
            raise
        guardados.sufixos.append(sufixo)
    return guardados


def _renomear_sem_substituir(origem: Path, destino: Path) -> None:
    """Rename ``origem`` to ``destino``, or :class:`FileExistsError` when ``destino`` exists
    (POSIX's rename would replace it: a link, then the old name removed; Windows's refuses)."""
    if os.name != "nt":
        try:
            os.link(origem, destino, follow_symlinks=False)
        except FileExistsError:
            raise
        except OSError:  # a file system without hard links (FAT, some network shares)
            pass
        else:
            os.unlink(origem)
            return
    if os.path.lexists(destino):  # there, checked just before: the rename is the only way
        raise FileExistsError(destino)
    os.rename(origem, destino)
