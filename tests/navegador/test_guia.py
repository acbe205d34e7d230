"""Issue 20, item 8: the "Guia da página" (docs/guia.md) and its screenshots, in a real
browser. Each step of the guide is done here as the guide says, checked, and photographed. The
photos go to a temporary folder on every run; with ``MULTAS_IMAGENS_DOCS=1`` (``make
imagens``) they replace the ones in ``docs/imagens/``, which are committed, so that ``make
docs`` never needs a browser. The test also checks that the guide shows exactly the photos
this test takes, and that each one is committed."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.fixtures.navegador import COTACOES, DISTRIBUIDORES

pytestmark = [pytest.mark.navegador, pytest.mark.subprocesso]

#: the project (the folder of pyproject.toml), wherever this module sits under tests/
RAIZ = next(p for p in Path(__file__).resolve().parents if (p / "pyproject.toml").is_file())
GUIA = RAIZ / "docs" / "guia.md"
IMAGENS = RAIZ / "docs" / "imagens"
CNPJ = "11.222.333/0001-81"
#: the photos, in the guide's order
FOTOS = (
    "01-formulario.png",
    "02-resultado.png",
    "03-caso-salvo.png",
    "04-processo.png",
    "05-pendencias.png",
    "06-carteira.png",
    "07-ano.png",
    "08-exposicao.png",
)


def _pasta(tmp_path: Path) -> Path:
    return IMAGENS if os.environ.get("MULTAS_IMAGENS_DOCS") == "1" else tmp_path


def _foto(alvo: Any, pasta: Path, nome: str) -> None:
    """A screenshot, kept small: 256 colours are plenty for a page (Pillow, matplotlib's)."""
    import io

    from PIL import Image

    assert nome in FOTOS
    imagem = Image.open(io.BytesIO(alvo.screenshot(animations="disabled")))
    imagem.convert("RGB").quantize(256).save(pasta / nome, optimize=True)


def test_o_guia_mostra_as_fotos_que_este_teste_tira() -> None:
    citadas = re.findall(r"\(imagens/([^)]+\.png)\)", GUIA.read_text(encoding="utf-8"))
    assert tuple(citadas) == FOTOS
    for nome in FOTOS:
        assert (IMAGENS / nome).is_file(), f"docs/imagens/{nome}: rode make imagens"
        assert (IMAGENS / nome).read_bytes().startswith(b"\x89PNG")


def test_o_guia_passo_a_passo(pagina: Any, servidor: str, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    pasta = _pasta(tmp_path)
    pagina.set_viewport_size({"width": 1200, "height": 900})

    # 1. the fine's form, filled with the example, and its result
    pagina.goto("/")
    pagina.get_by_role("link", name="Preencher com um exemplo").click()
    expect(pagina.locator("input[name=maior_media_mensal]")).to_have_value("71,70")
    _foto(pagina, pasta, "01-formulario.png")
    pagina.get_by_role("button", name="Calcular").click()
    expect(pagina.locator("#valor-devido")).to_be_visible()
    _foto(
        pagina.locator("#valor-devido").locator("xpath=ancestor::section[1]"),
        pasta,
        "02-resultado.png",
    )

    # 2. saved, with its name for the audit
    pagina.get_by_label("Seu nome").fill("Ana Souza")
    pagina.get_by_role("button", name="Salvar caso").click()
    expect(pagina.locator(".nota.sucesso")).to_have_text("Caso salvo.")
    _foto(pagina, pasta, "03-caso-salvo.png")

    # 3. a processo and its deadlines (created through the API, as an import would)
    processo = {
        "tipo": "anp",
        "cnpj": CNPJ,
        "nome": "Alfa Combustíveis",
        "eventos": [
            {"evento": "infracao", "data": "2025-01-10"},
            {"evento": "auto_infracao", "data": "2025-02-03"},
        ],
    }
    criado = httpx.post(f"{servidor}/api/v1/processos", json=processo, timeout=30)
    assert criado.status_code in (200, 201), criado.text
    numero = criado.json()["processo_id"]
    pagina.goto(f"/processos/{numero}")
    expect(pagina.locator("h1")).to_contain_text(str(numero))
    _foto(pagina, pasta, "04-processo.png")
    pagina.get_by_role("navigation").get_by_role("link", name="Pendências").click()
    expect(pagina.locator("h1")).to_be_visible()
    _foto(pagina, pasta, "05-pendencias.png")

    # 4. the distributor's ledger
    ano = {"cnpj": CNPJ, "nome": "Alfa Combustíveis", "ano": 2024, "meta_cbios": 100000}
    ano |= {"cbios_aposentados": 97000, "meta_anterior_cumprida": True}
    salvo = httpx.post(f"{servidor}/api/v1/carteira", json=ano, timeout=30)
    assert salvo.status_code == 200, salvo.text
    pagina.goto("/carteira")
    pagina.get_by_role("link", name=CNPJ).click()
    expect(pagina.locator("table").first).to_contain_text("2024")
    _foto(pagina, pasta, "06-carteira.png")

    # 5. the year, from the two files
    distribuidores, cotacoes = tmp_path / "distribuidores.csv", tmp_path / "cbio-b3-2024.csv"
    distribuidores.write_bytes(DISTRIBUIDORES)
    cotacoes.write_bytes(COTACOES)
    pagina.get_by_role("navigation").get_by_role("link", name="Ano").click()
    pagina.get_by_label("Arquivo dos distribuidores").set_input_files(str(distribuidores))
    pagina.get_by_label("Arquivo das cotações do CBIO").set_input_files(str(cotacoes))
    pagina.get_by_label("Ano da meta").fill("2024")
    pagina.get_by_role("button", name="Calcular").click()
    expect(pagina.locator("#resumo-do-ano")).to_be_visible()
    _foto(pagina, pasta, "07-ano.png")

    # 6. the exposure simulation
    pagina.get_by_role("navigation").get_by_role("link", name="Exposição").click()
    for campo, valor in {
        "ano_meta": "2025",
        "meta_cbios": "200.000",
        "cbios_aposentados": "150.000",
        "preco_inicial": "96,70",
        "volatilidade": "0,35",
    }.items():
        pagina.locator(f"[name={campo}]").fill(valor)
    pagina.get_by_label("Lognormal", exact=False).check()
    pagina.get_by_role("button", name="Simular").click()
    expect(pagina.locator("#exposicao-semente")).to_have_text("0")
    expect(pagina.locator("#exposicao-cenarios")).to_have_text("10.000")
    _foto(pagina.locator("#resultado-exposicao"), pasta, "08-exposicao.png")

    assert sorted(p.name for p in pasta.glob("*.png")) == sorted(FOTOS)
