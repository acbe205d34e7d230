"""The calendar's data file is checked at load (``multas.nucleo.calendario.ler_calendario``): each
broken rule gives its exact message, naming the file and where; a valid file gives exactly what
it says. (Mutation testing: every check and every word of its message is pinned here.)"""

from __future__ import annotations

import copy
from datetime import date
from typing import Any

import pytest

from multas.nucleo.calendario import Ato, CalendarioInvalido, Dia, Expediente, ler_calendario

D = date.fromisoformat


def valido() -> dict[str, Any]:
    return {
        "ano": [
            {
                "ano": 2025,
                "atos": [{"ato": "Portaria X", "fonte": "DOU"}],
                "dias": [
                    {"data": D("2025-01-01"), "nome": "Ano Novo", "tipo": "feriado", "ato": "P"},
                    {
                        "data": D("2025-03-05"),
                        "nome": "Cinzas",
                        "tipo": "inicio_tardio",
                        "ato": "P",
                        "ambito": "nacional",
                        "fonte": "DOU",
                    },
                ],
                "notas": ["uma nota"],
            }
        ],
        "fora_do_nacional": [
            {"data": D("2025-11-30"), "nome": "Local B", "ato": "L", "ambito": "local"},
            {
                "data": D("2025-05-02"),
                "nome": "Cond A",
                "ato": "C",
                "ambito": "condicional",
                "tipo": "feriado",
            },
        ],
    }


def test_um_calendario_valido_da_exatamente_o_que_diz() -> None:
    c = ler_calendario(valido(), "cal.toml")
    assert list(c.anos) == [2025]
    ano = c.anos[2025]
    assert ano.ano == 2025 and ano.transcrito is True
    assert ano.atos == (Ato("Portaria X", "DOU"),)
    assert ano.dias == {
        D("2025-01-01"): Dia(D("2025-01-01"), "Ano Novo", "feriado", "P", "nacional"),
        D("2025-03-05"): Dia(D("2025-03-05"), "Cinzas", "inicio_tardio", "P", "nacional"),
    }
    # apart, sorted by date; the kind defaults to ponto facultativo there
    assert c.fora_do_nacional == (
        Dia(D("2025-05-02"), "Cond A", "feriado", "C", "condicional"),
        Dia(D("2025-11-30"), "Local B", "ponto_facultativo", "L", "local"),
    )
    assert ler_calendario({}, "cal.toml").anos == {}
    # the extremes of the accepted years
    for extremo in (1, 9999):
        dados = {"ano": [{"ano": extremo, "atos": [{"ato": "a", "fonte": "f"}]}]}
        assert ler_calendario(dados, "cal.toml").anos[extremo].dias == {}


def _ano(dados: dict[str, Any]) -> dict[str, Any]:
    ano: dict[str, Any] = dados["ano"][0]
    return ano


def _dia(dados: dict[str, Any]) -> dict[str, Any]:
    dia: dict[str, Any] = _ano(dados)["dias"][0]
    return dia


QUEBRAS: list[tuple[str, Any, str]] = [
    ("raiz", lambda d: d.update(outra=1), "cal.toml: raiz: chaves desconhecidas: ['outra']"),
    ("ano não tabela", lambda d: d.update(ano=[1]), "cal.toml: ano[0]: cada ano é uma tabela"),
    *[
        (
            f"ano {valor!r}",
            lambda d, v=valor: _ano(d).update(ano=v),
            "cal.toml: ano[0]: 'ano' deve ser um inteiro de 1 a 9999",
        )
        for valor in (None, "2025", True, 0, 10000, 2025.0)
    ],
    (
        "chave de ano",
        lambda d: _ano(d).update(feriados=[]),
        "cal.toml: ano[0]: chaves desconhecidas: ['feriados']",
    ),
    (
        "sem atos",
        lambda d: _ano(d).pop("atos"),
        "cal.toml: ano[0]: cada ano transcrito nomeia seus atos e fontes",
    ),
    (
        "atos vazios",
        lambda d: _ano(d).update(atos=[]),
        "cal.toml: ano[0]: cada ano transcrito nomeia seus atos e fontes",
    ),
    (
        "ato sem nome",
        lambda d: _ano(d).update(atos=[{"fonte": "f"}]),
        "cal.toml: ano[0].atos: 'ato' obrigatório",
    ),
    (
        "ato em branco",
        lambda d: _ano(d).update(atos=[{"ato": "  ", "fonte": "f"}]),
        "cal.toml: ano[0].atos: 'ato' obrigatório",
    ),
    (
        "fonte não texto",
        lambda d: _ano(d).update(atos=[{"ato": "a", "fonte": 3}]),
        "cal.toml: ano[0].atos: 'fonte' obrigatório",
    ),
    (
        "dia de outro ano",
        lambda d: _dia(d).update(data=D("2024-12-31")),
        "cal.toml: ano[0]: 2024-12-31 não é do ano 2025",
    ),
    (
        "dia local entre os nacionais",
        lambda d: _dia(d).update(ambito="local"),
        "cal.toml: ano[0]: 2025-01-01: só datas nacionais (as demais: fora_do_nacional)",
    ),
    (
        "dia repetido",
        lambda d: _ano(d)["dias"].append(dict(_dia(d))),
        "cal.toml: ano[0]: 2025-01-01 aparece duas vezes",
    ),
    (
        "ano repetido",
        lambda d: d["ano"].append(copy.deepcopy(_ano(d))),
        "cal.toml: ano[1]: o ano 2025 aparece duas vezes",
    ),
    (
        "dia não tabela",
        lambda d: _ano(d).update(dias=["2025-01-01"]),
        "cal.toml: ano[0].dias: cada dia é uma tabela",
    ),
    (
        "chave de dia",
        lambda d: _dia(d).update(hora="14h"),
        "cal.toml: ano[0].dias: chaves desconhecidas: ['hora']",
    ),
    (
        "data em texto",
        lambda d: _dia(d).update(data="2025-01-01"),
        "cal.toml: ano[0].dias: data inválida: '2025-01-01'",
    ),
    (
        "sem data",
        lambda d: _dia(d).pop("data"),
        "cal.toml: ano[0].dias: data inválida: None",
    ),
    (
        "sem tipo",
        lambda d: _dia(d).pop("tipo"),
        "cal.toml: ano[0].dias: 2025-01-01: tipo None (tipos: feriado, ponto_facultativo, "
        "inicio_tardio, encerramento_antecipado)",
    ),
    (
        "tipo desconhecido",
        lambda d: _dia(d).update(tipo="meio"),
        "cal.toml: ano[0].dias: 2025-01-01: tipo 'meio' (tipos: feriado, ponto_facultativo, "
        "inicio_tardio, encerramento_antecipado)",
    ),
    (
        "âmbito desconhecido",
        lambda d: _dia(d).update(ambito="estadual"),
        "cal.toml: ano[0].dias: 2025-01-01: ambito 'estadual' (âmbitos: nacional, local, "
        "condicional)",
    ),
    (
        "sem nome",
        lambda d: _dia(d).pop("nome"),
        "cal.toml: ano[0].dias: 'nome' obrigatório",
    ),
    (
        "sem ato",
        lambda d: _dia(d).update(ato=""),
        "cal.toml: ano[0].dias: 'ato' obrigatório",
    ),
    (
        "nacional fora do nacional",
        lambda d: d["fora_do_nacional"][0].update(ambito="nacional"),
        "cal.toml: fora_do_nacional: 2025-11-30: ambito deve ser local ou condicional",
    ),
    (
        "fora do nacional sem âmbito",
        lambda d: d["fora_do_nacional"][0].pop("ambito"),
        "cal.toml: fora_do_nacional: 2025-11-30: ambito deve ser local ou condicional",
    ),
    (
        "fora do nacional não tabela",
        lambda d: d["fora_do_nacional"].append(7),
        "cal.toml: fora_do_nacional: cada dia é uma tabela",
    ),
]


@pytest.mark.parametrize(
    ("quebra", "mensagem"), [(q[1], q[2]) for q in QUEBRAS], ids=[q[0] for q in QUEBRAS]
)
def test_cada_regra_do_arquivo_tem_sua_mensagem(quebra: Any, mensagem: str) -> None:
    dados = valido()
    quebra(dados)
    with pytest.raises(CalendarioInvalido) as erro:
        ler_calendario(dados, "cal.toml")
    assert str(erro.value) == mensagem


def test_como_dict_do_ano_e_do_dia() -> None:
    ano = ler_calendario(valido(), "cal.toml").anos[2025]
    assert ano.como_dict() == {
        "ano": 2025,
        "transcrito": True,
        "atos": [{"ato": "Portaria X", "fonte": "DOU"}],
        "dias": [  # in date order
            {
                "data": "2025-01-01",
                "nome": "Ano Novo",
                "tipo": "feriado",
                "ato": "P",
                "ambito": "nacional",
            },
            {
                "data": "2025-03-05",
                "nome": "Cinzas",
                "tipo": "inicio_tardio",
                "ato": "P",
                "ambito": "nacional",
            },
        ],
    }


def test_fechados_lista_os_dias_uteis_em_que_nenhum_prazo_termina() -> None:
    """For the kernel: the weekdays of the years asked on which no deadline ends, the extra
    dates included (weekdays of those years only), once each, in order."""
    dados = valido()
    _ano(dados)["dias"] += [
        # a Saturday holiday is not listed (the kernel skips weekends itself)
        {"data": D("2025-11-15"), "nome": "Sábado", "tipo": "feriado", "ato": "P"},
        {"data": D("2025-12-24"), "nome": "Véspera", "tipo": "encerramento_antecipado", "ato": "P"},
    ]
    dados["ano"].append(
        {
            "ano": 2026,
            "atos": [{"ato": "a", "fonte": "f"}],
            "dias": [{"data": D("2026-01-01"), "nome": "Ano Novo", "tipo": "feriado", "ato": "a"}],
        }
    )
    federal = ler_calendario(dados, "cal.toml")
    extras = frozenset(
        {D("2025-06-02"), D("2025-06-07"), D("2024-06-03"), D("2026-06-01"), D("2025-01-01")}
    )
    # 01/01 (Wednesday) and 24/12 (early closing); not Ash Wednesday (expediente from 14h);
    # the extra Monday 02/06 (not Saturday 07/06, nor the other years' dates)
    assert Expediente(federal, extras=extras).fechados(2025, 2025) == [
        D("2025-01-01"),
        D("2025-06-02"),
        D("2025-12-24"),
    ]
    assert Expediente(federal, extras=extras).fechados(2025, 2026) == [
        D("2025-01-01"),
        D("2025-06-02"),
        D("2025-12-24"),
        D("2026-01-01"),
        D("2026-06-01"),
    ]
    # under the holidays-only reading an early closing does not stop a deadline
    assert Expediente(federal, "feriados").fechados(2025, 2025) == [D("2025-01-01")]
