"""Issue 37, item 6: ``lote`` showed a distributor short of CBIOs with ``valor 0.00`` and no
word of why. Its RenovaBio rows now carry ``falta``, ``diferido`` and ``multado``, with the
names and meaning of ``multas ano``'s columns, the same from the kernel and from the engine."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from multas.lote.executor import executar
from multas.lote.processar import Config
from multas.nucleo.regimes import REGIMES

REGIME = "renovabio.distribuidor"
CAMPOS = ["cnpj", "ano_meta", "meta_cbios", "cbios_aposentados", "maior_media_mensal"]
CAMPOS += ["meta_anterior_cumprida", "diferir"]


@pytest.mark.parametrize("kernel", [True, False], ids=["kernel", "motor"])
def test_falta_diferido_e_multado(tmp_path: Path, kernel: bool) -> None:
    entrada, saida = tmp_path / "d.csv", tmp_path / "r.csv"
    linhas = [
        # 10% short, the previous target met: all deferred, no fine this year
        ["11.222.333/0001-81", "2025", "1000000", "900000", "100", "true", ""],
        # the same shortfall without the previous target met: all fined
        ["11.222.333/0002-62", "2025", "1000000", "900000", "100", "false", ""],
        # deferral declined (diferir = false): fined
        ["11.222.333/0003-43", "2025", "1000000", "900000", "100", "true", "false"],
        # target met
        ["11.222.333/0004-24", "2025", "1000", "1000", "100", "", ""],
    ]
    with open(entrada, "w", newline="", encoding="utf-8") as arquivo:
        escritor = csv.writer(arquivo)
        escritor.writerow(CAMPOS)
        escritor.writerows(linhas)
    cfg = Config(REGIME, REGIMES[REGIME].interpretacao_padrao(), kernel=kernel)
    resumo = executar(entrada, saida, cfg, nucleos=1)
    assert resumo.erros == 0
    with open(saida, encoding="utf-8") as arquivo:
        lidas = list(csv.DictReader(arquivo))
    assert [(r["valor"], r["falta"], r["diferido"], r["multado"]) for r in lidas] == [
        ("0.00", "100000", "100000", "0"),
        ("10000000.00", "100000", "0", "100000"),
        ("10000000.00", "100000", "0", "100000"),
        ("0.00", "0", "0", "0"),
    ]
    assert list(lidas[0])[-4:] == ["falta", "diferido", "multado", "erro"]
