"""The RenovaBio year's quotes (``multas ano calcular``, spec § 3.1 v4 and § 6.3 v4): the
rows priced by the exercise ``ano_do_preco`` chooses, a quotes file's name with a control
character, and exact daily prices in the notices."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from fractions import Fraction

from multas.nucleo.arquivos import LINHA_DE_COMANDO, Local
from multas.nucleo.ciclo.planilha import ler_cotacoes
from multas.nucleo.contrato import Leitura
from multas.nucleo.cotacoes import Serie
from multas.nucleo.legislacao import carregar
from multas.nucleo.preco import Cotacao
from multas.servicos.ano import calcular_ano, notificacoes

LEGISLACAO = carregar()
TABELA = Leitura(tabela=True)
CNPJ = "11.222.333/0001-81"
#: 100.000 CBIOs missing: a fine above the floor and below the ceiling at these prices
LINHA = {"cnpj": CNPJ, "meta_cbios": "100000", "cbios_aposentados": "0"}


def test_ano_do_preco_prazo_precifica_as_linhas_pelo_exercicio_do_prazo() -> None:
    """Spec § 3.1 v4: under ``ano_do_preco = prazo`` the 2022 target (deadline 30/09/2023) is
    priced from 2023's quotes; the summary already is, and every row must be too."""
    serie = Serie(
        diarias=(
            Cotacao(date(2022, 5, 2), Fraction(80), 10, Decimal("800")),
            Cotacao(date(2023, 5, 2), Fraction(120), 10, Decimal("1200")),
        )
    )
    r = calcular_ano(
        [LINHA], [Local(2)], TABELA, 2022, serie, LEGISLACAO, {"ano_do_preco": "prazo"}
    )
    assert r["resumo"]["preco"] == "120"
    linha = r["linhas"][0]
    assert linha["erro"] == ""
    assert linha["preco"] == "120.0000" and linha["preco_exato"] == "120"
    assert linha["valor"] == "12000000.00"


def test_nome_do_arquivo_de_cotacoes_com_tab_nao_derruba_as_linhas() -> None:
    """The name of the file is the user's, not a cell of the table: it may not make every row
    fail (the page already keeps only its printable characters)."""
    serie, _ = ler_cotacoes(
        b"data,preco\n2024-01-02,100\n", "cotacoes\tb3.csv", False, LINHA_DE_COMANDO
    )
    r = calcular_ano([LINHA], [Local(2)], TABELA, 2024, serie, LEGISLACAO)
    assert r["linhas"][0]["erro"] == ""
    assert r["linhas"][0]["valor"] == "10000000.00"


def test_notificacao_com_cotacao_diaria_em_fracao_exata() -> None:
    """Spec § 3.1 v4: a price may be written as the exact fraction ``p/q``. A year priced from
    such a quote must give its notice, not a traceback."""
    serie = Serie(
        diarias=(
            Cotacao(date(2024, 1, 2), Fraction(334, 3)),
            Cotacao(date(2024, 1, 3), Fraction(100)),
        )
    )
    r = calcular_ano([LINHA], [Local(2)], TABELA, 2024, serie, LEGISLACAO, com_calculo=True)
    assert r["linhas"][0]["erro"] == ""
    pdfs = list(notificacoes(r, 2024, LEGISLACAO, None))
    assert [nome for nome, _ in pdfs] == ["11222333000181.pdf"]
    assert pdfs[0][1].startswith(b"%PDF")
