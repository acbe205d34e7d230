"""The server's administration commands: ``multas auditoria verificar`` (the tamper-evident
record) and ``multas usuarios`` (who may use the server, and how)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from multas.saidas.idioma import falar_portugues
from multas.servicos.pasta_de_dados import ANTIGO

falar_portugues()

import click  # noqa: E402

if TYPE_CHECKING:
    from multas.servicos.persistencia import Repositorio
    from multas.servicos.persistencia.ancora import Ancora

T = TypeVar("T")
#: how many problems the text output lists (the JSON output lists them all)
MOSTRADOS = 20
#: what a new password, another role, other clients or a deactivation ends (one revocation:
#: :meth:`multas.servicos.persistencia.acesso.Acesso._encerrar_credenciais`)
ENCERRADOS = "suas sessões, seus tokens e seu calendário privado deixaram de valer"


def _url_do_banco(_contexto: click.Context, _parametro: click.Parameter, valor: str | None) -> Any:
    """``--banco``: a URL, or a plain path to a SQLite file (its absolute URL)."""
    from multas.servicos.pasta_de_dados import url_de_caminho

    try:
        return None if valor is None else url_de_caminho(valor)
    except ValueError as erro:
        raise click.BadParameter(str(erro)) from None


def _anunciado(repositorio: Repositorio) -> Repositorio:
    """The database, which names itself on the error output before its first write ("Banco:
    …", without a password): the user sees which database a command changed."""
    from multas.servicos.pasta_de_dados import descrever_banco

    def anunciar() -> None:
        click.echo(f"Banco: {descrever_banco(repositorio.url)}", err=True)

    repositorio.ao_escrever = anunciar
    return repositorio


OPCAO_BANCO = click.option(
    "--banco",
    metavar="CAMINHO|URL",
    default=None,
    callback=_url_do_banco,
    help="O banco: um arquivo SQLite (/caminho/multas.db) ou uma URL (padrão: "
    "MULTAS_DATABASE_URL ou o da pasta de dados do usuário).",
)


@click.group(options_metavar="[OPÇÕES]", subcommand_metavar="COMANDO [ARGUMENTOS]...")
def auditoria() -> None:
    """O registro de auditoria e dos casos salvos."""


OPCAO_CHAVE = click.option(
    "--chave-ancora",
    "chave",
    metavar="ARQUIVO",
    type=click.Path(exists=True, dir_okay=False),
    default=None,
    help="Arquivo com a chave secreta (ao menos 16 bytes) que assina a âncora com HMAC-SHA256. "
    "Guarde-o fora do banco e do servidor: sem ele, a âncora não é assinada.",
)


@auditoria.command(options_metavar="[OPÇÕES]")
@OPCAO_BANCO
@OPCAO_CHAVE
def ancorar(banco: str | None, chave: str | None) -> None:
    """Mostra uma âncora: um ponto de controle curto da auditoria (a cabeça da cadeia e, de
    cada tabela, quantos registros tem e o último registro de auditoria sobre ela, com a hora
    UTC). Guarde-a fora do servidor (um arquivo, um e-mail, um chamado); depois, 'multas
    auditoria verificar --ancora ÂNCORA' confere que a cadeia ainda a contém e diz o que mudou
    desde então."""
    from multas.servicos.persistencia import Repositorio
    from multas.servicos.persistencia.ancora import escrever, ler_chave

    segredo = _executar(lambda: ler_chave(chave)) if chave else None
    repositorio = _anunciado(Repositorio(banco))
    try:
        marco = repositorio.ancorar()
    finally:
        repositorio.fechar()
    click.echo(escrever(marco, segredo))
    registros = marco.cabeca[0] if marco.cabeca else 0
    assinada = "assinada com a chave" if segredo else "SEM assinatura (use --chave-ancora)"
    click.echo(
        f"Âncora de {marco.momento:%d/%m/%Y %H:%M:%S} (UTC), {registros} registros na cadeia, "
        f"{assinada}. Guarde-a fora do servidor.",
        err=True,
    )


@auditoria.command(options_metavar="[OPÇÕES]")
@OPCAO_BANCO
@click.option(
    "--ancora",
    metavar="ÂNCORA",
    default=None,
    help="Uma âncora de 'multas auditoria ancorar' (ou uma cabeça POSIÇÃO:HASH anotada de uma "
    "verificação anterior): confere que a cadeia ainda a contém, o que revela registros finais "
    "apagados ou reescritos, e diz o que mudou desde então.",
)
@OPCAO_CHAVE
@click.option(
    "--formato", "-f", type=click.Choice(("texto", "json")), default="texto", show_default=True
)
def verificar(banco: str | None, ancora: str | None, chave: str | None, formato: str) -> None:
    """Percorre a cadeia de hashes da auditoria e cada registro salvo de cada tabela (casos,
    processos e seus eventos, anos da carteira, usuários, tokens, sessões), confere que cada
    um está no estado que a sua história na auditoria registra e que cada processo ainda é
    válido, e aponta a tabela e o registro de cada problema. Código de saída: 0 íntegro, 1 não
    íntegro, 2 argumentos inválidos."""
    from multas.nucleo.json_exato import despejar_json
    from multas.servicos.em_paralelo import nucleos
    from multas.servicos.gestao import Ciclo
    from multas.servicos.persistencia import Repositorio

    marco, avisos_ancora = _ler_ancora(ancora, chave) if ancora else (None, [])
    repositorio = _anunciado(Repositorio(banco))
    try:
        relatorio = Ciclo(repositorio).verificar(marco, processos=nucleos())
    finally:
        repositorio.fechar()
    relatorio = replace(relatorio, avisos=[*avisos_ancora, *relatorio.avisos])
    cabeca = f"{relatorio.cabeca[0]}:{relatorio.cabeca[1]}" if relatorio.cabeca else None
    if formato == "json":
        click.echo(
            despejar_json(
                {
                    "integro": relatorio.integro,
                    "registros": relatorio.registros,
                    "casos": relatorio.casos,
                    "tabelas": relatorio.tabelas,
                    "ancora": cabeca,
                    "problemas": [
                        {
                            "tipo": p.tipo,
                            "mensagem": p.mensagem,
                            "tabela": p.tabela,
                            "id": p.id,
                            "registro_id": p.registro_id,
                            "caso_id": p.caso_id,
                        }
                        for p in relatorio.problemas
                    ],
                    "avisos": relatorio.avisos,
                    "desde_ancora": relatorio.desde_ancora,
                }
            )
        )
    elif relatorio.integro:
        conferidos = ", ".join(f"{n} em {tabela}" for tabela, n in relatorio.tabelas.items())
        click.echo(
            f"Íntegro: {relatorio.registros} registros de auditoria encadeados; cada registro "
            f"salvo confere ({conferidos})."
        )
        if cabeca:
            click.echo(
                "Cabeça da cadeia (para --ancora; uma âncora assinada, com cada tabela: "
                f"'multas auditoria ancorar'): {cabeca}"
            )
    else:
        problemas = relatorio.problemas
        primeiro = problemas[0]
        click.echo(f"NÃO ÍNTEGRO: {primeiro.mensagem}.", err=True)
        for problema in problemas[1:MOSTRADOS]:
            click.echo(f"  e: {problema.mensagem}.", err=True)
        if len(problemas) > MOSTRADOS:
            click.echo(
                f"(e mais {len(problemas) - MOSTRADOS} problema(s); use --formato json para todos)",
                err=True,
            )
    if formato != "json" and marco is not None:
        click.echo("Desde a âncora:" if relatorio.desde_ancora else "Nada mudou desde a âncora.")
        for linha in relatorio.desde_ancora:
            click.echo(f"  {linha}")
    for aviso in relatorio.avisos:
        click.echo(f"Aviso: {aviso}.", err=True)
    sys.exit(0 if relatorio.integro else 1)


def _ler_ancora(texto: str, chave: str | None) -> tuple[tuple[int, str] | Ancora, list[str]]:
    """An anchor of 'ancorar' (its signature checked with the key), or a bare POSIÇÃO:HASH."""
    from multas.servicos.persistencia.ancora import PREFIXO, ler, ler_chave

    if texto.startswith(PREFIXO):
        segredo = _executar(lambda: ler_chave(chave)) if chave else None
        return _executar(lambda: ler(texto, segredo))
    posicao, _, valor = texto.partition(":")
    if not posicao.isascii() or not posicao.isdigit() or len(valor) != 64:
        raise click.BadParameter(
            "use a âncora que 'multas auditoria ancorar' mostrou, ou POSIÇÃO:HASH"
        )
    return (int(posicao), valor.lower()), [
        "uma cabeça POSIÇÃO:HASH não diz o que mudou em cada tabela nem é assinada: prefira "
        "'multas auditoria ancorar --chave-ancora ARQUIVO'"
    ]


def _quem_administra() -> str:
    from multas.servicos.ambiente import operador_local

    return operador_local()


def _executar(acao: Callable[[], T]) -> T:
    """Run ``acao``; its input error is a pt-BR message and exit code 2."""
    from multas.nucleo.erros import EntradaInvalida

    try:
        return acao()
    except EntradaInvalida as erro:
        click.echo(f"Erro: {erro.mensagem}", err=True)
        sys.exit(2)


OPCAO_CNPJ = click.option(
    "--cnpj",
    "cnpjs",
    multiple=True,
    metavar="CNPJ",
    help="Limita o usuário a este cliente (repita para vários). Um CNPJ cujos dígitos "
    "verificadores não conferem é recusado.",
)
OPCAO_RAIZ = click.option(
    "--cnpj-raiz",
    "raizes",
    multiple=True,
    metavar="RAIZ",
    help="Limita o usuário à matriz e às filiais desta raiz (os 8 primeiros caracteres do "
    "CNPJ; repita para várias).",
)


@click.group(options_metavar="[OPÇÕES]", subcommand_metavar="COMANDO [ARGUMENTOS]...")
def usuarios() -> None:
    """Quem pode usar o servidor (com autenticação) e com que papel: leitura (consulta),
    analista (também calcula e salva) ou admin (também exclui, vê a auditoria e cuida dos
    usuários). Cada ação fica registrada na auditoria."""


@usuarios.command(options_metavar="[OPÇÕES]")
@click.argument("nome", metavar="NOME")
@click.option(
    "--papel",
    type=click.Choice(("leitura", "analista", "admin")),
    required=True,
    help="O que o usuário pode fazer.",
)
@click.option(
    "--senha",
    "pedir_senha",
    is_flag=True,
    help="Pede uma senha (sem eco) para entrar pela página; sem ela, só o token da API.",
)
@OPCAO_CNPJ
@OPCAO_RAIZ
@OPCAO_BANCO
def criar(
    nome: str,
    papel: str,
    pedir_senha: bool,
    cnpjs: tuple[str, ...],
    raizes: tuple[str, ...],
    banco: str | None,
) -> None:
    """Cria o usuário NOME e mostra o seu token da API (uma única vez: guarde-o). Com
    --cnpj ou --cnpj-raiz, o usuário só vê e grava os registros desses clientes."""
    from multas.nucleo.escopo import Escopo
    from multas.servicos.persistencia import Repositorio
    from multas.servicos.persistencia.acesso import Acesso

    escopo = _executar(lambda: Escopo.de(cnpjs, raizes))
    senha = _pedir_senha() if pedir_senha else None
    repositorio = _anunciado(Repositorio(banco))
    try:
        token = _executar(
            lambda: Acesso(repositorio).criar(nome, papel, senha, _quem_administra(), escopo)
        )
    finally:
        repositorio.fechar()
    click.echo(token)
    clientes = f"; clientes: {escopo.descricao()}" if escopo is not None else ""
    click.echo(
        f"Usuário {nome!r} criado ({papel}{clientes}). O token acima (Authorization: Bearer ...) não será "
        "mostrado de novo; o banco guarda só o seu hash. Vale na hora, também num servidor "
        "já no ar.",
        err=True,
    )


def _pedir_senha() -> str:
    """The password, typed twice. On a terminal, hidden; from a pipe or a script, the two
    lines of the input, read as they are (Python's getpass would print an English warning
    there: no English line on any terminal)."""
    if sys.stdin is not None and sys.stdin.isatty():
        senha: str = click.prompt("Senha", hide_input=True, confirmation_prompt="Repita a senha")
    else:
        entrada = sys.stdin if sys.stdin is not None else None
        senha = (entrada.readline() if entrada else "").rstrip("\r\n")
        repetida = (entrada.readline() if entrada else "").rstrip("\r\n")
        if senha != repetida:
            click.echo("Erro: as duas senhas não são iguais.", err=True)
            sys.exit(2)
    if len(senha) < 8:
        click.echo("Erro: a senha deve ter ao menos 8 caracteres.", err=True)
        sys.exit(2)
    return senha


@usuarios.command(options_metavar="[OPÇÕES]")
@click.argument("nome", metavar="NOME")
@OPCAO_BANCO
def token(nome: str, banco: str | None) -> None:
    """Cria mais um token da API para NOME (os anteriores continuam valendo)."""
    from multas.servicos.persistencia import Repositorio
    from multas.servicos.persistencia.acesso import Acesso

    repositorio = _anunciado(Repositorio(banco))
    try:
        click.echo(_executar(lambda: Acesso(repositorio).novo_token(nome, _quem_administra())))
    finally:
        repositorio.fechar()


@usuarios.command(options_metavar="[OPÇÕES]")
@click.argument("nome", metavar="NOME")
@OPCAO_BANCO
def senha(nome: str, banco: str | None) -> None:
    """Define (ou troca) a senha com que NOME entra pela página. As sessões, os tokens e o
    calendário privado de NOME deixam de valer na hora."""
    from multas.servicos.persistencia import Repositorio
    from multas.servicos.persistencia.acesso import Acesso

    nova = _pedir_senha()
    repositorio = _anunciado(Repositorio(banco))
    try:
        _executar(lambda: Acesso(repositorio).definir_senha(nome, nova, _quem_administra()))
    finally:
        repositorio.fechar()
    click.echo(
        f"Senha de {nome!r} definida; {ENCERRADOS} (crie um token novo com "
        "'multas usuarios token').",
        err=True,
    )


@usuarios.command(options_metavar="[OPÇÕES]")
@click.argument("nome", metavar="NOME")
@click.argument("papel", metavar="PAPEL", type=click.Choice(("leitura", "analista", "admin")))
@OPCAO_BANCO
def papel(nome: str, papel: str, banco: str | None) -> None:
    """Muda o papel de NOME (leitura, analista ou admin). As sessões, os tokens e o
    calendário privado de NOME deixam de valer na hora."""
    from multas.servicos.persistencia import Repositorio
    from multas.servicos.persistencia.acesso import Acesso

    repositorio = _anunciado(Repositorio(banco))
    try:
        _executar(lambda: Acesso(repositorio).definir_papel(nome, papel, _quem_administra()))
    finally:
        repositorio.fechar()
    click.echo(f"Papel de {nome!r}: {papel}; {ENCERRADOS}.", err=True)


@usuarios.command(options_metavar="[OPÇÕES]")
@click.argument("nome", metavar="NOME")
@OPCAO_CNPJ
@OPCAO_RAIZ
@click.option("--todos", is_flag=True, help="Tira o limite: NOME passa a ver todos os clientes.")
@OPCAO_BANCO
def clientes(
    nome: str, cnpjs: tuple[str, ...], raizes: tuple[str, ...], todos: bool, banco: str | None
) -> None:
    """Limita NOME aos clientes dados (--cnpj, --cnpj-raiz), ou tira o limite (--todos). As
    sessões, os tokens e o calendário privado de NOME deixam de valer na hora."""
    from multas.nucleo.escopo import Escopo
    from multas.servicos.persistencia import Repositorio
    from multas.servicos.persistencia.acesso import Acesso

    if todos == bool(cnpjs or raizes):
        click.echo("Erro: informe --cnpj/--cnpj-raiz, ou --todos para tirar o limite.", err=True)
        sys.exit(2)
    escopo = _executar(lambda: Escopo.de(cnpjs, raizes))
    repositorio = _anunciado(Repositorio(banco))
    try:
        _executar(lambda: Acesso(repositorio).definir_clientes(nome, escopo, _quem_administra()))
    finally:
        repositorio.fechar()
    descricao = escopo.descricao() if escopo is not None else "todos"
    click.echo(f"Clientes de {nome!r}: {descricao}; {ENCERRADOS}.", err=True)


@usuarios.command(options_metavar="[OPÇÕES]")
@click.argument("nome", metavar="NOME")
@click.option(
    "--endereco",
    is_flag=True,
    help="NOME é um endereço IP (um IPv6 vale por toda a sua rede /64), não um usuário.",
)
@OPCAO_BANCO
def desbloquear(nome: str, endereco: bool, banco: str | None) -> None:
    """Desbloqueia NOME, bloqueado por senhas erradas demais (a contagem recomeça); com
    --endereco, as entradas e os tokens desse endereço."""
    from multas.servicos.persistencia import Repositorio
    from multas.servicos.persistencia.acesso import Acesso

    repositorio = _anunciado(Repositorio(banco))
    try:
        havia = _executar(
            lambda: Acesso(repositorio).desbloquear(nome, _quem_administra(), endereco=endereco)
        )
    finally:
        repositorio.fechar()
    if havia:
        quem = "Endereço" if endereco else "Usuário"
        click.echo(f"{quem} {nome!r} desbloqueado.", err=True)
    else:
        click.echo(f"{nome!r} não estava bloqueado.", err=True)


@usuarios.command(options_metavar="[OPÇÕES]")
@click.argument("nome", metavar="NOME")
@OPCAO_BANCO
def desativar(nome: str, banco: str | None) -> None:
    """Desativa NOME: suas sessões, seus tokens e seu calendário privado deixam de valer na
    hora."""
    from multas.servicos.persistencia import Repositorio
    from multas.servicos.persistencia.acesso import Acesso

    repositorio = _anunciado(Repositorio(banco))
    try:
        _executar(lambda: Acesso(repositorio).desativar(nome, _quem_administra()))
    finally:
        repositorio.fechar()
    click.echo(f"Usuário {nome!r} desativado; {ENCERRADOS}.", err=True)


@usuarios.command(options_metavar="[OPÇÕES]")
@OPCAO_BANCO
def listar(banco: str | None) -> None:
    """Lista os usuários, seus papéis, se estão ativos e os clientes a que estão limitados."""
    from multas.servicos.persistencia import Repositorio
    from multas.servicos.persistencia.acesso import Acesso

    repositorio = _anunciado(Repositorio(banco))
    try:
        acesso = Acesso(repositorio)
        escopos = acesso.escopos()
        for nome, papel, ativo, criado, erro in acesso.listar():
            if erro is not None:  # listed, never hidden; its role is not to be trusted
                click.echo(f"{nome}\t?\tNÃO CONFERE\t{erro}")
                continue
            estado = "ativo" if ativo else "desativado"
            escopo = escopos.get(nome)
            clientes = escopo.descricao() if escopo is not None else "todos os clientes"
            click.echo(f"{nome}\t{papel}\t{estado}\tcriado em {criado:%d/%m/%Y}\t{clientes}")
    finally:
        repositorio.fechar()


@click.group(options_metavar="[OPÇÕES]", subcommand_metavar="COMANDO [ARGUMENTOS]...")
def banco() -> None:
    """O banco de dados: levar o banco antigo para a pasta de dados; papéis do PostgreSQL."""


@banco.command(options_metavar="[OPÇÕES]")
@click.argument(
    "antigo",
    metavar="[ARQUIVO]",
    type=click.Path(dir_okay=False, path_type=Path),
    default=ANTIGO,
)
def mover(antigo: Path) -> None:
    """Move o banco SQLite ARQUIVO (padrão: dados/multas.db, o padrão antigo, na pasta atual)
    para a pasta de dados do usuário, onde todo comando e o servidor o encontram, de qualquer
    pasta, sem MULTAS_DATABASE_URL nem --banco. Nada se perde: a cópia é inteira e o arquivo
    antigo fica ao lado, renomeado para ARQUIVO.movido. Se a pasta de dados já tem um banco,
    nada é movido. Só este comando move: os outros usam o antigo onde está, com um aviso."""
    from multas.servicos.pasta_de_dados import NaoMovido, caminho_visivel, mover_para_a_pasta

    try:
        novo, guardado = mover_para_a_pasta(antigo)
    except NaoMovido as erro:
        raise click.ClickException(str(erro)) from None
    click.echo(
        f"Banco: {caminho_visivel(guardado.with_name(antigo.name))} foi movido para "
        f"{caminho_visivel(novo)}, a pasta de dados do usuário (a mesma para "
        f"todo comando e para o servidor, de qualquer pasta); o arquivo antigo ficou em "
        f"{caminho_visivel(guardado)}, como cópia."
    )


@banco.command(options_metavar="[OPÇÕES]")
@click.option(
    "--admin",
    metavar="URL",
    required=True,
    help="Um papel que pode criar papéis (um superusuário, ou com CREATEROLE), só para esta "
    "preparação: cria os dois papéis abaixo e lhes dá os direitos.",
)
@click.option(
    "--banco",
    "aplicacao",
    metavar="URL",
    default=None,
    help="O papel da aplicação (padrão: MULTAS_DATABASE_URL): lê, salva e exclui, e na "
    "auditoria só insere.",
)
@click.option(
    "--banco-dono",
    "dono",
    metavar="URL",
    default=None,
    help="O papel dono das tabelas, que roda as migrações (padrão: MULTAS_DATABASE_URL_DONO).",
)
def preparar(admin: str, aplicacao: str | None, dono: str | None) -> None:
    """Prepara o PostgreSQL com dois papéis: o dono (MULTAS_DATABASE_URL_DONO), que cria as
    tabelas e roda as migrações, e a aplicação (MULTAS_DATABASE_URL), que não pode alterar
    nem desligar a auditoria, nem reinserir um registro excluído com o mesmo número. Os nomes
    e as senhas vêm das URLs (vão ao PostgreSQL como verificadores SCRAM, nunca em claro);
    pode ser rodado de novo (atualiza senhas e direitos)."""
    from multas.servicos.configuracao import carregar
    from multas.servicos.persistencia.papeis import preparar as fazer

    configuracao = carregar()
    aplicacao = aplicacao or configuracao.database_url
    dono = dono or configuracao.database_url_dono
    if not aplicacao or not dono:
        raise click.UsageError(
            "diga os dois papéis: --banco (ou MULTAS_DATABASE_URL) e --banco-dono (ou "
            "MULTAS_DATABASE_URL_DONO)"
        )
    for linha in _executar(lambda: fazer(admin, dono, aplicacao)):
        click.echo(f"- {linha}")
    click.echo(
        "Pronto. Inicie o servidor com MULTAS_DATABASE_URL (a aplicação) e "
        "MULTAS_DATABASE_URL_DONO (o dono)."
    )


# --- the bin (issue 20, item 4) --------------------------------------------------------------


@click.group(options_metavar="[OPÇÕES]", subcommand_metavar="COMANDO [ARGUMENTOS]...")
def lixeira() -> None:
    """Casos, processos e anos da carteira excluídos: ficam na lixeira, fora de toda consulta,
    e podem ser restaurados por um administrador durante o prazo; depois, 'multas manutencao
    purgar' os apaga."""


@lixeira.command("listar", options_metavar="[OPÇÕES]")
@OPCAO_BANCO
@click.option(
    "--formato", "-f", type=click.Choice(("texto", "json")), default="texto", show_default=True
)
def lixeira_listar(banco: str | None, formato: str) -> None:
    """O que está na lixeira, do excluído mais recente ao mais antigo, com o prazo para
    restaurar cada um."""
    from multas.nucleo.json_exato import despejar_json
    from multas.saidas.relatorio import horario_brasilia
    from multas.servicos.persistencia import Repositorio
    from multas.servicos.persistencia import lixeira as bin_

    repositorio = _anunciado(Repositorio(banco))
    try:
        itens = bin_.listar(repositorio)
    finally:
        repositorio.fechar()
    if formato == "json":
        click.echo(despejar_json([item.como_dict() for item in itens]))
        return
    if not itens:
        click.echo("A lixeira está vazia.")
        return
    for item in itens:
        click.echo(
            f"{item.tipo} {item.id}: {item.descricao}; excluído em "
            f"{horario_brasilia(item.excluido_em)}; pode ser restaurado até "
            f"{horario_brasilia(item.restaurar_ate)}"
        )


@lixeira.command("restaurar", options_metavar="[OPÇÕES]")
@click.argument("tipo", metavar="TIPO", type=click.Choice(("caso", "processo", "carteira")))
@click.argument("registro_id", metavar="ID", type=click.IntRange(min=1))
@OPCAO_BANCO
def lixeira_restaurar(tipo: str, registro_id: int, banco: str | None) -> None:
    """Traz de volta da lixeira o caso, processo ou ano da carteira TIPO nº ID (os números
    de 'multas lixeira listar'). É recusado, com o motivo, depois do prazo ou se outro registro
    ocupou a sua chave nesse meio-tempo (o mesmo CNPJ e ano, o mesmo id de processo)."""
    from multas.servicos.persistencia import Repositorio
    from multas.servicos.persistencia import lixeira as bin_

    repositorio = _anunciado(Repositorio(banco))
    try:
        item = _executar(lambda: bin_.restaurar(repositorio, tipo, registro_id, _quem_administra()))
    finally:
        repositorio.fechar()
    click.echo(f"Restaurado: {item.descricao}.")


@click.group(options_metavar="[OPÇÕES]", subcommand_metavar="COMANDO [ARGUMENTOS]...")
def manutencao() -> None:
    """Tarefas periódicas do administrador."""


@manutencao.command("purgar", options_metavar="[OPÇÕES]")
@OPCAO_BANCO
def purgar(banco: str | None) -> None:
    """Apaga de vez o que está na lixeira há mais do que o prazo de restauração (pela data de
    hoje), e o que importações em partes interrompidas deixaram. A auditoria registra cada um;
    um processo vai com os seus eventos. Rode-a, por exemplo, uma vez por dia."""
    from multas.servicos.persistencia import Repositorio, cargas
    from multas.servicos.persistencia import lixeira as bin_

    repositorio = _anunciado(Repositorio(banco))
    try:
        apagados = bin_.purgar(repositorio, _quem_administra())
        # and what imports in parts left: an interrupted one is undone, the rows no view
        # shows are erased
        sobras = cargas.limpar(repositorio, _quem_administra())
    finally:
        repositorio.fechar()
    if sobras:
        click.echo(f"Sobras de importações em partes apagadas ou liberadas: {sobras} linha(s).")
    nomes = {"caso": "caso(s)", "processo": "processo(s)", "carteira": "ano(s) da carteira"}
    total = sum(apagados.values())
    if not total:
        click.echo(
            f"Nada a apagar: a lixeira não tem registro excluído há mais de "
            f"{bin_.DIAS_NA_LIXEIRA} dias."
        )
        return
    partes = ", ".join(f"{n} {nomes[tipo]}" for tipo, n in apagados.items() if n)
    click.echo(f"Apagados de vez: {partes}.")
