"""The RenovaBio year's output (issue 32, items 2, 3 and 8): every row names its distributor by
a valid CNPJ (a text that is none, or whose check digits are wrong, is that row's error on
every route of the year), so each fined distributor gets one notice of its own, named by its
CNPJ; and ``multas ano calcular --saida`` replaces the folder whole: no notice of an earlier
run stays beside the new ones, a folder of other files is refused, and a run that fails
leaves the previous results as they were."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import replace
from html import unescape
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from multas.nucleo.arquivos import Local
from multas.nucleo.erros import EntradaInvalida
from multas.principal import cli
from multas.servicos.ano import calcular_ano, zip_do_ano
from multas.servidor import criar_app
from tests.utils.ano import COTACOES, COTACOES_ARQUIVO, LEGISLACAO, TABELA, serie_das_cotacoes

CABECALHO = "cnpj,nome,meta_cbios,cbios_aposentados\n"
ALFA = "11.222.333/0001-81"
#: texts that are no CNPJ (two of them one file name once punctuation is replaced), and a
#: CNPJ whose check digit is wrong
NAO_CNPJS = ["=1+1", "+1=1", "../../etc/x", "11.222.333/0001-80"]


# not the shared cliente: one app for the whole module, its many requests pay the start-up once
@pytest.fixture(scope="module")
def cliente(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    banco = tmp_path_factory.mktemp("servidor") / "multas.db"
    with TestClient(criar_app(f"sqlite:///{banco}"), raise_server_exceptions=False) as c:
        yield c


def _arquivo(linhas: list[tuple[str, str]]) -> str:
    """A distributors file: each (CNPJ, name) fined (it retired nothing)."""
    saida = io.StringIO(newline="")
    escritor = csv.writer(saida, lineterminator="\n")
    escritor.writerows([CABECALHO.strip().split(","), *((c, n, 5000, 0) for c, n in linhas)])
    return saida.getvalue()


def _calcular(pasta: Path, arquivo: str, saida: Path) -> Any:
    entrada = pasta / "distribuidores.csv"
    entrada.write_text(arquivo, encoding="utf-8")
    return CliRunner().invoke(
        cli,
        [
            *("ano", "calcular", str(entrada), "--ano", "2024"),
            *("--cotacoes", str(COTACOES), "--saida", str(saida)),
        ],
    )


def _notificacoes(pasta: Path) -> list[str]:
    return sorted(p.name for p in (pasta / "notificacoes").iterdir())


# --- every route of the year: the errors of the rows, and the notices' names ----------------


def _pela_linha_de_comando(pasta: Path, _: TestClient, arquivo: str) -> tuple[str, list[str]]:
    saida = pasta / "saida"
    r = _calcular(pasta, arquivo, saida)
    # a row in error: the files are written, and the exit code is 3 (docs/ano.md)
    assert r.exit_code == 3 and "linhas com erro" in r.output, r.output
    with (saida / "resultado.csv").open(encoding="utf-8", newline="") as resultado:
        erros = "\n".join(linha["erro"] for linha in csv.DictReader(resultado))
    return erros, _notificacoes(saida)


def _membros(zip_: bytes) -> list[str]:
    with zipfile.ZipFile(io.BytesIO(zip_)) as arquivo:
        nomes = arquivo.namelist()
    assert nomes[0] == "resumo.pdf"
    return [n.removeprefix("notificacoes/") for n in nomes[1:]]


def _pela_api(_: Path, cliente: TestClient, arquivo: str) -> tuple[str, list[str]]:
    with COTACOES.open(encoding="utf-8") as cotacoes:
        corpo = {
            "ano": 2024,
            "distribuidores": list(csv.DictReader(io.StringIO(arquivo))),
            "cotacoes": list(csv.DictReader(cotacoes)),
        }
    r = cliente.post("/api/v1/ano", content=json.dumps(corpo))
    assert r.status_code == 200, r.text[:500]
    erros = "\n".join(linha["erro"] for linha in r.json()["linhas"])
    z = cliente.post("/api/v1/ano/notificacoes", content=json.dumps(corpo))
    assert z.status_code == 200, z.text[:500]
    return erros, _membros(z.content)


def _pela_pagina(_: Path, cliente: TestClient, arquivo: str) -> tuple[str, list[str]]:
    def enviar(campos: dict[str, str]) -> Any:
        arquivos = {
            "distribuidores": ("d.csv", arquivo.encode(), "text/csv"),
            "cotacoes": ("c.csv", COTACOES_ARQUIVO, "text/csv"),
        }
        return cliente.post("/ano", data={"ano": "2024", **campos}, files=arquivos)

    pagina = enviar({})
    assert pagina.status_code == 200, pagina.text[:500]
    z = enviar({"formato": "zip"})
    assert z.status_code == 200, z.text[:500]
    return unescape(pagina.text), _membros(z.content)


ROTAS_DO_ANO: dict[str, Callable[[Path, TestClient, str], tuple[str, list[str]]]] = {
    "multas ano calcular": _pela_linha_de_comando,
    "POST /api/v1/ano e /api/v1/ano/notificacoes": _pela_api,
    "POST /ano": _pela_pagina,
}


@pytest.mark.parametrize("rota", list(ROTAS_DO_ANO))
def test_um_cnpj_invalido_e_erro_da_linha_e_cada_multado_tem_sua_notificacao(
    tmp_path: Path, cliente: TestClient, rota: str
) -> None:
    """``=1+1`` and ``+1=1`` were both ``_1_1.pdf`` (one notice overwritten, or a ZIP with two
    members of one name), ``../../etc/x`` was ``ETCX.pdf``, and a wrong check digit got a
    notice: now each is its row's error, naming the line and the column, and the one valid
    fined distributor gets the one notice."""
    arquivo = _arquivo([(ALFA, "Alfa"), *((c, f"Hostil {i}") for i, c in enumerate(NAO_CNPJS))])
    erros, notificacoes = ROTAS_DO_ANO[rota](tmp_path, cliente, arquivo)
    unidade = "item {n}, campo" if rota.startswith("POST /api") else "linha {n}, coluna"
    for n, cnpj in enumerate(NAO_CNPJS, start=3 if "linha" in unidade else 2):
        assert f"{unidade.format(n=n)} cnpj: CNPJ inválido: '{cnpj}'" in erros, erros[:2000]
    assert notificacoes == ["11222333000181.pdf"]


def test_duas_linhas_com_um_so_arquivo_de_notificacao_sao_erro_nomeando_as_duas() -> None:
    """The notices' names are unique by construction (a valid CNPJ, none repeated); should two
    rows still give one name (or a row no valid CNPJ), no notice is made: an error naming
    both lines, never a ZIP with two members of one name or a notice overwritten."""
    linhas = [
        {"cnpj": cnpj, "meta_cbios": "10", "cbios_aposentados": "0"}
        for cnpj in (ALFA, "22.333.444/0001-81")
    ]
    cotacoes = serie_das_cotacoes()
    r = calcular_ano(
        linhas, [Local(2), Local(3)], TABELA, 2024, cotacoes, LEGISLACAO, com_calculo=True
    )
    segunda = r["lidas"][1]
    mesmo = "a notificação teria o mesmo arquivo (11222333000181.pdf) que a de linha 2"
    for cnpj, mensagem in [
        ("11222333000181", f"linha 3, coluna cnpj: {mesmo}"),
        ("=1+1", "linha 3, coluna cnpj: CNPJ inválido: '=1+1'"),
    ]:
        r["lidas"][1] = replace(segunda, entrada=replace(segunda.entrada, cnpj=cnpj))
        with pytest.raises(EntradaInvalida) as erro:
            zip_do_ano(r, 2024, LEGISLACAO, None)
        assert erro.value.campo == "cnpj" and erro.value.mensagem.startswith(mensagem)


# --- the output folder, replaced whole (multas ano calcular --saida) ---------------------------


def test_a_segunda_execucao_nao_deixa_notificacoes_da_primeira(tmp_path: Path) -> None:
    """Run twice into one folder, the second time with a corrected input that no longer fines
    Beta: the folder holds the second run's results only, so sending every PDF in it sends
    the right notices."""
    saida = tmp_path / "ano-2024"
    beta = "22.333.444/0001-81"
    r = _calcular(tmp_path, _arquivo([(ALFA, "Alfa"), (beta, "Beta")]), saida)
    assert r.exit_code == 0, r.output
    assert _notificacoes(saida) == ["11222333000181.pdf", "22333444000181.pdf"]
    corrigido = _arquivo([(ALFA, "Alfa")]) + f"{beta},Beta,5000,5000\n"  # Beta met the target
    r = _calcular(tmp_path, corrigido, saida)
    assert r.exit_code == 0, r.output
    assert _notificacoes(saida) == ["11222333000181.pdf"]
    resumo = json.loads((saida / "resumo.json").read_text(encoding="utf-8"))
    assert resumo["multados"] == len(_notificacoes(saida)) == 1
    assert sorted(p.name for p in saida.iterdir()) == [
        "notificacoes",
        "resultado-ptbr.csv",
        "resultado.csv",
        "resultado.xlsx",
        "resumo.json",
        "resumo.pdf",
    ]
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


@pytest.mark.parametrize(
    ("estranho", "nomeado"),
    [
        ("distribuidores.csv", "distribuidores.csv"),
        ("notificacoes/leia-me.txt", "notificacoes/leia-me.txt"),
        # a PDF of the user's beside the notices (a signed copy) is not a notice's name
        ("notificacoes/11222333000181-assinada.pdf", "notificacoes/11222333000181-assinada.pdf"),
        ("outra/a.pdf", "outra/"),
    ],
)
def test_uma_pasta_com_outros_arquivos_e_recusada_antes_de_calcular(
    tmp_path: Path, estranho: str, nomeado: str
) -> None:
    """The folder is replaced whole, so one holding anything the run does not write (``--saida
    .``, the input's own folder) is refused, naming the file, and left untouched."""
    saida = tmp_path / "saida"
    (saida / estranho).parent.mkdir(parents=True)
    (saida / estranho).write_text("meu", encoding="utf-8")
    r = _calcular(tmp_path, _arquivo([(ALFA, "Alfa")]), saida)
    assert r.exit_code == 2, r.output
    assert "--saida" in r.output and nomeado in r.output, r.output
    assert (saida / estranho).read_text(encoding="utf-8") == "meu"
    assert not (saida / "resultado.csv").exists()


def test_uma_execucao_que_falha_deixa_a_pasta_anterior_intacta(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A disk that fills up while the notices are written: the pt-BR error, the previous
    results as they were, and no half-written folder left beside them."""
    saida = tmp_path / "saida"
    r = _calcular(tmp_path, _arquivo([(ALFA, "Alfa")]), saida)
    assert r.exit_code == 0, r.output
    antes = {p.relative_to(saida): p.read_bytes() for p in saida.rglob("*") if p.is_file()}

    def cheio(*_: object, **__: object) -> bytes:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("multas.saidas.relatorio.notificacao.notificacao_pdf", cheio)
    r = _calcular(tmp_path, _arquivo([(ALFA, "Alfa"), ("22.333.444/0001-81", "Beta")]), saida)
    assert r.exit_code == 2, r.output
    assert "não foi possível gravar a pasta" in r.output, r.output
    depois = {p.relative_to(saida): p.read_bytes() for p in saida.rglob("*") if p.is_file()}
    assert depois == antes
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


@pytest.mark.parametrize(
    ("simular", "motivo"),
    [
        ("_montagem", "ponto de montagem"),  # cannot be renamed aside
        ("_gravavel", "sem permissão para gravar"),  # the new folder is made beside it
    ],
)
def test_uma_pasta_que_nao_pode_ser_substituida_e_recusada_antes_de_calcular(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, simular: str, motivo: str
) -> None:
    saida = tmp_path / "saida"
    saida.mkdir()
    monkeypatch.setattr(f"multas.servicos.pastas.{simular}", lambda *_: simular == "_montagem")
    calculado: list[object] = []
    monkeypatch.setattr("multas.servicos.ano.calcular_ano", lambda *a, **k: calculado.append(a))
    r = _calcular(tmp_path, _arquivo([(ALFA, "Alfa")]), saida)
    assert r.exit_code == 2 and motivo in r.output, r.output
    assert calculado == [] and list(saida.iterdir()) == []


def test_as_notificacoes_em_dois_processos_sao_os_mesmos_bytes_na_mesma_ordem() -> None:
    """Issue 36, item 5: the notices rendered in forked workers (the command line's cores)
    are the one-core notices, byte for byte, in the same order; the progress hears each."""
    from multas.nucleo.cnpj import digitos_verificadores
    from multas.servicos.ano import notificacoes

    cnpjs = [f"{i:08d}0001" for i in range(11, 16)]
    linhas = [
        {"cnpj": base + digitos_verificadores(base), "meta_cbios": "10", "cbios_aposentados": "0"}
        for base in cnpjs
    ]
    r = calcular_ano(
        linhas,
        [Local(i + 2) for i in range(len(linhas))],
        TABELA,
        2024,
        serie_das_cotacoes(),
        LEGISLACAO,
        com_calculo=True,
    )
    ouvidos: list[tuple[int, int | None]] = []
    um = list(notificacoes(r, 2024, LEGISLACAO, None))
    dois = list(
        notificacoes(r, 2024, LEGISLACAO, None, lambda n, t: ouvidos.append((n, t)), processos=2)
    )
    assert len(um) == 5 and dois == um
    assert ouvidos == [(n, 5) for n in range(6)]
