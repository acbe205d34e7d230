"""docs/ciclo.md: its example is the engine's own output, and it names every event, estado and
deadline of spec § 6."""

from __future__ import annotations

import json
import re
from pathlib import Path

from multas.nucleo.ciclo import calcular_prazos
from multas.nucleo.eventos import ROTULOS_PRAZOS, TIPOS

DOC = Path(__file__).resolve().parents[2] / "docs" / "ciclo.md"


def test_exemplo_da_documentacao_e_a_saida_do_motor() -> None:
    texto = DOC.read_text(encoding="utf-8")
    bloco = texto.split("<!-- exemplo-ciclo:inicio -->")[1].split("<!-- exemplo-ciclo:fim -->")[0]
    entrada, saida = re.findall(r"```json\n(.*?)```", bloco, flags=re.S)
    assert calcular_prazos(json.loads(entrada)) == json.loads(saida)


def test_documentacao_nomeia_cada_evento_estado_e_prazo() -> None:
    texto = DOC.read_text(encoding="utf-8")
    for tipo in TIPOS.values():
        assert f"`{tipo.nome}`" in texto
        for evento in tipo.eventos.values():
            assert f"`{evento.nome}`" in texto, evento.nome
            assert f"`{evento.estado}`" in texto, evento.estado
    for prazo in ROTULOS_PRAZOS:
        assert f"`{prazo}`" in texto, prazo


def test_a_lista_de_estados_da_fila_e_a_do_motor() -> None:
    """The estados ``--estado`` accepts, listed in the docs (the error points there)."""
    from multas.nucleo.ciclo.pendencias import ESTADOS

    texto = DOC.read_text(encoding="utf-8")
    paragrafo = texto.split("**Os estados** que `--estado` aceita:")[1].split("\n\n")[0]
    assert re.findall(r"`([a-z_]+)`", paragrafo) == list(ESTADOS)
