"""Processos of the lifecycle: a linkable pair (an ``anp`` processo and the ``renovabio.lista``
processo of the same distributor), a stored processo that the rules no longer accept, a
pendência of the work queue, and a parcelamento's events (``PLANO``)."""

from __future__ import annotations

from datetime import date
from typing import Any

from multas.servicos.persistencia import Repositorio
from multas.servicos.persistencia.modelos_ciclo import EventoSalvo, ProcessoSalvo

CNPJ = "12.345.678/0001-95"
#: a pendência as the work queue lists it (and the calendar exports it): an ANP fine's payment
PENDENCIA: dict[str, Any] = {
    "processo_id": 7,
    "tipo": "anp",
    "id": None,
    "cnpj": None,
    "nome": "Posto Exemplo",
    "prazo": "pagamento",
    "rotulo": "Pagamento (vencimento)",
    "responsavel": "autuado",
    "data": "2025-02-05",
    "fundamento": "Decreto nº 2.953/1999, art. 26, caput",
    "contagem": "…",
    "situacao": "em_aberto",
    "encerrado": False,
    "dias_de_atraso": 0,
}


def anp(cnpj: str | None = CNPJ) -> dict[str, Any]:
    return {
        "tipo": "anp",
        "eventos": [
            {"evento": "infracao", "data": "2026-01-02"},
            {"evento": "auto_infracao", "data": "2026-01-12"},
        ],
    } | ({"cnpj": cnpj} if cnpj is not None else {})


def lista(cnpj: str | None = "12345678000195") -> dict[str, Any]:
    return {
        "tipo": "renovabio.lista",
        "eventos": [{"evento": "fim_prazo_meta", "data": "2025-12-31"}],
    } | ({"cnpj": cnpj} if cnpj is not None else {})


def invalidar(repo: Repositorio, processo_id: int) -> None:
    """What a later change of the rules does to a stored processo: the system itself stored
    it (the chain vouches for it), and § 6 now refuses its list (here: an event that § 6
    never accepts after these, written past the check)."""
    with repo.escrita("migração") as escrita:
        linha = escrita.travar(ProcessoSalvo, processo_id)
        assert linha is not None
        escrita.sessao.refresh(linha, ["eventos"])
        escrita.inserir(
            EventoSalvo(
                processo_id=processo_id,
                posicao=len(linha.eventos),
                evento="fim_prazo_meta_bis",
                data=date(2025, 1, 1),
                usuario="migração",
                criado_em=escrita.momento,
            ),
            "teste",
        )


# --- the work queue's five processos (tests/ciclo/test_pendencias.py counts their dates by
# hand in its docstring; the browser's queue test shows them) -------------------------------

CNPJ_A = "12.345.678/0001-95"
NOME_C = '=HYPERLINK("http://exemplo.invalid")'


def _anp(*eventos: tuple[str, str], **extra: Any) -> dict[str, Any]:
    return {"tipo": "anp", "eventos": [{"evento": e, "data": d} for e, d in eventos], **extra}


PROCESSOS: dict[str, dict[str, Any]] = {
    "A": _anp(
        ("infracao", "2026-01-05"),
        ("auto_infracao", "2026-02-02"),
        ("defesa", "2026-02-10"),
        ("ciencia_primeira_instancia", "2026-06-01"),
        ("renuncia_recurso", "2026-06-03"),
        nome="Posto A",
        cnpj=CNPJ_A,
    ),
    "B": _anp(
        ("infracao", "2015-01-10"),
        ("auto_infracao", "2015-06-01"),
        ("ciencia_primeira_instancia", "2022-03-01"),
        nome="Prescrito SA",
        cnpj="11.222.333/0001-81",
    ),
    "C": _anp(("infracao", "2026-05-04"), ("auto_infracao", "2026-07-13"), nome=NOME_C),
    "D": {
        "tipo": "renovabio.balanco",
        "cnpj": "33.444.555/0001-66",
        "nome": "Distribuidora D",
        "eventos": [
            {"evento": "inclusao_lista", "data": "2026-07-01"},
            {"evento": "comprovacao_adequacao", "data": "2026-07-14"},
        ],
    },
    "E": _anp(
        ("infracao", "2026-06-01"),
        ("auto_infracao", "2026-07-06"),
        ("suspensao_judicial", "2026-07-10"),
        nome="Posto E",
        cnpj="12345678000195",
    ),
}


# --- a parcelamento (spec § 6.2 v4) ----------------------------------------------------------


def evento(nome: str, dia: str, **extra: object) -> dict[str, object]:
    """A processo's event as the API takes it."""
    return {"evento": nome, "data": dia, **extra}


#: a partial payment in the discount's deadline that does not reach it (the discount lapses),
#: the inscription, then a 12-instalment plan of what was owed on 31/07/2024: the vencimento
#: was 05/07, one month "ou fração" late on 7.000: 7.000 + 70 + 140 = 7.210,00
PLANO = [
    evento("infracao", "2024-01-10"),
    evento("auto_infracao", "2024-02-01"),
    evento("ciencia_primeira_instancia", "2024-06-03"),
    evento("renuncia_recurso", "2024-06-05"),
    evento("pagamento", "2024-06-10", valor="3000.00"),
    evento("inscricao_divida_ativa", "2024-07-10"),
    evento("parcelamento", "2024-07-31", parcelas=12, valor_consolidado="7210.00"),
    # each 600,83 (7.210 ÷ 12 rounded down; the last 600,87) + 1% in the month of payment,
    # no whole month after July's consolidation yet: 6,01
    evento("pagamento", "2024-07-31", valor="606.84"),
    evento("pagamento", "2024-08-30", valor="606.84"),
]
