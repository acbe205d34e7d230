"""The case-file contract of the ANP's regimes (spec §§ 3.4, 3.4.1, 3.5): one infraction's
range, one auto with several incisos, and the late charges of a fine. The field types and
their parsing are :mod:`multas.nucleo.contrato`'s.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from multas.nucleo.contrato import Caso, InfracaoDoAuto, campo

#: the numbering an inciso follows (spec § 3.4 v4): the law's art. 3º (the default) or the
#: decree's art. 28 (how an input of v3 keeps its meaning)
NORMAS = ("lei-9847", "decreto-2953")


def _norma(de_que: str) -> Any:
    """The field ``norma`` of an ANP infraction's case (spec § 3.4 v4)."""
    return campo(
        "opcao",
        f"Numeração {de_que}: lei-9847 (Lei nº 9.847/1999, art. 3º, o padrão) ou "
        "decreto-2953 (Decreto nº 2.953/1999, art. 28)",
        opcoes=NORMAS,
    )


def _data_infracao() -> Any:
    """The field ``data_infracao``: the wording in force on it applies (spec § 3.4 v4)."""
    return campo("data", "Data da infração: a redação em vigor nela se aplica")


@dataclass(frozen=True, kw_only=True, eq=False)
class CasoInfracao(Caso):
    regime = "anp.infracao"

    inciso: str = campo(
        "inciso",
        "Inciso que tipifica a infração, na numeração da norma escolhida (a da Lei nº "
        "9.847/1999, art. 3º, por padrão)",
        obrigatorio=True,
    )
    valor: Decimal | None = campo(
        "quantia", "Valor fixado pela autoridade, para conferir se está dentro da faixa"
    )
    norma: str | None = _norma("do inciso")
    data_infracao: date | None = _data_infracao()


@dataclass(frozen=True, kw_only=True, eq=False)
class CasoAuto(Caso):
    regime = "anp.auto"

    infracoes: tuple[InfracaoDoAuto, ...] = campo(
        "infracoes",
        "As infrações do auto: cada inciso, com o valor fixado para ele, se conhecido",
        obrigatorio=True,
    )
    valor: Decimal | None = campo("quantia", "Valor total do auto, para conferir")
    norma: str | None = _norma("dos incisos")
    data_infracao: date | None = _data_infracao()


@dataclass(frozen=True, kw_only=True, eq=False)
class CasoMora(Caso):
    regime = "anp.mora"

    principal: Decimal = campo("quantia_positiva", "Valor da multa aplicada", obrigatorio=True)
    data_ciencia: date = campo(
        "data", "Data da ciência da decisão que fixou a multa", obrigatorio=True
    )
    data_pagamento: date = campo(
        "data", "Data do pagamento, ou data até a qual o débito é atualizado", obrigatorio=True
    )
    taxas_selic: dict[str, Decimal] | None = campo(
        "taxas_mensais",
        'Selic acumulada de cada mês, em % (ex.: "1.05"), no lugar da publicada que o projeto '
        "traz; um mês que ela não tem é informado aqui (leitura encargos = lei-10522, Lei nº "
        "10.522/2002, art. 37-A)",
    )
    dias_sem_expediente: frozenset[date] | None = campo(
        "datas",
        "Outros dias sem expediente na repartição (data magna do estado, feriado municipal, "
        "indisponibilidade do sistema): o prazo não termina neles",
    )
