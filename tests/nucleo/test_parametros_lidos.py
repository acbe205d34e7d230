"""Every numeric parameter is read by some rule (issue 17, item 4): a value in the parameter
files that no rule reads is a law the engine claims to know and silently ignores. A fresh
legislation (its own record of what was read) runs the spec's worked cases and one processo
of each lifecycle path; then every parameter with a number must have been asked for."""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

from multas import calcular
from multas.nucleo.ciclo import calcular_prazos
from multas.nucleo.ciclo.carteira import calcular_carteira, ler_ano
from multas.nucleo.ciclo.parcelamento import simular
from multas.nucleo.legislacao import Legislacao, ler_textos

RAIZ = Path(__file__).resolve().parents[2]
PARAMETROS = RAIZ / "src" / "multas" / "nucleo" / "legislacao" / "parametros"


MORTO = """
["x.morto"]
descricao = "Um valor que nenhuma regra lê"
unidade = "dias"

[["x.morto".vigencias]]
inicio = 2020-01-01
valor = 7
dispositivo = "Decreto fictício, art. 1º"
fonte = "teste"
"""


def _fresca(**extra: str) -> Legislacao:
    textos = {p.name: p.read_text(encoding="utf-8") for p in PARAMETROS.glob("*.toml")}
    return ler_textos(textos | extra)


def _processos() -> list[dict[str, object]]:
    def proc(tipo: str, *eventos: tuple[str, str]) -> dict[str, object]:
        return {
            "tipo": tipo,
            "eventos": [{"evento": e, "data": d} for e, d in eventos],
            "data_referencia": "2026-12-01",
        }

    inicio = (("infracao", "2023-01-02"), ("auto_infracao", "2023-02-01"))
    return [
        proc(
            "anp",
            *inicio,
            ("intimacao_alegacoes_finais", "2023-06-01"),
            ("alegacoes_finais", "2023-06-05"),
            ("remessa_julgamento", "2023-06-12"),
        ),
        proc(
            "anp",
            *inicio,
            ("ciencia_primeira_instancia", "2025-02-21"),
            ("renuncia_recurso", "2025-02-24"),
        ),
        proc(
            "anp",
            *inicio,
            ("ciencia_primeira_instancia", "2023-09-01"),
            ("recurso", "2023-09-05"),
            ("ciencia_decisao_definitiva", "2024-03-01"),
            ("inscricao_divida_ativa", "2024-06-03"),
        ),
        proc(
            "renovabio.lista",
            ("fim_prazo_meta", "2025-12-31"),
            ("decisao_primeira_instancia", "2026-02-06"),
            ("inclusao_lista", "2026-02-09"),
            ("quitacao_meta", "2026-02-10"),
            ("pedido_retirada", "2026-02-12"),
        ),
        proc(
            "renovabio.balanco",
            ("inclusao_lista", "2026-04-01"),
            ("comprovacao_adequacao", "2026-04-14"),
        ),
        # spec § 6.2 v4: a parcelamento, its instalments and its rescission
        {
            "tipo": "anp",
            "valor_multa": "10000.00",
            "eventos": [
                {"evento": "infracao", "data": "2024-01-10"},
                {"evento": "auto_infracao", "data": "2024-02-01"},
                {"evento": "ciencia_primeira_instancia", "data": "2024-06-03"},
                {"evento": "ciencia_decisao_definitiva", "data": "2024-06-05"},
                {
                    "evento": "parcelamento",
                    "data": "2024-07-31",
                    "parcelas": 12,
                    "valor_consolidado": "7210.00",
                },
            ],
            "data_referencia": "2024-12-01",
        },
    ]


def _nao_lidos(legislacao: Legislacao) -> set[str]:
    """Run the worked cases and the lifecycle; the numeric parameters nothing asked for."""
    for arquivo in sorted((RAIZ / "tests" / "casos_spec").glob("*.json")):
        caso = json.loads(arquivo.read_text(encoding="utf-8"), parse_float=Decimal)
        calcular(caso["entrada"], legislacao=legislacao)
    for processo in _processos():
        calcular_prazos(processo, legislacao=legislacao)
    anos = [
        ler_ano({"cnpj": "12.345.678/0001-95", "ano": ano, "meta_cbios": 1000, **extra})
        for ano, extra in (
            (2024, {"cbios_aposentados": 1000}),
            (2025, {"cbios_aposentados": 900, "maior_media_mensal": "100"}),
        )
    ]
    calcular_carteira(anos, legislacao=legislacao)
    # spec § 6.2 v4: the instalments' schedule (multas parcelamento simular)
    simular(Decimal("1200.00"), 12, date(2024, 1, 31), legislacao)
    numericos = {
        nome
        for nome, parametro in legislacao.parametros.items()
        if any(
            isinstance(v.valor, int | Fraction) and not isinstance(v.valor, bool)
            for v in parametro.vigencias
        )
    }
    assert numericos, "nenhum parâmetro numérico?"
    return numericos - legislacao.lidos


def test_todo_parametro_numerico_e_lido_por_alguma_regra() -> None:
    assert not _nao_lidos(_fresca())


def test_um_parametro_que_ninguem_le_e_apontado() -> None:
    assert _nao_lidos(_fresca(**{"morto.toml": MORTO})) == {"x.morto"}
