"""Spec v4 § 3.7 W2, on a stored processo: after ``renuncia_recurso`` the decision is
definitive and the late charges run from the ``pagamento`` deadline (renúncia + 30 days), as
with ``ciencia_decisao_definitiva`` on the same day."""

from __future__ import annotations

from datetime import date
from typing import Any

from multas.servicos.gestao import Ciclo

INICIO = (
    ("infracao", "2025-01-10"),
    ("auto_infracao", "2025-02-03"),
    ("ciencia_primeira_instancia", "2025-06-02"),
)


def anp(*eventos: tuple[str, str]) -> dict[str, Any]:
    return {
        "tipo": "anp",
        "eventos": [{"evento": e, "data": d} for e, d in eventos],
        "valor_multa": "20000.00",
    }


def test_renuncia_e_decisao_definitiva_no_mesmo_dia_devem_o_mesmo(ciclo: Ciclo) -> None:
    # 12/06/2025 + 30 = 12/07/2025 (sábado) → 14/07/2025; paid 30/09/2025: 3 months or a
    # fraction; 20.000,00 × (1 + 3% + 6%) = 21.800,00
    renuncia = ciclo.criar(
        anp(*INICIO, ("renuncia_recurso", "2025-06-12"), ("pagamento", "2025-09-30"))
    )
    definitiva = ciclo.criar(
        anp(
            *INICIO,
            ("recurso", "2025-06-10"),
            ("ciencia_decisao_definitiva", "2025-06-12"),
            ("pagamento", "2025-09-30"),
        )
    )
    for derivado in (renuncia, definitiva):
        multa = ciclo.multa_vinculada(derivado, date(2026, 1, 1))
        assert multa is not None
        assert multa["resultado"]["vencimento"] == "2025-07-14"
        assert multa["resultado"]["valor"] == "21800.00"
    assert "valor_com_desconto" not in renuncia.resultado


def test_renuncia_paga_no_prazo_do_desconto_sem_encargos(ciclo: Ciclo) -> None:
    # paid on the discount's deadline (12/06/2025): 14.000,00 settles it, no charge
    pago = ciclo.criar(
        anp(*INICIO, ("renuncia_recurso", "2025-06-05"), ("pagamento", "2025-06-12"))
    )
    multa = ciclo.multa_vinculada(pago, date(2026, 1, 1))
    assert multa is not None and multa["resultado"]["valor"] == "14000.00"
    assert "redução da renúncia" in multa["descricao"]
