"""The reports (PDF and HTML): their text, the metadata they are made with, and a sentence of
the law the example's memória quotes."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from io import BytesIO

from multas import __version__
from multas.nucleo.legislacao import carregar
from multas.saidas.relatorio import Metadados

#: a sentence of Decreto 9.888/2019 art. 6º-A § 8º, quoted in the memória of the example
FRASE_LEGAL = "a multa prevista no art. 6º será reduzida proporcionalmente, à razão de 1/12"


def texto_do_pdf(conteudo: bytes) -> str:
    """All the text of a PDF, whitespace collapsed (lines wrap anywhere in a table)."""
    from pypdf import PdfReader

    paginas = PdfReader(BytesIO(conteudo)).pages
    return re.sub(r"\s+", " ", " ".join(p.extract_text() for p in paginas))


def metadados() -> Metadados:
    return Metadados(
        versao_motor=__version__,
        versao_legislacao=carregar().versao,
        calculado_em=datetime(2026, 3, 16, 12, 30, tzinfo=UTC),
        gerado_em=datetime(2026, 3, 17, 9, 0, tzinfo=UTC),
        caso_id=7,
        usuario="Ana Souza",
    )
