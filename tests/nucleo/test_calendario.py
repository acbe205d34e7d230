"""The federal calendar (spec v3, § 1): each date counted by hand beside the test."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any

import holidays
import numpy as np
import pyarrow as pa
import pytest

from multas import calcular
from multas.nucleo.calendario import (
    CalendarioInvalido,
    Expediente,
    aviso_nao_transcrito,
    ler_calendario,
    padrao,
)
from multas.nucleo.datas import dias_uteis_depois, prazo_em_dias
from multas.nucleo.kernel import calcular_colunas
from multas.nucleo.legislacao import carregar
from multas.servicos import relogio

FEDERAL = carregar().calendario
EXPEDIENTE = Expediente(FEDERAL)
FERIADOS = Expediente(FEDERAL, "feriados")


def d(texto: str) -> date:
    return date.fromisoformat(texto)


@pytest.mark.parametrize(
    "dia",
    [
        # the extra pontos facultativos of each year (amending portarias or the base one)
        "2021-04-01",
        "2021-06-04",
        "2021-10-11",
        "2021-11-01",  # Dia do Servidor de 2021, comemorado em 01/11
        "2022-04-22",
        "2022-06-17",
        "2023-06-09",
        "2024-05-31",
        "2025-06-20",
        "2025-10-27",  # Dia do Servidor de 2025, comemorado em 27/10
        "2026-04-20",
        "2026-06-05",
    ],
)
def test_pontos_facultativos_extras_sem_expediente(dia: str) -> None:
    assert EXPEDIENTE.sem_expediente(d(dia)) is not None
    assert FERIADOS.sem_expediente(d(dia)) is None  # "feriados": só os feriados nacionais


@pytest.mark.parametrize("dia", ["2021-10-28", "2025-10-28"])
def test_dia_do_servidor_movido_tem_expediente_em_28_10(dia: str) -> None:
    assert d(dia).weekday() < 5
    assert EXPEDIENTE.sem_expediente(d(dia)) is None
    assert EXPEDIENTE.nao_termina(d(dia)) is None


def test_quarta_feira_de_cinzas_e_ultimo_dia() -> None:
    # ciência 03/02/2025 + 30 = 05/03/2025, Cinzas (até as 14 horas): o prazo não se move
    nominal, vencimento, pulados = prazo_em_dias(d("2025-02-03"), 30, EXPEDIENTE)
    assert nominal == vencimento == d("2025-03-05") and pulados == []
    # a Copa feminina de 2023: expediente a partir das 12h, também início tardio
    assert prazo_em_dias(d("2023-06-24"), 30, EXPEDIENTE)[1] == d("2023-07-24")


@pytest.mark.parametrize("ano", [2019, 2020, 2021, 2024, 2025, 2026])
def test_24_e_31_12_contam_mas_nao_encerram_prazo(ano: int) -> None:
    for dia in (date(ano, 12, 24), date(ano, 12, 31)):
        if dia.weekday() >= 5:
            continue
        assert EXPEDIENTE.sem_expediente(dia) is None  # counted as a business day
        nominal, vencimento, pulados = prazo_em_dias(dia - timedelta(days=10), 10, EXPEDIENTE)
        assert nominal == dia and vencimento > dia and pulados[0][0] == dia
        # "feriados" knows no partial days
        assert prazo_em_dias(dia - timedelta(days=10), 10, FERIADOS)[1] == dia


def test_31_12_2025_como_enesimo_dia_util() -> None:
    # 5 business days after 23/12/2025 (terça): 24 (conta, encerra às 13h), 25 Natal,
    # 26, 29, 30, 31 (conta, encerra às 13h) -> the 5th is 31/12, which ends no count:
    # 01/01/2026 feriado, so 02/01/2026
    fim, contados, pulados = dias_uteis_depois(d("2025-12-23"), 5, EXPEDIENTE)
    assert [x.day for x in contados] == [24, 26, 29, 30, 31]
    assert fim == d("2026-01-02")
    assert [p[0] for p in pulados] == [
        d("2025-12-25"),
        d("2025-12-27"),
        d("2025-12-28"),
        d("2025-12-31"),
        d("2026-01-01"),
    ]
    # 3 business days after 22/12/2025: 23, 24 (encerra às 13h: não termina), 26
    assert dias_uteis_depois(d("2025-12-22"), 2, EXPEDIENTE)[0] == d("2025-12-26")


def test_dias_sem_expediente_locais() -> None:
    local = Expediente(FEDERAL, "expediente", frozenset({d("2025-06-23"), d("2025-06-24")}))
    # 21/05/2025 + 30 = 20/06 (ponto facultativo), 21-22 fim de semana, 23-24 informados
    _, vencimento, pulados = prazo_em_dias(d("2025-05-21"), 30, local)
    assert vencimento == d("2025-06-25")
    assert [p[0].day for p in pulados] == [20, 21, 22, 23, 24]
    # também na leitura "feriados"
    local_f = Expediente(FEDERAL, "feriados", frozenset({d("2025-06-20")}))
    assert prazo_em_dias(d("2025-05-21"), 30, local_f)[1] == d("2025-06-23")
    # os atos locais e condicionais ficam à parte, não aplicados
    assert [x.data for x in FEDERAL.locais(2025)] == [d("2025-05-02")]
    assert EXPEDIENTE.sem_expediente(d("2025-05-02")) is None


def test_ano_depois_de_2100_usa_o_padrao() -> None:
    # Páscoa de 2101: 17/04; Carnaval 28/02 e 01/03; Cinzas 02/03
    ano = FEDERAL.ano(2101)
    assert not ano.transcrito and ano.atos == ()
    assert EXPEDIENTE.sem_expediente(d("2101-03-01")) == "Carnaval"
    assert EXPEDIENTE.sem_expediente(d("2101-03-02")) is None
    r = calcular(
        {
            "regime": "anp.mora",
            "principal": "1000",
            "data_ciencia": "2101-01-30",  # + 30 = 01/03/2101, Carnaval
            "data_pagamento": "2101-03-02",
        }
    )
    assert r["vencimento"] == "2101-03-02"
    assert aviso_nao_transcrito(2101) in r["avisos"]
    for extremo in (1, 9999):
        assert padrao(extremo).dias  # any year 0001..9999


@pytest.mark.parametrize("ano", range(2019, 2027))
def test_feriados_nacionais_conferem_com_a_biblioteca_holidays(ano: int) -> None:
    nossos = {dia for dia, x in FEDERAL.ano(ano).dias.items() if x.tipo == "feriado"}
    deles = set(holidays.country_holidays("BR", categories=("public",), years=ano))
    assert nossos == deles


@pytest.mark.parametrize("ano", range(2019, 2027))
def test_padrao_contem_os_feriados_do_ano_transcrito(ano: int) -> None:
    transcrito = {dia for dia, x in FEDERAL.ano(ano).dias.items() if x.tipo == "feriado"}
    assert transcrito == {dia for dia, x in padrao(ano).dias.items() if x.tipo == "feriado"}


def test_prazo_fixo_nao_se_move() -> None:
    # 31/12/2024 encerra às 14h, mas é o prazo de comprovação de 2024, fixado em lei: fica,
    # com a redação original e o teto de R$ 50 milhões
    r = calcular(
        {
            "regime": "renovabio.distribuidor",
            "ano_meta": 2024,
            "meta_cbios": 10_000_000,
            "cbios_aposentados": 0,
            "maior_media_mensal": "100",
        }
    )
    assert r["prazo_comprovacao"] == "2024-12-31"
    assert r["vigencia"]["redacao"].endswith("(redação original)")
    assert r["valor"] == "50000000.00"


@pytest.mark.parametrize(
    ("dados", "trecho"),
    [
        ({"ano": [{"ano": 2025, "dias": []}]}, "atos"),
        ({"ano": [{"ano": 0, "atos": [{"ato": "a", "fonte": "f"}]}]}, "'ano'"),
        (
            {
                "ano": [
                    {
                        "ano": 2025,
                        "atos": [{"ato": "a", "fonte": "f"}],
                        "dias": [
                            {"data": d("2024-01-01"), "nome": "x", "tipo": "feriado", "ato": "a"}
                        ],
                    }
                ]
            },
            "não é do ano",
        ),
        (
            {
                "ano": [
                    {
                        "ano": 2025,
                        "atos": [{"ato": "a", "fonte": "f"}],
                        "dias": [
                            {"data": d("2025-01-01"), "nome": "x", "tipo": "meio", "ato": "a"}
                        ],
                    }
                ]
            },
            "tipo",
        ),
        ({"fora_do_nacional": [{"data": d("2025-05-02"), "nome": "x", "ato": "a"}]}, "ambito"),
        ({"outra": 1}, "desconhecidas"),
    ],
)
def test_dados_do_calendario_sao_conferidos(dados: dict[str, Any], trecho: str) -> None:
    with pytest.raises(CalendarioInvalido, match=trecho):
        ler_calendario(dados, "calendario.toml")


def test_kernel_agrupa_dias_sem_expediente_por_linha() -> None:
    linhas = [
        ("2025-05-21", "2025-06-25", ""),
        ("2025-05-21", "2025-06-25", "2025-06-23 2025-06-24"),
        ("2025-05-21", "2025-06-25", "2025-06-24 2025-06-23"),  # the same set
        ("2025-02-02", "2025-03-06", "2025-03-05"),
        ("2025-02-02", "2025-03-06", "2025-13-01"),  # invalid: the engine's error
    ]
    colunas = {
        "principal": pa.array(["1000"] * len(linhas)),
        "data_ciencia": pa.array([x[0] for x in linhas]),
        "data_pagamento": pa.array([x[1] for x in linhas]),
        "dias_sem_expediente": pa.array([x[2] or None for x in linhas]),
    }
    r = calcular_colunas(
        "anp.mora",
        colunas,
        len(linhas),
        {"calendario": "expediente", "encargos": "decreto"},
        hoje=relogio.hoje(),
    )
    assert r.ok.tolist() == [True, True, True, True, False]
    for i, (ciencia, pagamento, extras) in enumerate(linhas[:4]):
        caso = {
            "regime": "anp.mora",
            "principal": "1000",
            "data_ciencia": ciencia,
            "data_pagamento": pagamento,
        }
        if extras:
            caso["dias_sem_expediente"] = extras.split()
        motor = calcular(caso)
        assert str(r.saidas["vencimento"][i]) == motor["vencimento"], i
        assert int(r.valor[i]) == int(motor["valor"].replace(".", "")), i
    assert r.saidas["vencimento"][1] == np.datetime64("2025-06-25")
