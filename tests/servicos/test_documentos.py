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
from multas.servicos.persistencia.modelos_ciclo import DocumentoSalvo

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
