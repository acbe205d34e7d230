"""``multas carteira``: the distributor's ledger (import, save, show, export, delete,
reconcile with the ANP's notice, the CBIO retirements)."""

from __future__ import annotations

import sys
from typing import Any

from multas.saidas.idioma import falar_portugues

falar_portugues()

import click  # noqa: E402

from multas.cli.comum import (  # noqa: E402
    _BANCO,
    _FORMATO_TEXTO_JSON,
    _LEITURAS_DA_CARTEIRA,
    _PTBR_SAIDA,
    _USUARIO,
    ANO_DA_META,
    _ciclo,
    _eco,
    _falhar,
    _leituras_da_carteira,
    _ler_texto,
    _usuario,
    avisos_da_leitura,
    leitura_do_arquivo,
    opcoes_do_arquivo,
)
from multas.nucleo.erros import EntradaInvalida  # noqa: E402
from multas.nucleo.json_exato import despejar_json, ler_json  # noqa: E402


@click.group(options_metavar="[OPÇÕES]", subcommand_metavar="COMANDO [ARGUMENTOS]...")
def carteira() -> None:
    """A carteira do distribuidor: meta, CBIOs, falta levada ao ano seguinte, multa por ano."""


@carteira.command("importar", options_metavar="[OPÇÕES]")
@click.argument("arquivo", type=click.Path(exists=True, dir_okay=False))
@click.option("--ptbr", is_flag=True, help="CSV com ';' e números 1.234,56.")
@click.option(
    "--cotacoes",
    type=click.Path(exists=True, dir_okay=False),
    help="Cotações do CBIO (colunas data,preco diárias ou mes,media mensais, como em multas "
    "ano calcular e multas lote): cada ano sem preço próprio (maior_media_mensal) guarda as "
    "cotações do seu ano, e a multa sai da maior média mensal, exata.",
)
@opcoes_do_arquivo()
@_BANCO
@_USUARIO
def carteira_importar(
    arquivo: str,
    ptbr: bool,
    cotacoes: str | None,
    banco: str | None,
    usuario: str | None,
    **opcoes: Any,
) -> None:
    """Importa anos da carteira de um CSV, XLSX, JSON ou JSON Lines (uma linha por CNPJ e
    ano); um erro em qualquer linha não grava nada. O cabeçalho, a codificação, o separador e
    os números são detectados (docs/arquivos.md); as colunas que a carteira não conhece ficam
    de fora."""
    from pathlib import Path

    from multas.nucleo.arquivos import LINHA_DE_COMANDO
    from multas.nucleo.ciclo.planilha import colunas_da_carteira, colunas_fora, ler_planilha

    caminho = Path(arquivo)
    try:
        dialeto, mapa = leitura_do_arquivo(opcoes)
        lida = ler_planilha(
            caminho.read_bytes(),
            caminho.name,
            ptbr,
            LINHA_DE_COMANDO,
            dialeto=dialeto,
            colunas=colunas_da_carteira(mapa),
        )
        avisos_da_leitura(caminho.name, [*lida.avisos, *colunas_fora(lida.desconhecidas)])
        serie = None if cotacoes is None else _ler_cotacoes(Path(cotacoes), ptbr)
        resumo = _ciclo(banco).importar_planilha(lida, _usuario(usuario), serie)
    except EntradaInvalida as erro:
        _falhar(erro)
    click.echo(despejar_json(resumo))


def _ler_cotacoes(caminho: Any, ptbr: bool) -> Any:
    """``--cotacoes``, read as ``multas ano calcular`` reads it; an error names the option."""
    from multas.nucleo.arquivos import LINHA_DE_COMANDO
    from multas.nucleo.ciclo.planilha import ler_cotacoes

    try:
        conteudo = caminho.read_bytes()
    except OSError as erro:
        raise EntradaInvalida(
            "--cotacoes", f"não foi possível ler {caminho.name} ({erro.strerror})"
        ) from None
    try:
        return ler_cotacoes(conteudo, caminho.name, ptbr, LINHA_DE_COMANDO)[0]
    except EntradaInvalida as erro:
        onde = f"{caminho.name}: " if caminho.name not in erro.mensagem else ""
        raise EntradaInvalida("--cotacoes", f"{onde}{erro.mensagem}") from None


@carteira.command("salvar", options_metavar="[OPÇÕES]")
@click.argument(
    "entrada", type=click.Path(exists=True, dir_okay=False, allow_dash=True), default="-"
)
@_FORMATO_TEXTO_JSON
@_BANCO
@_USUARIO
def carteira_salvar(entrada: str, formato: str, banco: str | None, usuario: str | None) -> None:
    """Salva (ou substitui) um ano da carteira, dado em JSON, e mostra a carteira, como
    multas carteira mostrar (--formato json: o JSON)."""
    try:
        resultado = _ciclo(banco).salvar_ano(ler_json(_ler_texto(entrada)), _usuario(usuario))
    except EntradaInvalida as erro:
        _falhar(erro)
    if formato == "json":
        click.echo(despejar_json(resultado))
    else:
        from multas.saidas.texto import carteira_texto

        _eco(carteira_texto(resultado), nl=False)


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
@click.option("--ano", "ano_meta", type=ANO_DA_META, required=True, help="Ano a excluir.")
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
@click.option("--ano", "ano_meta", type=ANO_DA_META, required=True, help="Ano da meta.")
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
@click.option("--ano", "ano_meta", type=ANO_DA_META, required=True, help="Ano da meta (já salvo).")
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
