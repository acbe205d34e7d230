"""The batch's test data and helpers: distributors and fine rows (CSV, Parquet, a partitioned
folder), the ``multas lote`` command in process, and the engine's configurations. The batch
itself (``multas.lote.processar``, pyarrow) is imported when a helper needs it, not with this
module."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import TYPE_CHECKING, Any

from multas.nucleo.regimes import REGIMES

if TYPE_CHECKING:
    from multas.lote.processar import Config

# --- renovabio.distribuidor (tests/lote/test_lote.py) ------------------------------------------

DISTRIBUIDORES = [
    {
        "cnpj": "11.111.111/0001-11",
        "ano_meta": "2025",
        "meta_cbios": "1000000",
        "cbios_aposentados": "400000",
        "maior_media_mensal": "71.70",
        "faturamento_ano_meta": "900000000.00",
        "faturamento_ano_anterior": "800000000.00",
        "data_quitacao": "2026-03-15",
    },
    {
        "cnpj": "2",
        "ano_meta": "2024",
        "meta_cbios": "2000000",
        "cbios_aposentados": "0",
        "maior_media_mensal": "99.99",
    },
    {
        "cnpj": '3; com "aspas"',
        "ano_meta": "2023",
        "meta_cbios": "1.5",
        "cbios_aposentados": "0",
        "maior_media_mensal": "130.10",
    },
    {
        "cnpj": "4",
        "ano_meta": "2025",
        "meta_cbios": "1",
        "cbios_aposentados": "0",
        "maior_media_mensal": "1",
        "faturamento_ano_anterior": "10",
    },
    {
        "cnpj": "5",
        "ano_meta": "2019",
        "meta_cbios": "10",
        "cbios_aposentados": "0",
        "maior_media_mensal": "80",
    },
]
CAMPOS = ["cnpj", *(c.nome for c in REGIMES["renovabio.distribuidor"].caso.campos() if c.plano)]


def escrever_csv(
    caminho: Path, linhas: list[dict[str, Any]], campos: list[str], delimitador: str = ","
) -> None:
    with open(caminho, "w", encoding="utf-8", newline="") as arquivo:
        escritor = csv.DictWriter(arquivo, campos, delimiter=delimitador)
        escritor.writeheader()
        escritor.writerows(linhas)


def ler_csv(caminho: Path, delimitador: str = ",") -> list[dict[str, str]]:
    with open(caminho, encoding="utf-8", newline="") as arquivo:
        return list(csv.DictReader(arquivo, delimiter=delimitador))


def rodar_lote(*args: str) -> Any:
    """``multas lote`` with these arguments, in process (click's runner)."""
    from click.testing import CliRunner

    from multas.principal import cli

    return CliRunner().invoke(cli, ["lote", *map(str, args)])


def config_distribuidor() -> Config:
    from multas.lote.processar import Config
    from multas.nucleo.motor import ler_interpretacao, regime_de

    return Config(
        "renovabio.distribuidor", ler_interpretacao(regime_de("renovabio.distribuidor"), None)
    )


def muitas_linhas(n: int) -> list[dict[str, Any]]:
    return [
        {
            "cnpj": str(i),
            "ano_meta": str(2021 + i % 6),
            "meta_cbios": str(1000 * i),
            "cbios_aposentados": str(7 * i),
            "maior_media_mensal": f"{50 + i % 97}.{i % 100:02d}",
            "faturamento_ano_meta": "" if i % 3 else f"{i * 1000}.50",
            "faturamento_ano_anterior": "" if i % 3 else f"{i * 900}.25",
            "data_quitacao": "" if i % 5 else "2026-02-28",
        }
        for i in range(n)
    ]


# --- renovabio.vedacao: a regime without the kernel (the scalar engine) --------------------------


def vedacoes(n: int) -> list[dict[str, str]]:
    return [
        {
            "id": f"d{i}",
            "valor_base": f"{(i * 7919) % 900_000_000}.{i % 100:02d}" if i % 13 else "x",
            "faturamento_ano_meta": f"{(i * 104729) % 10**10}.00" if i % 3 == 0 else "",
            "faturamento_ano_anterior": f"{(i * 1299709) % 10**10}.50" if i % 3 == 0 else "",
            "data_referencia": "2025-10-01",
        }
        for i in range(n)
    ]


# --- anp.mora, partitioned (tests/lote/test_particoes.py) ---------------------------------------

REGIME_MORA = "anp.mora"


def config_mora() -> Config:
    from multas.lote.processar import Config
    from multas.nucleo.motor import ler_interpretacao, regime_de

    return Config(
        REGIME_MORA, ler_interpretacao(regime_de(REGIME_MORA), {"calendario": "feriados"})
    )


def linhas_mora(inicio: int, n: int) -> list[dict[str, str]]:
    """Fines in arrears; every 11th has a principal the engine refuses (an error row)."""
    return [
        {
            "id": f"c{i}",
            "principal": f"{1000 + i * 37}.{i % 100:02d}" if i % 11 else "1.001",
            "data_ciencia": f"2024-{1 + i % 12:02d}-{1 + i % 28:02d}",
            "data_pagamento": f"2025-{1 + (i * 7) % 12:02d}-{1 + (i * 3) % 28:02d}",
        }
        for i in range(inicio, inicio + n)
    ]


def em_csv(linhas: list[dict[str, str]]) -> bytes:
    cabecalho = ",".join(linhas[0])
    corpo = "\n".join(",".join(linha.values()) for linha in linhas)
    return f"{cabecalho}\n{corpo}\n".encode()


def em_parquet(linhas: list[dict[str, str]]) -> bytes:
    import pyarrow as pa
    import pyarrow.parquet as pq

    saida = pa.BufferOutputStream()
    pq.write_table(pa.Table.from_pylist(linhas), saida, row_group_size=97)
    return bytes(saida.getvalue().to_pybytes())


#: three partitions, one in a subfolder, of different sizes
PARTES = {"p0": (0, 300), "p1": (300, 120), "sub/p2": (420, 205)}


def dados_particionados(pasta: Path, formato: str = "parquet") -> None:
    for nome, (inicio, n) in PARTES.items():
        destino = pasta / f"{nome}.{formato}"
        destino.parent.mkdir(parents=True, exist_ok=True)
        gerar = em_parquet if formato == "parquet" else em_csv
        destino.write_bytes(gerar(linhas_mora(inicio, n)))
