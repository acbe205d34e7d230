"""A year's notice as a distributor's lawyer reads it: the golden text of its PDF (regenerate
with ``python scripts/notificacoes.py`` and review the diff), the deferral aviso only where the
deferral could apply, no project wording and at most two decimals in the body, the input's
cells as text, and the ``--modelo`` templates (letterhead, signature) with their errors."""

from __future__ import annotations

import csv
import importlib.util
import json
import re
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from multas.nucleo.ciclo.carteira import locais_de_lista
from multas.nucleo.contrato import JSON
from multas.nucleo.cotacoes import ler_serie
from multas.servicos.ano import calcular_ano, notificacoes
from tests.utils.ano import COTACOES, LEGISLACAO, ano_calcular

RAIZ = Path(__file__).resolve().parents[2]


def _gerador() -> Any:
    spec = importlib.util.spec_from_file_location(
        "notificacoes_golden", RAIZ / "scripts" / "notificacoes.py"
    )
    assert spec and spec.loader
    modulo = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(modulo)
    return modulo


GERADOR = _gerador()


def _cotacoes(ate: str = "2024-12-31") -> list[dict[str, str]]:
    with COTACOES.open(encoding="utf-8") as arquivo:
        return [c for c in csv.DictReader(arquivo) if c["data"] <= ate]


def _textos(linhas: list[dict[str, Any]], ate: str = "2024-12-31", **opcoes: Any) -> list[str]:
    cotacoes = _cotacoes(ate)
    serie = ler_serie(cotacoes, locais_de_lista(len(cotacoes)), JSON, "preco")
    r = calcular_ano(
        linhas, locais_de_lista(len(linhas)), JSON, 2024, serie, LEGISLACAO, com_calculo=True
    )
    assert all(not linha["erro"] for linha in r["linhas"]), r["linhas"]
    return [
        GERADOR.texto_do_pdf(pdf)
        for _, pdf in notificacoes(r, 2024, LEGISLACAO, date(2025, 3, 3), **opcoes)
    ]


def _linha(**campos: Any) -> dict[str, Any]:
    return {"cnpj": "33.444.555/0001-81", "nome": "Gama", "meta_cbios": 100000} | campos


@pytest.mark.parametrize("nome", sorted(GERADOR.NOMES.values()))
def test_o_texto_da_notificacao_e_o_revisado(nome: str) -> None:
    """The notice's whole text equals its reviewed golden file: number, process, addressee,
    the target's composition (13.441 + 1.022 carried = 14.463), the price's basis, the fine,
    the memória, the law quoted, the dated deadlines and the signature block."""
    esperado = (RAIZ / "tests" / "notificacoes" / f"{nome}.txt").read_text(encoding="utf-8")
    assert GERADOR.textos()[nome] == esperado


def test_a_notificacao_diz_o_caso_a_lei_e_os_prazos() -> None:
    """What the golden file must keep saying, whatever its layout."""
    texto = " ".join(GERADOR.textos()["gama-2024"].split())
    for trecho in (
        "NOTIFICAÇÃO Nº 001/2024",
        "Processo nº 48610.201234/2025-11",
        "Razão social Gama Petróleo Ltda. CNPJ 33.444.555/0001-81",
        "Endereço Rua das Flores, 100",
        "Meta individual de 2024 13.441 CBIOs",
        "1.022 CBIOs Meta total de 2024 14.463 CBIOs",
        "CBIOs aposentados até 31/12/2024 12.900 CBIOs",
        "CBIOs sujeitos à multa 1.563 CBIOs",
        "Não há diferimento da falta para 2025: a meta de 2023 não foi cumprida",
        "R$ 111,1742 por CBIO",
        "janeiro de 2024 (22 pregões)",
        "média simples dos preços diários do mês",
        "253 pregões, de 02/01/2024 a 31/12/2024; fonte: B3",
        "Valor da multa R$ 173.765,34",
        "até 18/03/2025: 15 dias da citação em 03/03/2025",
        "[nome da autoridade]",
    ):
        assert trecho in texto, trecho
    assert "pode comprovar essa parte" not in texto  # the deferral cannot apply
    assert "02/01/2024: R$" not in texto and "Anexo" not in texto  # quotes: one line


@pytest.mark.parametrize(
    ("campos", "convida"),
    [
        ({"cbios_aposentados": 90000}, True),  # within 15%, previous year not known unmet
        ({"cbios_aposentados": 90000, "falta_anterior": 1000}, False),  # carried: never
        ({"cbios_aposentados": 90000, "meta_anterior_cumprida": False}, False),
        ({"cbios_aposentados": 80000}, False),  # beyond 15%
        ({"cbios_aposentados": 90000, "diferir": False}, False),  # declined
    ],
)
def test_o_aviso_do_diferimento_so_onde_ele_poderia_valer(
    campos: dict[str, Any], convida: bool
) -> None:
    (texto,) = _textos([_linha(**campos)])
    assert ("pode comprovar essa parte da meta em 2025" in " ".join(texto.split())) is convida
    assert "comprovar o restante" not in texto  # the engine's own aviso never


_JARGAO = re.compile(
    r"projeto|docs/|spec\b|motor|multas \d|[a-z]_[a-z]|\bleitura\b|transcrit|na entrada",
    re.IGNORECASE,
)


@pytest.mark.parametrize(
    ("campos", "ate"),
    [
        ({"meta_cbios": 13441, "falta_anterior": 1022, "cbios_aposentados": 12900}, "2024-12-31"),
        ({"cbios_aposentados": 99990}, "2024-12-31"),  # the floor
        ({"meta_cbios": 9000000, "cbios_aposentados": 0}, "2024-12-31"),  # the ceiling
        (
            {
                "cbios_aposentados": 50000,
                "faturamento_ano_meta": "20000000",
                "faturamento_ano_anterior": "30000000",
            },
            "2024-12-31",
        ),  # the cap of the revenue, below the floor
        ({"cbios_aposentados": 50000}, "2024-03-19"),  # a partial year
    ],
)
def test_sem_palavras_do_projeto_e_no_maximo_duas_casas_no_corpo(
    campos: dict[str, Any], ate: str
) -> None:
    (texto,) = _textos([_linha(**campos)], ate)
    assert not _JARGAO.search(texto), _JARGAO.search(texto)
    corpo = texto.split("4. Memória de cálculo")[0] + texto.split("6. Prazos")[1]
    for valor in re.finditer(r"R\$ [\d.]+,(\d+)( por CBIO)?", corpo):
        assert len(valor[1]) == 2 or (len(valor[1]) == 4 and valor[2]), valor[0]
    if ate < "2024-12-31":
        assert "Sem cotações em abril de 2024" in texto


def test_o_numero_o_anexo_e_a_assinatura() -> None:
    linhas = [
        _linha(cbios_aposentados=0),
        _linha(cnpj="22.333.444/0001-81", cbios_aposentados=0, numero_notificacao="77/2025"),
    ]
    primeira, segunda = _textos(
        linhas, anexo_cotacoes=True, assinatura=("Maria da Silva", "Superintendente")
    )
    assert "NOTIFICAÇÃO Nº 001/2024" in primeira and "NOTIFICAÇÃO Nº 77/2025" in segunda
    assert "Anexo: cotações diárias do CBIO em 2024" in primeira and "R$ 108,0685" in primeira
    assert "Maria da Silva" in primeira and "Superintendente" in primeira


def _calcular(tmp_path: Path, linha: str, *opcoes: str) -> Any:
    entrada = tmp_path / "d.csv"
    entrada.write_text(
        "cnpj,nome,meta_cbios,cbios_aposentados,Endereço\n" + linha + "\n", encoding="utf-8"
    )
    return ano_calcular(entrada, tmp_path / "s", *opcoes)


def test_um_modelo_poe_o_timbre_e_as_celulas_sao_texto(tmp_path: Path) -> None:
    """The unit's letterhead from ``--modelo``; a name or an address with markup is printed as
    it is, in the body and in the templates (autoescape)."""
    modelo = tmp_path / "modelo"
    modelo.mkdir()
    (modelo / "cabecalho.html").write_text(
        "<para alignment='center'><b>Superintendência de Biocombustíveis</b></para>\n"
        "<para>Para: {{ destinatario.nome }}</para>\n",
        encoding="utf-8",
    )
    hostil = '11.222.333/0001-81,"<font size=40>X</font>",100000,0,"<b>Rua</b> & <i>'
    r = _calcular(tmp_path, hostil + '"', "--modelo", str(modelo))
    assert r.exit_code == 0, r.output
    texto = GERADOR.texto_do_pdf(
        (tmp_path / "s" / "notificacoes" / "11222333000181.pdf").read_bytes()
    )
    assert "Superintendência de Biocombustíveis" in texto
    assert "Para: <font size=40>X</font>" in texto
    assert "<b>Rua</b> & <i>" in texto
    assert "[nome da autoridade]" in texto  # the default signature block stays


@pytest.mark.parametrize(
    ("arquivo", "conteudo", "motivo"),
    [
        (None, None, "não é uma pasta"),
        ("cabecalho.html", "{% if %}", "cabecalho.html, linha 1: erro no modelo"),
        ("assinatura.html", "{{ nada.aqui.mesmo() }}", "assinatura.html"),
        ("cabecalho.html", "<b>sem fechar", "cabecalho.html: marcação que o PDF não aceita"),
    ],
)
def test_um_modelo_ruim_e_recusado_antes_do_calculo(
    tmp_path: Path, arquivo: str | None, conteudo: str | None, motivo: str
) -> None:
    modelo = tmp_path / "modelo"
    if arquivo is None:
        modelo.write_text("", encoding="utf-8")
    else:
        modelo.mkdir()
        (modelo / arquivo).write_text(conteudo or "", encoding="utf-8")
    r = _calcular(tmp_path, "11.222.333/0001-81,Alfa,100000,0,", "--modelo", str(modelo))
    assert r.exit_code == 2, r.output
    assert "--modelo" in r.output and motivo in r.output, r.output
    assert "Traceback" not in r.output and not (tmp_path / "s").exists()


def test_o_aviso_do_decreto_alterado_vai_ao_resumo_e_nao_a_notificacao(tmp_path: Path) -> None:
    """Notices dated after Decreto 2.953/1999 was amended (17/04/2025): the notice does not tell
    the distributor that the amended text was not checked (it is the ANP's own letter), but the
    regulator reads it in the summary and on the error output (spec § 3.5 v3)."""
    r = _calcular(tmp_path, "11.222.333/0001-81,Alfa,100000,0,", "--data-notificacao", "02/05/2025")
    assert r.exit_code == 0, r.output
    resumo = json.loads((tmp_path / "s" / "resumo.json").read_text(encoding="utf-8"))
    (aviso,) = resumo["avisos_das_notificacoes"]
    assert "não foi conferido" in aviso and "Decreto nº 2.953/1999" in aviso
    assert f"prazos das notificações: {aviso}" in r.stderr
    antes = _calcular(
        tmp_path, "11.222.333/0001-81,Alfa,100000,0,", "--data-notificacao", "03/03/2025"
    )
    assert antes.exit_code == 0, antes.output
    resumo = json.loads((tmp_path / "s" / "resumo.json").read_text(encoding="utf-8"))
    assert resumo["avisos_das_notificacoes"] == []
