"""§ 6 under hostile input, in the core (``calcular_prazos``): limitation periods that would
pass 31/12/9999 are an input error on the date they count from; a court suspension open up to
the end of the calendar, a reference date of 01/01/0001 and a thousand alternating suspensions
are computed exactly and fast; ``valor_multa`` is read strictly (only for anp) and its
discounted value is rounded once."""

from __future__ import annotations

import time
from datetime import date, timedelta
from typing import Any

import pytest

from multas.nucleo.ciclo import calcular_prazos
from multas.nucleo.erros import EntradaInvalida


def anp(*eventos: tuple[str, str], **extra: Any) -> dict[str, Any]:
    return {"tipo": "anp", "eventos": [{"evento": e, "data": d} for e, d in eventos], **extra}


def prazos(r: dict[str, Any]) -> dict[str, tuple[str, str]]:
    return {p["prazo"]: (p["data"], p["situacao"]) for p in r["prazos"]}


def erro_de(processo: dict[str, Any]) -> EntradaInvalida:
    with pytest.raises(EntradaInvalida) as info:
        calcular_prazos(processo, hoje=date(2026, 12, 4))
    return info.value


# --- limitation periods at the ends of the calendar -------------------------------------------


def test_prescricao_que_passaria_de_9999_e_erro_na_data() -> None:
    """A prescrição past 31/12/9999 is an input error on the date it counts from."""
    for inicio in ("9999-12-31", "9995-01-01"):
        erro = erro_de(anp(("infracao", inicio)))
        assert erro.campo == "eventos[0].data" and "31/12/9999" in erro.mensagem
    r = calcular_prazos(anp(("infracao", "9994-12-01"), data_referencia="9994-12-02"))
    assert prazos(r)["prescricao"] == ("9999-12-01", "em_aberto")


def test_defesa_que_passaria_de_9999_e_erro_na_data() -> None:
    """auto_infracao on 20/12/9999 → the defesa (15 days) would pass 31/12/9999: an input
    error on the date."""
    erro = erro_de(
        anp(
            ("infracao", "9994-12-31"),
            ("auto_infracao", "9999-12-20"),
            data_referencia="9999-12-20",
        )
    )
    assert erro.campo in ("eventos[0].data", "eventos[1].data")
    assert "31/12/9999" in erro.mensagem


# --- court suspensions ---------------------------------------------------------------------------


@pytest.mark.parametrize("referencia", ["9999-12-31", "9999-12-30"])
def test_suspensao_aberta_ate_o_fim_do_calendario(referencia: str) -> None:
    """An open suspension judged near 31/12/9999 pauses the prescrição past the calendar:
    shown on its last day, suspenso, never an OverflowError."""
    r = calcular_prazos(
        anp(
            ("infracao", "2025-01-10"),
            ("suspensao_judicial", "2025-02-01"),
            data_referencia=referencia,
        )
    )
    assert r["estado"] == "suspenso"
    assert prazos(r)["prescricao"] == ("9999-12-31", "suspenso")


def test_data_referencia_0001_com_suspensao() -> None:
    """data_referencia 0001-01-01 (before every event) is accepted; nothing lapsed."""
    r = calcular_prazos(
        anp(
            ("infracao", "2025-01-10"),
            ("suspensao_judicial", "2025-02-01"),
            data_referencia="0001-01-01",
        )
    )
    assert r["estado"] == "apuracao"
    assert prazos(r)["prescricao"] == ("2030-01-10", "em_aberto")


def test_muitas_suspensoes_alternadas_rapidas_e_exatas() -> None:
    """1000 one-day suspensions (2002 events) are summed exactly, and fast."""
    eventos = [("infracao", "2000-01-01"), ("auto_infracao", "2000-01-02")]
    dia = date(2000, 1, 3)
    for i in range(2000):
        eventos.append(
            ("suspensao_judicial" if i % 2 == 0 else "fim_suspensao_judicial", dia.isoformat())
        )
        dia += timedelta(days=1)
    inicio = time.perf_counter()
    r = calcular_prazos(anp(*eventos, data_referencia="2030-01-01"))
    assert time.perf_counter() - inicio < 5
    p = prazos(r)
    # 1000 paused days: auto 02/01/2000 + 3 anos = 02/01/2003, + 1000 dias
    assert p["prescricao_intercorrente"][0] == (date(2003, 1, 2) + timedelta(days=1000)).isoformat()
    assert p["prescricao"][0] == (date(2005, 1, 2) + timedelta(days=1000)).isoformat()


def test_suspensao_aberta_no_ultimo_dia_nao_custa_segundos() -> None:
    """A suspension opened on the last day of the prescrição and still open, judged on
    30/12/9999, is computed in well under a second: the extension is computed over the pauses
    (O(pauses)), not day by day. Was a defect (performance, denial of service): ``_Anp.anos``
    iterated its fixpoint one day per loop, ~2.9 million iterations, about 6 s of CPU for ONE
    processo (measured 5.7 s), paid again by every ``GET /prazos/proximos?data_referencia=
    9999-12-30`` for every stored processo with an open suspension.

    Input: infracao 01/01/2000, suspensao_judicial 01/01/2005 (the nominal end), open;
    data_referencia 9999-12-30."""
    inicio = time.perf_counter()
    r = calcular_prazos(
        anp(
            ("infracao", "2000-01-01"),
            ("suspensao_judicial", "2005-01-01"),
            data_referencia="9999-12-30",
        )
    )
    gasto = time.perf_counter() - inicio
    assert prazos(r)["prescricao"] == ("9999-12-31", "suspenso")
    assert gasto < 1.5, f"{gasto:.1f} s para um processo"


# --- valor_multa -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "valor",
    ["-1", "-0.01", "1.001", "1" + "0" * 40, "NaN", "Infinity", True, "1e3", "", [], {"v": 1}],
)
def test_valor_multa_invalido(valor: Any) -> None:
    """Negative, 3 decimals, huge, NaN, booleans... are errors naming valor_multa."""
    assert erro_de(anp(("infracao", "2025-01-10"), valor_multa=valor)).campo == "valor_multa"


def test_valor_multa_so_anp_no_calculo() -> None:
    """The computation (what POST /prazos runs) refuses valor_multa on a non-anp processo."""
    erro = erro_de(
        {
            "tipo": "renovabio.lista",
            "eventos": [{"evento": "fim_prazo_meta", "data": "2025-04-01"}],
            "valor_multa": "10",
        }
    )
    assert erro.campo == "valor_multa"


def test_valor_com_desconto_arredondado_uma_vez() -> None:
    """0,05 × 70% = 0,035 → 0,04 (half up, once)."""
    r = calcular_prazos(
        anp(
            ("infracao", "2025-01-10"),
            ("auto_infracao", "2025-01-20"),
            ("ciencia_primeira_instancia", "2025-03-01"),
            ("renuncia_recurso", "2025-03-02"),
            valor_multa="0.05",
            data_referencia="2025-03-03",
        )
    )
    assert r["valor_com_desconto"] == "0.04"
