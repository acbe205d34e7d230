"""The processo page with payments and a parcelamento (spec § 6.2 v4): a payment typed in the
form as people write it, and what is owed that day, with the instalments' table. One round
trip of each, on a fixed day."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import time_machine
from fastapi.testclient import TestClient

from multas.nucleo.datas import fuso_brasilia
from multas.servidor import criar_app
from tests.utils.processos import PLANO


def test_pagina_registra_o_pagamento_e_mostra_o_devido_e_as_prestacoes(tmp_path: Path) -> None:
    with (
        time_machine.travel(dt.datetime(2024, 9, 15, 12, tzinfo=fuso_brasilia()), tick=False),
        TestClient(criar_app(f"sqlite:///{tmp_path / 'm.db'}"), raise_server_exceptions=False) as c,
    ):
        r = c.post(
            "/api/v1/processos",
            json={"tipo": "anp", "valor_multa": "10000.00", "eventos": PLANO[:-1]},
        )
        assert r.status_code == 201, r.text
        pid = r.json()["processo_id"]
        # the second instalment, typed in pt-BR in the page's form
        r = c.post(
            f"/processos/{pid}/eventos",
            data={"evento": "pagamento", "data": "30/08/2024", "valor": "606,84"},
            follow_redirects=True,
        )
        assert r.status_code == 200, r.text
        html = r.text
        # tests/nucleo/test_ciclo_parcelamento.py counts it by hand: 6.120,74 on 15/09/2024
        assert re.search(r'id="saldo-devido">R\$\s*6\.120,74<', html), html[:2000]
        assert 'id="prestacoes"' in html and "Parcelamento de R$ 7.210,00" in html
        ruim = c.post(
            f"/processos/{pid}/eventos",
            data={"evento": "pagamento", "data": "31/08/2024", "valor": "-1"},
        )
        assert ruim.status_code == 422 and 'id="erro-evento-valor"' in ruim.text
