"""Exposure: the distribution of a distributor's (or a portfolio's) RenovaBio fine under CBIO
price scenarios, computed by the exact kernel.

A scenario is a year of monthly average CBIO prices; the fine uses the highest of them
(art. 6º § 1º, "a maior média mensal"). Two ways to draw the year:

* ``historico``: 12 monthly averages resampled with replacement (bootstrap) from a series the
  user gives. The prices are the series' own decimals: no float anywhere.
* ``lognormal``: a monthly path from ``preco_inicial`` with annual ``drift`` and
  ``volatilidade`` (geometric Brownian motion, Δt = 1/12). The simulated price is a float; it
  is turned into an exact price with :data:`CASAS_PRECO` decimal places (half away from zero)
  *before* it reaches the kernel, so every fine is still computed exactly.

Reported: P50, P90 and P99 of the total fine (nearest rank: a value some scenario produced,
so an exact amount), the expected fine (the exact mean of the exact fines, rounded once), and
the cost of buying the missing CBIOs now (missing × current price, rounded once).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np
import pyarrow as pa

from multas.nucleo.contrato import CasoDistribuidor, Leitura
from multas.nucleo.datas import formatar_data
from multas.nucleo.dinheiro import (
    CASAS_PRECO,
    arredondar,
    casas_decimais,
    formatar_brl,
    formatar_numero,
    formatar_preco,
    para_json,
)
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.kernel.colunas import Inteiros, Numeros, vazio_como_nulo
from multas.nucleo.kernel.regras import Entradas, distribuidor, ler_entradas
from multas.nucleo.legislacao import Legislacao, Lei, carregar
from multas.nucleo.preco import exato

REGIME = "renovabio.distribuidor"
# CASAS_PRECO: the decimal places of a simulated (lognormal) price, those a price is read with
#: a simulated price must stay below this (R$ per CBIO): with CASAS_PRECO places its mantissa
#: stays well inside a float's exact integers (2^53), so rounding it is exact; a model that
#: drifts past it (or overflows to infinity) is refused, never cut to a wrong price
PRECO_SIMULADO_MAXIMO = 10**9
PERCENTIS = (50, 90, 99)
_LINHAS_POR_BLOCO = 1 << 20  # rows (distributor × scenario) per kernel call
_LINHAS_PARA_LACO = 4_000_000


@dataclass(frozen=True)
class Cenarios:
    """Each scenario's highest monthly average: ``mantissa / 10**escala`` (exact)."""

    mantissa: Inteiros
    escala: int

    def preco(self, i: int) -> Decimal:
        return Decimal(int(self.mantissa[i])).scaleb(-self.escala)


#: scenarios are drawn in blocks of this many, block ``b`` from its own generator seeded by
#: (seed, b): one machine or a cluster's workers, in any order, draw the same numbers
CENARIOS_POR_BLOCO = 10_000


def gerador(semente: int, bloco: int) -> np.random.Generator:
    """Block ``bloco``'s generator: NumPy's independent stream ``bloco`` of ``semente``
    (``SeedSequence`` with a spawn key, its way to split one seed for parallel work)."""
    if semente < 0:
        raise EntradaInvalida("seed", "a semente deve ser um inteiro não negativo")
    return np.random.default_rng(np.random.SeedSequence(semente, spawn_key=(bloco,)))


@dataclass(frozen=True)
class Historico:
    """Bootstrap: each scenario's year is 12 monthly averages drawn with replacement from a
    series (its prices as ``mantissas / 10**escala``, exact)."""

    mantissas: tuple[int, ...]
    escala: int

    def sortear(self, gerador: np.random.Generator, n: int) -> Cenarios:
        mantissas = np.array(self.mantissas, dtype=np.int64)
        sorteio = gerador.integers(0, len(mantissas), size=(n, 12))
        return Cenarios(mantissas[sorteio].max(axis=1), self.escala)


@dataclass(frozen=True)
class Lognormal:
    """Geometric Brownian motion, monthly steps from ``preco_inicial``; each scenario is the
    year's highest month, with :data:`CASAS_PRECO` places."""

    preco_inicial: Decimal | Fraction  # the tool's own exact p/q is accepted back
    drift: float
    volatilidade: float

    def sortear(self, gerador: np.random.Generator, n: int) -> Cenarios:
        passo = 1 / 12
        choques = gerador.standard_normal((n, 12))
        deriva = (self.drift - self.volatilidade**2 / 2) * passo
        log_retornos = deriva + self.volatilidade * np.sqrt(passo) * choques
        with np.errstate(over="ignore"):  # an overflow is refused just below
            caminho = float(self.preco_inicial) * np.exp(np.cumsum(log_retornos, axis=1))
        maior = caminho.max(axis=1)
        if not np.all(maior < PRECO_SIMULADO_MAXIMO):  # also NaN and infinity
            raise EntradaInvalida(
                "volatilidade",
                "o modelo lognormal gerou preços acima de "
                f"{formatar_numero(PRECO_SIMULADO_MAXIMO)} por CBIO: reduza a tendência "
                "(drift) ou a volatilidade",
            )
        # the one place a float becomes a price: rounded to CASAS_PRECO places, then exact
        mantissa = np.floor(maior * 10**CASAS_PRECO + 0.5).astype(np.int64)
        return Cenarios(np.maximum(mantissa, 1), CASAS_PRECO)


@dataclass(frozen=True)
class Sorteio:
    """``n`` scenarios of ``modelo`` from ``semente``, in blocks of :data:`CENARIOS_POR_BLOCO`
    (picklable: a worker draws its own blocks)."""

    modelo: Historico | Lognormal
    n: int
    semente: int

    @property
    def blocos(self) -> int:
        return -(-self.n // CENARIOS_POR_BLOCO)

    def bloco(self, b: int) -> Cenarios:
        tamanho = min(CENARIOS_POR_BLOCO, self.n - b * CENARIOS_POR_BLOCO)
        return self.modelo.sortear(gerador(self.semente, b), tamanho)

    def todos(self) -> Cenarios:
        partes = [self.bloco(b) for b in range(self.blocos)]
        return Cenarios(np.concatenate([p.mantissa for p in partes]), partes[0].escala)


def historico(precos: Sequence[Decimal]) -> Historico:
    """The bootstrap model of a series, checked."""
    if not precos:
        raise EntradaInvalida("historico", "a série histórica está vazia")
    escala = max(max(0, -int(p.as_tuple().exponent)) for p in precos)
    if escala > 6:
        raise EntradaInvalida("historico", "preço com mais de 6 casas decimais")
    for preco in precos:
        conferir_preco(preco, "historico")
    return Historico(tuple(int(p.scaleb(escala)) for p in precos), escala)


def ler_preco(texto: str, campo: str, ptbr: bool = False) -> Decimal | Fraction:
    """A price typed for the simulation (``--preco-atual``, the page's field): a decimal, or
    the exact ``p/q`` that multas writes for a mean that never ends (read back exactly)."""
    from multas.nucleo.contrato import Campo, ler_valor

    valor: Decimal | Fraction = ler_valor(
        texto, Campo(campo, "preco", "", True, 0), Leitura(True, ptbr)
    )
    return valor


def conferir_preco(preco: Decimal | Fraction, campo: str) -> Decimal | Fraction:
    """A CBIO price the simulation takes (the series, the initial price, buying now or later):
    below :data:`PRECO_SIMULADO_MAXIMO`, so that its exact mantissa fits the kernel's integers
    and the totals a chart can draw."""
    if preco >= PRECO_SIMULADO_MAXIMO:
        raise EntradaInvalida(
            campo, f"deve ser menor que {formatar_numero(PRECO_SIMULADO_MAXIMO)} por CBIO"
        )
    return preco


def lognormal(preco_inicial: Decimal | Fraction, drift: float, volatilidade: float) -> Lognormal:
    """The lognormal model, checked."""
    import math

    if preco_inicial <= 0:
        raise EntradaInvalida("preco_inicial", "o preço deve ser maior que zero")
    conferir_preco(preco_inicial, "preco_inicial")
    for nome, taxa in (("drift", drift), ("volatilidade", volatilidade)):
        if not math.isfinite(taxa):
            raise EntradaInvalida(nome, "deve ser um número finito")
    if volatilidade < 0:
        raise EntradaInvalida("volatilidade", "não pode ser negativa")
    return Lognormal(preco_inicial, drift, volatilidade)


def cenarios_historicos(precos: Sequence[Decimal], n: int, semente: int) -> Cenarios:
    """Bootstrap: each scenario's year is 12 monthly averages drawn with replacement.

    >>> c = cenarios_historicos([Decimal("70.10"), Decimal("95.5"), Decimal("88")], 4, 1)
    >>> [str(c.preco(i)) for i in range(4)]
    ['95.50', '95.50', '95.50', '95.50']
    """
    return Sorteio(historico(precos), n, semente).todos()


def cenarios_lognormais(
    preco_inicial: Decimal, drift: float, volatilidade: float, n: int, semente: int
) -> Cenarios:
    """Geometric Brownian motion, monthly steps; the year's highest month, with
    :data:`CASAS_PRECO` places.

    >>> c = cenarios_lognormais(Decimal("80"), 0.05, 0.0, 2, 7)
    >>> str(c.preco(0))  # no volatility: the last month, 80 × e^(0.05) = 84.1017
    '84.1017'
    """
    return Sorteio(lognormal(preco_inicial, drift, volatilidade), n, semente).todos()


def carteira(linhas: Sequence[Mapping[str, str | None]]) -> pa.Table:
    """The distributors as the simulation reads them: a text column for each of the regime's
    plain fields, a cell absent or empty as null (the batch's files and the page's form)."""
    from multas.nucleo.regimes import REGIMES

    nomes = [c.nome for c in REGIMES[REGIME].caso.campos() if c.plano]
    return pa.table(
        {
            nome: pa.array([linha.get(nome) or None for linha in linhas], pa.string())
            for nome in nomes
        }
    )


def _repetir(entradas: Entradas, vezes: int) -> dict[str, Any]:
    """Each field column repeated for ``vezes`` scenarios (row-major: distributor, then
    scenario)."""
    campos: dict[str, Any] = {}
    for nome, coluna in entradas.campos.items():
        valores: list[Any] = [getattr(coluna, f) for f in _campos(coluna)]
        repetidos: list[Any] = [
            np.repeat(v, vezes) if isinstance(v, np.ndarray) else v for v in valores
        ]
        campos[nome] = type(coluna)(*repetidos)
    return campos


def _campos(coluna: object) -> tuple[str, ...]:
    from dataclasses import fields

    return tuple(f.name for f in fields(coluna))  # type: ignore[arg-type]


def simular(
    carteira: pa.Table,
    cenarios: Cenarios,
    interpretacao: Mapping[str, str],
    legislacao: Legislacao | None = None,
    ptbr: bool = False,
    validar: bool = True,
    numba: bool = True,
) -> Inteiros:
    """The portfolio's total fine in each scenario, in centavos (exact). ``interpretacao``
    may be partial: the readings not given take their defaults. ``validar``: check every
    distributor with the engine first (a worker computing one block skips it: the client
    has checked). ``numba``: false keeps the compiled loop out (``MULTAS_SEM_NUMBA``, read
    by the adapters)."""
    from multas.nucleo.regimes import REGIMES

    interpretacao = REGIMES[REGIME].interpretacao_padrao() | dict(interpretacao)
    legislacao = legislacao or carregar()
    d = carteira.num_rows
    colunas = {n: vazio_como_nulo(carteira.column(n)) for n in carteira.column_names}
    # a placeholder price for validation; each scenario's price replaces it below
    colunas["maior_media_mensal"] = pa.array(["1"] * d, pa.string())
    base = ler_entradas(REGIME, colunas, d, ptbr)
    if validar:
        _validar(carteira, legislacao, interpretacao, ptbr)
    s = len(cenarios.mantissa)
    totais = np.zeros(s, dtype=np.int64)
    por_bloco = max(1, _LINHAS_POR_BLOCO // max(d, 1))
    # the compiled loop pays for loading Numba (~0.5 s) only on millions of rows
    compilar = numba and d * s >= _LINHAS_PARA_LACO
    for inicio in range(0, s, por_bloco):
        mantissas = cenarios.mantissa[inicio : inicio + por_bloco]
        k = len(mantissas)
        campos = _repetir(base, k)
        campos["maior_media_mensal"] = Numeros(
            np.ones(d * k, np.bool_),
            np.ones(d * k, np.bool_),
            np.tile(mantissas, d),
            np.full(d * k, cenarios.escala, np.int64),
        )
        entradas = Entradas(d * k, campos, np.repeat(base.fora, k))
        r = distribuidor(entradas, interpretacao, legislacao, laco=compilar, hoje=None)
        valores = r.valor.reshape(d, k)
        ok = r.ok.reshape(d, k)
        for linha in np.flatnonzero(~ok.all(axis=1)):  # the engine for what the kernel left
            for j in np.flatnonzero(~ok[linha]):
                preco = cenarios.preco(inicio + int(j))
                valores[linha, j] = _motor(carteira, int(linha), preco, interpretacao, ptbr)
        totais[inicio : inicio + k] = valores.sum(axis=0)
    return totais


def simular_bloco(
    b: int,
    carteira: pa.Table,
    sorteio: Sorteio,
    interpretacao: Mapping[str, str],
    ptbr: bool = False,
    numba: bool = True,
) -> Inteiros:
    """Block ``b`` of the scenarios, drawn and computed where it runs (a Dask worker): the
    block's totals, the same wherever it runs."""
    return simular(carteira, sorteio.bloco(b), interpretacao, ptbr=ptbr, validar=False, numba=numba)


def _dados(
    carteira: pa.Table, i: int, preco: Decimal | None, interpretacao: Mapping[str, str]
) -> dict[str, Any]:
    from multas.nucleo.regimes import REGIMES

    campos = {c.nome for c in REGIMES[REGIME].caso.campos() if c.plano}
    linha = {k: v for k, v in carteira.slice(i, 1).to_pylist()[0].items() if k in campos}
    dados: dict[str, Any] = {"regime": REGIME, "interpretacao": dict(interpretacao)}
    dados |= {k: v for k, v in linha.items() if v not in (None, "")}
    if preco is not None:
        dados["maior_media_mensal"] = f"{preco:f}"
    return dados


def _motor(
    carteira: pa.Table, i: int, preco: Decimal, interpretacao: Mapping[str, str], ptbr: bool
) -> int:
    from multas.nucleo.motor import calcular

    dados = _dados(carteira, i, preco, interpretacao)
    # renovabio.distribuidor: the law of its ano_meta, never today's (no clock needed)
    resultado = calcular(dados, Leitura(True, ptbr), hoje=None)
    return int(Decimal(resultado["valor"]) * 100)


def validar_carteira(
    carteira: pa.Table, interpretacao: Mapping[str, str], ptbr: bool = False
) -> None:
    """Every distributor must be a valid case (any price): else a pt-BR error naming the row."""
    from multas.nucleo.regimes import REGIMES

    leitura = REGIMES[REGIME].interpretacao_padrao() | dict(interpretacao)
    _validar(carteira, carregar(), leitura, ptbr)


def _validar(
    carteira: pa.Table, legislacao: Legislacao, interpretacao: Mapping[str, str], ptbr: bool
) -> None:
    """Every distributor must be a valid case (any price): else a pt-BR error naming the row."""
    from multas.nucleo.motor import calcular

    for i in range(carteira.num_rows):
        try:
            calcular(
                _dados(carteira, i, Decimal(1), interpretacao),
                Leitura(True, ptbr),
                legislacao,
                hoje=None,  # the distributor's law is that of its ano_meta
            )
        except EntradaInvalida as erro:
            raise EntradaInvalida(
                erro.campo, f"distribuidor na linha {i + 1} da carteira: {erro.mensagem}"
            ) from None


def faltantes(carteira: pa.Table, interpretacao: Mapping[str, str], ptbr: bool = False) -> int:
    """CBIOs missing across the portfolio (meta − aposentados, at least zero, per row), read
    by the engine's own contract."""
    from multas.nucleo.motor import ler_caso

    total = 0
    for i in range(carteira.num_rows):
        _, caso, _ = ler_caso(_dados(carteira, i, Decimal(1), interpretacao), Leitura(True, ptbr))
        assert isinstance(caso, CasoDistribuidor)
        total += max(0, caso.meta_cbios - caso.cbios_aposentados)
    return total


def decimal_do_historico(preco: Fraction) -> Decimal:
    """A fraction in the series: its decimal when it has at most the series' places; else an
    error that says why (the resampled series is kept in integers of at most 6 places)."""
    texto = exato(preco)
    if "/" in texto or casas_decimais(Decimal(texto)) > 6:
        raise EntradaInvalida(
            "historico",
            f"a média {texto} não é um decimal de até 6 casas, a forma que a série histórica "
            f"guarda (arredondada: {formatar_preco(preco)})",
        )
    return Decimal(texto)


def ler_historico(caminho: Path, ptbr: bool = False) -> list[Decimal]:
    """Monthly averages from a CSV: the column ``preco`` (or the last one), one per row."""
    import csv

    from multas.nucleo.contrato import Campo, ler_valor

    campo = Campo("historico", "preco", "média mensal", True, 0)
    with open(caminho, encoding="utf-8-sig", newline="") as arquivo:
        linhas = list(csv.reader(arquivo, delimiter=";" if ptbr else ","))
    if len(linhas) < 2:
        raise EntradaInvalida(
            "historico", f"{caminho.name}: informe um cabeçalho e ao menos um mês"
        )
    cabecalho = [c.strip().lower() for c in linhas[0]]
    coluna = cabecalho.index("preco") if "preco" in cabecalho else len(cabecalho) - 1
    precos = []
    for numero, linha in enumerate(linhas[1:], 2):
        if not any(c.strip() for c in linha):
            continue
        try:
            preco = ler_valor(linha[coluna], campo, Leitura(True, ptbr))
            if isinstance(preco, Fraction):  # p/q, as multas writes a mean that never ends
                preco = decimal_do_historico(preco)
            precos.append(preco)
        except (EntradaInvalida, IndexError) as erro:
            mensagem = erro.mensagem if isinstance(erro, EntradaInvalida) else "coluna ausente"
            raise EntradaInvalida("historico", f"linha {numero}: {mensagem}") from None
    return precos


def percentil(ordenados: Inteiros, p: int) -> int:
    """Nearest rank: the smallest scenario value with at least p% of scenarios at or below it.

    >>> percentil(np.array([10, 20, 30, 40]), 50), percentil(np.array([10, 20, 30, 40]), 99)
    (20, 40)
    """
    posicao = -(-p * len(ordenados) // 100)  # ceil(p·n/100)
    return int(ordenados[max(posicao, 1) - 1])


def fundamento_recompra(legislacao: Legislacao | None = None) -> str:
    """The carry-over's provision: the shortfall joins next year's target, fine paid or not."""
    from datetime import date

    from multas.nucleo.ciclo.prazos import fundamento, vigencia_em

    legislacao = legislacao or carregar()
    return fundamento(vigencia_em(legislacao, "ciclo.meta_acrescida", date.max))


def prazos(carteira: pa.Table, interpretacao: Mapping[str, str], ptbr: bool = False) -> list[date]:
    """Each distributor's compliance deadline (the given one, else the table's): the date whose
    law spec § 2 applies, and so what :func:`alem_da_multa` lists (W1)."""
    from multas.nucleo.motor import ler_caso

    legislacao = carregar()
    datas = []
    for i in range(carteira.num_rows):
        _, caso, _ = ler_caso(_dados(carteira, i, Decimal(1), interpretacao), Leitura(True, ptbr))
        assert isinstance(caso, CasoDistribuidor)
        tabela = legislacao.prazo_comprovacao(caso.ano_meta)
        prazo = caso.prazo_comprovacao or (tabela[0] if tabela else None)
        if prazo is not None:
            datas.append(prazo)
    return datas


def alem_da_multa(
    legislacao: Legislacao | None = None, prazos: Sequence[date] | None = None
) -> list[str]:
    """What not complying brings beyond the money (pt-BR), each with its provision, by the law
    of each target's deadline (spec § 2 and § 3.7 W1): a target due by 31/12/2024 has no crime
    reference from the 2025 caput, no list, no ban and no 1/12 reduction, and the old ceiling.
    Without ``prazos``, the law in force last."""
    legislacao = legislacao or carregar()
    if not prazos:
        prazos = [legislacao.parametro("renovabio.distribuidor.reducao").vigencias[-1].inicio]
    por_redacao: dict[bool, date] = {}
    for prazo in sorted(prazos):
        nova = Lei(legislacao, prazo).get("renovabio.distribuidor.reducao") is not None
        por_redacao.setdefault(nova, prazo)
    itens: list[str] = []
    if False in por_redacao:
        itens += _sem_a_redacao_de_2025(legislacao, por_redacao[False], True in por_redacao)
    if True in por_redacao:
        itens += _com_a_redacao_de_2025(legislacao, por_redacao[True], False in por_redacao)
    itens.append(
        "Outras sanções administrativas da ANP: Decreto nº 2.953/1999, art. 21 (multa, suspensão "
        "de fornecimento, cancelamento de registro, revogação de autorização, entre outras); "
        "os textos do projeto não as ligam ao descumprimento da meta: confira se cabem."
    )
    return itens


def _teto(legislacao: Legislacao, prazo: date) -> str:
    teto = Lei(legislacao, prazo)["renovabio.distribuidor.teto"]
    return f"{formatar_brl(arredondar(teto.fracao))} ({teto.fundamento})"


def _sem_a_redacao_de_2025(legislacao: Legislacao, prazo: date, misturada: bool) -> list[str]:
    del misturada  # the old wording's items always say which targets they are about
    quais = "Metas com prazo de comprovação até 31/12/2024"
    return [
        f"{quais} (prazo de {formatar_data(prazo)}; redação anterior à Lei nº 15.082/2024 e ao "
        "Decreto nº 12.437/2025, como lê o Parecer nº 00041/2025/PF-ANP): sem lista de sanções, "
        "sem vedação da comercialização e sem redução da multa pela quitação; teto da multa de "
        f"{_teto(legislacao, prazo)}.",
        f"{quais}: o fato pode também ser o crime do art. 68 da Lei nº 9.605/1998 (texto não "
        "transcrito), conforme essa lei, não o decreto; a redação do art. 6º do Decreto nº "
        "9.888/2019 que o menciona é de 2025 e não se aplica.",
    ]


def _com_a_redacao_de_2025(legislacao: Legislacao, prazo: date, misturada: bool) -> list[str]:
    lei = Lei(legislacao, prazo)
    meses, reducao = (
        lei["renovabio.distribuidor.reducao_meses"],
        lei["renovabio.distribuidor.reducao"],
    )
    quais = "Metas com prazo de comprovação a partir de 01/01/2025: " if misturada else ""
    return [
        f"{quais}Decreto nº 9.888/2019, art. 6º, caput (redação do Decreto nº 12.437/2025): a "
        'multa vem "sem prejuízo das sanções administrativas e pecuniárias e de natureza civil e '
        'penal cabíveis", e "além das implicações decorrentes da prática do crime de que trata o '
        'art. 68 da Lei nº 9.605, de 12 de fevereiro de 1998".',
        f"{quais}Lista de sanções (Decreto nº 9.888/2019, art. 6º-A): a vedação da "
        'comercialização e da importação (Lei nº 13.576/2017, art. 9º-B) "somente cessará com '
        "a retirada do nome do distribuidor da lista de sanções mediante o cumprimento da sua "
        'meta individual".',
        f"{quais}Comprar dentro da janela de redução reduz a multa: quitada a meta em até "
        f"{meses.inteiro} meses do prazo de comprovação, a multa cai à razão de "
        f"{reducao.fracao} ao mês ({reducao.fundamento}); teto da multa de "
        f"{_teto(legislacao, prazo)}.",
    ]


def resumir(
    totais: Inteiros,
    faltando: int,
    preco_atual: Decimal | Fraction,
    preco_recompra: Decimal | Fraction | None = None,
    legislacao: Legislacao | None = None,
    prazos: Sequence[date] | None = None,
) -> dict[str, Any]:
    """The report, money as JSON strings (exact).

    Not complying costs two parts: the fine, and buying the same CBIOs later, because the
    shortfall joins the next year's target whether or not the fine is paid (the carry-over,
    :func:`fundamento_recompra`). The later purchase is priced at ``preco_recompra`` (by default
    the price of buying now). ``custo_nao_cumprir`` is the sum of the two rounded parts, so
    the comparison adds up on the page.
    """
    ordenados = np.sort(totais)
    media = Fraction(sum(int(v) for v in totais), 100 * len(totais))
    custo = arredondar(Fraction(faltando) * Fraction(preco_atual))
    esperada = arredondar(media)
    recompra_preco = preco_atual if preco_recompra is None else preco_recompra
    recompra = arredondar(Fraction(faltando) * Fraction(recompra_preco))
    nao_cumprir = esperada + recompra
    return {
        "cenarios": len(totais),
        **{f"p{p}": para_json(Decimal(percentil(ordenados, p)) / 100) for p in PERCENTIS},
        "multa_esperada": para_json(esperada),
        "minimo": para_json(Decimal(int(ordenados[0])) / 100),
        "maximo": para_json(Decimal(int(ordenados[-1])) / 100),
        "cbios_faltantes": faltando,
        "preco_atual": exato(preco_atual),
        "custo_comprar_agora": para_json(custo),
        "diferenca_esperada_menos_custo": para_json(esperada - custo),
        "preco_recompra": exato(recompra_preco),
        "custo_recompra": para_json(recompra),
        "custo_nao_cumprir": para_json(nao_cumprir),
        "diferenca_nao_cumprir_menos_custo": para_json(nao_cumprir - custo),
        "fundamento_recompra": fundamento_recompra(legislacao),
        "alem_da_multa": alem_da_multa(legislacao, prazos),
    }


def veredito(resumo: Mapping[str, Any]) -> str:
    """Buying now against not complying, in one pt-BR sentence (the report and the page)."""
    diferenca = Decimal(resumo["diferenca_nao_cumprir_menos_custo"])
    if diferenca > 0:
        return f"Comprar agora custa {formatar_brl(diferenca)} a menos que não cumprir."
    if diferenca < 0:
        return f"Não cumprir custa {formatar_brl(-diferenca)} a menos que comprar agora."
    return "Comprar agora custa o mesmo que não cumprir."


def como_texto(resumo: Mapping[str, Any]) -> str:
    """The report for people (pt-BR, R$)."""
    faltantes = formatar_numero(resumo["cbios_faltantes"])
    linhas = [
        f"Exposição à multa do RenovaBio em {formatar_numero(resumo['cenarios'])} cenários de "
        "preço do CBIO",
        f"  P50 (mediana)              {formatar_brl(resumo['p50'])}",
        f"  P90                        {formatar_brl(resumo['p90'])}",
        f"  P99                        {formatar_brl(resumo['p99'])}",
        f"  Multa esperada (média)     {formatar_brl(resumo['multa_esperada'])}",
        f"  Menor e maior              {formatar_brl(resumo['minimo'])} a {formatar_brl(resumo['maximo'])}",
        f"  CBIOs faltantes            {faltantes}",
        f"  Comprar agora              {formatar_brl(resumo['custo_comprar_agora'])} "
        f"(a {formatar_preco(resumo['preco_atual'])} por CBIO)",
        "",
        "  Não cumprir custa a multa e também a compra dos mesmos CBIOs depois: a falta",
        f"  soma-se à meta do ano seguinte, paga ou não a multa ({resumo['fundamento_recompra']}).",
        f"    Multa esperada           {formatar_brl(resumo['multa_esperada'])}",
        f"    + comprar depois         {formatar_brl(resumo['custo_recompra'])} "
        f"({faltantes} CBIOs a {formatar_preco(resumo['preco_recompra'])})",
        f"    = não cumprir            {formatar_brl(resumo['custo_nao_cumprir'])}",
    ]
    linhas += [f"  {veredito(resumo)}", "", "  Além do dinheiro:"]
    linhas += [f"  - {item}" for item in resumo.get("alem_da_multa", [])]
    return "\n".join(linhas) + "\n"


def _caixas(valores: Any, caixas: int) -> Any:
    """The histogram's bins: ``caixas`` of them, or, where the values differ by less than a
    float can tell apart at their size (huge totals, nearly equal), one bin around them (NumPy
    refuses "too many bins for data range")."""
    menor, maior = float(valores.min()), float(valores.max())
    folga = max(abs(menor), abs(maior), 1.0) * 1e-9
    if maior - menor > folga * caixas:
        return caixas
    return np.array([menor - folga * caixas, maior + folga * caixas])


def grafico(totais: Inteiros, resumo: Mapping[str, Any], caminho: Path | BinaryIO) -> None:
    """A PNG histogram of the simulated fines (matplotlib, Agg backend; floats only to draw),
    into a file (``multas exposicao --grafico``) or a binary stream (the page)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    milhoes = totais / 100 / 1e6
    recompra = float(Decimal(resumo["custo_recompra"])) / 1e6
    figura, eixo = plt.subplots(figsize=(8, 4.8), dpi=110)
    caixas = min(60, max(10, len(totais) // 50))
    eixo.hist(
        milhoes, bins=_caixas(milhoes, caixas), color="#4c72b0", alpha=0.55, label="só a multa"
    )
    eixo.hist(
        milhoes + recompra,
        bins=_caixas(milhoes + recompra, caixas),
        color="#c44e52",
        alpha=0.55,
        label=f"não cumprir: multa + comprar depois ({formatar_brl(resumo['custo_recompra'])})",
    )
    marcas = [
        ("P50 da multa", resumo["p50"], "#222222", "-"),
        ("P90 da multa", resumo["p90"], "#dd8452", "--"),
        ("P99 da multa", resumo["p99"], "#c44e52", "--"),
        ("multa esperada", resumo["multa_esperada"], "#55a868", "-"),
        ("não cumprir (esperado)", resumo["custo_nao_cumprir"], "#8c1c13", "-"),
        ("comprar agora", resumo["custo_comprar_agora"], "#8172b3", ":"),
    ]
    for rotulo, valor, cor, estilo in marcas:
        eixo.axvline(
            float(Decimal(valor)) / 1e6,
            color=cor,
            linestyle=estilo,
            label=f"{rotulo}: {formatar_brl(valor)}",
        )
    figura.text(
        0.01,
        0.01,
        "A falta soma-se à meta do ano seguinte, paga ou não a multa "
        f"({resumo['fundamento_recompra']}).",
        fontsize=7,
    )
    eixo.set_xlabel("Custo total (R$ milhões)")
    eixo.set_ylabel("Cenários")
    eixo.set_title(
        f"Não cumprir a meta do RenovaBio em {formatar_numero(resumo['cenarios'])} cenários "
        "de preço do CBIO"
    )
    eixo.legend(fontsize=8)
    figura.tight_layout(rect=(0, 0.04, 1, 1))
    figura.savefig(caminho, format="png")
    plt.close(figura)
