"""Regenerate the golden text of a year's notice (tests/notificacoes/*.txt).

``python scripts/notificacoes.py`` rewrites them; ``tests/ciclo/test_notificacao.py`` fails when
the text of a notice's PDF differs from its reviewed golden file. Review the diff before
committing, as a distributor's lawyer would read the notice: the case (the target, the carry,
the retirements, the shortfall), the price and its basis, the fine, the law quoted and the
deadlines with their dates.

The case: Gama Petróleo's 2024 target, 13.441 CBIOs of its own plus 1.022 carried from 2023,
12.900 retired, priced from B3's daily quotes of 2024 (tests/dados/cbio-b3-2024.csv), notified
on 03/03/2025; and a second distributor whose shortfall fits the deferral.
"""

from __future__ import annotations

import csv
import io
import json
import sys
from datetime import date
from pathlib import Path
from typing import Any

RAIZ = Path(__file__).resolve().parents[1]
GOLDEN = RAIZ / "tests" / "notificacoes"
COTACOES = RAIZ / "tests" / "dados" / "cbio-b3-2024.csv"

#: the distributors of the golden notices (one row each, as the year reads them)
LINHAS: list[dict[str, Any]] = [
    {
        "cnpj": "33.444.555/0001-81",
        "nome": "Gama Petróleo Ltda.",
        "meta_cbios": 13441,
        "falta_anterior": 1022,
        "cbios_aposentados": 12900,
        "Endereço": "Rua das Flores, 100, Centro, Rio de Janeiro/RJ, 20000-000",
        "referencia": "48610.201234/2025-11",
    },
    {
        "cnpj": "22.333.444/0001-81",
        "nome": "Beta Distribuidora S.A.",
        "meta_cbios": 100000,
        "cbios_aposentados": 90000,
    },
]
NOMES = {"33444555000181.pdf": "gama-2024", "22333444000181.pdf": "beta-2024"}


def texto_do_pdf(conteudo: bytes) -> str:
    """The text of a PDF as pypdf extracts it, page by page."""
    from pypdf import PdfReader

    paginas = PdfReader(io.BytesIO(conteudo)).pages
    return "".join(f"--- página {i} ---\n{p.extract_text()}\n" for i, p in enumerate(paginas, 1))


def notificacoes(**opcoes: Any) -> dict[str, bytes]:
    """The golden year's notices: file name → PDF."""
    from multas.nucleo.ciclo.carteira import locais_de_lista
    from multas.nucleo.contrato import JSON
    from multas.nucleo.cotacoes import ler_serie
    from multas.nucleo.legislacao import carregar
    from multas.servicos.ano import calcular_ano
    from multas.servicos.ano import notificacoes as gerar

    with COTACOES.open(encoding="utf-8") as arquivo:
        cotacoes = list(csv.DictReader(arquivo))
    serie = ler_serie(cotacoes, locais_de_lista(len(cotacoes)), JSON, "preco")
    legislacao = carregar()
    resultado = calcular_ano(
        LINHAS, locais_de_lista(len(LINHAS)), JSON, 2024, serie, legislacao, com_calculo=True
    )
    opcoes.setdefault("fonte_cotacoes", "B3, resumo diário das negociações do CBIO")
    return dict(gerar(resultado, 2024, legislacao, date(2025, 3, 3), **opcoes))


def textos() -> dict[str, str]:
    return {NOMES[nome]: texto_do_pdf(pdf) for nome, pdf in notificacoes().items()}


def main() -> None:
    GOLDEN.mkdir(exist_ok=True)
    gerados = textos()
    for nome, texto in gerados.items():
        (GOLDEN / f"{nome}.txt").write_text(texto, encoding="utf-8")
    json.dump({"notificacoes": len(gerados)}, sys.stdout)
    print()


if __name__ == "__main__":
    main()
