"""The vectorised kernel against the scalar engine, row by row, on generated columns.

Each example is a column batch whose rows lean on the rules' edges: the floor and the ceilings
(50M / 500M by deadline year, 50M for the producer), the revenue cap (revenue 0, a cap below
the floor, the cap exactly equal to the fine), the 1/12 reduction for k = 1..12 and month ends,
deadlines 2021–2024+, data_referencia across the change of law, the doubling, mora around
holidays and weekends under both calendars, MOVER band boundaries under the three readings.
Some cells are made invalid (a third decimal place, a fractional count, an impossible date, a
half pair...), and some rows are written in pt-BR notation.

Checked on every row: where the kernel computes (``ok``), the engine computes the same
``valor`` and outputs to the centavo; through ``multas.lote.processar`` (kernel + engine for
the rest) every row's result *and* error equal the engine's. A row generated in the kernel's
fast shapes that the engine accepts must be computed by the kernel (so the test cannot pass by
sending everything to the engine).
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal
from typing import Any

import pyarrow as pa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from multas import calcular
from multas.lote.processar import Bloco, Config, processar, tipo_saida
from multas.nucleo.contrato import Leitura
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.kernel import calcular_colunas
from multas.nucleo.legislacao import Lei, carregar
from multas.nucleo.motor import ler_interpretacao, regime_de
from multas.nucleo.regimes import REGIMES
from multas.servicos import relogio

Linha = dict[str, str | None]

INVALIDOS = [
    "abc",
    "-1",
    " 12",
    "+5",
    "1e3",
    "1.",
    "",
    "1,5,5",
    "2026-02-30",
    "0x10",
    "٣",
    "999999999999999",  # 15 digits: the largest number the contract reads
    "1000000000000000",  # 16 digits: too large
    "99999999999999.99",
]


def _texto(valor: Decimal | int, ptbr: bool) -> str:
    texto = f"{valor:f}" if isinstance(valor, Decimal) else str(valor)
    if not ptbr:
        return texto
    inteiro, _, decimais = texto.partition(".")
    grupos = f"{int(inteiro):,}".replace(",", ".")
    return grupos + ("," + decimais if decimais else "")


def _data(d: date) -> str:
    return d.isoformat()


@st.composite
def precos(draw: st.DrawFn) -> Decimal:
    if draw(st.integers(0, 3)) == 0:  # divisors of the floor and ceilings: exact edges
        return Decimal(
            draw(st.sampled_from(["0.5", "1", "2", "12.5", "50", "80", "100", "125.00"]))
        )
    casas = draw(st.integers(0, 6))
    inteiro = draw(st.one_of(st.integers(0, 300), st.integers(0, 10**6)))
    fracao = draw(st.integers(0, 10**casas - 1)) if casas else 0
    menor = Decimal(1).scaleb(-casas)
    return max(Decimal(inteiro) + Decimal(fracao).scaleb(-casas), menor)


@st.composite
def quantidades_nos_limites(draw: st.DrawFn, preco: Decimal, tetos: list[int]) -> int:
    """A count whose valor apurado lands near the floor, a ceiling, or anywhere."""
    alvo = draw(st.sampled_from([100_000, *tetos, None]))
    if alvo is None:
        return draw(st.integers(0, 3 * 10**7))
    base = int(Decimal(alvo) / preco)
    return max(0, base + draw(st.integers(-2, 2)))


@st.composite
def faturamentos(draw: st.DrawFn, multa_aprox: Decimal, ptbr: bool) -> tuple[str, str] | None:
    modo = draw(st.sampled_from(["nenhum", "livre", "zero", "cap_igual", "pequeno"]))
    if modo == "nenhum":
        return None
    if modo == "zero":
        a, b = Decimal("0.00"), Decimal(draw(st.integers(0, 10**9)))
    elif modo == "cap_igual":  # 5% of the mean equals the fine (to the centavo)
        media = (multa_aprox * 20).quantize(Decimal("0.01"))
        delta = Decimal(draw(st.integers(-100, 100))).scaleb(-2)
        a, b = media + delta, media - delta
    elif modo == "pequeno":  # a cap below the floor
        a = Decimal(draw(st.integers(0, 2_000_000_00))).scaleb(-2)
        b = Decimal(draw(st.integers(0, 2_000_000_00))).scaleb(-2)
    else:
        a = Decimal(draw(st.integers(0, 10**13))).scaleb(-2)
        b = Decimal(draw(st.integers(0, 10**13))).scaleb(-2)
    a, b = max(a, Decimal(0)), max(b, Decimal(0))
    return _texto(a, ptbr), _texto(b, ptbr)


def _estragar(draw: st.DrawFn, linha: Linha, campos: list[str]) -> tuple[Linha, bool]:
    """Sometimes break one cell (or drop a required one); returns (row, still in fast shape)."""
    modo = draw(st.sampled_from(["ok"] * 6 + ["invalido", "apagar", "casas"]))
    if modo == "ok":
        return linha, True
    campo = draw(st.sampled_from(campos))
    if modo == "invalido":
        linha[campo] = draw(st.sampled_from(INVALIDOS))
    elif modo == "apagar":
        linha[campo] = None
    else:
        atual = linha.get(campo) or "1"
        linha[campo] = atual + ("0001" if "." in atual or "," in atual else ".001")
    return linha, False


# --- renovabio.distribuidor ---------------------------------------------------------------

#: the part of the target a distributor may defer (read from the legislation, not copied)
DIFERIMENTO = Lei(carregar(), date(2025, 12, 31))["ciclo.diferimento"].fracao
FIM_DE_MES = [date(2025, 12, 31), date(2026, 1, 31), date(2026, 2, 28), date(2024, 2, 29)]


@st.composite
def distribuidores(draw: st.DrawFn, ptbr: bool) -> tuple[Linha, bool]:
    ano = draw(st.sampled_from([2020, 2021, 2022, 2023, 2024, 2025, 2025, 2026, 2030]))
    preco = draw(precos())
    # the floor, the ceilings, and fines whose k/12 reduction lands on the floor
    reduzidas = [100_000 * 12 // k for k in (1, 2, 3, 4, 5, 6, 8, 11)]
    faltantes = draw(quantidades_nos_limites(preco, [50_000_000, 500_000_000, *reduzidas]))
    aposentados = draw(st.integers(0, 10**6))
    if draw(st.integers(0, 9)) == 0:  # target met
        meta, aposentados = aposentados, aposentados + draw(st.integers(0, 5))
    elif draw(st.integers(0, 5)) == 0:  # around the deferral's edge (its fraction of the target)
        meta = draw(st.integers(20, 10**7))
        aposentados = meta - int(DIFERIMENTO * meta) + draw(st.integers(-1, 1))
    else:
        meta = aposentados + faltantes
    linha: Linha = {
        "ano_meta": str(ano),
        "meta_cbios": _texto(meta, ptbr) if ptbr and meta < 1000 else str(meta),
        "cbios_aposentados": str(aposentados),
        "maior_media_mensal": _texto(preco, ptbr),
    }
    if draw(st.integers(0, 5)) == 0:  # the carried shortfall: below, at or past the target
        linha["falta_anterior"] = str(max(0, meta + draw(st.sampled_from([-2, -1, 0, 0, 1]))))
    for campo in ("meta_anterior_cumprida", "diferir"):  # the deferral, when told
        valor = draw(st.sampled_from([None, None, "true", "false", "sim", "não", "1", "0"]))
        if valor is not None:
            linha[campo] = valor
    fat = draw(faturamentos(min(faltantes * preco, Decimal(500_000_000)), ptbr))
    if fat:
        linha["faturamento_ano_meta"], linha["faturamento_ano_anterior"] = fat
    prazo = {2021: date(2021, 12, 31), 2022: date(2023, 9, 30), 2023: date(2024, 3, 31)}.get(
        ano, date(ano, 12, 31)
    )
    if draw(st.integers(0, 4)) == 0:
        prazo = draw(st.sampled_from([*FIM_DE_MES, date(2025, 3, 31), date(2022, 6, 30)]))
        linha["prazo_comprovacao"] = _data(prazo)
    if draw(st.booleans()):
        k = draw(st.integers(0, 13))
        quitacao = prazo + timedelta(days=draw(st.sampled_from([-1, 0, 1, 28, 30, 31])))
        if k:  # around prazo + k months, month ends included
            from multas.nucleo.datas import somar_meses

            quitacao = somar_meses(prazo, k) + timedelta(days=draw(st.integers(-1, 1)))
        linha["data_quitacao"] = _data(quitacao)
    if draw(st.integers(0, 5)) == 0:
        referencia = draw(
            st.sampled_from(
                [date(2024, 12, 31), date(2025, 1, 1), date(2019, 6, 27), date(2018, 1, 1)]
            )
        )
        linha["data_referencia"] = _data(referencia)
    return _estragar(draw, linha, list(linha))


# --- renovabio.produtor ---------------------------------------------------------------------


@st.composite
def produtores(draw: st.DrawFn, ptbr: bool) -> tuple[Linha, bool]:
    preco = draw(precos())
    nao_pagos = draw(quantidades_nos_limites(preco, [50_000_000, 25_000_000]))
    linha: Linha = {
        "ano": str(draw(st.sampled_from([2024, 2025, 2025, 2026]))),
        "cbios_nao_pagos": str(nao_pagos),
        "maior_media_mensal": _texto(preco, ptbr),
        "dados_primarios": draw(
            st.sampled_from([None, "true", "false", "1", "0", "sim", "não", "nao", "SIM", "Falso"])
        ),
    }
    fat = draw(faturamentos(min(nao_pagos * preco * 2, Decimal(50_000_000)), ptbr))
    if fat:
        linha["faturamento_ano_meta"], linha["faturamento_ano_anterior"] = fat
    if draw(st.integers(0, 5)) == 0:
        linha["data_referencia"] = _data(
            draw(st.sampled_from([date(2024, 6, 1), date(2025, 6, 1)]))
        )
    return _estragar(draw, linha, list(linha))


# --- anp.mora -------------------------------------------------------------------------------

SEM_EXPEDIENTE = [
    date(2025, 3, 3),  # Carnaval
    date(2025, 3, 4),
    date(2025, 3, 5),  # Quarta-feira de Cinzas
    date(2024, 3, 29),  # Sexta-feira Santa
    date(2025, 4, 18),
    date(2023, 11, 20),  # not yet a holiday
    date(2024, 11, 20),
    date(2025, 11, 20),
    date(2024, 12, 24),
    date(2024, 12, 31),
    date(2025, 12, 31),
    date(2025, 12, 25),
    date(2026, 1, 1),
    date(2025, 6, 19),  # Corpus Christi
    date(2025, 10, 28),
    date(2025, 5, 31),  # a Saturday
]


@st.composite
def moras(draw: st.DrawFn, ptbr: bool) -> tuple[Linha, bool]:
    alvo = draw(st.sampled_from(SEM_EXPEDIENTE))
    ciencia = alvo - timedelta(days=30 + draw(st.integers(-2, 2)))
    if draw(st.integers(0, 4)) == 0:
        ciencia = draw(st.dates(date(1995, 1, 1), date(2150, 12, 31)))
    elif draw(st.integers(0, 6)) == 0:  # around the start of art. 37-A (04/12/2008)
        ciencia = date(2008, 11, 4) + timedelta(days=draw(st.integers(-3, 3)))
    vencimento_aprox = ciencia + timedelta(days=30)
    pagamento = vencimento_aprox + timedelta(days=draw(st.integers(-40, 800)))
    if draw(st.booleans()):  # month ends
        from multas.nucleo.datas import somar_meses

        pagamento = somar_meses(vencimento_aprox, draw(st.integers(0, 30))) + timedelta(
            days=draw(st.integers(-3, 3))
        )
    principal = Decimal(draw(st.one_of(st.integers(1, 10**6), st.integers(1, 10**14)))).scaleb(-2)
    linha: Linha = {
        "principal": _texto(principal, ptbr),
        "data_ciencia": _data(ciencia),
        "data_pagamento": _data(pagamento),
    }
    if draw(st.integers(0, 6)) == 0:
        linha["data_referencia"] = _data(
            draw(
                st.sampled_from(
                    [date(1998, 1, 1), date(2010, 1, 1), date(2008, 12, 3), date(2008, 12, 4)]
                )
            )
        )
    return _estragar(draw, linha, list(linha))


@st.composite
def taxas_selic(draw: st.DrawFn) -> dict[str, str] | None:
    """The batch's Selic (``--selic``): absent, or monthly rates (up to 4 places, some 0) over
    a span of months, sometimes with a gap."""
    if draw(st.integers(0, 4)) == 0:
        return None
    inicio = draw(st.integers(2007 * 12, 2026 * 12))
    meses = draw(st.integers(1, 12 * 22))
    # a gap only where another month remains: `--selic` refuses an empty table up front
    # (ler_selic), so the kernel is never given {}
    lacuna = draw(st.one_of(st.none(), st.integers(inicio, inicio + meses))) if meses > 1 else None
    taxas = {}
    for i in range(inicio, inicio + meses):
        if i == lacuna:
            continue
        casas = draw(st.integers(0, 4))
        taxa = Decimal(draw(st.integers(0, 250 * 10**casas // 100))).scaleb(-casas)
        taxas[f"{i // 12:04d}-{i % 12 + 1:02d}"] = str(taxa)
    return taxas


# --- mover.eficiencia ------------------------------------------------------------------------

EXCESSOS_TANQUE = ["0.01", "0.012", "0.02", "0.03", "0.031", "0", "-0.01", "0.000001", "0.5"]
EXCESSOS_POCO = ["1", "1.2", "2", "3", "3.1", "4", "0", "-1", "0.5", "250"]


@st.composite
def movers(draw: st.DrawFn, ptbr: bool) -> tuple[Linha, bool]:
    linha: Linha = {"veiculos": str(draw(st.one_of(st.integers(1, 10), st.integers(1, 10**7))))}
    ciclos = draw(st.sampled_from(["tanque", "poco", "ambos", "ambos"]))
    if ciclos in ("tanque", "ambos"):
        meta = Decimal(draw(st.integers(50, 300))).scaleb(-2)
        excesso = Decimal(draw(st.sampled_from(EXCESSOS_TANQUE)))
        if draw(st.booleans()):
            excesso = Decimal(draw(st.integers(-100, 2000))).scaleb(-draw(st.integers(0, 5)))
        linha["meta_mj_km"] = _texto(meta, ptbr)
        linha["consumo_mj_km"] = _texto(max(meta + excesso, Decimal(0)), ptbr)
    if ciclos in ("poco", "ambos"):
        meta = Decimal(draw(st.integers(50, 200)))
        excesso = Decimal(draw(st.sampled_from(EXCESSOS_POCO)))
        linha["meta_gco2_km"] = _texto(meta, ptbr)
        linha["emissao_gco2_km"] = _texto(meta + excesso, ptbr)
    if draw(st.integers(0, 5)) == 0:
        linha["data_referencia"] = _data(
            draw(st.sampled_from([date(2023, 1, 1), date(2024, 6, 1)]))
        )
    return _estragar(draw, linha, list(linha))


GERADORES = {
    "renovabio.distribuidor": distribuidores,
    "renovabio.produtor": produtores,
    "anp.mora": moras,
    "mover.eficiencia": movers,
}


# --- the comparison --------------------------------------------------------------------------


def _esperado(
    regime: str,
    linha: Linha,
    leitura: dict[str, str],
    ptbr: bool,
    constantes: dict[str, Any],
) -> dict[str, Any] | str:
    dados: dict[str, Any] = {"regime": regime, "interpretacao": leitura, **constantes}
    dados |= {k: v for k, v in linha.items() if v not in (None, "")}
    try:
        return calcular(dados, Leitura(tabela=True, decimal_virgula=ptbr))
    except EntradaInvalida as erro:
        return str(erro)


def _acima_do_limite(valor: str | None) -> bool:
    from multas.lote.processar import LIMITE_CENTAVOS

    return valor is not None and Decimal(valor) * 100 >= LIMITE_CENTAVOS


def _como_json(valor: Any, tipo: str) -> Any:
    if valor is None:
        return None
    if tipo == "quantia":
        return f"{int(valor) // 100}.{int(valor) % 100:02d}"
    if tipo == "data":
        return str(valor)
    return int(valor)


def conferir(
    regime: str,
    linhas: list[tuple[Linha, bool]],
    leitura: dict[str, str],
    ptbr: bool,
    selic: dict[str, str] | None = None,
) -> None:
    campos = [c.nome for c in REGIMES[regime].caso.campos() if c.plano]
    tabela = pa.table(
        {c: pa.array([linha.get(c) for linha, _ in linhas], pa.string()) for c in campos}
    )
    n = len(linhas)
    colunas = {c: tabela.column(c).combine_chunks() for c in campos}
    colunas = {c: v for c, v in colunas.items() if v.null_count < n}  # a missing column too
    # the rule both ways: the compiled loop and the NumPy expressions (the RenovaBio regimes)
    constantes: dict[str, Any] = {}
    if selic is not None:  # validated once for the batch, as `multas lote --selic` does
        constantes["taxas_selic"] = {m: Decimal(t) for m, t in selic.items()}
    resultados = [
        calcular_colunas(
            regime,
            colunas,
            n,
            leitura,
            ptbr=ptbr,
            laco=laco,
            constantes=constantes,
            hoje=relogio.hoje(),
        )
        for laco in (True, False)
    ]
    completa = ler_interpretacao(regime_de(regime), leitura)
    cfg = Config(regime, completa, ptbr, constantes=constantes)
    lote = processar(Bloco(0, tabela), cfg).to_pylist()
    saidas = ["valor", *REGIMES[regime].saidas]
    for i, (linha, forma) in enumerate(linhas):
        esperado = _esperado(regime, linha, leitura, ptbr, constantes)
        resumo = esperado if isinstance(esperado, str) else {s: esperado[s] for s in saidas}
        contexto = f"linha {i}: {linha} → {resumo}"
        if isinstance(esperado, str):
            assert not any(r.ok[i] for r in resultados), contexto
            assert lote[i]["erro"] == esperado, contexto
            continue
        grande = [s for s in saidas if tipo_saida(s) == "quantia" and _acima_do_limite(esperado[s])]
        if grande:  # the batch writes amounts of up to 16 integer digits; the kernel leaves it
            assert lote[i]["erro"].startswith(f"{grande[0]}: resultado grande demais"), contexto
            continue
        if forma:
            assert all(r.ok[i] for r in resultados), (
                f"o kernel recusou uma linha válida; {contexto}"
            )
        assert lote[i]["erro"] is None, contexto
        for nome in saidas:
            tipo = tipo_saida(nome)
            assert _como_json(lote[i][nome], tipo) == esperado[nome], f"{nome}; {contexto}"
            for laco, r in zip((True, False), resultados, strict=True):
                if r.ok[i]:
                    bruto = r.valor[i] if nome == "valor" else r.saidas[nome][i]
                    obtido = _como_json(bruto, tipo)
                    assert obtido == esperado[nome], f"{nome} (laço={laco}); {contexto}"


_RENOVABIO = st.fixed_dictionaries(
    {
        "faturamento": st.sampled_from(["media", "maior", "menor"]),
        "piso": st.sampled_from(["lei", "decreto"]),
    }
)
LEITURAS = {
    "renovabio.distribuidor": st.fixed_dictionaries(
        {
            "faturamento": st.sampled_from(["media", "maior", "menor"]),
            "piso": st.sampled_from(["lei", "decreto"]),
            "meses_reducao": st.sampled_from(["fracao", "completos"]),
            "meta_herdada": st.sampled_from(["nao_multa", "multa"]),
        }
    ),
    "renovabio.produtor": _RENOVABIO,
    "anp.mora": st.fixed_dictionaries(
        {
            "calendario": st.sampled_from(["expediente", "feriados"]),
            "encargos": st.sampled_from(["decreto", "lei-10522"]),
        }
    ),
    "mover.eficiencia": st.fixed_dictionaries(
        {"faixa_superior": st.sampled_from(["literal", "marginal", "excedente"])}
    ),
}


@st.composite
def lotes(
    draw: st.DrawFn, regime: str
) -> tuple[list[tuple[Linha, bool]], dict[str, str], bool, dict[str, str] | None]:
    ptbr = draw(st.integers(0, 3)) == 0
    linhas = draw(st.lists(GERADORES[regime](ptbr), min_size=1, max_size=25))
    selic = draw(taxas_selic()) if regime == "anp.mora" else None
    return linhas, draw(LEITURAS[regime]), ptbr, selic


_CONFIG = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_CONFIG
@given(lotes("renovabio.distribuidor"))
def test_kernel_distribuidor_igual_ao_motor(caso: Any) -> None:
    conferir("renovabio.distribuidor", *caso)


@_CONFIG
@given(lotes("renovabio.produtor"))
def test_kernel_produtor_igual_ao_motor(caso: Any) -> None:
    conferir("renovabio.produtor", *caso)


@_CONFIG
@given(lotes("anp.mora"))
def test_kernel_mora_igual_ao_motor(caso: Any) -> None:
    conferir("anp.mora", *caso)


@_CONFIG
@given(lotes("mover.eficiencia"))
def test_kernel_mover_igual_ao_motor(caso: Any) -> None:
    conferir("mover.eficiencia", *caso)


def test_kernel_bordas_da_reducao_e_do_piso() -> None:
    """Deterministic edges: for each k = 1..12 months, fines whose k/12 reduction lands just
    below, on and just above the floor; valores apurados around the floor and the ceilings."""
    from multas.nucleo.datas import somar_meses

    prazo = date(2025, 12, 31)
    linhas: list[tuple[Linha, bool]] = []
    for k, quitacao in (
        *((k, _data(somar_meses(prazo, k))) for k in range(1, 13)),
        # one day past k − 1 months: k months "ou fração", k − 1 whole months
        *((k, _data(somar_meses(prazo, k - 1) + timedelta(days=1))) for k in range(1, 13)),
    ):
        for preco in ("1", "0.25", "12.5"):
            alvo = Decimal(100_000 * 12) / k / Decimal(preco)
            for delta in (-2, -1, 0, 1, 2):
                linhas.append(
                    (
                        {
                            "ano_meta": "2025",
                            "meta_cbios": str(int(alvo) + delta),
                            "cbios_aposentados": "0",
                            "maior_media_mensal": preco,
                            "data_quitacao": quitacao,
                        },
                        True,
                    )
                )
    for ano, teto in (("2024", 50_000_000), ("2025", 500_000_000)):
        for alvo in (100_000, teto):
            for delta in (-1, 0, 1):
                linhas.append(
                    (
                        {
                            "ano_meta": ano,
                            "meta_cbios": str(alvo * 2 + delta),
                            "cbios_aposentados": "0",
                            "maior_media_mensal": "0.5",
                            "faturamento_ano_meta": "1000000.00",
                            "faturamento_ano_anterior": "1000000.00",
                        },
                        True,
                    )
                )
    for piso in ("lei", "decreto"):
        for meses in ("fracao", "completos"):
            leitura = {"faturamento": "media", "piso": piso, "meses_reducao": meses}
            conferir("renovabio.distribuidor", linhas, leitura, False)


def test_kernel_mora_lei_10522_bordas() -> None:
    """Deterministic edges of art. 37-A: payment in the vencimento's month (no interest), the
    next month (1% only), the 20% cap reached on day 61 (0,33% × 61 = 20,13%), a missing
    month, and a vencimento on either side of 04/12/2008."""
    selic = {f"2025-{m:02d}": f"1.{m:02d}" for m in range(1, 13)} | {"2008-12": "1.12"}
    linhas: list[tuple[Linha, bool]] = []
    for ciencia, pagamentos in (
        ("2025-05-02", ["2025-06-02", "2025-06-20", "2025-07-01", "2025-08-01", "2025-08-02"]),
        ("2025-01-10", ["2025-04-10", "2025-04-11", "2026-02-15"]),  # 2026-01 is missing
        ("2008-11-03", ["2008-12-10", "2009-01-05"]),
        ("2008-11-04", ["2008-12-10", "2009-01-05"]),
    ):
        for pagamento in pagamentos:
            linhas.append(
                (
                    {"principal": "12345.67", "data_ciencia": ciencia, "data_pagamento": pagamento},
                    True,
                )
            )
    leitura = {"calendario": "expediente", "encargos": "lei-10522"}
    conferir("anp.mora", linhas, leitura, False, selic)
    # without --selic the shipped series prices each month; one past it is the row's error,
    # naming the month and the command (spec § 3.5 v4)
    lote = processar(
        Bloco(
            0,
            pa.table(
                {
                    "principal": ["1000.00", "1000.00"],
                    "data_ciencia": ["2024-03-29", "2025-05-02"],
                    "data_pagamento": ["2024-09-10", "2025-08-01"],
                }
            ),
        ),
        Config("anp.mora", leitura),
    ).to_pylist()
    motor = calcular(
        {
            "regime": "anp.mora",
            "principal": "1000.00",
            "data_ciencia": "2024-03-29",
            "data_pagamento": "2024-09-10",
            "interpretacao": leitura,
        }
    )
    assert motor["valor"] == "1244.00" and int(lote[0]["valor"]) == 124400  # centavos
    assert lote[1]["erro"] == (
        "taxas_selic.2025-07: taxa Selic de 07/2025 não disponível (última: 04/2025): "
        "atualize com `multas legislacao selic atualizar`"
    )


def test_kernel_mora_selic_com_muitas_casas_vai_ao_motor() -> None:
    """Rates past the kernel's scale are computed exactly by the engine, not rounded."""
    selic = {"2025-06": "0.123456789123"}
    linhas: list[tuple[Linha, bool]] = [
        (
            {
                "principal": "1000000.00",
                "data_ciencia": "2025-04-01",
                "data_pagamento": "2025-07-15",
            },
            False,
        )
    ]
    conferir(
        "anp.mora", linhas, {"calendario": "expediente", "encargos": "lei-10522"}, False, selic
    )


def test_kernel_mora_antes_e_depois_da_lei_9784() -> None:
    """A ciência on 29–31/01/1999 (Decreto 2.953/1999 in force, Lei 9.784/1999 not yet): the
    engine counts the prazo as spec § 1 says, like the kernel, instead of failing; the day
    before the decree is "regime não vigente" in both."""
    linhas: list[tuple[Linha, bool]] = [
        ({"principal": "1000.00", "data_ciencia": ciencia, "data_pagamento": "1999-04-15"}, True)
        for ciencia in ("1999-01-28", "1999-01-29", "1999-01-31", "1999-02-01")
    ]
    for calendario in ("expediente", "feriados"):
        conferir("anp.mora", linhas, {"calendario": calendario, "encargos": "decreto"}, False)
