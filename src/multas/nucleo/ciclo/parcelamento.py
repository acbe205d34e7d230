"""Spec § 6.2 v4: the instalments of Lei nº 10.522/2002 art. 37-B, simulated before the
request (``multas parcelamento simular``).

Each rule comes from a dated parameter (``ciclo.parcelamento_*``), cited in the memória:

- at most ``ciclo.parcelamento_maximo`` monthly instalments (caput);
- the debt consolidated on the request date (§ 7º): the given amount;
- each instalment = the consolidated amount ÷ ``parcelas``, due on the request date + (k − 1)
  months (§ 6 "N months": the same day, clamped to the month's end, not moved); the first is
  paid before the plan is formalised (§ 2º);
- each instalment bears the Selic from the month after the consolidation to the month before
  its payment, plus ``ciclo.parcelamento_juros`` in the month of payment (§ 10: only its first
  words are transcribed; the months and the 1% follow art. 13 of the same Law, texto não
  transcrito for art. 37-B);
- the minimum instalment is set by an act of the Procurador-Geral Federal (§ 9º): an input,
  ``valor_minimo_parcela``.

Readings where § 6.2 is silent (also in ``docs/ciclo.md#parcelamento``):

- An instalment is the consolidated amount ÷ ``parcelas`` rounded down to the centavo; the
  last one takes what remains, so the instalments add up to the consolidated amount exactly.
- The interest shown is what each instalment bears if paid on its due date; a month the
  Selic series does not have yet leaves it ``null``, with an aviso naming the month.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import ROUND_DOWN, Decimal
from fractions import Fraction
from typing import Any

from multas.nucleo.ciclo.contagem import fundamento, vigencia_em
from multas.nucleo.ciclo.processo import EventoDatado, Prazo
from multas.nucleo.datas import data_com_dia_da_semana, formatar_data, somar_meses
from multas.nucleo.dinheiro import (
    CENTAVO,
    arredondar,
    exibir,
    formatar_brl,
    formatar_percentual,
    para_json,
)
from multas.nucleo.erros import EntradaInvalida, mostrar_valor
from multas.nucleo.eventos import PREFIXO_PARCELA
from multas.nucleo.legislacao import Legislacao
from multas.nucleo.legislacao.selic import mes_br, texto_do_mes
from multas.nucleo.memoria import Memoria
from multas.nucleo.regimes.anp import sem_selic


def _mes(dia: date) -> int:
    return dia.year * 12 + dia.month - 1


class SemSelic(Exception):
    """What the charges need and the legislation lacks: a month in neither the shipped nor
    the added Selic, or charges not in force on the date that picks them."""

    def __init__(self, mensagem: str, indice: int | None = None) -> None:
        super().__init__(mensagem)
        self.mensagem = mensagem
        #: the payment (its position in ``eventos``) that needed it, if one did
        self.indice = indice


@dataclass(frozen=True, slots=True)
class Parcela:
    numero: int
    vencimento: date
    valor: Decimal
    #: the interest rate it bears if paid on its due date (``None``: a Selic month missing)
    taxa: Fraction | None
    juros: Decimal | None

    def como_dict(self) -> dict[str, Any]:
        return {
            "numero": self.numero,
            "vencimento": self.vencimento.isoformat(),
            "valor": para_json(self.valor),
            # in %, exact: the Selic and the 1% are decimals
            "taxa_juros": None if self.taxa is None else exibir(self.taxa * 100),
            "juros": None if self.juros is None else para_json(self.juros),
            "valor_com_juros": None if self.juros is None else para_json(self.valor + self.juros),
        }


@dataclass(frozen=True, slots=True)
class Simulacao:
    data: date
    consolidado: Decimal
    parcelas: tuple[Parcela, ...]
    memoria: Memoria
    avisos: tuple[str, ...]

    def como_dict(self) -> dict[str, Any]:
        return {
            "data_consolidacao": self.data.isoformat(),
            "valor_consolidado": para_json(self.consolidado),
            "parcelas": len(self.parcelas),
            "cronograma": [p.como_dict() for p in self.parcelas],
            "memoria": [p.como_dict() for p in self.memoria.passos],
            "avisos": list(self.avisos),
        }


def _taxa_no_vencimento(
    consolidacao: date, pagamento: date, um_por_cento: Fraction, legislacao: Legislacao
) -> tuple[Fraction | None, str | None]:
    """The Selic of the months after the consolidation's and before the payment's, plus the
    1% of the month of payment; ``None`` and why, when a month is missing."""
    serie, soma = legislacao.selic, Fraction(0)
    for i in range(_mes(consolidacao) + 1, _mes(pagamento)):
        taxa = serie.get(texto_do_mes(i))
        if taxa is None:
            return None, sem_selic(texto_do_mes(i), serie.primeiro, serie.ultimo)
        soma += Fraction(taxa.taxa)
    return soma / 100 + um_por_cento, None


def simular(
    consolidado: Decimal,
    parcelas: int,
    data: date,
    legislacao: Legislacao,
    valor_minimo: Decimal | None = None,
) -> Simulacao:
    """The schedule of a parcelamento requested on ``data`` (spec § 6.2 v4)."""
    maximo = vigencia_em(legislacao, "ciclo.parcelamento_maximo", data)
    if legislacao.parametro("ciclo.parcelamento_maximo").em(data) is None:
        raise EntradaInvalida(
            "data",
            f"o parcelamento do art. 37-B da Lei nº 10.522/2002 não existia em "
            f"{formatar_data(data)} (vigente a partir de {formatar_data(maximo.inicio)})",
        )
    if isinstance(parcelas, bool) or not 1 <= parcelas <= maximo.inteiro:
        raise EntradaInvalida(
            "parcelas",
            f"de 1 a {maximo.inteiro} prestações mensais ({maximo.dispositivo}), não "
            f"{mostrar_valor(parcelas)}",
        )
    m = Memoria()
    m.passo(
        "Débito consolidado na data do pedido",
        consolidado,
        vigencia_em(legislacao, "ciclo.parcelamento_consolidacao", data),
        "quantia",
    )
    m.passo("Número de prestações mensais", parcelas, maximo, "inteiro")
    base = (consolidado / parcelas).quantize(CENTAVO, rounding=ROUND_DOWN)
    if base < CENTAVO:
        raise EntradaInvalida(
            "parcelas",
            f"dividir {formatar_brl(consolidado)} em {parcelas} prestações deixaria cada uma "
            "abaixo de um centavo",
        )
    minimo = vigencia_em(legislacao, "ciclo.parcelamento_minimo", data)
    if valor_minimo is not None and base < valor_minimo:
        cabem = int(consolidado // valor_minimo)
        raise EntradaInvalida(
            "parcelas",
            f"com {parcelas} prestações, cada uma fica em {formatar_brl(base)}, abaixo do "
            f"mínimo de {formatar_brl(valor_minimo)} (valor_minimo_parcela; {minimo.dispositivo}): "
            + (
                f"no máximo {cabem} prestações"
                if cabem
                else "o débito é menor que uma prestação mínima"
            ),
        )
    ultima = consolidado - base * (parcelas - 1)
    m.passo(
        "Valor de cada prestação: o consolidado dividido pelo número de prestações, arredondado "
        "para baixo ao centavo; a última fica com o resto",
        base,
        "multas: docs/ciclo.md#parcelamento",
        "quantia",
    )
    juros = vigencia_em(legislacao, "ciclo.parcelamento_juros", data)
    cronograma, faltas = [], []
    for k in range(1, parcelas + 1):
        try:
            vencimento = somar_meses(data, k - 1)
        except (OverflowError, ValueError):
            raise EntradaInvalida(
                "data", f"a prestação {k} venceria depois de 31/12/9999"
            ) from None
        valor = ultima if k == parcelas else base
        taxa, falta = _taxa_no_vencimento(data, vencimento, juros.fracao, legislacao)
        if falta is not None and falta not in faltas:
            faltas.append(falta)
        cronograma.append(
            Parcela(
                k,
                vencimento,
                valor,
                taxa,
                None if taxa is None else arredondar(Fraction(valor) * taxa),
            )
        )
    m.passo(
        f"Juros de cada prestação: a Selic do mês seguinte ao da consolidação "
        f"({mes_br(texto_do_mes(_mes(data) + 1))}) até o anterior ao do pagamento, mais "
        f"{formatar_percentual(juros.fracao)} no mês do pagamento (mostrados para o pagamento "
        "no vencimento)",
        None,
        juros,
    )
    avisos = [
        f"Só os créditos inscritos em Dívida Ativa se parcelam assim "
        f"({fundamento(vigencia_em(legislacao, 'ciclo.parcelamento_inscritos', data))}); os "
        "atos da Procuradoria-Geral Federal que regem o pedido não foram conferidos.",
        f"A primeira prestação é paga antes da formalização do parcelamento "
        f"({vigencia_em(legislacao, 'ciclo.parcelamento_primeira', data).dispositivo}).",
        "O § 10 do art. 37-B só tem as primeiras palavras transcritas: os meses da Selic e os "
        f"{formatar_percentual(juros.fracao)} no mês do pagamento seguem o art. 13 da mesma lei "
        "(texto não transcrito para o art. 37-B).",
    ]
    if valor_minimo is None:
        avisos.append(
            f"O valor mínimo da prestação é definido por ato do Procurador-Geral Federal "
            f"({minimo.dispositivo}), não conferido: informe valor_minimo_parcela para "
            "conferi-lo."
        )
    avisos += [f"Juros não calculados a partir desse mês: {f}." for f in faltas]
    return Simulacao(data, consolidado, tuple(cronograma), m, tuple(avisos))


@dataclass
class _Prestacao:
    numero: int
    vencimento: date
    valor: Fraction
    #: the principal of it still owed
    saldo: Fraction
    #: the interest paid on it
    juros: Fraction = Fraction(0)
    quitada_em: date | None = None


@dataclass
class ContaDoPlano:
    """Spec § 6.2 v4: a parcelamento's instalments and the payments made to them, oldest
    first; each instalment paid bears the interest of :func:`_taxa_no_vencimento` on the day
    it is paid. Rescission (reading ``rescisao-parcelamento``): on the first day on which
    ``para_rescisao`` instalments, consecutive or not, or the last one, are past due and
    unpaid."""

    data: date
    consolidado: Decimal
    prestacoes: list[_Prestacao]
    para_rescisao: int
    #: ``True`` when the count was given (``parcelas_para_rescisao``), not the default
    rescisao_dada: bool
    um_por_cento: Fraction
    legislacao: Legislacao
    rescindido_em: date | None = None
    _verificados: int = 0
    _taxas: dict[date, Fraction] = field(default_factory=dict)

    @classmethod
    def do_evento(
        cls, evento: EventoDatado, legislacao: Legislacao, minimo: Decimal | None
    ) -> ContaDoPlano:
        plano = evento.plano
        assert plano is not None
        simulacao = simular(
            plano.valor_consolidado, plano.parcelas, evento.data, legislacao, minimo
        )
        padrao = vigencia_em(legislacao, "ciclo.parcelamento_rescisao", evento.data)
        return cls(
            evento.data,
            plano.valor_consolidado,
            [
                _Prestacao(p.numero, p.vencimento, Fraction(p.valor), Fraction(p.valor))
                for p in simulacao.parcelas
            ],
            plano.parcelas_para_rescisao or padrao.inteiro,
            plano.parcelas_para_rescisao is not None,
            vigencia_em(legislacao, "ciclo.parcelamento_juros", evento.data).fracao,
            legislacao,
        )

    def taxa(self, dia: date) -> Fraction:
        if dia not in self._taxas:
            taxa, falta = _taxa_no_vencimento(self.data, dia, self.um_por_cento, self.legislacao)
            if taxa is None:
                raise SemSelic(str(falta))
            self._taxas[dia] = taxa
        return self._taxas[dia]

    @property
    def saldo(self) -> Fraction:
        return sum((p.saldo for p in self.prestacoes), Fraction(0))

    def juros_em(self, dia: date) -> Fraction:
        """The interest of every unpaid instalment if paid on ``dia``."""
        taxa = self.taxa(dia) if self.saldo else Fraction(0)
        return sum(
            (Fraction(arredondar(p.saldo * taxa)) for p in self.prestacoes if p.saldo),
            Fraction(0),
        )

    def avancar(self, antes_de: date) -> date | None:
        """The rescission, if reached on a day before ``antes_de`` (each day after a due date
        is checked once, with the payments made up to it)."""
        while self._verificados < len(self.prestacoes):
            vencimento = self.prestacoes[self._verificados].vencimento
            if vencimento == date.max:  # no day after 31/12/9999: never past due
                return None
            dia = vencimento + timedelta(days=1)
            if dia >= antes_de:
                return None
            self._verificados += 1
            atrasadas = [p for p in self.prestacoes if p.vencimento < dia and p.saldo]
            ultima = self.prestacoes[-1]
            if len(atrasadas) >= self.para_rescisao or (ultima.vencimento < dia and ultima.saldo):
                self.rescindido_em = dia
                return dia
        return None

    def pagar(self, dia: date, valor: Fraction | None) -> tuple[Fraction, Fraction, Fraction]:
        """(principal, interest, excess) of a payment to the instalments, oldest first; one
        without ``valor`` pays every unpaid instalment with its interest on ``dia``."""
        taxa = self.taxa(dia)
        if valor is None:
            valor = self.saldo + self.juros_em(dia)
        principal, juros, restante = Fraction(0), Fraction(0), valor
        for p in self.prestacoes:
            if not p.saldo or not restante:
                continue
            sobre = Fraction(arredondar(p.saldo * taxa))
            if restante >= p.saldo + sobre:
                principal, juros = principal + p.saldo, juros + sobre
                p.juros += sobre
                restante -= p.saldo + sobre
                p.saldo, p.quitada_em = Fraction(0), dia
                continue
            # short of the instalment: its principal part, a centavo below it at most (the
            # rounding never pays it off)
            parte = min(Fraction(arredondar(restante / (1 + taxa))), p.saldo - Fraction(1, 100))
            principal, juros = principal + parte, juros + restante - parte
            p.saldo -= parte
            p.juros += restante - parte
            restante = Fraction(0)
        return principal, juros, restante

    def quitar(self, dia: date) -> None:
        """A payment without ``valor`` settles every instalment still owed (its interest
        is not known here: a processo without ``valor_multa``)."""
        for p in self.prestacoes:
            if p.saldo:
                p.saldo, p.quitada_em = Fraction(0), dia

    def como_dict(self) -> dict[str, Any]:
        return {
            "data": self.data.isoformat(),
            "valor_consolidado": para_json(self.consolidado),
            "parcelas_para_rescisao": self.para_rescisao,
            "rescindido_em": None if self.rescindido_em is None else self.rescindido_em.isoformat(),
            "prestacoes": [
                {
                    "numero": p.numero,
                    "vencimento": p.vencimento.isoformat(),
                    "valor": para_json(arredondar(p.valor)),
                    "pago": para_json(arredondar(p.valor - p.saldo)),
                    "juros_pagos": para_json(arredondar(p.juros)),
                    "saldo": para_json(arredondar(p.saldo)),
                    "quitada_em": None if p.quitada_em is None else p.quitada_em.isoformat(),
                }
                for p in self.prestacoes
            ],
        }

    def prazos(self, referencia: date) -> list[Prazo]:
        """Each instalment a deadline of the autuado (spec § 6.2 v4): ``cumprido`` (or
        ``cumprido_com_atraso``) once paid in full, ``encerrado`` when the plan was rescinded
        before it was paid, else ``vencido`` or ``em_aberto`` on ``referencia``."""
        caput = vigencia_em(self.legislacao, "ciclo.parcelamento_maximo", self.data)
        juros = vigencia_em(self.legislacao, "ciclo.parcelamento_juros", self.data)
        prazos = []
        for p in self.prestacoes:
            if p.quitada_em is not None:
                situacao = "cumprido" if p.quitada_em <= p.vencimento else "cumprido_com_atraso"
            elif self.rescindido_em is not None and self.rescindido_em <= referencia:
                situacao = "encerrado"
            else:
                situacao = "vencido" if referencia > p.vencimento else "em_aberto"
            prazos.append(
                Prazo(
                    f"{PREFIXO_PARCELA}{p.numero}",
                    p.vencimento,
                    f"{fundamento(caput)}; {fundamento(juros)}",
                    f"{p.numero - 1} meses a partir do pedido de parcelamento "
                    f"({formatar_data(self.data)}), ajustados ao fim do mês: "
                    f"{data_com_dia_da_semana(p.vencimento)}; prestação de "
                    f"{formatar_brl(arredondar(p.valor))}, mais os juros do mês do pagamento; não "
                    "é prorrogado para dia útil (leitura desta ferramenta)",
                    "parcelamento",
                    caput.texto,
                    situacao,
                )
            )
        return prazos
