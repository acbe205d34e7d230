"""The year's result for spreadsheets, beside ``resultado.csv``: ``resultado.xlsx`` (typed
cells) and ``resultado-ptbr.csv`` (``;``, decimal comma, dates dd/mm/aaaa, UTF-8 as the
project's other pt-BR CSV files). Both have ``resultado.csv``'s rows and columns, the columns
in the input file's own order (:func:`multas.servicos.ano.colunas_na_ordem_da_entrada`: the
user's spreadsheet and the result side by side), and the same values:

- a row that was read carries its input's counts as integers, its amounts as exact numbers
  and its dates as dates (the values the year read); a row in error carries its cells as the
  input gave them, as text (as in ``resultado.csv``);
- ``preco`` is the 4-place number, ``preco_exato`` its exact text (it reads back the same);
- ``falta``, ``diferido``, ``multado`` and ``falta_para_o_ano_seguinte`` are integers,
  ``valor`` the exact amount;
- no text cell runs as a formula (:mod:`multas.saidas.exportacao`), the header neither.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import date
from decimal import Decimal
from typing import IO, Any

from multas.nucleo.ciclo.carteira_entrada import CAMPOS_ANO
from multas.saidas.exportacao import (
    FORMATO_DATA,
    FORMATO_DINHEIRO,
    FORMATO_PRECO,
    LIMITE_NUMERO_XLSX,
    Notacao,
    NumeroExato,
    celula_xlsx_texto,
    escrever_csv,
)
from multas.servicos.ano import LinhaDoAno, colunas_na_ordem_da_entrada

#: the file names, in the output folder of ``multas ano calcular``
RESULTADO_XLSX = "resultado.xlsx"
RESULTADO_PTBR = "resultado-ptbr.csv"

#: the kinds of the year's fields whose read value is the cell: counts, amounts and dates
_TIPOS_LIDOS = frozenset({"contagem", "quantia", "data"})
#: the input's columns the year reads as counts, amounts and dates (column → kind), from the
#: year's own field declarations (a field added there is typed here too)
COLUNAS_LIDAS: dict[str, str] = {c.nome: c.tipo for c in CAMPOS_ANO if c.tipo in _TIPOS_LIDOS}
#: the result's columns: counts and the fine
_CONTAGENS_SAIDA = frozenset({"falta", "diferido", "multado", "falta_para_o_ano_seguinte"})


def _tipado(coluna: str, valor: object, lida: LinhaDoAno | None) -> object:
    """One cell of a row, typed: ``None`` when empty, else an int, a ``Decimal``, a date or
    the text ``resultado.csv`` has."""
    if valor is None or valor == "":
        return None
    if lida is not None:
        if coluna in COLUNAS_LIDAS:
            lido = getattr(lida.entrada, coluna)
            if lido is not None:
                return lido
        elif coluna in _CONTAGENS_SAIDA:
            return int(str(valor))
        elif coluna in ("preco", "valor"):
            return Decimal(str(valor))
    return str(valor)


def linhas_tipadas(
    entrada: Sequence[object], resultado: dict[str, Any]
) -> tuple[list[str], Iterator[list[object]]]:
    """The columns (in the input's order) and the rows of ``resultado.csv``, each cell typed
    (:func:`_tipado`)."""
    colunas = colunas_na_ordem_da_entrada(entrada)
    linhas = (
        [_tipado(c, linha.get(c), lida) for c in colunas]
        for linha, lida in zip(resultado["linhas"], resultado["lidas"], strict=True)
    )
    return colunas, linhas


def escrever_resultado_ptbr(
    destino: IO[str], entrada: Sequence[object], resultado: dict[str, Any]
) -> None:
    """``resultado-ptbr.csv``: ``resultado.csv`` in pt-BR notation (``;``, ``1.234,56``,
    ``31/12/2025``; counts as digits, as every pt-BR export of the project)."""
    colunas, linhas = linhas_tipadas(entrada, resultado)
    escrever_csv(destino, colunas, linhas, Notacao(ptbr=True), fim_de_linha="\r\n")


def _celula(folha: Any, coluna: str, valor: object) -> object:
    from openpyxl.cell import WriteOnlyCell

    if isinstance(valor, Decimal):
        if abs(valor.scaleb(2)) >= LIMITE_NUMERO_XLSX:  # past a double's exactness: text
            return f"{valor:f}"
        celula = WriteOnlyCell(folha, value=NumeroExato(f"{valor:f}"))
        celula.data_type = "n"  # its text is written as it is: exact
        celula.number_format = FORMATO_PRECO if coluna == "preco" else FORMATO_DINHEIRO
        return celula
    if isinstance(valor, date):
        celula = WriteOnlyCell(folha, value=valor)
        celula.number_format = FORMATO_DATA
        return celula
    return celula_xlsx_texto(folha, valor)


def resultado_xlsx(entrada: Sequence[object], resultado: dict[str, Any]) -> bytes:
    """``resultado.xlsx``: ``resultado.csv`` as one sheet of typed cells (amounts exact, shown
    ``R$ #,##0.00``; the price ``R$ #,##0.0000``; dates shown dd/mm/aaaa)."""
    import io

    import openpyxl

    colunas, linhas = linhas_tipadas(entrada, resultado)
    livro = openpyxl.Workbook(write_only=True)
    folha = livro.create_sheet("resultado")
    folha.append([celula_xlsx_texto(folha, c) for c in colunas])
    for linha in linhas:
        folha.append([_celula(folha, c, v) for c, v in zip(colunas, linha, strict=True)])
    saida = io.BytesIO()
    livro.save(saida)
    return saida.getvalue()
