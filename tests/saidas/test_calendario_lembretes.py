"""The calendar's reminders (issue 37, item 12): each open deadline of the ``.ics`` carries one
``VALARM`` per lead time of :data:`multas.saidas.exportar.LEMBRETES_DIAS`, at
:data:`~multas.saidas.exportar.HORA_DO_LEMBRETE` o'clock; an overdue or met one, none."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from icalendar import Calendar

from multas.saidas.exportar import HORA_DO_LEMBRETE, LEMBRETES_DIAS, calendario_ics
from tests.utils.processos import PENDENCIA as ITEM

GERADO = datetime(2025, 1, 10, tzinfo=UTC)


def _alarmes(item: dict[str, Any]) -> list[Any]:
    evento = Calendar.from_ical(calendario_ics([item], GERADO)).walk("VEVENT")[0]
    return list(evento.walk("VALARM"))


def test_prazo_em_aberto_tem_um_lembrete_por_antecedencia() -> None:
    assert LEMBRETES_DIAS == (7, 1) and HORA_DO_LEMBRETE == 9  # what docs/ciclo.md says
    alarmes = _alarmes(ITEM)
    assert [a["TRIGGER"].dt for a in alarmes] == [
        timedelta(days=-d, hours=HORA_DO_LEMBRETE) for d in LEMBRETES_DIAS
    ]
    assert [str(a["ACTION"]) for a in alarmes] == ["DISPLAY", "DISPLAY"]
    assert (
        str(alarmes[0]["DESCRIPTION"]) == "Vence em 7 dias: Pagamento (vencimento): Posto Exemplo"
    )
    assert str(alarmes[1]["DESCRIPTION"]).startswith("Vence amanhã: ")
    texto = calendario_ics([ITEM], GERADO).decode()
    assert "TRIGGER:-P6DT15H" in texto and "TRIGGER:-PT15H" in texto  # 09:00 of those days


def test_prazo_vencido_ou_cumprido_nao_tem_lembrete() -> None:
    assert _alarmes(ITEM | {"situacao": "vencido", "dias_de_atraso": 3}) == []
    assert _alarmes(ITEM | {"encerrado": True}) == []
