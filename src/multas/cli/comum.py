"""What the command modules share: the date type, reading the input and writing a file whole,
the JSON Lines loop, the pt-BR errors, the database of one command and the common options.

The commands are a thin adapter around the engine (parse, call, render). The batch (``multas
lote``, ``multas exposicao``) and the server (``multas servir``) are adapters of their own;
every command is joined to the ``multas`` group by :mod:`multas.principal`. Heavy modules
(Rich, holidays) are imported only by the commands that need them, so ``multas regimes``
starts fast.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

from multas.saidas.idioma import falar_portugues

falar_portugues()

import click  # noqa: E402

from multas.inicio import sem_coleta  # noqa: E402
from multas.nucleo.erros import EntradaInvalida  # noqa: E402
from multas.nucleo.json_exato import despejar_json, ler_json  # noqa: E402
from multas.saidas.opcoes import leitura_do_arquivo as leitura_do_arquivo  # noqa: E402
from multas.saidas.opcoes import opcoes_do_arquivo as opcoes_do_arquivo  # noqa: E402

F = TypeVar("F", bound=Callable[..., Any])

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


class AnoDaMeta(_TipoDeOpcao):
    """``--ano``: a whole number (Click's own message otherwise), within the one bound of every
    year the engine reads (:func:`multas.nucleo.contrato.ler_um_ano`): outside it, a usage
    error naming the option, exit 2."""

    name = "ano"

    def get_metavar(self, param: click.Parameter, ctx: click.Context | None = None) -> str:
        return "AAAA"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        from multas.nucleo.contrato import ler_um_ano

        numero = click.INT.convert(value, param, ctx)
        try:
            return ler_um_ano(numero, "--ano")
        except EntradaInvalida as erro:
            self.fail(erro.mensagem, param, ctx)


ANO_DA_META = AnoDaMeta()


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


def _por_linha(
    texto: str,
    calcular: Callable[[Any], dict[str, Any]],
    emitir: Callable[[dict[str, Any]], None],
) -> int:
    """JSON Lines: one output line per input line, in order; a bad line gets its own error
    line (with its number), none dropped. Exit code 0 if every line succeeded, else
    :data:`~multas.nucleo.erros.SAIDA_LINHAS_COM_ERRO` (3)."""
    from multas.nucleo.erros import SAIDA_LINHAS_COM_ERRO

    falhas = 0
    for numero, linha in _linhas(texto):
        try:
            if not linha.strip():
                raise EntradaInvalida(None, "linha vazia")
            resultado = calcular(ler_json(linha))
        except EntradaInvalida as erro:
            falhas += 1
            corpo = erro.como_dict()
            for um in (corpo["erro"], *corpo.get("erros", ())):  # each error says its line
                um["linha"] = numero
            click.echo(despejar_json(corpo, compacto=True))
            continue
        emitir(resultado)
    return SAIDA_LINHAS_COM_ERRO if falhas else 0


def _eco(texto: str, nl: bool = True, err: bool = False) -> None:
    """Text output for a terminal: a stored name's or a message's control characters, line
    separators and bidi controls written as visible escapes (:func:`multas.nucleo.visivel.texto_visivel`),
    never run by the terminal."""
    from multas.nucleo.visivel import texto_visivel

    click.echo(texto_visivel(texto), nl=nl, err=err)


def _erro(erro: EntradaInvalida, formato: str) -> None:
    """An input error: JSON (the first, ``{"erro": ...}``, the contract's shape), or text, one
    line per error found (a case's fields are all read: every error at once)."""
    if formato == "json":
        click.echo(despejar_json(erro.como_dict()))
        return
    for um in erro.todos():
        onde = f" no campo '{um.campo}'" if um.campo else ""
        _eco(f"Erro{onde}: {um.mensagem}", err=True)


#: the exports' pt-BR notation (:mod:`multas.saidas.exportacao`)
_PTBR_SAIDA = click.option(
    "--ptbr",
    is_flag=True,
    help="CSV em notação brasileira: ';' entre as colunas, números 1.234,56 e datas dd/mm/aaaa.",
)


def url_do_banco(_contexto: click.Context, _parametro: click.Parameter, valor: str | None) -> Any:
    """``--banco``: a URL, or a plain path to a SQLite file (its absolute URL)."""
    from multas.servicos.pasta_de_dados import url_de_caminho

    try:
        return None if valor is None else url_de_caminho(valor)
    except ValueError as erro:
        raise click.BadParameter(str(erro)) from None


_BANCO = click.option(
    "--banco",
    default=None,
    metavar="CAMINHO|URL",
    callback=url_do_banco,
    help="O banco: um arquivo SQLite (/caminho/multas.db) ou uma URL (padrão: "
    "MULTAS_DATABASE_URL ou o da pasta de dados do usuário).",
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

    def anunciar() -> None:  # before the first write: the user sees which database changed
        from multas.servicos.pasta_de_dados import descrever_banco

        _eco(f"Banco: {descrever_banco(repositorio.url)}", err=True)

    repositorio.ao_escrever = anunciar
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


#: the ledger's readings (spec v3: ``preco_diferido``, ``diferimento_excedente``), one option
#: for every command that prices a ledger year
_LEITURAS_DA_CARTEIRA = click.option(
    "--interpretacao",
    "-i",
    "leituras",
    multiple=True,
    metavar="CHAVE=OPCAO",
    help="preco_diferido=ano_seguinte|ano_diferimento; "
    "diferimento_excedente=nenhum|parcial; meta_herdada=nao_multa|multa; "
    "ano_do_preco=ano_meta|prazo; media_mensal=ponderada|simples (padrão: o primeiro; "
    "media_mensal: ponderada quando todas as cotações trazem o volume, senão simples).",
)


def _leituras_da_carteira(leituras: tuple[str, ...]) -> dict[str, str]:
    """The ledger's ``-i CHAVE=OPCAO`` options as a dict (validated by the ledger)."""
    pares = {}
    for par in leituras:
        chave, _, opcao = par.partition("=")
        pares[chave.strip()] = opcao.strip()
    return pares


def avisos_da_leitura(nome: str, avisos: Any) -> None:
    """What the reader left out of a file's rows, and how it read it, on the error output."""
    for aviso in avisos:
        _eco(f"{nome}: {aviso}", err=True)


def legislacao_da_linha_de_comando() -> Any:
    """The shipped legislation with the Selic months added to the configured database
    (``MULTAS_DATABASE_URL``, else the user's data folder's), read only when a rule needs the
    Selic, and only if that database exists (never created, migrated nor written:
    :func:`multas.servicos.selic.serie_do_banco`). For the commands without a database:
    ``calcular``, ``prazos calcular``, ``parcelamento simular``."""
    from multas.nucleo.legislacao import carregar

    def ler() -> Any:
        from multas.nucleo.legislacao.selic import serie_enviada
        from multas.servicos.selic import serie_do_banco

        return serie_do_banco() or serie_enviada()

    return carregar().com_selic(ler)
