"""``multas reavaliar``: what a change of the legal data (the rules, the calendar) changed in
what is stored (spec v3, § 6, "stored data under the new rules").

- **Saved cases** keep the result computed when they were saved. Each is computed again
  with the legislation loaded now; every output that differs (``valor``, ``vencimento``,
  ``prazo_comprovacao``, the amounts and counts of the result) is listed, old and new side by
  side. A case the rules now refuse is listed with its pt-BR ``erro``.
- **Stored processos** keep their events, not their deadlines: § 6 derives them on every
  reading, so they always follow the rules in force. A processo the rules now refuse is
  listed with its ``erro`` (it stays stored and listed elsewhere too, never dropped). Given
  the legislation as it was before a change (``anterior``: ``multas reavaliar
  --legislacao-anterior PASTA``), each processo is derived under both on the same reference
  date, and every deadline, estado or valor_com_desconto that differs is listed, old and new
  side by side.

The same command serves every later change of the legal data.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import date
from decimal import Decimal
from functools import partial
from typing import TYPE_CHECKING, Any

from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.legislacao import Legislacao
from multas.servicos.relogio import hoje

if TYPE_CHECKING:
    from multas.servicos.gestao import Ciclo
    from multas.servicos.persistencia import Caso
    from multas.servicos.processos import ProcessoDerivado

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


def _resumo(situacao: Any) -> dict[str, Any]:
    """A derivation's comparable outputs: each deadline's date, the estado, the discounted
    value (``prazo.NOME`` for a deadline)."""
    resumo: dict[str, Any] = {"estado": situacao.estado}
    if situacao.valor_com_desconto is not None:
        resumo["valor_com_desconto"] = str(situacao.valor_com_desconto)
    for prazo in situacao.prazos:
        resumo[f"prazo.{prazo.nome}"] = prazo.data.isoformat()
    return resumo


def _processos_anteriores(
    ciclo: Ciclo, anterior: Legislacao, referencia: date | None
) -> dict[int, dict[str, Any] | str]:
    """Each stored processo derived under the earlier legislation: its outputs, or the
    ``erro`` that legislation gave."""
    from multas.servicos.gestao import Ciclo

    antigos: dict[int, dict[str, Any] | str] = {}
    for derivado in Ciclo(ciclo.repositorio, anterior).todos(referencia):
        a = derivado.armazenado
        antigos[a.id] = derivado.erro if derivado.erro is not None else _resumo(derivado.valido)
    return antigos


def reavaliar(
    ciclo: Ciclo,
    legislacao: Legislacao | None = None,
    anterior: Legislacao | None = None,
    referencia: date | None = None,
    processos: int = 1,
) -> list[dict[str, Any]]:
    """Every stored record whose value or deadline changed (or that is now refused), with
    the old and the new value side by side; processos compared with ``anterior``, when
    given, on ``referencia`` (default: today, from the injected clock), and derived in
    ``processos`` forked workers (the command line's cores). With the
    database's own legislation, on today's date, the work queue's index is rebuilt on the way
    (:meth:`~multas.servicos.pendencias.CicloPendencias.reduzidos`)."""
    if legislacao is not None:  # another legislation: nothing of it is indexed
        from multas.servicos.gestao import Ciclo

        ciclo = Ciclo(ciclo.repositorio, legislacao)
    legislacao = ciclo.legislacao
    return _casos_salvos(ciclo, legislacao) + _processos(
        ciclo, anterior, referencia or hoje(), processos
    )


def _casos_salvos(ciclo: Ciclo, legislacao: Legislacao) -> list[dict[str, Any]]:
    from multas.nucleo.motor import calcular

    itens: list[dict[str, Any]] = []
    for caso in _casos(ciclo):
        base = {"registro": "caso", "id": caso.id, "regime": caso.regime}
        if caso.erro is not None:
            itens.append(base | {"campo": None, "antes": None, "depois": None, "erro": caso.erro})
            continue
        antes = caso.resultado_dict()
        try:
            depois = calcular(
                json.loads(caso.entrada, parse_float=Decimal), legislacao=legislacao, hoje=hoje()
            )
        except EntradaInvalida as erro:
            itens.append(
                base
                | {"campo": erro.campo, "antes": antes.get("valor"), "depois": None}
                | {"erro": f"as regras de agora recusam o caso: {erro.mensagem}"}
            )
            continue
        for campo, velho, novo in _comparar(antes, depois):
            itens.append(base | {"campo": campo, "antes": velho, "depois": novo, "erro": None})
    return itens


def _processos(
    ciclo: Ciclo, anterior: Legislacao | None, referencia: date, processos: int = 1
) -> list[dict[str, Any]]:
    antigos = {} if anterior is None else _processos_anteriores(ciclo, anterior, referencia)
    reduzir = partial(_diferencas, antigos)
    return [item for itens in ciclo.reduzidos(referencia, reduzir, processos) for item in itens]


def _diferencas(
    antigos: dict[int, dict[str, Any] | str], derivado: ProcessoDerivado
) -> list[dict[str, Any]]:
    """What changed of one processo: its ``erro`` now, or each output that differs from
    ``antigos`` (the earlier legislation's derivations)."""
    a = derivado.armazenado
    base = {"registro": "processo", "id": a.id, "regime": a.tipo if a.erro is None else None}
    if derivado.erro is not None:
        return [base | {"campo": None, "antes": None, "depois": None, "erro": derivado.erro}]
    velho = antigos.get(a.id)
    if isinstance(velho, str):  # refused before, accepted now
        return [base | {"campo": "erro", "antes": velho, "depois": None, "erro": None}]
    if velho is None:
        return []
    return [
        base | {"campo": campo, "antes": antes, "depois": depois, "erro": None}
        for campo, antes, depois in _comparar(velho, _resumo(derivado.valido))
    ]


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
