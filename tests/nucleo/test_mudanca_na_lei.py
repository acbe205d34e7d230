"""A change in the law is a change in data (issue 17, item 5): the shipped legislation is
copied, one fictitious decree is applied to the copy, and the engine, the kernel and the
memória must follow it from its date while every earlier date gives what it gave before.

- A decree from 01/07/2026 raises the decree's floor (art. 6º, § 2º, I) to R$ 150.000,00 and
  makes the reduction 1/10 a month within 9 months.
- The law's floor (Lei nº 13.576/2017, art. 9º: ``renovabio.piso_legal``) does not move: a
  revenue cap below it still gives R$ 100.000,00 under ``interpretacao.piso = lei``.
The recipe a maintainer follows is in docs/desenvolvimento.md ("Uma mudança na lei")."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

import pyarrow as pa
import pytest

from multas import calcular
from multas.nucleo.kernel import calcular_colunas
from multas.nucleo.legislacao import Legislacao, ler_textos
from multas.servicos import relogio
from tests.utils.legislacao import PARAMETROS, com_o_ponto_facultativo, nova_vigencia


def _com_o_decreto() -> Legislacao:
    textos = {p.name: p.read_text(encoding="utf-8") for p in PARAMETROS.glob("*.toml")}
    renovabio = textos["renovabio.toml"]
    renovabio = nova_vigencia(renovabio, "renovabio.distribuidor.piso", '"150000.00"')
    renovabio = nova_vigencia(renovabio, "renovabio.distribuidor.reducao", '"1/10"')
    renovabio = nova_vigencia(renovabio, "renovabio.distribuidor.reducao_meses", "9")
    textos["renovabio.toml"] = renovabio
    return ler_textos(textos)


NOVA = _com_o_decreto()
ANTES = {"ano_meta": 2025}
DEPOIS = {"ano_meta": 2026, "prazo_comprovacao": "2026-12-31"}


def _caso(**campos: Any) -> dict[str, Any]:
    return {"regime": "renovabio.distribuidor", "cbios_aposentados": 0, **campos}


def _kernel_igual_ao_motor(caso: dict[str, Any], legislacao: Legislacao) -> None:
    """The kernel computes the row exactly as the engine, or leaves it to the engine."""
    campos = {k: v for k, v in caso.items() if k not in ("regime", "interpretacao")}
    colunas = {k: pa.array([str(v)], pa.string()) for k, v in campos.items()}
    esperado = calcular(caso, legislacao=legislacao)["valor"]
    for laco in (True, False):
        r = calcular_colunas(
            caso["regime"],
            colunas,
            1,
            caso.get("interpretacao"),
            legislacao=legislacao,
            laco=laco,
            hoje=relogio.hoje(),
        )
        if r.ok[0]:
            assert f"{int(r.valor[0]) / 100:.2f}" == esperado, (caso, laco)


@pytest.mark.parametrize("quando", [ANTES, DEPOIS], ids=["antes", "depois"])
def test_o_piso_do_decreto_segue_a_data(quando: dict[str, Any]) -> None:
    caso = _caso(meta_cbios=1_000, maior_media_mensal="120", **quando)  # apurado 120.000,00
    original, novo = calcular(caso), calcular(caso, legislacao=NOVA)
    if quando is ANTES:
        assert novo == original  # every earlier date gives what it gave before
    else:
        assert (original["valor"], novo["valor"]) == ("120000.00", "150000.00")
        passos = " ".join(f"{p['descricao']} {p['fundamento']}" for p in novo["passos"])
        assert "Decreto fictício de teste" in passos
    _kernel_igual_ao_motor(caso, NOVA)


@pytest.mark.parametrize("leitura", ["lei", "decreto"])
def test_o_piso_da_lei_nao_se_move_com_o_do_decreto(leitura: str) -> None:
    caso = _caso(
        meta_cbios=10_000,
        maior_media_mensal="100",  # apurado 1.000.000,00
        faturamento_ano_meta="1000000.00",  # 5% of the revenue: 50.000,00, below both floors
        faturamento_ano_anterior="1000000.00",
        interpretacao={"piso": leitura},
        **DEPOIS,
    )
    esperado = "100000.00" if leitura == "lei" else "50000.00"
    assert calcular(caso)["valor"] == calcular(caso, legislacao=NOVA)["valor"] == esperado
    if leitura == "lei":
        texto = " ".join(calcular(caso, legislacao=NOVA)["avisos"])
        assert "R$ 100.000,00" in texto and "Lei nº 13.576/2017" in texto
    _kernel_igual_ao_motor(caso, NOVA)


def test_a_reducao_e_a_sua_memoria_seguem_o_decreto() -> None:
    caso = _caso(meta_cbios=20_000, maior_media_mensal="100", data_quitacao="2027-01-15", **DEPOIS)
    r = calcular(caso, legislacao=NOVA)
    assert r["valor"] == "200000.00"  # 2.000.000,00 × 1/10, k = 1
    texto = " ".join([*(p["descricao"] for p in r["passos"]), *r["avisos"]])
    assert "1/10" in texto and "k/10" in texto
    assert not re.search(r"(?<![\d/])1/12|k/12", texto)  # (31/12 is a date)
    tarde = calcular({**caso, "data_quitacao": "2027-10-15"}, legislacao=NOVA)  # k = 10 > 9
    assert tarde["valor"] == "2000000.00"
    assert any("9 meses" in p["descricao"] for p in tarde["passos"])
    _kernel_igual_ao_motor(caso, NOVA)
    # the lifecycle's deadline reads the same parameter (an alias, not a copy)
    limite = NOVA.parametro("ciclo.limite_reducao").em(date(2026, 12, 31))
    assert limite is not None and limite.inteiro == 9
    antes = _caso(meta_cbios=20_000, maior_media_mensal="100", data_quitacao="2026-01-15")
    assert calcular({**antes, **ANTES}, legislacao=NOVA) == calcular({**antes, **ANTES})


# --- a fictitious calendar act (spec v3, § 1): an extra ponto facultativo on 15/07/2026 ------


def test_um_ponto_facultativo_novo_move_o_vencimento_no_motor_e_no_kernel() -> None:
    caso = {
        "regime": "anp.mora",
        "principal": "1000.00",
        "data_ciencia": "2026-06-15",  # + 30 = 15/07/2026
        "data_pagamento": "2026-07-16",
    }
    antes, depois = calcular(caso), calcular(caso, legislacao=com_o_ponto_facultativo())
    assert (antes["vencimento"], antes["valor"]) == ("2026-07-15", "1030.00")
    assert (depois["vencimento"], depois["valor"]) == ("2026-07-16", "1000.00")
    passos = " ".join(p["descricao"] for p in depois["passos"])
    assert "Ponto facultativo fictício de teste" in passos
    # earlier dates do not move
    cedo = {**caso, "data_ciencia": "2025-06-15", "data_pagamento": "2025-07-16"}
    assert calcular(cedo, legislacao=com_o_ponto_facultativo()) == calcular(cedo)
    colunas = {k: pa.array([v]) for k, v in caso.items() if k != "regime"}
    r = calcular_colunas(
        "anp.mora", colunas, 1, None, legislacao=com_o_ponto_facultativo(), hoje=relogio.hoje()
    )
    assert r.ok[0] and str(r.saidas["vencimento"][0]) == "2026-07-16"
    assert int(r.valor[0]) == 100_000


def test_um_ponto_facultativo_novo_move_o_prazo_do_ciclo() -> None:
    from multas.nucleo.ciclo.prazos import calcular_prazos

    processo = {
        "tipo": "anp",
        "eventos": [
            {"evento": "infracao", "data": "2026-01-10"},
            {"evento": "auto_infracao", "data": "2026-03-01"},
            {"evento": "ciencia_primeira_instancia", "data": "2026-07-05"},  # + 10 = 15/07
        ],
    }

    def recurso(legislacao: Legislacao | None) -> dict[str, str]:
        prazos = calcular_prazos(processo, legislacao, hoje=relogio.hoje())["prazos"]
        return next(p for p in prazos if p["prazo"] == "recurso")

    assert recurso(None)["data"] == "2026-07-15"
    novo = recurso(com_o_ponto_facultativo())
    assert novo["data"] == "2026-07-16"
    assert "Ponto facultativo fictício de teste" in novo["contagem"]
