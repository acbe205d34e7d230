"""`multas lote` (spec § 4): every format in and out, every row in order with its result or a
pt-BR error, pass-through columns unchanged, exit codes, atomic output, bounded blocks."""

from __future__ import annotations

import json
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import openpyxl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from multas import calcular
from multas.lote import executor as executor_mod
from multas.lote.executor import executar
from multas.lote.processar import Config
from multas.nucleo.contrato import Leitura
from multas.nucleo.dialeto import Dialeto
from multas.nucleo.erros import EntradaInvalida, em_uma_celula
from multas.nucleo.motor import ler_interpretacao, regime_de
from multas.nucleo.regimes import REGIMES
from tests.utils.lote import (
    CAMPOS,
    DISTRIBUIDORES,
    config_distribuidor,
    escrever_csv,
    ler_csv,
    muitas_linhas,
    rodar_lote,
    vedacoes,
)


def _motor(
    regime: str, linha: dict[str, Any], leitura: dict[str, str] | None = None, ptbr: bool = False
) -> dict[str, Any] | str:
    campos = {c.nome for c in REGIMES[regime].caso.campos() if c.plano}
    dados: dict[str, Any] = {"regime": regime, "interpretacao": leitura or {}}
    dados |= {k: v for k, v in linha.items() if k in campos and v not in (None, "")}
    try:
        return calcular(dados, Leitura(tabela=True, decimal_virgula=ptbr))
    except EntradaInvalida as erro:
        return em_uma_celula(erro)  # every error of the row, as the batch's cell says them


def _conferir_linhas(
    regime: str,
    entrada: list[dict[str, Any]],
    saida: list[dict[str, Any]],
    virgula: bool = False,
    ptbr: bool = False,
) -> None:
    assert len(saida) == len(entrada)
    for linha, obtida in zip(entrada, saida, strict=True):
        for chave, valor in linha.items():  # pass-through, unchanged
            assert obtida[chave] == valor
        esperado = _motor(regime, linha, ptbr=ptbr)
        if isinstance(esperado, str):
            assert obtida["erro"] == esperado
            assert obtida["valor"] in ("", None)
            continue
        assert obtida["erro"] in ("", None)
        valor = esperado["valor"].replace(".", ",") if virgula else esperado["valor"]
        assert obtida["valor"] == valor


def test_lote_csv_cada_linha_na_ordem_com_resultado_ou_erro(tmp_path: Path) -> None:
    entrada, saida = tmp_path / "d.csv", tmp_path / "r.csv"
    escrever_csv(entrada, DISTRIBUIDORES, CAMPOS)
    resultado = rodar_lote(entrada, "--regime", "renovabio.distribuidor", "--saida", saida)
    assert resultado.exit_code == 3, resultado.output  # rows 3, 4 and 5 fail
    linhas = ler_csv(saida)
    completas = [{c: linha.get(c, "") for c in CAMPOS} for linha in DISTRIBUIDORES]
    _conferir_linhas("renovabio.distribuidor", completas, linhas)
    # prazo_comprovacao is an input column too: the output one is resultado_prazo_comprovacao
    assert list(linhas[0]) == [
        *CAMPOS,
        "valor",
        "resultado_prazo_comprovacao",
        "falta",
        "diferido",
        "multado",
        "erro",
    ]
    assert linhas[0]["valor"] == "10625000.00"
    assert linhas[2]["erro"] == "meta_cbios: deve ser um número inteiro, não fracionário (1.5)"
    assert linhas[4]["erro"].startswith("prazo_comprovacao: não há prazo de comprovação")
    assert "5 linhas, 2 calculadas, 3 com erro" in resultado.stderr


def test_lote_csv_ptbr_le_e_escreve_virgula(tmp_path: Path) -> None:
    linhas = [
        {
            "nome": "A; Ltda",
            "ano_meta": "2025",
            "meta_cbios": "1.000.000",
            "cbios_aposentados": "400000",
            "maior_media_mensal": "71,70",
            "faturamento_ano_meta": "900.000.000,00",
            "faturamento_ano_anterior": "800.000.000,00",
        },
        {
            "nome": "B",
            "ano_meta": "2024",
            "meta_cbios": "10",
            "cbios_aposentados": "0",
            "maior_media_mensal": "1.234,5678",
            "faturamento_ano_meta": "",
            "faturamento_ano_anterior": "",
        },
    ]
    entrada, saida = tmp_path / "p.csv", tmp_path / "r.csv"
    escrever_csv(entrada, linhas, list(linhas[0]), ";")
    resultado = rodar_lote(entrada, "-r", "renovabio.distribuidor", "-o", saida, "--csv-ptbr")
    assert resultado.exit_code == 0, resultado.output
    obtidas = ler_csv(saida, ";")
    _conferir_linhas("renovabio.distribuidor", linhas, obtidas, virgula=True, ptbr=True)
    assert obtidas[0]["valor"] == "42500000,00"


@pytest.mark.parametrize(
    ("opcoes", "dica", "outra"),
    [
        (("--ptbr",), "use vírgula como separador decimal, ex.: 1.234,56", "ponto"),
        ((), "use ponto como separador decimal, ex.: 1234.56", "vírgula"),
    ],
)
def test_lote_numero_invalido_diz_o_separador_da_notacao(
    tmp_path: Path, opcoes: tuple[str, ...], dica: str, outra: str
) -> None:
    """A pt-BR batch is told to write a decimal comma; a plain one, a decimal point."""
    separador = ";" if opcoes else ","
    linhas = [
        {"ano_meta": "2025", "meta_cbios": "10", "cbios_aposentados": "0", "maior_media_mensal": p}
        for p in ("setenta", "71$70", "1")
    ]
    entrada, saida = tmp_path / "p.csv", tmp_path / "r.csv"
    escrever_csv(entrada, linhas, list(linhas[0]), separador)
    resultado = rodar_lote(entrada, "-r", "renovabio.distribuidor", "-o", saida, *opcoes)
    assert resultado.exit_code == 3, resultado.output
    erros = [linha["erro"] for linha in ler_csv(saida, separador)]
    assert erros[0] == f"maior_media_mensal: número inválido: 'setenta' ({dica})"
    assert erros[1] == f"maior_media_mensal: número inválido: '71$70' ({dica})"
    assert erros[2] == ""
    assert not any(outra in erro for erro in erros)


def test_lote_parquet_tipado_sai_decimal_exato(tmp_path: Path) -> None:
    tabela = pa.table(
        {
            "id": pa.array([10, 20, 30]),
            "principal": pa.array(
                [Decimal("250000.00"), Decimal("0.01"), None], pa.decimal128(12, 2)
            ),
            "data_ciencia": pa.array([date(2024, 3, 29), date(2025, 2, 1), date(2025, 2, 1)]),
            "data_pagamento": pa.array(["2024-07-01", "2026-01-31", "2025-03-01"]),
        }
    )
    entrada, saida = tmp_path / "m.parquet", tmp_path / "r.parquet"
    pq.write_table(tabela, entrada)
    resultado = rodar_lote(entrada, "-r", "anp.mora", "-o", saida, "-i", "calendario=feriados")
    assert resultado.exit_code == 3
    obtida = pq.read_table(saida)
    assert obtida.schema.field("valor").type == pa.decimal128(18, 2)
    assert obtida.schema.field("vencimento").type == pa.date32()
    assert obtida.column_names[:4] == tabela.column_names
    assert obtida.select(tabela.column_names).equals(tabela)
    linhas = obtida.to_pylist()
    assert linhas[0]["valor"] == Decimal("272500.00")
    assert linhas[0]["vencimento"] == date(2024, 4, 29)
    esperado = _motor(
        "anp.mora",
        {"principal": "0.01", "data_ciencia": "2025-02-01", "data_pagamento": "2026-01-31"},
        {"calendario": "feriados"},
    )
    assert isinstance(esperado, dict)
    assert str(linhas[1]["valor"]) == esperado["valor"]
    assert linhas[1]["meses_atraso"] == esperado["meses_atraso"]
    assert linhas[2]["erro"] == "principal: campo obrigatório"


def test_lote_jsonl_linha_ruim_tem_seu_erro_e_numeros_ficam_como_escritos(tmp_path: Path) -> None:
    entrada, saida = tmp_path / "m.jsonl", tmp_path / "r.jsonl"
    entrada.write_text(
        '{"id": "1", "principal": 250000.10, "data_ciencia": "2024-03-29", "data_pagamento": "2024-07-01"}\n'
        "isto não é JSON\n"
        '{"id": "3", "principal": "1000.005", "data_ciencia": "2024-03-29", "data_pagamento": "2024-07-01"}\n',
        encoding="utf-8",
    )
    resultado = rodar_lote(entrada, "-r", "anp.mora", "-o", saida)
    assert resultado.exit_code == 3
    linhas = saida.read_text(encoding="utf-8").splitlines()
    assert len(linhas) == 3
    assert linhas[0].startswith('{"id": "1", "principal": 250000.10,')
    primeira = json.loads(linhas[0], parse_float=Decimal)
    assert primeira["valor"] == "272500.11" and primeira["meses_atraso"] == 3
    assert primeira["erro"] is None
    segunda = json.loads(linhas[1])
    assert segunda["entrada"] == "isto não é JSON"
    assert segunda["erro"].startswith("linha 2: JSON inválido")
    assert (
        json.loads(linhas[2])["erro"] == "principal: valor em reais com mais de duas casas decimais"
    )


def test_lote_jsonl_id_numerico_e_erro_da_linha_como_em_calcular(tmp_path: Path) -> None:
    """JSON types the id: a number is not the text spec § 3 v4 asks for, in the batch as in
    ``multas calcular --jsonl`` (a typed Parquet or XLSX id column is read as its text)."""
    entrada, saida = tmp_path / "m.jsonl", tmp_path / "r.jsonl"
    entrada.write_text(
        '{"id": 7, "principal": "10.00", "data_ciencia": "2024-03-29", "data_pagamento": "2024-04-01"}\n',
        encoding="utf-8",
    )
    assert rodar_lote(entrada, "-r", "anp.mora", "-o", saida).exit_code == 3
    (linha,) = saida.read_text(encoding="utf-8").splitlines()
    assert json.loads(linha)["erro"] == "linha 1: id: deve ser um texto não vazio"


def test_lote_xlsx_celulas_de_data_e_numero(tmp_path: Path) -> None:
    livro = openpyxl.Workbook()
    folha = livro.active
    assert folha is not None
    folha.append(["nome", "meta_mj_km", "consumo_mj_km", "veiculos"])
    folha.append(["A", 1.82, 1.83, 838200])
    folha.append(["B", "1.82", "1.845", 10])
    folha.append(["C", 1.82, 1.83, 0])
    folha.append([None, None, None, None])
    entrada, saida = tmp_path / "v.xlsx", tmp_path / "r.xlsx"
    livro.save(entrada)
    resultado = rodar_lote(
        entrada, "-r", "mover.eficiencia", "-o", saida, "-i", "faixa_superior=marginal"
    )
    assert resultado.exit_code == 3
    linhas = list(openpyxl.load_workbook(saida).worksheets[0].iter_rows(values_only=True))
    assert linhas[0] == (
        "nome",
        "meta_mj_km",
        "consumo_mj_km",
        "veiculos",
        "valor",
        "valor_por_veiculo",
        "valor_tanque_roda",
        "valor_poco_roda",
        "texto_conferido",
        "erro",
    )
    assert len(linhas) == 4  # a trailing blank row is not a case
    assert linhas[1][:4] == ("A", 1.82, 1.83, 838200)
    assert linhas[1][4] == 41910000  # 1.83 − 1.82 is exactly 0.01: band a (a number cell)
    assert linhas[2][4] == 4100  # 0.025 → 3 units; marginal: (50 + 90 + 270) × 10
    assert linhas[3][-1] == "veiculos: deve ser maior ou igual a 1"


def test_lote_regime_sem_kernel_e_colisao_de_nome(tmp_path: Path) -> None:
    """anp.infracao has an input field called valor: the result is resultado_valor."""
    entrada, saida = tmp_path / "i.csv", tmp_path / "r.csv"
    escrever_csv(
        entrada,
        [{"inciso": "ix", "valor": "750000"}, {"inciso": "XX", "valor": ""}],
        ["inciso", "valor"],
    )
    resultado = rodar_lote(entrada, "-r", "anp.infracao", "-o", saida)
    assert resultado.exit_code == 3
    linhas = ler_csv(saida)
    assert list(linhas[0]) == [
        "inciso",
        "valor",
        "resultado_valor",
        "valor_minimo",
        "valor_maximo",
        "descricao",
        "norma",
        "erro",
    ]
    assert linhas[0]["resultado_valor"] == "750000.00" and linhas[0]["valor"] == "750000"
    assert linhas[1]["erro"].startswith("inciso: inciso XX não conhecido")


@pytest.mark.parametrize(
    ("args", "mensagem"),
    [
        (["-r", "renovabio.nada"], "regime desconhecido"),
        (
            ["-r", "renovabio.distribuidor", "-i", "faturamento=menor", "-i", "calendario=x"],
            "interpretacao.calendario",
        ),
        (["-r", "renovabio.distribuidor", "-i", "faturamento"], "use chave=opção"),
        (["-r", "renovabio.distribuidor", "-i", "faturamento=mediana"], "opção inválida"),
    ],
)
def test_lote_argumentos_inutilizaveis_saem_com_2(
    tmp_path: Path, args: list[str], mensagem: str
) -> None:
    entrada = tmp_path / "d.csv"
    escrever_csv(entrada, DISTRIBUIDORES[:1], CAMPOS)
    resultado = rodar_lote(entrada, "-o", tmp_path / "r.csv", *args)
    assert resultado.exit_code == 2
    assert mensagem in resultado.stderr
    assert not (tmp_path / "r.csv").exists()


def test_lote_formato_da_saida_deve_ser_o_da_entrada(tmp_path: Path) -> None:
    entrada = tmp_path / "d.csv"
    escrever_csv(entrada, DISTRIBUIDORES[:1], CAMPOS)
    resultado = rodar_lote(entrada, "-r", "renovabio.distribuidor", "-o", tmp_path / "r.parquet")
    assert resultado.exit_code == 2
    assert "formato da entrada" in resultado.stderr
    resultado = rodar_lote(
        tmp_path / "d.csv", "-r", "renovabio.distribuidor", "-o", tmp_path / "r.txt"
    )
    assert resultado.exit_code == 2 and "formato não reconhecido" in resultado.stderr


def test_lote_todas_as_linhas_calculadas_sai_com_0(tmp_path: Path) -> None:
    entrada, saida = tmp_path / "d.csv", tmp_path / "r.csv"
    escrever_csv(entrada, DISTRIBUIDORES[:2], CAMPOS)
    resultado = rodar_lote(entrada, "-r", "renovabio.distribuidor", "-o", saida)
    assert resultado.exit_code == 0
    assert "2 linhas, 2 calculadas, 0 com erro" in resultado.stderr


def test_lote_interrompido_nao_deixa_arquivo_pela_metade(tmp_path: Path, monkeypatch: Any) -> None:
    entrada, saida = tmp_path / "d.csv", tmp_path / "r.csv"
    escrever_csv(entrada, muitas_linhas(500), CAMPOS)
    saida.write_text("resultado anterior\n", encoding="utf-8")
    original = executor_mod.processar
    chamadas = 0

    def falha_no_terceiro(bloco: Any, cfg: Config) -> Any:
        nonlocal chamadas
        chamadas += 1
        if chamadas == 3:
            raise KeyboardInterrupt
        return original(bloco, cfg)

    monkeypatch.setattr(executor_mod, "processar", falha_no_terceiro)
    with pytest.raises(KeyboardInterrupt):
        executar(entrada, saida, config_distribuidor(), linhas_por_bloco=50)
    assert saida.read_text(encoding="utf-8") == "resultado anterior\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.csv", "r.csv"]


def test_lote_processa_em_blocos_limitados(tmp_path: Path, monkeypatch: Any) -> None:
    """The input is read and processed block by block: no block above the limit."""
    entrada, saida = tmp_path / "d.parquet", tmp_path / "r.parquet"
    linhas = muitas_linhas(1000)
    pq.write_table(pa.Table.from_pylist(linhas), entrada, row_group_size=300)
    tamanhos: list[int] = []
    original = executor_mod.processar

    def medir(bloco: Any, cfg: Config) -> Any:
        tamanhos.append(len(bloco))
        return original(bloco, cfg)

    monkeypatch.setattr(executor_mod, "processar", medir)
    resumo = executar(entrada, saida, config_distribuidor(), linhas_por_bloco=128)
    assert sum(tamanhos) == resumo.linhas == 1000
    assert max(tamanhos) <= 128 and len(tamanhos) >= 8
    saidas = pq.read_table(saida).to_pylist()
    for linha, obtida in zip(linhas, saidas, strict=True):
        esperado = _motor("renovabio.distribuidor", linha)
        valor = None if obtida["valor"] is None else str(obtida["valor"])
        assert (obtida["erro"] or valor) == (
            esperado if isinstance(esperado, str) else esperado["valor"]
        )


celulas = st.one_of(
    st.none(),
    st.sampled_from(
        [
            "2025",
            "2024",
            "0",
            "1",
            "10",
            "1000000",
            "71.70",
            "1,5",
            "1.234,56",
            "2026-03-15",
            "abc",
            "-1",
            "99.999",
            "sim",
        ]
    ),
    st.integers(0, 10**9).map(str),
)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(st.fixed_dictionaries({c: celulas for c in CAMPOS[1:]}), min_size=1, max_size=30),
    st.booleans(),
)
def test_lote_csv_igual_ao_motor_linha_a_linha(
    tmp_path: Path, linhas: list[dict[str, Any]], ptbr: bool
) -> None:
    entrada, saida = tmp_path / "h.csv", tmp_path / "hr.csv"
    delimitador = ";" if ptbr else ","
    completas = [
        {"cnpj": f"x{i}", **{k: v or "" for k, v in linha.items()}}
        for i, linha in enumerate(linhas)
    ]
    escrever_csv(entrada, completas, CAMPOS, delimitador)
    # the notation given (not detected from the drawn cells), as the engine is told it
    cfg = Config(
        "renovabio.distribuidor",
        config_distribuidor().interpretacao,
        ptbr,
        dialeto=Dialeto(decimal_virgula=ptbr),
    )
    executar(entrada, saida, cfg, linhas_por_bloco=7)
    _conferir_linhas(
        "renovabio.distribuidor", completas, ler_csv(saida, delimitador), virgula=ptbr, ptbr=ptbr
    )


def test_celula_de_planilha_com_horario_nao_e_data() -> None:
    from multas.lote.processar import _bruto

    assert _bruto(datetime(2025, 1, 2)) == date(2025, 1, 2)
    assert _bruto(datetime(2025, 1, 2, 10, 30)) == "2025-01-02 10:30:00"
    assert _bruto("") is None


# --- anp.mora with --selic (spec § 4): Lei 10.522/2002 art. 37-A for every row ------------

MORAS = [
    {
        "id": "a",
        "principal": "50000.00",
        "data_ciencia": "2025-02-28",
        "data_pagamento": "2025-06-15",
    },
    {
        "id": "b",
        "principal": "12345.67",
        "data_ciencia": "2025-05-02",
        "data_pagamento": "2025-06-20",
    },
    {
        "id": "c",
        "principal": "1000.00",
        "data_ciencia": "2025-05-02",
        "data_pagamento": "2025-09-15",
    },
]
CAMPOS_MORA = ["id", "principal", "data_ciencia", "data_pagamento"]


def test_lote_selic_da_as_taxas_a_todas_as_linhas(tmp_path: Path) -> None:
    entrada, saida, selic = tmp_path / "m.csv", tmp_path / "r.csv", tmp_path / "selic.csv"
    escrever_csv(entrada, MORAS, CAMPOS_MORA)
    selic.write_text("mes,taxa\n2025-04,1.06\n2025-05,1.14\n2025-07,1.07\n", encoding="utf-8")
    r = rodar_lote(
        entrada, "-r", "anp.mora", "-o", saida, "--selic", selic, "-i", "encargos=lei-10522"
    )
    linhas = ler_csv(saida)
    # a: spec case an13; b: the same month, no interest (an15); c: August is missing
    assert [linha["valor"] for linha in linhas[:2]] == ["61600.00", "13079.00"]
    assert [linha["dias_atraso"] for linha in linhas[:2]] == ["76", "18"]
    assert linhas[2]["erro"] == (  # past the shipped series and not in --selic (spec § 3.5 v4)
        "taxas_selic.2025-08: taxa Selic de 08/2025 não disponível (última: 04/2025): "
        "atualize com `multas legislacao selic atualizar`"
    )
    assert r.exit_code == 3
    assert list(linhas[0]) == [
        *CAMPOS_MORA,
        "valor",
        "vencimento",
        "dias_atraso",
        "meses_atraso",
        "juros_mora",
        "multa_mora",
        "erro",
    ]


def test_lote_dias_sem_expediente_por_linha_e_por_arquivo(tmp_path: Path) -> None:
    """Spec v3 § 4: a dias_sem_expediente column (dates separated by spaces) and
    --dias-sem-expediente FILE for every row, together; the kernel groups rows by date set.
    21/05/2025 + 30 = 20/06/2025 (ponto facultativo), 21-22 fim de semana → 23/06."""
    linhas = [
        {"id": "sem", "dias_sem_expediente": ""},
        {"id": "23", "dias_sem_expediente": "2025-06-23"},
        {"id": "23 24", "dias_sem_expediente": "2025-06-24 2025-06-23"},
        {"id": "ruim", "dias_sem_expediente": "2025-06-31"},
    ]
    for linha in linhas:
        linha |= {"principal": "1000.00", "data_ciencia": "2025-05-21"}
        linha |= {"data_pagamento": "2025-06-24"}
    campos = ["id", "principal", "data_ciencia", "data_pagamento", "dias_sem_expediente"]
    entrada, saida = tmp_path / "m.csv", tmp_path / "r.csv"
    escrever_csv(entrada, linhas, campos)
    r = rodar_lote(entrada, "-r", "anp.mora", "-o", saida, "--exigir-kernel")
    lidas = ler_csv(saida)
    assert [linha["vencimento"] for linha in lidas[:3]] == [
        "2025-06-23",
        "2025-06-24",
        "2025-06-25",
    ]
    assert [linha["valor"] for linha in lidas[:3]] == ["1030.00", "1000.00", "1000.00"]
    assert lidas[3]["erro"].startswith("dias_sem_expediente[0]: data inexistente")
    # the file's dates join each row's
    arquivo = tmp_path / "dias.txt"
    arquivo.write_text("2025-06-25\n\n", encoding="utf-8")
    rodar_lote(entrada, "-r", "anp.mora", "-o", saida, "--dias-sem-expediente", arquivo)
    lidas = ler_csv(saida)
    assert [linha["vencimento"] for linha in lidas[:3]] == [
        "2025-06-23",
        "2025-06-24",
        "2025-06-26",
    ]
    assert r.exit_code == 3


def test_lote_dias_sem_expediente_invalido(tmp_path: Path) -> None:
    entrada, saida, dias = tmp_path / "m.csv", tmp_path / "r.csv", tmp_path / "dias.txt"
    escrever_csv(entrada, MORAS[:1], CAMPOS_MORA)
    dias.write_text("2025-02-30\n", encoding="utf-8")
    r = rodar_lote(entrada, "-r", "anp.mora", "-o", saida, "--dias-sem-expediente", dias)
    assert r.exit_code == 2 and "--dias-sem-expediente" in r.output and "linha 1:" in r.output
    dias.write_text("2025-02-10\n", encoding="utf-8")
    r = rodar_lote(
        entrada, "-r", "renovabio.distribuidor", "-o", saida, "--dias-sem-expediente", dias
    )
    assert r.exit_code == 2 and "anp.mora" in r.output


def test_lote_selic_em_notacao_brasileira(tmp_path: Path) -> None:
    entrada, saida, selic = tmp_path / "m.csv", tmp_path / "r.csv", tmp_path / "selic.csv"
    escrever_csv(entrada, MORAS[:1], CAMPOS_MORA, delimitador=";")
    selic.write_text("mes;taxa\n2025-04;1,06\n2025-05;1,14\n", encoding="utf-8")
    r = rodar_lote(
        entrada,
        "-r",
        "anp.mora",
        "-o",
        saida,
        "--selic",
        selic,
        "--ptbr",
        "-i",
        "encargos=lei-10522",
    )
    assert r.exit_code == 0, r.output
    assert ler_csv(saida, ";")[0]["valor"] == "61600,00"


@pytest.mark.parametrize(
    ("conteudo", "mensagem"),
    [
        ("mes,valor\n2025-04,1\n", "precisa das colunas mes e taxa"),
        ("mes,taxa\n2025-04,1\n2025-04,2\n", "linha 3: mês repetido: 2025-04"),
        ("mes,taxa\n2025-13,1\n", "taxas_selic.2025-13: mês inválido"),
        ("mes,taxa\n2025-04,-1\n", "taxas_selic.2025-04: a taxa não pode ser negativa"),
        ("mes,taxa\n", "informe ao menos um mês"),
        ("", "precisa das colunas mes e taxa"),
    ],
)
def test_lote_selic_invalida_sai_com_2_e_diz_por_que(
    tmp_path: Path, conteudo: str, mensagem: str
) -> None:
    entrada, saida, selic = tmp_path / "m.csv", tmp_path / "r.csv", tmp_path / "selic.csv"
    escrever_csv(entrada, MORAS, CAMPOS_MORA)
    selic.write_text(conteudo, encoding="utf-8")
    r = rodar_lote(entrada, "-r", "anp.mora", "-o", saida, "--selic", selic)
    assert r.exit_code == 2
    assert "Erro no campo '--selic'" in r.stderr and mensagem in r.stderr
    assert not saida.exists()


def test_lote_selic_so_vale_para_anp_mora(tmp_path: Path) -> None:
    entrada, saida, selic = tmp_path / "d.csv", tmp_path / "r.csv", tmp_path / "selic.csv"
    escrever_csv(entrada, DISTRIBUIDORES, CAMPOS)
    selic.write_text("mes,taxa\n2025-04,1\n", encoding="utf-8")
    r = rodar_lote(entrada, "-r", "renovabio.distribuidor", "-o", saida, "--selic", selic)
    assert r.exit_code == 2 and "só vale para o regime anp.mora" in r.stderr


# --- every core: threads for the kernel, processes for the scalar engine --------------------


def test_dois_nucleos_e_passos_do_kernel_gravam_a_mesma_saida(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """Two computing threads (a kernel regime on four cores), blocks computed in slices: the same bytes as
    one core computing whole blocks, every row in order."""
    from multas.lote import processar as processar_mod

    entrada = tmp_path / "d.parquet"
    linhas = muitas_linhas(3000)
    pq.write_table(pa.Table.from_pylist(linhas), entrada, row_group_size=1000)
    um = executar(
        entrada, tmp_path / "um.parquet", config_distribuidor(), linhas_por_bloco=700, nucleos=1
    )
    monkeypatch.setattr(processar_mod, "LINHAS_POR_PASSO", 64)
    dois = executar(
        entrada, tmp_path / "dois.parquet", config_distribuidor(), linhas_por_bloco=700, nucleos=4
    )
    assert (tmp_path / "um.parquet").read_bytes() == (tmp_path / "dois.parquet").read_bytes()
    assert (um.linhas, um.erros) == (dois.linhas, dois.erros) == (3000, um.erros)
    assert um.erros > 0  # the 2021–2022 rows (no law yet) are errors, in their places


def test_motor_escalar_em_processos_grava_a_mesma_saida(tmp_path: Path, monkeypatch: Any) -> None:
    """A regime without the kernel runs its rows on worker processes (threads would share one
    core): the output is byte for byte the one-core output, errors in their rows."""
    regime = "renovabio.vedacao"
    cfg = Config(regime, ler_interpretacao(regime_de(regime), None))
    entrada = tmp_path / "v.csv"
    linhas = vedacoes(5000)
    escrever_csv(entrada, linhas, list(linhas[0]))
    um = executar(entrada, tmp_path / "um.csv", cfg, linhas_por_bloco=3000, nucleos=1)
    # two blocks: the processes start
    pools: list[int] = []
    original = executor_mod.pool_de_processos

    def contar(nucleos: int) -> Any:
        pools.append(nucleos)
        return original(nucleos)

    monkeypatch.setattr(executor_mod, "pool_de_processos", contar)
    dois = executar(entrada, tmp_path / "dois.csv", cfg, linhas_por_bloco=3000, nucleos=2)
    assert pools == [2]  # the rows really went to two processes
    assert (tmp_path / "um.csv").read_bytes() == (tmp_path / "dois.csv").read_bytes()
    assert (um.linhas, um.erros) == (dois.linhas, dois.erros) == (5000, 385)
    # every slice's count reaches the summary (Arrow keeps one table's metadata when joining)
    assert um.motor == dois.motor == 5000 - 385
    assert um.motivos == dois.motivos == {"o regime renovabio.vedacao não tem kernel": 4615}
    saida = ler_csv(tmp_path / "dois.csv")
    assert [linha["id"] for linha in saida] == [f"d{i}" for i in range(5000)]
    assert saida[13]["erro"].startswith("valor_base:") and saida[14]["erro"] == ""


def test_motor_escalar_pequeno_nao_sobe_processos(tmp_path: Path, monkeypatch: Any) -> None:
    regime = "renovabio.vedacao"
    cfg = Config(regime, ler_interpretacao(regime_de(regime), None))
    entrada = tmp_path / "v.csv"
    linhas = vedacoes(50)
    escrever_csv(entrada, linhas, list(linhas[0]))

    def proibido(nucleos: int) -> Any:
        raise AssertionError("um arquivo pequeno não precisa de processos")

    monkeypatch.setattr(executor_mod, "pool_de_processos", proibido)
    assert executar(entrada, tmp_path / "r.csv", cfg, nucleos=2).linhas == 50


def test_lote_diz_quantas_linhas_foram_ao_motor_escalar(tmp_path: Path) -> None:
    """Refusals visible (issue 17): with --exigir-kernel the summary says how many valid rows
    the scalar engine computed instead of the kernel, and that is an error; without it, the
    closing lines keep the engine's internals to themselves (issue 37, item 8)."""
    kernel, motor = tmp_path / "d.csv", tmp_path / "i.csv"
    escrever_csv(kernel, DISTRIBUIDORES[:2], CAMPOS)
    escrever_csv(
        motor, [{"inciso": "IX"}, {"inciso": "xi", "valor": "750000"}], ["inciso", "valor"]
    )
    todo_no_kernel = rodar_lote(
        kernel, "-r", "renovabio.distribuidor", "-o", tmp_path / "r.csv", "--exigir-kernel"
    )
    assert todo_no_kernel.exit_code == 0, todo_no_kernel.stderr
    assert "motor escalar" not in todo_no_kernel.stderr
    sem_kernel = rodar_lote(motor, "-r", "anp.infracao", "-o", tmp_path / "s.csv")
    assert sem_kernel.exit_code == 0, sem_kernel.stderr
    assert "motor escalar" not in sem_kernel.stderr
    exigido = rodar_lote(motor, "-r", "anp.infracao", "-o", tmp_path / "t.csv", "--exigir-kernel")
    assert exigido.exit_code == 2 and "--exigir-kernel" in exigido.stderr
    assert "2 linhas válidas calculadas pelo motor escalar" in exigido.stderr


def test_lote_mover_escreve_texto_conferido(tmp_path: Path) -> None:
    """Spec v4 § 3.7 point 4: the batch shows ``texto_conferido`` (true before Lei
    14.902/2024, false from 28/06/2024)."""
    entrada, saida = tmp_path / "m.csv", tmp_path / "r.csv"
    linhas = [
        {"meta_mj_km": "1.82", "consumo_mj_km": "1.83", "veiculos": "10", "data_referencia": d}
        for d in ("2024-06-27", "2024-06-28")
    ]
    escrever_csv(entrada, linhas, list(linhas[0]))
    r = rodar_lote(entrada, "-r", "mover.eficiencia", "-o", saida)
    assert r.exit_code == 0, r.stderr
    assert [linha["texto_conferido"] for linha in ler_csv(saida)] == ["true", "false"]
