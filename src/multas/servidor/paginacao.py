"""One mechanism bounds every list that grows with the data: ``limite`` (how many) and
``deslocamento`` (how many to skip), read by the dependency :func:`paginacao` on every list
route of the API and every page that lists stored records, as ``GET /api/v1/casos`` always
read them. A bad value (0, negative, past the maximum, past 2^63, a text) is the same pt-BR
422 naming the parameter everywhere.

The database applies them (``LIMIT``/``OFFSET`` over a stable order), never Python over
everything read. The API tells the total in the ``X-Total-Count`` header (and in the body,
``total``, where the body is an object, as ``/api/v1/casos`` does); a page shows "anterior" and
"próxima" links (``_paginacao.html``) from :meth:`Pagina.navegacao`.
"""

# No ``from __future__ import annotations``: the dependency's parameters are built from the
# bounds given to paginacao(), which FastAPI reads from its signature's evaluated annotations.

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar
from urllib.parse import urlencode

from fastapi import Depends, Query, Request

from multas.nucleo.ids import MAIOR_ID
from multas.servidor.parametros import INTEIRO

T = TypeVar("T")

#: how many items a list gives when ``limite`` is not asked, and the most it may ask
PADRAO, MAXIMO = 50, 500
#: the header with the number of items of the whole list (every page of it)
CABECALHO_TOTAL = "X-Total-Count"


@dataclass(frozen=True, slots=True)
class Navegacao:
    """A page's position in its list, for ``_paginacao.html``: items ``inicio`` to ``fim``
    (from 1) of ``total``, and the links to the pages before and after (``None``: none)."""

    inicio: int
    fim: int
    total: int
    anterior: str | None
    proxima: str | None


@dataclass(frozen=True, slots=True)
class Pagina:
    """The part of a list asked for: at most ``limite`` items, after skipping
    ``deslocamento``."""

    limite: int
    deslocamento: int

    def fatia(self, itens: Sequence[T]) -> list[T]:
        """This part of a list that is derived, not stored (no query can bound it)."""
        return list(itens[self.deslocamento : self.deslocamento + self.limite])

    @staticmethod
    def cabecalhos(total: int) -> dict[str, str]:
        """The API response's headers: the whole list's size."""
        return {CABECALHO_TOTAL: str(total)}

    def navegacao(
        self,
        request: Request,
        total: int,
        mostrados: int,
        sem: Sequence[str] = (),
        caminho: str | None = None,
    ) -> Navegacao:
        """Where this page is in the list, with the links to the previous and next pages:
        the same address (or ``caminho``: the list's page, for a form's answer) and query
        (but ``sem``, e.g. a one-time notice), another ``deslocamento``."""
        consulta = [
            (chave, valor)
            for chave, valor in request.query_params.multi_items()
            if chave not in ("deslocamento", *sem)
        ]

        base = caminho or request.url.path

        def endereco(deslocamento: int) -> str:
            partes = consulta + ([("deslocamento", str(deslocamento))] if deslocamento else [])
            return base + (f"?{urlencode(partes)}" if partes else "")

        anterior = None
        if self.deslocamento > 0:
            anterior = endereco(max(0, min(self.deslocamento, total) - self.limite))
        seguinte = self.deslocamento + self.limite
        return Navegacao(
            inicio=self.deslocamento + 1 if mostrados else 0,
            fim=self.deslocamento + mostrados,
            total=total,
            anterior=anterior,
            proxima=endereco(seguinte) if seguinte < total else None,
        )


def paginacao(padrao: int = PADRAO, maximo: int = MAXIMO) -> Any:
    """The dependency that reads ``limite`` (1 to ``maximo``, default ``padrao``) and
    ``deslocamento`` (0 to 2^63 - 1), strictly (:data:`~multas.servidor.parametros.INTEIRO`):
    ``Annotated[Pagina, paginacao()]`` in a route's signature."""

    def ler(
        limite: Annotated[
            int,
            INTEIRO,
            Query(
                ge=1,
                le=maximo,
                description=f"quantos itens (padrão {padrao}, no máximo {maximo}); o total "
                f"vem no cabeçalho {CABECALHO_TOTAL}",
            ),
        ] = padrao,
        deslocamento: Annotated[
            int,
            INTEIRO,
            Query(ge=0, le=MAIOR_ID, description="quantos itens pular (padrão 0)"),
        ] = 0,
    ) -> Pagina:
        return Pagina(limite, deslocamento)

    return Depends(ler)


#: a list of the API or a page: 50 items unless asked, at most 500
Lista = Annotated[Pagina, paginacao()]
#: a list's first page, unasked (a form's answer shows the list again)
PRIMEIRA = Pagina(PADRAO, 0)

#: the OpenAPI description of the total's header, for a list route's 200 response
TOTAL_NO_CABECALHO: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "Uma página da lista (limite e deslocamento); o total no cabeçalho",
        "headers": {
            CABECALHO_TOTAL: {
                "description": "quantos itens a lista tem ao todo (todas as páginas)",
                "schema": {"type": "integer", "minimum": 0},
            }
        },
    }
}
