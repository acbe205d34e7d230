"""Decreto 9.888/2019 art. 6º-B: the biofuel producer's fine (from 2025). Spec § 3.2."""

from __future__ import annotations

from typing import Any

import pytest

from tests.utils import calc, erro

BASE: dict[str, Any] = {
    "regime": "renovabio.produtor",
    "ano": 2025,
    "cbios_nao_pagos": 300_000,
    "maior_media_mensal": "70.43",
}


def caso(**mudancas: Any) -> dict[str, Any]:
    return calc(**{**BASE, **mudancas})


def test_art6B_par1_cbios_nao_pagos_vezes_maior_media() -> None:
    assert caso()["valor"] == "21129000.00"


def test_art6B_zero_cbios_nao_pagos_nao_tem_multa() -> None:
    assert caso(cbios_nao_pagos=0)["valor"] == "0.00"


def test_art6B_par2_inciso_I_piso() -> None:
    assert caso(cbios_nao_pagos=10, maior_media_mensal="38.29")["valor"] == "100000.00"


def test_art6B_par2_inciso_II_teto_de_50_milhoes() -> None:
    assert caso(cbios_nao_pagos=1_000_000)["valor"] == "50000000.00"


def test_art6B_par3_dobro_com_dados_primarios() -> None:
    assert caso(dados_primarios=True)["valor"] == "42258000.00"


def test_art6B_par3_dobro_respeita_o_teto() -> None:
    assert caso(cbios_nao_pagos=500_000, dados_primarios=True)["valor"] == "50000000.00"


def test_art6B_par4_limite_do_faturamento_exceto_piso_dobrado() -> None:
    r = caso(
        cbios_nao_pagos=1000,
        maior_media_mensal="60",
        dados_primarios=True,
        faturamento_ano_meta="1000000",
        faturamento_ano_anterior="1000000",
    )
    assert r["valor"] == "200000.00"


def test_art6B_par4_limite_do_faturamento() -> None:
    r = caso(faturamento_ano_meta="100000000", faturamento_ano_anterior="300000000")
    assert r["valor"] == "10000000.00"
    assert {a["interpretacao"]["faturamento"]: a["valor"] for a in r["alternativas"]} == {
        "maior": "15000000.00",
        "menor": "5000000.00",
    }


def test_regime_nao_vigente_antes_de_2025() -> None:
    e = erro(**{**BASE, "ano": 2024})
    assert e.campo == "ano"
    assert "regime não vigente" in e.mensagem


def test_dados_primarios_so_booleano_json() -> None:
    assert erro(**{**BASE, "dados_primarios": "sim"}).campo == "dados_primarios"
    assert erro(**{**BASE, "dados_primarios": 1}).campo == "dados_primarios"


# --- what the user reads, pinned by equality --------------------------------------------------

ART6B = "Decreto nº 9.888/2019, art. 6º-B"
INCLUIDO = "(incluído pelo Decreto nº 12.437/2025)"


def _passos(r: dict[str, Any], de: int = 0) -> list[tuple[str, Any, str, str]]:
    return [(p["descricao"], p["valor"], p["tipo"], p["fundamento"]) for p in r["passos"][de:]]


def test_art6B_zero_cbios_nao_pagos_resultado_completo() -> None:
    r = caso(cbios_nao_pagos=0)
    assert (r["regime"], r["valor"], r["fundamento"]) == ("renovabio.produtor", "0.00", ART6B)
    assert r["vigencia"] == {"data_referencia": "2025-12-31", "redacao": f"{ART6B} {INCLUIDO}"}
    assert (r["avisos"], r["alternativas"]) == ([], [])
    assert _passos(r) == [
        (
            "Lei aplicada (tempus regit actum): a vigente na data da infração (o fim do exercício "
            "de 2025)",
            "2025-12-31",
            "data",
            f"{ART6B}, caput {INCLUIDO}",
        ),
        (
            "CBIOs que deixaram de ser pagos ao produtor de cana",
            "0",
            "inteiro",
            f"{ART6B}, § 1º {INCLUIDO}",
        ),
        (
            "Nenhum CBIO deixou de ser pago: não há multa",
            "0.00",
            "quantia",
            f"{ART6B}, § 1º {INCLUIDO}",
        ),
    ]


def test_art6B_par1_cotacoes_mensais_do_exercicio() -> None:
    # monthly quotes, not a given highest mean: the year of the case picks the months
    r = caso(
        maior_media_mensal=None,
        cotacoes_mensais={"2025-03": "60", "2025-07": "75.5", "2024-12": "99", "2026-01": "1"},
    )
    assert (r["regime"], r["valor"], r["fundamento"]) == (
        "renovabio.produtor",
        "22650000.00",
        ART6B,
    )
    assert _passos(r)[2] == (
        "Maior média mensal das cotações do CBIO em 2025 (07/2025): R$ 75,5000 "
        "(fonte: cotações informadas na entrada)",
        "75.50",
        "quantia",
        f"{ART6B}, § 1º {INCLUIDO}",
    )
    assert r["avisos"] == [
        "Cotações fora do exercício de 2025 foram ignoradas: 2024-12, 2026-01.",
        "as cotações não cobrem todo o exercício de 2025 (sem cotações em 01/2025, 02/2025, "
        "04/2025, 05/2025, 06/2025, 08/2025, 09/2025, 10/2025, 11/2025, 12/2025): a maior média "
        "mensal do exercício pode ser outra",
        f"Faturamentos não informados: o limite de 5% do faturamento ({ART6B}, § 4º) não foi "
        "aplicado.",
    ]


def test_art6B_par1_nenhuma_cotacao_no_exercicio_mensagem() -> None:
    e = erro(**{**BASE, "maior_media_mensal": None, "cotacoes_mensais": {"2024-12": "99"}})
    assert (e.campo, e.mensagem) == ("cotacoes_mensais", "nenhuma cotação no exercício de 2025")


def test_art6B_par4_faturamento_de_referencia_nomeia_os_dois_anos() -> None:
    r = caso(faturamento_ano_meta="100000000", faturamento_ano_anterior="300000000")
    assert _passos(r, -4)[:3] == [
        (
            "Faturamento de referência: média dos faturamentos de 2025 e 2024 "
            "(R$ 100.000.000,00 e R$ 300.000.000,00; leitura Faturamento: média dos dois anos)",
            "200000000.00",
            "quantia",
            f"{ART6B}, § 4º {INCLUIDO}",
        ),
        (
            "Limite: 5% do faturamento de referência (R$ 200.000.000,00)",
            "10000000.00",
            "quantia",
            f"{ART6B}, § 4º {INCLUIDO}",
        ),
        (
            "Multa de R$ 21.129.000,00 acima do limite do faturamento (R$ 10.000.000,00), que "
            "não fica abaixo do piso de R$ 100.000,00: multa limitada ao percentual do "
            "faturamento",
            "10000000.00",
            "quantia",
            f"{ART6B}, § 4º {INCLUIDO}",
        ),
    ]


@pytest.mark.parametrize(("dia", "vigente"), [("2024-12-31", False), ("2025-01-01", True)])
def test_art6B_vigente_desde_01_01_2025(dia: str, vigente: bool) -> None:
    if not vigente:
        e = erro(**{**BASE, "data_referencia": dia})
        assert (e.campo, e.mensagem) == (
            "data_referencia",
            "regime não vigente: renovabio.produtor não existia na data de referência "
            "31/12/2024 (vigente a partir de 01/01/2025)",
        )
        return
    r = caso(ano=2030, data_referencia=dia)
    assert r["vigencia"] == {"data_referencia": dia, "redacao": f"{ART6B} {INCLUIDO}"}
    assert _passos(r)[0][:2] == (
        'Lei aplicada: a vigente na data de referência informada ("e se"), em vez da data da '
        "infração (o fim do exercício de 2030): 31/12/2030",
        dia,
    )


def test_art6B_ano_2024_nao_vigente_mensagem() -> None:
    e = erro(**{**BASE, "ano": 2024})
    assert (e.campo, e.mensagem) == (
        "ano",
        "regime não vigente: renovabio.produtor não existia na data de referência 31/12/2024 "
        "(vigente a partir de 01/01/2025)",
    )


ENTRE = "entre o piso de R$ 100.000,00 e o teto de R$ 50.000.000,00: aplica-se o valor calculado"


@pytest.mark.parametrize(
    ("cbios", "passo", "valor"),
    [
        (
            1000,
            "Valor obtido de R$ 99.990,00 inferior ao piso de R$ 100.000,00: aplica-se o piso "
            "(caso do piso)",
            "100000.00",
        ),
        (1001, f"Valor obtido de R$ 100.100,00 {ENTRE}", "100100.00"),
        (500_000, f"Valor obtido de R$ 50.000.000,00 {ENTRE}", "50000000.00"),
        (
            500_001,
            "Valor obtido de R$ 50.000.100,00 superior ao teto de R$ 50.000.000,00: aplica-se o "
            "teto",
            "50000000.00",
        ),
    ],
)
def test_art6B_par2_piso_e_teto_nos_dois_lados(cbios: int, passo: str, valor: str) -> None:
    # 1000 × 99,99 = 99.990,00 < floor; 1001 × 100 = 100.100,00; 500 000 × 100 = the ceiling
    preco = "99.99" if cbios == 1000 else "100"
    r = caso(cbios_nao_pagos=cbios, maior_media_mensal=preco)
    assert (_passos(r)[4][0], r["valor"]) == (passo, valor)
