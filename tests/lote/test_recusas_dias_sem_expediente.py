"""The batch's days without business under hostile input: the ``dias_sem_expediente`` column
(a formula in a cell is a row error, echoed neutralised; a bad date is named by its position in
the cell) and the ``--dias-sem-expediente`` FILE (binary, latin-1, oversized or malformed: a
usage error naming the option and the file's line), and the kernel and the scalar engine give
the same answer when the file and the column are combined."""

from __future__ import annotations

import csv
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from multas.lote.executor import executar
from multas.lote.processar import Config
from multas.nucleo.motor import ler_interpretacao, regime_de
from multas.principal import cli


def _escrever_csv(caminho: Path, linhas: list[dict[str, Any]], campos: list[str]) -> None:
    with open(caminho, "w", encoding="utf-8", newline="") as arquivo:
        escritor = csv.DictWriter(arquivo, campos)
        escritor.writeheader()
        escritor.writerows(linhas)


def _ler_csv(caminho: Path) -> list[dict[str, str]]:
    with open(caminho, encoding="utf-8", newline="") as arquivo:
        return list(csv.DictReader(arquivo))


def _lote(*args: object) -> Any:
    return CliRunner().invoke(cli, ["lote", *map(str, args)])


CAMPOS_MORA = ["id", "principal", "data_ciencia", "data_pagamento", "dias_sem_expediente"]


def _mora(id_: str, dias: str) -> dict[str, str]:
    # 21/05/2025 + 30 = 20/06/2025 (ponto facultativo), 21-22 fim de semana → 23/06/2025
    return {
        "id": id_,
        "principal": "1000.00",
        "data_ciencia": "2025-05-21",
        "data_pagamento": "2025-06-25",
        "dias_sem_expediente": dias,
    }


def _executar(entrada: Path, saida: Path, arquivo: list[str], kernel: bool) -> list[dict[str, str]]:
    cfg = Config(
        "anp.mora",
        ler_interpretacao(regime_de("anp.mora"), None),
        constantes={"dias_sem_expediente": arquivo},
        kernel=kernel,
    )
    executar(entrada, saida, cfg)
    return _ler_csv(saida)


# --- the dias_sem_expediente column -------------------------------------------------------------


def test_lote_celula_com_formula(tmp_path: Path) -> None:
    """Cells "=1+1" / "@SUM(A1)" are row errors naming dias_sem_expediente[0], and the
    echoed cell is neutralised."""
    entrada, saida = tmp_path / "m.csv", tmp_path / "r.csv"
    _escrever_csv(entrada, [_mora("1", "=1+1"), _mora("2", "@SUM(A1)")], CAMPOS_MORA)
    r = _lote(entrada, "-r", "anp.mora", "-o", saida)
    assert r.exit_code == 3
    linhas = _ler_csv(saida)
    assert [linha["dias_sem_expediente"] for linha in linhas] == ["'=1+1", "'@SUM(A1)"]
    assert all(
        linha["erro"].startswith("dias_sem_expediente[0]: data inválida") for linha in linhas
    )


# --- the --dias-sem-expediente FILE ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("conteudo", "trecho"),
    [
        (b"\x00\xff\xfe\x89PNG\r\n", "UTF-8"),
        ("2025-06-23 # São João\n".encode("latin-1"), "UTF-8"),
        (b"2025-06-23\n" * 7000, "65536 bytes"),
        ("２０２５-06-23\n".encode(), "data inválida"),
        (b"2025-06-23 2025-06-24\n", "data inválida"),
    ],
)
def test_lote_arquivo_de_dias_invalido(tmp_path: Path, conteudo: bytes, trecho: str) -> None:
    """A binary, latin-1, oversized or malformed file is a usage error (exit 2) naming
    --dias-sem-expediente; nothing is computed."""
    entrada, saida, dias = tmp_path / "m.csv", tmp_path / "r.csv", tmp_path / "d.txt"
    _escrever_csv(entrada, [_mora("1", "")], CAMPOS_MORA)
    dias.write_bytes(conteudo)
    r = _lote(entrada, "-r", "anp.mora", "-o", saida, "--dias-sem-expediente", dias)
    assert r.exit_code == 2
    assert "--dias-sem-expediente" in r.output and trecho in r.output


def test_lote_arquivo_de_dias_erro_aponta_a_linha_do_arquivo(tmp_path: Path) -> None:
    """A --dias-sem-expediente file "2025-06-23\\n\\n\\nlixo\\n" fails naming the file's line
    of 'lixo' (linha 4; blank lines are documented as skipped). Was a defect: the error said
    "linha[1]: data inválida: 'lixo'", the 0-based position among the NON-blank lines."""
    entrada, saida, dias = tmp_path / "m.csv", tmp_path / "r.csv", tmp_path / "d.txt"
    _escrever_csv(entrada, [_mora("1", "")], CAMPOS_MORA)
    dias.write_text("2025-06-23\n\n\nlixo\n", encoding="utf-8")
    r = _lote(entrada, "-r", "anp.mora", "-o", saida, "--dias-sem-expediente", dias)
    assert r.exit_code == 2 and "lixo" in r.output
    assert "linha 4" in r.output or "linha[3]" in r.output, r.output


# --- the FILE and the column together ----------------------------------------------------------


def test_lote_erro_da_celula_aponta_a_data_da_celula(tmp_path: Path) -> None:
    """With --dias-sem-expediente (one date), a bad cell "2025-06-31" (its FIRST date) is
    named dias_sem_expediente[0], the cell's own position. Was a defect: it was reported as
    "dias_sem_expediente[1]: data inexistente", because the scalar path prepended the file's
    dates to the cell's before validating, so the index counted the file's dates."""
    entrada, saida, dias = tmp_path / "m.csv", tmp_path / "r.csv", tmp_path / "d.txt"
    _escrever_csv(entrada, [_mora("1", "2025-06-31")], CAMPOS_MORA)
    dias.write_text("2025-06-23\n", encoding="utf-8")
    _lote(entrada, "-r", "anp.mora", "-o", saida, "--dias-sem-expediente", dias)
    erro = _ler_csv(saida)[0]["erro"]
    assert erro.startswith("dias_sem_expediente[0]: data inexistente"), erro


def test_lote_kernel_e_motor_escalar_concordam_com_arquivo_e_coluna(tmp_path: Path) -> None:
    """--dias-sem-expediente with 300 dates and a row whose cell has 100 other dates: the same
    row gets the same answer whichever path computes it, the kernel or the scalar engine
    (``Config(kernel=False)``, and any row the kernel hands over, e.g. ``-i
    encargos=lei-10522`` without ``--selic``). Was a defect (kernel ≠ scalar engine): the
    kernel validated each list on its own (≤ 366 each) and computed the row (valor 1030.00);
    the scalar engine concatenated them and refused "dias_sem_expediente: no máximo 366
    datas"."""
    entrada, saida = tmp_path / "m.csv", tmp_path / "r.csv"
    base = date(2030, 1, 1)
    arquivo = [(base + timedelta(days=i)).isoformat() for i in range(300)]
    celula = " ".join((base + timedelta(days=400 + i)).isoformat() for i in range(100))
    _escrever_csv(entrada, [_mora("1", celula)], CAMPOS_MORA)
    com_kernel = _executar(entrada, saida, arquivo, kernel=True)[0]
    sem_kernel = _executar(entrada, saida, arquivo, kernel=False)[0]
    assert (com_kernel["valor"], com_kernel["erro"]) == (sem_kernel["valor"], sem_kernel["erro"])


def test_lote_datas_repetidas_do_arquivo_na_celula_contam_uma_vez(tmp_path: Path) -> None:
    """The file gives 200 dates and a row's cell repeats the same 200 (one set of 200 distinct
    dates): the row is computed (1030.00, vencimento 23/06/2025) on both paths, as
    ``ler_datas`` says "repeats count once". Was a defect: the scalar path counted the
    concatenated items (400 > 366) and refused the row, while the kernel computed it."""
    entrada, saida = tmp_path / "m.csv", tmp_path / "r.csv"
    base = date(2030, 1, 1)
    arquivo = [(base + timedelta(days=i)).isoformat() for i in range(200)]
    _escrever_csv(entrada, [_mora("1", " ".join(arquivo))], CAMPOS_MORA)
    for kernel in (True, False):
        linha = _executar(entrada, saida, arquivo, kernel=kernel)[0]
        assert (linha["valor"], linha["vencimento"], linha["erro"]) == (
            "1030.00",
            "2025-06-23",
            "",
        ), kernel
