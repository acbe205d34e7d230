"""The documents of events (issue 35, item 5; spec § 6.2 v4): stored, served and checked.

- **Stored content-addressed.** A document's bytes are kept once, under their SHA-256, in
  ``documentos`` (:class:`~multas.servicos.persistencia.modelos_ciclo.DocumentoSalvo`), a record
  of the audit chain like the others (its state hash covers the content's hash). The event
  keeps ``[{"sha256", "nome", "tipo", "bytes"}]`` in its own row, so each hash is inside the
  event's audit record: the chain ties the proof to the event. Both are written in the
  event's transaction (:func:`guardar`): all or nothing.
- **Checked by content.** :func:`anexo` reads a file's type from its first bytes (PDF, PNG or
  JPEG; anything else refused, whatever its name), its size (at most 20 MiB) and its hash;
  an event takes at most 20 (:mod:`multas.nucleo.ciclo.documentos`).
- **Never altered nor deleted.** Undoing an event or purging a processo leaves the content:
  the chain still names its hash.
- **Served within the scope.** :func:`ler` finds the processo through the scope in force (a
  processo outside it is not found) and the document through one of its events; the content
  is checked against its hash before it is served (one changed outside the system is
  refused, never served).
- **Verified.** :func:`problemas` (part of ``multas auditoria verificar``) names the event of
  each document whose content is missing or does not hash to the hash the event recorded.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from multas.nucleo.ciclo.documentos import (
    MAXIMO_BYTES,
    MAXIMO_POR_EVENTO,
    Documento,
    documento_do_conteudo,
    grande_demais,
)
from multas.nucleo.datas import formatar_data
from multas.nucleo.erros import EntradaInvalida
from multas.servicos.persistencia.integridade import Problema
from multas.servicos.persistencia.registros import RegistroAlterado

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from multas.servicos.persistencia import Repositorio
    from multas.servicos.persistencia.escrita import Escrita

#: the audit action that stores a document's content
ACAO_GUARDAR = "documento_guardar"


@dataclass(frozen=True, slots=True)
class Anexo:
    """A file sent with an event: what the event records of it, and its bytes."""

    documento: Documento
    conteudo: bytes


def anexo(nome: str, conteudo: bytes, campo: str = "documentos") -> Anexo:
    """A file as an event takes it (refused by content: empty, too large, not PDF, PNG nor
    JPEG), the error naming ``campo``."""
    return Anexo(documento_do_conteudo(nome, conteudo, campo), conteudo)


def anexos(arquivos: Iterable[tuple[str, bytes]]) -> list[Anexo]:
    """The files of one event, in order: each checked (the error names ``documentos[i]``), at
    most :data:`MAXIMO_POR_EVENTO`, the same content once."""
    lidos: list[Anexo] = []
    vistos: set[str] = set()
    for i, (nome, conteudo) in enumerate(arquivos):
        if i >= MAXIMO_POR_EVENTO:
            raise EntradaInvalida(
                "documentos", f"no máximo {MAXIMO_POR_EVENTO} documentos por evento"
            )
        lido = anexo(nome, conteudo, f"documentos[{i}]")
        if lido.documento.sha256 in vistos:
            raise EntradaInvalida(
                f"documentos[{i}]",
                f"o documento {lido.documento.nome!r} repete o conteúdo de outro deste evento",
            )
        vistos.add(lido.documento.sha256)
        lidos.append(lido)
    return lidos


def recusar_metadados(bruto: object, campo: str) -> None:
    """A stored processo's documents come as files, each read and stored (:func:`anexos`):
    ``documentos`` given as data (hashes with no content) is refused, so that no event names
    a content it never sent (nor another client's, by its hash)."""
    if bruto:
        raise EntradaInvalida(
            campo,
            "os documentos de um processo salvo são enviados como arquivos, com o evento "
            "(--documento, o campo documento do formulário ou da API em multipart)",
        )


def do_arquivo(caminho: Path, campo: str) -> tuple[str, bytes]:
    """A document read from a file (``--documento``): its name and bytes. Only a regular
    file (a symbolic link to one included) is read: a FIFO would block the command until a
    writer came, a device (``/dev/zero``) never ends; the file is opened without blocking
    and checked as opened. One larger than :data:`MAXIMO_BYTES` is refused by its size,
    unread; never more than :data:`MAXIMO_BYTES` + 1 bytes are read (one that grew is
    refused by :func:`anexo`)."""

    def recusa(motivo: str) -> EntradaInvalida:
        return EntradaInvalida(
            campo, f"não foi possível ler o documento {caminho.name!r}: {motivo}"
        )

    try:
        descritor = os.open(caminho, os.O_RDONLY | _SEM_BLOQUEIO)
    except OSError as erro:
        raise recusa(_MOTIVOS.get(type(erro), "erro de leitura")) from None
    try:
        estado = os.fstat(descritor)
        if stat.S_ISDIR(estado.st_mode):
            raise recusa(_MOTIVOS[IsADirectoryError])
        if not stat.S_ISREG(estado.st_mode):
            raise recusa("não é um arquivo comum (um dispositivo, um FIFO ou um socket)")
        if estado.st_size > MAXIMO_BYTES:
            raise grande_demais(caminho.name, estado.st_size, campo)
        if _SEM_BLOQUEIO:  # a regular file: read it as usual
            os.set_blocking(descritor, True)
        with os.fdopen(descritor, "rb", closefd=False) as arquivo:
            return caminho.name, arquivo.read(MAXIMO_BYTES + 1)
    except OSError:
        raise recusa("erro de leitura") from None
    finally:
        os.close(descritor)


#: opening a FIFO without a writer does not wait (POSIX; Windows has no FIFO to open)
_SEM_BLOQUEIO: int = getattr(os, "O_NONBLOCK", 0)
_MOTIVOS: dict[type[OSError], str] = {
    FileNotFoundError: "arquivo não encontrado",
    IsADirectoryError: "é uma pasta, não um arquivo",
    PermissionError: "sem permissão de leitura",
}


def texto_dos_documentos(documentos: Sequence[Documento]) -> str | None:
    """The stored form of an event's documents (``processo_eventos.documentos``): JSON text in
    the contract's order; ``None`` (NULL) for none."""
    if not documentos:
        return None
    return json.dumps(
        [d.como_dict() for d in documentos], ensure_ascii=False, separators=(",", ":")
    )


def guardar(escrita: Escrita, lista: Sequence[Anexo]) -> None:
    """Store each content not stored yet, inside the event's write (writers are serialised,
    so a content is inserted once)."""
    from sqlalchemy import select

    from multas.servicos.persistencia.modelos_ciclo import DocumentoSalvo

    for item in lista:
        d = item.documento
        existe = escrita.sessao.execute(
            select(DocumentoSalvo.id).where(DocumentoSalvo.sha256 == d.sha256)
        ).first()
        if existe is not None:
            continue
        escrita.inserir(
            DocumentoSalvo(
                sha256=d.sha256,
                tipo=d.tipo,
                bytes=d.bytes,
                conteudo=item.conteudo,
                usuario=escrita.usuario,
                criado_em=escrita.momento,
            ),
            ACAO_GUARDAR,
            {"sha256": d.sha256, "tipo": d.tipo, "bytes": d.bytes},
        )


class DocumentoNaoEncontrado(LookupError):
    """No such document on this processo (or no such processo in the scope)."""


class DocumentoAlterado(RegistroAlterado):
    """A stored content missing, or that no longer hashes to its name: refused, never
    served."""

    def __init__(self, mensagem: str, tipo: str = "alterado") -> None:
        super().__init__(Problema(tipo, mensagem, tabela="documentos"))


def ler(repositorio: Repositorio, processo_id: int, sha256: str) -> tuple[Documento, bytes]:
    """A document of a processo, for download: the processo read within the scope in force
    and checked against its history (with its events), the document found through one of
    its events, its stored record checked too, and its content against its hash."""
    from sqlalchemy import select

    from multas.servicos.persistencia.ciclo import RepositorioCiclo
    from multas.servicos.persistencia.registros import RECURSOS, exigir_conferido

    armazenado = RepositorioCiclo(repositorio).obter_processo(processo_id)
    documento = next(
        (
            d
            for e in (armazenado.eventos if armazenado is not None else ())
            for d in _documentos(e.documentos)
            if d.sha256 == sha256
        ),
        None,
    )
    if documento is None:
        raise DocumentoNaoEncontrado(sha256)
    tabela = RECURSOS["documentos"].colunas
    with repositorio.leitura() as sessao:
        linha = sessao.execute(select(tabela).where(tabela.c.sha256 == sha256)).mappings().first()
        if linha is None:
            raise DocumentoAlterado(
                f"o documento {documento.nome!r} não está no armazenamento: apagado fora do sistema"
            )
        exigir_conferido(sessao, RECURSOS["documentos"], linha)
    conteudo = bytes(linha["conteudo"])
    if hashlib.sha256(conteudo).hexdigest() != sha256:
        raise DocumentoAlterado(
            f"o documento {documento.nome!r} foi alterado fora do sistema: o conteúdo não "
            "confere com o hash registrado no evento"
        )
    return documento, conteudo


def _documentos(bruto: object) -> list[Documento]:
    """An event's stored documents (its column's JSON text, or that text read back), read
    (what cannot be read: none; § 6 refuses the processo on its own read)."""
    try:
        lista = json.loads(bruto) if isinstance(bruto, str) else bruto
    except ValueError:
        return []
    if not isinstance(lista, list):
        return []
    return [
        Documento(
            d["sha256"],
            str(d.get("nome")),
            str(d.get("tipo")),
            d["bytes"] if type(d.get("bytes")) is int else 0,
        )
        for d in lista
        # the hash is what names the content; anything else written outside the system is
        # named by the chain (the event's own record), not read here
        if isinstance(d, dict) and isinstance(d.get("sha256"), str)
    ]


def problemas(repositorio: Repositorio) -> list[Problema]:
    """Every event whose document is missing from the store or changed there (``multas
    auditoria verificar``), each naming the event and its processo."""
    with repositorio.leitura() as sessao:
        return list(_problemas(sessao))


def _problemas(sessao: Session) -> Iterator[Problema]:
    from sqlalchemy import select

    from multas.servicos.persistencia.modelos_ciclo import DocumentoSalvo, EventoSalvo

    consulta = (
        select(
            EventoSalvo.id,
            EventoSalvo.processo_id,
            EventoSalvo.evento,
            EventoSalvo.data,
            EventoSalvo.documentos,
        )
        .where(EventoSalvo.documentos.is_not(None))
        .order_by(EventoSalvo.id)
    )
    conferidos: dict[str, str | None] = {}  # hash → what is wrong with its content
    for evento_id, processo_id, nome, data, texto in sessao.execute(consulta).all():
        for documento in _documentos(texto):
            if documento.sha256 not in conferidos:
                conteudo: Any = sessao.execute(
                    select(DocumentoSalvo.conteudo).where(DocumentoSalvo.sha256 == documento.sha256)
                ).scalar()
                conferidos[documento.sha256] = (
                    "ausente"
                    if conteudo is None
                    else None
                    if hashlib.sha256(conteudo).hexdigest() == documento.sha256
                    else "alterado"
                )
            tipo = conferidos[documento.sha256]
            if tipo is None:
                continue
            motivo = (
                "ausente do armazenamento (apagado fora do sistema)"
                if tipo == "ausente"
                else "alterado fora do sistema: o conteúdo não confere com o hash registrado"
            )
            yield Problema(
                tipo,
                f"evento nº {evento_id} ({nome} de {formatar_data(data)}) do processo nº "
                f"{processo_id}: o documento {documento.nome!r} (SHA-256 "
                f"{documento.sha256[:16]}…) está {motivo}",
                tabela="processo_eventos",
                id=int(evento_id),
            )
