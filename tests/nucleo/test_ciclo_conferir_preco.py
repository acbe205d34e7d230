"""``carteira conferir`` under the readings of the price (spec § 3.1 v4: the engine, the
batch, the ledger, the year and the page all use them): the price shown is the fine's."""

from __future__ import annotations

from decimal import Decimal

from multas.nucleo.ciclo.carteira import ler_ano
from multas.nucleo.ciclo.conferir import Notificacao, conferir_notificacao
from multas.nucleo.legislacao import carregar

#: two days of January 2024: daily price 100, but 900 reais for 10 CBIOs each (weighted: 90)
COTACOES = [
    {"data": "2024-01-02", "preco": "100", "quantidade": 10, "valor_financeiro": "900"},
    {"data": "2024-01-03", "preco": "100", "quantidade": 10, "valor_financeiro": "900"},
]


def test_conferir_mostra_o_preco_da_leitura_escolhida() -> None:
    ano = ler_ano(
        {
            "ano": 2024,
            "cnpj": "11.222.333/0001-81",
            "meta_cbios": 100000,
            "cbios_aposentados": 0,
            "meta_anterior_cumprida": True,
            "cotacoes_diarias": COTACOES,
        }
    )
    r = conferir_notificacao(
        [ano],
        2024,
        Notificacao(preco=Decimal("100"), valor_multa=Decimal("10000000.00")),
        carregar(),
        {"media_mensal": "simples"},
    )
    itens = {item["campo"]: item for item in r["itens"]}
    assert itens["valor_multa"]["difere"] is False  # the fines agree under 'simples'...
    assert itens["preco"]["distribuidor"] == "100"  # ...so the price it used is 100
    assert itens["preco"]["difere"] is False


def test_a_tabela_da_conferencia_separa_as_colunas_e_mostra_o_preco_com_quatro_casas() -> None:
    """Issue 37 item 5: a price that is a fraction ran into the next column
    ("2445833317/22000000 2445833317/22000000"); every cell is now apart from its neighbours
    (two spaces at least), prices with 4 places and differences with one sign."""
    import re

    from multas.nucleo.ciclo.conferir import conferencia_texto

    ano = ler_ano(
        {
            "ano": 2024,
            "cnpj": "11.222.333/0001-81",
            "meta_cbios": 1000000,
            "cbios_aposentados": 880000,
            "meta_anterior_cumprida": False,
            "cotacoes_diarias": [  # the mean of January: 2445833317/22000000, as in 2024
                {"data": f"2024-01-{dia:02d}", "preco": "111.1742416818"} for dia in (2, 3)
            ]
            + [{"data": "2024-01-04", "preco": "2445833317/22000000"}],
        }
    )
    r = conferir_notificacao(
        [ano],
        2024,
        Notificacao(preco=Decimal("111.17"), valor_multa=Decimal("13340909.00")),
        carregar(),
    )
    texto = conferencia_texto(r)
    tabela = texto.split("\n\n")[1].splitlines()
    assert tabela[0].split() == ["Número", "ANP", "Distribuidor", "Diferença", "Vale", "(R$)"]
    for linha in tabela[1:]:
        if linha.startswith("      "):  # a note under its row
            continue
        assert len(re.split(r"\s{2,}", linha.strip())) == 5, linha
    [preco] = [linha for linha in tabela if linha.startswith("Preço do CBIO")]
    assert re.split(r"\s{2,}", preco)[1:3] == ["R$ 111,1700", "R$ 111,1742"]
    assert "/" not in preco and re.split(r"\s{2,}", preco)[3].startswith("-R$ 0,00")
