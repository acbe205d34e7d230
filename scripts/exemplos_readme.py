"""Regenerate the worked examples (``docs/exemplos.md``; the README links to them) from
``exemplos/*.json``.

``python scripts/exemplos_readme.py`` rewrites the block between the markers in
docs/exemplos.md; ``tests/projeto/test_readme.py`` fails when that page and the engine disagree.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from multas import calcular
from multas.nucleo.json_exato import ler_json
from multas.saidas.memoria import como_markdown

RAIZ = Path(__file__).resolve().parents[1]
INICIO, FIM = "<!-- exemplos:inicio -->", "<!-- exemplos:fim -->"

EXEMPLOS = (
    (
        "renovabio-distribuidor.json",
        "Meta de 2025 descumprida em 600.000 CBIOs, limitada a 5% do "
        "faturamento médio e reduzida porque a meta foi quitada em 15/03/2026, 3 meses após o prazo.",
    ),
    (
        "renovabio-produtor.json",
        "300.000 CBIOs não pagos ao produtor de cana em 2025, que "
        "forneceu os dados primários (multa em dobro).",
    ),
    (
        "renovabio-vedacao.json",
        "Distribuidor listado que vendeu durante a vedação; a base (a "
        "soma das suas multas) fica limitada a 5% do faturamento médio.",
    ),
    (
        "anp-infracao.json",
        "Um valor fixado para o inciso XI da lei (art. 3º), cujo texto não está transcrito: a "
        "faixa fica em branco e o valor volta sem conferência, com aviso.",
    ),
    (
        "anp-auto.json",
        "Um auto com dois incisos (XI e XII, na numeração do decreto) e o total de R$ 27 mil, "
        "conferido contra a soma das faixas.",
    ),
    (
        "anp-mora.json",
        "Ciência na Sexta-feira Santa de 2024: os 30 dias terminam num domingo e o "
        "prazo é prorrogado; pagamento em 01/07/2024. Com a Selic de maio e junho, as "
        "outras leituras mostram os encargos da Lei nº 10.522/2002, art. 37-A.",
    ),
    (
        "mover-eficiencia.json",
        "Montadora que descumpriu os dois ciclos: aplica-se só a maior multa, por veículo vendido.",
    ),
)


def _sem_textos_legais(markdown: str) -> str:
    """The README keeps the steps; the quoted legal texts are one command away."""
    if "## Texto legal aplicado" not in markdown:
        return markdown
    inicio = markdown.index("## Texto legal aplicado")
    fins = [markdown.find(s, inicio) for s in ("## Avisos", "## Outras leituras")]
    fim = min([f for f in fins if f != -1] or [len(markdown)])
    return markdown[:inicio] + markdown[fim:]


def gerar() -> str:
    partes = []
    for arquivo, explicacao in EXEMPLOS:
        texto = (RAIZ / "exemplos" / arquivo).read_text(encoding="utf-8").strip()
        resultado = calcular(ler_json(texto))
        corpo = _sem_textos_legais(como_markdown(resultado).split("\n", 2)[2])
        corpo = corpo.replace("\n## ", "\n#### ").strip()
        partes.append(
            f"### `{resultado['regime']}`\n\n{explicacao}\n\n"
            f"```console\n$ multas calcular exemplos/{arquivo} --formato markdown\n```\n\n"
            f"```json\n{texto}\n```\n\n{corpo}\n"
        )
    return "\n".join(partes)


def main() -> None:
    pagina = RAIZ / "docs" / "exemplos.md"
    antes, resto = pagina.read_text(encoding="utf-8").split(INICIO)
    _, depois = resto.split(FIM)
    pagina.write_text(f"{antes}{INICIO}\n{gerar()}{FIM}{depois}", encoding="utf-8")
    json.dump({"exemplos": len(EXEMPLOS)}, sys.stdout)
    print()


if __name__ == "__main__":
    main()
