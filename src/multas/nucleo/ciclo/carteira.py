"""The distributor's ledger (carteira): per CNPJ, year by year, the target, the CBIOs retired,
the shortfall carried from the year before, the 15% deferral and the fine of each year.
The years as entered (:class:`AnoCarteira`, their retirements, the readings) are read
and validated in :mod:`multas.nucleo.ciclo.carteira_entrada`, re-exported here.

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
  on 30/06 and 31/12 (art. 4º-A) are shown as information, not as a deadline, only those on
  or after the provision's start (spec § 3.7 W5; the rule is ``contagem.comprovacoes_parciais``,
  shared with the processos' information).
- A year missing between two years of the ledger breaks the chain: its carry-over is not
  known, and an aviso says so.
- **The published target** (the ANP's despacho, read as in ``multas ano calcular``): a year
  gives ``meta_cbios`` (its own target, to which the carry-over is added) and/or
  ``meta_publicada`` (the target as published, the carry-over already inside), and optionally
  ``falta_anterior`` (the carry-over as published). With ``meta_publicada``, the year's total
  target is ``meta_publicada`` and nothing is added again. The published carry-over
  (``falta_anterior``, else ``meta_publicada − meta_cbios``) is the one used; when the ledger
  holds the year before, an aviso says when it differs from the ledger's own. A carry-over
  above zero means the previous year was not met in full (no deferral); a published carry-over
  of zero, with the year before in the ledger, means it was met.
- **Retirements** (``aposentadorias``: date, quantity, B3 reference, each reference once): the
  retirements dated up to the year's deadline (``prazo_comprovacao``, else the table's) are the
  year's ``cbios_aposentados``; they win over a ``cbios_aposentados`` also given, with an aviso
  when the two differ. The retirements after the deadline settle the shortfall: taken in date
  order, the date on which the retired total first reaches the year's total target is
  ``data_quitacao`` (the retirements of one day count together). It wins over a
  ``data_quitacao`` also given (aviso when they differ); when the retirements after the deadline
  do not reach the target, there is no quitação and an aviso says how many are missing; with
  no retirement after the deadline, a ``data_quitacao`` given stays. The retirements after the
  deadline do not count as retired for the year (the deadline passed); the shortfall they
  settle joins the next year's target, where they count as retired (in that year's own
  figures, as ``cbios_aposentados`` says above). A retirement dated before the target year is
  counted, with an aviso.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from decimal import Decimal
from fractions import Fraction
from typing import Any

from multas.nucleo.arquivos import Local
from multas.nucleo.ciclo.carteira_entrada import (
    _PRECOS,
    APOSENTADORIAS,
    CAMPOS_ANO,
    CAMPOS_APOSENTADORIA,
    CAMPOS_TEXTO,
    LEITURAS,
    LEITURAS_DA_MULTA,
    MAXIMO_APOSENTADORIAS,
    MAXIMO_REFERENCIA,
    NOMES_CAMPOS,
    REFERENCIA_B3,
    AnoCarteira,
    Aposentadoria,
    conferir_meta,
    ler_ano,
    ler_anos,
    ler_aposentadoria,
    ler_aposentadorias,
    ler_aposentadorias_da_planilha,
    ler_leituras,
    locais_de_lista,
    por_distribuidor,
)
from multas.nucleo.ciclo.contagem import comprovacoes_parciais
from multas.nucleo.ciclo.prazos import fundamento, vigencia_em
from multas.nucleo.cnpj import normalizar as normalizar_cnpj
from multas.nucleo.cotacoes import Serie
from multas.nucleo.datas import formatar_data
from multas.nucleo.dinheiro import (
    arredondar,
    formatar_brl,
    formatar_numero,
    formatar_percentual,
)
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.legislacao import Legislacao, Vigencia, carregar
from multas.nucleo.preco import exercicio_do_preco
from multas.nucleo.regimes.renovabio import cbios_diferidos
from multas.nucleo.rotulos import leitura as rotulo_leitura

__all__ = [
    "APOSENTADORIAS",
    "CAMPOS_ANO",
    "CAMPOS_APOSENTADORIA",
    "CAMPOS_TEXTO",
    "LEITURAS",
    "LEITURAS_DA_MULTA",
    "MAXIMO_APOSENTADORIAS",
    "MAXIMO_REFERENCIA",
    "NOMES_CAMPOS",
    "REFERENCIA_B3",
    "SEM_SUBSTITUICAO",
    "AnoCarteira",
    "Aposentadoria",
    "Substituicao",
    "calcular_carteira",
    "conferir_meta",
    "ler_ano",
    "ler_anos",
    "ler_aposentadoria",
    "ler_aposentadorias",
    "ler_aposentadorias_da_planilha",
    "ler_leituras",
    "locais_de_lista",
    "marcar_projecoes",
    "por_distribuidor",
]


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
    substituicoes: Mapping[int, Substituicao] | None = None,
) -> dict[str, Any]:
    """One distributor's ledger, year by year (the entries must share one CNPJ). An error in
    a year names the field and the year; ``locais`` (year → where it was read) adds where.
    ``interpretacao``: the readings of :data:`LEITURAS` (validated by :func:`ler_leituras`).
    ``cotacoes``: the CBIO quotes that price a year without ``maior_media_mensal`` (the
    engine computes the highest monthly mean from them, exactly). ``com_calculo``: each year
    also keeps its fine's case and the engine's result (``calculo``: ``{"caso",
    "resultado"}``; ``None`` without a fine), for a notice's memória. ``substituicoes``
    (year → :class:`Substituicao`): figures of a year replaced by others, the rest computed
    as always (the reconciliation with the ANP's notice)."""
    legislacao = legislacao or carregar()
    leituras = ler_leituras(interpretacao)
    ordenados = _anos_ordenados(anos)
    contexto = _Contexto(
        legislacao,
        locais or {},
        cotacoes,
        com_calculo,
        {k: v for k, v in leituras.items() if k in LEITURAS_DA_MULTA},
    )
    linhas: list[dict[str, Any]] = []
    efetivos: list[AnoCarteira] = []
    anterior: dict[str, Any] | None = None
    trocas = substituicoes or {}
    for ano in ordenados:
        anterior, efetivo = _linha_do_ano(
            ano, anterior, contexto, leituras, trocas.get(ano.ano, SEM_SUBSTITUICAO)
        )
        linhas.append(anterior)
        efetivos.append(efetivo)
    _diferidos_nao_comprovados(efetivos, linhas, contexto, leituras)
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


def marcar_projecoes(carteira: dict[str, Any], hoje: date) -> dict[str, Any]:
    """Mark each year of a computed ledger whose deadline to prove the target
    (``prazo_comprovacao``: the year's own, else the legislation's table) has not passed on
    ``hoje`` as a projection (``projecao: true``): its retirements, shortfall and fine may still
    change. On the deadline day itself the year is still a projection. A year with no deadline
    known is one until it ends (31/12). Returns the same ledger, changed in place."""
    for linha in carteira["anos"]:
        prazo = linha["prazo_comprovacao"]
        fim = date.fromisoformat(prazo) if prazo else date(linha["ano"], 12, 31)
        linha["projecao"] = hoje <= fim
    return carteira


def _anos_ordenados(anos: Sequence[AnoCarteira]) -> list[AnoCarteira]:
    """The years in order: at least one, one CNPJ, no year twice."""
    if not anos:
        raise EntradaInvalida("anos", "a carteira não tem nenhum ano")
    cnpjs = {normalizar_cnpj(a.cnpj) for a in anos}  # one key, however spelled
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
    #: the readings of the fine (:data:`LEITURAS_DA_MULTA`) chosen, for the engine
    leituras_da_multa: Mapping[str, str] = field(default_factory=dict)


@dataclass
class _Passos:
    """What a year's line cites and warns, in the order its steps add them."""

    fundamentos: list[str] = field(default_factory=list)
    avisos: list[str] = field(default_factory=list)
    #: the fine under each other reading of :data:`LEITURAS_DA_MULTA` that changes it
    alternativas: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Substituicao:
    """Figures of one year replaced by others (each ``None``: the year's own): the total
    target (``meta_publicada``), the carry-over in it (``falta_anterior``; the total is then
    the year's own target plus it), the CBIOs retired up to the deadline, and the price."""

    meta_publicada: int | None = None
    falta_anterior: int | None = None
    cbios_aposentados: int | None = None
    preco: Decimal | None = None


SEM_SUBSTITUICAO = Substituicao()


@dataclass(frozen=True, slots=True)
class _Meta:
    """A year's target: its own part, the carry-over, the total, and whether the year before
    was met in full (``None``: not known)."""

    propria: int
    acrescimo: int
    total: int
    anterior_cumprida: bool | None


def _linha_do_ano(
    ano: AnoCarteira,
    anterior: dict[str, Any] | None,
    contexto: _Contexto,
    leituras: Mapping[str, str],
    troca: Substituicao = SEM_SUBSTITUICAO,
) -> tuple[dict[str, Any], AnoCarteira]:
    """One year of the ledger: the shortfall carried from the year before, the deferral, the
    fine; and the year as computed (its retirements and quitação resolved, ``troca``
    applied)."""
    legislacao = contexto.legislacao
    acrescida = _vigencia_no_ano(legislacao, "ciclo.meta_acrescida", ano.ano)
    entrada = ano.como_dict()
    passos = _Passos()
    meta = _meta_do_ano(ano, anterior, passos, troca)
    if meta.acrescimo:
        passos.fundamentos.append(fundamento(acrescida))
    meta_total = meta.total
    ano, resumo = _aposentados(ano, meta_total, contexto, passos, troca)
    aposentados = ano.cbios_aposentados
    assert aposentados is not None
    if troca.preco is not None:
        ano = replace(
            ano, maior_media_mensal=troca.preco, cotacoes_diarias=None, cotacoes_mensais=None
        )
    deficit = max(0, meta_total - aposentados)
    diferido = _diferido(
        ano, deficit, meta_total, meta.anterior_cumprida, legislacao, passos, leituras
    )
    multados = deficit - diferido
    multa, resultado_multa = _multa_do_ano(
        ano, meta_total, multados, contexto, passos, meta.acrescimo
    )
    herdados = 0  # the shortfall of a year with no target of its own, not fined
    if meta.propria == 0 < meta.acrescimo and leituras.get("meta_herdada") != "multa":
        herdados, multados = multados, 0  # spec § 3.1 v4; the shortfall still carries
    if deficit > 0:
        passos.fundamentos.append(fundamento(acrescida))
    return {
        "ano": ano.ano,
        "meta_cbios": meta.propria,
        "acrescimo_ano_anterior": meta.acrescimo,
        "meta_total": meta_total,
        "cbios_aposentados": aposentados,
        "percentual_cumprido": _percentual(min(aposentados, meta_total), meta_total),
        "deficit": deficit,
        "cbios_diferidos": diferido,
        "cbios_diferidos_nao_comprovados": 0,
        "cbios_multados": multados,
        "cbios_sem_meta_propria": herdados,
        "multa": multa,
        "prazo_comprovacao": (
            resultado_multa["resultado"]["prazo_comprovacao"]
            if resultado_multa is not None
            else _prazo(legislacao, ano)
        ),
        "data_quitacao": ano.data_quitacao.isoformat() if ano.data_quitacao else None,
        "acrescimo_proximo_ano": deficit,
        "comprovacoes_parciais": _comprovacoes_parciais(legislacao, ano),
        "aposentadorias": resumo,
        "fundamentos": list(dict.fromkeys(passos.fundamentos)),
        "avisos": passos.avisos,
        "alternativas": passos.alternativas,
        "entrada": entrada,
    } | ({"calculo": resultado_multa} if contexto.com_calculo else {}), ano


def _cumprida(falta: int, conhecido: bool, ano: AnoCarteira) -> bool | None:
    """Whether the year before was met in full, from the carry-over: a carry-over means it
    was not; none, with the year before in the ledger, that it was; else as the entry says."""
    if falta > 0:
        return False
    return True if conhecido else ano.meta_anterior_cumprida


def _meta_do_ano(
    ano: AnoCarteira, anterior: dict[str, Any] | None, passos: _Passos, troca: Substituicao
) -> _Meta:
    """The year's target: the carry-over (the published one, else the ledger's), the total
    (``meta_publicada``, counted once, else ``meta_cbios`` + the carry-over), then the
    replaced figures of ``troca``."""
    conhecido = anterior is not None and anterior["ano"] == ano.ano - 1
    publicada = ano.falta_publicada
    if publicada is None:
        acrescimo, cumprida = _vindo_do_ano_anterior(ano, anterior, passos)
    else:
        da_carteira = int(anterior["acrescimo_proximo_ano"]) if anterior and conhecido else None
        if da_carteira is not None and da_carteira != publicada:
            origem = (
                "falta_anterior"
                if ano.falta_anterior is not None
                else "meta_publicada − meta_cbios"
            )
            passos.avisos.append(
                f"A falta do ano anterior que a ANP soma à meta de {ano.ano} "
                f"({formatar_numero(publicada)} CBIOs, {origem}) difere da que a carteira leva de "
                f"{ano.ano - 1} ({formatar_numero(da_carteira)} CBIOs): usada a publicada, contada uma vez. "
                "Confira a notificação com multas carteira conferir."
            )
        acrescimo, cumprida = publicada, _cumprida(publicada, conhecido, ano)
    if ano.meta_publicada is not None:
        total = ano.meta_publicada
    else:
        assert ano.meta_cbios is not None
        total = ano.meta_cbios + acrescimo
    if acrescimo > total:  # meta_publicada alone, below the ledger's carry-over
        passos.avisos.append(
            f"A falta que a carteira leva de {ano.ano - 1} ({formatar_numero(acrescimo)} CBIOs) é maior que "
            f"a meta publicada para {ano.ano} ({formatar_numero(total)} CBIOs), que a inclui: confira "
            "meta_publicada."
        )
        acrescimo = total
    propria = total - acrescimo
    if ano.meta_publicada is not None and ano.meta_cbios is not None and ano.meta_cbios != propria:
        # spec § 3.1 v4: the three as the Despacho publishes them, not adding up
        passos.avisos.append(
            f"A meta publicada para {ano.ano} ({formatar_numero(total)} CBIOs) menos a falta do "
            f"ano anterior ({formatar_numero(acrescimo)}) dá {formatar_numero(propria)} CBIOs, e "
            f"não a meta própria informada (meta_cbios, {formatar_numero(ano.meta_cbios)}): "
            "usadas a meta publicada e a falta; confira a planilha."
        )
    if troca.falta_anterior is not None:
        acrescimo = troca.falta_anterior
        cumprida = _cumprida(acrescimo, conhecido, ano)
        total = propria + acrescimo
    if troca.meta_publicada is not None:
        total = troca.meta_publicada
        acrescimo = min(acrescimo, total)
        propria = total - acrescimo
    return _Meta(propria, acrescimo, total, cumprida)


def _aposentados(
    ano: AnoCarteira,
    meta_total: int,
    contexto: _Contexto,
    passos: _Passos,
    troca: Substituicao,
) -> tuple[AnoCarteira, dict[str, Any] | None]:
    """The year with its CBIOs retired up to the deadline and its ``data_quitacao`` resolved
    from its retirements (see the module's docstring), and the retirements' summary
    (``None`` without them). ``troca.cbios_aposentados`` replaces the retired count."""
    lista = ano.aposentadorias
    if lista is None:
        if troca.cbios_aposentados is not None:
            ano = replace(ano, cbios_aposentados=troca.cbios_aposentados)
        return ano, None
    prazo = _prazo_da_meta(contexto.legislacao, ano)
    if prazo is None:
        raise _erro_no_ano(
            contexto,
            ano,
            "prazo_comprovacao",
            f"não há prazo de comprovação conhecido para a meta de {ano.ano}, e as "
            "aposentadorias se separam em antes e depois dele: informe prazo_comprovacao",
        )
    ate_o_prazo = sum(a.quantidade for a in lista if a.data <= prazo)
    depois = sorted((a for a in lista if a.data > prazo), key=lambda a: a.data)
    antes_do_ano = [a.referencia_b3 for a in lista if a.data.year < ano.ano]
    if antes_do_ano:
        passos.avisos.append(
            f"{len(antes_do_ano)} aposentadoria(s) com data anterior a {ano.ano} "
            f"({', '.join(antes_do_ano[:5])}{', …' if len(antes_do_ano) > 5 else ''}) "
            f"contada(s) para a meta de {ano.ano}: confira se não são de um ano anterior."
        )
    if ano.cbios_aposentados is not None and ano.cbios_aposentados != ate_o_prazo:
        passos.avisos.append(
            f"cbios_aposentados ({formatar_numero(ano.cbios_aposentados)}) difere da soma das aposentadorias "
            f"até o prazo de comprovação, {formatar_data(prazo)} ({formatar_numero(ate_o_prazo)}): usadas "
            "as aposentadorias."
        )
    aposentados = ate_o_prazo if troca.cbios_aposentados is None else troca.cbios_aposentados
    quitacao = ano.data_quitacao
    if depois:
        quitacao = _quitacao(ano.ano, depois, meta_total - aposentados, passos)
        if ano.data_quitacao is not None and ano.data_quitacao != quitacao:
            dada = formatar_data(quitacao) if quitacao else "nenhuma: não quitam a falta"
            passos.avisos.append(
                f"data_quitacao ({formatar_data(ano.data_quitacao)}) difere da dada pelas "
                f"aposentadorias depois do prazo ({dada}): usadas as aposentadorias."
            )
    resumo = {
        "operacoes": len(lista),
        "prazo_comprovacao": prazo.isoformat(),
        "ate_o_prazo": ate_o_prazo,
        "depois_do_prazo": sum(a.quantidade for a in depois),
    }
    return replace(ano, cbios_aposentados=aposentados, data_quitacao=quitacao), resumo


def _quitacao(
    ano: int, depois: Sequence[Aposentadoria], falta: int, passos: _Passos
) -> date | None:
    """The date the retirements after the deadline (in date order) first cover the
    shortfall, the retirements of one day together; ``None``, with an aviso, when they do
    not, or when there was no shortfall."""
    total = sum(a.quantidade for a in depois)
    if falta <= 0:
        passos.avisos.append(
            f"Não houve falta em {ano}: os {formatar_numero(total)} CBIOs aposentados depois do prazo não "
            "quitam nada neste ano (confira se não são do ano seguinte)."
        )
        return None
    acumulado = 0
    for i, aposentadoria in enumerate(depois):
        acumulado += aposentadoria.quantidade
        fim_do_dia = i + 1 == len(depois) or depois[i + 1].data != aposentadoria.data
        if fim_do_dia and acumulado >= falta:
            return aposentadoria.data
    passos.avisos.append(
        f"As aposentadorias depois do prazo somam {formatar_numero(total)} CBIOs e não quitam a falta de "
        f"{formatar_numero(falta)} CBIOs de {ano} (faltam {formatar_numero(falta - total)}): sem data de quitação."
    )
    return None


def _prazo_da_meta(legislacao: Legislacao, ano: AnoCarteira) -> date | None:
    """The year's deadline: the one given, else the table's (as the engine takes it)."""
    if ano.prazo_comprovacao is not None:
        return ano.prazo_comprovacao
    achado = legislacao.prazo_comprovacao(ano.ano)
    if achado is None:
        return None
    prazo: date = achado[0]
    return prazo


def _erro_no_ano(
    contexto: _Contexto, ano: AnoCarteira, campo: str, mensagem: str
) -> EntradaInvalida:
    """An error of a year's computation: the year, and where it was read when known."""
    motivo = f"ano {ano.ano}: {mensagem}"
    local = contexto.locais.get(ano.ano)
    if local is not None:
        return local.erro(motivo, campo)
    return EntradaInvalida(campo, motivo)


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
                f"A falta de {formatar_numero(deficit)} CBIOs passa dos {formatar_percentual(fracao)} da meta: "
                f"{formatar_numero(teto)} CBIOs ({formatar_percentual(fracao)} da meta total, em CBIOs inteiros) "
                f"são diferidos e {formatar_numero(deficit - teto)} multados (leitura "
                f"{rotulo_leitura('diferimento_excedente', 'parcial')}; a outra leitura, "
                f"{rotulo_leitura('diferimento_excedente', 'nenhum')}, multa a falta inteira)."
            )
            return teto
        motivo = (
            "não se sabe se a meta do ano anterior foi cumprida integralmente (informe "
            "meta_anterior_cumprida)"
            if anterior_cumprida is None
            else "a meta do ano anterior não foi cumprida integralmente"
        )
        passos.avisos.append(
            f"A falta de {formatar_numero(deficit)} CBIOs passa dos {formatar_percentual(fracao)} da meta; na "
            f"leitura {rotulo_leitura('diferimento_excedente', 'parcial')}, "
            f"{formatar_percentual(fracao)} "
            f"seriam diferidos, mas {motivo}: sem diferimento."
        )
        return 0
    if deficit > 0 and ano.diferir is not False and not cabe_percentual:
        # the other reading (defer the 15% and fine the rest) is not applied: say so
        passos.avisos.append(
            f"A falta de {formatar_numero(deficit)} CBIOs passa dos {formatar_percentual(fracao)} da meta que "
            "podem ser comprovados no ano seguinte: sem diferimento, a falta inteira é multada "
            "neste ano. Leitura do projeto "
            f"({rotulo_leitura('diferimento_excedente', 'nenhum')}): o "
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
            f"A falta de {formatar_numero(deficit)} CBIOs cabe nos {formatar_percentual(fracao)} que podem ser "
            "comprovados no ano seguinte, mas não se sabe se a meta do ano anterior foi "
            "cumprida integralmente (informe meta_anterior_cumprida): sem diferimento."
        )
    else:
        passos.avisos.append(
            f"A falta de {formatar_numero(deficit)} CBIOs cabe nos {formatar_percentual(fracao)}, mas a meta do "
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
                antes["acrescimo_ano_anterior"],
            ),
            _multa_do_ano(
                anos[i],
                agora["meta_total"],
                agora["cbios_multados"] - k,
                contexto,
                descartar,
                agora["acrescimo_ano_anterior"],
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
            f"e não comprovados: {onde} (leitura {rotulo_leitura('preco_diferido', escolhida)}; "
            f"a outra, {rotulo_leitura('preco_diferido', outra)}); {diferenca}."
        )


def _multa_do_ano(
    ano: AnoCarteira,
    meta_total: int,
    multados: int,
    contexto: _Contexto,
    passos: _Passos,
    acrescimo: int = 0,
) -> tuple[str | None, dict[str, Any] | None]:
    """(the year's fine, or ``None`` when it cannot be computed; the case given to the engine
    and the engine's result, ``{"caso", "resultado"}``). ``acrescimo``: the carry-over inside
    ``meta_total``, the engine's ``falta_anterior`` (a year without a target of its own:
    ``meta_herdada``)."""
    from multas.nucleo.motor import calcular

    if multados <= 0:
        return "0.00", None
    caso: dict[str, Any] = {
        "regime": "renovabio.distribuidor",
        "ano_meta": ano.ano,
        "meta_cbios": meta_total,
        # the fine is on the fined CBIOs: the deferred ones are counted as proven
        "cbios_aposentados": meta_total - multados,
    }
    if 0 < acrescimo <= meta_total:
        caso["falta_anterior"] = acrescimo
    if contexto.leituras_da_multa:
        caso["interpretacao"] = dict(contexto.leituras_da_multa)
    proprios = {n: v for n, v in ano.como_dict().items() if n in _PRECOS}
    if proprios:  # the year's own price, or its quotes
        caso.update(proprios)
    elif contexto.cotacoes is not None:  # the quotes of the exercise that prices the fine
        exercicio = exercicio_do_preco(
            ano.ano,
            _prazo_da_meta(contexto.legislacao, ano),
            contexto.leituras_da_multa.get("ano_do_preco"),
        )
        caso.update(contexto.cotacoes.campos_do_caso(exercicio))
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
        # renovabio.distribuidor: the law of its ano_meta, never today's (no clock needed)
        resultado = calcular(caso, legislacao=contexto.legislacao, hoje=None)
    except EntradaInvalida as erro:
        motivo = f"ano {ano.ano}: {erro.mensagem}"
        local = contexto.locais.get(ano.ano)
        if local is not None:
            raise local.erro(motivo, erro.campo) from None
        raise EntradaInvalida(erro.campo, motivo) from None
    passos.fundamentos.append(resultado["fundamento"])
    # the engine's 85% aviso is the ledger's own decision here (the deferral above)
    passos.avisos.extend(a for a in resultado["avisos"] if "foram comprovados (ao menos" not in a)
    for alternativa in resultado["alternativas"]:  # the other readings of the fine, beside it
        (chave, opcao), *_ = alternativa["interpretacao"].items()
        if chave in LEITURAS_DA_MULTA:
            passos.alternativas.append(alternativa)
            passos.avisos.append(
                f"Na outra leitura ({rotulo_leitura(chave, opcao)}; {chave} = {opcao}), a multa "
                f"de {ano.ano} seria {formatar_brl(Decimal(alternativa['valor']))}."
            )
    return resultado["valor"], {"caso": caso, "resultado": resultado}


def _comprovacoes_parciais(legislacao: Legislacao, ano: AnoCarteira) -> dict[str, Any] | None:
    """The partial checks of a distributor's second year (art. 4º-A): information, not a
    deadline of § 6. Listed for a year flagged ``segundo_ano_atuacao``."""
    if not ano.segundo_ano_atuacao:
        return None
    vigencia, datas = comprovacoes_parciais(legislacao, ano.ano)
    if not datas:  # none before the decree that created them (spec § 3.7 W5)
        return None
    return {
        "datas": [d.isoformat() for d in datas],
        "fundamento": fundamento(vigencia),
        "texto": vigencia.texto,
    }


def _prazo(legislacao: Legislacao, ano: AnoCarteira) -> str | None:
    if ano.prazo_comprovacao is not None:
        return ano.prazo_comprovacao.isoformat()
    achado = legislacao.prazo_comprovacao(ano.ano)
    return achado[0].isoformat() if achado else None


def _vigencia_no_ano(legislacao: Legislacao, nome: str, ano: int) -> Vigencia:
    return vigencia_em(legislacao, nome, date(ano, 12, 31))
