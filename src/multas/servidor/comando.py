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
@click.option(
    "--trabalhadores",
    default=1,
    show_default=True,
    type=click.IntRange(1, 64),
    metavar="N",
    help="Processos que atendem (uvicorn --workers).",
)
@click.option(
    "--limite-requisicoes",
    type=click.FloatRange(0),
    default=None,
    metavar="N",
    envvar="MULTAS_LIMITE_REQUISICOES",
    help="Requisições por segundo por usuário (ou endereço); 0 desliga. Padrão: 50 com "
    "autenticação, sem limite no modo aberto local.",
)
def servir(host: str, porta: int, trabalhadores: int, limite_requisicoes: float | None) -> None:
    """Inicia a API HTTP e a página web.

    Os casos salvos ficam em MULTAS_DATABASE_URL ou, sem ela, em dados/multas.db (SQLite).

    No endereço local (127.0.0.1, o padrão) e sem usuários cadastrados, o servidor é aberto a
    um único usuário local. Com usuários (multas usuarios criar), ou em qualquer outro
    endereço, toda requisição precisa de autenticação: token na API, login na página; em outro
    endereço sem usuários cadastrados o servidor não inicia.
    """
    # imported when the command runs, not with this module: `multas --help` imports it too
    import socket

    from multas.servidor.aplicacao import SemAutenticacao, criar_app_para
    from multas.servidor.aplicacao import servir as iniciar

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
    try:
        # built (and the database migrated) here, once; each worker builds its own
        app = criar_app_para(host, limite_por_segundo=limite_requisicoes)
    except SemAutenticacao:
        click.echo(
            f"Erro: em {host} (fora do endereço local) o servidor exige autenticação, e não há "
            "usuário cadastrado. Crie um com: multas usuarios criar NOME --papel admin",
            err=True,
        )
        sys.exit(1)
    endereco = f"[{host}]" if ":" in host else host
    click.echo(f"multas: página e API em http://{endereco}:{porta}/ (Ctrl+C para parar)", err=True)
    iniciar(
        host, porta, limite_por_segundo=limite_requisicoes, trabalhadores=trabalhadores, app=app
    )
