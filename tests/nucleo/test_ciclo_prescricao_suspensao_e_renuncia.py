"""Spec v3, § 6: limitation under Lei nº 9.873/1999 (no revival, the three-year stall, court
suspensions), data_referencia, situacao and responsavel, the waiver and the discounted amount.
Every date is counted by hand beside the assertion."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from multas.nucleo.ciclo import calcular_prazos
from multas.nucleo.erros import EntradaInvalida


def anp(*eventos: tuple[str, str], **extra: Any) -> dict[str, Any]:
    return {"tipo": "anp", "eventos": [{"evento": e, "data": d} for e, d in eventos], **extra}


def prazos(r: dict[str, Any]) -> dict[str, tuple[str, str]]:
    return {p["prazo"]: (p["data"], p["situacao"]) for p in r["prazos"]}


def erro(processo: dict[str, Any]) -> EntradaInvalida:
    with pytest.raises(EntradaInvalida) as info:
        calcular_prazos(processo)
    return info.value


def test_prescricao_consumada_nao_renasce() -> None:
    # the case: infração 10/01/2015 → 10/01/2020; the citação of 01/06/2015 comes in
    # time → 01/06/2020; the decision of 01/03/2022 comes after it: it interrupts nothing
    r = calcular_prazos(
        anp(
            ("infracao", "2015-01-10"),
            ("auto_infracao", "2015-06-01"),
            ("ciencia_primeira_instancia", "2022-03-01"),
            data_referencia="2022-03-02",
        )
    )
    assert r["estado"] == "prescrito"
    p = prazos(r)
    assert p["prescricao"] == ("2020-06-01", "vencido")  # not 01/03/2027
    # stalled from the citação (01/06/2015) to the decision: 01/06/2015 + 3 anos
    assert p["prescricao_intercorrente"] == ("2018-06-01", "vencido")
    assert p["recurso"] == ("2022-03-11", "em_aberto")  # the others as usual
    texto = " ".join(r["avisos"])
    assert "não a interrompeu" in texto and "não a fazem renascer" in texto
    assert "calendário de 2015 não transcrito: usado o padrão" in r["avisos"]


def test_interrompida_a_tempo() -> None:
    # 10/01/2020 + 5 = 10/01/2025; citação 01/12/2024 (a tempo) → 01/12/2029; decisão
    # 01/06/2027 (a tempo) → 01/06/2032; intercorrente: 01/12/2024 + 3 = 01/12/2027, and the
    # decision came before it
    r = calcular_prazos(
        anp(
            ("infracao", "2020-01-10"),
            ("auto_infracao", "2024-12-01"),
            ("ciencia_primeira_instancia", "2027-06-01"),
            data_referencia="2027-06-01",
        )
    )
    assert r["estado"] == "decidido_primeira_instancia"
    assert prazos(r) == {
        "defesa": ("2024-12-16", "vencido"),  # 01/12/2024 + 15 (segunda)
        "recurso": ("2027-06-11", "em_aberto"),  # 01/06/2027 + 10 (sexta; 2027 pelo padrão)
        "prescricao": ("2032-06-01", "em_aberto"),
    }


@pytest.mark.parametrize(
    ("referencia", "estado", "situacao"),
    [("2023-02-10", "em_julgamento", "em_aberto"), ("2023-02-11", "prescrito", "vencido")],
)
def test_processo_parado_tres_anos(referencia: str, estado: str, situacao: str) -> None:
    # defesa 10/02/2020, then nothing: 10/02/2020 + 3 anos = 10/02/2023
    r = calcular_prazos(
        anp(
            ("infracao", "2020-01-10"),
            ("auto_infracao", "2020-02-01"),
            ("defesa", "2020-02-10"),
            data_referencia=referencia,
        )
    )
    assert r["estado"] == estado
    assert prazos(r)["prescricao_intercorrente"] == ("2023-02-10", situacao)
    # 01/02/2020 + 15 = 16/02/2020 (domingo) → 17/02/2020; met on 10/02
    assert prazos(r)["defesa"] == ("2020-02-17", "cumprido")


def test_suspensao_judicial_pausa_as_prescricoes() -> None:
    eventos = (
        ("infracao", "2020-01-10"),
        ("auto_infracao", "2020-02-01"),
        ("suspensao_judicial", "2021-01-01"),
        ("fim_suspensao_judicial", "2021-03-01"),
    )
    # 01/01 to 28/02/2021: 31 + 28 = 59 days paused
    r = calcular_prazos(anp(*eventos, data_referencia="2021-06-01"))
    assert r["estado"] == "defesa"  # the suspension ended; it sets no estado
    assert prazos(r)["prescricao"] == ("2025-04-01", "em_aberto")  # 01/02/2025 + 59 dias
    assert prazos(r)["prescricao_intercorrente"] == ("2023-04-01", "em_aberto")
    assert prazos(r)["defesa"] == ("2020-02-17", "vencido")  # not moved by the suspension
    assert any("Suspensão judicial" in a for a in r["avisos"])


def test_suspensao_em_aberto_dura_ate_a_data_de_referencia() -> None:
    eventos = (
        ("infracao", "2020-01-10"),
        ("auto_infracao", "2020-02-01"),
        ("suspensao_judicial", "2021-01-01"),
    )
    # 01/01 to 31/01/2021 included: 31 days; 01/02/2025 + 31 = 04/03/2025
    r = calcular_prazos(anp(*eventos, data_referencia="2021-01-31"))
    assert r["estado"] == "suspenso"
    assert prazos(r) == {
        # lapsed before the order: it stays vencido (v4 § 3.7 point 5)
        "defesa": ("2020-02-17", "vencido"),
        "prescricao_intercorrente": ("2023-03-04", "suspenso"),
        "prescricao": ("2025-03-04", "suspenso"),
    }
    # one day later, one more day paused
    r = calcular_prazos(anp(*eventos, data_referencia="2021-02-01"))
    assert prazos(r)["prescricao"] == ("2025-03-05", "suspenso")


def test_renuncia_torna_a_decisao_definitiva_e_da_o_valor_com_desconto() -> None:
    r = calcular_prazos(
        anp(
            ("infracao", "2024-01-10"),
            ("auto_infracao", "2024-02-01"),
            ("ciencia_primeira_instancia", "2024-09-02"),
            ("renuncia_recurso", "2024-09-05"),
            ("inscricao_divida_ativa", "2024-10-08"),
            valor_multa="100000.00",
            data_referencia="2024-10-08",
        )
    )
    assert r["estado"] == "divida_ativa"
    # the discount's deadline (12/09/2024) passed unpaid: no discounted amount (spec v4 W2)
    assert "valor_com_desconto" not in r
    assert prazos(r) == {
        "defesa": ("2024-02-16", "vencido"),
        # 02/09/2024 + 10 = 12/09/2024 (quinta)
        "pagamento_com_desconto": ("2024-09-12", "vencido"),
        "recurso": ("2024-09-12", "encerrado"),
        # 05/09/2024 + 30 = 05/10/2024 (sábado) → 07/10/2024 (segunda)
        "pagamento": ("2024-10-07", "vencido"),
        # 07/10/2029 + 180 dias da inscrição (08/10/2024 a 05/04/2025) = 05/04/2030
        "prescricao_cobranca": ("2030-04-05", "em_aberto"),
    }
    assert "prescricao" not in prazos(r)  # definitive before it ran out
    assert {p["prazo"]: p["responsavel"] for p in r["prazos"]}["prescricao_cobranca"] == "anp"


def test_valor_com_desconto_arredonda_uma_vez() -> None:
    r = calcular_prazos(
        anp(
            ("infracao", "2024-01-10"),
            ("auto_infracao", "2024-02-01"),
            ("ciencia_primeira_instancia", "2024-09-02"),
            ("renuncia_recurso", "2024-09-05"),
            valor_multa="0.05",  # × 0,70 = 0,035 → 0,04 (meio para cima)
            data_referencia="2024-09-05",
        )
    )
    assert r["valor_com_desconto"] == "0.04"
    sem = calcular_prazos(anp(("infracao", "2024-01-10"), data_referencia="2024-01-10"))
    assert "valor_com_desconto" not in sem


def test_prazo_vencido_continua_listado() -> None:
    eventos = (
        ("infracao", "2024-01-10"),
        ("auto_infracao", "2024-02-01"),
        ("ciencia_primeira_instancia", "2024-09-02"),
        ("recurso", "2024-09-05"),
        ("ciencia_decisao_definitiva", "2025-01-06"),  # + 30 = 05/02/2025 (quarta)
    )
    antes = calcular_prazos(anp(*eventos, data_referencia="2025-02-05"))
    depois = calcular_prazos(anp(*eventos, data_referencia="2025-03-01"))
    assert prazos(antes)["pagamento"] == ("2025-02-05", "em_aberto")
    assert prazos(depois)["pagamento"] == ("2025-02-05", "vencido")
    assert depois["data_referencia"] == "2025-03-01"
    pago = calcular_prazos(anp(*eventos, ("pagamento", "2025-03-10"), data_referencia="2025-03-01"))
    # every recorded event counts, whatever its date against data_referencia
    assert prazos(pago)["pagamento"] == ("2025-02-05", "cumprido_com_atraso")


def test_nota_da_alteracao_do_decreto_2953_em_2025() -> None:
    depois = calcular_prazos(
        anp(
            ("infracao", "2025-04-01"),
            ("auto_infracao", "2025-04-22"),
            data_referencia="2025-04-22",
        )
    )
    antes = calcular_prazos(
        anp(
            ("infracao", "2025-04-01"),
            ("auto_infracao", "2025-04-16"),
            data_referencia="2025-04-16",
        )
    )
    assert any(
        "Decreto nº 12.437/2025" in a and "“Defesa escrita” (defesa)" in a for a in depois["avisos"]
    )
    assert not any("Decreto nº 12.437/2025" in a for a in antes["avisos"])


@pytest.mark.parametrize(
    ("eventos", "campo", "trecho"),
    [
        ([("suspensao_judicial", "2024-01-01")], "eventos[0].evento", "primeiro"),
        (
            [("infracao", "2024-01-01"), ("fim_suspensao_judicial", "2024-02-01")],
            "eventos[1].evento",
            "não há suspensão",
        ),
        (
            [
                ("infracao", "2024-01-01"),
                ("suspensao_judicial", "2024-02-01"),
                ("suspensao_judicial", "2024-03-01"),
            ],
            "eventos[2].evento",
            "já há uma suspensão",
        ),
        (
            [
                ("infracao", "2024-01-01"),
                ("auto_infracao", "2024-02-01"),
                ("ciencia_primeira_instancia", "2024-03-01"),
                ("defesa", "2024-03-02"),
            ],
            "eventos[3].evento",
            "antes de “Ciência da decisão de primeira instância” (ciencia_primeira_instancia)",
        ),
        (
            [("infracao", "2024-01-01"), ("defesa", "2024-02-01")],
            "eventos[1].evento",
            "auto_infracao",
        ),
        (
            [
                ("infracao", "2024-01-01"),
                ("auto_infracao", "2024-02-01"),
                ("ciencia_primeira_instancia", "2024-03-01"),
                ("inscricao_divida_ativa", "2024-06-01"),
            ],
            "eventos[3].evento",
            "renuncia_recurso",
        ),
    ],
)
def test_regras_de_ordem_v3(eventos: list[tuple[str, str]], campo: str, trecho: str) -> None:
    e = erro(anp(*eventos, data_referencia="2024-12-01"))
    assert e.campo == campo
    assert trecho in e.mensagem


def test_suspensoes_repetidas_e_depois_do_pagamento() -> None:
    r = calcular_prazos(
        anp(
            ("infracao", "2024-01-10"),
            ("auto_infracao", "2024-02-01"),
            ("suspensao_judicial", "2024-03-01"),
            ("fim_suspensao_judicial", "2024-03-11"),
            ("ciencia_primeira_instancia", "2024-09-02"),
            ("pagamento", "2024-09-10"),
            ("suspensao_judicial", "2024-10-01"),
            data_referencia="2024-10-02",
        )
    )
    assert r["estado"] == "suspenso"  # nothing after the payment but suspensions


@pytest.mark.parametrize(
    ("campo", "valor", "trecho"),
    [
        ("valor_multa", "10.001", "casas"),
        ("data_referencia", "2024-02-30", "inexistente"),
        ("dias_sem_expediente", ["2024-13-01"], "data"),
    ],
)
def test_campos_v3_invalidos(campo: str, valor: object, trecho: str) -> None:
    e = erro(anp(("infracao", "2024-01-10"), **{campo: valor}))
    assert e.campo is not None and e.campo.startswith(campo)
    assert trecho in e.mensagem


def test_valor_multa_so_no_processo_anp() -> None:
    e = erro(
        {
            "tipo": "renovabio.balanco",
            "eventos": [{"evento": "inclusao_lista", "data": "2025-04-17"}],
            "valor_multa": "1000.00",
        }
    )
    assert e.campo == "valor_multa"


def test_dias_sem_expediente_no_processo() -> None:
    base = anp(
        ("infracao", "2025-01-10"),
        ("auto_infracao", "2025-02-01"),
        ("ciencia_primeira_instancia", "2025-06-10"),  # + 10 = 20/06 (ponto facultativo) → 23/06
        data_referencia="2025-06-10",
    )
    assert prazos(calcular_prazos(base))["recurso"][0] == "2025-06-23"
    local = calcular_prazos({**base, "dias_sem_expediente": ["2025-06-23"]})
    assert prazos(local)["recurso"][0] == "2025-06-24"
    recurso = next(p for p in local["prazos"] if p["prazo"] == "recurso")
    assert "dias_sem_expediente" in recurso["contagem"]


def test_ics_marca_o_vencido_e_mantem_o_uid() -> None:
    from datetime import UTC, datetime

    from icalendar import Calendar

    from multas.saidas.exportar import calendario_ics
    from tests.utils.processos import PENDENCIA as item

    gerado = datetime(2025, 3, 1, tzinfo=UTC)
    aberto = Calendar.from_ical(calendario_ics([item], gerado)).walk("VEVENT")[0]
    vencido_item = item | {"situacao": "vencido", "dias_de_atraso": 24}
    vencido = Calendar.from_ical(calendario_ics([vencido_item], gerado)).walk("VEVENT")[0]
    assert str(vencido["SUMMARY"]).startswith("[VENCIDO] Pagamento")
    assert not str(aberto["SUMMARY"]).startswith("[VENCIDO]")
    assert str(vencido["UID"]) == str(aberto["UID"]) == "multas-processo-7-pagamento@multas"
    assert "vencido há 24 dias" in str(vencido["DESCRIPTION"])


def test_processo_salvo_recusa_campos_que_nao_guarda(tmp_path: Any) -> None:
    from multas.servicos.gestao import Ciclo
    from multas.servicos.persistencia import Repositorio

    ciclo = Ciclo(Repositorio(f"sqlite:///{tmp_path / 'm.db'}"))
    with pytest.raises(EntradaInvalida) as info:
        ciclo.criar(anp(("infracao", "2024-01-10"), data_referencia="2025-01-01"))
    assert info.value.campo == "data_referencia"
    # valor_multa is stored (its old name, principal, still accepted, not both)
    derivado = ciclo.criar(
        anp(
            ("infracao", "2024-01-10"),
            ("auto_infracao", "2024-02-01"),
            ("ciencia_primeira_instancia", "2024-09-02"),
            ("renuncia_recurso", "2024-09-05"),
            valor_multa="1000.00",
        )
    )
    assert derivado.armazenado.valor_multa == "1000.00"
    # judged within the discount's deadline (12/09/2024), not today
    dentro = ciclo.obter(derivado.armazenado.id, referencia=date(2024, 9, 6))
    assert dentro.resultado["valor_com_desconto"] == "700.00"
    with pytest.raises(EntradaInvalida) as info:
        ciclo.criar(anp(("infracao", "2024-01-10"), valor_multa="1.00", principal="1.00"))
    assert info.value.campo == "principal"
