"""The memória for people: Markdown (reports, tickets, e-mails) and a terminal's text (Rich),
rendered from a result's JSON form (:mod:`multas.nucleo.memoria`), so a saved result renders
exactly as it was computed."""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from multas.nucleo.datas import formatar_data, formatar_mes
from multas.nucleo.dinheiro import formatar_brl, formatar_numero, formatar_preco
from multas.nucleo.regimes import REGIMES
from multas.nucleo.rotulos import leituras, rotulo_campo

_CAMPOS_BASE = {
    "regime",
    "valor",
    "moeda",
    "fundamento",
    "vigencia",
    "interpretacao",
    "passos",
    "avisos",
    "alternativas",
}


def formatar_valor_passo(passo: dict[str, Any]) -> str:
    valor, tipo = passo.get("valor"), passo.get("tipo", "texto")
    if valor is None:
        return "—"
    if tipo == "quantia":
        if valor.endswith("…"):
            return "R$ " + formatar_numero(valor)
        return formatar_brl(valor) if _centavos_exatos(valor) else "R$ " + formatar_numero(valor)
    if tipo == "numero":
        return formatar_numero(valor)
    if tipo == "inteiro":
        return formatar_numero(valor)
    if tipo == "data":
        return formatar_data(date.fromisoformat(valor))
    return str(valor)


def _centavos_exatos(valor: str) -> bool:
    return len(valor.partition(".")[2]) <= 2


_QUANTIA = re.compile(r"^-?\d+\.\d{2}$")
_DATA = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def formatar_saida(valor: object, chave: str = "") -> str:
    """An output field for people: amounts in R$, dates in dd/mm/aaaa; by its name (``chave``),
    the CBIO's price with 4 places (R$ 111,1742, never the exact p/q) and a month 01/2024."""
    if valor is None:
        return "—"
    if chave == "preco" and isinstance(valor, str):
        return formatar_preco(valor)
    if chave in ("preco_mes", "mes_do_preco") and isinstance(valor, str):
        return formatar_mes(valor)
    if isinstance(valor, str) and _QUANTIA.match(valor):
        return formatar_brl(valor)
    if isinstance(valor, str) and _DATA.match(valor):
        return formatar_data(date.fromisoformat(valor))
    if isinstance(valor, bool):
        return "sim" if valor else "não"
    if isinstance(valor, list):  # an auto's incisos (anp.auto): one per line, labelled
        return "; ".join(_item(item) for item in valor)
    return str(valor)


def _item(item: object) -> str:
    """One item of a list output (``infracoes``), its fields labelled for people."""
    if not isinstance(item, dict):
        return formatar_saida(item)
    return ", ".join(
        f"{rotulo_campo(chave)}: {formatar_saida(v, chave)}"
        for chave, v in item.items()
        if chave != "descricao"
    )


def saidas_extras(resultado: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in resultado.items() if k not in _CAMPOS_BASE}


def formatar_interpretacao(interpretacao: dict[str, str]) -> str:
    """The readings for people: "Faturamento: média dos dois anos" (:mod:`multas.nucleo.rotulos`)."""
    return leituras(interpretacao)


def como_markdown(resultado: dict[str, Any]) -> str:
    """The memória as Markdown (for reports, tickets, e-mails)."""
    valor = resultado.get("valor")
    linhas = [
        f"# Memória de cálculo: {_titulo(resultado['regime'])}",
        "",
        f"**Valor devido:** {formatar_brl(valor) if valor is not None else '— (não calculado)'}",
        "",
        f"**Fundamento:** {resultado['fundamento']}  ",
        f"**Data de referência:** {_data_br(resultado['vigencia']['data_referencia'])}  ",
        f"**Redação aplicada:** {resultado['vigencia']['redacao']}  ",
    ]
    if resultado.get("interpretacao"):
        linhas.append(f"**Leitura adotada:** {formatar_interpretacao(resultado['interpretacao'])}")
    extras = saidas_extras(resultado)
    if extras:
        linhas += ["", "| Resultado | Valor |", "|---|---|"]
        linhas += [
            f"| {rotulo_campo(chave)} | {_md(formatar_saida(v, chave))} |"
            for chave, v in extras.items()
        ]
    linhas += ["", "## Passos", "", "| # | Passo | Valor | Fundamento |", "|---|---|---|---|"]
    for i, passo in enumerate(resultado["passos"], 1):
        linhas.append(
            f"| {i} | {_md(passo['descricao'])} | {_md(formatar_valor_passo(passo))} | "
            f"{_md(passo['fundamento'])} |"
        )
    textos = citacoes(resultado)
    if textos:
        linhas += ["", "## Texto legal aplicado", ""]
        for fundamento, texto in textos:
            linhas += [f"**{fundamento}**", "", f"> {texto}", ""]
    if resultado["avisos"]:
        linhas += ["", "## Avisos", ""]
        linhas += [f"- {aviso}" for aviso in resultado["avisos"]]
    if resultado["alternativas"]:
        linhas += ["", "## Outras leituras", "", "| Leitura | Valor |", "|---|---|"]
        for alt in resultado["alternativas"]:
            linhas.append(
                f"| {formatar_interpretacao(alt['interpretacao'])} | "
                f"{formatar_brl(alt['valor']) if alt['valor'] is not None else '—'} |"
            )
    return "\n".join(linhas).rstrip() + "\n"


def _titulo(regime: str) -> str:
    """The regime's name (its code when unknown)."""
    return REGIMES[regime].titulo if regime in REGIMES else regime


def _data_br(iso: str) -> str:
    return formatar_data(date.fromisoformat(iso))


def _md(texto: str) -> str:
    return texto.replace("|", "\\|").replace("\n", " ")


def citacoes(resultado: dict[str, Any]) -> list[tuple[str, str]]:
    vistas: dict[str, str] = {}
    for passo in resultado["passos"]:
        if passo.get("texto") and passo["fundamento"] not in vistas:
            vistas[passo["fundamento"]] = passo["texto"]
    return list(vistas.items())


def imprimir_texto(resultado: dict[str, Any], arquivo: Any = None) -> None:
    """The memória for a terminal, with Rich (colours only when the output is a terminal)."""
    from rich.console import Console
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

    console = Console(file=arquivo, highlight=False, soft_wrap=False)
    valor = resultado.get("valor")
    cabecalho = Text()
    cabecalho.append("Valor devido: ", style="bold")
    cabecalho.append(
        formatar_brl(valor) if valor is not None else "— (não calculado)", style="bold green"
    )
    cabecalho.append(f"\nFundamento: {resultado['fundamento']}")
    vigencia = resultado["vigencia"]
    data_ref = formatar_data(date.fromisoformat(vigencia["data_referencia"]))
    cabecalho.append(f"\nData de referência: {data_ref}  ·  Redação: {vigencia['redacao']}")
    if resultado.get("interpretacao"):
        cabecalho.append(f"\nLeitura adotada: {formatar_interpretacao(resultado['interpretacao'])}")
    for chave, valor_extra in saidas_extras(resultado).items():
        cabecalho.append(f"\n{rotulo_campo(chave)}: {formatar_saida(valor_extra, chave)}")
    console.print(Panel(cabecalho, title=f"multas · {_titulo(resultado['regime'])}", expand=False))

    tabela = Table(title="Memória de cálculo", show_lines=True, expand=True)
    tabela.add_column("#", justify="right", no_wrap=True)
    tabela.add_column("Passo", ratio=3)
    tabela.add_column("Valor", justify="right", no_wrap=True)
    tabela.add_column("Fundamento", ratio=3)
    for i, passo in enumerate(resultado["passos"], 1):
        tabela.add_row(str(i), passo["descricao"], formatar_valor_passo(passo), passo["fundamento"])
    console.print(tabela)
    textos = citacoes(resultado)
    if textos:
        console.print(Text("Texto legal aplicado", style="bold"))
        for fundamento, texto in textos:
            console.print(Text(fundamento, style="bold"))
            console.print(Text(f"  “{texto}”", style="italic"))
    if resultado["avisos"]:
        console.print(Text("Avisos", style="bold yellow"))
        for aviso in resultado["avisos"]:
            console.print(Text(f" • {aviso}"))
    if resultado["alternativas"]:
        alternativas = Table(title="Outras leituras (o que dariam)")
        alternativas.add_column("Leitura")
        alternativas.add_column("Valor", justify="right")
        for alt in resultado["alternativas"]:
            alternativas.add_row(
                formatar_interpretacao(alt["interpretacao"]),
                formatar_brl(alt["valor"]) if alt["valor"] is not None else "—",
            )
        console.print(alternativas)
