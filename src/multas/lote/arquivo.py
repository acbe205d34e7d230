"""Where a batch file is (:mod:`multas.lote.io`): a local path or a file on another fsspec file
system (:class:`Arquivo`), its format by its suffix, and opening and closing it as bytes.
"""

from __future__ import annotations

import posixpath
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from multas.nucleo.erros import EntradaInvalida

FORMATOS = {".csv": "csv", ".xlsx": "xlsx", ".parquet": "parquet", ".jsonl": "jsonl"}


@dataclass(frozen=True)
class Arquivo:
    """A file on an fsspec file system other than the local one (``memory://``, ``s3://``…):
    the readers and writers open it as a file object. ``nome`` is what messages call it."""

    fs: Any
    caminho: str
    nome: str = ""

    @property
    def name(self) -> str:
        return self.nome or posixpath.basename(self.caminho)

    @property
    def suffix(self) -> str:
        return posixpath.splitext(self.caminho)[1]


#: an input or output file: a local path, or a file on another fsspec file system
Origem = Path | Arquivo


def _binario(origem: Origem) -> IO[bytes]:
    if isinstance(origem, Path):
        return open(origem, "rb")  # closed by the caller
    arquivo: IO[bytes] = origem.fs.open(origem.caminho, "rb")
    return arquivo


def formato_de(caminho: Origem) -> str:
    formato = FORMATOS.get(caminho.suffix.lower())
    if formato is None:
        raise EntradaInvalida(
            None,
            f"formato não reconhecido: {caminho.name} (use {', '.join(FORMATOS)})",
        )
    return formato


def _fechar(fonte: object) -> None:
    """Close a file object this module opened (a local path is pyarrow's to close)."""
    if not isinstance(fonte, Path):
        with suppress(Exception):
            fonte.close()  # type: ignore[attr-defined]
