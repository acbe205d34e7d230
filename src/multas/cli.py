"""The ``multas`` command: thin adapters around the engine (parse, call, render).

Heavy modules (Rich, holidays) are imported only by the commands that need them, so
``multas regimes`` starts fast.
"""

from __future__ import annotations

import gettext
import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager, redirect_stdout
from decimal import Decimal
from typing import TYPE_CHECKING, Any, NoReturn


def _falar_portugues() -> None:
    """Click's own messages (usage, errors, help) in pt-BR, from the shipped gettext catalogue.

    Click translates through the stdlib's global gettext domain; some strings are translated
    when the commands are defined, so this runs before Click is imported.
    """
    gettext.bindtextdomain("multas", os.path.join(os.path.dirname(__file__), "locale"))
    gettext.textdomain("multas")
    os.environ["LANGUAGE"] = "pt_BR"  # the CLI speaks its users' language, whatever the locale


_falar_portugues()

import click  # noqa: E402

from multas.erros import EntradaInvalida  # noqa: E402

if TYPE_CHECKING:
    from pathlib import Path

FORMATOS = ("json", "texto", "markdown", "html", "pdf")
RELATORIOS = ("html", "pdf")


def _rejeitar_constante(nome: str) -> Any:
    raise ValueError(f"valor não permitido em JSON: {nome}")


def _sem_repeticao(pares: list[tuple[str, Any]]) -> dict[str, Any]:
    objeto: dict[str, Any] = {}
    for chave, valor in pares:
        if chave in objeto:
            raise EntradaInvalida(chave, "campo repetido no JSON")
        objeto[chave] = valor
    return objeto


#: the json module's messages (English), as the user reads them
_ERROS_JSON = {
    "Expecting value": "esperava um valor",
    "Expecting property name enclosed in double quotes": "esperava o nome de um campo, entre aspas",
    "Expecting ':' delimiter": "esperava ':'",
    "Expecting ',' delimiter": "esperava ','",
    "Unterminated string starting at": "texto sem aspas de fechamento",
    "Invalid control character at": "caractere de controle no meio de um texto",
    "Invalid \\escape": "sequência de escape inválida",
    "Invalid \\uXXXX escape": "sequência \\uXXXX inválida",
    "Extra data": "há conteúdo depois do fim do JSON",
}


def _erro_json(mensagem: str) -> str:
    for ingles, portugues in _ERROS_JSON.items():
        if mensagem.startswith(ingles):
            return portugues
    return "formato inválido"


def _inteiro_json(texto: str) -> int:
    # Python refuses to read integers of more than 4300 digits, with an English message
    if len(texto.lstrip("-")) > 40:
        raise EntradaInvalida(None, f"número grande demais no JSON ({len(texto)} algarismos)")
    return int(texto)


def ler_json(texto: str) -> Any:
    """JSON with exact numbers: ``parse_float=Decimal`` (never a float), no NaN, no repeated key.

    >>> ler_json('{"consumo_mj_km": 1.83}')
    {'consumo_mj_km': Decimal('1.83')}
    >>> ler_json('{"regime": }')
    Traceback (most recent call last):
    multas.erros.EntradaInvalida: JSON inválido (linha 1, coluna 12): esperava um valor
    """
    try:
        return json.loads(
            texto,
            parse_float=Decimal,
            parse_int=_inteiro_json,
            parse_constant=_rejeitar_constante,
            object_pairs_hook=_sem_repeticao,
        )
    except json.JSONDecodeError as erro:
        raise EntradaInvalida(
            None,
            f"JSON inválido (linha {erro.lineno}, coluna {erro.colno}): {_erro_json(erro.msg)}",
        ) from None
    except RecursionError:
        raise EntradaInvalida(None, "JSON inválido: aninhamento profundo demais") from None
    except EntradaInvalida:
        raise  # a repeated key: the error names it
    except ValueError as erro:
        raise EntradaInvalida(None, f"JSON inválido: {erro}") from None


def despejar_json(objeto: Any, compacto: bool = False) -> str:
    if compacto:
        return json.dumps(objeto, ensure_ascii=False, separators=(",", ":"))
    return json.dumps(objeto, ensure_ascii=False, indent=2)


def _linhas(texto: str) -> Iterator[tuple[int, str]]:
    yield from enumerate(texto.splitlines(), 1)


@click.group(
    context_settings={"help_option_names": ["-h", "--help"]},
    options_metavar="[OPÇÕES]",
    subcommand_metavar="COMANDO [ARGUMENTOS]...",
)
@click.version_option(package_name="multas", message="multas %(version)s")
def cli() -> None:
    """multas: as multas da regulação de combustíveis e mobilidade, exatas e explicadas."""


@cli.command(options_metavar="[OPÇÕES]")
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
    with open(saida, "w", encoding="utf-8") as arquivo, redirect_stdout(arquivo):
        _calcular(texto, formato, eh_linhas)


def _calcular(texto: str, formato: str, eh_linhas: bool) -> None:
    if eh_linhas:
        sys.exit(_calcular_linhas(texto, formato))
    from multas.motor import calcular as calcular_caso

    try:
        resultado = calcular_caso(ler_json(texto))
    except EntradaInvalida as erro:
        _erro(erro, formato)
        sys.exit(2)
    _emitir(resultado, formato)


def _ler_texto(caminho: str) -> str:
    if caminho == "-":
        return sys.stdin.read()
    try:
        with open(caminho, encoding="utf-8") as arquivo:
            return arquivo.read()
    except UnicodeDecodeError:
        raise click.UsageError(f"o arquivo {caminho!r} não está em UTF-8") from None
    except OSError as erro:
        raise click.UsageError(f"não foi possível ler {caminho!r} ({erro.strerror})") from None


def _calcular_relatorio(texto: str, formato: str, saida: str | None) -> int:
    """The report of one case (HTML or PDF); an input error goes to stderr, exit code 2."""
    from multas.motor import calcular as calcular_caso

    try:
        caso = ler_json(texto)
        resultado = calcular_caso(caso)
    except EntradaInvalida as erro:
        _erro(erro, formato)
        return 2
    from multas.relatorio import Metadados, como_html, como_pdf

    metadados = Metadados.agora()
    conteudo = (
        como_pdf(resultado, caso, metadados)
        if formato == "pdf"
        else como_html(resultado, caso, metadados).encode("utf-8")
    )
    if saida is not None:
        with open(saida, "wb") as arquivo:
            arquivo.write(conteudo)
    else:
        sys.stdout.buffer.write(conteudo)
        sys.stdout.flush()
    return 0


def _calcular_linhas(texto: str, formato: str) -> int:
    """JSON Lines: one output line per input line, in order; a bad line gets its own error."""
    from multas.motor import calcular as calcular_caso

    falhas = 0
    for numero, linha in _linhas(texto):
        try:
            if not linha.strip():
                raise EntradaInvalida(None, "linha vazia")
            resultado = calcular_caso(ler_json(linha))
        except EntradaInvalida as erro:
            falhas += 1
            corpo = erro.como_dict()
            corpo["erro"]["linha"] = numero
            click.echo(despejar_json(corpo, compacto=True))
            continue
        if formato == "json":
            click.echo(despejar_json(resultado, compacto=True))
        else:
            _emitir(resultado, formato)
    return 2 if falhas else 0


def _emitir(resultado: dict[str, Any], formato: str) -> None:
    if formato == "json":
        click.echo(despejar_json(resultado))
    elif formato == "markdown":
        from multas.memoria import como_markdown

        click.echo(como_markdown(resultado), nl=False)
    else:
        from multas.memoria import imprimir_texto

        imprimir_texto(resultado, sys.stdout)


def _erro(erro: EntradaInvalida, formato: str) -> None:
    if formato == "json":
        click.echo(despejar_json(erro.como_dict()))
    else:
        onde = f" no campo '{erro.campo}'" if erro.campo else ""
        click.echo(f"Erro{onde}: {erro.mensagem}", err=True)


@cli.command(options_metavar="[OPÇÕES]")
@click.option(
    "--formato", "-f", type=click.Choice(("texto", "json")), default="texto", show_default=True
)
def regimes(formato: str) -> None:
    """Lista os regimes, seus campos e o que significam."""
    from multas.catalogo import descrever_regimes, regimes_como_texto

    if formato == "json":
        click.echo(despejar_json(descrever_regimes()))
    else:
        click.echo(regimes_como_texto(), nl=False)


@cli.command(options_metavar="[OPÇÕES]")
@click.option(
    "--formato", "-f", type=click.Choice(("texto", "json")), default="texto", show_default=True
)
@click.option("--parametro", "-p", default="", help="Só os parâmetros cujo nome começa assim.")
def legislacao(formato: str, parametro: str) -> None:
    """Mostra o histórico de cada parâmetro legal, com datas e fontes."""
    from multas.catalogo import descrever_legislacao, legislacao_como_texto

    if formato == "json":
        click.echo(despejar_json(descrever_legislacao(parametro)))
    else:
        click.echo(legislacao_como_texto(parametro), nl=False)


def _interpretacao_da_linha(regime_nome: str, pares: tuple[str, ...]) -> dict[str, str]:
    """``--interpretacao chave=opção`` (repeatable), validated against the regime."""
    from multas.motor import ler_interpretacao, regime_de

    regime = regime_de(regime_nome)
    escolhas: dict[str, str] = {}
    for par in pares:
        chave, igual, opcao = par.partition("=")
        if not igual or not chave.strip() or not opcao.strip():
            raise EntradaInvalida(
                "interpretacao", f"use chave=opção, ex.: faturamento=menor ({par!r})"
            )
        escolhas[chave.strip()] = opcao.strip()
    return ler_interpretacao(regime, escolhas)


def _falhar_uso(erro: EntradaInvalida) -> NoReturn:
    onde = f" no campo '{erro.campo}'" if erro.campo else ""
    click.echo(f"Erro{onde}: {erro.mensagem}", err=True)
    sys.exit(2)


@cli.command(options_metavar="[OPÇÕES]")
@click.argument("entrada", type=click.Path(exists=True, dir_okay=False))
@click.option("--regime", "-r", required=True, help="O regime de todas as linhas (multas regimes).")
@click.option(
    "--saida",
    "-o",
    required=True,
    type=click.Path(dir_okay=False),
    help="Arquivo de saída, no formato da entrada (.csv, .xlsx, .parquet, .jsonl).",
)
@click.option(
    "--interpretacao",
    "-i",
    multiple=True,
    metavar="CHAVE=OPÇÃO",
    help="Leitura para todo o lote, ex.: faturamento=menor (repetível).",
)
@click.option(
    "--ptbr",
    "--csv-ptbr",
    "ptbr",
    is_flag=True,
    help="Notação brasileira: CSV com ';', números 1.234,56 na entrada e 1234,56 na saída.",
)
@click.option(
    "--executor",
    type=click.Choice(("local", "dask")),
    default="local",
    show_default=True,
    help="dask: um cluster Dask local (ou o de --dask).",
)
@click.option(
    "--dask", "endereco_dask", metavar="ENDERECO", help="Agendador Dask, ex.: tcp://10.0.0.5:8786."
)
@click.option(
    "--trabalhadores",
    type=click.IntRange(1),
    default=2,
    show_default=True,
    help="Processos do cluster Dask local.",
)
@click.option(
    "--linhas-por-bloco",
    type=click.IntRange(1),
    default=262_144,
    show_default=True,
    help="Linhas lidas e processadas de cada vez (memória limitada).",
)
def lote(
    entrada: str,
    regime: str,
    saida: str,
    interpretacao: tuple[str, ...],
    ptbr: bool,
    executor: str,
    endereco_dask: str | None,
    trabalhadores: int,
    linhas_por_bloco: int,
) -> None:
    """Calcula cada linha de ENTRADA (CSV, XLSX, Parquet ou JSON Lines) e grava SAIDA.

    A saída tem todas as colunas da entrada, depois valor e as saídas do regime, depois erro
    (vazio quando a linha foi calculada), na ordem da entrada. Código de saída: 0 se todas as
    linhas foram calculadas; 2 se alguma teve erro (o arquivo é gravado mesmo assim) ou se os
    argumentos não servem.
    """
    from pathlib import Path

    from multas.lote.executor import Dask, executar
    from multas.lote.processar import Config

    try:
        cfg = Config(regime, _interpretacao_da_linha(regime, interpretacao), ptbr)
    except EntradaInvalida as erro:
        _falhar_uso(erro)
    onde = None
    if endereco_dask or executor == "dask":
        onde = Dask(endereco_dask, trabalhadores)
    with _progresso() as avancar:
        try:
            resumo = executar(
                Path(entrada),
                Path(saida),
                cfg,
                linhas_por_bloco=linhas_por_bloco,
                dask=onde,
                ao_avancar=avancar,
            )
        except EntradaInvalida as erro:
            _falhar_uso(erro)
    from multas.dinheiro import formatar_numero

    por_segundo = int(resumo.linhas / resumo.segundos) if resumo.segundos else 0
    segundos = f"{resumo.segundos:.1f}".replace(".", ",")
    click.echo(
        f"multas lote: {formatar_numero(str(resumo.linhas))} "
        f"{'linha' if resumo.linhas == 1 else 'linhas'}, "
        f"{formatar_numero(str(resumo.sucessos))} calculadas, "
        f"{formatar_numero(str(resumo.erros))} com erro, em {segundos} s "
        f"({formatar_numero(str(por_segundo))} linhas/s) → {saida}",
        err=True,
    )
    sys.exit(2 if resumo.erros else 0)


@cli.command()
@click.argument("caso", required=False, type=click.Path(exists=True, dir_okay=False))
@click.option(
    "--carteira",
    type=click.Path(exists=True, dir_okay=False),
    help="Arquivo de distribuidores (como em multas lote), em vez de um CASO JSON.",
)
@click.option(
    "--historico",
    type=click.Path(exists=True, dir_okay=False),
    help="CSV de médias mensais históricas do CBIO (coluna preco), reamostradas.",
)
@click.option("--lognormal", is_flag=True, help="Preços de um modelo lognormal.")
@click.option("--preco-inicial", help="Lognormal: preço do CBIO hoje.")
@click.option(
    "--drift", type=float, default=0.0, show_default=True, help="Lognormal: tendência anual."
)
@click.option("--volatilidade", type=float, help="Lognormal: volatilidade anual (ex.: 0.35).")
@click.option("--cenarios", type=click.IntRange(1, 10_000_000), default=10_000, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True, help="Semente (reprodutível).")
@click.option(
    "--preco-atual", help="Preço para comprar agora; padrão: o último do histórico ou o inicial."
)
@click.option("--interpretacao", "-i", multiple=True, metavar="CHAVE=OPÇÃO")
@click.option("--ptbr", is_flag=True, help="Notação brasileira nos arquivos (CSV com ';').")
@click.option("--grafico", type=click.Path(dir_okay=False), help="Histograma em PNG.")
@click.option(
    "--formato", "-f", type=click.Choice(("texto", "json")), default="texto", show_default=True
)
def exposicao(
    caso: str | None,
    carteira: str | None,
    historico: str | None,
    lognormal: bool,
    preco_inicial: str | None,
    drift: float,
    volatilidade: float | None,
    cenarios: int,
    seed: int,
    preco_atual: str | None,
    interpretacao: tuple[str, ...],
    ptbr: bool,
    grafico: str | None,
    formato: str,
) -> None:
    """Distribuição da multa do distribuidor (CASO JSON ou --carteira) sob cenários de preço
    do CBIO: P50, P90, P99, multa esperada e o custo de comprar os CBIOs faltantes agora."""
    from pathlib import Path

    from multas import exposicao as exp

    try:
        leitura = _interpretacao_da_linha(exp.REGIME, interpretacao)
        tabela = _carteira(
            None if caso is None else Path(caso),
            None if carteira is None else Path(carteira),
            ptbr,
        )
        if (historico is None) == (not lognormal):
            raise EntradaInvalida(None, "escolha os cenários: --historico ARQUIVO ou --lognormal")
        if historico is not None:
            serie = exp.ler_historico(Path(historico), ptbr)
            precos = exp.cenarios_historicos(serie, cenarios, seed)
            atual = serie[-1]
        else:
            if preco_inicial is None or volatilidade is None:
                raise EntradaInvalida(
                    None, "--lognormal precisa de --preco-inicial e --volatilidade"
                )
            inicial = _preco_da_linha("preco_inicial", preco_inicial, ptbr)
            precos = exp.cenarios_lognormais(inicial, drift, volatilidade, cenarios, seed)
            atual = inicial
        if preco_atual is not None:
            atual = _preco_da_linha("preco_atual", preco_atual, ptbr)
        totais = exp.simular(tabela, precos, leitura, ptbr=ptbr)
        resumo = exp.resumir(totais, exp.faltantes(tabela, leitura, ptbr), atual)
    except EntradaInvalida as erro:
        _falhar_uso(erro)
    if grafico is not None:
        exp.grafico(totais, resumo, Path(grafico))
    if formato == "json":
        click.echo(despejar_json(resumo))
    else:
        click.echo(exp.como_texto(resumo), nl=False)


def _preco_da_linha(nome: str, texto: str, ptbr: bool) -> Decimal:
    from multas.contrato import Campo, Leitura, ler_valor

    valor: Decimal = ler_valor(texto, Campo(nome, "preco", "", True, 0), Leitura(True, ptbr))
    return valor


def _carteira(caso: Path | None, carteira: Path | None, ptbr: bool) -> Any:
    """The distributors as a table of text cells: one CASO JSON, or a portfolio file."""
    import pyarrow as pa

    from multas.lote.io import abrir, texto_da_celula
    from multas.lote.processar import Config
    from multas.regimes import REGIMES

    if (caso is None) == (carteira is None):
        raise EntradaInvalida(None, "informe um CASO JSON ou --carteira ARQUIVO (um dos dois)")
    tipos = {c.nome: c.tipo for c in REGIMES["renovabio.distribuidor"].caso.campos() if c.plano}
    if caso is not None:
        dados = ler_json(caso.read_text(encoding="utf-8"))
        if not isinstance(dados, dict):
            raise EntradaInvalida(None, "o caso deve ser um objeto JSON")
        if dados.pop("regime", "renovabio.distribuidor") != "renovabio.distribuidor":
            raise EntradaInvalida("regime", "a exposição é do regime renovabio.distribuidor")
        linhas: list[dict[str, Any]] = [dados]
    else:
        cfg = Config("renovabio.distribuidor", {"faturamento": "media"}, ptbr)
        linhas = []
        for bloco in abrir(carteira, cfg).blocos:  # type: ignore[arg-type]
            if bloco.linhas is not None:
                linhas += [linha or {} for linha in bloco.linhas]
            else:
                linhas += bloco.tabela.to_pylist()
    colunas = {
        nome: pa.array(
            [texto_da_celula(linha.get(nome), tipo, False) for linha in linhas], pa.string()
        )
        for nome, tipo in tipos.items()
    }
    return pa.table(colunas)


@contextmanager
def _progresso() -> Iterator[Callable[[int, int | None], None] | None]:
    """A progress bar on stderr when it is a terminal (Rich); nothing otherwise."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(
        TextColumn("linhas"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as barra:
        tarefa = barra.add_task("lote", total=None)

        def avancar(feitas: int, total: int | None) -> None:
            barra.update(tarefa, completed=feitas, total=total)

        yield avancar


@cli.command()
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Endereço em que o servidor escuta (o padrão aceita só conexões desta máquina).",
)
@click.option("--porta", default=8000, show_default=True, type=click.IntRange(1, 65535))
def servir(host: str, porta: int) -> None:
    """Inicia a API HTTP e a página web.

    Os casos salvos ficam em MULTAS_DATABASE_URL ou, sem ela, em dados/multas.db (SQLite).
    """
    import socket

    from multas.servidor import servir as iniciar

    try:  # a clear pt-BR message rather than uvicorn's English one
        familia = socket.AF_INET6 if ":" in host else socket.AF_INET
        with socket.socket(familia, socket.SOCK_STREAM) as teste:
            teste.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            teste.bind((host, porta))
    except OSError as erro:
        import errno

        motivo = {
            errno.EADDRINUSE: "a porta já está em uso (escolha outra com --porta)",
            errno.EACCES: "sem permissão para essa porta (use uma acima de 1024)",
            errno.EADDRNOTAVAIL: "esse endereço não existe nesta máquina",
        }.get(erro.errno or 0, "o sistema recusou o endereço")
        click.echo(f"Erro: não é possível escutar em {host}:{porta}: {motivo}.", err=True)
        sys.exit(1)
    endereco = f"[{host}]" if ":" in host else host
    click.echo(f"multas: página e API em http://{endereco}:{porta}/ (Ctrl+C para parar)", err=True)
    iniciar(host, porta)


def main() -> None:
    cli(prog_name="multas")
