"""Decreto 2.953/1999 arts. 26–27 with Lei 9.784/1999 art. 66. Spec § 3.5."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from tests.utils import calc, erro


def mora(principal: str, ciencia: str, pagamento: str, **outros: object) -> dict[str, object]:
    return calc(
        regime="anp.mora",
        principal=principal,
        data_ciencia=ciencia,
        data_pagamento=pagamento,
        **outros,
    )


def test_art26_pago_no_prazo_sem_acrescimos() -> None:
    r = mora("5000.00", "2025-06-02", "2025-07-02")
    assert (r["vencimento"], r["meses_atraso"], r["valor"]) == ("2025-07-02", 0, "5000.00")


def test_art26_vencimento_em_dia_sem_expediente_e_prorrogado() -> None:
    # 29/03/2024 (Sexta-feira Santa) + 30 = 28/04 (domingo) → 29/04
    r = mora("250000", "2024-03-29", "2024-07-01")
    assert (r["vencimento"], r["meses_atraso"]) == ("2024-04-29", 3)
    assert (r["juros_mora"], r["multa_mora"], r["valor"]) == ("7500.00", "15000.00", "272500.00")


def test_art26_paragrafo_unico_cada_encargo_arredondado() -> None:
    r = mora("1234567.89", "2023-01-01", "2023-03-01")
    assert (r["juros_mora"], r["multa_mora"], r["valor"]) == ("24691.36", "49382.72", "1308641.97")


def test_art26_paragrafo_unico_mes_ou_fracao() -> None:
    assert mora("1000", "2024-10-21", "2024-11-22")["meses_atraso"] == 1
    assert mora("1000", "2024-10-21", "2024-12-21")["meses_atraso"] == 1
    assert mora("1000", "2024-10-21", "2024-12-22")["meses_atraso"] == 2


def test_art26_multa_de_mora_simples_e_sem_limite() -> None:
    r = mora("1000", "2010-01-04", "2020-01-04")
    assert r["meses_atraso"] == 120
    assert r["multa_mora"] == "2400.00"  # 2% × 120, not capped at 20%


def test_art66_par1_calendario_expediente_e_feriados() -> None:
    # 04/03/2025 Carnaval (ponto facultativo); 05/03 Quarta-feira de Cinzas "até as 14 horas":
    # há expediente, o prazo termina nela (spec v3, § 1)
    r = mora("100000.00", "2025-02-02", "2025-03-06")
    assert (r["vencimento"], r["valor"]) == ("2025-03-05", "103000.00")
    assert r["alternativas"] == []
    r = mora("100000.00", "2025-02-02", "2025-03-06", interpretacao={"calendario": "feriados"})
    assert (r["vencimento"], r["valor"]) == ("2025-03-04", "103000.00")
    # 20/06/2025: ponto facultativo da portaria, ausente da biblioteca holidays (a issue 18)
    r = mora("1000.00", "2025-05-21", "2025-06-23")
    assert (r["vencimento"], r["valor"]) == ("2025-06-23", "1000.00")
    assert r["alternativas"] == [{"interpretacao": {"calendario": "feriados"}, "valor": "1030.00"}]


def test_art27_aviso_de_divida_ativa_e_lei_10522() -> None:
    atrasado = mora("1000", "2024-01-02", "2024-06-01")
    assert any("Dívida Ativa" in a for a in atrasado["avisos"])
    em_dia = mora("1000", "2024-01-02", "2024-01-10")
    assert not any("Dívida Ativa" in a for a in em_dia["avisos"])
    assert any("37-A" in a for a in em_dia["avisos"])
    assert em_dia["interpretacao"] == {"calendario": "expediente", "encargos": "lei-9847"}


def test_principal_deve_ser_positivo_com_ate_duas_casas() -> None:
    assert (
        erro(
            regime="anp.mora", principal="0", data_ciencia="2024-01-01", data_pagamento="2024-02-01"
        ).campo
        == "principal"
    )
    assert (
        erro(
            regime="anp.mora",
            principal="1.005",
            data_ciencia="2024-01-01",
            data_pagamento="2024-02-01",
        ).campo
        == "principal"
    )
    assert (
        erro(
            regime="anp.mora",
            principal="-5",
            data_ciencia="2024-01-01",
            data_pagamento="2024-02-01",
        ).campo
        == "principal"
    )


def test_calendario_desconhecido_e_erro() -> None:
    e = erro(
        regime="anp.mora",
        principal="1",
        data_ciencia="2024-01-01",
        data_pagamento="2024-02-01",
        interpretacao={"calendario": "uteis"},
    )
    assert e.campo == "interpretacao.calendario"


# --- Lei 10.522/2002 art. 37-A with Lei 9.430/1996 art. 61 (interpretacao.encargos) ----------

LEI_10522 = {"encargos": "lei-10522"}
SELIC_2025 = {f"2025-{m:02d}": f"1.{m:02d}" for m in range(1, 13)}


def test_dias_atraso_e_saida_das_duas_leituras_e_zero_sem_atraso() -> None:
    # 02/06/2025 + 30 = 02/07/2025 (quarta-feira)
    assert mora("1000", "2025-06-02", "2025-07-02")["dias_atraso"] == 0
    assert mora("1000", "2025-06-02", "2025-07-03")["dias_atraso"] == 1
    assert mora("1000", "2025-06-02", "2025-06-10")["dias_atraso"] == 0  # paid early
    r = mora("1000", "2025-06-02", "2025-07-03", taxas_selic=SELIC_2025, interpretacao=LEI_10522)
    assert r["dias_atraso"] == 1


@pytest.mark.parametrize(
    ("pagamento", "dias", "multa"),
    [
        ("2025-06-03", 1, "33.00"),  # 0,33% × 1
        ("2025-08-01", 60, "1980.00"),  # 0,33% × 60 = 19,8%
        ("2025-08-02", 61, "2000.00"),  # 20,13% → capped at 20%
        ("2026-06-02", 365, "2000.00"),
    ],
)
def test_lei_9430_art61_multa_033_por_dia_limitada_a_20(
    pagamento: str, dias: int, multa: str
) -> None:
    # ciência 02/05/2025 + 30 = 01/06/2025 (domingo) → 02/06/2025
    selic = {f"{a}-{m:02d}": "1" for a in (2025, 2026) for m in range(1, 13)}
    r = mora("10000.00", "2025-05-02", pagamento, taxas_selic=selic, interpretacao=LEI_10522)
    assert (r["vencimento"], r["dias_atraso"], r["multa_mora"]) == ("2025-06-02", dias, multa)


@pytest.mark.parametrize(
    ("pagamento", "juros"),
    [
        ("2025-06-30", "0.00"),  # the vencimento's month: no interest
        ("2025-07-01", "100.00"),  # the next month: 1% only
        ("2025-08-01", "207.00"),  # July's Selic (1,07%) + 1%
        ("2025-09-15", "315.00"),  # 1,07% + 1,08% + 1%
    ],
)
def test_lei_9430_art61_par3_selic_dos_meses_entre_e_1_no_mes_do_pagamento(
    pagamento: str, juros: str
) -> None:
    r = mora("10000.00", "2025-05-02", pagamento, taxas_selic=SELIC_2025, interpretacao=LEI_10522)
    assert r["juros_mora"] == juros
    assert r["fundamento"] == "Lei nº 10.522/2002, art. 37-A; Lei nº 9.430/1996, art. 61"
    assert Decimal(r["valor"]) == Decimal("10000.00") + Decimal(juros) + Decimal(r["multa_mora"])


def test_lei_10522_sem_taxas_selic_usa_a_selic_publicada() -> None:
    """Spec § 3.5 v4: the shipped series gives each month; the memória names each month's rate
    and its source."""
    r = mora("100000", "2024-03-29", "2024-09-10", interpretacao=LEI_10522)
    # 05–08/2024: 0,83 + 0,79 + 0,91 + 0,87 = 3,40%, + 1% in September
    assert (r["juros_mora"], r["valor"]) == ("4400.00", "124400.00")
    meses = [p for p in r["passos"] if p["descricao"].startswith("Selic de ")]
    assert [(p["descricao"], p["valor"]) for p in meses] == [
        ("Selic de 05/2024 (% no mês)", "0.83"),
        ("Selic de 06/2024 (% no mês)", "0.79"),
        ("Selic de 07/2024 (% no mês)", "0.91"),
        ("Selic de 08/2024 (% no mês)", "0.87"),
    ]
    assert all(p["fundamento"].startswith("Receita Federal, tabela") for p in meses)
    assert not any("taxas_selic" in a and "diferentes" in a for a in r["avisos"])


def test_taxas_selic_substitui_o_mes_publicado_com_aviso() -> None:
    r = mora(
        "100000",
        "2024-03-29",
        "2024-09-10",
        taxas_selic={"2024-06": "0.80", "2024-07": "0.910"},  # 0.910 = 0,91: the same rate
        interpretacao=LEI_10522,
    )
    assert r["juros_mora"] == "4410.00"
    assert (
        "Taxas de taxas_selic diferentes das publicadas, usadas no lugar delas: 06/2024 (0,80% "
        "em vez de 0,79%)." in r["avisos"]
    )
    junho = next(p for p in r["passos"] if p["descricao"].startswith("Selic de 06/2024"))
    assert (junho["valor"], junho["fundamento"]) == ("0.8", "informada em taxas_selic")


@pytest.mark.parametrize(
    ("ciencia", "pagamento", "campo", "mensagem"),
    [
        (
            "2025-05-02",
            "2025-08-01",
            "taxas_selic.2025-07",
            "taxa Selic de 07/2025 não disponível (última: 04/2025): atualize com "
            "`multas legislacao selic atualizar`",
        ),
        (
            "2008-12-10",
            "2009-03-02",
            "taxas_selic.2009-01",
            "",
        ),
        (  # art. 37-A applied "what if" (data_referencia) to a vencimento of 31/10/2008
            "2008-10-01",
            "2009-03-02",
            "taxas_selic.2008-11",
            "taxa Selic de 11/2008 não disponível (a série publicada começa em 01/2009): "
            "informe-a em taxas_selic",
        ),
    ],
)
def test_mes_fora_da_serie_e_erro_que_o_nomeia_nunca_zero(
    ciencia: str, pagamento: str, campo: str, mensagem: str
) -> None:
    caso = {"principal": "1000", "data_ciencia": ciencia, "data_pagamento": pagamento}
    caso["data_referencia"] = "2020-01-01"
    if not mensagem:  # 01/2009 is the series' first month: computed, not refused
        assert calc(regime="anp.mora", **caso, interpretacao=LEI_10522)["juros_mora"]
        return
    e = erro(regime="anp.mora", **caso, interpretacao=LEI_10522)
    assert (e.campo, e.mensagem) == (campo, mensagem)
    # given in taxas_selic, the month is there
    dado = {mes: "1.00" for mes in ("2008-11", "2008-12", "2025-07")}
    assert calc(regime="anp.mora", **caso, taxas_selic=dado, interpretacao=LEI_10522)["valor"]


def test_alternativa_lei_10522_sem_mes_fica_fora_com_aviso_que_nomeia_o_mes() -> None:
    r = mora("1000", "2025-05-02", "2025-09-15", taxas_selic={"2025-07": "1.07"})
    assert r["alternativas"] == []
    assert any(
        "essa leitura fica fora das alternativas (taxa Selic de 08/2025 não disponível "
        "(última: 04/2025): atualize com `multas legislacao selic atualizar`)" in a
        for a in r["avisos"]
    )


def test_lei_10522_fica_fora_das_alternativas_quando_nao_se_pode_calcular() -> None:
    assert mora("1000", "2025-05-02", "2025-09-15")["alternativas"] == []  # no taxas_selic
    faltando = {"2025-07": "1.07"}  # August is needed and missing
    r = mora("1000", "2025-05-02", "2025-09-15", taxas_selic=faltando)
    assert r["alternativas"] == []
    r = mora("1000", "2025-05-02", "2025-09-15", taxas_selic=SELIC_2025)
    assert r["alternativas"] == [{"interpretacao": {"encargos": "lei-10522"}, "valor": "1231.50"}]


def test_lei_10522_mes_faltando_e_erro_que_nomeia_o_mes() -> None:
    e = erro(
        regime="anp.mora",
        principal="1000",
        data_ciencia="2025-05-02",
        data_pagamento="2025-09-15",
        taxas_selic={"2025-07": "1.07"},
        interpretacao=LEI_10522,
    )
    assert e.campo == "taxas_selic.2025-08"
    assert "08/2025" in e.mensagem


@pytest.mark.parametrize(
    ("taxas", "campo"),
    [
        ({}, "taxas_selic"),
        ({"2025-13": "1"}, "taxas_selic.2025-13"),
        ({"2025-7": "1"}, "taxas_selic.2025-7"),
        ({"2025-07": "-0.01"}, "taxas_selic.2025-07"),
        ({"2025-07": "abc"}, "taxas_selic.2025-07"),
        ({"2025-07": True}, "taxas_selic.2025-07"),
        ({"2025-07": None}, "taxas_selic.2025-07"),
        ([["2025-07", "1"]], "taxas_selic"),
    ],
)
def test_taxas_selic_cada_entrada_e_validada_mesmo_na_leitura_decreto(
    taxas: object, campo: str
) -> None:
    e = erro(
        regime="anp.mora",
        principal="1000",
        data_ciencia="2025-05-02",
        data_pagamento="2025-06-20",
        taxas_selic=taxas,
    )
    assert e.campo == campo


def test_taxa_zero_e_numero_json_sao_aceitos() -> None:
    r = mora(
        "1000.00",
        "2025-05-02",
        "2025-08-01",
        taxas_selic={"2025-07": Decimal("0"), "2030-01": 2},
        interpretacao=LEI_10522,
    )
    assert r["juros_mora"] == "10.00"


@pytest.mark.parametrize(
    ("ciencia", "aceito"),
    [
        ("2008-11-03", False),  # + 30 = 03/12/2008: before MP 449/2008 (DOU 04/12/2008)
        ("2008-11-04", True),  # + 30 = 04/12/2008
    ],
)
def test_art37A_existe_desde_04_12_2008(ciencia: str, aceito: bool) -> None:
    campos: dict[str, Any] = {
        "principal": "1000",
        "data_ciencia": ciencia,
        "data_pagamento": "2008-12-20",
        "taxas_selic": {"2008-12": "1"},
        "interpretacao": LEI_10522,
    }
    if aceito:
        assert calc(regime="anp.mora", **campos)["vencimento"] == "2008-12-04"
        return
    e = erro(regime="anp.mora", **campos)
    assert e.campo == "data_ciencia"
    assert e.mensagem.startswith("regime não vigente")
    # the other reading leaves it out of the alternativas instead
    decreto = calc(regime="anp.mora", **{**campos, "interpretacao": {"encargos": "decreto"}})
    assert decreto["alternativas"] == []


def test_aviso_do_art37A_na_leitura_decreto_e_dos_30_dias_da_lei_9847() -> None:
    sem = mora("1000", "2025-05-02", "2025-06-20")
    assert any("informe taxas_selic" in a for a in sem["avisos"])
    com = mora("1000", "2025-05-02", "2025-06-20", taxas_selic=SELIC_2025)
    assert any("veja essa leitura entre as alternativas" in a for a in com["avisos"])
    assert any("pela Lei nº 9.847/1999 (art. 4º, § 1º)" in a for a in sem["avisos"])
    antes = mora("1000", "2001-05-02", "2001-06-20")  # art. 37-A did not exist yet
    assert not any("37-A" in a for a in antes["avisos"])


@pytest.mark.parametrize(("pagamento", "aviso"), [("2025-06-02", False), ("2025-06-03", True)])
def test_art27_aviso_de_divida_ativa_so_depois_do_vencimento(pagamento: str, aviso: bool) -> None:
    r = mora("1000", "2025-05-02", pagamento)  # vencimento 02/06/2025
    assert any("Dívida Ativa" in a for a in r["avisos"]) is aviso


# --- what the user reads, pinned by equality --------------------------------------------------


#: from 17/04/2025 (spec v3, § 3.5; v4 § 3.7 W9): Decreto 2.953/1999 was amended, its new text
#: not checked; the aviso names only what rests on it (the deadline; the Dívida Ativa when late)
def _aviso_alterado(atrasado: bool, encargos: str = "Lei nº 9.847/1999, art. 4º, § 2º") -> str:
    divida = " e o encaminhamento à Dívida Ativa (art. 27)" if atrasado else ""
    return (
        'O Decreto nº 2.953/1999 foi alterado pelo Decreto nº 12.437/2025 ("para modernizar o '
        'procedimento administrativo sancionador", 17/04/2025); o texto alterado não foi '
        "conferido. Deste resultado, só dependem dele, na redação original, o prazo de pagamento "
        f"de 30 dias contado da ciência (art. 26, caput){divida}: confira na redação em vigor. "
        f"Os juros e a multa de mora são os da {encargos}."
    )


AVISO_ALTERADO = _aviso_alterado(False)
AVISO_ALTERADO_ATRASO = _aviso_alterado(True)
#: spec § 3.7 W9: the text whose numbers were applied, then the deadline's wording
REDACAO_ALTERADA = (
    "Lei nº 9.847/1999, art. 4º, § 2º (redação atual; notas de redação não transcritas); prazo "
    "de pagamento: Decreto nº 2.953/1999, art. 26, caput (alterado pelo Decreto nº 12.437/2025; "
    "texto alterado não conferido)"
)
#: spec § 3.7 point 8: which of the two laws prevails is open
AVISO_LEI_ESPECIAL = (
    "Leitura do projeto (encargos-lei-especial; veja docs/leituras.md#encargos-lei-especial): os "
    "encargos padrão são os da Lei nº 9.847/1999, art. 4º, § 2º, lei especial das sanções da "
    "ANP; a Lei nº 10.522/2002, art. 37-A, lei geral posterior, não a afasta por si só, e "
    "nenhuma prática da ANP ou da PGF sobre isso consta das fontes do projeto: qual das duas "
    "prevalece é questão em aberto."
)
AVISO_30_DIAS = (
    "Leitura do projeto (docs/leituras.md#encargos): os 30 dias contam da ciência informada em "
    "data_ciencia (Decreto nº 2.953/1999, art. 26, caput); pela Lei nº 9.847/1999 (art. 4º, "
    "§ 1º), eles contam da decisão administrativa definitiva: informe a ciência dessa decisão."
)
AVISO_37A_SEM_SELIC = (
    "Lei nº 10.522/2002, art. 37-A sujeita os créditos das autarquias federais aos juros e à "
    "multa de mora dos tributos federais (Selic, mais multa de 0,33% ao dia limitada a 20%), o "
    "que pode substituir na prática os 1% + 2% ao mês da Lei nº 9.847/1999, art. 4º, § 2º: "
    "informe taxas_selic para ver "
    "essa leitura entre as alternativas (Encargos de mora: os da Lei nº 10.522/2002, art. 37-A)."
)
AVISO_DIVIDA_ATIVA = (
    "Débito não pago até o vencimento (02/06/2025): o processo é encaminhado para inscrição na "
    "Dívida Ativa da ANP (Decreto nº 2.953/1999, art. 27)."
)
ART_61_PAR3 = "Lei nº 9.430/1996, art. 61, § 3º (redação original; data não conferida)"


@pytest.mark.parametrize(
    ("pagamento", "avisos"),
    [
        (
            "2025-06-02",
            [AVISO_30_DIAS, AVISO_37A_SEM_SELIC, AVISO_LEI_ESPECIAL, AVISO_ALTERADO],
        ),  # on the vencimento
        (
            "2025-06-03",
            [
                AVISO_30_DIAS,
                AVISO_37A_SEM_SELIC,
                AVISO_LEI_ESPECIAL,
                AVISO_ALTERADO_ATRASO,
                AVISO_DIVIDA_ATIVA,
            ],
        ),  # the day after
    ],
)
def test_art27_divida_ativa_no_vencimento_e_no_dia_seguinte(
    pagamento: str, avisos: list[str]
) -> None:
    r = mora("1000", "2025-05-02", pagamento)  # 02/05 + 30 = 01/06 (domingo) → 02/06/2025
    assert r["regime"] == "anp.mora"
    assert (
        r["fundamento"] == "Lei nº 9.847/1999, art. 4º, § 2º; Decreto nº 2.953/1999, arts. 26 e 27"
    )
    assert r["vigencia"] == {"data_referencia": "2025-05-02", "redacao": REDACAO_ALTERADA}
    assert r["avisos"] == avisos


@pytest.mark.parametrize(("pagamento", "aviso"), [("2025-05-01", True), ("2025-05-02", False)])
def test_pagamento_antes_da_ciencia_e_avisado(pagamento: str, aviso: bool) -> None:
    avisos = mora("1000", "2025-05-02", pagamento)["avisos"]
    anterior = "A data de pagamento é anterior à ciência da decisão; confira as datas."
    assert avisos == [AVISO_30_DIAS, AVISO_37A_SEM_SELIC, AVISO_LEI_ESPECIAL, AVISO_ALTERADO] + (
        [anterior] if aviso else []
    )


def test_decreto_2953_antes_de_29_01_1999_regime_nao_vigente() -> None:
    mensagem = (
        "regime não vigente: anp.mora não existia na data de referência 28/01/1999 "
        "(vigente a partir de 29/01/1999)"
    )
    e = erro(
        regime="anp.mora", principal="1000", data_ciencia="1999-01-28", data_pagamento="1999-03-01"
    )
    assert (e.campo, e.mensagem) == ("data_ciencia", mensagem)
    e = erro(
        regime="anp.mora",
        principal="1000",
        data_ciencia="2025-05-02",
        data_pagamento="2025-07-01",
        data_referencia="1999-01-28",
    )
    assert (e.campo, e.mensagem) == ("data_referencia", mensagem)
    r = mora("1000", "1999-01-29", "1999-03-01")
    assert r["vigencia"]["data_referencia"] == "1999-01-29"


@pytest.mark.parametrize(
    ("ciencia", "contagem", "prorrogacao"),
    [
        # Lei 9.784/1999 (DOU 01/02/1999) came after the decree: until then the counting is
        # spec § 1's, and cited to it (this case used to fail with a KeyError, a 500)
        (
            "1999-01-31",
            "multas: contagem de prazos de docs/contrato.md#datas (a Lei nº 9.784/1999 só vige a "
            "partir de 01/02/1999)",
            "multas: contagem de prazos de docs/contrato.md#datas (a Lei nº 9.784/1999 só vige a "
            "partir de 01/02/1999)",
        ),
        (
            "1999-02-01",
            "Lei nº 9.784/1999, art. 66, caput (redação original; data não conferida)",
            "Lei nº 9.784/1999, art. 66, § 1º (redação original; data não conferida)",
        ),
    ],
)
def test_lei_9784_art66_citada_so_desde_01_02_1999(
    ciencia: str, contagem: str, prorrogacao: str
) -> None:
    r = mora("1000", ciencia, "1999-04-15")
    fim, vencimento = r["passos"][3], r["passos"][4]
    assert (fim["descricao"], fim["fundamento"]) == (
        "Fim do prazo de 30 dias corridos (exclui-se o dia da ciência, inclui-se o do vencimento)",
        contagem,
    )
    assert vencimento["descricao"].startswith("Vencimento: primeiro dia útil")
    assert vencimento["fundamento"] == prorrogacao
    assert (r["vencimento"], r["valor"]) == (fim["valor"], "1060.00")


def test_data_referencia_e_se_aplica_a_lei_de_outra_data() -> None:
    r = mora("1000", "2025-05-02", "2025-07-01", data_referencia="2001-05-02")
    assert r["vigencia"] == {
        "data_referencia": "2001-05-02",
        "redacao": "Lei nº 9.847/1999, art. 4º, § 2º (redação atual; notas de redação não "
        "transcritas); prazo de pagamento: Decreto nº 2.953/1999, art. 26, caput (redação original)",
    }
    assert (r["passos"][0]["descricao"], r["passos"][0]["valor"]) == (
        'Lei aplicada: a vigente na data de referência informada ("e se"), em vez da data da '
        "ciência da decisão: 02/05/2025",
        "2001-05-02",
    )
    # art. 37-A (2008) did not exist on 02/05/2001: no aviso about it
    assert r["avisos"] == [
        AVISO_30_DIAS,
        AVISO_DIVIDA_ATIVA,
    ]


def test_principal_com_16_algarismos_ou_3_casas_e_recusado() -> None:
    def recusa(principal: str) -> tuple[str | None, str]:
        e = erro(
            regime="anp.mora",
            principal=principal,
            data_ciencia="2025-05-02",
            data_pagamento="2025-06-02",
        )
        return e.campo, e.mensagem

    assert recusa("1000000000000000") == (
        "principal",
        "número grande demais (no máximo 15 algarismos inteiros)",
    )
    assert recusa("1.001") == ("principal", "valor em reais com mais de duas casas decimais")
    assert mora("999999999999999.99", "2025-05-02", "2025-06-02")["valor"] == "999999999999999.99"
    assert mora("1.01", "2025-05-02", "2025-06-02")["valor"] == "1.01"


def test_art37A_antes_de_04_12_2008_nomeia_a_leitura_e_o_campo() -> None:
    campos: dict[str, Any] = {
        "regime": "anp.mora",
        "principal": "1000",
        "data_pagamento": "2008-12-20",
        "taxas_selic": {"2008-12": "1"},
        "interpretacao": LEI_10522,
    }
    mensagem = (
        "regime não vigente: a leitura encargos = lei-10522 (Lei nº 10.522/2002, art. 37-A) não "
        "existia na data de referência {} (vigente a partir de 04/12/2008)"
    )
    e = erro(data_ciencia="2008-11-03", **campos)
    assert (e.campo, e.mensagem) == ("data_ciencia", mensagem.format("03/12/2008"))
    e = erro(data_ciencia="2025-05-02", data_referencia="2008-12-03", **campos)
    assert (e.campo, e.mensagem) == ("data_referencia", mensagem.format("03/12/2008"))


def _passos(r: dict[str, Any], de: int) -> list[tuple[str, Any, str, str]]:
    return [(p["descricao"], p["valor"], p["tipo"], p["fundamento"]) for p in r["passos"][de:]]


def test_lei_9430_art61_par3_pagamento_no_mes_seguinte_so_1_porcento() -> None:
    r = mora("1000", "2025-05-02", "2025-07-01", taxas_selic=SELIC_2025, interpretacao=LEI_10522)
    assert r["fundamento"] == "Lei nº 10.522/2002, art. 37-A; Lei nº 9.430/1996, art. 61"
    assert _passos(r, -4)[:3] == [
        ("Nenhum mês inteiro entre o do vencimento e o do pagamento", "0", "inteiro", ART_61_PAR3),
        (
            "Taxa de juros: Selic acumulada + 1% no mês do pagamento (em %)",
            "1",
            "numero",
            ART_61_PAR3,
        ),
        (
            "Juros de mora: principal × taxa (arredondados ao centavo)",
            "10.00",
            "quantia",
            ART_61_PAR3,
        ),
    ]
    encargos = "Lei nº 10.522/2002, art. 37-A, com a Lei nº 9.430/1996, art. 61"
    assert r["avisos"] == [
        AVISO_30_DIAS,
        AVISO_LEI_ESPECIAL,
        _aviso_alterado(True, encargos),
        AVISO_DIVIDA_ATIVA,
    ]


@pytest.mark.parametrize(
    ("pagamento", "selic", "acumulada"),
    [
        (
            "2025-08-01",
            "Selic acumulada de 07/2025 a 07/2025 (1 mês)",
            "1.07",
        ),
        (
            "2025-09-01",
            "Selic acumulada de 07/2025 a 08/2025 (2 meses)",
            "2.15",
        ),
    ],
)
def test_lei_9430_art61_par3_selic_acumulada_um_mes_e_dois(
    pagamento: str, selic: str, acumulada: str
) -> None:
    r = mora("1000", "2025-05-02", pagamento, taxas_selic=SELIC_2025, interpretacao=LEI_10522)
    assert _passos(r, -4)[0] == (selic, acumulada, "numero", ART_61_PAR3)


def test_lei_9430_art61_percentual_citado_abaixo_e_acima_do_limite() -> None:
    selic = {f"2025-{m:02d}": "1" for m in range(1, 13)}
    abaixo = mora("1000", "2025-05-02", "2025-08-01", taxas_selic=selic, interpretacao=LEI_10522)
    acima = mora("1000", "2025-05-02", "2025-08-02", taxas_selic=selic, interpretacao=LEI_10522)
    passo = lambda r: next(p for p in r["passos"] if p["descricao"].startswith("Percentual"))  # noqa: E731
    assert (passo(abaixo)["valor"], passo(abaixo)["fundamento"]) == (
        "0.198",
        "Lei nº 9.430/1996, art. 61, caput (redação original; data não conferida)",
    )
    assert (passo(acima)["valor"], passo(acima)["fundamento"]) == (
        "0.2",
        "Lei nº 9.430/1996, art. 61, § 2º (redação original; data não conferida)",
    )


@pytest.mark.parametrize("ciencia", ["9999-12-22", "9999-12-31"])
def test_vencimento_depois_de_31_12_9999_e_erro_na_data_da_ciencia(ciencia: str) -> None:
    """It was a 500 (the due date overflowed): now a pt-BR error naming the date it counts from."""
    falha = erro(
        regime="anp.mora", principal="100.00", data_ciencia=ciencia, data_pagamento="9999-12-31"
    )
    assert falha.campo == "data_ciencia" and "31/12/9999" in falha.mensagem


def test_dias_sem_expediente_informados_prorrogam_o_vencimento() -> None:
    """02/06/2025 + 30 = 02/07/2025 (Wednesday); a local day without expediente that day moves
    the vencimento to 03/07, so a payment on 03/07 is on time."""
    assert mora("1000.00", "2025-06-02", "2025-07-03")["valor"] == "1030.00"
    r = mora("1000.00", "2025-06-02", "2025-07-03", dias_sem_expediente=["2025-07-02"])
    assert (r["vencimento"], r["valor"]) == ("2025-07-03", "1000.00")


def test_vencimento_que_cruza_o_ano_cita_os_dois_calendarios() -> None:
    """01/12/2025 + 30 = 31/12/2025 (closes early), 01/01 Confraternização: 02/01/2026."""
    r = mora("1000.00", "2025-12-01", "2026-01-02")
    assert r["vencimento"] == "2026-01-02"
    passo = next(p["descricao"] for p in r["passos"] if p["descricao"].startswith("Vencimento"))
    assert (
        "Dias úteis: dias de expediente da administração federal; calendário federal de 2025 ("
        in passo
    )
    assert "); calendário federal de 2026 (" in passo
