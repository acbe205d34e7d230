"""What ``anp.infracao`` v4 and ``anp.auto`` refuse or leave out at their edges (spec §§ 3.4 v4,
3.4.1): the mixed total under the other reading, which unverified range softens an error, the
date field a "regime não vigente" names, and roman-numeral lookalikes."""

from __future__ import annotations

from datetime import date

import pytest

from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.motor import calcular

HOJE = date(2026, 12, 4)


def test_alternativa_do_auto_confere_o_total_misto_na_outra_leitura() -> None:
    # faixa = decreto: I fixed at 200.000,00 (in the decree's I) + II of the decree
    # (500.000,00–5.000.000,00) → the total must lie in 700.000,00–5.200.000,00; 560.000,00
    # does not, so under that reading the auto has no valid value
    r = calcular(
        {
            "regime": "anp.auto",
            "data_infracao": "2022-03-10",
            "valor": "560000",
            "infracoes": [{"inciso": "I", "valor": "200000"}, {"inciso": "II"}],
        },
        hoje=HOJE,
    )
    assert r["valor"] == "560000.00"
    (alternativa,) = r["alternativas"]
    assert alternativa["interpretacao"] == {"faixa": "decreto"}
    assert alternativa["valor"] is None


def test_total_fora_da_faixa_e_erro_se_a_faixa_nao_conferida_nao_foi_usada() -> None:
    # XIII (unverified) has its own value, so only I's checked range bounds the total:
    # 60.000,00 + 50.000,00–200.000,00 = 110.000,00–260.000,00; R$ 10,00 is out of it
    with pytest.raises(EntradaInvalida) as erro:
        calcular(
            {
                "regime": "anp.auto",
                "data_infracao": "2022-03-10",
                "valor": "10",
                "infracoes": [{"inciso": "XIII", "valor": "60000"}, {"inciso": "I"}],
            },
            hoje=HOJE,
        )
    assert erro.value.campo == "valor"


@pytest.mark.parametrize(
    "caso",
    [
        {"regime": "anp.infracao", "inciso": "VI", "data_infracao": "1999-05-01"},
        {
            "regime": "anp.auto",
            "data_infracao": "1999-05-01",
            "infracoes": [{"inciso": "I"}, {"inciso": "VI"}],
        },
    ],
    ids=["infracao", "auto"],
)
def test_inciso_sem_par_antes_da_lei_nomeia_a_data_da_infracao(caso: dict[str, object]) -> None:
    with pytest.raises(EntradaInvalida, match="regime não vigente") as erro:
        calcular(caso, hoje=HOJE)
    assert erro.value.campo != "data_referencia"
    assert erro.value.campo is not None and erro.value.campo.endswith(("data_infracao", "inciso"))


def test_inciso_com_i_sem_ponto_e_recusado() -> None:
    with pytest.raises(EntradaInvalida) as erro:
        calcular(
            {"regime": "anp.infracao", "inciso": "x\u0131", "norma": "decreto-2953"}, hoje=HOJE
        )
    assert erro.value.campo == "inciso"
