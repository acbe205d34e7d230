"""The report of the memória de cálculo: PDF (its text extracted with pypdf) and HTML, from
the library and from ``multas calcular --formato pdf|html``."""

from __future__ import annotations

import io
import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from multas import __version__, calcular
from multas.nucleo.json_exato import ler_json
from multas.nucleo.legislacao import carregar
from multas.saidas.relatorio import como_html, como_pdf
from multas.saidas.relatorio.pdf import SUBSTITUTOS, cobrir, registrar_fontes
from tests.utils import MULTAS
from tests.utils.saidas import FRASE_LEGAL, metadados, texto_do_pdf

RAIZ = Path(__file__).resolve().parents[2]

EXEMPLO = RAIZ / "exemplos" / "renovabio-distribuidor.json"


def caso_exemplo() -> dict[str, object]:
    caso: dict[str, object] = ler_json(EXEMPLO.read_text(encoding="utf-8"))
    return caso


def test_pdf_traz_valor_passos_citacao_texto_legal_versoes_e_datas() -> None:
    caso = caso_exemplo()
    resultado = calcular(caso)
    conteudo = como_pdf(resultado, caso, metadados())
    assert conteudo.startswith(b"%PDF-")
    texto = texto_do_pdf(conteudo)
    assert "R$ 10.625.000,00" in texto  # the fine
    assert "R$ 43.020.000,00" in texto  # a step's value
    assert "Decreto nº 9.888/2019, art. 6º-A, § 8º" in texto  # a citation, with § and º
    assert FRASE_LEGAL in texto  # the legal text quoted
    assert "CBIOs não adquiridos: meta individual − CBIOs aposentados" in texto  # "−", "ã"
    assert "R$ 10.755.000,00" in texto  # another reading (faturamento = maior)
    assert "Caso nº 7" in texto and "Ana Souza" in texto
    assert f"multas {__version__}" in texto and carregar().versao in texto
    assert "16/03/2026 09:30 (horário de Brasília)" in texto  # computed at, in Brasília time
    assert "Redação aplicada" in texto and "redação dada pelo Decreto nº 12.437/2025" in texto


def test_html_traz_o_mesmo_conteudo_e_escapa_o_texto() -> None:
    caso = caso_exemplo()
    html = como_html(calcular(caso), caso, metadados())
    assert html.startswith("<!doctype html>") and 'lang="pt-BR"' in html
    assert "R$ 10.625.000,00" in html
    assert "Decreto nº 9.888/2019, art. 6º-A, § 8º" in html
    assert FRASE_LEGAL in html
    assert "<script" not in html
    mora = calcular(
        {
            "regime": "anp.mora",
            "principal": "1000.00",
            "data_ciencia": "2024-03-29",
            "data_pagamento": "2024-07-01",
        }
    )
    assert '"expediente"' not in como_html(mora, None, metadados())  # quotes are escaped


def _textos_mostrados() -> list[str]:
    """Every legal text and every memória the engine can show (the spec's worked cases)."""
    textos = [
        p.read_text(encoding="utf-8")
        for p in (RAIZ / "src" / "multas" / "nucleo" / "legislacao" / "parametros").glob("*.toml")
    ]
    for arquivo in sorted((RAIZ / "tests" / "casos_spec").glob("*.json")):
        entrada = ler_json(arquivo.read_text(encoding="utf-8"))["entrada"]
        textos.append(json.dumps(calcular(entrada), ensure_ascii=False))
    return textos


def test_a_fonte_do_pdf_tem_todos_os_caracteres_da_legislacao_e_das_memorias() -> None:
    for texto in _textos_mostrados():
        faltam = {c for c, coberto in zip(texto, cobrir(texto), strict=True) if c != coberto}
        assert not faltam, f"a fonte do PDF não tem: {sorted(faltam)}"


def test_caractere_sem_glifo_vira_substituto_legivel() -> None:
    assert cobrir("a → b") == "a -> b"


@given(st.text(max_size=60))
def test_cobrir_troca_cada_caractere_sem_glifo_e_so_ele(texto: str) -> None:
    """Character by character: the font's own, a new line or a tab kept; any other its
    substitute, or "?" (the table remembers what it found; the answer never depends on it)."""
    cobertos = registrar_fontes()
    esperado = "".join(
        c if ord(c) in cobertos or c in "\n\t" else SUBSTITUTOS.get(c, "?") for c in texto
    )
    assert cobrir(texto) == esperado


def test_cli_formato_pdf_com_saida(tmp_path: Path) -> None:
    destino = tmp_path / "memoria.pdf"
    r = subprocess.run(
        [MULTAS, "calcular", str(EXEMPLO), "--formato", "pdf", "--saida", str(destino)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    texto = texto_do_pdf(destino.read_bytes())
    assert "R$ 10.625.000,00" in texto and FRASE_LEGAL in texto


def test_cli_formato_html_na_saida_padrao() -> None:
    r = subprocess.run(
        [MULTAS, "calcular", str(EXEMPLO), "--formato", "html"],
        capture_output=True,
        encoding="utf-8",
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    assert "R$ 10.625.000,00" in r.stdout and FRASE_LEGAL in r.stdout


def test_cli_relatorio_de_entrada_invalida_nao_cria_arquivo(tmp_path: Path) -> None:
    destino = tmp_path / "memoria.pdf"
    r = subprocess.run(
        [MULTAS, "calcular", "-", "--formato", "pdf", "--saida", str(destino)],
        input='{"regime": "anp.infracao", "inciso": "15"}',
        capture_output=True,
        encoding="utf-8",
        timeout=60,
    )
    assert r.returncode == 2
    assert "inciso" in r.stderr and not destino.exists()


@pytest.mark.parametrize("formato", ["pdf", "html"])
def test_cli_relatorio_recusa_json_lines(formato: str) -> None:
    r = subprocess.run(
        [MULTAS, "calcular", str(RAIZ / "exemplos" / "casos.jsonl"), "--formato", formato],
        capture_output=True,
        encoding="utf-8",
        timeout=60,
    )
    assert r.returncode == 2 and "JSON Lines" in r.stderr


def test_a_identidade_do_caso_encabeca_o_pdf_e_o_html() -> None:
    """Issue 19: the case's cnpj, nome and referencia head the report, not as case fields."""
    caso = caso_exemplo() | {
        "cnpj": "11.222.333/0001-81",
        "nome": "Alfa <Combustíveis>",
        "referencia": "48610.000001/2025-11",
    }
    resultado = calcular(caso)
    texto = texto_do_pdf(como_pdf(resultado, caso, metadados()))
    inicio = texto.index("Valor devido")
    cabeca = texto[:inicio]
    for trecho in ("CNPJ", "11.222.333/0001-81", "Alfa <Combustíveis>", "48610.000001/2025-11"):
        assert trecho in cabeca, trecho
    assert "(cnpj)" not in texto  # not listed again among the case's fields
    html = como_html(resultado, caso, metadados())
    assert "<dt>CNPJ</dt><dd>11.222.333/0001-81</dd>" in html
    assert "Alfa &lt;Combustíveis&gt;" in html


def test_o_pdf_tem_a_data_do_documento_e_continua_reproduzivel(monkeypatch: Any) -> None:
    """Issue 37 item 14: every PDF said it was created on 01/01/2000 (ReportLab's invariant
    mode, kept for the same bytes on one core or many). The date is now the document's own,
    given by the caller; SOURCE_DATE_EPOCH, when set, wins (reproducible builds)."""
    from datetime import date

    from pypdf import PdfReader

    from multas.saidas.relatorio.pdf import ficha_pdf

    def criado(pdf: bytes) -> str:
        return str(PdfReader(io.BytesIO(pdf)).metadata["/CreationDate"])

    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    pdf = ficha_pdf("Resumo", [("Ano", "2024")], "rodapé", date(2025, 3, 3))
    assert criado(pdf).startswith("D:20250303")
    assert ficha_pdf("Resumo", [("Ano", "2024")], "rodapé", date(2025, 3, 3)) == pdf
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # 14/11/2023
    assert criado(ficha_pdf("Resumo", [("Ano", "2024")], "rodapé", date(2025, 3, 3))).startswith(
        "D:20231114"
    )


def test_o_preco_e_o_mes_do_resultado_para_pessoas() -> None:
    """Issue 37 items 5 and 14: the result's outputs showed the price as 2445833317/22000000
    and its month as 2024-01 (the page, the report, the terminal's memória)."""
    from multas import calcular
    from multas.saidas.apresentacao import apresentar
    from multas.saidas.memoria import como_markdown

    resultado = calcular(
        {
            "regime": "renovabio.distribuidor",
            "ano_meta": 2024,
            "meta_cbios": 1000,
            "cbios_aposentados": 900,
            "cotacoes_mensais": {"2024-01": "2445833317/22000000"},
        }
    )
    saidas = dict(apresentar(resultado).saidas)
    assert "R$ 111,1742" in saidas.values() and "01/2024" in saidas.values()
    assert not any("/22000000" in v or v == "2024-01" for v in saidas.values())
    markdown = como_markdown(resultado)
    assert "| R$ 111,1742 |" in markdown and "2445833317/22000000" not in markdown
