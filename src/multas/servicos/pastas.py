"""An output folder written whole, then put in place (issue 32, item 3): a run never leaves
another run's files beside its own, and an interrupted run leaves the previous results intact.

:func:`pasta_substituida` hands out a new hidden folder beside the destination
(``.NOME.<pid>.<aleatório>.parcial``); the run writes everything there; only when it is complete
(each file and folder flushed to disk) is the destination replaced by it: the old folder is
renamed aside, the new one renamed in, and the old one removed. An error (or Ctrl+C) before that
removes the new folder and leaves the destination as it was. Between the two renames the
destination does not exist for an instant; a process killed right there (``kill -9``) leaves the
old results in ``.NOME.<pid>.<aleatório>.antiga``, and one killed while writing leaves its
``.parcial`` folder: both are hidden folders to delete by hand.

A destination that holds anything the run would not write (:func:`conferir_pasta`) is refused
before anything is written, never deleted: ``--saida .`` or a folder of the user's own files
is an error, not a loss.

:func:`sincronizar_pasta` (fsync of a folder, so a rename in it is durable) is shared with the
batch's atomic files (:mod:`multas.lote.io`).
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path, PurePosixPath

from multas.nucleo.erros import EntradaInvalida

#: whether a path inside the folder (relative, ``/``-separated; ``True``: a folder) is one the
#: run writes
Proprio = Callable[[PurePosixPath, bool], bool]


def sincronizar_pasta(pasta: Path) -> None:
    """Make a rename in ``pasta`` durable (POSIX: fsync the directory); a system that cannot
    fsync a directory is left as it is."""
    try:
        fd = os.open(pasta, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _lista(nomes: list[str]) -> str:
    mostrados = ", ".join(nomes[:3])
    return mostrados + (f" e mais {len(nomes) - 3}" if len(nomes) > 3 else "")


def conferir_pasta(destino: Path, proprio: Proprio, campo: str = "--saida") -> None:
    """Refuse a destination that is a file, or a folder holding anything ``proprio`` does not
    call the run's own (a symbolic link inside is never the run's own): those would be lost
    when the folder is replaced. A missing or empty folder, or one of an earlier run's
    results, passes."""
    if destino.exists() and not destino.is_dir():
        raise EntradaInvalida(campo, f"{destino} é um arquivo: a saída é uma pasta")
    if _montagem(destino):
        raise EntradaInvalida(
            campo,
            f"a pasta de saída {destino} é um ponto de montagem, que não pode ser substituído: "
            "use uma pasta dentro dele",
        )
    pai = _pai_existente(destino)
    if not _gravavel(pai):
        raise EntradaInvalida(
            campo,
            f"sem permissão para gravar em {pai}: a saída é escrita numa pasta nova ao lado de "
            f"{destino.name} e posta no lugar dela",
        )
    if not destino.is_dir():
        return
    try:
        estranhos = _estranhos(destino, proprio)
    except OSError as erro:
        raise EntradaInvalida(
            campo, f"não foi possível ler a pasta de saída {destino} ({erro.strerror or erro})"
        ) from None
    if estranhos:
        raise EntradaInvalida(
            campo,
            f"a pasta de saída {destino} tem arquivos que esta execução não grava: "
            f"{_lista(sorted(estranhos))} (a pasta é substituída inteira: use outra pasta, "
            "ou apague-os)",
        )


def _montagem(pasta: Path) -> bool:
    """Whether ``pasta`` is a mount point (it cannot be renamed aside)."""
    return os.path.ismount(pasta)


def _gravavel(pasta: Path) -> bool:
    """Whether this process may make and rename folders in ``pasta``."""
    return os.access(pasta, os.W_OK | os.X_OK)


def _pai_existente(destino: Path) -> Path:
    """The nearest folder above ``destino`` that exists (where the new folder is made)."""
    pai = destino.parent
    while not pai.exists() and pai != pai.parent:
        pai = pai.parent
    return pai


def _estranhos(destino: Path, proprio: Proprio) -> list[str]:
    """What ``destino`` holds that ``proprio`` does not call the run's own (a folder not its
    own is named, not walked into); a folder that cannot be read is an error (its contents
    would be lost unseen)."""
    estranhos: list[str] = []

    def falhar(erro: OSError) -> None:
        raise erro

    for raiz, pastas, arquivos in os.walk(destino, onerror=falhar):
        base = PurePosixPath(Path(raiz).relative_to(destino).as_posix())
        for nome in sorted(pastas):
            caminho = Path(raiz, nome)
            if caminho.is_symlink() or not proprio(base / nome, True):
                estranhos.append((base / nome).as_posix() + "/")
        pastas[:] = [
            p for p in pastas if not Path(raiz, p).is_symlink() and proprio(base / p, True)
        ]
        for nome in sorted(arquivos):
            if Path(raiz, nome).is_symlink() or not proprio(base / nome, False):
                estranhos.append((base / nome).as_posix())
    return estranhos


def _umask() -> int:
    atual = os.umask(0)
    os.umask(atual)
    return atual


def _sincronizar_arvore(pasta: Path) -> None:
    """Flush every file and folder under ``pasta`` to disk (the run's own files: opened for
    writing, which Windows' fsync needs)."""
    for raiz, _, arquivos in os.walk(pasta):
        for nome in arquivos:
            fd = os.open(Path(raiz, nome), os.O_RDWR)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        sincronizar_pasta(Path(raiz))


@contextmanager
def pasta_substituida(destino: Path, proprio: Proprio, campo: str = "--saida") -> Iterator[Path]:
    """A new empty folder to write the run's output in; on leaving without error, it replaces
    ``destino`` (created, with its parents, if missing). ``destino`` is checked
    (:func:`conferir_pasta`) before and again just before it is replaced. A symbolic link
    to a folder is followed: the folder it points to is replaced, and the link stays."""
    destino = Path(os.path.realpath(destino))
    conferir_pasta(destino, proprio, campo)
    pai = destino.parent
    pai.mkdir(parents=True, exist_ok=True)
    nova = Path(
        tempfile.mkdtemp(prefix=f".{destino.name}.{os.getpid()}.", suffix=".parcial", dir=pai)
    )
    try:
        # mkdtemp's is 0o700: the previous folder's mode, or a new folder's as mkdir makes it
        modo = stat.S_IMODE(destino.stat().st_mode) if destino.is_dir() else 0o777 & ~_umask()
        os.chmod(nova, modo)
        yield nova
        _sincronizar_arvore(nova)
        conferir_pasta(destino, proprio, campo)
        if not destino.exists():
            os.rename(nova, destino)
            sincronizar_pasta(pai)
            return
        antiga = pai / f".{destino.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.antiga"
        os.rename(destino, antiga)
        try:
            os.rename(nova, destino)
        except BaseException:
            os.rename(antiga, destino)
            raise
        sincronizar_pasta(pai)
        shutil.rmtree(antiga, ignore_errors=True)
    except BaseException:
        shutil.rmtree(nova, ignore_errors=True)
        raise
