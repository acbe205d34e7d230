"""One block of a batch → its result columns: the kernel where it applies, the scalar engine
for every other row (so each row gets the engine's exact answer or its pt-BR error).

This function is what runs on a Dask worker: it is pure (a block and a configuration in,
an Arrow table out), so the local and the distributed runs write the same bytes.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from decimal import Decimal
from functools import cache
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import pyarrow as pa

from multas.nucleo.arquivos import LOTE, Limites
from multas.nucleo.contrato import Campo, Leitura, ler_valor
from multas.nucleo.cotacoes import PrecoDoAno, Serie, preco_do_ano
from multas.nucleo.dialeto import Dialeto
from multas.nucleo.dinheiro import formatar_brl, preco_de_arquivo
from multas.nucleo.erros import SEPARADOR_NA_CELULA, EntradaInvalida, em_uma_celula
from multas.nucleo.kernel.colunas import de_buffers, vazio_como_nulo
from multas.nucleo.preco import FONTE_ENTRADA, exercicio_do_preco
from multas.servicos.relogio import hoje as hoje_em_brasilia

if TYPE_CHECKING:
    from multas.nucleo.legislacao import Legislacao
    from multas.nucleo.legislacao.selic import SerieSelic

TipoSaida = Literal["quantia", "data", "inteiro", "texto", "logico"]

#: outputs that are not amounts (spec § 3); every other output is money
_TIPOS_SAIDA: dict[str, TipoSaida] = {
    "prazo_comprovacao": "data",
    "vencimento": "data",
    "dias_atraso": "inteiro",
    "meses_atraso": "inteiro",
    # renovabio.distribuidor: the CBIOs behind the fine, as multas ano names them
    "falta": "inteiro",
    "diferido": "inteiro",
    "multado": "inteiro",
    "descricao": "texto",
    "norma": "texto",
    "texto_conferido": "logico",  # spec § 3.7 point 4
    # --cotacoes (SAIDAS_COTACOES): the price to 4 places (pt-BR comma with --ptbr; a number
    # cell in XLSX), the exact price, p/q when it does not terminate, its month, the method of
    # the monthly mean and the source of the quotes (spec § 3.1 v4)
    "preco": "texto",
    "preco_exato": "texto",
    "mes_do_preco": "texto",
    "preco_metodo": "texto",
    "preco_fonte": "texto",
}
_ARROW: dict[TipoSaida, pa.DataType] = {
    "quantia": pa.int64(),  # centavos, until a writer formats them
    "data": pa.date32(),
    "inteiro": pa.int64(),
    "texto": pa.string(),
    "logico": pa.bool_(),
}


def tipo_saida(nome: str) -> TipoSaida:
    return _TIPOS_SAIDA.get(nome, "quantia")


#: ``--cotacoes``: the regimes whose rows it prices, each with the column of the year the
#: price refers to (the target's year)
CAMPO_DO_ANO = {"renovabio.distribuidor": "ano_meta"}
#: ``--cotacoes``: the columns added after the regime's outputs, as ``multas ano calcular``
#: writes them: the price to 4 places, the year's exact price (the decimal when it terminates,
#: else ``p/q``), the month of that highest mean, the method of the mean (``media_mensal``) and the quotes' source
SAIDAS_COTACOES = ("preco", "preco_exato", "mes_do_preco", "preco_metodo", "preco_fonte")


def cabe_numa_linha(regime: str) -> None:
    """A regime whose required field is a list (``anp.auto``'s ``infracoes``) has no row of
    cells: it runs through ``multas calcular`` with JSON Lines."""
    from multas.nucleo.regimes import REGIMES

    for c in REGIMES[regime].caso.campos():
        if c.obrigatorio and not c.plano:
            raise EntradaInvalida(
                "--regime",
                f"o regime {regime} não roda em lote: o campo {c.nome} é uma lista, que não cabe "
                "numa célula; use multas calcular com JSON Lines (um caso por linha)",
            )


@dataclass(frozen=True)
class Config:
    """A whole run's options (picklable: it travels to Dask workers)."""

    regime: str
    interpretacao: Mapping[str, str]
    ptbr: bool = False
    #: False forces every row through the scalar engine (tests, and the differential check)
    kernel: bool = True
    #: fields given once for every row, already validated (``taxas_selic``, from ``--selic``)
    constantes: Mapping[str, Any] = field(default_factory=dict)
    #: CSV and XLSX output: formula-looking cells neutralised (OWASP); off for trusted pipelines
    neutralizar_formulas: bool = True
    #: how far the input may expand (XLSX uncompressed, cells, one cell's text)
    limites: Limites = LOTE
    #: today in Brasília, read once by the client (every worker judges on the same day): the
    #: law of a row with no date of its own
    hoje: date = field(default_factory=hoje_em_brasilia)
    #: ``--cotacoes``: the CBIO quotes that price every row (:func:`_precos_das_cotacoes`)
    cotacoes: Serie | None = None
    #: ``--xlsx-dinheiro-texto``: XLSX money as text (``1234.56``) and dates in the default
    #: format, the output before money became number cells
    xlsx_dinheiro_texto: bool = False
    #: how the input is read (``--codificacao``, ``--separador``, ``--decimal``): what is not
    #: given is detected file by file (:mod:`multas.lote.forma`)
    dialeto: Dialeto = field(default_factory=Dialeto)
    #: ``--coluna CAMPO=CABEÇALHO``: normalised header → field
    colunas: Mapping[str, str] = field(default_factory=dict)
    #: the numbers of the file being read: decimal comma? (``None``: as ``ptbr`` says); set by
    #: :func:`multas.lote.executor.executar` from what the reader found
    decimal_virgula: bool | None = None
    #: anp.mora: the Selic with the months added to the configured database
    #: (:func:`selic_do_banco`), read once by the client; ``None``: the shipped series
    selic: SerieSelic | None = None

    @property
    def legislacao(self) -> Legislacao:
        """The shipped legislation, with :attr:`selic` when there is one."""
        from multas.nucleo.legislacao import carregar

        return carregar() if self.selic is None else carregar().com_selic(self.selic)

    @property
    def virgula(self) -> bool:
        """Whether the input's numbers are written ``1.234,56``."""
        return self.ptbr if self.decimal_virgula is None else self.decimal_virgula

    @property
    def saidas_do_regime(self) -> tuple[str, ...]:
        """``valor`` and the regime's outputs: what the kernel and the engine compute."""
        from multas.nucleo.regimes import REGIMES

        return ("valor", *REGIMES[self.regime].saidas)

    @property
    def saidas(self) -> tuple[str, ...]:
        """Every result column before ``erro``: the regime's, then, with ``--cotacoes``,
        :data:`SAIDAS_COTACOES`."""
        com_cotacoes = self.cotacoes is not None and self.regime in CAMPO_DO_ANO
        extras = SAIDAS_COTACOES if com_cotacoes else ()
        return (*self.saidas_do_regime, *extras)

    @property
    def campos(self) -> tuple[str, ...]:
        """The flat input fields read from the columns."""
        from multas.nucleo.regimes import REGIMES

        return tuple(c.nome for c in REGIMES[self.regime].caso.campos() if c.plano)


@dataclass
class Bloco:
    """A slice of the input, in order.

    ``tabela`` holds the input columns (text for CSV, typed for Parquet); for JSON Lines and
    XLSX it holds the fields as text and ``linhas`` the cells as read (for the engine and to
    write them back). ``erros`` carries rows already known bad (a line that is not JSON).
    """

    inicio: int
    tabela: pa.Table
    linhas: list[dict[str, Any] | None] | None = None
    erros: list[str | None] | None = None
    #: XLSX: each input column's cells as read (``linhas`` by column), made once by the
    #: reader for the kernel's texts and the writer's cells
    celulas: dict[str, list[Any]] | None = None

    def __len__(self) -> int:
        return int(self.tabela.num_rows)

    def fatia(self, inicio: int, linhas: int) -> Bloco:
        """The ``linhas`` rows from ``inicio`` (fewer at the end)."""
        fim = inicio + linhas
        return Bloco(
            self.inicio + inicio,
            self.tabela.slice(inicio, linhas),
            None if self.linhas is None else self.linhas[inicio:fim],
            None if self.erros is None else self.erros[inicio:fim],
            None if self.celulas is None else {n: c[inicio:fim] for n, c in self.celulas.items()},
        )

    def compacto(self) -> Bloco:
        """The block with buffers of its own. A slice shares its parent's buffers, and pickling
        it (to a worker process, or to a Dask worker) sends all of them: a 2 048-row slice of a
        262 144-row block weighed as much as the whole block."""
        colunas = [
            pa.concat_arrays(coluna.chunks) if coluna.num_chunks else coluna.combine_chunks()
            for coluna in self.tabela.columns
        ]
        tabela = pa.Table.from_arrays(colunas, schema=self.tabela.schema)
        return Bloco(self.inicio, tabela, self.linhas, self.erros)

    def fatias(self, linhas: int) -> list[Bloco]:
        """The block cut into consecutive slices of at most ``linhas`` rows."""
        n = len(self)
        if n <= linhas:
            return [self]
        return [self.fatia(i, linhas) for i in range(0, n, linhas)]


def _juntar_dias_sem_expediente(dados: dict[str, Any], constantes: Mapping[str, Any]) -> None:
    """``--dias-sem-expediente``: the file's dates and the row's own, as one set (spec § 4).
    The row's cell is read alone first, so an error names its own position."""
    from multas.nucleo.contrato import ler_datas

    arquivo = constantes.get("dias_sem_expediente")
    celula = dados.get("dias_sem_expediente")
    if arquivo is None or celula is None:
        return
    proprias = ler_datas(celula, "dias_sem_expediente")
    dados["dias_sem_expediente"] = sorted({*arquivo, *(d.isoformat() for d in proprias)})


def _bruto(valor: object) -> object:
    """A cell as the engine reads it: an empty text is absent; a spreadsheet date-time at
    midnight is that date (any other time is not a date)."""
    if isinstance(valor, str) and valor == "":
        return None
    if isinstance(valor, datetime):
        if valor.time() == datetime.min.time():
            return valor.date()
        return valor.isoformat(sep=" ")
    return valor


# --- --cotacoes: each row priced from the quotes of its target's year -----------------------
#
# The price of a row is the highest monthly mean of the quotes of the year its target refers
# to (``ano_meta``), by :func:`multas.nucleo.cotacoes.preco_do_ano`, the function ``multas ano
# calcular`` uses: the same exact value. The kernel takes it as the ``maior_media_mensal``
# column when it is a decimal of at most six places (its prices are millionths of a real);
# any other price (a mean that does not terminate, such as 2445833317/22000000) leaves the
# row to the engine, which gets the year's quotes as the case's ``cotacoes_diarias`` (or
# ``cotacoes_mensais``) and computes the mean itself, as ``multas ano`` does, so its memória
# shows each month's mean and the price whole. Either way the row's output carries the price
# whole (``preco``, ``p/q`` when it does not terminate) and its month.
#
# Choice of the project: a row that also has its own price (``maior_media_mensal``) is an
# error on that row naming both, never a silent preference: two sources of one price are
# ambiguous, and a batch must not pick one for the user. A row whose year the quotes do not
# cover is an error on that row naming ``ano_meta`` and the year. Neither drops the row.

_ANO = Campo("ano_meta", "ano", "Ano da meta", True, 0)
#: the kernel reads a price in millionths of a real (multas.nucleo.kernel.renovabio.MICRO)
_MICRO = 1_000_000


@dataclass
class PrecosDoBloco:
    """The prices of one block's rows from ``--cotacoes``."""

    #: per row, the year whose quotes price it (``None``: the row has no valid year, or an
    #: error; the engine then reports the row's own error)
    anos: list[int | None]
    #: the year's price, for every year a row of the block refers to and the quotes cover
    precos: dict[int, PrecoDoAno]
    #: per row, the error --cotacoes gives it (its own price too, a year not covered)
    erros: list[str | None]
    #: where the quotes come from (``preco_fonte``)
    fonte: str = FONTE_ENTRADA


#: a row priced twice, by its own cell and by --cotacoes: its error
PRECO_DUAS_VEZES = str(
    EntradaInvalida(
        "maior_media_mensal",
        "a linha traz o preço e --cotacoes também o dá (a maior média mensal do ano da meta): "
        "informe um dos dois",
    )
)


def _ano_da_celula(bruto: object, leitura: Leitura) -> int | None:
    try:
        ano: int = ler_valor(_bruto(bruto), _ANO, leitura)
    except (EntradaInvalida, TypeError, ValueError):
        return None  # the engine says what is wrong with the cell, on the row
    return ano


def precos_das_cotacoes(colunas: Mapping[str, pa.Array], n: int, cfg: Config) -> PrecosDoBloco:
    """Each row's year and price from ``cfg.cotacoes`` (see the comment above)."""
    assert cfg.cotacoes is not None
    leitura = Leitura(tabela=True, decimal_virgula=cfg.virgula)
    coluna_ano = colunas.get(CAMPO_DO_ANO[cfg.regime])
    brutos = coluna_ano.to_pylist() if coluna_ano is not None else [None] * n
    propria = colunas.get("maior_media_mensal")
    com_preco: list[bool] = (
        [False] * n
        if propria is None or propria.null_count == n
        else propria.is_valid().to_pylist()
    )
    lidos: dict[object, int | None] = {}
    precos: dict[int, PrecoDoAno] = {}
    sem_cotacao: dict[int, str] = {}
    anos: list[int | None] = []
    erros: list[str | None] = []
    for bruto, tem_preco in zip(brutos, com_preco, strict=True):
        chave = (type(bruto), bruto)
        if chave not in lidos:
            lidos[chave] = _ano_da_celula(bruto, leitura)
        ano = lidos[chave]
        if tem_preco:
            erros.append(PRECO_DUAS_VEZES)
            anos.append(None)
            continue
        if ano is not None:
            ano = _exercicio_do_preco(ano, cfg)
        if ano is not None and ano not in precos and ano not in sem_cotacao:
            try:
                precos[ano] = preco_do_ano(cfg.cotacoes, ano, cfg.interpretacao.get("media_mensal"))
            except EntradaInvalida as erro:
                sem_cotacao[ano] = str(
                    EntradaInvalida(
                        "ano_meta",
                        f"o arquivo de --cotacoes não tem nenhuma cotação de {ano}, o exercício "
                        "do preço",
                    )
                    if "nenhuma cotação" in erro.mensagem
                    else erro
                )
        if ano is not None and ano in sem_cotacao:
            erros.append(sem_cotacao[ano])
            anos.append(None)
            continue
        erros.append(None)
        anos.append(ano)
    return PrecosDoBloco(anos, precos, erros, cfg.cotacoes.fonte or FONTE_ENTRADA)


def _exercicio_do_preco(ano: int, cfg: Config) -> int:
    """The exercise whose quotes price a row of target year ``ano``: the target year, or,
    under ``ano_do_preco = prazo`` (spec § 3.1 v4), the year of the table's deadline (a row's
    own ``prazo_comprovacao`` is not read here: choice of the project, docs/lote.md)."""
    if cfg.regime != "renovabio.distribuidor" or cfg.interpretacao.get("ano_do_preco") != "prazo":
        return ano
    from multas.nucleo.legislacao import carregar

    tabela = carregar().prazo_comprovacao(ano)
    return exercicio_do_preco(ano, None if tabela is None else tabela[0], "prazo")


def _decimal_do_kernel(preco: PrecoDoAno) -> str | None:
    """The price as the kernel's cell: a decimal of at most six places, else ``None``."""
    if _MICRO % preco.valor.denominator:
        return None
    return preco.exato


def _com_cotacoes(
    bloco: Bloco, colunas: dict[str, pa.Array], cfg: Config
) -> tuple[Bloco, PrecosDoBloco | None]:
    """With --cotacoes: the block with its errors among the known ones, and ``colunas`` with
    the kernel's ``maior_media_mensal``, each row's price where the kernel can read it (with
    a decimal comma where the kernel reads the cells so). Without: as they are."""
    if cfg.cotacoes is None or cfg.regime not in CAMPO_DO_ANO:
        return bloco, None
    virgula = cfg.virgula and bloco.linhas is None
    n = len(bloco)
    p = precos_das_cotacoes(colunas, n, cfg)
    celulas: list[str | None] = []
    for ano in p.anos:
        texto = None if ano is None else _decimal_do_kernel(p.precos[ano])
        celulas.append(texto.replace(".", ",") if texto is not None and virgula else texto)
    colunas["maior_media_mensal"] = pa.array(celulas, pa.string())
    if any(e is not None for e in p.erros):
        anteriores = bloco.erros or [None] * n
        erros = [a if a is not None else e for a, e in zip(anteriores, p.erros, strict=True)]
        bloco = Bloco(bloco.inicio, bloco.tabela, bloco.linhas, erros)
    return bloco, p


def _colunas_do_preco(
    p: PrecosDoBloco | None, erros: Sequence[str | None], virgula: bool
) -> list[pa.Array]:
    """The :data:`SAIDAS_COTACOES` of the rows computed; none without --cotacoes."""
    if p is None:
        return []
    colunas: list[list[str | None]] = [[] for _ in SAIDAS_COTACOES]
    for ano, erro in zip(p.anos, erros, strict=True):
        preco = None if ano is None or erro is not None else p.precos[ano]
        valores = (
            (None,) * len(SAIDAS_COTACOES)
            if preco is None
            else (
                preco_de_arquivo(preco.valor, virgula),
                # a pt-BR file reads "111.25" as thousands: its comma, so the value reads back
                preco.exato.replace(".", ",") if virgula else preco.exato,
                preco.mes,
                preco.preco.metodo,
                p.fonte,
            )
        )
        for coluna, valor in zip(colunas, valores, strict=True):
            coluna.append(valor)
    return [pa.array(coluna, pa.string()) for coluna in colunas]


def _motivo_do_preco(preco: PrecoDoAno) -> str:
    """Why the kernel left a row priced by --cotacoes (pt-BR, for the summary)."""
    return (
        f"o preço de {preco.ano} das cotações ({preco.exato}) não é um decimal de até seis "
        "casas, a forma que o kernel lê"
    )


#: rows computed at once: the kernel's temporaries then stay in the processor's cache (a whole
#: block of 262 144 rows took twice as long as its slices of 32 768); each row's result does
#: not depend on the others, so slicing changes nothing in the output
LINHAS_POR_PASSO = 32_768


#: the result table's metadata: how many of its rows the scalar engine computed (valid rows
#: the kernel does not take), for the batch's summary
CHAVE_MOTOR = b"multas.motor_escalar"
#: and why, as JSON: each reason (pt-BR, as the summary prints it) → how many of those rows
CHAVE_MOTIVOS = b"multas.motivos"


def linhas_no_motor(resultado: pa.Table) -> int:
    """How many rows of a result the scalar engine computed (see :data:`CHAVE_MOTOR`)."""
    return int((resultado.schema.metadata or {}).get(CHAVE_MOTOR, b"0"))


def motivos_no_motor(resultado: pa.Table) -> dict[str, int]:
    """Why the kernel left those rows (see :data:`CHAVE_MOTIVOS`): reason → rows."""
    motivos: dict[str, int] = json.loads(
        (resultado.schema.metadata or {}).get(CHAVE_MOTIVOS, b"{}")
    )
    return motivos


def somar_motivos(total: dict[str, int], motivos: Mapping[str, int]) -> None:
    """Add ``motivos`` into ``total`` (reason → rows)."""
    for motivo, linhas in motivos.items():
        total[motivo] = total.get(motivo, 0) + linhas


def _com_contagem(tabela: pa.Table, motor: int, motivos: Mapping[str, int]) -> pa.Table:
    return tabela.replace_schema_metadata(
        {
            CHAVE_MOTOR: str(motor).encode(),
            CHAVE_MOTIVOS: json.dumps(motivos, ensure_ascii=False, sort_keys=True).encode(),
        }
    )


def juntar(partes: Sequence[pa.Table]) -> pa.Table:
    """Consecutive results as one, their counts summed (Arrow keeps only the first table's
    metadata)."""
    if len(partes) == 1:
        return partes[0]
    motivos: dict[str, int] = {}
    for parte in partes:
        somar_motivos(motivos, motivos_no_motor(parte))
    tabela = pa.concat_tables([parte.replace_schema_metadata(None) for parte in partes])
    return _com_contagem(tabela, sum(linhas_no_motor(parte) for parte in partes), motivos)


def processar(bloco: Bloco, cfg: Config) -> pa.Table:
    """The result columns of one block: ``valor``, the regime's outputs, ``erro``."""
    fatias = bloco.fatias(LINHAS_POR_PASSO)
    if len(fatias) == 1:
        return _processar(bloco, cfg)
    return juntar([_processar(fatia, cfg) for fatia in fatias])


def _sem_kernel(cfg: Config) -> str:
    """Why no row of the run went to the kernel (pt-BR)."""
    from multas.nucleo.kernel import KERNELS

    if cfg.regime not in KERNELS:
        return f"o regime {cfg.regime} não tem kernel"
    return "o kernel foi desligado nesta execução"


def com_erros_do_id(bloco: Bloco) -> Bloco:
    """Spec § 3 v4: a batch's ``id`` column is the case's ``id``, checked as ``calcular``
    checks it (:func:`multas.nucleo.identidade.ler_identidade`): a row whose ``id`` it refuses
    is that row's error, not a pass-through cell. An integer cell (a Parquet id column) is read
    as its text."""
    if "id" not in bloco.tabela.column_names:
        return bloco
    from multas.nucleo.identidade import ler_identidade

    erros = list(bloco.erros or [None] * len(bloco))
    celulas = bloco.tabela.column("id").to_pylist()
    if bloco.linhas is not None:  # JSON Lines and XLSX: the cell as read (a number stays one)
        celulas = [
            c if linha is None else linha.get("id", c)
            for c, linha in zip(celulas, bloco.linhas, strict=True)
        ]
    for i, valor in enumerate(celulas):
        if erros[i] is not None or valor is None or valor == "":
            continue  # an empty cell is an absent id
        if isinstance(valor, int) and not isinstance(valor, bool):
            valor = str(valor)  # a typed file's integer id column is its text (a row number)
        try:
            ler_identidade({"id": valor})
        except EntradaInvalida as erro:
            erros[i] = f"{erro.campo}: {erro.mensagem}"
    return replace(bloco, erros=erros)


def _processar(bloco: Bloco, cfg: Config) -> pa.Table:
    n = len(bloco)
    legislacao = cfg.legislacao
    bloco = com_erros_do_id(bloco)
    colunas = {
        nome: vazio_como_nulo(bloco.tabela.column(nome))
        for nome in cfg.campos
        if nome in bloco.tabela.column_names
    }
    saidas = cfg.saidas_do_regime
    originais = dict(colunas)  # before --cotacoes's prices: a row's own, for its errors
    bloco, precos = _com_cotacoes(bloco, colunas, cfg)
    valores: dict[str, np.ndarray[Any, Any]] = {}
    nulos: dict[str, np.ndarray[Any, Any]] = {}
    erros: list[str | None] = [None] * n
    previos = (
        np.zeros(n, dtype=np.bool_)
        if bloco.erros is None
        else np.array([e is not None for e in bloco.erros], dtype=np.bool_)
    )

    from multas.nucleo.kernel import KERNELS, ResultadoKernel

    r: ResultadoKernel | None = None
    if cfg.kernel and cfg.regime in KERNELS and n:
        from multas.nucleo.kernel import calcular_colunas

        r = calcular_colunas(
            cfg.regime,
            colunas,
            n,
            cfg.interpretacao,
            legislacao,
            cfg.virgula and bloco.linhas is None,
            constantes=cfg.constantes,
            hoje=cfg.hoje,
        )
        ok = r.ok & ~previos
        for nome in saidas:  # an amount past the batch's limit: the engine says so below
            if tipo_saida(nome) == "quantia":
                quantia = np.asarray(r.valor if nome == "valor" else r.saidas[nome], np.int64)
                ok &= quantia < LIMITE_CENTAVOS
        for nome in saidas:
            bruto = r.valor if nome == "valor" else r.saidas[nome]
            valores[nome] = np.asarray(bruto).copy()
            nulos[nome] = ~ok
    else:
        ok = np.zeros(n, dtype=np.bool_)
        for nome in saidas:
            tipo = tipo_saida(nome)
            vazio = (
                np.zeros(n, "datetime64[D]")
                if tipo == "data"
                else np.zeros(n, np.bool_)
                if tipo == "logico"
                else np.zeros(n, np.int64)
                if tipo != "texto"
                else np.full(n, None, dtype=object)
            )
            valores[nome], nulos[nome] = vazio, np.ones(n, dtype=np.bool_)

    for i, erro in enumerate(bloco.erros or []):
        if erro is not None:
            erros[i] = erro
    resto = np.flatnonzero(~ok & ~previos)
    calculadas: list[int] = []  # valid rows the engine computed
    motor = _motor(bloco, colunas, resto, cfg, precos) if resto.size else []
    for i, resultado in zip(resto.tolist(), motor, strict=True):
        if isinstance(resultado, str):
            erros[i] = resultado
            continue
        grande = _grande_demais(resultado, saidas)
        if grande is not None:
            erros[i] = grande
            continue
        calculadas.append(i)
        for nome in saidas:
            valor = resultado.get(nome)
            if valor is None:
                continue
            valores[nome][i] = _interno(valor, tipo_saida(nome))
            nulos[nome][i] = False

    _com_os_outros_erros(bloco, originais, np.flatnonzero(previos), erros, cfg, precos)
    arrays = [_coluna(valores[nome], nulos[nome], tipo_saida(nome)) for nome in saidas]
    arrays += _colunas_do_preco(precos, erros, cfg.ptbr)
    # errors come only from rows already bad or computed by the engine
    talvez_erro = resto.size > 0 or bool(previos.any())
    arrays.append(pa.array(erros, pa.string()) if talvez_erro else _sem_erro(n))
    tabela = pa.Table.from_arrays(arrays, names=[*cfg.saidas, "erro"])
    motivos: dict[str, int] = {}
    if calculadas:
        somar_motivos(motivos, Counter(_motivos(r, calculadas, precos, cfg)))
    return _com_contagem(tabela, len(calculadas), motivos)


def _lida(linha: Mapping[str, Any] | None) -> bool:
    """Whether the reader read this row (an unreadable JSON line keeps only its text)."""
    return linha is not None and "\x00linha" not in linha


#: a row's error for its ``id`` alone (a JSON line's names the line: ``linha 3: id: …``)
_DO_ID = re.compile(r"(?:linha \d+: )?id: ")


def _com_os_outros_erros(
    bloco: Bloco,
    colunas: Mapping[str, pa.Array],
    previas: np.ndarray[Any, Any],
    erros: list[str | None],
    cfg: Config,
    precos: PrecosDoBloco | None,
) -> None:
    """A row refused before the engine for a field of its own (its ``id``, a price given twice
    with --cotacoes) is still read by the engine, and its other errors join the cell: every
    error of the row (issue 37, item 9). Not a row the reader could not read, nor one of a year
    --cotacoes does not cover (the engine would only miss the price)."""
    linhas = [
        i
        for i in previas.tolist()
        if (erro := erros[i]) is not None
        and (_DO_ID.match(erro) is not None or erro == PRECO_DUAS_VEZES)
        and (bloco.linhas is None or _lida(bloco.linhas[i]))
    ]
    if not linhas:
        return
    motor = _motor(bloco, colunas, np.asarray(linhas, dtype=np.int64), cfg, precos)
    for i, resultado in zip(linhas, motor, strict=True):
        if isinstance(resultado, str):
            erros[i] = f"{erros[i]}{SEPARADOR_NA_CELULA}{resultado}"


def _motivos(r: Any, calculadas: list[int], precos: PrecosDoBloco | None, cfg: Config) -> list[str]:
    """Why the kernel left each of the valid rows the engine computed (pt-BR); a price from
    --cotacoes that the kernel cannot read says so, with the year and the price."""
    if r is None:
        return [_sem_kernel(cfg)] * len(calculadas)
    porque: list[str] = r.motivos(calculadas)
    if precos is None:
        return porque
    return [
        _motivo_do_preco(precos.precos[ano])
        if (ano := precos.anos[i]) is not None and _decimal_do_kernel(precos.precos[ano]) is None
        else motivo
        for i, motivo in zip(calculadas, porque, strict=True)
    ]


@cache
def _nulos_de_texto(n: int) -> pa.Array:
    return pa.nulls(n, pa.string())


def _sem_erro(n: int) -> pa.Array:
    """An ``erro`` column with no error: a slice of one array made once (Arrow arrays are
    immutable, so every block can share it)."""
    return _nulos_de_texto(max(n, LINHAS_POR_PASSO)).slice(0, n)


#: amounts a batch writes: below 10**16 reais (decimal128(18, 2) in Parquet, int64 centavos)
LIMITE_CENTAVOS = 10**18


def _grande_demais(resultado: Mapping[str, Any], saidas: Sequence[str]) -> str | None:
    for nome in saidas:
        valor = resultado.get(nome)
        if (
            tipo_saida(nome) == "quantia"
            and valor is not None
            and abs(Decimal(valor)) * 100 >= LIMITE_CENTAVOS
        ):
            return (
                f"{nome}: resultado grande demais para o lote ({formatar_brl(valor)}; "
                "o lote grava valores de até 16 algarismos inteiros)"
            )
    return None


def _interno(valor: Any, tipo: TipoSaida) -> Any:
    if tipo == "quantia":
        return int(Decimal(valor) * 100)
    if tipo == "data":
        return np.datetime64(valor, "D")
    return valor


def _coluna(
    valores: np.ndarray[Any, Any], nulos: np.ndarray[Any, Any], tipo: TipoSaida
) -> pa.Array:
    mascara = np.asarray(nulos, dtype=np.bool_)
    if tipo == "texto":
        return pa.array(list(valores), pa.string(), mask=mascara)
    if tipo == "data":
        dias = valores.astype("datetime64[D]").astype(np.int64).astype(np.int32)
        return de_buffers(pa.date32(), dias, mascara)
    if tipo == "logico":
        return pa.array(valores.astype(np.bool_), pa.bool_(), mask=mascara)
    return de_buffers(pa.int64(), valores.astype(np.int64), mascara)


def _motor(
    bloco: Bloco,
    colunas: Mapping[str, pa.Array],
    linhas: np.ndarray[Any, Any],
    cfg: Config,
    precos: PrecosDoBloco | None = None,
) -> Sequence[dict[str, Any] | str]:
    """The scalar engine on the given rows: each row's result dict, or its pt-BR error.
    With ``precos`` (--cotacoes), a row priced by the quotes gets its year's quotes as the
    case's field, as ``multas ano`` gives them: the engine computes the price itself."""
    from multas.nucleo.motor import ler_caso

    leitura = Leitura(tabela=True, decimal_virgula=cfg.virgula)
    legislacao = cfg.legislacao
    if bloco.linhas is not None:
        brutos = [
            {nome: (linha or {}).get(nome) for nome in cfg.campos}
            for i in linhas
            for linha in [bloco.linhas[i]]
        ]
    else:
        indices = pa.array(linhas, pa.int64())
        brutos_por_campo = {
            nome: coluna.take(indices).to_pylist() for nome, coluna in colunas.items()
        }
        brutos = [
            {nome: valores[j] for nome, valores in brutos_por_campo.items()}
            for j in range(len(linhas))
        ]
    saida: list[dict[str, Any] | str] = []
    for i, bruto in zip(linhas.tolist(), brutos, strict=True):
        dados: dict[str, Any] = {
            "regime": cfg.regime,
            "interpretacao": dict(cfg.interpretacao),
            **cfg.constantes,
        }
        for nome, valor in bruto.items():
            valor = _bruto(valor)
            if valor is not None:
                dados[nome] = valor
        ano = None if precos is None else precos.anos[i]
        if ano is not None and cfg.cotacoes is not None:
            dados.pop("maior_media_mensal", None)
            dados.update(cfg.cotacoes.campos_do_caso(ano))
        try:
            _juntar_dias_sem_expediente(dados, cfg.constantes)
            regime, caso, interpretacao = ler_caso(dados, leitura)
            saida.append(regime.regra(caso, interpretacao, legislacao, cfg.hoje).como_dict())
        except EntradaInvalida as erro:  # every error of the row, in one cell
            saida.append(em_uma_celula(erro))
        except Exception as erro:  # a bug must not lose the row: it is reported on it
            saida.append(f"erro interno do motor: {type(erro).__name__}: {erro}")
    return saida


def selic_do_banco(regime: str) -> SerieSelic | None:
    """anp.mora: the Selic with the months added to the configured database
    (``MULTAS_DATABASE_URL``, else the user's data folder's), if it exists (never created: see
    :func:`multas.servicos.selic.serie_do_banco`). Read once, by the client: every worker
    computes with the same series, wherever it runs. ``None`` for another regime."""
    if regime != "anp.mora":
        return None
    from multas.servicos.selic import serie_do_banco

    return serie_do_banco()
