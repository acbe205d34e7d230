"""The batch adapter's commands: ``multas lote`` (a file of cases, in order, exact) and
``multas exposicao`` (the distribution of a distributor's fine under CBIO price scenarios).

Heavy modules (pyarrow, NumPy, Dask) are imported inside the commands: ``multas`` starts fast.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from multas.saidas.idioma import falar_portugues

falar_portugues()

import click  # noqa: E402

from multas.nucleo import erros as _saida  # noqa: E402  (the exit codes and their --help)
from multas.nucleo.arquivos import LOTE, MIB  # noqa: E402
from multas.nucleo.erros import EntradaInvalida  # noqa: E402
from multas.nucleo.json_exato import despejar_json, ler_json  # noqa: E402
from multas.nucleo.motor import ler_interpretacao_pares  # noqa: E402
from multas.saidas.opcoes import leitura_do_arquivo, opcoes_do_arquivo  # noqa: E402

if TYPE_CHECKING:
    from multas.nucleo.cotacoes import Serie


def ler_selic(caminho: Path, ptbr: bool = False) -> dict[str, Decimal]:
    """``--selic``: a CSV with the columns ``mes`` (AAAA-MM) and ``taxa`` (the month's Selic,
    in percent), validated as the contract's ``taxas_selic`` (spec §§ 3.5 and 4). With
    ``--ptbr`` the file uses ';' and decimal commas."""
    import csv

    from multas.nucleo.contrato import Campo, Leitura, ler_valor
    from multas.nucleo.dinheiro import normalizar_ptbr

    campo = "--selic"
    try:
        texto = caminho.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise EntradaInvalida(campo, f"{caminho.name} não está em UTF-8") from None
    except OSError as erro:
        raise EntradaInvalida(
            campo, f"não foi possível ler {caminho.name} ({erro.strerror})"
        ) from None
    linhas = csv.reader(texto.splitlines(), delimiter=";" if ptbr else ",")
    cabecalho = [c.strip().lower() for c in next(linhas, [])]
    if "mes" not in cabecalho or "taxa" not in cabecalho:
        raise EntradaInvalida(campo, f"{caminho.name} precisa das colunas mes e taxa")
    i_mes, i_taxa = cabecalho.index("mes"), cabecalho.index("taxa")
    taxas: dict[str, str] = {}
    for numero, linha in enumerate(linhas, 2):
        if not any(c.strip() for c in linha):
            continue
        if len(linha) != len(cabecalho):
            raise EntradaInvalida(
                campo, f"linha {numero}: {len(linha)} colunas, esperadas {len(cabecalho)}"
            )
        mes, taxa = linha[i_mes].strip(), linha[i_taxa].strip()
        if mes in taxas:
            raise EntradaInvalida(campo, f"linha {numero}: mês repetido: {mes}")
        taxas[mes] = normalizar_ptbr(taxa) if ptbr else taxa
    try:
        lidas: dict[str, Decimal] = ler_valor(
            taxas, Campo("taxas_selic", "taxas_mensais", "", False, 0), Leitura(tabela=True)
        )
    except EntradaInvalida as erro:
        raise EntradaInvalida(campo, f"{erro.campo}: {erro.mensagem}") from None
    return lidas


def ler_cotacoes(caminho: Path, ptbr: bool = False, coluna_preco: str = "preco") -> Serie:
    """``--cotacoes``: the CBIO quotes, daily (``data`` and ``coluna_preco``) or monthly means
    (``mes`` and ``media``), read by the very reader of ``multas ano calcular``
    (:func:`multas.nucleo.ciclo.planilha.ler_cotacoes`: B3's headers, the file's encoding and
    notation detected). An error names the option, then the file, its line and column."""
    from multas.nucleo.arquivos import LINHA_DE_COMANDO
    from multas.nucleo.ciclo.planilha import ler_cotacoes

    campo = "--cotacoes"
    try:
        conteudo = caminho.read_bytes()
    except OSError as erro:
        raise EntradaInvalida(
            campo, f"não foi possível ler {caminho.name} ({erro.strerror})"
        ) from None
    try:
        serie, _ = ler_cotacoes(
            conteudo, caminho.name, ptbr, LINHA_DE_COMANDO, coluna_preco=coluna_preco
        )
        return serie
    except EntradaInvalida as erro:
        onde = f"{caminho.name}: " if caminho.name not in erro.mensagem else ""
        raise EntradaInvalida(campo, f"{onde}{erro.mensagem}") from None


def _opcao_cotacoes(
    regime: str, cotacoes: str | None, coluna_preco: str, ptbr: bool
) -> Serie | None:
    """``--cotacoes`` (and ``--coluna-preco``) checked against the regime, and read."""
    from multas.lote.processar import CAMPO_DO_ANO

    if cotacoes is None:
        if coluna_preco != "preco":
            raise EntradaInvalida("--coluna-preco", "só vale com --cotacoes")
        return None
    if regime not in CAMPO_DO_ANO:
        raise EntradaInvalida(
            "--cotacoes", f"só vale para o regime {', '.join(sorted(CAMPO_DO_ANO))}"
        )
    return ler_cotacoes(Path(cotacoes), ptbr, coluna_preco)


#: ``--dias-sem-expediente``: at most this many bytes (a list of dates is small)
LIMITE_DIAS_SEM_EXPEDIENTE = 64 * 1024


def ler_dias_sem_expediente(caminho: Path) -> list[str]:
    """``--dias-sem-expediente``: one date (AAAA-MM-DD) a line, given to every row of
    ``anp.mora`` (spec § 4); blank lines are skipped. Validated as the contract's list."""
    campo = "--dias-sem-expediente"
    try:
        with caminho.open("rb") as arquivo:
            bruto = arquivo.read(LIMITE_DIAS_SEM_EXPEDIENTE + 1)
    except OSError as erro:
        raise EntradaInvalida(
            campo, f"não foi possível ler {caminho.name} ({erro.strerror})"
        ) from None
    if len(bruto) > LIMITE_DIAS_SEM_EXPEDIENTE:
        raise EntradaInvalida(campo, f"{caminho.name} passa de {LIMITE_DIAS_SEM_EXPEDIENTE} bytes")
    try:
        texto = bruto.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise EntradaInvalida(campo, f"{caminho.name} não está em UTF-8") from None
    from multas.nucleo.contrato import MAXIMO_DATAS
    from multas.nucleo.datas import para_data

    datas = set()
    for numero, linha in enumerate(texto.splitlines(), 1):
        if not linha.strip():
            continue
        try:
            datas.add(para_data(linha.strip(), f"linha {numero}"))
        except EntradaInvalida as erro:
            raise EntradaInvalida(campo, f"{erro.campo}: {erro.mensagem}") from None
    if len(datas) > MAXIMO_DATAS:
        raise EntradaInvalida(campo, f"no máximo {MAXIMO_DATAS} datas")
    return [d.isoformat() for d in sorted(datas)]


def _alocador_para_lotes() -> bool:
    """Keep freed memory in this process (glibc's ``mallopt``; nothing elsewhere).

    The kernel computes each block through temporary arrays of a few hundred KiB. By default
    glibc gives every one of them its own ``mmap`` and returns the top of the heap to the
    system as soon as 128 KiB are free, so each temporary costs page faults: about 40 000 per
    million rows, and the kernel took twice as long (``bench/lote_vs_io.py``). A batch is a
    process of its own, so the command (never the library) raises both thresholds: arrays up
    to 32 MiB come from the heap, and freed memory is kept for the next block.
    """
    if not sys.platform.startswith("linux"):
        return False
    import ctypes

    try:
        mallopt = ctypes.CDLL("libc.so.6").mallopt
    except (OSError, AttributeError):  # not glibc (musl, say): its defaults stay
        return False
    m_trim_threshold, m_mmap_threshold = -1, -3  # <malloc.h>
    return bool(mallopt(m_mmap_threshold, 32 * 2**20) and mallopt(m_trim_threshold, 512 * 2**20))


def _opcoes_dask(comando: Callable[..., Any]) -> Callable[..., Any]:
    """--dask and --trabalhadores, the same for lote and exposicao."""
    comando = click.option(
        "--trabalhadores",
        type=click.IntRange(1),
        metavar="N",
        default=2,
        show_default=True,
        help="Processos do cluster Dask local.",
    )(comando)
    return click.option(
        "--dask",
        "endereco_dask",
        metavar="ENDERECO",
        help="Agendador Dask, ex.: tcp://10.0.0.5:8786.",
    )(comando)


def _falhar_uso(erro: EntradaInvalida) -> NoReturn:
    from multas.nucleo.arquivos import diz_a_coluna

    onde = f" no campo '{erro.campo}'" if erro.campo and not diz_a_coluna(erro) else ""
    click.echo(f"Erro{onde}: {erro.mensagem}", err=True)
    sys.exit(2)


@click.command(options_metavar="[OPÇÕES]", epilog=_saida.AJUDA_CODIGOS_DE_SAIDA)
@click.argument("entrada")
@click.option(
    "--regime",
    "-r",
    required=True,
    metavar="REGIME",
    help="O regime de todas as linhas (multas regimes).",
)
@click.option(
    "--saida",
    "-o",
    required=True,
    metavar="SAIDA",
    help="Arquivo de saída, no formato da entrada (.csv, .xlsx, .parquet, .jsonl); com "
    "entrada particionada, a pasta de saída (caminho ou URL).",
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
@opcoes_do_arquivo("", "da ENTRADA")
@click.option(
    "--selic",
    type=click.Path(exists=True, dir_okay=False),
    help="anp.mora: CSV com as colunas mes (AAAA-MM) e taxa (Selic do mês, em %), "
    "dada a todas as linhas (leitura encargos=lei-10522).",
)
@click.option(
    "--dias-sem-expediente",
    "dias_sem_expediente",
    type=click.Path(exists=True, dir_okay=False),
    help="anp.mora: arquivo com uma data (AAAA-MM-DD) por linha, dias sem expediente na "
    "repartição somados aos de cada linha (coluna dias_sem_expediente).",
)
@click.option(
    "--cotacoes",
    type=click.Path(exists=True, dir_okay=False),
    help="renovabio.distribuidor: cotações do CBIO (colunas data,preco diárias ou mes,media "
    "mensais, como em multas ano calcular); o preço de cada linha é a maior média mensal do "
    "ano da meta (ano_meta), exata. Uma linha que também traz maior_media_mensal é erro.",
)
@click.option(
    "--coluna-preco",
    default="preco",
    metavar="COLUNA",
    show_default=True,
    help="Com --cotacoes: a coluna do preço diário (no resumo diário da B3: preco_medio).",
)
@click.option(
    "--executor",
    type=click.Choice(("local", "dask")),
    default="local",
    show_default=True,
    help="dask: um cluster Dask local (ou o de --dask).",
)
@_opcoes_dask
@click.option(
    "--nucleos",
    type=click.IntRange(1),
    metavar="N",
    help="Núcleos do cálculo local (padrão: todos os disponíveis).",
)
@click.option(
    "--linhas-por-bloco",
    type=click.IntRange(1),
    metavar="N",
    default=262_144,
    show_default=True,
    help="Linhas lidas e processadas de cada vez (memória limitada).",
)
@click.option(
    "--limite-descompactado",
    type=click.IntRange(1),
    metavar="MIB",
    default=LOTE.descompactado // MIB,
    show_default=True,
    help="Quanto um XLSX pode ocupar descompactado (todas as partes), em MiB; acima disso, "
    "é recusado antes de ser lido.",
)
@click.option(
    "--limite-celulas",
    type=click.IntRange(1),
    metavar="N",
    default=LOTE.celulas,
    show_default=True,
    help="Células de um XLSX, contando as vazias até a última de cada linha.",
)
@click.option(
    "--limite-texto",
    type=click.IntRange(1),
    metavar="N",
    default=LOTE.texto,
    show_default=True,
    help="Caracteres de uma célula (CSV, XLSX) e bytes de uma linha do JSON Lines.",
)
@click.option(
    "--sem-neutralizar-formulas",
    "confiar_celulas",
    is_flag=True,
    help="Grava células que parecem fórmulas (=, +, -, @) como vieram, sem o apóstrofo (CSV) "
    "nem o tipo texto (XLSX); o cabeçalho continua neutralizado. Só para fluxos confiáveis que "
    "não abrem a saída numa planilha.",
)
@click.option(
    "--xlsx-dinheiro-texto",
    is_flag=True,
    help="No XLSX, grava o dinheiro como texto (1234.56; com --ptbr, 1234,56) e as datas no "
    'formato padrão, como antes; sem ela, dinheiro é célula numérica ("R$" #,##0.00) e datas '
    "aparecem dd/mm/aaaa.",
)
@click.option(
    "--exigir-kernel",
    is_flag=True,
    help="Termina com erro (código 2) se alguma linha válida foi calculada pelo motor escalar "
    "em vez do kernel (um regime sem kernel, uma lei que o kernel não aceita, valores fora "
    "dos seus limites), dizendo quantas e por quê.",
)
@click.option(
    "--progresso/--sem-progresso",
    "mostrar_progresso",
    default=None,
    help="Progresso na saída de erro: a fase (lendo, calculando, gravando), as linhas, o "
    "percentual e a taxa; numa barra se ela é um terminal, em linhas de texto se é um "
    "arquivo (padrão: só num terminal).",
)
def lote(
    entrada: str,
    regime: str,
    saida: str,
    interpretacao: tuple[str, ...],
    ptbr: bool,
    selic: str | None,
    dias_sem_expediente: str | None,
    cotacoes: str | None,
    coluna_preco: str,
    executor: str,
    endereco_dask: str | None,
    trabalhadores: int,
    nucleos: int | None,
    linhas_por_bloco: int,
    limite_descompactado: int,
    limite_celulas: int,
    limite_texto: int,
    confiar_celulas: bool,
    xlsx_dinheiro_texto: bool,
    exigir_kernel: bool,
    mostrar_progresso: bool | None,
    **opcoes: Any,
) -> None:
    """Calcula cada linha de ENTRADA (CSV, XLSX, Parquet ou JSON Lines) e grava SAIDA.

    O cabeçalho (a primeira linha que nomeia um campo do regime ou o CNPJ), a codificação, o
    separador e os números de um CSV são detectados (docs/arquivos.md); os títulos acima do
    cabeçalho e as notas depois da tabela ficam fora, ditos no resumo.

    A saída tem todas as colunas da entrada, depois valor e as saídas do regime, depois erro
    (vazio quando a linha foi calculada), na ordem da entrada. Código de saída: 0 se todas as
    linhas foram calculadas; 2 se alguma teve erro (o arquivo é gravado mesmo assim) ou se os
    argumentos não servem.

    ENTRADA particionada (uma pasta, um glob como 'dados/*.parquet' ou uma URL do fsspec como
    s3://balde/dados/): SAIDA é uma pasta com um arquivo de saída para cada arquivo de entrada
    (mesmo nome e formato) e, por último, o marcador _SUCCESS. Com --dask, cada trabalhador lê
    e grava os seus próprios arquivos.

    Células de texto que uma planilha leria como fórmula (começando com =, +, -, @, tab)
    saem neutralizadas: com um apóstrofo antes no CSV (recomendação da OWASP; números como
    -12,5 ficam como estão) e como células de texto no XLSX. --sem-neutralizar-formulas
    desliga isso nos valores (o cabeçalho continua neutralizado).
    """
    from pathlib import Path

    limites = replace(
        LOTE,
        descompactado=limite_descompactado * MIB,
        celulas=limite_celulas,
        texto=limite_texto,
    )
    # an XLSX starts being read now, while the modules below load (no change in what is read)
    if entrada.lower().endswith(".xlsx") and Path(entrada).is_file():
        from multas.lote.xlsx_leitura import adiantar

        adiantar(Path(entrada), limites)

    from multas.lote.executor import Dask, executar
    from multas.lote.particoes import (
        abrir_endereco,
        e_url,
        executar_particoes,
        particionada,
        planejar,
    )
    from multas.lote.processar import Config, cabe_numa_linha, selic_do_banco
    from multas.lote.resumo import dizer_motor, dizer_resumo, progresso

    try:
        leituras = ler_interpretacao_pares(regime, interpretacao, so_dadas=True)
        cabe_numa_linha(regime)
        constantes: dict[str, Any] = {}
        if selic is not None:
            if regime != "anp.mora":
                raise EntradaInvalida("--selic", "só vale para o regime anp.mora")
            constantes["taxas_selic"] = ler_selic(Path(selic), ptbr)
        if dias_sem_expediente is not None:
            if regime != "anp.mora":
                raise EntradaInvalida("--dias-sem-expediente", "só vale para o regime anp.mora")
            constantes["dias_sem_expediente"] = ler_dias_sem_expediente(Path(dias_sem_expediente))
        serie = _opcao_cotacoes(regime, cotacoes, coluna_preco, ptbr)
        dialeto, colunas = leitura_do_arquivo(opcoes)
        cfg = Config(
            regime,
            leituras,
            ptbr,
            constantes=constantes,
            neutralizar_formulas=not confiar_celulas,
            limites=limites,
            cotacoes=serie,
            xlsx_dinheiro_texto=xlsx_dinheiro_texto,
            dialeto=dialeto,
            colunas=colunas,
            selic=selic_do_banco(regime),
        )
    except EntradaInvalida as erro:
        _falhar_uso(erro)
    onde = None
    if endereco_dask or executor == "dask":
        onde = Dask(endereco_dask, trabalhadores)
    em_partes = particionada(entrada)
    if not em_partes and not Path(entrada).is_file():
        _falhar_uso(EntradaInvalida(None, f"a entrada não existe: {entrada}"))
    _alocador_para_lotes()
    with (
        _sinais_interrompem(em_partes),
        progresso(mostrar_progresso, em_partes) as (avancar, fases),
    ):
        try:
            if em_partes:
                resumo = executar_particoes(
                    planejar(entrada, saida),
                    cfg,
                    linhas_por_bloco=linhas_por_bloco,
                    dask=onde,
                    nucleos=nucleos,
                    ao_avancar=avancar,
                )
            else:
                resumo = executar(
                    Path(entrada),
                    abrir_endereco(saida, Path(saida).name) if e_url(saida) else Path(saida),
                    cfg,
                    linhas_por_bloco=linhas_por_bloco,
                    dask=onde,
                    nucleos=nucleos,
                    fases=fases,
                )
        except EntradaInvalida as erro:
            _falhar_uso(erro)
        except OSError as erro:  # the disk, not the input: still a pt-BR message
            motivo = erro.strerror or "erro do sistema"
            click.echo(
                f"Erro: não foi possível ler {entrada} ou gravar {saida}: {motivo}", err=True
            )
            sys.exit(2)
    dizer_resumo(resumo, entrada, saida, em_partes)
    if resumo.motor and exigir_kernel:
        dizer_motor(resumo)
        motivos = sorted(resumo.motivos.items(), key=lambda item: (-item[1], item[0]))
        click.echo(
            "Erro: --exigir-kernel: o kernel não calculou todas as linhas válidas: "
            + "; ".join(motivo for motivo, _ in motivos),
            err=True,
        )
        sys.exit(2)
    sys.exit(_saida.SAIDA_LINHAS_COM_ERRO if resumo.erros else 0)  # 2: bad arguments


@click.command(options_metavar="[OPÇÕES]")
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
@click.option("--preco-inicial", metavar="PREÇO", help="Lognormal: preço do CBIO hoje.")
@click.option(
    "--drift",
    type=float,
    default=0.0,
    show_default=True,
    metavar="TAXA",
    help="Lognormal: tendência anual.",
)
@click.option(
    "--volatilidade", type=float, metavar="TAXA", help="Lognormal: volatilidade anual (ex.: 0.35)."
)
@click.option(
    "--cenarios",
    type=click.IntRange(1, 10_000_000),
    default=10_000,
    show_default=True,
    metavar="N",
    help="Quantos cenários de preço simular.",
)
@click.option(
    "--seed",
    type=click.IntRange(0),
    default=0,
    show_default=True,
    metavar="N",
    help="Semente (reprodutível, também no cluster).",
)
@click.option(
    "--preco-atual",
    metavar="PREÇO",
    help="Preço para comprar agora; padrão: o último do histórico ou o inicial.",
)
@click.option(
    "--interpretacao",
    "-i",
    multiple=True,
    metavar="CHAVE=OPÇÃO",
    help="Leitura, ex.: faturamento=menor (repetível).",
)
@click.option(
    "--preco-recompra",
    metavar="PREÇO",
    help="Preço para comprar depois os CBIOs que faltam (a falta soma-se à meta do ano "
    "seguinte); padrão: o preço de comprar agora.",
)
@click.option("--ptbr", is_flag=True, help="Notação brasileira nos arquivos (CSV com ';').")
@click.option("--grafico", type=click.Path(dir_okay=False), help="Histograma em PNG.")
@click.option(
    "--formato", "-f", type=click.Choice(("texto", "json")), default="texto", show_default=True
)
@click.option(
    "--executor",
    type=click.Choice(("local", "dask")),
    default="local",
    show_default=True,
    help="dask: os blocos de cenários num cluster Dask local (ou no de --dask).",
)
@_opcoes_dask
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
    preco_recompra: str | None,
    interpretacao: tuple[str, ...],
    ptbr: bool,
    grafico: str | None,
    formato: str,
    executor: str,
    endereco_dask: str | None,
    trabalhadores: int,
) -> None:
    """Distribuição da multa do distribuidor (CASO JSON ou --carteira) sob cenários de preço
    do CBIO: P50, P90, P99, multa esperada, e o custo de comprar os CBIOs faltantes agora
    comparado ao de não cumprir (a multa mais a compra posterior dos mesmos CBIOs).

    Os cenários são sorteados em blocos de 10.000, cada bloco com a sua semente derivada de
    --seed: com --dask, os trabalhadores sorteiam e calculam blocos diferentes, e o resultado
    é byte a byte o da execução local."""
    from pathlib import Path

    from multas.lote.cluster import Dask
    from multas.nucleo import exposicao as exp

    try:
        leitura = ler_interpretacao_pares(exp.REGIME, interpretacao)
        tabela = _carteira(
            None if caso is None else Path(caso),
            None if carteira is None else Path(carteira),
            ptbr,
        )
        if (historico is None) == (not lognormal):
            raise EntradaInvalida(None, "escolha os cenários: --historico ARQUIVO ou --lognormal")
        modelo: exp.Historico | exp.Lognormal
        if historico is not None:
            serie = exp.ler_historico(Path(historico), ptbr)
            modelo = exp.historico(serie)
            atual: Decimal | Fraction = serie[-1]
        else:
            if preco_inicial is None or volatilidade is None:
                raise EntradaInvalida(
                    None, "--lognormal precisa de --preco-inicial e --volatilidade"
                )
            inicial = exp.ler_preco(preco_inicial, "preco_inicial", ptbr)
            modelo = exp.lognormal(inicial, drift, volatilidade)
            atual = inicial
        sorteio = exp.Sorteio(modelo, cenarios, seed)
        if preco_atual is not None:
            atual = exp.conferir_preco(
                exp.ler_preco(preco_atual, "preco_atual", ptbr), "preco_atual"
            )
        recompra = None
        if preco_recompra is not None:
            recompra = exp.conferir_preco(
                exp.ler_preco(preco_recompra, "preco_recompra", ptbr), "preco_recompra"
            )
        if endereco_dask or executor == "dask":
            totais = _exposicao_no_cluster(
                tabela, sorteio, leitura, ptbr, Dask(endereco_dask, trabalhadores)
            )
        else:
            totais = exp.simular(tabela, sorteio.todos(), leitura, ptbr=ptbr, numba=_numba())
        resumo = exp.resumir(
            totais,
            exp.faltantes(tabela, leitura, ptbr),
            atual,
            recompra,
            prazos=exp.prazos(tabela, leitura, ptbr),
        )
    except EntradaInvalida as erro:
        _falhar_uso(erro)
    if grafico is not None:
        exp.grafico(totais, resumo, Path(grafico))
    if formato == "json":
        click.echo(despejar_json(resumo))
    else:
        click.echo(exp.como_texto(resumo), nl=False)


def _exposicao_no_cluster(
    tabela: Any, sorteio: Any, leitura: dict[str, str], ptbr: bool, onde: Any
) -> Any:
    """The scenario blocks on a Dask cluster: the portfolio checked here, sent once to every
    worker, each block drawn and computed by a worker; the totals back in block order."""
    import numpy as np

    from multas.lote.cluster import cliente
    from multas.nucleo import exposicao as exp

    exp.validar_carteira(tabela, leitura, ptbr)
    with cliente(onde) as conectado:
        [carteira] = conectado.scatter([tabela], broadcast=True)
        futuros = conectado.map(
            exp.simular_bloco,
            range(sorteio.blocos),
            carteira=carteira,
            sorteio=sorteio,
            interpretacao=leitura,
            ptbr=ptbr,
            numba=_numba(),
            pure=False,
        )
        return np.concatenate(conectado.gather(futuros))


def _numba() -> bool:
    """Whether the simulation may compile its loop (``MULTAS_SEM_NUMBA``, read only here:
    pydantic, like Numba, is loaded only when a simulation needs it)."""
    from multas.servicos.configuracao import carregar

    return not carregar().sem_numba


def _carteira(caso: Path | None, carteira: Path | None, ptbr: bool) -> Any:
    """The distributors as a table of text cells: one CASO JSON, or a portfolio file."""
    from multas.lote.io import abrir, texto_da_celula
    from multas.lote.processar import Config
    from multas.nucleo import exposicao as exp
    from multas.nucleo.regimes import REGIMES

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
        cfg = Config(
            "renovabio.distribuidor", REGIMES["renovabio.distribuidor"].interpretacao_padrao(), ptbr
        )
        linhas = []
        for bloco in abrir(carteira, cfg).blocos:  # type: ignore[arg-type]
            if bloco.linhas is not None:
                linhas += [linha or {} for linha in bloco.linhas]
            else:
                linhas += bloco.tabela.to_pylist()
    return exp.carteira(
        [
            {nome: texto_da_celula(linha.get(nome), tipo, False) for nome, tipo in tipos.items()}
            for linha in linhas
        ]
    )


@contextmanager
def _sinais_interrompem(em_partes: bool = False) -> Iterator[None]:
    """SIGTERM and SIGHUP end the run as Ctrl+C does: the temporary output is discarded and
    the previous output, if any, stays as it was (SIGKILL cannot be caught; on Linux it
    leaves nothing either, see :func:`multas.lote.io.escrita_atomica`). A partitioned run
    keeps the files it completed, without ``_SUCCESS``."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interromper(numero: int, _quadro: object) -> None:
        raise KeyboardInterrupt(f"sinal {numero}")

    anteriores = {}
    for nome in ("SIGTERM", "SIGHUP"):
        numero = getattr(signal, nome, None)
        if numero is not None:
            anteriores[numero] = signal.signal(numero, interromper)
    try:
        yield
    except KeyboardInterrupt:
        if em_partes:
            click.echo(
                "multas lote: interrompido; a pasta de saída ficou sem _SUCCESS "
                "(não é um resultado).",
                err=True,
            )
        else:
            click.echo("multas lote: interrompido; a saída anterior não foi alterada.", err=True)
        sys.exit(130)
    finally:
        for numero, anterior in anteriores.items():
            signal.signal(numero, anterior)
