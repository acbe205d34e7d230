"""Spec v4 § 3.7 point 3 (prescricao-penal): Lei nº 9.873/1999 art. 1º § 2º; the optional
``prescricao_penal_anos`` (Código Penal art. 109's periods, data in ciclo.toml), the reading
``interrupcao_penal`` and the aviso on every processo from a RenovaBio target. Dates counted by
hand beside each assertion."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from multas.nucleo.ciclo import calcular_prazos, ler_processo
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.legislacao import carregar

RAIZ = Path(__file__).resolve().parents[2]
PARAGRAFO_2 = (
    "Quando o fato objeto da ação punitiva da Administração também constituir crime, a "
    "prescrição reger-se-á pelo prazo previsto na lei penal."
)
#: infração 10/01/2015; the citação of 01/06/2020 comes after 10/01/2020 (5 years), before
#: 10/01/2023 (8 years); the decision of 01/03/2023 within 3 years of the citação
EVENTOS = (
    ("infracao", "2015-01-10"),
    ("auto_infracao", "2020-06-01"),
    ("ciencia_primeira_instancia", "2023-03-01"),
)


def anp(*eventos: tuple[str, str], **extra: Any) -> dict[str, Any]:
    return {
        "tipo": "anp",
        "eventos": [{"evento": e, "data": d} for e, d in eventos],
        "data_referencia": "2023-03-02",
        **extra,
    }


def prazos(r: dict[str, Any]) -> dict[str, tuple[str, str]]:
    return {p["prazo"]: (p["data"], p["situacao"]) for p in r["prazos"]}


def test_sem_prazo_penal_sao_cinco_anos() -> None:
    r = calcular_prazos(anp(*EVENTOS))
    assert r["estado"] == "prescrito"
    assert prazos(r)["prescricao"] == ("2020-01-10", "vencido")


def test_prazo_penal_com_as_interrupcoes_da_lei_9873() -> None:
    # 10/01/2015 + 8 = 10/01/2023; citação 01/06/2020 in time → 01/06/2028; decision
    # 01/03/2023 in time → 01/03/2031
    r = calcular_prazos(anp(*EVENTOS, prescricao_penal_anos=8))
    assert r["estado"] == "decidido_primeira_instancia"
    assert prazos(r)["prescricao"] == ("2031-03-01", "em_aberto")
    (prazo,) = [p for p in r["prazos"] if p["prazo"] == "prescricao"]
    assert prazo["fundamento"].startswith(
        "Lei nº 9.873/1999, art. 1º, § 2º (data não conferida); Código Penal, art. 109 (texto não "
        "transcrito)"
    )
    assert "8 anos contados de 01/03/2023" in prazo["contagem"]
    assert "prescricao_penal_anos = 8" in prazo["contagem"]
    assert "as interrupções da Lei nº 9.873/1999, art. 2º" in prazo["contagem"]


def test_prazo_penal_sem_interrupcao() -> None:
    # interrupcao_penal = nenhuma: 10/01/2015 + 8 = 10/01/2023, whatever came after
    processo = anp(
        *EVENTOS, prescricao_penal_anos=8, interpretacao={"interrupcao_penal": "nenhuma"}
    )
    r = calcular_prazos(processo)
    assert r["estado"] == "prescrito"
    assert prazos(r)["prescricao"] == ("2023-01-10", "vencido")
    assert any("sem interrupção (leitura interrupcao_penal = nenhuma)" in a for a in r["avisos"])
    antes = calcular_prazos({**processo, "data_referencia": "2023-01-10"})
    assert prazos(antes)["prescricao"] == ("2023-01-10", "em_aberto")


def test_processo_lido_guarda_o_campo_e_a_leitura() -> None:
    lido = ler_processo(anp(*EVENTOS, prescricao_penal_anos=12)).como_dict()
    assert lido["prescricao_penal_anos"] == 12
    assert lido["interpretacao"]["interrupcao_penal"] == "lei-9873"
    assert "prescricao_penal_anos" not in ler_processo(anp(*EVENTOS)).como_dict()


@pytest.mark.parametrize("valor", [5, 0, 2, 21, "8", 8.0, True, [8]])
def test_prazo_fora_do_codigo_penal_e_recusado(valor: object) -> None:
    with pytest.raises(EntradaInvalida) as erro:
        calcular_prazos(anp(*EVENTOS, prescricao_penal_anos=valor))
    assert erro.value.campo == "prescricao_penal_anos"
    assert "Código Penal, art. 109 (texto não transcrito)" in erro.value.mensagem
    assert "3, 4, 8, 12, 16, 20" in erro.value.mensagem


def test_os_prazos_aceitos_sao_dados_da_legislacao() -> None:
    periodos = carregar().parametro("ciclo.prescricao_penal_anos").vigencias[-1]
    assert periodos.valor == [3, 4, 8, 12, 16, 20] and periodos.texto is None
    for anos in periodos.valor:
        assert ler_processo(anp(*EVENTOS, prescricao_penal_anos=anos)).prescricao_penal_anos == anos


def test_so_processo_anp_tem_prazo_penal() -> None:
    lista = {
        "tipo": "renovabio.lista",
        "eventos": [{"evento": "fim_prazo_meta", "data": "2025-12-31"}],
        "prescricao_penal_anos": 8,
    }
    with pytest.raises(EntradaInvalida) as erro:
        calcular_prazos(lista)
    assert erro.value.campo == "prescricao_penal_anos"


def test_leitura_interrupcao_penal_invalida() -> None:
    with pytest.raises(EntradaInvalida) as erro:
        calcular_prazos(anp(*EVENTOS, interpretacao={"interrupcao_penal": "penal"}))
    assert erro.value.campo == "interpretacao.interrupcao_penal"


def test_paragrafo_2_citado_e_o_do_texto_legal_do_projeto() -> None:
    regra = carregar().parametro("ciclo.prescricao_penal").vigencias[0]
    assert regra.texto == PARAGRAFO_2
    textos = RAIZ / "src" / "multas" / "nucleo" / "legislacao" / "textos"
    assert PARAGRAFO_2 in (textos / "lei-9873-1999-prescricao.txt").read_text(encoding="utf-8")


# --- the aviso on a processo from a RenovaBio target -------------------------------------------


def _da_meta(ano: int, infracao: str, **extra: Any) -> dict[str, Any]:
    return {
        "tipo": "anp",
        "eventos": [{"evento": "infracao", "data": infracao}],
        "origem": {
            "regime": "renovabio.distribuidor",
            "ano_meta": ano,
            "cnpj": "11.222.333/0001-81",
        },
        "data_referencia": "2026-02-02",
        **extra,
    }


def _aviso_penal(r: dict[str, Any]) -> str:
    (aviso,) = [a for a in r["avisos"] if "crime do art. 68 da Lei nº 9.605/1998" in a]
    return aviso


def test_meta_de_2025_aviso_cita_a_lei_e_o_caput_que_a_nomeia() -> None:
    aviso = _aviso_penal(calcular_prazos(_da_meta(2025, "2026-01-01")))
    assert "(texto não transcrito)" in aviso
    assert f'(Lei nº 9.873/1999, art. 1º, § 2º: "{PARAGRAFO_2}")' in aviso
    assert "e não pelos 5 anos contados aqui" in aviso
    assert "Se o fato é crime decide aquela lei, não o decreto" in aviso
    assert (
        "redação dada pelo Decreto nº 12.437/2025), aplicável a esta meta, apenas o nomeia" in aviso
    )
    assert "Código Penal, art. 109 (texto não transcrito): 3, 4, 8, 12, 16, 20 anos" in aviso
    assert "pode subsistir" not in aviso


def test_meta_de_2024_aviso_cita_so_a_lei() -> None:
    # W1: the 2024 target (due 31/12/2024) keeps the original wording, which names no crime
    aviso = _aviso_penal(calcular_prazos(_da_meta(2024, "2025-01-01")))
    assert "Se o fato é crime decide aquela lei, não o decreto." in aviso
    assert "nomeia" not in aviso and "12.437" not in aviso


def test_prescrito_da_meta_diz_que_a_pretensao_pode_subsistir() -> None:
    # infração 01/01/2019 (target of 2018, due 31/12/2018... the date given), no act: 01/01/2024
    r = calcular_prazos(_da_meta(2018, "2019-01-01"))
    assert r["estado"] == "prescrito"
    assert "a pretensão pode subsistir" in _aviso_penal(r)


def test_com_o_prazo_penal_informado_nao_ha_aviso() -> None:
    r = calcular_prazos(_da_meta(2025, "2026-01-01", prescricao_penal_anos=4))
    assert not any("crime do art. 68" in a for a in r["avisos"])
    assert prazos(r)["prescricao"] == ("2030-01-01", "em_aberto")  # 01/01/2026 + 4


def test_processo_sem_origem_nao_tem_aviso() -> None:
    r = calcular_prazos(anp(*EVENTOS))
    assert not any("crime do art. 68" in a for a in r["avisos"])
