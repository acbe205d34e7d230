"""Issue 20, item 10: the exposure simulation in the page (``/exposicao``), without JavaScript.
Every figure is checked against :mod:`multas.nucleo.exposicao` run here on the same inputs (the CLI's
own functions), never against numbers written in the test; the page says that it is a
simulation, shows its seed and the chart, gives the same result for the same seed, and writes
counts with thousands separators. Hostile input is a pt-BR message naming the field."""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from multas.nucleo import exposicao as exp
from multas.nucleo.dinheiro import formatar_brl, formatar_numero
from multas.servidor import criar_app
from tests.utils.paginas import erros_da_pagina, todos_os_erros

DISTRIBUIDOR = {
    "ano_meta": "2025",
    "meta_cbios": "1000000",
    "cbios_aposentados": "400000",
    "faturamento_ano_meta": "900000000.00",
    "faturamento_ano_anterior": "800000000.00",
}
CAMPOS_DA_SIMULACAO = [
    "historico",
    "modelo",
    "preco_inicial",
    "tendencia",
    "volatilidade",
    "cenarios",
]
CAMPOS_DA_SIMULACAO += ["semente", "preco_atual", "preco_recompra"]
HISTORICO = "2024-01 85,10\n2024-02 90,05\n2024-03 101,20\n2024-04 96,7\n"


# not the shared cliente: one app for the whole module, its many requests pay the start-up once
@pytest.fixture(scope="module")
def cliente(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    banco = tmp_path_factory.mktemp("exposicao") / "multas.db"
    with TestClient(criar_app(f"sqlite:///{banco}"), raise_server_exceptions=False) as c:
        yield c


def texto(pagina: str, id_: str) -> str:
    achado = re.search(rf'id="{re.escape(id_)}"[^>]*>(.*?)</(?:td|strong|p|ul)>', pagina, re.S)
    assert achado, f"#{id_} não está na página"
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", achado.group(1))).split())


def simular(cliente: TestClient, **campos: str) -> Any:
    return cliente.post("/exposicao", data={**DISTRIBUIDOR, "historico": HISTORICO} | campos)


def esperado(cenarios: int, semente: int, **leitura: str) -> dict[str, Any]:
    """The simulation as ``multas exposicao`` runs it (its core functions)."""
    serie = [Decimal("85.10"), Decimal("90.05"), Decimal("101.20"), Decimal("96.7")]
    tabela = exp.carteira([DISTRIBUIDOR])
    totais = exp.simular(tabela, exp.cenarios_historicos(serie, cenarios, semente), leitura)
    return exp.resumir(totais, exp.faltantes(tabela, leitura), serie[-1])


def test_a_pagina_esta_na_navegacao(cliente: TestClient) -> None:
    assert 'href="/exposicao"' in cliente.get("/").text
    pagina = cliente.get("/exposicao")
    assert pagina.status_code == 200
    assert "simulação" in pagina.text and 'name="semente"' in pagina.text


def test_os_valores_sao_os_do_nucleo_com_milhares_e_semente(cliente: TestClient) -> None:
    resposta = simular(cliente, cenarios="12.000", semente="7")
    assert resposta.status_code == 200, resposta.text
    pagina = resposta.text
    resumo = esperado(12_000, 7, faturamento="media")
    assert texto(pagina, "exposicao-cenarios") == "12.000"
    assert texto(pagina, "exposicao-semente") == "7"
    for id_, chave in [
        ("exposicao-p50", "p50"),
        ("exposicao-p90", "p90"),
        ("exposicao-p99", "p99"),
        ("exposicao-esperada", "multa_esperada"),
        ("exposicao-comprar-agora", "custo_comprar_agora"),
        ("exposicao-nao-cumprir", "custo_nao_cumprir"),
    ]:
        assert texto(pagina, id_) == formatar_brl(resumo[chave]), id_
    assert texto(pagina, "exposicao-faltantes") == formatar_numero(resumo["cbios_faltantes"])
    assert texto(pagina, "exposicao-veredito") == exp.veredito(resumo)
    aviso = re.search(r'id="aviso-simulacao">(.*?)</p>', pagina, re.S)
    assert aviso and "não é uma previsão" in html.unescape(aviso.group(1))
    grafico = re.search(r'id="exposicao-grafico" src="data:image/png;base64,([^"]+)"', pagina)
    assert grafico and base64.b64decode(grafico.group(1)).startswith(b"\x89PNG")
    assert resumo["alem_da_multa"][0] in html.unescape(pagina)


def test_a_mesma_semente_da_o_mesmo_resultado_e_outra_semente_outro(cliente: TestClient) -> None:
    # no revenue, so no ceiling: the fine follows the price, and the seed matters
    pequeno = {"meta_cbios": "2000", "cbios_aposentados": "0", "faturamento_ano_meta": ""}
    pequeno |= {"faturamento_ano_anterior": "", "cenarios": "500"}

    def valores(semente: str) -> list[str]:
        pagina = simular(cliente, semente=semente, **pequeno).text
        return [texto(pagina, f"exposicao-{i}") for i in ("p50", "p90", "p99", "esperada")]

    assert valores("3") == valores("3")
    assert valores("3") != valores("4")


def test_lognormal_e_leitura_escolhida(cliente: TestClient) -> None:
    campos = {
        "modelo": "lognormal",
        "preco_inicial": "80,00",
        "tendencia": "0,05",
        "volatilidade": "0,35",
        "cenarios": "300",
        "semente": "1",
        "interpretacao.faturamento": "menor",
    }
    pagina = simular(cliente, **campos).text
    tabela = exp.carteira([DISTRIBUIDOR])
    leitura = {"faturamento": "menor"}
    cenarios = exp.cenarios_lognormais(Decimal("80.00"), 0.05, 0.35, 300, 1)
    resumo = exp.resumir(
        exp.simular(tabela, cenarios, leitura), exp.faltantes(tabela, leitura), Decimal("80.00")
    )
    assert texto(pagina, "exposicao-p90") == formatar_brl(resumo["p90"])
    assert texto(pagina, "exposicao-esperada") == formatar_brl(resumo["multa_esperada"])


@pytest.mark.parametrize(
    ("campos", "campo", "trecho"),
    [
        ({"meta_cbios": "muitos"}, "meta_cbios", "Meta individual"),
        ({"cbios_aposentados": ""}, "cbios_aposentados", "obrigatório"),
        ({"historico": ""}, "historico", "ao menos uma média"),
        ({"historico": "2024-01 85,10\n2024-02 abc"}, "historico", "linha 2"),
        ({"cenarios": "100001"}, "cenarios", "de 1 a 100.000"),
        ({"cenarios": "0"}, "cenarios", "de 1 a 100.000"),
        ({"cenarios": "1.5"}, "cenarios", "inteiro"),
        ({"semente": "-1"}, "semente", "inteiro"),
        ({"semente": "9" * 31}, "semente", "inteiro"),
        ({"modelo": "lognormal"}, "preco_inicial", "preço do CBIO hoje"),
        ({"modelo": "lognormal", "preco_inicial": "80"}, "volatilidade", "volatilidade"),
        (
            {"modelo": "lognormal", "preco_inicial": "80", "volatilidade": "inf"},
            "volatilidade",
            "0,35 ou 0.35",
        ),
        (
            {
                "modelo": "lognormal",
                "preco_inicial": "80",
                "volatilidade": "0,3",
                "tendencia": "900",
            },
            "volatilidade",
            "acima de",
        ),
        ({"modelo": "outro"}, "modelo", "histórico ou lognormal"),
        ({"preco_atual": "=1+1"}, "preco_atual", "Preço para comprar agora"),
        ({"interpretacao.faturamento": "qualquer"}, "interpretacao.faturamento", "faturamento"),
    ],
)
def test_entrada_ruim_e_mensagem_no_campo(
    cliente: TestClient, campos: dict[str, str], campo: str, trecho: str
) -> None:
    resposta = simular(cliente, **campos)
    assert resposta.status_code == 422, resposta.text[:300]
    pagina = html.unescape(resposta.text)
    assert "A simulação não foi feita" in pagina and trecho in pagina
    assert "Traceback" not in pagina


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.dictionaries(
        st.sampled_from([*DISTRIBUIDOR, *CAMPOS_DA_SIMULACAO]),
        st.text(max_size=40),
    )
)
def test_qualquer_formulario_e_pagina_nunca_500(
    cliente: TestClient, campos: dict[str, str]
) -> None:
    resposta = simular(cliente, **({"cenarios": "50"} | campos))
    assert resposta.status_code in (200, 422), resposta.text[:300]


def test_formulario_reaparece_com_os_valores(cliente: TestClient, tmp_path: Path) -> None:
    pagina = simular(cliente, meta_cbios="abc", semente="12").text
    assert 'name="meta_cbios" value="abc"' in pagina and 'name="semente" value="12"' in pagina
    assert 'aria-invalid="true"' in pagina


# --- found by the hostile review of 02/12/2026 ---------------------------------------------------


@pytest.mark.parametrize(
    ("campos", "campo", "trecho"),
    [
        # a price whose exact mantissa would not fit the kernel's integers: was a 500
        ({"historico": "9999999999999,999999"}, "historico", "menor que 1.000.000.000"),
        ({"historico": "999999999999999\n0,000001"}, "historico", "menor que 1.000.000.000"),
        ({"preco_recompra": "999999999999999"}, "preco_recompra", "menor que 1.000.000.000"),
        ({"preco_atual": "1000000000"}, "preco_atual", "menor que 1.000.000.000"),
        # a pasted row of a spreadsheet: never three values dropped without a word
        ({"historico": "85,10\t90,05\t101,20\t96,7"}, "historico", "linha 1"),
        ({"historico": "85,10;90,05"}, "historico", "linha 1"),
        ({"historico": "2024-01 85,10\nabc def 85,10"}, "historico", "linha 2"),
        # a rate is never read with thousands
        (
            {"modelo": "lognormal", "preco_inicial": "80", "volatilidade": "1.234,5"},
            "volatilidade",
            "0,35 ou 0.35",
        ),
        ({"semente": "-1"}, "semente", "não pode ser negativo"),
        ({"semente": "9" * 31}, "semente", "no máximo 30 algarismos"),
    ],
)
def test_defeitos_da_revisao_hostil(
    cliente: TestClient, campos: dict[str, str], campo: str, trecho: str
) -> None:
    resposta = simular(cliente, **campos)
    assert resposta.status_code == 422, resposta.text[:300]
    assert trecho in html.unescape(resposta.text)


def test_taxa_com_ponto_e_decimal_nunca_milhar(cliente: TestClient) -> None:
    campos = {"modelo": "lognormal", "preco_inicial": "80", "cenarios": "200", "semente": "2"}
    com_ponto = simular(cliente, **campos, volatilidade="0.350").text
    com_virgula = simular(cliente, **campos, volatilidade="0,35").text
    assert texto(com_ponto, "exposicao-p90") == texto(com_virgula, "exposicao-p90")
    assert "volatilidade 0,35 ao ano" in html.unescape(com_ponto)


def test_a_pagina_diz_quantos_meses_leu_e_o_preco_com_quatro_casas(cliente: TestClient) -> None:
    pagina = html.unescape(simular(cliente, preco_recompra="123,456789", cenarios="50").text)
    assert "4 médias mensais do histórico" in pagina
    assert "a R$ 123,4568 por CBIO" in pagina  # a price for people: 4 places, half up


def test_grafico_de_totais_enormes_e_quase_iguais_nao_quebra(tmp_path: Path) -> None:
    """NumPy refused 'too many bins' for huge, nearly equal totals (a 500 on the page)."""
    totais = np.array([10**17, 10**17 + 1, 10**17 + 2], dtype=np.int64)
    resumo = exp.resumir(totais, 10**6, Decimal("999999999.99"))
    exp.grafico(totais, resumo, tmp_path / "g.png")
    assert (tmp_path / "g.png").read_bytes().startswith(b"\x89PNG")


def test_o_formulario_fala_portugues_tendencia_semente_lognormal(cliente: TestClient) -> None:
    """Issue 37 item 14: the form showed "drift", "seed" and "Lognormal"; the page's fields are
    tendencia and semente, and the model is "lognormal", lower-case, as pt-BR writes it."""
    import re

    pagina = cliente.get("/exposicao").text
    visivel = re.sub(r"<[^>]+>", " ", pagina.split("<main", 1)[1])
    for ingles in ("drift", "seed", "Lognormal"):
        assert ingles not in visivel, ingles
    assert 'name="tendencia"' in pagina and 'name="semente"' in pagina
    assert "Tendência anual" in pagina and "Modelo lognormal" in pagina
    erro = simular(
        cliente, modelo="lognormal", preco_inicial="80", volatilidade="0,3", tendencia="abc"
    )
    assert erro.status_code == 422 and 'id="erro-tendencia"' in erro.text


def test_cada_erro_ao_lado_do_seu_campo_todos_de_uma_vez(cliente: TestClient) -> None:
    """Issue 37 item 9: the form stopped at its first error; now every field in error shows
    its message beside it, all of them in the summary (the first the one given before), and
    what was typed stays."""
    resposta = simular(
        cliente,
        meta_cbios="muitos",
        historico="2024-01 abc",
        cenarios="0",
        semente="-3",
    )
    assert resposta.status_code == 422
    pagina = html.unescape(resposta.text)
    assert texto(pagina, "erro-meta_cbios").startswith("Erro:")
    assert "linha 1" in texto(pagina, "erro-historico")
    assert "de 1 a 100.000" in texto(pagina, "erro-cenarios")
    assert "não pode ser negativo" in texto(pagina, "erro-semente")
    campos = ["meta_cbios", "historico", "cenarios", "semente"]
    todos_os_erros(resposta.text, "A simulação não foi feita: 4 erros", campos)
    assert 'value="muitos"' in pagina and 'value="-3"' in pagina


def test_lognormal_sem_os_dois_precos_diz_os_dois(cliente: TestClient) -> None:
    resposta = simular(cliente, modelo="lognormal", tendencia="x")
    pagina = html.unescape(resposta.text)
    assert resposta.status_code == 422
    for campo in ("preco_inicial", "volatilidade", "tendencia"):
        assert f'id="erro-{campo}"' in pagina, campo
    # the first is still the one the form gave alone
    assert "preço do CBIO hoje" in erros_da_pagina(resposta.text).resumo[0]
