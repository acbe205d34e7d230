"""The steps every regime shares (regimes/comum.py): which law applies when the case has no
date of its own."""

from __future__ import annotations

import pytest

from multas.nucleo.legislacao import carregar
from multas.nucleo.memoria import Memoria
from multas.nucleo.regimes.comum import lei_sem_data_propria


def test_sem_data_nem_hoje_e_defeito_de_quem_chama_e_diz_o_regime() -> None:
    with pytest.raises(
        ValueError, match=r"^mover\.eficiencia: sem data_referencia, a regra precisa"
    ):
        lei_sem_data_propria(carregar(), "mover.redacao", "mover.eficiencia", None, None, Memoria())
