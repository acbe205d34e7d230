"""A case's errors found together (issue 37, item 9): past the regime, every unknown field,
identity field, reading and field of the regime is read on its own, and all their errors are
raised at once, the first standing for all (what a single-error reader always got)."""

from __future__ import annotations

import pytest

from multas.nucleo.erros import EntradaInvalida, ErrosDeEntrada
from multas.nucleo.motor import ler_caso


def test_todos_os_erros_independentes_de_um_caso() -> None:
    with pytest.raises(ErrosDeEntrada) as info:
        ler_caso(
            {
                "regime": "renovabio.distribuidor",
                "xyz": 1,
                "cnpj": 5,
                "ano_meta": "dois mil",
                "cbios_aposentados": -1,
                "interpretacao": {"faturamento": "soma"},
            }
        )
    erro = info.value
    assert [e.campo for e in erro.todos()] == [
        "xyz",
        "cnpj",
        "interpretacao.faturamento",
        "ano_meta",
        "meta_cbios",
        "cbios_aposentados",
    ]
    assert (erro.campo, erro.mensagem) == ("xyz", erro.todos()[0].mensagem)
    assert isinstance(erro, EntradaInvalida)


def test_um_so_erro_continua_sendo_ele_mesmo() -> None:
    with pytest.raises(EntradaInvalida) as info:
        ler_caso({"regime": "anp.infracao"})
    assert type(info.value) is EntradaInvalida and info.value.campo == "inciso"
    assert info.value.todos() == (info.value,)


def test_sem_regime_nada_mais_e_lido() -> None:
    with pytest.raises(EntradaInvalida) as info:
        ler_caso({"regime": "nenhum", "xyz": 1})
    assert info.value.todos() == (info.value,) and info.value.campo == "regime"
