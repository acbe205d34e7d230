"""The late charges of spec § 3.5 accrued on an ``anp`` processo's principal from its
vencimento to a date, as the ledger of § 6.2 (:mod:`multas.nucleo.ciclo.devido`) reads them."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from fractions import Fraction

from multas.nucleo.ciclo.parcelamento import SemSelic
from multas.nucleo.ciclo.processo import Processo
from multas.nucleo.datas import formatar_data, meses_ou_fracao
from multas.nucleo.legislacao import Legislacao
from multas.nucleo.legislacao.selic import texto_do_mes
from multas.nucleo.regimes.anp import _encargos_da_lei_9847, sem_selic

ZERO = Fraction(0)


def _mes(dia: date) -> int:
    return dia.year * 12 + dia.month - 1


class Taxas:
    """The § 3.5 rates accrued from the vencimento to a date, as fractions of the principal:
    (interest, late fine)."""

    def __init__(
        self, processo: Processo, legislacao: Legislacao, vencimento: date, decisao: date
    ) -> None:
        self.vencimento = vencimento
        self.encargos = processo.encargos
        self.serie = legislacao.selic
        #: the Selic months used, each with its rate and source, in order
        self.meses: dict[str, tuple[Decimal, str]] = {}
        #: the rates already computed, by date (many payments, one day)
        self._ja: dict[date, tuple[Fraction, Fraction]] = {}
        #: the Selic summed over the months from the one after the vencimento's to ``_fim``,
        #: excluded
        self._soma, self._fim = ZERO, _mes(vencimento) + 1
        if self.encargos == "lei-9847":
            # the law whose numbers the decision's ciência picks, as anp.mora does
            lei = legislacao.em(decisao)
            if lei.get("anp.juros_mora") is None:
                raise SemSelic(
                    f"os encargos de mora não vigiam em {formatar_data(decisao)}, data da "
                    "decisão definitiva"
                )
            self.juros, self.multa = _encargos_da_lei_9847(lei)
            self.fonte = self.juros
            return
        lei = legislacao.em(vencimento)
        art_37a = lei.get("anp.encargos_lei_10522")
        if art_37a is None:
            raise SemSelic(
                "a leitura encargos = lei-10522 (Lei nº 10.522/2002, art. 37-A) não vigia no "
                f"vencimento, {formatar_data(vencimento)}"
            )
        self.fonte = art_37a
        self.por_dia, self.limite = lei["anp.multa_mora_dia"], lei["anp.multa_mora_limite"]
        self.juros = self.selic = lei["anp.juros_selic"]
        self.multa = self.por_dia

    def ate(self, dia: date) -> tuple[Fraction, Fraction]:
        if dia not in self._ja:
            self._ja[dia] = self._ate(dia)
        return self._ja[dia]

    def _ate(self, dia: date) -> tuple[Fraction, Fraction]:
        if dia <= self.vencimento:
            return ZERO, ZERO
        if self.encargos == "lei-9847":
            n = meses_ou_fracao(self.vencimento, dia)
            return self.juros.fracao * n, self.multa.fracao * n
        dias = (dia - self.vencimento).days
        multa = min(self.por_dia.fracao * dias, self.limite.fracao)
        if _mes(dia) <= _mes(self.vencimento):
            return ZERO, multa
        return self._soma_ate(_mes(dia)) / 100 + self.selic.fracao, multa

    def _soma_ate(self, fim: int) -> Fraction:
        """The Selic (% a month) of the months after the vencimento's and before ``fim``,
        summed once: each date extends the sum the previous ones left (the cost grows with
        the months, never with the payments times the months)."""
        while self._fim < fim:
            self._soma += Fraction(self._selic(texto_do_mes(self._fim)))
            self._fim += 1
        if self._fim == fim:
            return self._soma
        soma = self._soma  # an earlier date than one already summed
        for i in range(fim, self._fim):
            soma -= Fraction(self._selic(texto_do_mes(i)))
        return soma

    def _selic(self, mes: str) -> Decimal:
        if mes in self.meses:
            return self.meses[mes][0]
        taxa = self.serie.get(mes)
        if taxa is None:
            raise SemSelic(sem_selic(mes, self.serie.primeiro, self.serie.ultimo))
        self.meses[mes] = (taxa.taxa, taxa.fonte)
        return taxa.taxa
