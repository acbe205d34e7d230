"""The server adapter's command: ``multas servir`` (the HTTP API and the web page)."""

from __future__ import annotations

import sys

from multas.idioma import falar_portugues

falar_portugues()

import click  # noqa: E402


@click.command(options_metavar="[OPÇÕES]")
@click.option(
    "--host",
    default="127.0.0.1",
    metavar="ENDEREÇO",
    show_default=True,
    help="Endereço em que o servidor escuta (o padrão aceita só conexões desta máquina).",
)
@click.option(
    "--porta",
    default=8000,
    show_default=True,
    type=click.IntRange(1, 65535),
    metavar="PORTA",
    help="Porta TCP em que o servidor escuta.",
)
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
