"""Issue 37, item 13: the lists show what users search by. ``/processos`` has the ANP's own
reference (the processo's ``id``) in a column and a filter by estado; ``/carteira`` has the
latest year's fine and status beside each distributor, as its own page computes them."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from multas.nucleo.ciclo.pendencias import ESTADOS
from multas.nucleo.dinheiro import formatar_brl
from multas.saidas.exportar import situacao_do_ano
from tests.utils.processos import PROCESSOS

CNPJ = "12.345.678/0001-95"


def _linhas(pagina: str) -> list[str]:
    corpo = pagina.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return re.findall(r"<tr>(.*?)</tr>", corpo, re.S)


def _celulas(linha: str) -> list[list[str]]:
    """Each cell's words (tags dropped)."""
    celulas = re.findall(r"<td[^>]*>(.*?)</td>", linha, re.S)
    return [re.sub(r"<[^>]+>", " ", c).split() for c in celulas]


def _salvar_processos(cliente: TestClient) -> dict[int, dict[str, Any]]:
    """The work queue's five processos, each with an ANP reference: number → summary."""
    for n, corpo in enumerate(PROCESSOS.values()):
        r = cliente.post("/api/v1/processos", json=corpo | {"id": f"48610.00{n}123/2026-11"})
        assert r.status_code == 201, r.text
    return {p["processo_id"]: p for p in cliente.get("/api/v1/processos").json()["processos"]}


def test_processos_mostram_a_referencia_da_anp(cliente: TestClient) -> None:
    salvos = _salvar_processos(cliente)
    sem = cliente.post("/api/v1/processos", json=PROCESSOS["A"]).json()["processo_id"]
    pagina = cliente.get("/processos").text
    assert '<th scope="col">Referência (ANP)</th>' in pagina
    referencias = {}
    for linha in _linhas(pagina):
        celulas = _celulas(linha)
        referencias[int(celulas[0][0])] = " ".join(celulas[1])
    assert referencias == {n: p["id"] for n, p in salvos.items()} | {sem: "—"}


def test_processos_filtrados_pelo_estado(cliente: TestClient) -> None:
    salvos = _salvar_processos(cliente)
    estados = {p["estado"] for p in salvos.values()}
    assert len(estados) > 1  # the filter has something to leave out
    for estado in estados:
        pagina = cliente.get("/processos", params={"estado": estado})
        assert pagina.status_code == 200
        mostrados = {int(_celulas(linha)[0][0]) for linha in _linhas(pagina.text)}
        assert mostrados == {n for n, p in salvos.items() if p["estado"] == estado}, estado
        assert f'<option value="{estado}" selected>' in pagina.text
    nenhum = next(e for e in ESTADOS if e not in estados)
    vazio = cliente.get("/processos", params={"estado": nenhum})
    assert "Nenhum processo salvo com esse filtro." in vazio.text
    todos = cliente.get("/processos", params={"estado": ""}).text
    assert len(_linhas(todos)) == len(salvos)


def test_o_filtro_de_estado_deriva_so_a_pagina(
    cliente: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The estado filter reads the work queue's index: once the processos are indexed, a
    request derives only the processos of its page, never every processo."""
    from multas.servicos.processos import CicloProcessos

    salvos = _salvar_processos(cliente)
    cliente.get("/pendencias")  # the day's queue indexes every processo
    derivados: list[int] = []
    original = CicloProcessos.derivar_ou_erro

    def contar(self: CicloProcessos, armazenado: Any, *a: Any, **k: Any) -> Any:
        derivados.append(armazenado.id)
        return original(self, armazenado, *a, **k)

    monkeypatch.setattr(CicloProcessos, "derivar_ou_erro", contar)
    estado = next(p["estado"] for p in salvos.values())
    pagina = cliente.get("/processos", params={"estado": estado, "limite": 1})
    assert pagina.status_code == 200
    mostrados = [int(_celulas(linha)[0][0]) for linha in _linhas(pagina.text)]
    assert len(mostrados) == 1 and derivados == mostrados


def test_processos_com_estado_desconhecido(cliente: TestClient) -> None:
    r = cliente.get("/processos", params={"estado": "vencido"}, headers={"Accept": "text/html"})
    assert r.status_code == 422
    assert "estado desconhecido: &#39;vencido&#39;" in r.text


def test_carteira_mostra_a_multa_e_a_situacao_do_ultimo_ano(cliente: TestClient) -> None:
    for ano, aposentados in ((2024, 1000), (2025, 400)):
        corpo = {
            "cnpj": CNPJ,
            "nome": "Distribuidora Exemplo",
            "ano": ano,
            "meta_cbios": 1000,
            "cbios_aposentados": aposentados,
            "maior_media_mensal": "71.70",
        }
        assert cliente.post("/api/v1/carteira", json=corpo).status_code == 200
    cumpriu = {"cnpj": "11.222.333/0001-81", "ano": 2025, "meta_cbios": 10}
    assert cliente.post("/api/v1/carteira", json=cumpriu | {"cbios_aposentados": 10}).is_success
    pagina = cliente.get("/carteira").text
    assert '<th scope="col" class="num">Multa do último ano</th>' in pagina
    linhas = {" ".join(_celulas(linha)[0]): _celulas(linha) for linha in _linhas(pagina)}
    for cnpj in (CNPJ, "11.222.333/0001-81"):
        ultimo = cliente.get("/api/v1/carteira/distribuidor", params={"cnpj": cnpj}).json()
        ultimo = ultimo["anos"][-1]
        celulas = linhas[cnpj]
        assert celulas[3:] == [
            [str(ultimo["ano"])],
            formatar_brl(ultimo["multa"]).split(),
            situacao_do_ano(ultimo).split(),
        ]
    assert linhas[CNPJ][4] == ["R$", "100.000,00"] and linhas[CNPJ][5] == ["multa"]
    assert linhas["11.222.333/0001-81"][5] == ["meta", "cumprida"]
