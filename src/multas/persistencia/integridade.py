"""The tamper-evident record: the hashes that bind each saved case and the audit log.

- Each saved case carries ``hash_conteudo``, the SHA-256 of everything saved (its input as
  received, its result, the amount, the versions, who, from where and when).
- Each audit row carries its position in the chain (``seq``: 1, 2, 3, ... with no gap), the
  hash of the previous row (``hash_anterior``) and the hash of its own content and of that link
  (``hash``). The row that records a case's creation also holds that case's ``hash_caso``.

So a changed field changes a hash; a deleted row leaves a gap in ``seq`` and a broken link;
rows moved around break the links; and a case edited together with its own hash no longer
matches the hash its (chained) creation record holds. :func:`verificar` walks all of it and
names the first record that does not match.

What a hash chain cannot show alone: someone able to rewrite *every* row from some point on,
recomputing every hash. On PostgreSQL the application's role cannot (it may only insert into
the audit table: see migration r0002); anywhere, the head of the chain that ``multas auditoria
verificar`` prints can be written down elsewhere and checked later with ``--ancora``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

#: the "previous hash" of the first row of the chain
GENESE = "0" * 64


def _momento(valor: datetime) -> str:
    return valor.astimezone(UTC).isoformat(timespec="microseconds")


def _sha256(partes: list[Any]) -> str:
    texto = json.dumps(partes, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(texto.encode("utf-8")).hexdigest()


def hash_caso(
    *,
    regime: str,
    entrada: str,
    resultado: str,
    valor: str | None,
    versao_motor: str,
    versao_legislacao: str,
    usuario: str,
    origem: str,
    criado_em: datetime,
) -> str:
    """The hash of a saved case's content (every column but the id and the hash itself).

    >>> from datetime import datetime, UTC
    >>> len(hash_caso(regime="anp.infracao", entrada="{}", resultado="{}", valor="1.00",
    ...     versao_motor="1", versao_legislacao="1", usuario="ana", origem="api",
    ...     criado_em=datetime(2026, 1, 1, tzinfo=UTC)))
    64
    """
    return _sha256(
        [
            "caso/1",
            regime,
            entrada,
            resultado,
            valor,
            versao_motor,
            versao_legislacao,
            usuario,
            origem,
            _momento(criado_em),
        ]
    )


def hash_registro(
    *,
    seq: int,
    momento: datetime,
    usuario: str,
    acao: str,
    caso_id: int | None,
    regime: str | None,
    detalhe: str | None,
    hash_anterior: str,
) -> str:
    """The hash of an audit row: its content and the link to the previous row."""
    return _sha256(
        [
            "auditoria/1",
            seq,
            _momento(momento),
            usuario,
            acao,
            caso_id,
            regime,
            detalhe,
            hash_anterior,
        ]
    )


def colunas_caso(linha: Any) -> dict[str, Any]:
    """The arguments of :func:`hash_caso` read from a row (ORM object or mapping)."""
    nomes = (
        "regime",
        "entrada",
        "resultado",
        "valor",
        "versao_motor",
        "versao_legislacao",
        "usuario",
        "origem",
        "criado_em",
    )
    if isinstance(linha, Mapping):
        return {n: linha[n] for n in nomes}
    return {n: getattr(linha, n) for n in nomes}


def hash_caso_criado(detalhe: str | None) -> str | None:
    """The ``hash_caso`` a creation record holds, if any."""
    try:
        dados = json.loads(detalhe or "{}")
    except ValueError:
        return None
    valor = dados.get("hash_caso") if isinstance(dados, dict) else None
    return valor if isinstance(valor, str) else None


@dataclass(frozen=True)
class Problema:
    """The first record that does not match, in pt-BR."""

    tipo: str  # "alterado", "ausente", "fora de ordem", "caso alterado", ...
    mensagem: str
    registro_id: int | None = None
    caso_id: int | None = None


@dataclass(frozen=True)
class Relatorio:
    registros: int
    casos: int
    cabeca: tuple[int, str] | None  # (seq, hash) of the last row: the anchor to write down
    problemas: list[Problema]

    @property
    def integro(self) -> bool:
        return not self.problemas


def verificar_cadeia(
    registros: Iterable[Any],
    ancora: tuple[int, str] | None = None,
    presentes: set[int] | None = None,
) -> tuple[int, tuple[int, str] | None, list[Problema], dict[int, str]]:
    """Walk the audit rows in id order. Returns how many, the head, the problems found (the
    first one first) and, for each case created and not deleted, the ``hash_caso`` of its
    creation record (each of those cases must exist, with that hash). ``presentes``, the
    positions found in the whole table, tells a reordered chain from one with rows missing."""
    problemas: list[Problema] = []
    criados: dict[int, str] = {}
    anterior_seq, anterior_hash = 0, GENESE
    total = 0
    ancora_vista = ancora is None
    for linha in registros:
        total += 1
        rid, seq = linha["id"], linha["seq"]
        if seq is None or linha["hash"] is None:
            problemas.append(Problema("alterado", f"registro de auditoria nº {rid}: sem hash", rid))
            continue
        if seq != anterior_seq + 1:
            if seq > anterior_seq + 1 and (presentes is None or anterior_seq + 1 not in presentes):
                faltam = (
                    f"nº {anterior_seq + 1}"
                    if seq == anterior_seq + 2
                    else f"nº {anterior_seq + 1} a {seq - 1}"
                )
                problemas.append(
                    Problema(
                        "ausente",
                        f"registro(s) de auditoria ausente(s): {faltam} da cadeia "
                        f"(antes do registro id {rid})",
                        rid,
                    )
                )
            else:
                problemas.append(
                    Problema(
                        "fora de ordem",
                        f"registro de auditoria id {rid} fora de ordem: posição {seq} na "
                        f"cadeia, depois da posição {anterior_seq}",
                        rid,
                    )
                )
        elif linha["hash_anterior"] != anterior_hash:
            problemas.append(
                Problema(
                    "fora de ordem",
                    f"registro de auditoria id {rid} (posição {seq}): não encadeia com o "
                    "registro anterior (alterado, trocado de lugar ou forjado)",
                    rid,
                )
            )
        calculado = hash_registro(
            seq=seq,
            momento=linha["momento"],
            usuario=linha["usuario"],
            acao=linha["acao"],
            caso_id=linha["caso_id"],
            regime=linha["regime"],
            detalhe=linha["detalhe"],
            hash_anterior=linha["hash_anterior"],
        )
        if calculado != linha["hash"]:
            problemas.append(
                Problema(
                    "alterado",
                    f"registro de auditoria id {rid} (posição {seq}) alterado: o conteúdo não "
                    "confere com o seu hash",
                    rid,
                    linha["caso_id"],
                )
            )
        if ancora is not None and seq == ancora[0]:
            ancora_vista = True
            if linha["hash"] != ancora[1]:
                problemas.append(
                    Problema(
                        "alterado",
                        f"a posição {seq} da cadeia não é a âncora anotada: a cadeia foi "
                        "reescrita desde então",
                        rid,
                    )
                )
        if linha["acao"] == "criar" and linha["caso_id"] is not None:
            hash_criado = hash_caso_criado(linha["detalhe"])
            if hash_criado is not None:
                criados[linha["caso_id"]] = hash_criado
        elif linha["acao"] == "excluir" and linha["caso_id"] is not None:
            criados.pop(linha["caso_id"], None)
        anterior_seq, anterior_hash = seq, linha["hash"]
    if not ancora_vista:
        assert ancora is not None
        problemas.append(
            Problema(
                "ausente",
                f"a cadeia termina na posição {anterior_seq}, antes da âncora anotada "
                f"(posição {ancora[0]}): registros finais apagados",
            )
        )
    cabeca = (anterior_seq, anterior_hash) if total else None
    return total, cabeca, problemas, criados


def conferir_caso(linha: Any, hash_criado: str | None) -> Problema | None:
    """Whether a saved case is as it was saved: its content matches its hash, and that hash
    is the one its creation record (in the chain) holds."""
    caso_id = linha["id"] if isinstance(linha, Mapping) else linha.id
    guardado = linha["hash_conteudo"] if isinstance(linha, Mapping) else linha.hash_conteudo
    if guardado is None or hash_caso(**colunas_caso(linha)) != guardado:
        return Problema(
            "caso alterado",
            f"caso nº {caso_id} alterado fora do sistema: o conteúdo não confere com o seu hash",
            caso_id=caso_id,
        )
    if hash_criado != guardado:
        motivo = (
            "não há registro da sua criação na auditoria"
            if hash_criado is None
            else "o hash não é o registrado na auditoria quando foi salvo"
        )
        return Problema(
            "caso alterado",
            f"caso nº {caso_id} não confere com a auditoria: {motivo}",
            caso_id=caso_id,
        )
    return None
