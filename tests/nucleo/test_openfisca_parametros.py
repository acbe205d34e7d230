"""The benchmark's OpenFisca parameters (bench/openfisca_renovabio/parametros) are a copy of
the law in another format: checked here against the TOML files (issue 17), so a change in the
law that forgets the copy fails the suite instead of comparing the engine with an old law."""

from __future__ import annotations

from datetime import date, timedelta
from fractions import Fraction
from pathlib import Path

import pytest
import yaml

from multas.nucleo.legislacao import carregar

PASTA = Path(__file__).resolve().parents[2] / "bench" / "openfisca_renovabio" / "parametros"
#: each YAML file → the parameter it copies
COPIAS = {
    "piso": "renovabio.distribuidor.piso",
    "teto": "renovabio.distribuidor.teto",
    "limite_faturamento": "renovabio.distribuidor.limite_faturamento",
    "reducao": "renovabio.distribuidor.reducao",
    "reducao_meses": "renovabio.distribuidor.reducao_meses",
}


def test_cada_arquivo_e_copia_de_um_parametro() -> None:
    assert {p.stem for p in PASTA.glob("*.yaml")} == set(COPIAS)


@pytest.mark.parametrize("arquivo", sorted(COPIAS))
def test_valores_iguais_aos_da_legislacao(arquivo: str) -> None:
    dados = yaml.safe_load((PASTA / f"{arquivo}.yaml").read_text(encoding="utf-8"))
    copia = {
        (d if isinstance(d, date) else date.fromisoformat(str(d))): v["value"]
        for d, v in dados["values"].items()
    }
    parametro = carregar().parametro(COPIAS[arquivo])
    inicio = min(copia)
    # every change of the law since the copy's first date is a date of the copy
    mudancas = {v.inicio for v in parametro.vigencias if v.inicio > inicio}
    mudancas |= {v.fim + timedelta(days=1) for v in parametro.vigencias if v.fim}
    assert {d for d in mudancas if d > inicio} <= set(copia), (arquivo, sorted(mudancas))
    for dia, valor in copia.items():
        vigente = parametro.em(dia)
        esperado = Fraction(0) if vigente is None else Fraction(vigente.valor)
        # OpenFisca keeps floats: 1/12 is stored to 16 places
        assert abs(Fraction(valor) - esperado) < Fraction(1, 10**12), (arquivo, dia, valor)
