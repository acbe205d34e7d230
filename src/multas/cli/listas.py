"""``multas listas``: the ANP's lists (sanções, balanço, encaminhamento), derived from the
stored processos."""

from __future__ import annotations

import sys
from typing import Any

from multas.saidas.idioma import falar_portugues

falar_portugues()

import click  # noqa: E402

from multas.cli.comum import (  # noqa: E402
    _BANCO,
    _PTBR_SAIDA,
    DataBR,
    _ciclo,
    _data_base,
)
from multas.nucleo.json_exato import despejar_json  # noqa: E402


@click.command(options_metavar="[OPÇÕES]")
@click.argument("qual", type=click.Choice(("sancoes", "balanco", "encaminhamento")))
@click.option(
    "--data",
    "data_",
    type=DataBR("data"),
    help="A lista nesta data (padrão: hoje) (dd/mm/aaaa, ddmmaaaa ou aaaa-mm-dd).",
)
@click.option(
    "--formato",
    "-f",
    type=click.Choice(("texto", "json", "csv", "pdf")),
    default="texto",
    show_default=True,
)
@click.option("--saida", "-o", type=click.Path(dir_okay=False), default=None)
@_PTBR_SAIDA
@_BANCO
def listas(
    qual: str, data_: Any, formato: str, saida: str | None, ptbr: bool, banco: str | None
) -> None:
    """As listas da ANP, derivadas dos processos salvos: sancoes (art. 6º-A), balanco
    (art. 9º-A) ou encaminhamento (art. 6º, § 4º)."""
    from multas.saidas import exportar

    lista = _ciclo(banco).lista(qual, _data_base(data_, "json" if formato == "json" else "texto"))
    if formato == "pdf":
        from multas.servicos.relogio import agora

        if saida is None and sys.stdout.isatty():
            raise click.UsageError("o PDF é binário: indique o arquivo com --saida lista.pdf")
        conteudo = exportar.lista_pdf(lista, agora())
    elif formato == "csv":
        conteudo = exportar.lista_csv(lista, ptbr).encode("utf-8")
    elif formato == "json":
        conteudo = (despejar_json(lista) + "\n").encode("utf-8")
    else:
        conteudo = _lista_texto(lista).encode("utf-8")
    if saida:
        with open(saida, "wb") as arquivo:
            arquivo.write(conteudo)
    else:
        sys.stdout.buffer.write(conteudo)
        sys.stdout.flush()


def _lista_texto(lista: dict[str, Any]) -> str:
    """A list as text for a terminal: dates dd/mm/aaaa (:func:`multas.nucleo.datas.formatar_data`),
    names as stored (no formula apostrophe: that is the CSV's), control characters escaped
    (:func:`multas.nucleo.visivel.texto_visivel`)."""
    from datetime import date

    from multas.nucleo.datas import formatar_data
    from multas.nucleo.visivel import texto_visivel
    from multas.saidas.exportar import COLUNAS, COLUNAS_DATA

    def celula(chave: str, valor: object) -> str:
        if valor is None or valor == "":
            return "—"
        if chave in COLUNAS_DATA and isinstance(valor, str):
            return formatar_data(date.fromisoformat(valor))
        return str(valor)

    data = formatar_data(date.fromisoformat(lista["data"]))
    linhas = [f"{lista['titulo']}, em {data}", f"Fundamento: {lista['fundamento']}"]
    linhas += [f"Aviso: {a}" for a in lista["avisos"]]
    if not lista["itens"]:
        linhas.append("Nenhum distribuidor na lista nesta data.")
    for item in lista["itens"]:
        linhas.append(
            "  "
            + " · ".join(
                f"{titulo}: {celula(chave, item.get(chave))}"
                for chave, titulo in COLUNAS[lista["lista"]]
            )
        )
    return texto_visivel("\n".join(linhas) + "\n")
