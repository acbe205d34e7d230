"""Documents on events (spec § 6.2 v4), in the core: a document is its content (type read from
its first bytes, its size, its SHA-256), an event carries at most 20, and ``prazos calcular``
validates and echoes them."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from multas.nucleo.ciclo.documentos import (
    MAXIMO_BYTES,
    MAXIMO_POR_EVENTO,
    TIPOS,
    documento_do_conteudo,
    ler_documentos,
    tipo_do_conteudo,
)
from multas.nucleo.ciclo.prazos import analisar
from multas.nucleo.erros import EntradaInvalida

PDF = b"%PDF-1.7\n1 0 obj"
PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF"


def _doc(conteudo: bytes = PDF, nome: str = "AR.pdf") -> dict[str, Any]:
    return documento_do_conteudo(nome, conteudo, "documentos[0]").como_dict()


def _processo(*documentos: dict[str, Any]) -> dict[str, Any]:
    return {
        "tipo": "anp",
        "data_referencia": "2024-03-01",
        "eventos": [
            {"evento": "infracao", "data": "2024-01-02"},
            {"evento": "auto_infracao", "data": "2024-02-01", "documentos": list(documentos)},
        ],
    }


def test_o_tipo_e_o_hash_vem_do_conteudo_nao_do_nome() -> None:
    for conteudo, tipo in ((PDF, "application/pdf"), (PNG, "image/png"), (JPEG, "image/jpeg")):
        doc = documento_do_conteudo("sem-extensao", conteudo, "documentos[0]")
        assert (doc.tipo, doc.bytes) == (tipo, len(conteudo))
        assert doc.sha256 == hashlib.sha256(conteudo).hexdigest()
    with pytest.raises(EntradaInvalida) as erro:
        documento_do_conteudo("recibo.pdf", b"<html><script>", "documentos[3]")
    assert erro.value.campo == "documentos[3]" and "não é PDF, PNG nem JPEG" in erro.value.mensagem
    with pytest.raises(EntradaInvalida, match="vazio"):
        documento_do_conteudo("a.pdf", b"", "documentos[0]")
    with pytest.raises(EntradaInvalida, match="20 MiB"):
        documento_do_conteudo("a.pdf", PDF + b"0" * MAXIMO_BYTES, "documentos[0]")
    assert documento_do_conteudo("C:\\pasta\\AR.pdf", PDF, "d").nome == "AR.pdf"
    for nome in ("", "   ", "a\x00.pdf", "x" * 256 + ".pdf"):
        with pytest.raises(EntradaInvalida):
            documento_do_conteudo(nome, PDF, "d")


@given(st.binary(max_size=64))
def test_qualquer_conteudo_sem_a_assinatura_e_recusado(conteudo: bytes) -> None:
    assinado = any(conteudo.startswith(a) for assinaturas in TIPOS.values() for a in assinaturas)
    if assinado or not conteudo:
        return
    assert tipo_do_conteudo(conteudo) is None
    with pytest.raises(EntradaInvalida):
        documento_do_conteudo("foto.png", conteudo, "documentos[0]")


def test_prazos_calcular_valida_e_ecoa_os_documentos() -> None:
    saida = analisar(_processo(_doc(), _doc(PNG, "foto.png"))).como_dict()
    assert [(d["evento"], d["data"], d["nome"], d["tipo"]) for d in saida["documentos"]] == [
        ("auto_infracao", "2024-02-01", "AR.pdf", "application/pdf"),
        ("auto_infracao", "2024-02-01", "foto.png", "image/png"),
    ]
    assert saida["documentos"][0]["sha256"] == hashlib.sha256(PDF).hexdigest()
    assert "documentos" not in analisar(_processo()).como_dict()


@pytest.mark.parametrize(
    ("mudanca", "campo"),
    [
        ({"sha256": "A" * 64}, "eventos[1].documentos[0].sha256"),
        ({"sha256": "0" * 63}, "eventos[1].documentos[0].sha256"),
        ({"tipo": "text/html"}, "eventos[1].documentos[0].tipo"),
        ({"bytes": 0}, "eventos[1].documentos[0].bytes"),
        ({"bytes": MAXIMO_BYTES + 1}, "eventos[1].documentos[0].bytes"),
        ({"bytes": True}, "eventos[1].documentos[0].bytes"),
        ({"bytes": "15"}, "eventos[1].documentos[0].bytes"),
        ({"nome": "../../etc/passwd"}, "eventos[1].documentos[0].nome"),
        ({"nome": 5}, "eventos[1].documentos[0].nome"),
        ({"url": "http://x"}, "eventos[1].documentos[0].url"),
        ({"nome": None}, "eventos[1].documentos[0].nome"),
        # hostile review: a tipo that is not text is refused, not a crash (unhashable)
        ({"tipo": ["application/pdf"]}, "eventos[1].documentos[0].tipo"),
        ({"tipo": {}}, "eventos[1].documentos[0].tipo"),
        # names that hide what they are or name no file: a bidi override, other invisible
        # format characters, C1 controls, line separators, only dots, only blanks
        ({"nome": "fatura\u202efdp.exe"}, "eventos[1].documentos[0].nome"),
        ({"nome": "a\u2066b.pdf"}, "eventos[1].documentos[0].nome"),
        ({"nome": "\u200b"}, "eventos[1].documentos[0].nome"),
        ({"nome": "a\x9b2J.pdf"}, "eventos[1].documentos[0].nome"),
        ({"nome": "a\u2028b.pdf"}, "eventos[1].documentos[0].nome"),
        ({"nome": ".."}, "eventos[1].documentos[0].nome"),
        ({"nome": "   "}, "eventos[1].documentos[0].nome"),
    ],
)
def test_documento_recusado_nomeia_o_campo(mudanca: dict[str, Any], campo: str) -> None:
    with pytest.raises(EntradaInvalida) as erro:
        analisar(_processo(_doc() | mudanca))
    assert erro.value.campo == campo


def test_no_maximo_vinte_documentos_distintos_por_evento() -> None:
    docs = [_doc(PDF + bytes([i])) for i in range(MAXIMO_POR_EVENTO + 1)]
    analisar(_processo(*docs[:MAXIMO_POR_EVENTO]))
    with pytest.raises(EntradaInvalida) as erro:
        analisar(_processo(*docs))
    assert erro.value.campo == "eventos[1].documentos"
    with pytest.raises(EntradaInvalida) as erro:
        analisar(_processo(_doc(), _doc(nome="copia.pdf")))
    assert erro.value.campo == "eventos[1].documentos[1].sha256"
    for bruto in ({"sha256": "x"}, "AR.pdf", [["a"]]):
        with pytest.raises(EntradaInvalida):
            ler_documentos(bruto if isinstance(bruto, list) else [bruto], "eventos[0]")


def test_nome_de_arquivo_so_de_pontos_ou_invisivel_e_recusado() -> None:
    """Hostile review: the file's name as kept from a path is checked as the contract's."""
    for nome in ("pasta/..", "C:\\AR\\.", "\u202eAR.pdf", "AR\u200d.pdf"):
        with pytest.raises(EntradaInvalida):
            documento_do_conteudo(nome, PDF, "documentos[0]")
    assert documento_do_conteudo("citação (1).pdf", PDF, "d").nome == "citação (1).pdf"
