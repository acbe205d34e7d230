"""Issue 20, item 9: the batch's progress bar knows its total (:mod:`multas.lote.contagem`):
Parquet from its metadata, CSV and JSON Lines by counting newlines (approximate for CSV),
XLSX from its sheet's dimension; a remote input has none and is read once; the bar shows the
percentage and the time left, and only on a terminal."""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path
from typing import Any

import fsspec
import openpyxl
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from rich.console import Console

from multas.lote.contagem import (
    contar_csv,
    contar_jsonl,
    contar_linhas,
    contar_parquet,
    contar_xlsx,
    somar,
)
from multas.lote.executor import executar
from multas.lote.io import Arquivo
from multas.lote.particoes import executar_particoes, planejar
from multas.principal import cli
from multas.saidas.progresso import barra
from tests.utils.lote import config_mora, dados_particionados, em_csv, em_parquet, linhas_mora


def _escrito(caminho: Path, dados: bytes) -> Path:
    caminho.write_bytes(dados)
    return caminho


@pytest.mark.parametrize(
    ("dados", "linhas"),
    [
        (b"a,b\n1,2\n3,4\n", 2),
        (b"a,b\n1,2\n3,4", 2),  # the last line without its newline still counts
        (b"a,b\r\n1,2\r\n3,4\r\n", 2),  # CRLF: one line each
        (b"\xef\xbb\xbfa,b\n1,2\n", 1),  # a BOM changes nothing
        (b"a,b\n", 0),  # only the header
        (b"a,b", 0),
        (b"", 0),
    ],
)
def test_csv_conta_as_quebras_de_linha(tmp_path: Path, dados: bytes, linhas: int) -> None:
    assert contar_csv(_escrito(tmp_path / "e.csv", dados)) == linhas


def test_csv_com_quebra_dentro_de_aspas_e_aproximado(tmp_path: Path) -> None:
    """Two rows, one with a quoted field over two lines: counted as three (too high: the bar
    ends before 100 %, never past it)."""
    caminho = _escrito(tmp_path / "e.csv", b'a,b\n1,"linha\num"\n2,x\n')
    assert contar_csv(caminho) == 3


def test_csv_grande_conta_em_pedacos(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import multas.lote.contagem as contagem

    monkeypatch.setattr(contagem, "PEDACO", 7)  # newlines on chunk borders
    corpo = b"".join(f"{i},{i * i}\n".encode() for i in range(1000))
    assert contar_csv(_escrito(tmp_path / "e.csv", b"a,b\n" + corpo)) == 1000
    assert contar_csv(_escrito(tmp_path / "f.csv", b"a,b\n" + corpo.rstrip(b"\n"))) == 1000


def test_json_lines_conta_cada_linha(tmp_path: Path) -> None:
    assert contar_jsonl(_escrito(tmp_path / "e.jsonl", b'{"a": 1}\n{"a": 2}\n')) == 2
    assert contar_jsonl(_escrito(tmp_path / "f.jsonl", b'{"a": 1}\r\n{"a": 2}')) == 2
    assert contar_jsonl(_escrito(tmp_path / "g.jsonl", b"")) == 0


def test_parquet_pelos_metadados(tmp_path: Path) -> None:
    caminho = _escrito(tmp_path / "e.parquet", em_parquet(linhas_mora(0, 300)))  # 4 row groups
    assert pq.ParquetFile(caminho).metadata.num_row_groups > 1
    assert contar_parquet(caminho) == 300


def _xlsx(caminho: Path, linhas: int, dimensao: str | None = "manter") -> Path:
    livro = openpyxl.Workbook()
    livro.create_chartsheet("grafico", 0)  # a chart before the sheet: not the one read
    folha = livro.worksheets[0]
    folha.append(["principal", "data_ciencia"])
    for i in range(linhas):
        folha.append([f"{100 + i}.00", "2024-01-10"])
    livro.save(caminho)
    if dimensao == "manter":
        return caminho
    with zipfile.ZipFile(caminho) as original:
        partes = {i.filename: original.read(i) for i in original.infolist()}
    nome = next(n for n in partes if n.startswith("xl/worksheets/sheet"))
    novo = b"" if dimensao is None else f'<dimension ref="{dimensao}"/>'.encode()
    partes[nome] = re.sub(rb"<dimension [^>]*/>", novo, partes[nome])
    with zipfile.ZipFile(caminho, "w") as refeito:
        for nome_parte, dados in partes.items():
            refeito.writestr(nome_parte, dados)
    return caminho


def test_xlsx_pela_dimensao_da_folha(tmp_path: Path) -> None:
    assert contar_xlsx(_xlsx(tmp_path / "e.xlsx", 40)) == 40
    assert contar_xlsx(_xlsx(tmp_path / "f.xlsx", 40, "A3:B22")) == 19  # header on row 3


@pytest.mark.parametrize("dimensao", [None, "A1", "A1:XFD1048576", "A1:B1"])
def test_xlsx_com_dimensao_ausente_ou_absurda_fica_sem_total(
    tmp_path: Path, dimensao: str | None
) -> None:
    assert contar_xlsx(_xlsx(tmp_path / "e.xlsx", 40, dimensao)) is None


def test_sem_total_fora_do_disco_local_ou_quando_nao_se_consegue_contar(tmp_path: Path) -> None:
    assert contar_linhas("memory://balde/e.csv") is None
    assert contar_linhas("s3://balde/e.parquet") is None
    assert contar_linhas(Arquivo(fsspec.filesystem("memory"), "/e.csv")) is None
    assert contar_linhas(_escrito(tmp_path / "e.txt", b"a\n1\n")) is None  # no batch format
    assert contar_linhas(_escrito(tmp_path / "e.parquet", b"PAR1 truncado")) is None
    assert contar_linhas(_escrito(tmp_path / "e.xlsx", b"nem zip")) is None
    assert contar_linhas(tmp_path / "nao_existe.csv") is None
    assert contar_linhas(str(_escrito(tmp_path / "e.csv", b"a\n1\n2\n"))) == 2
    assert somar([1, 2, 3]) == 6 and somar([1, None]) is None and somar([]) == 0


def test_o_lote_de_um_arquivo_informa_o_total(tmp_path: Path) -> None:
    entrada = _escrito(tmp_path / "e.csv", em_csv(linhas_mora(0, 150)))
    ouvidos: list[tuple[int, int | None]] = []
    executar(
        entrada,
        tmp_path / "s.csv",
        config_mora(),
        linhas_por_bloco=64,
        ao_avancar=lambda feitas, total: ouvidos.append((feitas, total)),
    )
    assert ouvidos[0] == (0, 150) and ouvidos[-1] == (150, 150)
    assert {total for _, total in ouvidos} == {150}


def test_particoes_locais_somam_os_arquivos(tmp_path: Path) -> None:
    dados_particionados(tmp_path / "dados", "csv")
    ouvidos: list[tuple[int, int | None]] = []
    executar_particoes(
        planejar(str(tmp_path / "dados" / "**" / "*.csv"), str(tmp_path / "saida")),
        config_mora(),
        ao_avancar=lambda feitas, total: ouvidos.append((feitas, total)),
    )
    assert ouvidos[0] == (0, 625) and ouvidos[-1] == (625, 625)


@pytest.fixture
def memoria() -> Any:
    fs = fsspec.filesystem("memory")
    fs.store.clear()
    fs.pseudo_dirs.clear()
    fs.pseudo_dirs.append("")
    yield fs
    fs.store.clear()


def test_entrada_remota_fica_sem_total_e_e_lida_uma_vez(
    memoria: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    memoria.pipe("/dados/a.parquet", em_parquet(linhas_mora(0, 300)))
    aberturas: list[str] = []
    original = type(memoria)._open

    def contando(self: Any, caminho: str, mode: str = "rb", **kwargs: Any) -> Any:
        if "r" in mode:
            aberturas.append(caminho)
        return original(self, caminho, mode=mode, **kwargs)

    monkeypatch.setattr(type(memoria), "_open", contando)
    ouvidos: list[tuple[int, int | None]] = []
    resumo = executar_particoes(
        planejar("memory://dados", "memory://saida"),
        config_mora(),
        ao_avancar=lambda feitas, total: ouvidos.append((feitas, total)),
    )
    assert resumo.linhas == 300
    assert ouvidos[0] == (0, None) and ouvidos[-1] == (300, None)
    assert aberturas.count("/dados/a.parquet") == 1


def test_a_barra_mostra_percentual_e_tempo_restante_num_terminal() -> None:
    terminal = io.StringIO()
    with barra(True, Console(file=terminal, force_terminal=True, width=120)) as aberta:
        assert aberta is not None
        avancar = aberta.etapa("linhas")
        for feitas in range(0, 1001, 100):
            avancar(feitas, 1000)
    desenho = terminal.getvalue()
    assert "1000/1000" in desenho and "100%" in desenho and "faltam" in desenho


def test_sem_total_a_barra_mostra_so_a_contagem() -> None:
    terminal = io.StringIO()
    with barra(True, Console(file=terminal, force_terminal=True, width=120)) as aberta:
        assert aberta is not None
        avancar = aberta.etapa("linhas")
        avancar(2804678, None)
    desenho = terminal.getvalue()
    assert "2804678/?" in desenho and "%" not in desenho and "faltam" not in desenho


def test_um_total_baixo_demais_e_abandonado_sem_passar_de_100() -> None:
    """An estimate below the real count (a wrong XLSX dimension): past it, the stage shows
    the count alone for the rest of the run."""
    from rich.progress import Progress

    from multas.saidas.progresso import Barra

    progresso = Progress(console=Console(file=io.StringIO()), auto_refresh=False)
    avancar = Barra(progresso).etapa("linhas")
    avancar(50, 100)
    assert progresso.tasks[0].total == 100
    avancar(150, 100)
    assert progresso.tasks[0].total is None and progresso.tasks[0].completed == 150
    avancar(200, 100)
    assert progresso.tasks[0].total is None


def test_fora_de_um_terminal_o_lote_nao_desenha_barra(tmp_path: Path) -> None:
    entrada = _escrito(tmp_path / "e.csv", em_csv(linhas_mora(0, 30)))
    r = CliRunner().invoke(
        cli,
        ["lote", str(entrada), "-r", "anp.mora", "-o", str(tmp_path / "s.csv")],
    )
    assert r.exit_code in (0, 3), r.output
    assert "%" not in r.stderr and "faltam" not in r.stderr and "/?" not in r.stderr
    assert "\x1b[" not in r.stderr  # no terminal control sequence
