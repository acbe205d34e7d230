"""Issue 19 item 7, the distributor's reconciliation: a ledger year's retirements one by one
(the sum up to the deadline, the quitação of the later ones), the target as the ANP publishes
it (counted once, with an aviso when its carry-over differs from the ledger's), and the ANP's
notice compared figure by figure (``multas carteira conferir``, ``POST
/api/v1/carteira/conferir``). Every fine is worked out in the test from the law's parameters,
read from the legislation (never copied), and a difference planted in each figure must be
found and valued."""

from __future__ import annotations

import calendar
import json
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from multas.nucleo.arquivos import Local
from multas.nucleo.ciclo.carteira import (
    MAXIMO_APOSENTADORIAS,
    calcular_carteira,
    ler_ano,
    ler_anos,
)
from multas.nucleo.ciclo.conferir import (
    Notificacao,
    conferir_notificacao,
    ler_notificacao,
    ler_notificacao_arquivo,
)
from multas.nucleo.contrato import Leitura
from multas.nucleo.cotacoes import Serie
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.legislacao import Lei, carregar
from multas.principal import cli
from multas.servicos.ano import calcular_ano
from multas.servidor import criar_app

CNPJ = "12.345.678/0001-95"
LEGISLACAO = carregar()
_PRAZO = LEGISLACAO.prazo_comprovacao(2025)
assert _PRAZO is not None
PRAZO = _PRAZO[0]  # the 2025 target's deadline, from the table
FATURAMENTOS = (900_000_000, 800_000_000)
PRECO = Decimal("71.70")
META = 1_000_000
FALTA_2024 = 100_000  # 2024: 900 000 of 1 000 000, no deferral (not known whether 2023 was met)
ANTES = [(PRAZO - timedelta(days=200), 500_000), (PRAZO - timedelta(days=3), 300_000)]
DEPOIS = [(PRAZO + timedelta(days=41), 150_000), (PRAZO + timedelta(days=79), 200_000)]


# --- the law, by hand ---------------------------------------------------------------------


def _centavos(valor: Fraction) -> Decimal:
    exato = Decimal(valor.numerator) / Decimal(valor.denominator)
    return exato.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def _mais_meses(dia: date, meses: int) -> date:
    indice = dia.month - 1 + meses
    ano, mes = dia.year + indice // 12, indice % 12 + 1
    return date(ano, mes, min(dia.day, calendar.monthrange(ano, mes)[1]))


def _meses_ou_fracao(inicio: date, fim: date) -> int:
    k = 1
    while _mais_meses(inicio, k) < fim:
        k += 1
    return k


def multa_2025(falta: int, preco: Decimal, quitacao: date | None) -> Decimal:
    """Decreto 9.888/2019 art. 6º and 6º-A § 8º on the 2025 target (spec § 3.1), with the
    revenues of :data:`FATURAMENTOS`, from the parameters in force on the deadline."""
    lei = Lei(LEGISLACAO, PRAZO)
    piso = lei["renovabio.distribuidor.piso"].fracao
    apurado = falta * Fraction(preco)
    if apurado < piso:
        multa = piso
    else:
        multa = min(apurado, lei["renovabio.distribuidor.teto"].fracao)
        media = Fraction(sum(FATURAMENTOS), 2)
        teto_faturamento = lei["renovabio.distribuidor.limite_faturamento"].fracao * media
        if teto_faturamento < multa:
            multa = max(teto_faturamento, lei["renovabio.piso_legal"].fracao)
    reducao = lei.get("renovabio.distribuidor.reducao")
    janela = _mais_meses(PRAZO, int(lei["renovabio.distribuidor.reducao_meses"].valor))
    if quitacao is not None and reducao is not None and quitacao <= janela and multa >= piso:
        multa = max(multa * _meses_ou_fracao(PRAZO, quitacao) * reducao.fracao, piso)
    return _centavos(multa)


def _quitacao_a_mao(falta: int) -> date | None:
    acumulado = 0
    for dia, quantidade in DEPOIS:
        acumulado += quantidade
        if acumulado >= falta:
            return dia
    return None


# --- the ledger ---------------------------------------------------------------------------


def ano_2024() -> dict[str, Any]:
    return {
        "cnpj": CNPJ,
        "ano": 2024,
        "meta_cbios": META,
        "cbios_aposentados": META - FALTA_2024,
        "maior_media_mensal": "80",
    }


def aposentadorias(*itens: tuple[date, int]) -> list[dict[str, Any]]:
    return [
        {"data": dia.isoformat(), "quantidade": q, "referencia_b3": f"B3-{i:04d}"}
        for i, (dia, q) in enumerate(itens, 1)
    ]


def ano_2025(**extra: Any) -> dict[str, Any]:
    return {
        "cnpj": CNPJ,
        "nome": "Distribuidora Exemplo",
        "ano": 2025,
        "meta_cbios": META,
        "maior_media_mensal": f"{PRECO}",
        "faturamento_ano_meta": f"{FATURAMENTOS[0]}.00",
        "faturamento_ano_anterior": f"{FATURAMENTOS[1]}.00",
        "aposentadorias": aposentadorias(*ANTES, *DEPOIS),
    } | extra


def linha(*anos: dict[str, Any], ano: int = 2025) -> dict[str, Any]:
    carteira = calcular_carteira(ler_anos(list(anos)), LEGISLACAO)
    return next(a for a in carteira["anos"] if a["ano"] == ano)


# the distributor's own 2025, by hand: 1 000 000 + 100 000 carried; 800 000 retired up to the
# deadline; 300 000 missing, covered by the later retirements on the second date
TOTAL = META + FALTA_2024
APOSENTADOS = sum(q for _, q in ANTES)
QUITACAO = _quitacao_a_mao(TOTAL - APOSENTADOS)
MULTA = multa_2025(TOTAL - APOSENTADOS, PRECO, QUITACAO)


def test_a_linha_do_ano_com_as_aposentadorias_e_a_do_calculo_a_mao() -> None:
    assert DEPOIS[1][0] == QUITACAO  # 150 000 do not cover 300 000; 350 000 do
    a25 = linha(ano_2024(), ano_2025())
    assert (a25["meta_total"], a25["acrescimo_ano_anterior"]) == (TOTAL, FALTA_2024)
    assert a25["cbios_aposentados"] == APOSENTADOS
    assert a25["data_quitacao"] == QUITACAO.isoformat()
    assert a25["multa"] == f"{MULTA}"
    assert a25["aposentadorias"] == {
        "operacoes": 4,
        "prazo_comprovacao": PRAZO.isoformat(),
        "ate_o_prazo": APOSENTADOS,
        "depois_do_prazo": sum(q for _, q in DEPOIS),
    }
    # the retirements are stored as given and read back the same
    entrada = ler_ano(ano_2025())
    assert ler_ano(entrada.como_dict()) == entrada
    assert entrada.como_dict()["aposentadorias"] == ano_2025()["aposentadorias"]


# --- the notice: a difference planted in each figure ----------------------------------------


def _conferir(notificacao: dict[str, Any], *anos: dict[str, Any]) -> dict[str, Any]:
    lidos = ler_anos(list(anos or (ano_2024(), ano_2025())))
    return conferir_notificacao(lidos, 2025, ler_notificacao(notificacao), LEGISLACAO)


def _item(resultado: dict[str, Any], campo: str) -> dict[str, Any]:
    return next(i for i in resultado["itens"] if i["campo"] == campo)


PROPRIOS = {
    "meta_publicada": TOTAL,
    "falta_anterior": FALTA_2024,
    "cbios_aposentados": APOSENTADOS,
    "preco": f"{PRECO}",
    "valor_multa": f"{MULTA}",
}


def test_sem_diferenca_todos_os_numeros_iguais() -> None:
    r = _conferir(PROPRIOS)
    assert r["diferencas"] == []
    for item in r["itens"]:
        assert item["difere"] is False, item
        assert item["anp"] == item["distribuidor"] == PROPRIOS[item["campo"]]
        assert item["valor_em_reais"] == "0.00"
    assert (r["multa_anp"], r["multa_distribuidor"]) == (f"{MULTA}", f"{MULTA}")
    assert r["diferenca_total"] == "0.00" and r["diferenca_nao_explicada"] == "0.00"
    assert r["multa_com_os_numeros_da_anp"] == f"{MULTA}"


def _esperado_meta() -> Decimal:
    # the ANP's target 50 000 above: 350 000 missing; the later retirements reach it on the
    # same second date
    falta = TOTAL + 50_000 - APOSENTADOS
    return multa_2025(falta, PRECO, _quitacao_a_mao(falta))


def _esperado_falta() -> Decimal:
    # the ANP carries 120 000: the total is the year's own 1 000 000 plus them
    falta = META + 120_000 - APOSENTADOS
    return multa_2025(falta, PRECO, _quitacao_a_mao(falta))


def _esperado_aposentados() -> Decimal:
    # the ANP counted 300 000: 800 000 missing, more than the later 350 000 settle (no
    # quitação), and 800 000 × 71,70 is above 5% of the mean revenue
    falta = TOTAL - 300_000
    assert _quitacao_a_mao(falta) is None
    return multa_2025(falta, PRECO, None)


def _esperado_preco() -> Decimal:
    return multa_2025(TOTAL - APOSENTADOS, Decimal("80.00"), QUITACAO)


@pytest.mark.parametrize(
    ("campo", "anp", "diferenca", "esperado"),
    [
        ("meta_publicada", TOTAL + 50_000, 50_000, _esperado_meta),
        ("falta_anterior", 120_000, 20_000, _esperado_falta),
        ("cbios_aposentados", 300_000, 300_000 - APOSENTADOS, _esperado_aposentados),
        ("preco", "80.00", "8.30", _esperado_preco),
    ],
)
def test_uma_diferenca_plantada_e_achada_e_valorada(
    campo: str, anp: Any, diferenca: Any, esperado: Any
) -> None:
    r = _conferir(PROPRIOS | {campo: anp})
    assert r["diferencas"] == [campo]
    item = _item(r, campo)
    assert item["difere"] is True and item["diferenca"] == diferenca
    recalculada = esperado()
    assert recalculada != MULTA  # the planted difference changes the fine
    assert item["multa_recalculada"] == f"{recalculada}"
    assert item["valor_em_reais"] == f"{recalculada - MULTA}"
    for outro in r["itens"]:
        if outro["campo"] not in (campo, "valor_multa"):
            assert outro["difere"] is False and outro["valor_em_reais"] == "0.00"
    # all the notice's figures at once: the published total wins over the carry-over (the
    # notice's meta_publicada is the distributor's own total, so a different falta_anterior
    # alone leaves the total, and the fine, as they were)
    com_todos = MULTA if campo == "falta_anterior" else recalculada
    assert r["multa_com_os_numeros_da_anp"] == f"{com_todos}"
    # the ANP's fine is the distributor's here: what the figures explain is left unexplained
    assert r["diferenca_nao_explicada"] == f"{MULTA - com_todos}"


def test_diferenca_na_multa_e_a_diferenca_simples() -> None:
    r = _conferir(PROPRIOS | {"valor_multa": f"{MULTA + Decimal('22500.00')}"})
    assert r["diferencas"] == ["valor_multa"]
    item = _item(r, "valor_multa")
    assert item["difere"] is True
    assert item["diferenca"] == item["valor_em_reais"] == "22500.00"
    assert r["diferenca_total"] == "22500.00"


def test_todos_os_numeros_da_anp_de_uma_vez() -> None:
    anp = {
        "meta_publicada": TOTAL + 50_000,
        "falta_anterior": 120_000,
        "cbios_aposentados": 300_000,
        "preco": "80.00",
        "valor_multa": "40000000.00",
    }
    r = _conferir(anp)
    assert r["diferencas"] == list(anp)
    # the published total wins; 850 000 missing, no quitação, capped by the revenue
    com_todos = multa_2025(TOTAL + 50_000 - 300_000, Decimal("80.00"), None)
    assert r["multa_com_os_numeros_da_anp"] == f"{com_todos}"
    assert r["diferenca_total"] == f"{Decimal('40000000.00') - MULTA}"
    assert r["diferenca_nao_explicada"] == f"{Decimal('40000000.00') - com_todos}"
    # the worths are each figure's alone: they need not add up to the total difference
    assert {i["campo"]: i["valor_em_reais"] for i in r["itens"]} == {
        "meta_publicada": f"{_esperado_meta() - MULTA}",
        "falta_anterior": f"{_esperado_falta() - MULTA}",
        "cbios_aposentados": f"{_esperado_aposentados() - MULTA}",
        "preco": f"{_esperado_preco() - MULTA}",
        "valor_multa": f"{Decimal('40000000.00') - MULTA}",
    }


def test_numero_nao_informado_e_ano_sem_preco() -> None:
    r = _conferir({"cbios_aposentados": APOSENTADOS})
    meta = _item(r, "meta_publicada")
    assert meta["anp"] is None and meta["difere"] is None
    assert meta["nota"] == "não informado na notificação"
    assert r["multa_com_os_numeros_da_anp"] == f"{MULTA}" and r["diferenca_total"] is None
    # without a price in the ledger: the ANP's price still gives the recomputed fine
    sem_preco = {k: v for k, v in ano_2025().items() if k != "maior_media_mensal"}
    r = _conferir({"preco": "71.70"}, ano_2024(), sem_preco)
    preco = _item(r, "preco")
    assert preco["distribuidor"] is None and preco["difere"] is None
    assert preco["multa_recalculada"] == f"{MULTA}" and preco["valor_em_reais"] is None
    assert "sem o preço" in preco["nota"]


def test_preco_exato_das_cotacoes_do_ano() -> None:
    # the year's own monthly means: the highest, 70,5 (March)
    cotacoes = {"2025-02": "69.90", "2025-03": "70.5"}
    ano = {k: v for k, v in ano_2025().items() if k != "maior_media_mensal"}
    r = _conferir({"preco": "70.50"}, ano_2024(), ano | {"cotacoes_mensais": cotacoes})
    preco = _item(r, "preco")
    assert preco["distribuidor"] == "70.5" and preco["difere"] is False
    diarias = [
        {"data": "2025-03-03", "preco": "70"},
        {"data": "2025-03-04", "preco": "71"},
        {"data": "2025-03-05", "preco": "71"},
    ]
    r = _conferir({"preco": "70.50"}, ano_2024(), ano | {"cotacoes_diarias": diarias})
    preco = _item(r, "preco")
    assert preco["distribuidor"] == "212/3" and preco["diferenca"] == "-1/6"


def test_a_notificacao_de_outro_ano_ou_cnpj_e_recusada() -> None:
    with pytest.raises(EntradaInvalida) as erro:
        _conferir({"ano": 2024, "valor_multa": "1.00"})
    assert erro.value.campo == "ano"
    with pytest.raises(EntradaInvalida) as erro:
        _conferir({"cnpj": "11.222.333/0001-81", "valor_multa": "1.00"})
    assert erro.value.campo == "cnpj"
    assert _conferir({"cnpj": " 12345678000195", "valor_multa": f"{MULTA}"})["diferencas"] == []


@pytest.mark.parametrize(
    ("dados", "campo", "trecho"),
    [
        ([], None, "objeto JSON"),
        ({}, "notificacao", "nenhum número"),
        ({"multa": "1.00"}, "multa", "campo desconhecido na notificação"),
        ({"preco": "0"}, "preco", "maior que zero"),
        ({"preco": "abc"}, "preco", "número inválido"),
        ({"valor_multa": "1.234"}, "valor_multa", "duas casas"),
        ({"cbios_aposentados": -5}, "cbios_aposentados", "maior ou igual a 0"),
        ({"meta_publicada": "1e30"}, "meta_publicada", ""),
        ({"meta_publicada": 10, "falta_anterior": 11}, "falta_anterior", "já a inclui"),
        ({"valor_multa": "1.00", "cnpj": 123}, "cnpj", "texto"),
    ],
)
def test_notificacao_invalida_nomeia_o_campo(dados: Any, campo: str | None, trecho: str) -> None:
    with pytest.raises(EntradaInvalida) as erro:
        ler_notificacao(dados)
    assert erro.value.campo == campo and trecho in erro.value.mensagem


def test_notificacao_de_arquivo_csv_json_e_ptbr() -> None:
    csv = b"meta_publicada,preco,valor_multa\n1100000,71.70,5377500.00\n"
    assert ler_notificacao_arquivo(csv, "n.csv") == Notificacao(
        meta_publicada=1_100_000, preco=Decimal("71.70"), valor_multa=Decimal("5377500.00")
    )
    ptbr = b"meta_publicada;preco;valor_multa\n1.100.000;71,70;5.377.500,00\n"
    assert ler_notificacao_arquivo(ptbr, "n.csv", ptbr=True) == ler_notificacao_arquivo(
        csv, "n.csv"
    )
    assert ler_notificacao_arquivo(b'{"preco": "71.70"}', "n.json").preco == Decimal("71.70")
    for conteudo, nome, campo, trecho in [
        (b"preco\nabc\n", "n.csv", "preco", "linha 2, coluna preco:"),
        (b"preco\n1\n2\n", "n.csv", "arquivo", "2 linhas de dados"),
        (b"preco\n", "n.csv", "arquivo", "0 linhas de dados"),
        (b"{", "n.json", "arquivo", "JSON inválido"),
        (b"x", "n.txt", "arquivo", "formato não aceito"),
        (b'{"preco": 1, "juros": 2}', "n.json", "juros", "campo desconhecido"),
    ]:
        with pytest.raises(EntradaInvalida) as erro:
            ler_notificacao_arquivo(conteudo, nome)
        assert erro.value.campo == campo and trecho in erro.value.mensagem, erro.value


# --- the retirements ----------------------------------------------------------------------


def test_aposentadorias_ganham_de_cbios_aposentados_com_aviso() -> None:
    a25 = linha(ano_2024(), ano_2025(cbios_aposentados=APOSENTADOS + 1))
    assert a25["cbios_aposentados"] == APOSENTADOS and a25["multa"] == f"{MULTA}"
    avisos = [a for a in a25["avisos"] if a.startswith("cbios_aposentados")]
    assert len(avisos) == 1 and "usadas as aposentadorias" in avisos[0]
    # equal: no aviso
    a25 = linha(ano_2024(), ano_2025(cbios_aposentados=APOSENTADOS))
    assert not any(a.startswith("cbios_aposentados") for a in a25["avisos"])


def test_quitacao_pelas_aposentadorias_depois_do_prazo() -> None:
    dia1, dia2 = PRAZO + timedelta(days=10), PRAZO + timedelta(days=40)
    # two retirements of the same day reach the target together: that day
    mesmo_dia = [(dia1, 100_000), (dia2, 150_000), (dia2, 150_000)]
    a25 = linha(ano_2024(), ano_2025(aposentadorias=aposentadorias(*ANTES, *mesmo_dia)))
    assert a25["data_quitacao"] == dia2.isoformat()
    assert a25["multa"] == f"{multa_2025(300_000, PRECO, dia2)}"
    # not enough after the deadline: no quitação, and an aviso says how many are missing
    pouco = [(dia1, 100_000), (dia2, 150_000)]
    a25 = linha(ano_2024(), ano_2025(aposentadorias=aposentadorias(*ANTES, *pouco)))
    assert a25["data_quitacao"] is None
    assert a25["multa"] == f"{multa_2025(300_000, PRECO, None)}"
    assert any("não quitam a falta de 300.000" in a and "faltam 50.000" in a for a in a25["avisos"])
    # a data_quitacao given loses to the retirements after the deadline, with an aviso
    a25 = linha(
        ano_2024(),
        ano_2025(
            aposentadorias=aposentadorias(*ANTES, *pouco),
            data_quitacao=dia1.isoformat(),
        ),
    )
    assert a25["data_quitacao"] is None
    assert any(a.startswith("data_quitacao") for a in a25["avisos"])
    # without retirements after the deadline, a data_quitacao given stays
    a25 = linha(
        ano_2024(), ano_2025(aposentadorias=aposentadorias(*ANTES), data_quitacao=dia1.isoformat())
    )
    assert a25["data_quitacao"] == dia1.isoformat()
    assert a25["multa"] == f"{multa_2025(300_000, PRECO, dia1)}"


def test_aposentadorias_depois_do_prazo_sem_falta_e_antes_do_ano() -> None:
    cedo = date(2024, 12, 20)
    itens = [(cedo, 600_000), (PRAZO - timedelta(days=1), 500_000), (PRAZO + timedelta(1), 5)]
    a25 = linha(ano_2024(), ano_2025(aposentadorias=aposentadorias(*itens)))
    assert a25["cbios_aposentados"] == 1_100_000 and a25["deficit"] == 0
    assert a25["data_quitacao"] is None and a25["multa"] == "0.00"
    assert any("Não houve falta em 2025" in a for a in a25["avisos"])
    assert any("anterior a 2025 (B3-0001)" in a for a in a25["avisos"])


def test_aposentadorias_sem_prazo_conhecido_pedem_prazo_comprovacao() -> None:
    ano = {
        "cnpj": CNPJ,
        "ano": 2019,
        "meta_cbios": 10,
        "aposentadorias": aposentadorias((date(2019, 5, 1), 10)),
    }
    with pytest.raises(EntradaInvalida) as erro:
        linha(ano, ano=2019)
    assert erro.value.campo == "prazo_comprovacao"
    assert erro.value.mensagem.startswith("ano 2019: ")
    ano["prazo_comprovacao"] = "2019-12-31"
    assert linha(ano, ano=2019)["cbios_aposentados"] == 10


@pytest.mark.parametrize(
    ("itens", "campo", "trecho"),
    [
        ("muitas", "aposentadorias", "lista"),
        ([{"data": "2025-02-30", "quantidade": 1, "referencia_b3": "X"}], "[0].data", "data"),
        ([{"data": "ontem", "quantidade": 1, "referencia_b3": "X"}], "[0].data", ""),
        ([{"data": "2025-02-01", "quantidade": -1, "referencia_b3": "X"}], "[0].quantidade", ""),
        ([{"data": "2025-02-01", "quantidade": 0, "referencia_b3": "X"}], "[0].quantidade", "1"),
        ([{"data": "2025-02-01", "quantidade": "1.5", "referencia_b3": "X"}], "[0].quantidade", ""),
        (
            [{"data": "2025-02-01", "quantidade": "1" + "0" * 20, "referencia_b3": "X"}],
            "[0].quantidade",
            "grande demais",
        ),
        (
            [
                {"data": "2025-02-01", "quantidade": 9 * 10**14, "referencia_b3": "X"},
                {"data": "2025-02-02", "quantidade": 9 * 10**14, "referencia_b3": "Y"},
            ],
            "aposentadorias",
            "soma",
        ),
        (
            [
                {"data": "2025-02-01", "quantidade": 1, "referencia_b3": "ab-1"},
                {"data": "2025-02-02", "quantidade": 1, "referencia_b3": "C"},
                {"data": "2025-02-03", "quantidade": 1, "referencia_b3": " AB-1 "},
            ],
            "[2].referencia_b3",
            "referência B3 repetida: 'AB-1' (também em aposentadorias[0])",
        ),
        ([{"data": "2025-02-01", "quantidade": 1}], "[0].referencia_b3", "obrigatório"),
        (
            [{"data": "2025-02-01", "quantidade": 1, "referencia_b3": "   "}],
            "[0].referencia_b3",
            "",
        ),
        ([{"data": "2025-02-01", "quantidade": 1, "referencia_b3": "X" * 65}], "[0].ref", "longo"),
        (
            [{"data": "2025-02-01", "quantidade": 1, "referencia_b3": "X", "preco": 1}],
            "[0].preco",
            "",
        ),
        (["2025-02-01"], "[0]", "objeto"),
        (
            [
                {"data": "2025-02-01", "quantidade": 1, "referencia_b3": f"R{i}"}
                for i in range(MAXIMO_APOSENTADORIAS + 1)
            ],
            "aposentadorias",
            "no máximo",
        ),
    ],
)
def test_aposentadorias_hostis_nomeiam_o_item(itens: Any, campo: str, trecho: str) -> None:
    with pytest.raises(EntradaInvalida) as erro:
        ler_anos([ano_2025(aposentadorias=itens)])
    nome = campo if campo == "aposentadorias" else f"aposentadorias{campo}"
    assert (erro.value.campo or "").startswith(nome), erro.value
    assert trecho in erro.value.mensagem, erro.value.mensagem
    assert erro.value.mensagem.startswith("item 1, campo aposentadorias")


def test_ano_sem_aposentados_nem_aposentadorias_e_celula_de_planilha() -> None:
    sem = {k: v for k, v in ano_2025().items() if k != "aposentadorias"}
    with pytest.raises(EntradaInvalida) as erro:
        ler_ano(sem)
    assert erro.value.campo == "cbios_aposentados"
    assert ler_ano(sem | {"aposentadorias": []}).aposentadorias == ()
    with pytest.raises(EntradaInvalida) as erro:
        ler_ano({**sem, "cbios_aposentados": "1", "aposentadorias": "[]"}, Leitura(tabela=True))
    assert erro.value.campo == "aposentadorias"
    assert "multas carteira aposentadorias importar" in erro.value.mensagem


# --- the published target -----------------------------------------------------------------


def _sem_meta(**extra: Any) -> dict[str, Any]:
    return {k: v for k, v in ano_2025().items() if k != "meta_cbios"} | extra


def test_meta_publicada_conta_a_falta_uma_vez() -> None:
    a25 = linha(ano_2024(), _sem_meta(meta_publicada=TOTAL))
    assert (a25["meta_cbios"], a25["acrescimo_ano_anterior"], a25["meta_total"]) == (
        META,
        FALTA_2024,
        TOTAL,
    )
    assert a25["multa"] == f"{MULTA}"
    assert not any("ANP soma" in a for a in a25["avisos"])
    # the same with the published carry-over beside it, equal to the ledger's: no aviso
    for extra in ({"falta_anterior": FALTA_2024}, {"meta_cbios": META}):
        a25 = linha(ano_2024(), _sem_meta(meta_publicada=TOTAL, **extra))
        assert a25["meta_total"] == TOTAL and a25["multa"] == f"{MULTA}"
        assert not any("ANP soma" in a for a in a25["avisos"])


@pytest.mark.parametrize(
    "extra",
    [
        {"meta_publicada": META + 120_000, "meta_cbios": META},
        {"meta_publicada": META + 120_000, "falta_anterior": 120_000},
        {"meta_cbios": META, "falta_anterior": 120_000},
    ],
)
def test_falta_publicada_diferente_da_carteira_tem_aviso(extra: dict[str, Any]) -> None:
    a25 = linha(ano_2024(), _sem_meta(**extra))
    # the published carry-over is used, once: the total is 1 120 000, not 1 220 000
    assert (a25["meta_cbios"], a25["acrescimo_ano_anterior"], a25["meta_total"]) == (
        META,
        120_000,
        META + 120_000,
    )
    assert a25["multa"] == f"{_esperado_falta()}"
    (aviso,) = [a for a in a25["avisos"] if "ANP soma" in a]
    assert "(120.000 CBIOs" in aviso and "leva de 2024 (100.000 CBIOs)" in aviso


def test_falta_publicada_zero_quer_dizer_ano_anterior_cumprido() -> None:
    # the ANP carries nothing from 2024: 2024 counts as met, so a shortfall within the
    # deferral's fraction is deferred (the ledger's own 100 000 would have forbidden it)
    fracao = LEGISLACAO.parametro("ciclo.diferimento").em(date(2025, 12, 31))
    assert fracao is not None
    falta = int(fracao.fracao * META)
    ano = _sem_meta(meta_cbios=META, falta_anterior=0, aposentadorias=None)
    a25 = linha(ano_2024(), ano | {"cbios_aposentados": META - falta})
    assert a25["cbios_diferidos"] == falta and a25["multa"] == "0.00"
    assert any("ANP soma" in a for a in a25["avisos"])
    # without the year before, a carry-over above zero means it was not met
    a25 = linha(ano | {"falta_anterior": 10, "cbios_aposentados": META + 10 - falta})
    assert a25["cbios_diferidos"] == 0 and a25["cbios_multados"] == falta


def test_meta_publicada_abaixo_da_falta_da_carteira_avisa() -> None:
    a25 = linha(ano_2024(), _sem_meta(meta_publicada=50_000))
    assert (a25["meta_cbios"], a25["acrescimo_ano_anterior"], a25["meta_total"]) == (
        0,
        50_000,
        50_000,
    )
    assert any("maior que a meta publicada" in a for a in a25["avisos"])


@pytest.mark.parametrize(
    ("extra", "campo", "trecho"),
    [
        ({"meta_cbios": None}, "meta_cbios", "campo obrigatório (ou meta_publicada"),
        ({"meta_publicada": 10}, "meta_publicada", "menor que meta_cbios"),
        ({"meta_publicada": 100, "falta_anterior": 101, "meta_cbios": None}, "falta_anterior", ""),
        (
            {"falta_anterior": 4, "meta_anterior_cumprida": True},
            "falta_anterior",
            "meta_anterior_cumprida",
        ),
        (
            {"meta_publicada": META + 4, "meta_anterior_cumprida": True},
            "meta_publicada",
            "meta_anterior_cumprida",
        ),
    ],
)
def test_meta_publicada_incoerente_e_erro(extra: dict[str, Any], campo: str, trecho: str) -> None:
    dados = {k: v for k, v in (ano_2025() | extra).items() if v is not None}
    with pytest.raises(EntradaInvalida) as erro:
        ler_ano(dados)
    assert erro.value.campo == campo and trecho in erro.value.mensagem


def test_o_ano_do_renovabio_guarda_a_meta_publicada_e_a_carteira_nao_a_soma_de_novo() -> None:
    """A row of ``multas ano`` with the published target is a ledger year with it: stored
    beside the year before, its carry-over is not added again."""
    serie = Serie(mensais={"2025-01": Decimal("71.70")})
    r = calcular_ano(
        [
            {
                "cnpj": CNPJ,
                "meta_publicada": str(TOTAL),
                "falta_anterior": str(FALTA_2024),
                "cbios_aposentados": str(APOSENTADOS),
            }
        ],
        [Local(2)],
        Leitura(tabela=True),
        2025,
        serie,
        LEGISLACAO,
    )
    entrada = r["lidas"][0].entrada
    assert (entrada.meta_publicada, entrada.falta_anterior) == (TOTAL, FALTA_2024)
    assert r["linhas"][0]["valor"] == f"{multa_2025_sem_faturamento(TOTAL - APOSENTADOS)}"
    guardado = ler_ano(entrada.como_dict())
    carteira = calcular_carteira([ler_ano(ano_2024()), guardado], LEGISLACAO)
    assert carteira["anos"][1]["meta_total"] == TOTAL


def multa_2025_sem_faturamento(falta: int) -> Decimal:
    lei = Lei(LEGISLACAO, PRAZO)
    apurado = falta * Fraction(PRECO)
    piso = lei["renovabio.distribuidor.piso"].fracao
    return _centavos(max(min(apurado, lei["renovabio.distribuidor.teto"].fracao), piso))


# --- the command line and the API ----------------------------------------------------------


@pytest.fixture
def banco(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'm.db'}"
    sem_aposentadorias = {k: v for k, v in ano_2025().items() if k != "aposentadorias"}
    arquivo = tmp_path / "carteira.json"
    arquivo.write_text(
        json.dumps([ano_2024(), sem_aposentadorias | {"cbios_aposentados": 1}]),
        encoding="utf-8",
    )
    r = CliRunner().invoke(cli, ["carteira", "importar", str(arquivo), "--banco", url])
    assert r.exit_code == 0, r.output
    return url


def _rodar(*argumentos: str) -> Any:
    return CliRunner().invoke(cli, list(argumentos))


def _csv_aposentadorias(
    caminho: Path, itens: list[tuple[date, int]], repetir: bool = False
) -> Path:
    linhas = ["data,quantidade,referencia"]
    linhas += [f"{dia.isoformat()},{q},B3-{i}" for i, (dia, q) in enumerate(itens, 1)]
    if repetir:
        linhas.append(f"{PRAZO.isoformat()},1,b3-1")
    caminho.write_text("\n".join(linhas) + "\n", encoding="utf-8")
    return caminho


def test_cli_importa_aposentadorias_e_confere_a_notificacao(banco: str, tmp_path: Path) -> None:
    csv = _csv_aposentadorias(tmp_path / "apos.csv", [*ANTES, *DEPOIS])
    r = _rodar("carteira", "aposentadorias", "importar", CNPJ, str(csv), "--ano", "2025",
               "--banco", banco)  # fmt: skip
    assert r.exit_code == 0, r.output
    a25 = json.loads(r.stdout)
    assert a25["cbios_aposentados"] == APOSENTADOS and a25["multa"] == f"{MULTA}"
    assert a25["data_quitacao"] == QUITACAO.isoformat()
    assert any(a.startswith("cbios_aposentados (1)") for a in a25["avisos"])
    # a repeated reference (another case) stores nothing: the year keeps the first import
    ruim = _csv_aposentadorias(tmp_path / "ruim.csv", ANTES, repetir=True)
    r = _rodar("carteira", "aposentadorias", "importar", CNPJ, str(ruim), "--ano", "2025",
               "--banco", banco)  # fmt: skip
    assert r.exit_code == 2
    erro = json.loads(r.stdout)["erro"]
    assert erro["campo"] == "referencia"
    assert erro["mensagem"] == (
        "linha 4, coluna referencia: referência B3 repetida: 'b3-1' (primeira vez: linha 2)"
    )
    r = _rodar("carteira", "mostrar", CNPJ, "-f", "json", "--banco", banco)
    assert json.loads(r.stdout)["anos"][1]["aposentadorias"]["operacoes"] == 4
    # a year not stored
    r = _rodar("carteira", "aposentadorias", "importar", CNPJ, str(csv), "--ano", "2026",
               "--banco", banco)  # fmt: skip
    assert r.exit_code == 1 and "não está na carteira" in r.output

    notificacao = tmp_path / "notificacao.csv"
    notificacao.write_text(
        "meta_publicada,falta_anterior,cbios_aposentados,preco,valor_multa\n"
        f"{TOTAL},{FALTA_2024},300000,{PRECO},{_esperado_aposentados()}\n",
        encoding="utf-8",
    )
    base = ["carteira", "conferir", CNPJ, "--ano", "2025", "--notificacao", str(notificacao)]
    r = _rodar(*base, "-f", "json", "--banco", banco)
    assert r.exit_code == 0, r.output
    conferencia = json.loads(r.stdout)
    assert conferencia["diferencas"] == ["cbios_aposentados", "valor_multa"]
    assert conferencia["diferenca_total"] == f"{_esperado_aposentados() - MULTA}"
    assert conferencia["diferenca_nao_explicada"] == "0.00"
    r = _rodar(*base, "--banco", banco)
    assert r.exit_code == 0, r.output
    assert "Diferem: CBIOs aposentados, Multa" in r.stdout
    valor = f"{_esperado_aposentados() - MULTA:,.2f}".replace(",", "X").replace(".", ",")
    assert f"R$ {valor.replace('X', '.')}" in r.stdout

    # bad notices: exit 2, the field named
    notificacao.write_text("preco,valor_multa\n71.70,muito\n", encoding="utf-8")
    r = _rodar(*base, "-f", "json", "--banco", banco)
    assert r.exit_code == 2
    erro = json.loads(r.stdout)["erro"]
    assert erro["campo"] == "valor_multa"
    assert erro["mensagem"].startswith("linha 2, coluna valor_multa: número inválido")
    r = _rodar(*base, "--banco", banco)
    assert r.exit_code == 2 and "Erro no campo 'valor_multa'" in r.stderr
    json_ruim = tmp_path / "n.json"
    json_ruim.write_text('{"preco": "71.70", "multa": "1"}', encoding="utf-8")
    r = _rodar("carteira", "conferir", CNPJ, "--ano", "2025", "--notificacao", str(json_ruim),
               "-f", "json", "--banco", banco)  # fmt: skip
    assert r.exit_code == 2 and json.loads(r.stdout)["erro"]["campo"] == "multa"
    # an unknown distributor or year
    notificacao.write_text("preco\n71.70\n", encoding="utf-8")
    for cnpj, ano in (("99.999.999/0001-99", "2025"), (CNPJ, "2023")):
        r = _rodar("carteira", "conferir", cnpj, "--ano", ano, "--notificacao",
                   str(notificacao), "--banco", banco)  # fmt: skip
        assert r.exit_code == 1 and "não" in r.stderr and r.stdout == ""


def test_api_confere_a_notificacao(banco: str) -> None:
    url = "/api/v1/carteira/conferir"
    corpo = PROPRIOS | {"preco": "80.00"}
    with TestClient(criar_app(banco), raise_server_exceptions=False) as cliente:
        ano = {k: v for k, v in ano_2025().items()}
        assert cliente.post("/api/v1/carteira", json=ano).status_code == 200
        r = cliente.post(url, params={"cnpj": CNPJ, "ano": 2025}, json=corpo)
        assert r.status_code == 200, r.text
        esperado = _conferir(corpo)
        assert r.json() == json.loads(json.dumps(esperado))
        assert r.json()["diferencas"] == ["preco"]
        assert _item(r.json(), "preco")["valor_em_reais"] == f"{_esperado_preco() - MULTA}"
        for corpo_ruim, campo in [
            ({"preco": "-1"}, "preco"),
            ({"juros": 1}, "juros"),
            ({}, "notificacao"),
            ({"falta_anterior": 5, "meta_publicada": 4}, "falta_anterior"),
        ]:
            r = cliente.post(url, params={"cnpj": CNPJ, "ano": 2025}, json=corpo_ruim)
            assert r.status_code == 422 and r.json()["erro"]["campo"] == campo, r.text
        r = cliente.post(
            url,
            params={"cnpj": CNPJ, "ano": 2025},
            content=b"{nada",
            headers={"Content-Type": "application/json"},
        )
        assert r.status_code == 422
        r = cliente.post(url, params={"cnpj": CNPJ, "ano": 2025}, json=[corpo])
        assert r.status_code == 422
        r = cliente.post(url, params={"cnpj": "00.000.000/0000-00", "ano": 2025}, json=corpo)
        assert r.status_code == 404
        r = cliente.post(url, params={"cnpj": CNPJ, "ano": 2026}, json=corpo)
        assert r.status_code == 404
        r = cliente.post(url, params={"cnpj": CNPJ, "ano": 2025, "preco_diferido": "x"}, json=corpo)
        assert r.status_code == 422
        assert r.json()["erro"]["campo"] == "interpretacao.preco_diferido"


def test_conferir_uma_notificacao_de_quem_so_tem_a_falta_herdada() -> None:
    """meta_herdada in the reconciliation (spec § 3.1 v4): the ANP's notice gives a total that
    is only the carried shortfall; by default the distributor owes no fine for it, and under
    the other reading the ledger's fine is the one the notice would have."""
    anos = ler_anos(
        [
            {
                "cnpj": CNPJ,
                "ano": 2020,
                "meta_cbios": 800,
                "cbios_aposentados": 0,
                "maior_media_mensal": "50",
            },
            {
                "cnpj": CNPJ,
                "ano": 2021,
                "meta_cbios": 0,
                "cbios_aposentados": 0,
                "maior_media_mensal": "50",
            },
        ]
    )
    notificacao = Notificacao(
        meta_publicada=800, falta_anterior=800, valor_multa=Decimal("100000.00")
    )
    padrao = conferir_notificacao(anos, 2021, notificacao, LEGISLACAO)
    multada = conferir_notificacao(anos, 2021, notificacao, LEGISLACAO, {"meta_herdada": "multa"})
    assert padrao["interpretacao"]["meta_herdada"] == "nao_multa"
    assert (padrao["multa_distribuidor"], multada["multa_distribuidor"]) == ("0.00", "100000.00")
    assert multada["diferenca_total"] == "0.00"
    assert any("tal regra pressupõe que o agente tenha meta" in a for a in padrao["avisos"])
