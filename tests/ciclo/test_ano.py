"""Issue 19: the RenovaBio year as one job (``multas ano calcular``), checked against
independent arithmetic: the price from B3's real 2024 quotes averaged here with plain
fractions, and each distributor's deferral and fine worked out in the test from the law's
parameters (read from the legislation, never copied)."""

from __future__ import annotations

import csv
import json
from collections import defaultdict
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from multas import calcular
from multas.nucleo.arquivos import Local
from multas.nucleo.ciclo.carteira import calcular_carteira, ler_ano
from multas.nucleo.cotacoes import PrecoDoAno, ler_serie, preco_do_ano
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.legislacao import Lei
from multas.nucleo.preco import Preco
from multas.principal import cli
from multas.servicos.ano import calcular_ano
from tests.utils import cnpj_valido
from tests.utils.ano import (
    COTACOES,
    LEGISLACAO,
    TABELA,
    ano_calcular,
    ano_de_distribuidores,
    serie_das_cotacoes,
)

#: distributors of the tests: CNPJs with the right check digits (the year refuses any other)
A, B, C = (cnpj_valido(raiz * 8) for raiz in "ABC")


def _preco_a_mao() -> tuple[str, Fraction, int]:
    """2024's highest monthly mean of the daily quotes, with plain fractions."""
    por_mes: dict[str, list[Fraction]] = defaultdict(list)
    with COTACOES.open(encoding="utf-8") as arquivo:
        for linha in csv.DictReader(arquivo):
            por_mes[linha["data"][:7]].append(Fraction(linha["preco"]))
    medias = {mes: sum(p) / len(p) for mes, p in por_mes.items()}
    mes = max(sorted(medias), key=lambda m: medias[m])
    return mes, medias[mes], len(por_mes[mes])


def _centavos(valor: Fraction) -> Decimal:
    """One half-up rounding of the exact value (28 digits are plenty at these sizes)."""
    exato = Decimal(valor.numerator) / Decimal(valor.denominator)
    return exato.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def _multa_a_mao(falta: int, preco: Fraction, fat: tuple[int, int] | None) -> Decimal:
    """Decreto 9.888/2019 art. 6º on one distributor, 2024's law (spec § 3.1; no quitação)."""
    lei = Lei(LEGISLACAO, date(2024, 12, 31))
    piso = lei["renovabio.distribuidor.piso"].fracao
    teto = lei["renovabio.distribuidor.teto"].fracao
    limite = lei["renovabio.distribuidor.limite_faturamento"].fracao
    piso_lei = lei["renovabio.piso_legal"].fracao
    apurado = falta * preco
    if apurado < piso:
        return _centavos(piso)
    multa = min(apurado, teto)
    if fat is not None:
        teto_fat = limite * Fraction(fat[0] + fat[1], 2)
        if teto_fat < multa:
            multa = max(teto_fat, piso_lei)
    return _centavos(multa)


def _esperado(linha: dict[str, str], preco: Fraction) -> dict[str, Any]:
    fracao = Lei(LEGISLACAO, date(2024, 12, 31))["ciclo.diferimento"].fracao
    falta_anterior = int(linha.get("falta_anterior") or 0)
    meta = (
        int(linha["meta_publicada"])
        if "meta_publicada" in linha
        else int(linha["meta_cbios"]) + falta_anterior
    )
    falta = max(0, meta - int(linha["cbios_aposentados"]))
    cumprida = linha.get("meta_anterior_cumprida") == "sim" and falta_anterior == 0
    diferido = (
        falta if 0 < falta <= fracao * meta and cumprida and linha.get("diferir") != "não" else 0
    )
    multado = falta - diferido
    fat = (
        (int(linha["faturamento_ano_meta"]), int(linha["faturamento_ano_anterior"]))
        if "faturamento_ano_meta" in linha
        else None
    )
    valor = _multa_a_mao(multado, preco, fat) if multado else Decimal("0.00")
    return {"falta": falta, "diferido": diferido, "multado": multado, "valor": f"{valor:.2f}"}


def test_o_preco_do_ano_e_a_maior_media_mensal_exata() -> None:
    mes, media, quantas = _preco_a_mao()
    preco = preco_do_ano(serie_das_cotacoes(), 2024)
    assert (preco.mes, preco.valor, preco.cotacoes) == (mes, media, quantas)
    assert mes == "2024-01" and quantas == 22  # shared/dados/README: January, 22 trading days
    assert preco.aproximado == "111.1742416818"
    # whole: the fraction, since 1/22 does not terminate as a decimal
    assert Fraction(preco.exato) == media and "/" in preco.exato
    assert PrecoDoAno(Preco(2024, Fraction("111.25"), "2024-01", "simples")).exato == "111.25"
    assert PrecoDoAno(Preco(2024, Fraction(7), "2024-01", "simples")).aproximado == "7.0000000000"


def test_um_ano_de_48_distribuidores_confere_com_a_conta_a_mao() -> None:
    _, preco, _ = _preco_a_mao()
    linhas = ano_de_distribuidores(48)
    r = calcular_ano(
        linhas,
        [Local(i + 2) for i in range(len(linhas))],
        TABELA,
        2024,
        serie_das_cotacoes(),
        LEGISLACAO,
    )
    assert len(r["linhas"]) == 48
    total = Decimal(0)
    tipos = set()
    for linha, saida in zip(linhas, r["linhas"], strict=True):
        esperado = _esperado(linha, preco)
        obtido = {k: saida[k] for k in esperado}
        assert obtido == esperado, (linha, saida)
        assert saida["erro"] == "" and Fraction(saida["preco_exato"]) == preco
        assert {k: saida[k] for k in linha} == linha  # the input columns, as they came
        total += Decimal(esperado["valor"])
        tipos.add(
            (esperado["diferido"] > 0, esperado["multado"] > 0, "faturamento_ano_meta" in linha)
        )
    assert len(tipos) >= 5  # the year exercises deferral, fines with and without revenue
    resumo = r["resumo"]
    assert resumo["total_multas"] == f"{total:.2f}"
    assert resumo["distribuidores"] == 48 and resumo["com_erro"] == 0
    assert resumo["multados"] == sum(1 for s in r["linhas"] if s["multado"] > 0)
    assert resumo["cumpriram"] == sum(1 for s in r["linhas"] if s["falta"] == 0)


def test_o_ano_e_a_carteira_e_o_motor_dao_a_mesma_multa() -> None:
    """One rule for the year: a row of ``ano`` gives the ledger's fine, and the engine's fine
    for the same year with the price written in full."""
    _, preco, _ = _preco_a_mao()
    linhas = [
        {"cnpj": "XX.XXX.XXX/0001-91", "meta_cbios": "200000", "cbios_aposentados": "150000"},
        {
            "cnpj": "XX.XXX.XXX/0002-72",
            "meta_publicada": "80000",
            "falta_anterior": "3000",
            "cbios_aposentados": "70000",
            "faturamento_ano_meta": "9000000",
            "faturamento_ano_anterior": "7000000",
        },
    ]
    r = calcular_ano(linhas, [Local(2), Local(3)], TABELA, 2024, serie_das_cotacoes(), LEGISLACAO)
    for linha, saida in zip(linhas, r["linhas"], strict=True):
        meta = int(linha.get("meta_publicada") or linha["meta_cbios"])
        entrada = ler_ano(
            {
                **{k: v for k, v in linha.items() if k not in ("meta_publicada", "falta_anterior")},
                "ano": 2024,
                "meta_cbios": str(meta),
            },
            TABELA,
        )
        carteira = calcular_carteira([entrada], LEGISLACAO, cotacoes=serie_das_cotacoes())
        assert carteira["anos"][0]["multa"] == saida["valor"]
        caso = {
            "regime": "renovabio.distribuidor",
            "ano_meta": 2024,
            "meta_cbios": meta,
            "cbios_aposentados": int(linha["cbios_aposentados"]),
            **serie_das_cotacoes().campos_do_caso(2024),
        }
        for k in ("faturamento_ano_meta", "faturamento_ano_anterior"):
            if k in linha:
                caso[k] = linha[k]
        assert calcular(caso)["valor"] == saida["valor"]
    # the 5%-of-revenue cap bound the second (the mean revenue, 8 million: 400 thousand)
    assert r["linhas"][1]["valor"] == "400000.00"
    assert r["linhas"][0]["valor"] == f"{_multa_a_mao(50000, preco, None):.2f}"


@pytest.mark.parametrize(
    ("linha", "campo", "trecho"),
    [
        ({"cnpj": A, "cbios_aposentados": "1"}, "meta_cbios", "campo obrigatório"),
        (
            {"cnpj": A, "meta_publicada": "5", "falta_anterior": "6", "cbios_aposentados": "1"},
            "falta_anterior",
            "maior que a meta publicada",
        ),
        (
            {
                "cnpj": A,
                "meta_cbios": "5",
                "falta_anterior": "2",
                "cbios_aposentados": "1",
                "meta_anterior_cumprida": "sim",
            },
            "falta_anterior",
            "meta_anterior_cumprida",
        ),
        ({"cnpj": A, "meta_cbios": "-5", "cbios_aposentados": "1"}, "meta_cbios", ""),
        ({"meta_cbios": "5", "cbios_aposentados": "1"}, "cnpj", "obrigatório"),
    ],
)
def test_uma_linha_ruim_tem_seu_erro_e_nenhuma_some(
    linha: dict[str, str], campo: str, trecho: str
) -> None:
    boa = {"cnpj": B, "meta_cbios": "1000", "cbios_aposentados": "1000"}
    r = calcular_ano(
        [boa, linha, boa | {"cnpj": C}],
        [Local(2), Local(3), Local(4)],
        TABELA,
        2024,
        serie_das_cotacoes(),
        LEGISLACAO,
    )
    assert [s["erro"] == "" for s in r["linhas"]] == [True, False, True]
    erro = r["linhas"][1]["erro"]
    assert erro.startswith(f"linha 3, coluna {campo}:") and trecho in erro
    assert r["resumo"]["com_erro"] == 1 and r["resumo"]["distribuidores"] == 3


def test_cnpj_repetido_e_ano_sem_cotacao() -> None:
    boa = {"cnpj": B, "meta_cbios": "1000", "cbios_aposentados": "1000"}
    outra = boa | {"cnpj": "11.222.333/0001-81"}
    r = calcular_ano(
        [boa, boa, outra, outra | {"cnpj": " 11222333000181"}],
        [Local(2), Local(3), Local(4), Local(5)],
        TABELA,
        2024,
        serie_das_cotacoes(),
        LEGISLACAO,
    )
    assert r["linhas"][3]["erro"] == (
        "linha 5, coluna cnpj: CNPJ repetido no arquivo (já em linha 4)"
    )
    assert (
        r["linhas"][1]["erro"] == "linha 3, coluna cnpj: CNPJ repetido no arquivo (já em linha 2)"
    )
    with pytest.raises(EntradaInvalida, match="nenhuma cotação no exercício de 2019"):
        calcular_ano([boa], [Local(2)], TABELA, 2019, serie_das_cotacoes(), LEGISLACAO)


def test_cotacoes_mensais_e_arquivo_ruim(tmp_path: Path) -> None:
    mensal = [{"mes": "2024-01", "media": "100.5"}, {"mes": "2024-02", "media": "101.25"}]
    serie = ler_serie(mensal, [Local(2), Local(3)], TABELA)
    preco = preco_do_ano(serie, 2024)
    assert (preco.mes, preco.valor, preco.cotacoes, preco.preco.metodo) == (
        "2024-02",
        Fraction("101.25"),
        None,
        "mensal_informada",
    )
    for linhas, mensagem in [
        ([{"mes": "2024-13", "media": "1"}], "linha 2, coluna mes: mês inválido"),
        (
            [{"mes": "2024-01", "media": "1"}, {"mes": "2024-01", "media": "2"}],
            "linha 3, coluna mes: mês repetido: 2024-01",
        ),
        ([{"data": "2024-01-02", "preco": "abc"}], "linha 2, coluna preco:"),
        ([{"data": "2024-01-02", "preco": "0"}], "linha 2, coluna preco:"),
        ([{"data": "2024-01-02"}], "linha 2, coluna preco: campo obrigatório"),
        (
            [{"data": "2024-01-02", "preco": "1"}, {"data": "2024-01-02", "preco": "1"}],
            "linha 3, coluna data: dia repetido: 2024-01-02",
        ),
        ([], "não tem nenhuma linha"),
    ]:
        with pytest.raises(EntradaInvalida) as erro:
            ler_serie(linhas, [Local(i + 2) for i in range(len(linhas))], TABELA)
        assert mensagem in erro.value.mensagem, (linhas, erro.value.mensagem)


def test_cli_grava_resultado_e_resumo(tmp_path: Path) -> None:
    entrada = tmp_path / "distribuidoras.csv"
    entrada.write_text(
        "cnpj,nome,meta_publicada,cbios_aposentados\n"
        "11.222.333/0001-81,Alfa,100000,60000\n"
        '11.222.333/0002-62,=HYPERLINK("x"),100000,100000\n'
        "11.222.333/0003-43,Gama,,5\n",
        encoding="utf-8",
    )
    saida = tmp_path / "saida"
    r = ano_calcular(entrada, saida)
    assert r.exit_code == 3, r.output  # a row in error: the files are written all the same
    assert "3 distribuidores em 2024" in r.output and "1 com erro" in r.output
    with (saida / "resultado.csv").open(encoding="utf-8") as arquivo:
        linhas = list(csv.DictReader(arquivo))
    assert [ln["cnpj"] for ln in linhas] == [
        "11.222.333/0001-81",
        "11.222.333/0002-62",
        "11.222.333/0003-43",
    ]
    assert linhas[1]["nome"].startswith("'=")  # never a formula in a spreadsheet
    _, preco, _ = _preco_a_mao()
    assert linhas[0]["valor"] == f"{_multa_a_mao(40000, preco, None):.2f}"
    assert linhas[2]["erro"].startswith("linha 4, coluna meta_cbios:")
    resumo = json.loads((saida / "resumo.json").read_text(encoding="utf-8"))
    assert resumo["total_multas"] == linhas[0]["valor"] and resumo["mes_do_preco"] == "2024-01"
    # a bad option is a pt-BR error, never a traceback
    r = CliRunner().invoke(
        cli, ["ano", "calcular", str(entrada), "--ano", "2024", "--cotacoes", str(entrada)]
    )
    assert r.exit_code == 2 and "Traceback" not in r.output


def test_o_preco_para_pessoas_tem_quatro_casas_e_o_exato_fica_ao_lado(tmp_path: Path) -> None:
    """Issue 37 item 5: the summary line, resultado.csv and resumo.pdf showed the mean as
    2445833317/22000000 (and "≈ 111.1742416818"); people read R$ 111,1742, the file keeps the
    exact value in preco_exato, and that value reads back as the same price."""
    entrada = tmp_path / "d.csv"
    entrada.write_text(
        "cnpj,nome,meta_cbios,cbios_aposentados\n11.222.333/0001-81,Alfa,100000,60000\n",
        encoding="utf-8",
    )
    saida = tmp_path / "s"
    argumentos = ["ano", "calcular", str(entrada), "--ano", "2024", "--cotacoes", str(COTACOES)]
    r = CliRunner().invoke(cli, [*argumentos, "--saida", str(saida)])
    assert r.exit_code == 0, r.output
    assert "preço R$ 111,1742 (01/2024, média simples" in r.output
    assert "/22000000" not in r.output
    with (saida / "resultado.csv").open(encoding="utf-8") as arquivo:
        [linha] = list(csv.DictReader(arquivo))
    assert (linha["preco"], linha["preco_exato"]) == ("111.1742", "2445833317/22000000")
    resumo = _texto_pdf((saida / "resumo.pdf").read_bytes())
    assert "R$ 111,1742" in resumo and "01/2024" in resumo
    assert "≈" not in resumo and "/22000000" not in resumo
    # the exact price the file carries is taken back as the case's price: the same fine
    de_volta = calcular(
        {
            "regime": "renovabio.distribuidor",
            "ano_meta": 2024,
            "meta_cbios": 100000,
            "cbios_aposentados": 60000,
            "maior_media_mensal": linha["preco_exato"],
        }
    )
    assert (de_volta["preco"], de_volta["valor"]) == (linha["preco_exato"], linha["valor"])


def _texto_pdf(conteudo: bytes) -> str:
    import io

    from pypdf import PdfReader

    return "".join(p.extract_text() for p in PdfReader(io.BytesIO(conteudo)).pages)


def test_notificacoes_um_pdf_por_multado_com_nome_cnpj_memoria_e_prazos(tmp_path: Path) -> None:
    entrada = tmp_path / "d.csv"
    entrada.write_text(
        "cnpj,nome,meta_cbios,cbios_aposentados,meta_anterior_cumprida\n"
        "11.222.333/0001-81,Alfa Combustíveis,100000,60000,\n"  # fined
        "22.333.444/0001-81,Beta,100000,90000,sim\n"  # deferred: no notice
        "12.abc.345/01de-35,Gama,5000,0,\n",  # the alphanumeric CNPJ, fined
        encoding="utf-8",
    )
    saida = tmp_path / "s"
    r = ano_calcular(entrada, saida, "--data-notificacao", "2025-03-03")
    assert r.exit_code == 0, r.output
    arquivos = sorted(p.name for p in (saida / "notificacoes").iterdir())
    assert arquivos == ["11222333000181.pdf", "12ABC34501DE35.pdf"]
    alfa = _texto_pdf((saida / "notificacoes" / "11222333000181.pdf").read_bytes())
    _, preco, _ = _preco_a_mao()
    valor = _multa_a_mao(40000, preco, None)
    assert "Alfa Combustíveis" in alfa and "11.222.333/0001-81" in alfa
    assert f"{valor:,.2f}".replace(",", "X").replace(".", ",").replace("X", ".") in alfa
    assert "Memória de cálculo" in alfa and "Média mensal das cotações de 01/2024" in alfa
    # the defence: 15 days from 03/03/2025 (Carnaval Monday itself is not counted) → 18/03
    defesa = Lei(LEGISLACAO, date(2025, 3, 3))["ciclo.defesa"]
    assert f"até 18/03/2025: {defesa.valor} dias da citação em 03/03/2025" in alfa
    gama = _texto_pdf((saida / "notificacoes" / "12ABC34501DE35.pdf").read_bytes())
    assert "Gama" in gama and "12.ABC.345/01DE-35" in gama
    resumo = _texto_pdf((saida / "resumo.pdf").read_bytes())
    assert "O ano de 2024 do RenovaBio: resumo" in resumo and "R$ 111,1742" in resumo
    # without the notice's date: the rules, undated
    r = ano_calcular(entrada, tmp_path / "s2")
    sem_data = _texto_pdf((tmp_path / "s2" / "notificacoes" / "11222333000181.pdf").read_bytes())
    assert f"{defesa.valor} dias da citação (Decreto nº 2.953/1999, art. 8º)" in sem_data
    assert "até " not in sem_data.split("6. Prazos")[1].split("Recurso")[0]
    # a bad date is a pt-BR error naming the option (dd/mm/aaaa is accepted: issue 20)
    r = ano_calcular(entrada, tmp_path / "s3", "--data-notificacao", "31/02/2025")
    assert r.exit_code == 2 and "data_notificacao" in r.output
    assert "data inexistente: '31/02/2025'" in r.output


def test_o_aviso_do_decreto_alterado_nos_prazos_de_uma_notificacao_de_2025() -> None:
    from multas.servicos.ano import prazos_da_notificacao

    antes = prazos_da_notificacao(LEGISLACAO, 2024, date(2025, 3, 3))
    depois = prazos_da_notificacao(LEGISLACAO, 2024, date(2025, 5, 2))
    assert [r for r, _ in antes] == ["Defesa", "Recurso", "Pagamento", "Pagamento com desconto"]
    assert depois[0][0] == "Aviso" and "o texto alterado não foi conferido" in depois[0][1]
    assert depois[1][1].startswith("até 19/05/2025:")  # 17/05 is a Saturday


def _cotacoes_json() -> list[dict[str, str]]:
    with COTACOES.open(encoding="utf-8") as arquivo:
        return list(csv.DictReader(arquivo))


def test_api_do_ano_da_o_mesmo_que_a_linha_de_comando(cliente: Any) -> None:
    _, preco, _ = _preco_a_mao()
    linhas = ano_de_distribuidores(12, semente=7)
    corpo = {"ano": 2024, "distribuidores": linhas, "cotacoes": _cotacoes_json()}
    # a JSON body: booleans as JSON booleans
    for linha in linhas:
        if "meta_anterior_cumprida" in linha:
            valor = linha.pop("meta_anterior_cumprida")
            if valor:
                linha["meta_anterior_cumprida"] = valor == "sim"
        if "diferir" in linha:
            linha["diferir"] = False
    r = cliente.post("/api/v1/ano", content=json.dumps(corpo))
    assert r.status_code == 200, r.text
    dados = r.json()
    assert len(dados["linhas"]) == 12
    for linha, saida in zip(linhas, dados["linhas"], strict=True):
        como_tabela = {
            k: ("sim" if v is True else "não" if v is False else v) for k, v in linha.items()
        }
        esperado = _esperado(como_tabela, preco)
        assert {k: saida[k] for k in esperado} == esperado
    assert dados["resumo"]["preco_aproximado"] == "111.1742416818"
    # the notices, as a ZIP
    r = cliente.post(
        "/api/v1/ano/notificacoes", content=json.dumps(corpo | {"data_notificacao": "2025-03-03"})
    )
    assert r.status_code == 200 and r.headers["content-type"] == "application/zip"
    import io
    import zipfile

    nomes = zipfile.ZipFile(io.BytesIO(r.content)).namelist()
    multados = sum(1 for s in dados["linhas"] if s["multado"] > 0)
    assert "resumo.pdf" in nomes and len(nomes) == multados + 1


@pytest.mark.parametrize(
    ("corpo", "campo"),
    [
        ([], None),
        ({"distribuidores": [{}], "cotacoes": [{}]}, "ano"),
        ({"ano": "x", "distribuidores": [{}], "cotacoes": [{}]}, "ano"),
        ({"ano": 1800, "distribuidores": [{}], "cotacoes": [{}]}, "ano"),
        ({"ano": 99999, "distribuidores": [{}], "cotacoes": [{}]}, "ano"),
        ({"ano": 9001, "distribuidores": [{}], "cotacoes": [{}]}, "ano"),
        ({"ano": 2024, "distribuidores": [], "cotacoes": [{}]}, "distribuidores"),
        ({"ano": 2024, "distribuidores": {"a": 1}, "cotacoes": [{}]}, "distribuidores"),
        ({"ano": 2024, "distribuidores": [{}] * 5001, "cotacoes": [{}]}, "distribuidores"),
        ({"ano": 2024, "distribuidores": [{}], "cotacoes": None}, "cotacoes"),
        ({"ano": 2024, "distribuidores": [{}], "cotacoes": [{"data": "x", "preco": "1"}]}, "data"),
        (
            {
                "ano": 2024,
                "distribuidores": [{}],
                "cotacoes": [{"data": "2024-01-02", "preco": 1}],
                "coluna_preco": 7,
            },
            "coluna_preco",
        ),
        (
            {
                "ano": 2024,
                "distribuidores": [{}],
                "cotacoes": [{"data": "2024-01-02", "preco": 1}],
                "interpretacao": {"x": "y"},
            },
            "interpretacao.x",
        ),
        (
            {
                "ano": 2024,
                "distribuidores": [{}],
                "cotacoes": [{"data": "2024-01-02", "preco": 1}],
                "data_notificacao": "03/03/2025",
            },
            "data_notificacao",
        ),
        (
            {"ano": 2024, "distribuidores": [{}], "cotacoes": [{"data": "2023-01-02", "preco": 1}]},
            "cotacoes",
        ),
        ({"ano": 2024, "outro": 1}, "outro"),
    ],
)
def test_api_do_ano_recusa_o_corpo_ruim_nomeando_o_campo(
    cliente: Any, corpo: Any, campo: str | None
) -> None:
    for rota in ("/api/v1/ano", "/api/v1/ano/notificacoes"):
        r = cliente.post(rota, content=json.dumps(corpo))
        assert r.status_code == 422, (rota, r.status_code, r.text[:300])
        erro = r.json()["erro"]
        assert erro["campo"] == campo, erro


def test_notificacao_cuja_defesa_passaria_de_9999_e_erro_do_campo(
    tmp_path: Path, cliente: Any
) -> None:
    """A notice on 31/12/9999: its defence cannot be counted; a pt-BR error on
    ``data_notificacao`` (the command line before writing anything, the API's 422), never an
    OverflowError."""
    entrada = tmp_path / "d.csv"
    entrada.write_text(
        "cnpj,nome,meta_cbios,cbios_aposentados\n11.222.333/0001-81,Alfa,100000,60000\n",
        encoding="utf-8",
    )
    saida = tmp_path / "s"
    r = CliRunner().invoke(
        cli,
        [
            *("ano", "calcular", str(entrada), "--ano", "2024", "--cotacoes", str(COTACOES)),
            *("--saida", str(saida), "--data-notificacao", "9999-12-31"),
        ],
    )
    assert r.exit_code == 2, r.output
    assert "data_notificacao" in r.output and "31/12/9999" in r.output, r.output
    assert not saida.exists()
    corpo = {
        "ano": 2024,
        "distribuidores": [
            {"cnpj": "11.222.333/0001-81", "meta_cbios": 10, "cbios_aposentados": 1}
        ],
        "cotacoes": [{"data": "2024-01-02", "preco": 1}],
        "data_notificacao": "9999-12-31",
    }
    r = cliente.post("/api/v1/ano/notificacoes", content=json.dumps(corpo))
    assert r.status_code == 422, r.text[:300]
    assert r.json()["erro"]["campo"] == "data_notificacao"


def test_salvar_leva_a_quitacao_da_carteira_ao_processo_da_lista(tmp_path: Path) -> None:
    """Spec § 3.7, W11: the quitação the ledger knows (``data_quitacao``) is recorded as
    ``quitacao_meta`` on the year's list processo, in the same transaction: the processo is no
    longer ``inadimplente`` with ``limite_reducao`` open."""
    banco = f"sqlite:///{tmp_path / 'm.db'}"
    cotacoes = tmp_path / "mensais.csv"
    cotacoes.write_text("mes,media\n2025-01,80.5\n", encoding="utf-8")
    entrada = tmp_path / "d.csv"
    entrada.write_text(
        "cnpj,nome,meta_cbios,cbios_aposentados,data_quitacao\n"
        "11.222.333/0001-81,Alfa,100000,60000,2026-02-15\n",
        encoding="utf-8",
    )
    r = ano_calcular(
        entrada, tmp_path / "s", "--salvar", "--banco", banco, ano=2025, cotacoes=cotacoes
    )
    assert r.exit_code == 0, r.output
    from multas.servicos.gestao import Ciclo
    from multas.servicos.persistencia import Repositorio

    ciclo = Ciclo(Repositorio(banco))
    (processo,) = [p for p in ciclo.todos() if p.armazenado.tipo == "renovabio.lista"]
    detalhe = ciclo.detalhe(processo, date(2026, 3, 1))
    assert [e["evento"] for e in detalhe["eventos"]] == ["fim_prazo_meta", "quitacao_meta"]
    assert detalhe["eventos"][1]["data"] == "2026-02-15"
    assert detalhe["resultado"]["estado"] == "meta_quitada"


def test_salvar_de_novo_nao_abre_outra_lista_e_avisa_a_quitacao_que_nao_levou(
    tmp_path: Path,
) -> None:
    """W11: the list processo has an ``origem``, so a year saved again (``--substituir``) finds
    it instead of opening another; the quitação the ledger learnt since is not written into a
    stored processo, and the summary says so, with the command that records it."""
    banco = f"sqlite:///{tmp_path / 'm.db'}"
    cotacoes = tmp_path / "mensais.csv"
    cotacoes.write_text("mes,media\n2025-01,80.5\n", encoding="utf-8")
    entrada = tmp_path / "d.csv"

    def rodar(quitacao: str, *extra: str) -> Any:
        entrada.write_text(
            "cnpj,nome,meta_cbios,cbios_aposentados,data_quitacao\n"
            f"11.222.333/0001-81,Alfa,100000,60000,{quitacao}\n",
            encoding="utf-8",
        )
        argumentos = ["ano", "calcular", str(entrada), "--ano", "2025", "--cotacoes"]
        argumentos += [str(cotacoes), "--saida", str(tmp_path / "s"), "--salvar"]
        return CliRunner().invoke(cli, [*argumentos, "--banco", banco, *extra])

    assert rodar("").exit_code == 0
    r = rodar("2026-02-15", "--substituir")
    assert r.exit_code == 0, r.output
    assert "processos da lista de sanções abertos: 0, já existentes: 1" in r.output
    from multas.servicos.gestao import Ciclo
    from multas.servicos.persistencia import Repositorio

    ciclo = Ciclo(Repositorio(banco))
    (lista,) = [p for p in ciclo.todos() if p.armazenado.tipo == "renovabio.lista"]
    numero = lista.armazenado.id
    assert lista.armazenado.origem == {
        "regime": "renovabio.distribuidor",
        "ano_meta": 2025,
        "cnpj": "11.222.333/0001-81",
    }
    assert (
        f"Aviso: o processo da lista nº {numero} (CNPJ 11.222.333/0001-81) já existia e não "
        "recebeu a quitação da meta em 15/02/2026, que a carteira registra: registre-a com "
        f"multas processo evento {numero} quitacao_meta 15/02/2026." in r.output
    )
    # recorded as the aviso says, a third run has nothing to say
    ciclo.acrescentar(numero, {"evento": "quitacao_meta", "data": "2026-02-15"})
    r = rodar("2026-02-15", "--substituir")
    assert r.exit_code == 0 and "Aviso" not in r.output, r.output


def test_salvar_grava_a_carteira_e_abre_a_lista_tudo_ou_nada(tmp_path: Path) -> None:
    """--salvar: every distributor's year in its ledger and, for a fined one whose target was
    due from the list's first day, a renovabio.lista processo (and its anp processo, spec
    § 6.3 v4: tests/ciclo/test_ano_autos.py); one transaction."""
    banco = f"sqlite:///{tmp_path / 'm.db'}"
    cotacoes = tmp_path / "mensais.csv"
    cotacoes.write_text("mes,media\n2025-01,80.5\n2025-02,90.25\n", encoding="utf-8")
    entrada = tmp_path / "d.csv"
    entrada.write_text(
        "cnpj,nome,meta_cbios,cbios_aposentados,meta_anterior_cumprida\n"
        "11.222.333/0001-81,Alfa,100000,60000,\n"  # fined: a list processo
        "12.ABC.345/01DE-35,Beta,100000,100000,sim\n",  # met
        encoding="utf-8",
    )

    def rodar(*extra: str, ano: str = "2025") -> Any:
        return ano_calcular(
            entrada,
            tmp_path / "s",
            "--salvar",
            "--banco",
            banco,
            *extra,
            ano=ano,
            cotacoes=cotacoes,
        )

    r = rodar()
    assert r.exit_code == 0, r.output
    assert (
        "Salvos na carteira: 2 anos; processos sancionadores (anp) abertos: 1, já existentes: 0; "
        "processos da lista de sanções abertos: 1." in r.output
    )
    from multas.servicos.gestao import Ciclo
    from multas.servicos.persistencia import Repositorio

    ciclo = Ciclo(Repositorio(banco))
    alfa = ciclo.carteira("11.222.333/0001-81")["anos"][0]
    assert (alfa["ano"], alfa["cbios_multados"]) == (2025, 40000)
    assert alfa["multa"] == f"{_centavos(Fraction('90.25') * 40000):.2f}"
    (processo,) = [p for p in ciclo.todos() if p.armazenado.tipo == "renovabio.lista"]
    detalhe = ciclo.detalhe(processo, date(2026, 1, 5))
    assert detalhe["tipo"] == "renovabio.lista" and detalhe["cnpj"] == "11.222.333/0001-81"
    prazo = LEGISLACAO.prazo_comprovacao(2025)
    assert prazo is not None
    assert detalhe["eventos"][0]["data"] == prazo[0].isoformat()
    # again: the (CNPJ, year) is stored, so nothing is (all or nothing)
    r = rodar()
    assert r.exit_code == 2 and "já está na carteira" in r.output and "linha 2" in r.output
    assert len(ciclo.todos()) == 2
    # --substituir replaces the years; both processos are there (W11: the list's origem)
    r = rodar("--substituir")
    assert r.exit_code == 0, r.output
    assert "(anp) abertos: 0, já existentes: 1" in r.output
    assert "lista de sanções abertos: 0, já existentes: 1" in r.output
    assert len(ciclo.todos()) == 2
    # a row in error stores nothing; the 2024 target, due before the list existed, opens none
    entrada.write_text(
        entrada.read_text(encoding="utf-8") + "99.999.999/0001-91,Gama,,1,\n", encoding="utf-8"
    )
    r = rodar("--substituir")
    assert r.exit_code == 2 and "1 linha(s) com erro; nada foi salvo" in r.output
    cotacoes.write_text("mes,media\n2024-01,80.5\n", encoding="utf-8")
    entrada.write_text(
        "cnpj,meta_cbios,cbios_aposentados\nXX.XXX.XXX/0009-49,100,50\n", encoding="utf-8"
    )
    r = rodar(ano="2024")
    assert r.exit_code == 0, r.output
    assert (
        "processos da lista de sanções abertos: 0 (a meta de 2024 venceu em 31/12/2024, antes "
        "de 01/01/2025: sem lista de sanções (Parecer nº 00041/2025/PF-ANP))." in r.output
    )
    assert ciclo.carteira("XX.XXX.XXX/0009-49")["anos"][0]["ano"] == 2024


def test_um_ano_da_carteira_guarda_as_cotacoes_e_calcula_o_preco_exato() -> None:
    _, preco, _ = _preco_a_mao()
    diarias = [c.como_dict() for c in serie_das_cotacoes().do_ano(2024)["cotacoes_diarias"]]
    entrada = ler_ano(
        {
            "cnpj": A,
            "ano": 2024,
            "meta_cbios": 1000,
            "cbios_aposentados": 0,
            "cotacoes_diarias": diarias,
        }
    )
    assert entrada.como_dict()["cotacoes_diarias"] == diarias  # stored as given, exactly
    linha = calcular_carteira([entrada], LEGISLACAO)["anos"][0]
    assert linha["multa"] == f"{_multa_a_mao(1000, preco, None):.2f}"
    with pytest.raises(EntradaInvalida) as erro:
        ler_ano(
            {
                "cnpj": A,
                "ano": 2024,
                "meta_cbios": 1,
                "cbios_aposentados": 0,
                "maior_media_mensal": "100",
                "cotacoes_mensais": {"2024-01": "90"},
            }
        )
    assert erro.value.campo == "cotacoes_mensais" and "só um preço" in erro.value.mensagem


def test_o_lote_o_ano_e_a_carteira_dao_a_mesma_multa(tmp_path: Path) -> None:
    """One rule for the distributor's year: the batch with the deferral columns, the year's
    run and the ledger agree, row by row (a price that terminates, so the batch can take it
    as maior_media_mensal)."""
    mensal = [{"mes": "2024-01", "media": "98.5"}, {"mes": "2024-03", "media": "111.25"}]
    serie = ler_serie(mensal, [Local(2), Local(3)], TABELA)
    linhas = ano_de_distribuidores(48, semente=3)
    r = calcular_ano(
        linhas, [Local(i + 2) for i in range(len(linhas))], TABELA, 2024, serie, LEGISLACAO
    )
    # the same year as batch rows: the total target, and the previous year's answer
    lote = []
    for linha in linhas:
        falta = int(linha.get("falta_anterior") or 0)
        meta = int(linha.get("meta_publicada") or int(linha["meta_cbios"]) + falta)
        cumprida = linha.get("meta_anterior_cumprida", "") if not falta else "não"
        lote.append(
            {
                "ano_meta": "2024",
                "meta_cbios": str(meta),
                "cbios_aposentados": linha["cbios_aposentados"],
                "maior_media_mensal": "111.25",
                "faturamento_ano_meta": linha.get("faturamento_ano_meta", ""),
                "faturamento_ano_anterior": linha.get("faturamento_ano_anterior", ""),
                "meta_anterior_cumprida": cumprida,
                "diferir": linha.get("diferir", ""),
            }
        )
    entrada, saida = tmp_path / "lote.csv", tmp_path / "saida.csv"
    with entrada.open("w", encoding="utf-8", newline="") as arquivo:
        escritor = csv.DictWriter(arquivo, list(lote[0]))
        escritor.writeheader()
        escritor.writerows(lote)
    resultado = CliRunner().invoke(
        cli,
        [
            "lote",
            str(entrada),
            "--regime",
            "renovabio.distribuidor",
            "--saida",
            str(saida),
            "--exigir-kernel",
        ],
    )
    assert resultado.exit_code == 0, resultado.output
    with saida.open(encoding="utf-8") as arquivo:
        do_lote = list(csv.DictReader(arquivo))
    diferidos = 0
    for linha, ano, batch in zip(linhas, r["linhas"], do_lote, strict=True):
        assert batch["valor"] == ano["valor"], (linha, ano, batch)
        diferidos += ano["diferido"] > 0
    assert diferidos >= 3  # the year has deferrals, and the batch applies them too


def test_o_ano_nao_multa_quem_so_tem_a_falta_herdada() -> None:
    """meta_herdada (spec § 3.1 v4): a row whose published target is only the carried
    shortfall is not fined, nor counted as fined; under the other reading it is, and the
    summary gives that total."""
    linhas = [
        {
            "cnpj": cnpj_valido(1),
            "meta_publicada": "700",
            "falta_anterior": "700",
            "cbios_aposentados": "0",
        },
        {"cnpj": cnpj_valido(2), "meta_cbios": "1000", "cbios_aposentados": "0"},
    ]
    locais = [Local(2), Local(3)]
    r = calcular_ano(linhas, locais, TABELA, 2024, serie_das_cotacoes(), LEGISLACAO)
    herdada, propria = r["linhas"]
    assert (herdada["valor"], herdada["multado"], herdada["falta_para_o_ano_seguinte"]) == (
        "0.00",
        0,
        700,
    )
    assert propria["valor"] != "0.00"
    resumo = r["resumo"]
    assert (resumo["multados"], resumo["sem_meta_propria"]) == (1, 1)
    assert resumo["alternativas"] == [
        {
            "interpretacao": {"meta_herdada": "multa"},
            "total_multas": f"{Decimal(propria['valor']) + Decimal('100000.00'):.2f}",
        }
    ]
    multada = calcular_ano(
        linhas, locais, TABELA, 2024, serie_das_cotacoes(), LEGISLACAO, {"meta_herdada": "multa"}
    )
    assert multada["linhas"][0]["valor"] == "100000.00" and multada["resumo"]["multados"] == 2
