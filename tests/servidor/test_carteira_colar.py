"""Issue 20, item 6: the ledger's paste-import and the years still open.

- A refused paste shows its error beside the paste box (not on the year form), naming the
  spreadsheet's line (the header is line 1, as the file importers count) and column; the year
  form keeps its state (the deferral box stays ticked) and the pasted rows stay in the box.
- The import records who imported: the signed-in user, or on an open server the name the
  paste form gives (remembered for the next forms).
- A year whose deadline to prove the target has not passed on the (injected) date is marked
  "projeção": ``projecao: true`` in the JSON, in ``carteira mostrar`` and on the page."""

from __future__ import annotations

import json
import re
from datetime import date, datetime
from html import unescape
from pathlib import Path
from typing import Any

import pytest
import time_machine
from click.testing import CliRunner
from fastapi.testclient import TestClient

from multas.nucleo.ciclo.carteira import AnoCarteira, calcular_carteira, marcar_projecoes
from multas.principal import cli
from multas.servicos.relogio import fuso_brasilia
from multas.servidor import criar_app
from tests.utils import Ambiente, com

CNPJ = "11.222.333/0001-81"
CABECALHO = "cnpj\tnome\tano\tmeta_cbios\tcbios_aposentados\tmaior_media_mensal\n"
BOA = f"{CNPJ}\tDistribuidora\t2025\t1000\t400\t71,70\n"


def _no_dia(dia: date) -> Any:
    return time_machine.travel(
        datetime(dia.year, dia.month, dia.day, 12, tzinfo=fuso_brasilia()), tick=True
    )


def _secao(html: str, titulo: str) -> str:
    """The page's section (``<section>``) labelled by ``titulo``'s id."""
    achado = re.search(rf'<section[^>]*aria-labelledby="{titulo}".*?</section>', html, re.S)
    assert achado, titulo
    return achado[0]


def test_erro_da_colagem_fica_junto_da_caixa_com_linha_e_coluna(cliente: TestClient) -> None:
    colado = CABECALHO + BOA + f"{CNPJ}\tDistribuidora\t2026\t1000\t-5\t71,70\n"
    r = cliente.post("/carteira/importar", data={"conteudo": colado, "usuario": "Bia"})
    assert r.status_code == 422
    importar = _secao(r.text, "titulo-importar")
    ano = _secao(r.text, "titulo-ano")
    esperado = "linha 3, coluna cbios_aposentados: deve ser maior ou igual a 0"
    achado = re.search(
        r'<p class="mensagem-erro" id="erro-conteudo"><span class="vh">Erro: </span>(.*?)</p>',
        importar,
    )
    assert achado and unescape(achado[1]) == esperado  # beside the box, 1-based, header = 1
    assert 'aria-invalid="true"' in importar and "Nada foi importado" in importar
    assert unescape(re.search(r"<textarea[^>]*>(.*?)</textarea>", importar, re.S)[1]) == colado
    # the year form: no error, its boxes at their defaults (the deferral box ticked)
    assert "resumo-erro" not in ano and "com-erro" not in ano
    assert re.search(r'id="campo-diferir"[^>]* checked', ano)
    assert not re.search(r'id="campo-segundo_ano_atuacao"[^>]* checked', ano)
    # all or nothing: the good row was not stored
    assert cliente.get("/api/v1/carteira/distribuidor", params={"cnpj": CNPJ}).status_code == 404


def test_erro_do_ano_continua_no_formulario_do_ano(cliente: TestClient) -> None:
    r = cliente.post("/carteira", data={"cnpj": CNPJ, "ano": "dois mil", "diferir": "sim"})
    assert r.status_code == 422
    assert "resumo-erro" in _secao(r.text, "titulo-ano")
    assert "resumo-erro" not in _secao(r.text, "titulo-importar")


def _quem_importou(cliente: TestClient, cabecalhos: dict[str, str] | None = None) -> list[str]:
    registros = cliente.get("/api/v1/auditoria", headers=cabecalhos or {}).json()
    return [r["usuario"] for r in registros if r["tabela"] == "carteira_anos"]


def test_servidor_aberto_registra_o_nome_da_colagem(cliente: TestClient) -> None:
    assert 'id="campo-importar-usuario"' in cliente.get("/carteira").text
    r = cliente.post(
        "/carteira/importar",
        data={"conteudo": CABECALHO + BOA, "usuario": "Bia Souza"},
        follow_redirects=False,
    )
    assert r.status_code == 303
    assert _quem_importou(cliente) == ["Bia Souza"]
    # the name is remembered for the page's next forms
    assert 'value="Bia Souza"' in cliente.get("/carteira").text


def test_usuario_autenticado_e_quem_importou(ambiente: Ambiente) -> None:
    c = ambiente.cliente
    analista = com(ambiente, "analista") | {"Accept": "text/html"}
    pagina = c.get("/carteira", headers=analista).text
    assert 'id="campo-importar-usuario"' not in pagina  # the login says who
    r = c.post(
        "/carteira/importar",
        data={"conteudo": CABECALHO + BOA, "usuario": "outra pessoa"},
        headers=analista,
        follow_redirects=False,
    )
    assert r.status_code == 303, r.text[:300]
    assert _quem_importou(c, com(ambiente, "admin")) == ["usuária analista"]


# --- projeção ---------------------------------------------------------------------------------


def _anos() -> list[AnoCarteira]:
    from multas.nucleo.ciclo.carteira import ler_anos

    return ler_anos(
        [
            {
                "cnpj": CNPJ,
                "ano": a,
                "meta_cbios": 1000,
                "cbios_aposentados": 400,
                "maior_media_mensal": "71.70",
                "meta_anterior_cumprida": True,
            }
            for a in (2024, 2025, 2026)
        ]
    )


@pytest.mark.parametrize(
    ("dia", "projecoes"),
    [
        (date(2025, 12, 31), [False, True, True]),  # the deadline's own day: still open
        (date(2026, 1, 1), [False, False, True]),
        (date(2026, 12, 31), [False, False, True]),
        (date(2027, 1, 1), [False, False, False]),
    ],
)
def test_ano_cujo_prazo_nao_passou_e_projecao(dia: date, projecoes: list[bool]) -> None:
    carteira = marcar_projecoes(calcular_carteira(_anos()), dia)
    assert [a["prazo_comprovacao"] for a in carteira["anos"]] == [
        "2024-12-31",
        "2025-12-31",
        "2026-12-31",
    ]
    assert [a["projecao"] for a in carteira["anos"]] == projecoes


def test_ano_sem_prazo_conhecido_e_projecao_ate_acabar() -> None:
    carteira = {"anos": [{"ano": 2031, "prazo_comprovacao": None}]}
    assert marcar_projecoes(carteira, date(2031, 12, 31))["anos"][0]["projecao"] is True
    assert marcar_projecoes(carteira, date(2032, 1, 1))["anos"][0]["projecao"] is False


def test_projecao_na_pagina_na_api_e_na_linha_de_comando(tmp_path: Path) -> None:
    banco = f"sqlite:///{tmp_path / 'multas.db'}"
    arquivo = tmp_path / "c.csv"
    arquivo.write_text(
        "cnpj,ano,meta_cbios,cbios_aposentados,maior_media_mensal,meta_anterior_cumprida\n"
        f"{CNPJ},2025,1000,400,71.70,sim\n{CNPJ},2026,1000,400,71.70,sim\n",
        encoding="utf-8",
    )
    r = CliRunner().invoke(cli, ["carteira", "importar", str(arquivo), "--banco", banco])
    assert r.exit_code == 0, r.output
    with _no_dia(date(2026, 6, 30)):
        r = CliRunner().invoke(cli, ["carteira", "mostrar", CNPJ, "--banco", banco, "-f", "json"])
        assert [a["projecao"] for a in json.loads(r.stdout)["anos"]] == [False, True]
        r = CliRunner().invoke(cli, ["carteira", "mostrar", CNPJ, "--banco", banco])
        linhas = r.stdout.splitlines()
        ano_2025 = next(x for x in linhas if x.startswith("2025 "))
        ano_2026 = next(x for x in linhas if x.startswith("2026 "))
        assert "projeção" not in ano_2025 and ano_2026.endswith("  projeção")
        assert (
            "      projeção: o prazo de comprovação (31/12/2026 (quinta-feira)) ainda não "
            "passou; os números deste ano podem mudar" in r.stdout
        )
        with TestClient(criar_app(banco), raise_server_exceptions=False) as c:
            dados = c.get("/api/v1/carteira/distribuidor", params={"cnpj": CNPJ}).json()
            assert [a["projecao"] for a in dados["anos"]] == [False, True]
            pagina = c.get("/carteira/distribuidor", params={"cnpj": CNPJ}).text
            # the year's memória says it too (found by the hostile review of 02/12/2026)
            memorias = {
                ano: c.get("/carteira/distribuidor/memoria", params={"cnpj": CNPJ, "ano": ano}).text
                for ano in (2025, 2026)
            }
    assert 'id="memoria-projecao"' in memorias[2026]
    assert 'id="memoria-projecao"' not in memorias[2025]
    linha_2025 = re.search(r'<tr id="ano-2025">.*?</tr>', pagina, re.S)[0]
    linha_2026 = re.search(r'<tr id="ano-2026">.*?</tr>', pagina, re.S)[0]
    assert "projeção" not in linha_2025
    assert 'class="selo-projecao"' in linha_2026 and "projeção: </span>R$" in linha_2026
    assert 'id="total-projecao"' in pagina
    # a year later, nothing is a projection
    with _no_dia(date(2027, 1, 1)), TestClient(criar_app(banco)) as c:
        pagina = c.get("/carteira/distribuidor", params={"cnpj": CNPJ}).text
        assert "selo-projecao" not in pagina and 'id="total-projecao"' not in pagina
