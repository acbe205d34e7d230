"""The batch's and the CLI's defects found by the attack of issue 10, each reproduced first:
formula injection, English tracebacks on malformed files, JSON Lines split on the wrong
characters, the BOM, ``--saida`` overwritten by a bad input, partial files, Unicode digits."""

from __future__ import annotations

import contextlib
import csv
import json
import os
import signal
import subprocess
import time
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from multas import calcular
from multas.nucleo.erros import EntradaInvalida
from multas.principal import cli
from tests.utils.lote import CAMPOS, DISTRIBUIDORES, escrever_csv, ler_csv, muitas_linhas

REGIME = "renovabio.distribuidor"
LINHA = {
    "ano_meta": "2025",
    "meta_cbios": "1000000",
    "cbios_aposentados": "400000",
    "maior_media_mensal": "71.70",
}
CASO = {"regime": REGIME, **LINHA}
INGLES = ("Traceback", "Error", "error:", "Invalid", "Expected", "codec")


def lote(*args: object) -> Any:
    return CliRunner().invoke(cli, ["lote", *map(str, args)])


def sem_ingles(texto: str) -> None:
    assert not any(palavra in texto for palavra in INGLES), texto


# --- 7. formula injection: neutralised in CSV ('-prefix) and XLSX (text cells) ---------------

PERIGOSOS = [
    "=1+1",
    '=HYPERLINK("http://x","y")',
    "+cmd|' /C calc'!A0",
    "@SUM(1+1)",
    "-2+3",
    "\t=1",
    # full-width signs and signs after leading blanks (the hostile review of 02/12/2026)
    "\uff1d1+1",
    "\uff0bcmd|' /C calc'!A0",
    "\uff0d2+3",
    "\uff20SUM(1+1)",
    " =1+1",
    "\u3000\uff1d1",
]


def test_csv_de_saida_neutraliza_celulas_com_cara_de_formula(tmp_path: Path) -> None:
    entrada, saida = tmp_path / "d.csv", tmp_path / "r.csv"
    linhas = [{**LINHA, "nome": perigoso} for perigoso in PERIGOSOS]
    linhas.append({**LINHA, "nome": "-12.5", "meta_cbios": "=1+1"})  # a number stays a number
    escrever_csv(entrada, linhas, [*LINHA, "nome"])
    r = lote(entrada, "-r", REGIME, "-o", saida)
    assert r.exit_code == 3, r.output  # a row with errors
    obtidas = ler_csv(saida)
    assert [o["nome"] for o in obtidas[:-1]] == ["'" + p for p in PERIGOSOS]
    assert obtidas[-1]["nome"] == "-12.5"
    assert obtidas[-1]["meta_cbios"] == "'=1+1"
    assert obtidas[-1]["erro"].startswith("meta_cbios: ")
    # trusted pipelines may turn it off
    r = lote(entrada, "-r", REGIME, "-o", saida, "--sem-neutralizar-formulas")
    assert [o["nome"] for o in ler_csv(saida)[:-1]] == PERIGOSOS


@pytest.mark.parametrize("perigoso", PERIGOSOS)
def test_csv_de_saida_neutraliza_o_cabecalho_tambem(tmp_path: Path, perigoso: str) -> None:
    """A column the input named is a header cell of the output: neutralised like the others,
    and with --sem-neutralizar-formulas too (the option keeps the cell values the user asked
    to keep; a header is never written live: found by a hostile review)."""
    entrada, saida = tmp_path / "d.csv", tmp_path / "r.csv"
    escrever_csv(entrada, [{**LINHA, perigoso: "x"}], [*LINHA, perigoso])
    for opcoes in ((), ("--sem-neutralizar-formulas",)):
        r = lote(entrada, "-r", REGIME, "-o", saida, *opcoes)
        assert r.exit_code == 0, r.output
        with saida.open(encoding="utf-8", newline="") as arquivo:
            cabecalho = next(csv.reader(arquivo))
        assert "'" + perigoso in cabecalho and perigoso not in cabecalho, opcoes


def test_xlsx_de_saida_grava_celulas_como_texto_nunca_formula(tmp_path: Path) -> None:
    entrada, saida = tmp_path / "d.xlsx", tmp_path / "r.xlsx"
    livro = openpyxl.Workbook()
    folha = livro.active
    folha.append([*LINHA, "nome"])
    for perigoso in PERIGOSOS:
        folha.append([*LINHA.values(), perigoso])
        folha.cell(folha.max_row, 5).data_type = "s"  # text that looks like a formula
    livro.save(entrada)
    r = lote(entrada, "-r", REGIME, "-o", saida)
    assert r.exit_code == 0, r.output
    with zipfile.ZipFile(saida) as z:
        folha_xml = z.read("xl/worksheets/sheet1.xml").decode()
    assert "<f>" not in folha_xml  # no formula anywhere
    valores = [
        linha[4] for linha in openpyxl.load_workbook(saida).active.iter_rows(values_only=True)
    ]
    assert valores[1:] == PERIGOSOS  # the text itself, as text
    # each with Excel's quote prefix, so that editing the cell keeps it text
    folha_lida = openpyxl.load_workbook(saida).active
    assert all(folha_lida.cell(i, 5).quotePrefix for i in range(2, len(PERIGOSOS) + 2))
    r = lote(entrada, "-r", REGIME, "-o", saida, "--sem-neutralizar-formulas")
    with zipfile.ZipFile(saida) as z:
        assert "<f>" in z.read("xl/worksheets/sheet1.xml").decode()


def test_xlsx_de_saida_grava_o_cabecalho_como_texto_mesmo_sem_neutralizar(
    tmp_path: Path,
) -> None:
    """--sem-neutralizar-formulas writes the cells that look like formulas as formulas; the
    header row (the input's column names) stays text, with the quote prefix, always."""
    entrada, saida = tmp_path / "d.xlsx", tmp_path / "r.xlsx"
    perigosos = ["=1+1", '=HYPERLINK("http://x","y")', "+cmd|' /C calc'!A0"]
    livro = openpyxl.Workbook()
    folha = livro.active
    folha.append([*LINHA, *perigosos])
    folha.append([*LINHA.values(), "=2+2", "x", "y"])
    for linha in folha.iter_rows():
        for celula in linha:
            celula.data_type = "s" if isinstance(celula.value, str) else celula.data_type
    livro.save(entrada)
    r = lote(entrada, "-r", REGIME, "-o", saida, "--sem-neutralizar-formulas")
    assert r.exit_code == 0, r.output
    lida = openpyxl.load_workbook(saida).active
    colunas = {c.value: c for c in lida[1]}
    for perigoso in perigosos:
        assert colunas[perigoso].data_type == "s" and colunas[perigoso].quotePrefix, perigoso
    assert lida.cell(2, len(LINHA) + 1).data_type == "f"  # a value: written live, as asked


# --- 8. malformed batch inputs: a pt-BR error (exit 2) or a row error, never a traceback --------


def _csv_bytes(tmp_path: Path, conteudo: bytes) -> Path:
    arquivo = tmp_path / "d.csv"
    arquivo.write_bytes(conteudo)
    return arquivo


CABECALHO = ",".join(LINHA).encode()
VALORES = ",".join(LINHA.values()).encode()


@pytest.mark.parametrize(
    ("nome", "conteudo", "trecho"),
    [
        ("latin-1", CABECALHO + b",nome\n" + VALORES + b",Jos\xe9\n", "UTF-8"),
        ("latin-1 no cabeçalho", CABECALHO + b",n\xe3o\n" + VALORES + b",x\n", "UTF-8"),
        ("coluna repetida", CABECALHO + b",ano_meta\n" + VALORES + b",2025\n", "repetida"),
        ("linha irregular", CABECALHO + b"\n" + VALORES + b"\n2025,1\n", "linha 3"),
        ("vazio", b"", "vazio"),
    ],
)
def test_csv_malformado_da_erro_em_portugues(
    tmp_path: Path, nome: str, conteudo: bytes, trecho: str
) -> None:
    entrada = _csv_bytes(tmp_path, conteudo)
    # Latin-1 is detected and read (docs/arquivos.md); said to be UTF-8, it is refused
    utf8 = ("--codificacao", "utf-8") if nome.startswith("latin-1") else ()
    r = lote(entrada, "-r", REGIME, "-o", tmp_path / "r.csv", *utf8)
    assert r.exit_code == 2, (nome, r.output, r.exception)
    assert trecho in r.stderr, r.stderr
    sem_ingles(r.stderr)
    assert not (tmp_path / "r.csv").exists()


def _parquet_valido(caminho: Path) -> None:
    pq.write_table(pa.table({k: [v] * 1000 for k, v in LINHA.items()}), caminho)


@pytest.mark.parametrize("corte", [0, 4, 100, -20])
def test_parquet_truncado_ou_vazio_da_erro_em_portugues(tmp_path: Path, corte: int) -> None:
    completo, entrada = tmp_path / "c.parquet", tmp_path / "d.parquet"
    _parquet_valido(completo)
    dados = completo.read_bytes()
    entrada.write_bytes(dados[:corte])
    r = lote(entrada, "-r", REGIME, "-o", tmp_path / "r.parquet")
    assert r.exit_code == 2, (r.output, r.exception)
    assert "Parquet" in r.stderr
    sem_ingles(r.stderr)
    assert not (tmp_path / "r.parquet").exists()


@pytest.mark.parametrize(
    "conteudo", [b"", b"isto nao e uma planilha", b"PK\x03\x04" + b"\x00" * 100]
)
def test_xlsx_lixo_ou_vazio_da_erro_em_portugues(tmp_path: Path, conteudo: bytes) -> None:
    entrada = tmp_path / "d.xlsx"
    entrada.write_bytes(conteudo)
    r = lote(entrada, "-r", REGIME, "-o", tmp_path / "r.xlsx")
    assert r.exit_code == 2, (r.output, r.exception)
    assert "XLSX" in r.stderr
    sem_ingles(r.stderr)


def test_xlsx_sem_nenhuma_linha_da_erro_em_portugues(tmp_path: Path) -> None:
    entrada = tmp_path / "d.xlsx"
    openpyxl.Workbook().save(entrada)
    r = lote(entrada, "-r", REGIME, "-o", tmp_path / "r.xlsx")
    assert r.exit_code == 2 and "vazia" in r.stderr, r.output


def test_pasta_de_saida_inexistente_da_erro_em_portugues(tmp_path: Path) -> None:
    entrada = tmp_path / "d.csv"
    escrever_csv(entrada, DISTRIBUIDORES[:1], CAMPOS)
    r = lote(entrada, "-r", REGIME, "-o", tmp_path / "nao" / "existe" / "r.csv")
    assert r.exit_code == 2, (r.output, r.exception)
    assert "pasta" in r.stderr
    sem_ingles(r.stderr)


def test_jsonl_com_linha_fora_de_utf8_so_essa_linha_falha(tmp_path: Path) -> None:
    entrada, saida = tmp_path / "d.jsonl", tmp_path / "r.jsonl"
    boa = json.dumps(CASO | {"nome": "ok"}).encode()
    ruim = json.dumps(CASO | {"nome": "Jos\u00e9"}).encode().replace(b"\\u00e9", b"\xe9")
    entrada.write_bytes(boa + b"\n" + ruim + b"\n" + boa + b"\n")
    r = lote(entrada, "-r", REGIME, "-o", saida)
    assert r.exit_code == 3, (r.output, r.exception)  # that line fails
    linhas = [json.loads(x) for x in saida.read_text(encoding="utf-8").splitlines()]
    assert len(linhas) == 3
    assert linhas[0]["erro"] is None and linhas[2]["erro"] is None
    assert "UTF-8" in linhas[1]["erro"] and "linha 2" in linhas[1]["erro"]


# --- 9. JSON Lines split on \n only; the BOM; --saida kept when the input is bad --------------


@pytest.mark.parametrize("separador", ["\r", "\u2028", "\u2029", "\x85", "\x1c", "\x0c"])
def test_cli_jsonl_divide_so_em_quebra_de_linha(tmp_path: Path, separador: str) -> None:
    caso = {"regime": "anp.infracao", "inciso": "XI", "valor": "750000.00"}
    if separador == "\r":  # JSON whitespace: the line is a valid case
        com = json.dumps(caso).replace(", ", ",\r", 1)
    else:  # inside a string: one line, with an unknown field (or a raw control character)
        com = json.dumps(caso | {"x": f"a{separador}b"}, ensure_ascii=False)
    arquivo = tmp_path / "c.jsonl"
    arquivo.write_bytes((com + "\n" + json.dumps(caso) + "\r\n").encode("utf-8"))
    r = CliRunner().invoke(cli, ["calcular", str(arquivo)])
    saidas = r.stdout.split("\n")
    assert saidas[-1] == "" and len(saidas) == 3, r.stdout  # two lines in, two lines out
    primeira, segunda = json.loads(saidas[0]), json.loads(saidas[1])
    assert segunda["valor"] == "750000.00"
    if separador == "\r":
        assert r.exit_code == 0 and primeira["valor"] == "750000.00"
    else:
        assert r.exit_code == 3 and primeira["erro"]["linha"] == 1
        assert primeira["erro"]["campo"] == "x"


@pytest.mark.parametrize("separador", ["\r", "\u2028"])
def test_lote_jsonl_divide_so_em_quebra_de_linha(tmp_path: Path, separador: str) -> None:
    entrada, saida = tmp_path / "d.jsonl", tmp_path / "r.jsonl"
    texto = json.dumps(CASO | {"nome": f"a{separador}b"}, ensure_ascii=False)
    if separador == "\r":
        texto = texto.replace(", ", ",\r", 1)
    entrada.write_bytes((texto + "\n" + json.dumps(CASO) + "\n").encode("utf-8"))
    r = lote(entrada, "-r", REGIME, "-o", saida)
    assert r.exit_code == 0, r.output
    linhas = saida.read_bytes().split(b"\n")
    assert linhas[-1] == b"" and len(linhas) == 3
    assert [json.loads(x)["valor"] for x in linhas[:2]] == ["43020000.00"] * 2


def test_bom_utf8_aceito_no_cli_e_no_jsonl(tmp_path: Path) -> None:
    caso = tmp_path / "c.json"
    caso.write_bytes(b"\xef\xbb\xbf" + json.dumps(CASO).encode())
    r = CliRunner().invoke(cli, ["calcular", str(caso)])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(
        cli, ["calcular", "-"], input=b"\xef\xbb\xbf" + json.dumps(CASO).encode()
    )
    assert r.exit_code == 0, r.output
    linhas = tmp_path / "c.jsonl"
    linhas.write_bytes(b"\xef\xbb\xbf" + json.dumps(CASO).encode() + b"\n")
    r = CliRunner().invoke(cli, ["calcular", str(linhas)])
    assert r.exit_code == 0, r.output
    r = lote(linhas, "-r", REGIME, "-o", tmp_path / "r.jsonl")
    assert r.exit_code == 0, r.output
    assert json.loads((tmp_path / "r.jsonl").read_text(encoding="utf-8"))["valor"]


@pytest.mark.parametrize("formato", ["json", "texto", "pdf"])
def test_calcular_saida_nao_e_sobrescrita_quando_a_entrada_e_ruim(
    tmp_path: Path, formato: str
) -> None:
    ruim = tmp_path / "ruim.json"
    ruim.write_text('{"regime": "anp.infracao", "inciso": "XX"}', encoding="utf-8")
    saida = tmp_path / "saida.out"
    saida.write_bytes(b"resultado anterior")
    r = CliRunner().invoke(cli, ["calcular", str(ruim), "-f", formato, "--saida", str(saida)])
    assert r.exit_code == 2
    assert "inciso" in r.stderr
    assert saida.read_bytes() == b"resultado anterior"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ruim.json", "saida.out"]


# --- 10. an interrupted batch leaves no partial file --------------------------------------------


def _lote_lento(tmp_path: Path, linhas: int = 200_000) -> tuple[Path, Path]:
    entrada, saida = tmp_path / "d.csv", tmp_path / "r.csv"
    escrever_csv(entrada, muitas_linhas(linhas), CAMPOS)
    saida.write_text("resultado anterior\n", encoding="utf-8")
    return entrada, saida


def _comecar_lote(entrada: Path, saida: Path) -> subprocess.Popen[bytes]:
    from tests.utils import MULTAS

    return subprocess.Popen(
        [
            MULTAS,
            "lote",
            str(entrada),
            "-r",
            REGIME,
            "-o",
            str(saida),
            "--linhas-por-bloco",
            "500",  # small blocks: a long run, for the signal to land mid-way on a loaded machine
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        preexec_fn=_sinais_de_um_terminal,
    )


def _sinais_de_um_terminal() -> None:
    """The batch starts as from a terminal: no signal blocked nor ignored. A child inherits
    both from the test's process, which may have either from an earlier test or library (on
    two workers, in the whole suite, a SIGINT once never reached the run, which then ended on
    its own with its full output)."""
    signal.pthread_sigmask(signal.SIG_SETMASK, set())
    for numero in (signal.SIGINT, signal.SIGTERM):
        signal.signal(numero, signal.SIG_DFL)


def _esperar_escrita(pasta: Path, processo: subprocess.Popen[bytes]) -> None:
    """Until the run has written part of its output (a hidden file, or /proc's fd of one)."""
    limite = time.monotonic() + 60
    while time.monotonic() < limite:
        assert processo.poll() is None, processo.stderr.read() if processo.stderr else ""
        abertos = []
        with contextlib.suppress(FileNotFoundError):  # the process ended: poll() says how
            for descritor in Path(f"/proc/{processo.pid}/fd").iterdir():
                with contextlib.suppress(FileNotFoundError):  # closed meanwhile
                    abertos.append(os.readlink(descritor))
        if any(
            str(pasta) in a and ("parcial" in a or "(deleted)" in a or "#" in a) for a in abertos
        ):
            time.sleep(0.1)
            return
        time.sleep(0.05)
    raise AssertionError("o lote não começou a gravar")


@pytest.mark.subprocesso
@pytest.mark.parametrize("sinal", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL])
def test_lote_morto_no_meio_nao_deixa_arquivo_parcial_e_mantem_a_saida_anterior(
    tmp_path: Path, sinal: signal.Signals
) -> None:
    entrada, saida = _lote_lento(tmp_path)
    processo = _comecar_lote(entrada, saida)
    _esperar_escrita(tmp_path, processo)
    processo.send_signal(sinal)
    processo.wait(timeout=60)
    # a run that ended on its own exits 2 here (some rows are errors): say so, with its stderr
    relato = (processo.returncode, processo.stderr.read() if processo.stderr else b"")
    assert processo.returncode != 0, relato
    assert saida.read_text(encoding="utf-8") == "resultado anterior\n", relato
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.csv", "r.csv"]


@pytest.mark.subprocesso
def test_lote_do_motor_escalar_morto_nao_deixa_processos_nem_ingles(tmp_path: Path) -> None:
    """A scalar-engine batch computes on worker processes: a SIGKILL of the batch takes them
    along (no orphan keeps computing), with no partial file and nothing printed in English."""
    from tests.utils import MULTAS
    from tests.utils.lote import vedacoes

    entrada, saida = tmp_path / "v.csv", tmp_path / "r.csv"
    linhas = vedacoes(60_000)
    escrever_csv(entrada, linhas, list(linhas[0]))
    processo = subprocess.Popen(
        [MULTAS, "lote", str(entrada), "-r", "renovabio.vedacao", "-o", str(saida),
         "--linhas-por-bloco", "8000", "--nucleos", "2"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip

    def filhos() -> set[int]:
        return {
            int(p.name)
            for p in Path("/proc").iterdir()
            if p.name.isdigit() and _ppid(p) == processo.pid
        }

    limite = time.monotonic() + 60
    while len(filhos()) < 3:  # the two worker processes and multiprocessing's tracker
        assert time.monotonic() < limite and processo.poll() is None
        time.sleep(0.05)
    # a worker that appears in /proc may not yet have read its start-up data from the batch;
    # killed in that instant, Python's multiprocessing prints an English traceback in it
    # before any code of ours runs (a window of microseconds that only a test polling
    # /proc on a loaded machine hits): kill once the workers are computing
    time.sleep(0.5)
    assert processo.poll() is None
    netos = filhos()
    processo.kill()
    processo.wait(timeout=30)
    limite = time.monotonic() + 15
    while any(Path(f"/proc/{pid}").exists() and _ppid(Path(f"/proc/{pid}")) != 0 for pid in netos):
        assert time.monotonic() < limite, "processos do lote sobreviveram ao SIGKILL"
        time.sleep(0.1)
    assert processo.stderr is not None and processo.stderr.read() == b""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["v.csv"]


def _ppid(processo: Path) -> int:
    """The parent of a process (0 once it is gone or a zombie nobody waits for)."""
    try:
        campos = (processo / "stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return 0 if campos[0] == "Z" else int(campos[1])


def test_parcial_deixado_por_um_lote_morto_e_removido_na_proxima_execucao(tmp_path: Path) -> None:
    entrada = tmp_path / "d.csv"
    escrever_csv(entrada, DISTRIBUIDORES[:2], CAMPOS)
    morto = tmp_path / ".r.csv.999999999.parcial"  # a pid that cannot be running
    morto.write_text("metade", encoding="utf-8")
    r = lote(entrada, "-r", REGIME, "-o", tmp_path / "r.csv")
    assert r.exit_code == 0, r.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.csv", "r.csv"]


def test_renomeacao_final_vem_depois_de_fsync(tmp_path: Path, monkeypatch: Any) -> None:
    from multas.lote import io as lote_io

    eventos: list[str] = []
    fsync, replace = os.fsync, os.replace
    monkeypatch.setattr(lote_io.os, "fsync", lambda fd: (eventos.append("fsync"), fsync(fd))[1])
    monkeypatch.setattr(
        lote_io.os, "replace", lambda a, b: (eventos.append("replace"), replace(a, b))[1]
    )
    entrada = tmp_path / "d.csv"
    escrever_csv(entrada, DISTRIBUIDORES[:2], CAMPOS)
    assert lote(entrada, "-r", REGIME, "-o", tmp_path / "r.csv").exit_code == 0
    assert "fsync" in eventos
    if "replace" in eventos:
        assert eventos.index("fsync") < eventos.index("replace")


# --- 11. Unicode digits are not numbers ------------------------------------------------------


@pytest.mark.parametrize(
    ("campo", "valor"),
    [
        ("meta_cbios", "١٠"),  # Arabic-Indic
        ("meta_cbios", "１０"),  # fullwidth
        ("maior_media_mensal", "٧١.٧"),
        ("ano_meta", "٢٠٢٥"),
        ("faturamento_ano_meta", "١٠٠.٠٠"),
    ],
)
def test_algarismos_unicode_nao_sao_numeros(campo: str, valor: str) -> None:
    caso = {**CASO, "faturamento_ano_meta": "1000", "faturamento_ano_anterior": "1000"}
    caso[campo] = valor
    with pytest.raises(EntradaInvalida) as info:
        calcular(caso)
    assert info.value.campo == campo


def test_algarismos_unicode_nao_sao_numeros_nem_datas_nem_no_lote(tmp_path: Path) -> None:
    mora = {
        "regime": "anp.mora",
        "principal": "100",
        "data_ciencia": "٢٠٢٤-03-29",
        "data_pagamento": "2024-07-01",
    }
    with pytest.raises(EntradaInvalida, match="AAAA-MM-DD"):
        calcular(mora)
    from multas.nucleo.dinheiro import normalizar_ptbr

    assert normalizar_ptbr("١٠,٥") == "١٠,٥"  # left for the strict parser to refuse
    entrada, saida = tmp_path / "d.csv", tmp_path / "r.csv"
    with open(entrada, "w", encoding="utf-8", newline="") as arquivo:
        escritor = csv.DictWriter(arquivo, fieldnames=list(LINHA))
        escritor.writeheader()
        escritor.writerow({**LINHA, "meta_cbios": "١٠"})
    r = lote(entrada, "-r", REGIME, "-o", saida)
    assert r.exit_code == 3  # that row fails
    assert ler_csv(saida)[0]["erro"].startswith("meta_cbios:")


def test_sem_o_tmpfile_o_parcial_nomeado_tambem_e_atomico(tmp_path: Path, monkeypatch: Any) -> None:
    """Where the system has no O_TMPFILE: a locked .parcial, renamed at the end, removed on
    an interruption, and (while the run lives) left alone by another run's clean-up."""
    from multas.lote import executor as executor_mod
    from multas.lote import io as lote_io
    from tests.utils.lote import config_distribuidor

    monkeypatch.setattr(lote_io, "_anonimo", lambda pasta: None)
    entrada, saida = tmp_path / "d.csv", tmp_path / "r.csv"
    escrever_csv(entrada, muitas_linhas(300), CAMPOS)
    assert lote(entrada, "-r", REGIME, "-o", saida).exit_code in (0, 3)  # some rows fail
    assert len(ler_csv(saida)) == 300
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.csv", "r.csv"]
    anterior = saida.read_bytes()
    original, vistos = executor_mod.processar, []

    def interromper(bloco: Any, cfg: Any) -> Any:
        parciais = list(tmp_path.glob(".r.csv.*.parcial"))
        vistos.extend(parciais)
        assert lote_io.limpar_parciais(saida) == []  # alive and locked: not removed
        if len(vistos) > 2:
            raise KeyboardInterrupt
        return original(bloco, cfg)

    monkeypatch.setattr(executor_mod, "processar", interromper)
    with pytest.raises(KeyboardInterrupt):
        executor_mod.executar(entrada, saida, config_distribuidor(), linhas_por_bloco=50)
    assert vistos and saida.read_bytes() == anterior
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.csv", "r.csv"]
