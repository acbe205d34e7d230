"""Issue 19: the progress bar of the long runs (``multas ano calcular``, ``multas lote``): one
mechanism (:mod:`multas.saidas.progresso`), with the total, on stderr only when it is a terminal."""

from __future__ import annotations

import io
from contextlib import AbstractContextManager
from pathlib import Path

import pytest
from click.testing import Result
from rich.console import Console

from multas.nucleo.arquivos import Local
from multas.saidas.progresso import barra
from multas.servicos.ano import calcular_ano, notificacoes
from tests.utils.ano import (
    COTACOES,
    LEGISLACAO,
    TABELA,
    ano_calcular,
    ano_de_distribuidores,
    serie_das_cotacoes,
)


def test_o_ano_conta_os_distribuidores_e_as_notificacoes_com_o_total() -> None:
    linhas = ano_de_distribuidores(12, semente=5)
    ouvidos: list[tuple[int, int | None]] = []
    r = calcular_ano(
        linhas,
        [Local(i + 2) for i in range(len(linhas))],
        TABELA,
        2024,
        serie_das_cotacoes(),
        LEGISLACAO,
        com_calculo=True,
        ao_avancar=lambda feitas, total: ouvidos.append((feitas, total)),
    )
    assert ouvidos[0] == (0, 12) and ouvidos[-1] == (12, 12)
    assert {total for _, total in ouvidos} == {12}
    assert [feitas for feitas, _ in ouvidos] == sorted(feitas for feitas, _ in ouvidos)
    multados = r["resumo"]["multados"]
    assert multados > 0
    das_notificacoes: list[tuple[int, int | None]] = []
    pdfs = list(
        notificacoes(
            r,
            2024,
            LEGISLACAO,
            None,
            lambda feitas, total: das_notificacoes.append((feitas, total)),
        )
    )
    assert len(pdfs) == multados
    assert das_notificacoes[0] == (0, multados) and das_notificacoes[-1] == (multados, multados)


def test_a_barra_mostra_o_total_num_terminal_e_nada_fora_dele() -> None:
    terminal = io.StringIO()
    with barra(True, Console(file=terminal, force_terminal=True, width=100)) as aberta:
        assert aberta is not None
        avancar = aberta.etapa("distribuidores")
        for feitas in range(6):
            avancar(feitas, 5)
    assert "distribuidores" in terminal.getvalue() and "5/5" in terminal.getvalue()
    with barra(False) as fechada:
        assert fechada is None


def _ano_na_linha_de_comando(tmp_path: Path, *extras: str) -> Result:
    entrada = tmp_path / "d.csv"
    entrada.write_text(
        "cnpj,nome,meta_publicada,cbios_aposentados\n"
        "11.222.333/0001-81,Alfa,100000,60000\n"
        "11.222.333/0002-62,Beta,100000,100000\n",
        encoding="utf-8",
    )
    return ano_calcular(entrada, tmp_path / "saida", *extras)


def test_fora_de_um_terminal_o_ano_nao_imprime_nada_a_mais(tmp_path: Path) -> None:
    r = _ano_na_linha_de_comando(tmp_path)
    assert r.exit_code == 0, r.output
    assert r.stderr == ""
    assert r.stdout.count("\n") == 1 and r.stdout.startswith("2 distribuidores em 2024")


def test_sem_saida_de_erro_o_ano_roda_sem_barra(tmp_path: Path) -> None:
    """A command run with its error output closed (``2>&-``, a service): Python's
    ``sys.stderr`` is ``None``, which is not a terminal; the year runs, without a bar."""
    import subprocess
    import sys

    entrada = tmp_path / "d.csv"
    entrada.write_text(
        "cnpj,nome,meta_publicada,cbios_aposentados\n11.222.333/0001-81,Alfa,100000,60000\n",
        encoding="utf-8",
    )
    codigo = (
        "import sys; sys.stderr = None; from multas.principal import main; "
        "sys.argv = ['multas', *sys.argv[1:]]; main()"
    )
    argumentos = ["ano", "calcular", str(entrada), "--ano", "2024", "--cotacoes", str(COTACOES)]
    r = subprocess.run(
        [sys.executable, "-c", codigo, *argumentos, "--saida", str(tmp_path / "s")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.startswith("1 distribuidores em 2024")


def test_progresso_pedido_vai_so_para_a_saida_de_erro(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With --progresso the bar is drawn (here on a fake terminal) with the totals; the
    standard output is the same summary line as without it."""
    import multas.saidas.progresso as progresso

    desenhado = io.StringIO()
    original = progresso.barra

    def num_terminal(
        ativa: bool | None = None, console: Console | None = None
    ) -> AbstractContextManager[progresso.Barra | None]:
        assert ativa is True  # the option reached the bar
        return original(True, Console(file=desenhado, force_terminal=True, width=100))

    monkeypatch.setattr(progresso, "barra", num_terminal)
    r = _ano_na_linha_de_comando(tmp_path, "--progresso")
    assert r.exit_code == 0, r.output
    assert r.stdout.count("\n") == 1 and r.stderr == ""
    assert "distribuidores" in desenhado.getvalue() and "2/2" in desenhado.getvalue()
    assert "notificações" in desenhado.getvalue() and "1/1" in desenhado.getvalue()


def test_progresso_pedido_num_arquivo_escreve_linhas(tmp_path: Path) -> None:
    """Issue 37, item 8: --progresso where the error output is a file wrote two empty lines
    (a bar only a terminal redraws); now a line per stage, with the count and the total."""
    r = _ano_na_linha_de_comando(tmp_path, "--progresso")
    assert r.exit_code == 0, r.output
    linhas = [linha for linha in r.stderr.splitlines() if linha.strip()]
    assert "distribuidores: 2 de 2 (100%)" in r.stderr, r.stderr
    assert "notificações: 1 de 1 (100%)" in r.stderr, r.stderr
    assert linhas and all(":" in linha for linha in linhas)
    assert "\x1b[" not in r.stderr
