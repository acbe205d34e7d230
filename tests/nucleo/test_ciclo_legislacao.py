"""The lifecycle's legal parameters (legislacao/parametros/ciclo.toml): every quoted text is
word for word in the shipped legal texts, and the deadlines' values come from the data."""

from __future__ import annotations

import re
from datetime import date
from importlib import resources
from typing import Any

from multas.nucleo.ciclo import calcular_prazos
from multas.nucleo.legislacao import carregar, ler_textos
from tests.utils import textos_da_legislacao


def _normalizar(texto: str) -> str:
    return re.sub(r"\s+", " ", texto).strip()


def test_todo_texto_do_ciclo_e_literal_das_fontes() -> None:
    pasta = resources.files("multas.nucleo.legislacao") / "textos"
    fontes = _normalizar(
        " ".join(p.read_text(encoding="utf-8") for p in pasta.iterdir() if p.name.endswith(".txt"))
    )
    parametros = [p for nome, p in carregar().parametros.items() if nome.startswith("ciclo.")]
    assert len(parametros) >= 9
    for parametro in parametros:
        for vigencia in parametro.vigencias:
            if vigencia.texto is not None:
                assert _normalizar(vigencia.texto) in fontes, parametro.nome


def test_sem_texto_transcrito_o_fundamento_diz_e_nada_e_citado() -> None:
    legislacao = carregar()
    for nome in ("ciclo.lista_sancoes_metas", "ciclo.meta_acrescida"):
        for vigencia in legislacao.parametro(nome).vigencias:
            assert vigencia.texto is None
            assert "não transcrito" in vigencia.fonte.titulo


def test_limite_reducao_igual_ao_da_multa_do_distribuidor() -> None:
    """The months of § 8º: the deadline's parameter is an alias of the fine's (one value)."""
    legislacao = carregar()
    assert legislacao.parametro("ciclo.limite_reducao").igual_a == (
        "renovabio.distribuidor.reducao_meses"
    )
    ciclo = legislacao.parametro("ciclo.limite_reducao").vigencias
    multa = legislacao.parametro("renovabio.distribuidor.reducao_meses").vigencias
    assert [(v.inicio, v.valor, v.dispositivo) for v in ciclo] == [
        (v.inicio, v.valor, v.dispositivo) for v in multa
    ]
    assert ciclo[0].inicio == date(2025, 1, 1)  # spec § 6: listed from 01/01/2025


def test_uma_mudanca_de_prazo_e_so_um_dado_novo() -> None:
    textos = textos_da_legislacao()
    textos["ciclo.toml"] = textos["ciclo.toml"].replace(
        "inicio = 1999-02-01\nvalor = 10\n", "inicio = 1999-02-01\nvalor = 15\n", 1
    )
    outra = ler_textos(textos)
    processo = {
        "tipo": "anp",
        "eventos": [
            {"evento": "infracao", "data": "2024-01-02"},
            {"evento": "auto_infracao", "data": "2024-02-01"},
            {"evento": "ciencia_primeira_instancia", "data": "2024-04-01"},
        ],
    }

    def recurso(legislacao: Any = None) -> str:
        r = calcular_prazos({**processo, "data_referencia": "2024-04-01"}, legislacao)
        return str(next(p["data"] for p in r["prazos"] if p["prazo"] == "recurso"))

    # 01/04/2024 + 10 = 11/04/2024 (quinta); + 15 = 16/04/2024 (terça)
    assert recurso() == "2024-04-11"
    assert recurso(outra) == "2024-04-16"
