"""The server adapter's command: ``multas servir`` (the HTTP API and the web page)."""

from __future__ import annotations

import sys

from multas.saidas.idioma import falar_portugues

falar_portugues()

import click  # noqa: E402


@click.command(options_metavar="[OPÇÕES]")
@click.option(
    "--host",
    default=None,
    metavar="ENDEREÇO",
    help="Endereço em que o servidor escuta. Padrão: MULTAS_SERVIR_HOST ou 127.0.0.1, que "
    "aceita só conexões desta máquina.",
)
@click.option(
    "--porta",
    default=None,
    type=click.IntRange(1, 65535),
    metavar="PORTA",
    help="Porta TCP em que o servidor escuta. Padrão: MULTAS_SERVIR_PORTA ou 8000.",
)
@click.option(
    "--trabalhadores",
    default=None,
    type=click.IntRange(1, 64),
    metavar="N",
    help="Processos que atendem (uvicorn --workers). Padrão: MULTAS_SERVIR_TRABALHADORES ou 1.",
)
@click.option(
    "--limite-requisicoes",
    type=click.FloatRange(0),
    default=None,
    metavar="N",
    help="Requisições por segundo por usuário (ou endereço); 0 desliga. Padrão: "
    "MULTAS_LIMITE_REQUISICOES ou, sem ela, 50 com autenticação e sem limite no modo aberto "
    "local.",
)
@click.option(
    "--certificado",
    metavar="ARQUIVO",
    default=None,
    help="Certificado TLS (PEM): atende em HTTPS, com --chave. Padrão: MULTAS_TLS_CERTIFICADO.",
)
@click.option(
    "--chave",
    metavar="ARQUIVO",
    default=None,
    help="A chave privada (PEM) do certificado. Padrão: MULTAS_TLS_CHAVE.",
)
@click.option(
    "--proxy-confiavel",
    "proxies",
    metavar="ENDEREÇO",
    multiple=True,
    help="Um proxy reverso cujos cabeçalhos X-Forwarded-For e X-Forwarded-Proto valem (repita "
    "para vários). Sem ele, esses cabeçalhos são ignorados. Padrão: MULTAS_PROXIES_CONFIAVEIS.",
)
@click.option(
    "--papel-inseguro",
    is_flag=True,
    default=None,
    help="INSEGURO: inicia mesmo se o papel do banco puder alterar ou desligar a auditoria "
    "(a página avisa os administradores). Use dois papéis: 'multas banco preparar'.",
)
def servir(
    host: str | None,
    porta: int | None,
    trabalhadores: int | None,
    limite_requisicoes: float | None,
    certificado: str | None,
    chave: str | None,
    proxies: tuple[str, ...],
    papel_inseguro: bool | None,
) -> None:
    """Inicia a API HTTP e a página web.

    Os casos salvos ficam em MULTAS_DATABASE_URL ou, sem ela, no multas.db (SQLite) da pasta de
    dados do usuário (a mesma de todo comando, de qualquer pasta; a linha "Banco:" a mostra).
    Cada opção, quando dada, vale mais que a variável MULTAS_* correspondente (a página
    Servidor da documentação lista todas).

    No endereço local (127.0.0.1, o padrão) e sem usuários cadastrados, o servidor é aberto a
    um único usuário local. Com usuários (multas usuarios criar), ou em qualquer outro
    endereço, toda requisição precisa de autenticação: token na API, login na página; em outro
    endereço sem usuários cadastrados o servidor não inicia.
    """
    # imported when the command runs, not with this module: `multas --help` imports it too
    import socket

    from multas.nucleo.erros import ConfiguracaoInvalida
    from multas.servicos.configuracao import carregar
    from multas.servidor.aplicacao import PapelInseguro, SemAutenticacao, app_configurado
    from multas.servidor.aplicacao import servir as iniciar

    try:  # the settings, read once here: the options over the MULTAS_* variables
        configuracao = carregar(
            servir_host=host,
            servir_porta=porta,
            servir_trabalhadores=trabalhadores,
            limite_requisicoes=limite_requisicoes,
            tls_certificado=certificado,
            tls_chave=chave,
            proxies_confiaveis=",".join(proxies) if proxies else None,
            aceitar_papel_inseguro=papel_inseguro,
        )
    except ConfiguracaoInvalida as erro:
        click.echo(f"Erro: {erro}", err=True)
        sys.exit(2)
    host, porta = configuracao.servir_host, configuracao.servir_porta
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
        app = app_configurado(configuracao)
    except PapelInseguro as inseguro:
        from multas.servicos.persistencia.papeis import correcao

        click.echo(
            f"Erro: o papel do banco da aplicação ('{inseguro.papel}') pode alterar ou desligar "
            f"a auditoria: {'; '.join(inseguro.riscos)}. Use dois papéis: MULTAS_DATABASE_URL, "
            "o da aplicação, sem esses poderes, e MULTAS_DATABASE_URL_DONO, o dono, que roda "
            "as migrações ('multas banco preparar --admin URL' cria os dois). Para tirar os "
            f"poderes deste papel: {correcao(inseguro.papel)} Para iniciar assim mesmo "
            "(inseguro), use --papel-inseguro.",
            err=True,
        )
        sys.exit(1)
    except SemAutenticacao:
        click.echo(
            f"Erro: em {host} (fora do endereço local) o servidor exige autenticação, e não há "
            "usuário cadastrado. Crie um com: multas usuarios criar NOME --papel admin",
            err=True,
        )
        sys.exit(1)
    endereco = f"[{host}]" if ":" in host else host
    esquema = "https" if configuracao.tls_certificado else "http"
    click.echo(
        f"multas: página e API em {esquema}://{endereco}:{porta}/ (Ctrl+C para parar)", err=True
    )
    from multas.servicos.pasta_de_dados import descrever_banco
    from multas.servicos.persistencia import url_padrao

    click.echo(f"Banco: {descrever_banco(configuracao.database_url or url_padrao())}", err=True)
    if app.state.papel_inseguro:
        click.echo(
            "Aviso: papel do banco inseguro (--papel-inseguro): "
            + "; ".join(app.state.papel_inseguro),
            err=True,
        )
    iniciar(configuracao, app=app)
