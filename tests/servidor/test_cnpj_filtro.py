"""A CNPJ given as a filter (the hostile review of 02/12/2026): a text without a CNPJ's shape
(wrong length or characters) is an error naming ``cnpj`` on the command line, the API's listings,
the pages and the calendar, never an empty result that reads as "no such client"; a well-shaped
one with wrong check digits just searches (a stored CNPJ is never refused:
:func:`multas.nucleo.cnpj.ler_filtro`)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from multas.nucleo.cnpj import digitos_verificadores, forma_valida, ler_filtro, normalizar
from multas.nucleo.erros import EntradaInvalida
from multas.principal import cli
from multas.servidor import criar_app

#: wrong length or characters: errors
MALFORMADOS = ["abc!", "1122233300018", "112223330001811", "11.222.333/0001-8X", "１１222333000181",
               "11 222 333 0001 81", "x" * 60]  # fmt: skip
#: a CNPJ's shape, its check digits wrong: searched, nothing found
DV_ERRADO = "11.222.333/0001-80"
#: a stored processo's CNPJ with wrong check digits: found by itself
GUARDADO = "12.345.678/0001-90"


@given(st.text(alphabet="0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ./- ", min_size=1, max_size=20))
def test_filtro_so_recusa_a_forma(texto: str) -> None:
    try:
        lido = ler_filtro(texto)
    except EntradaInvalida as erro:
        assert erro.campo == "cnpj" and "CNPJ inválido" in erro.mensagem
        assert not forma_valida(texto)
        return
    assert (lido is None and not texto.strip()) or lido == normalizar(texto)


@given(st.text(alphabet="0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=12, max_size=12),
       st.integers(0, 99))  # fmt: skip
def test_digito_errado_nunca_e_erro_do_filtro(base: str, dv: int) -> None:
    assert ler_filtro(f"{base}{dv:02d}") == f"{base}{dv:02d}"
    assert ler_filtro(base + digitos_verificadores(base)) == base + digitos_verificadores(base)


@pytest.fixture
def banco(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'm.db'}"
    corpo = json.dumps({"tipo": "renovabio.lista", "cnpj": GUARDADO,
                        "eventos": [{"evento": "fim_prazo_meta", "data": "2025-12-31"}]})  # fmt: skip
    r = CliRunner().invoke(cli, ["processo", "criar", "-", "-f", "json", "--banco", url], corpo)
    assert r.exit_code == 0, r.output
    return url


@pytest.mark.parametrize("comando", [["processo", "listar"], ["pendencias", "--todos"]])
@pytest.mark.parametrize("cnpj", MALFORMADOS)
def test_linha_de_comando_recusa_filtro_malformado(
    banco: str, comando: list[str], cnpj: str
) -> None:
    r = CliRunner().invoke(cli, [*comando, "--cnpj", cnpj, "-f", "json", "--banco", banco])
    assert r.exit_code == 2, r.output
    erro = json.loads(r.stdout)["erro"]
    assert erro["campo"] == "cnpj"
    assert "CNPJ inválido" in erro["mensagem"] or "caracteres" in erro["mensagem"]
    r = CliRunner().invoke(cli, [*comando, "--cnpj", cnpj, "--banco", banco])
    assert r.exit_code == 2 and "Erro no campo 'cnpj'" in r.output


def test_linha_de_comando_busca_com_digito_errado(banco: str) -> None:
    r = CliRunner().invoke(cli, ["processo", "listar", "--cnpj", DV_ERRADO, "-f", "json",
                                 "--banco", banco])  # fmt: skip
    assert r.exit_code == 0 and json.loads(r.stdout) == []
    r = CliRunner().invoke(cli, ["processo", "listar", "--cnpj", "12345678000190", "-f", "json",
                                 "--banco", banco])  # fmt: skip
    assert r.exit_code == 0 and len(json.loads(r.stdout)) == 1  # stored, wrong digits: found


@pytest.fixture
def cliente(banco: str) -> Iterator[TestClient]:
    with TestClient(criar_app(banco), raise_server_exceptions=False) as c:
        yield c


ROTAS = ["/api/v1/processos", "/api/v1/casos", "/api/v1/pendencias", "/api/v1/prazos/calendario.ics",
         "/processos", "/casos", "/pendencias"]  # fmt: skip


@pytest.mark.parametrize("rota", ROTAS)
@pytest.mark.parametrize("cnpj", ["abc!", "1122233300018", "11.222.333/0001-8X"])
def test_rotas_recusam_filtro_malformado(cliente: TestClient, rota: str, cnpj: str) -> None:
    r = cliente.get(rota, params={"cnpj": cnpj})
    assert r.status_code == 422, r.text[:300]
    if rota.startswith("/api/"):
        assert r.json()["erro"]["campo"] == "cnpj"
    else:
        assert "CNPJ inválido" in r.text


@pytest.mark.parametrize("rota", ROTAS)
def test_rotas_buscam_com_digito_errado(cliente: TestClient, rota: str) -> None:
    assert cliente.get(rota, params={"cnpj": DV_ERRADO}).status_code == 200
    assert cliente.get(rota, params={"cnpj": ""}).status_code == 200  # an empty field: no filter
    if rota == "/api/v1/processos":
        assert cliente.get(rota, params={"cnpj": DV_ERRADO}).json()["total"] == 0
        assert cliente.get(rota, params={"cnpj": GUARDADO}).json()["total"] == 1
