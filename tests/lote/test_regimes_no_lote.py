"""Which regimes the batch runs, and how their v4 fields travel (spec §§ 3, 3.4, 4): an ANP
infraction's ``norma`` and text outputs, the case's ``id`` column kept beside its result, and
``anp.auto`` (a list per case) refused with the command that runs it."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from multas.lote.executor import executar
from multas.lote.processar import Config, cabe_numa_linha
from multas.nucleo.erros import EntradaInvalida


def test_infracao_no_lote_com_id_e_norma(tmp_path: Path) -> None:
    entrada, saida = tmp_path / "autos.csv", tmp_path / "saida.csv"
    entrada.write_text(
        "id,inciso,valor,norma\nA1,XI,20000,\nA2,IX,300000,decreto-2953\nA3,XX,,\n",
        encoding="utf-8",
    )
    executar(entrada, saida, Config("anp.infracao", {"faixa": "lei"}), linhas_por_bloco=2)
    with saida.open(encoding="utf-8") as arquivo:
        linhas = list(csv.DictReader(arquivo))
    assert [linha["id"] for linha in linhas] == ["A1", "A2", "A3"]
    assert (linhas[0]["resultado_valor"], linhas[0]["valor_minimo"]) == ("20000.00", "")
    assert linhas[0]["resultado_norma"] == "lei-9847"
    assert (linhas[1]["valor_minimo"], linhas[1]["resultado_norma"]) == (
        "200000.00",
        "decreto-2953",
    )
    assert "o último inciso conhecido é o XIX" in linhas[2]["erro"]


def test_auto_com_lista_de_incisos_nao_roda_em_lote() -> None:
    with pytest.raises(EntradaInvalida, match="multas calcular com JSON Lines"):
        cabe_numa_linha("anp.auto")
    cabe_numa_linha("anp.infracao")


def test_id_que_calcular_recusa_e_erro_da_linha(tmp_path: Path) -> None:
    """Spec § 3 v4: "an ``id`` column is that field": an id ``calcular`` refuses (too long, a
    control character) is that row's error, not a pass-through cell; an empty cell is no id."""
    entrada, saida = tmp_path / "autos.csv", tmp_path / "saida.csv"
    longo = "x" * 201
    entrada.write_text(
        f'id,inciso,norma\n{longo},I,decreto-2953\n"a\tb",I,decreto-2953\nok,I,decreto-2953\n'
        ",I,decreto-2953\n",
        encoding="utf-8",
    )
    executar(entrada, saida, Config("anp.infracao", {"faixa": "lei"}), linhas_por_bloco=2)
    with saida.open(encoding="utf-8") as arquivo:
        linhas = list(csv.DictReader(arquivo))
    assert [linha["erro"] != "" for linha in linhas] == [True, True, False, False]
    assert linhas[0]["erro"].startswith("id: texto longo demais")
