"""A stored processo keeps an event that repeats (migration r0015): a second court
suspension, which § 6 always accepted, and (spec § 6.2 v4) payments with their amounts,
through the library and the API alike."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from multas.servicos.gestao import Ciclo
from multas.servicos.persistencia import Repositorio
from multas.servidor import criar_app
from tests.utils.processos import PLANO

EVENTOS = [
    {"evento": "infracao", "data": "2024-01-10"},
    {"evento": "auto_infracao", "data": "2024-02-01"},
    {"evento": "suspensao_judicial", "data": "2024-03-01"},
    {"evento": "fim_suspensao_judicial", "data": "2024-04-01"},
]
SEGUNDA = {"evento": "suspensao_judicial", "data": "2024-05-02"}


def test_criar_e_acrescentar_guardam_a_segunda_suspensao(tmp_path: Path) -> None:
    ciclo = Ciclo(Repositorio(f"sqlite:///{tmp_path / 'm.db'}"))
    criado = ciclo.criar({"tipo": "anp", "eventos": [*EVENTOS, SEGUNDA]})
    assert [e.evento for e in criado.armazenado.eventos][-1] == "suspensao_judicial"
    pid = ciclo.criar({"tipo": "anp", "eventos": EVENTOS}).armazenado.id
    ciclo.acrescentar(pid, SEGUNDA)
    assert len(ciclo.obter(pid).armazenado.eventos) == 5
    assert ciclo.verificar().integro


def test_pagamentos_com_valor_pela_api(tmp_path: Path) -> None:
    with TestClient(
        criar_app(f"sqlite:///{tmp_path / 'm.db'}"), raise_server_exceptions=False
    ) as cliente:
        r = cliente.post(
            "/api/v1/processos",
            json={
                "tipo": "anp",
                "valor_multa": "10000.00",
                "eventos": [
                    *PLANO[:4],
                    {"evento": "pagamento", "data": "2024-06-10", "valor": "3000"},
                ],
            },
        )
        assert r.status_code == 201, r.text
        pid = r.json()["processo_id"]
        assert r.json()["eventos"][-1]["valor"] == "3000.00"
        r = cliente.post(
            f"/api/v1/processos/{pid}/eventos",
            json={"evento": "pagamento", "data": "2024-08-20", "valor": "2000.00"},
        )
        assert r.status_code == 201, r.text
        # tests/nucleo/test_ciclo_devido.py counts it by hand: 5.582,60 on 01/10/2024
        r = cliente.get(f"/api/v1/processos/{pid}", params={"em": "2024-10-01"})
        assert (r.json()["resultado"]["estado"], r.json()["resultado"]["devido"]["saldo"]) == (
            "pago_parcialmente",
            "5582.60",
        )
        ruim = cliente.post(
            f"/api/v1/processos/{pid}/eventos",
            json={"evento": "pagamento", "data": "2024-08-21", "valor": "-1"},
        )
        assert ruim.status_code == 422 and ruim.json()["erro"]["campo"] == "valor"
        outro = cliente.post(
            f"/api/v1/processos/{pid}/eventos",
            json={"evento": "recurso", "data": "2024-08-21", "valor": "1"},
        )
        assert outro.status_code == 422 and outro.json()["erro"]["campo"] == "valor"


def test_o_salvo_guarda_as_leituras_do_devido_e_o_encargo_legal(tmp_path: Path) -> None:
    """The readings of § 6.2 v4 and encargo_legal_percentual go into processos.leituras and
    come back: the stored processo owes what the same processo given to prazos calcular owes."""
    from datetime import date

    from multas.nucleo.ciclo import calcular_prazos

    dados = {
        "tipo": "anp",
        "valor_multa": "10000.00",
        "encargo_legal_percentual": "20",
        "interpretacao": {"encargos": "lei-10522", "desconto": "proporcional"},
        "eventos": PLANO[:6],
    }
    ciclo = Ciclo(Repositorio(f"sqlite:///{tmp_path / 'm.db'}"))
    pid = ciclo.criar(dados).armazenado.id
    salvo = ciclo.obter(pid, date(2024, 12, 2)).resultado
    direto = calcular_prazos({**dados, "data_referencia": "2024-12-02"})
    assert salvo["devido"] == direto["devido"]
    assert (
        direto["devido"]["encargo_legal"] is not None
        and direto["devido"]["imputacao"] == "proporcional"
    )


def test_o_salvo_guarda_o_parcelamento(tmp_path: Path) -> None:
    """Migration r0016: a parcelamento's plan is kept on its event; the stored processo owes
    what the same processo given to prazos calcular owes, and a bad plan is refused naming
    the field."""
    from datetime import date

    import pytest

    from multas.nucleo.ciclo import calcular_prazos
    from multas.nucleo.erros import EntradaInvalida

    eventos = [*PLANO[:4], PLANO[5]]  # the worked example without its payments
    plano = {
        "evento": "parcelamento",
        "data": "2024-07-31",
        "parcelas": 12,
        "valor_consolidado": "7210.00",
        "parcelas_para_rescisao": 2,
    }
    ciclo = Ciclo(Repositorio(f"sqlite:///{tmp_path / 'm.db'}"))
    pid = ciclo.criar(
        {"tipo": "anp", "valor_multa": "10000.00", "eventos": [*eventos, plano]}
    ).armazenado.id
    outro = ciclo.criar(
        {"tipo": "anp", "valor_multa": "10000.00", "eventos": eventos}
    ).armazenado.id
    with pytest.raises(EntradaInvalida) as erro:
        ciclo.acrescentar(outro, {**plano, "parcelas": 61})
    assert erro.value.campo == "parcelas"
    ciclo.acrescentar(outro, plano)
    ciclo.acrescentar(outro, {"evento": "pagamento", "data": "2024-07-31", "valor": "606.84"})
    direto = calcular_prazos(
        {
            "tipo": "anp",
            "valor_multa": "10000.00",
            "eventos": [*eventos, plano],
            "data_referencia": "2024-12-02",
        }
    )
    salvo = ciclo.obter(pid, date(2024, 12, 2)).resultado
    assert salvo["devido"] == direto["devido"] and salvo["estado"] == "parcelamento_rescindido"
    assert ciclo.obter(outro, date(2024, 8, 5)).resultado["estado"] == "parcelado"
    assert ciclo.verificar().integro


def test_a_pagina_oferece_o_parcelamento_quando_cabe(tmp_path: Path) -> None:
    ciclo = Ciclo(Repositorio(f"sqlite:///{tmp_path / 'm.db'}"))
    dados = {
        "tipo": "anp",
        "valor_multa": "10000.00",
        "eventos": PLANO[:3],
    }
    antes = ciclo.criar(dados).armazenado
    assert "parcelamento" not in [n for n, _ in ciclo.eventos_possiveis(antes)]
    depois = ciclo.acrescentar(
        antes.id, {"evento": "renuncia_recurso", "data": "2024-06-05"}
    ).armazenado
    assert "parcelamento" in [n for n, _ in ciclo.eventos_possiveis(depois)]
