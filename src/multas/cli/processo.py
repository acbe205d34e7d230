"""``multas processo``: the stored processos (create, change, add events, link, show, list,
import, export)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from multas.saidas.idioma import falar_portugues

falar_portugues()

import click  # noqa: E402

from multas.cli.comum import (  # noqa: E402
    _BANCO,
    _FORMATO_TEXTO_JSON,
    _PTBR_SAIDA,
    _USUARIO,
    DataBR,
    _ciclo,
    _data_base,
    _data_iso,
    _eco,
    _falhar,
    _ler_texto,
    _usuario,
    avisos_da_leitura,
    leitura_do_arquivo,
    opcoes_do_arquivo,
)
from multas.nucleo.erros import EntradaInvalida  # noqa: E402
from multas.nucleo.ids import MAIOR_ID  # noqa: E402
from multas.nucleo.json_exato import despejar_json, ler_json  # noqa: E402


def _processo_e_mostrar(
    banco: str | None, formato: str, operacao: Callable[[Any], Any], hoje: Any = None
) -> None:
    """The shape of the commands on one processo: open the lifecycle, run ``operacao`` on it
    (create, change, read), fail in pt-BR (:func:`_falhar`), or show the processo as it is now,
    judged on ``hoje`` (default: today in Brasília)."""
    ciclo = _ciclo(banco)
    try:
        derivado = operacao(ciclo)
    except Exception as erro:
        _falhar(erro, formato)
    _mostrar_processo(ciclo, derivado, formato, _data_base(None) if hoje is None else hoje)


def _mostrar_processo(ciclo: Any, derivado: Any, formato: str, hoje: Any) -> None:
    detalhe = ciclo.detalhe(derivado, hoje)
    if formato == "json":
        click.echo(despejar_json(detalhe))
    else:
        from multas.saidas.texto import detalhe_texto

        _eco(detalhe_texto(detalhe), nl=False)


@click.group(options_metavar="[OPÇÕES]", subcommand_metavar="COMANDO [ARGUMENTOS]...")
def processo() -> None:
    """Processos salvos: criar, alterar, acrescentar eventos, mostrar, listar."""


@processo.command("criar", options_metavar="[OPÇÕES]")
@click.argument(
    "entrada", type=click.Path(exists=True, dir_okay=False, allow_dash=True), default="-"
)
@_FORMATO_TEXTO_JSON
@_BANCO
@_USUARIO
def processo_criar(entrada: str, formato: str, banco: str | None, usuario: str | None) -> None:
    """Salva o processo em ENTRADA (o JSON de docs/ciclo.md, com dias_sem_expediente, mais
    valor_multa e caso_id opcionais) e mostra seus prazos."""
    _processo_e_mostrar(
        banco, formato, lambda c: c.criar(ler_json(_ler_texto(entrada)), _usuario(usuario))
    )


@processo.command("alterar", options_metavar="[OPÇÕES]")
@click.argument("processo_id", type=click.IntRange(1, MAIOR_ID), metavar="ID")
@click.argument(
    "entrada", type=click.Path(exists=True, dir_okay=False, allow_dash=True), default="-"
)
@_FORMATO_TEXTO_JSON
@_BANCO
@_USUARIO
def processo_alterar(
    processo_id: int, entrada: str, formato: str, banco: str | None, usuario: str | None
) -> None:
    """Altera os dias sem expediente do processo ID: ENTRADA é o JSON
    {"dias_sem_expediente": ["AAAA-MM-DD", ...]} (a nova lista substitui a anterior; null ou []
    para nenhum). Um processo que a especificação (§ 6) recusaria não é gravado."""
    _processo_e_mostrar(
        banco,
        formato,
        lambda c: c.alterar(processo_id, ler_json(_ler_texto(entrada)), _usuario(usuario)),
    )


@processo.command("evento", options_metavar="[OPÇÕES]")
@click.argument("processo_id", type=click.IntRange(1, MAIOR_ID), metavar="ID")
@click.argument("evento")
@click.argument("data", type=DataBR("data"))
@click.option(
    "--valor",
    default=None,
    metavar="R$",
    help="O valor de um pagamento (ex.: 1500.00 ou 1.500,00); sem ele, o pagamento quita o "
    "devido no dia.",
)
@click.option(
    "--parcelas", default=None, type=int, metavar="N", help="Num parcelamento: as prestações."
)
@click.option(
    "--valor-consolidado",
    default=None,
    metavar="R$",
    help="Num parcelamento: o débito consolidado.",
)
@click.option(
    "--parcelas-para-rescisao",
    default=None,
    type=int,
    metavar="N",
    help="Num parcelamento: as prestações em atraso que o rescindem (padrão: 3).",
)
@click.option(
    "--documento",
    "documentos",
    multiple=True,
    type=click.Path(dir_okay=False, path_type=Path),
    metavar="ARQUIVO",
    help="Um documento do evento (PDF, PNG ou JPEG, lido pelo conteúdo; até 20 MiB); "
    "repita para mais de um (até 20).",
)
@_FORMATO_TEXTO_JSON
@_BANCO
@_USUARIO
def processo_evento(
    processo_id: int,
    evento: str,
    data: Any,
    valor: str | None,
    parcelas: int | None,
    valor_consolidado: str | None,
    parcelas_para_rescisao: int | None,
    documentos: tuple[Path, ...],
    formato: str,
    banco: str | None,
    usuario: str | None,
) -> None:
    """Acrescenta EVENTO na DATA ao processo ID (um pagamento, com --valor), com os seus
    documentos (--documento); um evento que a especificação (§ 6) recusa não é gravado."""
    data_iso = _data_iso(data, "json" if formato == "json" else "texto")
    dados: dict[str, Any] = {"evento": evento, "data": data_iso}
    if valor is not None:  # typed by a person: pt-BR notation too ("1.500,00")
        from multas.nucleo.dinheiro import quantia_digitada

        dados["valor"] = quantia_digitada(valor)
    if valor_consolidado is not None:
        from multas.nucleo.dinheiro import quantia_digitada

        dados["valor_consolidado"] = quantia_digitada(valor_consolidado)
    for campo, numero in (
        ("parcelas", parcelas),
        ("parcelas_para_rescisao", parcelas_para_rescisao),
    ):
        if numero is not None:
            dados[campo] = numero
    anexos = []
    if documentos:
        from multas.servicos.documentos import anexos as ler_anexos
        from multas.servicos.documentos import do_arquivo

        try:
            anexos = ler_anexos(
                do_arquivo(caminho, f"documentos[{i}]") for i, caminho in enumerate(documentos)
            )
        except EntradaInvalida as erro:
            _falhar(erro, formato)
    _processo_e_mostrar(
        banco, formato, lambda c: c.acrescentar(processo_id, dados, _usuario(usuario), anexos)
    )


@processo.command("desfazer", options_metavar="[OPÇÕES]")
@click.argument("processo_id", type=click.IntRange(1, MAIOR_ID), metavar="ID")
@_FORMATO_TEXTO_JSON
@_BANCO
@_USUARIO
def processo_desfazer(
    processo_id: int, formato: str, banco: str | None, usuario: str | None
) -> None:
    """Remove o último evento do processo ID (uma correção; o primeiro evento fica)."""
    _processo_e_mostrar(
        banco, formato, lambda c: c.remover_ultimo_evento(processo_id, _usuario(usuario))
    )


@processo.command("vincular", options_metavar="[OPÇÕES]")
@click.argument("processo_id", type=click.IntRange(1, MAIOR_ID), metavar="ID")
@click.option(
    "--lista",
    "lista_id",
    type=click.IntRange(1, MAIOR_ID),
    default=None,
    metavar="ID",
    help="O processo renovabio.lista do mesmo distribuidor.",
)
@click.option("--desfazer", is_flag=True, help="Desfaz o vínculo do processo ID.")
@_FORMATO_TEXTO_JSON
@_BANCO
@_USUARIO
def processo_vincular(
    processo_id: int,
    lista_id: int | None,
    desfazer: bool,
    formato: str,
    banco: str | None,
    usuario: str | None,
) -> None:
    """Vincula o processo anp ID ao processo renovabio.lista do mesmo distribuidor (--lista),
    ou desfaz o vínculo (--desfazer). A decisão de primeira instância, registrada uma vez
    (multas processo decisao), alimenta os dois."""
    if (lista_id is None) == (not desfazer):
        _falhar(
            EntradaInvalida("lista_id", "informe --lista ID ou --desfazer (um dos dois)"),
            formato,
        )
    _processo_e_mostrar(
        banco,
        formato,
        lambda c: c.vincular(processo_id, {"lista_id": lista_id}, _usuario(usuario)),
    )


@processo.command("decisao", options_metavar="[OPÇÕES]")
@click.argument("processo_id", type=click.IntRange(1, MAIOR_ID), metavar="ID")
@click.option(
    "--data",
    "data_decisao",
    type=DataBR("data_decisao"),
    default=None,
    help="A data da decisão de primeira instância (vai para o processo renovabio.lista) (dd/mm/aaaa, ddmmaaaa ou aaaa-mm-dd).",
)
@click.option(
    "--ciencia",
    "data_ciencia",
    type=DataBR("data_ciencia"),
    default=None,
    help="A data da ciência da decisão (vai para o processo anp) (dd/mm/aaaa, ddmmaaaa ou aaaa-mm-dd).",
)
@_FORMATO_TEXTO_JSON
@_BANCO
@_USUARIO
def processo_decisao(
    processo_id: int,
    data_decisao: Any,
    data_ciencia: Any,
    formato: str,
    banco: str | None,
    usuario: str | None,
) -> None:
    """Registra a decisão de primeira instância nos dois processos vinculados (ID é qualquer
    um deles): a ciência (--ciencia) no processo anp, como ciencia_primeira_instancia, e a data
    da decisão (--data) no processo renovabio.lista, como decisao_primeira_instancia. Com só
    uma das datas, o outro processo não é alterado, e um aviso diz isso. Tudo ou nada."""
    ciclo = _ciclo(banco)
    try:
        resultado = ciclo.registrar_decisao(
            processo_id,
            {
                "data_decisao": _data_iso(data_decisao, formato),
                "data_ciencia": _data_iso(data_ciencia, formato),
            },
            _usuario(usuario),
        )
    except Exception as erro:
        _falhar(erro, formato)
    if formato == "json":
        click.echo(despejar_json(resultado))
        return
    from multas.saidas.texto import decisao_texto

    _eco(decisao_texto(resultado), nl=False)


@processo.command("mostrar", options_metavar="[OPÇÕES]")
@click.argument("processo_id", type=click.IntRange(1, MAIOR_ID), metavar="ID")
@click.option(
    "--data-referencia",
    "--em",
    "--hoje",
    "hoje_",
    type=DataBR("data_referencia"),
    help="Julgar nesta data a situação, o valor devido, a multa e as informações (padrão: hoje "
    "em Brasília; dd/mm/aaaa, ddmmaaaa ou aaaa-mm-dd); --hoje é o nome antigo.",
)
@_FORMATO_TEXTO_JSON
@_BANCO
def processo_mostrar(processo_id: int, hoje_: Any, formato: str, banco: str | None) -> None:
    """Mostra o processo ID: eventos, estado, prazos com fundamento, contagem e situação."""
    dia = _data_base(hoje_, formato=formato)
    _processo_e_mostrar(banco, formato, lambda c: c.obter(processo_id, dia), dia)


@processo.command("listar", options_metavar="[OPÇÕES]")
@click.option(
    "--tipo",
    default=None,
    metavar="TIPO",
    help="Só deste tipo (anp, renovabio.lista, renovabio.balanco).",
)
@click.option("--cnpj", metavar="CNPJ", default=None, help="Só deste CNPJ (em qualquer grafia).")
@_FORMATO_TEXTO_JSON
@_BANCO
def processo_listar(tipo: str | None, cnpj: str | None, formato: str, banco: str | None) -> None:
    """Lista os processos salvos, do mais novo ao mais antigo."""
    ciclo = _ciclo(banco)
    from multas.nucleo.cnpj import ler_filtro

    try:
        filtro = ler_filtro(cnpj, "cnpj")
    except EntradaInvalida as erro:
        _falhar(erro, formato)
    resumos = [ciclo.resumo(d) for d in ciclo.listar(limite=None, tipo=tipo, cnpj=filtro)]
    if formato == "json":
        click.echo(despejar_json(resumos))
        return
    from multas.saidas.texto import quem_e

    if not resumos:
        click.echo("Nenhum processo salvo.")
    for r in resumos:
        quem = quem_e(r)
        _eco(f"{r['processo_id']:>6}  {r['tipo']:<18} {r['estado_rotulo']:<32} {quem}".rstrip())


@processo.command("importar", options_metavar="[OPÇÕES]")
@click.argument("arquivo", type=click.Path(exists=True, dir_okay=False))
@click.option("--ptbr", is_flag=True, help="CSV com ';' e números 1.234,56.")
@opcoes_do_arquivo()
@_BANCO
@_USUARIO
def processo_importar(
    arquivo: str, ptbr: bool, banco: str | None, usuario: str | None, **opcoes: Any
) -> None:
    """Cria ou completa processos a partir de um CSV, XLSX ou JSON Lines (uma linha por
    evento, com referencia, tipo, cnpj, nome, evento e data; veja docs/ciclo.md). A referência
    é a chave: um processo novo é criado, e um salvo ganha os eventos que ainda não tem. Tudo ou
    nada: um erro em qualquer linha não grava nada. O cabeçalho, a codificação, o separador e
    os números são detectados (docs/arquivos.md); as colunas que o arquivo de processos não
    tem ficam de fora, ditas na saída de erro."""
    from pathlib import Path

    from multas.nucleo.arquivos import LINHA_DE_COMANDO
    from multas.nucleo.ciclo.planilha import colunas_fora
    from multas.servicos.em_paralelo import nucleos
    from multas.servicos.importar import importar_processos, ler_arquivo

    caminho = Path(arquivo)
    try:
        dialeto, mapa = leitura_do_arquivo(opcoes)
        lida = ler_arquivo(
            caminho.read_bytes(),
            caminho.name,
            ptbr,
            LINHA_DE_COMANDO,
            dialeto=dialeto,
            mapa=mapa,
        )
        avisos_da_leitura(caminho.name, [*lida.avisos, *colunas_fora(lida.desconhecidas)])
        resumo = importar_processos(_ciclo(banco), lida, _usuario(usuario), nucleos())
    except EntradaInvalida as erro:
        _falhar(erro)
    click.echo(despejar_json(resumo))


@processo.command("exportar", options_metavar="[OPÇÕES]")
@click.option(
    "--formato",
    "-f",
    type=click.Choice(("csv", "jsonl")),
    default="csv",
    show_default=True,
    help="CSV (o que a planilha abre) ou JSON Lines.",
)
@click.option(
    "--saida",
    "-o",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="ARQUIVO",
    help="Onde gravar (padrão: a saída padrão).",
)
@_PTBR_SAIDA
@_BANCO
def processo_exportar(formato: str, saida: str | None, ptbr: bool, banco: str | None) -> None:
    """Escreve todos os processos salvos no formato de 'multas processo importar' (uma linha
    por evento): exportar e importar de novo dá os mesmos processos (com --ptbr, importe com
    --ptbr)."""
    from multas.servicos.exportar_processos import exportar_processos

    conteudo = exportar_processos(_ciclo(banco), formato, ptbr).encode("utf-8")
    if saida:
        with open(saida, "wb") as arquivo:
            arquivo.write(conteudo)
    else:
        sys.stdout.buffer.write(conteudo)
        sys.stdout.flush()
