"""The distributor's ledger (carteira): per CNPJ, year by year, the target, the CBIOs retired,
the shortfall carried from the year before, the 15% deferral and the fine of each year.

Readings (also in ``docs/ciclo.md``; the texts are not transcribed, see
``legislacao/textos/anp-tolerancia-85.txt``):

- **Carry-over** (Resolução ANP nº 791/2019, art. 10, § 1º, as the ANP and the press report
  it): the CBIOs not retired in a year are added to the next year's target, whether or not the
  fine is paid. ``meta_total = meta_cbios + acrescimo_ano_anterior``. The deferred part (below)
  is carried the same way.
- ``cbios_aposentados`` of a year counts every CBIO retired for that year's comprovação,
  including those retired to settle (quitar) the shortfall carried from the year before; so a
  CBIO is counted once. ``data_quitacao`` of a year is the day its shortfall was settled: it
  reduces that year's fine by 1/12 a month (spec § 3.1), and the quantity still joins the next
  year's target, where those CBIOs are counted as retired.
- **Deferral, the 85% / 15% rule** (Lei nº 13.576/2017, art. 7º, as reported): a distributor
  that met its whole target the year before may prove up to 15% of this year's target in the
  next year. Applied when ``diferir`` (default ``true``), the shortfall is at most 15% of
  ``meta_total`` (at least 85% retired), and the previous year's shortfall was zero (a year
  that used the deferral was not met in full, so the deferral is never used two years in a
  row). Without the previous year in the ledger, ``meta_anterior_cumprida`` says whether it was
  met (default: not known, so no deferral, with an aviso). A deferred shortfall is not fined
  that year (the ANP counts such distributors as compliant) and joins the next year's target.
- **The fine** of a year with a shortfall that is not deferred is the ``renovabio.distribuidor``
  regime applied to ``meta_total`` and ``cbios_aposentados`` (with the year's price, revenue,
  quitação and deadline). Without a price, the fine is ``null`` and an aviso says so.
- ``segundo_ano_atuacao`` marks a distributor's second year of operation: its partial checks
  on 30/06 and 31/12 (art. 4º-A) are shown as information, not as a deadline.
- A year missing between two years of the ledger breaks the chain: its carry-over is not
  known, and an aviso says so.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from fractions import Fraction
from typing import Any

from multas.arquivos import Local
from multas.ciclo.prazos import fundamento, vigencia_em
from multas.contrato import JSON, Campo, Leitura, ler_valor
from multas.cotacoes import Serie
from multas.dinheiro import arredondar, formatar_brl, formatar_percentual
from multas.erros import EntradaInvalida
from multas.legislacao import Legislacao, Vigencia, carregar
from multas.regimes.renovabio import cbios_diferidos

#: the text fields of one year: name → (required, maximum length, description)
CAMPOS_TEXTO: dict[str, tuple[bool, int, str]] = {
    "cnpj": (True, 32, "CNPJ do distribuidor (texto, como registrado)"),
    "nome": (False, 200, "Nome do distribuidor"),
}
#: the typed fields of one year, read with the contract's own parser
CAMPOS_ANO: tuple[Campo, ...] = (
    Campo("ano", "ano", "Ano da meta individual", True, 0),
    Campo("meta_cbios", "contagem", "Meta individual publicada para o ano, em CBIOs", True, 0),
    Campo("cbios_aposentados", "contagem", "CBIOs aposentados para comprovar a meta", True, 0),
    Campo(
        "maior_media_mensal", "preco", "Maior média mensal do CBIO no ano (para a multa)", False, 0
    ),
    Campo(
        "cotacoes_diarias",
        "cotacoes_diarias",
        "Cotações diárias do CBIO no ano (o preço exato é a maior média mensal)",
        False,
        0,
    ),
    Campo(
        "cotacoes_mensais",
        "cotacoes_mensais",
        "Médias mensais das cotações do CBIO no ano",
        False,
        0,
    ),
    Campo("faturamento_ano_meta", "quantia", "Faturamento do ano da meta", False, 0),
    Campo("faturamento_ano_anterior", "quantia", "Faturamento do ano anterior", False, 0),
    Campo("data_quitacao", "data", "Data em que a falta do ano foi quitada", False, 0),
    Campo(
        "prazo_comprovacao",
        "data",
        "Prazo de comprovação (art. 4º-A), se não o da tabela",
        False,
        0,
    ),
    Campo(
        "diferir",
        "booleano",
        "Usar o diferimento quando cabível (padrão: sim)",
        False,
        0,
    ),
    Campo(
        "segundo_ano_atuacao",
        "booleano",
        "É o segundo ano de atuação do distribuidor? (comprovações parciais em 30/06 e 31/12)",
        False,
        0,
    ),
    Campo(
        "meta_anterior_cumprida",
        "booleano",
        "A meta do ano anterior foi cumprida integralmente? (só quando esse ano não está na carteira)",
        False,
        0,
    ),
)
NOMES_CAMPOS = (*CAMPOS_TEXTO, *(c.nome for c in CAMPOS_ANO))

#: the ledger's readings (spec v3, issue 18), the default first:
#: - ``preco_diferido``: deferred CBIOs not proven the next year are fined in the next year, at
#:   its price and wording (``ano_seguinte``), or as part of the year of the deferral
#:   (``ano_diferimento``);
#: - ``diferimento_excedente``: a shortfall above the 15% gets no deferral (``nenhum``), or
#:   15% of the target is deferred and the rest fined (``parcial``).
LEITURAS: dict[str, tuple[str, ...]] = {
    "preco_diferido": ("ano_seguinte", "ano_diferimento"),
    "diferimento_excedente": ("nenhum", "parcial"),
}


def ler_leituras(bruto: object) -> dict[str, str]:
    """``interpretacao`` of a ledger: unknown keys and options are errors naming the field."""
    leituras = {chave: opcoes[0] for chave, opcoes in LEITURAS.items()}
    if bruto is None:
        return leituras
    if not isinstance(bruto, Mapping):
        raise EntradaInvalida(
            "interpretacao", 'deve ser um objeto, ex.: {"preco_diferido": "ano_diferimento"}'
        )
    for chave, opcao in bruto.items():
        if chave not in LEITURAS:
            raise EntradaInvalida(
                f"interpretacao.{chave}",
                f"leitura desconhecida para a carteira (aceitas: {', '.join(LEITURAS)})",
            )
        if opcao not in LEITURAS[chave]:
            raise EntradaInvalida(
                f"interpretacao.{chave}",
                f"opção inválida: {str(opcao)[:40]!r} (opções: {', '.join(LEITURAS[chave])})",
            )
        leituras[chave] = opcao
    return leituras


@dataclass(frozen=True, slots=True)
class AnoCarteira:
    """One year of the ledger, as entered (validated)."""

    cnpj: str
    ano: int
    meta_cbios: int
    cbios_aposentados: int
    nome: str | None = None
    maior_media_mensal: Decimal | None = None
    cotacoes_diarias: tuple[tuple[date, Decimal], ...] | None = None
    cotacoes_mensais: Mapping[str, Decimal] | None = None
    faturamento_ano_meta: Decimal | None = None
    faturamento_ano_anterior: Decimal | None = None
    data_quitacao: date | None = None
    prazo_comprovacao: date | None = None
    diferir: bool | None = None
    segundo_ano_atuacao: bool | None = None
    meta_anterior_cumprida: bool | None = None

    def como_dict(self) -> dict[str, Any]:
        """The entry as JSON (numbers as strings, dates ISO), absent fields left out."""
        saida: dict[str, Any] = {}
        for nome in NOMES_CAMPOS:
            valor = getattr(self, nome)
            if valor is None:
                continue
            if isinstance(valor, Decimal):
                valor = f"{valor:f}"
            elif isinstance(valor, date):
                valor = valor.isoformat()
            elif nome == "cotacoes_diarias":
                valor = [{"data": d.isoformat(), "preco": f"{p:f}"} for d, p in valor]
            elif nome == "cotacoes_mensais":
                valor = {mes: f"{media:f}" for mes, media in valor.items()}
            saida[nome] = valor
        return saida


#: the ways a year gives its CBIO price (the contract's), at most one
_PRECOS = ("maior_media_mensal", "cotacoes_diarias", "cotacoes_mensais")


def _texto(bruto: object, campo: str, limite: int) -> str:
    if isinstance(bruto, int) and not isinstance(bruto, bool) and campo.endswith("cnpj"):
        raise EntradaInvalida(campo, "informe o CNPJ como texto (um número perderia os zeros)")
    if not isinstance(bruto, str) or not bruto.strip():
        raise EntradaInvalida(campo, "deve ser um texto não vazio")
    texto = " ".join(bruto.split())
    if len(texto) > limite:
        raise EntradaInvalida(campo, f"texto longo demais (máximo {limite} caracteres)")
    return texto


def ler_ano(dados: object, leitura: Leitura = JSON, prefixo: str = "") -> AnoCarteira:
    """Validate one year of the ledger (a JSON object or a table row)."""
    if not isinstance(dados, Mapping):
        raise EntradaInvalida(prefixo or None, "cada ano da carteira deve ser um objeto JSON")
    for chave in dados:
        if chave not in NOMES_CAMPOS:
            raise EntradaInvalida(
                f"{prefixo}{chave}",
                f"campo desconhecido na carteira (campos: {', '.join(NOMES_CAMPOS)})",
            )
    valores: dict[str, Any] = {}
    for nome, (obrigatorio, limite, _) in CAMPOS_TEXTO.items():
        bruto = dados.get(nome)
        if bruto is None or (leitura.tabela and isinstance(bruto, str) and not bruto.strip()):
            if obrigatorio:
                raise EntradaInvalida(f"{prefixo}{nome}", "campo obrigatório")
            continue
        valores[nome] = _texto(bruto, f"{prefixo}{nome}", limite)
    for c in CAMPOS_ANO:
        bruto = dados.get(c.nome)
        if bruto is None or (leitura.tabela and isinstance(bruto, str) and not bruto.strip()):
            if c.obrigatorio:
                raise EntradaInvalida(f"{prefixo}{c.nome}", "campo obrigatório")
            continue
        try:
            valores[c.nome] = ler_valor(bruto, c, leitura)
        except EntradaInvalida as erro:
            raise EntradaInvalida(f"{prefixo}{erro.campo}", erro.mensagem) from None
    ano = AnoCarteira(**valores)
    precos = [n for n in _PRECOS if getattr(ano, n) is not None]
    if len(precos) > 1:
        raise EntradaInvalida(
            f"{prefixo}{precos[1]}", f"informe só um preço do ano: {' ou '.join(_PRECOS)}"
        )
    if (ano.faturamento_ano_meta is None) != (ano.faturamento_ano_anterior is None):
        falta = (
            "faturamento_ano_anterior"
            if ano.faturamento_ano_anterior is None
            else "faturamento_ano_meta"
        )
        raise EntradaInvalida(f"{prefixo}{falta}", "informe os dois faturamentos, ou nenhum")
    if not 1900 <= ano.ano <= 9998:
        raise EntradaInvalida(f"{prefixo}ano", f"ano fora do intervalo aceito: {ano.ano}")
    return ano


def _percentual(parte: int, todo: int) -> str:
    """``85.00``: parte/todo in percent, two places, half up (a display figure)."""
    if todo == 0:
        return "100.00"
    return f"{arredondar(Fraction(parte * 100, todo)):f}"


def calcular_carteira(
    anos: Sequence[AnoCarteira],
    legislacao: Legislacao | None = None,
    locais: Mapping[int, Local] | None = None,
    interpretacao: Mapping[str, str] | None = None,
    cotacoes: Serie | None = None,
    com_calculo: bool = False,
) -> dict[str, Any]:
    """One distributor's ledger, year by year (the entries must share one CNPJ). An error in
    a year names the field and the year; ``locais`` (year → where it was read) adds where.
    ``interpretacao``: the readings of :data:`LEITURAS` (validated by :func:`ler_leituras`).
    ``cotacoes``: the CBIO quotes that price a year without ``maior_media_mensal`` (the
    engine computes the highest monthly mean from them, exactly). ``com_calculo``: each year
    also keeps its fine's case and the engine's result (``calculo``: ``{"caso",
    "resultado"}``; ``None`` without a fine), for a notice's memória."""
    legislacao = legislacao or carregar()
    leituras = ler_leituras(interpretacao)
    ordenados = _anos_ordenados(anos)
    contexto = _Contexto(legislacao, locais or {}, cotacoes, com_calculo)
    linhas: list[dict[str, Any]] = []
    anterior: dict[str, Any] | None = None
    for ano in ordenados:
        anterior = _linha_do_ano(ano, anterior, contexto, leituras)
        linhas.append(anterior)
    _diferidos_nao_comprovados(ordenados, linhas, contexto, leituras)
    multas = [linha["multa"] for linha in linhas]
    ultimo = ordenados[-1].ano
    return {
        "cnpj": ordenados[0].cnpj,
        "nome": next((a.nome for a in reversed(ordenados) if a.nome), None),
        "anos": linhas,
        "total_multas": (
            None if None in multas else f"{sum((Decimal(m) for m in multas), Decimal(0)):.2f}"
        ),
        "fundamento_acrescimo": fundamento(
            _vigencia_no_ano(legislacao, "ciclo.meta_acrescida", ultimo)
        ),
        "fundamento_diferimento": fundamento(
            _vigencia_no_ano(legislacao, "ciclo.diferimento", ultimo)
        ),
        "interpretacao": leituras,
    }


def _anos_ordenados(anos: Sequence[AnoCarteira]) -> list[AnoCarteira]:
    """The years in order: at least one, one CNPJ, no year twice."""
    if not anos:
        raise EntradaInvalida("anos", "a carteira não tem nenhum ano")
    cnpjs = {a.cnpj for a in anos}
    if len(cnpjs) > 1:
        raise EntradaInvalida("cnpj", f"uma carteira é de um só distribuidor: {sorted(cnpjs)}")
    ordenados = sorted(anos, key=lambda a: a.ano)
    for anterior, seguinte in itertools.pairwise(ordenados):
        if anterior.ano == seguinte.ano:
            raise EntradaInvalida("ano", f"ano repetido na carteira: {seguinte.ano}")
    return ordenados


@dataclass(frozen=True, slots=True)
class _Contexto:
    """What every year of a ledger is computed with."""

    legislacao: Legislacao
    locais: Mapping[int, Local]
    cotacoes: Serie | None
    com_calculo: bool = False


@dataclass
class _Passos:
    """What a year's line cites and warns, in the order its steps add them."""

    fundamentos: list[str] = field(default_factory=list)
    avisos: list[str] = field(default_factory=list)


def _linha_do_ano(
    ano: AnoCarteira,
    anterior: dict[str, Any] | None,
    contexto: _Contexto,
    leituras: Mapping[str, str],
) -> dict[str, Any]:
    """One year of the ledger: the shortfall carried from the year before, the deferral, the
    fine."""
    legislacao = contexto.legislacao
    acrescida = _vigencia_no_ano(legislacao, "ciclo.meta_acrescida", ano.ano)
    passos = _Passos()
    acrescimo, anterior_cumprida = _vindo_do_ano_anterior(ano, anterior, passos)
    if acrescimo:
        passos.fundamentos.append(fundamento(acrescida))
    meta_total = ano.meta_cbios + acrescimo
    deficit = max(0, meta_total - ano.cbios_aposentados)
    diferido = _diferido(ano, deficit, meta_total, anterior_cumprida, legislacao, passos, leituras)
    multados = deficit - diferido
    multa, resultado_multa = _multa_do_ano(ano, meta_total, multados, contexto, passos)
    if deficit > 0:
        passos.fundamentos.append(fundamento(acrescida))
    return {
        "ano": ano.ano,
        "meta_cbios": ano.meta_cbios,
        "acrescimo_ano_anterior": acrescimo,
        "meta_total": meta_total,
        "cbios_aposentados": ano.cbios_aposentados,
        "percentual_cumprido": _percentual(min(ano.cbios_aposentados, meta_total), meta_total),
        "deficit": deficit,
        "cbios_diferidos": diferido,
        "cbios_diferidos_nao_comprovados": 0,
        "cbios_multados": multados,
        "multa": multa,
        "prazo_comprovacao": (
            resultado_multa["resultado"]["prazo_comprovacao"]
            if resultado_multa is not None
            else _prazo(legislacao, ano)
        ),
        "data_quitacao": ano.data_quitacao.isoformat() if ano.data_quitacao else None,
        "acrescimo_proximo_ano": deficit,
        "comprovacoes_parciais": _comprovacoes_parciais(legislacao, ano),
        "fundamentos": list(dict.fromkeys(passos.fundamentos)),
        "avisos": passos.avisos,
        "entrada": ano.como_dict(),
    } | ({"calculo": resultado_multa} if contexto.com_calculo else {})


def _vindo_do_ano_anterior(
    ano: AnoCarteira, anterior: dict[str, Any] | None, passos: _Passos
) -> tuple[int, bool | None]:
    """(the shortfall the year before adds to this year's target, whether that year's target
    was met): from the ledger's line of the year before, else as the entry says."""
    if anterior is not None and anterior["ano"] == ano.ano - 1:
        return int(anterior["acrescimo_proximo_ano"]), anterior["deficit"] == 0
    if anterior is not None:
        passos.avisos.append(
            f"Falta na carteira o ano {ano.ano - 1}: a falta que dele viria para {ano.ano} "
            "não é conhecida (considerada zero)."
        )
    return 0, ano.meta_anterior_cumprida


def _diferido(
    ano: AnoCarteira,
    deficit: int,
    meta_total: int,
    anterior_cumprida: bool | None,
    legislacao: Legislacao,
    passos: _Passos,
    leituras: Mapping[str, str],
) -> int:
    """The CBIOs of the shortfall deferred to the next year (all or none; under
    ``diferimento_excedente = parcial``, 15% of the target when the shortfall is larger)."""
    diferimento = _vigencia_no_ano(legislacao, "ciclo.diferimento", ano.ano)
    fracao = diferimento.fracao
    cabe_percentual = deficit > 0 and Fraction(deficit) <= fracao * meta_total
    parcial = leituras["diferimento_excedente"] == "parcial"
    if deficit > 0 and ano.diferir is not False and not cabe_percentual and parcial:
        if anterior_cumprida is True:
            # whole CBIOs: at most the fraction of the target (the engine's rule)
            teto = cbios_diferidos(deficit, meta_total, fracao, True, ano.diferir, parcial=True)
            passos.fundamentos.append(fundamento(diferimento))
            passos.avisos.append(
                f"A falta de {deficit} CBIOs passa dos {formatar_percentual(fracao)} da meta: "
                f"{teto} CBIOs ({formatar_percentual(fracao)} da meta total, em CBIOs inteiros) "
                f"são diferidos e {deficit - teto} multados (leitura "
                "interpretacao.diferimento_excedente = parcial; a outra leitura, nenhum, "
                "multa a falta inteira)."
            )
            return teto
        motivo = (
            "não se sabe se a meta do ano anterior foi cumprida integralmente (informe "
            "meta_anterior_cumprida)"
            if anterior_cumprida is None
            else "a meta do ano anterior não foi cumprida integralmente"
        )
        passos.avisos.append(
            f"A falta de {deficit} CBIOs passa dos {formatar_percentual(fracao)} da meta; na "
            f"leitura interpretacao.diferimento_excedente = parcial, {formatar_percentual(fracao)} "
            f"seriam diferidos, mas {motivo}: sem diferimento."
        )
        return 0
    if deficit > 0 and ano.diferir is not False and not cabe_percentual:
        # the other reading (defer the 15% and fine the rest) is not applied: say so
        passos.avisos.append(
            f"A falta de {deficit} CBIOs passa dos {formatar_percentual(fracao)} da meta que "
            "podem ser comprovados no ano seguinte: sem diferimento, a falta inteira é multada "
            f"neste ano. Leitura do projeto (interpretacao.diferimento_excedente = nenhum): o "
            f"diferimento vale só para uma falta de até {formatar_percentual(fracao)} "
            f"({fundamento(diferimento)}); a outra leitura (parcial) difere "
            f"{formatar_percentual(fracao)} da meta e multa o resto."
        )
    if deficit <= 0 or ano.diferir is False or not cabe_percentual:
        return 0
    if anterior_cumprida is True:
        passos.fundamentos.append(fundamento(diferimento))
        return cbios_diferidos(deficit, meta_total, fracao, True, ano.diferir)
    if anterior_cumprida is None:
        passos.avisos.append(
            f"A falta de {deficit} CBIOs cabe nos {formatar_percentual(fracao)} que podem ser "
            "comprovados no ano seguinte, mas não se sabe se a meta do ano anterior foi "
            "cumprida integralmente (informe meta_anterior_cumprida): sem diferimento."
        )
    else:
        passos.avisos.append(
            f"A falta de {deficit} CBIOs cabe nos {formatar_percentual(fracao)}, mas a meta do "
            "ano anterior não foi cumprida integralmente: sem diferimento."
        )
    return 0


def _diferidos_nao_comprovados(
    anos: Sequence[AnoCarteira],
    linhas: list[dict[str, Any]],
    contexto: _Contexto,
    leituras: Mapping[str, str],
) -> None:
    """Deferred CBIOs not proven the next year: name them, and price them under the reading
    of ``preco_diferido`` (the next year's fine, or the year of the deferral's), with the
    other reading's total shown."""
    for i in range(1, len(linhas)):
        antes, agora = linhas[i - 1], linhas[i]
        diferidos = int(antes["cbios_diferidos"])
        if agora["ano"] != antes["ano"] + 1 or diferidos <= 0 or agora["cbios_multados"] <= 0:
            continue
        k = min(diferidos, int(agora["cbios_multados"]))
        agora["cbios_diferidos_nao_comprovados"] = k
        descartar = _Passos()
        calculos = (
            _multa_do_ano(
                anos[i - 1],
                antes["meta_total"],
                antes["cbios_multados"] + k,
                contexto,
                descartar,
            ),
            _multa_do_ano(
                anos[i],
                agora["meta_total"],
                agora["cbios_multados"] - k,
                contexto,
                descartar,
            ),
        )
        no_diferimento = (calculos[0][0], calculos[1][0])
        no_seguinte = (antes["multa"], agora["multa"])
        escolhida = leituras["preco_diferido"]
        outra = "ano_diferimento" if escolhida == "ano_seguinte" else "ano_seguinte"
        if escolhida == "ano_diferimento":
            antes["multa"], agora["multa"] = no_diferimento
            if contexto.com_calculo:
                antes["calculo"], agora["calculo"] = calculos[0][1], calculos[1][1]
            antes["cbios_multados"] += k
            agora["cbios_multados"] -= k
        alternativa = no_diferimento if outra == "ano_diferimento" else no_seguinte
        atual = (antes["multa"], agora["multa"])
        if None in alternativa or None in atual:
            diferenca = "sem o preço de um dos anos, a diferença não é calculada"
        else:
            total_atual = sum((Decimal(m) for m in atual if m is not None), Decimal(0))
            total_outra = sum((Decimal(m) for m in alternativa if m is not None), Decimal(0))
            diferenca = (
                f"multas de {antes['ano']} e {agora['ano']} somadas: "
                f"{formatar_brl(total_outra)} na outra leitura, contra "
                f"{formatar_brl(total_atual)} nesta (diferença de "
                f"{formatar_brl(total_outra - total_atual)})"
            )
        onde = (
            f"multados em {agora['ano']}, ao preço e na redação de {agora['ano']}"
            if escolhida == "ano_seguinte"
            else f"multados como parte de {antes['ano']}, ao preço e na redação de {antes['ano']}"
        )
        agora["avisos"].append(
            f"{k} dos CBIOs não comprovados em {agora['ano']} são os diferidos de {antes['ano']} "
            f"e não comprovados: {onde} (leitura interpretacao.preco_diferido = {escolhida}; "
            f"a outra, {outra}); {diferenca}."
        )


def _multa_do_ano(
    ano: AnoCarteira,
    meta_total: int,
    multados: int,
    contexto: _Contexto,
    passos: _Passos,
) -> tuple[str | None, dict[str, Any] | None]:
    """(the year's fine, or ``None`` when it cannot be computed; the case given to the engine
    and the engine's result, ``{"caso", "resultado"}``)."""
    from multas.motor import calcular

    if multados <= 0:
        return "0.00", None
    caso: dict[str, Any] = {
        "regime": "renovabio.distribuidor",
        "ano_meta": ano.ano,
        "meta_cbios": meta_total,
        # the fine is on the fined CBIOs: the deferred ones are counted as proven
        "cbios_aposentados": meta_total - multados,
    }
    proprios = {n: v for n, v in ano.como_dict().items() if n in _PRECOS}
    if proprios:  # the year's own price, or its quotes
        caso.update(proprios)
    elif contexto.cotacoes is not None:
        caso.update(contexto.cotacoes.campos_do_caso(ano.ano))
    else:
        passos.avisos.append(
            f"Sem a maior média mensal do CBIO em {ano.ano} (maior_media_mensal), a "
            "multa do ano não é calculada."
        )
        return None, None
    for chave in (
        "faturamento_ano_meta",
        "faturamento_ano_anterior",
        "data_quitacao",
        "prazo_comprovacao",
    ):
        valor = getattr(ano, chave)
        if valor is not None:
            caso[chave] = valor.isoformat() if isinstance(valor, date) else f"{valor:f}"
    try:
        resultado = calcular(caso, legislacao=contexto.legislacao)
    except EntradaInvalida as erro:
        motivo = f"ano {ano.ano}: {erro.mensagem}"
        local = contexto.locais.get(ano.ano)
        if local is not None:
            raise local.erro(motivo, erro.campo) from None
        raise EntradaInvalida(erro.campo, motivo) from None
    passos.fundamentos.append(resultado["fundamento"])
    # the engine's 85% aviso is the ledger's own decision here (the deferral above)
    passos.avisos.extend(a for a in resultado["avisos"] if "foram comprovados (ao menos" not in a)
    return resultado["valor"], {"caso": caso, "resultado": resultado}


def _comprovacoes_parciais(legislacao: Legislacao, ano: AnoCarteira) -> dict[str, Any] | None:
    """The partial checks of a distributor's second year (art. 4º-A): information, not a
    deadline of § 6. Listed for a year flagged ``segundo_ano_atuacao``."""
    if not ano.segundo_ano_atuacao:
        return None
    vigencia = vigencia_em(legislacao, "ciclo.comprovacoes_parciais", date(ano.ano, 12, 31))
    datas = [date.fromisoformat(f"{ano.ano}-{mes_dia}").isoformat() for mes_dia in vigencia.valor]
    return {"datas": datas, "fundamento": fundamento(vigencia), "texto": vigencia.texto}


def _prazo(legislacao: Legislacao, ano: AnoCarteira) -> str | None:
    if ano.prazo_comprovacao is not None:
        return ano.prazo_comprovacao.isoformat()
    achado = legislacao.prazo_comprovacao(ano.ano)
    return achado[0].isoformat() if achado else None


def _vigencia_no_ano(legislacao: Legislacao, nome: str, ano: int) -> Vigencia:
    return vigencia_em(legislacao, nome, date(ano, 12, 31))


def locais_de_lista(n: int) -> list[Local]:
    """Where the years of a JSON list are: ``item 1``, ``item 2``, …"""
    return [Local(i, "item", "campo") for i in range(1, n + 1)]


def ler_anos(
    linhas: Sequence[object], leitura: Leitura = JSON, locais: Sequence[Local] | None = None
) -> list[AnoCarteira]:
    """Several years (any CNPJs), each validated. An error names the field as its ``campo``
    and says where the row is: ``locais`` (``linha 3, coluna ano``, as the file was read), or
    the position in the list (``item 2, campo ano``)."""
    if locais is None:
        locais = locais_de_lista(len(linhas))
    anos = []
    for linha, local in zip(linhas, locais, strict=True):
        try:
            anos.append(ler_ano(linha, leitura))
        except EntradaInvalida as erro:
            raise local.localizar(erro) from None
    return anos


def por_distribuidor(anos: Sequence[AnoCarteira]) -> dict[str, list[AnoCarteira]]:
    grupos: dict[str, list[AnoCarteira]] = {}
    for ano in anos:
        grupos.setdefault(ano.cnpj, []).append(ano)
    return grupos
