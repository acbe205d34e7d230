"""Issue 15, items 7 and 10: one reader for every imported file, with bounded expansion.

Each hostile file is written once and sent through every entry point that reads such a file:
``multas lote``, ``multas carteira importar``, ``POST /api/v1/carteira/importar`` and, for
text, the page's paste import. Each must refuse it with a pt-BR error that says where (``linha
N``, the header being line 1, and the column), within its own limits (small on the server,
larger on the command line, configurable in the batch), and never with a traceback.
"""

from __future__ import annotations

import html
import io
import json
import tracemalloc
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from multas.principal import cli
from multas.servidor import criar_app
from tests.utils.planilhas import (
    CABECALHO,
    NS,
    cabecalho_xml,
    celula_texto,
    linha_xml,
    xlsx,
)

CNPJ = "12.345.678/0001-95"
REGIME = "renovabio.distribuidor"
INGLES = ("Traceback", "Error", "error:", "Invalid", "Expected", "codec", "list index")

#: the presets, as docs/lote.md and docs/ciclo.md state them (checked against the code below)
KiB, MiB, GiB = 1 << 10, 1 << 20, 1 << 30
SERVIDOR = {"descompactado": 16 * MiB, "linhas": 100_000, "celulas": 2_000_000, "texto": 32 * KiB}
LINHA_DE_COMANDO = {
    "descompactado": 256 * MiB,
    "linhas": 1_000_000,
    "celulas": 20_000_000,
    "texto": 1 * MiB,
}
LOTE = {"descompactado": 4 * GiB, "linhas": None, "celulas": 100_000_000, "texto": 1 * MiB}


# --- hostile files ----------------------------------------------------------------------------


def xlsx_valido() -> bytes:
    dados = [
        celula_texto("A2", 5),
        '<c r="B2"><v>2025</v></c>',
        '<c r="C2"><v>10</v></c>',
        '<c r="D2"><v>10</v></c>',
    ]
    return xlsx(cabecalho_xml() + linha_xml(2, dados), [*CABECALHO, CNPJ])


@cache
def bomba_de_texto(megas: int = 40) -> bytes:
    """A 40 KB workbook whose one shared string is ``megas`` MiB of ``a``."""
    um_texto = f'<sst xmlns="{NS}"><si><t>'.encode() + b"a" * (megas * MiB) + b"</t></si></sst>"
    return xlsx(cabecalho_xml(), um_texto)


def xlsx_com_celulas_demais(celulas: int) -> bytes:
    """A sheet of a few bytes per row, each row with one cell in the last column (XFD): a
    reader that pads the rows makes 16 384 cells of each."""
    linhas = "".join(
        linha_xml(n, [f'<c r="XFD{n}"><v>1</v></c>']) for n in range(2, celulas // 16_384 + 3)
    )
    return xlsx(cabecalho_xml() + linhas, CABECALHO)


def csv_com_celula(tamanho: int) -> bytes:
    """A CSV whose second data row (line 3) has a ``nome`` of ``tamanho`` characters."""
    linhas = [",".join(CABECALHO), f"{CNPJ},2024,10,10,curto", f"{CNPJ},2025,10,10,{'x' * tamanho}"]
    return ("\n".join(linhas) + "\n").encode()


# --- the entry points -------------------------------------------------------------------------


@dataclass
class Resposta:
    recusado: bool
    mensagem: str
    campo: str | None = None


@dataclass
class Porta:
    """An entry point that reads a file, with the limits it applies."""

    nome: str
    formatos: tuple[str, ...]
    limites: dict[str, int | None]
    enviar: Callable[[Path, str, bytes], Resposta]

    def __repr__(self) -> str:
        return self.nome


def _lote(pasta: Path, nome: str, conteudo: bytes, *opcoes: str) -> Resposta:
    entrada = pasta / nome
    entrada.write_bytes(conteudo)
    saida = pasta / f"r{entrada.suffix}"
    r = CliRunner().invoke(cli, ["lote", str(entrada), "-r", REGIME, "-o", str(saida), *opcoes])
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    recusado = r.exit_code == 2 and not saida.exists()
    return Resposta(recusado, r.stderr)


def _carteira_cli(pasta: Path, nome: str, conteudo: bytes) -> Resposta:
    entrada = pasta / nome
    entrada.write_bytes(conteudo)
    banco = f"sqlite:///{pasta / 'm.db'}"
    r = CliRunner().invoke(cli, ["carteira", "importar", str(entrada), "--banco", banco])
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    if r.exit_code != 2:
        return Resposta(False, r.stdout + r.stderr)
    erro = json.loads(r.stdout)["erro"]
    return Resposta(True, erro["mensagem"], erro["campo"])


_CLIENTES: dict[str, TestClient] = {}


def _cliente(pasta: Path) -> TestClient:
    chave = str(pasta)
    if chave not in _CLIENTES:
        cliente = TestClient(
            criar_app(f"sqlite:///{pasta / 'api.db'}"), raise_server_exceptions=False
        )
        cliente.__enter__()
        _CLIENTES[chave] = cliente
    return _CLIENTES[chave]


@pytest.fixture(autouse=True)
def _fechar_clientes() -> Iterator[None]:
    yield
    while _CLIENTES:
        _CLIENTES.popitem()[1].__exit__(None, None, None)


def _api(pasta: Path, nome: str, conteudo: bytes) -> Resposta:
    formato = nome.rsplit(".", 1)[1]
    r = _cliente(pasta).post(
        "/api/v1/carteira/importar", params={"formato": formato}, content=conteudo
    )
    if r.status_code != 422:
        assert r.status_code == 200, r.text
        return Resposta(False, r.text)
    erro = r.json()["erro"]
    return Resposta(True, erro["mensagem"], erro["campo"])


def _pagina(pasta: Path, nome: str, conteudo: bytes) -> Resposta:
    r = _cliente(pasta).post(
        "/carteira/importar",
        data={"conteudo": conteudo.decode("utf-8")},
        follow_redirects=False,
    )
    if r.status_code != 422:
        assert r.status_code == 303, r.text
        return Resposta(False, r.text)
    inicio = r.text.index('id="resumo-erro-importar"')  # the error beside the paste box
    return Resposta(True, html.unescape(r.text[inicio : r.text.index("</div>", inicio)]))


LOTE_PORTA = Porta("lote", ("csv", "xlsx", "jsonl"), LOTE, _lote)
CARTEIRA_CLI = Porta(
    "carteira-cli", ("csv", "xlsx", "json", "jsonl"), LINHA_DE_COMANDO, _carteira_cli
)
API = Porta("api", ("csv", "xlsx", "json", "jsonl"), SERVIDOR, _api)
PAGINA = Porta("pagina", ("csv",), SERVIDOR, _pagina)
PORTAS = [LOTE_PORTA, CARTEIRA_CLI, API, PAGINA]
DE_CARTEIRA = [CARTEIRA_CLI, API, PAGINA]


def portas(formato: str, entre: list[Porta] = PORTAS) -> list[Porta]:
    return [p for p in entre if formato in p.formatos]


def sem_ingles(texto: str) -> None:
    assert not any(palavra in texto for palavra in INGLES), texto


def recusado(resposta: Resposta, *trechos: str) -> None:
    assert resposta.recusado, resposta.mensagem
    for trecho in trechos:
        assert trecho in resposta.mensagem, resposta.mensagem
    sem_ingles(resposta.mensagem)


# --- item 7: bounded expansion --------------------------------------------------------------


@pytest.mark.parametrize("porta", portas("xlsx"), ids=repr)
def test_xlsx_que_se_declara_enorme_e_recusado_antes_de_ler(porta: Porta, tmp_path: Path) -> None:
    """A part declaring 8 GiB uncompressed: above every entry point's limit, refused on the
    zip's directory alone (the old readers opened it)."""
    hostil = xlsx(cabecalho_xml(), CABECALHO, declarados={"xl/sharedStrings.xml": 8 * GiB})
    recusado(porta.enviar(tmp_path, "c.xlsx", hostil), "descompactad", "MiB")


def test_bomba_de_texto_compartilhado_nao_chega_ao_openpyxl(tmp_path: Path) -> None:
    """40 KB that expand to a 40 MiB shared string: the server refuses it from the zip's
    directory, without allocating the string (the old reader took 84 MB)."""
    bomba = bomba_de_texto()
    assert len(bomba) < 100 * KiB
    _cliente(tmp_path)  # the app started outside the measure
    tracemalloc.start()
    try:
        resposta = _api(tmp_path, "c.xlsx", bomba)
        _, pico = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    recusado(resposta, "descompactad", "16 MiB")
    assert pico < 8 * MiB, pico


def test_lote_limite_descompactado_configuravel(tmp_path: Path) -> None:
    bomba = bomba_de_texto()
    recusado(_lote(tmp_path, "d.xlsx", bomba, "--limite-descompactado", "16"), "16 MiB")


@pytest.mark.parametrize("porta", portas("xlsx"), ids=repr)
def test_planilha_com_celulas_demais_e_recusada(porta: Porta, tmp_path: Path) -> None:
    """Rows of one cell in the last column: what counts is what the reader expands them to."""
    limite = porta.limites["celulas"]
    assert limite is not None
    resposta = porta.enviar(tmp_path, "c.xlsx", xlsx_com_celulas_demais(limite))
    recusado(resposta, "células", f"{limite:_}".replace("_", "."))


def test_lote_limite_de_celulas_configuravel(tmp_path: Path) -> None:
    hostil = xlsx_com_celulas_demais(100_000)
    recusado(_lote(tmp_path, "d.xlsx", hostil, "--limite-celulas", "100000"), "100.000")


@pytest.mark.parametrize("porta", PORTAS, ids=repr)
def test_celula_acima_do_limite_diz_linha_e_coluna(porta: Porta, tmp_path: Path) -> None:
    """A cell one character above the entry point's limit, on the second data row."""
    limite = porta.limites["texto"]
    assert limite is not None
    resposta = porta.enviar(tmp_path, "c.csv", csv_com_celula(limite + 1))
    recusado(resposta, "linha 3, coluna nome", "caracteres")
    assert resposta.campo in (None, "nome")


@pytest.mark.parametrize("porta", PORTAS, ids=repr)
def test_campo_de_csv_acima_de_128_kib_nao_quebra(porta: Porta, tmp_path: Path) -> None:
    """Python's csv module refuses a field over 128 KiB with an English error (a 500 on the
    server): each entry point either reads it (within its limit) or refuses it in pt-BR."""
    resposta = porta.enviar(tmp_path, "c.csv", csv_com_celula(200 * KiB))
    sem_ingles(resposta.mensagem)
    if porta is LOTE_PORTA:  # within the batch's limit: the row is read (and computed)
        assert "linha 3" not in resposta.mensagem
    else:  # the server's limit, or the ledger's own limit on a name
        recusado(resposta, "linha 3, coluna nome")


@pytest.mark.parametrize("porta", portas("xlsx"), ids=repr)
def test_texto_compartilhado_longo_demais_diz_a_linha(porta: Porta, tmp_path: Path) -> None:
    limite = porta.limites["texto"]
    assert limite is not None
    dados = [celula_texto("A2", 5), '<c r="B2"><v>2025</v></c>', celula_texto("E2", 6)]
    linhas = cabecalho_xml() + linha_xml(2, dados)
    resposta = porta.enviar(
        tmp_path, "c.xlsx", xlsx(linhas, [*CABECALHO, CNPJ, "y" * (limite + 1)])
    )
    recusado(resposta, "linha 2, coluna nome", "caracteres")


def test_tamanho_declarado_menor_que_o_real_nao_e_lido_alem_dele(tmp_path: Path) -> None:
    """The zip's directory may lie the other way: a 40 MiB part declared as 1 KiB is read only
    up to what it declares (zipfile's stream stops there), then refused as corrupt."""
    bomba = bomba_de_texto()
    with zipfile.ZipFile(io.BytesIO(bomba)) as z:
        partes = {i.filename: z.read(i.filename) for i in z.infolist() if i.file_size < MiB}
    saida = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(bomba)) as z, zipfile.ZipFile(saida, "w") as w:
        for info in z.infolist():
            w.writestr(info, partes.get(info.filename) or z.read(info.filename))
        for info in w.filelist:
            if info.filename == "xl/sharedStrings.xml":
                info.file_size = KiB
    _cliente(tmp_path)
    tracemalloc.start()
    try:
        resposta = _api(tmp_path, "c.xlsx", saida.getvalue())
        _, pico = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    recusado(resposta, "XLSX")
    assert pico < 8 * MiB, pico


@pytest.mark.parametrize("porta", portas("xlsx"), ids=repr)
def test_xlsx_com_dtd_e_recusado(porta: Porta, tmp_path: Path) -> None:
    """XML entities expand inside the parser, past any size the zip declares: an XLSX never
    has a DTD, so one is refused."""
    entidades = (
        '<?xml version="1.0"?><!DOCTYPE sst [<!ENTITY a "aaaaaaaaaa">'
        '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'
        f'<sst xmlns="{NS}">' + "".join(f"<si><t>{c}</t></si>" for c in CABECALHO)
    ).encode() + b"<si><t>&b;</t></si></sst>"
    recusado(porta.enviar(tmp_path, "c.xlsx", xlsx(cabecalho_xml(), entidades)), "DTD")


@pytest.mark.parametrize("porta", DE_CARTEIRA, ids=repr)
def test_linhas_demais(porta: Porta, tmp_path: Path) -> None:
    limite = porta.limites["linhas"]
    assert limite is not None
    if limite > 200_000:
        pytest.skip("a million rows would take too long here; the mechanism is the same")
    # one character a row: the server takes at most 1 MiB of body
    resposta = porta.enviar(tmp_path, "c.csv", b"cnpj\n" + b"x\n" * (limite + 1))
    recusado(resposta, "linhas demais", f"{limite:_}".replace("_", "."))


# --- item 10: malformed files -----------------------------------------------------------------


@pytest.mark.parametrize("porta", portas("xlsx"), ids=repr)
def test_xlsx_sem_nenhuma_folha(porta: Porta, tmp_path: Path) -> None:
    sem_folhas = xlsx(cabecalho_xml(), CABECALHO, com_folha=False)
    recusado(porta.enviar(tmp_path, "c.xlsx", sem_folhas), "XLSX", "nenhuma folha")


@pytest.mark.parametrize("porta", portas("xlsx"), ids=repr)
def test_xml_da_folha_truncado(porta: Porta, tmp_path: Path) -> None:
    inteiro = (
        f'<worksheet xmlns="{NS}"><sheetData>'
        + cabecalho_xml()
        + "".join(
            linha_xml(n, [celula_texto(f"A{n}", 5), f'<c r="B{n}"><v>{2000 + n}</v></c>'])
            for n in range(2, 50)
        )
        + "</sheetData></worksheet>"
    ).encode()
    truncado = inteiro[: len(inteiro) * 2 // 3]
    recusado(porta.enviar(tmp_path, "c.xlsx", xlsx(truncado, [*CABECALHO, CNPJ])), "XLSX")


@pytest.mark.parametrize("porta", portas("xlsx"), ids=repr)
def test_indice_de_texto_compartilhado_inexistente(porta: Porta, tmp_path: Path) -> None:
    linhas = cabecalho_xml() + linha_xml(2, [celula_texto("A2", 99)])
    resposta = porta.enviar(tmp_path, "c.xlsx", xlsx(linhas, CABECALHO))
    recusado(resposta, "XLSX", "texto compartilhado")


@pytest.mark.parametrize("porta", portas("jsonl", DE_CARTEIRA), ids=repr)
def test_jsonl_da_carteira_divide_so_em_quebra_de_linha(porta: Porta, tmp_path: Path) -> None:
    r"""``\r`` (JSON whitespace between members) and U+2028 (inside a name) do not end a line."""
    ano = {"cnpj": CNPJ, "ano": 2024, "meta_cbios": 10, "cbios_aposentados": 10}
    primeira = json.dumps(ano).replace(", ", ",\r", 1)
    segunda = json.dumps(
        ano | {"ano": 2025, "nome": "Distribuidora\u2028Exemplo"}, ensure_ascii=False
    )
    conteudo = f"{primeira}\n{segunda}\r\n".encode()
    resposta = porta.enviar(tmp_path, "c.jsonl", conteudo)
    assert not resposta.recusado, resposta.mensagem
    assert '"anos": 2' in resposta.mensagem.replace('"anos":2', '"anos": 2')


def test_csv_do_lote_dito_utf8_e_nao_e_diz_a_linha(tmp_path: Path) -> None:
    conteudo = csv_com_celula(3).replace(b"xxx", b"Jos\xe9")
    recusado(_lote(tmp_path, "c.csv", conteudo, "--codificacao", "utf-8"), "linha 3", "UTF-8")


@pytest.mark.parametrize("porta", portas("csv", [LOTE_PORTA, CARTEIRA_CLI, API]), ids=repr)
def test_csv_fora_de_utf8_e_lido_em_latin1(porta: Porta, tmp_path: Path) -> None:
    """Every reader detects the encoding: bytes that are not UTF-8 are Latin-1 (CP1252), as
    Windows and B3's site write them."""
    conteudo = csv_com_celula(3).replace(b"xxx", b"Jos\xe9")
    resposta = porta.enviar(tmp_path, "c.csv", conteudo)
    assert not resposta.recusado, resposta.mensagem


@pytest.mark.parametrize("porta", portas("jsonl", DE_CARTEIRA), ids=repr)
def test_jsonl_da_carteira_fora_de_utf8_diz_a_linha(porta: Porta, tmp_path: Path) -> None:
    ano = {"cnpj": CNPJ, "ano": 2024, "meta_cbios": 10, "cbios_aposentados": 10, "nome": "Jos"}
    boa = json.dumps(ano).encode()
    ruim = json.dumps(ano | {"ano": 2025}).encode().replace(b'"Jos"', b'"Jos\xe9"')
    recusado(porta.enviar(tmp_path, "c.jsonl", boa + b"\n" + ruim + b"\n"), "linha 2", "UTF-8")


# --- one row-numbering convention -----------------------------------------------------------

ERRO_NA_SEGUNDA = (f"{CNPJ},2024,10,10,a", f"{CNPJ},2025,10,muitos,b")


@pytest.mark.parametrize("porta", DE_CARTEIRA, ids=repr)
def test_erro_na_segunda_linha_de_dados_e_a_linha_3(porta: Porta, tmp_path: Path) -> None:
    conteudo = "\n".join([",".join(CABECALHO), *ERRO_NA_SEGUNDA]) + "\n"
    resposta = porta.enviar(tmp_path, "c.csv", conteudo.encode())
    recusado(resposta, "linha 3, coluna cbios_aposentados")
    if resposta.campo is not None or porta is not PAGINA:
        assert resposta.campo == "cbios_aposentados"


@pytest.mark.parametrize("porta", portas("xlsx", DE_CARTEIRA), ids=repr)
def test_erro_na_segunda_linha_de_dados_do_xlsx_e_a_linha_3(porta: Porta, tmp_path: Path) -> None:
    def linha(n: int, aposentados: str) -> str:
        return linha_xml(
            n,
            [
                celula_texto(f"A{n}", 5),
                f'<c r="B{n}"><v>{2022 + n}</v></c>',
                f'<c r="C{n}"><v>1</v></c>',
                aposentados,
            ],
        )

    linhas = cabecalho_xml() + linha(2, '<c r="D2"><v>1</v></c>') + linha(3, celula_texto("D3", 6))
    resposta = porta.enviar(tmp_path, "c.xlsx", xlsx(linhas, [*CABECALHO, CNPJ, "muitos"]))
    recusado(resposta, "linha 3, coluna cbios_aposentados")
    assert resposta.campo == "cbios_aposentados"


@pytest.mark.parametrize("porta", portas("jsonl", DE_CARTEIRA), ids=repr)
def test_erro_no_json_lines_e_a_linha_do_arquivo(porta: Porta, tmp_path: Path) -> None:
    ano = {"cnpj": CNPJ, "ano": 2024, "meta_cbios": 10, "cbios_aposentados": 10}
    conteudo = "\n".join([json.dumps(ano), json.dumps(ano | {"ano": 2025, "meta_cbios": "x"})])
    resposta = porta.enviar(tmp_path, "c.jsonl", conteudo.encode())
    recusado(resposta, "linha 2, campo meta_cbios")
    assert resposta.campo == "meta_cbios"


@pytest.mark.parametrize("porta", portas("json", DE_CARTEIRA), ids=repr)
def test_erro_na_lista_json_e_o_item(porta: Porta, tmp_path: Path) -> None:
    ano = {"cnpj": CNPJ, "ano": 2024, "meta_cbios": 10, "cbios_aposentados": 10}
    conteudo = json.dumps([ano, ano | {"ano": 2025, "meta_cbios": "x"}])
    resposta = porta.enviar(tmp_path, "c.json", conteudo.encode())
    recusado(resposta, "item 2, campo meta_cbios")
    assert resposta.campo == "meta_cbios"


@pytest.mark.parametrize("porta", DE_CARTEIRA, ids=repr)
def test_ano_repetido_diz_a_linha(porta: Porta, tmp_path: Path) -> None:
    conteudo = "\n".join([",".join(CABECALHO), f"{CNPJ},2024,1,1,a", f"{CNPJ},2024,1,1,b"])
    recusado(porta.enviar(tmp_path, "c.csv", conteudo.encode()), "linha 3, coluna ano", "repetido")


def test_xlsx_valido_ainda_e_importado(tmp_path: Path) -> None:
    for porta in (CARTEIRA_CLI, API):
        resposta = porta.enviar(tmp_path, "c.xlsx", xlsx_valido())
        assert not resposta.recusado, resposta.mensagem


def test_predefinicoes_sao_as_documentadas() -> None:
    from multas.nucleo import arquivos

    for nome, esperado in (
        ("SERVIDOR", SERVIDOR),
        ("LINHA_DE_COMANDO", LINHA_DE_COMANDO),
        ("LOTE", LOTE),
    ):
        limites = getattr(arquivos, nome)
        assert {k: getattr(limites, k) for k in esperado} == esperado, nome
