"""Spec v4 § 3.7 point 1 (``piso-so-distribuidor``: for the producer and the sales ban the cap
stands by default, and their memória cites no article of Lei 13.576/2017) and point 2
(``valor-base-informado``: ``valor_base`` is the amount the user proposes, no reading of the
ANP's; ``agente``: the 5% cap is only a distributor's)."""

from __future__ import annotations

import re

import pytest

from multas.nucleo.regimes import REGIMES
from tests.utils import calc, erro

FATURAMENTO = {"faturamento_ano_meta": "1000000", "faturamento_ano_anterior": "1000000"}
PRODUTOR = {
    "regime": "renovabio.produtor",
    "ano": 2025,
    "cbios_nao_pagos": 10000,
    "maior_media_mensal": "100",
    **FATURAMENTO,
}
VEDACAO = {
    "regime": "renovabio.vedacao",
    "valor_base": "3000000",
    "data_referencia": "2025-06-01",
    **FATURAMENTO,
}


def _texto(r: dict[str, object]) -> str:
    return str(r["passos"]) + str(r["avisos"])


@pytest.mark.parametrize("regime", ["renovabio.produtor", "renovabio.vedacao"])
def test_piso_padrao_e_decreto_fora_do_distribuidor(regime: str) -> None:
    assert REGIMES[regime].interpretacoes["piso"] == ("decreto", "lei")
    assert REGIMES["renovabio.distribuidor"].interpretacoes["piso"] == ("lei", "decreto")


@pytest.mark.parametrize("caso", [PRODUTOR, VEDACAO], ids=["produtor", "vedacao"])
def test_limite_abaixo_do_piso_fica_e_lei_e_a_outra_leitura(caso: dict[str, object]) -> None:
    r = calc(**caso)
    assert r["valor"] == "50000.00"  # 5% of R$ 1.000.000,00, below the R$ 100.000,00 floor
    assert r["interpretacao"]["piso"] == "decreto"
    assert r["alternativas"] == [{"interpretacao": {"piso": "lei"}, "valor": "100000.00"}]
    # art. 9º of Lei 13.576/2017 (the law's floor), not art. 9º-B (the ban, quoted by the caput)
    assert not re.search(r"art\. 9º(?!-B)", _texto(r))
    assert "piso legal" not in _texto(r)
    (aviso,) = [a for a in r["avisos"] if "piso-so-distribuidor" in a]
    assert "mantido o valor limitado" in aviso


@pytest.mark.parametrize("caso", [PRODUTOR, VEDACAO], ids=["produtor", "vedacao"])
def test_leitura_lei_e_extensao_do_piso_do_distribuidor(caso: dict[str, object]) -> None:
    r = calc(**caso, interpretacao={"piso": "lei"})
    assert r["valor"] == "100000.00"
    (aviso,) = [a for a in r["avisos"] if "prevalece o piso da lei" in a]
    assert "o piso do distribuidor é estendido a esta multa" in aviso


def test_distribuidor_mantem_o_piso_da_lei_como_padrao() -> None:
    r = calc(
        regime="renovabio.distribuidor",
        ano_meta=2025,
        meta_cbios=2000,
        cbios_aposentados=1000,
        maior_media_mensal="100",
        **FATURAMENTO,
    )
    assert r["valor"] == "100000.00"
    assert not any("piso-so-distribuidor" in a for a in r["avisos"])


def test_valor_base_nao_atribui_leitura_a_anp() -> None:
    for caso in (VEDACAO, {"regime": "renovabio.vedacao", "data_referencia": "2025-06-01"}):
        r = calc(**caso)
        assert "leitura da ANP" not in _texto(r)
        assert "soma das multas" not in _texto(r)
    assert "leitura da ANP" not in next(
        c.descricao for c in REGIMES["renovabio.vedacao"].caso.campos() if c.nome == "valor_base"
    )


def test_agente_outro_sem_limite_do_faturamento_com_aviso() -> None:
    distribuidor = calc(**VEDACAO)
    outro = calc(**VEDACAO, agente="outro")
    assert (distribuidor["valor"], outro["valor"]) == ("50000.00", "3000000.00")
    assert calc(**VEDACAO, agente="distribuidor")["valor"] == "50000.00"
    (aviso,) = [a for a in outro["avisos"] if "não é distribuidor" in a]
    assert aviso.startswith(
        "O limite de 5% do faturamento (Decreto nº 9.888/2019, art. 6º-A, § 3º)"
    )


def test_agente_e_validado() -> None:
    e = erro(**VEDACAO, agente="importador")
    assert (e.campo, e.mensagem) == (
        "agente",
        "agente inválido: 'importador' (use distribuidor ou outro)",
    )
