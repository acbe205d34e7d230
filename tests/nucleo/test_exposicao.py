"""`multas exposicao`: the fine's distribution under CBIO price scenarios, with the same exact
kernel (every scenario's fine equals the engine's), reproducible with a seed."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pytest
from click.testing import CliRunner

from multas import calcular
from multas.nucleo import exposicao as exp
from multas.nucleo.dinheiro import arredondar
from multas.nucleo.erros import EntradaInvalida
from multas.principal import cli

CARTEIRA = [
    {
        "ano_meta": "2025",
        "meta_cbios": "1000000",
        "cbios_aposentados": "400000",
        "faturamento_ano_meta": "900000000.00",
        "faturamento_ano_anterior": "800000000.00",
        "data_quitacao": "2026-03-15",
    },
    {"ano_meta": "2024", "meta_cbios": "2000", "cbios_aposentados": "0"},
    {"ano_meta": "2025", "meta_cbios": "700000", "cbios_aposentados": "0"},
]
LEITURA = {"faturamento": "media"}


def _tabela() -> pa.Table:
    campos = sorted({k for linha in CARTEIRA for k in linha})
    return pa.table(
        {c: pa.array([linha.get(c) for linha in CARTEIRA], pa.string()) for c in campos}
    )


def _multa_do_motor(preco: Decimal) -> int:
    total = 0
    for linha in CARTEIRA:
        caso = {"regime": "renovabio.distribuidor", **linha, "maior_media_mensal": f"{preco:f}"}
        total += int(Decimal(calcular(caso)["valor"]) * 100)
    return total


def test_cada_cenario_lognormal_igual_ao_motor() -> None:
    cenarios = exp.cenarios_lognormais(Decimal("80"), 0.1, 0.6, 150, semente=11)
    totais = exp.simular(_tabela(), cenarios, LEITURA)
    assert len(set(totais.tolist())) > 20  # the scenarios really differ
    for i, total in enumerate(totais.tolist()):
        assert total == _multa_do_motor(cenarios.preco(i))
    assert all(cenarios.preco(i).as_tuple().exponent == -exp.CASAS_PRECO for i in range(150))


def test_cenarios_historicos_sao_maximos_de_12_meses_da_serie() -> None:
    serie = [Decimal("70.10"), Decimal("95.5"), Decimal("88"), Decimal("120.125"), Decimal("30")]
    cenarios = exp.cenarios_historicos(serie, 300, semente=5)
    precos = {cenarios.preco(i) for i in range(300)}
    assert precos <= set(serie)
    assert Decimal("120.125") in precos and Decimal("30") not in precos  # max of 12 draws
    totais = exp.simular(_tabela(), cenarios, LEITURA)
    for i in range(0, 300, 7):
        assert int(totais[i]) == _multa_do_motor(cenarios.preco(i))


def test_mesma_semente_mesmos_cenarios() -> None:
    a = exp.cenarios_lognormais(Decimal("80"), 0.0, 0.3, 50, semente=1)
    b = exp.cenarios_lognormais(Decimal("80"), 0.0, 0.3, 50, semente=1)
    c = exp.cenarios_lognormais(Decimal("80"), 0.0, 0.3, 50, semente=2)
    assert a.mantissa.tolist() == b.mantissa.tolist() != c.mantissa.tolist()


def test_resumo_percentis_media_exata_e_custo_de_comprar_agora() -> None:
    import numpy as np

    totais = np.array([100, 200, 300, 400, 1001], dtype=np.int64)  # centavos
    resumo = exp.resumir(totais, faltando=3, preco_atual=Decimal("0.333"))
    assert (resumo["p50"], resumo["p90"], resumo["p99"]) == ("3.00", "10.01", "10.01")
    assert resumo["multa_esperada"] == str(arredondar(Fraction(2001, 500)))  # 4.002 → 4.00
    assert resumo["custo_comprar_agora"] == "1.00"  # 3 × 0.333 = 0.999
    assert resumo["diferenca_esperada_menos_custo"] == "3.00"


def _cli(*args: Any) -> Any:
    return CliRunner().invoke(cli, ["exposicao", *map(str, args)])


def test_cli_carteira_lognormal_com_grafico(tmp_path: Path) -> None:
    import csv

    carteira, png = tmp_path / "c.csv", tmp_path / "h.png"
    campos = sorted({k for linha in CARTEIRA for k in linha})
    with open(carteira, "w", encoding="utf-8", newline="") as arquivo:
        escritor = csv.DictWriter(arquivo, campos)
        escritor.writeheader()
        escritor.writerows(CARTEIRA)
    args = [
        "--carteira",
        carteira,
        "--lognormal",
        "--preco-inicial",
        "80",
        "--volatilidade",
        "0.5",
        "--drift",
        "0.05",
        "--cenarios",
        "400",
        "--seed",
        "7",
        "-f",
        "json",
    ]
    primeira = _cli(*args, "--grafico", png)
    assert primeira.exit_code == 0, primeira.output
    resumo = json.loads(primeira.stdout)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert _cli(*args).stdout == primeira.stdout  # the seed makes it reproducible
    p50, p90, p99 = (Decimal(resumo[k]) for k in ("p50", "p90", "p99"))
    assert Decimal(resumo["minimo"]) <= p50 <= p90 <= p99 <= Decimal(resumo["maximo"])
    assert resumo["cbios_faltantes"] == 600000 + 2000 + 700000
    assert resumo["custo_comprar_agora"] == "104160000.00"  # 1 302 000 × R$ 80


def test_cli_caso_json_historico_em_texto(tmp_path: Path) -> None:
    caso, historico = tmp_path / "caso.json", tmp_path / "h.csv"
    caso.write_text(
        json.dumps({"regime": "renovabio.distribuidor", **CARTEIRA[2]}), encoding="utf-8"
    )
    historico.write_text(
        "mes;preco\n2024-01;85,10\n2024-02;90,05\n2024-03;101,20\n", encoding="utf-8"
    )
    resultado = _cli(caso, "--historico", historico, "--ptbr", "--cenarios", "200")
    assert resultado.exit_code == 0, resultado.output
    assert "P99" in resultado.stdout and "R$ " in resultado.stdout
    assert (
        "Comprar agora              R$ 70.840.000,00 (a R$ 101,2000 por CBIO)" in resultado.stdout
    )


def test_cli_erros_de_entrada_saem_com_2(tmp_path: Path) -> None:
    caso = tmp_path / "caso.json"
    caso.write_text(json.dumps({"ano_meta": 2025, "meta_cbios": 10}), encoding="utf-8")
    resultado = _cli(caso, "--lognormal", "--preco-inicial", "80", "--volatilidade", "0.3")
    assert resultado.exit_code == 2
    assert "cbios_aposentados" in resultado.stderr and "linha 1" in resultado.stderr
    assert _cli(caso).exit_code == 2  # no scenarios chosen


def test_simulacao_grande_usa_o_laco_compilado_com_os_mesmos_valores(monkeypatch: Any) -> None:
    cenarios = exp.cenarios_lognormais(Decimal("80"), 0.1, 0.6, 60, semente=3)
    vetorial = exp.simular(_tabela(), cenarios, LEITURA)
    monkeypatch.setattr(exp, "_LINHAS_PARA_LACO", 0)  # as if it were millions of rows
    assert exp.simular(_tabela(), cenarios, LEITURA).tolist() == vetorial.tolist()


def test_nao_cumprir_custa_a_multa_mais_a_recompra() -> None:
    """The shortfall joins next year's target whether or not the fine is paid: the comparison
    counts the fine *and* buying the same CBIOs later, with the citation."""
    totais = np.array([100_000_00, 300_000_00], dtype=np.int64)  # R$ 100 mil e R$ 300 mil
    resumo = exp.resumir(totais, faltando=1000, preco_atual=Decimal("80"))
    assert resumo["multa_esperada"] == "200000.00"
    assert resumo["custo_comprar_agora"] == "80000.00"  # 1 000 × R$ 80
    assert resumo["custo_recompra"] == "80000.00"  # the same CBIOs, later, at the same price
    assert resumo["custo_nao_cumprir"] == "280000.00"  # 200 000 + 80 000
    assert resumo["diferenca_nao_cumprir_menos_custo"] == "200000.00"
    assert resumo["fundamento_recompra"] == (
        "Resolução ANP nº 791/2019, art. 10, § 1º (texto não transcrito)"
    )
    texto = exp.como_texto(resumo)
    assert "+ comprar depois         R$ 80.000,00 (1.000 CBIOs a R$ 80,0000)" in texto
    assert "= não cumprir            R$ 280.000,00" in texto
    assert "Comprar agora custa R$ 200.000,00 a menos que não cumprir." in texto
    assert "Resolução ANP nº 791/2019, art. 10, § 1º" in texto
    mais_caro = exp.resumir(totais, 1000, Decimal("80"), preco_recompra=Decimal("95.5"))
    assert mais_caro["custo_recompra"] == "95500.00"
    assert mais_caro["custo_nao_cumprir"] == "295500.00"


def test_cli_preco_de_recompra_e_grafico_com_as_duas_partes(tmp_path: Path) -> None:
    caso, png = tmp_path / "caso.json", tmp_path / "g.png"
    caso.write_text(
        json.dumps({"regime": "renovabio.distribuidor", **CARTEIRA[2]}), encoding="utf-8"
    )
    resultado = _cli(
        caso, "--lognormal", "--preco-inicial", "80", "--volatilidade", "0.2",
        "--cenarios", "100", "--preco-recompra", "90", "--grafico", png, "-f", "json",
    )  # fmt: skip
    assert resultado.exit_code == 0, resultado.output
    resumo = json.loads(resultado.stdout)
    assert resumo["preco_recompra"] == "90"
    assert Decimal(resumo["custo_recompra"]) == resumo["cbios_faltantes"] * 90
    assert Decimal(resumo["custo_nao_cumprir"]) == Decimal(resumo["multa_esperada"]) + Decimal(
        resumo["custo_recompra"]
    )
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# --- blocks of scenarios: the same numbers on one machine or on a cluster -------------------


def test_cenarios_em_blocos_com_semente_propria() -> None:
    """Block b is drawn from (seed, b): more scenarios extend the same draws, and a block
    drawn alone (as a worker draws it) is the same block."""
    modelo = exp.lognormal(Decimal("80"), 0.05, 0.5)
    longo = exp.Sorteio(modelo, 2 * exp.CENARIOS_POR_BLOCO + 500, 9)
    curto = exp.Sorteio(modelo, exp.CENARIOS_POR_BLOCO + 17, 9)
    assert longo.blocos == 3 and curto.blocos == 2
    todos = longo.todos().mantissa
    assert len(todos) == 2 * exp.CENARIOS_POR_BLOCO + 500
    assert todos[: len(curto.todos().mantissa)].tolist() == curto.todos().mantissa.tolist()
    assert longo.bloco(2).mantissa.tolist() == todos[2 * exp.CENARIOS_POR_BLOCO :].tolist()
    outra = exp.Sorteio(modelo, longo.n, 10).todos().mantissa
    assert outra.tolist() != todos.tolist()
    serie = exp.historico([Decimal("70.1"), Decimal("95"), Decimal("88.25")])
    h = exp.Sorteio(serie, exp.CENARIOS_POR_BLOCO + 3, 2)
    assert h.bloco(1).mantissa.tolist() == h.todos().mantissa[exp.CENARIOS_POR_BLOCO :].tolist()


def test_blocos_somados_em_ordem_sao_a_simulacao_inteira() -> None:
    sorteio = exp.Sorteio(exp.lognormal(Decimal("80"), 0.1, 0.6), 12_345, 4)
    inteira = exp.simular(_tabela(), sorteio.todos(), LEITURA)
    partes = [exp.simular_bloco(b, _tabela(), sorteio, LEITURA) for b in range(sorteio.blocos)]
    assert np.concatenate(partes).tolist() == inteira.tolist()


def test_semente_negativa_e_erro_de_uso(tmp_path: Path) -> None:
    caso = tmp_path / "caso.json"
    caso.write_text(json.dumps({"regime": "renovabio.distribuidor", **CARTEIRA[2]}))
    r = _cli(caso, "--lognormal", "--preco-inicial", "80", "--volatilidade", "0.2", "--seed", -1)
    assert r.exit_code == 2 and "--seed" in r.stderr


def test_cluster_em_processo_igual_ao_local_byte_a_byte(tmp_path: Path) -> None:
    import pytest

    distributed = pytest.importorskip("distributed")
    caso = tmp_path / "caso.json"
    caso.write_text(json.dumps({"regime": "renovabio.distribuidor", **CARTEIRA[0]}))
    args = [caso, "--lognormal", "--preco-inicial", "80", "--volatilidade", "0.4"]
    args += ["--cenarios", 2 * exp.CENARIOS_POR_BLOCO + 1, "--seed", 5, "-f", "json"]
    args += ["-i", "faturamento=media"]
    local = _cli(*args)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0"
    ) as cluster:
        remoto = _cli(*args, "--dask", cluster.scheduler_address)
    assert local.exit_code == remoto.exit_code == 0, remoto.output
    assert remoto.stdout == local.stdout
    assert json.loads(local.stdout)["cenarios"] == 2 * exp.CENARIOS_POR_BLOCO + 1


def test_carteira_de_linhas_igual_a_tabela_de_texto() -> None:
    tabela = exp.carteira(CARTEIRA)
    cenarios = exp.cenarios_lognormais(Decimal("80"), 0.05, 0.3, 50, 3)
    assert np.array_equal(
        exp.simular(tabela, cenarios, LEITURA), exp.simular(_tabela(), cenarios, LEITURA)
    )
    assert tabela.column("data_quitacao").to_pylist() == ["2026-03-15", None, None]


def test_cenarios_com_separador_de_milhar() -> None:
    totais = exp.simular(
        _tabela(), exp.cenarios_lognormais(Decimal("80"), 0, 0, 10_000, 1), LEITURA
    )
    texto = exp.como_texto(exp.resumir(totais, 100, Decimal("80")))
    assert texto.startswith("Exposição à multa do RenovaBio em 10.000 cenários")


@pytest.mark.parametrize(
    ("drift", "volatilidade", "campo"),
    [
        (float("inf"), 0.3, "drift"),
        (float("nan"), 0.3, "drift"),
        (0.0, float("inf"), "volatilidade"),
        (0.0, float("nan"), "volatilidade"),
        (500.0, 0.3, "volatilidade"),  # exp(500/12·k) overflows: never a price of R$ 0,0001
        (100.0, 1.0, "volatilidade"),
    ],
)
def test_lognormal_que_explode_e_recusado(drift: float, volatilidade: float, campo: str) -> None:
    with pytest.raises(EntradaInvalida) as erro:
        exp.cenarios_lognormais(Decimal("80"), drift, volatilidade, 1000, 0)
    assert erro.value.campo == campo


def test_preco_inicial_acima_do_limite_e_recusado() -> None:
    with pytest.raises(EntradaInvalida, match=r"menor que 1\.000\.000\.000"):
        exp.lognormal(Decimal(exp.PRECO_SIMULADO_MAXIMO), 0, 0)
    modelo = exp.lognormal(Decimal(exp.PRECO_SIMULADO_MAXIMO - 1), 0, 0)
    assert modelo.sortear(exp.gerador(0, 0), 2).preco(0) == exp.PRECO_SIMULADO_MAXIMO - 1


# --- spec v4 § 3.7 W1: what lies beyond the fine follows § 2 by the target's deadline --------


def test_w1_meta_de_2024_sem_crime_do_caput_lista_vedacao_ou_reducao_e_teto_antigo() -> None:
    from datetime import date

    from multas.nucleo.exposicao import alem_da_multa

    itens = " ".join(alem_da_multa(prazos=[date(2024, 12, 31)]))
    assert "Lista de sanções (Decreto" not in itens
    assert "somente cessará" not in itens
    assert "janela de redução" not in itens
    assert "redação do Decreto nº 12.437/2025): a multa vem" not in itens
    assert "teto da multa de R$ 50.000.000,00" in itens
    assert "R$ 500.000.000,00" not in itens
    assert "sem lista de sanções, sem vedação da comercialização e sem redução" in itens


def test_w1_meta_de_2025_com_lista_vedacao_reducao_e_teto_novo() -> None:
    from datetime import date

    from multas.nucleo.exposicao import alem_da_multa

    itens = " ".join(alem_da_multa(prazos=[date(2025, 12, 31)]))
    assert "Lista de sanções (Decreto nº 9.888/2019, art. 6º-A)" in itens
    assert "janela de redução" in itens
    assert "crime de que trata o art. 68" in itens
    assert "teto da multa de R$ 500.000.000,00" in itens
    assert "31/12/2024" not in itens


def test_w1_prazos_da_carteira_pelo_ano_da_meta() -> None:
    from datetime import date

    from multas.nucleo.exposicao import carteira, prazos

    tabela = carteira(
        [
            {"ano_meta": "2024", "meta_cbios": "10", "cbios_aposentados": "0"},
            {"ano_meta": "2025", "meta_cbios": "10", "cbios_aposentados": "0"},
        ]
    )
    assert prazos(tabela, {}) == [date(2024, 12, 31), date(2025, 12, 31)]


def test_o_preco_exato_que_o_multas_escreve_serve_de_preco_da_exposicao(tmp_path: Path) -> None:
    """Issue 37 item 5: ``--preco-inicial 2445833317/22000000`` (the year's price, as
    ``multas ano`` writes it) was a traceback; it is the exact price, shown with 4 places, and
    the summary writes it back exactly. In the resampled series it is a clear error."""
    caso = tmp_path / "caso.json"
    caso.write_text(
        json.dumps({"regime": "renovabio.distribuidor", **CARTEIRA[2]}), encoding="utf-8"
    )
    preco = "2445833317/22000000"
    args = ["--lognormal", "--volatilidade", "0.3", "--cenarios", "50"]
    texto = _cli(caso, *args, "--preco-inicial", preco)
    assert texto.exit_code == 0, texto.output
    assert "(a R$ 111,1742 por CBIO)" in texto.stdout
    resumo = json.loads(
        _cli(caso, *args, "--preco-inicial", "80", "--preco-atual", preco, "-f", "json").stdout
    )
    faltando = resumo["cbios_faltantes"]
    assert resumo["preco_atual"] == preco
    assert Decimal(resumo["custo_comprar_agora"]) == arredondar(faltando * Fraction(preco))
    historico = tmp_path / "h.csv"
    historico.write_text(f"mes,preco\n2024-01,{preco}\n", encoding="utf-8")
    serie = _cli(caso, "--historico", historico)
    assert serie.exit_code == 2 and "Traceback" not in serie.output
    assert "linha 2: a média 2445833317/22000000 não é um decimal de até 6 casas" in serie.stderr
