"""``multas ano calcular`` on the files as the ANP and B3 publish them: the Despacho's sheet with
``--coluna`` for its three target headers (their sum checked), B3's site export as the quotes,
each file read with its own options, unknown columns carried, and exit code 2 when a row
failed."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from click.testing import CliRunner

from multas.nucleo.ciclo.carteira import calcular_carteira, ler_ano
from multas.nucleo.ciclo.planilha import ler_cotacoes
from multas.nucleo.cotacoes import preco_do_ano
from multas.nucleo.dinheiro import arredondar_preco
from multas.principal import cli
from tests.utils.ano import B3_SITE, DESPACHO_LINHAS, despacho_xlsx

COLUNAS = (
    "--coluna",
    "meta_cbios=Meta individual 2022 (CBIO)",
    "--coluna",
    "falta_anterior=Meta não cumprida 2021",
    "--coluna",
    "meta_publicada=Meta total 2022",
)


def _ano(tmp_path: Path, entrada: Path, *opcoes: str) -> tuple[int, str, Path]:
    saida = tmp_path / "saida"
    r = CliRunner().invoke(
        cli,
        [
            *("ano", "calcular", str(entrada), "--ano", "2024", "--saida", str(saida)),
            *("--cotacoes", str(B3_SITE), "--coluna-preco", "preço médio", *opcoes),
        ],
    )
    return r.exit_code, r.output, saida


def test_o_despacho_com_coluna_e_as_cotacoes_do_site_da_b3(tmp_path: Path) -> None:
    entrada = tmp_path / "despacho.xlsx"
    entrada.write_bytes(despacho_xlsx())
    codigo, saida_texto, saida = _ano(tmp_path, entrada, *COLUNAS)
    assert codigo == 0, saida_texto
    assert "2 distribuidores em 2024" in saida_texto and "0 com erro" in saida_texto
    with (saida / "resultado.csv").open(encoding="utf-8", newline="") as arquivo:
        linhas = list(csv.DictReader(arquivo))
    assert [linha["UF"] for linha in linhas] == ["SP", "RJ"]  # carried through
    assert [linha["multado"] for linha in linhas] == ["300", "0"]
    preco = preco_do_ano(
        ler_cotacoes(B3_SITE.read_bytes(), "c.csv", coluna_preco="preco_medio")[0], 2024
    )
    assert {linha["preco_exato"] for linha in linhas} == {preco.exato}
    assert {linha["preco"] for linha in linhas} == {f"{arredondar_preco(preco.valor):f}"}
    resumo = json.loads((saida / "resumo.json").read_text(encoding="utf-8"))
    avisos = "\n".join(resumo["arquivos"]["entrada"]["avisos"])
    assert "linha 1: título acima do cabeçalho" in avisos
    assert "nota depois da tabela, fora da contagem: 'Fonte: ANP/SBQ'" in avisos
    assert resumo["arquivos"]["entrada"]["colunas_levadas"] == ["UF"]
    assert resumo["arquivos"]["cotacoes"]["avisos"] == [
        "lido como Latin-1 (CP1252), separador ';', números 1.234,56"
    ]
    assert "Fonte: ANP/SBQ" in saida_texto  # on the error output too


def test_as_tres_metas_que_nao_somam_dao_aviso_e_uma_linha_ruim_da_codigo_3(
    tmp_path: Path,
) -> None:
    """Spec § 3.1 v4: the three target columns not adding up is an aviso (the total and the
    carry-over are used); a row that fails (here a carry-over above the total) ends the run
    with exit code 2."""
    entrada = tmp_path / "d.csv"
    cabecalho = "CNPJ,Razão social,Meta individual 2022,Meta não cumprida 2021,Meta total 2022,"
    entrada.write_text(
        cabecalho
        + "CBIOs aposentados\n"
        + "\n".join(
            ",".join(str(v) for v in (linha[1], linha[0], *linha[2:6])) for linha in DESPACHO_LINHAS
        )
        + "\n11.222.333/0002-62,Gama,500,20,510,500\n"
        + "11.222.333/0003-43,Delta,500,600,510,500\n",
        encoding="utf-8",
    )
    codigo, saida_texto, saida = _ano(tmp_path, entrada, *COLUNAS)
    assert codigo == 3 and "1 de 4 linhas com erro" in saida_texto, saida_texto
    with (saida / "resultado.csv").open(encoding="utf-8", newline="") as arquivo:
        linhas = list(csv.DictReader(arquivo))
    assert [linha["erro"] for linha in linhas[:3]] == ["", "", ""]
    assert linhas[2]["falta"] == "10"  # 510 − 500: the total as published
    assert linhas[3]["erro"] == (
        "linha 5, coluna falta_anterior: maior que a meta publicada, que já a inclui"
    )
    gama = calcular_carteira(
        [
            ler_ano(
                {
                    "cnpj": "11.222.333/0002-62",
                    "ano": 2022,
                    "meta_cbios": 500,
                    "falta_anterior": 20,
                    "meta_publicada": 510,
                    "cbios_aposentados": 500,
                    "maior_media_mensal": "100",
                }
            )
        ]
    )["anos"][0]
    assert (gama["meta_total"], gama["acrescimo_ano_anterior"], gama["deficit"]) == (510, 20, 10)
    assert any("dá 490 CBIOs, e não a meta própria informada" in a for a in gama["avisos"])


def test_cada_arquivo_tem_as_suas_opcoes(tmp_path: Path) -> None:
    """--ptbr reads both files as ``;`` and ``1.234,56``, as before; a file's own options
    prevail: a ``,`` distributors file beside B3's ``;`` export in one run."""
    entrada = tmp_path / "d.csv"
    entrada.write_text(
        "cnpj,meta_cbios,cbios_aposentados\n11.222.333/0001-81,1000.0,900\n", encoding="utf-8"
    )
    codigo, saida_texto, _ = _ano(tmp_path, entrada, "--ptbr")
    assert codigo == 3, saida_texto  # rows in error: the distributors' file is no `;` file
    codigo, saida_texto, _ = _ano(
        tmp_path, entrada, "--ptbr", "--separador", ",", "--decimal", "ponto"
    )
    assert codigo == 0, saida_texto
    assert "multados" in saida_texto and "1 multados" in saida_texto
    # the quotes' own option beats the detection: read with a decimal point, 108,07 is no price
    codigo, saida_texto, _ = _ano(tmp_path, entrada, "--decimal-cotacoes", "ponto")
    assert codigo == 2 and "coluna preco_medio" in saida_texto, saida_texto
    codigo, saida_texto, _ = _ano(tmp_path, entrada, "--separador", "|")
    assert codigo == 2 and "--separador" in saida_texto, saida_texto
    assert "opção inválida: '|' (opções: ',', ';', 'tab')" in saida_texto


B3_DIARIO = Path(__file__).resolve().parents[1] / "dados" / "cbio-b3-diario-2020-2025.csv"


def _ptbr(numero: str) -> str:
    inteiro, _, decimais = numero.partition(".")
    grupos = f"{int(inteiro):,}".replace(",", ".")
    return grupos + ("," + decimais if decimais else "")


def _como_o_site_da_b3(destino: Path) -> Path:
    """B3's daily file as its site exports it: Latin-1, ``;``, ``1.234,56``, dd/mm/aaaa and
    its own headers (the figures unchanged)."""
    with B3_DIARIO.open(encoding="utf-8") as arquivo:
        linhas = list(csv.DictReader(arquivo))
    texto = ["Data;Negócios;Qtde negociada;Preço mínimo;Preço médio;Preço máximo;Valor financeiro"]
    for x in linhas:
        ano, mes, dia = x["data"].split("-")
        celulas = [f"{dia}/{mes}/{ano}", x["negocios"], _ptbr(x["quantidade"])]
        celulas += [_ptbr(x[c]) for c in ("preco_minimo", "preco_medio", "preco_maximo")]
        texto.append(";".join([*celulas, _ptbr(x["valor_financeiro"])]))
    destino.write_bytes(("\r\n".join(texto) + "\r\n").encode("latin-1"))
    return destino


def test_as_maiores_multas_publicadas_de_2020_e_2021_saem_dos_arquivos_da_b3(
    tmp_path: Path,
) -> None:
    """The ANP's largest fines of 2019-2020 and 2021 (R$ 9,48 milhões and R$ 10,7 milhões,
    188.045 CBIOs): the weighted monthly mean by default, the simple one as the other reading,
    from B3's daily file as shipped and from its site export, with no option."""
    entrada = tmp_path / "distribuidores.csv"
    entrada.write_text("cnpj,meta_cbios,cbios_aposentados\n11.222.333/0001-81,188045,0\n")
    site = _como_o_site_da_b3(tmp_path / "cbio-site.csv")
    esperado = {2020: ("9485141.34", "9490120.32"), 2021: ("10703287.90", "10751687.85")}
    for cotacoes in (B3_DIARIO, site):
        for ano, (ponderada, simples) in esperado.items():
            saida = tmp_path / f"saida-{cotacoes.stem}-{ano}"
            r = CliRunner().invoke(
                cli,
                [
                    *("ano", "calcular", str(entrada), "--ano", str(ano)),
                    *("--cotacoes", str(cotacoes), "--saida", str(saida)),
                ],
            )
            assert r.exit_code == 0, r.output
            resumo = json.loads((saida / "resumo.json").read_text(encoding="utf-8"))
            assert (resumo["total_multas"], resumo["preco_metodo"]) == (ponderada, "ponderada")
            assert resumo["alternativas"] == [
                {"interpretacao": {"media_mensal": "simples"}, "total_multas": simples}
            ]
            assert resumo["preco_fonte"] == f"arquivo {cotacoes.name}"
