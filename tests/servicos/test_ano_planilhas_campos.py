"""The year's spreadsheets (``resultado.xlsx``, ``resultado-ptbr.csv``) type the input's
counts, amounts and dates from the year's own field declarations
(:data:`multas.nucleo.ciclo.carteira_entrada.CAMPOS_ANO`), not from lists of their own that
restate them: every such field of the year comes out as the value the year read."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from fractions import Fraction

from multas.nucleo.arquivos import Local
from multas.nucleo.ciclo.carteira_entrada import CAMPOS_ANO
from multas.nucleo.contrato import Leitura
from multas.nucleo.cotacoes import Serie
from multas.nucleo.legislacao import carregar
from multas.nucleo.preco import Cotacao
from multas.servicos.ano import calcular_ano
from multas.servicos.ano_planilhas import COLUNAS_LIDAS, linhas_tipadas

COTACOES = Serie(diarias=(Cotacao(date(2024, 1, 2), Fraction(100)),))
TIPOS = {"contagem": int, "quantia": Decimal, "data": date}


def test_colunas_lidas_sao_as_contagens_quantias_e_datas_do_ano() -> None:
    assert {c.nome: c.tipo for c in CAMPOS_ANO if c.tipo in TIPOS} == COLUNAS_LIDAS


def test_cada_campo_declarado_sai_com_o_seu_tipo() -> None:
    linha = {
        "cnpj": "11.222.333/0001-81",
        "meta_publicada": "5000",
        "falta_anterior": "0",
        "meta_cbios": "5000",
        "cbios_aposentados": "1200",
        "faturamento_ano_meta": "1234567.89",
        "faturamento_ano_anterior": "1000000.5",
        "data_quitacao": "2025-03-01",
        "prazo_comprovacao": "2024-12-31",
    }
    resultado = calcular_ano([linha], [Local(2)], Leitura(tabela=True), 2024, COTACOES, carregar())
    colunas, linhas = linhas_tipadas([linha], resultado)
    tipada = dict(zip(colunas, next(linhas), strict=True))
    assert resultado["linhas"][0]["erro"] in (None, ""), resultado["linhas"][0]
    for campo in (c for c in CAMPOS_ANO if c.tipo in TIPOS and c.nome in linha):
        assert isinstance(tipada[campo.nome], TIPOS[campo.tipo]), campo.nome
    assert tipada["faturamento_ano_anterior"] == Decimal("1000000.5")
    assert tipada["data_quitacao"] == date(2025, 3, 1)
