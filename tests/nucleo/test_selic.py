"""The monthly Selic shipped as data (spec § 3.5 v4; legislacao/series): the series as
published, the rule that takes each month from it, and the reader of the Banco Central's own
CSV that adds months after it."""

from __future__ import annotations

import random
from datetime import date, timedelta
from decimal import Decimal
from itertools import pairwise

import pytest

from multas import calcular
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.legislacao import carregar
from multas.nucleo.legislacao.selic import indice, ler_csv_do_bcb, serie_enviada

SERIE = serie_enviada()


def test_a_serie_enviada_e_contigua_e_confere_com_as_amostras_do_leiame() -> None:
    meses = sorted(SERIE.meses)
    assert (meses[0], meses[-1], len(meses)) == ("2009-01", "2025-04", 196)
    assert [indice(b) - indice(a) for a, b in pairwise(meses)] == [1] * 195
    amostras = {"2009-01": "1.05", "2016-08": "1.22", "2023-03": "1.17", "2024-12": "0.93"}
    assert {m: str(SERIE.meses[m].taxa) for m in amostras} == amostras
    assert carregar().selic.meses == SERIE.meses


def test_lei_10522_sem_taxas_igual_a_com_as_taxas_publicadas_digitadas() -> None:
    """Issue 35's bar: 50 random cases across 2009–2025, the shipped rates typed in or not."""
    sorteio = random.Random(4390)
    digitadas = {m: str(t.taxa) for m, t in SERIE.meses.items()}
    for _ in range(50):
        ciencia = date(2009, 1, 1) + timedelta(days=sorteio.randrange(0, 5800))
        pagamento = ciencia + timedelta(days=sorteio.randrange(0, 6000))
        if pagamento > date(2025, 5, 31):
            pagamento = date(2025, 5, sorteio.randrange(1, 31))
        caso = {
            "regime": "anp.mora",
            "principal": f"{sorteio.randrange(100, 10**9)}.{sorteio.randrange(100):02d}",
            "data_ciencia": ciencia.isoformat(),
            "data_pagamento": max(pagamento, ciencia).isoformat(),
            "interpretacao": {"encargos": "lei-10522"},
        }
        try:
            sem = calcular(caso)
        except EntradaInvalida as erro:  # a vencimento after the payment's month, or before MP 449
            with pytest.raises(EntradaInvalida) as de_novo:
                calcular({**caso, "taxas_selic": digitadas})
            assert de_novo.value.mensagem == erro.mensagem
            continue
        com = calcular({**caso, "taxas_selic": digitadas})
        assert (sem["valor"], sem["juros_mora"]) == (com["valor"], com["juros_mora"]), caso
        assert not any("diferentes das publicadas" in a for a in com["avisos"])


def test_csv_do_banco_central_acrescenta_meses_contiguos_e_nao_muda_um_guardado() -> None:
    novos = ler_csv_do_bcb('"data";"valor"\n"01/05/2025";"1,14"\n"01/06/2025";"1,10"\n')
    assert novos == {"2025-05": Decimal("1.14"), "2025-06": Decimal("1.10")}
    serie = SERIE.com(novos, "Banco Central, série 4390 (arquivo)")
    assert serie.ultimo == "2025-06" and serie.meses["2025-06"].fonte.startswith("Banco Central")
    assert SERIE.com({"2025-04": Decimal("1.060")}, "x").ultimo == "2025-04"  # the same rate
    with pytest.raises(EntradaInvalida, match="um mês guardado não muda"):
        SERIE.com({"2025-04": Decimal("1.07")}, "x")
    with pytest.raises(EntradaInvalida, match="meses não contíguos"):
        SERIE.com({"2025-06": Decimal("1")}, "x")


@pytest.mark.parametrize(
    ("texto", "trecho"),
    [
        ("mes,taxa\n2025-05,1.14\n", '"data";"valor"'),
        ('"data";"valor"\n', "nenhum mês"),
        ('"data";"valor"\n"02/05/2025";"1,14"\n', "o dia 01"),
        ('"data";"valor"\n"01/13/2025";"1,14"\n', "o dia 01"),
        ('"data";"valor"\n"01/05/2025";"-1,0"\n', "taxa inválida"),
        ('"data";"valor"\n"01/05/2025";"1,14"\n"01/05/2025";"1,14"\n', "mês repetido"),
        ('"data";"valor"\n"01/05/2025";"=1+1"\n', "esperado dd/mm/aaaa;taxa"),
    ],
)
def test_csv_do_banco_central_recusa_o_que_nao_e_a_serie(texto: str, trecho: str) -> None:
    with pytest.raises(EntradaInvalida) as erro:
        ler_csv_do_bcb(texto)
    assert trecho in erro.value.mensagem
