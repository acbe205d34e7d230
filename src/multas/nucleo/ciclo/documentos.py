"""Spec § 6.2 v4: the documents an event carries (the AR of a citação, the receipt of a
payment, the court order of a suspension), as the contract writes them:
``documentos: [{"sha256", "nome", "tipo", "bytes"}]``.

What a document *is* is its content: its SHA-256 names it (the store keeps it under that name,
:mod:`multas.servicos.documentos`), its type is read from its first bytes (PDF, PNG or JPEG;
anything else is refused, whatever its name says), and its size is counted. These limits are
the system's, not the law's: at most :data:`MAXIMO_BYTES` per document and
:data:`MAXIMO_POR_EVENTO` documents per event.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from multas.nucleo.erros import EntradaInvalida, mostrar_valor

#: the most bytes one document may have (spec § 6.2 v4: 20 MiB)
MAXIMO_BYTES = 20 * 1024 * 1024
#: the most documents one event may carry (spec § 6.2 v4)
MAXIMO_POR_EVENTO = 20
#: the longest name kept (the file's name as given, without its folders)
MAXIMO_NOME = 255
#: the types accepted, each with the first bytes of its content (its "magic number")
TIPOS: dict[str, tuple[bytes, ...]] = {
    "application/pdf": (b"%PDF-",),
    "image/png": (b"\x89PNG\r\n\x1a\n",),
    "image/jpeg": (b"\xff\xd8\xff",),
}
#: the fields of a document, in the contract's order
CAMPOS_DOCUMENTO = ("sha256", "nome", "tipo", "bytes")
_SHA256 = re.compile(r"[0-9a-f]{64}")
#: characters a file's name may not hold (control characters, path separators)
_PROIBIDOS_NO_NOME = re.compile(r"[\x00-\x1f\x7f/\\]")
#: nor these Unicode categories: controls (C1 too), invisible format characters (the bidi
#: overrides that show ``fdp.exe`` as ``exe.pdf``, zero-width ones), surrogates, line and
#: paragraph separators
_CATEGORIAS_PROIBIDAS = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})


@dataclass(frozen=True, slots=True)
class Documento:
    """A document as an event records it: its content's hash, its name, type and size."""

    sha256: str
    nome: str
    tipo: str
    bytes: int

    def como_dict(self) -> dict[str, Any]:
        return {"sha256": self.sha256, "nome": self.nome, "tipo": self.tipo, "bytes": self.bytes}


def tipo_do_conteudo(conteudo: bytes) -> str | None:
    """The type of a document read from its first bytes (``None``: not one accepted).

    >>> tipo_do_conteudo(b"%PDF-1.7 ..."), tipo_do_conteudo(b"\\xff\\xd8\\xff\\xe0")
    ('application/pdf', 'image/jpeg')
    >>> tipo_do_conteudo(b"MZ\\x90\\x00") is None
    True
    """
    for tipo, assinaturas in TIPOS.items():
        if any(conteudo.startswith(a) for a in assinaturas):
            return tipo
    return None


def nome_do_arquivo(nome: str, campo: str) -> str:
    """A file's name as kept: without its folders (a browser may send ``C:\\\\x\\\\y.pdf``),
    not empty, without control characters, at most :data:`MAXIMO_NOME` characters.

    >>> nome_do_arquivo("C:\\\\AR\\\\citação.pdf", "documento")
    'citação.pdf'
    """
    base = re.split(r"[/\\]", nome)[-1].strip()
    _conferir_nome(base, campo)
    return base


def _conferir_nome(nome: str, campo: str) -> None:
    if not nome.strip(" ."):  # nothing, blanks or only dots ("..", "."): no file's name
        raise EntradaInvalida(campo, "o documento deve ter um nome de arquivo")
    if len(nome) > MAXIMO_NOME:
        raise EntradaInvalida(
            campo, f"nome de arquivo longo demais: no máximo {MAXIMO_NOME} caracteres"
        )
    if _PROIBIDOS_NO_NOME.search(nome) or any(
        unicodedata.category(c) in _CATEGORIAS_PROIBIDAS for c in nome
    ):
        raise EntradaInvalida(
            campo, f"nome de arquivo com caractere inválido: {mostrar_valor(nome)}"
        )


def grande_demais(nome: str, tamanho: int, campo: str) -> EntradaInvalida:
    """The refusal of a document of ``tamanho`` bytes, more than :data:`MAXIMO_BYTES`."""
    return EntradaInvalida(
        campo,
        f"o documento {mostrar_valor(nome)} tem {tamanho} bytes: o limite é "
        f"{MAXIMO_BYTES // (1024 * 1024)} MiB por documento",
    )


def documento_do_conteudo(nome: str, conteudo: bytes, campo: str) -> Documento:
    """What an event records of a file: refused when empty, larger than
    :data:`MAXIMO_BYTES` or of a type not accepted (read from its content, not its name)."""
    nome = nome_do_arquivo(nome, campo)
    if not conteudo:
        raise EntradaInvalida(campo, f"o documento {mostrar_valor(nome)} está vazio")
    if len(conteudo) > MAXIMO_BYTES:
        raise grande_demais(nome, len(conteudo), campo)
    tipo = tipo_do_conteudo(conteudo)
    if tipo is None:
        raise EntradaInvalida(
            campo,
            f"o documento {mostrar_valor(nome)} não é PDF, PNG nem JPEG (o tipo é lido do "
            "conteúdo, não do nome)",
        )
    return Documento(hashlib.sha256(conteudo).hexdigest(), nome, tipo, len(conteudo))


def ler_documentos(bruto: object, onde: str) -> tuple[Documento, ...]:
    """An event's ``documentos`` as the contract writes them (spec § 6.2 v4): a list of at
    most :data:`MAXIMO_POR_EVENTO` objects ``{"sha256", "nome", "tipo", "bytes"}``, each
    hash once."""
    campo = f"{onde}.documentos"
    if not isinstance(bruto, list):
        raise EntradaInvalida(
            campo,
            'deve ser uma lista de documentos [{"sha256", "nome", "tipo", "bytes"}], não '
            f"{mostrar_valor(bruto)}",
        )
    if len(bruto) > MAXIMO_POR_EVENTO:
        raise EntradaInvalida(
            campo, f"no máximo {MAXIMO_POR_EVENTO} documentos por evento, não {len(bruto)}"
        )
    documentos: list[Documento] = []
    vistos: set[str] = set()
    for i, item in enumerate(bruto):
        documento = _ler_documento(item, f"{campo}[{i}]")
        if documento.sha256 in vistos:
            raise EntradaInvalida(
                f"{campo}[{i}].sha256", "o mesmo documento aparece duas vezes no evento"
            )
        vistos.add(documento.sha256)
        documentos.append(documento)
    return tuple(documentos)


def _ler_documento(item: object, campo: str) -> Documento:
    if not isinstance(item, Mapping):
        raise EntradaInvalida(
            campo, 'cada documento deve ser um objeto {"sha256", "nome", "tipo", "bytes"}'
        )
    for chave in item:
        if chave not in CAMPOS_DOCUMENTO:
            raise EntradaInvalida(
                f"{campo}.{chave}",
                'campo desconhecido: um documento é exatamente {"sha256", "nome", "tipo", '
                f'"bytes"}} ({mostrar_valor(chave)})',
            )
        if item[chave] is None:
            raise EntradaInvalida(f"{campo}.{chave}", "campo obrigatório")
    for chave in CAMPOS_DOCUMENTO:
        if chave not in item:
            raise EntradaInvalida(f"{campo}.{chave}", "campo obrigatório")
    sha, nome, tipo, tamanho = (item[c] for c in CAMPOS_DOCUMENTO)
    if not isinstance(sha, str) or not _SHA256.fullmatch(sha):
        raise EntradaInvalida(
            f"{campo}.sha256",
            f"deve ser o SHA-256 do conteúdo, 64 dígitos hexadecimais minúsculos, não "
            f"{mostrar_valor(sha)}",
        )
    if not isinstance(nome, str):
        raise EntradaInvalida(f"{campo}.nome", f"deve ser um texto, não {mostrar_valor(nome)}")
    _conferir_nome(nome, f"{campo}.nome")
    if not isinstance(tipo, str) or tipo not in TIPOS:
        raise EntradaInvalida(
            f"{campo}.tipo",
            f"tipo não aceito: {mostrar_valor(tipo)} (aceitos: {', '.join(TIPOS)})",
        )
    if (
        isinstance(tamanho, bool)
        or not isinstance(tamanho, int)
        or not 1 <= tamanho <= MAXIMO_BYTES
    ):
        raise EntradaInvalida(
            f"{campo}.bytes",
            f"deve ser o tamanho do documento, um inteiro de 1 a {MAXIMO_BYTES}, não "
            f"{mostrar_valor(tamanho)}",
        )
    return Documento(sha, nome, str(tipo), tamanho)
