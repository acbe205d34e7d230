"""Every error of a file's rows at once (issue 37, item 9): the ledger's import reads every row
and raises every error of every row, each with its line and column, in the file's order and
within a bound; a batch's ``erro`` cell holds every error of its row."""

from __future__ import annotations

import pytest

from multas.nucleo.arquivos import Local
from multas.nucleo.ciclo.carteira_entrada import ler_anos
from multas.nucleo.contrato import Leitura
from multas.nucleo.erros import (
    MAXIMO_ERROS_DAS_LINHAS,
    EntradaInvalida,
    ErrosDeEntrada,
    em_uma_celula,
)

CNPJ = "11.222.333/0001-81"
TABELA = Leitura(tabela=True)


def _linha(ano: str, meta: str, aposentados: str) -> dict[str, str]:
    return {"cnpj": CNPJ, "ano": ano, "meta_cbios": meta, "cbios_aposentados": aposentados}


def test_importar_da_todos_os_erros_de_todas_as_linhas() -> None:
    linhas = [
        _linha("2024", "1000", "10"),
        _linha("dois mil", "x", "10"),  # two errors in line 3
        _linha("2025", "1000", "-5"),  # one in line 4
    ]
    locais = [Local(i) for i in range(2, 5)]
    with pytest.raises(ErrosDeEntrada) as info:
        ler_anos(linhas, TABELA, locais)
    erros = info.value.todos()
    assert [(e.campo, e.mensagem.split(":")[0]) for e in erros] == [
        ("ano", "linha 3, coluna ano"),
        ("meta_cbios", "linha 3, coluna meta_cbios"),
        ("cbios_aposentados", "linha 4, coluna cbios_aposentados"),
    ]
    # the first is the one a single-error reader always got
    assert (info.value.campo, info.value.mensagem) == (erros[0].campo, erros[0].mensagem)


def test_uma_linha_com_um_erro_continua_um_erro() -> None:
    with pytest.raises(EntradaInvalida) as info:
        ler_anos([_linha("2024", "1000", "x")], TABELA, [Local(2)])
    assert type(info.value) is EntradaInvalida
    assert info.value.mensagem.startswith("linha 2, coluna cbios_aposentados: ")


def test_um_arquivo_de_muitas_linhas_ruins_tem_uma_lista_limitada() -> None:
    n = MAXIMO_ERROS_DAS_LINHAS + 50
    linhas = [_linha("2024", "x", "y") for _ in range(n)]  # two errors each
    with pytest.raises(ErrosDeEntrada) as info:
        ler_anos(linhas, TABELA, [Local(i) for i in range(2, n + 2)])
    erros = info.value.todos()
    assert len(erros) == MAXIMO_ERROS_DAS_LINHAS
    ultimo = erros[-1]
    listados = MAXIMO_ERROS_DAS_LINHAS - 1
    assert ultimo.campo is None
    assert ultimo.mensagem == (
        f"e mais {2 * n - listados} erros em outras linhas (só os {listados} primeiros estão "
        "listados)"
    )


def test_a_celula_de_erro_do_lote_traz_todos_os_erros_da_linha() -> None:
    erros = ErrosDeEntrada(
        [EntradaInvalida("meta_cbios", "campo obrigatório"), EntradaInvalida(None, "x; y")]
    )
    assert em_uma_celula(erros) == "meta_cbios: campo obrigatório | x; y"
    assert em_uma_celula(EntradaInvalida("ano", "campo obrigatório")) == "ano: campo obrigatório"


def test_o_erro_de_uma_linha_diz_onde_para_um_programa() -> None:
    """``linha`` (or ``item``) beside ``campo`` and ``mensagem``: a program need not read the
    message to find the row."""
    assert Local(3).erro("campo obrigatório", "ano").como_dict() == {
        "erro": {"campo": "ano", "mensagem": "linha 3, coluna ano: campo obrigatório", "linha": 3}
    }
    assert Local(2, "item", "campo").erro("x", "ano").como_objeto()["item"] == 2
    assert EntradaInvalida("ano", "x").como_objeto() == {"campo": "ano", "mensagem": "x"}
