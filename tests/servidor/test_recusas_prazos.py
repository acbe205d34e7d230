"""§ 6 through the API under hostile input: ``valor_multa`` has one rule in the computation
(``POST /api/v1/prazos``) and in a stored processo (``POST /api/v1/processos``), a stored
processo refuses what it would not keep, and ``GET /api/v1/prazos/proximos`` names each bad
parameter and answers at both ends of the calendar."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.utils import erro_pt


def anp(*eventos: tuple[str, str], **extra: Any) -> dict[str, Any]:
    return {"tipo": "anp", "eventos": [{"evento": e, "data": d} for e, d in eventos], **extra}


# --- valor_multa and the stored processo ------------------------------------------------------


def test_valor_multa_zero_e_recusado_como_no_processo_salvo(cliente: TestClient) -> None:
    """``valor_multa: "0"`` is a 422 naming valor_multa in both ``POST /api/v1/processos``
    and ``POST /api/v1/prazos``: the same field of § 6 has one rule, and a fine fixed at
    R$ 0,00 is not a fine. Was a defect (inconsistency): ``POST /api/v1/prazos`` accepted it
    (read as a ``quantia``, ≥ 0) while ``POST /api/v1/processos`` refused it ("deve ser maior
    que zero", a ``quantia_positiva``)."""
    corpo = anp(("infracao", "2025-01-10"), valor_multa="0")
    erro_pt(cliente.post("/api/v1/processos", json=corpo), 422, "valor_multa")
    erro_pt(cliente.post("/api/v1/prazos", json=corpo), 422, "valor_multa")


def test_valor_multa_em_processo_salvo_nao_anp_e_recusado(cliente: TestClient) -> None:
    """``POST /api/v1/processos`` with ``{"tipo": "renovabio.lista", ..., "valor_multa":
    "10"}`` is a 422 naming valor_multa (§ 6: valor_multa is "só anp"), as ``POST
    /api/v1/prazos`` answers the same body. Was a defect: it answered 201 and stored
    ``principal: "10"``, which nothing ever used: silently kept and ignored."""
    corpo = {
        "tipo": "renovabio.lista",
        "eventos": [{"evento": "fim_prazo_meta", "data": "2025-04-01"}],
        "valor_multa": "10",
    }
    erro_pt(cliente.post("/api/v1/prazos", json=corpo), 422, "valor_multa")
    erro_pt(cliente.post("/api/v1/processos", json=corpo), 422, "valor_multa")


def test_principal_e_valor_multa_juntos(cliente: TestClient) -> None:
    """The old and the new name together are refused, naming principal."""
    corpo = anp(("infracao", "2025-01-10"), valor_multa="10", principal="10")
    erro_pt(cliente.post("/api/v1/processos", json=corpo), 422, "principal")


def test_processo_salvo_recusa_campos_nao_gravados(cliente: TestClient) -> None:
    """A stored processo refuses what it would not keep (never silently dropped);
    dias_sem_expediente, kept since migration r0006, is tests/ciclo/test_dias_sem_expediente_salvos.py's."""
    corpo = anp(("infracao", "2025-01-10"), data_referencia="2025-02-01")
    erro_pt(cliente.post("/api/v1/processos", json=corpo), 422, "data_referencia")


# --- /prazos/proximos ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("consulta", "campo"),
    [
        ("data_referencia=2025-02-30", "data_referencia"),
        ("data_referencia=", "data_referencia"),
        ("data_referencia=0", "data_referencia"),
        ("data_referencia=2025-1-1", "data_referencia"),
        ("vencidos=talvez", "vencidos"),
        ("dias=3661", "dias"),
        ("dias=1.0", "dias"),
    ],
)
def test_proximos_parametros_invalidos(cliente: TestClient, consulta: str, campo: str) -> None:
    """A pt-BR 422 naming the parameter."""
    erro_pt(cliente.get(f"/api/v1/prazos/proximos?{consulta}"), 422, campo)


@pytest.mark.parametrize("dia", ["0001-01-01", "9999-12-31"])
def test_proximos_nas_pontas(cliente: TestClient, dia: str) -> None:
    """A stored processo judged on 0001-01-01 / 9999-12-31 with the widest window."""
    criado = cliente.post(
        "/api/v1/processos",
        json=anp(("infracao", "2025-01-10"), ("suspensao_judicial", "2025-02-01")),
    )
    assert criado.status_code == 201, criado.text
    r = cliente.get(f"/api/v1/prazos/proximos?data_referencia={dia}&dias=3660&vencidos=true")
    assert r.status_code == 200, r.text
    assert r.json()["hoje"] == dia
