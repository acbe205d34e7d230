"""The days without business informed by the user (``dias_sem_expediente``) under hostile
input, in the core: in a § 6 processo, malformed lists and items are errors naming the field
and the item, dates at the ends of the calendar are harmless, and the informed days move a
deadline; in the kernel, 10 000 distinct sets of dates are grouped fast, each row as the
scalar engine computes it."""

from __future__ import annotations

import time
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

from multas import calcular
from multas.nucleo.ciclo import calcular_prazos
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.kernel import calcular_colunas
from multas.servicos import relogio


def anp(*eventos: tuple[str, str], **extra: Any) -> dict[str, Any]:
    return {"tipo": "anp", "eventos": [{"evento": e, "data": d} for e, d in eventos], **extra}


def prazos(r: dict[str, Any]) -> dict[str, tuple[str, str]]:
    return {p["prazo"]: (p["data"], p["situacao"]) for p in r["prazos"]}


def erro_de(processo: dict[str, Any]) -> EntradaInvalida:
    with pytest.raises(EntradaInvalida) as info:
        calcular_prazos(processo)
    return info.value


# --- dias_sem_expediente in a processo --------------------------------------------------------


@pytest.mark.parametrize(
    ("valor", "campo"),
    [
        ([20250210], "dias_sem_expediente[0]"),
        ([["2025-02-10"]], "dias_sem_expediente[0]"),
        (["2025-02-10", None], "dias_sem_expediente[1]"),
        ({"2025-02-10": True}, "dias_sem_expediente"),
        (2025, "dias_sem_expediente"),
        (["2025-02-30"], "dias_sem_expediente[0]"),
        (["２０２５-02-10"], "dias_sem_expediente[0]"),
        (
            ["2025-01-01"]
            + [(date(2026, 1, 1) + timedelta(days=i)).isoformat() for i in range(366)],
            "dias_sem_expediente",
        ),
    ],
)
def test_dias_sem_expediente_invalidos_no_processo(valor: Any, campo: str) -> None:
    """Numbers, nested lists, null items, objects, impossible dates, fullwidth digits and
    more than 366 dates are errors naming the field (and the item)."""
    assert erro_de(anp(("infracao", "2025-01-10"), dias_sem_expediente=valor)).campo == campo


def test_dias_sem_expediente_nas_pontas_do_calendario() -> None:
    """0001-01-01 and 9999-12-31 as extra days are accepted and harmless."""
    r = calcular_prazos(
        anp(
            ("infracao", "2025-01-10"),
            ("auto_infracao", "2025-02-01"),
            dias_sem_expediente=["9999-12-31", "0001-01-01"],
            data_referencia="2025-02-02",
        )
    )
    assert prazos(r)["defesa"] == ("2025-02-17", "em_aberto")


def test_dias_sem_expediente_move_o_prazo_de_defesa() -> None:
    """01/02/2025 + 15 = 16/02 (domingo) → 17/02; 17/02 and 18/02 informed → 19/02."""
    r = calcular_prazos(
        anp(
            ("infracao", "2025-01-10"),
            ("auto_infracao", "2025-02-01"),
            dias_sem_expediente=["2025-02-17", "2025-02-18", "2025-02-18"],
            data_referencia="2025-02-02",
        )
    )
    assert prazos(r)["defesa"] == ("2025-02-19", "em_aberto")


# --- dias_sem_expediente in the kernel ---------------------------------------------------------


def test_kernel_dez_mil_conjuntos_de_datas(tmp_path: Path) -> None:
    """10 000 distinct date sets are grouped in about a second, each row as the engine."""
    n = 10_000
    celulas = [
        f"{(date(2025, 6, 1) + timedelta(days=i % 40)).isoformat()} "
        f"{(date(2026, 1, 1) + timedelta(days=i)).isoformat()}"
        for i in range(n)
    ]
    colunas = {
        "principal": pa.array(["1000"] * n),
        "data_ciencia": pa.array(["2025-05-21"] * n),
        "data_pagamento": pa.array(["2025-06-25"] * n),
        "dias_sem_expediente": pa.array(celulas),
    }
    inicio = time.perf_counter()
    r = calcular_colunas(
        "anp.mora",
        colunas,
        n,
        {"calendario": "expediente", "encargos": "decreto"},
        hoje=relogio.hoje(),
    )
    assert time.perf_counter() - inicio < 20
    assert bool(r.ok.all())
    for i in (0, 22, 23, 24, 39, n - 1):
        motor = calcular(
            {
                "regime": "anp.mora",
                "principal": "1000",
                "data_ciencia": "2025-05-21",
                "data_pagamento": "2025-06-25",
                "dias_sem_expediente": celulas[i].split(),
            }
        )
        assert str(r.saidas["vencimento"][i]) == motor["vencimento"], i
        assert int(r.valor[i]) == int(motor["valor"].replace(".", "")), i
