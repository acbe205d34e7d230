"""One worked case per regime, for the page ("preencher com um exemplo") and the API docs.

They are the README's examples (``exemplos/*.json``); a test keeps the two equal.
"""

from __future__ import annotations

from typing import Any

EXEMPLOS: dict[str, dict[str, Any]] = {
    "renovabio.distribuidor": {
        "regime": "renovabio.distribuidor",
        "ano_meta": 2025,
        "meta_cbios": 1000000,
        "cbios_aposentados": 400000,
        "maior_media_mensal": "71.70",
        "faturamento_ano_meta": "900000000.00",
        "faturamento_ano_anterior": "800000000.00",
        "data_quitacao": "2026-03-15",
    },
    "renovabio.produtor": {
        "regime": "renovabio.produtor",
        "ano": 2025,
        "cbios_nao_pagos": 300000,
        "maior_media_mensal": "70.43",
        "dados_primarios": True,
    },
    "renovabio.vedacao": {
        "regime": "renovabio.vedacao",
        "valor_base": "152187560.63",
        "faturamento_ano_meta": "2000000000.00",
        "faturamento_ano_anterior": "1500000000.00",
        "data_referencia": "2025-10-01",
    },
    "anp.infracao": {
        "regime": "anp.infracao",
        "inciso": "XI",
        "valor": "750000.00",
        "data_referencia": "2024-05-10",
    },
    "anp.auto": {
        "regime": "anp.auto",
        "id": "auto 2022/0042",
        "norma": "decreto-2953",
        "data_infracao": "2022-03-10",
        "infracoes": [{"inciso": "XI"}, {"inciso": "XII"}],
        "valor": "27000.00",
    },
    "anp.mora": {
        "regime": "anp.mora",
        "principal": "250000.00",
        "data_ciencia": "2024-03-29",
        "data_pagamento": "2024-07-01",
        "taxas_selic": {"2024-05": "0.83", "2024-06": "0.79"},
    },
    "mover.eficiencia": {
        "regime": "mover.eficiencia",
        "meta_mj_km": "1.82",
        "consumo_mj_km": "1.855",
        "meta_gco2_km": "100",
        "emissao_gco2_km": "101.5",
        "veiculos": 1000,
        "data_referencia": "2025-06-30",
    },
}
