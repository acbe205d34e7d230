"""Spec § 6.2 v4: what an ``anp`` processo owes on a date (``devido``), its payments with
amounts, their allocation and the discount."""

from __future__ import annotations

import random
from datetime import date, timedelta
from decimal import Decimal
from types import SimpleNamespace
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from multas import calcular
from multas.nucleo.ciclo.parcelamento import SemSelic
from multas.nucleo.ciclo.prazos import calcular_prazos
from multas.nucleo.ciclo.processo import Processo
from multas.nucleo.ciclo.taxas import Taxas
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.legislacao import carregar


def ev(nome: str, dia: str, valor: str | None = None) -> dict[str, str]:
    evento = {"evento": nome, "data": dia}
    if valor is not None:
        evento["valor"] = valor
    return evento


def processo(*eventos: dict[str, str], em: str, **extra: Any) -> dict[str, Any]:
    return {
        "tipo": "anp",
        "valor_multa": "10000.00",
        "eventos": list(eventos),
        "data_referencia": em,
        **extra,
    }


BASE = (
    ev("infracao", "2024-01-10"),
    ev("auto_infracao", "2024-02-01"),
    # the appeal's (and so the discount's) deadline: 10 days, 13/06/2024 (a Thursday)
    ev("ciencia_primeira_instancia", "2024-06-03"),
    # definitive on the waiver; vencimento 30 days later, 05/07/2024 (a Friday)
    ev("renuncia_recurso", "2024-06-05"),
)
#: in the discount's deadline, short of the R$ 7.000,00 that would settle the fine: it counts
#: against the full fine (W2), and the discount lapses on 14/06
PARCIAL = ev("pagamento", "2024-06-10", "3000.00")
#: late: 05/07 → 20/08 is 2 months "ou fração" under lei-9847
ATRASADO = ev("pagamento", "2024-08-20", "2000.00")


@pytest.mark.parametrize(
    ("em", "saldo", "juros", "multa", "estado"),
    [
        # 10.000 − 3.000, the discount still to be had (7.000 − 3.000 by 13/06)
        ("2024-06-12", "7000.00", "0.00", "0.00", "pago_parcialmente"),
        # the vencimento itself: no charge yet
        ("2024-07-05", "7000.00", "0.00", "0.00", "pago_parcialmente"),
        # a day late is a month "ou fração": 7.000 × 1% = 70, × 2% = 140
        ("2024-07-06", "7210.00", "70.00", "140.00", "pago_parcialmente"),
        # 2 months: 140 + 280 accrued; the 2.000 pays 280 + 140 + 1.580 (late fine, interest,
        # principal): 7.000 − 1.580 = 5.420 left
        ("2024-08-20", "5420.00", "140.00", "280.00", "pago_parcialmente"),
        # 3 months at 01/10 (05/09 < 01/10 ≤ 05/10): one more month on the 5.420 outstanding,
        # 54,20 + 108,40, each rounded
        ("2024-10-01", "5582.60", "194.20", "388.40", "pago_parcialmente"),
    ],
)
def test_saldo_com_pagamento_parcial_e_desconto_perdido_em_cinco_datas(
    em: str, saldo: str, juros: str, multa: str, estado: str
) -> None:
    r = calcular_prazos(processo(*BASE, PARCIAL, ATRASADO, em=em))
    devido = r["devido"]
    assert (devido["saldo"], devido["juros_mora"], devido["multa_mora"]) == (saldo, juros, multa)
    assert devido["principal"] == "10000.00" and devido["desconto"] == "0.00"
    assert r["estado"] == estado
    # the payments made by then, and only those
    assert [p["data"] for p in devido["pagamentos"]] == [
        d for d in ("2024-06-10", "2024-08-20") if d <= em
    ]
    if em >= "2024-08-20":
        assert devido["pagamentos"][1]["imputado"] == {
            "multa_mora": "280.00",
            "juros_mora": "140.00",
            "principal": "1580.00",
        }
    if em == "2024-06-12":
        assert r["valor_com_desconto"] == "7000.00"
        assert any("Pagando R$ 4.000,00 até 13/06/2024" in a for a in r["avisos"])


def test_o_desconto_quita_quando_os_pagamentos_no_prazo_chegam_ao_valor_com_desconto() -> None:
    segundo = ev("pagamento", "2024-06-13", "4500.00")
    r = calcular_prazos(processo(*BASE, PARCIAL, segundo, em="2024-06-20"))
    devido = r["devido"]
    assert r["estado"] == "pago"
    assert (devido["saldo"], devido["desconto"], devido["excedente"]) == (
        "0.00",
        "3000.00",
        "500.00",
    )
    assert devido["pagamentos"][1]["imputado"]["principal"] == "4000.00"
    assert any("excedente de R$ 500,00" in a for a in r["avisos"])
    # nothing after the payment that settled
    with pytest.raises(EntradaInvalida) as erro:
        calcular_prazos(
            processo(
                *BASE, PARCIAL, segundo, ev("pagamento", "2024-06-14", "1.00"), em="2024-06-20"
            )
        )
    assert erro.value.campo == "eventos[6].evento"
    assert "quitou a multa (eventos[5], 13/06/2024)" in erro.value.mensagem


def test_desconto_proporcional_quita_cada_pagamento_no_prazo_dividido_pelo_fator() -> None:
    r = calcular_prazos(
        processo(*BASE, PARCIAL, em="2024-06-20", interpretacao={"desconto": "proporcional"})
    )
    devido = r["devido"]
    # 3.000 ÷ 0,7 = 4.285,71 settled: 1.285,71 forgiven; 10.000 − 4.285,71 = 5.714,29 left
    assert (devido["desconto"], devido["saldo"]) == ("1285.71", "5714.29")
    assert r["estado"] == "pago_parcialmente"


def test_pagamento_sem_valor_quita_o_devido_no_dia() -> None:
    r = calcular_prazos(processo(*BASE, PARCIAL, ev("pagamento", "2024-07-06"), em="2024-12-01"))
    devido = r["devido"]
    assert r["estado"] == "pago" and devido["saldo"] == "0.00"
    assert devido["pagamentos"][1]["valor"] == "7210.00"


def test_imputacao_proporcional_divide_na_proporcao_do_devido() -> None:
    r = calcular_prazos(
        processo(
            *BASE, PARCIAL, ATRASADO, em="2024-08-20", interpretacao={"imputacao": "proporcional"}
        )
    )
    imputado = r["devido"]["pagamentos"][1]["imputado"]
    # owed on 20/08: 280 + 140 + 7.000 = 7.420; 2.000 × 280/7.420 = 75,47; × 140/7.420 = 37,74
    assert imputado == {"multa_mora": "75.47", "juros_mora": "37.74", "principal": "1886.79"}
    assert r["devido"]["saldo"] == "5420.00"


def test_pagamento_parcial_depois_da_inscricao_mantem_divida_ativa() -> None:
    eventos = (
        *BASE,
        ev("inscricao_divida_ativa", "2024-07-10"),
        ev("pagamento", "2024-07-20", "100.00"),
    )
    r = calcular_prazos(processo(*eventos, em="2024-07-25"))
    assert r["estado"] == "divida_ativa"
    assert calcular_prazos(processo(*BASE, PARCIAL, em="2024-07-25"))["proxima_acao"]["o_que"]


def test_valor_do_pagamento_pede_valor_multa_e_e_uma_quantia_positiva() -> None:
    sem_multa = processo(*BASE, PARCIAL, em="2024-06-20")
    del sem_multa["valor_multa"]
    with pytest.raises(EntradaInvalida) as erro:
        calcular_prazos(sem_multa)
    assert erro.value.campo == "eventos[4].valor" and "valor_multa" in erro.value.mensagem
    for ruim in ("0", "-5", "1e3", "abc", "10.001"):
        with pytest.raises(EntradaInvalida) as erro:
            calcular_prazos(processo(*BASE, ev("pagamento", "2024-06-10", ruim), em="2024-06-20"))
        assert erro.value.campo == "eventos[4].valor", ruim
    with pytest.raises(EntradaInvalida) as erro:
        calcular_prazos(
            processo(*BASE[:3], {**ev("recurso", "2024-06-05"), "valor": "1"}, em="2024-06-20")
        )
    assert erro.value.campo == "eventos[3].valor"


def test_selic_ausente_deixa_o_devido_sem_calculo_com_aviso() -> None:
    eventos = (*BASE[:3], ev("ciencia_decisao_definitiva", "2025-03-03"))
    r = calcular_prazos(
        processo(*eventos, em="2026-11-30", interpretacao={"encargos": "lei-10522"})
    )
    assert "devido" not in r
    assert any("Valor devido em 30/11/2026 não calculado: taxa Selic de" in a for a in r["avisos"])
    with pytest.raises(EntradaInvalida) as erro:
        calcular_prazos(
            processo(
                *eventos,
                ev("pagamento", "2026-10-01", "10.00"),
                em="2026-11-30",
                interpretacao={"encargos": "lei-10522"},
            )
        )
    assert erro.value.campo == "eventos[4].data"
    assert "pagamento de 01/10/2026" in erro.value.mensagem


def _caso_aleatorio(sorteio: random.Random) -> tuple[str, str, date, date]:
    principal = f"{sorteio.randint(100_00, 10_000_000_00) / 100:.2f}"
    encargos = sorteio.choice(("lei-9847", "lei-10522"))
    ciencia = date(2009, 1, 5) + timedelta(days=sorteio.randint(0, 5800))
    pagamento = ciencia + timedelta(days=sorteio.randint(0, 700))
    return principal, encargos, ciencia, min(pagamento, date(2025, 5, 31))


@pytest.mark.parametrize("semente", range(40))
def test_sem_pagamento_o_devido_e_o_da_mora(semente: int) -> None:
    """Spec § 6.2 v4: with no payment, ``devido`` equals ``anp.mora`` for the same dates."""
    principal, encargos, ciencia, em = _caso_aleatorio(random.Random(semente))
    r = calcular_prazos(
        {
            "tipo": "anp",
            "valor_multa": principal,
            "eventos": [
                ev("infracao", (ciencia - timedelta(days=400)).isoformat()),
                ev("auto_infracao", (ciencia - timedelta(days=300)).isoformat()),
                ev("ciencia_primeira_instancia", (ciencia - timedelta(days=60)).isoformat()),
                ev("ciencia_decisao_definitiva", ciencia.isoformat()),
            ],
            "data_referencia": em.isoformat(),
            "interpretacao": {"encargos": encargos},
        }
    )
    mora = calcular(
        {
            "regime": "anp.mora",
            "principal": principal,
            "data_ciencia": ciencia.isoformat(),
            "data_pagamento": em.isoformat(),
            "interpretacao": {"encargos": encargos},
        }
    )
    devido = r["devido"]
    assert (devido["juros_mora"], devido["multa_mora"], devido["saldo"]) == (
        mora["juros_mora"],
        mora["multa_mora"],
        mora["valor"],
    )


INSCRICAO = ev("inscricao_divida_ativa", "2024-07-10")


def test_encargo_legal_sobre_o_saldo_da_inscricao() -> None:
    """On 10/07/2024 (vencimento 05/07: one month "ou fração") the balance is 7.000 + 70 +
    140 = 7.210; 20% of it is 1.442,00. A payment of 1.000 on 20/07 pays the late fine (140),
    the interest (70) and 790 of the principal; the encargo legal comes last."""
    r = calcular_prazos(
        processo(*BASE, PARCIAL, INSCRICAO, em="2024-07-20", encargo_legal_percentual="20")
    )
    devido = r["devido"]
    assert (devido["encargo_legal"], devido["saldo"]) == ("1442.00", "8652.00")
    r = calcular_prazos(
        processo(
            *BASE,
            PARCIAL,
            INSCRICAO,
            ev("pagamento", "2024-07-20", "1000.00"),
            em="2024-07-20",
            encargo_legal_percentual="20",
        )
    )
    devido = r["devido"]
    assert devido["pagamentos"][1]["imputado"] == {
        "multa_mora": "140.00",
        "juros_mora": "70.00",
        "principal": "790.00",
        "encargo_legal": "0.00",
    }
    assert (devido["saldo"], r["estado"]) == ("7652.00", "divida_ativa")
    assert "encargo_legal" not in devido["pagamentos"][0]["imputado"]  # before the inscription


def test_a_memoria_do_pagamento_nomeia_o_encargo_legal_e_o_excedente() -> None:
    """A payment's step names every part it paid, in the values of its day: the encargo legal
    once inscribed, and the excess when it pays more than is owed (later steps change the
    account, never an earlier step's text)."""
    r = calcular_prazos(
        processo(
            *BASE,
            PARCIAL,
            INSCRICAO,
            ev("pagamento", "2024-07-20", "1000.00"),
            ev("pagamento", "2024-07-25", "9000.00"),
            em="2024-07-30",
            encargo_legal_percentual="20",
        )
    )
    textos = [p["descricao"] for p in r["devido"]["memoria"]]
    pagamentos = [t for t in textos if t.startswith("Pagamento de ")]
    assert pagamentos[0].startswith("Pagamento de 10/06/2024: R$ 3.000,00, imputado R$ 0,00")
    assert "encargo legal" not in pagamentos[0] and "excedente" not in pagamentos[0]
    assert pagamentos[1] == (
        "Pagamento de 20/07/2024: R$ 1.000,00, imputado R$ 140,00 à multa de mora, R$ 70,00 "
        "aos juros e R$ 790,00 ao principal e R$ 0,00 ao encargo legal (leitura "
        + pagamentos[1].split("(leitura ", 1)[1]
    )
    # 6.210 of principal and 1.442 of encargo legal left: 9.000 pays them, 1.348 beyond
    assert (
        "R$ 6.210,00 ao principal e R$ 1.442,00 ao encargo legal; excedente R$ 1.348,00"
        in (pagamentos[2])
    )
    juros = [t for t in textos if t.startswith("Juros de mora de ")]
    assert juros[0] == (
        "Juros de mora de 05/07/2024 a 20/07/2024, sobre o principal em aberto de R$ 7.000,00: "
        "taxa acumulada desde o vencimento de 0% a 1% (arredondados ao centavo)"
    )


def test_sem_percentual_o_encargo_legal_e_nulo_com_aviso() -> None:
    r = calcular_prazos(processo(*BASE, PARCIAL, INSCRICAO, em="2024-07-20"))
    assert (r["devido"]["encargo_legal"], r["devido"]["saldo"]) == (None, "7210.00")
    assert any(
        a.startswith("Encargo legal não calculado") and "Decreto-Lei nº 1.025/1969" in a
        for a in r["avisos"]
    )
    # before the inscription, no such key
    assert (
        "encargo_legal" not in calcular_prazos(processo(*BASE, PARCIAL, em="2024-07-08"))["devido"]
    )
    for ruim in ("-1", "101", "x", True):
        with pytest.raises(EntradaInvalida) as erro:
            calcular_prazos(processo(*BASE, em="2024-07-20", encargo_legal_percentual=ruim))
        assert erro.value.campo == "encargo_legal_percentual"


def test_pagamento_com_valor_e_vencimento_depois_de_9999_e_erro_nomeado() -> None:
    eventos = (
        ev("infracao", "9999-01-10"),
        ev("auto_infracao", "9999-02-01"),
        ev("ciencia_primeira_instancia", "9999-12-25"),
        ev("renuncia_recurso", "9999-12-26"),
        ev("pagamento", "9999-12-27", "5.00"),
    )
    with pytest.raises(EntradaInvalida) as erro:
        calcular_prazos(processo(*eventos, em="9999-12-31"))
    assert erro.value.campo is not None and erro.value.campo.startswith("eventos[")


@pytest.mark.parametrize("centavos", ["10000.02", "10000.05", "10000.08", "9999.99"])
def test_desconto_proporcional_quita_sem_sobrar_centavo(centavos: str) -> None:
    """round(P × 0,7) ÷ 0,7 falls short of P by a centavo for many P: the discounted amount of
    what remains settles it all the same."""
    sem_valor = processo(
        *BASE,
        ev("pagamento", "2024-06-10"),
        em="2024-06-20",
        valor_multa=centavos,
        interpretacao={"desconto": "proporcional"},
    )
    r = calcular_prazos(sem_valor)
    assert (r["estado"], r["devido"]["saldo"]) == ("pago", "0.00")
    exato = r["devido"]["pagamentos"][0]["valor"]
    com_valor = processo(
        *BASE,
        ev("pagamento", "2024-06-10", exato),
        em="2024-06-20",
        valor_multa=centavos,
        interpretacao={"desconto": "proporcional"},
    )
    r = calcular_prazos(com_valor)
    assert (r["estado"], r["devido"]["saldo"]) == ("pago", "0.00")
    assert not any(a.startswith("Desconto perdido") for a in r["avisos"])


def test_desconto_proporcional_parcial_diz_que_valeu_para_os_pagamentos_no_prazo() -> None:
    r = calcular_prazos(
        processo(*BASE, PARCIAL, em="2024-06-20", interpretacao={"desconto": "proporcional"})
    )
    assert not any(a.startswith("Desconto perdido") for a in r["avisos"])
    assert any("valeu só para os pagamentos feitos até ele" in a for a in r["avisos"])
    # before the deadline: how much settles it now, 5.714,29 × 0,7 = 4.000,00
    r = calcular_prazos(
        processo(*BASE, PARCIAL, em="2024-06-12", interpretacao={"desconto": "proporcional"})
    )
    assert any("Pagando R$ 4.000,00 até 13/06/2024" in a for a in r["avisos"])


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 45), st.integers(1, 900_000)), min_size=1, max_size=6),
    st.sampled_from(["lei-9847", "lei-10522"]),
    st.sampled_from(["encargos", "proporcional"]),
    st.sampled_from(["integral", "proporcional"]),
    st.sampled_from([None, "0", "10", "20"]),
)
def test_invariantes_do_devido(
    pagamentos: list[tuple[int, int]],
    encargos: str,
    imputacao: str,
    desconto: str,
    encargo_legal: str | None,
) -> None:
    """Whatever the payments: principal + charges (+ encargo legal) − discount − what was
    imputed = saldo; each payment's parts add up to it less its excess; nothing negative."""
    eventos = [*BASE, INSCRICAO]
    dia = date(2024, 7, 10)
    for dias, centavos in sorted(pagamentos):
        dia = dia + timedelta(days=dias)
        eventos.append(ev("pagamento", dia.isoformat(), f"{centavos / 100:.2f}"))
    extra: dict[str, Any] = {
        "interpretacao": {"encargos": encargos, "imputacao": imputacao, "desconto": desconto}
    }
    if encargo_legal is not None:
        extra["encargo_legal_percentual"] = encargo_legal
    try:
        r = calcular_prazos(processo(*eventos, em="2025-04-30", **extra))
    except EntradaInvalida as erro:
        assert "quitou a multa" in erro.mensagem  # a payment after the one that settled
        return
    d = r["devido"]
    dinheiro = {
        k: Decimal(v)
        for k, v in d.items()
        if k in ("principal", "juros_mora", "multa_mora", "desconto", "pago", "saldo", "excedente")
    }
    legal = Decimal(d.get("encargo_legal") or "0")
    imputado = sum(
        (Decimal(v) for p in d["pagamentos"] for v in p["imputado"].values()), Decimal(0)
    )
    assert (
        dinheiro["principal"]
        + dinheiro["juros_mora"]
        + dinheiro["multa_mora"]
        + legal
        - dinheiro["desconto"]
        - imputado
        == dinheiro["saldo"]
    )
    assert imputado == dinheiro["pago"] - dinheiro["excedente"]
    for p in d["pagamentos"]:
        partes = [Decimal(v) for v in p["imputado"].values()]
        assert all(x >= 0 for x in partes)
        assert sum(partes, Decimal(0)) == Decimal(p["valor"]) - Decimal(p["excedente"])
    assert dinheiro["saldo"] >= 0


@settings(max_examples=60, deadline=None)
@given(st.lists(st.dates(date(2019, 11, 1), date(2026, 6, 30)), min_size=1, max_size=8))
def test_a_selic_acumulada_em_qualquer_ordem_e_a_de_cada_data(dias: list[date]) -> None:
    """§ 3.5 under lei-10522: the Selic summed from the vencimento to a date is the same
    whatever dates were asked before (the sum is kept and extended, or cut back), and a month
    the series lacks is named, the first one, every time it is needed."""
    legislacao = carregar()
    anp = cast(Processo, SimpleNamespace(encargos="lei-10522"))
    vencimento = date(2019, 12, 10)
    uma = Taxas(anp, legislacao, vencimento, vencimento)
    for dia in dias:
        try:
            esperado: object = Taxas(anp, legislacao, vencimento, vencimento).ate(dia)
        except SemSelic as erro:
            esperado = erro.mensagem
        try:
            obtido: object = uma.ate(dia)
        except SemSelic as erro:
            obtido = erro.mensagem
        assert obtido == esperado


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 60), st.integers(1, 400_000)), min_size=1, max_size=6),
    st.sampled_from(["lei-9847", "lei-10522"]),
    st.sampled_from(["encargos", "proporcional"]),
    st.sampled_from(["nada", "inscricao", "parcelamento", "inscricao_depois"]),
    st.integers(-90, 400),
)
def test_o_devido_que_segue_da_leitura_e_o_calculado_de_novo(
    pagamentos: list[tuple[int, int]], encargos: str, imputacao: str, outro: str, dias: int
) -> None:
    """Reading a processo runs its payments once (to find the one that settles); what is owed
    on a date not before the last payment goes on from that account. It is, to the centavo
    and to the memória's last word, what running the account anew on that date gives; on an
    earlier date the account is run anew."""
    from dataclasses import replace

    from multas.nucleo.ciclo.devido import Previa, devido
    from multas.nucleo.ciclo.leitura import ler_processo

    eventos = [*BASE, PARCIAL]
    if outro == "inscricao":
        eventos.append(INSCRICAO)
    elif outro == "parcelamento":
        eventos.append(
            {
                "evento": "parcelamento",
                "data": "2024-07-31",
                "parcelas": 6,
                "valor_consolidado": "7210.00",
            }
        )
    dia = date(2024, 7, 31)
    for passo, centavos in sorted(pagamentos):
        dia = dia + timedelta(days=passo)
        eventos.append(ev("pagamento", dia.isoformat(), f"{centavos / 100:.2f}"))
    if outro == "inscricao_depois":  # an event after the last payment: run on from it
        eventos.append(ev("inscricao_divida_ativa", (dia + timedelta(days=20)).isoformat()))
    extra = {"interpretacao": {"encargos": encargos, "imputacao": imputacao}}
    legislacao = carregar()
    try:
        lido = ler_processo(
            processo(*eventos, em="2025-04-30", encargo_legal_percentual="20", **extra), legislacao
        )
    except EntradaInvalida:
        return  # a payment after the one that settled
    em = dia + timedelta(days=dias)

    def resultado(p: Processo) -> Any:
        d, avisos, plano = devido(p, legislacao, em)
        return (
            None if d is None else d.como_dict(),
            avisos,
            None if plano is None else plano.como_dict(),
        )

    anew = resultado(replace(lido, previa=None))
    assert isinstance(lido.previa, Previa)
    assert resultado(lido) == anew
    assert lido.previa.usada == (em >= lido.previa.ate)
    assert resultado(lido) == anew  # taken once: a second date runs anew


def test_a_conta_da_leitura_so_serve_ao_mesmo_processo_e_a_mesma_legislacao() -> None:
    """The account kept from reading is gone on from only for the processo it was run on
    (another reading of imputação, other events), the same legislation (another Selic) and a
    memória that records as it did: anything else is run anew."""
    from dataclasses import replace

    from multas.nucleo.ciclo.devido import devido
    from multas.nucleo.ciclo.leitura import ler_processo
    from multas.nucleo.legislacao.selic import SerieSelic, TaxaSelic
    from multas.nucleo.memoria import silenciosa

    legislacao = carregar()
    dados = processo(
        *BASE,
        ev("pagamento", "2024-09-20", "2000.00"),
        em="2025-01-31",
        interpretacao={"encargos": "lei-10522"},
    )
    em = date(2025, 1, 31)

    def como(p: Processo, lei: Any = legislacao) -> Any:
        d, avisos, _ = devido(p, lei, em)
        assert d is not None
        return d.como_dict(), avisos

    outra = {
        "imputacao": "encargos"
        if ler_processo(dados, legislacao).imputacao != "encargos"
        else "proporcional"
    }
    lido = ler_processo(dados, legislacao)
    assert como(replace(lido, **outra)) == como(replace(lido, previa=None, **outra))
    lido = ler_processo(dados, legislacao)
    assert como(replace(lido, eventos=lido.eventos[:-1])) == como(
        replace(lido, eventos=lido.eventos[:-1], previa=None)
    )
    dobro = legislacao.com_selic(
        SerieSelic({m: TaxaSelic(t.taxa * 2, "x") for m, t in legislacao.selic.meses.items()})
    )
    lido = ler_processo(dados, legislacao)
    assert como(lido, dobro) == como(replace(lido, previa=None), dobro)
    with silenciosa():
        lido = ler_processo(dados, legislacao)
    assert como(lido) == como(replace(lido, previa=None))
    assert como(lido)[0]["memoria"]
