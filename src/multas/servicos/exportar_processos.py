"""The export of stored processos (``multas processo exportar``, ``GET
/api/v1/processos/exportar``): the file :mod:`multas.servicos.importar` reads back, one row per
event, in CSV (optionally in Brazilian notation) or JSON Lines."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from datetime import date
from decimal import Decimal
from typing import Any

from multas.nucleo.erros import EntradaInvalida, mostrar_valor
from multas.nucleo.json_exato import despejar_json
from multas.saidas.exportacao import Notacao, celula_reversivel, csv_texto
from multas.servicos.gestao import Ciclo
from multas.servicos.importar import COLUNAS, LEITURAS, PLANO, _leitura_guardada
from multas.servicos.persistencia.armazenados import ProcessoArmazenado


def linhas_exportadas(processos: Sequence[ProcessoArmazenado]) -> Iterator[dict[str, Any]]:
    """Each stored processo as the file's rows: one per event, in order, with its own fields
    on each (``vinculo_lista``: the referencia of the list processo an anp processo is linked
    to; blank when that processo has none, so such a link does not round-trip)."""
    referencias = {p.id: p.identificador for p in processos}
    for p in processos:
        for evento in p.eventos:
            yield {
                "referencia": p.identificador,
                "tipo": p.tipo,
                "cnpj": p.cnpj,
                "nome": p.nome,
                "evento": evento.evento,
                "data": evento.data.isoformat(),
                "valor_multa": p.valor_multa,
                "calendario": p.calendario,
                "dias_sem_expediente": p.dias_sem_expediente,
                "caso_id": p.caso_id,
                "vinculo_lista": None if p.lista_id is None else referencias.get(p.lista_id),
                "valor": evento.valor,
                **{c: (evento.plano or {}).get(c) for c in PLANO},
                **{nome: _leitura_guardada(p, nome) for nome in LEITURAS},
                "prescricao_penal_anos": _leitura_guardada(p, "prescricao_penal_anos"),
                "encargo_legal_percentual": _leitura_guardada(p, "encargo_legal_percentual"),
                "valor_minimo_parcela": _leitura_guardada(p, "valor_minimo_parcela"),
            }


def exportar_csv(processos: Sequence[ProcessoArmazenado], ptbr: bool = False) -> str:
    """The processos as CSV (UTF-8; ``,``, dates ISO, or with ``ptbr`` ``;``, dates dd/mm/aaaa
    and ``valor_multa`` 1.234,56: :mod:`multas.saidas.exportacao`; the days without expediente
    separated by spaces); a cell a spreadsheet would run as a formula gets an apostrophe in
    front, reversibly (the import takes it off)."""
    notacao = Notacao(ptbr)

    def celulas(linha: dict[str, Any]) -> list[object]:
        dias = linha["dias_sem_expediente"]
        if isinstance(dias, list):
            linha["dias_sem_expediente"] = " ".join(
                notacao.data(date.fromisoformat(str(d))) for d in dias
            )
        linha["data"] = date.fromisoformat(linha["data"])
        for coluna in (
            "valor_multa",
            "valor",
            "valor_consolidado",
            "encargo_legal_percentual",
            "valor_minimo_parcela",
        ):
            if linha[coluna] is not None:
                linha[coluna] = Decimal(str(linha[coluna]))
        return [linha[nome] for nome in COLUNAS]

    return csv_texto(
        COLUNAS,
        (celulas(linha) for linha in linhas_exportadas(processos)),
        notacao,
        celula_reversivel,
    )


def exportar_jsonl(processos: Sequence[ProcessoArmazenado]) -> str:
    """The processos as JSON Lines: one object per event, every column in it (``null`` when
    the processo has no such field)."""
    return "".join(
        despejar_json(linha, compacto=True) + "\n" for linha in linhas_exportadas(processos)
    )


def exportar_processos(ciclo: Ciclo, formato: str, ptbr: bool = False) -> str:
    """Every stored processo in the file's format (``csv`` or ``jsonl``); one that does not
    match its history refuses the export (``RegistroAlterado``)."""
    processos = ciclo.repo.todos_os_processos()
    # a linked case the reader may not see (another client's) is not named
    visiveis = ciclo.repositorio.casos_visiveis(p.caso_id for p in processos if p.caso_id)
    processos = [
        p if p.caso_id is None or p.caso_id in visiveis else replace(p, caso_id=None)
        for p in processos
    ]
    if formato == "jsonl":
        return exportar_jsonl(processos)
    if formato == "csv":
        return exportar_csv(processos, ptbr)
    raise EntradaInvalida(
        "formato", f"formato desconhecido: {mostrar_valor(formato)} (formatos: csv, jsonl)"
    )
