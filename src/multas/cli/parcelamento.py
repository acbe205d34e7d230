"""``multas parcelamento simular``: the schedule of a parcelamento (Lei nº 10.522/2002 art.
37-B; spec § 6.2 v4) before it is requested."""

from __future__ import annotations

import sys
from dataclasses import replace
from typing import Any

from multas.saidas.idioma import falar_portugues

falar_portugues()

import click  # noqa: E402

from multas.cli.comum import (  # noqa: E402
    DataBR,
    _data_base,
    _eco,
    _erro,
    _ler_texto,
    legislacao_da_linha_de_comando,
)
from multas.nucleo.erros import EntradaInvalida  # noqa: E402
from multas.nucleo.json_exato import despejar_json, ler_json  # noqa: E402


@click.group(options_metavar="[OPÇÕES]", subcommand_metavar="COMANDO [ARGUMENTOS]...")
def parcelamento() -> None:
    """Parcelamento das multas inscritas em Dívida Ativa (Lei nº 10.522/2002, art. 37-B)."""


@parcelamento.command("simular", options_metavar="[OPÇÕES]")
@click.argument(
    "processo",
    type=click.Path(exists=True, dir_okay=False, allow_dash=True),
    required=False,
)
@click.option("--parcelas", "-n", required=True, type=int, metavar="N", help="Prestações mensais.")
@click.option(
    "--data",
    type=DataBR("data"),
    default=None,
    help="A data do pedido, em que o débito é consolidado (padrão: hoje; dd/mm/aaaa, "
    "ddmmaaaa ou aaaa-mm-dd).",
)
@click.option(
    "--valor-consolidado",
    default=None,
    metavar="R$",
    help="O débito consolidado (ex.: 12.000,00); sem ele, o valor devido do PROCESSO na data.",
)
@click.option(
    "--valor-minimo-parcela",
    default=None,
    metavar="R$",
    help="O mínimo de cada prestação, do ato do Procurador-Geral Federal (art. 37-B, § 9º).",
)
@click.option(
    "--formato", "-f", type=click.Choice(("texto", "json")), default="texto", show_default=True
)
def simular(
    processo: str | None,
    parcelas: int,
    data: Any,
    valor_consolidado: str | None,
    valor_minimo_parcela: str | None,
    formato: str,
) -> None:
    """O cronograma de um parcelamento pedido na DATA: cada prestação, o seu vencimento e os
    juros se paga no vencimento. O débito é --valor-consolidado ou o valor devido do PROCESSO
    (o JSON de 'multas prazos calcular') nessa data."""
    from multas.nucleo.ciclo import analisar
    from multas.nucleo.ciclo.parcelamento import simular as simular_parcelamento
    from multas.nucleo.contrato import Campo, ler_valor
    from multas.nucleo.datas import formatar_data
    from multas.nucleo.dinheiro import quantia_digitada

    dia = _data_base(data, formato=formato)
    aviso: str | None = None
    try:

        def quantia(bruto: str, campo: str) -> Any:
            return ler_valor(
                quantia_digitada(bruto), Campo(campo, "quantia_positiva", "", False, 0)
            )

        legislacao = legislacao_da_linha_de_comando()
        if valor_consolidado is not None:
            consolidado = quantia(valor_consolidado, "valor_consolidado")
        elif processo is not None:
            situacao = analisar(ler_json(_ler_texto(processo)), legislacao, em=dia)
            if situacao.devido is None or not situacao.devido.saldo:
                raise EntradaInvalida(
                    "valor_consolidado",
                    "o processo não tem valor devido nessa data (pede valor_multa e a decisão "
                    "definitiva, e um saldo): informe --valor-consolidado",
                )
            consolidado = situacao.devido.saldo
            anterior = next(
                (
                    e
                    for e in reversed(situacao.processo.eventos)
                    if e.nome == "parcelamento" and e.data <= dia
                ),
                None,
            )
            if anterior is not None:  # a new request on top of a plan: the user's to judge
                aviso = (
                    f"O processo já tem um parcelamento, pedido em {formatar_data(anterior.data)}: "
                    "o débito simulado é o saldo dele nesta data; um novo parcelamento do mesmo "
                    "crédito não está no texto transcrito do art. 37-B (confira os atos da "
                    "Procuradoria-Geral Federal)."
                )
        else:
            raise EntradaInvalida(
                "valor_consolidado", "informe --valor-consolidado ou o arquivo do processo"
            )
        minimo = None
        if valor_minimo_parcela is not None:
            minimo = quantia(valor_minimo_parcela, "valor_minimo_parcela")
        resultado = simular_parcelamento(consolidado, parcelas, dia, legislacao, minimo)
        if aviso is not None:
            resultado = replace(resultado, avisos=(*resultado.avisos, aviso))
    except EntradaInvalida as erro:
        _erro(erro, formato)
        sys.exit(2)
    if formato == "json":
        click.echo(despejar_json(resultado.como_dict()))
    else:
        from multas.saidas.texto import parcelamento_texto

        _eco(parcelamento_texto(resultado.como_dict()), nl=False)
