"""``multas reavaliar``: what a change of the legal data (the rules, the calendar) changed in
what is stored (spec v3, § 6, "stored data under the new rules").

- **Saved cases** keep the result computed when they were saved. Each is computed again
  with the legislation loaded now; every output that differs (``valor``, ``vencimento``,
  ``prazo_comprovacao``, the amounts and counts of the result) is listed, old and new side by
  side. A case the rules now refuse is listed with its pt-BR ``erro``.
- **Stored processos** keep their events, not their deadlines: § 6 derives them on every
  reading, so they always follow the rules in force. A processo the rules now refuse is
  listed with its ``erro`` (it stays stored and listed elsewhere too, never dropped).

The same command serves every later change of the legal data.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from multas.erros import EntradaInvalida
from multas.legislacao import Legislacao

if TYPE_CHECKING:
    from multas.ciclo.gestao import Ciclo
    from multas.persistencia import Caso

#: the result fields compared (the contract's outputs; passos and avisos are explanation)
_IGNORADOS = frozenset({"passos", "avisos", "vigencia", "alternativas", "interpretacao"})
_PAGINA = 500


def _casos(ciclo: Ciclo) -> Iterator[Caso]:
    deslocamento = 0
    while True:
        pagina = ciclo.repositorio.listar(_PAGINA, deslocamento)
        yield from pagina
        if len(pagina) < _PAGINA:
            return
        deslocamento += _PAGINA


def _comparar(antes: dict[str, Any], depois: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    campos = sorted((set(antes) | set(depois)) - _IGNORADOS)
    return [(c, antes.get(c), depois.get(c)) for c in campos if antes.get(c) != depois.get(c)]


def reavaliar(ciclo: Ciclo, legislacao: Legislacao | None = None) -> list[dict[str, Any]]:
    """Every stored record whose value or deadline changed (or that is now refused), with
    the old and the new value side by side."""
    from multas.motor import calcular

    legislacao = legislacao or ciclo.legislacao
    itens: list[dict[str, Any]] = []
    for caso in _casos(ciclo):
        base = {"registro": "caso", "id": caso.id, "regime": caso.regime}
        if caso.erro is not None:
            itens.append(base | {"campo": None, "antes": None, "depois": None, "erro": caso.erro})
            continue
        antes = caso.resultado_dict()
        try:
            depois = calcular(json.loads(caso.entrada, parse_float=Decimal), legislacao=legislacao)
        except EntradaInvalida as erro:
            itens.append(
                base
                | {"campo": erro.campo, "antes": antes.get("valor"), "depois": None}
                | {"erro": f"as regras de agora recusam o caso: {erro.mensagem}"}
            )
            continue
        for campo, velho, novo in _comparar(antes, depois):
            itens.append(base | {"campo": campo, "antes": velho, "depois": novo, "erro": None})
    for derivado in ciclo.todos():
        if derivado.erro is not None:
            a = derivado.armazenado
            itens.append(
                {
                    "registro": "processo",
                    "id": a.id,
                    "regime": a.tipo if a.erro is None else None,
                    "campo": None,
                    "antes": None,
                    "depois": None,
                    "erro": derivado.erro,
                }
            )
    return itens


def como_texto(itens: list[dict[str, Any]]) -> str:
    if not itens:
        return "Nada mudou: os casos salvos dão o mesmo resultado e os processos são aceitos.\n"
    linhas = [f"{len(itens)} diferença(s) com a legislação carregada agora:"]
    for item in itens:
        onde = f"{item['registro']} nº {item['id']} ({item['regime'] or '?'})"
        if item["erro"]:
            linhas.append(f"  {onde}: {item['erro']}")
        else:
            linhas.append(f"  {onde}, {item['campo']}: {item['antes']} → {item['depois']}")
    return "\n".join(linhas) + "\n"
