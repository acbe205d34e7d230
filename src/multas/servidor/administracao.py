"""The server's administration commands: ``multas auditoria verificar`` (the tamper-evident
record) and ``multas usuarios`` (who may use the server, and how)."""

from __future__ import annotations

import sys

from multas.idioma import falar_portugues

falar_portugues()

import click  # noqa: E402

OPCAO_BANCO = click.option(
    "--banco",
    metavar="URL",
    default=None,
    help="O banco (padrão: MULTAS_DATABASE_URL ou dados/multas.db).",
)


@click.group()
def auditoria() -> None:
    """O registro de auditoria e dos casos salvos."""


@auditoria.command()
@OPCAO_BANCO
@click.option(
    "--ancora",
    metavar="POSIÇÃO:HASH",
    default=None,
    help="Uma cabeça da cadeia anotada antes (a saída de uma verificação anterior): confere "
    "que a cadeia ainda a contém, o que revela registros finais apagados ou reescritos.",
)
@click.option(
    "--formato", "-f", type=click.Choice(("texto", "json")), default="texto", show_default=True
)
def verificar(banco: str | None, ancora: str | None, formato: str) -> None:
    """Percorre a cadeia de hashes da auditoria e cada caso salvo, e aponta o primeiro
    registro alterado, ausente ou fora de ordem. Código de saída: 0 íntegro, 1 não íntegro,
    2 argumentos inválidos."""
    from multas.json_exato import despejar_json
    from multas.persistencia import Repositorio

    marco = _ler_ancora(ancora) if ancora else None
    repositorio = Repositorio(banco)
    try:
        relatorio = repositorio.verificar(marco)
    finally:
        repositorio.fechar()
    cabeca = f"{relatorio.cabeca[0]}:{relatorio.cabeca[1]}" if relatorio.cabeca else None
    if formato == "json":
        click.echo(
            despejar_json(
                {
                    "integro": relatorio.integro,
                    "registros": relatorio.registros,
                    "casos": relatorio.casos,
                    "ancora": cabeca,
                    "problemas": [
                        {
                            "tipo": p.tipo,
                            "mensagem": p.mensagem,
                            "registro_id": p.registro_id,
                            "caso_id": p.caso_id,
                        }
                        for p in relatorio.problemas
                    ],
                }
            )
        )
    elif relatorio.integro:
        click.echo(
            f"Íntegro: {relatorio.registros} registros de auditoria encadeados e "
            f"{relatorio.casos} casos salvos conferem."
        )
        if cabeca:
            click.echo(f"Âncora (anote-a para conferir depois com --ancora): {cabeca}")
    else:
        primeiro, resto = relatorio.problemas[0], len(relatorio.problemas) - 1
        click.echo(f"NÃO ÍNTEGRO: {primeiro.mensagem}.", err=True)
        if resto:
            click.echo(f"(e mais {resto} problema(s); use --formato json para todos)", err=True)
    sys.exit(0 if relatorio.integro else 1)


def _ler_ancora(texto: str) -> tuple[int, str]:
    posicao, _, valor = texto.partition(":")
    if not posicao.isascii() or not posicao.isdigit() or len(valor) != 64:
        raise click.BadParameter("use POSIÇÃO:HASH, como a verificação anterior mostrou")
    return int(posicao), valor.lower()
