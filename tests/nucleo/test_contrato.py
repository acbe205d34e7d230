"""The case-file contract: every bad input is refused with a pt-BR message naming the field."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from multas import EntradaInvalida, calcular
from multas.nucleo.contrato import Campo, Leitura, ler_valor
from multas.nucleo.regimes import REGIMES
from tests.utils import erro

DISTRIBUIDOR = {
    "regime": "renovabio.distribuidor",
    "ano_meta": 2025,
    "meta_cbios": 1000,
    "cbios_aposentados": 0,
    "maior_media_mensal": "70",
}


def test_regime_obrigatorio_e_conhecido() -> None:
    assert erro(ano_meta=2025).campo == "regime"
    e = erro(regime="renovabio.importador")
    assert e.campo == "regime" and "desconhecido" in e.mensagem


def test_caso_deve_ser_objeto() -> None:
    for dados in ([], "x", 3, None):
        with pytest.raises(EntradaInvalida):
            calcular(dados)


def test_campo_desconhecido_e_erro() -> None:
    e = erro(**DISTRIBUIDOR, cpf="000.000.000-00")
    assert e.campo == "cpf" and "desconhecido" in e.mensagem


@pytest.mark.parametrize("regime", ["renovabio.distribuidor", "anp.infracao", "mover.eficiencia"])
def test_identidade_ecoada_como_veio_no_topo_do_resultado(regime: str) -> None:
    """Issue 19: any case may say who it is about (cnpj, nome, referencia); the engine echoes
    them exactly as given (a wrong check digit included) and they change no amount."""
    from multas.servidor.exemplos import EXEMPLOS

    base = dict(EXEMPLOS[regime]) if regime in EXEMPLOS else None
    if base is None:
        pytest.skip(f"sem exemplo para {regime}")
    ids = {"cnpj": "12.abc.345/01de-3X", "nome": "Alfa Ltda.", "referencia": "48610.1/2025"}
    sem, com = calcular(base), calcular(base | ids)
    assert list(com)[:4] == ["regime", "cnpj", "nome", "referencia"]
    assert {k: com[k] for k in ids} == ids
    assert {k: v for k, v in com.items() if k not in ids} == sem


@pytest.mark.parametrize("regime", sorted(REGIMES))
def test_id_do_caso_e_o_primeiro_campo_do_resultado_e_do_erro(regime: str) -> None:
    """Spec § 3 v4: a free ``id`` on any case, echoed first; it changes no value. A refused
    case with a valid ``id`` gets ``{"id", "erro"}``; an invalid ``id`` is the error itself."""
    from multas.servidor.exemplos import EXEMPLOS

    base = {k: v for k, v in EXEMPLOS[regime].items() if k != "id"}
    rotulo = "AI-2024/0042 · " + "x" * 185  # 200 characters, the longest accepted
    sem, com = calcular(base), calcular(base | {"id": rotulo})
    assert next(iter(com)) == "id" and com["id"] == rotulo
    assert {k: v for k, v in com.items() if k != "id"} == sem
    recusado = erro(**(base | {"id": "A1", "campo_que_nao_existe": 1}))
    assert list(recusado.como_dict()) == ["id", "erro"] and recusado.id == "A1"
    invalido = erro(**(base | {"id": "x" * 201}))
    assert (invalido.campo, invalido.id) == ("id", None)
    assert list(invalido.como_dict()) == ["erro"]


@pytest.mark.parametrize(
    ("campo", "valor", "trecho"),
    [
        ("id", "", "texto não vazio"),
        ("id", 42, "texto não vazio"),
        ("cnpj", 11222333000181, "texto não vazio"),
        ("cnpj", "   ", "texto não vazio"),
        ("cnpj", "1" * 33, "máximo 32"),
        ("nome", "x" * 201, "máximo 200"),
        ("referencia", "a\x00b", "controle"),
        ("nome", "a\nb", "controle"),
    ],
)
def test_identidade_invalida_nomeia_o_campo(campo: str, valor: Any, trecho: str) -> None:
    e = erro(**DISTRIBUIDOR, **{campo: valor})
    assert e.campo == campo and trecho in e.mensagem


def test_campo_obrigatorio() -> None:
    sem = {k: v for k, v in DISTRIBUIDOR.items() if k != "meta_cbios"}
    e = erro(**sem)
    assert (e.campo, e.mensagem) == ("meta_cbios", "campo obrigatório")


@pytest.mark.parametrize(
    ("chave", "opcao", "campo"),
    [
        ("faturamento", "mediana", "interpretacao.faturamento"),
        ("calendario", "expediente", "interpretacao.calendario"),
    ],
)
def test_interpretacao_que_o_regime_nao_tem_e_erro(chave: str, opcao: str, campo: str) -> None:
    assert erro(**DISTRIBUIDOR, interpretacao={chave: opcao}).campo == campo


def test_interpretacao_deve_ser_objeto() -> None:
    assert erro(**DISTRIBUIDOR, interpretacao="media").campo == "interpretacao"


@pytest.mark.parametrize(
    ("campo", "valor"),
    [
        ("meta_cbios", "10.5"),
        ("meta_cbios", Decimal("10.5")),
        ("meta_cbios", -1),
        ("meta_cbios", True),
        ("meta_cbios", "dez"),
        ("ano_meta", "2025-01"),
        ("maior_media_mensal", "0"),
        ("maior_media_mensal", "-1"),
        ("maior_media_mensal", "71,70"),
        ("maior_media_mensal", [1]),
        ("faturamento_ano_meta", "1.001"),
        ("data_quitacao", "2026-02-30"),
        ("data_quitacao", "15/03/2026"),
        ("prazo_comprovacao", 20251231),
    ],
)
def test_valor_invalido_nomeia_o_campo(campo: str, valor: object) -> None:
    dados = {**DISTRIBUIDOR, campo: valor}
    if campo.startswith("faturamento"):
        dados |= {"faturamento_ano_meta": "1", "faturamento_ano_anterior": "1", campo: valor}
    e = erro(**dados)
    assert e.campo == campo
    assert e.mensagem  # pt-BR, never empty


def test_contagem_inteira_em_qualquer_forma() -> None:
    for forma in (1000, "1000", Decimal("1000"), Decimal("1000.0"), 1000.0):
        assert calcular({**DISTRIBUIDOR, "meta_cbios": forma})["valor"] == "100000.00"


def test_leitura_de_tabela_aceita_booleanos_e_numeros_ptbr() -> None:
    produtor = {
        "regime": "renovabio.produtor",
        "ano": "2025",
        "cbios_nao_pagos": "300.000",
        "maior_media_mensal": "70,43",
    }
    tabela = Leitura(tabela=True, decimal_virgula=True)
    for texto, dobro in (("sim", True), ("não", False), ("1", True), ("false", False)):
        r = calcular({**produtor, "dados_primarios": texto}, tabela)
        assert r["valor"] == ("42258000.00" if dobro else "21129000.00")
    with pytest.raises(EntradaInvalida) as info:
        calcular({**produtor, "dados_primarios": "talvez"}, tabela)
    assert info.value.campo == "dados_primarios"


@pytest.mark.parametrize(
    ("campo", "tipo"),
    [
        ("meta_cbios", "contagem"),
        ("ano_meta", "ano"),
        ("maior_media_mensal", "preco"),
        ("faturamento_ano_meta", "quantia"),
        ("principal", "quantia_positiva"),
        ("consumo_mj_km", "quantidade"),
    ],
)
def test_numero_invalido_indica_o_separador_da_leitura(campo: str, tipo: str) -> None:
    """JSON and plain tables are told to use a decimal point; pt-BR tables (`--ptbr`), a comma."""
    c = Campo(campo, tipo, "", True, 0)  # type: ignore[arg-type]
    for leitura, dica in (
        (Leitura(), "(use ponto como separador decimal, ex.: 1234.56)"),
        (Leitura(tabela=True), "(use ponto como separador decimal, ex.: 1234.56)"),
        (
            Leitura(tabela=True, decimal_virgula=True),
            "(use vírgula como separador decimal, ex.: 1.234,56)",
        ),
    ):
        with pytest.raises(EntradaInvalida) as info:
            ler_valor("12 mil", c, leitura)
        assert info.value.campo == campo
        assert info.value.mensagem == f"número inválido: '12 mil' {dica}"


def test_mensagem_de_erro_no_formato_do_contrato() -> None:
    e = erro(**{**DISTRIBUIDOR, "meta_cbios": "x"})
    assert e.como_dict() == {"erro": {"campo": "meta_cbios", "mensagem": e.mensagem}}


def test_resultado_tem_os_campos_do_contrato() -> None:
    r = calcular(DISTRIBUIDOR)
    for campo in (
        "regime",
        "valor",
        "moeda",
        "fundamento",
        "vigencia",
        "passos",
        "avisos",
        "alternativas",
    ):
        assert campo in r
    assert r["moeda"] == "BRL"
    assert set(r["vigencia"]) == {"data_referencia", "redacao"}
    for passo in r["passos"]:
        assert passo["descricao"] and passo["fundamento"]


@pytest.mark.parametrize(
    ("ano", "aceito"), [(1899, False), (1900, True), (9000, True), (9001, False)]
)
def test_um_ano_tem_um_so_limite_em_toda_entrada(ano: int, aceito: bool) -> None:
    """``--ano``, the API's ``ano``, a file's ``ano`` column and a case's ``ano_meta`` read
    through one reader, with one bound (the contract's)."""
    from multas.nucleo.contrato import ANO_MAXIMO, ANO_MINIMO, ler_um_ano

    assert (ANO_MINIMO, ANO_MAXIMO) == (1900, 9000)
    if aceito:
        assert ler_um_ano(str(ano), "--ano") == ano
        return
    with pytest.raises(EntradaInvalida) as erro:
        ler_um_ano(str(ano), "--ano")
    assert erro.value.campo == "--ano"
    assert erro.value.mensagem == f"ano fora do intervalo aceito (1900 a 9000): {ano}"
    with pytest.raises(EntradaInvalida, match="ano fora do intervalo"):
        calcular(
            {
                "regime": "renovabio.distribuidor",
                "ano_meta": ano,
                "meta_cbios": 1,
                "cbios_aposentados": 0,
                "maior_media_mensal": "1",
            }
        )


def test_erro_de_inteiro_ecoa_o_que_foi_digitado() -> None:
    """Issue 37 item 14: "350.000,5" was echoed as "(350000.5)", a number nobody typed."""
    campo = Campo("meta_cbios", "contagem", "", True, 0)
    with pytest.raises(EntradaInvalida) as info:
        ler_valor("350.000,5", campo, Leitura(tabela=True, decimal_virgula=True))
    assert info.value.mensagem == "deve ser um número inteiro, não fracionário (350.000,5)"
