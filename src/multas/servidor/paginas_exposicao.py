"""The exposure page (issue 20, item 10), in pt-BR: ``multas exposicao`` for one distributor
from a form. The simulation is :mod:`multas.nucleo.exposicao`'s, the same numbers as the CLI for the
same fields, model and seed; the page shows the percentiles, the expected fine, the chart and
buying now against not complying, and says that it is a simulation and which seed it used.
Nothing is stored.

The form works without JavaScript. Numbers take the page's notation (``1.234,56`` or
``1234.56``), as the fine's form does.
"""

from __future__ import annotations

import base64
import io
import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from multas.nucleo.contrato import Campo, ler_valor
from multas.nucleo.dinheiro import formatar_brl, formatar_numero, formatar_preco
from multas.nucleo.erros import Coleta, EntradaInvalida, ErrosDeEntrada
from multas.servicos.configuracao import carregar as carregar_configuracao
from multas.servidor.erros_na_pagina import erros_na_pagina
from multas.servidor.formulario import FORMULARIO, formulario
from multas.servidor.pedido import CamposEnviados, ServicoDoApp
from multas.servidor.resposta import render

rotas = APIRouter(include_in_schema=False)

REGIME = "renovabio.distribuidor"
#: the distributor's fields the page asks for (the simulation sets the price)
CAMPOS_DISTRIBUIDOR = (
    "ano_meta",
    "meta_cbios",
    "cbios_aposentados",
    "faturamento_ano_meta",
    "faturamento_ano_anterior",
)
#: scenarios per request on the page: they are computed while the user waits (the CLI and
#: Dask take up to 10.000.000)
MAXIMO_CENARIOS = 100_000
CENARIOS_PADRAO = 10_000
#: months in the pasted series, at most
MAXIMO_MESES = 1_000
#: the simulation's own fields: (name, label)
ROTULOS = {
    "modelo": "Modelo de preços",
    "historico": "Médias mensais históricas",
    "preco_inicial": "Preço do CBIO hoje",
    "tendencia": "Tendência anual",
    "volatilidade": "Volatilidade anual",
    "cenarios": "Cenários",
    "semente": "Semente",
    "preco_atual": "Preço para comprar agora",
    "preco_recompra": "Preço para comprar depois",
}
#: the page's pt-BR field names for the model's ``--drift`` and ``--seed`` (the core's names)
_NOMES_DA_PAGINA = {"drift": "tendencia", "seed": "semente"}
#: an integer written with thousands (``10.000``)
_MILHARES = re.compile(r"^\d{1,3}(\.\d{3})+$", re.ASCII)
#: a model rate: digits, one decimal point, a sign
_TAXA = re.compile(r"[+-]?\d{1,6}(\.\d{1,12})?", re.ASCII)
#: a month before the price in a pasted line: AAAA-MM or MM/AAAA
_MES = re.compile(r"\d{4}-\d{2}|\d{1,2}/\d{4}", re.ASCII)
#: a seed's digits, at most
ALGARISMOS_SEMENTE = 30


@dataclass(frozen=True, slots=True)
class Simulacao:
    """What the form asks for, read and checked."""

    dados: dict[str, str]
    interpretacao: dict[str, str]
    modelo: Any  # exposicao.Historico | exposicao.Lognormal
    cenarios: int
    semente: int
    preco_atual: Decimal | Fraction
    preco_recompra: Decimal | Fraction | None


def _preco(texto: str, campo: str) -> Decimal | Fraction:
    """A price typed in the form: a decimal, or the exact p/q that multas writes."""
    valor: Decimal | Fraction = ler_valor(
        texto, Campo(campo, "preco", ROTULOS.get(campo, campo), True, 0), FORMULARIO
    )
    return valor


def _taxa(texto: str, campo: str) -> float:
    """A model rate (drift, volatility): a decimal with a comma or a point (``0,35`` or
    ``0.35``), never thousands (``0.350`` is 0,35, not 350); a float only for the model, as in
    ``multas exposicao``."""
    limpo = texto.replace(",", ".") if "." not in texto else texto
    if not _TAXA.fullmatch(limpo):
        raise EntradaInvalida(
            campo, f"deve ser um número decimal, ex.: 0,35 ou 0.35 (veio {texto[:20]!r})"
        )
    return float(Decimal(limpo))  # at most 6 digits before the point: always finite


def _inteiro(texto: str, campo: str, padrao: int, maximo: int | None) -> int:
    if not texto:
        return padrao
    limpo = texto.replace(".", "") if _MILHARES.match(texto) else texto
    if limpo.startswith("-") and limpo[1:].isascii() and limpo[1:].isdigit():
        raise EntradaInvalida(campo, "não pode ser negativo")
    if not (limpo.isascii() and limpo.isdigit()):
        raise EntradaInvalida(campo, f"deve ser um número inteiro (veio {texto[:20]!r})")
    if len(limpo) > ALGARISMOS_SEMENTE:
        raise EntradaInvalida(campo, f"no máximo {ALGARISMOS_SEMENTE} algarismos")
    valor = int(limpo)
    if maximo is not None and not 1 <= valor <= maximo:
        raise EntradaInvalida(campo, f"de 1 a {formatar_numero(maximo)} nesta página")
    return valor


def _serie(texto: str) -> list[Decimal]:
    """One monthly average per line, the month before it if wished (``2024-03 95,50``); a line
    with anything else (two prices, a word) is refused, naming it: never a value dropped."""
    from multas.nucleo import exposicao as exp

    precos: list[Decimal] = []
    for numero, linha in enumerate(texto.splitlines(), 1):
        itens = linha.replace(";", " ").replace("\t", " ").split()
        if not itens:
            continue
        if len(itens) > 2 or (len(itens) == 2 and not _MES.fullmatch(itens[0])):
            raise EntradaInvalida(
                "historico",
                f"linha {numero}: escreva uma média por linha, com o mês antes se quiser "
                "(2024-03 95,50)",
            )
        if len(precos) == MAXIMO_MESES:
            raise EntradaInvalida("historico", f"no máximo {formatar_numero(MAXIMO_MESES)} meses")
        try:
            preco = _preco(itens[-1], "historico")
            precos.append(exp.decimal_do_historico(preco) if isinstance(preco, Fraction) else preco)
        except EntradaInvalida as erro:
            raise EntradaInvalida("historico", f"linha {numero}: {erro.mensagem}") from None
    if not precos:
        raise EntradaInvalida("historico", "informe ao menos uma média mensal")
    return precos


def ler_simulacao(campos: dict[str, str]) -> Simulacao:
    """The form's fields, each checked on its own: every error of a submit at once, each naming
    its field (:class:`~multas.nucleo.erros.Coleta`), the first the one it always was."""
    from multas.nucleo import exposicao as exp
    from multas.nucleo.motor import calcular

    valores = {k: v.strip() for k, v in campos.items()}
    dados = {c: valores[c] for c in CAMPOS_DISTRIBUIDOR if valores.get(c)}
    interpretacao = {
        c.nome.removeprefix("interpretacao."): valores[c.nome]
        for c in formulario(REGIME).leituras
        if valores.get(c.nome)
    }
    coleta = Coleta()
    with coleta.campo():
        # the distributor is checked by the engine itself (any price), so each message is the
        # fine's form's and names its field
        calcular(
            {"regime": REGIME, **dados, "maior_media_mensal": "1", "interpretacao": interpretacao},
            FORMULARIO,
            hoje=None,  # renovabio.distribuidor: the law of its ano_meta
        )
    modelo, atual = _modelo_lido(valores, coleta)
    with coleta.campo():
        if valores.get("preco_atual"):
            atual = exp.conferir_preco(_preco(valores["preco_atual"], "preco_atual"), "preco_atual")
    recompra = None
    with coleta.campo():
        if valores.get("preco_recompra"):
            recompra = exp.conferir_preco(
                _preco(valores["preco_recompra"], "preco_recompra"), "preco_recompra"
            )
    cenarios, semente = CENARIOS_PADRAO, 0
    with coleta.campo():
        cenarios = _inteiro(
            valores.get("cenarios", ""), "cenarios", CENARIOS_PADRAO, MAXIMO_CENARIOS
        )
    with coleta.campo():
        semente = _inteiro(valores.get("semente", ""), "semente", 0, None)
    coleta.levantar()
    assert modelo is not None and atual is not None
    return Simulacao(dados, interpretacao, modelo, cenarios, semente, atual, recompra)


def _modelo_lido(valores: dict[str, str], coleta: Coleta) -> tuple[Any, Decimal | Fraction | None]:
    """The price model and its current price (``None`` while one of its fields is in error,
    each error kept in ``coleta``)."""
    from multas.nucleo import exposicao as exp

    escolhido = valores.get("modelo", "historico")
    if escolhido == "historico":
        with coleta.campo():
            serie = _serie(valores.get("historico", ""))
            return exp.historico(serie), serie[-1]
        return None, None
    if escolhido != "lognormal":
        with coleta.campo():
            raise EntradaInvalida("modelo", "escolha histórico ou lognormal")
        return None, None
    antes = len(coleta.erros)
    # the missing fields first, then the typed ones (the first error is the one it always was)
    with coleta.campo():
        if not valores.get("preco_inicial"):
            raise EntradaInvalida("preco_inicial", "informe o preço do CBIO hoje")
    with coleta.campo():
        if not valores.get("volatilidade"):
            raise EntradaInvalida("volatilidade", "informe a volatilidade anual, ex.: 0,35")
    inicial: Decimal | Fraction | None = None
    drift = volatilidade = 0.0
    with coleta.campo():
        if valores.get("preco_inicial"):
            inicial = _preco(valores["preco_inicial"], "preco_inicial")
    with coleta.campo():
        drift = _taxa(valores.get("tendencia") or "0", "tendencia")
    with coleta.campo():
        if valores.get("volatilidade"):
            volatilidade = _taxa(valores["volatilidade"], "volatilidade")
    if len(coleta.erros) > antes or inicial is None:
        return None, None
    with coleta.campo():
        return exp.lognormal(inicial, drift, volatilidade), inicial
    return None, None


def _modelo(modelo: Any) -> str:
    """What the simulation drew from, in pt-BR (so that a value never dropped shows)."""
    from multas.nucleo import exposicao as exp

    if isinstance(modelo, exp.Historico):
        meses = len(modelo.mantissas)
        return f"{formatar_numero(meses)} {'média mensal' if meses == 1 else 'médias mensais'} do histórico"
    return (
        f"modelo lognormal a partir de {formatar_preco(modelo.preco_inicial)}, tendência "
        f"{str(modelo.drift).replace('.', ',')} e volatilidade "
        f"{str(modelo.volatilidade).replace('.', ',')} ao ano"
    )


def _mostrar(resumo: dict[str, Any]) -> dict[str, Any]:
    """The summary for people: every amount in R$, every count with its thousands."""
    from multas.nucleo.exposicao import veredito

    precos = ("preco_atual", "preco_recompra")  # unit prices keep their decimals
    brl = {
        k: formatar_preco(v) if k in precos else formatar_brl(v)
        for k, v in resumo.items()
        if isinstance(v, str) and k != "fundamento_recompra"
    }
    return {
        "brl": brl,
        "cenarios": formatar_numero(resumo["cenarios"]),
        "cbios_faltantes": formatar_numero(resumo["cbios_faltantes"]),
        "veredito": veredito(resumo),
        "fundamento_recompra": resumo["fundamento_recompra"],
        "alem_da_multa": resumo["alem_da_multa"],
    }


def _pagina(
    request: Request,
    valores: dict[str, str],
    status: int = 200,
    erro: EntradaInvalida | None = None,
    resultado: dict[str, Any] | None = None,
) -> HTMLResponse:
    form = formulario(REGIME)
    rotulos = {c.nome: c.rotulo for c in (*form.campos, *form.leituras)} | ROTULOS
    nomes = {*CAMPOS_DISTRIBUIDOR, *ROTULOS, *(c.nome for c in form.leituras)}
    if erro is not None:  # the core's (and the CLI's) English names, as the page's fields
        renomeados = [
            EntradaInvalida(_NOMES_DA_PAGINA.get(e.campo or "", e.campo), e.mensagem)
            for e in erro.todos()
        ]
        erro = renomeados[0] if len(renomeados) == 1 else ErrosDeEntrada(renomeados)
    erros = erros_na_pagina(erro, rotulos, nomes)
    return render(
        request,
        "exposicao.html",
        status=status,
        valores=valores,
        campos=[c for c in form.campos if c.nome in CAMPOS_DISTRIBUIDOR],
        leituras=form.leituras,
        rotulos=rotulos,
        erros=erros.por_campo,
        resumo_erros=erros.resumo,
        maximo_cenarios=formatar_numero(MAXIMO_CENARIOS),
        resultado=resultado,
    )


@rotas.get("/exposicao", response_class=HTMLResponse)
def exposicao(request: Request) -> HTMLResponse:
    return _pagina(
        request, {"modelo": "historico", "cenarios": str(CENARIOS_PADRAO), "semente": "0"}
    )


@rotas.post("/exposicao", response_class=HTMLResponse)
def simular_na_pagina(
    request: Request, servico_do_app: ServicoDoApp, campos: CamposEnviados
) -> HTMLResponse:
    """The simulation of the form (HTTP 422 with the form and its error, the field named)."""
    from multas.nucleo import exposicao as exp

    legislacao = servico_do_app.legislacao
    try:
        pedido = ler_simulacao(campos)
        tabela = exp.carteira([pedido.dados])
        sorteio = exp.Sorteio(pedido.modelo, pedido.cenarios, pedido.semente)
        totais = exp.simular(
            tabela,
            sorteio.todos(),
            pedido.interpretacao,
            legislacao,
            ptbr=True,
            numba=not carregar_configuracao().sem_numba,
        )
        resumo = exp.resumir(
            totais,
            exp.faltantes(tabela, pedido.interpretacao, ptbr=True),
            pedido.preco_atual,
            pedido.preco_recompra,
            legislacao,
            exp.prazos(tabela, pedido.interpretacao, ptbr=True),
        )
    except EntradaInvalida as erro:
        return _pagina(request, dict(campos), status=422, erro=erro)
    png = io.BytesIO()
    exp.grafico(totais, resumo, png)
    resultado = _mostrar(resumo) | {
        "modelo": _modelo(pedido.modelo),
        "semente": formatar_numero(pedido.semente),
        "grafico": base64.b64encode(png.getvalue()).decode("ascii"),
    }
    return _pagina(request, dict(campos), resultado=resultado)
