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
