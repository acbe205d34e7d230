"""Issue 19: ``multas lote --cotacoes``: each renovabio.distribuidor row priced from the CBIO
quotes of its target's year, by the function ``multas ano calcular`` uses (the same exact
value), checked against ``multas ano`` itself, the kernel against the engine, and hostile
quotes files."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from multas.lote.comando import ler_cotacoes
from multas.lote.executor import executar
from multas.lote.processar import Config
from multas.nucleo.arquivos import Local
from multas.nucleo.cotacoes import ler_serie, preco_do_ano
from multas.nucleo.dinheiro import arredondar_preco
from multas.principal import cli
from multas.servicos.ano import calcular_ano
from tests.utils.ano import (
    COTACOES,
    LEGISLACAO,
    TABELA,
    ano_de_distribuidores,
    serie_das_cotacoes,
)

REGIME = "renovabio.distribuidor"
MENSAIS = "mes,media\n2023-05,90.5\n2024-01,98.5\n2024-03,111.25\n"


def _lote(*args: str) -> Result:
    return CliRunner().invoke(cli, ["lote", *args])


def _como_lote(linhas: list[dict[str, str]]) -> list[dict[str, str]]:
    """The year's rows as batch rows: the total target and the previous year's answer (as in
    tests/ciclo/test_ano.py), with no price: --cotacoes gives it."""
    lote = []
    for linha in linhas:
        falta = int(linha.get("falta_anterior") or 0)
        meta = int(linha.get("meta_publicada") or int(linha["meta_cbios"]) + falta)
        lote.append(
            {
                "cnpj": linha["cnpj"],
                "ano_meta": "2024",
                "meta_cbios": str(meta),
                "cbios_aposentados": linha["cbios_aposentados"],
                "faturamento_ano_meta": linha.get("faturamento_ano_meta", ""),
                "faturamento_ano_anterior": linha.get("faturamento_ano_anterior", ""),
                "meta_anterior_cumprida": linha.get("meta_anterior_cumprida", "")
                if not falta
                else "não",
                "diferir": linha.get("diferir", ""),
            }
        )
    return lote


def _gravar_csv(caminho: Path, linhas: list[dict[str, str]]) -> None:
    with caminho.open("w", encoding="utf-8", newline="") as arquivo:
        escritor = csv.DictWriter(arquivo, list(linhas[0]))
        escritor.writeheader()
        escritor.writerows(linhas)


def _ler_csv(caminho: Path) -> list[dict[str, str]]:
    with caminho.open(encoding="utf-8") as arquivo:
        return list(csv.DictReader(arquivo))


@pytest.mark.parametrize("mensal", [False, True], ids=["b3-diarias", "medias-mensais"])
def test_o_lote_com_cotacoes_da_a_multa_de_multas_ano(tmp_path: Path, mensal: bool) -> None:
    """48 distributors: the batch with --cotacoes and ``multas ano`` give each the same fine
    and the same price, whole. B3's 2024 daily quotes give a price that does not terminate
    (the engine computes those rows); the monthly means give 111.25 (the kernel, required)."""
    cotacoes = COTACOES
    if mensal:
        cotacoes = tmp_path / "mensais.csv"
        cotacoes.write_text(MENSAIS, encoding="utf-8")
        serie = ler_serie(
            [{"mes": m, "media": v} for m, v in (x.split(",") for x in MENSAIS.split()[1:])],
            [Local(i + 2) for i in range(3)],
            TABELA,
        )
    else:
        serie = serie_das_cotacoes()
    linhas = ano_de_distribuidores(48, semente=7)
    ano = calcular_ano(
        linhas, [Local(i + 2) for i in range(len(linhas))], TABELA, 2024, serie, LEGISLACAO
    )
    entrada, saida = tmp_path / "lote.csv", tmp_path / "saida.csv"
    _gravar_csv(entrada, _como_lote(linhas))
    extras = ["--exigir-kernel"] if mensal else []
    r = _lote(str(entrada), "-r", REGIME, "-o", str(saida), "--cotacoes", str(cotacoes), *extras)
    assert r.exit_code == 0, r.output
    do_lote = _ler_csv(saida)
    preco = preco_do_ano(serie, 2024)
    assert preco.exato == ("111.25" if mensal else "2445833317/22000000")
    multados = 0
    for do_ano, batch in zip(ano["linhas"], do_lote, strict=True):
        assert batch["erro"] == "" and do_ano["erro"] == ""
        assert batch["valor"] == do_ano["valor"], (do_ano, batch)
        assert batch["preco_exato"] == do_ano["preco_exato"] == preco.exato  # whole, never cut
        assert batch["preco"] == do_ano["preco"] == f"{arredondar_preco(preco.valor):f}"
        assert batch["mes_do_preco"] == preco.mes
        assert batch["preco_metodo"] == ("mensal_informada" if mensal else "simples")
        assert batch["preco_fonte"] == f"arquivo {cotacoes.name}"
        multados += do_ano["multado"] > 0
    assert multados >= 5
    # the summary keeps the engine's internals to itself (issue 37, item 8): only
    # --exigir-kernel says why the kernel left the rows whose price is no decimal
    assert "kernel" not in r.stderr and "motor escalar" not in r.stderr


def _linhas_variadas() -> list[dict[str, str]]:
    return [
        {"ano_meta": "2024", "meta_cbios": "120000", "cbios_aposentados": "0"},
        {"ano_meta": "2024", "meta_cbios": "1000", "cbios_aposentados": "999"},
        {"ano_meta": "2024", "meta_cbios": "1000", "cbios_aposentados": "2000"},
        {"ano_meta": "2023", "meta_cbios": "90000", "cbios_aposentados": "0"},
        {"ano_meta": "2022", "meta_cbios": "1000", "cbios_aposentados": "0"},  # no quotes
        {
            "ano_meta": "2024",
            "meta_cbios": "1000",
            "cbios_aposentados": "0",
            "maior_media_mensal": "100",
        },
        {"ano_meta": "20x4", "meta_cbios": "1000", "cbios_aposentados": "0"},
        {"ano_meta": "", "meta_cbios": "1000", "cbios_aposentados": "0"},
        {
            "ano_meta": "2024",
            "meta_cbios": "9000000",
            "cbios_aposentados": "0",
            "faturamento_ano_meta": "1000000.00",
            "faturamento_ano_anterior": "3000000.00",
        },
    ]


@pytest.mark.parametrize("formato", ["csv", "jsonl", "parquet"])
@pytest.mark.parametrize("mensal", [False, True], ids=["diarias", "mensais"])
def test_kernel_e_motor_dao_o_mesmo_com_cotacoes(
    tmp_path: Path, formato: str, mensal: bool
) -> None:
    """The kernel path and the engine path write the same bytes, errors included: a year
    without quotes, a row that also brings its own price, a bad year."""
    cotacoes = tmp_path / "c.csv"
    if mensal:
        cotacoes.write_text(MENSAIS, encoding="utf-8")
    else:
        cotacoes.write_text(
            COTACOES.read_text(encoding="utf-8") + "2023-06-01,80.25\n2023-06-02,81\n",
            encoding="utf-8",
        )
    serie = ler_cotacoes(cotacoes)
    linhas = _linhas_variadas()
    colunas = sorted({c for linha in linhas for c in linha})
    completas = [{c: linha.get(c, "") for c in colunas} for linha in linhas]
    entrada = tmp_path / f"e.{formato}"
    if formato == "csv":
        _gravar_csv(entrada, completas)
    elif formato == "jsonl":
        entrada.write_text(
            "".join(json.dumps({k: v for k, v in ln.items() if v}) + "\n" for ln in linhas),
            encoding="utf-8",
        )
    else:
        import pyarrow as pa
        import pyarrow.parquet as pq

        pq.write_table(pa.Table.from_pylist(completas), entrada)
    saidas = {}
    for kernel in (True, False):
        saida = tmp_path / f"s-{kernel}.{formato}"
        executar(entrada, saida, Config(REGIME, {}, kernel=kernel, cotacoes=serie))
        saidas[kernel] = saida.read_bytes()
    assert saidas[True] == saidas[False]
    if formato != "csv":
        return
    resultado = _ler_csv(tmp_path / "s-True.csv")
    assert [ln["erro"] for ln in resultado[:4]] == ["", "", "", ""]
    assert resultado[3]["mes_do_preco"] == ("2023-05" if mensal else "2023-06")
    assert resultado[4]["erro"].startswith("ano_meta:") and "2022" in resultado[4]["erro"]
    assert resultado[5]["erro"].startswith("maior_media_mensal:")
    assert "--cotacoes" in resultado[5]["erro"] and "um dos dois" in resultado[5]["erro"]
    assert resultado[6]["erro"].startswith("ano_meta:") and resultado[7]["erro"].startswith(
        "ano_meta:"
    )
    assert all(ln["preco"] == "" for ln in resultado[4:8])
    assert resultado[8]["erro"] == "" and resultado[8]["valor"]


def test_ptbr_no_kernel_le_o_preco_com_virgula(tmp_path: Path) -> None:
    """With --ptbr the kernel reads the cells with a decimal comma: the price it gets from
    the quotes is written so (111.25 is not read as 11125)."""
    cotacoes = tmp_path / "c.csv"
    cotacoes.write_text("mes;media\n2024-03;111,25\n", encoding="utf-8")
    entrada, saida = tmp_path / "e.csv", tmp_path / "s.csv"
    entrada.write_text("ano_meta;meta_cbios;cbios_aposentados\n2024;120000;0\n", encoding="utf-8")
    r = _lote(
        str(entrada),
        "-r",
        REGIME,
        "-o",
        str(saida),
        "--ptbr",
        "--cotacoes",
        str(cotacoes),
        "--exigir-kernel",
    )
    assert r.exit_code == 0, r.output
    assert "13350000,00" in saida.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("conteudo", "nome", "esperado"),
    [
        (b"", "c.csv", "arquivo CSV vazio"),
        (b"data,preco\n", "c.csv", "nenhuma linha"),
        (b"data,preco\n2024-13-01,100\n", "c.csv", "linha 2, coluna data"),
        (b"data,preco\n2024-02-30,100\n", "c.csv", "linha 2, coluna data"),
        (b"data,preco\n30/02/2024,100\n", "c.csv", "linha 2, coluna data"),
        (b"data,preco\n2024-01-02,-5\n", "c.csv", "linha 2, coluna preco"),
        (b"data,preco\n2024-01-02,=1+1\n", "c.csv", "linha 2, coluna preco"),
        (b'data,preco\n2024-01-02,=HYPERLINK("x")\n', "c.csv", "linha 2, coluna preco"),
        (b"mes,media\n2024-1,100\n", "c.csv", "linha 2, coluna mes"),
        (b"mes,media\n2024-01,abc\n", "c.csv", "linha 2, coluna media"),
        (b"data,preco\n2024-01-02,100\n2024-01-02,101\n", "c.csv", "dia repetido"),
        (b"\xff\xfe\x00\x01", "c.xlsx", "c.xlsx"),
        (b"data,preco\n2024-01-02,100\n", "c.txt", "formato não aceito"),
    ],
)
def test_arquivo_de_cotacoes_hostil_e_erro_claro(
    tmp_path: Path, conteudo: bytes, nome: str, esperado: str
) -> None:
    cotacoes = tmp_path / nome
    cotacoes.write_bytes(conteudo)
    entrada, saida = tmp_path / "e.csv", tmp_path / "s.csv"
    entrada.write_text("ano_meta,meta_cbios,cbios_aposentados\n2024,1000,0\n", encoding="utf-8")
    r = _lote(str(entrada), "-r", REGIME, "-o", str(saida), "--cotacoes", str(cotacoes))
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output and r.stdout == ""
    assert r.stderr.startswith("Erro no campo '--cotacoes':"), r.stderr
    assert esperado in r.stderr, r.stderr
    assert not saida.exists()  # nothing written


def test_cotacoes_so_no_regime_do_distribuidor(tmp_path: Path) -> None:
    cotacoes = tmp_path / "c.csv"
    cotacoes.write_text(MENSAIS, encoding="utf-8")
    entrada = tmp_path / "e.csv"
    entrada.write_text("valor_devido\n1\n", encoding="utf-8")
    r = _lote(
        str(entrada), "-r", "anp.mora", "-o", str(tmp_path / "s.csv"), "--cotacoes", str(cotacoes)
    )
    assert r.exit_code == 2 and "--cotacoes" in r.stderr and REGIME in r.stderr
    r = _lote(str(entrada), "-r", REGIME, "-o", str(tmp_path / "s.csv"), "--coluna-preco", "x")
    assert r.exit_code == 2 and "só vale com --cotacoes" in r.stderr


def test_coluna_preco_do_resumo_da_b3(tmp_path: Path) -> None:
    cotacoes = tmp_path / "b3.csv"
    cotacoes.write_text("data,preco_medio\n2024-01-02,100.5\n2024-01-03,101\n", encoding="utf-8")
    entrada, saida = tmp_path / "e.csv", tmp_path / "s.csv"
    entrada.write_text("ano_meta,meta_cbios,cbios_aposentados\n2024,100000,0\n", encoding="utf-8")
    r = _lote(
        str(entrada),
        "-r",
        REGIME,
        "-o",
        str(saida),
        "--cotacoes",
        str(cotacoes),
        "--coluna-preco",
        "preco_medio",
        "--exigir-kernel",
    )
    assert r.exit_code == 0, r.output
    [linha] = _ler_csv(saida)
    assert linha["preco"] == "100.7500" and linha["preco_exato"] == "100.75"
    assert linha["valor"] == "10075000.00"


def test_o_preco_com_quatro_casas_numero_na_planilha_e_o_exato_ao_lado(tmp_path: Path) -> None:
    """Issue 37 item 5: the preco column was the fraction, a text no spreadsheet computes with.
    It is the price to 4 places (a number cell in XLSX, a comma with --ptbr), and preco_exato
    beside it reads back as the same price: the output, given back to the batch with its
    exact price as maior_media_mensal, gives the same fine."""
    import openpyxl

    cotacoes = tmp_path / "c.csv"  # January's mean: 301/3, a decimal that never ends
    cotacoes.write_text("data;preco\n2024-01-02;100\n2024-01-03;100\n2024-01-04;101\n", "utf-8")
    entrada = tmp_path / "e.xlsx"
    livro = openpyxl.Workbook()
    livro.active.append(["ano_meta", "meta_cbios", "cbios_aposentados"])
    livro.active.append([2024, 100000, 0])
    livro.save(entrada)
    saida = tmp_path / "s.xlsx"
    r = _lote(str(entrada), "-r", REGIME, "-o", str(saida), "--cotacoes", str(cotacoes), "--ptbr")
    assert r.exit_code == 0, r.output
    cabecalho, linha = openpyxl.load_workbook(saida).active.iter_rows(max_row=2)
    celulas = {titulo.value: celula for titulo, celula in zip(cabecalho, linha, strict=True)}
    assert celulas["preco_exato"].value == "301/3"
    assert celulas["preco"].data_type == "n" and str(celulas["preco"].value) == "100.3333"
    assert celulas["preco"].number_format.endswith("0.0000")
    # pt-BR CSV: the comma; the exact price reads back as the same price, the same fine
    entrada_csv, saida_csv = tmp_path / "e.csv", tmp_path / "s.csv"
    entrada_csv.write_text("ano_meta;meta_cbios;cbios_aposentados\n2024;100000;0\n", "utf-8")
    r = _lote(
        str(entrada_csv), "-r", REGIME, "-o", str(saida_csv), "--cotacoes", str(cotacoes), "--ptbr"
    )
    assert r.exit_code == 0, r.output
    with saida_csv.open(encoding="utf-8", newline="") as arquivo:
        [feita] = list(csv.DictReader(arquivo, delimiter=";"))
    assert (feita["preco"], feita["preco_exato"]) == ("100,3333", "301/3")
    de_volta = tmp_path / "v.csv"
    de_volta.write_text(
        "ano_meta;meta_cbios;cbios_aposentados;maior_media_mensal\n"
        f"2024;100000;0;{feita['preco_exato']}\n",
        "utf-8",
    )
    r = _lote(str(de_volta), "-r", REGIME, "-o", str(tmp_path / "v2.csv"), "--ptbr")
    assert r.exit_code == 0, r.output
    with (tmp_path / "v2.csv").open(encoding="utf-8", newline="") as arquivo:
        [outra] = list(csv.DictReader(arquivo, delimiter=";"))
    assert outra["valor"] == feita["valor"]
