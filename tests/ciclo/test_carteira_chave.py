"""The ledger's key is the normalised CNPJ (issue 19, item 3): any spelling finds the
distributor, two spellings of one (CNPJ, year) in a file are one year repeated, and migration
r0008 normalises the stored rows, leaving the colliding ones as they were and reporting them
(never merging them), on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from sqlalchemy import select, text

from multas.nucleo.erros import EntradaInvalida
from multas.principal import cli
from multas.servicos.gestao import Ciclo, NaoEncontrado
from multas.servicos.persistencia import Repositorio
from multas.servicos.persistencia.modelos_ciclo import AnoCarteiraSalvo
from multas.servidor import criar_app

PONTUADO, NUMERICO = "11.222.333/0001-81", "11222333000181"
ALFA_MINUSCULO, ALFA = "12.abc.345/01de-35", "12ABC34501DE35"


def _ano(cnpj: str, ano: int = 2024, aposentados: int = 600) -> dict[str, Any]:
    return {"cnpj": cnpj, "ano": ano, "meta_cbios": 1000, "cbios_aposentados": aposentados}


@pytest.fixture
def ciclo(database_url: str) -> Iterator[Ciclo]:
    repo = Repositorio(database_url)
    try:
        yield Ciclo(repo)
    finally:
        repo.fechar()


def _linhas(ciclo: Ciclo) -> list[tuple[str, int]]:
    with ciclo.repositorio.leitura() as sessao:
        return [
            (str(c), int(a))
            for c, a in sessao.execute(
                select(AnoCarteiraSalvo.cnpj, AnoCarteiraSalvo.ano).order_by(AnoCarteiraSalvo.id)
            )
        ]


def test_qualquer_grafia_acha_o_distribuidor(ciclo: Ciclo) -> None:
    salvo = ciclo.salvar_ano(_ano(PONTUADO, 2024))
    assert salvo["cnpj"] == PONTUADO  # the result echoes the CNPJ as given
    ciclo.salvar_ano(_ano(NUMERICO, 2025, 1400))  # the same distributor, another spelling
    assert _linhas(ciclo) == [(NUMERICO, 2024), (NUMERICO, 2025)]
    for grafia in (NUMERICO, PONTUADO, f"  {PONTUADO} "):
        assert [a["ano"] for a in ciclo.carteira(grafia)["anos"]] == [2024, 2025]
    # the year's own entry keeps the CNPJ as given
    anos = ciclo.repo.anos_carteira(NUMERICO)
    assert [a.entrada["cnpj"] for a in anos] == [PONTUADO, NUMERICO]
    assert ciclo.distribuidores() == [{"cnpj": NUMERICO, "nome": None, "anos": 2}]
    # saving again under a third spelling replaces the year, never adds a row
    ciclo.salvar_ano(_ano(" 11222333/0001-81", 2024, 700))
    assert _linhas(ciclo) == [(NUMERICO, 2024), (NUMERICO, 2025)]
    # the alphanumeric CNPJ, lower case as typed
    ciclo.salvar_ano(_ano(ALFA_MINUSCULO, 2024))
    assert [a["ano"] for a in ciclo.carteira(ALFA)["anos"]] == [2024]
    assert [a["ano"] for a in ciclo.carteira("12.ABC.345/01DE-35")["anos"]] == [2024]
    assert ciclo.carteira(ALFA)["cnpj"] == ALFA_MINUSCULO
    # deleted by any spelling
    ciclo.excluir_ano(ALFA, 2024)
    with pytest.raises(NaoEncontrado):
        ciclo.carteira(ALFA_MINUSCULO)
    ciclo.excluir_ano(PONTUADO, 2025)
    assert [a["ano"] for a in ciclo.carteira(NUMERICO)["anos"]] == [2024]
    assert ciclo.verificar().integro


def test_importar_duas_grafias_de_um_cnpj_e_um_distribuidor_no_resumo(ciclo: Ciclo) -> None:
    resumo = ciclo.importar([_ano(PONTUADO, 2023), _ano(NUMERICO, 2024)])
    assert resumo == {"anos": 2, "distribuidores": [PONTUADO]}


def test_importar_duas_grafias_do_mesmo_ano_e_repeticao(ciclo: Ciclo, tmp_path: Path) -> None:
    arquivo = tmp_path / "carteira.csv"
    arquivo.write_text(
        "cnpj,ano,meta_cbios,cbios_aposentados\n"
        f"{NUMERICO},2023,1000,1000\n"
        f"{PONTUADO},2024,1000,600\n"
        f"{NUMERICO},2024,1000,700\n",
        encoding="utf-8",
    )
    saida = CliRunner().invoke(
        cli, ["carteira", "importar", str(arquivo), "--banco", ciclo.repositorio.url]
    )
    assert saida.exit_code != 0
    assert "ano 2024 repetido no arquivo" in saida.output, saida.output
    assert "linha 4" in saida.output and "linha 3" in saida.output, saida.output
    assert _linhas(ciclo) == []  # nothing stored
    with pytest.raises(EntradaInvalida, match="repetido"):
        ciclo.importar([_ano(ALFA_MINUSCULO), _ano(ALFA)])


def test_linha_de_comando_api_e_pagina_acham_por_qualquer_grafia(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'multas.db'}"
    entrada = tmp_path / "ano.json"
    entrada.write_text(json.dumps(_ano(PONTUADO)), encoding="utf-8")
    salvar = CliRunner().invoke(cli, ["carteira", "salvar", str(entrada), "--banco", url])
    assert salvar.exit_code == 0, salvar.output
    for grafia in (NUMERICO, PONTUADO):
        mostrar = CliRunner().invoke(
            cli, ["carteira", "mostrar", grafia, "--banco", url, "--formato", "json"]
        )
        assert mostrar.exit_code == 0, mostrar.output
        assert [a["ano"] for a in json.loads(mostrar.output)["anos"]] == [2024]
    with TestClient(criar_app(url), raise_server_exceptions=False) as cliente:
        for grafia in (NUMERICO, PONTUADO, "11222333/000181"):
            api = cliente.get("/api/v1/carteira/distribuidor", params={"cnpj": grafia})
            assert api.status_code == 200 and api.json()["cnpj"] == PONTUADO
            pagina = cliente.get("/carteira/distribuidor", params={"cnpj": grafia})
            assert pagina.status_code == 200 and "2024" in pagina.text
        excluir = cliente.delete(
            "/api/v1/carteira/distribuidor", params={"cnpj": NUMERICO, "ano": 2024}
        )
        assert excluir.status_code == 204
        assert (
            cliente.get("/api/v1/carteira/distribuidor", params={"cnpj": PONTUADO}).status_code
            == 404
        )


@pytest.mark.parametrize(
    ("cnpj", "mensagem"),
    [
        ("./-", "CNPJ inválido"),
        (". / -", "CNPJ inválido"),
        ("1" * 33, "longo demais"),
    ],
)
def test_cnpj_hostil_e_recusado(ciclo: Ciclo, cnpj: str, mensagem: str) -> None:
    with pytest.raises(EntradaInvalida, match=mensagem):
        ciclo.salvar_ano(_ano(cnpj))
    assert _linhas(ciclo) == []
    with pytest.raises((NaoEncontrado, EntradaInvalida)):
        ciclo.carteira(cnpj)


#: texts that are no CNPJ, or a CNPJ whose check digits are wrong (issue 32)
NAO_CNPJS = ["=1+1", "+1=1", "../../etc/x", "11.222.333/0001-80", "12.ABC.345/01DE-36"]


@pytest.fixture(scope="module")
def entradas(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path, TestClient]]:
    """One database, its server and a folder, for refusals that write nothing."""
    pasta = tmp_path_factory.mktemp("entradas")
    url = f"sqlite:///{pasta / 'multas.db'}"
    with TestClient(criar_app(url), raise_server_exceptions=False) as cliente:
        yield url, pasta, cliente


def _pela_linha_de_comando(comando: str, url: str, pasta: Path, cnpj: str) -> str:
    if comando == "salvar":
        arquivo = pasta / "ano.json"
        arquivo.write_text(json.dumps(_ano(cnpj)), encoding="utf-8")
    else:
        arquivo = pasta / "carteira.csv"
        arquivo.write_text(
            f"cnpj,ano,meta_cbios,cbios_aposentados\n{PONTUADO},2023,1000,1000\n"
            f'"{cnpj}",2024,1000,600\n',
            encoding="utf-8",
        )
    saida = CliRunner().invoke(cli, ["carteira", comando, str(arquivo), "--banco", url])
    assert saida.exit_code == 2, saida.output
    return str(saida.output)


def _pela_api(rota: str, cliente: TestClient, cnpj: str) -> str:
    if rota == "salvar":
        r = cliente.post("/api/v1/carteira", json=_ano(cnpj))
    else:
        r = cliente.post(
            "/api/v1/carteira/importar?formato=json", json=[_ano(PONTUADO, 2023), _ano(cnpj)]
        )
    assert r.status_code == 422, r.text
    return "{campo}: {mensagem}".format(**r.json()["erro"])


def _pela_pagina(rota: str, cliente: TestClient, cnpj: str) -> str:
    from html import unescape

    if rota == "salvar":
        campos = {k: str(v) for k, v in _ano(cnpj).items()}
        r = cliente.post("/carteira", data=campos)
    else:
        colado = f"cnpj\tano\tmeta_cbios\tcbios_aposentados\n{cnpj}\t2024\t1000\t600\n"
        r = cliente.post("/carteira/importar", data={"conteudo": colado})
    assert r.status_code == 422, r.text[:500]
    return unescape(r.text)


ENTRADAS_DA_CARTEIRA = {
    "multas carteira salvar": lambda url, pasta, c, cnpj: _pela_linha_de_comando(
        "salvar", url, pasta, cnpj
    ),
    "multas carteira importar": lambda url, pasta, c, cnpj: _pela_linha_de_comando(
        "importar", url, pasta, cnpj
    ),
    "POST /api/v1/carteira": lambda url, pasta, c, cnpj: _pela_api("salvar", c, cnpj),
    "POST /api/v1/carteira/importar": lambda url, pasta, c, cnpj: _pela_api("importar", c, cnpj),
    "POST /carteira": lambda url, pasta, c, cnpj: _pela_pagina("salvar", c, cnpj),
    "POST /carteira/importar": lambda url, pasta, c, cnpj: _pela_pagina("importar", c, cnpj),
}


@pytest.mark.parametrize("cnpj", NAO_CNPJS)
@pytest.mark.parametrize("entrada", list(ENTRADAS_DA_CARTEIRA))
def test_o_cnpj_de_cada_entrada_da_carteira_tem_os_digitos_certos(
    entradas: tuple[str, Path, TestClient], entrada: str, cnpj: str
) -> None:
    """Every way a year comes into the ledger (the command line, the API, the page; one year
    or a file) refuses a CNPJ that is none, or whose check digits are wrong: an error naming
    the field and the text, and nothing stored (a file's other rows neither)."""
    url, pasta, cliente = entradas
    mensagem = ENTRADAS_DA_CARTEIRA[entrada](url, pasta, cliente, cnpj)
    assert "cnpj" in mensagem and f"CNPJ inválido: '{cnpj}'" in mensagem, mensagem
    assert cliente.get("/api/v1/carteira").json() == []


def test_cnpj_nao_ascii_e_so_espacos(ciclo: Ciclo) -> None:
    with pytest.raises(EntradaInvalida):
        ciclo.salvar_ano(_ano(" \t "))
    # non-ASCII letters are not upper-cased into ASCII: ſ is not S, ﬁ is not FI; no such
    # CNPJ comes in (its check digits cannot be right), but a row stored before that rule
    # keeps its own key
    for cnpj in ("11.222.333/0001-8ſ", "ﬁ.222.333/0001-81"):
        with pytest.raises(EntradaInvalida, match="CNPJ inválido"):
            ciclo.salvar_ano(_ano(cnpj))
        ciclo.repo.salvar_anos([(cnpj, 2024, None, _ano(cnpj))], "ana", None)
    assert _linhas(ciclo) == [("1122233300018ſ", 2024), ("ﬁ222333000181", 2024)]
    with pytest.raises(NaoEncontrado):
        ciclo.carteira("11222333000185")
    with pytest.raises(NaoEncontrado):
        ciclo.carteira("FI222333000181")
    assert [a["ano"] for a in ciclo.carteira("11222333/0001-8ſ")["anos"]] == [2024]


# --- migration r0008 ------------------------------------------------------------------------------

MOMENTO = datetime(2026, 1, 1, tzinfo=UTC)
#: the ledger's columns added after r0008 (by r0009 and r0011)
NOVAS_COLUNAS = [
    ("excluido_em", "TIMESTAMP"),
    ("carga_id", "BIGINT"),
    ("substituida_por", "BIGINT"),
]


def _ate_r0007(repo: Repositorio) -> None:
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", "multas.servicos.persistencia:migracoes")
    with repo.engine.begin() as conexao:
        config.attributes["connection"] = conexao
        command.upgrade(config, "r0007")


@pytest.fixture
def migrado(database_url: str, caplog: pytest.LogCaptureFixture) -> Iterator[Any]:
    """A database at r0007 with ledger years written as that code wrote them (the CNPJ as
    typed, through the audited write), one edited outside the system, upgraded to head."""
    repo = Repositorio(database_url)
    _ate_r0007(repo)
    repo._migrado = True  # the r0007 code's writes, without upgrading first
    # today's code writes columns r0009 and r0011 add: they are there only while the
    # r0007-era rows are written, NULL in each (as those migrations leave them), and dropped
    # before the upgrade
    with repo.engine.begin() as c:
        for coluna, tipo in NOVAS_COLUNAS:
            c.execute(text(f"ALTER TABLE carteira_anos ADD COLUMN {coluna} {tipo}"))
    grafias = [
        ("solto", PONTUADO, 2023),
        ("colide_pontuado", PONTUADO, 2024),
        ("colide_numerico", NUMERICO, 2024),
        ("alfa", ALFA_MINUSCULO, 2024),
        ("colide_a", "99.888.777/0001-66", 2024),
        ("colide_b", "99888777/0001-66", 2024),
        ("vazio", "./-", 2024),
        ("adulterado", "22.333.444/0001-05", 2024),
    ]
    linhas = {}
    with repo.escrita("ana") as escrita:
        for nome, cnpj, ano in grafias:
            linha = AnoCarteiraSalvo(
                cnpj=cnpj,
                ano=ano,
                nome=None,
                entrada=json.dumps(_ano(cnpj, ano)),
                usuario="ana",
                criado_em=MOMENTO,
                atualizado_em=MOMENTO,
            )
            linhas[nome] = linha
        for linha in linhas.values():
            escrita.inserir(linha, "carteira_criar", {"cnpj": linha.cnpj, "ano": linha.ano})
    ids = {nome: int(linha.id) for nome, linha in linhas.items()}
    with repo.engine.begin() as c:
        for coluna, _ in NOVAS_COLUNAS:
            c.execute(text(f"ALTER TABLE carteira_anos DROP COLUMN {coluna}"))
    with repo.engine.begin() as c:
        c.execute(
            text("UPDATE carteira_anos SET nome = 'forjado' WHERE id = :i"),
            {"i": ids["adulterado"]},
        )
    repo._migrado = False
    with caplog.at_level(logging.WARNING, logger="multas.servicos.persistencia"):
        repo.migrar()
    yield repo, ids, [r.getMessage() for r in caplog.records]
    repo.fechar()


def _cnpjs(repo: Repositorio) -> dict[int, str]:
    """The stored years not deleted (a deleted one is in the bin: issue 20, item 4)."""
    with repo.engine.begin() as c:
        return {
            int(i): str(x)
            for i, x in c.execute(
                text("SELECT id, cnpj FROM carteira_anos WHERE excluido_em IS NULL")
            )
        }


def test_migracao_r0008_normaliza_e_aponta_as_colisoes(migrado: Any) -> None:
    repo, ids, avisos = migrado
    cnpjs = _cnpjs(repo)
    # normalised: the rows without a collision (the edited one too, but not vouched for)
    assert cnpjs[ids["solto"]] == NUMERICO
    assert cnpjs[ids["alfa"]] == ALFA
    assert cnpjs[ids["adulterado"]] == "22333444000105"
    # untouched: the colliding ones, and the one with no key
    assert cnpjs[ids["colide_pontuado"]] == PONTUADO
    assert cnpjs[ids["colide_numerico"]] == NUMERICO
    assert cnpjs[ids["colide_a"]] == "99.888.777/0001-66"
    assert cnpjs[ids["colide_b"]] == "99888777/0001-66"
    assert cnpjs[ids["vazio"]] == "./-"
    # the warnings name the rows, the CNPJs as stored and the year
    colisao = next(a for a in avisos if f"nº {ids['colide_pontuado']} " in a)
    assert f"nº {ids['colide_numerico']} " in colisao and repr(PONTUADO) in colisao
    assert "2024" in colisao and "exclua ou corrija" in colisao and "não as juntou" in colisao
    assert any(f"nº {ids['colide_a']} " in a and f"nº {ids['colide_b']} " in a for a in avisos)
    assert any(f"nº {ids['vazio']} " in a for a in avisos)
    assert any(f"nº {ids['adulterado']} não confere" in a for a in avisos)
    # one audit row for each vouched-for row normalised
    migracoes = [r for r in repo.auditoria(limite=10_000) if r.usuario == "migração r0008"]
    assert sorted((r.registro_id, r.acao, r.operacao) for r in migracoes) == sorted(
        [(ids["solto"], "carteira_migrar", "alterar"), (ids["alfa"], "carteira_migrar", "alterar")]
    )
    # the chain verifies but for the edited row; the collisions are named, never silent
    ciclo = Ciclo(repo)
    relatorio = ciclo.verificar()
    nomeados = {(p.tipo, p.id) for p in relatorio.problemas}
    assert nomeados == {
        ("alterado", ids["adulterado"]),
        ("colisão", ids["colide_pontuado"]),
        ("colisão", ids["colide_a"]),
        ("colisão", ids["colide_b"]),
        ("colisão", ids["vazio"]),
    }, relatorio.problemas
    assert not {p.id for p in repo.verificar().problemas} - {ids["adulterado"]}
    saida = CliRunner().invoke(
        cli, ["auditoria", "verificar", "--banco", repo.url, "--formato", "json"]
    )
    assert saida.exit_code == 1, saida.output
    assert ("carteira_anos", ids["colide_pontuado"]) in {
        (p["tabela"], p["id"]) for p in json.loads(saida.output)["problemas"]
    }


def test_depois_da_migracao_a_carteira_funciona_e_a_colisao_se_resolve(migrado: Any) -> None:
    repo, ids, _ = migrado
    ciclo = Ciclo(repo)
    # each spelling of a collision finds its own row; the key finds its own
    por_numerico = ciclo.repo.anos_carteira(NUMERICO)
    assert [(a.ano, a.entrada["cnpj"]) for a in por_numerico] == [
        (2023, PONTUADO),
        (2024, NUMERICO),
    ]
    por_pontuado = ciclo.repo.anos_carteira(PONTUADO)
    assert [(a.ano, a.entrada["cnpj"]) for a in por_pontuado] == [
        (2023, PONTUADO),
        (2024, PONTUADO),
    ]
    assert [a["ano"] for a in ciclo.carteira("99888777/0001-66")["anos"]] == [2024]
    with pytest.raises(NaoEncontrado):  # neither colliding row is the key
        ciclo.carteira("99888777000166")
    # a write to the year under the colliding spelling is refused until it is resolved
    with pytest.raises(EntradaInvalida, match="colidir"):
        ciclo.salvar_ano(_ano(PONTUADO, 2024, 900))
    # resolved: the row stored with that spelling deleted by it (the command line); the
    # key's row stays
    saida = CliRunner().invoke(
        cli, ["carteira", "excluir", PONTUADO, "--ano", "2024", "--banco", repo.url]
    )
    assert saida.exit_code == 0, saida.output
    assert ids["colide_pontuado"] not in _cnpjs(repo)
    assert _cnpjs(repo)[ids["colide_numerico"]] == NUMERICO
    ciclo.salvar_ano(_ano(PONTUADO, 2024, 900))
    assert [a["deficit"] for a in ciclo.carteira(PONTUADO)["anos"]] == [400, 500]
    nomeados = {(p.tipo, p.id) for p in ciclo.verificar().problemas}
    assert ("colisão", ids["colide_pontuado"]) not in nomeados
    assert ("colisão", ids["colide_a"]) in nomeados


@pytest.mark.parametrize(
    "busca",
    ["11.222.333/0001-81", "11222333000181", " 11.222.333/0001-81 ", "11.222.333/000181"],
)
def test_processos_sao_achados_por_qualquer_grafia_do_cnpj(repo: Any, busca: str) -> None:
    """The processos' filter compares CNPJs in their normal form (SQL on both databases); the
    stored CNPJ keeps its spelling."""
    from multas.servicos.gestao import Ciclo

    ciclo = Ciclo(repo)
    eventos = [{"evento": "fim_prazo_meta", "data": "2025-12-31"}]
    ciclo.criar({"tipo": "renovabio.lista", "cnpj": "11.222.333/0001-81", "eventos": eventos})
    ciclo.criar({"tipo": "renovabio.lista", "cnpj": "12.abc.345/01de-35", "eventos": eventos})
    ciclo.criar({"tipo": "renovabio.lista", "cnpj": "99.999.999/0001-91", "eventos": eventos})
    achados = ciclo.listar(limite=None, cnpj=busca)
    assert [d.armazenado.cnpj for d in achados] == ["11.222.333/0001-81"]
    alfanumerico = ciclo.listar(limite=None, cnpj="12ABC34501DE35")
    assert [d.armazenado.cnpj for d in alfanumerico] == ["12.abc.345/01de-35"]


def test_casos_salvos_sao_achados_por_qualquer_grafia_do_cnpj(repo: Any) -> None:
    """A saved case is found by the CNPJ its result echoes, in any spelling (the JSON read in
    SQL, the same on both databases); a result that is not JSON is a pt-BR error."""
    from sqlalchemy import text

    from multas import calcular
    from multas.servidor.exemplos import EXEMPLOS

    def salvar(cnpj: str | None) -> int:
        caso = dict(EXEMPLOS["anp.mora"]) | ({"cnpj": cnpj} if cnpj else {})
        resultado = calcular(caso)
        return repo.salvar(
            regime="anp.mora",
            entrada=json.dumps(caso, default=str),
            resultado=resultado,
            versao_motor="t",
            versao_legislacao="t",
        ).id

    primeiro = salvar("11.222.333/0001-81")
    salvar("12.abc.345/01de-35")
    salvar(None)
    for busca in ("11222333000181", " 11.222.333/0001-81 ", "11.222.333/0001-81"):
        assert [c.id for c in repo.listar(cnpj=busca)] == [primeiro]
        assert repo.contar(cnpj=busca) == 1
    assert repo.contar(cnpj="12ABC34501DE35") == 1
    assert repo.contar(cnpj="99999999000191") == 0
    assert repo.contar() == 3
    with repo.engine.begin() as conexao:
        try:
            conexao.execute(
                text("UPDATE casos SET resultado = 'não é JSON' WHERE id = :i"), {"i": primeiro}
            )
        except Exception:  # the application's role may not alter a case on PostgreSQL
            pytest.skip("o papel do teste não altera casos")
    with pytest.raises(EntradaInvalida, match="não é JSON"):
        repo.contar(cnpj="11222333000181")
