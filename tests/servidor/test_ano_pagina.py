"""Issue 19, item 1: the RenovaBio year's page (``/ano``), without JavaScript. Two files in (the
distributors and B3's real 2024 quotes), the summary and every row out, the results CSV and
the notices ZIP downloaded; each figure checked against :func:`multas.servicos.ano.calcular_ano`
run here on the same files, never against numbers written in the test. Hostile input (no file,
the wrong file, a bad cell, another encoding, a corrupt spreadsheet, a body past the limit) is
a pt-BR message naming the field, never a 500."""

from __future__ import annotations

import html
import io
import re
import zipfile
from decimal import Decimal
from typing import Any

import pytest
from fastapi.testclient import TestClient

from multas.nucleo.cnpj import formatar, normalizar
from multas.nucleo.datas import formatar_mes
from multas.nucleo.dinheiro import formatar_brl, formatar_numero, formatar_preco
from multas.servicos.ano import escrever_resultado_csv
from multas.servidor.servico import LIMITES_CORPO
from tests.utils.ano import (
    COTACOES_ARQUIVO,
    DISTRIBUIDORES_ARQUIVO,
    enviar,
    esperado,
    ocultos,
)
from tests.utils.paginas import erros_da_pagina, todos_os_erros


def texto(pagina: str, id_: str) -> str:
    """The text inside the element with this id (tags dropped, spaces collapsed)."""
    achado = re.search(rf'id="{re.escape(id_)}"[^>]*>(.*?)</(?:dd|tr|div)>', pagina, re.S)
    assert achado, f"#{id_} não está na página"
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", achado.group(1))).split())


def test_a_pagina_esta_na_navegacao(cliente: TestClient) -> None:
    assert 'href="/ano"' in cliente.get("/").text
    pagina = cliente.get("/ano")
    assert pagina.status_code == 200
    assert 'enctype="multipart/form-data"' in pagina.text
    assert 'href="/ano" aria-current="page"' in pagina.text


def test_o_ano_pela_pagina_da_o_mesmo_que_o_nucleo(cliente: TestClient) -> None:
    r = enviar(cliente, {"ano": "2024", "data_notificacao": "2025-03-03"})
    assert r.status_code == 200, r.text[:2000]
    certo = esperado()
    resumo = certo["resumo"]
    assert resumo["cumpriram"] == resumo["diferiram"] == resumo["com_erro"] == 1  # the data
    assert resumo["multados"] == 2
    pagina = r.text
    for id_, valor in {
        "resumo-ano": "2024",
        "resumo-distribuidores": str(resumo["distribuidores"]),
        "resumo-cumpriram": str(resumo["cumpriram"]),
        "resumo-diferiram": str(resumo["diferiram"]),
        "resumo-multados": str(resumo["multados"]),
        "resumo-com-erro": str(resumo["com_erro"]),
        "resumo-total-multas": formatar_brl(Decimal(resumo["total_multas"])),
        "resumo-cbios-faltantes": formatar_numero(str(resumo["cbios_faltantes"])),
        "resumo-cbios-diferidos": formatar_numero(str(resumo["cbios_diferidos"])),
        "resumo-mes-do-preco": formatar_mes(resumo["mes_do_preco"]),
        "resumo-preco": formatar_preco(resumo["preco"]),
    }.items():
        assert texto(pagina, id_) == valor, id_
    # every row, in the file's order, the bad one with its error: nothing dropped
    assert pagina.count('id="ano-linha-') == len(certo["linhas"]) == 5
    for numero, linha in enumerate(certo["linhas"], start=1):
        mostrada = texto(pagina, f"ano-linha-{numero}")
        assert formatar(normalizar(linha["cnpj"])) in mostrada
        assert linha["nome"] in mostrada
        if linha["erro"]:
            assert linha["erro"] in mostrada and "meta_publicada" in mostrada
            assert "R$" not in mostrada
        else:
            assert formatar_brl(linha["valor"]) in mostrada
            numeros = [formatar_numero(str(linha[c])) for c in ("falta", "diferido", "multado")]
            assert " ".join(numeros) in mostrada
    assert "<script>" not in pagina.split('id="tabela-ano"')[1]  # the name is escaped
    # the fined row's value is the core's, not zero
    gama = certo["linhas"][2]
    assert gama["multado"] > 0 and Decimal(gama["valor"]) > 0
    assert formatar_brl(gama["valor"]) in texto(pagina, "ano-linha-3")
    # the form keeps what was typed, shown dd/mm/aaaa
    assert re.search(r'name="data_notificacao" [^>]*value="03/03/2025"', pagina)


def test_o_csv_e_o_zip_da_pagina_sao_os_do_nucleo(cliente: TestClient) -> None:
    r = enviar(cliente, {"ano": "2024", "data_notificacao": "2025-03-03"})
    devolvidos = ocultos(r.text)
    assert devolvidos["distribuidores_nome"] == "distribuidores.csv"
    certo = esperado()

    csv = cliente.post("/ano", data={**devolvidos, "formato": "csv"}, files={"x": ("", b"")})
    assert csv.status_code == 200
    assert csv.headers["content-type"].startswith("text/csv")
    assert 'filename="ano-2024-resultado.csv"' in csv.headers["content-disposition"]
    saida = io.StringIO(newline="")
    escrever_resultado_csv(saida, certo["lida"].linhas, certo)
    assert csv.content.decode("utf-8") == saida.getvalue()

    z = cliente.post("/ano", data={**devolvidos, "formato": "zip"}, files={"x": ("", b"")})
    assert z.status_code == 200 and z.headers["content-type"] == "application/zip"
    with zipfile.ZipFile(io.BytesIO(z.content)) as arquivo:
        nomes = set(arquivo.namelist())
        multados = {
            f"notificacoes/{normalizar(linha['cnpj'])}.pdf"
            for linha in certo["linhas"]
            if not linha["erro"] and linha["multado"] > 0
        }
        assert nomes == {"resumo.pdf", *multados}
        assert all(arquivo.read(n).startswith(b"%PDF-") for n in nomes)


@pytest.mark.parametrize("inicio", ["=", "+", "-", "@"])
def test_o_csv_baixado_nao_tem_formula_nem_no_cabecalho(cliente: TestClient, inicio: str) -> None:
    """A column the distributors file named is the CSV's header: it is neutralised as every
    cell is (an apostrophe before =, +, - and @)."""
    coluna = f'{inicio}HYPERLINK("http://x")'
    citada = '"' + coluna.replace('"', '""') + '"'
    linhas = DISTRIBUIDORES_ARQUIVO.decode().splitlines()
    arquivo = "\n".join([linhas[0] + "," + citada, *(f"{ln},x" for ln in linhas[1:])])
    r = enviar(
        cliente, {"ano": "2024", "formato": "csv"}, distribuidores=("d.csv", arquivo.encode())
    )
    assert r.status_code == 200, r.text[:300]
    cabecalho = r.text.splitlines()[0].split(",")
    assert "\"'" + citada[1:] in cabecalho
    assert not any(c.startswith(("=", "+", "-", "@")) for c in cabecalho)


def test_planilha_xlsx_da_o_mesmo_que_o_csv(cliente: TestClient) -> None:
    import csv

    from openpyxl import Workbook

    livro = Workbook()
    folha = livro.active
    assert folha is not None
    for linha in csv.reader(io.StringIO(DISTRIBUIDORES_ARQUIVO.decode())):
        folha.append(linha)
    saida = io.BytesIO()
    livro.save(saida)
    r = enviar(cliente, distribuidores=("distribuidores.xlsx", saida.getvalue()))
    assert r.status_code == 200
    resumo = esperado()["resumo"]
    assert texto(r.text, "resumo-total-multas") == formatar_brl(Decimal(resumo["total_multas"]))


def _erro(r: Any) -> str:
    assert r.status_code == 422, r.text[:1500]
    assert "Traceback" not in r.text
    # the summary's errors, each its label (a link) and message
    return " ".join(erros_da_pagina(r.text).resumo)


@pytest.mark.parametrize(
    ("arquivos", "campos", "rotulo", "trecho"),
    [
        ({"distribuidores": None}, None, "Arquivo dos distribuidores", "escolha o arquivo"),
        ({"cotacoes": None}, None, "Arquivo das cotações do CBIO", "escolha o arquivo"),
        ({"distribuidores": None, "cotacoes": None}, None, "Arquivo dos", "escolha o arquivo"),
        ({"distribuidores": ("d.csv", b"")}, None, "Arquivo dos distribuidores", "vazio"),
        ({"distribuidores": ("d.pdf", b"%PDF-1.4")}, None, "Arquivo dos", "formato não aceito"),
        # the quotes where the distributors go: the wrong file
        (
            {"distribuidores": ("c.csv", COTACOES_ARQUIVO)},
            None,
            "Arquivo dos",
            "não tem a coluna cnpj",
        ),
        (
            {"distribuidores": ("d.csv", DISTRIBUIDORES_ARQUIVO.replace(b"cbios_", b"cbio_"))},
            None,
            "Arquivo dos distribuidores",
            "não tem a coluna cbios_aposentados",
        ),
        (  # Latin-1 is read as such (the encoding is detected): the columns still lack
            {"distribuidores": ("d.csv", "cnpj,nome\n1,Pão de Açúcar\n".encode("latin-1"))},
            None,
            "Arquivo dos distribuidores",
            "não tem a coluna cbios_aposentados",
        ),
        (
            {"distribuidores": ("d.xlsx", b"PK\x03\x04 corrompido")},
            None,
            "Arquivo dos distribuidores",
            "XLSX",
        ),
        (
            {"distribuidores": ("d.csv", DISTRIBUIDORES_ARQUIVO + b"1,2,3,4,5,6,7,8\n")},
            None,
            "Arquivo dos distribuidores",
            "linha 7",
        ),
        (
            {"cotacoes": ("c.csv", b"data,valor\n2024-01-02,108.5\n")},
            None,
            "Arquivo das cotações do CBIO",
            "linha 2, coluna preco: campo obrigatório",
        ),
        (
            {"cotacoes": ("c.csv", b"data,preco\n2024-13-02,108.5\n")},
            None,
            "Arquivo das cotações do CBIO",
            "linha 2",
        ),
        (
            {"cotacoes": ("c.csv", b"mes,media\n2023-01,108.5\n")},
            None,
            "Arquivo das cotações do CBIO",
            "nenhuma cotação no exercício de 2024",
        ),
        # the "Colunas" fields (--coluna's pairs): each error names its field
        (
            {},
            {"ano": "2024", "colunas_distribuidores": "meta_cbios"},
            "Colunas dos distribuidores",
            "use CAMPO=CABEÇALHO (ex.: meta_cbios=Meta 2022), não 'meta_cbios'",
        ),
        (
            {},
            {"ano": "2024", "colunas_distribuidores": "uf=cnpj"},
            "Colunas dos distribuidores",
            "campo desconhecido: 'uf'",
        ),
        (
            {},
            {"ano": "2024", "colunas_cotacoes": "preco=<script>x</script>\x00"},
            "Colunas das cotações",
            "não há coluna 'script_x_script' para preco",
        ),
        (
            {},
            {"ano": "2024", "colunas_cotacoes": "preco=" + "x" * 5000},
            "Colunas das cotações",
            "no máximo 4000 caracteres",
        ),
        ({}, {"ano": ""}, "Ano da meta", "campo obrigatório"),
        ({}, {"ano": "dois mil"}, "Ano da meta", "deve ser um ano"),
        ({}, {"ano": "1800"}, "Ano da meta", "fora do intervalo"),
        ({}, {"ano": "2024", "data_notificacao": "03/2025"}, "Data da notificação", "data"),
        (
            {},
            {"ano": "2024", "data_notificacao": "9999-12-31", "formato": "zip"},
            "Data da notificação",
            "passaria de 31/12/9999",
        ),
    ],
)
def test_entrada_ruim_e_422_nomeando_o_campo(
    cliente: TestClient,
    arquivos: dict[str, tuple[str, bytes] | None],
    campos: dict[str, str] | None,
    rotulo: str,
    trecho: str,
) -> None:
    padrao: dict[str, Any] = {
        "distribuidores": ("distribuidores.csv", DISTRIBUIDORES_ARQUIVO),
        "cotacoes": ("cbio-b3-2024.csv", COTACOES_ARQUIVO),
    }
    r = enviar(cliente, campos, **{**padrao, **arquivos})
    mensagem = _erro(r)
    assert mensagem.startswith(rotulo), mensagem
    assert trecho in mensagem, mensagem
    assert 'id="tabela-ano"' not in r.text  # no result beside an error


def test_os_arquivos_como_publicados_pela_pagina(cliente: TestClient) -> None:
    """The Despacho as published (Latin-1, ';', title rows, a note after the table, a header
    the "Colunas" field names, a column no field names): the page says how it read it, and
    the download reads it again the same way."""
    publicado = (
        "Metas individuais de 2024;;;;;\r\n"
        ";;;;;\r\n"
        "CNPJ;Razão social;Meta individual 2024;Falta anterior;CBIOs aposentados;UF\r\n"
        "11.222.333/0001-81;Alfa Combustíveis;1.200.000;0;1.200.000;SP\r\n"
        "22.333.444/0001-81;Beta Distribuidora;800.000;0;720.000;RJ\r\n"
        "Fonte: ANP/SBQ;;;;;\r\n"
    ).encode("cp1252")
    campos = {"ano": "2024", "colunas_distribuidores": "meta_publicada=Meta individual 2024"}
    r = enviar(cliente, campos, distribuidores=("despacho.csv", publicado))
    assert r.status_code == 200, r.text[:1500]
    assert texto(r.text, "resumo-distribuidores") == "2"
    pagina = html.unescape(r.text)
    leitura = pagina[pagina.index('id="leitura-dos-arquivos"') :]
    for trecho in (
        "Arquivo dos distribuidores: despacho.csv",
        "lido como Latin-1 (CP1252), separador ';', números 1.234,56",
        "linha 1: título acima do cabeçalho, fora da tabela: 'Metas individuais de 2024'",
        "linha 6: nota depois da tabela, fora da contagem: 'Fonte: ANP/SBQ'",
        "colunas levadas ao resultado (CSV) como estão: UF",
        "Arquivo das cotações do CBIO: cbio-b3-2024.csv",
    ):
        assert trecho in leitura, trecho
    devolvidos = ocultos(r.text)
    assert devolvidos["colunas_distribuidores"] == campos["colunas_distribuidores"]
    csv = cliente.post("/ano", data={**devolvidos, "formato": "csv"}, files={"x": ("", b"")})
    assert csv.status_code == 200, csv.text[:1500]
    assert csv.text.splitlines()[0].endswith(",UF") or ",UF," in csv.text.splitlines()[0]


def test_reenvio_adulterado_e_corpo_que_nao_e_formulario(cliente: TestClient) -> None:
    r = enviar(cliente)
    devolvidos = ocultos(r.text) | {"distribuidores_conteudo": "não é base64!"}
    ruim = cliente.post("/ano", data={**devolvidos, "formato": "csv"}, files={"x": ("", b"")})
    assert "Arquivo dos distribuidores: arquivo reenviado corrompido" in _erro(ruim)
    # not multipart at all: a pt-BR 422, as JSON for a program and as a page for a browser
    for tipo in ("application/x-www-form-urlencoded", "multipart/form-data", "text/csv"):
        r = cliente.post("/ano", content=b"ano=2024", headers={"content-type": tipo})
        assert r.status_code == 422
        assert "multipart/form-data" in r.json()["erro"]["mensagem"]
    r = cliente.post(
        "/ano",
        content=b"--x\r\nsem fim",
        headers={"content-type": "multipart/form-data; boundary=x", "accept": "text/html"},
    )
    assert r.status_code == 422 and "incompleto ou corrompido" in r.text


def test_arquivo_grande_demais_e_413_em_portugues(cliente: TestClient) -> None:
    limite = LIMITES_CORPO["/ano"]
    grande = DISTRIBUIDORES_ARQUIVO + b"9" * (limite + 1)
    r = cliente.post(
        "/ano",
        data={"ano": "2024"},
        files={"distribuidores": ("d.csv", grande), "cotacoes": ("c.csv", COTACOES_ARQUIVO)},
        headers={"accept": "text/html"},
    )
    assert r.status_code == 413
    assert "corpo grande demais: o limite de POST /ano é 16 MiB" in html.unescape(r.text)
    assert "Traceback" not in r.text


def test_cada_erro_ao_lado_do_seu_campo_todos_de_uma_vez(cliente: TestClient) -> None:
    """Issue 37 item 9: the form stopped at its first error; now every field in error shows
    its message beside it and in the summary (the first still the one given alone before),
    what was typed kept."""
    r = enviar(
        cliente,
        {"ano": "dois mil", "data_notificacao": "31/02/2025", "colunas_cotacoes": "preco"},
        distribuidores=None,
    )
    assert r.status_code == 422
    pagina = html.unescape(r.text)
    assert "deve ser um ano" in texto(pagina, "erro-ano")
    assert "data" in texto(pagina, "erro-data_notificacao")
    assert "CAMPO=CABEÇALHO" in texto(pagina, "erro-colunas_cotacoes")
    assert "escolha o arquivo" in texto(pagina, "erro-distribuidores")
    campos = ["ano", "data_notificacao", "colunas_cotacoes", "distribuidores"]
    todos_os_erros(r.text, "O ano não foi calculado: 4 erros", campos)
    assert 'value="dois mil"' in pagina and 'value="31/02/2025"' in pagina


def test_a_api_do_ano_da_todos_os_erros_e_o_primeiro_de_sempre(cliente: TestClient) -> None:
    from tests.utils import problema

    corpo = {"ano": "x", "distribuidores": [], "cotacoes": "nada", "data_notificacao": "ontem"}
    resposta = problema(cliente.post("/api/v1/ano", json=corpo), 422)
    campos = [e["campo"] for e in resposta["erros"]]
    assert campos == ["ano", "distribuidores", "cotacoes", "data_notificacao"]
    assert resposta["erro"]["campo"] == "ano"
