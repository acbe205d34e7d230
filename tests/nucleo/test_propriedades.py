"""Legal invariants, checked on generated cases (hypothesis)."""

from __future__ import annotations

import json
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from multas import calcular

PISO = Decimal("100000.00")
TETO = {2023: Decimal("50000000.00"), 2024: Decimal("50000000.00"), 2025: Decimal("500000000.00")}

precos = st.decimals(min_value=Decimal("0.01"), max_value=Decimal("500"), places=4)
quantias = st.decimals(min_value=Decimal("0"), max_value=Decimal("50000000000"), places=2)
cbios = st.integers(min_value=0, max_value=20_000_000)


@st.composite
def distribuidores(draw: st.DrawFn, com_quitacao: bool = False) -> dict[str, Any]:
    ano = 2025 if com_quitacao else draw(st.sampled_from([2023, 2024, 2025]))
    caso: dict[str, Any] = {
        "regime": "renovabio.distribuidor",
        "ano_meta": ano,
        "meta_cbios": draw(cbios),
        "cbios_aposentados": draw(cbios),
        "maior_media_mensal": str(draw(precos)),
    }
    if draw(st.booleans()):
        caso["faturamento_ano_meta"] = str(draw(quantias))
        caso["faturamento_ano_anterior"] = str(draw(quantias))
        caso["interpretacao"] = {
            "faturamento": draw(st.sampled_from(["media", "maior", "menor"])),
            "piso": draw(st.sampled_from(["lei", "decreto"])),
        }
    if ano == 2025 and (com_quitacao or draw(st.booleans())):
        caso["data_quitacao"] = (
            date(2025, 12, 31) + timedelta(days=draw(st.integers(1, 500)))
        ).isoformat()
    return caso


@given(distribuidores())
def test_art6_par2_nunca_acima_do_teto(caso: dict[str, Any]) -> None:
    assert Decimal(calcular(caso)["valor"]) <= TETO[caso["ano_meta"]]


def _piso(caso: dict[str, Any]) -> str:
    return str(caso.get("interpretacao", {}).get("piso", "lei"))


@given(distribuidores())
def test_art6_par2_nunca_abaixo_do_piso_salvo_pelo_par3_na_leitura_decreto(
    caso: dict[str, Any],
) -> None:
    r = calcular(caso)
    valor = Decimal(r["valor"])
    if caso["meta_cbios"] <= caso["cbios_aposentados"]:
        assert valor == 0
    elif valor < PISO:
        # only the revenue cap of § 3º, read as the decree writes it, goes below the floor
        assert _piso(caso) == "decreto"
        assert "faturamento_ano_meta" in caso
        assert any("limitada ao percentual" in p["descricao"] for p in r["passos"])


def _caso_do_piso(r: dict[str, Any]) -> bool:
    return any("caso do piso" in p["descricao"] for p in r["passos"])


def _limitada_pelo_faturamento(r: dict[str, Any]) -> bool:
    return any("limitada ao percentual" in p["descricao"] for p in r["passos"])


@given(distribuidores(), st.integers(1, 1_000_000))
def test_mais_cbios_faltando_nunca_diminui_a_multa(caso: dict[str, Any], a_mais: int) -> None:
    """Monotone under the default reading (piso = lei). Under piso = decreto there is one
    exception the decree's text makes: the piso case is exempt from the revenue cap (§ 3º,
    "ressalvada a hipótese do inciso I do § 2º"), so leaving it can drop the fine to a cap
    below R$ 100.000,00 (see the test below)."""
    maior = {**caso, "meta_cbios": caso["meta_cbios"] + a_mais}
    r_menor, r_maior = calcular(caso), calcular(maior)
    if Decimal(r_maior["valor"]) < Decimal(r_menor["valor"]):
        assert _piso(caso) == "decreto"
        assert _caso_do_piso(r_menor)
        assert _limitada_pelo_faturamento(r_maior)
        assert Decimal(r_maior["valor"]) < PISO


def test_art6_par3_degrau_do_piso_isento_do_limite_so_na_leitura_decreto() -> None:
    """Missing 1 CBIO costs the floor; missing 600 000 is capped at 5% of a R$ 1 milhão revenue
    (R$ 50.000,00) under piso = decreto, and costs the law's floor under piso = lei."""
    base = {
        "regime": "renovabio.distribuidor",
        "ano_meta": 2025,
        "cbios_aposentados": 0,
        "maior_media_mensal": "71.70",
        "faturamento_ano_meta": "1000000",
        "faturamento_ano_anterior": "1000000",
    }
    decreto = {**base, "interpretacao": {"piso": "decreto"}}
    assert calcular({**base, "meta_cbios": 1})["valor"] == "100000.00"
    assert calcular({**base, "meta_cbios": 600_000})["valor"] == "100000.00"
    assert calcular({**decreto, "meta_cbios": 1})["valor"] == "100000.00"
    assert calcular({**decreto, "meta_cbios": 600_000})["valor"] == "50000.00"


@given(distribuidores(), st.integers(1, 1_000_000))
def test_sem_faturamento_mais_cbios_faltando_nunca_diminui_a_multa(
    caso: dict[str, Any], a_mais: int
) -> None:
    caso = {
        k: v for k, v in caso.items() if not k.startswith("faturamento") and k != "interpretacao"
    }
    maior = {**caso, "meta_cbios": caso["meta_cbios"] + a_mais}
    assert Decimal(calcular(maior)["valor"]) >= Decimal(calcular(caso)["valor"])


@given(distribuidores(com_quitacao=True), st.integers(1, 400))
def test_quitacao_mais_tarde_nunca_diminui_a_multa(caso: dict[str, Any], dias: int) -> None:
    depois = date.fromisoformat(caso["data_quitacao"]) + timedelta(days=dias)
    mais_tarde = {**caso, "data_quitacao": depois.isoformat()}
    assert Decimal(calcular(mais_tarde)["valor"]) >= Decimal(calcular(caso)["valor"])


@given(distribuidores())
def test_quitar_nunca_custa_mais_que_nao_quitar(caso: dict[str, Any]) -> None:
    sem = {k: v for k, v in caso.items() if k != "data_quitacao"}
    assert Decimal(calcular(caso)["valor"]) <= Decimal(calcular(sem)["valor"])


@given(distribuidores())
def test_alternativas_sao_as_outras_leituras_que_mudam_o_valor(caso: dict[str, Any]) -> None:
    r = calcular(caso)
    for alt in r["alternativas"]:
        ((chave, opcao),) = alt["interpretacao"].items()
        assert opcao != r["interpretacao"][chave]
        # each reading tried alone, every other choice as given
        refeito = calcular({**caso, "interpretacao": {**r["interpretacao"], chave: opcao}})
        assert refeito["valor"] == alt["valor"] != r["valor"]
    listadas = {next(iter(a["interpretacao"].items())) for a in r["alternativas"]}
    for chave, opcoes in (
        ("faturamento", ("media", "maior", "menor")),
        ("piso", ("lei", "decreto")),
    ):
        for opcao in opcoes:
            if opcao == r["interpretacao"][chave] or (chave, opcao) in listadas:
                continue
            outra = calcular({**caso, "interpretacao": {**r["interpretacao"], chave: opcao}})
            assert outra["valor"] == r["valor"]  # left out only because it changes nothing


@given(
    st.integers(0, 2_000_000),
    st.decimals(min_value=Decimal("0.01"), max_value=Decimal("300"), places=2),
    st.booleans(),
    st.one_of(st.none(), quantias),
)
def test_art6B_produtor_entre_piso_e_teto(
    nao_pagos: int, preco: Decimal, dobro: bool, faturamento: Decimal | None
) -> None:
    caso: dict[str, Any] = {
        "regime": "renovabio.produtor",
        "ano": 2025,
        "cbios_nao_pagos": nao_pagos,
        "maior_media_mensal": str(preco),
        "dados_primarios": dobro,
    }
    if faturamento is not None:
        caso |= {
            "faturamento_ano_meta": str(faturamento),
            "faturamento_ano_anterior": str(faturamento),
        }
    valor = Decimal(calcular(caso)["valor"])
    assert valor <= Decimal("50000000.00")
    if nao_pagos and faturamento is None:
        assert valor >= PISO


@st.composite
def formas(draw: st.DrawFn, valor: Decimal) -> object:
    """The same amount as a string, a JSON number, or an int when it is whole."""
    opcoes: list[object] = [str(valor), json.loads(str(valor), parse_float=Decimal)]
    if valor == valor.to_integral_value():
        opcoes.append(int(valor))
    return draw(st.sampled_from(opcoes))


@given(st.data(), quantias, quantias, precos)
def test_mesmo_valor_como_texto_inteiro_ou_numero_json(
    data: st.DataObject, fat1: Decimal, fat2: Decimal, preco: Decimal
) -> None:
    def caso() -> dict[str, Any]:
        return {
            "regime": "renovabio.distribuidor",
            "ano_meta": 2025,
            "meta_cbios": 600_000,
            "cbios_aposentados": 0,
            "maior_media_mensal": data.draw(formas(preco)),
            "faturamento_ano_meta": data.draw(formas(fat1)),
            "faturamento_ano_anterior": data.draw(formas(fat2)),
        }

    assert calcular(caso()) == calcular(caso())


@given(
    st.decimals(min_value=Decimal("0.01"), max_value=Decimal("10000000"), places=2),
    st.dates(date(2000, 1, 1), date(2030, 12, 31)),
    st.integers(0, 1500),
    st.integers(1, 200),
)
@settings(max_examples=60)
def test_art26_pagar_mais_tarde_nunca_custa_menos(
    principal: Decimal, ciencia: date, dias: int, mais: int
) -> None:
    def total(pagamento: date) -> Decimal:
        r = calcular(
            {
                "regime": "anp.mora",
                "principal": str(principal),
                "data_ciencia": ciencia.isoformat(),
                "data_pagamento": pagamento.isoformat(),
            }
        )
        assert Decimal(r["valor"]) == principal + Decimal(r["juros_mora"]) + Decimal(
            r["multa_mora"]
        )
        return Decimal(r["valor"])

    primeiro = ciencia + timedelta(days=dias)
    assert total(primeiro + timedelta(days=mais)) >= total(primeiro) >= principal


@given(
    st.decimals(min_value=Decimal("0.5"), max_value=Decimal("3"), places=3),
    st.decimals(min_value=Decimal("0"), max_value=Decimal("0.2"), places=4),
    st.decimals(min_value=Decimal("0"), max_value=Decimal("0.2"), places=4),
    st.sampled_from(["literal", "marginal", "excedente"]),
)
def test_art6_mover_consumo_maior_nunca_diminui_a_multa(
    meta: Decimal, d1: Decimal, d2: Decimal, leitura: str
) -> None:
    def valor(consumo: Decimal) -> Decimal:
        return Decimal(
            calcular(
                {
                    "regime": "mover.eficiencia",
                    "meta_mj_km": str(meta),
                    "consumo_mj_km": str(consumo),
                    "veiculos": 10,
                    "interpretacao": {"faixa_superior": leitura},
                }
            )["valor"]
        )

    assert valor(meta + d1 + d2) >= valor(meta + d1)


@given(
    st.one_of(st.none(), quantias),
    st.one_of(st.none(), quantias),
    st.sampled_from(["lei", "decreto"]),
)
def test_art6A_vedacao_entre_minimo_e_maximo(
    base: Decimal | None, faturamento: Decimal | None, piso: str
) -> None:
    caso: dict[str, Any] = {
        "regime": "renovabio.vedacao",
        "data_referencia": "2025-10-01",
        "interpretacao": {"piso": piso},
    }
    if base is not None:
        caso["valor_base"] = str(base)
    if faturamento is not None:
        caso |= {
            "faturamento_ano_meta": str(faturamento),
            "faturamento_ano_anterior": str(faturamento),
        }
    r = calcular(caso)
    if base is None:
        assert r["valor"] is None
        return
    valor = Decimal(r["valor"])
    assert valor <= Decimal("500000000.00")
    if faturamento is None or base < PISO or piso == "lei":
        assert valor >= PISO


@given(
    st.decimals(min_value=Decimal("0.01"), max_value=Decimal("10000000"), places=2),
    st.dates(date(2009, 1, 1), date(2030, 12, 31)),
    st.integers(0, 1500),
    st.integers(1, 200),
    st.integers(0, 300),
)
@settings(max_examples=60)
def test_art37A_pagar_mais_tarde_nunca_custa_menos_e_a_multa_fica_em_20(
    principal: Decimal, ciencia: date, dias: int, mais: int, selic_centesimos: int
) -> None:
    taxa = str(Decimal(selic_centesimos).scaleb(-2))
    selic = {f"{a}-{m:02d}": taxa for a in range(2008, 2036) for m in range(1, 13)}

    def total(pagamento: date) -> Decimal:
        r = calcular(
            {
                "regime": "anp.mora",
                "principal": str(principal),
                "data_ciencia": ciencia.isoformat(),
                "data_pagamento": pagamento.isoformat(),
                "taxas_selic": selic,
                "interpretacao": {"encargos": "lei-10522"},
            }
        )
        multa = Decimal(r["multa_mora"])
        assert multa <= (principal * Decimal("0.20")).quantize(Decimal("0.01"))
        assert Decimal(r["valor"]) == principal + Decimal(r["juros_mora"]) + multa
        return Decimal(r["valor"])

    primeiro = ciencia + timedelta(days=dias)
    assert total(primeiro + timedelta(days=mais)) >= total(primeiro) >= principal
