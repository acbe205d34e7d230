"""The ``multas`` command, end to end: the installed console script in a subprocess."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

# other processes keep the real clock: left out of the runs on a faked date
pytestmark = pytest.mark.subprocesso

MULTAS = shutil.which("multas", path=str(Path(sys.executable).parent)) or "multas"
RAIZ = Path(__file__).resolve().parents[2]

CASO = {
    "regime": "renovabio.distribuidor",
    "ano_meta": 2025,
    "meta_cbios": 1000000,
    "cbios_aposentados": 400000,
    "maior_media_mensal": 71.70,
    "faturamento_ano_meta": "900000000",
    "faturamento_ano_anterior": "800000000",
}


def multas(*args: str, entrada: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [MULTAS, *args], input=entrada, capture_output=True, text=True, encoding="utf-8", timeout=60
    )


def test_calcular_arquivo_json(tmp_path: Path) -> None:
    arquivo = tmp_path / "caso.json"
    arquivo.write_text(json.dumps(CASO), encoding="utf-8")
    r = multas("calcular", str(arquivo), "--formato", "json")
    assert r.returncode == 0, r.stderr
    resultado = json.loads(r.stdout)
    assert resultado["valor"] == "42500000.00"
    assert len(resultado["alternativas"]) == 2


def test_calcular_stdin_com_numero_json_exato() -> None:
    caso = '{"regime": "mover.eficiencia", "meta_mj_km": 1.82, "consumo_mj_km": 1.83, "veiculos": 838200}'
    r = multas("calcular", "-", entrada=caso)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["valor"] == "41910000.00"


def test_calcular_texto_mostra_reais_e_citacoes() -> None:
    r = multas("calcular", "-", "--formato", "texto", entrada=json.dumps(CASO))
    assert r.returncode == 0, r.stderr
    assert "R$ 42.500.000,00" in r.stdout
    assert "art. 6º, § 3º" in r.stdout
    assert "R$ 43.020.000,00" in r.stdout  # the alternative reading


def test_calcular_markdown() -> None:
    r = multas("calcular", "-", "--formato", "markdown", entrada=json.dumps(CASO))
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("# Memória de cálculo")
    assert "| # | Passo | Valor | Fundamento |" in r.stdout
    assert "> A multa de cada distribuidor não poderá superar" in r.stdout


def test_entrada_invalida_sai_com_2_e_nomeia_o_campo() -> None:
    r = multas("calcular", "-", entrada=json.dumps({**CASO, "meta_cbios": "muitos"}))
    assert r.returncode == 2
    erro = json.loads(r.stdout)["erro"]
    assert erro["campo"] == "meta_cbios"
    r = multas(
        "calcular", "-", "--formato", "texto", entrada=json.dumps({**CASO, "meta_cbios": 1.5})
    )
    assert r.returncode == 2
    assert "meta_cbios" in r.stderr and "inteiro" in r.stderr


@pytest.mark.parametrize(
    "texto", ["{", '{"regime": "anp.infracao", "inciso": NaN}', '{"a": 1, "a": 2}', ""]
)
def test_json_malformado_e_erro_em_portugues(texto: str) -> None:
    r = multas("calcular", "-", entrada=texto)
    assert r.returncode == 2
    assert "erro" in json.loads(r.stdout)


def test_json_lines_uma_saida_por_linha_sem_perder_nenhuma(tmp_path: Path) -> None:
    linhas = [
        json.dumps(
            {"id": "AI-1", "regime": "anp.infracao", "inciso": "IX", "norma": "decreto-2953"}
        ),
        json.dumps({"regime": "anp.infracao", "inciso": "9", "id": "AI-2"}),
        "{quebrado",
        "",
        json.dumps({"regime": "renovabio.vedacao"}),
    ]
    arquivo = tmp_path / "casos.jsonl"
    arquivo.write_text("\n".join(linhas) + "\n", encoding="utf-8")
    r = multas("calcular", str(arquivo))
    assert r.returncode == 3  # some lines had errors
    saida = [json.loads(linha) for linha in r.stdout.splitlines()]
    assert len(saida) == 5
    assert saida[0]["valor_maximo"] == "2000000.00"
    assert next(iter(saida[0])) == "id" and saida[0]["id"] == "AI-1"  # spec § 3 v4
    assert list(saida[1]) == ["id", "erro"] and saida[1]["id"] == "AI-2"
    assert saida[1]["erro"]["campo"] == "inciso" and saida[1]["erro"]["linha"] == 2
    assert saida[2]["erro"]["linha"] == 3
    assert saida[3]["erro"]["linha"] == 4
    assert saida[4]["valor_minimo"] == "100000.00"


def test_json_lines_pela_entrada_padrao_tudo_certo_sai_com_0() -> None:
    entrada = "\n".join(
        json.dumps({"regime": "anp.infracao", "inciso": i, "interpretacao": {"faixa": f}})
        for i, f in (("I", "lei"), ("II", "lei"), ("II", "decreto"))
    )
    r = multas("calcular", "--jsonl", "-", entrada=entrada)
    assert r.returncode == 0, r.stderr
    assert [json.loads(x)["valor_minimo"] for x in r.stdout.splitlines()] == [
        "50000.00",
        "20000.00",
        "500000.00",
    ]


def test_regimes_lista_campos_e_leituras() -> None:
    r = multas("regimes")
    assert r.returncode == 0
    for nome in (
        "renovabio.distribuidor",
        "renovabio.produtor",
        "renovabio.vedacao",
        "anp.infracao",
        "anp.mora",
        "mover.eficiencia",
    ):
        assert nome in r.stdout
    assert "faixa_superior: literal | marginal | excedente" in r.stdout
    dados = json.loads(multas("regimes", "--formato", "json").stdout)
    assert {d["regime"] for d in dados} >= {"anp.mora", "mover.eficiencia"}


def test_legislacao_mostra_historico_com_fontes() -> None:
    r = multas("legislacao", "--parametro", "renovabio.distribuidor.teto")
    assert r.returncode == 0
    assert "de 28/06/2019 a 31/12/2024: 50000000" in r.stdout
    assert "desde 01/01/2025: 500000000" in r.stdout
    assert r.stdout.count("Fonte:") == 3
    dados = json.loads(multas("legislacao", "--formato", "json").stdout)
    assert all(v["fonte"] for p in dados["parametros"] for v in p["vigencias"])


def test_exemplo_do_make_run() -> None:
    r = multas(
        "calcular", str(RAIZ / "exemplos" / "renovabio-distribuidor.json"), "--formato", "texto"
    )
    assert r.returncode == 0, r.stderr
    assert "R$ 10.625.000,00" in r.stdout


def test_mensagens_do_click_em_portugues(tmp_path: Path) -> None:
    r = multas("calcular", str(tmp_path / "nao-existe.json"))
    assert r.returncode == 2
    assert "Erro:" in r.stderr and "não existe" in r.stderr
    r = multas("calcula")
    assert r.returncode == 2 and "Comando inexistente" in r.stderr
    ajuda = multas("--help", entrada=None).stdout
    assert "Uso: multas [OPÇÕES] COMANDO" in ajuda and "Opções:" in ajuda and "Comandos:" in ajuda
    for ingles in ("Usage:", "Options:", "Show this message"):
        assert ingles not in ajuda
    # a number that is not one: Click's type name ("integer range") is never shown
    r = multas("processo", "mostrar", "abc")
    assert r.returncode == 2 and "'abc' não é um número válido" in r.stderr, r.stderr
    assert "integer" not in r.stderr


def test_catalogo_de_traducoes_compilado_esta_atualizado() -> None:
    """Every message of the .po is in the shipped .mo with the same translation."""
    import gettext

    from babel.messages.pofile import read_po

    pasta = RAIZ / "src" / "multas" / "saidas" / "locale" / "pt_BR" / "LC_MESSAGES"
    with (pasta / "multas.po").open("rb") as arquivo:
        catalogo = read_po(arquivo, locale="pt_BR")
    with (pasta / "multas.mo").open("rb") as arquivo:
        compilado = gettext.GNUTranslations(arquivo)
    mensagens = [m for m in catalogo if m.id]
    assert len(mensagens) > 30
    for m in mensagens:
        if isinstance(m.id, tuple):
            assert compilado.ngettext(m.id[0], m.id[1], 1) == m.string[0], m.id
            assert compilado.ngettext(m.id[0], m.id[1], 2) == m.string[1], m.id
        else:
            assert compilado.gettext(m.id) == m.string, "rode python scripts/compilar_traducoes.py"


def _comandos() -> list[str]:
    """Every command and subcommand, as typed after `multas`."""
    import click

    from multas.principal import cli

    nomes: list[str] = []
    contexto = click.Context(cli)
    for nome in cli.list_commands(contexto):
        comando = cli.get_command(contexto, nome)
        nomes.append(nome)
        if isinstance(comando, click.Group):
            nomes += [f"{nome} {sub}" for sub in comando.list_commands(contexto)]
    return nomes


@pytest.mark.parametrize("comando", _comandos())
def test_ajuda_de_cada_comando_em_portugues(comando: str) -> None:
    """No Click English left in any --help: usage, value names, 'required'."""
    from click.testing import CliRunner

    from multas.principal import cli

    ajuda = CliRunner().invoke(cli, [*comando.split(), "--help"], prog_name="multas").output
    assert f"Uso: multas {comando} [OPÇÕES]" in ajuda
    for ingles in (
        "OPTIONS",
        "TEXT",
        "INTEGER",
        "FLOAT",
        "RANGE",
        "required",
        "default",
        "PATH",
        "FILENAME",
        "Commands:",
        "Options:",
        "Show this",
    ):
        assert ingles not in ajuda, (comando, ingles)
    if comando == "lote":
        assert "[obrigatório]" in ajuda
