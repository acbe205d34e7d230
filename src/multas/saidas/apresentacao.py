"""What a person reads: a result (and the case that produced it) ready for the web page, the
HTML report and the PDF. Everything is formatted here, once, from the JSON form of the result,
so a saved result renders exactly as it was computed. No rule lives here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from multas.nucleo.contrato import TIPOS_DESCRICAO
from multas.nucleo.datas import formatar_data, formatar_mes
from multas.nucleo.dinheiro import formatar_brl, formatar_numero, formatar_preco
from multas.nucleo.regimes import REGIMES
from multas.nucleo.rotulos import rotulo_campo
from multas.nucleo.sinonimos import com_nomes_do_contrato
from multas.saidas.memoria import (
    citacoes,
    formatar_interpretacao,
    formatar_saida,
    formatar_valor_passo,
    saidas_extras,
)


@dataclass(frozen=True, slots=True)
class PassoVisivel:
    numero: int
    descricao: str
    valor: str
    fundamento: str
    #: the legal text, the first time its provision appears (later steps refer back to it)
    texto: str | None
    texto_repetido: bool


@dataclass(frozen=True, slots=True)
class Leitura:
    """One reading of the ambiguous text and the amount it gives."""

    descricao: str
    valor: str
    adotada: bool


@dataclass(frozen=True, slots=True)
class CampoVisivel:
    nome: str
    descricao: str
    valor: str
    #: the whole list behind a one-line summary (the daily quotes), for a page to fold away
    itens: tuple[str, ...] = ()


@dataclass(frozen=True)
class ResultadoVisivel:
    regime: str
    titulo: str
    valor: str
    calculado: bool
    fundamento: str
    data_referencia: str
    redacao: str
    leitura: str
    saidas: list[tuple[str, str]]
    passos: list[PassoVisivel]
    citacoes: list[tuple[str, str]]
    avisos: list[str]
    leituras: list[Leitura] = field(default_factory=list)


def brl_ou_traco(valor: str | None) -> str:
    return formatar_brl(valor) if valor is not None else "— (não calculado)"


def data_br(iso: str) -> str:
    """
    >>> data_br("2025-12-31")
    '31/12/2025'
    """
    return formatar_data(date.fromisoformat(iso))


def apresentar(resultado: dict[str, Any]) -> ResultadoVisivel:
    """A result object of the contract, formatted for people (R$ 1.234,56, dd/mm/aaaa).

    >>> from multas import calcular
    >>> visto = apresentar(calcular({"regime": "anp.infracao", "inciso": "XI", "valor": "750000",
    ...                              "norma": "decreto-2953"}))
    >>> visto.valor, visto.saidas[0]
    ('R$ 750.000,00', ('Valor mínimo', 'R$ 5.000,00'))
    """
    regime = REGIMES.get(resultado["regime"])
    vistos: set[str] = set()
    passos = []
    for numero, passo in enumerate(resultado["passos"], 1):
        texto = passo.get("texto")
        repetido = bool(texto) and passo["fundamento"] in vistos
        if texto:
            vistos.add(passo["fundamento"])
        passos.append(
            PassoVisivel(
                numero=numero,
                descricao=passo["descricao"],
                valor=formatar_valor_passo(passo),
                fundamento=passo["fundamento"],
                texto=None if repetido else texto,
                texto_repetido=repetido,
            )
        )
    leituras = []
    if resultado["alternativas"]:
        leituras.append(
            Leitura(
                formatar_interpretacao(resultado.get("interpretacao", {})),
                brl_ou_traco(resultado["valor"]),
                adotada=True,
            )
        )
        leituras += [
            Leitura(
                formatar_interpretacao(alt["interpretacao"]),
                brl_ou_traco(alt["valor"]),
                adotada=False,
            )
            for alt in resultado["alternativas"]
        ]
    return ResultadoVisivel(
        regime=resultado["regime"],
        titulo=regime.titulo if regime else resultado["regime"],
        valor=brl_ou_traco(resultado["valor"]),
        calculado=resultado["valor"] is not None,
        fundamento=resultado["fundamento"],
        data_referencia=data_br(resultado["vigencia"]["data_referencia"]),
        redacao=resultado["vigencia"]["redacao"],
        leitura=formatar_interpretacao(resultado.get("interpretacao") or {}),
        saidas=[
            (rotulo_campo(chave), formatar_saida(valor, chave))
            for chave, valor in saidas_extras(resultado).items()
        ],
        passos=passos,
        citacoes=citacoes(resultado),
        avisos=list(resultado["avisos"]),
        leituras=leituras,
    )


def _cotacao(item: dict[str, Any]) -> str:
    """One daily quote for people: ``14/03/2025: R$ 71,70`` and/or its volumes."""
    partes = []
    if item.get("preco") is not None:
        partes.append(formatar_entrada_campo("preco", item["preco"]))
    if item.get("quantidade") is not None:
        partes.append(
            f"{formatar_entrada_campo('contagem', item['quantidade'])} CBIOs, "
            f"{formatar_entrada_campo('quantia', item.get('valor_financeiro'))}"
        )
    return f"{formatar_entrada_campo('data', item.get('data'))}: {'; '.join(partes)}"


def formatar_entrada_campo(tipo: str, valor: Any) -> str:
    """One input value for people.

    >>> formatar_entrada_campo("quantia", "900000000.00")
    'R$ 900.000.000,00'
    >>> formatar_entrada_campo("preco", Decimal("70.4333"))
    'R$ 70,4333'
    >>> formatar_entrada_campo("cotacoes_mensais", {"2025-01": "70.10", "2025-02": "2151/30"})
    '01/2025: R$ 70,1000; 02/2025: R$ 71,7000'
    """
    if valor is None:
        return "—"
    if isinstance(valor, bool):
        return "sim" if valor else "não"
    if tipo in ("quantia", "quantia_positiva"):
        return formatar_brl(Decimal(str(valor)))
    if tipo == "preco":  # 4 places for people, the exact p/q too; the case keeps it whole
        return formatar_preco(str(valor))
    if tipo in ("quantidade", "contagem"):
        return formatar_numero(str(Decimal(str(valor))))
    if tipo == "data" and isinstance(valor, str):
        try:
            return data_br(valor)
        except ValueError:
            return valor
    if tipo == "cotacoes_mensais" and isinstance(valor, dict):
        return "; ".join(
            f"{formatar_mes(mes)}: {formatar_entrada_campo('preco', preco)}"
            for mes, preco in valor.items()
        )
    if tipo == "taxas_mensais" and isinstance(valor, dict):
        return "; ".join(
            f"{formatar_mes(mes)}: {formatar_numero(str(Decimal(str(taxa))))}%"
            for mes, taxa in valor.items()
        )
    if tipo == "datas" and isinstance(valor, list | tuple | frozenset | set):
        return "; ".join(formatar_entrada_campo("data", item) for item in sorted(map(str, valor)))
    if tipo == "cotacoes_diarias" and isinstance(valor, list):
        return "; ".join(_cotacao(item) for item in valor if isinstance(item, dict))
    return str(valor)


def resumir_cotacoes(cotacoes: list[Any], passo: int | None = None) -> str:
    """Daily quotes in one line, instead of every one of them (a year has about 250).

    >>> resumir_cotacoes([{"data": "2024-12-30"}, {"data": "2024-01-02"}], 4)
    '2 cotações diárias, de 02/01/2024 a 30/12/2024; a média de cada mês no passo 4'
    """
    datas = sorted(str(c["data"]) for c in cotacoes if isinstance(c, dict) and c.get("data"))
    n = len(cotacoes)
    texto = f"{formatar_numero(n)} {'cotação diária' if n == 1 else 'cotações diárias'}"
    if datas:
        texto += f", de {formatar_entrada_campo('data', datas[0])} a "
        texto += formatar_entrada_campo("data", datas[-1])
    if passo is not None:
        texto += f"; a média de cada mês no passo {passo}"
    return texto


def _passo_das_medias(resultado: dict[str, Any] | None) -> int | None:
    """The number of the memória's first step with a month's mean (or the highest one)."""
    for prefixo in ("Média mensal das cotações", "Maior média mensal"):
        for numero, passo in enumerate((resultado or {}).get("passos") or (), 1):
            if str(passo.get("descricao", "")).startswith(prefixo):
                return numero
    return None


def _campo_visivel(c: Any, valor: Any, resultado: dict[str, Any] | None) -> CampoVisivel:
    if c.tipo == "cotacoes_diarias" and isinstance(valor, list):
        return CampoVisivel(
            c.nome,
            c.descricao,
            resumir_cotacoes(valor, _passo_das_medias(resultado)),
            tuple(_cotacao(item) for item in valor if isinstance(item, dict)),
        )
    return CampoVisivel(c.nome, c.descricao, formatar_entrada_campo(c.tipo, valor))


def apresentar_entrada(
    entrada: dict[str, Any], resultado: dict[str, Any] | None = None
) -> list[CampoVisivel]:
    """The case's input fields, in the contract's order, each with its meaning. The daily
    quotes are one line (how many, from when to when, the step with each month's mean: the
    ``resultado``'s memória), the whole list in ``itens``."""
    regime = REGIMES.get(str(entrada.get("regime")))
    if regime is None:
        return [CampoVisivel(str(k), "", str(v)) for k, v in entrada.items()]
    entrada = dict(com_nomes_do_contrato(entrada, regime.caso))  # ano as ano_meta
    campos = [
        _campo_visivel(c, entrada[c.nome], resultado)
        for c in regime.caso.campos()
        if entrada.get(c.nome) is not None
    ]
    if entrada.get("interpretacao"):
        campos.append(
            CampoVisivel(
                "interpretacao",
                "Leitura escolhida do texto legal",
                formatar_interpretacao(entrada["interpretacao"]),
            )
        )
    return campos


def descrever_tipo(tipo: str) -> str:
    return TIPOS_DESCRICAO.get(tipo, tipo)
