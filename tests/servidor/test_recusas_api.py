"""Whatever a client sends, the API answers 200 or a pt-BR 422: never a 500 (hypothesis builds
cases with every field of every regime filled with values of any JSON type)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from multas.nucleo.catalogo import descrever_regimes
from multas.servidor import criar_app

REGIMES = descrever_regimes()
ESCALARES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.decimals(allow_nan=False, allow_infinity=False).map(str),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(
        [
            "2025-01-01",
            "2024-02-29",
            "9999-12-31",
            "0001-01-01",
            "2025-13-01",
            "XI",
            "xiv",
            "sim",
            "1,5",
            "1.234,56",
            "-1",
            "0",
            "1e3",
            "",
        ]
    ),
    st.text(max_size=8),
)
VALORES = st.one_of(
    ESCALARES,
    st.lists(st.fixed_dictionaries({"data": ESCALARES, "preco": ESCALARES}), max_size=3),
    st.dictionaries(st.sampled_from(["2025-01", "2025-12", "2024-06", "x"]), ESCALARES, max_size=3),
)


@st.composite
def casos(draw: Any) -> dict[str, Any]:
    regime = draw(st.sampled_from(REGIMES))
    caso: dict[str, Any] = {"regime": regime["regime"]}
    for nome in draw(st.lists(st.sampled_from([c["nome"] for c in regime["campos"]]), unique=True)):
        caso[nome] = draw(VALORES)
    if regime["interpretacao"] and draw(st.booleans()):
        chave = draw(st.sampled_from(list(regime["interpretacao"])))
        opcoes = regime["interpretacao"][chave]["opcoes"]
        caso["interpretacao"] = {chave: draw(st.sampled_from([*opcoes, "outra"]))}
    return caso


# not the shared cliente: one app for the whole module, its many requests pay the start-up once
@pytest.fixture(scope="module")
def cliente(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    banco: Path = tmp_path_factory.mktemp("robustez") / "multas.db"
    with TestClient(criar_app(f"sqlite:///{banco}"), raise_server_exceptions=False) as c:
        yield c


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(caso=casos())
def test_qualquer_caso_recebe_200_ou_422_em_portugues(
    cliente: TestClient, caso: dict[str, Any]
) -> None:
    corpo = json.dumps(caso, default=str)
    resposta = cliente.post("/api/v1/calcular", content=corpo)
    assert resposta.status_code in (200, 422), (corpo, resposta.text[:300])
    if resposta.status_code == 422:
        assert set(resposta.json()["erro"]) == {"campo", "mensagem"}


@pytest.mark.parametrize(
    "rota",
    [
        "/api/v1/calcular",
        "/api/v1/casos",
        "/api/v1/processos",
        "/api/v1/prazos",
        "/api/v1/processos/1/eventos",
        "/api/v1/ano",
        "/api/v1/carteira",
    ],
)
def test_metade_de_um_caractere_unicode_e_422_nomeando_o_campo(
    cliente: TestClient, rota: str
) -> None:
    """A lone surrogate (``"\\ud800"``) in a field's name was a 500 on every route (the error
    naming the field could not be written as UTF-8), in a CNPJ of /prazos too (its result
    echoes it); found by a hostile review."""
    for corpo, campo in (
        ('{"regime": "anp.infracao", "tipo": "anp", "\\ud800x": 1}', None),
        ('{"regime": "anp.infracao", "tipo": "anp", "cnpj": "1\\udc00"}', "cnpj"),
    ):
        r = cliente.post(rota, content=corpo, headers={"content-type": "application/json"})
        assert r.status_code == 422, (rota, corpo, r.text[:300])
        assert r.headers["content-type"].startswith("application/problem+json")
        erro = r.json()["erro"]
        assert erro["campo"] == campo and "substituto isolado" in erro["mensagem"], erro
