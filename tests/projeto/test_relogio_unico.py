"""The wall clock is read in one place, multas.servicos.relogio (agora, hoje), so that a test
can fix the date: ruff's TID251 (pyproject.toml) refuses every other read that time-machine
moves, in src/, tests/, bench/ and scripts/."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

LEITURAS = (
    "datetime.now(UTC)",
    "date.today()",
    "datetime.today()",
    "time.time()",
    "time.localtime()",
)


@pytest.mark.subprocesso
def test_so_o_relogio_le_a_hora() -> None:
    """Each of these reads of the clock, outside relogio.py, is a lint error."""
    raiz = Path(__file__).resolve().parents[2]
    codigo = "import time\nfrom datetime import UTC, date, datetime\n\n" + "".join(
        f"x{i} = {leitura}\n" for i, leitura in enumerate(LEITURAS)
    )
    resultado = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise",
         "--stdin-filename", "src/multas/servicos/qualquer.py", "-"],
        input=codigo, capture_output=True, text=True, cwd=raiz, check=False,
    )  # fmt: skip
    assert resultado.stdout.count("TID251") == len(LEITURAS), resultado.stdout
