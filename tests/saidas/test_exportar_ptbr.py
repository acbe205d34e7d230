"""The exports in pt-BR notation and the ledger's export (issue 20, items 1 and 6): every CSV
the CLI writes for the lists, the work queue, the processos and the ledger, byte for byte, in
both notations; the pt-BR processos file imported back; the ledger in CSV, XLSX (typed cells)
and PDF, from the CLI and the API, with the roles; each ledger year's memória page; hostile
names neutralised in CSV and XLSX (:mod:`multas.saidas.exportacao`)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st
from pypdf import PdfReader

from multas.principal import cli
from multas.saidas.exportacao import (
    FORMULA,
    FORMULA_REGEX,
    Notacao,
    celula_reversivel,
    csv_texto,
    desfazer_celula,
    e_formula,
)
from multas.servicos.gestao import Ciclo
from multas.servicos.persistencia import Repositorio
from tests.utils import Ambiente, com

CNPJ = "12.345.678/0001-95"
HOSTIL = "=Posto Hostil"


def _popular(ciclo: Ciclo) -> None:
    """A processo of the ANP with a hostile name, an amount and a day without expediente; a
    distributor on the sanctions list; a ledger of two years (2023 fined, 2024 met)."""
    ciclo.criar(
        {
            "tipo": "anp",
            "id": "48610.1/2024",
            "cnpj": CNPJ,
            "nome": HOSTIL,
            "valor_multa": "15000.50",
            "dias_sem_expediente": ["2024-06-03"],
            "eventos": [
                {"evento": "infracao", "data": "2024-01-10"},
                {"evento": "auto_infracao", "data": "2024-02-01"},
            ],
        }
    )
    ciclo.criar(
        {
            "tipo": "renovabio.lista",
            "id": "L-1",
            "cnpj": "11.222.333/0001-81",
            "nome": "Distribuidora Sul",
            "eventos": [
                {"evento": "fim_prazo_meta", "data": "2025-12-31"},
                {"evento": "decisao_primeira_instancia", "data": "2026-02-06"},
                {"evento": "inclusao_lista", "data": "2026-02-09"},
            ],
        }
    )
    for ano in ANOS:
        ciclo.salvar_ano(dict(ano), "Ana")


ANOS = (
    {
        "cnpj": CNPJ,
        "nome": HOSTIL,
        "ano": 2023,
        "meta_cbios": 1000,
        "cbios_aposentados": 400,
        "maior_media_mensal": "71.70",
    },
    {
        "cnpj": CNPJ,
        "ano": 2024,
        "meta_cbios": 2000,
        "cbios_aposentados": 2600,
        "maior_media_mensal": "80.00",
    },
)


@pytest.fixture
def banco(tmp_path: Path) -> Iterator[str]:
    url = f"sqlite:///{tmp_path / 'm.db'}"
    repo = Repositorio(url)
    repo.migrar()
    _popular(Ciclo(repo))
    repo.fechar()
    yield url


def _saida(banco: str, *args: str) -> bytes:
    r = CliRunner().invoke(cli, [*args, "--banco", banco])
    assert r.exit_code == 0, r.output
    return r.stdout_bytes


# --- the CSVs of the CLI, byte for byte ------------------------------------------------------


def test_listas_csv_simples_e_ptbr(banco: str) -> None:
    args = ("listas", "sancoes", "--data", "2026-03-01", "-f", "csv")
    cabecalho = (
        "CNPJ{s}Nome{s}Incluído em{s}Prazo da meta não cumprido{s}Meta quitada em{s}"
        "Retirada pedida em{s}Prazo da ANP para retirar{s}Processo\n"
    )
    assert _saida(banco, *args).decode() == cabecalho.format(s=",") + (
        "11.222.333/0001-81,Distribuidora Sul,2026-02-09,2025-12-31,,,,2\n"
    )
    assert _saida(banco, *args, "--ptbr").decode() == cabecalho.format(s=";") + (
        "11.222.333/0001-81;Distribuidora Sul;09/02/2026;31/12/2025;;;;2\n"
    )


def test_pendencias_csv_ptbr(banco: str) -> None:
    args = ("pendencias", "--data-referencia", "2024-02-10", "--dias", "60", "-f", "csv")
    cabecalho = (
        "processo_id;tipo;id;cnpj;nome;estado;prazo;rotulo;data;situacao;responsavel;"
        "dias_de_atraso;dias_restantes;fundamento;encerrado;saldo;erro\n"
    )
    # 01/02/2024 + 15 days of defesa = 16/02/2024, 6 days after 10/02/2024; no decision yet,
    # so no balance (spec § 6.2 v4)
    assert _saida(banco, *args, "--ptbr").decode() == cabecalho + (
        f"1;anp;48610.1/2024;{CNPJ};'{HOSTIL};defesa;defesa;Defesa escrita;16/02/2024;"
        "em_aberto;autuado;0;6;Decreto nº 2.953/1999, art. 8º;não;;\n"
    )
    simples = _saida(banco, *args).decode()
    assert simples.startswith(cabecalho.replace(";", ","))
    assert ",2024-02-16,em_aberto," in simples


PROCESSOS_PTBR = (
    "referencia;tipo;cnpj;nome;evento;data;valor_multa;calendario;dias_sem_expediente;caso_id;vinculo_lista;valor;"
    "parcelas;valor_consolidado;parcelas_para_rescisao;"
    "prazo_alegacoes;atos_instrucao;interrupcao_penal;encargos;imputacao;desconto;prescricao_penal_anos;"
    "encargo_legal_percentual;valor_minimo_parcela\n"
    f"48610.1/2024;anp;{CNPJ};'{HOSTIL};infracao;10/01/2024;15.000,50;expediente;03/06/2024;;;;;;;;;;;;;;;\n"
    f"48610.1/2024;anp;{CNPJ};'{HOSTIL};auto_infracao;01/02/2024;15.000,50;expediente;"
    "03/06/2024;;;;;;;;;;;;;;;\n"
    "L-1;renovabio.lista;11.222.333/0001-81;Distribuidora Sul;fim_prazo_meta;31/12/2025;;"
    "expediente;;;;;;;;;;;;;;;;\n"
    "L-1;renovabio.lista;11.222.333/0001-81;Distribuidora Sul;decisao_primeira_instancia;"
    "06/02/2026;;expediente;;;;;;;;;;;;;;;;\n"
    "L-1;renovabio.lista;11.222.333/0001-81;Distribuidora Sul;inclusao_lista;09/02/2026;;"
    "expediente;;;;;;;;;;;;;;;;\n"
)


def test_processo_exportar_ptbr_e_importar_ptbr_da_os_mesmos_processos(
    banco: str, tmp_path: Path
) -> None:
    ptbr = _saida(banco, "processo", "exportar", "--ptbr")
    assert ptbr.decode() == PROCESSOS_PTBR
    simples = _saida(banco, "processo", "exportar")
    assert simples.decode().splitlines()[1] == (
        f"48610.1/2024,anp,{CNPJ},'{HOSTIL},infracao,2024-01-10,15000.50,expediente,2024-06-03,,,,,,,,,,,,,,,"
    )
    arquivo = tmp_path / "p.csv"
    arquivo.write_bytes(ptbr)
    novo = f"sqlite:///{tmp_path / 'novo.db'}"
    _saida(novo, "processo", "importar", str(arquivo), "--ptbr")
    # the same processos: their plain export is the original's, byte for byte
    assert _saida(novo, "processo", "exportar") == simples
    assert _saida(novo, "processo", "exportar", "--ptbr") == ptbr


def test_importar_ptbr_recusa_data_inexistente_nomeando_linha_e_coluna(
    banco: str, tmp_path: Path
) -> None:
    arquivo = tmp_path / "p.csv"
    arquivo.write_text("referencia;tipo;evento;data\nX;anp;infracao;31/02/2024\n", encoding="utf-8")
    r = CliRunner().invoke(cli, ["processo", "importar", str(arquivo), "--ptbr", "--banco", banco])
    assert r.exit_code == 2
    assert "linha 2, coluna data: data inexistente" in r.stdout


@pytest.mark.parametrize(
    ("data", "dias", "mensagem"),
    [
        ("10012024", "", "data inválida: '10012024' (use dd/mm/aaaa ou AAAA-MM-DD)"),
        ("20240110", "", "data inválida: '20240110'"),
        ("1/2/2024", "", "data inválida: '1/2/2024'"),
        ("10/01/2024", "03062024", "data inválida: '03062024' (use dd/mm/aaaa ou AAAA-MM-DD)"),
    ],
    ids=["ddmmaaaa", "aaaammdd", "d/m/aaaa", "ddmmaaaa-nos-dias"],
)
def test_importar_ptbr_le_so_o_que_exportar_ptbr_escreve(
    banco: str, tmp_path: Path, data: str, dias: str, mensagem: str
) -> None:
    """--ptbr governs the separator and the numbers, and the dates the pt-BR export writes
    (dd/mm/aaaa) besides ISO: a typed form (ddmmaaaa, d/m/aaaa) is a person's, not a file's,
    and is refused naming the line and column, never guessed."""
    arquivo = tmp_path / "p.csv"
    arquivo.write_text(
        f"referencia;tipo;evento;data;dias_sem_expediente\nX;anp;infracao;{data};{dias}\n",
        encoding="utf-8",
    )
    r = CliRunner().invoke(cli, ["processo", "importar", str(arquivo), "--ptbr", "--banco", banco])
    assert r.exit_code == 2, r.output
    assert mensagem in r.stdout, r.stdout
    assert "linha 2, coluna " in r.stdout


@given(st.dates())
def test_toda_data_que_a_exportacao_ptbr_escreve_a_importacao_ptbr_le(dia: date) -> None:
    from multas.nucleo.datas import data_de_arquivo_ptbr

    assert data_de_arquivo_ptbr(Notacao(True).data(dia), "data") == dia
    assert data_de_arquivo_ptbr(Notacao(False).data(dia), "data") == dia


# --- the ledger ---------------------------------------------------------------------------------

CABECALHO_CARTEIRA = [
    "CNPJ",
    "Nome",
    "Ano",
    "Meta (CBIOs)",
    "Falta do ano anterior",
    "Meta total",
    "Aposentados",
    "Cumprido (%)",
    "Falta",
    "Diferidos",
    "Multados",
    "Multa (R$)",
    "Prazo de comprovação",
    "Quitação",
    "Situação",
    "Avisos",
]


def test_carteira_exportar_csv_nas_duas_notacoes(banco: str) -> None:
    ptbr = list(
        csv.reader(
            io.StringIO(_saida(banco, "carteira", "exportar", CNPJ, "--ptbr").decode()),
            delimiter=";",
        )
    )
    assert ptbr[0] == CABECALHO_CARTEIRA
    # 600 CBIOs × R$ 71,70 = R$ 43.020,00, below the floor of R$ 100.000,00
    assert ptbr[1][:15] == [
        CNPJ, f"'{HOSTIL}", "2023", "1000", "0", "1000", "400", "40,00", "600", "0", "600",
        "100.000,00", "31/03/2024", "", "multa",
    ]  # fmt: skip
    assert ptbr[2] == [
        CNPJ, f"'{HOSTIL}", "2024", "2000", "600", "2600", "2600", "100,00", "0", "0", "0",
        "0,00", "31/12/2024", "", "meta cumprida", "",
    ]  # fmt: skip
    simples = list(csv.reader(io.StringIO(_saida(banco, "carteira", "exportar", CNPJ).decode())))
    assert simples[1][7:13] == ["40.00", "600", "0", "600", "100000.00", "2024-03-31"]


def test_carteira_exportar_xlsx_com_celulas_de_numero_e_data(banco: str, tmp_path: Path) -> None:
    destino = tmp_path / "c.xlsx"
    _saida(banco, "carteira", "exportar", "12345678000195", "-f", "xlsx", "-o", str(destino))
    folha = openpyxl.load_workbook(destino).active
    assert folha is not None
    linhas = list(folha.iter_rows(values_only=False))
    assert [c.value for c in linhas[0]] == CABECALHO_CARTEIRA
    a23 = {t: c for t, c in zip(CABECALHO_CARTEIRA, linhas[1], strict=True)}
    assert (a23["Multa (R$)"].value, a23["Multa (R$)"].data_type) == (100000, "n")
    assert a23["Multa (R$)"].number_format == '"R$" #,##0.00'
    assert (a23["Cumprido (%)"].value, a23["Cumprido (%)"].number_format) == (40, "0.00")
    assert (a23["Ano"].value, a23["Falta"].value, a23["Aposentados"].value) == (2023, 600, 400)
    assert a23["Prazo de comprovação"].value == datetime(2024, 3, 31)
    assert a23["Prazo de comprovação"].number_format == "dd/mm/yyyy"
    # the hostile name is a text cell, never a formula
    assert (a23["Nome"].value, a23["Nome"].data_type) == (HOSTIL, "s")


def _texto_pdf(conteudo: bytes) -> str:
    return "".join(p.extract_text() for p in PdfReader(io.BytesIO(conteudo)).pages)


def test_carteira_exportar_pdf(banco: str, tmp_path: Path) -> None:
    destino = tmp_path / "c.pdf"
    _saida(banco, "carteira", "exportar", CNPJ, "-f", "pdf", "-o", str(destino))
    texto = _texto_pdf(destino.read_bytes())
    assert f"CNPJ {CNPJ}" in texto and "Carteira de" in texto
    assert "R$ 100.000,00" in texto and "31/03/2024" in texto and "meta cumprida" in texto
    assert "Total das multas: R$ 100.000,00" in texto


def test_carteira_exportar_cnpj_desconhecido_e_erro_claro(banco: str) -> None:
    r = CliRunner().invoke(cli, ["carteira", "exportar", "99999999000191", "--banco", banco])
    assert r.exit_code == 1
    assert "não encontrado na carteira" in r.output and "Traceback" not in r.output


# --- the API and the page -----------------------------------------------------------------------


@pytest.fixture
def amb(ambiente: Ambiente) -> Ambiente:
    for ano in ANOS:
        r = ambiente.cliente.post("/api/v1/carteira", json=ano, headers=com(ambiente, "analista"))
        assert r.status_code == 200, r.text
    return ambiente


ROTA = "/api/v1/carteira/distribuidor/exportar"


def test_api_exporta_a_carteira_nos_tres_formatos(amb: Ambiente) -> None:
    c, leitura = amb.cliente, com(amb, "leitura")
    r = c.get(ROTA, params={"cnpj": CNPJ, "formato": "csv", "ptbr": "true"}, headers=leitura)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    assert 'filename="carteira-12345678000195.csv"' in r.headers["content-disposition"]
    assert r.text.splitlines()[0] == ";".join(CABECALHO_CARTEIRA)
    assert ";100.000,00;31/03/2024;" in r.text and f";'{HOSTIL};" in r.text
    r = c.get(ROTA, params={"cnpj": CNPJ, "formato": "xlsx"}, headers=leitura)
    assert r.status_code == 200
    folha = openpyxl.load_workbook(io.BytesIO(r.content)).active
    assert folha is not None and folha["L2"].value == 100000 and folha["L2"].data_type == "n"
    r = c.get(ROTA, params={"cnpj": CNPJ, "formato": "pdf"}, headers=leitura)
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf"
    assert CNPJ in _texto_pdf(r.content)


def test_api_exportar_sem_autenticacao_papel_e_cnpj_desconhecido(amb: Ambiente) -> None:
    c = amb.cliente
    assert c.get(ROTA, params={"cnpj": CNPJ}).status_code == 401
    r = c.get(ROTA, params={"cnpj": "99.999.999/0001-91"}, headers=com(amb, "leitura"))
    assert r.status_code == 404 and "não encontrado" in r.json()["erro"]["mensagem"]
    r = c.get(ROTA, params={"cnpj": CNPJ, "formato": "doc"}, headers=com(amb, "leitura"))
    assert r.status_code == 422


def test_api_csv_ptbr_das_listas_pendencias_e_processos(amb: Ambiente) -> None:
    c, leitura = amb.cliente, com(amb, "leitura")
    r = c.post(
        "/api/v1/processos",
        json={
            "tipo": "anp",
            "id": "P-1",
            "valor_multa": "1234.5",
            "eventos": [{"evento": "infracao", "data": "2024-01-02"}],
        },
        headers=com(amb, "analista"),
    )
    assert r.status_code in (200, 201), r.text
    r = c.get("/api/v1/processos/exportar", params={"ptbr": "true"}, headers=leitura)
    assert (
        r.text.splitlines()[1] == "P-1;anp;;;infracao;02/01/2024;1.234,5;expediente;;;;;;;;;;;;;;;;"
    )
    r = c.get(
        "/api/v1/pendencias",
        params={"formato": "csv", "ptbr": "true", "data_referencia": "2024-01-03", "todos": "1"},
        headers=leitura,
    )
    assert r.status_code == 200 and r.text.startswith("processo_id;tipo;")
    r = c.get(
        "/api/v1/listas/sancoes",
        params={"formato": "csv", "ptbr": "true", "data": "2026-03-01"},
        headers=leitura,
    )
    assert r.status_code == 200 and r.text.startswith("CNPJ;Nome;Incluído em;")


def test_pagina_liga_cada_ano_a_sua_memoria_e_as_exportacoes(amb: Ambiente) -> None:
    c, leitura = amb.cliente, com(amb, "leitura")
    pagina = c.get("/carteira/distribuidor", params={"cnpj": CNPJ}, headers=leitura).text
    for ano in (2023, 2024):
        assert f"/carteira/distribuidor/memoria?cnpj={CNPJ}&amp;ano={ano}" in pagina
    for formato in ("csv", "xlsx", "pdf"):
        assert f"{ROTA}?cnpj={CNPJ}&amp;formato={formato}" in pagina
    memoria = c.get(
        "/carteira/distribuidor/memoria", params={"cnpj": CNPJ, "ano": 2023}, headers=leitura
    )
    assert memoria.status_code == 200
    assert "Memória do ano 2023" in memoria.text and 'id="valor-devido"' in memoria.text
    assert "R$ 100.000,00" in memoria.text
    sem_multa = c.get(
        "/carteira/distribuidor/memoria", params={"cnpj": CNPJ, "ano": 2024}, headers=leitura
    )
    assert sem_multa.status_code == 200 and "a meta foi cumprida" in sem_multa.text
    ausente = c.get(
        "/carteira/distribuidor/memoria", params={"cnpj": CNPJ, "ano": 2030}, headers=leitura
    )
    assert ausente.status_code == 404 and "2030" in ausente.text
    anonimo = c.get(
        "/carteira/distribuidor/memoria",
        params={"cnpj": CNPJ, "ano": 2023},
        follow_redirects=False,
    )
    assert anonimo.status_code in (401, 303)


# --- the one writer: hostile cells ------------------------------------------------------------


@given(
    st.lists(
        st.text(
            alphabet=st.sampled_from(
                [*FORMULA, "'", "a", "1", ";", ",", '"', "\n", " ", "\u3000", "\xa0", "\x1c"]
            )
        ),
        min_size=1,
        max_size=6,
    ),
    st.booleans(),
)
def test_nenhuma_celula_de_texto_comeca_como_formula_e_a_reversivel_volta(
    textos: list[str], ptbr: bool
) -> None:
    for neutralizar in (None, celula_reversivel):
        texto = (
            csv_texto(["a"] * len(textos), [textos], Notacao(ptbr))
            if neutralizar is None
            else csv_texto(["a"] * len(textos), [textos], Notacao(ptbr), neutralizar)
        )
        linhas = list(csv.reader(io.StringIO(texto, newline=""), delimiter=Notacao(ptbr).separador))
        celulas = linhas[1]
        assert not any(c.startswith(FORMULA) or e_formula(c) for c in celulas)
        if neutralizar is celula_reversivel:
            assert [desfazer_celula(c) for c in celulas] == textos


@pytest.mark.parametrize(
    "perigoso",
    ["\uff1d1+1", "\uff0bcmd", "\uff0d2", "\uff20SUM(A1)", " =1+1", "\t\t@x", "\r\n+1",
     "\u3000\uff1dx", "\xa0-x", "\u2028=1"],
)  # fmt: skip
def test_sinais_largos_e_depois_de_brancos_sao_neutralizados(perigoso: str) -> None:
    """Full-width ＝＋－＠ and any sign after leading blanks: every CSV cell (plain, pt-BR,
    reversible, the batch's) gets the apostrophe, and the reversible one comes back; the XLSX
    cell is text with the quote prefix."""
    import openpyxl

    from multas.saidas.exportacao import celula_segura, celula_xlsx_texto, neutralizar_formula

    assert celula_segura(perigoso) == "'" + perigoso
    assert neutralizar_formula(perigoso) == "'" + perigoso
    assert desfazer_celula(celula_reversivel(perigoso)) == perigoso
    for ptbr in (False, True):
        linhas = list(csv.reader(io.StringIO(csv_texto(["a"], [[perigoso]], Notacao(ptbr)))))
        assert linhas[1][0] == "'" + perigoso
    folha = openpyxl.Workbook(write_only=True).create_sheet()
    celula = celula_xlsx_texto(folha, perigoso)
    assert celula.data_type == "s" and celula.quotePrefix and celula.value == perigoso


@given(st.text(alphabet=st.sampled_from([*FORMULA, *"\t\n\x0b\xa0\u2028\u3000 a1'"]), max_size=6))
def test_a_regex_do_lote_e_o_mesmo_teste(texto: str) -> None:
    """The batch's vectorised check (RE2, :data:`FORMULA_REGEX`) flags exactly what
    :func:`e_formula` flags."""
    import pyarrow as pa
    import pyarrow.compute as pc

    regex = pc.match_substring_regex(pa.array([texto]), FORMULA_REGEX).to_pylist()[0]
    assert regex == e_formula(texto)


def test_notacao_escreve_numeros_e_datas_sem_neutraliza_los() -> None:
    linha = [Decimal("-1234567.8"), date(2025, 1, 2), True, 7, -3, None, "-x"]
    assert csv_texto(["a"] * 7, [linha], Notacao(True)) == (
        "a;a;a;a;a;a;a\n-1.234.567,8;02/01/2025;sim;7;'-3;;'-x\n"
    )
    assert csv_texto(["a"] * 7, [linha]) == "a,a,a,a,a,a,a\n-1234567.8,2025-01-02,sim,7,'-3,,'-x\n"
