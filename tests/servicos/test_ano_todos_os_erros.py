"""``multas ano calcular``: a row in error says every error of the row in its ``erro`` cell
(issue 37, item 9), each with its line and column, joined by `` | `` as in ``multas lote``; one
error keeps the text it always had."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from fractions import Fraction

from multas.nucleo.arquivos import Local
from multas.nucleo.contrato import Leitura
from multas.nucleo.cotacoes import Serie
from multas.nucleo.legislacao import carregar
from multas.nucleo.preco import Cotacao
from multas.servicos.ano import calcular_ano

CNPJ = "11.222.333/0001-81"


def test_linha_com_dois_erros_traz_os_dois() -> None:
    serie = Serie(diarias=(Cotacao(date(2024, 5, 2), Fraction(80), 10, Decimal("800")),))
    linhas = [
        {"cnpj": CNPJ, "meta_cbios": "x", "cbios_aposentados": "-5"},
        {"cnpj": CNPJ, "meta_cbios": "100", "cbios_aposentados": "y"},
    ]
    r = calcular_ano(linhas, [Local(2), Local(3)], Leitura(tabela=True), 2024, serie, carregar())
    duas, uma = (linha["erro"] for linha in r["linhas"])
    assert [parte.split(":")[0] for parte in duas.split(" | ")] == [
        "linha 2, coluna meta_cbios",
        "linha 2, coluna cbios_aposentados",
    ]
    assert uma.startswith("linha 3, coluna cbios_aposentados: ") and " | " not in uma
