"""Daily quotes read once: the same quotes given to many cases (a year's ledger gives them to
every distributor) are read once and their price found once, and nothing else is ever taken
for them: the reading is remembered by the exact input, never by the list's identity."""

from __future__ import annotations

import pickle
from datetime import date, timedelta
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from multas.nucleo import contrato
from multas.nucleo.contrato import Campo, ler_valor
from multas.nucleo.cotacoes import Serie
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.motor import calcular
from multas.nucleo.preco import Cotacao, Diarias

CAMPO = Campo("cotacoes_diarias", "cotacoes_diarias", "", False, 0)


def _ler(bruto: Any) -> tuple[Cotacao, ...]:
    return ler_valor(bruto, CAMPO)  # type: ignore[no-any-return]


def _sem_memoria(bruto: Any) -> tuple[Cotacao, ...]:
    contrato._lidas.clear()
    return _ler(bruto)


def _dias(precos: list[str]) -> list[dict[str, Any]]:
    dia = date(2024, 1, 2)
    return [{"data": (dia + timedelta(i)).isoformat(), "preco": p} for i, p in enumerate(precos)]


def test_as_mesmas_cotacoes_sao_lidas_uma_vez() -> None:
    contrato._lidas.clear()
    primeira = _ler(_dias(["50.1", "51.2"]))
    assert isinstance(primeira, Diarias)
    assert _ler(_dias(["50.1", "51.2"])) is primeira  # another list, the same text
    assert primeira == (
        Cotacao(date(2024, 1, 2), Fraction("50.1")),
        Cotacao(date(2024, 1, 3), Fraction("51.2")),
    )


def test_uma_lista_alterada_depois_de_lida_e_lida_de_novo() -> None:
    bruto = _dias(["50.1", "51.2"])
    antes = _ler(bruto)
    bruto[1]["preco"] = "99"  # the same list, changed
    assert _ler(bruto)[1].preco == 99
    assert _ler(_dias(["50.1", "51.2"])) == antes


@pytest.mark.parametrize(
    ("valor", "campo"),
    [(True, "cotacoes_diarias[0].quantidade"), ("0", "cotacoes_diarias[0].quantidade")],
)
def test_uma_cotacao_recusada_e_recusada_sempre_mesmo_depois_de_uma_parecida_lida(
    valor: object, campo: str
) -> None:
    """``1`` was read; ``True`` (equal to 1, with the same hash) and a bad text are still
    refused, each time."""
    valida = [{"data": "2024-01-02", "quantidade": 1, "valor_financeiro": "10"}]
    _ler(valida)
    for _ in range(2):
        with pytest.raises(EntradaInvalida) as erro:
            _ler([{"data": "2024-01-02", "quantidade": valor, "valor_financeiro": "10"}])
        assert erro.value.campo == campo


@given(
    st.lists(
        st.fixed_dictionaries(
            {"data": st.dates(date(2024, 1, 1), date(2024, 12, 31)).map(date.isoformat)},
            optional={
                "preco": st.one_of(
                    st.integers(0, 10**6),
                    st.decimals(0, 10**6, places=4).map(str),
                    st.sampled_from(["abc", "", "1/3", "-1", "1e3"]),
                ),
                "quantidade": st.one_of(st.integers(-1, 10**6), st.booleans(), st.just("2")),
                "valor_financeiro": st.decimals(0, 10**6, places=2).map(str),
            },
        ),
        min_size=1,
        max_size=6,
    ),
    st.booleans(),
)
def test_ler_da_memoria_e_ler_de_novo_dao_o_mesmo(bruto: list[dict[str, Any]], antes: bool) -> None:
    """Whatever the input, the remembered reading is the fresh one: the same quotes or the
    same refusal, naming the same field."""

    def ler(funcao: Any) -> object:
        try:
            return funcao(bruto)
        except EntradaInvalida as erro:
            return ("erro", erro.campo, str(erro))

    if antes:
        ler(_ler)  # possibly remembered now
    assert ler(_ler) == ler(_sem_memoria)


class _Vira(list):  # type: ignore[type-arg]
    """A list that iterates as one text the first time, and as another after."""

    def __init__(self, primeira: list[Any], depois: list[Any]) -> None:
        super().__init__(primeira)
        self._depois, self._vezes = depois, 0

    def __iter__(self) -> Any:
        self._vezes += 1
        return super().__iter__() if self._vezes == 1 else iter(self._depois)


def _caso(cotacoes: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "regime": "renovabio.distribuidor",
        "ano_meta": 2024,
        "meta_cbios": 100000,
        "cbios_aposentados": 0,
        "cotacoes_diarias": cotacoes,
    }


def test_uma_lista_que_itera_diferente_nao_envenena_a_memoria_de_outro_caso() -> None:
    contrato._lidas.clear()
    esperado = calcular(_caso(_dias(["50.1", "61.2", "40"])), hoje=None)["valor"]
    contrato._lidas.clear()
    calcular(_caso(_Vira(_dias(["50.1", "61.2", "40"]), _dias(["1", "1", "1"]))), hoje=None)
    assert calcular(_caso(_dias(["50.1", "61.2", "40"])), hoje=None)["valor"] == esperado


def test_as_diarias_viajam_sem_o_seu_hash() -> None:
    diarias = Diarias((Cotacao(date(2024, 1, 2), Fraction("50.1")),))
    hash(diarias)
    copia = pickle.loads(pickle.dumps(diarias))
    assert copia == diarias and type(copia) is Diarias
    assert "hash" not in copia.__dict__
    assert hash(copia) == hash(tuple(diarias))


def test_a_serie_da_a_cada_caso_as_suas_proprias_cotacoes() -> None:
    serie = Serie((Cotacao(date(2024, 1, 2), Fraction("50.1")),), fonte="B3")
    primeira = serie.campos_do_caso(2024)
    primeira["cotacoes_diarias"][0]["preco"] = "1"  # one case changes its copy
    assert serie.campos_do_caso(2024)["cotacoes_diarias"] == [
        {"data": "2024-01-02", "preco": "50.1"}
    ]
    assert serie.campos_do_caso(2025)["cotacoes_diarias"] == []


def test_duas_multas_com_as_mesmas_cotacoes_dao_o_que_daria_cada_uma_sozinha() -> None:
    caso = {
        "regime": "renovabio.distribuidor",
        "ano_meta": 2024,
        "meta_cbios": 1000,
        "cbios_aposentados": 0,
        "cotacoes_diarias": _dias(["50.1", "61.2", "40"]),
    }
    juntas = [calcular(caso, hoje=None), calcular(caso, hoje=None)]
    contrato._lidas.clear()
    assert juntas == [calcular(caso, hoje=None)] * 2
