"""The CBIO price of a RenovaBio fine (spec § 3.1 v4): the monthly mean as a reading
(``media_mensal``), quotes with volumes, exact ``p/q`` prices, the exercise of the price
(``ano_do_preco``), the coverage and the provenance; and a year with no target of its own
(``meta_herdada``). The regulator's published figures come from B3's daily file as shipped."""

from __future__ import annotations

import csv
from datetime import date
from decimal import Decimal
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.motor import calcular
from multas.nucleo.preco import Cotacao, exato, preco_do_exercicio

B3 = Path(__file__).resolve().parents[1] / "dados" / "cbio-b3-diario-2020-2025.csv"
#: the distributor behind the ANP's largest fines of 2019-2020 and 2021
CBIOS = 188045


@cache
def _b3() -> list[dict[str, str]]:
    with B3.open(encoding="utf-8") as arquivo:
        return list(csv.DictReader(arquivo))


def _cotacoes(ano: int, *, volumes: bool = True, preco: bool = True) -> list[dict[str, Any]]:
    saida = []
    for linha in _b3():
        if linha["data"].startswith(str(ano)):
            item: dict[str, Any] = {"data": linha["data"]}
            if preco:
                item["preco"] = linha["preco_medio"]
            if volumes:
                item["quantidade"] = int(linha["quantidade"])
                item["valor_financeiro"] = linha["valor_financeiro"]
            saida.append(item)
    return saida


def _multa(**campos: Any) -> dict[str, Any]:
    caso = {
        "regime": "renovabio.distribuidor",
        "ano_meta": 2024,
        "meta_cbios": 1000,
        "cbios_aposentados": 0,
    }
    return calcular({**caso, **campos}, hoje=None)


@pytest.mark.parametrize(
    ("ano", "ponderada", "simples"),
    [(2020, "9485141.34", "9490120.32"), (2021, "10703287.90", "10751687.85")],
)
def test_a_media_ponderada_reproduz_as_maiores_multas_publicadas_pela_anp(
    ano: int, ponderada: str, simples: str
) -> None:
    r = _multa(ano_meta=ano, meta_cbios=CBIOS, cotacoes_diarias=_cotacoes(ano))
    assert r["valor"] == ponderada
    assert r["interpretacao"]["media_mensal"] == "ponderada"
    assert r["preco_metodo"] == "ponderada"
    assert {"interpretacao": {"media_mensal": "simples"}, "valor": simples} in r["alternativas"]
    texto = " ".join(p["descricao"] for p in r["passos"])
    assert "Nenhum texto legal diz como se calcula a média mensal" in texto
    assert "02/08/2021" in texto and "R$ 9,48 milhões" in texto
    # the other reading's price is shown beside it
    assert "Na outra leitura (Média mensal das cotações: média simples" in texto


def test_sem_volume_em_alguma_cotacao_o_padrao_e_a_media_simples_com_aviso() -> None:
    cotacoes = _cotacoes(2021)
    cotacoes[3] = {"data": cotacoes[3]["data"], "preco": cotacoes[3]["preco"]}
    r = _multa(ano_meta=2021, meta_cbios=CBIOS, cotacoes_diarias=cotacoes)
    assert (r["valor"], r["preco_metodo"]) == ("10751687.85", "simples")
    assert any(
        a.startswith("1 de 249 cotações do exercício de 2021 não trazem") for a in r["avisos"]
    )
    # chosen, the weighted mean is an error naming the quote that lacks its volume
    with pytest.raises(EntradaInvalida) as erro:
        calcular(
            {
                "regime": "renovabio.distribuidor",
                "ano_meta": 2021,
                "meta_cbios": CBIOS,
                "cbios_aposentados": 0,
                "cotacoes_diarias": cotacoes,
                "interpretacao": {"media_mensal": "ponderada"},
            },
            hoje=None,
        )
    assert erro.value.campo == "cotacoes_diarias[3]"


def test_so_com_volumes_a_media_simples_escolhida_e_um_erro_nomeando_a_cotacao() -> None:
    cotacoes = _cotacoes(2020, preco=False)
    assert _multa(ano_meta=2020, meta_cbios=CBIOS, cotacoes_diarias=cotacoes)["valor"] == (
        "9485141.34"
    )
    with pytest.raises(EntradaInvalida) as erro:
        calcular(
            {
                "regime": "renovabio.distribuidor",
                "ano_meta": 2020,
                "meta_cbios": CBIOS,
                "cbios_aposentados": 0,
                "cotacoes_diarias": cotacoes,
                "interpretacao": {"media_mensal": "simples"},
            },
            hoje=None,
        )
    assert erro.value.campo == "cotacoes_diarias[0].preco"


@pytest.mark.parametrize(
    ("cotacao", "campo"),
    [
        ({"data": "2024-01-02", "quantidade": 10}, "cotacoes_diarias[0].valor_financeiro"),
        ({"data": "2024-01-02", "valor_financeiro": "10.00"}, "cotacoes_diarias[0].quantidade"),
        (
            {"data": "2024-01-02", "quantidade": 0, "valor_financeiro": "1"},
            "cotacoes_diarias[0].quantidade",
        ),
        (
            {"data": "2024-01-02", "quantidade": 1, "valor_financeiro": "1.001"},
            "cotacoes_diarias[0].valor_financeiro",
        ),
        ({"data": "2024-01-02"}, "cotacoes_diarias[0].preco"),
        ({"data": "2024-01-02", "preco": "1", "volume": 1}, "cotacoes_diarias[0].volume"),
    ],
)
def test_uma_cotacao_mal_formada_e_um_erro_nomeando_o_campo(
    cotacao: dict[str, Any], campo: str
) -> None:
    with pytest.raises(EntradaInvalida) as erro:
        _multa(cotacoes_diarias=[cotacao])
    assert erro.value.campo == campo


def test_o_preco_exato_p_q_que_multas_escreve_e_lido_de_volta() -> None:
    r = _multa(
        meta_cbios=3000,
        cotacoes_diarias=[
            {"data": "2024-01-02", "preco": "100"},
            {"data": "2024-01-03", "preco": "100"},
            {"data": "2024-01-04", "preco": "101"},
        ],
    )
    assert r["preco"] == "301/3"
    again = _multa(meta_cbios=3000, maior_media_mensal=r["preco"])
    assert (again["valor"], again["preco"], again["preco_metodo"]) == (
        r["valor"],
        "301/3",
        "informado",
    )
    assert again["cotacoes_cobertura"] is None
    assert _multa(meta_cbios=3000, cotacoes_mensais={"2024-01": "301/3"})["valor"] == r["valor"]


@given(
    st.one_of(
        st.text(max_size=12).filter(lambda t: "/" in t),
        st.sampled_from(
            ["0/3", "3/0", "-1/3", "1/-3", "1.5/3", " 1/3", "1/3 ", "1//3", "1/2/3", "９/３"]
        ),
    )
)
def test_uma_fracao_que_nao_e_p_q_e_um_erro_nomeando_o_preco(texto: str) -> None:
    try:
        valor = Fraction(texto)
    except (ValueError, ZeroDivisionError):
        valor = None
    if (
        valor is not None
        and texto.isascii()
        and texto == texto.strip()
        and valor > 0
        and "-" not in texto
        and "+" not in texto
        and "." not in texto
        and "_" not in texto
        and "e" not in texto.lower()
        and texto.count("/") == 1
    ):
        return  # a valid "p/q"
    with pytest.raises(EntradaInvalida) as erro:
        _multa(maior_media_mensal=texto)
    assert erro.value.campo == "maior_media_mensal"


def test_a_cobertura_de_um_exercicio_parcial_da_aviso_e_campo() -> None:
    r = _multa(
        ano_meta=2025,
        meta_cbios=10,
        cotacoes_diarias=_cotacoes(2025),
        prazo_comprovacao="2025-12-31",
    )
    cobertura = r["cotacoes_cobertura"]
    assert cobertura["exercicio"] == 2025 and cobertura["completa"] is False
    assert cobertura["ultima"] == "2025-03-19" and cobertura["meses_sem_cotacao"][0] == "2025-04"
    assert any(
        a.startswith(
            "as cotações não cobrem todo o exercício de 2025 (sem cotações em 04/2025, 05/2025"
        )
        for a in r["avisos"]
    )
    completo = _multa(ano_meta=2021, meta_cbios=10, cotacoes_diarias=_cotacoes(2021))
    assert completo["cotacoes_cobertura"]["completa"] is True
    assert not any("não cobrem" in a for a in completo["avisos"])


def test_a_fonte_das_cotacoes_vai_ao_resultado() -> None:
    r = _multa(
        ano_meta=2021,
        meta_cbios=10,
        cotacoes_diarias=_cotacoes(2021),
        fonte_cotacoes="B3, resumo diário",
    )
    assert (r["preco_fonte"], r["preco_mes"]) == ("B3, resumo diário", "2021-12")
    assert _multa(ano_meta=2021, meta_cbios=10, cotacoes_diarias=_cotacoes(2021))[
        "preco_fonte"
    ] == ("cotações informadas na entrada")
    with pytest.raises(EntradaInvalida) as erro:
        _multa(maior_media_mensal="10", fonte_cotacoes="x" * 501)
    assert erro.value.campo == "fonte_cotacoes"


def test_o_exercicio_do_preco_de_uma_meta_com_prazo_no_ano_seguinte() -> None:
    # the 2022 target's deadline fell in 2023 (30/09/2023)
    cotacoes = _cotacoes(2022) + _cotacoes(2023)
    r = _multa(ano_meta=2022, meta_cbios=1000, cotacoes_diarias=cotacoes)
    assert r["cotacoes_cobertura"]["exercicio"] == 2022 and r["preco_mes"] == "2022-07"
    outra = [a for a in r["alternativas"] if "ano_do_preco" in a["interpretacao"]]
    assert outra and outra[0]["interpretacao"] == {"ano_do_preco": "prazo"}
    r2 = _multa(
        ano_meta=2022,
        meta_cbios=1000,
        cotacoes_diarias=cotacoes,
        interpretacao={"ano_do_preco": "prazo"},
    )
    assert r2["cotacoes_cobertura"]["exercicio"] == 2023 and r2["valor"] == outra[0]["valor"]
    assert "A ANP não publicou qual exercício" in " ".join(p["descricao"] for p in r2["passos"])
    # a target whose deadline is in its own year never consults the reading
    assert not any(
        "ano_do_preco" in a["interpretacao"]
        for a in _multa(ano_meta=2024, cotacoes_diarias=_cotacoes(2024))["alternativas"]
    )


def test_um_ano_sem_meta_propria_nao_e_multado_por_padrao() -> None:
    r = _multa(ano_meta=2021, meta_cbios=5000, falta_anterior=5000, maior_media_mensal="50")
    assert r["valor"] == "0.00" and r["interpretacao"]["meta_herdada"] == "nao_multa"
    aviso = next(a for a in r["avisos"] if "não tem meta própria" in a)
    assert (
        "tal regra pressupõe que o agente tenha meta no ano a ser somada ao saldo devedor do ano anterior"
        in aviso
    )
    assert "Despacho ANP nº 374/2022" in aviso
    assert r["alternativas"] == [{"interpretacao": {"meta_herdada": "multa"}, "valor": "250000.00"}]
    multa = _multa(
        ano_meta=2021,
        meta_cbios=5000,
        falta_anterior=5000,
        maior_media_mensal="50",
        interpretacao={"meta_herdada": "multa"},
    )
    assert multa["valor"] == "250000.00"
    # with a target of its own, the carried part changes nothing and the reading is not consulted
    propria = _multa(ano_meta=2021, meta_cbios=5000, falta_anterior=4999, maior_media_mensal="50")
    assert propria["valor"] == "250000.00" and propria["alternativas"] == []
    with pytest.raises(EntradaInvalida) as erro:
        _multa(meta_cbios=10, falta_anterior=11, maior_media_mensal="50")
    assert erro.value.campo == "falta_anterior"


def test_a_funcao_do_preco_escolhe_o_mes_e_guarda_a_outra_leitura() -> None:
    cotacoes = [
        Cotacao(date(2024, 1, 2), Fraction(10), 1, None),
        Cotacao(date(2024, 1, 3), Fraction(20), 3, None),
    ]
    with pytest.raises(EntradaInvalida):
        preco_do_exercicio(2024, diarias=cotacoes, metodo="ponderada")
    com_volume = [
        Cotacao(date(2024, 1, 2), Fraction(10), 1, Decimal(10)),
        Cotacao(date(2024, 1, 3), Fraction(20), 3, Decimal(60)),
        Cotacao(date(2024, 2, 1), Fraction(16), 1, Decimal(16)),
    ]
    preco = preco_do_exercicio(2024, diarias=com_volume)
    assert (preco.metodo, preco.mes, preco.valor) == ("ponderada", "2024-01", Fraction(70, 4))
    assert preco.outra is not None and (preco.outra.mes, preco.outra.valor) == ("2024-02", 16)
    assert exato(preco.valor) == "17.5"


def test_o_padrao_da_media_olha_o_exercicio_que_da_o_preco() -> None:
    """``media_mensal``'s default reads the quotes of the exercise that prices the fine
    (regimes/cbio.exercicio_do_caso): under ``ano_do_preco = prazo`` that of the deadline, the
    one given, else the shipped table's (2022's target: 2023)."""
    cotacoes = _cotacoes(2022) + _cotacoes(2023, volumes=False)
    meta = _multa(ano_meta=2022, cotacoes_diarias=cotacoes)
    assert meta["interpretacao"]["media_mensal"] == "ponderada"
    tabela = _multa(
        ano_meta=2022, cotacoes_diarias=cotacoes, interpretacao={"ano_do_preco": "prazo"}
    )
    assert tabela["interpretacao"]["media_mensal"] == "simples"
    informado = _multa(
        ano_meta=2022,
        prazo_comprovacao="2022-12-31",
        cotacoes_diarias=cotacoes,
        interpretacao={"ano_do_preco": "prazo"},
    )
    assert informado["interpretacao"]["media_mensal"] == "ponderada"


def test_media_simples_escolhida_com_todos_os_volumes_nao_avisa_falta_de_volume() -> None:
    r = _multa(
        ano_meta=2021, cotacoes_diarias=_cotacoes(2021), interpretacao={"media_mensal": "simples"}
    )
    assert r["preco_metodo"] == "simples"
    assert not any("não trazem quantidade" in a for a in r["avisos"])
    sem = _multa(ano_meta=2021, cotacoes_diarias=_cotacoes(2021, volumes=False))
    (aviso,) = [a for a in sem["avisos"] if "não trazem quantidade" in a]
    n = len(_cotacoes(2021))
    assert aviso.startswith(f"{n} de {n} cotações do exercício de 2021")


@given(
    st.integers(min_value=-(10**30), max_value=10**30),
    st.integers(min_value=0, max_value=40),
    st.integers(min_value=0, max_value=40),
    st.sampled_from([1, 3, 7]),
)
def test_exato_escreve_o_numero_sem_perder_nada(n: int, a: int, b: int, outro: int) -> None:
    """A terminating fraction is written as its decimal, one that does not as ``p/q``: read
    back, it is the same number."""
    valor = Fraction(n, 2**a * 5**b * outro)
    texto = exato(valor)
    resto = valor.denominator
    for primo in (2, 5):
        while resto % primo == 0:
            resto //= primo
    if resto != 1:  # does not terminate
        p, q = texto.split("/")
        assert Fraction(int(p), int(q)) == valor
    else:
        assert "/" not in texto and Fraction(Decimal(texto)) == valor
        # the fewest places: no trailing zero after the point
        assert "." not in texto or not texto.endswith(("0", "."))
