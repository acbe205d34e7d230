"""Review 4, W13: a provision's start date that rests on a DOU date no shipped source gives is
marked ``data_conferida = false`` in its parameter file, and every memória that cites it says
"data não conferida" (through its ``fundamento``). The rule is read from the data: a parameter
whose ``fonte`` names "DOU <date>" with that date as its ``inicio`` must find the date in a
shipped legal text (multas/nucleo/legislacao/textos), or be marked."""

from __future__ import annotations

import re
from datetime import date

import pytest

from multas.nucleo.legislacao import Vigencia, carregar
from multas.nucleo.legislacao.modelo import DATA_NAO_CONFERIDA
from tests.utils.legislacao import fontes_normalizadas

_MESES = [
    "janeiro",
    "fevereiro",
    "março",
    "abril",
    "maio",
    "junho",
    "julho",
    "agosto",
    "setembro",
    "outubro",
    "novembro",
    "dezembro",
]


def _grafias(dia: date) -> list[str]:
    """The ways the shipped texts write a date: 24/11/1999, 24.11.1999, 24.11.99 aside,
    24-11-1999, 24 de novembro de 1999 (and without the leading zeros)."""
    d, m, a = dia.day, dia.month, dia.year
    numericas = {
        f"{dd}{s}{mm}{s}{a}"
        for s in "/.-"
        for dd in {f"{d:02d}", str(d)}
        for mm in {f"{m:02d}", str(m)}
    }
    return [*numericas, f"{d} de {_MESES[m - 1]} de {a}", f"{d:02d} de {_MESES[m - 1]} de {a}"]


def _sem_fonte_da_data(vigencia: Vigencia, fontes: str) -> bool:
    """The start is a DOU date its source names, and no shipped text shows that date."""
    dous = re.findall(r"DOU (?:de )?(\d{2}/\d{2}/\d{4})", vigencia.fonte.titulo)
    datas = {date(int(t[6:]), int(t[3:5]), int(t[:2])) for t in dous}
    if vigencia.inicio not in datas:
        return False
    return not any(g in fontes for g in _grafias(vigencia.inicio))


def _vigencias() -> list[tuple[str, Vigencia]]:
    return [
        (f"{nome} (vigência {i})", v)
        for nome, parametro in carregar().parametros.items()
        for i, v in enumerate(parametro.vigencias, 1)
    ]


#: found by the rule and not marked yet: none (Lei 9.847/1999, DOU 27/10/1999, and Decreto
#: 9.888/2019, DOU 28/06/2019, are marked since: no shipped text shows those DOU dates); a new
#: one fails here
PENDENTES: set[str] = set()


def test_todo_inicio_sem_fonte_do_dou_diz_data_nao_conferida() -> None:
    fontes = fontes_normalizadas()
    sem_marca = {
        onde for onde, v in _vigencias() if _sem_fonte_da_data(v, fontes) and v.data_conferida
    }
    assert sem_marca == PENDENTES


def test_os_marcados_dizem_data_nao_conferida_na_memoria() -> None:
    marcados = [(onde, v) for onde, v in _vigencias() if not v.data_conferida]
    # the five laws of the review (Lei 11.941/2009, 9.873/1999, 6.830/1980, 9.784/1999,
    # 13.576/2017) are among them
    citadas = " ".join(v.fundamento + v.fonte.titulo for _, v in marcados)
    for lei in ("11.941/2009", "9.873/1999", "6.830/1980", "9.784/1999", "13.576/2017"):
        assert lei in citadas
    for onde, v in marcados:
        assert DATA_NAO_CONFERIDA in v.fundamento, onde


@pytest.mark.parametrize(
    ("dia", "texto", "achada"),
    [
        (date(1999, 1, 29), "DECRETO Nº 2.953, DE 28.1.1999 - DOU 29.1.1999", True),
        (date(2017, 12, 26), "Lei nº 13.576, de 26 de dezembro de 2017", True),
        (date(1999, 11, 24), "Lei nº 9.873, de 23/11/1999", False),
    ],
)
def test_grafias_de_uma_data(dia: date, texto: str, achada: bool) -> None:
    assert any(g in texto for g in _grafias(dia)) is achada


def test_a_memoria_de_um_prazo_diz_data_nao_conferida() -> None:
    """Through the lifecycle: the appeal's deadline cites Lei 9.784 art. 59 with the label."""
    from multas.nucleo.ciclo import calcular_prazos

    r = calcular_prazos(
        {
            "tipo": "anp",
            "eventos": [
                {"evento": "infracao", "data": "2023-05-10"},
                {"evento": "auto_infracao", "data": "2023-06-01"},
                {"evento": "ciencia_primeira_instancia", "data": "2024-03-19"},
            ],
            "data_referencia": "2024-03-19",
        }
    )
    (recurso,) = [p for p in r["prazos"] if p["prazo"] == "recurso"]
    assert recurso["fundamento"] == f"Lei nº 9.784/1999, art. 59 ({DATA_NAO_CONFERIDA})"
