"""The lifecycle (spec § 6): ``multas prazos`` (``calcular``, ``proximos``, ``ics``) and
the work queue, ``multas pendencias``."""

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
    _eco,
    _erro,
    _falhar,
    _ler_texto,
    _por_linha,
    legislacao_da_linha_de_comando,
)
from multas.nucleo.erros import AJUDA_CODIGOS_DE_SAIDA, EntradaInvalida  # noqa: E402
from multas.nucleo.eventos import ESTADOS as TODOS_OS_ESTADOS  # noqa: E402
from multas.nucleo.json_exato import despejar_json, ler_json  # noqa: E402


@click.group(options_metavar="[OPÇÕES]", subcommand_metavar="COMANDO [ARGUMENTOS]...")
def prazos() -> None:
    """Prazos do ciclo de fiscalização: processos, eventos e prazos (veja docs/ciclo.md)."""


@prazos.command("calcular", options_metavar="[OPÇÕES]", epilog=AJUDA_CODIGOS_DE_SAIDA)
@click.argument(
    "entrada", type=click.Path(exists=True, dir_okay=False, allow_dash=True), default="-"
)
@click.option(
    "--formato",
    "-f",
    type=click.Choice(("json", "texto")),
    default="json",
    show_default=True,
    help="json (o contrato) ou texto (legível).",
)
@click.option(
    "--jsonl", is_flag=True, help="Lê JSON Lines (um processo por linha); implícito em .jsonl."
)
@click.option(
    "--em",
    type=DataBR("em"),
    default=None,
    help="Julgar nesta data, no lugar de data_referencia: o valor devido nesse dia "
    "(dd/mm/aaaa, ddmmaaaa ou aaaa-mm-dd).",
)
def prazos_calcular(entrada: str, formato: str, jsonl: bool, em: Any) -> None:
    """Deriva o estado, os prazos e o valor devido do processo em ENTRADA (JSON ou JSON
    Lines; '-' para a entrada padrão)."""
    from functools import partial

    from multas.nucleo.ciclo import calcular_prazos as prazos_de
    from multas.servicos.relogio import hoje

    if isinstance(em, EntradaInvalida):
        _falhar(em, formato)
    calcular_prazos = partial(
        prazos_de, legislacao=legislacao_da_linha_de_comando(), hoje=hoje(), em=em
    )
    texto = _ler_texto(entrada)
    if jsonl or entrada.endswith(".jsonl"):
        sys.exit(
            _por_linha(texto, calcular_prazos, lambda r: _emitir_prazos(r, formato, compacto=True))
        )
    try:
        resultado = calcular_prazos(ler_json(texto))
    except EntradaInvalida as erro:
        _erro(erro, formato)
        sys.exit(2)
    _emitir_prazos(resultado, formato, compacto=False)


def _emitir_prazos(resultado: dict[str, Any], formato: str, compacto: bool) -> None:
    if formato == "json":
        click.echo(despejar_json(resultado, compacto=compacto))
    else:
        from multas.saidas.texto import como_texto

        _eco(como_texto(resultado), nl=False)


@click.command("pendencias", options_metavar="[OPÇÕES]")
@click.option(
    "--data-referencia",
    "--hoje",
    "data_referencia",
    type=DataBR("data_referencia"),
    help="Julgar nesta data (padrão: hoje em Brasília) (dd/mm/aaaa, ddmmaaaa ou aaaa-mm-dd); --hoje é o nome antigo.",
)
@click.option(
    "--dias",
    type=click.IntRange(0, 3660),
    default=30,
    show_default=True,
    metavar="N",
    help="Os prazos em aberto que vencem até N dias depois da data de referência (0 a 3660).",
)
@click.option(
    "--responsavel",
    metavar="anp|autuado|procuradoria|judiciario",
    help="Só as próximas ações e os prazos de quem age: a ANP, o autuado, a procuradoria ou o "
    "judiciário.",
)
@click.option(
    "--cnpj",
    metavar="CNPJ",
    help="Só os processos deste CNPJ (com ou sem pontuação).",
)
@click.option(
    "--estado",
    metavar="ESTADO",
    help="Só os processos neste estado: " + ", ".join(TODOS_OS_ESTADOS) + ".",
)
@click.option(
    "--prescritos/--sem-prescritos",
    default=True,
    show_default=True,
    help="Incluir os prazos dos processos prescritos (ocultos, a saída diz quantos).",
)
@click.option(
    "--vencidos/--sem-vencidos",
    default=True,
    show_default=True,
    help="Incluir os prazos vencidos sem evento que os cumpra ou encerre (primeiro na lista).",
)
@click.option("--todos", is_flag=True, help="Incluir os prazos já cumpridos ou encerrados.")
@click.option(
    "--formato",
    "-f",
    type=click.Choice(("texto", "json", "csv")),
    default="texto",
    show_default=True,
)
@_PTBR_SAIDA
@_BANCO
def pendencias(
    data_referencia: Any,
    dias: int,
    responsavel: str | None,
    cnpj: str | None,
    estado: str | None,
    prescritos: bool,
    vencidos: bool,
    todos: bool,
    formato: str,
    ptbr: bool,
    banco: str | None,
) -> None:
    """A fila de trabalho: primeiro a próxima ação de cada processo (quem age, o quê, desde
    quando e até quando; a mais urgente primeiro), depois os prazos vencidos (o mais atrasado
    primeiro) e os que vencem nos próximos N dias, de todos os processos salvos. 'multas
    pendencias' e 'multas prazos proximos' são o mesmo comando."""
    from multas.nucleo.ciclo.pendencias import ler_filtros

    dia = _data_base(data_referencia, formato=formato)
    try:
        filtros = ler_filtros(dia, dias, responsavel, cnpj, estado, prescritos, vencidos, todos)
    except EntradaInvalida as erro:
        _falhar(erro, formato)
    from multas.servicos.em_paralelo import nucleos

    fila = _ciclo(banco).pendencias(filtros, processos=nucleos())
    if formato == "json":
        click.echo(despejar_json(fila))
    elif formato == "csv":
        from multas.saidas.exportar import pendencias_csv

        click.echo(pendencias_csv(fila, ptbr), nl=False)
    else:
        from multas.saidas.texto import pendencias_texto

        _eco(pendencias_texto(fila), nl=False)


#: the work queue under its former name: the same command, the same options
prazos.add_command(pendencias, "proximos")


@prazos.command("ics", options_metavar="[OPÇÕES]")
@click.option("--saida", "-o", type=click.Path(dir_okay=False), default=None)
@_BANCO
def prazos_ics(saida: str | None, banco: str | None) -> None:
    """Exporta todos os prazos dos processos salvos em iCalendar (.ics)."""
    from multas.saidas.exportar import calendario_ics
    from multas.servicos.relogio import agora

    conteudo = calendario_ics(_ciclo(banco).todos_os_prazos(), agora())  # judged today
    if saida:
        with open(saida, "wb") as arquivo:
            arquivo.write(conteudo)
    else:
        sys.stdout.buffer.write(conteudo)
        sys.stdout.flush()
