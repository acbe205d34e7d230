"""Steps every regime shares: which law applies (spec § 2) and the final rounding (§ 1)."""

from __future__ import annotations

from datetime import date
from fractions import Fraction

from multas.nucleo.datas import formatar_data
from multas.nucleo.dinheiro import arredondar
from multas.nucleo.legislacao import Legislacao, Lei, Vigencia
from multas.nucleo.memoria import Citacao, Memoria
from multas.nucleo.rotulos import campo_com_chave

ARREDONDAMENTO = (
    "multas: arredondamento único ao centavo, meio para cima (veja docs/contrato.md#arredondamento)"
)

#: How "mês ou fração" is counted (spec § 1), said in every step that counts months.
MES_OU_FRACAO = (
    "o menor k ≥ 1 tal que a data inicial + k meses alcance a data final, contando sempre da "
    "data inicial e ajustando ao fim do mês (31/12 + 2 meses = 28/02; Lei nº 9.784/1999, "
    "art. 66, § 3º)"
)


def lei_aplicavel(
    legislacao: Legislacao,
    redacao: str,
    regime: str,
    data_fato: date,
    o_que: str,
    data_referencia: date | None,
    campo_data: str,
    m: Memoria,
    citar_depois: bool = False,
) -> tuple[Lei, Vigencia]:
    """Tempus regit actum: the law in force on ``data_fato`` (``o_que`` says what that date is),
    or on ``data_referencia`` when the user asks "what if". A regime not in force that day is
    an input error on ``campo_data`` (or on ``data_referencia``). ``citar_depois`` as in
    :func:`lei_sem_data_propria`.
    """
    dia = data_referencia or data_fato
    lei = legislacao.em(dia)
    vigencia = lei.exigir(redacao, "data_referencia" if data_referencia else campo_data, regime)
    if data_referencia:
        descricao = (
            'Lei aplicada: a vigente na data de referência informada ("e se"), '
            f"em vez da data {o_que}: {formatar_data(data_fato)}"
        )
    else:
        descricao = f"Lei aplicada (tempus regit actum): a vigente na data {o_que}"
    m.passo(descricao, dia, Citacao(vigencia.fundamento, None) if citar_depois else vigencia)
    return lei, vigencia


def lei_sem_data_propria(
    legislacao: Legislacao,
    redacao: str,
    regime: str,
    data_referencia: date | None,
    hoje: date | None,
    m: Memoria,
    citar_depois: bool = False,
) -> tuple[Lei, Vigencia]:
    """The law for a regime whose case carries no infraction date (spec §§ 3.3, 3.4, 3.6):
    that of ``data_referencia``, or of ``hoje`` (the caller's today in Brasília) without it.

    The memória names today's date only when today's law is the one applied, so a result that
    gives ``data_referencia`` reads the same on any day. With ``citar_depois``, the step only
    cites ``redacao`` (a caput ending in ":"): the regime quotes it later, with the inciso
    applied.
    """
    if data_referencia is not None:
        dia, descricao = data_referencia, "Lei aplicada: a vigente na data de referência informada"
    elif hoje is None:  # a caller's defect, never the user's: it must hand its clock's date
        raise ValueError(f"{regime}: sem data_referencia, a regra precisa da data de hoje")
    else:
        dia = hoje
        descricao = (
            "Lei aplicada: a vigente hoje, data do cálculo (o caso não traz a data da "
            f"infração; informe {campo_com_chave('data_referencia')} para aplicar a de outra "
            "data)"
        )
    lei = legislacao.em(dia)
    vigencia = lei.exigir(redacao, "data_referencia", regime)
    m.passo(descricao, dia, Citacao(vigencia.fundamento, None) if citar_depois else vigencia)
    return lei, vigencia


def multa_devida(m: Memoria, multa: Fraction) -> Memoria:
    """The last step: the one rounding, to the centavo, half up."""
    m.passo("Multa devida", arredondar(multa), ARREDONDAMENTO, "quantia")
    return m


def decreto_2953_alterado(lei: Lei) -> str | None:
    """Spec § 3.5 v3: from the amendment on (Decreto 12.437/2025), the opening of the aviso
    every ANP regime gives; each regime says next what of its result rests on the decree.
    ``None`` before it."""
    alterado = lei.get("anp.decreto_2953_alterado")
    if alterado is None:
        return None
    return (
        f"O Decreto nº 2.953/1999 foi alterado pelo {alterado.dispositivo.removesuffix(', ementa')} "
        f'("{alterado.texto}", {formatar_data(alterado.inicio)}); o texto alterado não foi '
        "conferido"
    )
