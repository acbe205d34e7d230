"""ANP sanctions: the late charges of a fine not paid in 30 days (Decreto 2.953/1999 arts.
26–27, or Lei 10.522/2002 art. 37-A). Spec § 3.5. The range of the fine per infraction is
:mod:`multas.nucleo.regimes.anp_infracao`'s.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from decimal import Decimal
from fractions import Fraction

from multas.nucleo.calendario import Expediente
from multas.nucleo.contrato_anp import CasoMora
from multas.nucleo.datas import Calendario, formatar_data, meses_ou_fracao, prazo_em_dias
from multas.nucleo.dinheiro import arredondar, formatar_brl, formatar_percentual
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.legislacao import Legislacao, Lei, Vigencia
from multas.nucleo.legislacao.selic import indice, mes_br, taxa_br, texto_do_mes
from multas.nucleo.memoria import Memoria, Resultado
from multas.nucleo.regimes.comum import MES_OU_FRACAO, decreto_2953_alterado, lei_aplicavel
from multas.nucleo.rotulos import leitura as rotulo_leitura

_CALENDARIOS: dict[str, str] = {
    "expediente": "dias sem expediente no calendário da administração federal: feriados, "
    "pontos facultativos e encerramentos antecipados",
    "feriados": "apenas os feriados nacionais",
}


#: Lei 9.784/1999 (DOU 01/02/1999) came three days after Decreto 2.953/1999: for a ciência on
#: 29–31/01/1999 the prazo is still counted as spec § 1 says, and cited to it
_CONTAGEM_ANTES_DA_LEI_9784 = (
    "multas: contagem de prazos de docs/contrato.md#datas (a Lei nº 9.784/1999 só vige a partir "
    "de 01/02/1999)"
)


def _brl(valor: Fraction) -> str:
    return formatar_brl(arredondar(valor))


def mora(
    caso: CasoMora, interpretacao: Mapping[str, str], legislacao: Legislacao, hoje: date | None
) -> Resultado:
    """The vencimento of a fine and its late charges: Lei 9.847/1999 art. 4º § 2º, repeated
    by Decreto 2.953/1999 art. 26 (``encargos = lei-9847``, the default; ``decreto`` is its
    alias), or Lei 10.522/2002 art. 37-A with Lei 9.430/1996 art. 61 (``encargos =
    lei-10522``). The deadline and the Dívida Ativa rest on Decreto 2.953/1999 arts. 26–27.

    Each charge is rounded on its own so the bill adds up (spec § 3.5, the one exception to
    the single rounding).

    >>> from multas import calcular
    >>> r = calcular({"regime": "anp.mora", "principal": "250000", "data_ciencia": "2024-03-29",
    ...               "data_pagamento": "2024-07-01"})
    >>> r["vencimento"], r["dias_atraso"], r["meses_atraso"], r["valor"]
    ('2024-04-29', 63, 3, '272500.00')
    """
    m = Memoria()
    regime = CasoMora.regime
    calendario: Calendario = (
        "feriados" if interpretacao["calendario"] == "feriados" else "expediente"
    )
    # spec § 3.7 W8: the ciência picks the law because the deadline counts from it (art. 26)
    lei, redacao = lei_aplicavel(
        legislacao,
        "anp.mora.redacao",
        regime,
        caso.data_ciencia,
        "da ciência da decisão",
        caso.data_referencia,
        "data_ciencia",
        m,
    )
    leitura = interpretacao["encargos"]
    prazo = lei["anp.prazo_pagamento"]
    principal = m.passo("Valor da multa (principal)", Fraction(caso.principal), prazo, "quantia")
    m.passo("Ciência da decisão que fixou a multa", caso.data_ciencia, prazo)
    expediente = Expediente(
        legislacao.calendario, calendario, caso.dias_sem_expediente or frozenset()
    )
    try:
        nominal, vencimento, pulados = prazo_em_dias(caso.data_ciencia, prazo.inteiro, expediente)
    except OverflowError:  # a deadline that would fall after 31/12/9999
        raise EntradaInvalida(
            "data_ciencia",
            f"o vencimento, {prazo.inteiro} dias depois desta data, passaria de 31/12/9999",
        ) from None
    m.passo(
        f"Fim do prazo de {prazo.inteiro} dias corridos (exclui-se o dia da ciência, inclui-se o do vencimento)",
        nominal,
        lei.get("anp.contagem_prazo") or _CONTAGEM_ANTES_DA_LEI_9784,
    )
    prorrogacao = lei.get("anp.prorrogacao_prazo") or _CONTAGEM_ANTES_DA_LEI_9784
    for dia, motivo in pulados:
        m.passo(
            f"Sem expediente em {formatar_data(dia)} ({motivo}): prazo prorrogado", dia, prorrogacao
        )
    usados = "; ".join(c.descricao for c in expediente.calendarios([nominal, vencimento]))
    m.passo(
        f"Vencimento: primeiro dia útil ({_CALENDARIOS[calendario]}; "
        f"leitura {rotulo_leitura('calendario', calendario)}; {usados})",
        vencimento,
        prorrogacao,
    )
    for aviso in expediente.avisos([nominal, vencimento]):
        m.aviso(aviso)
    lei_9847 = lei.get("anp.lei_9847.prazo_pagamento")
    if lei_9847 is not None:
        m.aviso(
            f"Leitura do projeto (docs/leituras.md#encargos): os {prazo.inteiro} dias contam da ciência informada "
            f"em data_ciencia ({prazo.dispositivo}); pela Lei nº 9.847/1999 "
            f"({lei_9847.dispositivo.removeprefix('Lei nº 9.847/1999, ')}), eles contam da decisão "
            "administrativa definitiva: informe a ciência dessa decisão."
        )
    dias = m.passo(
        f"Dias de atraso: dias corridos do vencimento até {formatar_data(caso.data_pagamento)} "
        "(zero se não houver atraso)",
        max(0, (caso.data_pagamento - vencimento).days),
        "multas: dias corridos do vencimento à data de pagamento (veja docs/leituras.md#encargos)",
    )
    juros_lei, multa_lei = _encargos_da_lei_9847(lei)
    meses = m.passo(
        f'Meses de atraso, "ao mês ou fração", do vencimento até {formatar_data(caso.data_pagamento)}: '
        f"{MES_OU_FRACAO}",
        meses_ou_fracao(vencimento, caso.data_pagamento),
        juros_lei,
    )
    federal = legislacao.em(caso.data_referencia or vencimento)
    art_37a = federal.get("anp.encargos_lei_10522")
    if leitura == "lei-10522":
        juros, multa_mora, fonte_total = _encargos_lei_10522(
            caso, principal, vencimento, dias, legislacao, m
        )
        fundamento = "Lei nº 10.522/2002, art. 37-A; Lei nº 9.430/1996, art. 61"
        nome_encargos = "Lei nº 10.522/2002, art. 37-A, com a Lei nº 9.430/1996, art. 61"
        aplicados = (
            f"Lei nº 10.522/2002, art. 37-A ({fonte_total.redacao}), com a Lei nº 9.430/1996, "
            "art. 61"
        )
    else:
        juros, multa_mora, fonte_total = _encargos_lei_9847(principal, meses, lei, m)
        fundamento = _fundamento_lei_9847(juros_lei)
        nome_encargos = _sem_inciso(juros_lei.dispositivo)
        aplicados = f"{nome_encargos} ({juros_lei.redacao})"
        if art_37a is not None:
            falta = _mes_sem_selic(caso, vencimento, legislacao)
            if caso.taxas_selic is None:
                veja = "informe taxas_selic para ver essa leitura entre as alternativas"
            elif falta is None:
                veja = "veja essa leitura entre as alternativas"
            else:
                veja = f"essa leitura fica fora das alternativas ({falta})"
            por_dia = formatar_percentual(federal["anp.multa_mora_dia"].fracao)
            teto = formatar_percentual(federal["anp.multa_mora_limite"].fracao)
            m.aviso(
                f"{art_37a.dispositivo.removesuffix(', caput')} sujeita os créditos das autarquias "
                "federais aos juros e à multa de mora dos tributos federais (Selic, mais multa de "
                f"{por_dia} ao dia limitada a {teto}), o que pode substituir na prática os "
                f"{formatar_percentual(juros_lei.fracao)} + "
                f"{formatar_percentual(multa_lei.fracao)} ao mês da "
                f"{_sem_inciso(juros_lei.dispositivo)}: {veja} "
                f"({rotulo_leitura('encargos', 'lei-10522')})."
            )
    if art_37a is not None and juros_lei is not lei["anp.juros_mora"]:
        _aviso_lei_especial(juros_lei, art_37a, m)
    _aviso_decreto_alterado_mora(lei, nome_encargos, caso.data_pagamento > vencimento, m)
    total = m.passo(
        "Total: principal + juros de mora + multa de mora (cada encargo arredondado, para a conta fechar)",
        Fraction(caso.principal) + Fraction(juros) + Fraction(multa_mora),
        fonte_total,
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
    return Resultado(
        regime=regime,
        valor=total,
        fundamento=fundamento,
        data_referencia=lei.data,
        # spec § 3.7 W9: the text whose numbers were applied, then the deadline's
        redacao=f"{aplicados}; prazo de pagamento: {redacao.valor}",
        memoria=m,
        saidas={
            "vencimento": vencimento,
            "dias_atraso": dias,
            "meses_atraso": meses,
            "juros_mora": juros,
            "multa_mora": multa_mora,
        },
    )


def _encargos_da_lei_9847(lei: Lei) -> tuple[Vigencia, Vigencia]:
    """The charges of the default reading: Lei 9.847/1999 art. 4º § 2º, the special law (spec
    § 3.7 point 8); before it (29/01–26/10/1999), Decreto 2.953/1999 art. 26 alone."""
    return (
        lei.get("anp.lei_9847.juros_mora") or lei["anp.juros_mora"],
        lei.get("anp.lei_9847.multa_mora") or lei["anp.multa_mora"],
    )


def _sem_inciso(dispositivo: str) -> str:
    """``Lei nº 9.847/1999, art. 4º, § 2º, I`` → ``Lei nº 9.847/1999, art. 4º, § 2º``."""
    return dispositivo.rsplit(", ", 1)[0]


def _fundamento_lei_9847(juros: Vigencia) -> str:
    decreto = "Decreto nº 2.953/1999, arts. 26 e 27"
    if juros.dispositivo.startswith("Decreto"):
        return decreto
    return f"{_sem_inciso(juros.dispositivo)}; {decreto}"


def _aviso_lei_especial(juros: Vigencia, art_37a: Vigencia, m: Memoria) -> None:
    """Spec § 3.7 point 8: which of the two laws prevails is open, under either reading."""
    m.aviso(
        "Leitura do projeto (encargos-lei-especial; veja docs/leituras.md#encargos-lei-especial): "
        f"os encargos padrão são os da {_sem_inciso(juros.dispositivo)}, lei especial das "
        f"sanções da ANP; a {art_37a.dispositivo.removesuffix(', caput')}, lei geral posterior, "
        "não a afasta por si só, e nenhuma prática da ANP ou da PGF sobre isso consta das fontes "
        "do projeto: qual das duas prevalece é questão em aberto."
    )


def _aviso_decreto_alterado_mora(lei: Lei, encargos: str, atrasado: bool, m: Memoria) -> None:
    """Spec § 3.5 v3 and § 3.7 W9: from the amendment on, the aviso says what of this result
    rests on Decreto 2.953/1999 (the deadline counted from the ciência; when late, the Dívida
    Ativa), not the charges, whose numbers are the law's."""
    alterado = decreto_2953_alterado(lei)
    if alterado is None:
        return
    prazo = lei["anp.prazo_pagamento"]
    depende = (
        f"o prazo de pagamento de {prazo.inteiro} dias contado da ciência "
        f"({prazo.dispositivo.removeprefix('Decreto nº 2.953/1999, ')})"
    )
    if atrasado:
        divida = lei["anp.divida_ativa"]
        depende += (
            " e o encaminhamento à Dívida Ativa "
            f"({divida.dispositivo.removeprefix('Decreto nº 2.953/1999, ')})"
        )
    m.aviso(
        f"{alterado}. Deste resultado, só dependem dele, na redação original, {depende}: "
        f"confira na redação em vigor. Os juros e a multa de mora são os da {encargos}."
    )


def _encargos_lei_9847(
    principal: Fraction, meses: int, lei: Lei, m: Memoria
) -> tuple[Decimal, Decimal, Vigencia]:
    """Lei 9.847/1999 art. 4º § 2º (cited first), repeated by Decreto 2.953/1999 art. 26
    sole paragraph, as written: 1% + 2% a month or fraction, simple, uncapped."""
    juros_vig, multa_vig = _encargos_da_lei_9847(lei)
    rotulo = rotulo_leitura("encargos", "lei-9847")
    juros = m.passo(
        f"Juros de mora: principal × {formatar_percentual(juros_vig.fracao)} × {meses} "
        f"(arredondado ao centavo; leitura {rotulo})",
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
    decreto_juros, decreto_multa = lei["anp.juros_mora"], lei["anp.multa_mora"]
    if juros_vig is not decreto_juros:
        iguais = (decreto_juros.fracao, decreto_multa.fracao) == (
            juros_vig.fracao,
            multa_vig.fracao,
        )
        m.passo(
            f"O {_sem_inciso(decreto_juros.dispositivo)}, "
            + (
                "repete esses encargos"
                if iguais
                else f"traz {formatar_percentual(decreto_juros.fracao)} + "
                f"{formatar_percentual(decreto_multa.fracao)} ao mês: prevalece a lei"
            ),
            None,
            decreto_juros,
        )
    return juros, multa_mora, multa_vig


def _encargos_lei_10522(
    caso: CasoMora,
    principal: Fraction,
    vencimento: date,
    dias: int,
    legislacao: Legislacao,
    m: Memoria,
) -> tuple[Decimal, Decimal, Vigencia]:
    """Lei 10.522/2002 art. 37-A: the late charges of federal taxes (Lei 9.430/1996 art. 61):
    0,33% a day capped at 20%, and the Selic of each month between the vencimento's and the
    payment's, plus 1% in the month of payment (spec § 3.5)."""
    # art. 37-A exists from MP 449/2008 (DOU 04/12/2008): decided on the vencimento, or on
    # data_referencia when the user asks "what if"
    lei = legislacao.em(caso.data_referencia or vencimento)
    art_37a = lei.exigir(
        "anp.encargos_lei_10522",
        "data_referencia" if caso.data_referencia else "data_ciencia",
        "a leitura encargos = lei-10522 (Lei nº 10.522/2002, art. 37-A)",
    )
    m.passo(
        "Encargos dos tributos federais sobre o crédito da autarquia (leitura "
        f"{rotulo_leitura('encargos', 'lei-10522')})",
        None,
        art_37a,
    )
    por_dia, limite = lei["anp.multa_mora_dia"], lei["anp.multa_mora_limite"]
    m.passo("Dias de atraso da multa de mora", dias, lei["anp.multa_mora_dias"])
    percentual = m.passo(
        f"Percentual da multa de mora: {formatar_percentual(por_dia.fracao)} × {dias} dias, "
        f"limitado a {formatar_percentual(limite.fracao)}",
        min(por_dia.fracao * dias, limite.fracao),
        limite if por_dia.fracao * dias > limite.fracao else por_dia,
        "numero",
    )
    multa_mora = m.passo(
        "Multa de mora dos tributos federais, aplicada pelo art. 37-A: principal × percentual "
        "(arredondada ao centavo)",
        arredondar(principal * percentual),
        por_dia,
        "quantia",
    )
    selic = lei["anp.juros_selic"]
    mes_vencimento, mes_pagamento = _mes(vencimento), _mes(caso.data_pagamento)
    if mes_pagamento <= mes_vencimento:
        juros = m.passo(
            "Juros de mora: pagamento no mês do vencimento (ou antes), sem juros",
            arredondar(Fraction(0)),
            selic,
            "quantia",
        )
        return juros, multa_mora, art_37a
    meses = [texto_do_mes(i) for i in range(mes_vencimento + 1, mes_pagamento)]
    soma = _selic_dos_meses(caso, meses, legislacao, m) / 100
    if meses:
        m.passo(
            f"Selic acumulada de {mes_br(meses[0])} a {mes_br(meses[-1])} ({len(meses)} "
            f"{'mês' if len(meses) == 1 else 'meses'})",
            soma * 100,
            selic,
            "numero",
        )
    else:
        m.passo("Nenhum mês inteiro entre o do vencimento e o do pagamento", 0, selic)
    taxa = m.passo(
        f"Taxa de juros: Selic acumulada + {formatar_percentual(selic.fracao)} no mês do "
        "pagamento (em %)",
        (soma + selic.fracao) * 100,
        selic,
        "numero",
    )
    juros = m.passo(
        "Juros de mora: principal × taxa (arredondados ao centavo)",
        arredondar(principal * taxa / 100),
        selic,
        "quantia",
    )
    return juros, multa_mora, art_37a


def _selic_dos_meses(
    caso: CasoMora, meses: list[str], legislacao: Legislacao, m: Memoria
) -> Fraction:
    """Spec § 3.5 v4: each month's Selic (in %) from the series the legislation carries, or
    from ``taxas_selic`` where given (it overrides, with an aviso where it differs); a month in
    neither is an error naming it, never a zero. Each month is a step, with its source."""
    serie, dadas = legislacao.selic, caso.taxas_selic or {}
    soma, diferentes = Fraction(0), []
    for mes in meses:
        publicada = serie.get(mes)
        if mes in dadas:
            taxa, fonte = dadas[mes], "informada em taxas_selic"
            if publicada is not None and publicada.taxa != taxa:
                diferentes.append(
                    f"{mes_br(mes)} ({taxa_br(taxa)} em vez de {taxa_br(publicada.taxa)})"
                )
        elif publicada is not None:
            taxa, fonte = publicada.taxa, publicada.fonte
        else:
            raise EntradaInvalida(
                f"taxas_selic.{mes}", sem_selic(mes, serie.primeiro, serie.ultimo)
            )
        soma += m.passo(f"Selic de {mes_br(mes)} (% no mês)", Fraction(taxa), fonte, "numero")
    if diferentes:
        m.aviso(
            "Taxas de taxas_selic diferentes das publicadas, usadas no lugar delas: "
            f"{'; '.join(diferentes)}."
        )
    return soma


def _mes_sem_selic(caso: CasoMora, vencimento: date, legislacao: Legislacao) -> str | None:
    """Why ``encargos = lei-10522`` cannot be computed for an alternative: the first month
    it needs that neither ``taxas_selic`` nor the series has (:func:`sem_selic`), or ``None``."""
    dadas, serie = caso.taxas_selic or {}, legislacao.selic
    for i in range(_mes(vencimento) + 1, _mes(caso.data_pagamento)):
        mes = texto_do_mes(i)
        if mes not in dadas and serie.get(mes) is None:
            return sem_selic(mes, serie.primeiro, serie.ultimo)
    return None


def sem_selic(mes: str, primeiro: str, ultimo: str) -> str:
    """Spec § 3.5 v4: the error (or, for an alternative reading, the aviso) of a month the
    series lacks, naming it and how to supply it."""
    if indice(mes) > indice(ultimo):
        # spec § 3.5 v4, word for word: the command that adds the months published since
        return (
            f"taxa Selic de {mes_br(mes)} não disponível (última: {mes_br(ultimo)}): atualize "
            "com `multas legislacao selic atualizar`"
        )
    return (
        f"taxa Selic de {mes_br(mes)} não disponível (a série publicada começa em "
        f"{mes_br(primeiro)}): informe-a em taxas_selic"
    )


def _mes(dia: date) -> int:
    return dia.year * 12 + dia.month - 1
