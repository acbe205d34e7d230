"""Saved cases: the input most tests save, and saving it through a repository."""

from __future__ import annotations

from multas import __version__, calcular
from multas.nucleo.legislacao import carregar
from multas.servicos.persistencia import Repositorio

ENTRADA = '{"regime": "anp.infracao", "inciso": "XI", "valor": 750000.00}'


def salvar(repo: Repositorio, entrada: str = ENTRADA, usuario: str = "ana") -> int:
    from multas.nucleo.json_exato import ler_json

    resultado = calcular(ler_json(entrada))
    caso = repo.salvar(
        regime=resultado["regime"],
        entrada=entrada,
        resultado=resultado,
        versao_motor=__version__,
        versao_legislacao=carregar().versao,
        usuario=usuario,
    )
    return caso.id
