"""Spec § 6: the deadlines of a processo, each date checked against a hand count written beside
it (the weekday of every date, and every day without expediente skipped on the way)."""

from __future__ import annotations

from typing import Any

import pytest

from multas.nucleo.ciclo import calcular_prazos
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.legislacao import carregar


def proc(tipo: str, *eventos: tuple[str, str], **extra: Any) -> dict[str, Any]:
    """A processo judged on the date of its last event, unless ``data_referencia`` is given:
    no test depends on today's date."""
    referencia = eventos[-1][1] if eventos else None
    return {
        "tipo": tipo,
        "eventos": [{"evento": e, "data": d} for e, d in eventos],
        **({"data_referencia": referencia} if referencia else {}),
        **extra,
    }


def anp(*eventos: tuple[str, str], **extra: Any) -> dict[str, Any]:
    return proc("anp", *eventos, **extra)


def lista(*eventos: tuple[str, str], **extra: Any) -> dict[str, Any]:
    return proc("renovabio.lista", *eventos, **extra)


def balanco(*eventos: tuple[str, str], **extra: Any) -> dict[str, Any]:
    return proc("renovabio.balanco", *eventos, **extra)


def feriados(processo: dict[str, Any]) -> dict[str, Any]:
    return {**processo, "interpretacao": {"calendario": "feriados"}}


def datas(resultado: dict[str, Any]) -> dict[str, str]:
    return {p["prazo"]: p["data"] for p in resultado["prazos"]}


def prazo(resultado: dict[str, Any], nome: str) -> dict[str, str]:
    return next(p for p in resultado["prazos"] if p["prazo"] == nome)


def atrasos(resultado: dict[str, Any]) -> list[str]:
    """The avisos of § 6 that name an event's delay against its deadline."""
    return [a for a in resultado["avisos"] if "depois do prazo" in a]


def erro(processo: object) -> EntradaInvalida:
    with pytest.raises(EntradaInvalida) as info:
        calcular_prazos(processo)
    return info.value


# --- tipo anp: prescricao --------------------------------------------------------------------


def test_so_a_infracao_prescricao_em_5_anos_29_02_vira_01_03() -> None:
    r = calcular_prazos(anp(("infracao", "2024-02-29")))
    assert r == {
        "tipo": "anp",
        "estado": "apuracao",
        "data_referencia": "2024-02-29",
        # § 6.1 v4: the ANP must draw up the auto before the prescrição
        "proxima_acao": {
            "quem": "anp",
            "o_que": "lavrar o auto de infração",
            "desde": "2024-02-29",
            "ate": "2029-03-01",
            "fundamento": "Lei nº 9.873/1999, art. 1º, caput (data não conferida)",
        },
        "prazos": [
            {
                "prazo": "prescricao",
                # 29/02/2024 + 5 anos: 2029 não é bissexto → o dia seguinte, 01/03/2029
                # (Lei nº 810/1949, art. 3º; spec v3 § 6)
                "data": "2029-03-01",
                "fundamento": "Lei nº 9.873/1999, art. 1º, caput (data não conferida)",
                "contagem": r["prazos"][0]["contagem"],
                "responsavel": "anp",
                "situacao": "em_aberto",
            }
        ],
        "avisos": r["avisos"],
    }
    assert "29/02 não existe em 2029" in r["prazos"][0]["contagem"]
    assert "não é prorrogado" in r["prazos"][0]["contagem"]
    # the other reading (28/02, Lei nº 9.784/1999, art. 66, § 3º) changes the date: an aviso
    assert any("28/02" in a and "Lei nº 810/1949" in a for a in r["avisos"])
    assert any("art. 2º, II" in a for a in r["avisos"])


def test_prescricao_de_29_02_para_ano_bissexto() -> None:
    # infração e citação em 29/02/2028 + 5 anos → 01/03/2033 (2033 não é bissexto);
    # defesa: 29/02/2028 + 15 = 15/03/2028 (quarta, dia útil; 2028 pelo padrão);
    # intercorrente: 29/02/2028 + 3 anos → 01/03/2031
    r = calcular_prazos(anp(("infracao", "2028-02-29"), ("auto_infracao", "2028-02-29")))
    assert datas(r) == {
        "defesa": "2028-03-15",
        "prescricao": "2033-03-01",
        "prescricao_intercorrente": "2031-03-01",
    }
    assert "calendário de 2028 não transcrito: usado o padrão" in r["avisos"]


def test_prescricao_nao_e_prorrogada_para_dia_util() -> None:
    # 06/05/2023 + 5 anos = 06/05/2028, um sábado: fica no sábado
    r = calcular_prazos(anp(("infracao", "2023-05-06")))
    assert datas(r) == {"prescricao": "2028-05-06"}
    assert "06/05/2028 (sábado)" in prazo(r, "prescricao")["contagem"]


def test_citacao_interrompe_a_prescricao() -> None:
    r = calcular_prazos(anp(("infracao", "2023-05-10"), ("auto_infracao", "2023-06-01")))
    assert r["estado"] == "defesa"
    assert datas(r) == {
        "defesa": "2023-06-16",  # 01/06/2023 + 15 = 16/06/2023 (sexta)
        "prescricao": "2028-06-01",  # 01/06/2023 + 5 anos
        "prescricao_intercorrente": "2026-06-01",  # 01/06/2023 + 3 anos, aguardando decisão
    }
    p = prazo(r, "prescricao")
    assert p["fundamento"] == (
        "Lei nº 9.873/1999, art. 1º, caput (data não conferida); Lei nº 9.873/1999, art. 2º, I e III (data não conferida)"
    )
    assert "10/05/2023" in p["contagem"]  # names the infraction it interrupted
    assert prazo(r, "defesa")["fundamento"] == "Decreto nº 2.953/1999, art. 8º"
    assert {z["prazo"]: z["responsavel"] for z in r["prazos"]} == {
        "defesa": "autuado",
        "prescricao": "anp",
        "prescricao_intercorrente": "anp",
    }


def test_decisao_de_primeira_instancia_interrompe_de_novo_e_abre_o_recurso() -> None:
    r = calcular_prazos(
        anp(
            ("infracao", "2023-05-10"),
            ("auto_infracao", "2023-06-01"),
            ("ciencia_primeira_instancia", "2024-03-19"),
        )
    )
    assert r["estado"] == "decidido_primeira_instancia"
    assert datas(r) == {
        "defesa": "2023-06-16",
        # 19/03/2024 (terça) + 10 = 29/03/2024, Paixão de Cristo; 30 sábado, 31 domingo
        # → 01/04/2024 (segunda)
        "recurso": "2024-04-01",
        "prescricao": "2029-03-19",  # 19/03/2024 + 5 anos
    }
    # the defence was not recorded: on 19/03/2024 its deadline is past
    assert prazo(r, "defesa")["situacao"] == "vencido"
    assert prazo(r, "recurso")["situacao"] == "em_aberto"
    recurso = prazo(r, "recurso")
    assert recurso["fundamento"] == "Lei nº 9.784/1999, art. 59 (data não conferida)"
    assert "29/03/2024 (Paixão de Cristo)" in recurso["contagem"]
    assert "01/04/2024 (segunda-feira)" in recurso["contagem"]
    art59 = [a for a in r["avisos"] if "art. 59" in a]
    assert len(art59) == 1 and "prazo geral" in art59[0]


def test_sexta_feira_santa_e_feriado_tambem_no_calendario_feriados() -> None:
    r = calcular_prazos(
        feriados(
            anp(
                ("infracao", "2023-05-10"),
                ("auto_infracao", "2023-06-01"),
                ("ciencia_primeira_instancia", "2024-03-19"),
            )
        )
    )
    assert datas(r)["recurso"] == "2024-04-01"  # 29/03 é feriado nacional: o mesmo


def test_prescricao_empata_na_mesma_data_nomeia_o_ultimo_ato() -> None:
    r = calcular_prazos(anp(("infracao", "2024-01-10"), ("auto_infracao", "2024-01-10")))
    p = prazo(r, "prescricao")
    assert p["data"] == "2029-01-10"
    assert p["fundamento"].endswith("art. 2º, I e III (data não conferida)")


# --- tipo anp: recurso, with both calendars ----------------------------------------------------


def _ate_primeira_instancia(ciencia: str) -> dict[str, Any]:
    return anp(
        ("infracao", "2023-01-02"),
        ("auto_infracao", "2023-02-01"),
        ("ciencia_primeira_instancia", ciencia),
    )


@pytest.mark.parametrize(
    ("ciencia", "expediente", "so_feriados"),
    [
        # 21/02/2025 (sexta) + 10 = 03/03/2025, Carnaval (segunda); 04 Carnaval; 05 Cinzas,
        # expediente a partir das 14h: dia útil → 05/03/2025; só feriados: 03/03 é dia útil
        ("2025-02-21", "2025-03-05", "2025-03-03"),
        # 31/01/2024 (quarta) + 10 = 10/02/2024 (sábado); 11 domingo; 12-13 Carnaval
        # → 14/02/2024 (Cinzas, dia útil); só feriados: 12/02/2024 (segunda)
        ("2024-01-31", "2024-02-14", "2024-02-12"),
        # 10/11/2024 (domingo: a ciência conta de qualquer dia) + 10 = 20/11/2024, Consciência
        # Negra, feriado nacional desde 2024 → 21/11/2024 (quinta) nos dois calendários
        ("2024-11-10", "2024-11-21", "2024-11-21"),
        # 14/12/2025 (domingo) + 10 = 24/12/2025 (quarta), encerra às 13h; 25 Natal
        # → 26/12/2025 (sexta); só feriados: 24/12 é dia útil
        ("2025-12-14", "2025-12-26", "2025-12-24"),
        # 21/12/2025 (domingo) + 10 = 31/12/2025 (quarta), encerra às 13h; 01/01/2026
        # feriado → 02/01/2026 (sexta); só feriados: 31/12/2025
        ("2025-12-21", "2026-01-02", "2025-12-31"),
        # 18/02/2028 (sexta) + 10 = 28/02/2028, Carnaval (segunda); 29/02/2028, Carnaval
        # (terça, ano bissexto) → 01/03/2028, Cinzas (dia útil; 2028 não transcrito: o padrão);
        # só feriados: 28/02/2028
        ("2028-02-18", "2028-03-01", "2028-02-28"),
        # 01/04/2024 (segunda) + 10 = 11/04/2024 (quinta), dia útil
        ("2024-04-01", "2024-04-11", "2024-04-11"),
    ],
)
def test_recurso_10_dias_nos_dois_calendarios(
    ciencia: str, expediente: str, so_feriados: str
) -> None:
    assert datas(calcular_prazos(_ate_primeira_instancia(ciencia)))["recurso"] == expediente
    r = calcular_prazos(feriados(_ate_primeira_instancia(ciencia)))
    assert datas(r)["recurso"] == so_feriados
    assert 'calendário "feriados"' in prazo(r, "recurso")["contagem"]


def test_recurso_dentro_do_prazo_sem_aviso_de_atraso() -> None:
    r = calcular_prazos(
        anp(
            ("infracao", "2023-01-02"),
            ("auto_infracao", "2023-02-01"),
            ("ciencia_primeira_instancia", "2024-04-01"),
            ("recurso", "2024-04-11"),  # o último dia do prazo (01/04 + 10)
        )
    )
    assert r["estado"] == "em_recurso"
    assert atrasos(r) == []
    assert sum("art. 59" in a for a in r["avisos"]) == 1
    assert prazo(r, "recurso")["situacao"] == "cumprido"


def test_recurso_atrasado_avisa_os_dias_corridos() -> None:
    r = calcular_prazos(
        anp(
            ("infracao", "2023-01-02"),
            ("auto_infracao", "2023-02-01"),
            ("ciencia_primeira_instancia", "2024-04-01"),
            ("recurso", "2024-04-15"),  # prazo 11/04/2024; 12, 13, 14, 15 → 4 dias
        )
    )
    assert datas(r)["recurso"] == "2024-04-11"
    assert prazo(r, "recurso")["situacao"] == "cumprido_com_atraso"
    assert "art. 59" in r["avisos"][0]
    [atraso] = atrasos(r)
    assert "“Recurso” (recurso) (15/04/2024)" in atraso
    assert "4 dias corridos depois do prazo “Recurso” (recurso) (11/04/2024)" in atraso


def test_recurso_com_um_dia_de_atraso_no_singular() -> None:
    r = calcular_prazos(
        anp(
            ("infracao", "2023-01-02"),
            ("auto_infracao", "2023-02-01"),
            ("ciencia_primeira_instancia", "2024-04-01"),
            ("recurso", "2024-04-12"),
        )
    )
    assert "1 dia corridos" not in atrasos(r)[0]
    assert "ocorreu 1 dia corrido depois" in atrasos(r)[0]


# --- tipo anp: renúncia, pagamento com desconto ---------------------------------------------


def test_renuncia_cria_pagamento_com_desconto_na_data_do_recurso() -> None:
    r = calcular_prazos(
        anp(
            ("infracao", "2023-01-02"),
            ("auto_infracao", "2023-02-01"),
            ("ciencia_primeira_instancia", "2025-02-21"),
            ("renuncia_recurso", "2025-02-24"),
        )
    )
    assert r["estado"] == "recurso_renunciado"
    # recurso: 21/02/2025 + 10 = 03/03 Carnaval, 04 Carnaval → 05/03/2025 (Cinzas: dia útil)
    # the waiver makes the decision definitive (spec v3 § 6): the pagamento counts from it,
    # 24/02/2025 + 30 = 26/03/2025 (quarta); the prescrição is no longer listed (definitive
    # before it), the cobrança is: 26/03/2025 + 5 anos
    assert datas(r) == {
        "defesa": "2023-02-16",  # 01/02/2023 + 15
        "pagamento_com_desconto": "2025-03-05",
        "recurso": "2025-03-05",
        "pagamento": "2025-03-26",
        "prescricao_cobranca": "2030-03-26",
    }
    # same date: sorted by name
    assert [p["prazo"] for p in r["prazos"]] == [
        "defesa",
        "pagamento_com_desconto",
        "recurso",
        "pagamento",
        "prescricao_cobranca",
    ]
    assert prazo(r, "recurso")["situacao"] == "encerrado"  # renounced
    desconto = prazo(r, "pagamento_com_desconto")
    assert desconto["fundamento"] == "Lei nº 9.847/1999, art. 4º, § 3º (data não conferida)"
    assert "30%" in desconto["contagem"]


def test_sem_renuncia_nao_ha_pagamento_com_desconto() -> None:
    r = calcular_prazos(_ate_primeira_instancia("2025-02-21"))
    assert "pagamento_com_desconto" not in datas(r)


def test_pagamento_com_renuncia_e_atrasado_mede_contra_o_desconto() -> None:
    r = calcular_prazos(
        anp(
            ("infracao", "2023-01-02"),
            ("auto_infracao", "2023-02-01"),
            ("ciencia_primeira_instancia", "2024-04-01"),
            ("renuncia_recurso", "2024-04-02"),
            ("pagamento", "2024-04-20"),  # desconto até 11/04/2024; 20 − 11 = 9 dias
        )
    )
    assert r["estado"] == "pago"
    assert datas(r)["pagamento_com_desconto"] == "2024-04-11"
    [atraso] = atrasos(r)
    assert (
        "9 dias corridos depois do prazo “Pagamento com redução (renúncia ao recurso)” (pagamento_com_desconto) (11/04/2024)"
        in atraso
    )
    assert prazo(r, "pagamento_com_desconto")["situacao"] == "cumprido_com_atraso"
    assert prazo(r, "pagamento")["situacao"] == "cumprido"  # 02/04 + 30 = 02/05/2024


def test_pagamento_com_renuncia_em_dia_nao_avisa() -> None:
    r = calcular_prazos(
        anp(
            ("infracao", "2023-01-02"),
            ("auto_infracao", "2023-02-01"),
            ("ciencia_primeira_instancia", "2024-04-01"),
            ("renuncia_recurso", "2024-04-02"),
            ("pagamento", "2024-04-11"),
        )
    )
    assert atrasos(r) == []


# --- tipo anp: decisão definitiva, pagamento, cobrança, Dívida Ativa ---------------------------


def _definitiva(data: str, **extra: Any) -> dict[str, Any]:
    return anp(
        ("infracao", "2023-01-02"),
        ("auto_infracao", "2023-02-01"),
        ("ciencia_primeira_instancia", "2023-09-01"),
        ("recurso", "2023-09-05"),
        ("ciencia_decisao_definitiva", data),
        **extra,
    )


def test_decisao_definitiva_troca_prescricao_por_prescricao_cobranca() -> None:
    r = calcular_prazos(_definitiva("2024-03-29"))
    assert r["estado"] == "aguardando_pagamento"
    assert datas(r) == {
        "defesa": "2023-02-16",  # 01/02/2023 (quarta) + 15 = 16/02/2023 (quinta)
        # 01/09/2023 (sexta) + 10 = 11/09/2023 (segunda)
        "recurso": "2023-09-11",
        # 29/03/2024 (Sexta-feira Santa: a ciência conta assim mesmo) + 30 = 28/04/2024
        # (domingo) → 29/04/2024 (segunda)
        "pagamento": "2024-04-29",
        # 29/04/2024 + 5 anos
        "prescricao_cobranca": "2029-04-29",
    }
    assert "prescricao" not in datas(r)
    assert [p["prazo"] for p in r["prazos"]] == [
        "defesa",
        "recurso",
        "pagamento",
        "prescricao_cobranca",
    ]
    pagamento = prazo(r, "pagamento")
    assert pagamento["fundamento"] == (
        "Decreto nº 2.953/1999, art. 26, caput; Lei nº 9.847/1999, art. 4º, § 1º"
    )
    assert "28/04/2024 (domingo)" in pagamento["contagem"]
    assert "29/04/2024 (segunda-feira)" in pagamento["contagem"]
    cobranca = prazo(r, "prescricao_cobranca")
    assert cobranca["fundamento"] == (
        "Lei nº 9.873/1999, art. 1º-A (incluído pela Lei nº 11.941/2009; data não conferida)"
    )


@pytest.mark.parametrize(
    ("ciencia", "expediente", "so_feriados", "cobranca"),
    [
        # 21/10/2024 (segunda) + 30 = 20/11/2024, Consciência Negra → 21/11/2024 (quinta)
        ("2024-10-21", "2024-11-21", "2024-11-21", "2029-11-21"),
        # 24/11/2025 (segunda) + 30 = 24/12/2025, ponto facultativo; 25 Natal → 26/12/2025
        # (sexta); só feriados: 24/12/2025
        ("2025-11-24", "2025-12-26", "2025-12-24", "2030-12-26"),
        # 01/12/2025 (segunda) + 30 = 31/12/2025, encerra às 13h; 01/01/2026 feriado
        # → 02/01/2026 (sexta); só feriados: 31/12/2025
        ("2025-12-01", "2026-01-02", "2025-12-31", "2031-01-02"),
        # 30/01/2028 (domingo) + 30 = 29/02/2028, Carnaval (terça) → 01/03/2028, Cinzas (dia
        # útil); só feriados: 29/02/2028, e a cobrança 29/02/2028 + 5 anos → 28/02/2033
        ("2028-01-30", "2028-03-01", "2028-02-29", "2033-03-01"),
        # 30/01/2036 (quarta) + 30 = 29/02/2036 (sexta), dia útil; + 5 anos: sem 29/02 em
        # 2041 → 01/03/2041 (Lei nº 810/1949, art. 3º)
        ("2036-01-30", "2036-02-29", "2036-02-29", "2041-03-01"),
        # 31/01/2025 (sexta) + 30 = 02/03/2025 (domingo); 03-04 Carnaval
        # → 05/03/2025 (Cinzas, dia útil); só feriados: 03/03/2025 (segunda)
        ("2025-01-31", "2025-03-05", "2025-03-03", "2030-03-05"),
    ],
)
def test_pagamento_30_dias_nos_dois_calendarios(
    ciencia: str, expediente: str, so_feriados: str, cobranca: str
) -> None:
    r = calcular_prazos(_definitiva(ciencia))
    assert datas(r)["pagamento"] == expediente
    assert datas(r)["prescricao_cobranca"] == cobranca
    assert datas(calcular_prazos(feriados(_definitiva(ciencia))))["pagamento"] == so_feriados


def test_cobranca_de_vencimento_29_02_no_calendario_feriados() -> None:
    r = calcular_prazos(feriados(_definitiva("2028-01-30")))
    assert datas(r)["pagamento"] == "2028-02-29"
    assert datas(r)["prescricao_cobranca"] == "2033-03-01"  # 29/02/2028 + 5 anos → 01/03
    assert "29/02 não existe em 2033" in prazo(r, "prescricao_cobranca")["contagem"]


def test_pagamento_atrasado_avisa_os_dias() -> None:
    r = calcular_prazos(
        anp(
            ("infracao", "2023-01-02"),
            ("auto_infracao", "2023-02-01"),
            ("ciencia_primeira_instancia", "2023-09-01"),
            ("ciencia_decisao_definitiva", "2024-03-29"),
            ("pagamento", "2024-07-01"),  # vencimento 29/04/2024: 1 + 31 + 30 + 1 = 63 dias
        )
    )
    assert r["estado"] == "pago"
    assert datas(r)["pagamento"] == "2024-04-29"
    assert (
        "63 dias corridos depois do prazo “Pagamento (vencimento)” (pagamento) (29/04/2024)"
        in r["avisos"][-1]
    )
    assert "anp.mora" in r["avisos"][-1]


def test_pagamento_antes_da_decisao_definitiva_sem_prazo_de_pagamento() -> None:
    r = calcular_prazos(
        anp(
            ("infracao", "2023-01-02"),
            ("auto_infracao", "2023-02-01"),
            ("ciencia_primeira_instancia", "2023-09-01"),
            ("pagamento", "2023-12-01"),
        )
    )
    assert r["estado"] == "pago"
    # the prescrição stays listed (no definitive decision), closed by the payment
    assert datas(r) == {
        "defesa": "2023-02-16",
        "recurso": "2023-09-11",
        "prescricao": "2028-09-01",
    }
    assert prazo(r, "prescricao")["situacao"] == "encerrado"
    assert atrasos(r) == []


def test_divida_ativa_depois_do_vencimento() -> None:
    r = calcular_prazos(
        anp(
            ("infracao", "2023-01-02"),
            ("auto_infracao", "2023-02-01"),
            ("ciencia_primeira_instancia", "2023-09-01"),
            ("ciencia_decisao_definitiva", "2024-03-29"),
            ("inscricao_divida_ativa", "2024-04-30"),  # vencimento 29/04/2024: um dia depois
        )
    )
    assert r["estado"] == "divida_ativa"
    assert datas(r) == {
        "defesa": "2023-02-16",
        "recurso": "2023-09-11",
        "pagamento": "2024-04-29",
        # 29/04/2024 + 5 anos = 29/04/2029, + 180 dias de suspensão pela inscrição (30/04 a
        # 26/10/2024, contado o dia da inscrição: Lei nº 6.830/1980, art. 2º, § 3º)
        "prescricao_cobranca": "2029-10-26",
    }
    assert prazo(r, "pagamento")["situacao"] == "vencido"  # never paid
    assert prazo(r, "recurso")["situacao"] == "vencido"  # no appeal recorded


def test_divida_ativa_no_dia_do_vencimento_e_recusada() -> None:
    e = erro(
        anp(
            ("infracao", "2023-01-02"),
            ("auto_infracao", "2023-02-01"),
            ("ciencia_primeira_instancia", "2023-09-01"),
            ("ciencia_decisao_definitiva", "2024-03-29"),
            ("inscricao_divida_ativa", "2024-04-29"),
        )
    )
    assert e.campo == "eventos[4].data"
    assert "inscricao_divida_ativa" in e.mensagem
    assert "29/04/2024" in e.mensagem


def test_divida_ativa_depois_do_vencimento_nominal_mas_antes_do_prorrogado_e_recusada() -> None:
    # vencimento nominal 28/04/2024 (domingo), prorrogado para 29/04: 29/04 ainda não é "depois"
    e = erro(
        anp(
            ("infracao", "2023-01-02"),
            ("auto_infracao", "2023-02-01"),
            ("ciencia_primeira_instancia", "2023-09-01"),
            ("ciencia_decisao_definitiva", "2024-03-29"),
            ("inscricao_divida_ativa", "2024-04-29"),
        )
    )
    assert e.campo == "eventos[4].data"


def test_divida_ativa_sem_decisao_definitiva_e_recusada() -> None:
    e = erro(
        anp(
            ("infracao", "2023-01-02"),
            ("auto_infracao", "2023-02-01"),
            ("ciencia_primeira_instancia", "2023-09-01"),
            ("inscricao_divida_ativa", "2024-09-01"),
        )
    )
    assert e.campo == "eventos[3].evento"
    assert "ciencia_decisao_definitiva" in e.mensagem


@pytest.mark.parametrize("terminal", ["pagamento", "inscricao_divida_ativa"])
def test_nada_depois_de_pagamento_ou_divida_ativa(terminal: str) -> None:
    eventos = [
        ("infracao", "2023-01-02"),
        ("auto_infracao", "2023-02-01"),
        ("ciencia_primeira_instancia", "2023-09-01"),
        ("ciencia_decisao_definitiva", "2024-03-29"),
        (terminal, "2024-05-02"),
    ]
    for seguinte in ("pagamento", "inscricao_divida_ativa", "recurso"):
        if (terminal, seguinte) == ("inscricao_divida_ativa", "inscricao_divida_ativa"):
            continue
        if (terminal, seguinte) == ("inscricao_divida_ativa", "pagamento"):
            # spec § 6.2 v4: the inscribed debt is still paid
            assert calcular_prazos(anp(*eventos, (seguinte, "2024-06-01")))["estado"] == "pago"
            continue
        e = erro(anp(*eventos, (seguinte, "2024-06-01")))
        assert e.campo == "eventos[5].evento"
        assert terminal in e.mensagem and seguinte in e.mensagem


def test_recurso_e_renuncia_sao_excludentes() -> None:
    base = [
        ("infracao", "2023-01-02"),
        ("auto_infracao", "2023-02-01"),
        ("ciencia_primeira_instancia", "2023-09-01"),
    ]
    e = erro(anp(*base, ("recurso", "2023-09-05"), ("renuncia_recurso", "2023-09-06")))
    assert e.campo == "eventos[4].evento"
    assert "recurso" in e.mensagem and "renuncia_recurso" in e.mensagem
    e = erro(anp(*base, ("renuncia_recurso", "2023-09-05"), ("recurso", "2023-09-06")))
    assert e.campo == "eventos[4].evento"


@pytest.mark.parametrize("evento", ["recurso", "renuncia_recurso"])
def test_recurso_depois_da_decisao_definitiva_e_recusado(evento: str) -> None:
    """Spec v3 § 6: recurso / renuncia_recurso come before ciencia_decisao_definitiva."""
    e = erro(
        anp(
            ("infracao", "2023-01-02"),
            ("auto_infracao", "2023-02-01"),
            ("ciencia_primeira_instancia", "2023-09-01"),
            ("ciencia_decisao_definitiva", "2023-10-02"),
            (evento, "2023-10-03"),
        )
    )
    assert e.campo == "eventos[4].evento"
    assert "ciencia_decisao_definitiva" in e.mensagem


@pytest.mark.parametrize(
    ("eventos", "campo", "nomeia"),
    [
        ([("auto_infracao", "2023-02-01")], "eventos[0].evento", "infracao"),
        (
            [("infracao", "2023-01-02"), ("ciencia_primeira_instancia", "2023-09-01")],
            "eventos[1].evento",
            "auto_infracao",
        ),
        (
            [
                ("infracao", "2023-01-02"),
                ("auto_infracao", "2023-02-01"),
                ("recurso", "2023-09-01"),
            ],
            "eventos[2].evento",
            "ciencia_primeira_instancia",
        ),
        (
            [
                ("infracao", "2023-01-02"),
                ("auto_infracao", "2023-02-01"),
                ("ciencia_decisao_definitiva", "2023-09-01"),
            ],
            "eventos[2].evento",
            "ciencia_primeira_instancia",
        ),
        (
            [
                ("infracao", "2023-01-02"),
                ("auto_infracao", "2023-02-01"),
                ("pagamento", "2023-09-01"),
            ],
            "eventos[2].evento",
            "ciencia_primeira_instancia",
        ),
        (
            [
                ("infracao", "2023-01-02"),
                ("auto_infracao", "2023-02-01"),
                ("renuncia_recurso", "2023-09-01"),
            ],
            "eventos[2].evento",
            "ciencia_primeira_instancia",
        ),
    ],
)
def test_regras_de_ordem_anp(eventos: list[tuple[str, str]], campo: str, nomeia: str) -> None:
    e = erro(anp(*eventos))
    assert e.campo == campo
    assert nomeia in e.mensagem
    assert eventos[-1][0] in e.mensagem  # names the event refused


def test_mesma_data_mantem_a_ordem_dada() -> None:
    r = calcular_prazos(
        anp(
            ("infracao", "2024-05-02"),
            ("auto_infracao", "2024-05-02"),
            ("ciencia_primeira_instancia", "2024-05-02"),
        )
    )
    assert r["estado"] == "decidido_primeira_instancia"
    # 02/05/2024 (quinta) + 10 = 12/05/2024 (domingo) → 13/05/2024 (segunda); defesa:
    # 02/05/2024 + 15 = 17/05/2024 (sexta)
    assert datas(r) == {
        "defesa": "2024-05-17",
        "recurso": "2024-05-13",
        "prescricao": "2029-05-02",
    }
    # the same events in another order on the same date break the rules
    e = erro(
        anp(
            ("infracao", "2024-05-02"),
            ("ciencia_primeira_instancia", "2024-05-02"),
            ("auto_infracao", "2024-05-02"),
        )
    )
    assert e.campo == "eventos[1].evento"


# --- tipo renovabio.lista -------------------------------------------------------------------


def test_lista_limite_reducao_31_12_mais_11_meses_e_30_11() -> None:
    r = calcular_prazos(lista(("fim_prazo_meta", "2025-12-31")))
    assert r["estado"] == "inadimplente"
    assert datas(r) == {"limite_reducao": "2026-11-30"}  # 31/12/2025 + 11 meses → 30/11/2026
    p = prazo(r, "limite_reducao")
    assert p["fundamento"] == (
        "Decreto nº 9.888/2019, art. 6º-A, § 8º (incluído pelo Decreto nº 12.437/2025)"
    )
    assert r["avisos"] == []


@pytest.mark.parametrize(
    ("fim", "limite"),
    [
        # 31/01/2025 + 11 meses = 31/12/2025, ponto facultativo: não se move
        ("2025-01-31", "2025-12-31"),
        # 30/03/2025 + 11 meses = 28/02/2026 (sábado; fevereiro de 2026 tem 28 dias): não se move
        ("2025-03-30", "2026-02-28"),
        # 31/03/2027 + 11 meses = 29/02/2028 (terça de Carnaval, bissexto): não se move
        ("2027-03-31", "2028-02-29"),
        # 01/01/2025, o primeiro dia em que há redução: 01/12/2025
        ("2025-01-01", "2025-12-01"),
    ],
)
def test_limite_reducao_nao_e_prorrogado(fim: str, limite: str) -> None:
    for processo in (lista(("fim_prazo_meta", fim)), feriados(lista(("fim_prazo_meta", fim)))):
        assert datas(calcular_prazos(processo)) == {"limite_reducao": limite}


@pytest.mark.parametrize("fim", ["2024-12-31", "2024-03-31", "2023-09-30", "2020-12-31"])
def test_lista_so_para_metas_de_2025_em_diante(fim: str) -> None:
    # spec v3 § 6: the list and the ban apply to targets due after 31/12/2024
    e = erro(lista(("fim_prazo_meta", fim)))
    assert e.campo == "eventos[0].data"
    assert "01/01/2025" in e.mensagem


@pytest.mark.parametrize("tipo", ["renovabio.lista", "renovabio.balanco"])
def test_inclusao_na_lista_so_a_partir_de_17_04_2025(tipo: str) -> None:
    antes = [("fim_prazo_meta", "2025-01-31"), ("decisao_primeira_instancia", "2025-03-01")]
    eventos = antes if tipo == "renovabio.lista" else []
    e = erro(proc(tipo, *eventos, ("inclusao_lista", "2025-04-16")))
    assert e.campo == f"eventos[{len(eventos)}].data" and "17/04/2025" in e.mensagem
    r = calcular_prazos(proc(tipo, *eventos, ("inclusao_lista", "2025-04-17")))
    assert r["estado"] == "na_lista"


def test_lista_caminho_completo_com_retirada_no_quinto_dia_util() -> None:
    r = calcular_prazos(
        lista(
            ("fim_prazo_meta", "2025-12-31"),
            ("decisao_primeira_instancia", "2026-02-06"),
            ("inclusao_lista", "2026-02-09"),
            ("quitacao_meta", "2026-02-10"),
            ("pedido_retirada", "2026-02-12"),
            ("retirada_lista", "2026-02-23"),
            id="L-1",
            cnpj="12.345.678/0001-95",
            nome="Distribuidora Exemplo Ltda.",
        )
    )
    assert r["id"] == "L-1"
    assert r["cnpj"] == "12.345.678/0001-95"
    assert r["nome"] == "Distribuidora Exemplo Ltda."
    assert list(r) == [
        "id",
        "cnpj",
        "nome",
        "tipo",
        "estado",
        "data_referencia",
        "proxima_acao",
        "prazos",
        "avisos",
    ]
    assert r["proxima_acao"] is None  # fora da lista: nothing remains
    assert {z["prazo"]: (z["responsavel"], z["situacao"]) for z in r["prazos"]} == {
        "retirada_lista": ("anp", "cumprido"),
        "limite_reducao": ("autuado", "cumprido"),
    }
    assert r["estado"] == "fora_da_lista"
    assert datas(r) == {
        # pedido 12/02/2026 (quinta): 13 sexta (1º); 14-15 fim de semana; 16-17 Carnaval;
        # 18 Cinzas, expediente a partir das 14h (2º); 19 quinta (3º); 20 sexta (4º);
        # 23 segunda (5º)
        "retirada_lista": "2026-02-23",
        "limite_reducao": "2026-11-30",
    }
    assert [p["prazo"] for p in r["prazos"]] == ["retirada_lista", "limite_reducao"]
    retirada = prazo(r, "retirada_lista")
    assert retirada["fundamento"] == (
        "Decreto nº 9.888/2019, art. 6º-A, § 7º (incluído pelo Decreto nº 12.437/2025)"
    )
    assert "16/02/2026 (Carnaval)" in retirada["contagem"]
    assert "18/02/2026" in retirada["contagem"].split("dias úteis contados")[1].split(";")[0]
    assert "calendário federal de 2026 (Portaria MGI nº 11.460" in retirada["contagem"]
    assert r["avisos"] == []  # removed on the 5th business day; quitação within 11 months


def test_retirada_so_feriados_conta_carnaval() -> None:
    r = calcular_prazos(
        feriados(
            lista(
                ("fim_prazo_meta", "2025-12-31"),
                ("decisao_primeira_instancia", "2026-02-06"),
                ("inclusao_lista", "2026-02-09"),
                ("quitacao_meta", "2026-02-10"),
                ("pedido_retirada", "2026-02-12"),
            )
        )
    )
    # 13 sexta (1º); 14-15 fim de semana; 16 (2º), 17 (3º), 18 (4º), 19 (5º)
    assert datas(r)["retirada_lista"] == "2026-02-19"


@pytest.mark.parametrize(
    ("pedido", "expediente", "so_feriados"),
    [
        # 14/04/2026 (terça): 15 (1º), 16 (2º), 17 (3º); 18-19; 20 ponto facultativo
        # (Portaria MGI nº 11.460/2025); 21 Tiradentes; 22 (4º), 23 (5º). Só feriados: 20 é
        # dia útil → 15, 16, 17, 20, 22
        ("2026-04-14", "2026-04-23", "2026-04-22"),
        # 17/12/2026 (quinta): 18 (1º); 19-20; 21 (2º), 22 (3º), 23 (4º); 24 (5º), véspera de
        # Natal, encerra às 13h: nenhum prazo termina nela; 25 Natal; 26-27 → 28. Só feriados: 24
        ("2026-12-17", "2026-12-28", "2026-12-24"),
        # 14/11/2025 (sexta): 15-16; 17 (1º), 18 (2º), 19 (3º); 20 Consciência Negra;
        # 21 (4º); 22-23; 24 (5º)
        ("2025-11-14", "2025-11-24", "2025-11-24"),
        # 26/12/2025 (sexta): 27-28; 29 (1º), 30 (2º), 31 (3º: encerra às 13h, mas conta);
        # 01/01 feriado; 02/01/2026 (4º); 03-04; 05 (5º). Só feriados: o mesmo
        ("2025-12-26", "2026-01-05", "2026-01-05"),
        # 25/02/2028 (sexta): 26-27; 28-29 Carnaval (29/02 bissexto); 01/03 Cinzas (1º: dia
        # útil); 02 (2º), 03 (3º); 04-05; 06 (4º), 07 (5º). Só feriados: 28, 29, 01, 02, 03
        ("2028-02-25", "2028-03-07", "2028-03-03"),
    ],
)
def test_retirada_5_dias_uteis_nos_dois_calendarios(
    pedido: str, expediente: str, so_feriados: str
) -> None:
    def processo() -> dict[str, Any]:
        return lista(
            ("fim_prazo_meta", "2025-03-31"),
            ("decisao_primeira_instancia", "2025-04-16"),
            ("inclusao_lista", "2025-04-17"),
            ("quitacao_meta", "2025-05-10"),
            ("pedido_retirada", pedido),
        )

    assert calcular_prazos(processo())["estado"] == "retirada_solicitada"
    assert datas(calcular_prazos(processo()))["retirada_lista"] == expediente
    assert datas(calcular_prazos(feriados(processo())))["retirada_lista"] == so_feriados


def test_retirada_atrasada_e_quitacao_tardia_avisam() -> None:
    r = calcular_prazos(
        lista(
            ("fim_prazo_meta", "2025-12-31"),
            ("decisao_primeira_instancia", "2026-02-10"),
            ("inclusao_lista", "2026-02-11"),
            ("quitacao_meta", "2026-12-15"),  # limite 30/11/2026: 15 dias depois
            ("pedido_retirada", "2026-12-17"),
            ("retirada_lista", "2027-01-05"),  # prazo 28/12/2026: 3 + 5 = 8 dias depois
        )
    )
    assert datas(r) == {"limite_reducao": "2026-11-30", "retirada_lista": "2026-12-28"}
    assert len(r["avisos"]) == 2
    assert "“Quitação da meta” (quitacao_meta) (15/12/2026)" in r["avisos"][0]
    assert (
        "15 dias corridos depois do prazo “Último dia em que a quitação reduz a multa” (limite_reducao) (30/11/2026)"
        in r["avisos"][0]
    )
    assert (
        "8 dias corridos depois do prazo “Retirada da lista pela ANP” (retirada_lista) (28/12/2026)"
        in r["avisos"][1]
    )


def test_quitacao_no_proprio_limite_nao_avisa() -> None:
    r = calcular_prazos(lista(("fim_prazo_meta", "2025-12-31"), ("quitacao_meta", "2026-11-30")))
    assert r["estado"] == "meta_quitada"
    assert r["avisos"] == []


def test_limite_reducao_vencido_sem_quitacao() -> None:
    r = calcular_prazos(lista(("fim_prazo_meta", "2025-12-31"), data_referencia="2026-12-01"))
    assert prazo(r, "limite_reducao")["situacao"] == "vencido"  # 30/11/2026 passou
    r = calcular_prazos(lista(("fim_prazo_meta", "2025-12-31"), data_referencia="2026-11-30"))
    assert prazo(r, "limite_reducao")["situacao"] == "em_aberto"  # o próprio dia


def test_quitacao_no_dia_do_fim_do_prazo_e_recusada() -> None:
    e = erro(lista(("fim_prazo_meta", "2025-12-31"), ("quitacao_meta", "2025-12-31")))
    assert e.campo == "eventos[1].data"
    assert "quitacao_meta" in e.mensagem and "fim_prazo_meta" in e.mensagem


def test_quitacao_a_qualquer_momento_mesmo_antes_da_decisao() -> None:
    r = calcular_prazos(
        lista(
            ("fim_prazo_meta", "2025-12-31"),
            ("quitacao_meta", "2026-01-02"),
            ("decisao_primeira_instancia", "2026-02-10"),
            ("inclusao_lista", "2026-02-11"),
        )
    )
    assert r["estado"] == "na_lista"


@pytest.mark.parametrize(
    ("eventos", "campo", "nomeia"),
    [
        ([("inclusao_lista", "2026-01-02")], "eventos[0].evento", "fim_prazo_meta"),
        (
            [("fim_prazo_meta", "2025-12-31"), ("inclusao_lista", "2026-01-02")],
            "eventos[1].evento",
            "decisao_primeira_instancia",
        ),
        (
            [
                ("fim_prazo_meta", "2025-12-31"),
                ("decisao_primeira_instancia", "2026-01-02"),
                ("inclusao_lista", "2026-01-03"),
                ("pedido_retirada", "2026-01-05"),
            ],
            "eventos[3].evento",
            "quitacao_meta",
        ),
        (
            [
                ("fim_prazo_meta", "2025-12-31"),
                ("quitacao_meta", "2026-01-02"),
                ("pedido_retirada", "2026-01-05"),
            ],
            "eventos[2].evento",
            "inclusao_lista",
        ),
        (
            [("fim_prazo_meta", "2025-12-31"), ("retirada_lista", "2026-01-05")],
            "eventos[1].evento",
            "pedido_retirada",
        ),
    ],
)
def test_regras_de_ordem_lista(eventos: list[tuple[str, str]], campo: str, nomeia: str) -> None:
    e = erro(lista(*eventos))
    assert e.campo == campo
    assert nomeia in e.mensagem


def test_nada_depois_da_retirada_da_lista() -> None:
    e = erro(
        lista(
            ("fim_prazo_meta", "2025-12-31"),
            ("decisao_primeira_instancia", "2026-01-02"),
            ("inclusao_lista", "2026-01-03"),
            ("quitacao_meta", "2026-01-04"),
            ("pedido_retirada", "2026-01-05"),
            ("retirada_lista", "2026-01-09"),
            ("inclusao_lista", "2026-02-01"),
        )
    )
    # a repeated event is reported first (it is also after the terminal one)
    assert e.campo == "eventos[6].evento"
    e = erro(
        lista(
            ("fim_prazo_meta", "2025-12-31"),
            ("decisao_primeira_instancia", "2026-01-02"),
            ("inclusao_lista", "2026-01-03"),
            ("pedido_retirada", "2026-01-05"),
        )
    )
    assert "quitacao_meta" in e.mensagem


# --- tipo renovabio.balanco -----------------------------------------------------------------


def test_balanco_retirada_em_5_dias_uteis() -> None:
    r = calcular_prazos(
        balanco(("inclusao_lista", "2026-04-01"), ("comprovacao_adequacao", "2026-04-14"))
    )
    assert r["estado"] == "adequacao_comprovada"
    # 14/04/2026 (terça): 15, 16, 17; 18-19; 20 ponto facultativo; 21 Tiradentes; 22, 23
    assert datas(r) == {"retirada_lista": "2026-04-23"}
    assert prazo(r, "retirada_lista")["fundamento"] == (
        "Decreto nº 9.888/2019, art. 9º-A, § 3º (incluído pelo Decreto nº 12.437/2025)"
    )


def test_balanco_so_inclusao_sem_prazos() -> None:
    r = calcular_prazos(balanco(("inclusao_lista", "2025-04-17")))
    assert r == {
        "tipo": "renovabio.balanco",
        "estado": "na_lista",
        "data_referencia": "2025-04-17",
        "proxima_acao": {
            "quem": "autuado",
            "o_que": "comprovar a adequação",
            "desde": "2025-04-17",
            "ate": None,
            "fundamento": "Decreto nº 9.888/2019, art. 9º-A, § 3º "
            "(incluído pelo Decreto nº 12.437/2025)",
        },
        "prazos": [],
        "avisos": [],
    }


def test_balanco_retirada_atrasada() -> None:
    r = calcular_prazos(
        balanco(
            ("inclusao_lista", "2026-04-01"),
            ("comprovacao_adequacao", "2026-04-14"),
            ("retirada_lista", "2026-05-02"),  # prazo 23/04/2026: 7 + 2 = 9 dias
        )
    )
    assert r["estado"] == "fora_da_lista"
    assert r["avisos"] == [
        "O evento “Retirada da lista” (retirada_lista) (02/05/2026) ocorreu 9 dias corridos depois do prazo "
        "“Retirada da lista pela ANP” (retirada_lista) (23/04/2026): a ANP retirou o nome da lista depois do prazo."
    ]
    assert prazo(r, "retirada_lista")["situacao"] == "cumprido_com_atraso"


def test_balanco_regras_de_ordem() -> None:
    e = erro(balanco(("comprovacao_adequacao", "2026-04-14")))
    assert e.campo == "eventos[0].evento"
    e = erro(balanco(("inclusao_lista", "2026-04-01"), ("retirada_lista", "2026-04-14")))
    assert e.campo == "eventos[1].evento" and "comprovacao_adequacao" in e.mensagem
    e = erro(
        balanco(
            ("inclusao_lista", "2026-04-01"),
            ("comprovacao_adequacao", "2026-04-14"),
            ("retirada_lista", "2026-04-15"),
            ("comprovacao_adequacao", "2026-04-16"),
        )
    )
    assert e.campo == "eventos[3].evento"


def test_eventos_do_outro_tipo_sao_desconhecidos() -> None:
    e = erro(balanco(("inclusao_lista", "2026-04-01"), ("quitacao_meta", "2026-04-14")))
    assert e.campo == "eventos[1].evento"
    assert "desconhecido" in e.mensagem and "quitacao_meta" in e.mensagem


# --- input errors ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("processo", "campo", "trecho"),
    [
        ([], None, "objeto"),
        ("anp", None, "objeto"),
        ({"eventos": []}, "tipo", "obrigatório"),
        ({"tipo": "anp.mora", "eventos": []}, "tipo", "desconhecido"),
        ({"tipo": ["anp"], "eventos": []}, "tipo", "desconhecido"),
        ({"tipo": "anp"}, "eventos", "obrigatório"),
        ({"tipo": "anp", "eventos": []}, "eventos", "vazia"),
        ({"tipo": "anp", "eventos": {"evento": "infracao"}}, "eventos", "lista"),
        ({"tipo": "anp", "eventos": [], "regime": "anp"}, "regime", "desconhecido"),
        ({"tipo": "anp", "eventos": ["infracao"]}, "eventos[0]", "objeto"),
        (
            {"tipo": "anp", "eventos": [{"evento": "infracao", "data": "2024-01-02", "obs": 1}]},
            "eventos[0].obs",
            "desconhecido",
        ),
        ({"tipo": "anp", "eventos": [{"data": "2024-01-02"}]}, "eventos[0].evento", "obrigatório"),
        ({"tipo": "anp", "eventos": [{"evento": "infracao"}]}, "eventos[0].data", "infracao"),
        (
            {"tipo": "anp", "eventos": [{"evento": "Infracao", "data": "2024-01-02"}]},
            "eventos[0].evento",
            "desconhecido",
        ),
        (
            {"tipo": "anp", "eventos": [{"evento": ["infracao"], "data": "2024-01-02"}]},
            "eventos[0].evento",
            "desconhecido",
        ),
        (
            {"tipo": "anp", "eventos": [{"evento": "infracao", "data": "2024-02-30"}]},
            "eventos[0].data",
            "inexistente",
        ),
        (
            {"tipo": "anp", "eventos": [{"evento": "infracao", "data": "02/01/2024"}]},
            "eventos[0].data",
            "AAAA-MM-DD",
        ),
        (
            {"tipo": "anp", "eventos": [{"evento": "infracao", "data": 20240102}]},
            "eventos[0].data",
            "inválida",
        ),
        (
            {"tipo": "anp", "eventos": [{"evento": "infracao", "data": "2024-01-02T10:00"}]},
            "eventos[0].data",
            "inválida",
        ),
        (
            {"tipo": "anp", "eventos": [], "interpretacao": {"calendario": "util"}},
            "interpretacao.calendario",
            "opção inválida",
        ),
        (
            {"tipo": "renovabio.balanco", "eventos": [], "interpretacao": {"encargos": "decreto"}},
            "interpretacao.encargos",
            "só de um processo 'anp'",
        ),
        ({"tipo": "anp", "eventos": [], "interpretacao": "feriados"}, "interpretacao", "objeto"),
        ({"tipo": "anp", "eventos": [], "id": 1.5}, "id", "inteiro"),
        ({"tipo": "anp", "eventos": [], "id": True}, "id", "inteiro"),
        ({"tipo": "anp", "eventos": [], "cnpj": 12345678000195}, "cnpj", "texto"),
        ({"tipo": "anp", "eventos": [], "nome": {"a": 1}}, "nome", "texto"),
    ],
)
def test_entrada_invalida(processo: object, campo: str | None, trecho: str) -> None:
    e = erro(processo)
    assert e.campo == campo
    assert trecho in e.mensagem


def test_mensagem_da_data_invalida_nomeia_o_evento() -> None:
    e = erro(
        anp(
            ("infracao", "2024-01-02"),
            ("auto_infracao", "2024-13-01"),
            data_referencia="2024-12-01",
        )
    )
    assert e.campo == "eventos[1].data"
    assert "auto_infracao" in e.mensagem


def test_data_que_volta_e_recusada() -> None:
    e = erro(anp(("infracao", "2024-01-10"), ("auto_infracao", "2024-01-09")))
    assert e.campo == "eventos[1].data"
    assert "auto_infracao" in e.mensagem and "infracao" in e.mensagem
    assert "09/01/2024" in e.mensagem and "10/01/2024" in e.mensagem


def test_evento_repetido_e_recusado() -> None:
    e = erro(anp(("infracao", "2024-01-10"), ("infracao", "2024-01-11")))
    assert e.campo == "eventos[1].evento"
    assert "repetido" in e.mensagem and "eventos[0]" in e.mensagem


def test_identificacao_e_ecoada_como_dada() -> None:
    grande = 2**70
    r = calcular_prazos(anp(("infracao", "2024-01-10"), id=grande, cnpj="00000000000191"))
    assert r["id"] == grande and r["cnpj"] == "00000000000191" and "nome" not in r
    r = calcular_prazos(anp(("infracao", "2024-01-10"), id=None, nome="Posto"))
    assert "id" not in r and r["nome"] == "Posto"


def test_calendario_expediente_explicito_e_o_padrao() -> None:
    a = calcular_prazos(_definitiva("2025-11-24"))
    b = calcular_prazos(
        {**_definitiva("2025-11-24"), "interpretacao": {"calendario": "expediente"}}
    )
    c = calcular_prazos({**_definitiva("2025-11-24"), "interpretacao": {}})
    assert a == b == c


@pytest.mark.parametrize(
    ("eventos", "campo"),
    [
        ([("infracao", "9999-06-01")], "eventos[0].data"),  # prescrição em 10004
        (
            [
                ("infracao", "9990-01-02"),
                ("auto_infracao", "9990-01-03"),
                ("ciencia_primeira_instancia", "9999-12-25"),  # recurso passa de 31/12/9999
            ],
            "eventos[2].data",
        ),
    ],
)
def test_prazo_depois_de_9999_e_erro_de_entrada(eventos: list[tuple[str, str]], campo: str) -> None:
    e = erro(anp(*eventos))
    assert e.campo == campo
    assert "31/12/9999" in e.mensagem


def test_lista_e_balanco_perto_de_9999() -> None:
    e = erro(lista(("fim_prazo_meta", "9999-03-31")))
    assert e.campo == "eventos[0].data"
    e = erro(balanco(("inclusao_lista", "9999-12-20"), ("comprovacao_adequacao", "9999-12-28")))
    assert e.campo == "eventos[1].data"


def test_datas_muito_antigas_calculam() -> None:
    r = calcular_prazos(anp(("infracao", "0001-01-01")))
    assert datas(r) == {"prescricao": "0006-01-01"}


def test_renuncia_e_pagamento_depois_do_vencimento_um_so_aviso_que_diz_os_dois() -> None:
    r = calcular_prazos(
        anp(
            ("infracao", "2023-05-10"),
            ("auto_infracao", "2023-06-01"),
            ("ciencia_primeira_instancia", "2024-03-19"),  # recurso: 01/04/2024 (Sexta Santa)
            ("renuncia_recurso", "2024-03-20"),
            ("ciencia_decisao_definitiva", "2024-10-21"),  # vencimento: 21/11/2024 (20/11)
            ("pagamento", "2024-11-25"),
        )
    )
    assert len(r["avisos"]) == 2  # the art. 59 aviso and one for the payment (§ 6's pair)
    aviso = r["avisos"][1]
    # 01/04 → 25/11/2024: 29 + 31 + 30 + 31 + 31 + 30 + 31 + 25 = 238 dias
    assert (
        "238 dias corridos depois do prazo “Pagamento com redução (renúncia ao recurso)” (pagamento_com_desconto) (01/04/2024)"
        in aviso
    )
    # 21/11 → 25/11/2024: 4 dias
    assert "depois do vencimento (21/11/2024), 4 dias corridos de atraso" in aviso


def test_aviso_do_art_59_cita_o_texto_transcrito() -> None:
    """Review 4, W6: Lei 9.784 art. 59 is transcribed (legislacao/textos/outros-dispositivos.txt,
    the parameter ``ciclo.recurso``): the appeal's aviso quotes it and never says it is not."""
    r = calcular_prazos(
        anp(
            ("infracao", "2023-05-10"),
            ("auto_infracao", "2023-06-01"),
            ("ciencia_primeira_instancia", "2024-03-19"),
        )
    )
    (aviso,) = [a for a in r["avisos"] if "art. 59" in a]
    texto = carregar().parametro("ciclo.recurso").vigencias[-1].texto
    assert texto and f"“{texto}”" in aviso
    assert "não transcrito" not in aviso
