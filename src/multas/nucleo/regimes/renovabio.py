"""RenovaBio: the distributor's fine (Decreto 9.888/2019 art. 6º, with the 1/12 reduction of
art. 6º-A § 8º), the sales-ban fine (art. 6º-A § 1º) and the biofuel producer's fine
(art. 6º-B). Readings pinned by spec §§ 2, 3.1–3.3.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from fractions import Fraction

from multas.nucleo.contrato import CasoComPreco, CasoDistribuidor, CasoProdutor, CasoVedacao
from multas.nucleo.datas import formatar_data, meses_completos, meses_ou_fracao, somar_meses
from multas.nucleo.dinheiro import arredondar, formatar_brl, formatar_percentual, por_mes
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.legislacao import Legislacao, Lei, Vigencia
from multas.nucleo.memoria import Citavel, Memoria, Resultado, com_incisos
from multas.nucleo.preco import Preco, exercicio_do_preco, notas
from multas.nucleo.regimes.catalogo import SAIDAS_PRECO
from multas.nucleo.regimes.cbio import fonte, preco_referencia
from multas.nucleo.regimes.comum import (
    MES_OU_FRACAO,
    lei_aplicavel,
    lei_sem_data_propria,
    multa_devida,
)
from multas.nucleo.rotulos import campo_com_chave
from multas.nucleo.rotulos import leitura as rotulo_leitura

_DESCRICAO_LEITURA = {
    "media": "média",
    "maior": "o maior",
    "menor": "o menor",
}


# --- shared steps ---------------------------------------------------------------------------


def piso_e_teto(
    valor: Fraction,
    piso: Vigencia,
    teto: Vigencia,
    intermedio: Vigencia,
    hipoteses: Vigencia | None,
    m: Memoria,
) -> tuple[Fraction, bool]:
    """§ 2º: below the floor, the floor (the *piso case*); above the ceiling, the ceiling.

    Each step states the value and the amount it is compared with, and quotes the § 2º caput
    ("na hipótese do valor obtido ser:") with the inciso applied; without ``hipoteses`` (a
    provision with no incisos), each step cites its own provision.
    """

    def citar(inciso: Vigencia) -> Citavel:
        return com_incisos(hipoteses, inciso) if hipoteses is not None else inciso

    obtido = formatar_brl(arredondar(valor))
    valor_piso = formatar_brl(arredondar(piso.fracao))
    valor_teto = formatar_brl(arredondar(teto.fracao))
    if valor < piso.fracao:
        m.passo(
            f"Valor obtido de {obtido} inferior ao piso de {valor_piso}: aplica-se o piso "
            "(caso do piso)",
            piso.fracao,
            citar(piso),
            "quantia",
        )
        return piso.fracao, True
    if valor > teto.fracao:
        m.passo(
            f"Valor obtido de {obtido} superior ao teto de {valor_teto}: aplica-se o teto",
            teto.fracao,
            citar(teto),
            "quantia",
        )
        return teto.fracao, False
    citacao: Citavel = intermedio
    if hipoteses is not None and intermedio.texto == hipoteses.texto:
        # the redação without inciso III: between the two, neither inciso applies (§ 1º)
        citacao = com_incisos(hipoteses, piso, teto, fundamento=intermedio.fundamento)
    elif hipoteses is not None:
        citacao = com_incisos(hipoteses, intermedio)
    m.passo(
        f"Valor obtido de {obtido} entre o piso de {valor_piso} e o teto de {valor_teto}: "
        "aplica-se o valor calculado",
        valor,
        citacao,
        "quantia",
    )
    return valor, False


def limite_faturamento(
    multa: Fraction,
    caso: CasoComPreco | CasoVedacao,
    ano: int | None,
    interpretacao: Mapping[str, str],
    limite: Vigencia,
    lei: Lei,
    m: Memoria,
    piso_proprio: Vigencia | None = None,
) -> Fraction:
    """§ 3º: at most 5% of the annual revenue of the two previous fiscal years.

    Which revenue is ambiguous: the mean (default), the larger or the smaller of the two years
    (``interpretacao.faturamento``, spec § 3.1 step 5). When the cap falls below the floor,
    ``interpretacao.piso`` decides: ``lei`` (default) keeps the law's floor, which a decree's
    cap cannot undercut; ``decreto`` keeps the capped value, as the decree's text reads.
    The floor compared here is the law's own parameter (``renovabio.piso_legal``), never the
    decree's § 2º I value: a change to one must not move the other (spec § 3.1 step 5).

    ``piso_proprio``: the regime's own floor, for the producer and the sales ban (spec § 3.7
    point 1, ``piso-so-distribuidor``): the law's floor is tied to the distributor's target, so
    there ``decreto`` (their default) compares the cap with the decree's own floor and cites no
    article of the law; ``lei`` extends the distributor's floor to them.
    """
    if caso.faturamento_ano_meta is None or caso.faturamento_ano_anterior is None:
        m.aviso(
            f"Faturamentos não informados: o limite de {formatar_percentual(limite.fracao)} do faturamento "
            f"({limite.dispositivo}) não foi aplicado."
        )
        return multa
    leitura = interpretacao["faturamento"]
    anos = f"de {ano} e {ano - 1}" if ano is not None else "dos dois exercícios"
    atual, anterior = Fraction(caso.faturamento_ano_meta), Fraction(caso.faturamento_ano_anterior)
    referencia = {
        "media": (atual + anterior) / 2,
        "maior": max(atual, anterior),
        "menor": min(atual, anterior),
    }[leitura]
    m.passo(
        f"Faturamento de referência: {_DESCRICAO_LEITURA[leitura]} dos faturamentos {anos} "
        f"({formatar_brl(arredondar(atual))} e {formatar_brl(arredondar(anterior))}; "
        f"leitura {rotulo_leitura('faturamento', leitura)})",
        referencia,
        limite,
        "quantia",
    )
    teto = m.passo(
        f"Limite: {formatar_percentual(limite.fracao)} do faturamento de referência "
        f"({formatar_brl(arredondar(referencia))})",
        referencia * limite.fracao,
        limite,
        "quantia",
    )
    if multa <= teto:
        m.passo(
            f"Multa de {formatar_brl(arredondar(multa))} não supera o limite do faturamento "
            f"({formatar_brl(arredondar(teto))}): mantida",
            multa,
            limite,
            "quantia",
        )
        return multa
    leitura_piso = interpretacao["piso"]
    piso_legal = lei["renovabio.piso_legal"]
    if piso_proprio is not None and leitura_piso == "decreto":
        return _limite_sem_piso_legal(multa, teto, limite, piso_proprio, m)
    if teto >= piso_legal.fracao:
        return m.passo(
            f"Multa de {formatar_brl(arredondar(multa))} acima do limite do faturamento "
            f"({formatar_brl(arredondar(teto))}), que não fica abaixo do piso legal "
            f"({formatar_brl(arredondar(piso_legal.fracao))}): multa limitada ao percentual do "
            "faturamento",
            teto,
            limite,
            "quantia",
        )
    # spec § 3.1 step 5: the cap falls below the law's floor
    valor_teto = formatar_brl(arredondar(teto))
    valor_piso = formatar_brl(arredondar(piso_legal.fracao))
    if leitura_piso == "lei":
        estendido = (
            ""
            if piso_proprio is None
            else " Aqui o piso do distribuidor é estendido a esta multa, que tem faixa própria "
            "(leitura piso-so-distribuidor; veja docs/leituras.md#piso-so-distribuidor)."
        )
        m.aviso(
            f"O limite de {formatar_percentual(limite.fracao)} do faturamento ({valor_teto}) ficou "
            f"abaixo do piso de {valor_piso}: prevalece o piso da lei ({piso_legal.dispositivo}, "
            "cujo texto não está transcrito nas fontes do projeto), "
            "que o limite de um decreto não pode reduzir (leitura do projeto, "
            f"{rotulo_leitura('piso', 'lei')}; veja docs/leituras.md#renovabio).{estendido}"
        )
        return m.passo(
            f"Limite do faturamento ({valor_teto}) abaixo do piso: prevalece o piso legal de "
            f"{valor_piso} (leitura {rotulo_leitura('piso', 'lei')})",
            piso_legal.fracao,
            piso_legal,
            "quantia",
        )
    m.aviso(
        f"O limite de {formatar_percentual(limite.fracao)} do faturamento ({valor_teto}) ficou "
        f"abaixo do mínimo legal de {valor_piso} ({piso_legal.dispositivo}, cujo texto não "
        "está transcrito nas fontes do projeto); mantido o valor "
        f"limitado, como lê o texto do decreto (leitura {rotulo_leitura('piso', 'decreto')}; "
        "veja docs/leituras.md#renovabio)."
    )
    return m.passo(
        f"Multa limitada ao percentual do faturamento ({valor_teto}), mesmo abaixo do piso "
        f"de {valor_piso} (leitura {rotulo_leitura('piso', 'decreto')})",
        teto,
        limite,
        "quantia",
    )


def _limite_sem_piso_legal(
    multa: Fraction, teto: Fraction, limite: Vigencia, piso: Vigencia, m: Memoria
) -> Fraction:
    """Spec § 3.7 point 1 (``piso-so-distribuidor``), the producer's and the sales ban's
    default: the cap stands, compared only with the regime's own floor (the decree's)."""
    valor_teto = formatar_brl(arredondar(teto))
    valor_piso = formatar_brl(arredondar(piso.fracao))
    if teto >= piso.fracao:
        return m.passo(
            f"Multa de {formatar_brl(arredondar(multa))} acima do limite do faturamento "
            f"({valor_teto}), que não fica abaixo do piso de {valor_piso}: multa limitada ao "
            "percentual do faturamento",
            teto,
            limite,
            "quantia",
        )
    m.aviso(
        f"O limite de {formatar_percentual(limite.fracao)} do faturamento ({valor_teto}) ficou "
        f"abaixo do piso de {valor_piso} ({piso.dispositivo}); mantido o valor limitado: o "
        "limite só excetua o caso do piso, e o piso da lei está ligado à meta do distribuidor, "
        "não a esta multa (leitura do projeto, piso-so-distribuidor; "
        f"{rotulo_leitura('piso', 'decreto')}; veja docs/leituras.md#piso-so-distribuidor)."
    )
    return m.passo(
        f"Multa limitada ao percentual do faturamento ({valor_teto}), mesmo abaixo do piso "
        f"de {valor_piso} (leitura {rotulo_leitura('piso', 'decreto')})",
        teto,
        limite,
        "quantia",
    )


def _resultado_zero(
    regime: str, lei: Lei, redacao: Vigencia, m: Memoria, **saidas: object
) -> Resultado:
    return Resultado(
        regime=regime,
        valor=Fraction(0),
        fundamento=_fundamento(redacao),
        data_referencia=lei.data,
        redacao=str(redacao.valor),
        memoria=m,
        saidas=dict(saidas),
    )


def _fundamento(redacao: Vigencia) -> str:
    return redacao.dispositivo.removesuffix(", caput")


# --- § 3.1: renovabio.distribuidor --------------------------------------------------------


def prazo_comprovacao(caso: CasoDistribuidor, legislacao: Legislacao, m: Memoria) -> date:
    """Art. 4º-A: the deadline of the target year, from the table; a given one always wins."""
    tabela = legislacao.prazo_comprovacao(caso.ano_meta)
    if caso.prazo_comprovacao is not None:
        if tabela is not None and tabela[0] != caso.prazo_comprovacao:
            m.aviso(
                f"O prazo de comprovação informado ({formatar_data(caso.prazo_comprovacao)}) "
                f"difere do previsto para a meta de {caso.ano_meta}, {formatar_data(tabela[0])} "
                f"({tabela[1].dispositivo}); usado o informado."
            )
        return m.passo(
            f"Prazo de comprovação da meta de {caso.ano_meta} (informado)",
            caso.prazo_comprovacao,
            "Decreto nº 9.888/2019, art. 4º-A (prazo informado pelo usuário)",
        )
    if tabela is None:
        raise EntradaInvalida(
            "prazo_comprovacao",
            f"não há prazo de comprovação conhecido para a meta de {caso.ano_meta}; informe prazo_comprovacao",
        )
    prazo, linha = tabela
    return m.passo(
        f"Prazo de comprovação da meta de {caso.ano_meta}: a infração é o descumprimento nesse prazo",
        prazo,
        linha,
    )


def multa_distribuidor(
    caso: CasoDistribuidor,
    interpretacao: Mapping[str, str],
    legislacao: Legislacao,
    hoje: date | None,
) -> Resultado:
    """Decreto 9.888/2019 art. 6º (and art. 6º-A § 8º from 2025).

    >>> from multas import calcular
    >>> calcular({"regime": "renovabio.distribuidor", "ano_meta": 2023, "meta_cbios": 250000,
    ...           "cbios_aposentados": 100000, "maior_media_mensal": "130.10"})["valor"]
    '19515000.00'
    """
    m = Memoria()
    regime = CasoDistribuidor.regime
    prazo = prazo_comprovacao(caso, legislacao, m)
    lei, redacao = lei_aplicavel(
        legislacao,
        "renovabio.distribuidor.redacao",
        regime,
        prazo,
        "da infração (o fim do prazo de comprovação; transição lida como no Parecer nº "
        "00041/2025/PF-ANP)",
        caso.data_referencia,
        "prazo_comprovacao" if caso.prazo_comprovacao else "ano_meta",
        m,
    )
    if caso.data_quitacao is not None and caso.data_quitacao <= prazo:
        raise EntradaInvalida(
            "data_quitacao",
            f"a quitação ({formatar_data(caso.data_quitacao)}) deve ser posterior ao prazo de "
            f"comprovação ({formatar_data(prazo)})",
        )
    calculo = lei["renovabio.distribuidor.calculo"]

    # § 1º "equivalente ao valor dos Créditos de Descarbonização não adquiridos"
    faltantes = m.passo(
        "CBIOs não adquiridos: meta individual − CBIOs aposentados (mínimo zero)",
        max(0, caso.meta_cbios - caso.cbios_aposentados),
        calculo,
    )
    falta = faltantes
    if faltantes == 0:
        m.passo("Meta individual atendida: não há multa", Fraction(0), calculo, "quantia")
        return _resultado_zero(regime, lei, redacao, m, **_sem_preco(prazo), **_cbios(0, 0, 0))
    if _sem_meta_propria(caso, interpretacao, calculo, m):
        return _resultado_zero(regime, lei, redacao, m, **_sem_preco(prazo), **_cbios(falta, 0, 0))

    faltantes = _diferimento(caso, faltantes, lei, m)
    if faltantes == 0:
        m.passo(
            "Toda a falta foi diferida: não há multa neste ano", Fraction(0), calculo, "quantia"
        )
        return _resultado_zero(
            regime, lei, redacao, m, **_sem_preco(prazo), **_cbios(falta, falta, 0)
        )

    # § 1º "considerada a maior média mensal das cotações ... no exercício do descumprimento"
    exercicio = _exercicio_do_preco(caso, prazo, interpretacao, calculo, m)
    preco = preco_referencia(caso, exercicio, m, calculo, interpretacao)
    apurado = m.passo(
        "Valor apurado: CBIOs não adquiridos × maior média mensal",
        faltantes * preco.valor,
        calculo,
        "quantia",
    )

    # § 2º I, II (and III from 2025): the floor and the ceiling
    piso = lei["renovabio.distribuidor.piso"]
    multa, caso_piso = piso_e_teto(
        apurado,
        piso,
        lei["renovabio.distribuidor.teto"],
        lei["renovabio.distribuidor.valor_calculado"],
        lei["renovabio.distribuidor.hipoteses"],
        m,
    )

    # § 3º "não poderá superar cinco por cento ... ressalvada a hipótese do inciso I do § 2º"
    limite = lei["renovabio.distribuidor.limite_faturamento"]
    if caso_piso:
        m.passo("Caso do piso: o limite do faturamento não se aplica", multa, limite, "quantia")
    else:
        multa = limite_faturamento(multa, caso, caso.ano_meta, interpretacao, limite, lei, m)

    # art. 6º-A § 8º (from 2025): 1/12 a month, "respeitado o limite inferior"
    if caso.data_quitacao is not None:
        multa = _reducao(
            multa, caso.data_quitacao, prazo, lei, piso, interpretacao["meses_reducao"], m
        )
    if caso.meta_anterior_cumprida is None:
        _regra_dos_85(caso, lei, multa, m)

    return Resultado(
        regime=regime,
        valor=multa,
        fundamento=_fundamento(redacao),
        data_referencia=lei.data,
        redacao=str(redacao.valor),
        memoria=multa_devida(m, multa),
        saidas={
            "prazo_comprovacao": prazo,
            **preco.saidas(_fonte_do_preco(caso, preco)),
            **_cbios(falta, falta - faltantes, faltantes),
        },
    )


def _cbios(falta: int, diferido: int, multado: int) -> dict[str, int]:
    """The CBIOs behind the fine, as ``multas ano`` names them: the shortfall (``falta``:
    target − retired, at least zero), how many of them were deferred to the next year's target
    (``diferido``) and how many are fined this year (``multado``: zero also when the year is
    not fined for another reason, a target that is only the carried shortfall)."""
    return {"falta": falta, "diferido": diferido, "multado": multado}


def _sem_preco(prazo: date) -> dict[str, object]:
    """The outputs of a distributor's result that no price was needed for."""
    return {"prazo_comprovacao": prazo, **dict.fromkeys(SAIDAS_PRECO)}


def _fonte_do_preco(caso: CasoDistribuidor | CasoProdutor, preco: Preco) -> str:
    """``preco_fonte``: for a price given as such, that it was given; else the quotes'."""
    return "preço informado na entrada" if preco.cobertura is None else fonte(caso)


def _exercicio_do_preco(
    caso: CasoDistribuidor,
    prazo: date,
    interpretacao: Mapping[str, str],
    calculo: Vigencia,
    m: Memoria,
) -> int:
    """The exercise whose quotes price the fine (``interpretacao.ano_do_preco``, spec § 3.1
    v4): the target year, or the calendar year of the deadline. The reading is consulted only
    where the two differ and the price comes from quotes, so it is listed among the alternativas
    only there."""
    if prazo.year == caso.ano_meta or caso.maior_media_mensal is not None:
        return caso.ano_meta
    leitura = interpretacao["ano_do_preco"]
    texto = notas()["ano_do_preco"]
    exercicio = exercicio_do_preco(caso.ano_meta, prazo, leitura)
    return m.passo(
        f"Exercício do descumprimento, cujas cotações dão o preço: {exercicio} (o prazo de "
        f"comprovação, {formatar_data(prazo)}, cai em {prazo.year}). {texto[leitura]} "
        f"{texto['nota']}",
        exercicio,
        calculo,
        "inteiro",
    )


def _sem_meta_propria(
    caso: CasoDistribuidor, interpretacao: Mapping[str, str], calculo: Vigencia, m: Memoria
) -> bool:
    """A year whose target is only the previous year's shortfall carried over
    (``interpretacao.meta_herdada``, spec § 3.1 v4): true when it is not fined."""
    falta = caso.falta_anterior or 0
    if falta == 0 or caso.meta_cbios - falta > 0:
        return False
    leitura = interpretacao["meta_herdada"]
    texto = notas()["meta_herdada"]
    m.aviso(texto[leitura].format(falta=falta, citacao=texto["citacao"], fonte=texto["fonte"]))
    if leitura == "multa":
        return False
    m.passo(
        "Ano sem meta própria (meta individual = falta do ano anterior): não há multa "
        "(leitura meta_herdada = nao_multa)",
        Fraction(0),
        calculo,
        "quantia",
    )
    return True


def cbios_diferidos(
    faltantes: int,
    meta: int,
    fracao: Fraction,
    anterior_cumprida: bool | None,
    diferir: bool | None,
    parcial: bool = False,
) -> int:
    """The CBIOs of a shortfall deferred to the next year (Lei nº 13.576/2017 art. 7º, as the
    ANP applies it; the rule of the ledger, ``docs/ciclo.md``): all of it when it is at most
    ``fracao`` of the target and the previous year's target was met in full (and the
    distributor defers: ``diferir`` not false); else none, or, under the ledger's reading
    ``diferimento_excedente = parcial``, ``fracao`` of the target in whole CBIOs.

    >>> cbios_diferidos(15, 100, Fraction(3, 20), True, None)
    15
    >>> cbios_diferidos(16, 100, Fraction(3, 20), True, None), cbios_diferidos(15, 100, Fraction(3, 20), None, None)
    (0, 0)
    >>> cbios_diferidos(16, 100, Fraction(3, 20), True, None, parcial=True)
    15
    """
    if faltantes <= 0 or diferir is False or anterior_cumprida is not True:
        return 0
    if faltantes <= fracao * meta:
        return faltantes
    return int(fracao * meta) if parcial else 0


def _diferimento(caso: CasoDistribuidor, faltantes: int, lei: Lei, m: Memoria) -> int:
    """With ``meta_anterior_cumprida``, the deferral (:func:`cbios_diferidos`): the CBIOs
    still fined this year."""
    diferimento = lei.get("ciclo.diferimento")
    if diferimento is None or caso.meta_anterior_cumprida is None:
        return faltantes
    fracao = diferimento.fracao
    diferidos = cbios_diferidos(
        faltantes, caso.meta_cbios, fracao, caso.meta_anterior_cumprida, caso.diferir
    )
    if diferidos == 0:
        motivo = (
            "o distribuidor não usa o diferimento (diferir = false)"
            if caso.diferir is False
            else "a meta do ano anterior não foi cumprida integralmente"
            if caso.meta_anterior_cumprida is False
            else f"a falta passa de {formatar_percentual(fracao)} da meta"
        )
        m.aviso(f"Sem diferimento da falta para o ano seguinte: {motivo}.")
        return faltantes
    m.passo(
        f"CBIOs diferidos ao ano seguinte: a falta cabe em {formatar_percentual(fracao)} da "
        "meta e a meta do ano anterior foi cumprida integralmente (meta_anterior_cumprida); "
        "somam-se à meta do ano seguinte",
        diferidos,
        diferimento,
    )
    return m.passo(
        "CBIOs multados neste ano: não adquiridos − diferidos", faltantes - diferidos, diferimento
    )


def _regra_dos_85(caso: CasoDistribuidor, lei: Lei, multa: Fraction, m: Memoria) -> None:
    """The ANP's 85% rule, shown as an aviso (issue 8) only where the deferral can apply (spec
    § 3.7, W12): at least 85% retired, and no shortfall carried from the year before
    (``falta_anterior`` = 0: the previous target met, and no deferral then). ``meta_anterior_
    cumprida`` given decides it in the rule itself, so the aviso is for the case without it. The
    value does not change here; the aviso names it."""
    tolerancia = lei.get("renovabio.distribuidor.tolerancia")
    if tolerancia is None or not (
        tolerancia.fracao * caso.meta_cbios <= caso.cbios_aposentados < caso.meta_cbios
    ):
        return
    if caso.falta_anterior:  # the year before was not met in full, or was deferred
        return
    m.aviso(
        f"{formatar_percentual(Fraction(caso.cbios_aposentados, caso.meta_cbios))} da meta "
        f"foram comprovados (ao menos {formatar_percentual(tolerancia.fracao)}): se o distribuidor "
        "cumpriu integralmente a meta do ano anterior, pode comprovar o restante, até "
        f"{formatar_percentual(1 - tolerancia.fracao)}, no ano seguinte ({tolerancia.dispositivo}, "
        "como a ANP o aplica; o texto do parágrafo não está transcrito nas fontes do projeto). "
        "Nesse caso não há multa neste ano e os CBIOs adiados somam-se à meta do ano seguinte. "
        f"A multa de {formatar_brl(arredondar(multa))} calculada aqui não considera essa "
        "hipótese."
    )


#: how k of the 1/12 reduction is counted (``interpretacao.meses_reducao``, spec § 3.1 step 6)
_MESES_REDUCAO = {
    "fracao": ("meses ou fração", MES_OU_FRACAO),
    "completos": (
        "meses completos",
        "o maior k ≥ 0 com prazo + k meses ≤ quitação (k = 0 dá o piso)",
    ),
}


def _reducao(
    multa: Fraction,
    quitacao: date,
    prazo: date,
    lei: Lei,
    piso: Vigencia,
    leitura: str,
    m: Memoria,
) -> Fraction:
    reducao = lei.get("renovabio.distribuidor.reducao")
    if reducao is None:
        m.aviso(
            f"{campo_com_chave('data_quitacao')} ignorada: a redução da multa pela quitação da meta (Decreto nº "
            "9.888/2019, art. 6º-A, § 8º, incluído pelo Decreto nº 12.437/2025) não existia na "
            "redação aplicada."
        )
        return multa
    maximo = lei["renovabio.distribuidor.reducao_meses"]
    janela = somar_meses(prazo, maximo.inteiro)
    if quitacao > janela:
        return m.passo(
            f"Quitação após {maximo.inteiro} meses do prazo de comprovação (depois de "
            f"{formatar_data(janela)}): sem redução",
            multa,
            maximo,
            "quantia",
        )
    nome_leitura, regra = _MESES_REDUCAO[leitura]
    contar = meses_completos if leitura == "completos" else meses_ou_fracao
    meses = m.passo(
        f"Meses ({nome_leitura}) do prazo de comprovação até a quitação em "
        f"{formatar_data(quitacao)}: {regra} (leitura {rotulo_leitura('meses_reducao', leitura)})",
        contar(prazo, quitacao),
        reducao,
    )
    if multa < piso.fracao:
        # spec § 3.1 step 6: a fine already below the floor because of § 3º stays as it was
        return m.passo(
            "Multa já abaixo do piso por força do limite do faturamento: a redução, que respeita "
            "o limite inferior, não a altera",
            multa,
            reducao,
            "quantia",
        )
    reduzida = m.passo(
        f"Multa reduzida à razão de {reducao.fracao} ao mês: multa × {meses} × {reducao.fracao}",
        multa * meses * reducao.fracao,
        reducao,
        "quantia",
    )
    outra = "completos" if leitura == "fracao" else "fracao"
    m.aviso(
        f"Leitura do projeto ({rotulo_leitura('meses_reducao', leitura)}; "
        "veja docs/leituras.md#meses_reducao): "
        f'a redução "à razão de {reducao.fracao} ao mês" é lida como multa × '
        f"{por_mes(reducao.fracao)}, com k = {meses} ({nome_leitura}) do prazo de comprovação "
        f"até a quitação; a outra leitura conta {_MESES_REDUCAO[outra][0]} "
        f"({rotulo_leitura('meses_reducao', outra)}). O {reducao.dispositivo} remete ao "
        '"regulamento da ANP", que não foi localizado; confira se ele dispõe de outro modo.'
    )
    if reduzida < piso.fracao:
        return m.passo(
            "Respeitado o limite inferior: a multa reduzida não fica abaixo do piso",
            piso.fracao,
            reducao,
            "quantia",
        )
    return reduzida


# --- § 3.2: renovabio.produtor ------------------------------------------------------------


def multa_produtor(
    caso: CasoProdutor, interpretacao: Mapping[str, str], legislacao: Legislacao, hoje: date | None
) -> Resultado:
    """Decreto 9.888/2019 art. 6º-B (from 2025).

    >>> from multas import calcular
    >>> calcular({"regime": "renovabio.produtor", "ano": 2025, "cbios_nao_pagos": 300000,
    ...           "maior_media_mensal": "70.43", "dados_primarios": True})["valor"]
    '42258000.00'
    """
    m = Memoria()
    regime = CasoProdutor.regime
    lei, redacao = lei_aplicavel(
        legislacao,
        "renovabio.produtor.redacao",
        regime,
        date(caso.ano, 12, 31),
        f"da infração (o fim do exercício de {caso.ano})",
        caso.data_referencia,
        "ano",
        m,
    )
    calculo = lei["renovabio.produtor.calculo"]
    nao_pagos = m.passo(
        "CBIOs que deixaram de ser pagos ao produtor de cana", caso.cbios_nao_pagos, calculo
    )
    if nao_pagos == 0:
        m.passo("Nenhum CBIO deixou de ser pago: não há multa", Fraction(0), calculo, "quantia")
        return _resultado_zero(regime, lei, redacao, m, **dict.fromkeys(SAIDAS_PRECO))

    # § 1º "a maior média mensal das cotações ... multiplicada pela quantidade de créditos"
    preco = preco_referencia(caso, caso.ano, m, calculo, interpretacao)
    base = m.passo(
        "Valor obtido: CBIOs não pagos × maior média mensal",
        nao_pagos * preco.valor,
        calculo,
        "quantia",
    )

    # § 2º I–III: the floor, and a ceiling of R$ 50 milhões (not 500)
    piso, teto = lei["renovabio.produtor.piso"], lei["renovabio.produtor.teto"]
    multa, caso_piso = piso_e_teto(
        base,
        piso,
        teto,
        lei["renovabio.produtor.valor_calculado"],
        lei["renovabio.produtor.hipoteses"],
        m,
    )

    # § 3º "devida em dobro ... respeitado o limite do disposto no § 2º, inciso II"
    dobro = lei["renovabio.produtor.dobro"]
    if caso.dados_primarios:
        multa = m.passo(
            "Dados primários fornecidos pelo produtor de cana: multa em dobro, até o teto",
            min(multa * dobro.fracao, teto.fracao),
            dobro,
            "quantia",
        )
    else:
        m.passo("Dados primários não fornecidos: multa simples", False, dobro)

    # § 4º "não poderá superar 5% ... ressalvada a hipótese do disposto no § 2º, inciso I"
    limite = lei["renovabio.produtor.limite_faturamento"]
    if caso_piso:
        m.passo(
            "Caso do piso (também o piso dobrado): o limite do faturamento não se aplica",
            multa,
            limite,
            "quantia",
        )
    else:
        multa = limite_faturamento(multa, caso, caso.ano, interpretacao, limite, lei, m, piso)
    return Resultado(
        regime=regime,
        valor=multa,
        fundamento=_fundamento(redacao),
        data_referencia=lei.data,
        redacao=str(redacao.valor),
        memoria=multa_devida(m, multa),
    )


# --- § 3.3: renovabio.vedacao -------------------------------------------------------------


def multa_vedacao(
    caso: CasoVedacao, interpretacao: Mapping[str, str], legislacao: Legislacao, hoje: date | None
) -> Resultado:
    """Decreto 9.888/2019 art. 6º-A § 1º: breaking the sales ban.

    >>> from multas import calcular
    >>> calcular({"regime": "renovabio.vedacao"})["valor_maximo"]
    '500000000.00'
    """
    m = Memoria()
    regime = CasoVedacao.regime
    # The ban has no infraction date in the contract: by default, the law in force today.
    lei, redacao = lei_sem_data_propria(
        legislacao, "renovabio.vedacao.redacao", regime, caso.data_referencia, hoje, m
    )
    minimo, maximo = lei["renovabio.vedacao.minimo"], lei["renovabio.vedacao.maximo"]
    m.passo("Valor mínimo da multa", minimo.fracao, minimo, "quantia")
    m.passo("Valor máximo da multa", maximo.fracao, maximo, "quantia")
    saidas = {"valor_minimo": minimo.fracao, "valor_maximo": maximo.fracao}
    if caso.valor_base is None:
        m.aviso(
            "Sem valor_base, só a faixa é informada: o Decreto remete os parâmetros da multa à "
            "regulação da ANP, que não está transcrita nas fontes do projeto (leitura "
            "valor-base-informado; veja docs/leituras.md#valor-base-informado)."
        )
        return Resultado(
            regime=regime,
            valor=None,
            fundamento=minimo.dispositivo,
            data_referencia=lei.data,
            redacao=str(redacao.valor),
            memoria=m,
            saidas=saidas,
        )
    # spec § 3.7 point 2 (valor-base-informado): the amount the user proposes, no reading of
    # the ANP's (the decree sends the parameters to its regulation, not transcribed)
    base = m.passo(
        "Valor base: o valor proposto, informado pelo usuário (a regulação da ANP que fixa os "
        "parâmetros não está transcrita; leitura valor-base-informado)",
        Fraction(caso.valor_base),
        minimo,
        "quantia",
    )
    multa, caso_piso = piso_e_teto(base, minimo, maximo, maximo, None, m)
    limite = lei["renovabio.vedacao.limite_faturamento"]
    if caso_piso:
        m.passo("Caso do piso: o limite do faturamento não se aplica", multa, limite, "quantia")
    elif (caso.agente or "distribuidor") == "outro":
        m.passo(
            "Agente que não é distribuidor: o limite do faturamento, que o decreto fixa para "
            '"a multa de cada distribuidor", não se aplica',
            multa,
            limite,
            "quantia",
        )
        m.aviso(
            f"O limite de {formatar_percentual(limite.fracao)} do faturamento ({limite.dispositivo}) "
            "não foi aplicado: o texto o fixa para a multa de cada distribuidor, e o agente "
            "informado não é distribuidor (leitura valor-base-informado; veja "
            "docs/leituras.md#valor-base-informado)."
        )
    else:
        multa = limite_faturamento(multa, caso, None, interpretacao, limite, lei, m, minimo)
    reducao = lei.get("renovabio.distribuidor.reducao")
    m.passo(
        f"Sem redução{f' de {reducao.fracao}' if reducao else ''}: o art. 6º-A, § 8º, reduz "
        'apenas "a multa prevista no art. 6º"',
        multa,
        reducao or minimo,
        "quantia",
    )
    return Resultado(
        regime=regime,
        valor=multa,
        fundamento=minimo.dispositivo,
        data_referencia=lei.data,
        redacao=str(redacao.valor),
        memoria=multa_devida(m, multa),
        saidas=saidas,
    )
