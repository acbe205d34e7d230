"""Spec § 6.2 v4: what an ``anp`` processo owes on a date, and what its payments paid.

The fine fixed by the decision (``valor_multa``, the principal) is due by the deadline
``pagamento`` (the vencimento); after it, the late charges of § 3.5 accrue under the reading
``encargos``. Charges accrue on the principal outstanding: on each payment, the principal then
outstanding times (the § 3.5 rate from the vencimento to this payment minus that to the previous
one), each charge rounded to the centavo on its own; charges bear no charges. With no payment
the amount equals ``anp.mora`` for the same dates. Each payment is allocated by the reading
``imputacao``; the discount of Lei nº 9.847/1999 art. 4º § 3º by the reading ``desconto``.

Readings where § 6.2 is silent (also in ``docs/ciclo.md#devido``):

- The amount owed on a date counts the payments made up to that date, included: a payment
  recorded for a later day has not been made on it. (Every recorded event still sets the
  estado and the deadlines, § 6 v3.)
- Under ``imputacao = proporcional``, the late fine's and the interest's shares are rounded to
  the centavo, half up, and the principal takes the rest, so the shares add up to the payment.
- A ``pagamento`` without ``valor`` settles what is owed on its day: its value is that amount
  (the discounted amount, when the discount can still be had).
- Under ``desconto = integral``, the payment that brings the payments up to the discount's
  deadline to ``valor_com_desconto`` settles the debt; what it pays beyond is the excess.
  Under ``proporcional``, each payment in time settles its value ÷ (1 − the reduction) of the
  principal, rounded to the centavo; the one that would settle more than remains settles the
  rest, and pays the rest × (1 − the reduction), rounded; beyond that is the excess.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from decimal import Decimal
from fractions import Fraction
from functools import partial
from typing import Any

from multas.nucleo.ciclo.contagem import (
    _fora_do_calendario,
    _ForaDoCalendario,
    _prazo_em_dias,
    _prazo_pagamento,
    vigencia_em,
)
from multas.nucleo.ciclo.devido_textos import texto_juros, texto_multa, texto_pagamento
from multas.nucleo.ciclo.parcelamento import ContaDoPlano, SemSelic
from multas.nucleo.ciclo.processo import EventoDatado, Processo
from multas.nucleo.ciclo.taxas import Taxas
from multas.nucleo.datas import formatar_data
from multas.nucleo.dinheiro import arredondar, formatar_brl, formatar_percentual, para_json
from multas.nucleo.erros import EntradaInvalida
from multas.nucleo.legislacao import Legislacao, Vigencia
from multas.nucleo.legislacao.selic import indice, mes_br
from multas.nucleo.memoria import Memoria, Passo
from multas.nucleo.rotulos import leitura

ZERO = Fraction(0)


@dataclass(frozen=True, slots=True)
class PagamentoImputado:
    """One payment and where it went (spec § 6.2 v4)."""

    data: date
    valor: Decimal
    multa_mora: Decimal
    juros_mora: Decimal
    principal: Decimal
    #: the part of the fine the discount forgave with this payment
    desconto: Decimal
    #: what it paid beyond what was owed
    excedente: Decimal
    #: the part that went to the encargo legal (``None``: none was owed then)
    encargo_legal: Decimal | None = None

    def como_dict(self) -> dict[str, Any]:
        imputado = {
            "multa_mora": para_json(self.multa_mora),
            "juros_mora": para_json(self.juros_mora),
            "principal": para_json(self.principal),
        }
        if self.encargo_legal is not None:
            imputado["encargo_legal"] = para_json(self.encargo_legal)
        return {
            "data": self.data.isoformat(),
            "valor": para_json(self.valor),
            "imputado": imputado,
            "desconto": para_json(self.desconto),
            "excedente": para_json(self.excedente),
        }


@dataclass(frozen=True, slots=True)
class Devido:
    """What is owed on ``em``: the principal and the charges accrued up to it, what was paid
    and forgiven, and the balance."""

    em: date
    encargos: str
    imputacao: str
    principal: Decimal
    juros_mora: Decimal
    multa_mora: Decimal
    desconto: Decimal
    pagamentos: tuple[PagamentoImputado, ...]
    saldo: Decimal
    avisos: tuple[str, ...] = field(default=())
    #: after the Dívida Ativa inscription: ``True`` (the key is in the output), with its
    #: amount, or ``None`` without ``encargo_legal_percentual``
    inscrito: bool = False
    encargo_legal: Decimal | None = None
    #: spec § 6.2 v4: the parcelamento, its instalments and their payments (``None``: none)
    parcelamento: dict[str, Any] | None = None
    #: the same, as the account kept it (for the instalments' deadlines; its dict above is
    #: what compares)
    plano: ContaDoPlano | None = field(default=None, compare=False)
    #: the memória de cálculo, written out only when read (:attr:`passos`)
    memoria: Memoria | None = field(default=None, compare=False, repr=False)

    @property
    def passos(self) -> tuple[Passo, ...]:
        return () if self.memoria is None else tuple(self.memoria.passos)

    @property
    def pago(self) -> Decimal:
        return sum((p.valor for p in self.pagamentos), Decimal("0.00"))

    @property
    def excedente(self) -> Decimal:
        return sum((p.excedente for p in self.pagamentos), Decimal("0.00"))

    def como_dict(self) -> dict[str, Any]:
        return {
            "em": self.em.isoformat(),
            "principal": para_json(self.principal),
            "juros_mora": para_json(self.juros_mora),
            "multa_mora": para_json(self.multa_mora),
            "desconto": para_json(self.desconto),
            "pago": para_json(self.pago),
            "saldo": para_json(self.saldo),
            "excedente": para_json(self.excedente),
            **(
                {
                    "encargo_legal": None
                    if self.encargo_legal is None
                    else para_json(self.encargo_legal)
                }
                if self.inscrito
                else {}
            ),
            **({"parcelamento": self.parcelamento} if self.parcelamento is not None else {}),
            "encargos": self.encargos,
            "imputacao": self.imputacao,
            "pagamentos": [p.como_dict() for p in self.pagamentos],
            "memoria": [p.como_dict() for p in self.passos],
        }


def _dec(valor: Fraction) -> Decimal:
    return arredondar(valor)


class _Conta:
    """The running account of one processo: what remains of each part, and what accrued."""

    def __init__(self, processo: Processo, legislacao: Legislacao, m: Memoria) -> None:
        assert processo.valor_multa is not None
        self.processo, self.legislacao, self.m = processo, legislacao, m
        self.principal0 = Fraction(processo.valor_multa)
        self.p, self.j, self.mm = self.principal0, ZERO, ZERO
        #: spec § 6.2 v4: the encargo legal owed (``None``: not inscribed, or no rate given)
        self.el: Fraction | None = None
        self.el_total: Fraction | None = None
        self.inscrito = False
        self.juros_total, self.multa_total, self.desconto_total = ZERO, ZERO, ZERO
        self.ultimo: date | None = None
        self.pagos: list[PagamentoImputado] = []
        self.pagos_no_prazo = ZERO
        #: spec § 6.2 v4: the parcelamento in force (``None``: none, or rescinded)
        self.plano: ContaDoPlano | None = None
        self.plano_feito: ContaDoPlano | None = None
        self.avisos: list[str] = []
        m.passo(
            "Valor da multa fixado na decisão (principal)",
            self.principal0,
            "valor_multa",
            "quantia",
        )
        vencimento = _prazo_pagamento(processo, legislacao)
        self.taxas: Taxas | None = None
        if vencimento is not None:
            decisao = processo.evento("ciencia_decisao_definitiva") or processo.evento(
                "renuncia_recurso"
            )
            assert decisao is not None
            m.passo(
                f"Vencimento (prazo 'pagamento'): {vencimento.contagem}",
                vencimento.data,
                vencimento.fundamento,
            )
            self.taxas = Taxas(processo, legislacao, vencimento.data, decisao.data)
            m.passo(
                f"Encargos de mora depois do vencimento (leitura {leitura('encargos', processo.encargos)})",
                None,
                self.taxas.fonte,
            )
        self.desconto = self._regra_do_desconto()

    def _regra_do_desconto(self) -> tuple[date, Fraction, Fraction, Vigencia] | None:
        """(deadline, reduction, discounted amount, provision) when the appeal was waived."""
        p, legislacao = self.processo, self.legislacao
        renuncia, primeira = p.evento("renuncia_recurso"), p.evento("ciencia_primeira_instancia")
        if renuncia is None or primeira is None:
            return None
        prazo = _prazo_em_dias(p, legislacao, "recurso", "ciclo.recurso", primeira)
        regra = vigencia_em(legislacao, "ciclo.pagamento_com_desconto", renuncia.data)
        com_desconto = Fraction(arredondar(self.principal0 * (1 - regra.fracao)))
        return prazo.data, regra.fracao, com_desconto, regra

    @property
    def em_aberto(self) -> Fraction:
        plano = self.plano.saldo if self.plano is not None else ZERO
        return self.p + self.j + self.mm + (self.el or ZERO) + plano

    def parcelar(self, evento: EventoDatado) -> None:
        """Spec § 6.2 v4: the debt consolidated on the request date becomes the plan's (the
        given ``valor_consolidado``; an aviso when it differs from what is owed that day)."""
        assert evento.plano is not None
        juros, multa = self._incremento(evento.data)
        devido_no_dia = self.em_aberto + juros + multa
        consolidado = evento.plano.valor_consolidado
        regra = vigencia_em(self.legislacao, "ciclo.parcelamento_consolidacao", evento.data)
        if Fraction(consolidado) != devido_no_dia:
            self.avisos.append(
                f"O valor consolidado do parcelamento ({formatar_brl(consolidado)}) difere do "
                f"valor devido em {formatar_data(evento.data)} calculado aqui "
                f"({formatar_brl(_dec(devido_no_dia))}): vale o consolidado ({regra.dispositivo})."
            )
        self.m.passo(
            f"Parcelamento pedido em {formatar_data(evento.data)}: débito consolidado em "
            f"{evento.plano.parcelas} prestações mensais",
            Fraction(consolidado),
            regra,
            "quantia",
        )
        self.acumular(evento.data)
        self.p = self.j = self.mm = ZERO
        self.el = None if self.el is None else ZERO
        self.plano = self.plano_feito = ContaDoPlano.do_evento(
            evento, self.legislacao, self.processo.valor_minimo_parcela
        )

    def rescindir(self, dia: date) -> None:
        """Reading ``rescisao-parcelamento``: from ``dia`` the instalments' unpaid principal is
        owed with § 3.5's charges, ``dia`` taken as its vencimento."""
        assert self.plano is not None
        self.p = self.plano.saldo
        self.plano = None
        self.taxas = Taxas(self.processo, self.legislacao, dia, dia)
        self.ultimo = None
        self.m.passo(
            f"Parcelamento rescindido em {formatar_data(dia)}: o principal das prestações não "
            "pagas volta a ser devido, com os encargos de mora contados desse dia (leitura "
            "rescisao-parcelamento)",
            self.p,
            "multas: docs/ciclo.md#parcelamento-no-processo",
            "quantia",
        )

    def pagar_prestacoes(self, evento: EventoDatado) -> None:
        assert self.plano is not None
        valor = None if evento.valor is None else Fraction(evento.valor)
        principal, juros, excedente = self.plano.pagar(evento.data, valor)
        pago = principal + juros + excedente
        self.m.passo(
            f"Pagamento de {formatar_data(evento.data)} às prestações do parcelamento, da mais "
            f"antiga: {formatar_brl(_dec(principal))} de principal e {formatar_brl(_dec(juros))} "
            "de juros (a Selic desde o mês seguinte ao da consolidação e "
            f"{formatar_percentual(self.plano.um_por_cento)} no mês do pagamento)"
            + (f"; excedente {formatar_brl(_dec(excedente))}" if excedente else ""),
            _dec(self.em_aberto),
            vigencia_em(self.legislacao, "ciclo.parcelamento_juros", evento.data),
            "quantia",
        )
        self.pagos.append(
            PagamentoImputado(
                evento.data,
                _dec(pago),
                _dec(ZERO),
                _dec(juros),
                _dec(principal),
                _dec(ZERO),
                _dec(excedente),
            )
        )

    def _incremento(self, ate: date) -> tuple[Fraction, Fraction]:
        """The charges the principal outstanding accrues from the last payment (or the
        vencimento) to ``ate``, each rounded on its own."""
        if self.taxas is None or ate <= self.taxas.vencimento or self.p == 0:
            return ZERO, ZERO
        j0, m0 = self.taxas.ate(self.ultimo) if self.ultimo else (ZERO, ZERO)
        j1, m1 = self.taxas.ate(ate)
        return Fraction(_dec(self.p * (j1 - j0))), Fraction(_dec(self.p * (m1 - m0)))

    def inscrever(self, dia: date, legislacao: Legislacao) -> None:
        """Spec § 6.2 v4: the encargo legal, ``encargo_legal_percentual`` of the balance
        (principal and charges) outstanding on the inscription date, rounded on its own
        (that base is the spec's reading). The charges to that day are not booked here: the
        intervals stay those between payments."""
        regra = legislacao.parametro("anp.encargo_legal").em(dia)
        if regra is None:  # inscribed before art. 37-A § 1º existed: no encargo legal
            return
        self.inscrito = True
        percentual = self.processo.encargo_legal_percentual
        if percentual is None:
            return
        juros, multa = self._incremento(dia)
        base = self.em_aberto + juros + multa
        encargo = Fraction(_dec(base * Fraction(percentual) / 100))
        self.m.passo(
            f"Encargo legal na inscrição em Dívida Ativa ({formatar_data(dia)}): "
            f"{formatar_percentual(Fraction(percentual) / 100)} (encargo_legal_percentual; a taxa "
            "é a da legislação da Dívida Ativa da União, Decreto-Lei nº 1.025/1969, texto não "
            f"transcrito) sobre o saldo de {formatar_brl(_dec(base))} nesse dia (arredondado ao "
            "centavo)",
            encargo,
            regra,
            "quantia",
        )
        self.el = self.el_total = encargo

    def acumular(self, ate: date) -> None:
        """The charges from the last payment (or the vencimento) to ``ate`` on the principal
        outstanding, each rounded on its own."""
        if self.taxas is None or ate <= self.taxas.vencimento or self.p == 0:
            self.ultimo = ate if self.ultimo is None or ate > self.ultimo else self.ultimo
            return
        j0, m0 = self.taxas.ate(self.ultimo) if self.ultimo else (ZERO, ZERO)
        j1, m1 = self.taxas.ate(ate)
        de = max(self.ultimo or self.taxas.vencimento, self.taxas.vencimento)
        juros, multa = self._incremento(ate)
        # the descriptions are formatted only if the steps are read (a hot loop)
        periodo = (de, ate, self.p)
        self.m.passo(partial(texto_juros, *periodo, j0, j1), juros, self.taxas.juros, "quantia")
        self.m.passo(partial(texto_multa, *periodo, m0, m1), multa, self.taxas.multa, "quantia")
        self.j += juros
        self.mm += multa
        self.juros_total += juros
        self.multa_total += multa
        self.ultimo = ate

    def pagar(self, evento: EventoDatado) -> None:
        self.acumular(evento.data)
        desconto = self.desconto
        if desconto is not None and evento.data <= desconto[0]:
            self._pagar_no_prazo_do_desconto(evento, desconto)
            return
        valor = self.em_aberto if evento.valor is None else Fraction(evento.valor)
        multa, juros, principal, legal = self._imputar(valor)
        self._registrar(evento.data, valor, multa, juros, principal, ZERO, legal)

    def _pagar_no_prazo_do_desconto(
        self, evento: EventoDatado, regra: tuple[date, Fraction, Fraction, Vigencia]
    ) -> None:
        prazo, reducao, com_desconto, vigencia = regra
        encargos = self.mm + self.j
        if self.processo.desconto == "integral":
            falta = com_desconto - self.pagos_no_prazo
            valor = falta if evento.valor is None else Fraction(evento.valor)
            self.pagos_no_prazo += valor
            if valor < falta:
                multa, juros, pago, _ = self._imputar(valor)
                self._registrar(evento.data, valor, multa, juros, pago, ZERO)
                return
            principal = max(ZERO, falta - encargos)
        else:
            resto_do_principal = Fraction(_dec(self.p * (1 - reducao)))
            valor = (
                encargos + resto_do_principal if evento.valor is None else Fraction(evento.valor)
            )
            credito = (valor - encargos) / (1 - reducao)
            if valor - encargos < resto_do_principal:
                pago = valor - encargos
                perdoado = Fraction(_dec(credito)) - pago
                self.m.passo(
                    f"Desconto de {formatar_percentual(reducao)} sobre o pagamento de "
                    f"{formatar_data(evento.data)}, no prazo (leitura {leitura('desconto', 'proporcional')})",
                    perdoado,
                    vigencia,
                    "quantia",
                )
                self._registrar(evento.data, valor, self.mm, self.j, pago, perdoado)
                return
            principal = resto_do_principal
        perdoado = self.p - principal
        self.m.passo(
            f"Desconto de {formatar_percentual(reducao)}: os pagamentos até "
            f"{formatar_data(prazo)} quitam a multa com redução "
            f"(leitura {leitura('desconto', self.processo.desconto)})",
            perdoado,
            vigencia,
            "quantia",
        )
        self._registrar(evento.data, valor, self.mm, self.j, principal, perdoado)

    def _imputar(self, valor: Fraction) -> tuple[Fraction, Fraction, Fraction, Fraction]:
        """(late fine, interest, principal, encargo legal) of a payment, by the reading
        ``imputacao``; what exceeds them all is the excess (the caller's). The encargo legal,
        which § 6.2 does not place, comes last under ``encargos`` and takes its share under
        ``proporcional`` (docs/ciclo.md#devido)."""
        legal_aberto = self.el or ZERO
        if valor >= self.em_aberto:
            return self.mm, self.j, self.p, legal_aberto
        if self.processo.imputacao == "encargos":
            multa = min(valor, self.mm)
            juros = min(valor - multa, self.j)
            principal = min(valor - multa - juros, self.p)
            return multa, juros, principal, valor - multa - juros - principal
        total = self.em_aberto
        abertos = [self.mm, self.j, legal_aberto]
        partes = [min(a, Fraction(_dec(valor * a / total))) for a in abertos]
        principal = valor - sum(partes)
        # a centavo of rounding beyond the principal goes back to the others, in order
        for i in (1, 2, 0):
            mais = min(max(ZERO, principal - self.p), abertos[i] - partes[i])
            partes[i] += mais
            principal -= mais
        for i in (0, 2, 1):  # and never below zero: back from the others
            menos = min(max(ZERO, -principal), partes[i])
            partes[i] -= menos
            principal += menos
        multa, juros, legal = partes
        return multa, juros, principal, legal

    def _registrar(
        self,
        dia: date,
        valor: Fraction,
        multa: Fraction,
        juros: Fraction,
        principal: Fraction,
        perdoado: Fraction,
        legal: Fraction = ZERO,
    ) -> None:
        pago = multa + juros + principal + legal
        excedente = max(ZERO, valor - pago)
        self.mm -= multa
        self.j -= juros
        self.p -= principal + perdoado
        if self.el is not None:
            self.el -= legal
        self.desconto_total += perdoado
        self.m.passo(
            partial(
                texto_pagamento,
                dia,
                (valor, multa, juros, principal, None if self.el is None else legal, excedente),
                self.processo.imputacao,
            ),
            _dec(self.em_aberto),
            "multas: imputação dos pagamentos (docs/ciclo.md#devido)",
            "quantia",
        )
        self.pagos.append(
            PagamentoImputado(
                dia,
                _dec(valor),
                _dec(multa),
                _dec(juros),
                _dec(principal),
                _dec(perdoado),
                _dec(excedente),
                None if self.el is None else _dec(legal),
            )
        )


def _conta(
    processo: Processo,
    legislacao: Legislacao,
    em: date,
    m: Memoria,
    quitados: list[int] | None = None,
) -> _Conta:
    """The account up to ``em``: the payments on or before it, then the charges up to it;
    the index of the payment that leaves a zero balance goes into ``quitados``."""
    conta = _Conta(processo, legislacao, m)
    _, quitada = _correr(conta, processo, legislacao, em, 0, quitados)
    if not quitada:
        _fechar(conta, em)
    return conta


def _correr(
    conta: _Conta,
    processo: Processo,
    legislacao: Legislacao,
    em: date,
    inicio: int,
    quitados: list[int] | None = None,
) -> tuple[int, bool]:
    """Run the events from ``inicio`` dated on or before ``em`` into the account: (the index
    of the first event not run, whether a payment left a zero balance, the last run)."""
    eventos = processo.eventos
    for i in range(inicio, len(eventos)):
        evento = eventos[i]
        if evento.data > em:
            return i, False
        if conta.plano is not None and (dia := conta.plano.avancar(evento.data)):
            conta.rescindir(dia)
        if evento.nome == "inscricao_divida_ativa" and conta.plano is None:
            conta.inscrever(evento.data, legislacao)
        elif evento.nome == "inscricao_divida_ativa":
            conta.avisos.append(
                f"Inscrição em Dívida Ativa em {formatar_data(evento.data)}, com o parcelamento "
                "em vigor: o parcelamento continua e vale o valor consolidado; o encargo legal "
                "não é acrescido a ele (leitura desta ferramenta)."
            )
        elif evento.nome == "parcelamento":
            conta.parcelar(evento)
        elif evento.nome == "pagamento":
            try:
                if conta.plano is not None:
                    conta.pagar_prestacoes(evento)
                else:
                    conta.pagar(evento)
            except SemSelic as erro:
                raise SemSelic(erro.mensagem, i) from None
            if conta.em_aberto == 0:
                if quitados is not None:
                    quitados.append(i)
                return i + 1, True
    return len(eventos), False


def _fechar(conta: _Conta, em: date) -> None:
    """The account closed on ``em``: a parcelamento rescinded by then, the charges to it."""
    depois = em if em == date.max else em + timedelta(days=1)
    if conta.plano is not None and (dia := conta.plano.avancar(depois)):
        conta.rescindir(dia)
    conta.acumular(em)


@dataclass
class Previa:
    """The account as :func:`quitacao_e_previa` left it: the events run up to the last
    payment's date ``ate`` (or to the payment that settled, ``quitada``), not yet closed on
    a date. :func:`devido` on a date not before ``ate`` goes on from it, once (``usada``),
    and only for the same processo (events, amounts, readings), the same ``legislacao``
    object and a memória that records as this one does: anything else runs anew."""

    ate: date
    conta: _Conta
    proximo: int
    quitada: bool
    legislacao: Legislacao
    usada: bool = False

    def serve(self, processo: Processo, legislacao: Legislacao, em: date) -> bool:
        if self.usada or em < self.ate or legislacao is not self.legislacao:
            return False
        if self.conta.m.registra != Memoria().registra:
            return False
        dia = processo.data_referencia
        lido = replace(self.conta.processo, data_referencia=dia, previa=None, quitado_em=None)
        return lido == replace(processo, previa=None, quitado_em=None)


def primeira_quitacao(processo: Processo, legislacao: Legislacao) -> int | None:
    """The index of the first ``pagamento`` that leaves a zero balance (:func:`quitacao_e_previa`)."""
    return quitacao_e_previa(processo, legislacao)[0]


def quitacao_e_previa(
    processo: Processo, legislacao: Legislacao
) -> tuple[int | None, Previa | None]:
    """The index of the first ``pagamento`` that leaves a zero balance, in one pass over the
    payments (spec § 6.2 v4; the cost grows with their number, never with its square), and
    the account that pass left (:class:`Previa`). Without ``valor_multa`` every payment is
    one without ``valor``, which settles (spec § 6 v3)."""
    pagamentos = [i for i, e in enumerate(processo.eventos) if e.nome == "pagamento"]
    if not pagamentos:
        return None, None
    if processo.valor_multa is None or any(
        processo.eventos[i].valor is None for i in pagamentos[:1]
    ):
        return pagamentos[0], None
    quitados: list[int] = []
    ate = processo.eventos[pagamentos[-1]].data
    try:
        conta = _Conta(processo, legislacao, Memoria())
        proximo, quitada = _correr(conta, processo, legislacao, ate, 0, quitados)
    except SemSelic as erro:
        if erro.indice is None:
            raise EntradaInvalida("interpretacao.encargos", erro.mensagem) from None
        pagamento = processo.eventos[erro.indice]
        raise EntradaInvalida(
            f"eventos[{erro.indice}].data",
            f"{erro.mensagem} (para imputar o pagamento de {formatar_data(pagamento.data)})",
        ) from None
    except _ForaDoCalendario as erro:
        raise _fora_do_calendario(processo, erro) from None
    return (quitados[0] if quitados else None), Previa(ate, conta, proximo, quitada, legislacao)


def _conta_em(processo: Processo, legislacao: Legislacao, em: date) -> _Conta:
    """The account on ``em``: gone on from the one reading the processo left, when ``em``
    is not before its last payment (and it was not taken already), else run anew."""
    previa = processo.previa
    if not isinstance(previa, Previa) or not previa.serve(processo, legislacao, em):
        return _conta(processo, legislacao, em, Memoria())
    previa.usada = True
    conta = previa.conta
    if not previa.quitada:
        _, quitada = _correr(conta, processo, legislacao, em, previa.proximo)
        if not quitada:
            _fechar(conta, em)
    return conta


def devido(
    processo: Processo, legislacao: Legislacao, em: date
) -> tuple[Devido | None, list[str], ContaDoPlano | None]:
    """Spec § 6.2 v4: what is owed on ``em``, with ``valor_multa`` and a definitive decision
    (else ``None``), its avisos, and the parcelamento's account when there is one (its
    instalments are deadlines even when the amount owed cannot be computed). A Selic month
    the charges need that neither the shipped nor the added series has leaves it ``None``,
    with an aviso naming the month."""
    definitiva = processo.evento("ciencia_decisao_definitiva") or processo.evento(
        "renuncia_recurso"
    )
    if definitiva is None:
        return None, [], None
    if processo.valor_multa is None:
        plano = _plano_sem_multa(processo, legislacao, em)
        avisos = [] if plano is None else _avisos_do_parcelamento(processo, plano, legislacao)
        return None, avisos, plano
    try:
        conta = _conta_em(processo, legislacao, em)
    except SemSelic as erro:
        return None, [f"Valor devido em {formatar_data(em)} não calculado: {erro.mensagem}."], None
    except _ForaDoCalendario:  # the deadlines themselves already refused the processo
        return None, [], None
    assert conta.taxas is not None
    m = conta.m
    for mes, (taxa, fonte) in sorted(conta.taxas.meses.items(), key=lambda i: indice(i[0])):
        m.passo(f"Selic de {mes_br(mes)} (% no mês)", Fraction(taxa), fonte, "numero")
    saldo = conta.em_aberto
    parcelamento = None
    if conta.plano_feito is not None:
        parcelamento = conta.plano_feito.como_dict()
        avisos_plano = _avisos_do_parcelamento(processo, conta.plano_feito, legislacao)
        m.avisos.extend(a for a in avisos_plano if a not in m.avisos)
        if conta.plano is not None:
            try:
                juros_plano = conta.plano.juros_em(em)
            except SemSelic as erro:
                nao = f"Valor devido em {formatar_data(em)} não calculado: {erro.mensagem}."
                return None, [nao, *avisos_plano], conta.plano_feito
            parcelamento["juros_em"] = para_json(_dec(juros_plano))
            saldo += juros_plano
    m.passo(
        f"Saldo devido em {formatar_data(em)}",
        saldo,
        "multas: soma do que resta de principal, juros e multa de mora",
        "quantia",
    )
    avisos = list(m.avisos) + [a for a in conta.avisos if a not in m.avisos]
    if conta.inscrito and processo.encargo_legal_percentual is None:
        previsao = vigencia_em(legislacao, "anp.encargo_legal", em)
        avisos.append(
            f"Encargo legal não calculado: depois da inscrição em Dívida Ativa, o crédito é "
            f'acrescido de encargo legal ({previsao.dispositivo}: "{previsao.texto}"), cuja taxa está '
            "na legislação da Dívida Ativa da União (Decreto-Lei nº 1.025/1969, texto não "
            "transcrito): informe encargo_legal_percentual. O saldo não o inclui."
        )
    if any(p.excedente for p in conta.pagos):
        excesso = sum((p.excedente for p in conta.pagos), Decimal("0.00"))
        avisos.append(
            f"Pagamento acima do devido: excedente de {formatar_brl(excesso)}, que não quita "
            "nada e pode ser pedido de volta à ANP."
        )
    regra = conta.desconto
    if regra is not None and saldo and em <= regra[0]:
        falta = regra[2] - conta.pagos_no_prazo
        if processo.desconto == "proporcional":
            falta = conta.mm + conta.j + Fraction(_dec(conta.p * (1 - regra[1])))
        avisos.append(
            f"Pagando {formatar_brl(_dec(falta))} até {formatar_data(regra[0])}, a multa fica "
            f"quitada com a redução de {formatar_percentual(regra[1])} ({regra[3].dispositivo})."
        )
    resultado = Devido(
        em,
        processo.encargos,
        processo.imputacao,
        _dec(conta.principal0),
        _dec(conta.juros_total),
        _dec(conta.multa_total),
        _dec(conta.desconto_total),
        tuple(conta.pagos),
        _dec(saldo),
        inscrito=conta.inscrito,
        encargo_legal=None if conta.el_total is None else _dec(conta.el_total),
        parcelamento=parcelamento,
        plano=conta.plano_feito,
        memoria=m,
    )
    return resultado, avisos, conta.plano_feito


__all__ = [
    "Devido",
    "PagamentoImputado",
    "Previa",
    "SemSelic",
    "devido",
    "primeira_quitacao",
    "quitacao_e_previa",
]


def _avisos_do_parcelamento(
    processo: Processo, plano: ContaDoPlano, legislacao: Legislacao
) -> list[str]:
    """Spec § 6.2 v4: a plan without an earlier inscription (art. 37-B § 1º), the PGF's acts
    not checked, and the rescission's reading."""
    avisos = []
    evento = next(e for e in processo.eventos if e.nome == "parcelamento")
    inscricao = processo.evento("inscricao_divida_ativa")
    so_inscritos = vigencia_em(legislacao, "ciclo.parcelamento_inscritos", evento.data)
    if inscricao is None or processo.indice("inscricao_divida_ativa") > processo.indice(
        "parcelamento"
    ):
        avisos.append(
            f'Parcelamento sem inscrição em Dívida Ativa antes dele: "{so_inscritos.texto}" '
            f"({so_inscritos.dispositivo})."
        )
    regra = vigencia_em(legislacao, "ciclo.parcelamento_rescisao", evento.data)
    origem = (
        "parcelas_para_rescisao, a do acordo ou do ato da Procuradoria-Geral Federal"
        if plano.rescisao_dada
        else f"o padrão: {regra.dispositivo}"
    )
    avisos.append(
        f"Rescisão do parcelamento (leitura rescisao-parcelamento): {plano.para_rescisao} "
        "prestações vencidas e não pagas, seguidas ou não, ou a última, rescindem-no "
        f"({origem}); a regra do próprio art. 37-B (§§ 11 em diante, texto não transcrito) e "
        "os atos da Procuradoria-Geral Federal não foram conferidos."
    )
    return avisos


def _plano_sem_multa(processo: Processo, legislacao: Legislacao, em: date) -> ContaDoPlano | None:
    """A parcelamento in a processo without ``valor_multa``: its instalments, paid by the
    payments after it (without ``valor``, each settles what remains), and its rescission."""
    indice = next((i for i, e in enumerate(processo.eventos) if e.nome == "parcelamento"), None)
    if indice is None or processo.eventos[indice].data > em:
        return None
    plano = ContaDoPlano.do_evento(
        processo.eventos[indice], legislacao, processo.valor_minimo_parcela
    )
    for evento in processo.eventos[indice + 1 :]:
        if evento.data > em or plano.avancar(evento.data):
            return plano
        if evento.nome == "pagamento":
            plano.quitar(evento.data)
    plano.avancar(em if em == date.max else em + timedelta(days=1))
    return plano
