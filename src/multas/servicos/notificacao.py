"""A fined distributor's notice, written from its ledger year and its engine result
(:func:`montar`): what a distributor's lawyer reads, in the ANP's own voice.

- The number is the row's ``numero_notificacao`` column, else ``NNN/AAAA``: the fined rows
  numbered in the input's order, ``AAAA`` the target year. The process is the row's
  ``referencia`` (or ``processo``, ``id``) column, else a blank line to fill; the address, its
  ``endereco`` column. The columns are found by their normalised header, as the readers do.
- The target's composition: the year's own target, the previous year's shortfall carried onto
  it, the total, the retirements, the shortfall, the deferred and the fined CBIOs.
- The deferral aviso only where the ledger's own deferral could apply: a shortfall within the
  deferral's fraction of the target, nothing carried from the year before, and the previous
  year not known to be unmet.
- Amounts in the body with at most two decimals, the price with four (half up); exact values
  only in the memória's steps.
- The engine's avisos the notice states itself (the price's method and coverage, the deferral)
  and those written for whoever runs the calculation are left out; the project's own words
  (``docs/``, readings' keys) never reach the notice.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import date
from fractions import Fraction
from pathlib import Path
from typing import Any

from multas.nucleo.ciclo.carteira import AnoCarteira
from multas.nucleo.ciclo.prazos import vigencia_em
from multas.nucleo.cnpj import rotulo as rotulo_do_cnpj
from multas.nucleo.datas import formatar_data
from multas.nucleo.dinheiro import (
    formatar_brl,
    formatar_numero,
    formatar_percentual,
    formatar_preco,
)
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.legislacao import Legislacao
from multas.nucleo.preco import FONTE_ENTRADA
from multas.saidas.apresentacao import apresentar, data_br
from multas.saidas.relatorio.notificacao import Notificacao, Passo

#: the optional columns of the year's input a notice reads (normalised header → field)
COLUNAS_DA_NOTIFICACAO: Mapping[str, str] = {
    "numero_notificacao": "numero",
    "numero_da_notificacao": "numero",
    "no_da_notificacao": "numero",
    "notificacao": "numero",
    "referencia": "processo",
    "processo": "processo",
    "numero_do_processo": "processo",
    "no_do_processo": "processo",
    "id": "processo",
    "endereco": "endereco",
}

#: the notice's columns, as fields the reader knows (so ``--coluna endereco=Sede`` maps one)
CAMPOS_DA_NOTIFICACAO = ("numero_notificacao", "referencia", "endereco")

_MESES = (
    "janeiro",
    "fevereiro",
    "março",
    "abril",
    "maio",
    "junho",
    "julho",
    "agosto",
    "setembro",
    "outubro",
    "novembro",
    "dezembro",
)

#: the engine's avisos the notice says in its own words (the deferral, the price's method and
#: coverage), left out of its observations
_DITOS = (
    re.compile(r"da meta foram comprovados \(ao menos"),
    re.compile(r"^Sem diferimento da falta"),
    re.compile(r"^A falta de \d+ CBIOs (cabe|passa)"),
    re.compile(r"não trazem quantidade e valor_financeiro"),
    re.compile(r"não cobrem todo o exercício"),
)
#: words that belong to the project and its files, not to a notice
JARGAO = re.compile(
    r"projeto|docs/|spec\b|motor|interpretacao|\w+_\w+|\bleitura\b|transcrit",
    re.IGNORECASE,
)
_VEJA = re.compile(r"\s*\(veja docs/[^)]*\)")
#: "; texto não transcrito" after a cited provision: the notice cites it, and its section of the
#: law's texts quotes only what is transcribed (spec § 3.7 point 7: the 2024 deadline's decree)
_NAO_TRANSCRITO = re.compile(r"(; | \()texto não transcrito\)?$")
#: "leitura X" in a step: the reading adopted, as the notice calls it
_LEITURA = re.compile(r"\bleitura\b(?= [A-Z])")

_METODOS = {
    "ponderada": "média ponderada pelo volume: o valor financeiro negociado no mês dividido "
    "pela quantidade negociada no mês",
    "simples": "média simples dos preços diários do mês",
    "mensal_informada": "média mensal informada",
    "informado": "preço informado",
}


def extras(linha: Mapping[str, Any]) -> dict[str, str]:
    """The notice's optional columns of an input row (number, process, address), by their
    normalised header; blank cells left out."""
    from multas.nucleo.cabecalhos import normalizar

    achados: dict[str, str] = {}
    for chave, valor in linha.items():
        campo = COLUNAS_DA_NOTIFICACAO.get(normalizar(str(chave)))
        if campo is None or valor is None or not str(valor).strip() or campo in achados:
            continue
        achados[campo] = " ".join(str(valor).split())
    return achados


def _mes_por_extenso(mes: str) -> str:
    """``2024-01`` → ``janeiro de 2024``."""
    return f"{_MESES[int(mes[5:7]) - 1]} de {mes[:4]}"


def _cbios(n: int) -> str:
    return f"{formatar_numero(n)} CBIOs"


def _limpo(texto: str) -> str:
    """An engine text without the project's cross-references."""
    sem_veja = _VEJA.sub("", texto).removeprefix("multas: ")
    return _LEITURA.sub("critério adotado", sem_veja)


def _passos(resultado: dict[str, Any], fonte: str | None) -> tuple[Passo, ...]:
    """The memória's steps with their exact values; a step that states a reading in the
    project's words (the body states the method) is left out, and the rest renumbered; the
    quotes' source is the notice's."""
    vistos = apresentar(resultado).passos
    tipos = [p.get("tipo") for p in resultado["passos"]]
    passos: list[Passo] = []
    for visto, tipo in zip(vistos, tipos, strict=True):
        descricao = _limpo(visto.descricao)
        fundamento = _NAO_TRANSCRITO.sub("", _limpo(visto.fundamento))
        if fonte:
            descricao = descricao.replace(f"(fonte: {FONTE_ENTRADA})", f"(fonte: {fonte})")
        if tipo == "texto" and (JARGAO.search(fundamento) or JARGAO.search(descricao)):
            continue
        if JARGAO.search(fundamento):
            fundamento = "critério de cálculo"
        passos.append(Passo(len(passos) + 1, descricao, visto.valor, fundamento))
    return tuple(passos)


def _do_dia(cotacao: dict[str, Any], ponderada: bool) -> str | None:
    """A day of the annex: what priced the fine, the day's volume (the weighted mean) or its
    price (the simple one), for people (a price with 4 places, whatever its exact form)."""
    if ponderada and cotacao.get("quantidade") is not None:
        return (
            f"{formatar_numero(int(cotacao['quantidade']))} CBIOs, "
            f"{formatar_brl(str(cotacao['valor_financeiro']))}"
        )
    if cotacao.get("preco") is None:
        return None
    return formatar_preco(str(cotacao["preco"]))


def _fundamento_do_preco(resultado: dict[str, Any]) -> str:
    for passo in resultado["passos"]:
        if str(passo["descricao"]).startswith("Maior média mensal"):
            return str(passo["fundamento"])
    return str(resultado["vigencia"]["redacao"])


def _preco(
    resultado: dict[str, Any], caso: Mapping[str, Any], fonte: str | None, anexo: bool
) -> tuple[tuple[str, str], ...]:
    """The price's rows: its value (4 decimals), the rule, the month, the method, the quotes."""
    valor = Fraction(str(resultado["preco"]))
    cobertura = resultado.get("cotacoes_cobertura")
    exercicio = cobertura["exercicio"] if cobertura else int(resultado["prazo_comprovacao"][:4])
    linhas = [
        ("Preço do CBIO", f"{formatar_preco(valor)} por CBIO"),
        (
            "Critério",
            f"a maior média mensal das cotações do CBIO no exercício de {exercicio} "
            f"({_fundamento_do_preco(resultado)})",
        ),
    ]
    diarias = [
        c for c in caso.get("cotacoes_diarias") or () if str(c["data"])[:4] == str(exercicio)
    ]
    mes = resultado.get("preco_mes")
    if mes:
        no_mes = sum(1 for c in diarias if str(c["data"])[:7] == mes)
        pregoes = f" ({no_mes} pregões)" if no_mes else ""
        linhas.append(("Mês da maior média", f"{_mes_por_extenso(mes)}{pregoes}"))
    metodo = resultado.get("preco_metodo")
    if metodo in _METODOS:
        linhas.append(("Média mensal", _METODOS[metodo]))
    origem = fonte or resultado["preco_fonte"]
    if cobertura and diarias:
        texto = (
            f"{len(diarias)} pregões, de {data_br(cobertura['primeira'])} a "
            f"{data_br(cobertura['ultima'])}; fonte: {origem}"
        )
        if not cobertura["completa"]:
            meses = ", ".join(_mes_por_extenso(m) for m in cobertura["meses_sem_cotacao"])
            texto += f". Sem cotações em {meses}"
        linhas.append(("Cotações diárias", texto + ("; lista no anexo" if anexo else "")))
    else:
        linhas.append(("Fonte", origem))
    linhas.append(
        (
            "Arredondamento",
            "o preço acima tem quatro casas decimais; a multa usa o preço exato (item 4)",
        )
    )
    return tuple(linhas)


def _sobre_a_meta(
    do_ano: dict[str, Any], entrada: AnoCarteira, legislacao: Legislacao
) -> tuple[str, ...]:
    """Why the shortfall is not deferred, or the deferral aviso where it could apply."""
    ano = int(do_ano["ano"])
    deficit, acrescimo = int(do_ano["deficit"]), int(do_ano["acrescimo_ano_anterior"])
    if deficit <= 0 or int(do_ano["cbios_diferidos"]) > 0:
        return ()
    diferimento = vigencia_em(legislacao, "ciclo.diferimento", date(ano, 12, 31))
    fracao = diferimento.fracao
    percentual = formatar_percentual(fracao)
    cabe = Fraction(deficit) <= fracao * int(do_ano["meta_total"])
    if acrescimo > 0:
        return (
            f"Não há diferimento da falta para {ano + 1}: a meta de {ano - 1} não foi cumprida "
            f"integralmente ({_cbios(acrescimo)} somados à meta de {ano}), e só o distribuidor "
            "que cumpriu integralmente a meta do ano anterior pode comprovar no ano seguinte "
            f"até {percentual} da meta ({diferimento.dispositivo}).",
        )
    if not cabe:
        return (
            f"Não há diferimento da falta para {ano + 1}: ela passa de {percentual} da meta "
            f"total ({diferimento.dispositivo}).",
        )
    if entrada.meta_anterior_cumprida is False:
        return (
            f"Não há diferimento da falta para {ano + 1}: a meta de {ano - 1} não foi cumprida "
            f"integralmente ({diferimento.dispositivo}).",
        )
    if entrada.diferir is False:
        return ()
    return (
        f"A falta ({_cbios(deficit)}) não passa de {percentual} da meta total. Se o "
        f"distribuidor cumpriu integralmente a meta de {ano - 1}, pode comprovar essa parte "
        f"da meta em {ano + 1} ({diferimento.dispositivo}), e a multa desta notificação não "
        "é devida: o cumprimento da meta anterior pode ser demonstrado na defesa.",
    )


def _observacoes(avisos: Sequence[str]) -> tuple[str, ...]:
    """The engine's avisos a distributor must read: not those the notice says itself, nor
    those written for whoever runs the calculation."""
    return tuple(
        a
        for a in (_limpo(a) for a in avisos)
        if not any(p.search(a) for p in _DITOS) and not JARGAO.search(a)
    )


def montar(
    numero: str,
    do_ano: dict[str, Any],
    entrada: AnoCarteira,
    colunas: Mapping[str, str],
    legislacao: Legislacao,
    prazos: Sequence[tuple[str, str]],
    data_notificacao: date | None,
    assinatura: tuple[str | None, str | None] = (None, None),
    fonte: str | None = None,
    anexo: bool = False,
) -> Notificacao:
    """The notice of one fined ledger year (with its engine result, ``calculo``)."""
    calculo = do_ano["calculo"]
    resultado, caso = calculo["resultado"], calculo["caso"]
    if fonte is None and resultado.get("preco_fonte") in (None, FONTE_ENTRADA):
        fonte = "cotações do CBIO usadas no cálculo"
    ano = int(do_ano["ano"])
    prazo = data_br(str(do_ano["prazo_comprovacao"]))
    acrescimo = int(do_ano["acrescimo_ano_anterior"])
    composicao = [(f"Meta individual de {ano}", _cbios(int(do_ano["meta_cbios"])))]
    if acrescimo:
        somada = vigencia_em(legislacao, "ciclo.meta_acrescida", date(ano, 12, 31))
        composicao += [
            (
                f"Falta da meta de {ano - 1}, somada à de {ano} ({somada.dispositivo})",
                _cbios(acrescimo),
            ),
            (f"Meta total de {ano}", _cbios(int(do_ano["meta_total"]))),
        ]
    composicao += [
        (f"CBIOs aposentados até {prazo}", _cbios(int(do_ano["cbios_aposentados"]))),
        (
            f"Falta: meta{' total' if acrescimo else ''} − aposentados",
            _cbios(int(do_ano["deficit"])),
        ),
    ]
    if int(do_ano["cbios_diferidos"]):
        composicao.append((f"Diferidos para {ano + 1}", _cbios(int(do_ano["cbios_diferidos"]))))
    composicao.append(("CBIOs sujeitos à multa", _cbios(int(do_ano["cbios_multados"]))))
    redacao = resultado["vigencia"]["redacao"]
    visto = apresentar(resultado)
    ponderada = resultado.get("preco_metodo") == "ponderada"
    # the days of the annex, written only for a notice that has one (253 a year, each notice)
    diarias = [
        (data_br(str(c["data"])), texto)
        for c in (caso.get("cotacoes_diarias") or () if anexo else ())
        if (texto := _do_dia(c, ponderada)) is not None
    ]
    return Notificacao(
        numero=colunas.get("numero", numero),
        processo=colunas.get("processo"),
        ano=ano,
        data=formatar_data(data_notificacao) if data_notificacao else None,
        nome=entrada.nome,
        cnpj=rotulo_do_cnpj(entrada.cnpj),
        endereco=colunas.get("endereco"),
        assunto=f"RenovaBio: descumprimento da meta individual de {ano} e multa",
        abertura=(
            "A Agência Nacional do Petróleo, Gás Natural e Biocombustíveis (ANP) notifica o "
            f"distribuidor acima de que não comprovou integralmente, até {prazo}, a sua meta "
            f"individual de {ano} no RenovaBio (Lei nº 13.576/2017), como se demonstra abaixo, "
            f"e de que o descumprimento o sujeita à multa do {redacao}, no valor do item 3. "
            "O distribuidor pode apresentar defesa no prazo do item 6."
        ),
        composicao=tuple(composicao),
        sobre_a_meta=_sobre_a_meta(do_ano, entrada, legislacao),
        preco=_preco(resultado, caso, fonte, anexo and bool(diarias)),
        valor=formatar_brl(str(do_ano["multa"])),
        sobre_a_multa=(
            f"A multa equivale ao valor dos {_cbios(int(do_ano['cbios_multados']))} não "
            f"aposentados ao preço do item 2, respeitados o piso e o teto ({redacao}). O "
            "cálculo usa o preço exato e arredonda uma só vez, ao centavo, no valor final; "
            "cada passo, com o seu valor exato e o seu fundamento, está no item 4.",
        ),
        passos=_passos(resultado, fonte),
        citacoes=tuple(visto.citacoes),
        prazos=tuple((r, t) for r, t in prazos if r != "Aviso"),
        observacoes=_observacoes(resultado["avisos"]),
        anexo=tuple(diarias) if anexo else (),
        assinatura_nome=assinatura[0],
        assinatura_cargo=assinatura[1],
    )


def carregar_modelos(pasta: str | Path | None) -> Any:
    """The notice's templates, with a ``--modelo`` folder's first; a path that is not a
    folder, or a template with an error, is an error naming ``--modelo``."""
    from jinja2 import FileSystemLoader

    from multas.saidas.relatorio.notificacao import ambiente, conferir_modelos

    if pasta is None:
        modelos = ambiente()
        return modelos
    caminho = Path(pasta)
    if not caminho.is_dir():
        raise EntradaInvalida("--modelo", f"não é uma pasta: {caminho}")
    modelos = ambiente(FileSystemLoader(str(caminho)))
    conferir_modelos(modelos, str(caminho.resolve()))
    return modelos
