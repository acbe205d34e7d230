"""Documents on events (issue 35, item 5; spec § 6.2 v4), stored: content-addressed, the hash
in the event's audit record, served only within the scope, and a changed or missing content
named by ``auditoria verificar`` with its event. The hostile suite
(tests/persistencia/test_recusas.py) tampers with every column of the table."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from sqlalchemy import delete, func, select, update

from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.escopo import Escopo
from multas.servicos import documentos
from multas.servicos.gestao import Ciclo
from multas.servicos.persistencia import RegistroAlterado, escopo_sql
from multas.servicos.persistencia.modelos_ciclo import DocumentoSalvo, EventoSalvo

CNPJ = "12.345.678/0001-95"
OUTRO = "11.222.333/0001-81"
PDF = b"%PDF-1.4\nAR da citacao"
PNG = b"\x89PNG\r\n\x1a\nrecibo"


def _processo(ciclo: Ciclo, cnpj: str = CNPJ) -> int:
    dados = {"tipo": "anp", "cnpj": cnpj, "eventos": [{"evento": "infracao", "data": "2024-01-02"}]}
    return ciclo.criar(dados, "ana").armazenado.id


def _com_documentos(ciclo: Ciclo, processo_id: int, *arquivos: tuple[str, bytes]) -> Any:
    evento = {"evento": "auto_infracao", "data": "2024-02-01"}
    return ciclo.acrescentar(processo_id, evento, "ana", documentos.anexos(arquivos))


def test_guarda_pelo_hash_na_auditoria_do_evento_e_serve_o_conteudo(repo: Any) -> None:
    ciclo = Ciclo(repo)
    primeiro, segundo = _processo(ciclo), _processo(ciclo)
    derivado = _com_documentos(ciclo, primeiro, ("AR.pdf", PDF), ("recibo.png", PNG))
    _com_documentos(ciclo, segundo, ("mesmo-AR.pdf", PDF))
    evento = derivado.armazenado.eventos[-1]
    sha = hashlib.sha256(PDF).hexdigest()
    assert evento.documentos[0] == {
        "sha256": sha,
        "nome": "AR.pdf",
        "tipo": "application/pdf",
        "bytes": len(PDF),
    }
    with repo.leitura() as sessao:  # the same content once
        assert sessao.scalar(select(func.count()).select_from(DocumentoSalvo)) == 2
    # the hash is inside the event's audit record
    registro = next(
        r
        for r in repo.auditoria(limite=100)
        if r.tabela == "processo_eventos" and r.acao == "processo_evento"
    )
    assert sha in (registro.detalhe or "")
    assert documentos.ler(repo, segundo, sha) == (
        documentos.Documento(sha, "mesmo-AR.pdf", "application/pdf", len(PDF)),
        PDF,
    )
    with pytest.raises(documentos.DocumentoNaoEncontrado):  # not on this processo's events
        documentos.ler(repo, segundo, hashlib.sha256(PNG).hexdigest())
    assert ciclo.verificar().integro


def test_um_byte_alterado_ou_o_conteudo_apagado_nomeia_o_evento(repo: Any) -> None:
    ciclo = Ciclo(repo)
    processo_id = _processo(ciclo)
    derivado = _com_documentos(ciclo, processo_id, ("AR.pdf", PDF), ("recibo.png", PNG))
    eventos = ciclo.obter(processo_id).armazenado.eventos
    assert derivado.armazenado.eventos == eventos
    sha_pdf, sha_png = (hashlib.sha256(c).hexdigest() for c in (PDF, PNG))
    with repo.engine.begin() as conexao:
        conexao.execute(
            update(DocumentoSalvo)
            .where(DocumentoSalvo.sha256 == sha_pdf)
            .values(conteudo=PDF[:-1] + b"X")
        )
        conexao.execute(delete(DocumentoSalvo).where(DocumentoSalvo.sha256 == sha_png))
    relatorio = ciclo.verificar()
    mensagens = [p.mensagem for p in relatorio.problemas if p.tabela == "processo_eventos"]
    assert len(mensagens) == 2, relatorio.problemas
    assert all(f"do processo nº {processo_id}" in m for m in mensagens)
    assert "evento nº" in mensagens[0] and "auto_infracao de 01/02/2024" in mensagens[0]
    assert "'AR.pdf'" in mensagens[0] and "alterado fora do sistema" in mensagens[0]
    assert "'recibo.png'" in mensagens[1] and "ausente" in mensagens[1]
    with pytest.raises(RegistroAlterado):  # never served
        documentos.ler(repo, processo_id, sha_pdf)
    with pytest.raises(RegistroAlterado):
        documentos.ler(repo, processo_id, sha_png)


def test_so_dentro_do_escopo(repo: Any) -> None:
    ciclo = Ciclo(repo)
    processo_id = _processo(ciclo, OUTRO)
    _com_documentos(ciclo, processo_id, ("AR.pdf", PDF))
    sha = hashlib.sha256(PDF).hexdigest()
    with escopo_sql.limitado(Escopo.de([CNPJ])), pytest.raises(documentos.DocumentoNaoEncontrado):
        documentos.ler(repo, processo_id, sha)
    with escopo_sql.limitado(Escopo.de([OUTRO])):
        assert documentos.ler(repo, processo_id, sha)[1] == PDF


def test_recusas_nada_gravado(repo: Any) -> None:
    ciclo = Ciclo(repo)
    processo_id = _processo(ciclo)
    hash_dado = [{"sha256": "0" * 64, "nome": "a.pdf", "tipo": "application/pdf", "bytes": 1}]
    with pytest.raises(EntradaInvalida) as erro:  # a hash with no content: refused
        ciclo.acrescentar(
            processo_id, {"evento": "auto_infracao", "data": "2024-02-01", "documentos": hash_dado}
        )
    assert erro.value.campo == "documentos"
    with pytest.raises(EntradaInvalida) as erro:
        ciclo.criar(
            {
                "tipo": "anp",
                "eventos": [{"evento": "infracao", "data": "2024-01-02", "documentos": hash_dado}],
            }
        )
    assert erro.value.campo == "eventos[0].documentos"
    with pytest.raises(EntradaInvalida) as erro:
        documentos.anexos([("a.pdf", PDF), ("b.pdf", PDF)])
    assert erro.value.campo == "documentos[1]"
    with pytest.raises(EntradaInvalida) as erro:
        documentos.anexos([(f"{i}.pdf", PDF + bytes([i])) for i in range(21)])
    assert erro.value.campo == "documentos"
    _com_documentos(ciclo, processo_id, ("AR.pdf", PDF))
    with pytest.raises(EntradaInvalida):  # § 6 refuses the event: its document is not stored
        ciclo.acrescentar(
            processo_id,
            {"evento": "infracao", "data": "2024-02-01"},
            "ana",
            documentos.anexos([("x.png", PNG)]),
        )
    with repo.leitura() as sessao:
        assert sessao.scalar(select(func.count()).select_from(DocumentoSalvo)) == 1


def test_linha_de_comando(tmp_path: Path, database_url: str) -> None:
    from multas.principal import cli

    (tmp_path / "AR.pdf").write_bytes(PDF)
    (tmp_path / "falso.pdf").write_bytes(b"MZ executavel")
    (tmp_path / "p.json").write_text(
        json.dumps({"tipo": "anp", "eventos": [{"evento": "infracao", "data": "2024-01-02"}]})
    )
    banco = ["--banco", database_url]
    assert (
        CliRunner().invoke(cli, ["processo", "criar", str(tmp_path / "p.json"), *banco]).exit_code
        == 0
    )
    base = ["processo", "evento", "1", "auto_infracao", "01/02/2024", *banco, "-f", "json"]
    r = CliRunner().invoke(cli, [*base, "--documento", str(tmp_path / "falso.pdf")])
    assert r.exit_code == 2 and json.loads(r.stdout)["erro"]["campo"] == "documentos[0]"
    r = CliRunner().invoke(cli, [*base, "--documento", str(tmp_path / "nao-existe.pdf")])
    assert r.exit_code == 2 and "arquivo não encontrado" in r.stdout
    r = CliRunner().invoke(cli, [*base, "--documento", str(tmp_path / "AR.pdf")])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["eventos"][1]["documentos"][0]["nome"] == "AR.pdf"
    r = CliRunner().invoke(cli, ["processo", "mostrar", "1", *banco, "-f", "texto"])
    assert f"documento: AR.pdf (application/pdf, {len(PDF)} bytes" in r.stdout


def test_verificar_nao_quebra_com_a_lista_do_evento_adulterada(repo: Any) -> None:
    """Hostile review: an event's documentos column edited outside the system (a size that is
    not a number) is named by the chain, not a crash of ``auditoria verificar``."""
    ciclo = Ciclo(repo)
    processo_id = _processo(ciclo)
    _com_documentos(ciclo, processo_id, ("AR.pdf", PDF))
    sha = hashlib.sha256(PDF).hexdigest()
    for bytes_ in ("abc", None, [1], "9" * 5000):
        texto = json.dumps([{"sha256": sha, "nome": "AR.pdf", "tipo": "x", "bytes": bytes_}])
        with repo.engine.begin() as conexao:
            conexao.execute(
                update(EventoSalvo)
                .where(EventoSalvo.documentos.is_not(None))
                .values(documentos=texto)
            )
        relatorio = ciclo.verificar()
        assert not relatorio.integro
        assert any(p.tabela == "processo_eventos" for p in relatorio.problemas)


def test_exportar_e_importar_de_novo_com_documentos(repo: Any) -> None:
    """Hostile review: the processos file has no column for the documents, so a row of an
    event that carries some is the same event (skipped), not a new one: exporting and
    importing again gives the same processos (a repeatable event is not duplicated)."""
    from multas.nucleo.arquivos import LINHA_DE_COMANDO
    from multas.servicos.exportar_processos import exportar_processos
    from multas.servicos.importar import importar_processos, ler_arquivo

    ciclo = Ciclo(repo)
    dados = {
        "tipo": "anp",
        "id": "48610.000001/2024-11",
        "cnpj": CNPJ,
        "eventos": [{"evento": "infracao", "data": "2024-01-02"}],
    }
    processo_id = ciclo.criar(dados, "ana").armazenado.id
    _com_documentos(ciclo, processo_id, ("AR.pdf", PDF))
    evento = {"evento": "suspensao_judicial", "data": "2024-02-05"}
    ciclo.acrescentar(processo_id, evento, "ana", documentos.anexos([("ordem.png", PNG)]))
    antes = ciclo.obter(processo_id).armazenado.eventos
    for formato in ("csv", "jsonl"):
        arquivo = ler_arquivo(
            exportar_processos(ciclo, formato).encode(), f"p.{formato}", False, LINHA_DE_COMANDO
        )
        resumo = importar_processos(ciclo, arquivo, "ana")
        assert resumo["linhas_iguais_puladas"] == 3 and resumo["eventos_acrescentados"] == 0
        assert ciclo.obter(processo_id).armazenado.eventos == antes


def test_documento_que_nao_e_arquivo_comum_e_recusado_sem_ler(tmp_path: Path) -> None:
    """Hostile review: ``--documento`` given a FIFO (which would block the command until a
    writer came), a device (/dev/zero, endless) or a folder is refused without reading it;
    a file larger than the limit is refused by its size, which the message gives as it is."""
    import os
    import threading

    caminhos = [tmp_path]
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "fila")
        caminhos.append(tmp_path / "fila")
    if Path("/dev/zero").exists():
        caminhos.append(Path("/dev/zero"))
    erros: dict[Path, object] = {}

    def ler(caminho: Path) -> None:
        try:
            erros[caminho] = documentos.do_arquivo(caminho, "d")
        except EntradaInvalida as erro:
            erros[caminho] = erro

    for caminho in caminhos:
        leitura = threading.Thread(target=ler, args=(caminho,), daemon=True)
        leitura.start()
        leitura.join(5)
        if leitura.is_alive():  # blocked on the FIFO: unblock it, then fail
            with open(caminho, "wb"):
                pass
            pytest.fail(f"{caminho} bloqueou a leitura")
        erro = erros[caminho]
        assert isinstance(erro, EntradaInvalida), erro
        assert "arquivo comum" in erro.mensagem or "pasta" in erro.mensagem
    grande = tmp_path / "grande.pdf"
    grande.write_bytes(b"%PDF-")
    os.truncate(grande, 21 * 1024 * 1024)  # sparse: nothing written
    with pytest.raises(EntradaInvalida) as recusa:
        documentos.do_arquivo(grande, "d")
    assert f"{21 * 1024 * 1024} bytes" in recusa.value.mensagem


def test_verificar_le_um_conteudo_por_vez_pelo_hash(repo: Any) -> None:
    """Hostile review: verification reads the documents' table one row at a time, each content
    as its hash (the rows were read whole, a thousand at a time, and PostgreSQL's driver
    fetches a result whole: 20 MiB a document, the whole store in memory); the states it
    checks are the same, and a changed content is still caught."""
    from multas.servicos.persistencia.registros import RECURSOS, linhas_de

    ciclo = Ciclo(repo)
    processo_id = _processo(ciclo)
    _com_documentos(ciclo, processo_id, ("AR.pdf", PDF), ("recibo.png", PNG))
    with repo.leitura() as sessao:
        linhas = list(linhas_de(sessao, RECURSOS["documentos"]))
    assert len(linhas) == 2
    assert all(not isinstance(v, bytes | memoryview) for linha in linhas for v in linha.values())
    assert linhas[0]["conteudo"] == hashlib.sha256(PDF).hexdigest()
    assert ciclo.verificar().integro
    with repo.engine.begin() as conexao:
        conexao.execute(update(DocumentoSalvo).where(DocumentoSalvo.id == 1).values(bytes=7))
    assert [p.tabela for p in ciclo.verificar().problemas] == ["documentos"]
