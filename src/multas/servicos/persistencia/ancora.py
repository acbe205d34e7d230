"""An anchor kept outside the database (``multas auditoria ancorar``).

A hash chain shows any change to what it covers, except one: whoever can write the database can
rewrite every row from some point on, recomputing every hash, and append records the system
never wrote. An anchor is a short checkpoint a user keeps elsewhere (a file, an e-mail, a
ticket): the chain's head, and for each table its row count and the last audit row about it,
with the UTC time. ``multas auditoria verificar --ancora`` then checks that the chain still
holds that head, and names what changed since: each table's records created, altered and
deleted, and a count that the audit since then does not explain.

Signed with HMAC-SHA256 under a key file that is never stored in the database
(``--chave-ancora``), an anchor cannot be forged by someone who has only the database; without a
key it is unsigned, and says so; an unsigned anchor given with a key is refused.

The text is ``multas-ancora-1.<payload>.<signature>``: the payload is compact JSON in base64url,
the signature the HMAC's hex digest, or ``-`` when unsigned.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from multas.nucleo.erros import EntradaInvalida

PREFIXO = "multas-ancora-1"
SEM_ASSINATURA = "-"


@dataclass(frozen=True)
class Ancora:
    """A checkpoint of the chain and of every table."""

    momento: datetime
    cabeca: tuple[int, str] | None
    #: table → (rows, the position and hash of the last audit row about it, if any)
    tabelas: dict[str, tuple[int, tuple[int, str] | None]]
    assinada: bool = False


def ler_chave(caminho: str | Path) -> bytes:
    """The key file's bytes (at least 16); a pt-BR error if it cannot be used."""
    try:
        chave = Path(caminho).read_bytes()
    except OSError as erro:
        raise EntradaInvalida("chave-ancora", f"não foi possível ler a chave: {erro}") from None
    if len(chave.strip()) < 16:
        raise EntradaInvalida(
            "chave-ancora", "a chave deve ter ao menos 16 bytes (por exemplo, 32 bytes aleatórios)"
        )
    return chave.strip()


def _assinar(carga: str, chave: bytes) -> str:
    return hmac.new(chave, carga.encode("ascii"), hashlib.sha256).hexdigest()


def escrever(ancora: Ancora, chave: bytes | None) -> str:
    """The anchor as one line of text, signed when there is a key."""
    dados = {
        "m": ancora.momento.astimezone(UTC).isoformat(timespec="seconds"),
        "c": list(ancora.cabeca) if ancora.cabeca else None,
        "t": {
            tabela: [linhas, list(ultima) if ultima else None]
            for tabela, (linhas, ultima) in sorted(ancora.tabelas.items())
        },
    }
    texto = json.dumps(dados, separators=(",", ":"), sort_keys=True)
    carga = base64.urlsafe_b64encode(texto.encode("utf-8")).decode("ascii").rstrip("=")
    assinatura = _assinar(carga, chave) if chave is not None else SEM_ASSINATURA
    return f"{PREFIXO}.{carga}.{assinatura}"


def ler(texto: str, chave: bytes | None) -> tuple[Ancora, list[str]]:
    """An anchor read back, its signature checked when there is a key; and the avisos (an
    unsigned anchor read without a key, or a signed one read without its key). With a key, an
    unsigned anchor is refused: whoever rewrote the database can make one for the rewritten
    state, so accepting it would undo the signature. Anything malformed (the signature
    included, checked before the payload is read) is "âncora ilegível"."""
    invalida = EntradaInvalida(
        "ancora", "âncora ilegível: use o texto que 'multas auditoria ancorar' mostrou"
    )
    partes = texto.strip().split(".")
    if len(partes) != 3 or partes[0] != PREFIXO:
        raise invalida
    _, carga, assinatura = partes
    if not carga.isascii() or not assinatura.isascii():
        raise invalida  # hmac.compare_digest takes only ASCII text
    if assinatura == SEM_ASSINATURA:
        if chave is not None:
            raise EntradaInvalida(
                "ancora",
                "a âncora não é assinada, e foi dada --chave-ancora: quem tem o banco poderia "
                "tê-la forjado; use a âncora assinada que 'multas auditoria ancorar "
                "--chave-ancora' mostrou",
            )
    elif chave is not None and not hmac.compare_digest(assinatura, _assinar(carga, chave)):
        raise EntradaInvalida(
            "ancora",
            "a assinatura da âncora não confere com esta chave: âncora forjada ou "
            "alterada, ou outra chave",
        )
    try:
        bruto = base64.urlsafe_b64decode(carga + "=" * (-len(carga) % 4))
        dados = json.loads(bruto.decode("utf-8"))
        ancora = _da_carga(dados)
    except (
        binascii.Error,
        ValueError,
        KeyError,
        TypeError,
        AttributeError,
        OverflowError,
        RecursionError,
    ):
        raise invalida from None
    avisos = []
    if assinatura == SEM_ASSINATURA:
        avisos.append(
            "a âncora não é assinada: quem tem o banco poderia ter forjado uma igual (use "
            "--chave-ancora ao ancorar)"
        )
    elif chave is None:
        avisos.append("a assinatura da âncora não foi conferida: falta --chave-ancora")
    assinada = assinatura != SEM_ASSINATURA and chave is not None
    return Ancora(ancora.momento, ancora.cabeca, ancora.tabelas, assinada), avisos


def _par(valor: Any) -> tuple[int, str] | None:
    if valor is None:
        return None
    seq, hash_ = valor
    if not isinstance(seq, int) or not isinstance(hash_, str) or len(hash_) != 64:
        raise ValueError(valor)
    return seq, hash_


def _da_carga(dados: Mapping[str, Any]) -> Ancora:
    momento = datetime.fromisoformat(dados["m"])
    if momento.tzinfo is None:
        raise ValueError("momento sem fuso")
    tabelas = {
        str(tabela): (int(linhas), _par(ultima)) for tabela, (linhas, ultima) in dados["t"].items()
    }
    return Ancora(momento.astimezone(UTC), _par(dados["c"]), tabelas)
