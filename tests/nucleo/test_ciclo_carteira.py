"""The distributor's ledger: the carry-over into the next year's target, the 85% / 15% deferral
and each year's fine, with the counts written beside each figure."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from multas import calcular
from multas.nucleo.ciclo.carteira import calcular_carteira, ler_ano, ler_anos
from multas.nucleo.contrato import Leitura
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.legislacao import ler_textos
from tests.utils.legislacao import PARAMETROS

CNPJ = "12.345.678/0001-95"


def ano(ano_: int, meta: int, aposentados: int, **extra: Any) -> dict[str, Any]:
    return {
        "cnpj": CNPJ,
        "ano": ano_,
        "meta_cbios": meta,
        "cbios_aposentados": aposentados,
        **extra,
    }


def carteira(*anos: dict[str, Any]) -> dict[str, Any]:
    return calcular_carteira(ler_anos(list(anos)))


def test_falta_vai_para_a_meta_do_ano_seguinte_com_diferimento_e_multa() -> None:
    r = carteira(
        ano(2023, 1000, 1000, nome="Distribuidora A"),
        ano(2024, 1000, 900, maior_media_mensal="80"),
        ano(2025, 2000, 1500, maior_media_mensal="100", data_quitacao="2026-03-10"),
        ano(2026, 2000, 2600),
    )
    assert r["cnpj"] == CNPJ and r["nome"] == "Distribuidora A"
    a23, a24, a25, a26 = r["anos"]
    # 2023: 1 000 of 1 000: met in full
    assert (a23["deficit"], a23["multa"], a23["acrescimo_proximo_ano"]) == (0, "0.00", 0)
    # 2024: 900 of 1 000 = 90% ≥ 85%, and 2023 was met in full: the 100 missing are deferred,
    # not fined, and join 2025's target
    assert a24["percentual_cumprido"] == "90.00"
    assert (a24["deficit"], a24["cbios_diferidos"], a24["cbios_multados"]) == (100, 100, 0)
    assert a24["multa"] == "0.00" and a24["acrescimo_proximo_ano"] == 100
    assert (
        "Lei nº 13.576/2017, art. 7º (data não conferida; texto não transcrito)"
        in a24["fundamentos"]
    )
    # 2025: 2 000 + 100 = 2 100; 1 500 retired (71,43%): 600 missing, more than 15%: fined
    assert (a25["acrescimo_ano_anterior"], a25["meta_total"]) == (100, 2100)
    assert a25["percentual_cumprido"] == "71.43"  # 1 500 / 2 100 = 71,428…%
    assert (a25["deficit"], a25["cbios_diferidos"], a25["cbios_multados"]) == (600, 0, 600)
    # 600 × R$ 100 = R$ 60.000 < R$ 100.000: the floor; the quitação cannot go below it
    assert a25["multa"] == "100000.00"
    assert a25["acrescimo_proximo_ano"] == 600  # whether or not the fine is paid
    assert "Resolução ANP nº 791/2019, art. 10, § 1º (texto não transcrito)" in a25["fundamentos"]
    # 2026: 2 000 + 600 = 2 600, all retired (the 600 of 2025 among them)
    assert (a26["acrescimo_ano_anterior"], a26["meta_total"], a26["deficit"]) == (600, 2600, 0)
    assert r["total_multas"] == "100000.00"


def test_multa_do_ano_e_a_do_regime_com_a_reducao_de_1_12() -> None:
    r = carteira(
        ano(
            2025,
            1_000_000,
            400_000,
            maior_media_mensal="71.70",
            faturamento_ano_meta="900000000.00",
            faturamento_ano_anterior="800000000.00",
            data_quitacao="2026-03-15",
        )
    )
    esperado = calcular(
        {
            "regime": "renovabio.distribuidor",
            "ano_meta": 2025,
            "meta_cbios": 1_000_000,
            "cbios_aposentados": 400_000,
            "maior_media_mensal": "71.70",
            "faturamento_ano_meta": "900000000.00",
            "faturamento_ano_anterior": "800000000.00",
            "data_quitacao": "2026-03-15",
        }
    )
    # 600 000 × 71,70 = 43 020 000; 5% of the mean revenue (850 M) = 42 500 000; quitação
    # 15/03/2026: 3 months (31/12 → 31/03) → 42 500 000 × 3/12 = 10 625 000
    assert r["anos"][0]["multa"] == esperado["valor"] == "10625000.00"
    assert r["anos"][0]["prazo_comprovacao"] == "2025-12-31"
    assert r["anos"][0]["data_quitacao"] == "2026-03-15"


def test_diferimento_nao_se_usa_dois_anos_seguidos() -> None:
    r = carteira(
        ano(2023, 1000, 1000),
        ano(2024, 1000, 900, maior_media_mensal="80"),  # deferred: 100
        ano(2025, 1000, 990, maior_media_mensal="80"),  # 990 of 1 100 = 90%: but 2024 not met
    )
    a25 = r["anos"][2]
    assert a25["meta_total"] == 1100 and a25["deficit"] == 110
    assert a25["cbios_diferidos"] == 0 and a25["cbios_multados"] == 110
    assert a25["multa"] == "100000.00"  # 110 × 80 = 8 800 < floor
    assert any("não foi cumprida integralmente" in aviso for aviso in a25["avisos"])


@pytest.mark.parametrize(
    ("aposentados", "diferido"),
    [
        (850, 150),  # exactly 85% retired, 15% missing: deferred
        (849, 0),  # 84,9%: 151 missing > 150: fined
        (999, 1),
    ],
)
def test_limite_dos_85_por_cento(aposentados: int, diferido: int) -> None:
    r = carteira(ano(2023, 1000, 1000), ano(2024, 1000, aposentados, maior_media_mensal="80"))
    assert r["anos"][1]["cbios_diferidos"] == diferido
    assert r["anos"][1]["acrescimo_proximo_ano"] == 1000 - aposentados


def test_falta_acima_dos_15_por_cento_avisa_que_nao_ha_diferimento() -> None:
    r = carteira(ano(2023, 1000, 1000), ano(2024, 1000, 849, maior_media_mensal="80"))
    avisos = " ".join(r["anos"][1]["avisos"])
    assert "151 CBIOs passa dos 15%" in avisos and "sem diferimento" in avisos
    dentro = carteira(ano(2023, 1000, 1000), ano(2024, 1000, 850, maior_media_mensal="80"))
    assert "passa dos" not in " ".join(dentro["anos"][1]["avisos"])


def test_diferir_falso_multa_mesmo_cabendo() -> None:
    r = carteira(
        ano(2023, 1000, 1000), ano(2024, 1000, 900, maior_media_mensal="80", diferir=False)
    )
    assert r["anos"][1]["cbios_diferidos"] == 0 and r["anos"][1]["multa"] == "100000.00"


def test_primeiro_ano_da_carteira_precisa_saber_do_ano_anterior() -> None:
    sem = carteira(ano(2024, 1000, 900, maior_media_mensal="80"))
    assert sem["anos"][0]["cbios_diferidos"] == 0
    assert any("meta_anterior_cumprida" in aviso for aviso in sem["anos"][0]["avisos"])
    com = carteira(ano(2024, 1000, 900, maior_media_mensal="80", meta_anterior_cumprida=True))
    assert com["anos"][0]["cbios_diferidos"] == 100 and com["anos"][0]["multa"] == "0.00"
    nao = carteira(ano(2024, 1000, 900, maior_media_mensal="80", meta_anterior_cumprida=False))
    assert nao["anos"][0]["cbios_multados"] == 100


def test_ano_faltando_quebra_a_cadeia_com_aviso() -> None:
    r = carteira(ano(2022, 1000, 500, maior_media_mensal="80"), ano(2024, 1000, 1000))
    assert r["anos"][1]["acrescimo_ano_anterior"] == 0
    assert any("Falta na carteira o ano 2023" in aviso for aviso in r["anos"][1]["avisos"])


def test_sem_preco_a_multa_fica_nula_e_o_total_tambem() -> None:
    r = carteira(ano(2025, 1000, 100))
    assert r["anos"][0]["multa"] is None and r["total_multas"] is None
    assert any("maior_media_mensal" in aviso for aviso in r["anos"][0]["avisos"])


def test_anos_fora_de_ordem_sao_ordenados() -> None:
    r = carteira(ano(2025, 1000, 1000), ano(2024, 1000, 900, maior_media_mensal="80"))
    assert [a["ano"] for a in r["anos"]] == [2024, 2025]
    assert r["anos"][1]["meta_total"] == 1100


@pytest.mark.parametrize(
    ("linhas", "campo", "onde"),
    [
        ([ano(2024, 10, 10), ano(2024, 10, 10)], "ano", ""),
        ([ano(2024, 10, 10), {**ano(2025, 10, 10), "cnpj": "outro"}], "cnpj", ""),
        # a row's error: the field, and the row's place in the list (1-based)
        ([{**ano(2024, 10, 10), "cnpj": 12345678000195}], "cnpj", "item 1, campo cnpj: "),
        ([{**ano(2024, 10, 10), "regime": "x"}], "regime", "item 1, campo regime: "),
        ([{**ano(2024, 10, 10), "meta_cbios": "1.5"}], "meta_cbios", "item 1, campo meta_cbios: "),
        (
            [ano(2024, 10, 10), {**ano(2025, 10, 10), "cbios_aposentados": -1}],
            "cbios_aposentados",
            "item 2, campo cbios_aposentados: ",
        ),
        (
            [{**ano(2024, 10, 10), "faturamento_ano_meta": "10.00"}],
            "faturamento_ano_anterior",
            "item 1, campo faturamento_ano_anterior: ",
        ),
        (
            [{**ano(2024, 10, 10), "data_quitacao": "2024-02-30"}],
            "data_quitacao",
            "item 1, campo data_quitacao: ",
        ),
        (
            [{"cnpj": CNPJ, "ano": 2024, "meta_cbios": 10}],
            "cbios_aposentados",
            "item 1, campo cbios_aposentados: ",
        ),
        # a year's fine that does not compute: the field and the year
        (
            [ano(2025, 10, 1, maior_media_mensal="80", data_quitacao="2025-06-01")],
            "data_quitacao",
            "ano 2025: ",
        ),
        ([ano(2019, 10, 1, maior_media_mensal="80")], "prazo_comprovacao", "ano 2019: "),
    ],
)
def test_erros_nomeiam_o_ano_e_o_campo(linhas: list[dict[str, Any]], campo: str, onde: str) -> None:
    with pytest.raises(EntradaInvalida) as info:
        calcular_carteira(ler_anos(linhas))
    assert info.value.campo == campo
    assert info.value.mensagem.startswith(onde), info.value.mensagem


def test_linha_de_planilha_com_notacao_brasileira() -> None:
    linha = {
        "cnpj": CNPJ,
        "ano": "2025",
        "meta_cbios": "1000",
        "cbios_aposentados": "900",
        "maior_media_mensal": "71,70",
        "diferir": "não",
        "nome": "",
    }
    lido = ler_ano(linha, Leitura(tabela=True, decimal_virgula=True))
    assert lido.maior_media_mensal is not None and f"{lido.maior_media_mensal}" == "71.70"
    assert lido.diferir is False and lido.nome is None


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 5000), st.integers(0, 6000), st.booleans()),
        min_size=1,
        max_size=6,
    ),
    st.booleans(),
)
def test_a_cadeia_da_carteira_fecha(
    anos: list[tuple[int, int, bool]], anterior_cumprida: bool
) -> None:
    linhas = [
        ano(2025 + i, meta, aposentados, maior_media_mensal="80", diferir=diferir)
        for i, (meta, aposentados, diferir) in enumerate(anos)
    ]
    linhas[0]["meta_anterior_cumprida"] = anterior_cumprida
    r = carteira(*linhas)
    acrescimo = 0
    for linha, (meta, aposentados, diferir) in zip(r["anos"], anos, strict=True):
        assert linha["acrescimo_ano_anterior"] == acrescimo
        assert linha["meta_total"] == meta + acrescimo
        assert linha["deficit"] == max(0, meta + acrescimo - aposentados)
        # a year with no target of its own (meta 0, a carry-over) is not fined: meta_herdada
        nao_multados = linha["cbios_sem_meta_propria"]
        assert nao_multados == (linha["deficit"] if meta == 0 < acrescimo else 0)
        assert linha["cbios_diferidos"] + linha["cbios_multados"] + nao_multados == linha["deficit"]
        assert linha["cbios_diferidos"] * 100 <= 15 * linha["meta_total"]
        if not diferir:
            assert linha["cbios_diferidos"] == 0
        assert (linha["multa"] == "0.00") == (linha["cbios_multados"] == 0)
        acrescimo = linha["acrescimo_proximo_ano"]
        assert acrescimo == linha["deficit"]
    # never deferred two years in a row
    for a, b in zip(r["anos"], r["anos"][1:], strict=False):
        assert not (a["cbios_diferidos"] and b["cbios_diferidos"])


def _diferimento_nao_comprovado(leitura: str | None) -> dict[str, Any]:
    """2024: 100.000 de meta, 86.000 aposentados → 14.000 diferidos (14%); 2025: a meta de
    100.000 + 14.000, 104.000 aposentados → faltam 10.000, todos diferidos de 2024."""
    interpretacao = None if leitura is None else {"preco_diferido": leitura}
    return calcular_carteira(
        ler_anos(
            [
                ano(2023, 1000, 1000),
                ano(2024, 100_000, 86_000, maior_media_mensal="80"),
                ano(2025, 100_000, 104_000, maior_media_mensal="100"),
            ]
        ),
        interpretacao=interpretacao,
    )


def test_diferidos_nao_comprovados_sao_multados_no_ano_seguinte_por_padrao() -> None:
    r = _diferimento_nao_comprovado(None)
    assert r["interpretacao"]["preco_diferido"] == "ano_seguinte"
    a2024, a2025 = r["anos"][1], r["anos"][2]
    assert (a2024["cbios_diferidos"], a2024["multa"]) == (14_000, "0.00")
    assert a2025["cbios_diferidos_nao_comprovados"] == 10_000
    assert a2025["multa"] == "1000000.00"  # 10.000 × R$ 100 (o preço de 2025)
    aviso = a2025["avisos"][-1]
    assert "10000 dos CBIOs não comprovados em 2025 são os diferidos de 2024" in aviso
    # the other reading: 10.000 × R$ 80 in 2024 = 800.000,00 → difference −200.000,00
    assert "R$ 800.000,00 na outra leitura, contra R$ 1.000.000,00 nesta" in aviso
    assert r["total_multas"] == "1000000.00"


def test_diferidos_nao_comprovados_na_leitura_do_ano_do_diferimento() -> None:
    r = _diferimento_nao_comprovado("ano_diferimento")
    a2024, a2025 = r["anos"][1], r["anos"][2]
    assert (a2024["cbios_multados"], a2024["multa"]) == (10_000, "800000.00")
    assert (a2025["cbios_multados"], a2025["multa"]) == (0, "0.00")
    assert r["total_multas"] == "800000.00"
    assert "R$ 1.000.000,00 na outra leitura, contra R$ 800.000,00 nesta" in a2025["avisos"][-1]


def test_diferimento_excedente_parcial() -> None:
    anos = ler_anos([ano(2023, 1000, 1000), ano(2024, 100_000, 80_000, maior_media_mensal="80")])
    nenhum = calcular_carteira(anos)["anos"][1]
    assert (nenhum["cbios_diferidos"], nenhum["multa"]) == (0, "1600000.00")  # 20.000 × 80
    parcial = calcular_carteira(anos, interpretacao={"diferimento_excedente": "parcial"})["anos"][1]
    # 15% de 100.000 = 15.000 diferidos; 5.000 multados × 80 = 400.000,00
    assert (parcial["cbios_diferidos"], parcial["cbios_multados"]) == (15_000, 5_000)
    assert parcial["multa"] == "400000.00"
    assert parcial["acrescimo_proximo_ano"] == 20_000  # the whole shortfall still carries over
    assert any(
        "Falta acima do limite do diferimento: difere-se até o limite" in a
        for a in parcial["avisos"]
    )


@pytest.mark.parametrize(
    ("interpretacao", "campo"),
    [
        ({"preco": "x"}, "interpretacao.preco"),
        ({"preco_diferido": "antes"}, "interpretacao.preco_diferido"),
        ({"diferimento_excedente": "tudo"}, "interpretacao.diferimento_excedente"),
    ],
)
def test_leituras_da_carteira_invalidas(interpretacao: dict[str, str], campo: str) -> None:
    with pytest.raises(EntradaInvalida) as info:
        calcular_carteira(ler_anos([ano(2024, 10, 10)]), interpretacao=interpretacao)
    assert info.value.campo == campo


def test_leituras_da_carteira_na_api_e_na_cli(tmp_path: Any) -> None:
    from click.testing import CliRunner
    from fastapi.testclient import TestClient

    from multas.principal import cli
    from multas.servidor.aplicacao import criar_app

    url = f"sqlite:///{tmp_path / 'm.db'}"
    with TestClient(criar_app(url)) as cliente:
        for linha in (ano(2023, 1000, 1000), ano(2024, 100_000, 80_000, maior_media_mensal="80")):
            assert cliente.post("/api/v1/carteira", json=linha).status_code in (200, 201)
        base = {"cnpj": CNPJ}
        padrao = cliente.get("/api/v1/carteira/distribuidor", params=base).json()
        assert padrao["anos"][1]["multa"] == "1600000.00"
        parcial = cliente.get(
            "/api/v1/carteira/distribuidor", params=base | {"diferimento_excedente": "parcial"}
        ).json()
        assert parcial["anos"][1]["multa"] == "400000.00"
        r = cliente.get("/api/v1/carteira/distribuidor", params=base | {"preco_diferido": "x"})
        assert r.status_code == 422
        assert r.json()["erro"]["campo"] == "interpretacao.preco_diferido"
    r = CliRunner().invoke(
        cli,
        [
            "carteira",
            "mostrar",
            CNPJ,
            "-i",
            "diferimento_excedente=parcial",
            "-f",
            "json",
            "--banco",
            url,
        ],
    )
    assert r.exit_code == 0, r.output
    assert '"400000.00"' in r.stdout


def test_um_ano_so_com_a_falta_herdada_nao_e_multado_e_a_falta_segue() -> None:
    """meta_herdada (spec § 3.1 v4): a year whose target is only the carried shortfall is not
    fined by default, the shortfall still joins the next year, and the other reading's fine is
    shown beside it."""
    anos = [
        ano(2020, 1000, 0, maior_media_mensal="50"),
        ano(2021, 0, 0, maior_media_mensal="60"),
        ano(2022, 500, 500, maior_media_mensal="70"),
    ]
    a20, a21, a22 = carteira(*anos)["anos"]
    assert a20["multa"] == "100000.00"
    assert (a21["meta_total"], a21["acrescimo_ano_anterior"], a21["multa"]) == (1000, 1000, "0.00")
    assert any("tal regra pressupõe que o agente tenha meta" in a for a in a21["avisos"])
    assert any("a multa de 2021 seria R$ 100.000,00" in a for a in a21["avisos"])
    assert (a22["acrescimo_ano_anterior"], a22["deficit"]) == (1000, 1000)
    multada = calcular_carteira(ler_anos(anos), interpretacao={"meta_herdada": "multa"})
    assert multada["anos"][1]["multa"] == "100000.00"
    assert multada["interpretacao"]["meta_herdada"] == "multa"
    # the published figures: the total and the carry, no target of its own
    publicada = carteira(
        ano(2021, None, 0, meta_publicada=700, falta_anterior=700, maior_media_mensal="60")
    )
    assert publicada["anos"][0]["multa"] == "0.00"


def test_comprovacoes_parciais_so_a_partir_do_decreto_que_as_criou() -> None:
    """Spec § 3.7 W5: the art. 4º-A partial checks (30/06 and 31/12 of the second year) are
    listed only on or after the start of ``ciclo.comprovacoes_parciais`` (17/04/2025): none for
    2024, both for 2025; and the start is the parameter's, not the code's."""
    a24, a25 = carteira(
        ano(2024, 10, 10, segundo_ano_atuacao=True),
        ano(2025, 10, 10, segundo_ano_atuacao=True),
    )["anos"]
    assert a24["comprovacoes_parciais"] is None
    assert a25["comprovacoes_parciais"]["datas"] == ["2025-06-30", "2025-12-31"]
    # a start moved to 01/07/2025 in the data leaves 2025 only its 31/12
    textos = {p.name: p.read_text(encoding="utf-8") for p in PARAMETROS.glob("*.toml")}
    cabecalho = '[["ciclo.comprovacoes_parciais".vigencias]]\ninicio = 2025-04-17'
    assert cabecalho in textos["ciclo.toml"]
    textos["ciclo.toml"] = textos["ciclo.toml"].replace(cabecalho, cabecalho[:-5] + "07-01")
    movida = calcular_carteira(
        ler_anos([ano(2025, 10, 10, segundo_ano_atuacao=True)]), ler_textos(textos)
    )
    assert movida["anos"][0]["comprovacoes_parciais"]["datas"] == ["2025-12-31"]


def test_avisos_com_milhar_nos_cbios() -> None:
    """Issue 37 item 14: the avisos wrote "A falta de 151000 CBIOs"."""
    r = carteira(ano(2023, 10**6, 10**6), ano(2024, 10**6, 849000, maior_media_mensal="80"))
    avisos = " ".join(r["anos"][1]["avisos"])
    assert "A falta de 151.000 CBIOs passa dos 15%" in avisos and "151000" not in avisos
