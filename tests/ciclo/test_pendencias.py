"""The work queue (issue 19, item 6): ``multas pendencias`` (and its alias ``multas prazos
proximos``), ``GET /api/v1/pendencias`` (and ``/api/v1/prazos/proximos``) and the page
``/pendencias`` (and ``/prazos``), all one function, :meth:`Ciclo.pendencias`.

Five stored processos, judged on a fixed date, 20/07/2026 (a Monday); every date is counted by
hand beside it:

- A (``anp``, recurso renunciado): ciência 01/06/2026 + 10 = 11/06/2026 (quinta), the deadline
  of the payment with the reduction; renúncia 03/06/2026 + 30 = 03/07/2026 (sexta), the
  payment. Neither paid: on 20/07 both are overdue, 39 and 17 days.
- B (``anp``, prescrito): citação 01/06/2015 + 15 = 16/06/2015 (terça), the defence; stalled
  from 01/06/2015 to the decision on 01/03/2022, past the intercurrent prescription (3 years,
  01/06/2018) and the prescription (5 years, 01/06/2020); ciência 01/03/2022 + 10 =
  11/03/2022 (sexta), the appeal. All four overdue.
- C (``anp``, em defesa): citação 13/07/2026 + 15 = 28/07/2026 (terça), 8 days left.
- D (``renovabio.balanco``): adequação 14/07/2026 (terça); the 5th business day after it, 15,
  16, 17, 20, 21 → 21/07/2026 (terça), the ANP's, 1 day left.
- E (``anp``, suspenso): citação 06/07/2026 + 15 = 21/07/2026 (terça), the defence, under a
  court suspension since 10/07/2026; its CNPJ stored without punctuation, A's CNPJ.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from sqlalchemy import update

from multas.nucleo.ciclo.pendencias import CAMPOS_ITEM, ler_filtros
from multas.nucleo.erros import EntradaInvalida
from multas.principal import COMANDOS, cli
from multas.servicos.gestao import Ciclo
from multas.servicos.persistencia import Repositorio
from multas.servicos.persistencia.modelos_ciclo import ProcessoSalvo
from multas.servidor import criar_app
from tests.utils.processos import CNPJ_A, NOME_C, PROCESSOS, invalidar

REFERENCIA = date(2026, 7, 20)


def _dias(de: str) -> int:
    return (REFERENCIA - date.fromisoformat(de)).days


def _esperado(ids: dict[str, int]) -> list[tuple[Any, ...]]:
    """The whole queue on 20/07/2026, 30 days: (processo, prazo, data, situação, quem age,
    estado, dias de atraso, dias restantes)."""
    return [
        (ids["B"], "defesa", "2015-06-16", "vencido", "autuado", "prescrito", _dias("2015-06-16"), 0),
        (ids["B"], "prescricao_intercorrente", "2018-06-01", "vencido", "anp", "prescrito", _dias("2018-06-01"), 0),
        (ids["B"], "prescricao", "2020-06-01", "vencido", "anp", "prescrito", _dias("2020-06-01"), 0),
        (ids["B"], "recurso", "2022-03-11", "vencido", "autuado", "prescrito", _dias("2022-03-11"), 0),
        (ids["A"], "pagamento_com_desconto", "2026-06-11", "vencido", "autuado", "recurso_renunciado", 39, 0),
        (ids["A"], "pagamento", "2026-07-03", "vencido", "autuado", "recurso_renunciado", 17, 0),
        (ids["D"], "retirada_lista", "2026-07-21", "em_aberto", "anp", "adequacao_comprovada", 0, 1),
        (ids["E"], "defesa", "2026-07-21", "suspenso", "autuado", "suspenso", 0, 1),
        (ids["C"], "defesa", "2026-07-28", "em_aberto", "autuado", "defesa", 0, 8),
    ]  # fmt: skip


def _linhas(fila: dict[str, Any]) -> list[tuple[Any, ...]]:
    return [
        (
            i["processo_id"],
            i["prazo"],
            i["data"],
            i["situacao"],
            i["responsavel"],
            i["estado"],
            i["dias_de_atraso"],
            i["dias_restantes"],
        )
        for i in fila["prazos"]
    ]


def _povoar(ciclo: Ciclo) -> dict[str, int]:
    return {chave: ciclo.criar(dados).armazenado.id for chave, dados in PROCESSOS.items()}


# --- the one function --------------------------------------------------------------------------


def test_fila_vencidos_primeiro_o_mais_atrasado_antes_depois_por_data(ciclo: Ciclo) -> None:
    ids = _povoar(ciclo)
    fila = ciclo.pendencias(ler_filtros(REFERENCIA))
    assert _linhas(fila) == _esperado(ids)
    assert fila["data_referencia"] == fila["hoje"] == "2026-07-20"
    assert fila["dias"] == 30 and fila["ate"] == "2026-08-19"
    assert fila["prescritos_ocultos"] == 0
    pagamento = fila["prazos"][5]
    assert list(pagamento) == list(CAMPOS_ITEM)
    assert pagamento["fundamento"] == (
        "Decreto nº 2.953/1999, art. 26, caput; Lei nº 9.847/1999, art. 4º, § 1º"
    )
    assert pagamento["rotulo"] == "Pagamento (vencimento)" and pagamento["erro"] is None
    assert (pagamento["cnpj"], pagamento["nome"], pagamento["tipo"]) == (CNPJ_A, "Posto A", "anp")
    assert "30 dias corridos" in pagamento["contagem"]
    # the window: nothing on the day itself; one day more reaches D and E (21/07)
    assert _linhas(ciclo.pendencias(ler_filtros(REFERENCIA, 0))) == _esperado(ids)[:6]
    um_dia = _linhas(ciclo.pendencias(ler_filtros(REFERENCIA, 1)))
    assert um_dia == _esperado(ids)[:8]
    assert _linhas(ciclo.pendencias(ler_filtros(REFERENCIA, 8))) == _esperado(ids)
    assert _linhas(ciclo.pendencias(ler_filtros(REFERENCIA, 7))) == _esperado(ids)[:8]


def test_a_fila_no_dia_do_prazo_e_no_dia_seguinte(ciclo: Ciclo) -> None:
    """The deadline's own day is still open; the next day it is overdue, and stays."""
    ids = _povoar(ciclo)
    no_dia = ciclo.pendencias(ler_filtros(date(2026, 7, 3), 0, cnpj=CNPJ_A))
    assert [(i["prazo"], i["situacao"], i["dias_restantes"]) for i in no_dia["prazos"]] == [
        ("pagamento_com_desconto", "vencido", 0),
        ("pagamento", "em_aberto", 0),
    ]
    depois = ciclo.pendencias(ler_filtros(date(2026, 7, 4), 0, cnpj=CNPJ_A))
    assert [(i["processo_id"], i["prazo"], i["dias_de_atraso"]) for i in depois["prazos"]] == [
        (ids["A"], "pagamento_com_desconto", 23),
        (ids["A"], "pagamento", 1),
    ]
    # a payment recorded closes both (late): they leave the queue
    ciclo.acrescentar(ids["A"], {"evento": "pagamento", "data": "2026-07-10"})
    depois_do_pagamento = ciclo.pendencias(ler_filtros(REFERENCIA, cnpj=CNPJ_A))["prazos"]
    assert [(i["processo_id"], i["prazo"]) for i in depois_do_pagamento] == [(ids["E"], "defesa")]


def test_filtros(ciclo: Ciclo) -> None:
    ids = _povoar(ciclo)
    tudo = _esperado(ids)

    def fila(**filtros: Any) -> list[tuple[Any, ...]]:
        return _linhas(ciclo.pendencias(ler_filtros(REFERENCIA, **filtros)))

    assert fila(responsavel="anp") == [t for t in tudo if t[4] == "anp"]
    assert [t[1] for t in fila(responsavel="anp")] == [
        "prescricao_intercorrente",
        "prescricao",
        "retirada_lista",
    ]
    assert fila(responsavel="autuado") == [t for t in tudo if t[4] == "autuado"]
    # the CNPJ in its normal form: A (punctuated) and E (stored without punctuation)
    so_a_e = [t for t in tudo if t[0] in (ids["A"], ids["E"])]
    assert len(so_a_e) == 3
    for cnpj in (CNPJ_A, "12345678000195", " 12.345.678/0001-95 "):
        assert fila(cnpj=cnpj) == so_a_e, cnpj
    assert fila(cnpj="99.999.999/0001-99") == []
    assert fila(cnpj="") == tudo  # an empty field is no filter
    assert fila(estado="prescrito") == [t for t in tudo if t[0] == ids["B"]]
    assert fila(estado="suspenso") == [t for t in tudo if t[0] == ids["E"]]
    assert fila(estado="recurso_renunciado") == [t for t in tudo if t[0] == ids["A"]]
    assert fila(estado="pago") == []
    assert fila(vencidos=False) == [t for t in tudo if t[3] != "vencido"]
    assert fila(responsavel="autuado", cnpj=CNPJ_A, estado="suspenso") == [tudo[7]]


def test_prescritos_listados_e_ocultaveis_sem_silencio(ciclo: Ciclo) -> None:
    ids = _povoar(ciclo)
    sem = ciclo.pendencias(ler_filtros(REFERENCIA, prescritos=False))
    assert _linhas(sem) == [t for t in _esperado(ids) if t[0] != ids["B"]]
    assert sem["prescritos_ocultos"] == 4 and sem["filtros"]["prescritos"] is False
    # the count is of what the other filters would have listed
    so_anp = ciclo.pendencias(ler_filtros(REFERENCIA, responsavel="anp", prescritos=False))
    assert so_anp["prescritos_ocultos"] == 2
    assert ciclo.pendencias(ler_filtros(REFERENCIA))["prescritos_ocultos"] == 0


def test_todos_inclui_os_cumpridos_e_encerrados_da_janela(ciclo: Ciclo) -> None:
    ids = _povoar(ciclo)
    # on 01/06/2026 (30 days: to 01/07), A's appeal (11/06) is closed by the waiver
    sem = ciclo.pendencias(ler_filtros(date(2026, 6, 1), cnpj=CNPJ_A))["prazos"]
    assert [(i["prazo"], i["situacao"]) for i in sem] == [("pagamento_com_desconto", "em_aberto")]
    com = ciclo.pendencias(ler_filtros(date(2026, 6, 1), cnpj=CNPJ_A, todos=True))["prazos"]
    assert [(i["processo_id"], i["prazo"], i["situacao"], i["encerrado"]) for i in com] == [
        (ids["A"], "pagamento_com_desconto", "em_aberto", False),
        (ids["A"], "recurso", "encerrado", True),
    ]
    assert com[1]["dias_restantes"] == 10


@pytest.mark.parametrize(
    ("filtros", "campo"),
    [
        ({"responsavel": "ANP"}, "responsavel"),
        ({"responsavel": "fiscal"}, "responsavel"),
        ({"estado": "vencido"}, "estado"),
        ({"estado": "prescrito", "prescritos": False}, "prescritos"),
        ({"cnpj": "1" * 65}, "cnpj"),
        ({"cnpj": "12\x00"}, "cnpj"),
        ({"dias": -1}, "dias"),
        ({"dias": 3661}, "dias"),
        ({"dias": True}, "dias"),
    ],
)
def test_filtro_invalido_nomeia_o_parametro(filtros: dict[str, Any], campo: str) -> None:
    with pytest.raises(EntradaInvalida) as erro:
        ler_filtros(REFERENCIA, **filtros)
    assert erro.value.campo == campo and erro.value.mensagem


def test_processo_que_nao_pode_ser_lido_nunca_some(ciclo: Ciclo) -> None:
    ids = _povoar(ciclo)
    invalidar(ciclo.repositorio, ids["D"])  # § 6 now refuses it: its CNPJ is still trusted
    with ciclo.repositorio.engine.begin() as conexao:  # edited outside the system
        conexao.execute(
            update(ProcessoSalvo).where(ProcessoSalvo.id == ids["C"]).values(nome="Outro")
        )
    fila = ciclo.pendencias(ler_filtros(REFERENCIA))
    primeiros = fila["prazos"][:2]
    assert [(i["processo_id"], i["prazo"], i["situacao"]) for i in primeiros] == [
        (ids["C"], None, None),
        (ids["D"], None, None),
    ]
    assert all(i["erro"] for i in primeiros)
    assert "não é válido" in primeiros[1]["erro"]
    assert primeiros[1]["cnpj"] == "33.444.555/0001-66"
    assert primeiros[0]["cnpj"] is None and primeiros[0]["nome"] is None  # not trusted
    assert list(primeiros[0]) == list(CAMPOS_ITEM)
    assert _linhas({"prazos": fila["prazos"][2:]}) == [
        t for t in _esperado(ids) if t[0] not in (ids["C"], ids["D"])
    ]
    # no filter on what cannot be derived hides them
    for filtros in (
        {"responsavel": "autuado"},
        {"estado": "pago"},
        {"prescritos": False},
        {"vencidos": False},
    ):
        fila = ciclo.pendencias(ler_filtros(REFERENCIA, **filtros))
        assert [i["processo_id"] for i in fila["prazos"] if i["erro"]] == [ids["C"], ids["D"]]
    # the CNPJ filter hides D (its CNPJ is trusted), never C (nothing of it is)
    outro = ciclo.pendencias(ler_filtros(REFERENCIA, cnpj=CNPJ_A))["prazos"]
    assert [i["processo_id"] for i in outro if i["erro"]] == [ids["C"]]
    proprio = ciclo.pendencias(ler_filtros(REFERENCIA, cnpj="33444555000166"))["prazos"]
    assert [i["processo_id"] for i in proprio] == [ids["C"], ids["D"]]


# --- the command line ---------------------------------------------------------------------------


@pytest.fixture
def banco(tmp_path: Path) -> tuple[str, dict[str, int]]:
    url = f"sqlite:///{tmp_path / 'multas.db'}"
    repositorio = Repositorio(url)
    repositorio.migrar()
    ids = _povoar(Ciclo(repositorio))
    repositorio.fechar()
    return url, ids


def _multas(*args: str, codigo: int = 0) -> str:
    r = CliRunner().invoke(cli, list(args), prog_name="multas")
    assert r.exit_code == codigo, (args, r.output, r.exception)
    return r.output


def test_comando_registrado() -> None:
    assert COMANDOS["pendencias"] == "multas.cli.prazos:pendencias"
    assert "pendencias" in _multas("--help")


def test_cli_json_e_o_alias_da_a_mesma_saida(banco: tuple[str, dict[str, int]]) -> None:
    url, ids = banco
    saida = _multas("pendencias", "--data-referencia", "2026-07-20", "-f", "json", "--banco", url)
    fila = json.loads(saida)
    assert _linhas(fila) == _esperado(ids)
    for opcoes in (
        ["-f", "json"],
        ["-f", "texto"],
        ["-f", "csv"],
        ["-f", "json", "--responsavel", "anp", "--dias", "3"],
        ["-f", "texto", "--sem-prescritos", "--cnpj", "12345678000195"],
        ["-f", "csv", "--estado", "prescrito", "--sem-vencidos", "--todos"],
    ):
        comum = [*opcoes, "--banco", url]
        novo = _multas("pendencias", "--data-referencia", "2026-07-20", *comum)
        # the alias, with the old name of the date
        antigo = _multas("prazos", "proximos", "--hoje", "2026-07-20", *comum)
        assert novo == antigo, opcoes
    assert "pendencias" in _multas("prazos", "proximos", "--help")


def test_cli_texto(banco: tuple[str, dict[str, int]]) -> None:
    url, ids = banco
    texto = _multas("pendencias", "--data-referencia", "2026-07-20", "--banco", url)
    linhas = texto.splitlines()
    assert linhas[0] == (
        "Pendências em 20/07/2026 (segunda-feira): os prazos vencidos e os que vencem em 30 "
        "dias, até 19/08/2026 (quarta-feira)"
    )
    assert linhas[1] == ""
    assert linhas[2] == "Próximas ações, uma por processo (5), a mais urgente primeiro:"
    prazos = linhas.index("Prazos:")
    assert prazos == 3 + 2 * 5 + 1 and linhas[prazos - 1] == ""
    assert linhas[prazos + 1] == (
        f"  VENCIDO há {_dias('2015-06-16')} dias: 16/06/2015 (terça-feira)  Defesa escrita "
        "(defesa)"
    )
    assert linhas[prazos + 2] == (
        f"      age: autuado · processo {ids['B']} (anp, prescrito) Prescrito SA"
    )
    pagamento = linhas.index(
        "  VENCIDO há 17 dias: 03/07/2026 (sexta-feira)  Pagamento (vencimento) (pagamento)"
    )
    retirada = linhas.index(
        "  em aberto, faltam 1 dia: 21/07/2026 (terça-feira)  Retirada da lista pela ANP "
        "(retirada_lista)"
    )
    suspenso = linhas.index(
        "  suspenso por ordem judicial, a data é daqui a 1 dia: 21/07/2026 (terça-feira)  "
        "Defesa escrita (defesa)"
    )
    assert pagamento < retirada < suspenso
    assert linhas[pagamento + 1] == (
        f"      age: autuado · processo {ids['A']} (anp, recurso renunciado) Posto A"
    )
    assert linhas[pagamento + 2] == (
        "      Decreto nº 2.953/1999, art. 26, caput; Lei nº 9.847/1999, art. 4º, § 1º"
    )
    oculto = _multas(
        "pendencias", "--hoje", "2026-07-20", "--sem-prescritos", "--responsavel", "anp",
        "--banco", url,
    )  # fmt: skip
    assert "Filtros: age: anp · sem os processos prescritos" in oculto
    assert "Prescrito SA" not in oculto
    assert oculto.endswith(
        "2 prazos de processos prescritos ocultos (--prescritos para mostrar).\n"
    )
    vazio = _multas("pendencias", "--hoje", "2026-07-20", "--estado", "pago", "--banco", url)
    assert "Nenhuma pendência." in vazio


def test_cli_csv_seguro_para_planilha(banco: tuple[str, dict[str, int]]) -> None:
    url, ids = banco
    saida = _multas("pendencias", "--hoje", "2026-07-20", "-f", "csv", "--banco", url)
    linhas = list(csv.DictReader(io.StringIO(saida)))
    assert list(linhas[0]) == [c for c in CAMPOS_ITEM if c != "contagem"]
    assert [
        (int(r["processo_id"]), r["prazo"], r["data"], r["situacao"], r["responsavel"],
         r["estado"], int(r["dias_de_atraso"]), int(r["dias_restantes"]))
        for r in linhas
    ] == _esperado(ids)  # fmt: skip
    c = next(r for r in linhas if int(r["processo_id"]) == ids["C"])
    assert c["nome"] == "'" + NOME_C  # a spreadsheet reads it as text, never as a formula
    assert c["encerrado"] == "não" and c["erro"] == "" and c["cnpj"] == ""


def test_cli_responsavel_anp_lista_as_proximas_acoes_da_anp(
    banco: tuple[str, dict[str, int]],
) -> None:
    """Spec § 6.1 v4: one line per processo, by ``ate`` (none last), then ``desde``; the
    lapsed payment of A is the ANP's to send to the Dívida Ativa; D's removal (21/07/2026)
    is 2 days late on 23/07/2026."""
    url, ids = banco
    saida = _multas(
        "pendencias", "--data-referencia", "2026-07-23", "--responsavel", "anp", "-f", "json",
        "--banco", url,
    )  # fmt: skip
    acoes = [
        (a["processo_id"], a["quem"], a["o_que"], a["desde"], a["ate"], a["dias_de_atraso"])
        for a in json.loads(saida)["acoes"]
    ]
    assert acoes == [
        (ids["D"], "anp", "retirar da lista", "2026-07-14", "2026-07-21", 2),
        # 03/07/2026 (vencimento) + 5 anos: prescrição da cobrança
        (ids["A"], "anp", "prazo de pagamento encerrado: encaminhar para inscrição em Dívida "
         "Ativa", "2026-07-04", "2031-07-03", 0),
        # B prescribed: the intercurrent prescription lapsed on 01/06/2018
        (ids["B"], "anp", "arquivar os autos", "2018-06-02", None, 0),
    ]  # fmt: skip
    texto = _multas(
        "pendencias", "--data-referencia", "2026-07-23", "--responsavel", "anp", "--banco", url
    )
    assert (
        "  ANP: retirar da lista, desde 14/07/2026 (terça-feira), até 21/07/2026 (terça-feira), "
        "ATRASADA há 2 dias (Decreto nº 9.888/2019, art. 9º-A, § 3º (incluído pelo Decreto nº "
        "12.437/2025))"
    ) in texto
    assert "Próximas ações, uma por processo (3)" in texto
    assert "apresentar defesa" not in texto  # C's action is the autuado's
    judiciario = _multas(
        "pendencias", "--data-referencia", "2026-07-23", "--responsavel", "judiciario", "-f",
        "json", "--banco", url,
    )  # fmt: skip
    fila = json.loads(judiciario)
    assert [(a["processo_id"], a["o_que"]) for a in fila["acoes"]] == [
        (ids["E"], "aguardar a decisão judicial")
    ]
    assert fila["prazos"] == []  # no deadline is the court's


@pytest.mark.parametrize(
    ("opcoes", "campo"),
    [
        (["--responsavel", "fiscal"], "responsavel"),
        (["--estado", "vencido"], "estado"),
        (["--estado", "prescrito", "--sem-prescritos"], "prescritos"),
        (["--data-referencia", "2026-02-30"], "data_referencia"),
    ],
)
def test_cli_filtro_invalido(tmp_path: Path, opcoes: list[str], campo: str) -> None:
    banco = ["--banco", f"sqlite:///{tmp_path / 'm.db'}"]
    r = CliRunner().invoke(cli, ["pendencias", *opcoes, "-f", "json", *banco])
    assert r.exit_code == 2
    assert json.loads(r.output)["erro"]["campo"] == campo
    r = CliRunner().invoke(cli, ["pendencias", *opcoes, *banco])
    assert r.exit_code == 2 and f"Erro no campo '{campo}'" in r.output


# --- the API ----------------------------------------------------------------------------------


@pytest.fixture
def cliente(banco: tuple[str, dict[str, int]]) -> Iterator[TestClient]:
    with TestClient(criar_app(banco[0]), raise_server_exceptions=False) as c:
        yield c


def test_api_fila_e_a_rota_antiga_iguais(
    cliente: TestClient, banco: tuple[str, dict[str, int]]
) -> None:
    ids = banco[1]
    r = cliente.get("/api/v1/pendencias", params={"data_referencia": "2026-07-20"})
    assert r.status_code == 200 and r.headers["content-type"] == "application/json"
    assert _linhas(r.json()) == _esperado(ids)
    for params in (
        {"dias": "1", "responsavel": "autuado"},
        {"cnpj": "12345678000195", "prescritos": "0"},
        {"estado": "prescrito", "vencidos": "true", "todos": "true"},
        {"formato": "csv"},
        {"formato": "texto", "prescritos": "false"},
    ):
        novo = cliente.get("/api/v1/pendencias", params={"data_referencia": "2026-07-20", **params})
        antigo = cliente.get("/api/v1/prazos/proximos", params={"hoje": "2026-07-20", **params})
        assert novo.status_code == antigo.status_code == 200, novo.text
        assert novo.content == antigo.content, params
    filtrada = cliente.get(
        "/api/v1/pendencias",
        params={"data_referencia": "2026-07-20", "cnpj": CNPJ_A, "prescritos": "0"},
    ).json()
    assert [i["prazo"] for i in filtrada["prazos"]] == [
        "pagamento_com_desconto",
        "pagamento",
        "defesa",
    ]
    assert filtrada["filtros"]["cnpj"] == CNPJ_A and filtrada["prescritos_ocultos"] == 0


def test_api_csv_e_texto(cliente: TestClient, banco: tuple[str, dict[str, int]]) -> None:
    r = cliente.get("/api/v1/pendencias?data_referencia=2026-07-20&formato=csv&responsavel=anp")
    assert r.headers["content-type"] == "text/csv; charset=utf-8"
    assert r.headers["content-disposition"] == 'attachment; filename="pendencias-2026-07-20.csv"'
    linhas = list(csv.DictReader(io.StringIO(r.text)))
    assert [r["prazo"] for r in linhas] == [
        "prescricao_intercorrente",
        "prescricao",
        "retirada_lista",
    ]
    texto = cliente.get("/api/v1/pendencias?data_referencia=2026-07-20&formato=texto")
    assert texto.headers["content-type"] == "text/plain; charset=utf-8"
    assert texto.text.startswith("Pendências em 20/07/2026 (segunda-feira)")
    assert "VENCIDO há 17 dias" in texto.text


def test_api_proximas_acoes_filtradas_por_quem(
    cliente: TestClient, banco: tuple[str, dict[str, int]]
) -> None:
    """Spec § 6.1 v4: ``acoes``, one per processo, ``responsavel`` on ``quem``; the processo
    itself carries the same ``proxima_acao``."""
    ids = banco[1]
    consulta = {"data_referencia": "2026-07-20"}
    todas = cliente.get("/api/v1/pendencias", params=consulta).json()["acoes"]
    assert [(a["processo_id"], a["quem"], a["ate"]) for a in todas] == [
        (ids["D"], "anp", "2026-07-21"),
        (ids["C"], "autuado", "2026-07-28"),
        (ids["A"], "anp", "2031-07-03"),
        (ids["B"], "anp", None),
        (ids["E"], "judiciario", None),
    ]
    anp = cliente.get("/api/v1/pendencias", params={**consulta, "responsavel": "anp"}).json()
    assert [a["processo_id"] for a in anp["acoes"]] == [ids["D"], ids["A"], ids["B"]]
    assert anp["filtros"]["responsavel"] == "anp"
    processo = cliente.get(f"/api/v1/processos/{ids['D']}", params=consulta).json()
    esperado = {k: v for k, v in todas[0].items() if k in ("quem", "o_que", "desde", "ate")}
    assert {k: processo["resultado"]["proxima_acao"][k] for k in esperado} == esperado


@pytest.mark.parametrize("rota", ["/api/v1/pendencias", "/api/v1/prazos/proximos"])
@pytest.mark.parametrize(
    ("consulta", "campo"),
    [
        ("responsavel=fiscal", "responsavel"),
        ("responsavel=", "responsavel"),
        ("estado=vencido", "estado"),
        ("estado=prescrito&prescritos=0", "prescritos"),
        ("prescritos=talvez", "prescritos"),
        ("vencidos=2", "vencidos"),
        ("todos=x", "todos"),
        ("dias=3661", "dias"),
        ("dias=-1", "dias"),
        ("dias=1.5", "dias"),
        ("data_referencia=2026-02-30", "data_referencia"),
        ("hoje=ontem", "hoje"),
        ("formato=pdf", "formato"),
        ("cnpj=" + "1" * 65, "cnpj"),
        ("cnpj=12%00", "cnpj"),
    ],
)
def test_api_parametro_invalido_e_422_em_portugues(
    cliente: TestClient, rota: str, consulta: str, campo: str
) -> None:
    r = cliente.get(f"{rota}?{consulta}")
    assert r.status_code == 422, r.text
    erro = r.json()["erro"]
    assert erro["campo"] == campo and erro["mensagem"]


def test_api_no_openapi(cliente: TestClient) -> None:
    documento = cliente.get("/openapi.json").json()
    operacao = documento["paths"]["/api/v1/pendencias"]["get"]
    parametros = {p["name"] for p in operacao["parameters"]}
    assert parametros == {
        "data_referencia",
        "hoje",
        "dias",
        "responsavel",
        "cnpj",
        "estado",
        "prescritos",
        "vencidos",
        "todos",
        "formato",
        "ptbr",
        "limite",
        "deslocamento",
    }
    assert "/api/v1/prazos/proximos" in documento["paths"]
    esquemas = documento["components"]["schemas"]
    assert list(esquemas["Pendencia"]["properties"]) == list(CAMPOS_ITEM)
    assert esquemas["Pendencia"]["required"] == list(CAMPOS_ITEM)
    conteudo = operacao["responses"]["200"]["content"]
    assert conteudo["application/json"]["schema"] == {"$ref": "#/components/schemas/Pendencias"}
    assert set(conteudo) == {"application/json", "text/csv", "text/plain"}


def test_api_resposta_conforme_o_esquema(
    cliente: TestClient, banco: tuple[str, dict[str, int]]
) -> None:
    """The filled queue, an unreadable processo's item included, against its own schema."""
    import jsonschema_rs  # schemathesis's own validator

    repositorio = Repositorio(banco[0])
    invalidar(repositorio, banco[1]["D"])
    repositorio.fechar()
    esquemas = cliente.get("/openapi.json").json()["components"]["schemas"]
    esquema = json.loads(
        json.dumps(esquemas["Pendencias"])
        .replace('{"$ref": "#/components/schemas/Pendencia"}', json.dumps(esquemas["Pendencia"]))
        .replace(
            '{"$ref": "#/components/schemas/AcaoPendente"}', json.dumps(esquemas["AcaoPendente"])
        )
    )
    for params in ({}, {"todos": "true", "dias": "3660"}):
        fila = cliente.get(
            "/api/v1/pendencias", params={"data_referencia": "2026-07-20", **params}
        ).json()
        assert fila["prazos"][0]["erro"] and len(fila["prazos"]) > 5
        assert len(fila["acoes"]) == 4  # D cannot be read: no next action of its own
        jsonschema_rs.Draft202012Validator(esquema, validate_formats=True).validate(fila)


# --- the page ---------------------------------------------------------------------------------


def _corpo_da_tabela(html: str) -> str:
    return html[html.index('<table class="tabela prazos" id="tabela-pendencias">') :].split(
        "</table>"
    )[0]


def test_pagina_vencidos_primeiro_em_vermelho(
    cliente: TestClient, banco: tuple[str, dict[str, int]]
) -> None:
    ids = banco[1]
    r = cliente.get("/pendencias", params={"data_referencia": "2026-07-20"})
    assert r.status_code == 200
    tabela = _corpo_da_tabela(r.text)
    ordem = [f'id="pendencia-{pid}-{prazo}"' for pid, prazo, *_ in _esperado(ids)]
    posicoes = [tabela.index(marca) for marca in ordem]
    assert posicoes == sorted(posicoes)
    pagamento = tabela[tabela.index(f'id="pendencia-{ids["A"]}-pagamento"') :].split("</tr>")[0]
    assert 'class="situacao-vencido"' in pagamento and "VENCIDO há 17 dias" in pagamento
    assert "03/07/2026 (sexta-feira)" in pagamento and "age: autuado" in pagamento
    assert "estado: recurso renunciado" in pagamento
    retirada = tabela[tabela.index(f'id="pendencia-{ids["D"]}-retirada_lista"') :]
    assert retirada.split("</tr>")[0].count('class="situacao-em_aberto"') == 1
    assert "em aberto, faltam 1 dia" in retirada.split("</tr>")[0]
    # the red is the stylesheet's rule for an overdue deadline
    css = cliente.get("/static/estilo.css").text
    assert ".tabela.prazos tr.situacao-vencido td" in css and "#a40000" in css
    # a name typed as a formula or as HTML is text
    assert "=HYPERLINK(&#34;http://exemplo.invalid&#34;)" in tabela
    # the form keeps the filters; the CSV link carries them
    assert 'value="20/07/2026"' in r.text
    assert (
        'href="/api/v1/pendencias?data_referencia=2026-07-20&amp;dias=30&amp;prescritos=1'
        '&amp;vencidos=1&amp;formato=csv"' in r.text
    )


def test_pagina_filtros_e_prescritos_ocultos(
    cliente: TestClient, banco: tuple[str, dict[str, int]]
) -> None:
    ids = banco[1]
    r = cliente.get(
        "/pendencias",
        params={"data_referencia": "2026-07-20", "prescritos": "0", "responsavel": "anp"},
    )
    assert r.status_code == 200
    tabela = _corpo_da_tabela(r.text)
    assert f'id="pendencia-{ids["B"]}-' not in tabela
    assert f'id="pendencia-{ids["D"]}-retirada_lista"' in tabela
    assert f'id="pendencia-{ids["A"]}-' not in tabela  # the autuado's
    assert 'id="prescritos-ocultos"' in r.text and "2 prazos de processos prescritos" in r.text
    assert '<option value="0" selected>ocultar</option>' in r.text
    so_cnpj = cliente.get("/pendencias?data_referencia=2026-07-20&cnpj=12345678000195").text
    assert f'id="pendencia-{ids["E"]}-defesa"' in so_cnpj
    assert f'id="pendencia-{ids["D"]}-' not in so_cnpj
    vazia = cliente.get("/pendencias?data_referencia=2026-07-20&estado=pago")
    assert vazia.status_code == 200 and "Nenhuma pendência em 20/07/2026" in vazia.text


@pytest.mark.parametrize(
    ("consulta", "campo"),
    [
        ("dias=dez", "dias"),
        ("responsavel=fiscal", "responsavel"),
        ("estado=vencido", "estado"),
        ("prescritos=talvez", "prescritos"),
        ("data_referencia=2026-02-30", "data_referencia"),
    ],
)
def test_pagina_filtro_invalido(cliente: TestClient, consulta: str, campo: str) -> None:
    r = cliente.get(f"/pendencias?{consulta}")
    assert r.status_code == 422
    assert 'id="resumo-erro"' in r.text and f"{campo}: " in r.text
    assert 'id="tabela-pendencias"' not in r.text


def test_pagina_antiga_e_a_mesma(cliente: TestClient) -> None:
    nova = cliente.get("/pendencias?data_referencia=2026-07-20&dias=3").text
    antiga = cliente.get("/prazos?data=2026-07-20&dias=3").text
    assert _corpo_da_tabela(nova) == _corpo_da_tabela(antiga)
    inicio = cliente.get("/").text
    assert 'href="/pendencias"' in inicio
    assert 'href="/pendencias" aria-current="page"' in cliente.get("/prazos").text


def test_a_fila_e_a_listagem_leem_a_selic_do_banco_uma_vez(
    ciclo: Ciclo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Deriving many processos reads the database's Selic once, not once per processo that
    accrues charges under lei-10522 (each of these asks for the series)."""
    from multas.servicos import selic

    lidas: list[object] = []
    original = selic.serie_atual

    def contada(origem: Any) -> Any:
        lidas.append(origem)
        return original(origem)

    dados = {
        **PROCESSOS["A"],
        "valor_multa": "10000.00",
        "interpretacao": {"encargos": "lei-10522"},
    }
    for _ in range(3):
        ciclo.criar(dados)
    monkeypatch.setattr(selic, "serie_atual", contada)
    assert len(ciclo.listar(limite=None, referencia=REFERENCIA)) == 3
    assert len(lidas) == 1
    fila = ciclo.pendencias(ler_filtros(REFERENCIA))
    assert len(fila["acoes"]) == 3 and len(lidas) == 2
    assert ciclo.obter(1, referencia=REFERENCIA).valido is not None and len(lidas) == 3


def test_a_fila_e_o_ics_trazem_o_saldo_devido(ciclo: Ciclo) -> None:
    """Spec § 6.2 v4: a processo with valor_multa and a definitive decision shows what it owes
    on the queue's date: vencimento 03/07/2026 (30 days from the waiver), on 20/07 one month
    "ou fração" late: 10.000 + 1% + 2% = 10.300,00."""
    from datetime import UTC, datetime

    from multas.saidas.exportar import calendario_ics

    dados = {**PROCESSOS["A"], "valor_multa": "10000.00"}
    pid = ciclo.criar(dados).armazenado.id
    fila = ciclo.pendencias(ler_filtros(REFERENCIA, cnpj=CNPJ_A))
    assert {i["saldo"] for i in fila["prazos"] if i["processo_id"] == pid} == {"10300.00"}
    assert [a["saldo"] for a in fila["acoes"] if a["processo_id"] == pid] == ["10300.00"]
    ics = calendario_ics(
        ciclo.todos_os_prazos(REFERENCIA, processo_id=pid), datetime(2026, 7, 20, tzinfo=UTC)
    ).decode()
    assert "Valor devido na data da exportação: R$ 10.300\\,00" in ics.replace("\r\n ", "")
