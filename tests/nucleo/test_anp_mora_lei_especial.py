"""Spec v4 § 3.7 point 8 (``encargos-lei-especial``), W8 and W9 for ``anp.mora``: the default
charges are Lei 9.847/1999 art. 4º § 2º's, named ``lei-9847`` (``decreto`` is its alias and the
output never writes it); the memória cites the law first; the law applied is picked by the
ciência, as Decreto 2.953/1999 art. 26 caput counts the deadline from it; ``vigencia.redacao``
names the text whose numbers were applied."""

from __future__ import annotations

import pytest

from multas.nucleo.catalogo import descrever_regimes, regimes_como_texto
from multas.nucleo.motor import ler_interpretacao_pares
from tests.utils import calc, erro

CASO = {
    "regime": "anp.mora",
    "principal": "1000",
    "data_ciencia": "2024-01-02",
    "data_pagamento": "2024-06-01",
    "taxas_selic": {f"2024-{m:02d}": "1" for m in range(1, 7)},
}


@pytest.mark.parametrize("nome", ["decreto", "lei-9847"])
def test_decreto_e_sinonimo_de_lei_9847_e_a_saida_escreve_lei_9847(nome: str) -> None:
    r = calc(**CASO, interpretacao={"encargos": nome})
    padrao = calc(**CASO)
    assert r["interpretacao"]["encargos"] == "lei-9847"
    assert padrao["interpretacao"]["encargos"] == "lei-9847"
    assert r["valor"] == padrao["valor"]


def test_escolhida_lei_10522_a_alternativa_escreve_lei_9847() -> None:
    r = calc(**CASO, interpretacao={"encargos": "lei-10522"})
    assert [a["interpretacao"] for a in r["alternativas"]] == [{"encargos": "lei-9847"}]
    assert "decreto" not in str(r["alternativas"])


def test_opcao_desconhecida_continua_erro() -> None:
    e = erro(**CASO, interpretacao={"encargos": "lei-9430"})
    assert e.campo == "interpretacao.encargos"
    assert "lei-9847, lei-10522" in e.mensagem


def test_linha_de_comando_e_lote_aceitam_o_sinonimo() -> None:
    assert ler_interpretacao_pares("anp.mora", ("encargos=decreto",))["encargos"] == "lei-9847"


def test_catalogo_mostra_o_sinonimo() -> None:
    mora = next(r for r in descrever_regimes() if r["regime"] == "anp.mora")
    assert mora["interpretacao"]["encargos"] == {
        "opcoes": ["lei-9847", "lei-10522"],
        "padrao": "lei-9847",
        "sinonimos": {"decreto": "lei-9847"},
    }
    assert "encargos: lei-9847 | lei-10522 (padrão: lei-9847; decreto = lei-9847)" in (
        regimes_como_texto()
    )


def test_memoria_cita_primeiro_a_lei_9847_art4_par2() -> None:
    r = calc(**CASO)
    fundamentos = [p["fundamento"] for p in r["passos"]]
    juros = next(i for i, p in enumerate(r["passos"]) if p["descricao"].startswith("Juros"))
    assert fundamentos[juros].startswith("Lei nº 9.847/1999, art. 4º, § 2º, I ")
    decreto = [i for i, f in enumerate(fundamentos) if "art. 26, parágrafo único" in f]
    assert decreto and min(decreto) > juros  # the decree only after the law
    assert r["fundamento"] == (
        "Lei nº 9.847/1999, art. 4º, § 2º; Decreto nº 2.953/1999, arts. 26 e 27"
    )


@pytest.mark.parametrize("leitura", ["lei-9847", "lei-10522"])
def test_aviso_diz_que_qual_prevalece_e_questao_em_aberto(leitura: str) -> None:
    r = calc(**CASO, interpretacao={"encargos": leitura})
    avisos = [a for a in r["avisos"] if "encargos-lei-especial" in a]
    assert len(avisos) == 1
    assert "qual das duas prevalece é questão em aberto" in avisos[0]
    assert "nenhuma prática da ANP ou da PGF" in avisos[0]


def test_antes_da_lei_9847_so_o_decreto() -> None:
    """From 29/01 to 26/10/1999 only the decree existed: its numbers, cited alone."""
    r = calc(
        regime="anp.mora", principal="1000", data_ciencia="1999-05-03", data_pagamento="1999-08-01"
    )
    assert r["fundamento"] == "Decreto nº 2.953/1999, arts. 26 e 27"
    assert r["vigencia"]["redacao"] == (
        "Decreto nº 2.953/1999, art. 26, parágrafo único (redação original); prazo de "
        "pagamento: Decreto nº 2.953/1999, art. 26, caput (redação original)"
    )
    assert not any("Lei nº 9.847/1999, art. 4º, § 2º" in p["fundamento"] for p in r["passos"])


def test_w8_lei_aplicada_cita_o_art26_caput_e_nao_o_art24() -> None:
    r = calc(**CASO)
    primeiro = r["passos"][0]
    assert primeiro["descricao"] == (
        "Lei aplicada (tempus regit actum): a vigente na data da ciência da decisão"
    )
    assert primeiro["fundamento"] == "Decreto nº 2.953/1999, art. 26, caput (redação original)"
    assert "art. 24" not in str(r["passos"])


@pytest.mark.parametrize(
    ("leitura", "aplicado"),
    [
        (
            "lei-9847",
            "Lei nº 9.847/1999, art. 4º, § 2º (redação atual; notas de redação não transcritas)",
        ),
        (
            "lei-10522",
            "Lei nº 10.522/2002, art. 37-A (incluído pela Medida Provisória nº "
            "449/2008, convertida na Lei nº 11.941/2009), com a Lei nº 9.430/1996, art. 61",
        ),
    ],
)
def test_w9_redacao_nomeia_o_texto_dos_numeros_aplicados(leitura: str, aplicado: str) -> None:
    r = calc(**CASO, interpretacao={"encargos": leitura})
    assert r["vigencia"]["redacao"] == (
        f"{aplicado}; prazo de pagamento: Decreto nº 2.953/1999, art. 26, caput (redação original)"
    )


def test_w9_aviso_de_2025_diz_so_o_que_depende_do_decreto() -> None:
    r = calc(**{**CASO, "data_ciencia": "2025-05-02", "data_pagamento": "2025-06-02"})
    (aviso,) = [a for a in r["avisos"] if "Decreto nº 12.437/2025" in a]
    assert "os valores" not in aviso
    assert "prazo de pagamento de 30 dias contado da ciência (art. 26, caput)" in aviso
    assert "Dívida Ativa" not in aviso  # paid on the vencimento: art. 27 plays no part
    assert aviso.endswith("Os juros e a multa de mora são os da Lei nº 9.847/1999, art. 4º, § 2º.")
