"""Spec v4 § 3.7 W2: with the appeal waived, the decision is definitive on the waiver; once
the discount's deadline passes without the discounted amount paid, ``valor_com_desconto`` is
absent and an aviso says the discount was lost. Dates counted by hand beside each assertion."""

from __future__ import annotations

from typing import Any

from multas.nucleo.ciclo import calcular_prazos

#: the review's case: R$ 20.000,00, waiver on 12/06/2025; 02/06/2025 + 10 = 12/06/2025
#: (quinta) is the appeal's, so the discount's, deadline; 12/06/2025 + 30 = 12/07/2025
#: (sábado) → 14/07/2025 (segunda), the vencimento
RENUNCIA = (
    ("infracao", "2025-01-10"),
    ("auto_infracao", "2025-02-03"),
    ("ciencia_primeira_instancia", "2025-06-02"),
    ("renuncia_recurso", "2025-06-12"),
)


def anp(*eventos: tuple[str, str], **extra: Any) -> dict[str, Any]:
    return {
        "tipo": "anp",
        "eventos": [{"evento": e, "data": d} for e, d in eventos],
        "valor_multa": "20000.00",
        **extra,
    }


def prazos(r: dict[str, Any]) -> dict[str, tuple[str, str]]:
    return {p["prazo"]: (p["data"], p["situacao"]) for p in r["prazos"]}


def test_no_prazo_do_desconto_o_valor_com_desconto_aparece() -> None:
    r = calcular_prazos(anp(*RENUNCIA, data_referencia="2025-06-12"))
    assert prazos(r)["pagamento_com_desconto"] == ("2025-06-12", "em_aberto")
    assert r["valor_com_desconto"] == "14000.00"  # 20.000,00 × 70%
    assert not any("desconto foi perdido" in a or "Desconto perdido" in a for a in r["avisos"])


def test_passado_o_prazo_sem_pagamento_o_desconto_se_perde() -> None:
    r = calcular_prazos(anp(*RENUNCIA, data_referencia="2025-06-13"))
    assert prazos(r)["pagamento_com_desconto"] == ("2025-06-12", "vencido")
    assert prazos(r)["pagamento"] == ("2025-07-14", "em_aberto")
    assert "valor_com_desconto" not in r
    assert (
        "Desconto perdido: o prazo “Pagamento com redução (renúncia ao recurso)” "
        "(pagamento_com_desconto) (12/06/2025) passou sem o pagamento do valor com desconto; a "
        "redução de 30% (Lei nº 9.847/1999, art. 4º, § 3º) só vale no prazo do recurso. A multa "
        "é devida integralmente até o vencimento (14/07/2025), e depois dele com juros e multa "
        "de mora."
    ) in r["avisos"]


def test_pago_com_atraso_o_desconto_se_perde_e_ha_mora() -> None:
    # paid 30/09/2025, judged on a date before it: the recorded payment decides
    r = calcular_prazos(anp(*RENUNCIA, ("pagamento", "2025-09-30"), data_referencia="2025-06-12"))
    assert r["estado"] == "pago"
    assert "valor_com_desconto" not in r
    assert prazos(r)["pagamento_com_desconto"] == ("2025-06-12", "cumprido_com_atraso")
    atraso = next(a for a in r["avisos"] if a.startswith("O evento “Pagamento”"))
    assert "o desconto foi perdido" in atraso
    # 14/07 → 30/09/2025: 78 days after the vencimento
    assert "depois do vencimento (14/07/2025), 78 dias corridos de atraso" in atraso


def test_pago_no_prazo_do_desconto_o_mantem() -> None:
    r = calcular_prazos(anp(*RENUNCIA, ("pagamento", "2025-06-12"), data_referencia="2026-01-01"))
    assert prazos(r)["pagamento_com_desconto"] == ("2025-06-12", "cumprido")
    assert r["valor_com_desconto"] == "14000.00"


def test_prazo_do_desconto_suspenso_nao_e_dado_por_perdido() -> None:
    # the order came on the deadline's own day: the deadline is suspended, its fate is the
    # order's terms; the amount stays shown
    r = calcular_prazos(
        anp(*RENUNCIA, ("suspensao_judicial", "2025-06-12"), data_referencia="2025-07-01")
    )
    assert prazos(r)["pagamento_com_desconto"] == ("2025-06-12", "suspenso")
    assert r["valor_com_desconto"] == "14000.00"
