"""Issue 19, item 4: processos in bulk. ``multas processo importar ARQUIVO`` (CSV, XLSX or JSON
Lines; one row per event) creates or appends by ``referencia``, which is unique; it is all or
nothing: a row identical to a stored event is skipped and counted, and a conflicting one
refuses the whole file, naming the line. ``multas processo exportar`` writes the same format,
so exporting then importing round-trips. The API and the page take the same file.

The storing tests run on SQLite and PostgreSQL (the ``repo`` fixture)."""

from __future__ import annotations

import io
import json
import threading
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from sqlalchemy import text

from multas.nucleo.arquivos import LINHA_DE_COMANDO
from multas.nucleo.erros import EntradaInvalida
from multas.principal import cli
from multas.servicos.exportar_processos import exportar_processos
from multas.servicos.gestao import Ciclo
from multas.servicos.importar import importar_processos, ler_arquivo
from multas.servicos.persistencia import RegistroAlterado, Repositorio
from tests.utils import Ambiente, com

CNPJ = "12.345.678/0001-95"
CABECALHO = "referencia,tipo,cnpj,nome,evento,data,valor_multa\n"
#: the date every derived deadline is judged on, so no test depends on today's
REFERENCIA = date(2026, 6, 1)


@pytest.fixture
def ciclo_sqlite(tmp_path: Path) -> Iterator[Ciclo]:
    repo = Repositorio(f"sqlite:///{tmp_path / 'm.db'}")
    repo.migrar()
    yield Ciclo(repo)
    repo.fechar()


def importar(
    ciclo: Ciclo, conteudo: str | bytes, nome: str = "p.csv", ptbr: bool = False
) -> dict[str, Any]:
    dados = conteudo.encode() if isinstance(conteudo, str) else conteudo
    return importar_processos(ciclo, ler_arquivo(dados, nome, ptbr, LINHA_DE_COMANDO), "Ana")


def recusa(ciclo: Ciclo, conteudo: str | bytes, nome: str = "p.csv") -> EntradaInvalida:
    with pytest.raises(EntradaInvalida) as info:
        importar(ciclo, conteudo, nome)
    return info.value


def retrato(ciclo: Ciclo) -> dict[Any, Any]:
    """Every stored processo by its id: what it keeps, its events and what § 6 derives from it
    on :data:`REFERENCIA` (its number aside, which a new database gives anew)."""
    retratos = {}
    for derivado in ciclo.listar(limite=None):
        a = derivado.armazenado
        retratos[a.identificador] = {
            "tipo": a.tipo,
            "cnpj": a.cnpj,
            "nome": a.nome,
            "calendario": a.calendario,
            "valor_multa": a.valor_multa,
            "dias_sem_expediente": a.dias_sem_expediente,
            "caso_id": a.caso_id,
            "vinculo": None
            if a.lista_id is None
            else ciclo.obter(a.lista_id).armazenado.identificador,
            "eventos": [(e.evento, e.data) for e in a.eventos],
            "resultado": ciclo.derivar(a, referencia=REFERENCIA).resultado,
        }
    return retratos


def _anp(ciclo: Ciclo, referencia: Any, *eventos: tuple[str, str], **extra: Any) -> int:
    dados = {
        "tipo": "anp",
        "id": referencia,
        "eventos": [{"evento": e, "data": d} for e, d in eventos],
        **extra,
    }
    return ciclo.criar(dados).armazenado.id


# --- create -------------------------------------------------------------------------------------


def test_cria_cada_referencia_com_seus_eventos_na_ordem_do_arquivo(ciclo: Ciclo) -> None:
    arquivo = (
        "referencia,tipo,cnpj,nome,evento,data,valor_multa,calendario,dias_sem_expediente\n"
        f"48610.000123/2024-11,anp,{CNPJ},Posto Exemplo,infracao,2024-01-10,15000.50,,\n"
        "LISTA-1,renovabio.lista,,Distribuidora,fim_prazo_meta,2025-12-31,,,\n"
        f"48610.000123/2024-11,anp,{CNPJ},Posto Exemplo,auto_infracao,2024-02-01,15000.50,"
        "feriados,2024-02-15 2024-02-16\n"
        "LISTA-1,renovabio.lista,,,decisao_primeira_instancia,2026-02-06,,,\n"
    )
    resumo = importar(ciclo, arquivo)
    assert resumo == {
        "linhas": 4,
        "processos_criados": 2,
        "eventos_acrescentados": 0,
        "linhas_iguais_puladas": 0,
        "vinculos_criados": 0,
        "vinculos_iguais_pulados": 0,
        "criados": resumo["criados"],
        "acrescidos": [],
    }
    anp, lista = (ciclo.obter(i).armazenado for i in resumo["criados"])
    assert (anp.identificador, anp.cnpj, anp.nome) == (
        "48610.000123/2024-11",
        CNPJ,
        "Posto Exemplo",
    )
    assert [(e.evento, e.data.isoformat()) for e in anp.eventos] == [
        ("infracao", "2024-01-10"),
        ("auto_infracao", "2024-02-01"),
    ]
    # a blank cell says nothing: the processo's fields come from the rows that give them
    assert (anp.valor_multa, anp.calendario) == ("15000.50", "feriados")
    assert anp.dias_sem_expediente == ["2024-02-15", "2024-02-16"]
    assert (lista.tipo, lista.nome, lista.cnpj) == ("renovabio.lista", "Distribuidora", None)
    # the deadlines are derived as for any stored processo: the defence (Decreto 2.953/1999
    # art. 8º) 15 days from 01/02/2024 is 16/02/2024, a day without expediente here, so 19/02
    prazos = {p["prazo"]: p for p in ciclo.derivar(anp, referencia=REFERENCIA).resultado["prazos"]}
    assert prazos["defesa"]["data"] == "2024-02-19"
    # the audit says who imported, and the chain holds
    assert {e.usuario for e in anp.eventos} == {"Ana"}
    acoes = {r.acao for r in ciclo.repositorio.auditoria(tabela="processos")}
    assert acoes == {"processo_importar"}
    assert ciclo.verificar().integro


def test_os_processos_novos_sao_conferidos_antes_da_escrita(
    ciclo: Ciclo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file's new processos are checked (§ 6 derives each) before the write takes the
    chain's lock; one whose reference is stored is appended to, checked inside; an error of
    a new one is still the file's first, named at its row."""
    from contextlib import contextmanager

    from multas.servicos import importar as modulo

    _anp(ciclo, "SALVO-1", ("infracao", "2024-01-10"))
    dentro: list[bool] = []
    escrita_original, novo_original = type(ciclo.repositorio).escrita, modulo._novo

    @contextmanager
    def escrita(self: Repositorio, *args: Any, **kwargs: Any) -> Iterator[Any]:
        with escrita_original(self, *args, **kwargs) as e:
            dentro.append(True)
            try:
                yield e
            finally:
                dentro.pop()

    quando: list[tuple[str, bool]] = []

    def novo(c: Ciclo, grupo: Any) -> Any:
        quando.append((grupo[0].referencia, bool(dentro)))
        return novo_original(c, grupo)

    monkeypatch.setattr(type(ciclo.repositorio), "escrita", escrita)
    monkeypatch.setattr(modulo, "_novo", novo)
    arquivo = (
        "referencia,tipo,evento,data\n"
        "NOVO-1,anp,infracao,2024-01-10\n"
        "SALVO-1,anp,auto_infracao,2024-02-01\n"
        "NOVO-2,anp,infracao,2024-01-10\n"
    )
    assert importar(ciclo, arquivo)["processos_criados"] == 2
    assert quando == [("NOVO-1", False), ("NOVO-2", False)]
    ruim = arquivo.replace("NOVO-1,anp,infracao", "NOVO-8,anp,defesa")
    erro = recusa(ciclo, ruim.replace("NOVO-2,anp,infracao", "NOVO-9,anp,defesa"))
    assert erro.mensagem.startswith("linha 2, coluna evento: o primeiro evento")


def test_em_dois_nucleos_o_mesmo_resultado_e_o_mesmo_erro(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The command line checks the new processos in forked workers: the same processos
    stored and the same first error as on one core. A processo that names a saved case (its
    fine read from the database) is checked here, never in a worker."""
    from multas.servicos import importar as modulo
    from tests.utils.casos import ENTRADA

    enviados: list[list[str]] = []
    original = modulo.em_paralelo

    def espiao(fazer: Any, itens: Any, processos: int = 1) -> Any:
        enviados.append([g[0].referencia for g in itens])
        return original(fazer, itens, processos)

    monkeypatch.setattr(modulo, "em_paralelo", espiao)
    linhas = [f"N-{i},anp,{CNPJ},infracao,2024-01-10,{'' if i else '{caso}'}" for i in range(6)]
    arquivo = "referencia,tipo,cnpj,evento,data,caso_id\n" + "\n".join(linhas) + "\n"
    ruim = arquivo.replace(
        "N-3,anp,12.345.678/0001-95,infracao", "N-3,anp,12.345.678/0001-95,defesa"
    )
    retratos, erros = [], []
    for processos in (1, 2):
        repo = Repositorio(f"sqlite:///{tmp_path / f'{processos}.db'}")
        repo.migrar()
        ciclo = Ciclo(repo)
        caso = repo.salvar(
            regime="anp.infracao",
            entrada=ENTRADA,
            resultado={"valor": "5000.00"},
            versao_motor="t",
            versao_legislacao="t",
        )
        lido = ler_arquivo(ruim.format(caso=caso.id).encode(), "p.csv", False, LINHA_DE_COMANDO)
        with pytest.raises(EntradaInvalida) as info:
            importar_processos(ciclo, lido, "Ana", processos)
        erros.append(info.value.mensagem)
        lido = ler_arquivo(arquivo.format(caso=caso.id).encode(), "p.csv", False, LINHA_DE_COMANDO)
        assert importar_processos(ciclo, lido, "Ana", processos)["processos_criados"] == 6
        retratos.append(retrato(ciclo))
        assert ciclo.verificar().integro
        repo.fechar()
    assert retratos[0] == retratos[1]
    assert erros[0] == erros[1]
    assert erros[0].startswith("linha 5, coluna evento:")
    # on 2 cores, the workers got every new processo but the one with the saved case
    assert enviados == [[f"N-{i}" for i in range(1, 6)]] * 2


def test_id_e_o_outro_nome_de_referencia_e_ptbr_le_os_numeros(ciclo: Ciclo) -> None:
    resumo = importar(
        ciclo,
        "id;tipo;evento;data;valor_multa\nA-1;anp;infracao;2024-01-10;1.500,50\n",
        ptbr=True,
    )
    salvo = ciclo.obter(resumo["criados"][0]).armazenado
    assert (salvo.identificador, salvo.valor_multa) == ("A-1", "1500.50")


# --- append -------------------------------------------------------------------------------------


def test_acrescenta_ao_processo_salvo_e_pula_as_linhas_iguais(ciclo: Ciclo) -> None:
    pid = _anp(ciclo, "R-1", ("infracao", "2024-01-10"), ("auto_infracao", "2024-02-01"))
    arquivo = (
        "referencia,tipo,evento,data\n"
        "R-1,anp,infracao,2024-01-10\n"  # stored: skipped
        "R-1,anp,auto_infracao,2024-02-01\n"  # stored: skipped
        "R-1,anp,defesa,2024-02-10\n"
        "R-1,anp,ciencia_primeira_instancia,2024-05-20\n"
    )
    resumo = importar(ciclo, arquivo)
    assert resumo == {
        "linhas": 4,
        "processos_criados": 0,
        "eventos_acrescentados": 2,
        "linhas_iguais_puladas": 2,
        "vinculos_criados": 0,
        "vinculos_iguais_pulados": 0,
        "criados": [],
        "acrescidos": [pid],
    }
    salvo = ciclo.obter(pid).armazenado
    assert [e.evento for e in salvo.eventos] == [
        "infracao",
        "auto_infracao",
        "defesa",
        "ciencia_primeira_instancia",
    ]
    assert ciclo.derivar(salvo, referencia=REFERENCIA).valido.estado == (
        "decidido_primeira_instancia"
    )
    # the same file again: every row is a stored event, nothing is written
    antes = ciclo.repositorio.auditoria(limite=10_000)
    assert importar(ciclo, arquivo)["linhas_iguais_puladas"] == 4
    assert importar(ciclo, arquivo)["acrescidos"] == []
    assert ciclo.repositorio.auditoria(limite=10_000) == antes
    # a file with only the new events appends them after the last stored one
    resumo = importar(ciclo, "referencia,tipo,evento,data\nR-1,anp,recurso,2024-05-28\n")
    assert (resumo["eventos_acrescentados"], resumo["linhas_iguais_puladas"]) == (1, 0)
    assert ciclo.obter(pid).armazenado.eventos[-1].evento == "recurso"
    assert ciclo.verificar().integro


def test_referencia_numerica_e_a_mesma_chave_que_o_texto(ciclo: Ciclo) -> None:
    pid = _anp(ciclo, 123, ("infracao", "2024-01-10"))
    resumo = importar(ciclo, "referencia,tipo,evento,data\n123,anp,auto_infracao,2024-02-01\n")
    assert resumo["acrescidos"] == [pid] and resumo["processos_criados"] == 0
    assert ciclo.obter(pid).armazenado.identificador == 123  # stored as it came
    jsonl = '{"referencia": "123", "tipo": "anp", "evento": "defesa", "data": "2024-02-05"}\n'
    assert importar(ciclo, jsonl, "p.jsonl")["acrescidos"] == [pid]


# --- all or nothing -------------------------------------------------------------------------------

BOM = (
    "NOVO,anp,,,infracao,2024-01-10,\n"  # line 2: a valid new processo
    "NOVO,anp,,,auto_infracao,2024-02-01,\n"  # line 3
    "R-1,anp,,,infracao,2024-01-10,\n"  # line 4: identical to the stored event
)


@pytest.mark.parametrize(
    ("linha", "campo", "mensagem"),
    [
        (
            "R-1,anp,,,auto_infracao,2024-03-01,",
            "data",
            "linha 5, coluna data: o processo salvo nº {pid} (referência 'R-1') já tem o evento "
            "'auto_infracao' em 01/02/2024, e esta linha diz 01/03/2024: a importação não "
            "altera um evento salvo",
        ),
        (
            "R-1,anp,99.999.999/0001-99,,defesa,2024-02-10,",
            "cnpj",
            f"linha 5, coluna cnpj: o processo salvo nº {{pid}} (referência 'R-1') tem cnpj "
            f"'{CNPJ}', e esta linha diz '99.999.999/0001-99': a importação só acrescenta "
            "eventos, não altera os dados de um processo salvo",
        ),
        (
            "R-1,renovabio.lista,,,defesa,2024-02-10,",
            "tipo",
            "linha 5, coluna tipo: a referência 'R-1' tem tipo 'anp' na linha 4 e "
            "'renovabio.lista' aqui",
        ),
        (
            "R-1,anp,,,defesa,2024-02-10,1000.01",
            "valor_multa",
            "linha 5, coluna valor_multa: o processo salvo nº {pid} (referência 'R-1') tem "
            "valor_multa 1000.00, e esta linha diz 1000.01",
        ),
        (
            "R-1,anp,,,defesa,2024-01-20,",  # before the stored auto_infracao
            "data",
            "linha 5, coluna data: data fora de ordem",
        ),
        (
            "R-1,anp,,,pagamento,2024-02-10,",  # before any decision
            "evento",
            "linha 5, coluna evento: ",
        ),
        (
            "NOVO,anp,,Outro nome,defesa,2024-02-10,",
            "nome",
            "linha 5, coluna nome: a referência 'NOVO' tem nome 'Nome' na linha 2 e 'Outro "
            "nome' aqui: os dados de um processo são os mesmos em todas as suas linhas",
        ),
        (
            "NOVO,anp,,,auto_infracao,2024-02-01,",  # the file's own row, twice
            "evento",
            "linha 5, coluna evento: ",
        ),
    ],
    ids=[
        "evento-salvo-em-outra-data",
        "cnpj-salvo",
        "tipo-noutra-linha",
        "valor-salvo",
        "ordem",
        "sequencia",
        "nome-noutra-linha",
        "linha-repetida",
    ],
)
def test_conflito_recusa_o_arquivo_inteiro_nomeando_a_linha(
    ciclo: Ciclo, linha: str, campo: str, mensagem: str
) -> None:
    pid = _anp(
        ciclo,
        "R-1",
        ("infracao", "2024-01-10"),
        ("auto_infracao", "2024-02-01"),
        cnpj=CNPJ,
        valor_multa="1000.00",
    )
    antes = retrato(ciclo)
    # lines 2 and 3 create NOVO, line 4 is a stored event, line 5 is the conflict
    arquivo = CABECALHO + BOM.replace("NOVO,anp,,,infracao", "NOVO,anp,,Nome,infracao")
    erro = recusa(ciclo, arquivo + linha + "\n")
    assert erro.campo == campo
    assert erro.mensagem.startswith(mensagem.format(pid=pid)), erro.mensagem
    assert retrato(ciclo) == antes  # nothing stored: not NOVO, not an event
    assert len(ciclo.listar(limite=None)) == 1
    # without the conflicting line, the same file imports
    resumo = importar(ciclo, arquivo)
    assert (resumo["processos_criados"], resumo["linhas_iguais_puladas"]) == (1, 1)


def test_tipo_diferente_do_salvo(ciclo: Ciclo) -> None:
    pid = _anp(ciclo, "R-1", ("infracao", "2024-01-10"))
    erro = recusa(
        ciclo, "referencia,tipo,evento,data\nR-1,renovabio.lista,fim_prazo_meta,2025-12-31\n"
    )
    assert (erro.campo, erro.mensagem) == (
        "tipo",
        f"linha 2, coluna tipo: o processo salvo nº {pid} (referência 'R-1') tem tipo 'anp', e "
        "esta linha diz 'renovabio.lista': a importação só acrescenta eventos, não altera os "
        "dados de um processo salvo",
    )


def test_o_mesmo_valor_escrito_de_outro_jeito_nao_e_conflito(ciclo: Ciclo) -> None:
    pid = _anp(ciclo, "R-1", ("infracao", "2024-01-10"), valor_multa="1000.00")
    arquivo = (
        CABECALHO
        + "R-1,anp,,,infracao,2024-01-10,1000\nR-1,anp,,,auto_infracao,2024-02-01,1000.0\n"
    )
    assert importar(ciclo, arquivo)["acrescidos"] == [pid]
    assert ciclo.obter(pid).armazenado.valor_multa == "1000.00"


def test_referencia_em_dois_processos_salvos_recusa_sem_juntar(
    ciclo: Ciclo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database written before the rule "one processo per reference" may hold two: the
    import refuses to choose, and names both."""
    import multas.servicos.persistencia.processos as persistencia_processos

    with monkeypatch.context() as antes_da_regra:
        antes_da_regra.setattr(
            persistencia_processos, "recusar_referencia_em_uso", lambda *_a, **_k: None
        )
        a = _anp(ciclo, "DUP", ("infracao", "2024-01-10"))
        b = _anp(ciclo, "DUP", ("infracao", "2024-03-10"))
    erro = recusa(ciclo, "referencia,tipo,evento,data\nDUP,anp,auto_infracao,2024-04-01\n")
    assert erro.campo == "referencia"
    assert erro.mensagem == (
        f"linha 2, coluna referencia: a referência 'DUP' está em 2 processos salvos (nº {a}, "
        f"{b}): a importação não sabe a qual acrescentar; deixe cada referência em um só processo"
    )
    assert all(len(d.armazenado.eventos) == 1 for d in ciclo.listar(limite=None))


def test_segunda_suspensao_e_pagamentos_com_valor_vao_e_voltam(ciclo: Ciclo) -> None:
    """Events that repeat (migration r0015): a second court suspension, and payments with
    their amounts (spec § 6.2 v4), imported, exported with their valor, imported again as
    the same rows."""
    arquivo = (
        "referencia,tipo,evento,data,valor_multa,valor\n"
        "S,anp,infracao,2020-01-01,,\n"
        "S,anp,suspensao_judicial,2021-01-01,,\n"
        "S,anp,fim_suspensao_judicial,2021-03-01,,\n"
        "S,anp,suspensao_judicial,2021-05-01,,\n"
        "P,anp,infracao,2024-01-10,10000,\n"
        "P,anp,auto_infracao,2024-02-01,10000,\n"
        "P,anp,ciencia_primeira_instancia,2024-06-03,10000,\n"
        "P,anp,renuncia_recurso,2024-06-05,10000,\n"
        "P,anp,pagamento,2024-06-10,10000,3000\n"
        "P,anp,pagamento,2024-08-20,10000,2000.00\n"
    )
    assert importar(ciclo, arquivo)["processos_criados"] == 2
    exportado = exportar_processos(ciclo, "csv")
    assert ",2024-08-20,10000,expediente,,,,2000.00,,,,,,,,,,,," in exportado
    assert importar(ciclo, exportado)["linhas_iguais_puladas"] == 10
    # a payment with another amount is a new payment
    mais = importar(ciclo, "referencia,tipo,evento,data,valor\nP,anp,pagamento,2024-08-20,1\n")
    assert mais["eventos_acrescentados"] == 1
    erro = recusa(ciclo, "referencia,tipo,evento,data,valor\nP,anp,pagamento,2024-08-21,-1\n")
    assert erro.mensagem.startswith("linha 2, coluna valor: ")
    erro = recusa(ciclo, "referencia,tipo,evento,data,valor\nS,anp,auto_infracao,2024-08-21,1\n")
    assert erro.mensagem.startswith("linha 2, coluna valor: ")


def test_processo_adulterado_recusa_a_importacao_e_a_exportacao(ciclo: Ciclo) -> None:
    pid = _anp(ciclo, "R-1", ("infracao", "2024-01-10"))
    with ciclo.repositorio.engine.begin() as conexao:
        conexao.execute(text(f"UPDATE processos SET nome = 'Outro' WHERE id = {pid}"))
    with pytest.raises(RegistroAlterado):
        importar(ciclo, "referencia,tipo,evento,data\nR-1,anp,auto_infracao,2024-02-01\n")
    with pytest.raises(RegistroAlterado):
        exportar_processos(ciclo, "csv")
    with ciclo.repositorio.leitura() as sessao:
        assert sessao.scalar(text("SELECT count(*) FROM processo_eventos")) == 1


def test_duas_importacoes_ao_mesmo_tempo_nunca_gravam_eventos_contraditorios(
    ciclo: Ciclo,
) -> None:
    """The per-processo lock of acrescentar: recurso and renuncia_recurso (one of them at
    most), imported at once into one processo: exactly one is stored, the other refused."""
    pid = _anp(
        ciclo,
        "R-1",
        ("infracao", "2024-01-10"),
        ("auto_infracao", "2024-02-01"),
        ("ciencia_primeira_instancia", "2024-05-20"),
    )
    resultados: list[object] = []

    def uma(evento: str) -> None:
        try:
            resultados.append(
                importar(ciclo, f"referencia,tipo,evento,data\nR-1,anp,{evento},2024-05-25\n")
            )
        except EntradaInvalida as erro:
            resultados.append(erro)

    fios = [threading.Thread(target=uma, args=(e,)) for e in ("recurso", "renuncia_recurso")]
    for fio in fios:
        fio.start()
    for fio in fios:
        fio.join()
    assert sorted(type(r).__name__ for r in resultados) == ["EntradaInvalida", "dict"]
    eventos = [e.evento for e in ciclo.obter(pid).armazenado.eventos]
    assert len(eventos) == 4 and eventos[-1] in ("recurso", "renuncia_recurso")


# --- bad cells ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("linhas", "campo", "mensagem"),
    [
        (
            "R,anp,infracao,2024-02-30",
            "data",
            "linha 3, coluna data: data inexistente: '2024-02-30'",
        ),
        (
            "R,anp,infracao,10/01/2024",
            "data",
            "linha 3, coluna data: data inválida: '10/01/2024' (use o formato AAAA-MM-DD)",
        ),
        (
            "R,anp,infracao,2024-01-10\nR,anp,julgamento,2024-02-01",
            "evento",
            "linha 4, coluna evento: evento desconhecido para um processo 'anp': 'julgamento'",
        ),
        (
            'R,anp,"=HYPERLINK(""http://x"")",2024-01-10',
            "evento",
            "linha 3, coluna evento: evento desconhecido para um processo 'anp': "
            "'=HYPERLINK(\"http://x\")'",
        ),
        (
            "R,anp,infracao,=HOJE()",
            "data",
            "linha 3, coluna data: data inválida: '=HOJE()'",
        ),
        (
            "R,@SOMA(A1),infracao,2024-01-10",
            "tipo",
            "linha 3, coluna tipo: ",
        ),
        (
            ",anp,infracao,2024-01-10",
            "referencia",
            "linha 3, coluna referencia: campo obrigatório: a referência do processo",
        ),
        (
            "R,anp,,2024-01-10",
            "evento",
            "linha 3, coluna evento: campo obrigatório",
        ),
    ],
    ids=[
        "data-inexistente",
        "data-ptbr",
        "evento-desconhecido",
        "formula-no-evento",
        "formula-na-data",
        "formula-no-tipo",
        "sem-referencia",
        "sem-evento",
    ],
)
def test_celula_ruim_diz_linha_e_coluna_e_nada_e_gravado(
    ciclo_sqlite: Ciclo, linhas: str, campo: str, mensagem: str
) -> None:
    # a good processo on line 2 first: it is not stored either
    arquivo = "referencia,tipo,evento,data\nOK,anp,infracao,2024-01-10\n" + linhas + "\n"
    erro = recusa(ciclo_sqlite, arquivo)
    assert erro.campo == campo
    assert erro.mensagem.startswith(mensagem), erro.mensagem
    assert ciclo_sqlite.listar(limite=None) == []


def test_coluna_de_tabela_que_nao_e_campo_fica_fora(ciclo_sqlite: Ciclo) -> None:
    lido = importar(ciclo_sqlite, "referencia,tipo,evento,data,obs\nS,anp,infracao,2024-01-10,x\n")
    assert lido["processos_criados"] == 1


def test_coluna_desconhecida_e_as_colunas_do_processo(ciclo_sqlite: Ciclo) -> None:
    # a table's column that is no field is read past (docs/arquivos.md); a JSON key is a field
    erro = recusa(
        ciclo_sqlite,
        '{"referencia": "R", "tipo": "anp", "evento": "infracao", "data": "2024-01-10", '
        '"obs": "x"}\n',
        "p.jsonl",
    )
    assert erro.campo == "obs"
    assert erro.mensagem.startswith("linha 1, campo obs: campo desconhecido (aceitos: ")
    casos = {
        "valor_multa": (
            "muitos",
            "linha 2, coluna valor_multa: número inválido: 'muitos'",
        ),
        "dias_sem_expediente": (
            "2024-02-15 2024-02-30",
            "linha 2, coluna dias_sem_expediente: data inexistente: '2024-02-30' "
            "(dias_sem_expediente[1])",
        ),
        "calendario": ("outro", "linha 2, coluna calendario: "),
        "caso_id": ("77", "linha 2, coluna caso_id: caso 77 não encontrado"),
    }
    for coluna, (valor, mensagem) in casos.items():
        erro = recusa(
            ciclo_sqlite,
            f"referencia,tipo,evento,data,{coluna}\nR,anp,infracao,2024-01-10,{valor}\n",
        )
        assert erro.campo == coluna
        assert erro.mensagem.startswith(mensagem), erro.mensagem
    erro = recusa(ciclo_sqlite, "id,referencia,tipo,evento,data\nA,B,anp,infracao,2024-01-10\n")
    assert erro.campo == "referencia" and "id e referencia são o mesmo campo" in erro.mensagem
    erro = recusa(
        ciclo_sqlite,
        "referencia,tipo,evento,data,valor_multa\nL,renovabio.lista,fim_prazo_meta,2025-12-31,10\n",
    )
    assert erro.mensagem == "linha 2, coluna valor_multa: só um processo 'anp' tem valor_multa"
    erro = recusa(
        ciclo_sqlite, "referencia,tipo,evento,data\n" + "X" * 201 + ",anp,infracao,2024-01-10\n"
    )
    assert erro.mensagem.startswith("linha 2, coluna referencia: texto longo demais: 201")
    assert ciclo_sqlite.listar(limite=None) == []


def test_xlsx_e_json_lines_dizem_a_linha_do_arquivo(ciclo_sqlite: Ciclo) -> None:
    import openpyxl

    livro = openpyxl.Workbook()
    folha = livro.active
    assert folha is not None
    folha.append(["referencia", "tipo", "evento", "data"])
    folha.append([123, "anp", "infracao", date(2024, 1, 10)])
    folha.append([123, "anp", "auto_infracao", "1º de fevereiro"])
    saida = io.BytesIO()
    livro.save(saida)
    erro = recusa(ciclo_sqlite, saida.getvalue(), "p.xlsx")
    assert erro.campo == "data" and erro.mensagem.startswith("linha 3, coluna data: data inválida")
    folha.delete_rows(3)
    saida = io.BytesIO()
    livro.save(saida)
    resumo = importar(ciclo_sqlite, saida.getvalue(), "p.xlsx")
    salvo = ciclo_sqlite.obter(resumo["criados"][0]).armazenado
    assert (salvo.identificador, salvo.eventos[0].data) == ("123", date(2024, 1, 10))

    jsonl = (
        '{"referencia": "J", "tipo": "anp", "evento": "infracao", "data": "2024-01-10"}\n'
        "\n"
        '{"referencia": "J", "tipo": "anp", "evento": "auto_infracao", "data": 20240201}\n'
    )
    erro = recusa(ciclo_sqlite, jsonl, "p.jsonl")
    assert erro.mensagem.startswith("linha 3, campo data: data inválida: 20240201")
    erro = recusa(
        ciclo_sqlite, '{"referencia": "J", "tipo": "anp", "evento": "infracao"}\n', "p.jsonl"
    )
    assert erro.mensagem.startswith("linha 1, campo data: campo obrigatório")
    erro = recusa(ciclo_sqlite, "[1, 2]\n", "p.jsonl")
    assert erro.mensagem.startswith("linha 1: cada linha deve ser um objeto JSON")
    assert recusa(ciclo_sqlite, b"[]", "p.json").campo == "arquivo"  # CSV, XLSX, JSON Lines only
    # a file that is not UTF-8 is read as Latin-1: here a row without its tipo
    assert recusa(ciclo_sqlite, b"referencia\n\xff\n", "p.csv").campo == "tipo"


# --- export and the round trip -----------------------------------------------------------------


def _variedade(ciclo: Ciclo) -> None:
    """Processos with every field the file carries, and texts a spreadsheet would take for
    formulas, quotes, separators and line breaks."""
    pid = _anp(
        ciclo,
        "48610.000123/2024-11",
        ("infracao", "2024-01-10"),
        ("auto_infracao", "2024-02-01"),
        ("defesa", "2024-02-10"),
        ("ciencia_primeira_instancia", "2024-05-20"),
        cnpj=CNPJ,
        nome='=HYPERLINK("http://x")',
        valor_multa="15000.50",
        dias_sem_expediente=["2024-06-03", "2024-06-04"],
        interpretacao={"calendario": "feriados"},
    )
    ciclo.acrescentar(pid, {"evento": "renuncia_recurso", "data": "2024-05-22"})
    lista = ciclo.criar(
        {
            "tipo": "renovabio.lista",
            "id": "'com apóstrofo",
            "nome": 'Distribuidora, Ltda; "Aspas"\nsegunda linha',
            "eventos": [
                {"evento": "fim_prazo_meta", "data": "2025-12-31"},
                {"evento": "decisao_primeira_instancia", "data": "2026-02-06"},
                {"evento": "inclusao_lista", "data": "2026-02-09"},
            ],
        }
    )
    # the anp processo, exported first, names the list processo that comes after it
    ciclo.vincular(pid, {"lista_id": lista.armazenado.id})
    ciclo.criar(
        {
            "tipo": "renovabio.balanco",
            "id": "-7",
            "cnpj": "@cnpj",
            "eventos": [
                {"evento": "inclusao_lista", "data": "2025-05-02"},
                {"evento": "comprovacao_adequacao", "data": "2025-06-02"},
            ],
        }
    )
    _anp(
        ciclo,
        "+SUSP",
        ("infracao", "2019-01-01"),
        ("auto_infracao", "2019-03-01"),
        ("suspensao_judicial", "2020-01-01"),
        ("fim_suspensao_judicial", "2020-06-01"),
        nome="\tcom tabulação",
    )


@pytest.mark.parametrize("formato", ["csv", "jsonl"])
def test_exportar_e_importar_num_banco_vazio_da_os_mesmos_processos(
    ciclo: Ciclo, formato: str
) -> None:
    _variedade(ciclo)
    antes = retrato(ciclo)
    exportado = exportar_processos(ciclo, formato)
    if formato == "csv":  # what a spreadsheet would run as a formula starts with an apostrophe
        assert "'=HYPERLINK" in exportado and "''com apóstrofo" in exportado
        assert "'-7" in exportado and "'@cnpj" in exportado and "'+SUSP" in exportado
        assert "2024-06-03 2024-06-04" in exportado
    for derivado in ciclo.listar(limite=None):
        ciclo.excluir(derivado.armazenado.id)
    assert ciclo.listar(limite=None) == []
    resumo = importar(ciclo, exportado, f"processos.{formato}")
    assert resumo["processos_criados"] == 4 and resumo["linhas"] == 14
    depois = retrato(ciclo)
    assert depois == antes  # the same processos, events and derived deadlines
    assert exportar_processos(ciclo, formato) == exportado
    # importing the export again into the same database: every row is a stored event
    de_novo = importar(ciclo, exportado, f"processos.{formato}")
    assert (de_novo["linhas_iguais_puladas"], de_novo["processos_criados"]) == (14, 0)
    assert ciclo.verificar().integro


def test_exportacao_do_banco_vazio_e_so_o_cabecalho_e_se_importa(ciclo_sqlite: Ciclo) -> None:
    assert exportar_processos(ciclo_sqlite, "csv") == (
        "referencia,tipo,cnpj,nome,evento,data,valor_multa,calendario,dias_sem_expediente,caso_id,"
        "vinculo_lista,valor,parcelas,valor_consolidado,parcelas_para_rescisao,prazo_alegacoes,"
        "atos_instrucao,interrupcao_penal,encargos,imputacao,desconto,prescricao_penal_anos,"
        "encargo_legal_percentual,valor_minimo_parcela\n"
    )
    assert exportar_processos(ciclo_sqlite, "jsonl") == ""
    assert importar(ciclo_sqlite, exportar_processos(ciclo_sqlite, "csv"))["linhas"] == 0


def test_caso_id_volta_no_mesmo_banco(ciclo_sqlite: Ciclo) -> None:
    from tests.utils.casos import ENTRADA

    caso = ciclo_sqlite.repositorio.salvar(
        regime="anp.infracao",
        entrada=ENTRADA,
        resultado={"valor": "5000.00"},
        versao_motor="t",
        versao_legislacao="t",
    )
    _anp(ciclo_sqlite, "C", ("infracao", "2024-01-10"), caso_id=caso.id)
    exportado = exportar_processos(ciclo_sqlite, "csv")
    assert exportado.splitlines()[1].endswith(f",expediente,,{caso.id},,,,,,,,,,,,,,")
    assert importar(ciclo_sqlite, exportado)["linhas_iguais_puladas"] == 1
    outro = exportado.replace(f",{caso.id},,,,,,,,,,,,,,\n", f",{caso.id + 1},,,,,,,,,,,,,,\n")
    assert recusa(ciclo_sqlite, outro).campo == "caso_id"


# --- linked processos (issue 19, item 5) ---------------------------------------------------------

VINCULOS = "referencia,tipo,cnpj,evento,data,vinculo_lista\n"


def _lista(ciclo: Ciclo, referencia: str, cnpj: str | None = CNPJ) -> int:
    dados: dict[str, Any] = {
        "tipo": "renovabio.lista",
        "id": referencia,
        "eventos": [{"evento": "fim_prazo_meta", "data": "2025-12-31"}],
    }
    if cnpj:
        dados["cnpj"] = cnpj
    return ciclo.criar(dados).armazenado.id


def test_vinculo_volta_na_exportacao_e_o_igual_e_pulado_e_contado(ciclo_sqlite: Ciclo) -> None:
    c = ciclo_sqlite
    anp = _anp(c, "A-1", ("infracao", "2024-01-10"), cnpj=CNPJ)
    lista = _lista(c, "L-1")
    c.vincular(anp, {"lista_id": lista})
    exportado = exportar_processos(c, "csv")
    vazias = ",,,,,,,,,,,,,"  # valor, the plan and the readings: none
    assert exportado.splitlines()[1].endswith(",L-1" + vazias)  # the anp row names its list
    assert exportado.splitlines()[2].endswith("," + vazias)  # the list processo names none
    resumo = importar(c, exportado)
    assert (resumo["vinculos_criados"], resumo["vinculos_iguais_pulados"]) == (0, 1)
    # in an empty database, the link comes back (to the list processo's new number)
    for derivado in c.listar(limite=None):
        c.excluir(derivado.armazenado.id)
    resumo = importar(c, exportado)
    assert (resumo["vinculos_criados"], resumo["vinculos_iguais_pulados"]) == (1, 0)
    novo_anp, nova_lista = resumo["criados"]
    assert c.obter(novo_anp).armazenado.lista_id == nova_lista
    assert c.verificar().integro


def test_vinculo_a_um_processo_salvo_e_feito_pela_importacao(ciclo_sqlite: Ciclo) -> None:
    c = ciclo_sqlite
    lista = _lista(c, "L-1", cnpj="12345678000195")  # the same CNPJ, another spelling
    arquivo = VINCULOS + f"A-1,anp,{CNPJ},infracao,2024-01-10,L-1\n"
    resumo = importar(c, arquivo)
    assert resumo["vinculos_criados"] == 1
    assert c.obter(resumo["criados"][0]).armazenado.lista_id == lista
    # a stored anp processo without a link gets it from a file that repeats its event
    outra = _lista(c, "L-2", cnpj=None)
    anp = _anp(c, "A-2", ("infracao", "2024-01-10"))
    resumo = importar(c, VINCULOS + "A-2,anp,,infracao,2024-01-10,L-2\n")
    assert (resumo["linhas_iguais_puladas"], resumo["vinculos_criados"]) == (1, 1)
    assert c.obter(anp).armazenado.lista_id == outra


@pytest.mark.parametrize(
    ("linhas", "campo", "mensagem"),
    [
        (
            "A-1,anp,,infracao,2024-01-10,L-2\n",
            "vinculo_lista",
            "linha 2, coluna vinculo_lista: o processo de referência A-1 já está vinculado ao "
            "processo nº {lista}",
        ),
        (
            "N-1,anp,,infracao,2024-01-10,NADA\n",
            "vinculo_lista",
            "linha 2, coluna vinculo_lista: a referência 'NADA' não é de um processo salvo nem "
            "de uma linha deste arquivo",
        ),
        (
            "N-1,anp,,infracao,2024-01-10,L-1\n",
            "vinculo_lista",
            "linha 2, coluna vinculo_lista: o processo de referência L-1 já está vinculado ao "
            "processo de referência A-1 (anp)",
        ),
        (
            "N-1,anp,99.999.999/0001-99,infracao,2024-01-10,L-2\n",
            "vinculo_lista",
            "linha 2, coluna vinculo_lista: o CNPJ do processo de referência L-2",
        ),
        (
            "N-1,anp,,infracao,2024-01-10,L-2\nN-2,anp,,infracao,2024-01-10,L-2\n",
            "vinculo_lista",
            "linha 3, coluna vinculo_lista: o processo de referência L-2 já está vinculado ao "
            "processo de referência N-1 (anp)",
        ),
        (
            "N-1,anp,,infracao,2024-01-10,A-1\n",
            "vinculo_lista",
            "linha 2, coluna vinculo_lista: o processo de referência A-1 é do tipo 'anp'",
        ),
        (
            "N-1,renovabio.lista,,fim_prazo_meta,2025-12-31,L-2\n",
            "tipo",
            "linha 2, coluna tipo: o processo de referência N-1 é do tipo 'renovabio.lista'",
        ),
        (
            "N-1,anp,,infracao,2024-01-10,L-2\nN-1,anp,,auto_infracao,2024-02-01,L-1\n",
            "vinculo_lista",
            "linha 3, coluna vinculo_lista: a referência 'N-1' tem vinculo_lista 'L-2' na "
            "linha 2 e 'L-1' aqui",
        ),
    ],
    ids=[
        "outro-vinculo-salvo",
        "referencia-inexistente",
        "lista-ja-ocupada",
        "cnpj-diferente",
        "duas-no-arquivo",
        "alvo-nao-e-lista",
        "origem-nao-e-anp",
        "linhas-discordam",
    ],
)
def test_vinculo_em_conflito_recusa_o_arquivo_inteiro_nomeando_a_linha(
    ciclo_sqlite: Ciclo, linhas: str, campo: str, mensagem: str
) -> None:
    c = ciclo_sqlite
    anp = _anp(c, "A-1", ("infracao", "2024-01-10"), cnpj=CNPJ)
    lista = _lista(c, "L-1")
    l2 = _lista(c, "L-2")
    c.vincular(anp, {"lista_id": lista})
    antes = retrato(c)
    erro = recusa(c, VINCULOS + linhas)
    assert erro.campo == campo
    esperado = mensagem.format(anp=anp, lista=lista, l2=l2)
    assert erro.mensagem.startswith(esperado), erro.mensagem
    assert retrato(c) == antes  # nothing stored: no processo, no link
    assert len(c.listar(limite=None)) == 3


# --- the command line ------------------------------------------------------------------------------


def test_linha_de_comando_importa_e_exporta(tmp_path: Path) -> None:
    banco = f"sqlite:///{tmp_path / 'm.db'}"
    arquivo = tmp_path / "p.csv"
    arquivo.write_text(CABECALHO + BOM.replace("R-1,", "R-2,"), encoding="utf-8")
    r = CliRunner().invoke(
        cli, ["processo", "importar", str(arquivo), "--banco", banco, "--usuario", "Bia"]
    )
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["processos_criados"] == 2
    saida = tmp_path / "todos.csv"
    r = CliRunner().invoke(cli, ["processo", "exportar", "--banco", banco, "-o", str(saida)])
    assert r.exit_code == 0, r.output
    assert saida.read_text(encoding="utf-8").count("\n") == 4  # the header and 3 events
    r = CliRunner().invoke(cli, ["processo", "exportar", "--banco", banco, "-f", "jsonl"])
    assert [json.loads(x)["referencia"] for x in r.stdout.splitlines()] == ["NOVO", "NOVO", "R-2"]
    r = CliRunner().invoke(cli, ["processo", "importar", str(saida), "--banco", banco])
    assert r.exit_code == 0 and json.loads(r.stdout)["linhas_iguais_puladas"] == 3
    arquivo.write_text(CABECALHO + "R-2,anp,,,infracao,2024-01-11,\n", encoding="utf-8")
    r = CliRunner().invoke(cli, ["processo", "importar", str(arquivo), "--banco", banco])
    assert r.exit_code == 2
    assert json.loads(r.stdout)["erro"]["mensagem"].startswith("linha 2, coluna data: ")


# --- the API, the page and who may use them ---------------------------------------------------------


def test_api_importa_csv_xlsx_e_jsonl_e_exporta(cliente: TestClient) -> None:
    import openpyxl

    r = cliente.post(
        "/api/v1/processos/importar",
        params={"formato": "csv"},
        content=(CABECALHO + BOM.replace("R-1,", "R-2,")).encode(),
        headers={"X-Usuario": "Caio"},
    )
    assert r.status_code == 200, r.text
    assert r.json()["processos_criados"] == 2
    livro = openpyxl.Workbook()
    folha = livro.active
    assert folha is not None
    folha.append(["referencia", "tipo", "evento", "data"])
    folha.append(["NOVO", "anp", "defesa", "2024-02-05"])
    arquivo = io.BytesIO()
    livro.save(arquivo)
    r = cliente.post(
        "/api/v1/processos/importar", params={"formato": "xlsx"}, content=arquivo.getvalue()
    )
    assert r.status_code == 200 and r.json()["eventos_acrescentados"] == 1, r.text
    r = cliente.post(
        "/api/v1/processos/importar",
        params={"formato": "jsonl"},
        content=b'{"referencia": "NOVO", "tipo": "anp", "evento": "defesa", "data": "2024-02-06"}',
    )
    assert r.status_code == 422
    assert r.json()["erro"]["campo"] == "data"
    assert r.json()["erro"]["mensagem"].startswith("linha 1, campo data: o processo salvo nº")
    csv = cliente.get("/api/v1/processos/exportar")
    assert csv.status_code == 200 and csv.headers["content-type"].startswith("text/csv")
    assert csv.headers["content-disposition"].startswith('attachment; filename="processos-')
    assert csv.text.splitlines()[3].startswith("NOVO,anp,,,defesa,2024-02-05,")
    jsonl = cliente.get("/api/v1/processos/exportar", params={"formato": "jsonl"})
    assert jsonl.headers["content-type"] == "application/x-ndjson"
    assert len(jsonl.text.splitlines()) == 4
    assert cliente.get("/api/v1/processos/exportar", params={"formato": "pdf"}).status_code == 422
    r = cliente.post("/api/v1/processos/importar", params={"formato": "csv"}, content=csv.content)
    assert r.json()["linhas_iguais_puladas"] == 4
    # the path is the export, not the processo numbered "exportar"
    documento = cliente.get("/openapi.json").json()
    assert {"/api/v1/processos/importar", "/api/v1/processos/exportar"} <= set(documento["paths"])


def test_importar_e_exportar_nao_sao_um_processo_numerado(cliente: TestClient) -> None:
    """The literal paths own every method: another one is a 405 naming theirs, never the 422
    of ``/api/v1/processos/{processo_id}`` about a processo numbered "importar"."""
    for metodo, caminho, aceitos in (
        ("GET", "/api/v1/processos/importar", "POST"),
        ("PATCH", "/api/v1/processos/importar", "POST"),
        ("DELETE", "/api/v1/processos/exportar", "GET"),
        ("POST", "/api/v1/processos/exportar", "GET"),
    ):
        r = cliente.request(metodo, caminho)
        assert (r.status_code, r.headers["allow"]) == (405, aceitos), (metodo, caminho)
    # the processo routes keep their own answers
    assert cliente.post("/api/v1/processos/1").headers["allow"] == "DELETE, GET, PATCH"
    assert cliente.get("/api/v1/processos/abc").json()["erro"]["campo"] == "processo_id"


def test_pagina_importa_linhas_coladas_tudo_ou_nada(cliente: TestClient) -> None:
    pagina = cliente.get("/processos").text
    assert 'action="/processos/importar"' in pagina
    assert 'href="/api/v1/processos/exportar?formato=csv"' in pagina
    colado = (
        "referencia\ttipo\tnome\tevento\tdata\tvalor_multa\n"
        "P-1\tanp\tPosto\tinfracao\t2024-01-10\t1.500,50\n"
        "P-1\tanp\tPosto\tauto_infracao\t2024-02-01\t1.500,50\n"
    )
    r = cliente.post("/processos/importar", data={"conteudo": colado}, follow_redirects=False)
    assert r.status_code == 303
    assert r.headers["location"] == "/processos?criados=1&acrescentados=0&iguais=0&vinculos=0"
    assert "Importação feita: 1 processo(s) criado(s)" in cliente.get(r.headers["location"]).text
    salvo = cliente.get("/api/v1/processos").json()["processos"][0]
    assert (salvo["id"], salvo["nome"]) == ("P-1", "Posto")
    assert cliente.get(f"/api/v1/processos/{salvo['processo_id']}").json()["valor_multa"] == (
        "1500.50"
    )
    ruim = (
        colado
        + "P-1\tanp\tPosto\tdefesa\t2024-02-30\t1.500,50\nP-2\tanp\t\tinfracao\t2024-01-01\t\n"
    )
    r = cliente.post("/processos/importar", data={"conteudo": ruim}, follow_redirects=False)
    assert r.status_code == 422
    assert "Nada foi importado" in r.text and "linha 4, coluna data: data inexistente" in r.text
    assert "P-2" in r.text  # the pasted rows come back, to be corrected
    assert cliente.get("/api/v1/processos").json()["total"] == 1
    # another site's page cannot make the browser import (CSRF)
    r = cliente.post(
        "/processos/importar",
        data={"conteudo": colado.replace("P-1", "P-9")},
        headers={"Origin": "https://outro.example"},
    )
    assert r.status_code == 403
    assert cliente.get("/api/v1/processos").json()["total"] == 1


def test_analista_importa_leitura_so_exporta(ambiente: Ambiente) -> None:
    cliente = ambiente.cliente
    corpo = (CABECALHO + "A,anp,,,infracao,2024-01-10,\n").encode()
    url = "/api/v1/processos/importar?formato=csv"
    assert cliente.post(url, content=corpo).status_code == 401
    r = cliente.post(url, content=corpo, headers=com(ambiente, "leitura"))
    assert r.status_code == 403 and "analista" in r.json()["erro"]["mensagem"]
    r = cliente.post(
        url, content=corpo, headers={**com(ambiente, "analista"), "X-Usuario": "Mallory"}
    )
    assert r.status_code == 200, r.text
    r = cliente.get("/api/v1/processos/exportar", headers=com(ambiente, "leitura"))
    assert r.status_code == 200 and r.text.splitlines()[1].startswith("A,anp,")
    # the audit's "who" is the authenticated user, never the header
    lista = cliente.get("/api/v1/processos", headers=com(ambiente, "leitura")).json()
    pid = lista["processos"][0]["processo_id"]
    detalhe = cliente.get(f"/api/v1/processos/{pid}", headers=com(ambiente, "leitura")).json()
    assert (detalhe["id"], detalhe["usuario"]) == ("A", "usuária analista")
    r = cliente.post(
        "/processos/importar", data={"conteudo": "x"}, headers=com(ambiente, "leitura")
    )
    assert r.status_code == 403


def test_pagina_e_api_levam_o_vinculo(cliente: TestClient) -> None:
    """The page's paste and the API's file go through the same import: the link comes too."""
    colado = (
        "referencia\ttipo\tevento\tdata\tvinculo_lista\n"
        "A-1\tanp\tinfracao\t2024-01-10\tL-1\n"
        "L-1\trenovabio.lista\tfim_prazo_meta\t2025-12-31\t\n"
    )
    r = cliente.post("/processos/importar", data={"conteudo": colado}, follow_redirects=False)
    assert r.headers["location"].endswith("&vinculos=1")
    assert "1 vínculo(s) novo(s)" in cliente.get(r.headers["location"]).text
    exportado = cliente.get("/api/v1/processos/exportar?formato=csv").text
    assert exportado.splitlines()[1].endswith(",L-1,,,,,,,,,,,,,")
    r = cliente.post("/api/v1/processos/importar?formato=csv", content=exportado.encode())
    assert r.status_code == 200, r.text
    assert (r.json()["vinculos_iguais_pulados"], r.json()["vinculos_criados"]) == (1, 0)


def test_erro_de_vinculo_nomeia_referencias_nunca_numeros_que_nao_existem(
    ciclo_sqlite: Ciclo,
) -> None:
    """A processo the file creates has no number until the file is accepted: an error about
    its link names its referência (found by the hostile review of 02/12/2026)."""
    erro = recusa(ciclo_sqlite, VINCULOS + "A1,anp,,infracao,2026-01-02,A1\n")
    assert erro.mensagem.startswith(
        "linha 2, coluna vinculo_lista: o processo de referência A1 é do tipo 'anp'"
    ), erro.mensagem
    assert "nº" not in erro.mensagem
    assert ciclo_sqlite.listar(limite=None) == []


def test_as_leituras_e_o_encargo_legal_vao_e_voltam(ciclo_sqlite: Ciclo, tmp_path: Path) -> None:
    """Export then import into an empty database gives the same processo: its readings
    (§ 6.1 and § 6.2 v4), prescricao_penal_anos and encargo_legal_percentual have columns, so
    what it owes is the same."""
    from datetime import date

    from multas.servicos.gestao import Ciclo as CicloNovo
    from multas.servicos.persistencia import Repositorio

    dados = {
        "tipo": "anp",
        "id": "X-1",
        "valor_multa": "10000.00",
        "encargo_legal_percentual": "20",
        "valor_minimo_parcela": "100.00",
        "prescricao_penal_anos": 8,
        "interpretacao": {
            "encargos": "lei-10522",
            "desconto": "proporcional",
            "prazo_alegacoes": "lei-9784",
        },
        "eventos": [
            {"evento": "infracao", "data": "2024-01-10"},
            {"evento": "auto_infracao", "data": "2024-02-01"},
            {"evento": "ciencia_primeira_instancia", "data": "2024-06-03"},
            {"evento": "ciencia_decisao_definitiva", "data": "2024-06-05"},
            {"evento": "pagamento", "data": "2024-11-20", "valor": "3000.00"},
            {"evento": "inscricao_divida_ativa", "data": "2024-12-10"},
        ],
    }
    ciclo = ciclo_sqlite
    pid = ciclo.criar(dados).armazenado.id
    antes = ciclo.obter(pid, date(2025, 1, 10)).resultado
    for formato in ("csv", "jsonl"):
        exportado = exportar_processos(ciclo, formato)
        assert importar(ciclo, exportado, f"p.{formato}")["linhas_iguais_puladas"] == 6
        novo = CicloNovo(Repositorio(f"sqlite:///{tmp_path / f'n{formato}.db'}"))
        importar(novo, exportado, f"p.{formato}")
        depois = novo.obter(novo.listar()[0].armazenado.id, date(2025, 1, 10)).resultado
        assert depois["devido"] == antes["devido"] and depois["prazos"] == antes["prazos"]
    conflito = exportar_processos(ciclo, "csv").replace(",lei-10522,", ",lei-9847,")
    assert recusa(ciclo, conflito).campo == "encargos"


def test_o_parcelamento_vai_e_volta(ciclo_sqlite: Ciclo, tmp_path: Path) -> None:
    """A parcelamento's plan has its columns (spec § 6.2 v4): exported, imported again into
    the same database as the same rows, and into an empty one as the same processo."""
    from datetime import date

    from multas.servicos.gestao import Ciclo as CicloNovo
    from multas.servicos.persistencia import Repositorio
    from tests.utils.processos import PLANO

    ciclo = ciclo_sqlite
    pid = ciclo.criar(
        {"tipo": "anp", "id": "P-1", "valor_multa": "10000.00", "eventos": PLANO}
    ).armazenado.id
    antes = ciclo.obter(pid, date(2024, 9, 15)).resultado
    exportado = exportar_processos(ciclo, "csv")
    assert ",parcelamento,2024-07-31,10000.00,expediente,,,,,12,7210.00,," in exportado
    assert importar(ciclo, exportado)["linhas_iguais_puladas"] == len(PLANO)
    novo = CicloNovo(Repositorio(f"sqlite:///{tmp_path / 'n.db'}"))
    importar(novo, exportado)
    depois = novo.obter(novo.listar()[0].armazenado.id, date(2024, 9, 15)).resultado
    assert depois["devido"] == antes["devido"] and depois["devido"]["saldo"] == "6120.74"
    ruim = exportado.replace(",12,7210.00,", ",61,7210.00,")
    erro = recusa(CicloNovo(Repositorio(f"sqlite:///{tmp_path / 'r.db'}")), ruim)
    assert erro.campo == "parcelas"
