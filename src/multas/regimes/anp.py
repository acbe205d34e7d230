"""ANP sanctions procedure: Decreto 2.953/1999 art. 28 (ranges per infraction) and
arts. 26–27 (payment within 30 days, late interest and late fine). Spec §§ 3.4–3.5.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from multas.contrato import CasoInfracao, CasoMora
from multas.datas import Calendario, formatar_data, meses_ou_fracao, prazo_em_dias
from multas.dinheiro import arredondar, formatar_brl, formatar_percentual
from multas.erros import EntradaInvalida
from multas.legislacao import Legislacao
from multas.memoria import Memoria, Resultado
from multas.regimes.comum import MES_OU_FRACAO, lei_aplicavel, lei_sem_data_propria

_CALENDARIOS: dict[str, str] = {
    "expediente": "dias sem expediente: feriados nacionais e pontos facultativos federais",
    "feriados": "apenas os feriados nacionais",
}


def multa_infracao(
    caso: CasoInfracao, interpretacao: Mapping[str, str], legislacao: Legislacao
) -> Resultado:
    """Decreto 2.953/1999 art. 28: the range of the fine for one infraction.

    >>> from multas import calcular
    >>> r = calcular({"regime": "anp.infracao", "inciso": "xi", "valor": "750000"})
    >>> r["valor_minimo"], r["valor_maximo"], r["valor"]
    ('5000.00', '2000000.00', '750000.00')
    """
    m = Memoria()
    regime = CasoInfracao.regime
    # The contract has no infraction date: by default, the law in force today.
    lei, redacao = lei_sem_data_propria(legislacao, "anp.redacao", regime, caso.data_referencia, m)
    faixa = lei.exigir(f"anp.infracao.{caso.inciso}", "data_referencia", regime)
    minimo, maximo = faixa.valor["minimo"], faixa.valor["maximo"]
    m.passo(f"Infração do art. 28, {caso.inciso}: {faixa.valor['descricao']}", caso.inciso, faixa)
    m.passo("Valor mínimo da multa", minimo, faixa, "quantia")
    m.passo("Valor máximo da multa", maximo, faixa, "quantia")
    criterios = lei["anp.criterios"]
    for criterio in criterios.valor.values():
        m.passo(
            f"Critério de dosimetria a ponderar, fundamentadamente, pela autoridade: {criterio}",
            None,
            criterios,
        )
    valor: Fraction | None = None
    if caso.valor is not None:
        valor = Fraction(caso.valor)
        if not minimo <= valor <= maximo:
            raise EntradaInvalida(
                "valor",
                f"fora da faixa do art. 28, {caso.inciso}: de {formatar_brl(arredondar(minimo))} "
                f"a {formatar_brl(arredondar(maximo))}",
            )
        m.passo(
            "Valor fixado pela autoridade (informado), dentro da faixa", valor, faixa, "quantia"
        )
    else:
        m.aviso(
            "Sem valor informado: só a faixa é apresentada; a autoridade fixa o valor (art. 25)."
        )
    lei_9847 = lei.get("anp.limites_lei_9847")
    if lei_9847 is not None:
        exemplo = lei_9847.valor
        m.aviso(
            f"Estas faixas são anteriores à Lei nº 9.847/1999, cujo art. 3º fixa os limites das "
            f"multas para infrações a partir de {formatar_data(lei_9847.inicio)}; alguns diferem "
            f"(por exemplo, o inciso II da lei vai de {formatar_brl(arredondar(exemplo['inciso_II_minimo']))} "
            f"a {formatar_brl(arredondar(exemplo['inciso_II_maximo']))})."
        )
    return Resultado(
        regime=regime,
        valor=valor,
        fundamento=faixa.dispositivo,
        data_referencia=lei.data,
        redacao=str(redacao.valor),
        memoria=m,
        saidas={
            "valor_minimo": minimo,
            "valor_maximo": maximo,
            "descricao": faixa.valor["descricao"],
        },
    )


def mora(caso: CasoMora, interpretacao: Mapping[str, str], legislacao: Legislacao) -> Resultado:
    """Decreto 2.953/1999 arts. 26–27: vencimento, months late, interest and late fine.

    Each charge is rounded on its own so the bill adds up (spec § 3.5, the one exception to
    the single rounding).

    >>> from multas import calcular
    >>> r = calcular({"regime": "anp.mora", "principal": "250000", "data_ciencia": "2024-03-29",
    ...               "data_pagamento": "2024-07-01"})
    >>> r["vencimento"], r["meses_atraso"], r["valor"]
    ('2024-04-29', 3, '272500.00')
    """
    m = Memoria()
    regime = CasoMora.regime
    calendario: Calendario = (
        "feriados" if interpretacao["calendario"] == "feriados" else "expediente"
    )
    lei, redacao = lei_aplicavel(
        legislacao,
        "anp.redacao",
        regime,
        caso.data_ciencia,
        "da ciência da decisão",
        caso.data_referencia,
        "data_ciencia",
        m,
    )
    prazo = lei["anp.prazo_pagamento"]
    principal = m.passo("Valor da multa (principal)", Fraction(caso.principal), prazo, "quantia")
    m.passo("Ciência da decisão que fixou a multa", caso.data_ciencia, prazo)
    nominal, vencimento, pulados = prazo_em_dias(caso.data_ciencia, prazo.inteiro, calendario)
    m.passo(
        f"Fim do prazo de {prazo.inteiro} dias corridos (exclui-se o dia da ciência, inclui-se o do vencimento)",
        nominal,
        lei["anp.contagem_prazo"],
    )
    prorrogacao = lei["anp.prorrogacao_prazo"]
    for dia, motivo in pulados:
        m.passo(
            f"Sem expediente em {formatar_data(dia)} ({motivo}): prazo prorrogado", dia, prorrogacao
        )
    m.passo(
        f'Vencimento: primeiro dia útil (calendário "{calendario}": {_CALENDARIOS[calendario]}; '
        f"leitura interpretacao.calendario = {calendario})",
        vencimento,
        prorrogacao,
    )
    juros_vig, multa_vig = lei["anp.juros_mora"], lei["anp.multa_mora"]
    meses = m.passo(
        f'Meses de atraso, "ao mês ou fração", do vencimento até {formatar_data(caso.data_pagamento)}: '
        f"{MES_OU_FRACAO}",
        meses_ou_fracao(vencimento, caso.data_pagamento),
        juros_vig,
    )
    juros = m.passo(
        f"Juros de mora: principal × {formatar_percentual(juros_vig.fracao)} × {meses} (arredondado ao centavo)",
        arredondar(principal * juros_vig.fracao * meses),
        juros_vig,
        "quantia",
    )
    multa_mora = m.passo(
        f"Multa de mora: principal × {formatar_percentual(multa_vig.fracao)} × {meses}, simples e sem limite, "
        "como escrito (arredondada ao centavo)",
        arredondar(principal * multa_vig.fracao * meses),
        multa_vig,
        "quantia",
    )
    total = m.passo(
        "Total: principal + juros de mora + multa de mora (cada encargo arredondado, para a conta fechar)",
        Fraction(caso.principal) + Fraction(juros) + Fraction(multa_mora),
        multa_vig,
        "quantia",
    )
    if caso.data_pagamento < caso.data_ciencia:
        m.aviso("A data de pagamento é anterior à ciência da decisão; confira as datas.")
    if caso.data_pagamento > vencimento:
        divida = lei["anp.divida_ativa"]
        m.aviso(
            f"Débito não pago até o vencimento ({formatar_data(vencimento)}): o processo é "
            f"encaminhado para inscrição na Dívida Ativa da ANP ({divida.dispositivo})."
        )
    encargos = lei.get("anp.encargos_tributos_federais")
    if encargos is not None:
        m.aviso(
            f"{encargos.dispositivo} sujeita os créditos das autarquias federais aos acréscimos "
            "moratórios dos tributos federais (Selic, mais multa de 0,33% ao dia limitada a 20%); "
            "na prática, isso pode substituir os 1% + 2% ao mês do art. 26."
        )
    return Resultado(
        regime=regime,
        valor=total,
        fundamento="Decreto nº 2.953/1999, arts. 26 e 27",
        data_referencia=lei.data,
        redacao=str(redacao.valor),
        memoria=m,
        saidas={
            "vencimento": vencimento,
            "meses_atraso": meses,
            "juros_mora": juros,
            "multa_mora": multa_mora,
        },
    )
