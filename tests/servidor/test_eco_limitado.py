"""Error messages echo at most a bounded piece of the input (the hostile review of 02/12/2026):
a 10 KB text, a 50,000-digit number or a 10 KB CNPJ is shown as its first 40 characters, "…"
and its length (:func:`multas.nucleo.erros.mostrar_valor`, the one helper), on the command line, the
API and the batch alike."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from multas.nucleo.erros import LIMITE_ECO, mostrar_valor
from multas.principal import cli

LONGO = "x" * 10_000
#: no message, whatever it echoes, is longer than this
MAXIMO = 400
CASO = json.loads((Path(__file__).parents[2] / "exemplos/renovabio-distribuidor.json").read_text())


@given(st.one_of(st.text(), st.integers(), st.binary(), st.floats(), st.none()))
def test_mostrar_valor_e_limitado(valor: object) -> None:
    mostrado = mostrar_valor(valor)
    # an escaped character (\U0001f600 is 10 characters of repr) counts for what it shows
    assert len(mostrado) <= LIMITE_ECO + 40
    if isinstance(valor, str) and len(repr(valor)) <= LIMITE_ECO + 2:
        assert mostrado == repr(valor)


def test_numero_de_50_mil_algarismos_e_texto_de_10_kb() -> None:
    assert mostrar_valor(10**50_000) == "um número de cerca de 50001 dígitos"
    assert mostrar_valor(LONGO) == "'" + "x" * LIMITE_ECO + "…' (10000 caracteres)"


def _mensagem_curta(mensagem: str, campo: str | None = None) -> None:
    assert len(mensagem) < MAXIMO, mensagem[:500]
    assert "x" * (LIMITE_ECO + 1) not in mensagem and "1" * (LIMITE_ECO + 1) not in mensagem


@pytest.mark.parametrize(
    ("argumentos", "entrada", "campo"),
    [
        (["calcular", "-", "-f", "json"], json.dumps({**CASO, "meta_cbios": LONGO}), "meta_cbios"),
        (["calcular", "-", "-f", "json"], json.dumps({**CASO, "regime": LONGO}), "regime"),
        (["pendencias", "-f", "json", "--estado", LONGO], None, "estado"),
        (["pendencias", "-f", "json", "--responsavel", LONGO], None, "responsavel"),
        (["pendencias", "-f", "json", "--cnpj", "1" * 60 + "!"], None, "cnpj"),
        (["processo", "listar", "-f", "json", "--cnpj", "1" * 10_000], None, "cnpj"),
        (["listas", "sancoes", "-f", "json", "--data", "1" * 10_000], None, "data"),
    ],
    ids=["numero", "regime", "estado", "responsavel", "cnpj-fila", "cnpj-processos", "data"],
)
def test_linha_de_comando(
    tmp_path: Path, argumentos: list[str], entrada: str | None, campo: str
) -> None:
    banco = [] if argumentos[0] == "calcular" else ["--banco", f"sqlite:///{tmp_path / 'm.db'}"]
    r = CliRunner().invoke(cli, [*argumentos, *banco], entrada)
    assert r.exit_code == 2, r.output[:500]
    erro = json.loads(r.stdout)["erro"]
    assert erro["campo"] == campo
    _mensagem_curta(erro["mensagem"])


@pytest.mark.parametrize(
    ("metodo", "url", "corpo", "campo"),
    [
        ("post", "/api/v1/calcular", {**CASO, "meta_cbios": LONGO}, "meta_cbios"),
        ("post", "/api/v1/calcular", {**CASO, "regime": LONGO}, "regime"),
        ("get", f"/api/v1/pendencias?estado={LONGO}", None, "estado"),
        ("get", f"/api/v1/processos?cnpj={'1' * 10_000}", None, "cnpj"),
        ("get", f"/api/v1/casos?cnpj={'1' * 10_000}", None, "cnpj"),
        ("get", f"/api/v1/processos?limite={'9' * 50_000}", None, "limite"),
    ],
    ids=["numero", "regime", "estado", "cnpj-processos", "cnpj-casos", "limite"],
)
def test_api(cliente: TestClient, metodo: str, url: str, corpo: Any, campo: str) -> None:
    r = getattr(cliente, metodo)(url, **({"json": corpo} if corpo is not None else {}))
    assert r.status_code == 422, r.text[:500]
    erro = r.json()["erro"]
    assert erro["campo"] == campo
    _mensagem_curta(erro["mensagem"])


def test_lote(tmp_path: Path) -> None:
    from tests.utils.lote import escrever_csv, ler_csv

    linha = {k: str(v) for k, v in CASO.items() if k != "regime"}
    entrada, saida = tmp_path / "d.csv", tmp_path / "r.csv"
    escrever_csv(entrada, [{**linha, "meta_cbios": LONGO}], list(linha))
    r = CliRunner().invoke(
        cli, ["lote", str(entrada), "-r", "renovabio.distribuidor", "-o", str(saida)]
    )
    assert r.exit_code == 3, r.output[:500]  # some rows had errors
    erro = ler_csv(saida)[0]["erro"]
    assert erro.startswith("meta_cbios: ")
    _mensagem_curta(erro)
