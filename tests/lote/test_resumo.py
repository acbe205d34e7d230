"""Issue 37, item 8: what ``multas lote`` says while it runs and at the end: the phase
(lendo, calculando, gravando), the rows, the percentage and the rate, also as lines of text
in a file (``--progresso``); a closing line with the grammar of each count, and without the
engine's internals unless ``--exigir-kernel`` asks about them."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from multas.principal import cli
from multas.saidas.progresso import Linhas
from tests.utils.lote import em_csv, linhas_mora


def _lote(tmp_path: Path, linhas: int, *opcoes: str) -> tuple[int, str]:
    entrada = tmp_path / "e.csv"
    entrada.write_bytes(em_csv(linhas_mora(1, linhas)))  # row 0 would be an error row
    comando = ["lote", str(entrada), "-r", "anp.mora", "-o", str(tmp_path / "s.csv"), *opcoes]
    r = CliRunner().invoke(cli, comando)
    return r.exit_code, r.stderr


def test_progresso_num_arquivo_diz_fase_linhas_percentual(tmp_path: Path) -> None:
    codigo, erro = _lote(tmp_path, 30, "--progresso")
    assert codigo in (0, 3), erro  # 3: some rows had errors
    for fase in ("lendo", "calculando", "gravando"):
        assert f"{fase}: 30 de 30 (100%)" in erro, erro
    assert "\x1b[" not in erro


def test_sem_progresso_nada_alem_do_resumo(tmp_path: Path) -> None:
    _, erro = _lote(tmp_path, 3, "--sem-progresso")
    assert "lendo" not in erro and "gravando" not in erro


def test_linhas_de_texto_com_taxa_e_sem_total() -> None:
    escritas: list[str] = []
    agora = [0.0]
    linhas = Linhas(escritas.append, lambda: agora[0])
    avancar = linhas.etapa("lendo")
    agora[0] = 2.0
    avancar(40_000, 100_000)
    agora[0] = 2.5
    avancar(50_000, 100_000)  # within the interval: no line
    agora[0] = 4.0
    avancar(100_000, 100_000)  # the end: always a line
    sem_total = linhas.etapa("calculando")
    agora[0] = 5.0
    sem_total(1234, None)
    linhas.fechar()
    assert escritas == [
        "lendo: 40.000 de 100.000 (40%), 20.000/s",
        "lendo: 100.000 de 100.000 (100%), 25.000/s",
        "calculando: 1.234, 1.234/s",
    ]


def test_resumo_no_singular_e_sem_o_motor(tmp_path: Path) -> None:
    """ "1 linha, 1 calculadas" is now "1 linha, 1 calculada"; the scalar engine and the kernel
    are not named (anp.mora's rows may go to either)."""
    codigo, erro = _lote(tmp_path, 1)
    assert codigo == 0, erro
    assert "multas lote: 1 linha, 1 calculada, 0 com erro" in erro
    _, erro = _lote(tmp_path, 2)
    assert "multas lote: 2 linhas, 2 calculadas, 0 com erro" in erro
    assert "motor escalar" not in erro and "kernel" not in erro
