"""The RenovaBio year (issue 19): B3's real 2024 CBIO quotes (tests/dados), and a year of
distributors drawn at random (seeded), every kind of target, shortfall and revenue; the year
computed by the command (``ano_calcular``), by the core (``esperado``) and by the page
(``enviar``, and ``ocultos``, the files the page carries back)."""

from __future__ import annotations

import csv
import html
import io
import random
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from multas.nucleo.arquivos import SERVIDOR, Local
from multas.nucleo.ciclo.planilha import ler_planilha
from multas.nucleo.contrato import Leitura
from multas.nucleo.cotacoes import Serie, ler_serie
from multas.nucleo.legislacao import carregar
from tests.utils import cnpj_valido

if TYPE_CHECKING:
    from click.testing import Result
    from fastapi.testclient import TestClient

COTACOES = Path(__file__).resolve().parents[2] / "tests" / "dados" / "cbio-b3-2024.csv"
#: the same quotes as B3's site gives them to download
B3_SITE = COTACOES.with_name("cbio-b3-site-2024.csv")
TABELA = Leitura(tabela=True)
#: the shipped legislation (read once per process: :func:`multas.nucleo.legislacao.carregar` caches it)
LEGISLACAO = carregar()


def serie_das_cotacoes() -> Serie:
    with COTACOES.open(encoding="utf-8") as arquivo:
        linhas = list(csv.DictReader(arquivo))
    return ler_serie(linhas, [Local(i + 2) for i in range(len(linhas))], TABELA)


def ano_de_distribuidores(n: int, semente: int = 19) -> list[dict[str, str]]:
    g = random.Random(semente)
    linhas = []
    for i in range(n):
        meta = g.randint(1_000, 3_000_000)
        falta_anterior = g.choice([0, 0, 0, g.randint(1, meta // 10)])
        tipo = g.choice(["cumpriu", "diferivel", "pouco", "muito", "zero"])
        if tipo == "cumpriu":
            aposentados = meta + g.randint(0, 500)
        elif tipo == "diferivel":  # at most 15% short
            aposentados = meta - g.randint(1, meta * 15 // 100)
        elif tipo == "pouco":  # a small shortfall: the floor
            aposentados = meta - g.randint(1, 50)
        elif tipo == "muito":
            aposentados = g.randint(0, meta // 2)
        else:
            aposentados = 0
        linha = {
            "cnpj": cnpj_valido(10_000_000 + i),
            "nome": f"Distribuidora {i}",
            "cbios_aposentados": str(aposentados),
        }
        if g.random() < 0.5:
            linha["meta_publicada"] = str(meta)
            linha["falta_anterior"] = str(falta_anterior)
        else:
            linha["meta_cbios"] = str(meta - falta_anterior)
            if falta_anterior:
                linha["falta_anterior"] = str(falta_anterior)
        if not falta_anterior:
            linha["meta_anterior_cumprida"] = g.choice(["sim", "sim", "não", ""])
        if g.random() < 0.2:
            linha["diferir"] = "não"
        if g.random() < 0.4:
            linha["faturamento_ano_meta"] = str(g.randint(10**6, 10**10))
            linha["faturamento_ano_anterior"] = str(g.randint(10**6, 10**10))
        linhas.append(linha)
    return linhas


#: the year page's two files, as uploaded (the server's tests and the browser's): B3's real CBIO
#: quotes of 2024, and the distributors — one met, one deferred, one fined at the exact price,
#: one at the floor, one bad row
COTACOES_ARQUIVO = COTACOES.read_bytes()
DISTRIBUIDORES_ARQUIVO = (
    "cnpj,nome,meta_publicada,falta_anterior,cbios_aposentados,meta_anterior_cumprida\n"
    "11.222.333/0001-81,Alfa Combustíveis,1200000,0,1200000,sim\n"
    "22.333.444/0001-81,Beta Distribuidora,800000,0,720000,sim\n"
    "33.444.555/0001-81,Gama Petróleo,500000,20000,380000,\n"
    "66.777.888/0001-81,Zeta <script>,abc,0,10,\n"
    "44.555.666/0001-81,Delta Energia,90000,0,89990,não\n"
).encode()


def ano_calcular(
    entrada: Path,
    saida: Path,
    *opcoes: str,
    ano: int | str = 2024,
    cotacoes: Path = COTACOES,
) -> Result:
    """``multas ano calcular`` in process: ``entrada``'s distributors in ``ano``, priced by
    ``cotacoes`` (B3's 2024 quotes by default), the files written to ``saida``."""
    from click.testing import CliRunner

    from multas.principal import cli

    argumentos = ["ano", "calcular", str(entrada), "--ano", str(ano), "--cotacoes", str(cotacoes)]
    return CliRunner().invoke(cli, [*argumentos, "--saida", str(saida), *opcoes])


# --- the ANP's Despacho of the year's targets, as published --------------------------------------

#: the Despacho's header (a double space, the year in the names, "(CBIO)") and its two rows
DESPACHO_CABECALHO = [
    "Razão  Social",
    "CNPJ",
    "Meta Individual 2022 (CBIO)",
    "META NÃO CUMPRIDA 2021 (CBIO)",
    "Meta total 2022 (CBIO)",
    "CBIOs aposentados",
    "UF",
]
DESPACHO_LINHAS = [
    ["Alfa Combustíveis", "11.222.333/0001-81", 1000, 200, 1200, 900, "SP"],
    ["Beta", "22.333.444/0001-81", 800, 0, 800, 800, "RJ"],
]


def despacho_xlsx() -> bytes:
    """The Despacho's sheet as published: two title rows, a blank row, column A blank, the
    header on row 5, and a "Fonte:" note after a blank row."""
    import openpyxl

    livro = openpyxl.Workbook()
    folha = livro.active
    assert folha is not None
    folha["B1"] = "AGÊNCIA NACIONAL DO PETRÓLEO, GÁS NATURAL E BIOCOMBUSTÍVEIS"
    folha["B2"] = "Despacho ANP nº 374/2022: metas individuais compulsórias de 2022"
    for linha, valores in enumerate([DESPACHO_CABECALHO, *DESPACHO_LINHAS], start=5):
        for coluna, valor in enumerate(valores, start=2):
            folha.cell(linha, coluna, valor)
    folha["B9"] = "Fonte: ANP/SBQ"
    saida = io.BytesIO()
    livro.save(saida)
    return saida.getvalue()


# --- the year's page (/ano) ---------------------------------------------------------------------


def esperado(distribuidores: bytes = DISTRIBUIDORES_ARQUIVO, ano: int = 2024) -> dict[str, Any]:
    """The core's year on the same files, read as ``multas ano calcular`` reads them."""
    from multas.servicos.ano import calcular_ano

    lida = ler_planilha(distribuidores, "d.csv", False, SERVIDOR)
    cotacoes = ler_planilha(COTACOES_ARQUIVO, "c.csv", False, SERVIDOR)
    serie = ler_serie(cotacoes.linhas, cotacoes.locais, cotacoes.leitura)
    resultado = calcular_ano(
        lida.linhas, lida.locais, lida.leitura, ano, serie, carregar(), com_calculo=True
    )
    return {"lida": lida, **resultado}


def enviar(
    cliente: TestClient,
    campos: dict[str, str] | None = None,
    distribuidores: tuple[str, bytes] | None = ("distribuidores.csv", DISTRIBUIDORES_ARQUIVO),
    cotacoes: tuple[str, bytes] | None = ("cbio-b3-2024.csv", COTACOES_ARQUIVO),
) -> Any:
    """The year's form sent (``POST /ano``) with these fields and files (none: an empty one)."""
    arquivos = {}
    if distribuidores is not None:
        arquivos["distribuidores"] = (*distribuidores, "text/csv")
    if cotacoes is not None:
        arquivos["cotacoes"] = (*cotacoes, "text/csv")
    if not arquivos:  # a form with no file chosen still goes as multipart
        arquivos["vazio"] = ("", b"", "application/octet-stream")
    return cliente.post("/ano", data=campos or {"ano": "2024"}, files=arquivos)


def ocultos(pagina: str) -> dict[str, str]:
    """The download form's hidden fields (the files carried back)."""
    formulario = pagina[pagina.index('id="form-baixar"') :]
    return {
        nome: html.unescape(valor)
        for nome, valor in re.findall(
            r'<input type="hidden" name="([^"]+)" value="([^"]*)"', formulario
        )
    }
