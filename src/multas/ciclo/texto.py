"""The § 6 output as pt-BR text (``multas prazos calcular --formato texto``), from the output
object itself, so a JSON Lines run and a single processo read the same."""

from __future__ import annotations

from datetime import date
from typing import Any

from multas.ciclo.eventos import ROTULOS_PRAZOS, TIPOS
from multas.datas import data_com_dia_da_semana


def data_por_extenso(iso: str) -> str:
    """``2024-04-29`` → ``29/04/2024 (segunda-feira)``."""
    return data_com_dia_da_semana(date.fromisoformat(iso))


def rotulo_estado(tipo: str, estado: str) -> str:
    """The estado in words (``aguardando_pagamento`` → ``aguardando pagamento``)."""
    for evento in TIPOS[tipo].eventos.values():
        if evento.estado == estado:
            return evento.estado_rotulo
    return estado


def como_texto(resultado: dict[str, Any]) -> str:
    """A readable report of one processo's deadlines.

    >>> print(como_texto({"tipo": "renovabio.balanco", "estado": "na_lista", "prazos": [],
    ...                   "avisos": []}), end="")
    Processo renovabio.balanco: Lista de balanço de biodiesel inconsistente (Decreto nº 9.888/2019, art. 9º-A)
    Estado: na lista (na_lista)
    <BLANKLINE>
    Prazos: nenhum por enquanto.
    """
    tipo = TIPOS[resultado["tipo"]]
    linhas = [f"Processo {tipo.nome}: {tipo.titulo}"]
    identificacao = [
        f"{rotulo}: {resultado[chave]}"
        for chave, rotulo in (("id", "id"), ("cnpj", "CNPJ"), ("nome", "nome"))
        if chave in resultado
    ]
    if identificacao:
        linhas.append(" · ".join(identificacao))
    linhas.append(
        f"Estado: {rotulo_estado(tipo.nome, resultado['estado'])} ({resultado['estado']})"
    )
    linhas.append("")
    if not resultado["prazos"]:
        linhas.append("Prazos: nenhum por enquanto.")
    else:
        linhas.append("Prazos, por data:")
        for prazo in resultado["prazos"]:
            rotulo = ROTULOS_PRAZOS.get(prazo["prazo"], prazo["prazo"])
            linhas.append(f"  {data_por_extenso(prazo['data'])}  {rotulo} ({prazo['prazo']})")
            linhas.append(f"      Fundamento: {prazo['fundamento']}")
            linhas.append(f"      Contagem: {prazo['contagem']}")
    if resultado["avisos"]:
        linhas.append("")
        linhas.append("Avisos:")
        linhas.extend(f"  - {aviso}" for aviso in resultado["avisos"])
    return "\n".join(linhas) + "\n"
