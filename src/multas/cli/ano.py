"""``multas ano``: the RenovaBio year at once, a fine for every obliged distributor."""

from __future__ import annotations

import sys
from typing import Any

from multas.saidas.idioma import falar_portugues

falar_portugues()

import click  # noqa: E402

from multas.cli.comum import (  # noqa: E402
    _BANCO,
    _USUARIO,
    ANO_DA_META,
    DataBR,
    _ciclo,
    _falhar,
    _leituras_da_carteira,
    _usuario,
    avisos_da_leitura,
    leitura_do_arquivo,
    opcoes_do_arquivo,
)
from multas.nucleo.erros import AJUDA_CODIGOS_DE_SAIDA, EntradaInvalida  # noqa: E402
from multas.nucleo.json_exato import despejar_json  # noqa: E402


@click.group(options_metavar="[OPÇÕES]", subcommand_metavar="COMANDO [ARGUMENTOS]...")
def ano() -> None:
    """O ano do RenovaBio de uma vez: a multa de cada distribuidor obrigado, com o preço das
    cotações do CBIO."""


@ano.command("calcular", options_metavar="[OPÇÕES]", epilog=AJUDA_CODIGOS_DE_SAIDA)
@click.argument("entrada", type=click.Path(exists=True, dir_okay=False))
@click.option("--ano", "ano_meta", type=ANO_DA_META, required=True, help="Ano da meta.")
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
    help="A coluna do preço diário, para a média simples (sem a coluna preco, o preco_medio "
    "do resumo diário da B3). Com quantidade e valor_financeiro em todas as cotações, a média "
    "padrão é a ponderada pelo volume (interpretacao media_mensal).",
)
@click.option(
    "--saida",
    type=click.Path(file_okay=False),
    default=None,
    help="Pasta dos resultados (padrão: ano-AAAA), substituída inteira a cada execução.",
)
@click.option(
    "--data-notificacao",
    type=DataBR("data_notificacao"),
    default=None,
    help="Data da notificação: os prazos das notificações contam dela (sem ela, só as regras)"
    " (dd/mm/aaaa, ddmmaaaa ou aaaa-mm-dd).",
)
@click.option(
    "--modelo",
    type=click.Path(),
    default=None,
    metavar="PASTA",
    help="Pasta com os modelos Jinja2 das notificações (cabecalho.html, assinatura.html) que "
    "substituem os padrão: o timbre e a assinatura da unidade.",
)
@click.option(
    "--assinatura-nome", default=None, metavar="NOME", help="Nome de quem assina as notificações."
)
@click.option(
    "--assinatura-cargo",
    default=None,
    metavar="CARGO",
    help="Cargo de quem assina as notificações.",
)
@click.option(
    "--fonte-cotacoes",
    default=None,
    metavar="FONTE",
    help="A fonte das cotações dita nas notificações (padrão: o nome do arquivo das cotações).",
)
@click.option(
    "--anexo-cotacoes",
    is_flag=True,
    help="Anexa a cada notificação a lista das cotações diárias do exercício.",
)
@click.option(
    "--ptbr",
    is_flag=True,
    help="Os dois CSV com ';' e números 1.234,56 (as opções de cada arquivo prevalecem).",
)
@opcoes_do_arquivo("", "da ENTRADA")
@opcoes_do_arquivo("-cotacoes", "das cotações")
@click.option(
    "--interpretacao",
    "-i",
    "leituras",
    multiple=True,
    metavar="CHAVE=OPCAO",
    help="As leituras da carteira (preco_diferido=ano_seguinte|ano_diferimento; "
    "diferimento_excedente=nenhum|parcial; ...) e, com --salvar, "
    "data_infracao_meta=dia_seguinte|prazo: a data da infração dos processos anp abertos "
    "(padrão: o primeiro).",
)
@click.option(
    "--salvar",
    is_flag=True,
    help="Salva o ano de cada distribuidor na carteira e abre, de cada multado, o processo "
    "sancionador (anp) e o da lista de sanções (tudo ou nada).",
)
@click.option(
    "--referencias",
    type=click.Path(exists=True, dir_okay=False),
    default=None,
    help="Com --salvar: o número (id) do processo anp de cada distribuidor, num CSV com as "
    "colunas cnpj,id (ou a coluna id da ENTRADA).",
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
    modelo: str | None,
    assinatura_nome: str | None,
    assinatura_cargo: str | None,
    fonte_cotacoes: str | None,
    anexo_cotacoes: bool,
    ptbr: bool,
    leituras: tuple[str, ...],
    salvar: bool,
    referencias: str | None,
    substituir: bool,
    progresso: bool | None,
    banco: str | None,
    usuario: str | None,
    **opcoes: Any,
) -> None:
    """Calcula o ano: uma linha por distribuidor em ENTRADA (CSV, XLSX, JSON ou JSON Lines).
    Com --salvar, abre também o processo anp de cada multado (a infração no dia seguinte ao
    prazo, o auto na data da notificação) e o resumo diz quantos processos de cada tipo foram
    abertos, e por que nenhum.
    Grava na pasta de saída resultado.csv (as colunas da entrada e o resultado, na mesma
    ordem, com o erro de cada linha), o mesmo em resultado.xlsx (células com tipo) e em
    resultado-ptbr.csv (';' e 1.234,56), resumo.json, resumo.pdf e, em notificacoes/, um PDF por
    distribuidor multado. A pasta é substituída inteira: nada de uma execução anterior fica
    nela (uma pasta com outros arquivos é recusada). A codificação, o separador e os números de
    cada arquivo são detectados (as opções de cada um prevalecem), o cabeçalho é a primeira linha
    que nomeia o CNPJ (ou data e mes, nas cotações). Código de saída 3 se alguma linha teve erro
    (os arquivos são gravados mesmo assim)."""
    from pathlib import Path

    from multas.nucleo.arquivos import LINHA_DE_COMANDO
    from multas.nucleo.ciclo.planilha import Colunas, ler_cotacoes, ler_planilha
    from multas.nucleo.legislacao import carregar
    from multas.saidas.progresso import barra
    from multas.servicos.ano import (
        COLUNAS_ENTRADA,
        NOTIFICACOES,
        arquivo_da_saida,
        avisos_das_notificacoes,
        calcular_ano,
        escrever_resultado_csv,
        notificacoes,
        resumo_pdf,
    )
    from multas.servicos.ano_planilhas import (
        RESULTADO_PTBR,
        RESULTADO_XLSX,
        escrever_resultado_ptbr,
        resultado_xlsx,
    )
    from multas.servicos.autos_do_ano import AutoDoAno, autos_do_ano, ler_referencias
    from multas.servicos.notificacao import CAMPOS_DA_NOTIFICACAO, carregar_modelos
    from multas.servicos.pastas import conferir_pasta, pasta_substituida

    pasta = Path(saida or f"ano-{ano_meta}")
    autos: list[AutoDoAno] = []
    try:
        conferir_pasta(pasta, arquivo_da_saida)  # before the run, not after it
        modelos = carregar_modelos(modelo)  # a bad template: before the run too
        pares = _leituras_da_carteira(leituras)
        # spec § 6.3 v4: the autos' reading, not the ledger's
        data_infracao = pares.pop("data_infracao_meta", None)
        if data_infracao is not None and not salvar:
            raise EntradaInvalida(
                "interpretacao.data_infracao_meta",
                "só vale com --salvar: decide a data da infração dos processos que o ano abre",
            )
        if referencias is not None and not salvar:
            raise EntradaInvalida("--referencias", "só vale com --salvar")
        dialeto, mapa = leitura_do_arquivo(opcoes)
        dialeto_cotacoes, mapa_cotacoes = leitura_do_arquivo(opcoes, "-cotacoes")
        arquivo_cotacoes = Path(cotacoes)
        serie, lidas = ler_cotacoes(
            arquivo_cotacoes.read_bytes(),
            arquivo_cotacoes.name,
            ptbr,
            LINHA_DE_COMANDO,
            coluna_preco=coluna_preco,
            dialeto=dialeto_cotacoes,
            mapa=mapa_cotacoes,
        )
        if isinstance(data_notificacao, EntradaInvalida):
            raise data_notificacao
        notificada = data_notificacao
        caminho = Path(entrada)
        colunas = Colunas((*COLUNAS_ENTRADA, *CAMPOS_DA_NOTIFICACAO), mapa=mapa)
        lida = ler_planilha(
            caminho.read_bytes(),
            caminho.name,
            ptbr,
            LINHA_DE_COMANDO,
            dialeto=dialeto,
            colunas=colunas,
        )
        legislacao = carregar()
        # a date past 31/12/9999 is refused here; the deadlines' aviso goes to the summary
        avisos_dos_prazos = avisos_das_notificacoes(legislacao, ano_meta, notificada)
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
        if salvar:  # the autos checked before any file is written (a notice before the infração)
            do_arquivo = {}
            if referencias is not None:
                arquivo_referencias = Path(referencias)
                do_arquivo = ler_referencias(
                    ler_planilha(
                        arquivo_referencias.read_bytes(),
                        arquivo_referencias.name,
                        False,
                        LINHA_DE_COMANDO,
                    )
                )
            autos = autos_do_ano(
                resultado, legislacao, data_infracao or "dia_seguinte", notificada, do_arquivo
            )
    except EntradaInvalida as erro:
        _falhar(erro)
    # what each file's reader left out of the rows, and how it read it: in the summary too
    # what the notices do not say in the ANP's voice, the regulator reads here (spec § 3.5 v3)
    resultado["resumo"]["avisos_das_notificacoes"] = avisos_dos_prazos
    resultado["resumo"]["arquivos"] = {
        "entrada": {"avisos": list(lida.avisos), "colunas_levadas": list(lida.desconhecidas)},
        "cotacoes": {"avisos": list(lidas.avisos), "colunas_levadas": list(lidas.desconhecidas)},
    }
    try:
        # the folder is replaced whole: no notice of an earlier run stays beside these
        with pasta_substituida(pasta, arquivo_da_saida) as nova:
            with (nova / "resultado.csv").open("w", encoding="utf-8", newline="") as destino:
                escrever_resultado_csv(destino, lida.linhas, resultado)
            # the same rows and columns for spreadsheets: typed XLSX, pt-BR CSV (docs/ano.md)
            (nova / RESULTADO_XLSX).write_bytes(resultado_xlsx(lida.linhas, resultado))
            with (nova / RESULTADO_PTBR).open("w", encoding="utf-8", newline="") as destino:
                escrever_resultado_ptbr(destino, lida.linhas, resultado)
            (nova / "resumo.json").write_text(
                despejar_json(resultado["resumo"]) + "\n", encoding="utf-8"
            )
            # dated the notice's day, else today (the clock): its CreationDate
            (nova / "resumo.pdf").write_bytes(
                resumo_pdf(resultado["resumo"], notificada or _hoje())
            )
            (nova / NOTIFICACOES).mkdir()
            with barra(progresso) as aberta:
                avancar = None if aberta is None else aberta.etapa("notificações")
                from multas.servicos.em_paralelo import nucleos

                for nome, pdf in notificacoes(
                    resultado,
                    ano_meta,
                    legislacao,
                    notificada,
                    avancar,
                    modelos=modelos,
                    pasta_modelos=str(Path(modelo).resolve()) if modelo else "",
                    assinatura=(assinatura_nome, assinatura_cargo),
                    fonte_cotacoes=fonte_cotacoes or f"arquivo {arquivo_cotacoes.name}",
                    anexo_cotacoes=anexo_cotacoes,
                    processos=nucleos(),
                ):
                    (nova / NOTIFICACOES / nome).write_bytes(pdf)
    except EntradaInvalida as erro:
        _falhar(erro)
    except OSError as erro:
        _falhar(
            EntradaInvalida(
                "--saida", f"não foi possível gravar a pasta {pasta} ({erro.strerror or erro})"
            )
        )
    r = resultado["resumo"]
    click.echo(_texto_do_resumo(r, pasta))
    if salvar:  # after the files: a row's error is in resultado.csv
        try:
            salvo = _ciclo(banco).salvar_ano_renovabio(
                resultado, _usuario(usuario), substituir, autos
            )
        except EntradaInvalida as erro:
            _falhar(erro)
        # what the save opened, in the summary too
        r["processos"] = {"anp": salvo["anp"], "lista": salvo["lista"]}
        try:
            (pasta / "resumo.json").write_text(despejar_json(r) + "\n", encoding="utf-8")
        except OSError as erro:
            _falhar(
                EntradaInvalida(
                    "--saida", f"não foi possível gravar {pasta}/resumo.json ({erro.strerror})"
                )
            )
        click.echo(_texto_do_salvo(salvo))
    avisos_da_leitura(caminho.name, lida.avisos)
    if lida.desconhecidas:
        avisos_da_leitura(
            caminho.name, [f"colunas levadas à saída como estão: {', '.join(lida.desconhecidas)}"]
        )
    avisos_da_leitura(arquivo_cotacoes.name, lidas.avisos)
    avisos_da_leitura("prazos das notificações", avisos_dos_prazos)
    if r["com_erro"]:
        click.echo(
            f"Erro: {r['com_erro']} de {r['distribuidores']} linhas com erro (a coluna erro de "
            f"{pasta}/resultado.csv diz o de cada uma).",
            err=True,
        )
        from multas.nucleo.erros import SAIDA_LINHAS_COM_ERRO

        sys.exit(SAIDA_LINHAS_COM_ERRO)


def _hoje() -> Any:
    from multas.servicos.relogio import hoje

    return hoje()


def _texto_do_resumo(r: dict[str, Any], pasta: Any) -> str:
    """The year in a line, then one line per other reading of the fine that changes the total."""
    from decimal import Decimal

    from multas.nucleo.datas import formatar_mes
    from multas.nucleo.dinheiro import formatar_brl, formatar_preco

    linhas = [
        f"{r['distribuidores']} distribuidores em {r['ano']}: {r['cumpriram']} cumpriram a "
        f"meta, {r['diferiram']} diferiram, {r['multados']} multados, {r['com_erro']} com erro; "
        f"multas somadas {formatar_brl(Decimal(r['total_multas']))}; preço "
        f"{formatar_preco(r['preco'])} ({formatar_mes(r['mes_do_preco'])}, média "
        f"{r['preco_metodo']}, {r['preco_fonte']}). "
        f"Resultados em {pasta}/."
    ]
    for alternativa in r["alternativas"]:
        (chave, opcao), *_ = alternativa["interpretacao"].items()
        linhas.append(
            f"Na leitura {chave}={opcao}, as multas somariam "
            f"{formatar_brl(Decimal(alternativa['total_multas']))}."
        )
    return "\n".join(linhas)


def _texto_do_salvo(salvo: dict[str, Any]) -> str:
    """What ``--salvar`` stored, in a line: the years, and each kind of processo opened (and
    why none was)."""
    anp, lista = salvo["anp"], salvo["lista"]
    texto = (
        f"Salvos na carteira: {salvo['anos']} anos; processos sancionadores (anp) abertos: "
        f"{len(anp['abertos'])}, já existentes: {anp['ja_existentes']}"
    )
    if anp["motivo"]:
        texto += f" ({anp['motivo']})"
    texto += f"; processos da lista de sanções abertos: {len(lista['abertos'])}"
    if lista["ja_existentes"]:
        texto += f", já existentes: {lista['ja_existentes']}"
    if lista["motivo"]:
        texto += f" ({lista['motivo']})"
    return "\n".join([texto + ".", *(f"Aviso: {a}." for a in lista["avisos"])])
