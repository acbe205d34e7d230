"""§ 6 at its edges, each case pinned to its exact output: a limitation period's last day (an
act on it still counts), a suspension that starts on the reference day or lasts past it, an
event inside a suspension, deadlines that would pass 31/12/9999 (the error names the deadline
and the event it counts from), the inscription in Dívida Ativa, the payment after the
discount and after the due date. Found by mutation testing (docs/mutacao.md): each test fails
on a mutant the older tests let through."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from multas.nucleo.ciclo.prazos import calcular_prazos
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.rotulos import evento_citado, prazo_citado

#: a processo anp up to the ciência of the first-instance decision: the limitation period
#: runs from that ciência (01/05/2020) to 01/05/2025
BASE = [
    ("infracao", "2020-01-10"),
    ("auto_infracao", "2020-02-10"),
    ("defesa", "2020-02-20"),
    ("ciencia_primeira_instancia", "2020-05-01"),
]


def analisar(
    eventos: list[tuple[str, str]], referencia: str, tipo: str = "anp", **campos: Any
) -> dict[str, Any]:
    dados = {
        "tipo": tipo,
        "eventos": [{"evento": e, "data": d} for e, d in eventos],
        "data_referencia": referencia,
        **campos,
    }
    return calcular_prazos(dados)


def prazos(resultado: dict[str, Any]) -> dict[str, tuple[str, str]]:
    return {p["prazo"]: (p["data"], p["situacao"]) for p in resultado["prazos"]}


def contagem(resultado: dict[str, Any], nome: str) -> str:
    return str(next(p["contagem"] for p in resultado["prazos"] if p["prazo"] == nome))


# --- the limitation period's last day --------------------------------------------------------


def test_pagamento_no_ultimo_dia_da_prescricao_a_encerra() -> None:
    r = analisar([*BASE, ("pagamento", "2025-05-01")], "2026-12-01")
    assert prazos(r)["prescricao"] == ("2025-05-01", "encerrado")
    assert r["estado"] == "pago"


def test_pagamento_um_dia_depois_chega_tarde() -> None:
    r = analisar([*BASE, ("pagamento", "2025-05-02")], "2026-12-01")
    assert r["estado"] == "prescrito"
    assert prazos(r)["prescricao"] == ("2025-05-01", "vencido")
    assert r["avisos"][-1] == (
        "Prazo “Prescrição da ação punitiva” (prescricao) prescrito: a prescrição da ação punitiva consumou-se em 01/05/2025, "
        "antes do evento “Pagamento” (pagamento) (02/05/2025); atos posteriores não a fazem renascer."
    )


def test_no_ultimo_dia_a_prescricao_ainda_nao_se_consumou() -> None:
    r = analisar(BASE, "2025-05-01")
    assert prazos(r)["prescricao"] == ("2025-05-01", "em_aberto")
    assert r["estado"] != "prescrito"
    assert analisar(BASE, "2025-05-02")["estado"] == "prescrito"


def test_decisao_definitiva_no_ultimo_dia_afasta_a_prescricao() -> None:
    # a late appeal (01/05/2022) restarts the 3-year wait up to 01/05/2025, the same day
    r = analisar(
        [*BASE, ("recurso", "2022-05-01"), ("ciencia_decisao_definitiva", "2025-05-01")],
        "2026-12-01",
        valor_multa="1000.00",
    )
    assert r["estado"] == "aguardando_pagamento"
    assert set(prazos(r)) == {"defesa", "recurso", "pagamento", "prescricao_cobranca"}


def test_contagem_da_infracao_e_de_29_de_fevereiro() -> None:
    r = analisar([("infracao", "2020-02-29")], "2021-01-01")
    assert contagem(r, "prescricao") == (
        "5 anos contados de 29/02/2020 (a infração): 29/02 não existe em 2025, então o dia "
        "seguinte, 01/03/2025 (sábado) (Lei nº 810/1949, art. 3º); não é prorrogado para dia "
        "útil (prazo de prescrição, não prazo da parte)"
    )


def test_prescricao_intercorrente_contada_do_recurso() -> None:
    r = analisar([*BASE, ("recurso", "2020-05-05")], "2026-12-01")
    assert prazos(r)["prescricao_intercorrente"] == ("2023-05-05", "vencido")
    assert contagem(r, "prescricao_intercorrente") == (
        "3 anos contados de 05/05/2020 (recurso: o processo aguarda julgamento ou despacho): o "
        "mesmo dia e mês, 05/05/2023 (sexta-feira); não é prorrogado para dia útil (prazo de "
        "prescrição, não prazo da parte)"
    )


# --- suspensions -----------------------------------------------------------------------------


def test_suspensao_sem_outro_ato_pausa_a_prescricao_da_infracao() -> None:
    r = analisar(
        [
            ("infracao", "2020-01-10"),
            ("suspensao_judicial", "2020-03-01"),
            ("fim_suspensao_judicial", "2020-09-01"),
        ],
        "2021-01-01",
    )
    assert prazos(r)["prescricao"] == ("2025-07-13", "em_aberto")
    assert contagem(r, "prescricao") == (
        "5 anos contados de 10/01/2020 (a infração): o mesmo dia e mês, 10/01/2025 "
        "(sexta-feira); não é prorrogado para dia útil (prazo de prescrição, não prazo da "
        "parte); acrescido de 184 dias corridos em que a prescrição não correu (suspensão "
        "judicial ou inscrição em Dívida Ativa): 13/07/2025 (domingo)"
    )


def test_suspensao_que_comeca_na_data_de_referencia_ja_vigora() -> None:
    r = analisar([*BASE, ("suspensao_judicial", "2021-01-05")], "2021-01-05")
    assert r["estado"] == "suspenso"
    # the day of the reference is already a day without limitation running
    assert prazos(r)["prescricao"] == ("2025-05-02", "suspenso")


def test_suspensao_que_termina_depois_da_data_de_referencia_vigora_nela() -> None:
    r = analisar(
        [*BASE, ("suspensao_judicial", "2021-01-05"), ("fim_suspensao_judicial", "2021-06-01")],
        "2021-03-01",
    )
    assert r["estado"] == "suspenso"
    # the appeal deadline lapsed before the order (05/01/2021): it stays vencido (spec v4
    # § 3.7 point 5, vencido-antes-da-suspensao)
    assert prazos(r)["recurso"] == ("2020-05-11", "vencido")
    assert prazos(r)["prescricao"] == ("2025-09-25", "suspenso")


def test_evento_durante_a_suspensao_nao_a_encerra() -> None:
    r = analisar(
        [
            ("infracao", "2020-01-10"),
            ("auto_infracao", "2020-02-10"),
            ("suspensao_judicial", "2020-03-01"),
            ("defesa", "2020-04-01"),
            ("fim_suspensao_judicial", "2020-09-01"),
        ],
        "2021-01-01",
    )
    # 01/03 to 01/09/2020: 184 days, not the 31 up to the defesa
    assert prazos(r)["prescricao"] == ("2025-08-13", "em_aberto")
    assert prazos(r)["prescricao_intercorrente"] == ("2023-08-31", "em_aberto")


def test_suspensao_aberta_em_31_12_9999() -> None:
    r = analisar(
        [
            ("infracao", "9990-01-10"),
            ("auto_infracao", "9990-02-10"),
            ("suspensao_judicial", "9991-03-01"),
        ],
        "9999-12-31",
    )
    assert r["estado"] == "suspenso"
    assert prazos(r)["prescricao"] == ("9999-12-31", "suspenso")


# --- collection --------------------------------------------------------------------------------


def test_inscricao_em_divida_ativa_suspende_a_cobranca_por_180_dias() -> None:
    r = analisar(
        [
            *BASE,
            ("recurso", "2020-05-05"),
            ("ciencia_decisao_definitiva", "2021-03-01"),
            ("inscricao_divida_ativa", "2021-06-01"),
        ],
        "2026-12-01",
        valor_multa="1000.00",
    )
    assert prazos(r)["prescricao_cobranca"] == ("2026-09-27", "vencido")
    assert "suspende a prescrição por 180 dias" in contagem(r, "prescricao_cobranca")


def test_suspensao_judicial_pausa_a_cobranca() -> None:
    r = analisar(
        [
            *BASE,
            ("recurso", "2020-05-05"),
            ("ciencia_decisao_definitiva", "2021-03-01"),
            ("suspensao_judicial", "2021-06-01"),
            ("fim_suspensao_judicial", "2021-12-01"),
        ],
        "2026-12-01",
        valor_multa="1000.00",
    )
    assert prazos(r)["prescricao_cobranca"] == ("2026-09-30", "vencido")
    assert contagem(r, "prescricao_cobranca").endswith(
        "o mesmo dia e mês, 31/03/2026 (terça-feira); não é prorrogado para dia útil (prazo de "
        "prescrição, não prazo da parte); acrescido de 183 dias corridos em que a prescrição "
        "não correu (suspensão judicial ou inscrição em Dívida Ativa): 30/09/2026 (quarta-feira)"
    )


def test_pagamento_depois_do_desconto_e_do_vencimento() -> None:
    renuncia = [*BASE, ("renuncia_recurso", "2020-05-03")]
    tarde = analisar([*renuncia, ("pagamento", "2020-06-05")], "2026-12-01", valor_multa="1000")
    no_vencimento = analisar(
        [*renuncia, ("pagamento", "2020-06-02")], "2026-12-01", valor_multa="1000"
    )
    inicio = (
        "ocorreu {} dias corridos depois do prazo “Pagamento com redução (renúncia ao recurso)” (pagamento_com_desconto) (11/05/2020): o "
        "desconto foi perdido, porque a redução de 30% (Lei nº 9.847/1999, art. 4º, § 3º) só "
        "vale no prazo do recurso, e a multa é devida integralmente"
    )
    assert (
        "O evento “Pagamento” (pagamento) (05/06/2020) "
        + inicio.format(25)
        + "; foi também depois do vencimento (02/06/2020), 3 dias corridos de atraso, com juros "
        "e multa de mora."
    ) in tarde["avisos"]
    assert (
        "O evento “Pagamento” (pagamento) (02/06/2020) " + inicio.format(22) + "."
    ) in no_vencimento["avisos"]


# --- the day the analysis is judged on --------------------------------------------------------


def test_sem_data_de_referencia_vale_o_hoje_dado() -> None:
    dados = {
        "tipo": "anp",
        "eventos": [
            {"evento": "infracao", "data": "2019-12-01"},
            {"evento": "auto_infracao", "data": "2019-12-10"},
        ],
    }
    r = calcular_prazos(dados, hoje=date(2019, 12, 12))
    assert prazos(r)["defesa"][1] == "em_aberto"
    assert prazos(calcular_prazos(dados, hoje=date(2020, 12, 12)))["defesa"][1] == "vencido"


def test_limite_de_reducao_fora_do_calendario_transcrito_nao_avisa() -> None:
    """The 11 months of the reduction are not counted in business days: a year without a
    transcribed calendar is no reason for an aviso (the balanço's 5 business days are)."""
    lista = analisar([("fim_prazo_meta", "2030-03-31")], "2030-04-01", tipo="renovabio.lista")
    assert prazos(lista) == {"limite_reducao": ("2031-02-28", "em_aberto")}
    assert lista["avisos"] == []
    balanco = analisar(
        [("inclusao_lista", "2030-03-31"), ("comprovacao_adequacao", "2030-04-02")],
        "2030-04-03",
        tipo="renovabio.balanco",
    )
    assert balanco["avisos"] == ["calendário de 2030 não transcrito: usado o padrão"]


# --- past 31/12/9999 ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tipo", "eventos", "campo", "prazo", "origem"),
    [
        ("anp", [("infracao", "9996-01-10")], "eventos[0].data", "prescricao", "infracao"),
        (
            "anp",
            [("infracao", "9994-03-10"), ("auto_infracao", "9995-06-10")],
            "eventos[1].data",
            "prescricao",
            "auto_infracao",
        ),
        (
            "anp",
            [
                ("infracao", "9994-01-10"),
                ("auto_infracao", "9994-06-10"),
                ("ciencia_primeira_instancia", "9994-08-10"),
                ("recurso", "9997-03-01"),
            ],
            "eventos[3].data",
            "prescricao_intercorrente",
            "recurso",
        ),
        (
            "anp",
            [
                ("infracao", "9990-01-10"),
                ("auto_infracao", "9990-02-10"),
                ("ciencia_primeira_instancia", "9991-01-15"),
                ("ciencia_decisao_definitiva", "9994-12-20"),
            ],
            "eventos[3].data",
            "prescricao_cobranca",
            "ciencia_decisao_definitiva",
        ),
        (
            # the due date falls in 9995 (31/12/9994 is not a business day): its 5 years pass
            "anp",
            [
                ("infracao", "9990-01-10"),
                ("auto_infracao", "9990-02-10"),
                ("ciencia_primeira_instancia", "9991-01-15"),
                ("recurso", "9992-06-01"),
                ("ciencia_decisao_definitiva", "9994-12-01"),
            ],
            "eventos[4].data",
            "prescricao_cobranca",
            "ciencia_decisao_definitiva",
        ),
        (
            "renovabio.lista",
            [("fim_prazo_meta", "9999-03-31")],
            "eventos[0].data",
            "limite_reducao",
            "fim_prazo_meta",
        ),
        (
            "renovabio.lista",
            [
                ("fim_prazo_meta", "9998-12-31"),
                ("decisao_primeira_instancia", "9999-11-01"),
                ("inclusao_lista", "9999-11-02"),
                ("quitacao_meta", "9999-12-20"),
                ("pedido_retirada", "9999-12-28"),
            ],
            "eventos[4].data",
            "retirada_lista",
            "pedido_retirada",
        ),
        (
            "renovabio.balanco",
            [("inclusao_lista", "9999-12-20"), ("comprovacao_adequacao", "9999-12-28")],
            "eventos[1].data",
            "retirada_lista",
            "comprovacao_adequacao",
        ),
    ],
)
def test_prazo_que_passaria_de_9999_nomeia_o_prazo_e_o_evento(
    tipo: str, eventos: list[tuple[str, str]], campo: str, prazo: str, origem: str
) -> None:
    with pytest.raises(EntradaInvalida) as erro:
        analisar(
            eventos, "9999-12-31", tipo=tipo, **({"valor_multa": "1"} if tipo == "anp" else {})
        )
    assert erro.value.campo == campo
    assert erro.value.mensagem == (
        f"data fora do intervalo calculável: o prazo {prazo_citado(prazo)}, contado do evento "
        f"{evento_citado(origem)}, passaria de 31/12/9999"
    )


def test_dias_uteis_que_atravessam_o_ano_citam_os_dois_calendarios() -> None:
    r = analisar(
        [("inclusao_lista", "2025-12-01"), ("comprovacao_adequacao", "2025-12-26")],
        "2025-12-27",
        tipo="renovabio.balanco",
    )
    assert prazos(r)["retirada_lista"] == ("2026-01-05", "em_aberto")
    texto = contagem(r, "retirada_lista")
    assert "calendário federal de 2025 (Portaria MGI nº 9.783" in texto
    assert "calendário federal de 2026 (Portaria MGI nº 11.460" in texto
    assert texto.startswith("5º dia útil depois de 26/12/2025 (comprovação da adequação do ")


def test_pausa_da_inscricao_que_passaria_de_9999_para_em_31_12_9999() -> None:
    """The inscription's 180 days (from 01/10/9999) pass the calendar: the collection's
    deadline stops at 31/12/9999, the last day that can be computed, with the 30 days counted."""
    r = analisar(
        [
            ("infracao", "9990-01-10"),
            ("auto_infracao", "9990-02-10"),
            ("ciencia_primeira_instancia", "9991-01-15"),
            ("recurso", "9992-06-01"),
            ("ciencia_decisao_definitiva", "9994-11-01"),
            ("inscricao_divida_ativa", "9999-10-01"),
        ],
        "9999-12-31",
        valor_multa="1",
    )
    assert prazos(r)["prescricao_cobranca"] == ("9999-12-31", "em_aberto")
    assert contagem(r, "prescricao_cobranca").endswith(
        "acrescido de 30 dias corridos em que a prescrição não correu (suspensão judicial ou "
        "inscrição em Dívida Ativa): 31/12/9999 (sexta-feira)"
    )
