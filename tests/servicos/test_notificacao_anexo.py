"""The notice's annex of daily quotes (spec § 3.1 v4: the daily quotes become one line and an
optional annex): the days that priced the fine, their volumes under the weighted mean."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

from multas.nucleo.arquivos import Local
from multas.nucleo.contrato import Leitura
from multas.nucleo.cotacoes import Serie
from multas.nucleo.legislacao import carregar
from multas.nucleo.preco import Cotacao
from multas.servicos.ano import calcular_ano, prazos_da_notificacao
from multas.servicos.notificacao import montar

LEGISLACAO = carregar()


def test_anexo_lista_as_cotacoes_so_com_volume() -> None:
    serie = Serie(
        diarias=(
            Cotacao(date(2024, 1, 2), None, 10, Decimal("900")),
            Cotacao(date(2024, 1, 3), None, 10, Decimal("1000")),
        )
    )
    r = calcular_ano(
        [{"cnpj": "11.222.333/0001-81", "meta_cbios": "100000", "cbios_aposentados": "0"}],
        [Local(2)],
        Leitura(tabela=True),
        2024,
        serie,
        LEGISLACAO,
        com_calculo=True,
    )
    n = montar(
        "001/2024",
        r["resultados"][0],
        r["lidas"][0].entrada,
        {},
        LEGISLACAO,
        prazos_da_notificacao(LEGISLACAO, 2024, None),
        None,
        anexo=True,
    )
    assert len(n.anexo) == 2  # both days that priced the fine
