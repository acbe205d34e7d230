"""One block of a batch → its result columns: the kernel where it applies, the scalar engine
for every other row (so each row gets the engine's exact answer or its pt-BR error).

This function is what runs on a Dask worker: it is pure (a block and a configuration in,
an Arrow table out), so the local and the distributed runs write the same bytes.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal
from functools import cache
from typing import Any, Literal

import numpy as np
import pyarrow as pa

from multas.arquivos import LOTE, Limites
from multas.contrato import Leitura
from multas.dinheiro import formatar_brl
from multas.erros import EntradaInvalida
from multas.kernel.colunas import de_buffers, vazio_como_nulo

TipoSaida = Literal["quantia", "data", "inteiro", "texto"]

#: outputs that are not amounts (spec § 3); every other output is money
_TIPOS_SAIDA: dict[str, TipoSaida] = {
    "prazo_comprovacao": "data",
    "vencimento": "data",
    "dias_atraso": "inteiro",
    "meses_atraso": "inteiro",
    "descricao": "texto",
}
_ARROW: dict[TipoSaida, pa.DataType] = {
    "quantia": pa.int64(),  # centavos, until a writer formats them
    "data": pa.date32(),
    "inteiro": pa.int64(),
    "texto": pa.string(),
}


def tipo_saida(nome: str) -> TipoSaida:
    return _TIPOS_SAIDA.get(nome, "quantia")


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

    @property
    def saidas(self) -> tuple[str, ...]:
        from multas.regimes import REGIMES

        return ("valor", *REGIMES[self.regime].saidas)

    @property
    def campos(self) -> tuple[str, ...]:
        """The flat input fields read from the columns."""
        from multas.regimes import REGIMES

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
    from multas.contrato import ler_datas

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
    from multas.kernel import KERNELS

    if cfg.regime not in KERNELS:
        return f"o regime {cfg.regime} não tem kernel"
    return "o kernel foi desligado nesta execução"


def _processar(bloco: Bloco, cfg: Config) -> pa.Table:
    from multas.legislacao import carregar

    n = len(bloco)
    legislacao = carregar()
    colunas = {
        nome: vazio_como_nulo(bloco.tabela.column(nome))
        for nome in cfg.campos
        if nome in bloco.tabela.column_names
    }
    saidas = cfg.saidas
    valores: dict[str, np.ndarray[Any, Any]] = {}
    nulos: dict[str, np.ndarray[Any, Any]] = {}
    erros: list[str | None] = [None] * n
    previos = (
        np.zeros(n, dtype=np.bool_)
        if bloco.erros is None
        else np.array([e is not None for e in bloco.erros], dtype=np.bool_)
    )

    from multas.kernel import KERNELS, ResultadoKernel

    r: ResultadoKernel | None = None
    if cfg.kernel and cfg.regime in KERNELS and n:
        from multas.kernel import calcular_colunas

        r = calcular_colunas(
            cfg.regime,
            colunas,
            n,
            cfg.interpretacao,
            legislacao,
            cfg.ptbr and bloco.linhas is None,
            constantes=cfg.constantes,
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
    if resto.size:
        for i, resultado in zip(resto.tolist(), _motor(bloco, colunas, resto, cfg), strict=True):
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

    arrays = [_coluna(valores[nome], nulos[nome], tipo_saida(nome)) for nome in saidas]
    # errors come only from rows already bad or computed by the engine
    talvez_erro = resto.size > 0 or bool(previos.any())
    arrays.append(pa.array(erros, pa.string()) if talvez_erro else _sem_erro(n))
    tabela = pa.Table.from_arrays(arrays, names=[*saidas, "erro"])
    motivos: dict[str, int] = {}
    if calculadas:
        porque = r.motivos(calculadas) if r is not None else [_sem_kernel(cfg)] * len(calculadas)
        somar_motivos(motivos, Counter(porque))
    return _com_contagem(tabela, len(calculadas), motivos)


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
    return de_buffers(pa.int64(), valores.astype(np.int64), mascara)


def _motor(
    bloco: Bloco, colunas: Mapping[str, pa.Array], linhas: np.ndarray[Any, Any], cfg: Config
) -> Sequence[dict[str, Any] | str]:
    """The scalar engine on the given rows: each row's result dict, or its pt-BR error."""
    from multas.legislacao import carregar
    from multas.motor import ler_caso

    leitura = Leitura(tabela=True, decimal_virgula=cfg.ptbr)
    legislacao = carregar()
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
    for bruto in brutos:
        dados: dict[str, Any] = {
            "regime": cfg.regime,
            "interpretacao": dict(cfg.interpretacao),
            **cfg.constantes,
        }
        for nome, valor in bruto.items():
            valor = _bruto(valor)
            if valor is not None:
                dados[nome] = valor
        try:
            _juntar_dias_sem_expediente(dados, cfg.constantes)
            regime, caso, interpretacao = ler_caso(dados, leitura)
            saida.append(regime.regra(caso, interpretacao, legislacao).como_dict())
        except EntradaInvalida as erro:
            saida.append(str(erro))
        except Exception as erro:  # a bug must not lose the row: it is reported on it
            saida.append(f"erro interno do motor: {type(erro).__name__}: {erro}")
    return saida
