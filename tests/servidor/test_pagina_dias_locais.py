"""Issue 18, spec v3 § 1: the calendar's local and conditional dates are listed apart and never
applied; the page offers them under ``dias_sem_expediente`` (anp.mora), for the years of the
form's dates (or the current year of the clock), and only a date the user adds counts.
The click in a real browser is in test_navegador.py."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, date, datetime
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from multas.nucleo.legislacao import carregar
from multas.servidor import criar_app
from multas.servidor.formulario import formulario, sugestoes_de_dias
from tests.utils.paginas import caixas

MORA = {
    "regime": "anp.mora",
    "principal": "100.000,00",
    "data_ciencia": "2025-04-02",  # 30 days end on Friday 02/05/2025
    "data_pagamento": "2025-05-05",
}


# not the shared cliente: a server error raises in the test (raise_server_exceptions stays on)
@pytest.fixture
def cliente(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(criar_app(f"sqlite:///{tmp_path / 'multas.db'}")) as c:
        yield c


def _vencimento(html: str) -> str:
    casamento = re.search(r"<dt>Vencimento</dt><dd>([^<]+)</dd>", html)
    assert casamento, "o resultado não mostra o vencimento"
    return casamento.group(1)


def test_as_sugestoes_sao_as_datas_fora_do_nacional_dos_anos_do_formulario() -> None:
    form, calendario = formulario("anp.mora"), carregar().calendario
    s = sugestoes_de_dias(form, MORA, calendario, date(2031, 7, 15))
    assert s is not None and s.campo == "dias_sem_expediente"
    assert s.anos == [2025] and not s.do_relogio
    assert [(d.texto, d.ambito, d.escolhido) for d in s.dias] == [
        ("02/05/2025", "ato condicional", False)
    ]
    assert "Portaria MGI nº 3.197/2025" in s.dias[0].ato
    # from the earliest to the latest date typed (dd/mm/aaaa too); a date already in the field
    # comes back chosen, in either notation
    s = sugestoes_de_dias(
        form,
        {
            "data_ciencia": "31/10/2020",
            "data_pagamento": "2022-12-30",
            "dias_sem_expediente": "2020-11-30; 20/06/2022",
        },
        calendario,
        date(2031, 7, 15),
    )
    assert s is not None and s.anos_texto == "2020 a 2022"
    assert [(d.data, d.nome, d.escolhido) for d in s.dias] == [
        ("2020-11-30", "Dia do Evangélico", True),
        ("2022-11-30", "Dia do Evangélico", False),
    ]
    # no valid date yet: the clock's year (given, never the system's); an unreadable date is
    # the engine's to refuse, not a reason to fail here
    s = sugestoes_de_dias(form, {"data_ciencia": "31/02/2022"}, calendario, date(2022, 3, 1))
    assert s is not None and s.do_relogio and s.anos == [2022]
    assert [d.data for d in s.dias] == ["2022-11-30"]
    s = sugestoes_de_dias(form, {}, calendario, date(2031, 7, 15))
    assert s is not None and s.dias == []
    # a form with no list of dates offers nothing
    assert sugestoes_de_dias(formulario("anp.infracao"), MORA, calendario, date(2025, 1, 1)) is None


def test_a_pagina_oferece_a_data_condicional_e_nao_a_aplica(cliente: TestClient) -> None:
    html = cliente.get("/", params=MORA).text
    lidas = caixas(html)
    assert set(lidas.caixas) == {"2025-05-02"}
    caixa = lidas.caixas["2025-05-02"]
    assert caixa["type"] == "checkbox" and caixa["id"] in lidas.rotulos  # labelled
    assert "checked" not in caixa and "name" not in caixa  # not chosen, never sent by itself
    assert caixa["value"] == "02/05/2025" and caixa["data-campo"] == "campo-dias_sem_expediente"
    assert "Atos locais ou condicionais de 2025" in html
    assert "02/05/2025 (sexta-feira)</strong>" in html and "ato condicional" in html

    # computed as typed: the date is offered, not applied
    sem = cliente.post("/calcular", data={**MORA, "dias_sem_expediente": ""})
    assert sem.status_code == 200
    assert _vencimento(sem.text) == "02/05/2025"
    assert "checked" not in caixas(sem.text).caixas["2025-05-02"]
    # added by the user: the deadline moves to Monday, and the box shows it chosen
    com = cliente.post("/calcular", data={**MORA, "dias_sem_expediente": "02/05/2025"})
    assert _vencimento(com.text) == "05/05/2025"
    assert "checked" in caixas(com.text).caixas["2025-05-02"]


def test_o_fragmento_segue_as_datas_do_formulario(cliente: TestClient) -> None:
    """htmx asks for it again when a date changes (GET /formulario/dias-locais)."""
    resposta = cliente.get(
        "/formulario/dias-locais",
        params={"regime": "anp.mora", "data_ciencia": "2020-10-31", "data_pagamento": "2022-12-30"},
    )
    assert resposta.status_code == 200
    assert resposta.text.lstrip().startswith('<fieldset class="sugestoes" id="sugestoes-dias_sem')
    assert set(caixas(resposta.text).caixas) == {"2020-11-30", "2022-11-30"}
    assert "só as repartições federais no Distrito Federal" in resposta.text
    # the dates' inputs ask for it, with the whole form
    pagina = cliente.get("/formulario", params={"regime": "anp.mora"}).text
    entrada = re.search(r'<input [^>]*id="campo-data_ciencia"[^>]*>', pagina)
    assert entrada and 'hx-get="/formulario/dias-locais"' in entrada.group(0)
    assert 'hx-target="#sugestoes-dias_sem_expediente"' in entrada.group(0)
    # a regime without a list of dates: nothing to swap
    vazio = cliente.get("/formulario/dias-locais", params={"regime": "anp.infracao"})
    assert vazio.status_code == 204


def test_sem_datas_o_ano_e_o_do_relogio(cliente: TestClient) -> None:
    import time_machine

    with time_machine.travel(datetime(2022, 6, 1, 15, tzinfo=UTC), tick=False):
        html = cliente.get("/formulario", params={"regime": "anp.mora"}).text
    assert "Atos locais ou condicionais de 2022 (ano corrente)" in html
    assert set(caixas(html).caixas) == {"2022-11-30"}
    with time_machine.travel(datetime(2031, 7, 15, 15, tzinfo=UTC), tick=False):
        html = cliente.get("/formulario", params={"regime": "anp.mora"}).text
    assert "Nenhum ato local ou condicional transcrito para 2031." in html
    assert caixas(html).caixas == {}
