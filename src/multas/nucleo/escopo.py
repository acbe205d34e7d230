"""Which clients a user may reach (issue 20, item 2): the one rule, as an immutable value.

A user is either **unlimited** (``None`` where an :class:`Escopo` is expected: every record,
those without a CNPJ too) or limited to an :class:`Escopo`: some CNPJs (one establishment
each) and some roots (``raiz``, the CNPJ's first 8 characters: the head office and every
branch). A limited user reaches a record only if its CNPJ is one of the CNPJs or starts with
one of the roots; a record without a CNPJ is never theirs.

Both forms of the CNPJ are accepted (numeric and alphanumeric, :mod:`multas.nucleo.cnpj`); a CNPJ
given for a scope must have right check digits (a typo would silently hide a client), a root
must be 8 characters ``[0-9A-Z]`` once normalised.

The scope is stored with the user (``usuarios.clientes``), as the canonical JSON of
:meth:`Escopo.json`; the database enforces it in one place
(:mod:`multas.servicos.persistencia.escopo_sql`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

from multas.nucleo.cnpj import formatar, ler_cnpj, normalizar, normalizar_como_no_banco
from multas.nucleo.erros import EntradaInvalida, mostrar_valor

_CARACTERES = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ")


class ForaDoEscopo(PermissionError):
    """A write for a CNPJ the user's scope does not reach (HTTP 403, naming the CNPJ)."""

    def __init__(self, cnpj: str | None) -> None:
        self.cnpj = cnpj
        if cnpj:
            exibido = formatar(normalizar(cnpj)) if len(cnpj) <= 64 else mostrar_valor(cnpj)
            mensagem = f"acesso negado: o CNPJ {exibido} não é de um cliente deste usuário"
        else:
            mensagem = (
                "acesso negado: este usuário é limitado a clientes, e o registro não tem CNPJ"
            )
        super().__init__(mensagem)
        self.mensagem = mensagem


def normalizar_raiz(texto: str) -> str:
    """A root (the CNPJ's first 8 characters) normalised, or a pt-BR input error.

    >>> normalizar_raiz("12.abc.345"), normalizar_raiz("11222333")
    ('12ABC345', '11222333')
    """
    raiz = normalizar(texto)
    if len(raiz) != 8 or not set(raiz) <= _CARACTERES:
        raise EntradaInvalida(
            "cnpj_raiz",
            f"raiz de CNPJ inválida: {mostrar_valor(texto)} (os 8 primeiros caracteres do "
            "CNPJ, 0-9 e A-Z)",
        )
    return raiz


def normalizar_cnpj(texto: str) -> str:
    """A CNPJ of a scope normalised, or a pt-BR input error (its check digits must match:
    :func:`multas.nucleo.cnpj.ler_cnpj`, the one reader of a distributor's CNPJ).

    >>> normalizar_cnpj("11.222.333/0001-81")
    '11222333000181'
    """
    return ler_cnpj(texto)


@dataclass(frozen=True)
class Escopo:
    """The clients of a limited user: normalised CNPJs and roots (never both empty)."""

    cnpjs: frozenset[str]
    raizes: frozenset[str]

    @classmethod
    def de(cls, cnpjs: Iterable[str] = (), raizes: Iterable[str] = ()) -> Escopo | None:
        """A scope from the CNPJs and roots as typed (validated and normalised); ``None``
        (unlimited) when both are empty.

        >>> Escopo.de(["11.222.333/0001-81"], ["12abc345"]).json()
        '[{"cnpj": "11222333000181"}, {"raiz": "12ABC345"}]'
        >>> Escopo.de() is None
        True
        """
        normais = frozenset(normalizar_cnpj(c) for c in cnpjs)
        raizes_normais = frozenset(normalizar_raiz(r) for r in raizes)
        if not normais and not raizes_normais:
            return None
        return cls(normais, raizes_normais)

    @classmethod
    def ler(cls, texto: str | None) -> Escopo | None:
        """The stored form back (``None``/empty: unlimited). A stored text that cannot be
        read limits the user to nothing (never to everything).

        >>> Escopo.ler('[{"raiz": "11222333"}]').permite("11.222.333/0002-62")
        True
        >>> Escopo.ler("não é json").permite("11222333000181")
        False
        """
        if not texto:
            return None
        try:
            itens = json.loads(texto)
            cnpjs = [i["cnpj"] for i in itens if "cnpj" in i]
            raizes = [i["raiz"] for i in itens if "raiz" in i]
            if not all(isinstance(v, str) for v in (*cnpjs, *raizes)):
                raise TypeError
        except (TypeError, ValueError, KeyError, AttributeError):
            return cls(frozenset(), frozenset())
        return cls(
            frozenset(normalizar(c) for c in cnpjs), frozenset(normalizar(r) for r in raizes)
        )

    def json(self) -> str:
        """The canonical stored form: the CNPJs, then the roots, each sorted."""
        itens = [{"cnpj": c} for c in sorted(self.cnpjs)] + [
            {"raiz": r} for r in sorted(self.raizes)
        ]
        return json.dumps(itens, ensure_ascii=False)

    def permite(self, cnpj: str | None) -> bool:
        """Whether a record with this CNPJ (as stored, any spelling) is within the scope; a
        record without one never is.

        >>> e = Escopo.de(["11.222.333/0001-81"], ["12ABC345"])
        >>> e.permite("11222333000181"), e.permite("12.ABC.345/01DE-35"), e.permite(None)
        (True, True, False)
        >>> e.permite("11.222.333/0002-62"), e.permite("11.222.333/0001-81\\n")
        (False, False)
        """
        if not cnpj:
            return False
        # as the database's filter reads it: a CNPJ with a line break or a no-break space
        # around it would be written, then never found again by its own writer
        normal = normalizar_como_no_banco(cnpj)
        return normal in self.cnpjs or normal[:8] in self.raizes

    def descricao(self) -> str:
        """The scope in pt-BR, for listings: formatted CNPJs, then ``raiz XX.XXX.XXX``."""
        partes = [formatar(c) for c in sorted(self.cnpjs)] + [
            f"raiz {r[:2]}.{r[2:5]}.{r[5:]}" for r in sorted(self.raizes)
        ]
        return ", ".join(partes) or "nenhum cliente"


def permite(escopo: Escopo | None, cnpj: str | None) -> bool:
    """:meth:`Escopo.permite`, with ``None`` as the unlimited scope."""
    return escopo is None or escopo.permite(cnpj)
