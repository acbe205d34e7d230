"""``multas reavaliar``: the saved cases and processos that changed with the legislation
and the calendar of now."""

from __future__ import annotations

from typing import Any

from multas.saidas.idioma import falar_portugues

falar_portugues()

import click  # noqa: E402

from multas.cli.comum import (  # noqa: E402
    DataBR,
    _data_base,
    _eco,
    _falhar,
    _repositorio,
    url_do_banco,
)
from multas.nucleo.erros import EntradaInvalida  # noqa: E402
from multas.nucleo.json_exato import despejar_json  # noqa: E402


@click.command(options_metavar="[OPÇÕES]")
@click.option(
    "--formato",
    "-f",
    type=click.Choice(("texto", "json", "csv")),
    default="texto",
    show_default=True,
)
@click.option(
    "--banco",
    default=None,
    metavar="CAMINHO|URL",
    callback=url_do_banco,
    help="O banco: um arquivo SQLite (/caminho/multas.db) ou uma URL (padrão: "
    "MULTAS_DATABASE_URL ou o da pasta de dados do usuário).",
)
@click.option(
    "--legislacao-anterior",
    type=click.Path(exists=True, file_okay=False),
    default=None,
    metavar="PASTA",
    help="Pasta com os arquivos .toml da legislação de antes de uma mudança (uma cópia de "
    "legislacao/parametros): compara também os prazos de cada processo salvo.",
)
@click.option(
    "--data-referencia",
    type=DataBR("data_referencia"),
    default=None,
    help="Data em que os prazos dos processos são julgados (padrão: hoje) (dd/mm/aaaa, ddmmaaaa ou aaaa-mm-dd).",
)
def reavaliar(
    formato: str,
    banco: str | None,
    legislacao_anterior: str | None,
    data_referencia: Any,
) -> None:
    """Lista os casos e processos salvos que mudaram com a legislação e o calendário de agora.

    Cada caso salvo é calculado de novo: cada saída que mudou aparece com o valor antigo e o
    novo. Com --legislacao-anterior, cada processo salvo é derivado com a legislação de antes e
    a de agora, e cada prazo, estado ou valor que mudou aparece lado a lado. Um caso ou
    processo que as regras de agora recusam aparece com o erro.
    """
    from pathlib import Path

    from multas.nucleo.legislacao import ler_pasta
    from multas.servicos import reavaliar as modulo
    from multas.servicos.gestao import Ciclo

    texto = "texto" if formato == "csv" else formato
    referencia = _data_base(data_referencia, formato=texto)
    try:
        anterior = None if legislacao_anterior is None else ler_pasta(Path(legislacao_anterior))
    except EntradaInvalida as erro:
        _falhar(erro, texto)
    from multas.servicos.em_paralelo import nucleos

    itens = modulo.reavaliar(
        Ciclo(_repositorio(banco)), anterior=anterior, referencia=referencia, processos=nucleos()
    )
    if formato == "json":
        click.echo(despejar_json({"itens": itens}))
    elif formato == "csv":
        from multas.saidas.exportacao import csv_texto

        campos = ["registro", "id", "regime", "campo", "antes", "depois", "erro"]
        linhas = ([None if item[c] is None else str(item[c]) for c in campos] for item in itens)
        click.echo(csv_texto(campos, linhas), nl=False)
    else:
        _eco(modulo.como_texto(itens), nl=False)
