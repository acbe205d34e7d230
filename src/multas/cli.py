"""The ``multas`` command group and its calculation commands: a thin adapter around the
engine (parse, call, render). The batch (``multas lote``, ``multas exposicao``) and the server
(``multas servir``) are adapters of their own, joined to this group by :mod:`multas.principal`.

Heavy modules (Rich, holidays) are imported only by the commands that need them, so
``multas regimes`` starts fast.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable, Iterator
from contextlib import redirect_stdout
from typing import TYPE_CHECKING, Any, NoReturn

from multas.saidas.idioma import falar_portugues

falar_portugues()

import click  # noqa: E402

from multas.inicio import sem_coleta  # noqa: E402
from multas.nucleo.erros import EntradaInvalida  # noqa: E402
from multas.nucleo.ids import MAIOR_ID  # noqa: E402
from multas.nucleo.json_exato import despejar_json, ler_json  # noqa: E402

FORMATOS = ("json", "texto", "markdown", "html", "pdf")
RELATORIOS = ("html", "pdf")


if TYPE_CHECKING:  # generic from Click 8.2 on; the project also runs on 8.1
    _TipoDeOpcao = click.ParamType[Any, Any]
else:
    _TipoDeOpcao = click.ParamType


class DataBR(_TipoDeOpcao):
    """A date option or argument as people type it: dd/mm/aaaa, ddmmaaaa or ISO
    (:func:`multas.nucleo.datas.data_digitada`, the page's parser too).

    An invalid date is not a usage error here: the value becomes the contract's error naming
    ``campo``, and the command reports it in its ``--formato`` (JSON or text, exit 2) through
    :func:`_data_base` or :func:`_data_iso`, since ``-f`` may come after the date."""

    name = "data"

    def __init__(self, campo: str) -> None:
        self.campo = campo

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return "DD/MM/AAAA"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        from datetime import date

        from multas.nucleo.datas import data_digitada

        if isinstance(value, date | EntradaInvalida):
            return value
        try:
            return data_digitada(value, self.campo)
        except EntradaInvalida as erro:
            return erro


def _data_iso(valor: Any, formato: str = "json") -> str | None:
    """A :class:`DataBR` value as the contract's ISO text (``None`` stays ``None``); an
    invalid one fails the command with the contract's error."""
    if isinstance(valor, EntradaInvalida):
        _falhar(valor, formato)
    return None if valor is None else str(valor.isoformat())


def _linhas(texto: str) -> Iterator[tuple[int, str]]:
    r"""JSON Lines: lines end at ``\n`` only (and ``\r\n``). ``str.splitlines`` would also
    cut at ``\r``, U+2028, U+0085 and others, which may stand inside one valid JSON line.

    >>> list(_linhas('{"a":\r1}\r\n{"b": "x\u2028y"}\n'))
    [(1, '{"a":\r1}'), (2, '{"b": "x\u2028y"}')]
    """
    if texto.endswith("\n"):
        texto = texto[:-1]
    if not texto:
        return
    for numero, linha in enumerate(texto.split("\n"), 1):
        yield numero, linha.removesuffix("\r")


@click.command(options_metavar="[OPÇÕES]")
@click.argument(
    "entrada", type=click.Path(exists=True, dir_okay=False, allow_dash=True), default="-"
)
@click.option(
    "--formato",
    "-f",
    type=click.Choice(FORMATOS),
    default="json",
    show_default=True,
    help="json (o contrato), texto (memória legível), markdown, ou o relatório em html ou pdf.",
)
@click.option(
    "--jsonl", is_flag=True, help="Lê JSON Lines (um caso por linha); implícito em .jsonl."
)
@click.option(
    "--saida",
    "-o",
    type=click.Path(dir_okay=False, writable=True),
    default=None,
    help="Grava o resultado neste arquivo em vez de mostrá-lo (use com --formato pdf).",
)
def calcular(entrada: str, formato: str, jsonl: bool, saida: str | None) -> None:
    """Calcula o caso em ENTRADA (arquivo JSON ou JSON Lines; '-' para a entrada padrão)."""
    texto = _ler_texto(entrada)
    eh_linhas = jsonl or entrada.endswith(".jsonl")
    if formato in RELATORIOS:
        if eh_linhas:
            raise click.UsageError(
                f"--formato {formato} gera o relatório de um único caso; JSON Lines não é aceito"
            )
        if formato == "pdf" and saida is None and sys.stdout.isatty():
            raise click.UsageError("o PDF é binário: indique o arquivo com --saida memoria.pdf")
        sys.exit(_calcular_relatorio(texto, formato, saida))
    if saida is None:
        _calcular(texto, formato, eh_linhas)
        return
    # into memory first: a bad input leaves an existing --saida as it was, and the file is
    # replaced whole (fsync, then rename), never left half-written
    buffer = io.StringIO()
    codigo = 0
    try:
        with redirect_stdout(buffer):
            _calcular(texto, formato, eh_linhas)
    except SystemExit as fim:
        codigo = fim.code if isinstance(fim.code, int) else 1
    if codigo and not eh_linhas:  # one case, not computed: nothing to write
        click.echo(buffer.getvalue(), err=True, nl=False)
        sys.exit(codigo)
    _gravar_atomico(saida, buffer.getvalue().encode("utf-8"))
    sys.exit(codigo)


def _gravar_atomico(caminho: str, conteudo: bytes) -> None:
    """Write ``caminho`` whole or not at all: a temporary file beside it, fsync, rename."""
    import os
    import tempfile

    destino = os.path.abspath(caminho)
    pasta = os.path.dirname(destino)
    try:
        fd, temporario = tempfile.mkstemp(prefix=f".{os.path.basename(destino)}.", dir=pasta)
    except OSError as erro:
        raise click.UsageError(f"não foi possível gravar {caminho!r} ({erro.strerror})") from None
    try:
        with os.fdopen(fd, "wb") as arquivo:
            arquivo.write(conteudo)
            arquivo.flush()
            os.fsync(arquivo.fileno())
        os.chmod(temporario, 0o666 & ~_umask())
        os.replace(temporario, destino)
    except BaseException:
        if os.path.exists(temporario):
            os.unlink(temporario)
        raise


def _umask() -> int:
    import os

    atual = os.umask(0)
    os.umask(atual)
    return atual


def _calcular(texto: str, formato: str, eh_linhas: bool) -> None:
    if eh_linhas:
        sys.exit(_calcular_linhas(texto, formato))
    from multas.servicos.calculo import calcular as calcular_caso

    try:
        resultado = calcular_caso(ler_json(texto))
    except EntradaInvalida as erro:
        _erro(erro, formato)
        sys.exit(2)
    _emitir(resultado, formato)


def _ler_texto(caminho: str) -> str:
    """The input as text; a UTF-8 BOM (what some editors write first) is dropped."""
    if caminho == "-":
        bruto = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else None
        if bruto is None:
            return sys.stdin.read().removeprefix("\ufeff")
        try:
            return bruto.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise click.UsageError("a entrada padrão não está em UTF-8") from None
    try:
        with open(caminho, encoding="utf-8-sig", newline="") as arquivo:
            return arquivo.read()
    except UnicodeDecodeError:
        raise click.UsageError(f"o arquivo {caminho!r} não está em UTF-8") from None
    except OSError as erro:
        raise click.UsageError(f"não foi possível ler {caminho!r} ({erro.strerror})") from None


def _calcular_relatorio(texto: str, formato: str, saida: str | None) -> int:
    """The report of one case (HTML or PDF); an input error goes to stderr, exit code 2."""
    from multas.servicos.calculo import calcular as calcular_caso

    try:
        caso = ler_json(texto)
        resultado = calcular_caso(caso)
    except EntradaInvalida as erro:
        _erro(erro, formato)
        return 2
    from multas.saidas.relatorio import Metadados, como_html, como_pdf
    from multas.servicos.relogio import agora

    metadados = Metadados.calculado(agora())
    conteudo = (
        como_pdf(resultado, caso, metadados)
        if formato == "pdf"
        else como_html(resultado, caso, metadados).encode("utf-8")
    )
    if saida is not None:
        _gravar_atomico(saida, conteudo)
    else:
        sys.stdout.buffer.write(conteudo)
        sys.stdout.flush()
    return 0


def _por_linha(
    texto: str,
    calcular: Callable[[Any], dict[str, Any]],
    emitir: Callable[[dict[str, Any]], None],
) -> int:
    """JSON Lines: one output line per input line, in order; a bad line gets its own error
    line (with its number), none dropped. Exit code 0 if every line succeeded, else 2."""
    falhas = 0
    for numero, linha in _linhas(texto):
        try:
            if not linha.strip():
                raise EntradaInvalida(None, "linha vazia")
            resultado = calcular(ler_json(linha))
        except EntradaInvalida as erro:
            falhas += 1
            corpo = erro.como_dict()
            corpo["erro"]["linha"] = numero
            click.echo(despejar_json(corpo, compacto=True))
            continue
        emitir(resultado)
    return 2 if falhas else 0


def _calcular_linhas(texto: str, formato: str) -> int:
    """``multas calcular`` on JSON Lines (spec § 3)."""
    from multas.servicos.calculo import calcular as calcular_caso

    def emitir(resultado: dict[str, Any]) -> None:
        if formato == "json":
            click.echo(despejar_json(resultado, compacto=True))
        else:
            _emitir(resultado, formato)

    return _por_linha(texto, calcular_caso, emitir)


def _emitir(resultado: dict[str, Any], formato: str) -> None:
    if formato == "json":
        click.echo(despejar_json(resultado))
    elif formato == "markdown":
        from multas.saidas.memoria import como_markdown

        click.echo(como_markdown(resultado), nl=False)
    else:
        from multas.saidas.memoria import imprimir_texto

        imprimir_texto(resultado, sys.stdout)


def _eco(texto: str, nl: bool = True, err: bool = False) -> None:
    """Text output for a terminal: a stored name's or a message's control characters, line
    separators and bidi controls written as visible escapes (:func:`multas.nucleo.visivel.texto_visivel`),
    never run by the terminal."""
    from multas.nucleo.visivel import texto_visivel

    click.echo(texto_visivel(texto), nl=nl, err=err)


def _erro(erro: EntradaInvalida, formato: str) -> None:
    if formato == "json":
        click.echo(despejar_json(erro.como_dict()))
    else:
        onde = f" no campo '{erro.campo}'" if erro.campo else ""
        _eco(f"Erro{onde}: {erro.mensagem}", err=True)


@click.command(options_metavar="[OPÇÕES]")
@click.option(
    "--formato", "-f", type=click.Choice(("texto", "json")), default="texto", show_default=True
)
def regimes(formato: str) -> None:
    """Lista os regimes, seus campos e o que significam."""
    from multas.nucleo.catalogo import descrever_regimes, regimes_como_texto

    if formato == "json":
        click.echo(despejar_json(descrever_regimes()))
    else:
        click.echo(regimes_como_texto(), nl=False)


@click.command(options_metavar="[OPÇÕES]")
@click.option(
    "--formato", "-f", type=click.Choice(("texto", "json")), default="texto", show_default=True
)
@click.option(
    "--parametro",
    "-p",
    default="",
    metavar="PREFIXO",
    help="Só os parâmetros cujo nome começa assim.",
)
def legislacao(formato: str, parametro: str) -> None:
    """Mostra o histórico de cada parâmetro legal, com datas e fontes."""
    from multas.nucleo.catalogo import descrever_legislacao, legislacao_como_texto

    if formato == "json":
        click.echo(despejar_json(descrever_legislacao(parametro)))
    else:
        click.echo(legislacao_como_texto(parametro), nl=False)


@click.command(options_metavar="[OPÇÕES]")
@click.argument("ano", metavar="AAAA")
@click.option(
    "--formato", "-f", type=click.Choice(("json", "texto")), default="json", show_default=True
)
def calendario(ano: str, formato: str) -> None:
    """Lista os dias sem expediente integral do calendário federal de um ano."""
    from multas.nucleo.catalogo import (
        calendario_como_texto,
        descrever_calendario,
        ler_ano_calendario,
    )

    try:
        numero = ler_ano_calendario(ano)
    except EntradaInvalida as erro:
        _erro(erro, formato)
        sys.exit(2)
    if formato == "json":
        click.echo(despejar_json(descrever_calendario(numero)))
    else:
        click.echo(calendario_como_texto(numero), nl=False)


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
    metavar="URL",
    help="URL do banco (padrão: MULTAS_DATABASE_URL ou dados/multas.db).",
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
    itens = modulo.reavaliar(Ciclo(_repositorio(banco)), anterior=anterior, referencia=referencia)
    if formato == "json":
        click.echo(despejar_json({"itens": itens}))
    elif formato == "csv":
        from multas.saidas.exportacao import csv_texto

        campos = ["registro", "id", "regime", "campo", "antes", "depois", "erro"]
        linhas = ([None if item[c] is None else str(item[c]) for c in campos] for item in itens)
        click.echo(csv_texto(campos, linhas), nl=False)
    else:
        _eco(modulo.como_texto(itens), nl=False)


# --- the lifecycle (spec § 6) ---------------------------------------------------------------


@click.group(options_metavar="[OPÇÕES]", subcommand_metavar="COMANDO [ARGUMENTOS]...")
def prazos() -> None:
    """Prazos do ciclo de fiscalização: processos, eventos e prazos (veja docs/ciclo.md)."""


@prazos.command("calcular", options_metavar="[OPÇÕES]")
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
def prazos_calcular(entrada: str, formato: str, jsonl: bool) -> None:
    """Deriva o estado e os prazos do processo em ENTRADA (JSON ou JSON Lines; '-' para a
    entrada padrão)."""
    from functools import partial

    from multas.nucleo.ciclo import calcular_prazos as prazos_de
    from multas.servicos.relogio import hoje

    calcular_prazos = partial(prazos_de, hoje=hoje())
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


# --- stored processos, the calendar, the lists and the ledger (issue 9) ----------------------

#: the exports' pt-BR notation (:mod:`multas.saidas.exportacao`)
_PTBR_SAIDA = click.option(
    "--ptbr",
    is_flag=True,
    help="CSV em notação brasileira: ';' entre as colunas, números 1.234,56 e datas dd/mm/aaaa.",
)
_BANCO = click.option(
    "--banco",
    default=None,
    metavar="URL",
    help="URL do banco (padrão: MULTAS_DATABASE_URL ou dados/multas.db).",
)
_USUARIO = click.option(
    "--usuario",
    default=None,
    metavar="NOME",
    help='Quem faz a operação, para a auditoria (padrão: "anônimo").',
)
_FORMATO_TEXTO_JSON = click.option(
    "--formato", "-f", type=click.Choice(("texto", "json")), default="texto", show_default=True
)


def _ciclo(banco: str | None) -> Any:
    with sem_coleta():
        from multas.servicos.gestao import Ciclo

    return Ciclo(_repositorio(banco))


def _repositorio(banco: str | None) -> Any:
    """The database of one command, closed (its connections returned) when the command ends,
    however it ends: a command run in-process (a test's CliRunner, a script) never leaves a
    pool of connections behind for the garbage collector."""
    with sem_coleta():
        from multas.servicos.persistencia import Repositorio

    repositorio = Repositorio(banco)
    contexto = click.get_current_context(silent=True)
    if contexto is not None:
        contexto.call_on_close(repositorio.fechar)
    return repositorio


def _data_base(valor: Any, formato: str = "json") -> Any:
    """The date a command judges on: the option's (a :class:`DataBR` value), else today in
    Brasília; an invalid one is the contract's error naming the field (JSON or text, exit 2)."""
    from multas.servicos.relogio import hoje

    if valor is None:
        return hoje()
    if isinstance(valor, EntradaInvalida):
        _falhar(valor, formato)
    return valor


def _falhar(erro: Exception, formato: str = "json") -> NoReturn:
    """An input error (exit 2, pt-BR JSON or text) or a missing processo (exit 1)."""
    from multas.servicos.gestao import NaoEncontrado

    if isinstance(erro, EntradaInvalida):
        _erro(erro, formato)
        sys.exit(2)
    if isinstance(erro, NaoEncontrado):
        _eco(f"Erro: {erro}", err=True)
        sys.exit(1)
    raise erro


def _usuario(usuario: str | None) -> str:
    from multas.servicos.persistencia import USUARIO_PADRAO

    return " ".join((usuario or "").split())[:200] or USUARIO_PADRAO


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
    metavar="anp|autuado",
    help="Só os prazos em que age a ANP ou o autuado.",
)
@click.option(
    "--cnpj",
    metavar="CNPJ",
    help="Só os processos deste CNPJ (com ou sem pontuação).",
)
@click.option(
    "--estado",
    metavar="ESTADO",
    help="Só os processos neste estado (ex.: aguardando_pagamento, suspenso, prescrito).",
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
    """A fila de trabalho: os prazos vencidos (o mais atrasado primeiro) e os que vencem nos
    próximos N dias, de todos os processos salvos, com quem deve agir. 'multas pendencias' e
    'multas prazos proximos' são o mesmo comando."""
    from multas.nucleo.ciclo.pendencias import ler_filtros

    dia = _data_base(data_referencia, formato=formato)
    try:
        filtros = ler_filtros(dia, dias, responsavel, cnpj, estado, prescritos, vencidos, todos)
    except EntradaInvalida as erro:
        _falhar(erro, formato)
    fila = _ciclo(banco).pendencias(filtros)
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
@_FORMATO_TEXTO_JSON
@_BANCO
@_USUARIO
def processo_evento(
    processo_id: int,
    evento: str,
    data: Any,
    formato: str,
    banco: str | None,
    usuario: str | None,
) -> None:
    """Acrescenta EVENTO na DATA ao processo ID; um evento que a especificação (§ 6) recusa
    não é gravado."""
    data_iso = _data_iso(data, "json" if formato == "json" else "texto")
    _processo_e_mostrar(
        banco,
        formato,
        lambda c: c.acrescentar(
            processo_id, {"evento": evento, "data": data_iso}, _usuario(usuario)
        ),
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
    "--hoje",
    "hoje_",
    type=DataBR("data_referencia"),
    help="Julgar nesta data a situação, a multa e as informações (padrão: hoje em Brasília;"
    " dd/mm/aaaa, ddmmaaaa ou aaaa-mm-dd); "
    "--hoje é o nome antigo.",
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
@_BANCO
@_USUARIO
def processo_importar(arquivo: str, ptbr: bool, banco: str | None, usuario: str | None) -> None:
    """Cria ou completa processos a partir de um CSV, XLSX ou JSON Lines (uma linha por
    evento, com referencia, tipo, cnpj, nome, evento e data; veja docs/ciclo.md). A referência
    é a chave: um processo novo é criado, e um salvo ganha os eventos que ainda não tem. Tudo ou
    nada: um erro em qualquer linha não grava nada."""
    from pathlib import Path

    from multas.nucleo.arquivos import LINHA_DE_COMANDO
    from multas.servicos.importar import importar_processos, ler_arquivo

    caminho = Path(arquivo)
    try:
        lida = ler_arquivo(caminho.read_bytes(), caminho.name, ptbr, LINHA_DE_COMANDO)
        resumo = importar_processos(_ciclo(banco), lida, _usuario(usuario))
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
    from multas.servicos.importar import exportar_processos

    conteudo = exportar_processos(_ciclo(banco), formato, ptbr).encode("utf-8")
    if saida:
        with open(saida, "wb") as arquivo:
            arquivo.write(conteudo)
    else:
        sys.stdout.buffer.write(conteudo)
        sys.stdout.flush()


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


#: the ledger's readings (spec v3: ``preco_diferido``, ``diferimento_excedente``), one option
#: for every command that prices a ledger year
_LEITURAS_DA_CARTEIRA = click.option(
    "--interpretacao",
    "-i",
    "leituras",
    multiple=True,
    metavar="CHAVE=OPCAO",
    help="preco_diferido=ano_seguinte|ano_diferimento; "
    "diferimento_excedente=nenhum|parcial (padrão: o primeiro).",
)


def _leituras_da_carteira(leituras: tuple[str, ...]) -> dict[str, str]:
    """The ledger's ``-i CHAVE=OPCAO`` options as a dict (validated by the ledger)."""
    pares = {}
    for par in leituras:
        chave, _, opcao = par.partition("=")
        pares[chave.strip()] = opcao.strip()
    return pares


@click.group(options_metavar="[OPÇÕES]", subcommand_metavar="COMANDO [ARGUMENTOS]...")
def carteira() -> None:
    """A carteira do distribuidor: meta, CBIOs, falta levada ao ano seguinte, multa por ano."""


@carteira.command("importar", options_metavar="[OPÇÕES]")
@click.argument("arquivo", type=click.Path(exists=True, dir_okay=False))
@click.option("--ptbr", is_flag=True, help="CSV com ';' e números 1.234,56.")
@_BANCO
@_USUARIO
def carteira_importar(arquivo: str, ptbr: bool, banco: str | None, usuario: str | None) -> None:
    """Importa anos da carteira de um CSV, XLSX, JSON ou JSON Lines (uma linha por CNPJ e
    ano); um erro em qualquer linha não grava nada."""
    from pathlib import Path

    from multas.nucleo.arquivos import LINHA_DE_COMANDO
    from multas.nucleo.ciclo.planilha import ler_planilha

    caminho = Path(arquivo)
    try:
        lida = ler_planilha(caminho.read_bytes(), caminho.name, ptbr, LINHA_DE_COMANDO)
        resumo = _ciclo(banco).importar(lida.linhas, _usuario(usuario), lida.leitura, lida.locais)
    except EntradaInvalida as erro:
        _falhar(erro)
    click.echo(despejar_json(resumo))


@carteira.command("salvar", options_metavar="[OPÇÕES]")
@click.argument(
    "entrada", type=click.Path(exists=True, dir_okay=False, allow_dash=True), default="-"
)
@_BANCO
@_USUARIO
def carteira_salvar(entrada: str, banco: str | None, usuario: str | None) -> None:
    """Salva (ou substitui) um ano da carteira, dado em JSON, e mostra a carteira."""
    try:
        resultado = _ciclo(banco).salvar_ano(ler_json(_ler_texto(entrada)), _usuario(usuario))
    except EntradaInvalida as erro:
        _falhar(erro)
    click.echo(despejar_json(resultado))


@carteira.command("mostrar", options_metavar="[OPÇÕES]")
@click.argument("cnpj")
@_LEITURAS_DA_CARTEIRA
@_FORMATO_TEXTO_JSON
@_BANCO
def carteira_mostrar(cnpj: str, leituras: tuple[str, ...], formato: str, banco: str | None) -> None:
    """Mostra a carteira do distribuidor CNPJ, ano a ano."""
    try:
        pares = _leituras_da_carteira(leituras)
        resultado = _ciclo(banco).carteira(cnpj, pares or None)
    except Exception as erro:
        _falhar(erro, formato)
    if formato == "json":
        click.echo(despejar_json(resultado))
    else:
        from multas.saidas.texto import carteira_texto

        _eco(carteira_texto(resultado), nl=False)


@carteira.command("exportar", options_metavar="[OPÇÕES]")
@click.argument("cnpj")
@click.option(
    "--formato",
    "-f",
    type=click.Choice(("csv", "xlsx", "pdf")),
    default="csv",
    show_default=True,
    help="CSV, XLSX (números e datas como células da planilha) ou PDF.",
)
@_PTBR_SAIDA
@_LEITURAS_DA_CARTEIRA
@click.option(
    "--saida",
    "-o",
    type=click.Path(dir_okay=False),
    default=None,
    metavar="ARQUIVO",
    help="Onde gravar (padrão: a saída padrão; XLSX e PDF pedem um arquivo num terminal).",
)
@_BANCO
def carteira_exportar(
    cnpj: str,
    formato: str,
    ptbr: bool,
    leituras: tuple[str, ...],
    saida: str | None,
    banco: str | None,
) -> None:
    """Exporta a carteira do distribuidor CNPJ, ano a ano, como 'multas carteira mostrar' a
    mostra: meta, CBIOs, falta, diferimento, multa, prazo, quitação e situação de cada ano."""
    from multas.saidas import exportar

    try:
        resultado = _ciclo(banco).carteira(cnpj, _leituras_da_carteira(leituras) or None)
    except Exception as erro:
        _falhar(erro, "texto")
    if formato != "csv" and saida is None and sys.stdout.isatty():
        raise click.UsageError(
            f"o {formato.upper()} é binário: indique o arquivo com --saida carteira.{formato}"
        )
    if formato == "xlsx":
        conteudo = exportar.carteira_xlsx(resultado)
    elif formato == "pdf":
        from multas.servicos.relogio import agora

        conteudo = exportar.carteira_pdf(resultado, agora())
    else:
        conteudo = exportar.carteira_csv(resultado, ptbr).encode("utf-8")
    if saida:
        with open(saida, "wb") as arquivo:
            arquivo.write(conteudo)
    else:
        sys.stdout.buffer.write(conteudo)
        sys.stdout.flush()


@carteira.command("excluir", options_metavar="[OPÇÕES]")
@click.argument("cnpj")
@click.option("--ano", "ano_meta", type=int, required=True, metavar="AAAA", help="Ano a excluir.")
@_BANCO
@_USUARIO
def carteira_excluir(cnpj: str, ano_meta: int, banco: str | None, usuario: str | None) -> None:
    """Exclui um ano da carteira do distribuidor CNPJ (qualquer grafia; se houver um ano
    gravado exatamente com essa grafia, é ele o excluído). Ele vai para a lixeira: um
    administrador pode restaurá-lo durante o prazo ('multas lixeira')."""
    try:
        _ciclo(banco).excluir_ano(cnpj, ano_meta, _usuario(usuario))
    except Exception as erro:
        _falhar(erro)
    _eco(
        f"ano {ano_meta} do distribuidor {cnpj} excluído da carteira (na lixeira: um "
        "administrador pode restaurá-lo com 'multas lixeira restaurar')"
    )


@carteira.command("conferir", options_metavar="[OPÇÕES]")
@click.argument("cnpj")
@click.option("--ano", "ano_meta", type=int, required=True, metavar="AAAA", help="Ano da meta.")
@click.option(
    "--notificacao",
    "arquivo",
    type=click.Path(exists=True, dir_okay=False),
    required=True,
    help="Os números da notificação: JSON (um objeto) ou CSV, XLSX ou JSON Lines (uma linha "
    "sob o cabeçalho), com meta_publicada, falta_anterior, cbios_aposentados, preco e "
    "valor_multa (ao menos um).",
)
@click.option("--ptbr", is_flag=True, help="CSV com ';' e números 1.234,56.")
@_LEITURAS_DA_CARTEIRA
@_FORMATO_TEXTO_JSON
@_BANCO
def carteira_conferir(
    cnpj: str,
    ano_meta: int,
    arquivo: str,
    ptbr: bool,
    leituras: tuple[str, ...],
    formato: str,
    banco: str | None,
) -> None:
    """Confere a notificação da ANP da meta de AAAA com a carteira do distribuidor CNPJ,
    número a número: o que difere e quanto cada diferença vale em reais."""
    from pathlib import Path

    from multas.nucleo.arquivos import LINHA_DE_COMANDO
    from multas.nucleo.ciclo.conferir import conferencia_texto, ler_notificacao_arquivo

    caminho = Path(arquivo)
    try:
        pares = _leituras_da_carteira(leituras)
        notificacao = ler_notificacao_arquivo(
            caminho.read_bytes(), caminho.name, ptbr, LINHA_DE_COMANDO
        )
        resultado = _ciclo(banco).conferir(cnpj, ano_meta, notificacao, pares or None)
    except Exception as erro:
        _falhar(erro, formato)
    if formato == "json":
        click.echo(despejar_json(resultado))
    else:
        _eco(conferencia_texto(resultado), nl=False)


@carteira.group(
    "aposentadorias",
    options_metavar="[OPÇÕES]",
    subcommand_metavar="COMANDO [ARGUMENTOS]...",
)
def carteira_aposentadorias() -> None:
    """As aposentadorias de CBIOs de um ano da carteira, uma a uma: data, quantidade e
    referência B3."""


@carteira_aposentadorias.command("importar", options_metavar="[OPÇÕES]")
@click.argument("cnpj")
@click.argument("arquivo", type=click.Path(exists=True, dir_okay=False))
@click.option(
    "--ano", "ano_meta", type=int, required=True, metavar="AAAA", help="Ano da meta (já salvo)."
)
@click.option("--ptbr", is_flag=True, help="CSV com ';' e números 1.234,56.")
@_BANCO
@_USUARIO
def aposentadorias_importar(
    cnpj: str, arquivo: str, ano_meta: int, ptbr: bool, banco: str | None, usuario: str | None
) -> None:
    """Importa as aposentadorias da meta de AAAA do distribuidor CNPJ de um CSV, XLSX, JSON
    ou JSON Lines (colunas data, quantidade e referencia), no lugar das que o ano tinha; um
    erro em qualquer linha não grava nada. Mostra a linha do ano na carteira."""
    from pathlib import Path

    from multas.nucleo.arquivos import LINHA_DE_COMANDO
    from multas.nucleo.ciclo.planilha import ler_planilha

    caminho = Path(arquivo)
    try:
        lida = ler_planilha(caminho.read_bytes(), caminho.name, ptbr, LINHA_DE_COMANDO)
        linha = _ciclo(banco).importar_aposentadorias(
            cnpj, ano_meta, lida.linhas, lida.locais, lida.leitura, _usuario(usuario)
        )
    except Exception as erro:
        _falhar(erro)
    click.echo(despejar_json(linha))


@click.group(options_metavar="[OPÇÕES]", subcommand_metavar="COMANDO [ARGUMENTOS]...")
def ano() -> None:
    """O ano do RenovaBio de uma vez: a multa de cada distribuidor obrigado, com o preço das
    cotações do CBIO."""


@ano.command("calcular", options_metavar="[OPÇÕES]")
@click.argument("entrada", type=click.Path(exists=True, dir_okay=False))
@click.option("--ano", "ano_meta", type=int, required=True, metavar="AAAA", help="Ano da meta.")
@click.option(
    "--cotacoes",
    type=click.Path(exists=True, dir_okay=False),
    required=True,
    help="Cotações do CBIO: colunas data,preco (diárias) ou mes,media (médias mensais).",
)
@click.option(
    "--coluna-preco",
    default="preco",
    metavar="COLUNA",
    show_default=True,
    help="A coluna do preço diário (no resumo diário da B3: preco_medio).",
)
@click.option(
    "--saida",
    type=click.Path(file_okay=False),
    default=None,
    help="Pasta dos resultados (padrão: ano-AAAA).",
)
@click.option(
    "--data-notificacao",
    type=DataBR("data_notificacao"),
    default=None,
    help="Data da notificação: os prazos das notificações contam dela (sem ela, só as regras)"
    " (dd/mm/aaaa, ddmmaaaa ou aaaa-mm-dd).",
)
@click.option("--ptbr", is_flag=True, help="CSV com ';' e números 1.234,56.")
@_LEITURAS_DA_CARTEIRA
@click.option(
    "--salvar",
    is_flag=True,
    help="Salva o ano de cada distribuidor na carteira e abre o processo da lista de sanções "
    "de cada multado (tudo ou nada).",
)
@click.option(
    "--substituir", is_flag=True, help="Com --salvar: troca um ano que já está na carteira."
)
@click.option(
    "--progresso/--sem-progresso",
    default=None,
    help="Barra de progresso na saída de erro (padrão: só quando ela é um terminal).",
)
@_BANCO
@_USUARIO
def ano_calcular(
    entrada: str,
    ano_meta: int,
    cotacoes: str,
    coluna_preco: str,
    saida: str | None,
    data_notificacao: Any,
    ptbr: bool,
    leituras: tuple[str, ...],
    salvar: bool,
    substituir: bool,
    progresso: bool | None,
    banco: str | None,
    usuario: str | None,
) -> None:
    """Calcula o ano: uma linha por distribuidor em ENTRADA (CSV, XLSX, JSON ou JSON Lines).
    Grava na pasta de saída resultado.csv (as colunas da entrada e o resultado, na mesma
    ordem, com o erro de cada linha), resumo.json, resumo.pdf e, em notificacoes/, um PDF por
    distribuidor multado."""
    from decimal import Decimal
    from pathlib import Path

    from multas.nucleo.arquivos import LINHA_DE_COMANDO
    from multas.nucleo.ciclo.planilha import ler_planilha
    from multas.nucleo.cotacoes import ler_serie
    from multas.nucleo.dinheiro import formatar_brl
    from multas.nucleo.legislacao import carregar
    from multas.saidas.progresso import barra
    from multas.servicos.ano import (
        calcular_ano,
        escrever_resultado_csv,
        notificacoes,
        prazos_da_notificacao,
        resumo_pdf,
    )

    try:
        pares = _leituras_da_carteira(leituras)
        arquivo_cotacoes = Path(cotacoes)
        lidas = ler_planilha(
            arquivo_cotacoes.read_bytes(), arquivo_cotacoes.name, ptbr, LINHA_DE_COMANDO
        )
        serie = ler_serie(lidas.linhas, lidas.locais, lidas.leitura, coluna_preco)
        if isinstance(data_notificacao, EntradaInvalida):
            raise data_notificacao
        notificada = data_notificacao
        caminho = Path(entrada)
        lida = ler_planilha(caminho.read_bytes(), caminho.name, ptbr, LINHA_DE_COMANDO)
        legislacao = carregar()
        prazos_da_notificacao(legislacao, ano_meta, notificada)  # a date past 31/12/9999
        with barra(progresso) as aberta:
            resultado = calcular_ano(
                lida.linhas,
                lida.locais,
                lida.leitura,
                ano_meta,
                serie,
                legislacao,
                pares or None,
                com_calculo=True,
                ao_avancar=None if aberta is None else aberta.etapa("distribuidores"),
            )
    except EntradaInvalida as erro:
        _falhar(erro)
    pasta = Path(saida or f"ano-{ano_meta}")
    pasta.mkdir(parents=True, exist_ok=True)
    with (pasta / "resultado.csv").open("w", encoding="utf-8", newline="") as destino:
        escrever_resultado_csv(destino, lida.linhas, resultado)
    (pasta / "resumo.json").write_text(despejar_json(resultado["resumo"]) + "\n", encoding="utf-8")
    (pasta / "resumo.pdf").write_bytes(resumo_pdf(resultado["resumo"]))
    pasta_notificacoes = pasta / "notificacoes"
    pasta_notificacoes.mkdir(exist_ok=True)
    with barra(progresso) as aberta:
        avancar = None if aberta is None else aberta.etapa("notificações")
        for nome, pdf in notificacoes(resultado, ano_meta, legislacao, notificada, avancar):
            (pasta_notificacoes / nome).write_bytes(pdf)
    r = resultado["resumo"]
    click.echo(
        f"{r['distribuidores']} distribuidores em {r['ano']}: {r['cumpriram']} cumpriram a "
        f"meta, {r['diferiram']} diferiram, {r['multados']} multados, {r['com_erro']} com erro; "
        f"multas somadas {formatar_brl(Decimal(r['total_multas']))}; preço {r['preco']} "
        f"({r['mes_do_preco']}). "
        f"Resultados em {pasta}/."
    )
    if salvar:  # after the files: a row's error is in resultado.csv
        try:
            salvo = _ciclo(banco).salvar_ano_renovabio(resultado, _usuario(usuario), substituir)
        except EntradaInvalida as erro:
            _falhar(erro)
        click.echo(
            f"Salvos na carteira: {salvo['anos']} anos; processos da lista de sanções abertos: "
            f"{len(salvo['processos'])}."
        )
